"""What attention costs (“From word vectors to Transformer” §30–32): path lengths, sequential
steps, operation counts, and attention's time and memory measured against the sequence length n.

Pure functions, no Streamlit and no clock: the Cost page renders what they return, and measures
through ``transformer_walk.bench`` (``time_attention``, ``one_thread``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from transformer_walk.topics.claims import Claim, claim

# rust_core's tiled attention (rust_core/src/kernels/attention.rs, BLOCK_Q and BLOCK_K): a task
# takes 128 query rows and walks the keys 256 at a time, so it holds at most a 128 × 256 tile of
# scores, whatever n is. tests/test_cost.py reads the Rust source to keep these in step.
TILE_QUERIES = 128
TILE_KEYS = 256

FLOAT32_BYTES = 4

# The sequence lengths timed by default: powers of two, so a log–log axis spaces them evenly.
DEFAULT_SIZES: tuple[int, ...] = (64, 128, 256, 512, 1024, 2048)


# --- Paths and parallelism (§30–31; Vaswani et al. 2017, Table 1) -----------------------


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


def projection_ops(n: int, d: int) -> int:
    """4 · n · d²: the Q, K, V and output projections of one self-attention layer, which the
    table's mixing term (n² · d) leaves out."""
    return 4 * n * d * d


def layer_costs(n: int, d: int, k: int) -> list[LayerCost]:
    return [rnn_cost(n, d), cnn_cost(n, d, k), attention_cost(n, d)]


# --- Where O(n²·d) overtakes O(n·d²) (§32) --------------------------------------------------------


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


# --- Measured time -------------------------------------------------------------------------


def numpy_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """softmax(q kᵀ / √d) v written out in NumPy: the n × n matrix exists in memory, whole."""
    s = q @ k.T / math.sqrt(q.shape[-1])  # (n, n)
    e = np.exp(s - s.max(axis=-1, keepdims=True))  # (n, n), stable: the row maximum becomes 0
    return (e / e.sum(axis=-1, keepdims=True)) @ v  # (n, n) @ (n, d) → (n, d)


def fitted_slope(ns: Sequence[float], seconds: Sequence[float], min_n: int = 0) -> float | None:
    """The slope of log t against log n (np.polyfit, degree 1) over the points with n ≥ min_n:
    t ∝ n^slope. None with fewer than two such points."""
    fit = slope_fit(ns, seconds, min_n)
    return None if fit is None else fit.slope


# --- What a fitted slope can say -------------------------------------------------------------

#: The slope the n² term alone gives: doubling n doubles the queries and the keys.
QUADRATIC = 2.0
#: The confidence of the slope's interval.
LEVEL = 0.95
#: A fit whose interval reaches further than this either side of its slope is too noisy to read:
#: it could not tell n^1.5 from n^2, or n^2 from n^2.5.
READABLE_HALF_WIDTH = 0.5


@dataclass(frozen=True)
class SlopeFit:
    """log t = p log n + c fitted by least squares, with p's ``LEVEL`` confidence interval from
    the spread of the points about the line (Student's t with points − 2 degrees of freedom;
    ``low`` and ``high`` are None with two points, which always lie on a line)."""

    slope: float
    low: float | None
    high: float | None
    points: int

    @property
    def half_width(self) -> float | None:
        return None if self.low is None or self.high is None else (self.high - self.low) / 2


def slope_fit(ns: Sequence[float], seconds: Sequence[float], min_n: int = 0) -> SlopeFit | None:
    """The fitted slope of log t against log n over the points with n ≥ min_n and t > 0, with its
    confidence interval; None with fewer than two distinct n."""
    pairs = [(n, t) for n, t in zip(ns, seconds, strict=True) if n >= min_n and t > 0]
    if len({n for n, _ in pairs}) < 2:
        return None
    x = np.log([n for n, _ in pairs])
    y = np.log([t for _, t in pairs])
    slope, intercept = np.polyfit(x, y, 1)
    freedom = len(pairs) - 2
    if freedom < 1:
        return SlopeFit(float(slope), None, None, len(pairs))
    residuals = y - (slope * x + intercept)
    spread = math.sqrt(float(residuals @ residuals) / freedom)  # of log t about the line
    error = spread / math.sqrt(float(((x - x.mean()) ** 2).sum()))  # standard error of the slope
    reach = float(stats.t.ppf(0.5 + LEVEL / 2, freedom)) * error
    return SlopeFit(float(slope), float(slope) - reach, float(slope) + reach, len(pairs))


def growth_kind(fit: SlopeFit) -> str:
    """What the fit can say, as the message that says it: two points (no spread to judge), too
    noisy (an interval wider than ±READABLE_HALF_WIDTH), else where the interval lies against 2:
    quadratic (it holds 2), below or above."""
    if fit.low is None or fit.high is None:
        return "cost.fit.two_points"
    if (fit.high - fit.low) / 2 > READABLE_HALF_WIDTH:
        return "cost.fit.noisy"
    if fit.low <= QUADRATIC <= fit.high:
        return "cost.fit.quadratic"
    return "cost.fit.below" if fit.high < QUADRATIC else "cost.fit.above"


def two_places(value: float) -> str:
    """A slope or bound to two decimals, never "-0.00"."""
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


def _growth_fields(fit: SlopeFit) -> dict[str, object]:
    fields: dict[str, object] = {"slope": two_places(fit.slope), "points": fit.points}
    if fit.low is not None and fit.high is not None:
        fields |= {"low": two_places(fit.low), "high": two_places(fit.high)}
    if growth_kind(fit) == "cost.fit.noisy":
        fields["reach"] = f"{READABLE_HALF_WIDTH:g}"
    return fields


def _growth_holds(
    said: Claim, ns: Sequence[float], seconds: Sequence[float], min_n: int = 0
) -> bool:
    fit = slope_fit(ns, seconds, min_n)
    return (
        fit is not None
        and said.message == growth_kind(fit)
        and dict(said.fields) == _growth_fields(fit)
    )


@claim(_growth_holds)
def growth(ns: Sequence[float], seconds: Sequence[float], min_n: int = 0) -> Claim | None:
    """How one lane's time grew with n, read from its fitted slope and that slope's interval:
    "p ≈ 2" only when the interval holds 2 and is narrow enough to read; otherwise what the slope
    is, or that the points are too few or too scattered to tell. None with no fit."""
    fit = slope_fit(ns, seconds, min_n)
    if fit is None:
        return None
    return Claim(growth_kind(fit), _growth_fields(fit))
