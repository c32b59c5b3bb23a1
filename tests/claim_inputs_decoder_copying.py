"""Inputs of the Copying-in-SmolLM2 page's claims (tests/test_claims.py): SmolLM2's own scores and
losses on repeated random tokens, its second-copy losses on a few texts said twice with the copying
heads switched off, and made-up numbers on both sides of every verdict's edge."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from transformer_walk.topics import decoder_induction as induction

from smollm2_support import MODEL_SKIP, RUST_SKIP, shared_model

#: The texts said twice in the real check (7 forwards each, so not every text of the corpus): the
#: default, repeated words, Chinese, digits and punctuation, one letter.
REAL_TEXTS = (
    "Tom loves his dog",
    "the cat saw the cat",
    "汤姆爱他的狗",
    "In 2024, 3.5% of 1,000 users paid $12.99!",
    "x",
)


def _model() -> Any:
    return shared_model("numpy" if RUST_SKIP is not None else "rust")


@functools.cache
def _found() -> induction.CopyingHeads | None:
    """The real scores (8 forwards of 50 tokens), once per test process."""
    return None if MODEL_SKIP is not None else induction.find_heads(_model())


@functools.cache
def _offs() -> tuple[induction.CopyLosses, ...]:
    """Each real text and a line break, twice, with the three strongest heads off."""
    found = _found()
    if found is None:
        return ()
    model = _model()
    return tuple(
        induction.switch_off(
            model,
            induction.twice(model.tokenize(text + "\n"))[None],
            found.strongest(3),
            found.copying(),
        )
        for text in REAL_TEXTS
    )


def _made_up_scores() -> Iterator[tuple[np.ndarray, np.ndarray, float]]:
    rng = np.random.default_rng(0)
    chance = 0.03
    low = rng.uniform(0.0, 0.05, (3, 4))
    yield low, low, chance  # nothing copies
    for best in (0.14, 0.15, 0.16, 0.26, 0.9):  # around 5 × chance, and the 25% floor
        scores = low.copy()
        scores[1, 2] = best
        yield scores, low, chance
        controls = low.copy()
        controls[1, 2] = best / 5  # exactly at the control's bound
        yield scores, controls, chance
    tied = np.full((2, 2), 0.5)
    yield tied, np.zeros((2, 2)), chance


def heads(text: str) -> Iterator[tuple[Any, ...]]:
    found = _found()
    if found is not None:
        yield (found.scores, found.control_scores, found.chance)
    yield from _made_up_scores()


def losses(text: str) -> Iterator[tuple[Any, ...]]:
    found = _found()
    if found is not None:
        yield (found.loss_first, found.loss_second)
    yield from ((10.0, 4.9), (10.0, 5.0), (10.0, 5.1), (1.0, 2.0), (3.0, 0.0))


def offs(text: str) -> Iterator[tuple[Any, ...]]:
    """Real losses of ``REAL_TEXTS`` said twice, and made-up ones on every side of the controls
    and of the intact loss."""
    for found in _offs():
        labels = [f"L{layer + 1}·H{head + 1}" for layer, head in found.heads]
        yield (labels, found.intact_loss, found.off_loss, found.control_losses)
    for off in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5):
        yield (["L1·H1", "L2·H3"], 1.8, off, [1.0, 2.0, 3.0])
        yield (["L1·H1"], 2.2, off, [2.0, 3.0])
    yield (["L1·H1"], 1.0, 1.0, [1.0])
    yield (["L1·H1"], 1.001, 1.004, [0.5, 2.0])  # the same to two places
    yield (["L1·H1"], 1.204, 1.026, [1.1, 1.5])
    yield ([], 1.0, 2.0, [1.0])


@functools.cache
def _strongest_weights() -> tuple[tuple[Any, str], ...]:
    """The strongest copying head's weights on each real text said twice."""
    found = _found()
    if found is None:
        return ()
    model = _model()
    layer, head = found.strongest(1)[0]
    out = []
    for text in REAL_TEXTS:
        ids = induction.twice(model.tokenize(text + "\n"))
        weights = model.forward(ids, keep=("weights",), last_only=True).records[layer]["weights"]
        out.append((weights[head], "1 · t"))
    return tuple(out)


def sinks(text: str) -> Iterator[tuple[Any, ...]]:
    yield from _strongest_weights()
    rows = np.tril(np.ones((4, 4))) / np.arange(1, 5)[:, None]  # (4, 4): spread evenly
    yield (rows, "1 · a")
    rested = rows.copy()
    rested[1:, 0], rested[1:, 1:] = 0.5, np.tril(np.full((3, 3), 0.5 / 3))[:, :]
    yield (rested, "1 · a")  # exactly half: not past it
    rested[1:, 0] = 0.51
    yield (rested, "1 · a")
    yield (rows[:1, :1], "1 · a")


INPUTS: dict[str, Callable[[str], Iterator[tuple[Any, ...]]]] = {
    "transformer_walk.topics.decoder_induction.heads_claim": heads,
    "transformer_walk.topics.decoder_induction.loss_claim": losses,
    "transformer_walk.topics.decoder_induction.off_claim": offs,
    "transformer_walk.topics.decoder_induction.sink_claim": sinks,
}
