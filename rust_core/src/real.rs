//! The element types the kernels compute in: `f32` and `f64`, natively (no silent up-casting).

use num_traits::Float;

use crate::dense::Norm;
use crate::matmul::Mat;

pub trait Real: Float + Send + Sync + std::fmt::Debug + 'static {
    /// Whether `skinny_linear` may take a few rows (float32, on a CPU with its kernel).
    const SKINNY: bool;

    /// `x` rounded to this type, overflowing to ±inf as a NumPy cast does (`as` semantics).
    fn from_f64_lossy(x: f64) -> Self;

    /// `row[j] = exp(row[j] − max)` for every j, returning the sum. `max` is the row's finite
    /// maximum. f32 uses the vectorised exp of `fastexp`; f64 keeps libm's exp, whose last-bit
    /// accuracy float64 users expect.
    fn exp_sub_sum(row: &mut [Self], max: Self) -> Self;

    /// `y[i] = 0.5 · x[i] · (1 + erf(x[i] / √2))`, the exact GELU. f32 uses the vectorised erf of
    /// `fastgelu`; f64 keeps libm's erf.
    fn gelu_into(x: &[Self], y: &mut [Self]);

    /// `y[i] = silu(x[i])`, or `silu(x[i]) · up[i]` (SwiGLU) when `up` is given. f32 uses the
    /// vectorised exp of `fastsilu`; f64 keeps libm's exp.
    fn silu_into(x: &[Self], up: Option<&[Self]>, y: &mut [Self]);
    /// LayerNorm or RMSNorm of each row of x (`d` values) into y: `dense::norm_rows`, which
    /// float32 runs through `fastnorm` (the same bits, in AVX2 registers).
    fn norm_rows(norm: Norm<Self>, eps: Self, d: usize, x: &[Self], y: &mut [Self]) {
        crate::dense::norm_rows(norm, eps, d, x, y)
    }

    /// out [cols, rows] = bᵀ in C order (`transpose`): plainly, or by AVX registers for float32.
    fn transpose_into(b: Mat<Self>, out: &mut [Self]) {
        crate::transpose::transpose_plain(b, out)
    }

    /// `y = x · wᵀ (+ bias)` by `skinny` when x has few rows and this type and CPU have that
    /// kernel (float32 with AVX2 or AVX-512); false when the caller should use gemm.
    fn skinny_linear(
        _x: &[Self],
        _w: &[Self],
        _bias: Option<&[Self]>,
        _d_in: usize,
        _y: &mut [Self],
    ) -> bool {
        false
    }

    /// `s = scale · (q · kᵀ)` by `skinny::scores` for at most `skinny::FEW_QUERIES` query rows,
    /// when this type and CPU have that kernel; false when the caller should use gemm.
    fn few_rows_scores(_q: Mat<Self>, _k: Mat<Self>, _scale: Self, _s: &mut [Self]) -> bool {
        false
    }

    /// `z += p · v` by `skinny::accumulate`, on the same terms as `few_rows_scores`.
    fn few_rows_accumulate(_p: &[Self], _v: Mat<Self>, _z: &mut [Self]) -> bool {
        false
    }
}

impl Real for f32 {
    const SKINNY: bool = true;

    fn from_f64_lossy(x: f64) -> Self {
        x as f32
    }

    fn exp_sub_sum(row: &mut [f32], max: f32) -> f32 {
        crate::fastexp::exp_sub_sum_f32(row, max)
    }

    fn gelu_into(x: &[f32], y: &mut [f32]) {
        crate::fastgelu::gelu_f32_slice(x, y)
    }

    fn silu_into(x: &[f32], up: Option<&[f32]>, y: &mut [f32]) {
        crate::fastsilu::silu_f32_slice(x, up, y)
    }
    fn norm_rows(norm: Norm<f32>, eps: f32, d: usize, x: &[f32], y: &mut [f32]) {
        crate::fastnorm::norm_rows_f32(norm, eps, d, x, y)
    }

    fn transpose_into(b: Mat<f32>, out: &mut [f32]) {
        crate::transpose::transpose_f32(b, out)
    }

    fn skinny_linear(
        x: &[f32],
        w: &[f32],
        bias: Option<&[f32]>,
        d_in: usize,
        y: &mut [f32],
    ) -> bool {
        use crate::skinny;
        let rows = x.len().checked_div(d_in).unwrap_or(usize::MAX);
        if rows > skinny::MAX_ROWS || d_in == 0 || !skinny::available() {
            return false;
        }
        skinny::linear_few_rows(x, w, bias, d_in, y);
        true
    }

    fn few_rows_scores(q: Mat<f32>, k: Mat<f32>, scale: f32, s: &mut [f32]) -> bool {
        use crate::skinny;
        if q.parts().1 > skinny::FEW_QUERIES || !skinny::available() {
            return false;
        }
        skinny::scores(q, k, scale, s);
        true
    }

    fn few_rows_accumulate(p: &[f32], v: Mat<f32>, z: &mut [f32]) -> bool {
        use crate::skinny;
        let d = v.parts().2;
        if d == 0 || z.len() / d > skinny::FEW_QUERIES || !skinny::available() {
            return false;
        }
        skinny::accumulate(p, v, z);
        true
    }
}

impl Real for f64 {
    const SKINNY: bool = false;

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

    fn gelu_into(x: &[f64], y: &mut [f64]) {
        for (o, &v) in y.iter_mut().zip(x) {
            *o = 0.5 * v * (1.0 + libm::erf(v * std::f64::consts::FRAC_1_SQRT_2));
        }
    }

    fn silu_into(x: &[f64], up: Option<&[f64]>, y: &mut [f64]) {
        use crate::fastsilu::silu_f64;
        match up {
            None => y.iter_mut().zip(x).for_each(|(o, &v)| *o = silu_f64(v)),
            Some(up) => {
                for ((o, &v), &u) in y.iter_mut().zip(x).zip(up) {
                    *o = silu_f64(v) * u;
                }
            }
        }
    }
}
