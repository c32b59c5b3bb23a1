"""What attention costs (seed §30–32): path lengths, sequential steps, operation counts, and
attention's time and memory measured against the sequence length n.

Pure functions, no Streamlit: the Cost page renders what they return. Timings are real
``time.perf_counter`` medians on seeded random input; nothing here asserts how fast anything is.
"""

from __future__ import annotations

import contextlib
import functools
import math
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np

# rust_core's tiled attention (rust_core/src/attention.rs, BLOCK_Q and BLOCK_K): a task takes 64
# query rows and walks the keys 256 at a time, so it holds at most a 64 × 256 tile of scores,
# whatever n is. tests/test_cost.py reads the Rust source to keep these in step.
TILE_QUERIES = 64
TILE_KEYS = 256

FLOAT32_BYTES = 4

# The sequence lengths timed by default: powers of two, so a log–log axis spaces them evenly.
DEFAULT_SIZES: tuple[int, ...] = (64, 128, 256, 512, 1024, 2048)


# --- Paths and parallelism (seed §30–31; Vaswani et al. 2017, Table 1) -----------------------


@dataclass(frozen=True)
class LayerCost:
    """One layer type on a sequence of n tokens of width d (kernel width k for the CNN)."""

    name: str  # "rnn" | "cnn" | "attention"
    max_path: int  # layers (or steps) a signal needs from the first token to the last
    sequential_steps: int  # steps of one layer that must run one after another
    operations: int  # multiply-adds of one layer, leading term


def rnn_cost(n: int, d: int) -> LayerCost:
    """h_t = f(h_{t-1} W + x_t U): token 1 reaches token n after n − 1 steps, one step at a time;
    each step multiplies a d-vector by a d × d matrix."""
    return LayerCost("rnn", max_path=max(n - 1, 0), sequential_steps=n, operations=n * d * d)


def cnn_layers_to_connect(n: int, k: int) -> int:
    """Stacked contiguous convolutions of width k: L layers see 1 + L(k − 1) tokens, so the first
    and the last of n tokens meet after ⌈(n − 1)/(k − 1)⌉ layers."""
    if k < 2:
        raise ValueError("a kernel must span at least 2 tokens to connect anything")
    return math.ceil(max(n - 1, 0) / (k - 1))


def cnn_cost(n: int, d: int, k: int) -> LayerCost:
    """All positions of one convolution layer are computed at once (1 sequential step); each of
    the n outputs mixes k inputs of width d into width d."""
    return LayerCost(
        "cnn", max_path=cnn_layers_to_connect(n, k), sequential_steps=1, operations=k * n * d * d
    )


def attention_cost(n: int, d: int) -> LayerCost:
    """Every query meets every key in one layer (path 1), all at once; QKᵀ and AV are n² dot
    products of width d each."""
    return LayerCost(
        "attention", max_path=1 if n > 1 else 0, sequential_steps=1, operations=n * n * d
    )


def layer_costs(n: int, d: int, k: int) -> list[LayerCost]:
    return [rnn_cost(n, d), cnn_cost(n, d, k), attention_cost(n, d)]


# --- Where O(n²·d) overtakes O(n·d²) (seed §32) -------------------------------------------------


def attention_ops(n: np.ndarray | int, d: int) -> np.ndarray:
    """n² · d: the score matrix QKᵀ and the mix AV, leading term."""
    return np.asarray(n, dtype=float) ** 2 * d


def dense_ops(n: np.ndarray | int, d: int) -> np.ndarray:
    """n · d²: every token through a d × d matrix (the Q/K/V/O projections and the FFN)."""
    return np.asarray(n, dtype=float) * d * d


def crossover_n(d: int) -> int:
    """n² d = n d² ⇔ n = d: beyond this length the attention term is the larger one."""
    return d


def crossover_curve(
    d: int, n_max: int, points: int = 60
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, n²d, nd²) on a geometric grid from 1 to n_max, for the chart."""
    n = np.unique(np.geomspace(1, max(n_max, 2), points).round().astype(int))
    return n, attention_ops(n, d), dense_ops(n, d)


# --- Memory -------------------------------------------------------------------------------------


def score_matrix_bytes(n: int, heads: int = 1, itemsize: int = FLOAT32_BYTES) -> int:
    """The full n × n score (or weight) matrix of standard attention, per head."""
    return heads * n * n * itemsize


def tiled_working_bytes(n: int, itemsize: int = FLOAT32_BYTES) -> int:
    """Scores a tiled kernel's task holds at once: a tile of at most TILE_QUERIES × TILE_KEYS
    (smaller only when n itself is smaller), the same for every n beyond the tile."""
    return min(n, TILE_QUERIES) * min(n, TILE_KEYS) * itemsize


# --- Timing -------------------------------------------------------------------------------------


def numpy_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """softmax(q kᵀ / √d) v written out in NumPy: the n × n matrix exists in memory, whole."""
    s = q @ k.T / math.sqrt(q.shape[-1])  # (n, n)
    e = np.exp(s - s.max(axis=-1, keepdims=True))  # (n, n), stable: the row maximum becomes 0
    return (e / e.sum(axis=-1, keepdims=True)) @ v  # (n, n) @ (n, d) → (n, d)


def random_qkv(n: int, d: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seeded float32 q, k, v of shape [n, d] each."""
    rng = np.random.default_rng([seed, n, d])
    q, k, v = (rng.standard_normal((n, d), dtype=np.float32) for _ in range(3))
    return q, k, v


# A sample shorter than this is mostly clock noise: fast calls are repeated inside one sample.
MIN_SAMPLE_S = 2e-3
# Warm-up runs at least this long, so a thread pool has spread over the cores before we time it.
MIN_WARMUP_S = 0.05
# Pause after a NumPy lane, so OpenBLAS threads still spinning do not steal the next lane's cores.
SETTLE_S = 0.1


def median_seconds(call: Callable[[], object], repeats: int, budget_s: float) -> tuple[float, int]:
    """Median seconds per call over up to ``repeats`` samples, stopping early once the samples
    have used ``budget_s`` (at least one sample is always taken). Returns (median, samples).

    Warm-up calls come first (first-call costs are not the kernel's); a call faster than
    MIN_SAMPLE_S is looped inside each sample and the sample divided by the loop count."""
    warm_start = time.perf_counter()
    warm_calls = 0
    while warm_calls < 1 or time.perf_counter() - warm_start < MIN_WARMUP_S:
        call()
        warm_calls += 1
        if time.perf_counter() - warm_start > budget_s:
            break
    per_call = (time.perf_counter() - warm_start) / warm_calls
    loops = max(1, min(1000, math.ceil(MIN_SAMPLE_S / max(per_call, 1e-9))))
    samples: list[float] = []
    spent = 0.0
    while len(samples) < repeats and (not samples or spent < budget_s):
        start = time.perf_counter()
        for _ in range(loops):
            call()
        elapsed = time.perf_counter() - start
        samples.append(elapsed / loops)
        spent += elapsed
    return statistics.median(samples), len(samples)


@dataclass(frozen=True)
class Timing:
    lane: str  # "numpy" | "rust"
    n: int
    seconds: float  # median per call
    samples: int


def time_attention(
    lanes: dict[str, Callable[[np.ndarray, np.ndarray, np.ndarray], object]],
    sizes: Sequence[int],
    d: int,
    *,
    repeats: int = 5,
    budget_s: float = 3.0,
) -> Iterator[Timing | None]:
    """Time each lane at each n (lane by lane, n ascending), yielding one Timing per (lane, n).

    The whole run is bounded by ``budget_s``: each cell gets an equal share for its samples, and
    a cell that would start after the budget is spent is skipped (yielded as None, so a progress
    bar can still count it)."""
    cells = [(lane, n) for lane in lanes for n in sorted(sizes)]
    share = budget_s / max(len(cells), 1)
    started = time.perf_counter()
    previous_lane = None
    for lane, n in cells:
        if previous_lane == "numpy" and lane != "numpy":
            time.sleep(SETTLE_S)
        previous_lane = lane
        if time.perf_counter() - started > budget_s:
            yield None
            continue
        call = functools.partial(lanes[lane], *random_qkv(n, d))
        seconds, count = median_seconds(call, repeats, share)
        yield Timing(lane, n, seconds, count)


@contextlib.contextmanager
def one_thread(rust: ModuleType | None) -> Iterator[bool]:
    """Both lanes on one thread, a like-for-like race (and the steadiest on a shared machine):
    rust_core's pool is set to 1 and restored after; NumPy's BLAS is limited through threadpoolctl
    when that is installed. Yields whether NumPy could be limited."""
    from transformer_walk.bench import THREAD_COUNT_LOCK  # one lock for every measurement

    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # optional: without it NumPy keeps its BLAS's own thread count
        threadpool_limits = None
    limiter = threadpool_limits(1) if threadpool_limits else contextlib.nullcontext()
    with THREAD_COUNT_LOCK:
        previous = rust.get_num_threads() if rust is not None else None
        try:
            if rust is not None:
                rust.set_num_threads(1)
            with limiter:
                yield threadpool_limits is not None
        finally:
            if rust is not None and previous is not None:
                rust.set_num_threads(previous)


def fitted_slope(ns: Sequence[float], seconds: Sequence[float], min_n: int = 0) -> float | None:
    """The slope of log t against log n (np.polyfit, degree 1) over the points with n ≥ min_n:
    t ∝ n^slope. None with fewer than two such points."""
    pairs = [(n, t) for n, t in zip(ns, seconds, strict=True) if n >= min_n and t > 0]
    if len({n for n, _ in pairs}) < 2:
        return None
    log_n = np.log([n for n, _ in pairs])
    log_t = np.log([t for _, t in pairs])
    slope, _intercept = np.polyfit(log_n, log_t, 1)
    return float(slope)
