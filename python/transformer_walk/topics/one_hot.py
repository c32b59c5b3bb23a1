"""One-hot vectors, measured: their memory, their (lack of) geometry, and one-hot @ E vs a lookup.

x_i = (0, …, 0, 1, 0, …, 0) ∈ R^{|V|} has a single 1, at the token's id. Three facts follow, and
this module computes each of them rather than asserting it:

- memory: n tokens take n × |V| numbers, almost all zeros;
- no geometry: two different one-hot vectors are orthogonal, so every pair of different words has
  cosine similarity 0 (cat–dog exactly as unlike as cat–computer);
- e_i = x_iᵀ E picks row i of E, so ``one_hot(ids) @ E`` equals ``embedding_lookup(E, ids)`` —
  at the price of n × |V| × d multiply-adds where the lookup copies n × d numbers.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np

FLOAT32_BYTES = 4
# Realistic vocabularies to compare the toy's with: the example of “From word vectors to
# Transformer” and MiniLM's WordPiece.
REALISTIC_VOCABULARIES: tuple[tuple[str, int], ...] = (("article", 50_000), ("minilm", 30_522))
RACE_VOCABULARY_SIZES: tuple[int, ...] = (1_000, 5_000, 10_000, 30_522, 50_000)
RACE_DEFAULT_VOCABULARY = 30_522
RACE_D = 64  # embedding width of the race's table: small enough that |V| × d stays cheap
RACE_BUDGET_S = 0.6  # the whole race stays under a second
MIN_SAMPLE_S = 1e-3  # calls faster than this are looped inside one sample
MIN_SAMPLES = 5  # a median of fewer samples is at the mercy of one slow call
# The raced one-hot matrix is rebuilt on every rerun of its page: 2,000 tokens at |V| = 50,000
# would be 400 MB each time, so a long sentence races its first tokens only (64 MB of float32).
MAX_RACE_CELLS = 16_000_000


def one_hot_bytes(n: int, vocab_size: int, itemsize: int = FLOAT32_BYTES) -> int:
    """Memory of n one-hot rows of width |V|: n × |V| × itemsize bytes."""
    return n * vocab_size * itemsize


def race_tokens(n: int, vocab_size: int) -> int:
    """How many of a sentence's n tokens the race takes: all of them, unless their one-hot matrix
    at ``vocab_size`` would pass ``MAX_RACE_CELLS`` numbers."""
    return min(n, max(1, MAX_RACE_CELLS // vocab_size))


def race_multiply_adds(n: int, vocab_size: int, d: int = RACE_D) -> int:
    """What ``race`` asks of its backend at the least, counted as ``core.budget`` counts work:
    an [n, |V|] one-hot matrix and an [n, d] lookup per round, in three sizing rounds, the
    check, and the warm-up plus MIN_SAMPLES samples of each step."""
    rounds = 3 + 1 + 1 + MIN_SAMPLES
    return rounds * n * (vocab_size + d)


def human_bytes(size: float) -> str:
    """1536 → '1.5 KB' (powers of 1024, the unit memory is bought in)."""
    for unit in ("B", "KB", "MB", "GB"):
        if abs(size) < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def cosine_matrix(vectors: np.ndarray) -> np.ndarray:
    """cos(u, v) = u·v / (‖u‖ ‖v‖) for every pair of rows of ``vectors`` [m, D] → [m, m]."""
    x = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(x, axis=1)  # (m,)
    dots = x @ x.T  # (m, m)
    with np.errstate(divide="ignore", invalid="ignore"):
        cos = dots / np.outer(norms, norms)
    return np.nan_to_num(cos, nan=0.0)  # a zero row is similar to nothing


def first_occurrences(tokens: Sequence[str]) -> list[int]:
    """Positions of each distinct token's first appearance, in sentence order."""
    seen: dict[str, int] = {}
    for position, token in enumerate(tokens):
        seen.setdefault(token, position)
    return list(seen.values())


def max_off_diagonal(matrix: np.ndarray) -> float:
    m = np.asarray(matrix, dtype=np.float64)
    if m.shape[0] < 2:
        return 0.0
    return float(np.abs(m[~np.eye(m.shape[0], dtype=bool)]).max())


def random_table(vocab_size: int, d: int, seed: int = 0) -> np.ndarray:
    """A seeded stand-in for a learned E [|V|, d] (float32): only its shape matters for speed."""
    return np.random.default_rng([seed, vocab_size, d]).standard_normal((vocab_size, d), np.float32)


def median_seconds(
    fn: Callable[[], object],
    repeats: int,
    deadline: float | None = None,
    min_samples: int = MIN_SAMPLES,
) -> tuple[float, int]:
    """(median wall time of ``fn``, samples taken) over up to ``repeats`` samples, after one
    warm-up call. A call faster than MIN_SAMPLE_S is repeated inside each sample so the clock's
    resolution does not matter. Past ``deadline`` (a ``time.perf_counter()`` value) no sample
    beyond the first ``min_samples`` starts: on a busy machine one call in a hundred can take a
    hundred times longer, and the page must neither hang on it nor trust a lone sample."""
    start = time.perf_counter()
    fn()  # warm-up: caches, allocator and thread pools settle
    first = time.perf_counter() - start
    calls = max(1, min(1000, math.ceil(MIN_SAMPLE_S / max(first, 1e-9))))
    samples: list[float] = []
    for _ in range(max(repeats, min_samples)):
        late = deadline is not None and time.perf_counter() > deadline
        if late and len(samples) >= min_samples:
            break
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples), len(samples)


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
    backend: ModuleType,
    ids: Sequence[int],
    vocab_size: int,
    d: int = RACE_D,
    budget_s: float = RACE_BUDGET_S,
    max_repeats: int = 9,
) -> LookupRace:
    """Time both routes for the sentence's ids in a vocabulary of ``vocab_size`` rows.

    The results are compared before anything is timed. A few untimed rounds give the cost of a
    round; the number of repeats (at least MIN_SAMPLES) is chosen so that all of them fit
    ``budget_s``, and past the budget no optional sample starts.
    """
    ids_array = np.asarray(ids, dtype=np.int64)  # (n,)
    if ids_array.size and (ids_array.min() < 0 or ids_array.max() >= vocab_size):
        raise ValueError(f"ids must be in [0, {vocab_size})")
    table = random_table(vocab_size, d)  # (|V|, d)

    one_hot = backend.one_hot(ids_array, vocab_size, dtype=np.float32)  # (n, |V|)
    via_matmul = one_hot @ table  # (n, d)
    looked_up = backend.embedding_lookup(table, ids_array)  # (n, d)
    max_abs_diff = float(np.abs(via_matmul - looked_up).max()) if ids_array.size else 0.0

    # The cost of one round of all three steps: the fastest of three tries, so that one slow
    # call (a busy machine) does not shrink the number of repeats.
    round_s = math.inf
    for _ in range(3):
        start = time.perf_counter()
        backend.one_hot(ids_array, vocab_size, dtype=np.float32) @ table
        backend.embedding_lookup(table, ids_array)
        round_s = min(round_s, time.perf_counter() - start)
    repeats = int(max(MIN_SAMPLES, min(max_repeats, budget_s // max(round_s, 1e-9))))
    deadline = time.perf_counter() + budget_s
    one_hot_s, k1 = median_seconds(
        lambda: backend.one_hot(ids_array, vocab_size, dtype=np.float32), repeats, deadline
    )
    matmul_s, k2 = median_seconds(lambda: one_hot @ table, repeats, deadline)
    lookup_s, k3 = median_seconds(
        lambda: backend.embedding_lookup(table, ids_array), repeats, deadline
    )
    return LookupRace(
        backend=backend_name,
        n=int(ids_array.size),
        vocab_size=vocab_size,
        d=d,
        repeats=min(k1, k2, k3),
        one_hot_s=one_hot_s,
        matmul_s=matmul_s,
        lookup_s=lookup_s,
        max_abs_diff=max_abs_diff,
    )
