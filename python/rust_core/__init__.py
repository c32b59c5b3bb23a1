"""rust_core: embedding lookup, softmax, multi-threaded (and grouped-query) attention, linear
(with float32 or half-precision weights), LayerNorm, GELU, RMSNorm, SiLU / SwiGLU, rotary
position embedding and products with GGML-quantized weights (Q4_1, Q8_0), word2vec's skip-gram
SGD, and the backward passes, loss and optimiser step that train a small Transformer, over NumPy
arrays, in Rust.

The compiled module is private (``rust_core._rust_core``); this package re-exports it.
"""

from rust_core._rust_core import (
    __version__,
    adamw_step,
    attention,
    attention_backward,
    attention_weights,
    attention_with_weights,
    cross_entropy,
    dequantize,
    embedding_backward,
    embedding_lookup,
    gelu,
    gelu_backward,
    get_num_threads,
    half_linear,
    layer_norm,
    layer_norm_backward,
    linear,
    linear_backward,
    on_this_thread,
    one_hot,
    quantized_linear,
    relu_backward,
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
