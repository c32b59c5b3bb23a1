//! The binding: one file per domain, each a thin translation of its Python functions — read the
//! arguments (`convert`, `arrays`), call a kernel without the GIL into new outputs (`output`),
//! return them. No math lives here; errors become exceptions in one place (`convert`).

mod arrays;
mod attention;
mod convert;
mod dense;
mod embedding;
mod output;
mod quantized;
mod runtime;
mod train;

use pyo3::prelude::*;

/// Add every function of the Python API to the module `m`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(embedding::embedding_lookup, m)?)?;
    m.add_function(wrap_pyfunction!(embedding::one_hot, m)?)?;
    m.add_function(wrap_pyfunction!(attention::softmax, m)?)?;
    m.add_function(wrap_pyfunction!(attention::attention, m)?)?;
    m.add_function(wrap_pyfunction!(attention::attention_weights, m)?)?;
    m.add_function(wrap_pyfunction!(attention::attention_with_weights, m)?)?;
    m.add_function(wrap_pyfunction!(attention::attention_backward, m)?)?;
    m.add_function(wrap_pyfunction!(dense::linear, m)?)?;
    m.add_function(wrap_pyfunction!(dense::half_linear, m)?)?;
    m.add_function(wrap_pyfunction!(dense::layer_norm, m)?)?;
    m.add_function(wrap_pyfunction!(dense::gelu, m)?)?;
    m.add_function(wrap_pyfunction!(dense::rms_norm, m)?)?;
    m.add_function(wrap_pyfunction!(dense::rope, m)?)?;
    m.add_function(wrap_pyfunction!(dense::silu, m)?)?;
    m.add_function(wrap_pyfunction!(dense::swiglu, m)?)?;
    m.add_function(wrap_pyfunction!(quantized::dequantize, m)?)?;
    m.add_function(wrap_pyfunction!(quantized::quantized_linear, m)?)?;
    m.add_function(wrap_pyfunction!(embedding::skipgram_sgd, m)?)?;
    m.add_function(wrap_pyfunction!(train::linear_backward, m)?)?;
    m.add_function(wrap_pyfunction!(train::layer_norm_backward, m)?)?;
    m.add_function(wrap_pyfunction!(train::gelu_backward, m)?)?;
    m.add_function(wrap_pyfunction!(train::relu_backward, m)?)?;
    m.add_function(wrap_pyfunction!(train::cross_entropy, m)?)?;
    m.add_function(wrap_pyfunction!(train::embedding_backward, m)?)?;
    m.add_function(wrap_pyfunction!(train::adamw_step, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::get_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(runtime::simd_level, m)?)?;
    m.add_class::<runtime::OnThisThread>()?;
    Ok(())
}
