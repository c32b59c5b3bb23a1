"""rust_core: embedding lookup, softmax, multi-threaded attention, linear, LayerNorm and GELU over
NumPy arrays, in Rust.

The compiled module is private (``rust_core._rust_core``); this package re-exports it.
"""

from rust_core._rust_core import (
    __version__,
    attention,
    attention_weights,
    attention_with_weights,
    embedding_lookup,
    gelu,
    get_num_threads,
    layer_norm,
    linear,
    one_hot,
    set_num_threads,
    softmax,
)

__all__ = [
    "__version__",
    "attention",
    "attention_weights",
    "attention_with_weights",
    "embedding_lookup",
    "gelu",
    "get_num_threads",
    "layer_norm",
    "linear",
    "one_hot",
    "set_num_threads",
    "softmax",
]
