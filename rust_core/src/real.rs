//! The element types the kernels compute in: `f32` and `f64`, natively (no silent up-casting).

use num_traits::Float;

pub trait Real: Float + Send + Sync + std::fmt::Debug + 'static {
    /// `x` rounded to this type, overflowing to ±inf as a NumPy cast does (`as` semantics).
    fn from_f64_lossy(x: f64) -> Self;

    /// `row[j] = exp(row[j] − max)` for every j, returning the sum. `max` is the row's finite
    /// maximum. f32 uses the vectorised exp of `fastexp`; f64 keeps libm's exp, whose last-bit
    /// accuracy float64 users expect.
    fn exp_sub_sum(row: &mut [Self], max: Self) -> Self;

    /// 0.5 · x · (1 + erf(x / √2)), the exact GELU.
    fn gelu(x: Self) -> Self;
}

impl Real for f32 {
    fn from_f64_lossy(x: f64) -> Self {
        x as f32
    }

    fn exp_sub_sum(row: &mut [f32], max: f32) -> f32 {
        crate::fastexp::exp_sub_sum_f32(row, max)
    }

    fn gelu(x: f32) -> f32 {
        0.5 * x * (1.0 + libm::erff(x * std::f32::consts::FRAC_1_SQRT_2))
    }
}

impl Real for f64 {
    fn from_f64_lossy(x: f64) -> Self {
        x
    }

    fn exp_sub_sum(row: &mut [f64], max: f64) -> f64 {
        let mut sum = 0.0;
        for x in row.iter_mut() {
            *x = (*x - max).exp();
            sum += *x;
        }
        sum
    }

    fn gelu(x: f64) -> f64 {
        0.5 * x * (1.0 + libm::erf(x * std::f64::consts::FRAC_1_SQRT_2))
    }
}
