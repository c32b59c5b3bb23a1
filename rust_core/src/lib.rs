//! rust_core: embedding lookup, softmax, multi-threaded (and grouped-query) attention, the dense
//! parts of a Transformer layer (linear, with float32 or half-precision weights, LayerNorm, GELU,
//! RMSNorm, SiLU / SwiGLU), rotary position embedding, products with GGML-quantized weights
//! (Q4_1, Q8_0), and word2vec's skip-gram SGD over NumPy arrays.
//!
//! Layers, each using only those below it (tests/test_rust_layout.py holds the rule):
//!
//! - `py`: the thin binding that converts arrays, releases the GIL and maps errors;
//! - `kernels`: the operations of the Python API, plain Rust over slices;
//! - `linalg`: matrix views, products, transposes and row norms;
//! - `simd`: run-time CPU dispatch and the vectorised exp, erf and SiLU;
//! - `runtime`: the thread pool, the low-latency team and the recycling allocator;
//! - `real` (the element types) and `error` (the one error type) at the bottom.

pub mod error;
pub mod kernels;
pub mod linalg;
pub mod real;
pub mod runtime;
pub mod simd;

mod py;

/// Big blocks recycled instead of returned to the OS (see `runtime::pool`).
#[global_allocator]
static ALLOCATOR: runtime::pool::Recycling = runtime::pool::Recycling;

#[cfg(test)]
#[path = "../tests/support/mod.rs"]
mod test_support;

use pyo3::prelude::*;

#[pymodule]
#[pyo3(name = "_rust_core")]
fn rust_core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    py::register(m)
}
