"""The One-hot page's race: ``one_hot(ids, |V|) @ E`` against ``embedding_lookup(E, ids)``.

Both routes give the same rows (e_i = x_iᵀ E), so the only difference is the cost: n × |V| × d
multiply-adds against n × d copied numbers. Each step is timed by ``timing.measure``, the one
timing helper of the package, within a budget that keeps the page answering in under a second.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.bench.timing import SYSTEM_CLOCK, Clock, measure
from transformer_walk.core import Backend

RACE_VOCABULARY_SIZES: tuple[int, ...] = (1_000, 5_000, 10_000, 30_522, 50_000)
RACE_DEFAULT_VOCABULARY = 30_522
RACE_D = 64  # embedding width of the race's table: small enough that |V| × d stays cheap
RACE_BUDGET_S = 0.6  # the three timed steps share it; the page stays under a second
RACE_REPEATS = 9  # samples per step at most (fewer when the budget runs out)
# The raced one-hot matrix is rebuilt on every rerun of its page: 2,000 tokens at |V| = 50,000
# would be 400 MB each time, so a long sentence races its first tokens only (64 MB of float32).
MAX_RACE_CELLS = 16_000_000


def race_tokens(n: int, vocab_size: int) -> int:
    """How many of a sentence's n tokens the race takes: all of them, unless their one-hot matrix
    at ``vocab_size`` would pass ``MAX_RACE_CELLS`` numbers."""
    return min(n, max(1, MAX_RACE_CELLS // vocab_size))


def race_multiply_adds(n: int, vocab_size: int, d: int = RACE_D) -> int:
    """What ``race`` asks of its backend at the least, counted as ``core.budget`` counts work:
    an [n, |V|] one-hot matrix and an [n, d] lookup for the check, then for each a probe (which
    is also the warm-up) and up to ``RACE_REPEATS`` samples."""
    rounds = 1 + 1 + RACE_REPEATS
    return rounds * n * (vocab_size + d)


def random_table(vocab_size: int, d: int, seed: int = 0) -> np.ndarray:
    """A seeded stand-in for a learned E [|V|, d] (float32): only its shape matters for speed."""
    return np.random.default_rng([seed, vocab_size, d]).standard_normal((vocab_size, d), np.float32)


@dataclass(frozen=True)
class LookupRace:
    """``one_hot(ids, |V|) @ E`` against ``embedding_lookup(E, ids)`` on one backend."""

    backend: str
    n: int
    vocab_size: int
    d: int
    repeats: int  # samples behind each median (the smallest of the three)
    one_hot_s: float  # building the [n, |V|] one-hot matrix
    matmul_s: float  # one_hot @ E (a NumPy product: the backends have no matmul)
    lookup_s: float  # embedding_lookup(E, ids)
    max_abs_diff: float  # max |one_hot @ E − lookup|: 0 when they agree exactly

    @property
    def one_hot_total_s(self) -> float:
        return self.one_hot_s + self.matmul_s

    @property
    def speedup(self) -> float:
        """How many times faster the lookup is than the one-hot route."""
        return self.one_hot_total_s / self.lookup_s if self.lookup_s > 0 else math.inf

    @property
    def multiply_adds(self) -> int:
        return self.n * self.vocab_size * self.d

    @property
    def copied_numbers(self) -> int:
        return self.n * self.d


def race(
    backend_name: str,
    backend: Backend,
    ids: Sequence[int],
    vocab_size: int,
    d: int = RACE_D,
    budget_s: float = RACE_BUDGET_S,
    clock: Clock = SYSTEM_CLOCK,
) -> LookupRace:
    """Time both routes for the sentence's ids in a vocabulary of ``vocab_size`` rows. The
    results are compared before anything is timed; each of the three steps then gets a third of
    ``budget_s`` for its samples."""
    ids_array = np.asarray(ids, dtype=np.int64)  # (n,)
    if ids_array.size and (ids_array.min() < 0 or ids_array.max() >= vocab_size):
        raise ValueError(f"ids must be in [0, {vocab_size})")
    table = random_table(vocab_size, d)  # (|V|, d)

    one_hot = backend.one_hot(ids_array, vocab_size, dtype=np.float32)  # (n, |V|)
    via_matmul = one_hot @ table  # (n, d)
    looked_up = backend.embedding_lookup(table, ids_array)  # (n, d)
    max_abs_diff = float(np.abs(via_matmul - looked_up).max()) if ids_array.size else 0.0

    share = budget_s / 3
    steps = (
        lambda: backend.one_hot(ids_array, vocab_size, dtype=np.float32),
        lambda: one_hot @ table,
        lambda: backend.embedding_lookup(table, ids_array),
    )
    build, product, lookup = (
        measure(step, repeats=RACE_REPEATS, min_warmup_s=0.0, budget_s=share, clock=clock)
        for step in steps
    )
    return LookupRace(
        backend=backend_name,
        n=int(ids_array.size),
        vocab_size=vocab_size,
        d=d,
        repeats=min(len(m.samples_s) for m in (build, product, lookup)),
        one_hot_s=build.median_s,
        matmul_s=product.median_s,
        lookup_s=lookup.median_s,
        max_abs_diff=max_abs_diff,
    )
