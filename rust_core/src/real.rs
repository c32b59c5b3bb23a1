//! The element types the kernels compute in: `f32` and `f64`, natively (no silent up-casting).
//!
//! `Real` is numbers only: arithmetic (from `num_traits::Float`) and conversion. Which code a
//! type runs (a float32 SIMD loop, a float64 libm loop) is chosen by a small trait beside each
//! kernel (`simd::exp::ExpSum`, `linalg::norm::NormRows`, `linalg::skinny::FewRows`, …), so this
//! module depends on nothing in the crate.

use num_traits::Float;

pub trait Real: Float + Send + Sync + std::fmt::Debug + 'static {
    /// `x` rounded to this type, overflowing to ±inf as a NumPy cast does (`as` semantics).
    fn from_f64_lossy(x: f64) -> Self;
}

impl Real for f32 {
    fn from_f64_lossy(x: f64) -> Self {
        x as f32
    }
}

impl Real for f64 {
    fn from_f64_lossy(x: f64) -> Self {
        x
    }
}
