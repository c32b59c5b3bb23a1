"""rust_core: embedding lookup, softmax and multi-threaded attention over NumPy arrays, in Rust.

The compiled module is private (``rust_core._rust_core``); this package re-exports it.
"""

from rust_core._rust_core import (
    __version__,
    attention,
    attention_weights,
    embedding_lookup,
    get_num_threads,
    one_hot,
    set_num_threads,
    softmax,
)

__all__ = [
    "__version__",
    "attention",
    "attention_weights",
    "embedding_lookup",
    "get_num_threads",
    "one_hot",
    "set_num_threads",
    "softmax",
]
