//! The rest of a Transformer layer: linear maps, LayerNorm and GELU, over contiguous rows.
//!
//! - linear: y = x · Wᵀ + b with W in PyTorch's [out, in] layout, so checkpoint tensors are used
//!   as they are; the product goes through `matmul` (the gemm crate), row blocks in parallel.
//!   half_linear: the same with a half-precision W, widened to float32 (exactly).
//! - layer_norm: y = (x − mean) / √(var + eps) · γ + β per row, var the biased (1/d) variance, as
//!   torch.nn.functional.layer_norm; computed in the input's precision with two passes (mean,
//!   then the centred sum of squares), which keeps the variance accurate when |mean| ≫ std.
//! - gelu: 0.5 · x · (1 + erf(x / √2)), the exact form BERT uses.
//! - rms_norm: y = x / √(mean(x²) + eps) · w per row, Llama's RMSNorm (no centring, no bias).
//! - silu: x · σ(x); swiglu: silu(gate) · up, the gated FFN of Llama, fused in one pass.

use half::f16;
use half::slice::HalfFloatSliceExt;
use rayon::prelude::*;

use crate::error::{fmt_shape, py_float_repr, CoreError, Result};
use crate::linalg::mat::Mat;
use crate::linalg::matmul::matmul_abt_threaded;
use crate::linalg::norm::{Norm, NormRows};
use crate::linalg::rows::Rows;
use crate::linalg::skinny::{self, FewRows};
use crate::linalg::transpose::Transpose;
use crate::real::Real;
use crate::runtime::threads::{
    for_each_part, in_pool, pool_work, split_threads, Disjoint, PARALLEL_MIN_WORK,
};
use crate::simd::gelu::Gelu;
use crate::simd::silu::Silu;

/// Check the shapes of `linear` (E17–E20): x [..., in], weight [out, in], bias [out].
/// Returns (rows, in, out) with rows the product of x's leading dimensions.
pub fn check_linear(
    x: &[usize],
    weight: &[usize],
    bias: Option<&[usize]>,
) -> Result<(usize, usize, usize)> {
    let d_in = last_dim(x)?;
    let (d_out, w_in) = match weight {
        [o, i] => (*o, *i),
        _ => {
            return Err(CoreError::Value(format!(
                "weight must be 2-D [out, in], got shape {}",
                fmt_shape(weight)
            )))
        }
    };
    if w_in != d_in {
        return Err(CoreError::Value(format!(
            "x has shape {} and weight has shape {}: x's last dimension must equal weight's second (in)",
            fmt_shape(x),
            fmt_shape(weight)
        )));
    }
    if let Some(b) = bias {
        check_vector("bias", b, d_out, "weight", weight)?;
    }
    Ok((x[..x.len() - 1].iter().product(), d_in, d_out))
}

/// E55: `linear`'s `weight_t` must be `weight` [out, in] transposed, [in, out] (after
/// `check_linear`, so weight is 2-D).
pub fn check_weight_t(weight_t: &[usize], weight: &[usize]) -> Result<()> {
    if let [out, d_in] = *weight {
        if weight_t != [d_in, out] {
            return Err(CoreError::Value(format!(
                "weight_t has shape {}; expected ({d_in}, {out}), the transpose of weight of \
                 shape {}",
                fmt_shape(weight_t),
                fmt_shape(weight)
            )));
        }
    }
    Ok(())
}

/// Check the shapes of `layer_norm` (E17, E20, E29 for `residual`, E21). Returns d, x's last
/// dimension.
pub fn check_layer_norm(
    x: &[usize],
    gamma: &[usize],
    beta: &[usize],
    residual: Option<&[usize]>,
    eps: f64,
) -> Result<usize> {
    let d = last_dim(x)?;
    check_vector("gamma", gamma, d, "x", x)?;
    check_vector("beta", beta, d, "x", x)?;
    if let Some(r) = residual {
        check_same_shape(("x", x), ("residual", r))?;
    }
    check_eps(eps)?;
    Ok(d)
}

/// Check `gelu`'s optional bias (E17, E20): [d] for x [..., d].
pub fn check_gelu(x: &[usize], bias: Option<&[usize]>) -> Result<()> {
    if let Some(b) = bias {
        check_vector("bias", b, last_dim(x)?, "x", x)?;
    }
    Ok(())
}

/// Check the shapes of `rms_norm` (E17, E20, E21). Returns d, x's last dimension.
pub fn check_rms_norm(x: &[usize], weight: &[usize], eps: f64) -> Result<usize> {
    let d = last_dim(x)?;
    check_vector("weight", weight, d, "x", x)?;
    check_eps(eps)?;
    Ok(d)
}

/// E29: the two inputs of `swiglu` are multiplied element by element, so their shapes match.
pub fn check_swiglu(gate: &[usize], up: &[usize]) -> Result<()> {
    check_same_shape(("gate", gate), ("up", up))
}

/// E29: two arrays combined element by element (no broadcasting) have the same shape.
fn check_same_shape((a, a_shape): (&str, &[usize]), (b, b_shape): (&str, &[usize])) -> Result<()> {
    if a_shape == b_shape {
        Ok(())
    } else {
        Err(CoreError::Value(format!(
            "{a} has shape {} and {b} has shape {}: they must have the same shape",
            fmt_shape(a_shape),
            fmt_shape(b_shape)
        )))
    }
}

fn check_eps(eps: f64) -> Result<()> {
    if eps.is_finite() && eps >= 0.0 {
        Ok(())
    } else {
        Err(CoreError::Value(format!(
            "eps must be a finite number >= 0, got {}",
            py_float_repr(eps)
        )))
    }
}

/// E17: x needs a last axis to act on. Returns its length.
pub fn last_dim(x: &[usize]) -> Result<usize> {
    x.last().copied().ok_or_else(|| {
        CoreError::Value("x must have at least 1 dimension [..., d], got shape ()".to_string())
    })
}

fn check_vector(
    name: &str,
    shape: &[usize],
    d: usize,
    other: &str,
    other_shape: &[usize],
) -> Result<()> {
    if shape == [d] {
        Ok(())
    } else {
        Err(CoreError::Value(format!(
            "{name} has shape {}; expected ({d},) to match {other} of shape {}",
            fmt_shape(shape),
            fmt_shape(other_shape)
        )))
    }
}

/// Multiply-adds of `linear`.
pub fn linear_work(rows: usize, d_in: usize, d_out: usize) -> usize {
    rows.saturating_mul(d_in).saturating_mul(d_out)
}

/// The work `threads::run` gets for `linear`: a few rows split over the low-latency team
/// (`skinny`) and products below `POOL_MIN_WORK` over the team too (`pool_work`).
pub fn linear_run_work<T: FewRows>(rows: usize, d_in: usize, d_out: usize) -> usize {
    if T::SKINNY && rows <= skinny::MAX_ROWS && skinny::available() {
        return 0;
    }
    pool_work(linear_work(rows, d_in, d_out))
}

/// y [rows, out] = x [rows, in] · weightᵀ + bias; `weight` is [out, in], and `weight_t`, when
/// given, its transpose [in, out] by rows. A few rows go to `skinny`, which reads `weight`'s
/// rows; more make one product, which on the pool is split by blocks of output columns
/// (`matmul_abt_threaded`: each block packs only its part of the weights, where blocks of rows
/// would each repack all of them; docs/performance.md), over the pool's threads inside
/// `threads::run`, else the team's when the product is worth a hand-off. That product reads
/// `weight_t` when there is one: gemm packs its rows faster than `weight`'s.
pub fn linear<T: FewRows + Transpose>(
    x: &[T],
    (weight, weight_t): (&[T], Option<&[T]>),
    bias: Option<&[T]>,
    d_in: usize,
    d_out: usize,
    y: &mut [T],
) {
    if y.is_empty() || T::skinny_linear(x, weight, bias, d_in, y) {
        return;
    }
    let rows = y.len() / d_out;
    let threads = split_threads(linear_work(rows, d_in, d_out));
    let (x_mat, w_mat) = (
        Mat::new(x, rows, d_in, d_in),
        Mat::new(weight, d_out, d_in, d_in),
    );
    let wt_mat = weight_t.map(|wt| Mat::new(wt, d_in, d_out, d_out));
    // The product is added to the bias as gemm stores each tile (`start`): a separate pass
    // adding it afterwards read and wrote the whole output again.
    matmul_abt_threaded(x_mat, w_mat, wt_mat, y, d_out, threads, bias);
}

/// The work `threads::run` gets for `half_linear`: as `linear`'s in float32.
pub fn half_linear_run_work(rows: usize, d_in: usize, d_out: usize) -> usize {
    if rows <= skinny::MAX_ROWS && skinny::half_available() {
        return 0;
    }
    pool_work(linear_work(rows, d_in, d_out))
}

/// y [rows, out] = x [rows, in] · float32(weight)ᵀ + bias for a half-precision `weight` [out, in].
/// A few rows read W as it is stored, widening it in registers (`skinny`): half the bytes from
/// memory, which is what a short sentence waits on. More rows, or a CPU without the kernel, widen
/// W into a float32 copy first and take `linear`'s product, where the copy costs little beside
/// the arithmetic; a copy the system cannot give is a MemoryError (E23 counts only the result
/// and the arguments).
pub fn half_linear(
    x: &[f32],
    weight: &[f16],
    bias: Option<&[f32]>,
    d_in: usize,
    d_out: usize,
    y: &mut [f32],
) -> Result<()> {
    if y.is_empty() {
        return Ok(());
    }
    let rows = y.len() / d_out;
    if d_in > 0 && rows <= skinny::MAX_ROWS && skinny::half_available() {
        skinny::half_linear_few_rows(x, weight, bias, d_in, y);
        return Ok(());
    }
    WIDE.with_borrow_mut(|kept| {
        if kept.len() < weight.len() {
            kept.try_reserve_exact(weight.len() - kept.len())
                .map_err(|_| {
                    CoreError::Memory(format!(
                        "cannot allocate memory for a float32 copy of a weight of shape {}",
                        fmt_shape(&[d_out, d_in])
                    ))
                })?;
            kept.resize(weight.len(), 0.0);
        }
        let wide = &mut kept[..weight.len()];
        // Widened in parts over the threads: on one thread it took a fifth of the product's time.
        let parts = weight.len().div_ceil(WIDEN_PART);
        let out = Disjoint::new(wide);
        for_each_part(parts, weight.len(), &|p| {
            let start = p * WIDEN_PART;
            let part = &weight[start..weight.len().min(start + WIDEN_PART)];
            // SAFETY: part p alone writes these values.
            part.convert_to_f32_slice(unsafe { out.part(start, part.len()) });
        });
        linear(x, (wide, None), bias, d_in, d_out, y);
        if kept.len() > WIDE_KEPT {
            *kept = Vec::new();
        }
        Ok(())
    })
}

/// Values of W widened by one part of `half_linear`'s copy.
const WIDEN_PART: usize = 1 << 16;
/// The most values of that copy a thread keeps between calls (16 MB): a larger W's copy is
/// freed after its call.
const WIDE_KEPT: usize = 1 << 22;

thread_local! {
    /// `half_linear`'s float32 copy of W, kept by the thread that ran the call from call to
    /// call, up to `WIDE_KEPT` values: a fresh one each call meant mapping and zeroing its pages
    /// again (MiniLM's largest W: 2.4 MB).
    static WIDE: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// LayerNorm of each row of x [rows, d] into y, in parts of rows over the threads
/// (`for_each_part`); of x + residual when a residual (x's shape) is given (a Transformer's "Add
/// & Norm"): each part sums its rows into a buffer of its own size, which the norm then reads
/// from cache, instead of a pass of its own over the whole of x and residual.
pub fn layer_norm<T: NormRows>(
    x: &[T],
    residual: Option<&[T]>,
    (gamma, beta): (&[T], &[T]),
    eps: T,
    d: usize,
    y: &mut [T],
) {
    let norm = Norm::Layer { gamma, beta };
    by_rows(x, d, y, &|start, x, y| match residual {
        None => T::norm_rows(norm, eps, d, x, y),
        Some(r) => {
            let sum: Vec<T> = x
                .iter()
                .zip(&r[start..start + x.len()])
                .map(|(&a, &b)| a + b)
                .collect();
            T::norm_rows(norm, eps, d, &sum, y)
        }
    })
}

/// RMSNorm of each row of x [rows, d] into y: y = x / √(mean(x²) + eps) · w.
pub fn rms_norm<T: NormRows>(x: &[T], weight: &[T], eps: T, d: usize, y: &mut [T]) {
    by_rows(x, d, y, &|_, x, y| {
        T::norm_rows(Norm::Rms { weight }, eps, d, x, y)
    })
}

/// Rows per part of the norms: 32 rows of 384 values are 48 KB in and 48 KB out.
const NORM_ROWS_PER_PART: usize = 32;

/// What `by_rows` does to one part: (its first element's index, its rows of x, of y).
type NormPart<'a, T> = dyn Fn(usize, &[T], &mut [T]) + Sync + 'a;

/// `rows(start, x_part, y_part)` over parts of `NORM_ROWS_PER_PART` whole rows (`d` values
/// each) that start at element `start`, spread over the threads by `for_each_part`: on the
/// low-latency team when called outside the pool, as the binding calls the norms (rayon's
/// hand-off, waking a pool thread and then the caller, costs about as much as the norms
/// themselves; docs/performance.md).
fn by_rows<T: Real>(x: &[T], d: usize, y: &mut [T], rows: &NormPart<'_, T>) {
    if d == 0 || y.is_empty() {
        return;
    }
    let part = NORM_ROWS_PER_PART * d;
    let parts = y.len().div_ceil(part);
    let out = Disjoint::new(y);
    for_each_part(parts, layer_norm_work(x.len()), &|t| {
        let start = t * part;
        let len = part.min(x.len() - start);
        // SAFETY: part t alone writes these rows of y.
        rows(start, &x[start..start + len], unsafe {
            out.part(start, len)
        })
    });
}

/// SiLU of every element of x into y, or SwiGLU, silu(x) · up, when `up` is given (same shape).
/// x and up may be column blocks of a wider array (gate and up out of one product): they are
/// then read row by row where they lie.
pub fn silu<T: Silu>(x: &Rows<T>, up: Option<&Rows<T>>, y: &mut [T]) {
    const CHUNK: usize = 1 << 14; // 64 KB of float32 per task
    let cols = x.cols();
    if y.is_empty() || cols == 0 {
        return;
    }
    let parallel = silu_work(y.len()) >= PARALLEL_MIN_WORK && in_pool();
    if let (Some(xf), Some(uf)) = (x.flat(), up.map_or(Some(None), |u| u.flat().map(Some))) {
        // C order: chunks of any length, whatever the rows' (short rows would be slow one by one).
        if !parallel {
            T::silu_into(xf, uf, y);
        } else {
            y.par_chunks_mut(CHUNK).enumerate().for_each(|(c, y)| {
                let at = c * CHUNK..c * CHUNK + y.len();
                T::silu_into(&xf[at.clone()], uf.map(|u| &u[at]), y)
            });
        }
        return;
    }
    let row = |(r, y_row): (usize, &mut [T])| T::silu_into(x.row(r), up.map(|u| u.row(r)), y_row);
    if !parallel {
        y.chunks_mut(cols).enumerate().for_each(row);
    } else {
        y.par_chunks_mut(cols)
            .enumerate()
            .with_min_len(CHUNK.div_ceil(cols))
            .for_each(row);
    }
}

/// Work of `silu` over `elements` numbers (an exp and a division, about 16 multiply-adds).
pub fn silu_work(elements: usize) -> usize {
    elements.saturating_mul(16)
}

/// GELU of every element of x into y; of x + bias, the bias [d] added along x's rows of d,
/// when given: a product's bias added in this pass over its output, which reads it anyway,
/// rather than written into the output before the product accumulates onto it
/// (docs/performance.md).
pub fn gelu<T: Gelu>(x: &[T], bias: Option<&[T]>, y: &mut [T]) {
    const CHUNK: usize = 1 << 14; // 64 KB of float32 per part
    let len = y.len();
    if len == 0 {
        return;
    }
    // Parts of whole rows when there is a bias, so that each part starts at a row's first value.
    let d = bias.map_or(1, <[T]>::len);
    assert!(
        d > 0 && len.is_multiple_of(d),
        "the bias's length divides x's"
    );
    let part = CHUNK.div_ceil(d).max(1) * d;
    let run = |start: usize, y: &mut [T]| {
        let x = &x[start..start + y.len()];
        match bias {
            None => T::gelu_into(x, y),
            Some(b) => gelu_rows_with_bias(x, b, y),
        }
    };
    let parts = len.div_ceil(part);
    if parts <= 1 {
        return run(0, y);
    }
    let out = Disjoint::new(y);
    for_each_part(parts, gelu_work(len), &|p| {
        let start = p * part;
        // SAFETY: part p alone writes these elements of y.
        run(start, unsafe { out.part(start, part.min(len - start)) })
    });
}

/// gelu(x + b) for whole rows of x (b's length each), through a stack buffer of the sums.
fn gelu_rows_with_bias<T: Gelu>(x: &[T], b: &[T], y: &mut [T]) {
    const STEP: usize = 256;
    let mut sum = [T::zero(); STEP];
    for (x_row, y_row) in x.chunks_exact(b.len()).zip(y.chunks_exact_mut(b.len())) {
        for ((x, b), y) in x_row
            .chunks(STEP)
            .zip(b.chunks(STEP))
            .zip(y_row.chunks_mut(STEP))
        {
            let sum = &mut sum[..x.len()];
            for ((s, &xi), &bi) in sum.iter_mut().zip(x).zip(b) {
                *s = xi + bi;
            }
            T::gelu_into(sum, y);
        }
    }
}

/// Work of `gelu` over `elements` numbers (a vectorised erf costs about 16 multiply-adds).
pub fn gelu_work(elements: usize) -> usize {
    elements.saturating_mul(16)
}

/// Work of `layer_norm` or `rms_norm` over `elements` numbers.
pub fn layer_norm_work(elements: usize) -> usize {
    elements.saturating_mul(16)
}
