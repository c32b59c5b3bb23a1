//! Backward of `linear`, `layer_norm`, `gelu` and ReLU.
//!
//! - linear: y = x · Wᵀ + b, so grad_x = grad_y · W, grad_W = grad_yᵀ · x, grad_b = Σ_rows grad_y.
//!   Both products go through gemm, split into blocks over the pool: grad_x by blocks of x's
//!   rows (each packs all of W), grad_W along its longer side, by blocks of W's rows from grad_yᵀ
//!   (grad_y's columns read in place, the column-major layout gemm reads without a copy) times x,
//!   or by blocks of W's columns from all of grad_yᵀ times x's columns.
//! - layer_norm: with x̂ = (x − mean) · rstd and g = grad_y · γ per row,
//!   grad_x = rstd · (g − mean(g) − x̂ · mean(g · x̂)), grad_γ = Σ_rows grad_y · x̂,
//!   grad_β = Σ_rows grad_y; rows in parts of 32, each part's γ/β sums in its own slot, added in
//!   part order afterwards, so the result does not depend on the number of threads.
//! - gelu: grad_y · (Φ(x) + x · φ(x)), Φ the normal CDF (through erf), φ its density.
//! - relu: grad_y where x > 0, else 0.

use std::sync::OnceLock;

use crate::error::{fmt_shape, py_float_repr, CoreError, Result};
use crate::kernels::dense::{check_linear, last_dim};
use crate::kernels::train::{check_grad_shape, scratch};
use crate::linalg::mat::Mat;
use crate::linalg::matmul::{matmul_ab, matmul_atb, matmul_atb_raw, parts_sum_alike};
use crate::linalg::norm::sum_map;
#[cfg(target_arch = "x86_64")]
use crate::linalg::norm::x86 as norm_x86;
use crate::linalg::transpose::Transpose;
use crate::real::Real;
use crate::runtime::threads::{for_each_part, split_threads, Disjoint};
use crate::simd::gelu::gelu_grad_f32_slice;
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, Supported};

/// Dimensions of `linear_backward`: rows (the product of x's leading dimensions), in, out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinearDims {
    pub rows: usize,
    pub d_in: usize,
    pub d_out: usize,
}

/// Check the shapes of `linear_backward`: E17, E18, E19 as `linear`, then E43 for grad_y.
pub fn check_linear_backward(
    x: &[usize],
    weight: &[usize],
    grad_y: &[usize],
) -> Result<LinearDims> {
    let (rows, d_in, d_out) = check_linear(x, weight, None)?;
    let expected = [&x[..x.len() - 1], &[d_out]].concat();
    check_grad_shape("grad_y", grad_y, &expected)?;
    Ok(LinearDims { rows, d_in, d_out })
}

/// Multiply-adds of `linear_backward` (two products), for `threads::run`.
pub fn linear_backward_work(dims: LinearDims) -> usize {
    dims.rows
        .saturating_mul(dims.d_in)
        .saturating_mul(dims.d_out)
        .saturating_mul(2)
}

/// grad_x [rows, in] = grad_y · W, grad_w [out, in] = grad_yᵀ · x, grad_b [out] = Σ_rows grad_y
/// (when asked for). x [rows, in], weight [out, in], grad_y [rows, out], all C order.
#[allow(clippy::too_many_arguments)]
pub fn linear_backward<T: Transpose>(
    x: &[T],
    weight: &[T],
    grad_y: &[T],
    dims: LinearDims,
    grad_x: &mut [T],
    grad_w: &mut [T],
    grad_b: Option<&mut [T]>,
) -> Result<()> {
    let LinearDims { rows, d_in, d_out } = dims;
    if rows == 0 || d_out == 0 {
        // Sums over no rows or of no outputs: every gradient is 0.
        grad_x.fill(T::zero());
        grad_w.fill(T::zero());
        if let Some(gb) = grad_b {
            gb.fill(T::zero());
        }
        return Ok(());
    }
    // Parts: blocks of grad_x's rows, then blocks of grad_w (along its longer side: rows when
    // out ≥ in, else columns, whose products gemm runs faster at FFN's second layer;
    // docs/performance.md), then grad_b, all in one loop so that the threads balance the two
    // products between them.
    let threads = split_threads(linear_backward_work(dims));
    let by_cols = d_in > d_out;
    let w_side = if by_cols { d_in } else { d_out };
    // Blocks of a side of `len` for its products with `across` outputs the other way, or the
    // whole side when the last block would be too small to sum as the others do
    // (`parts_sum_alike`): so every thread count sums each output alike.
    let block = |len: usize, across: usize| {
        let size = len.div_ceil(2 * threads).max(1);
        let last = if len == 0 { 0 } else { (len - 1) % size + 1 }; // the last block's length
        if parts_sum_alike(last, across) {
            size
        } else {
            len
        }
    };
    let x_rows = block(rows, d_in); // grad_x rows a part
    let w_block = block(w_side, if by_cols { d_out } else { d_in }); // grad_w rows (or columns)
    let (x_parts, w_parts) = if d_in == 0 {
        (0, 0) // grad_x and grad_w are empty; grad_b is still Σ grad_y
    } else {
        (rows.div_ceil(x_rows), w_side.div_ceil(w_block))
    };
    let parts = x_parts + w_parts + usize::from(grad_b.is_some());
    let (gx, gw) = (Disjoint::new(grad_x), Disjoint::new(grad_w));
    let gb = grad_b.map(Disjoint::new);
    let w = Mat::new(weight, d_out, d_in, d_in);
    let x_mat = Mat::new(x, rows, d_in, d_in);
    for_each_part(parts, linear_backward_work(dims), &|p| {
        if p < x_parts {
            // grad_x rows r0 .. r0 + r = grad_y's rows [r, out] · W [out, in]
            let r0 = p * x_rows;
            let r = x_rows.min(rows - r0);
            // SAFETY: part p alone writes these rows of grad_x.
            let out = unsafe { gx.part(r0 * d_in, r * d_in) };
            let gy = Mat::new(&grad_y[r0 * d_out..], r, d_out, d_out);
            matmul_ab(gy, w, T::one(), out, d_in, false);
        } else if p < x_parts + w_parts && by_cols {
            // grad_w columns c0 .. c0 + n = grad_yᵀ [out, rows] times x's columns c0 .. c0 + n
            let c0 = (p - x_parts) * w_block;
            let n = w_block.min(d_in - c0);
            let out = gw.block(c0, d_out, n, d_in);
            let a = Mat::new(grad_y, rows, d_out, d_out);
            let b = Mat::new(&x[c0..], rows, n, d_in);
            // SAFETY: part p alone writes these columns of grad_w, a block of it (checked by
            // `block`) at row stride d_in ≥ n.
            unsafe { matmul_atb_raw(a, b, T::one(), out, d_in, false) };
        } else if p < x_parts + w_parts {
            // grad_w rows j0 .. j0 + n = columns j0 .. j0 + n of grad_y, read in place as
            // grad_yᵀ's rows [n, rows], times x [rows, in]
            let j0 = (p - x_parts) * w_block;
            let n = w_block.min(d_out - j0);
            // SAFETY: part p alone writes these rows of grad_w.
            let out = unsafe { gw.part(j0 * d_in, n * d_in) };
            let a = Mat::new(&grad_y[j0..], rows, n, d_out);
            matmul_atb(a, x_mat, T::one(), out, d_in, false);
        } else if let Some(gb) = &gb {
            // SAFETY: this part alone writes grad_b.
            let gb = unsafe { gb.part(0, d_out) };
            gb.fill(T::zero());
            for row in grad_y.chunks_exact(d_out) {
                for (b, &g) in gb.iter_mut().zip(row) {
                    *b = *b + g;
                }
            }
        }
    });
    Ok(())
}

/// Check the shapes of `layer_norm_backward`: E17, E20 (gamma), E43 (grad_y), E21 (eps).
/// Returns d, x's last dimension.
pub fn check_layer_norm_backward(
    x: &[usize],
    gamma: &[usize],
    grad_y: &[usize],
    eps: f64,
) -> Result<usize> {
    let d = last_dim(x)?;
    if gamma != [d] {
        return Err(CoreError::Value(format!(
            "gamma has shape {}; expected ({d},) to match x of shape {}",
            fmt_shape(gamma),
            fmt_shape(x)
        )));
    }
    check_grad_shape("grad_y", grad_y, x)?;
    if !(eps.is_finite() && eps >= 0.0) {
        return Err(CoreError::Value(format!(
            "eps must be a finite number >= 0, got {}",
            py_float_repr(eps)
        )));
    }
    Ok(d)
}

/// Rows per part of `layer_norm_backward`, as the forward norms.
const NORM_ROWS_PER_PART: usize = 32;

/// Work of `layer_norm_backward` over `elements` numbers (for `for_each_part`).
pub fn layer_norm_backward_work(elements: usize) -> usize {
    elements.saturating_mul(24)
}

/// Backward of LayerNorm over rows of `d`: x, grad_y and grad_x [rows, d], gamma, grad_gamma and
/// grad_beta [d].
#[allow(clippy::too_many_arguments)]
pub fn layer_norm_backward<T: NormBackward>(
    x: &[T],
    gamma: &[T],
    grad_y: &[T],
    eps: T,
    d: usize,
    grad_x: &mut [T],
    grad_gamma: &mut [T],
    grad_beta: &mut [T],
) -> Result<()> {
    grad_gamma.fill(T::zero());
    grad_beta.fill(T::zero());
    if d == 0 || x.is_empty() {
        return Ok(());
    }
    let part = NORM_ROWS_PER_PART * d;
    let parts = x.len().div_ceil(part);
    // Each part's Σ grad_y · x̂ and Σ grad_y, [parts, 2, d].
    let mut sums = scratch(parts * 2 * d, T::zero())?;
    {
        let out = Disjoint::new(grad_x);
        let partial = Disjoint::new(&mut sums);
        for_each_part(parts, layer_norm_backward_work(x.len()), &|p| {
            let start = p * part;
            let len = part.min(x.len() - start);
            // SAFETY: part p alone writes these rows of grad_x and its own slot of the sums.
            let (gx, acc) = unsafe { (out.part(start, len), partial.part(p * 2 * d, 2 * d)) };
            let (acc_gamma, acc_beta) = acc.split_at_mut(d);
            let rows = NormRowsBack {
                x: &x[start..start + len],
                gamma,
                grad_y: &grad_y[start..start + len],
                eps,
                d,
            };
            T::norm_backward_rows(&rows, gx, acc_gamma, acc_beta);
        });
    }
    for acc in sums.chunks_exact(2 * d) {
        let (ag, ab) = acc.split_at(d);
        for j in 0..d {
            grad_gamma[j] = grad_gamma[j] + ag[j];
            grad_beta[j] = grad_beta[j] + ab[j];
        }
    }
    Ok(())
}

/// The inputs of one part of `layer_norm_backward`: whole rows of x and grad_y (`d` values each),
/// gamma [d].
pub struct NormRowsBack<'a, T> {
    pub x: &'a [T],
    pub gamma: &'a [T],
    pub grad_y: &'a [T],
    pub eps: T,
    pub d: usize,
}

/// Σ a_i · b_i in `sum_map`'s eight independent partial sums (which the compiler keeps in SIMD
/// registers; a single running sum is a serial chain it may not reorder).
#[inline(always)]
fn dot_lanes<T: Real>(a: &[T], b: &[T]) -> T {
    const L: usize = 8;
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    let mut acc = [T::zero(); L];
    let main = len - len % L;
    for (ac, bc) in a[..main].chunks_exact(L).zip(b[..main].chunks_exact(L)) {
        for l in 0..L {
            acc[l] = acc[l] + ac[l] * bc[l];
        }
    }
    let mut sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (&x, &y) in a[main..].iter().zip(&b[main..]) {
        sum = sum + x * y;
    }
    sum
}

/// The rows of one part: grad_x written, Σ grad_y · x̂ and Σ grad_y added to `acc_gamma` and
/// `acc_beta`. Plain Rust over fixed lanes, which each `simd::Level` compiles to its registers.
#[inline(always)]
fn norm_backward_body<T: Real>(
    rows: &NormRowsBack<T>,
    grad_x: &mut [T],
    acc_gamma: &mut [T],
    acc_beta: &mut [T],
) {
    let centred = |x: &[T], c: T, square: bool| {
        sum_map(x, |v| if square { (v - c) * (v - c) } else { v - c })
    };
    norm_backward_with(rows, grad_x, acc_gamma, acc_beta, centred)
}

/// `norm_backward_body` with the forward's sums given: `centred(x, c, square)` is
/// Σ (x − c)² or Σ (x − c), as `sum_map` adds them (linalg::norm's AVX2 copy gives its bits).
/// Each pass over a row is an elementwise loop or a single sum (`dot_lanes`), the shapes the
/// compiler vectorises; x̂ and g = grad_y · γ are kept in two rows of scratch between them.
#[inline(always)]
fn norm_backward_with<T: Real>(
    rows: &NormRowsBack<T>,
    grad_x: &mut [T],
    acc_gamma: &mut [T],
    acc_beta: &mut [T],
    centred: impl Fn(&[T], T, bool) -> T,
) {
    let NormRowsBack {
        x,
        gamma,
        grad_y,
        eps,
        d,
    } = *rows;
    let inv_d = T::one() / T::from_f64_lossy(d as f64);
    let (gamma, acc_gamma, acc_beta) = (&gamma[..d], &mut acc_gamma[..d], &mut acc_beta[..d]);
    // x̂ and g of the current row, [2, d].
    let mut row = vec![T::zero(); 2 * d];
    let (xhat, g) = row.split_at_mut(d);
    let rows = x
        .chunks_exact(d)
        .zip(grad_y.chunks_exact(d))
        .zip(grad_x.chunks_exact_mut(d));
    for ((xr, gyr), gxr) in rows {
        // The forward's sums (`sum_map`), so that x̂ is the forward's to the bit.
        let mean = centred(xr, T::zero(), false) * inv_d;
        let var = centred(xr, mean, true) * inv_d;
        let rstd = T::one() / (var + eps).sqrt();
        // Every slice exactly d long, so the indexed loops below need no bounds checks.
        let (xr, gyr, gxr) = (&xr[..d], &gyr[..d], &mut gxr[..d]);
        let (xhat, g) = (&mut xhat[..d], &mut g[..d]);
        for j in 0..d {
            xhat[j] = (xr[j] - mean) * rstd;
            g[j] = gyr[j] * gamma[j];
        }
        let a = sum_map(g, |v| v) * inv_d; // mean(g)
        let b = dot_lanes(g, xhat) * inv_d; // mean(g · x̂)
        for j in 0..d {
            gxr[j] = rstd * (g[j] - a - xhat[j] * b);
            acc_gamma[j] = acc_gamma[j] + gyr[j] * xhat[j];
            acc_beta[j] = acc_beta[j] + gyr[j];
        }
    }
}

/// `layer_norm_backward`'s rows for each element type: float32 through a copy of
/// `norm_backward_body` compiled for the CPU's `simd::Level`, others through the plain one.
pub trait NormBackward: Real {
    fn norm_backward_rows(
        rows: &NormRowsBack<Self>,
        grad_x: &mut [Self],
        acc_gamma: &mut [Self],
        acc_beta: &mut [Self],
    ) {
        norm_backward_body(rows, grad_x, acc_gamma, acc_beta)
    }
}

impl NormBackward for f64 {}

impl NormBackward for f32 {
    fn norm_backward_rows(
        rows: &NormRowsBack<f32>,
        grad_x: &mut [f32],
        acc_gamma: &mut [f32],
        acc_beta: &mut [f32],
    ) {
        static CHOSEN: OnceLock<NormBackBody> = OnceLock::new();
        simd::pick(&CHOSEN, norm_backward_variant)(rows, grad_x, acc_gamma, acc_beta)
    }
}

type NormBackBody = fn(&NormRowsBack<f32>, &mut [f32], &mut [f32], &mut [f32]);

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn norm_backward_avx512(
    rows: &NormRowsBack<f32>,
    gx: &mut [f32],
    ag: &mut [f32],
    ab: &mut [f32],
) {
    // SAFETY: AVX2, which `sum` needs, comes with this function's features.
    let centred = |x: &[f32], c: f32, square: bool| unsafe { norm_x86::sum(x, c, square) };
    norm_backward_with(rows, gx, ag, ab, centred)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn norm_backward_avx2(
    rows: &NormRowsBack<f32>,
    gx: &mut [f32],
    ag: &mut [f32],
    ab: &mut [f32],
) {
    // SAFETY: AVX2, which `sum` needs, comes with this function's features.
    let centred = |x: &[f32], c: f32, square: bool| unsafe { norm_x86::sum(x, c, square) };
    norm_backward_with(rows, gx, ag, ab, centred)
}

/// The float32 rows for a level this CPU supports.
fn norm_backward_variant(cpu: Supported) -> NormBackBody {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F, the feature this body was compiled for.
        Level::Avx512 => |r, gx, ag, ab| unsafe { norm_backward_avx512(r, gx, ag, ab) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this body was compiled for.
        Level::Avx2Fma => |r, gx, ag, ab| unsafe { norm_backward_avx2(r, gx, ag, ab) },
        _ => norm_backward_body::<f32>,
    }
}

/// The derivative of the exact GELU for each element type: Φ(x) + x · φ(x).
pub trait GeluGrad: Real {
    /// `out[i] = grad_y[i] · (Φ(x[i]) + x[i] · φ(x[i]))`.
    fn gelu_grad_into(x: &[Self], grad_y: &[Self], out: &mut [Self]);
}

/// 1/√(2π).
const INV_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

impl GeluGrad for f32 {
    fn gelu_grad_into(x: &[f32], grad_y: &[f32], out: &mut [f32]) {
        gelu_grad_f32_slice(x, grad_y, out)
    }
}

impl GeluGrad for f64 {
    fn gelu_grad_into(x: &[f64], grad_y: &[f64], out: &mut [f64]) {
        for ((o, &v), &g) in out.iter_mut().zip(x).zip(grad_y) {
            let cdf = 0.5 * (1.0 + libm::erf(v * std::f64::consts::FRAC_1_SQRT_2));
            let pdf = (-0.5 * v * v).exp() * INV_SQRT_2PI;
            *o = g * (cdf + v * pdf);
        }
    }
}

/// Elements per parallel task of the elementwise backward passes (64 KB of float32).
const CHUNK: usize = 1 << 14;

/// Work of `gelu_backward` over `elements` numbers (an erf and an exp).
pub fn gelu_backward_work(elements: usize) -> usize {
    elements.saturating_mul(32)
}

/// Work of `relu_backward` over `elements` numbers.
pub fn relu_backward_work(elements: usize) -> usize {
    elements
}

/// An elementwise backward body: (x, grad_y, grad_x) of one length.
type Body<T> = dyn Fn(&[T], &[T], &mut [T]) + Sync;

/// `f(x_chunk, gy_chunk, out_chunk)` over matching chunks, spread over the threads by
/// `for_each_part`: the low-latency team when called outside the pool, as the binding calls it
/// (a vectorised pass over a few hundred thousand numbers takes tens of microseconds, about what
/// waking the pool costs).
fn elementwise<T: Real>(x: &[T], grad_y: &[T], out: &mut [T], work: usize, f: &Body<T>) {
    let len = out.len();
    let parts = len.div_ceil(CHUNK);
    if parts <= 1 {
        f(x, grad_y, out);
        return;
    }
    let out = Disjoint::new(out);
    for_each_part(parts, work, &|p| {
        let start = p * CHUNK;
        let n = CHUNK.min(len - start);
        // SAFETY: part p alone writes these elements of out.
        let o = unsafe { out.part(start, n) };
        f(&x[start..start + n], &grad_y[start..start + n], o)
    });
}

/// grad_x of the exact GELU, elementwise (x, grad_y and grad_x of one length).
pub fn gelu_backward<T: GeluGrad>(x: &[T], grad_y: &[T], grad_x: &mut [T]) {
    let work = gelu_backward_work(grad_x.len());
    elementwise(x, grad_y, grad_x, work, &|x, g, o| {
        T::gelu_grad_into(x, g, o)
    });
}

/// grad_x of ReLU: grad_y where x > 0, else 0 (0 at x = 0 and at NaN).
pub fn relu_backward<T: Real>(x: &[T], grad_y: &[T], grad_x: &mut [T]) {
    let work = relu_backward_work(grad_x.len());
    elementwise(x, grad_y, grad_x, work, &|x, g, o| {
        for ((o, &v), &g) in o.iter_mut().zip(x).zip(g) {
            *o = if v > T::zero() { g } else { T::zero() };
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::lcg;

    /// grad_x, grad_w and grad_b against plain sums, with grad_w split by rows (out ≥ in) and
    /// by columns (in > out).
    #[test]
    fn linear_backward_matches_plain_sums_whichever_way_grad_w_is_split() {
        // FFN's second layer at the learner's size, an odd d_in (a shorter last band), and small.
        let cases = [
            (1024, 256, 64),
            (37, 71, 9),
            (37, 9, 70),
            (5, 3, 3),
            (1, 4, 3),
        ];
        for (rows, d_in, d_out) in cases {
            let (x, w, gy) = (
                lcg(1, rows * d_in),
                lcg(2, d_out * d_in),
                lcg(3, rows * d_out),
            );
            let dims = LinearDims { rows, d_in, d_out };
            let mut want = (
                vec![0.0; rows * d_in],
                vec![0.0; d_out * d_in],
                vec![0.0; d_out],
            );
            for r in 0..rows {
                for o in 0..d_out {
                    let g = gy[r * d_out + o];
                    want.2[o] += g;
                    for i in 0..d_in {
                        want.0[r * d_in + i] += g * w[o * d_in + i];
                        want.1[o * d_in + i] += g * x[r * d_in + i];
                    }
                }
            }
            let mut got = (
                vec![0.0; rows * d_in],
                vec![0.0; d_out * d_in],
                vec![0.0; d_out],
            );
            linear_backward(&x, &w, &gy, dims, &mut got.0, &mut got.1, Some(&mut got.2)).unwrap();
            for (g, w) in [(&got.0, &want.0), (&got.1, &want.1), (&got.2, &want.2)] {
                for (a, b) in g.iter().zip(w.iter()) {
                    assert!(
                        (a - b).abs() <= 1e-12 * (1.0 + b.abs()),
                        "[{rows}, {d_in}] → {d_out}: {a} vs {b}"
                    );
                }
            }
        }
    }

    /// Every level's float32 rows against the plain body, within float32 rounding (the lanes
    /// compile to other instructions, the order of the sums is the same).
    #[test]
    fn every_simd_variant_of_the_norm_backward_matches_the_plain_rows() {
        for d in [1, 7, 16, 17, 64, 100] {
            let n = 5;
            let f32s = |seed: u64, len: usize, scale: f64, shift: f64| -> Vec<f32> {
                lcg(seed, len)
                    .iter()
                    .map(|v| (v * scale + shift) as f32)
                    .collect()
            };
            let x = f32s(1, n * d, 3.0, 10.0);
            let gamma = f32s(2, d, 1.0, 1.0);
            let gy = f32s(3, n * d, 1.0, 0.0);
            let rows = NormRowsBack {
                x: &x,
                gamma: &gamma,
                grad_y: &gy,
                eps: 1e-5,
                d,
            };
            let mut want = (vec![0.0f32; n * d], vec![0.0f32; d], vec![0.0f32; d]);
            norm_backward_body(&rows, &mut want.0, &mut want.1, &mut want.2);
            for cpu in Supported::all() {
                let mut got = (vec![0.0f32; n * d], vec![0.0f32; d], vec![0.0f32; d]);
                norm_backward_variant(cpu)(&rows, &mut got.0, &mut got.1, &mut got.2);
                for (g, w) in [(&got.0, &want.0), (&got.1, &want.1), (&got.2, &want.2)] {
                    for (a, b) in g.iter().zip(w) {
                        assert!(
                            (a - b).abs() <= 1e-5 * (1.0 + b.abs()),
                            "{:?}, d = {d}: {a} vs {b}",
                            cpu.level()
                        );
                    }
                }
            }
        }
    }
}
