"""rust_core: embedding lookup, softmax, multi-threaded (and grouped-query) attention, linear,
LayerNorm, GELU, RMSNorm, SiLU / SwiGLU, rotary position embedding and products with GGML-quantized
weights (Q4_1, Q8_0) and word2vec's skip-gram SGD over NumPy arrays, in Rust.

The compiled module is private (``rust_core._rust_core``); this package re-exports it.
"""

from rust_core._rust_core import (
    __version__,
    attention,
    attention_backward,
    attention_weights,
    attention_with_weights,
    dequantize,
    embedding_lookup,
    gelu,
    get_num_threads,
    layer_norm,
    linear,
    one_hot,
    quantized_linear,
    rms_norm,
    rope,
    set_num_threads,
    silu,
    simd_level,
    skipgram_sgd,
    softmax,
    swiglu,
)

__all__ = [
    "__version__",
    "attention",
    "attention_backward",
    "attention_weights",
    "attention_with_weights",
    "dequantize",
    "embedding_lookup",
    "gelu",
    "get_num_threads",
    "layer_norm",
    "linear",
    "one_hot",
    "quantized_linear",
    "rms_norm",
    "rope",
    "set_num_threads",
    "silu",
    "simd_level",
    "skipgram_sgd",
    "softmax",
    "swiglu",
]
