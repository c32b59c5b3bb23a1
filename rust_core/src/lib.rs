//! rust_core: embedding lookup, softmax, multi-threaded (and grouped-query) attention, the dense
//! parts of a Transformer layer (linear, LayerNorm, GELU, RMSNorm, SiLU / SwiGLU), rotary position
//! embedding, products with GGML-quantized weights (Q4_1, Q8_0), and word2vec's skip-gram SGD
//! over NumPy arrays.
//!
//! The kernels (`embedding`, `softmax`, `attention`, `dense`) are plain Rust over slices and know nothing of
//! Python; `py` is the thin binding that converts arrays, releases the GIL and maps errors.

pub mod attention;
pub mod dense;
pub mod embedding;
pub mod error;
pub mod fastexp;
pub mod fastgelu;
pub mod fastnorm;
pub mod fastsilu;
pub mod matmul;
pub mod pool;
pub mod qlinear;
pub mod quant;
pub mod real;
pub mod rope;
pub mod round16;
pub mod rows;
pub mod simd;
pub mod skinny;
pub mod skipgram;
pub mod softmax;
pub mod team;
pub mod threads;
pub mod transpose;

mod py;

/// Big blocks recycled instead of returned to the OS (see `pool`).
#[global_allocator]
static ALLOCATOR: pool::Recycling = pool::Recycling;

#[cfg(test)]
#[path = "../tests/support/mod.rs"]
mod test_support;

use pyo3::prelude::*;

#[pymodule]
#[pyo3(name = "_rust_core")]
fn rust_core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(py::embedding_lookup, m)?)?;
    m.add_function(wrap_pyfunction!(py::one_hot, m)?)?;
    m.add_function(wrap_pyfunction!(py::softmax, m)?)?;
    m.add_function(wrap_pyfunction!(py::attention, m)?)?;
    m.add_function(wrap_pyfunction!(py::attention_weights, m)?)?;
    m.add_function(wrap_pyfunction!(py::attention_with_weights, m)?)?;
    m.add_function(wrap_pyfunction!(py::linear, m)?)?;
    m.add_function(wrap_pyfunction!(py::layer_norm, m)?)?;
    m.add_function(wrap_pyfunction!(py::gelu, m)?)?;
    m.add_function(wrap_pyfunction!(py::rms_norm, m)?)?;
    m.add_function(wrap_pyfunction!(py::rope, m)?)?;
    m.add_function(wrap_pyfunction!(py::silu, m)?)?;
    m.add_function(wrap_pyfunction!(py::swiglu, m)?)?;
    m.add_function(wrap_pyfunction!(py::dequantize, m)?)?;
    m.add_function(wrap_pyfunction!(py::quantized_linear, m)?)?;
    m.add_function(wrap_pyfunction!(py::skipgram_sgd, m)?)?;
    m.add_function(wrap_pyfunction!(py::set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(py::get_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(py::simd_level, m)?)?;
    Ok(())
}
