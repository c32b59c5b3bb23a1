//! Numerically stable softmax over contiguous rows.
//!
//! softmax(x)_j = exp(x_j − max x) / Σ_l exp(x_l − max x). Subtracting the maximum changes nothing
//! mathematically but keeps every exponent ≤ 0, so ±1e4 cannot overflow. Two rules on top, shared
//! with the other backends (docs/api.md): a row containing NaN is all NaN, and a row that is all
//! −inf (nothing to attend to) is all zeros rather than 0/0 = NaN.

use rayon::prelude::*;

use crate::error::{checked_len, fmt_shape, CoreError, Result};
use crate::real::Real;
use crate::runtime::threads::{in_pool, PARALLEL_MIN_WORK};
use crate::simd::exp::ExpSum;

/// Elements per parallel task.
const ELEMENTS_PER_TASK: usize = 1 << 13;

/// The work of a softmax over `elements` numbers, for `threads::run`: a max, an exp and a scale per
/// element cost about as much as 32 multiply-adds of a matrix product.
pub fn softmax_work(elements: usize) -> usize {
    elements.saturating_mul(32)
}

/// The maximum of a slice and whether it holds a NaN, in one pass that vectorises (eight
/// independent lanes; `iter().any(is_nan)` would stop early and stay scalar).
#[inline]
pub fn max_and_nan<T: Real>(row: &[T]) -> (T, bool) {
    const LANES: usize = 8;
    let mut max = [T::neg_infinity(); LANES];
    let mut nan = [false; LANES];
    let mut chunks = row.chunks_exact(LANES);
    for c in &mut chunks {
        for l in 0..LANES {
            max[l] = if c[l] > max[l] { c[l] } else { max[l] };
            nan[l] |= c[l].is_nan();
        }
    }
    // The lanes halved pairwise: one serial chain through all 8 waited on each comparison.
    let mut width = LANES / 2;
    while width > 0 {
        for l in 0..width {
            max[l] = if max[l + width] > max[l] {
                max[l + width]
            } else {
                max[l]
            };
        }
        width /= 2;
    }
    let (mut m, mut has_nan) = (max[0], nan.iter().any(|&b| b));
    for &x in chunks.remainder() {
        m = if x > m { x } else { m };
        has_nan |= x.is_nan();
    }
    (m, has_nan)
}

/// Softmax of one slice in place. Returns `false` when the slice had nothing to normalise (empty or
/// all −inf; it is then all zeros), so attention can give such a query a zero output.
pub fn softmax_in_place<T: ExpSum>(row: &mut [T]) -> bool {
    if row.is_empty() {
        return false;
    }
    let (max, has_nan) = max_and_nan(row);
    if has_nan || max == T::infinity() {
        // NaN anywhere, or +inf (inf − inf): the whole slice is NaN.
        row.fill(T::nan());
        return true;
    }
    if max == T::neg_infinity() {
        row.fill(T::zero());
        return false;
    }
    let inv = T::one() / T::exp_sub_sum(row, max);
    for x in row.iter_mut() {
        *x = *x * inv;
    }
    true
}

/// Softmax of every row of a row-major [rows, len] buffer, in place; split across the pool when
/// large and called on it (see `threads::run`).
pub fn softmax_rows<T: ExpSum>(data: &mut [T], len: usize) {
    if len == 0 || data.is_empty() {
        return;
    }
    if softmax_work(data.len()) < PARALLEL_MIN_WORK || !in_pool() {
        data.chunks_mut(len).for_each(|row| {
            softmax_in_place(row);
        });
    } else {
        let rows_per_task = (ELEMENTS_PER_TASK / len).max(1);
        data.par_chunks_mut(len)
            .with_min_len(rows_per_task)
            .for_each(|row| {
                softmax_in_place(row);
            });
    }
}

/// Softmax of every row of a row-major [rows, len] `src` into `dst`. Each row is copied and then
/// normalised in place while it is still in cache, so `src` is read once and `dst` written once.
pub fn softmax_rows_into<T: ExpSum>(src: &[T], dst: &mut [T], len: usize) {
    debug_assert_eq!(src.len(), dst.len());
    if len == 0 || dst.is_empty() {
        return;
    }
    let row = |(d, s): (&mut [T], &[T])| {
        d.copy_from_slice(s);
        softmax_in_place(d);
    };
    if softmax_work(dst.len()) < PARALLEL_MIN_WORK || !in_pool() {
        dst.chunks_mut(len).zip(src.chunks(len)).for_each(row);
    } else {
        let rows_per_task = (ELEMENTS_PER_TASK / len).max(1);
        dst.par_chunks_mut(len)
            .zip(src.par_chunks(len))
            .with_min_len(rows_per_task)
            .for_each(row);
    }
}

/// E8: `axis` as an index into `shape`, counting from the end when negative (as NumPy does).
/// A 0-d array has no axis, so it always fails.
pub fn resolve_axis(axis: i64, shape: &[usize]) -> Result<usize> {
    let ndim = shape.len() as i128;
    // i128: `axis + ndim` cannot overflow even for i64::MIN.
    let resolved = if axis < 0 {
        i128::from(axis) + ndim
    } else {
        i128::from(axis)
    };
    if (0..ndim).contains(&resolved) {
        Ok(resolved as usize)
    } else {
        Err(CoreError::Value(format!(
            "axis {axis} is out of bounds for x of shape {}",
            fmt_shape(shape)
        )))
    }
}

/// Softmax along `axis` of the C-ordered array `src` of `shape` into `dst` (same shape).
///
/// Along the last axis (or one followed only by dimensions of size 1) the slices are contiguous
/// rows: `softmax_rows_into`. Otherwise `x` is seen as [outer, len, inner] (len = shape[axis]),
/// and each of the `outer` blocks is transposed into a scratch [inner, len] whose rows are the
/// slices, normalised there, and transposed back: each slice is then a contiguous row computed in
/// the same order as along the last axis. The scratch, one block, is asked for fallibly (a
/// MemoryError rather than an abort when the OS refuses it).
pub fn softmax_along<T: ExpSum>(
    src: &[T],
    dst: &mut [T],
    shape: &[usize],
    axis: usize,
) -> Result<()> {
    debug_assert_eq!(src.len(), dst.len());
    let len = shape[axis];
    let inner = checked_len(&shape[axis + 1..])?;
    if inner == 1 {
        softmax_rows_into(src, dst, len);
        return Ok(());
    }
    let block = len * inner; // fits: no bigger than src
    if block == 0 {
        return Ok(());
    }
    let mut scratch = Vec::new();
    scratch.try_reserve_exact(block).map_err(|_| {
        CoreError::Memory(format!(
            "cannot allocate memory for a copy of an array of shape {}",
            fmt_shape(&[inner, len])
        ))
    })?;
    scratch.resize(block, T::zero());
    let parallel = softmax_work(src.len()) >= PARALLEL_MIN_WORK && in_pool();
    for (src_b, dst_b) in src.chunks(block).zip(dst.chunks_mut(block)) {
        // scratch [inner, len]: row i is the slice src_b[j·inner + i] for j < len
        let gather = |(i, row): (usize, &mut [T])| {
            for (j, x) in row.iter_mut().enumerate() {
                *x = src_b[j * inner + i];
            }
        };
        if parallel {
            let rows_per_task = (ELEMENTS_PER_TASK / len).max(1);
            scratch
                .par_chunks_mut(len)
                .with_min_len(rows_per_task)
                .enumerate()
                .for_each(gather);
        } else {
            scratch.chunks_mut(len).enumerate().for_each(gather);
        }
        softmax_rows(&mut scratch, len);
        // dst_b [len, inner]: row j is element j of every slice
        let scatter = |(j, row): (usize, &mut [T])| {
            for (i, x) in row.iter_mut().enumerate() {
                *x = scratch[i * len + j];
            }
        };
        if parallel {
            let rows_per_task = (ELEMENTS_PER_TASK / inner).max(1);
            dst_b
                .par_chunks_mut(inner)
                .with_min_len(rows_per_task)
                .enumerate()
                .for_each(scatter);
        } else {
            dst_b.chunks_mut(inner).enumerate().for_each(scatter);
        }
    }
    Ok(())
}
