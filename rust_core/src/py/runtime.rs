//! `set_num_threads`, `get_num_threads`, `on_this_thread` and `simd_level`: the runtime the
//! kernels run on.

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

/// `with rust_core.on_this_thread():` the calls this Python thread makes inside the block run on
/// it alone, as with `set_num_threads(1)`, while other threads' calls keep the pool (and
/// `get_num_threads()` inside the block says 1). For pieces of one job run side by side on the
/// caller's own threads. Blocks nest; one object may be entered on several threads at once.
#[pyclass(frozen, module = "rust_core._rust_core", name = "on_this_thread")]
pub struct OnThisThread;

#[pymethods]
impl OnThisThread {
    #[new]
    fn new() -> Self {
        OnThisThread
    }

    fn __enter__(&self) {
        threads::alone(true);
    }

    fn __exit__(
        &self,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> bool {
        threads::alone(false);
        false // an exception raised in the block propagates
    }
}

/// The instruction set this library's own kernels run: "baseline", "avx2" or "avx512" (the
/// CPU's best, capped by `RUST_CORE_SIMD`).
#[pyfunction]
pub fn simd_level() -> &'static str {
    Supported::best().level().name()
}
