"""Attention's time against the sequence length n, for the Cost page: each lane at each n.

The lanes are the caller's (the Cost page races its NumPy formula against ``rust_core``), timed
by ``timing.measure`` on seeded float32 q, k, v of shape [n, d], lane by lane, n ascending. The
whole run has a deadline: each cell gets an equal share of it for its samples, and a cell is not
started once the deadline has passed or when its call, estimated from the lane's previous n as
t ∝ n², would end after it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.bench.timing import (
    BLAS_SETTLE_S,
    SYSTEM_CLOCK,
    Clock,
    Deadline,
    measure,
)

AttentionLane = Callable[[np.ndarray, np.ndarray, np.ndarray], object]


def random_qkv(n: int, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seeded float32 q, k, v of shape [n, d] each."""
    rng = np.random.default_rng([seed, n, d])
    q, k, v = (rng.standard_normal((n, d), dtype=np.float32) for _ in range(3))
    return q, k, v


@dataclass(frozen=True)
class Timing:
    lane: str  # "numpy" | "rust"
    n: int
    seconds: float  # median per call
    samples: int


def time_attention(
    lanes: dict[str, AttentionLane],
    sizes: Sequence[int],
    d: int,
    *,
    repeats: int = 5,
    budget_s: float = 3.0,
    clock: Clock = SYSTEM_CLOCK,
) -> Iterator[Timing | None]:
    """One Timing per (lane, n), or None for a cell not started (so a progress bar can still
    count it); the whole run is bounded by ``budget_s`` on ``clock``."""
    cells = [(lane, n) for lane in lanes for n in sorted(sizes)]
    share = budget_s / max(len(cells), 1)
    deadline = Deadline.after(budget_s, clock)
    previous: dict[str, Timing] = {}  # lane → its last timing, the basis of its estimates
    previous_lane = None
    for lane, n in cells:
        if previous_lane == "numpy" and lane != "numpy":
            clock.sleep(BLAS_SETTLE_S)
        previous_lane = lane
        last = previous.get(lane)
        estimate = last.seconds * (n / last.n) ** 2 if last else 0.0
        if deadline.passed() or not deadline.allows(estimate):
            yield None
            continue
        call = functools.partial(lanes[lane], *random_qkv(n, d))
        measured = measure(call, repeats=repeats, budget_s=share, deadline=deadline.at, clock=clock)
        previous[lane] = Timing(lane, n, measured.median_s, len(measured.samples_s))
        yield previous[lane]
