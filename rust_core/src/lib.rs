//! rust_core: embedding lookup, softmax, multi-threaded attention, and the dense parts of a
//! Transformer layer (linear, LayerNorm, GELU) over NumPy arrays.
//!
//! The kernels (`embedding`, `softmax`, `attention`, `dense`) are plain Rust over slices and know nothing of
//! Python; `py` is the thin binding that converts arrays, releases the GIL and maps errors.

pub mod attention;
pub mod dense;
pub mod embedding;
pub mod error;
pub mod fastexp;
pub mod fastgelu;
pub mod matmul;
pub mod real;
pub mod simd;
pub mod skinny;
pub mod softmax;
pub mod threads;

mod py;

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
    m.add_function(wrap_pyfunction!(py::set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(py::get_num_threads, m)?)?;
    Ok(())
}
