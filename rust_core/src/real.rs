//! The element types: `f32` and `f64`, which the kernels compute in natively (no silent
//! up-casting), and the integer types of ids and positions.
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

/// An id of any integer type: widening to `i128` keeps every value of every type exact, so
/// `u64::MAX` is reported as itself rather than wrapping to −1.
pub trait Id: Copy + Send + Sync + Into<i128> {}
impl<I: Copy + Send + Sync + Into<i128>> Id for I {}
