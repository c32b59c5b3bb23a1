//! Numerically stable softmax over contiguous rows.
//!
//! softmax(x)_j = exp(x_j − max x) / Σ_l exp(x_l − max x). Subtracting the maximum changes nothing
//! mathematically but keeps every exponent ≤ 0, so ±1e4 cannot overflow. Two rules on top, shared
//! with the other backends (docs/api.md): a row containing NaN is all NaN, and a row that is all
//! −inf (nothing to attend to) is all zeros rather than 0/0 = NaN.

use rayon::prelude::*;

use crate::real::Real;
use crate::threads::{in_pool, PARALLEL_MIN_WORK};

/// Elements per parallel task.
const ELEMENTS_PER_TASK: usize = 1 << 13;

/// Softmax of one slice in place. Returns `false` when the slice had nothing to normalise (empty or
/// all −inf; it is then all zeros), so attention can give such a query a zero output.
pub fn softmax_in_place<T: Real>(row: &mut [T]) -> bool {
    if row.is_empty() {
        return false;
    }
    if row.iter().any(|x| x.is_nan()) {
        row.fill(T::nan());
        return true;
    }
    let max = row
        .iter()
        .fold(T::neg_infinity(), |m, &x| if x > m { x } else { m });
    if max == T::neg_infinity() {
        row.fill(T::zero());
        return false;
    }
    let mut sum = T::zero();
    for x in row.iter_mut() {
        *x = (*x - max).exp();
        sum = sum + *x;
    }
    for x in row.iter_mut() {
        *x = *x / sum;
    }
    true
}

/// Softmax of every row of a row-major [rows, len] buffer, in place; split across the pool when
/// large and called on it (see `threads::run`).
pub fn softmax_rows<T: Real>(data: &mut [T], len: usize) {
    if len == 0 || data.is_empty() {
        return;
    }
    if data.len() < PARALLEL_MIN_WORK || !in_pool() {
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
