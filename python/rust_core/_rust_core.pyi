"""Stubs for the compiled extension; `make lint` checks them against the binary (mypy.stubtest)."""

from typing import Any, final

import numpy as np
import numpy.typing as npt

__all__ = [
    "__version__",
    "adamw_step",
    "attention",
    "attention_backward",
    "attention_weights",
    "attention_with_weights",
    "cross_entropy",
    "dequantize",
    "embedding_backward",
    "embedding_lookup",
    "gelu",
    "gelu_backward",
    "get_num_threads",
    "half_linear",
    "layer_norm",
    "layer_norm_backward",
    "linear",
    "linear_backward",
    "on_this_thread",
    "one_hot",
    "quantized_linear",
    "relu_backward",
    "rms_norm",
    "rope",
    "set_num_threads",
    "silu",
    "simd_level",
    "skipgram_sgd",
    "softmax",
    "swiglu",
]
__version__: str

def embedding_lookup(table: npt.ArrayLike, ids: npt.ArrayLike) -> npt.NDArray[np.floating[Any]]:
    """Rows of `table` [V, d] picked by `ids` (any integer dtype, any shape) → [*ids.shape, d]."""

def one_hot(
    ids: npt.ArrayLike, vocab_size: int, dtype: npt.DTypeLike | None = None
) -> npt.NDArray[np.floating[Any]]:
    """One-hot vectors [*ids.shape, vocab_size]; `dtype` float32 (default) or float64."""

def softmax(x: npt.ArrayLike, axis: int = -1) -> npt.NDArray[np.floating[Any]]:
    """Numerically stable softmax along `axis`."""

def attention(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    *,
    mask: npt.ArrayLike | None = None,
    causal: bool = False,
    scale: float | None = None,
) -> npt.NDArray[np.floating[Any]]:
    """softmax(q kᵀ · scale + mask) v.

    q [..., n, d_k], k [..., m, d_k], v [..., m, d_v] → [..., n, d_v]. Grouped-query attention:
    q [..., h, n, d_k] with k, v [..., h_kv, m, d] where h % h_kv == 0; query head j reads
    key/value head j // (h / h_kv).
    """

def attention_weights(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    *,
    mask: npt.ArrayLike | None = None,
    causal: bool = False,
    scale: float | None = None,
) -> npt.NDArray[np.floating[Any]]:
    """The [..., n, m] weights softmax(q kᵀ · scale + mask)."""

def attention_with_weights(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    *,
    mask: npt.ArrayLike | None = None,
    causal: bool = False,
    scale: float | None = None,
) -> tuple[npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]]]:
    """(attention(...), attention_weights(...)) of one computation: QKᵀ and the softmax run once.

    q [..., n, d_k], k [..., m, d_k], v [..., m, d_v] → ([..., n, d_v], [..., n, m]).
    """

def attention_backward(
    q: npt.ArrayLike,
    k: npt.ArrayLike,
    v: npt.ArrayLike,
    grad_out: npt.ArrayLike,
    *,
    mask: npt.ArrayLike | None = None,
    causal: bool = False,
    scale: float | None = None,
) -> tuple[
    npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]]
]:
    """(grad_q, grad_k, grad_v) of attention(q, k, v, ...) for grad_out [..., n, d_v].

    Each has its input's shape: grouped-query k, v get the sum over the query heads sharing them.
    A query that attends to nothing has zero gradients and adds nothing to grad_k, grad_v.
    """

def linear(
    x: npt.ArrayLike,
    weight: npt.ArrayLike,
    bias: npt.ArrayLike | None = None,
    *,
    weight_t: npt.ArrayLike | None = None,
) -> npt.NDArray[np.floating[Any]]:
    """x · weightᵀ + bias: x [..., in], weight [out, in], bias [out] → [..., out]. weight_t
    [in, out], weight's transpose in C order (kept equal to it by the caller), is what the matrix
    product reads when it is given; the few-row kernel (up to 128 rows of float32 x) reads
    weight."""

def half_linear(
    x: npt.ArrayLike, weight: npt.ArrayLike, bias: npt.ArrayLike | None = None
) -> npt.NDArray[np.float32]:
    """x · float32(weight)ᵀ + bias: x [..., in] float32, weight [out, in] float16, bias [out]
    float32 → [..., out] float32."""

def layer_norm(
    x: npt.ArrayLike,
    gamma: npt.ArrayLike,
    beta: npt.ArrayLike,
    eps: float = 1e-05,
    *,
    residual: npt.ArrayLike | None = None,
) -> npt.NDArray[np.floating[Any]]:
    """LayerNorm over the last axis, as torch.nn.functional.layer_norm; of x + residual (x's
    shape, the sum in x's dtype) when a residual is given."""

def gelu(x: npt.ArrayLike, *, bias: npt.ArrayLike | None = None) -> npt.NDArray[np.floating[Any]]:
    """The exact GELU, 0.5 · z · (1 + erf(z / √2)), elementwise, of z = x, or of x + bias (bias
    [d] along x's rows of d, the sum in x's dtype)."""

def rms_norm(
    x: npt.ArrayLike, weight: npt.ArrayLike, eps: float = 1e-05
) -> npt.NDArray[np.floating[Any]]:
    """RMSNorm over the last axis: x / √(mean(x²) + eps) · weight."""

def rope(
    x: npt.ArrayLike, positions: npt.ArrayLike, base: float = 10000.0
) -> npt.NDArray[np.floating[Any]]:
    """Rotary position embedding over adjacent pairs: x [..., n, d], positions [n] (ints ≥ 0)."""

def silu(x: npt.ArrayLike) -> npt.NDArray[np.floating[Any]]:
    """SiLU, x · σ(x), elementwise."""

def swiglu(gate: npt.ArrayLike, up: npt.ArrayLike) -> npt.NDArray[np.floating[Any]]:
    """SwiGLU, silu(gate) · up, elementwise in one pass (gate and up of one shape)."""

def skipgram_sgd(
    table: npt.ArrayLike,
    output_table: npt.ArrayLike,
    pairs: npt.ArrayLike,
    learning_rates: npt.ArrayLike,
    batch_size: int,
) -> tuple[
    npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]]
]:
    """word2vec's skip-gram SGD with negative sampling: pairs [P, 2 + k] rows (centre, context,
    k negatives), batch_size rows a step, one rate a step → (new table, new output_table, each
    step's summed loss before its update)."""

def linear_backward(
    x: npt.ArrayLike, weight: npt.ArrayLike, grad_y: npt.ArrayLike, *, bias: bool = True
) -> tuple[
    npt.NDArray[np.floating[Any]],
    npt.NDArray[np.floating[Any]],
    npt.NDArray[np.floating[Any]] | None,
]:
    """(grad_x [..., in], grad_weight [out, in], grad_bias [out] or None when bias=False) of
    y = x · weightᵀ + b, summed over x's leading dimensions."""

def layer_norm_backward(
    x: npt.ArrayLike, gamma: npt.ArrayLike, grad_y: npt.ArrayLike, eps: float = 1e-05
) -> tuple[
    npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]]
]:
    """(grad_x, grad_gamma, grad_beta) of layer_norm(x, gamma, beta, eps) over the last axis."""

def gelu_backward(x: npt.ArrayLike, grad_y: npt.ArrayLike) -> npt.NDArray[np.floating[Any]]:
    """grad_x of the exact-erf GELU: grad_y · (Φ(x) + x · φ(x))."""

def relu_backward(x: npt.ArrayLike, grad_y: npt.ArrayLike) -> npt.NDArray[np.floating[Any]]:
    """grad_x of ReLU: grad_y where x > 0, else 0."""

def cross_entropy(
    logits: npt.ArrayLike, targets: npt.ArrayLike, *, ignore_index: int = -100
) -> tuple[float, npt.NDArray[np.floating[Any]]]:
    """(mean loss over rows whose target ≠ ignore_index, grad_logits [N, C]) for logits [N, C] and
    integer targets [N]; nan and a zero gradient when no row counts."""

def embedding_backward(
    ids: npt.ArrayLike, grad_out: npt.ArrayLike, vocab_size: int
) -> npt.NDArray[np.floating[Any]]:
    """grad_table [vocab_size, d] of embedding_lookup: grad_out [*ids.shape, d] summed by id."""

def adamw_step(
    param: npt.NDArray[np.floating[Any]],
    grad: npt.ArrayLike,
    exp_avg: npt.NDArray[np.floating[Any]],
    exp_avg_sq: npt.NDArray[np.floating[Any]],
    *,
    step: int,
    lr: float,
    beta1: float = 0.9,
    beta2: float = 0.999,
    eps: float = 1e-08,
    weight_decay: float = 0.01,
) -> None:
    """One AdamW step (torch.optim.AdamW, foreach=False) in place on param, exp_avg and
    exp_avg_sq (C-contiguous, writeable arrays that share no memory)."""

def dequantize(
    data: npt.ArrayLike, kind: str, shape: tuple[int, ...] | list[int]
) -> npt.NDArray[np.float32]:
    """The float32 values of GGML blocks: data (uint8, whole blocks), kind "q4_1" or "q8_0",
    shape (..., k) with k % 32 == 0."""

def quantized_linear(
    x: npt.ArrayLike, data: npt.ArrayLike, kind: str, shape: tuple[int, ...] | list[int]
) -> npt.NDArray[np.float32]:
    """x̂ · Wᵀ for W [out, in] given as GGML blocks (never expanded in memory) and x̂ = x rounded to
    16 bits per block of 32 values: x [..., in] float32 → [..., out] float32."""

def set_num_threads(n: int) -> None:
    """Resize the thread pool the kernels use (n ≥ 1)."""

def get_num_threads() -> int:
    """The size of the thread pool the kernels use."""

@final
class on_this_thread:
    """`with on_this_thread():` this thread's calls inside the block run on it alone, as with
    `set_num_threads(1)`, while other threads' calls keep the pool. Blocks nest."""

    def __enter__(self) -> None: ...
    def __exit__(self, kind: object, value: object, traceback: object) -> bool: ...

def simd_level() -> str:
    """The instruction set this library's own kernels run: "baseline", "avx2" or "avx512" (the
    CPU's best, capped by the RUST_CORE_SIMD environment variable)."""
