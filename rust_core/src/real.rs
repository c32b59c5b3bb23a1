//! The element types the kernels compute in: `f32` and `f64`, natively (no silent up-casting).

use num_traits::Float;

pub trait Real: Float + Send + Sync + std::fmt::Debug + 'static {}

impl Real for f32 {}
impl Real for f64 {}
