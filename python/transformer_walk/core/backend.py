"""``Backend``: the one typed interface of the three backends.

Every kernel of ``rust_core`` with its signature, written once. ``get_backend`` returns each backend
module as a ``Backend``, so mypy checks the NumPy and pure-Python modules, and ``rust_core`` through
its stub (``_rust_core.pyi``, itself checked against the binary by ``mypy.stubtest``), against this
class: a parameter renamed, dropped, made keyword-only or left without its default in any of them
fails ``make lint``. Callers get typed results instead of ``Any``.

What a signature cannot say — accepted dtypes, shapes, the order of the checks and the text of
every error (docs/api.md) — is checked at run time by ``contract``.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

#: A float32 or float64 array: a kernel's result has the dtype of its float inputs.
FloatArray = npt.NDArray[np.floating[Any]]


class Backend(Protocol):
    """The functions ``get_backend(name)`` returns for every name: ``rust_core``'s kernels.

    The same names, parameters and defaults as ``python/rust_core/_rust_core.pyi``; docs/api.md
    gives their semantics and errors. (``rust_core`` also has ``simd_level`` and ``__version__``,
    which describe the binary, not the computation; the Python backends have neither.)
    """

    def embedding_lookup(self, table: npt.ArrayLike, ids: npt.ArrayLike) -> FloatArray: ...

    def one_hot(
        self, ids: npt.ArrayLike, vocab_size: int, dtype: npt.DTypeLike | None = ...
    ) -> FloatArray: ...

    def softmax(self, x: npt.ArrayLike, axis: int = ...) -> FloatArray: ...

    def attention(
        self,
        q: npt.ArrayLike,
        k: npt.ArrayLike,
        v: npt.ArrayLike,
        *,
        mask: npt.ArrayLike | None = ...,
        causal: bool = ...,
        scale: float | None = ...,
    ) -> FloatArray: ...

    def attention_weights(
        self,
        q: npt.ArrayLike,
        k: npt.ArrayLike,
        *,
        mask: npt.ArrayLike | None = ...,
        causal: bool = ...,
        scale: float | None = ...,
    ) -> FloatArray: ...

    def attention_with_weights(
        self,
        q: npt.ArrayLike,
        k: npt.ArrayLike,
        v: npt.ArrayLike,
        *,
        mask: npt.ArrayLike | None = ...,
        causal: bool = ...,
        scale: float | None = ...,
    ) -> tuple[FloatArray, FloatArray]: ...

    def linear(
        self,
        x: npt.ArrayLike,
        weight: npt.ArrayLike,
        bias: npt.ArrayLike | None = ...,
        *,
        weight_t: npt.ArrayLike | None = ...,
    ) -> FloatArray: ...

    def half_linear(
        self, x: npt.ArrayLike, weight: npt.ArrayLike, bias: npt.ArrayLike | None = ...
    ) -> FloatArray: ...

    def layer_norm(
        self,
        x: npt.ArrayLike,
        gamma: npt.ArrayLike,
        beta: npt.ArrayLike,
        eps: float = ...,
        *,
        residual: npt.ArrayLike | None = ...,
    ) -> FloatArray: ...

    def gelu(self, x: npt.ArrayLike, *, bias: npt.ArrayLike | None = ...) -> FloatArray: ...

    def rms_norm(self, x: npt.ArrayLike, weight: npt.ArrayLike, eps: float = ...) -> FloatArray: ...

    def rope(self, x: npt.ArrayLike, positions: npt.ArrayLike, base: float = ...) -> FloatArray: ...

    def silu(self, x: npt.ArrayLike) -> FloatArray: ...

    def swiglu(self, gate: npt.ArrayLike, up: npt.ArrayLike) -> FloatArray: ...

    def skipgram_sgd(
        self,
        table: npt.ArrayLike,
        output_table: npt.ArrayLike,
        pairs: npt.ArrayLike,
        learning_rates: npt.ArrayLike,
        batch_size: int,
    ) -> tuple[FloatArray, FloatArray, FloatArray]: ...

    def dequantize(
        self, data: npt.ArrayLike, kind: str, shape: tuple[int, ...] | list[int]
    ) -> npt.NDArray[np.float32]: ...

    def quantized_linear(
        self,
        x: npt.ArrayLike,
        data: npt.ArrayLike,
        kind: str,
        shape: tuple[int, ...] | list[int],
    ) -> npt.NDArray[np.float32]: ...

    def linear_backward(
        self, x: npt.ArrayLike, weight: npt.ArrayLike, grad_y: npt.ArrayLike, *, bias: bool = ...
    ) -> tuple[FloatArray, FloatArray, FloatArray | None]: ...

    def layer_norm_backward(
        self, x: npt.ArrayLike, gamma: npt.ArrayLike, grad_y: npt.ArrayLike, eps: float = ...
    ) -> tuple[FloatArray, FloatArray, FloatArray]: ...

    def gelu_backward(self, x: npt.ArrayLike, grad_y: npt.ArrayLike) -> FloatArray: ...

    def relu_backward(self, x: npt.ArrayLike, grad_y: npt.ArrayLike) -> FloatArray: ...

    def attention_backward(
        self,
        q: npt.ArrayLike,
        k: npt.ArrayLike,
        v: npt.ArrayLike,
        grad_out: npt.ArrayLike,
        *,
        mask: npt.ArrayLike | None = ...,
        causal: bool = ...,
        scale: float | None = ...,
    ) -> tuple[FloatArray, FloatArray, FloatArray]: ...

    def cross_entropy(
        self, logits: npt.ArrayLike, targets: npt.ArrayLike, *, ignore_index: int = ...
    ) -> tuple[float, FloatArray]: ...

    def embedding_backward(
        self, ids: npt.ArrayLike, grad_out: npt.ArrayLike, vocab_size: int
    ) -> FloatArray: ...

    # param, exp_avg and exp_avg_sq are updated in place, so they must be arrays (E50).
    def adamw_step(
        self,
        param: FloatArray,
        grad: npt.ArrayLike,
        exp_avg: FloatArray,
        exp_avg_sq: FloatArray,
        *,
        step: int,
        lr: float,
        beta1: float = ...,
        beta2: float = ...,
        eps: float = ...,
        weight_decay: float = ...,
    ) -> None: ...

    def set_num_threads(self, n: int) -> None: ...

    def get_num_threads(self) -> int: ...

    def on_this_thread(self) -> AbstractContextManager[None]: ...


#: The names every backend defines, read off ``Backend`` (in the order written there), so that
#: the run-time checks (``status``, the tests) and the static one cannot list different functions.
KERNELS: tuple[str, ...] = tuple(
    name for name, value in vars(Backend).items() if callable(value) and not name.startswith("_")
)


def missing_kernels(module: object) -> list[str]:
    """The names of ``KERNELS`` that ``module`` lacks (an import can "succeed" without them)."""
    return [name for name in KERNELS if not callable(getattr(module, name, None))]


__all__ = ["KERNELS", "Backend", "FloatArray", "missing_kernels"]
