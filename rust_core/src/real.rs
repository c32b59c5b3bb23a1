//! The element types the kernels compute in: `f32` and `f64`, natively (no silent up-casting).

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
