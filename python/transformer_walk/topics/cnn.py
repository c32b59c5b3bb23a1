"""A 1-D convolution over the toy embeddings, its receptive field, and §31's comparison in numbers.

Eq. (10) of “From word vectors to Transformer” in row-vector form: a window of k consecutive tokens
is concatenated and projected,

    c_i = tanh([x_i; x_{i+1}; …; x_{i+k−1}] W + b),

and every window is computed at once (one matrix product), unlike the RNN's chain. One layer sees
k tokens; each further layer widens the view by k − 1, so after L layers a unit sees
1 + L(k − 1) tokens, and two tokens at distance |i − j| first meet after ⌈|i − j| / (k − 1)⌉ layers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from transformer_walk.topics.claims import Claim, claim


@dataclass(frozen=True)
class ConvWeights:
    W: np.ndarray  # [k · d_in, d_out]
    b: np.ndarray  # [d_out]
    k: int


def init_conv(d_in: int, d_out: int, k: int, *, seed: int) -> ConvWeights:
    """Seeded Gaussian weights of variance 1/(k · d_in): the window sums stay near unit size."""
    if k < 1:
        raise ValueError("the window k must be at least 1")
    rng = np.random.default_rng([seed, 9100])  # 9100: a stream no other toy weight uses
    W = rng.standard_normal((k * d_in, d_out)) / math.sqrt(k * d_in)
    return ConvWeights(W=W, b=np.zeros(d_out), k=k)


def windows(n: int, k: int) -> list[range]:
    """The token positions of every full window ("valid" convolution): n − k + 1 of them."""
    return [range(i, i + k) for i in range(max(0, n - k + 1))]


def conv1d(x: np.ndarray, weights: ConvWeights) -> np.ndarray:
    """c_i for every full window of x [n, d_in] → [n − k + 1, d_out] (empty when n < k)."""
    n, d_in = x.shape
    k = weights.k
    if n < k:
        return np.zeros((0, weights.W.shape[1]))
    # Stack the windows side by side: row i is [x_i; …; x_{i+k−1}], shape (n − k + 1, k · d_in).
    stacked = np.stack([x[w].reshape(k * d_in) for w in windows(n, k)])
    return np.tanh(stacked @ weights.W + weights.b)  # all windows in one product


def receptive_field(k: int, layers: int) -> int:
    """Consecutive tokens one unit sees after ``layers`` layers of window k: 1 + L(k − 1)."""
    return 1 + layers * (k - 1)


def layers_to_link(i: int, j: int, k: int) -> int | None:
    """The fewest layers L with 1 + L(k − 1) ≥ |i − j| + 1; None when k = 1 (never links)."""
    distance = abs(i - j)
    if distance == 0:
        return 0
    if k < 2:
        return None
    return -(-distance // (k - 1))  # ⌈distance / (k − 1)⌉ in integers


def dilated_layers(n: int, k: int) -> int | None:
    """Layers of a dilated stack (dilation 1, k, k², …) until one unit sees all n tokens: the least
    L with k^L ≥ n. None when k = 1."""
    if n <= 1:
        return 0
    if k < 2:
        return None
    layers, span = 0, 1
    while span < n:
        layers, span = layers + 1, span * k
    return layers


def coverage(start: int, k: int, layers: int, n: int) -> list[range]:
    """For layer 0 … ``layers``: the positions seen by the unit whose window starts at ``start``
    (clipped to the sentence)."""
    return [range(start, min(n, start + receptive_field(k, layer))) for layer in range(layers + 1)]


@dataclass(frozen=True)
class Comparison:
    """§31 with numbers: per layer of each model, for a sequence of n tokens of size d."""

    n: int
    k: int
    d: int
    sequential: dict[str, int]  # operations that must run one after another
    max_path: dict[str, int | None]  # longest path between two positions (layers or steps)
    path_ij: dict[str, int | None]  # the path between the two chosen tokens
    cost: dict[str, int]  # multiply-adds per layer, as in Vaswani et al. (2017), Table 1
    cnn_dilated_path: int | None


MODELS = ("rnn", "cnn", "attention")


def compare(n: int, k: int, d: int, i: int, j: int) -> Comparison:
    """The numbers of the comparison table for the user's n, k, d and tokens i, j."""
    far = max(0, n - 1)
    return Comparison(
        n=n,
        k=k,
        d=d,
        sequential={"rnn": n, "cnn": 1, "attention": 1},
        max_path={
            "rnn": far,
            "cnn": layers_to_link(0, far, k),
            "attention": min(1, far),
        },
        path_ij={
            "rnn": abs(i - j),
            "cnn": layers_to_link(i, j, k),
            "attention": min(1, abs(i - j)),
        },
        cost={"rnn": n * d * d, "cnn": k * n * d * d, "attention": n * n * d},
        cnn_dilated_path=dilated_layers(n, k),
    )


def _paths_hold(said: Claim, c: Comparison) -> bool:
    """The counts are the table's, recomputed here, and the verdict matches them."""
    f = said.fields
    if said.message == "rnn_cnn.cmp.one_token":
        return c.n == 1 and f["n"] == 1
    plain = -(-(c.n - 1) // (c.k - 1))  # ⌈(n − 1)/(k − 1)⌉ contiguous layers
    dilated = math.ceil(math.log(c.n, c.k) - 1e-12)  # least L with k^L ≥ n
    same = f["plain"] == plain and f["layers"] == dilated and f["k"] == c.k and f["n"] == c.n
    if said.message == "rnn_cnn.cmp.dilated":
        return same and dilated < plain
    return said.message == "rnn_cnn.cmp.dilated_same" and same and dilated == plain


@claim(_paths_hold)
def paths_claim(c: Comparison) -> Claim | None:
    """What the path rows say about a CNN on this sentence: nothing to connect in one token;
    otherwise whether dilated windows reach the two ends in fewer layers than contiguous ones.
    None without tokens, or when the window is one token wide (no stack connects two tokens)."""
    plain, dilated = c.max_path["cnn"], c.cnn_dilated_path
    if c.n == 1:
        return Claim("rnn_cnn.cmp.one_token", {"n": 1})
    if c.n == 0 or plain is None or dilated is None:
        return None
    message = "rnn_cnn.cmp.dilated" if dilated < plain else "rnn_cnn.cmp.dilated_same"
    return Claim(message, {"k": c.k, "layers": dilated, "plain": plain, "n": c.n})


def _cheaper_holds(said: Claim, c: Comparison) -> bool:
    cheaper = c.cost["attention"] < c.cost["rnn"]
    fields = said.fields == {"n": c.n, "d": c.d}
    return fields and said.message == (
        "rnn_cnn.cmp.cheaper_attention" if cheaper else "rnn_cnn.cmp.cheaper_rnn"
    )


@claim(_cheaper_holds)
def cheaper_claim(c: Comparison) -> Claim:
    """Which per-layer cost of the table is smaller, attention's n²·d or the recurrence's n·d²."""
    cheaper = c.cost["attention"] < c.cost["rnn"]
    return Claim(
        "rnn_cnn.cmp.cheaper_attention" if cheaper else "rnn_cnn.cmp.cheaper_rnn",
        {"n": c.n, "d": c.d},
    )
