"""Arguments for the Seq2seq page's claims about its Transformer (``topics.learning.
reversal_claims``), made from a sentence of the corpus: accuracies, losses and step times drawn
from it, with the edges (ties at the margin, a cliff and a slope, exact and partial answers,
strings too long) every time, so that over the corpus every kind of claim is made."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np


def _rng(text: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(text.encode("utf-8", "surrogatepass")))


def accuracies(text: str) -> Iterator[tuple[Any, ...]]:
    """(length, Transformer, attention, fixed): drawn, and the Transformer 5 points either side."""
    rng = _rng(text)
    a, f = float(rng.uniform(0.3, 1.0)), float(rng.uniform(0.1, 1.0))
    for tf in (float(rng.uniform(0, 1)), min(1.0, a + 0.05), max(0.0, a - 0.05), a + 0.01):
        yield (int(rng.integers(1, 20)), tf, a, f)


def past(text: str) -> Iterator[tuple[Any, ...]]:
    """(long, accuracy at long, at long + 1, attention's at long + 1, chance): a cliff, a
    slope, a fall to just above twice chance, and a draw."""
    rng = _rng(text)
    long = int(rng.integers(1, 20))
    chance = 1 / int(rng.integers(2, 30))
    yield (long, 0.95, chance, 0.9, chance)
    yield (long, 0.95, 0.8, 0.9, chance)
    yield (long, 0.95, min(0.6, 2 * chance + 0.01), 0.9, chance)
    yield (long, *(float(x) for x in rng.uniform(0, 1, 3)), chance)


def losses(text: str) -> Iterator[tuple[Any, ...]]:
    rng = _rng(text)
    for loss in (float(rng.gamma(1.0, 0.2)), 0.1, 0.1001, float("nan")):
        yield (loss, int(rng.integers(1, 100)))


def mean_steps(text: str) -> Iterator[tuple[Any, ...]]:
    """Seconds per step of fixed, attention and Transformer: drawn, and each order of them."""
    rng = _rng(text)
    yield tuple(float(x) for x in rng.uniform(1e-4, 5e-2, 3))
    yield (0.003, 0.004, 0.01)
    yield (0.003, 0.004, 0.001)
    yield (0.003, 0.004, 0.0035)
    yield (0.0, 0.004, 0.0035)


def growths(text: str) -> Iterator[tuple[Any, ...]]:
    """(lengths, seconds per model): step times linear in T for the GRUs and flatter, steeper
    or between for the Transformer; one length only; a zero time."""
    rng = _rng(text)
    lengths = tuple(range(1, int(rng.integers(2, 15)) + 1))
    T = np.array(lengths, dtype=float)
    gru = 1e-4 * (2 * T + 1) * float(rng.uniform(0.5, 2))
    attention = 1.5 * gru
    for slope in (0.05, 0.5 * float(np.ptp(T)), float(rng.uniform(0, 3)), 1e-9):
        tf = 5e-3 * (1 + slope * (T - 1) / max(1.0, float(np.ptp(T))))
        yield (lengths, {"fixed": tuple(gru), "attention": tuple(attention),
                         "transformer": tuple(tf)})  # fmt: skip
    yield ((1,), {"fixed": (1e-3,), "attention": (1e-3,), "transformer": (1e-3,)})
    yield (lengths, {"fixed": tuple(gru * 0), "attention": tuple(gru), "transformer": tuple(gru)})


def own(text: str) -> Iterator[tuple[Any, ...]]:
    """(length, letters right or None, exact, limit)."""
    rng = _rng(text)
    n = int(rng.integers(1, 21))
    right = int(rng.integers(0, n + 1))
    yield (n, n, True, 14)
    yield (n, right, False, 14)
    yield (n, right, right == n, 14)
    yield (n, None, False, 14)
    yield (n, None, False, n - 1)
    yield (n, max(0, n - 1), True, 14)  # exact with a letter wrong: no claim


INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    f"transformer_walk.topics.learning.reversal_claims.{name}": inputs
    for name, inputs in {
        "within_training": accuracies,
        "past_training": past,
        "training_state": losses,
        "mean_step": mean_steps,
        "step_growth": growths,
        "own_answer": own,
    }.items()
}
