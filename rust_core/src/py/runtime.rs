//! `set_num_threads`, `get_num_threads` and `simd_level`: the runtime the kernels run on.

use pyo3::prelude::*;

use crate::py::convert::Int64Arg;
use crate::runtime::threads;
use crate::simd::Supported;

/// Resize the thread pool the kernels use (n ≥ 1). Calls already running finish on the old pool.
#[pyfunction]
pub fn set_num_threads(n: Int64Arg) -> PyResult<()> {
    Ok(threads::set_num_threads(n.get("n")?)?)
}

/// The size of the thread pool the kernels use.
#[pyfunction]
pub fn get_num_threads() -> PyResult<usize> {
    Ok(threads::get_num_threads()?)
}

/// The instruction set this library's own kernels run: "baseline", "avx2" or "avx512" (the
/// CPU's best, capped by `RUST_CORE_SIMD`).
#[pyfunction]
pub fn simd_level() -> &'static str {
    Supported::best().level().name()
}
