//! Embedding lookup and one-hot vectors.
//!
//! A lookup copies row `ids[i]` of `table` [V, d]; it is what `one_hot(ids, V) @ table` computes,
//! without the V-wide vector of zeros and the V·d multiply-adds per token.

use rayon::prelude::*;

use crate::error::{CoreError, Result};
use crate::threads::{in_pool, PARALLEL_MIN_WORK};

/// Rows per parallel task: copying a row is cheap, so tasks need many of them to pay for the split.
const ROWS_PER_TASK: usize = 256;

/// Convert ids of any integer type to row indices, or an IndexError naming the first bad id.
///
/// Going through `i128` keeps every value of every integer type exact, so `u64::MAX` is reported as
/// itself rather than wrapping to -1.
pub fn check_ids<I: Copy + Into<i128>>(ids: &[I], vocab_size: usize) -> Result<Vec<usize>> {
    ids.iter()
        .map(|&id| {
            let id: i128 = id.into();
            if id >= 0 && id < vocab_size as i128 {
                Ok(id as usize)
            } else {
                Err(CoreError::Index(format!(
                    "id {id} is out of range for a vocabulary of size {vocab_size}"
                )))
            }
        })
        .collect()
}

pub fn check_table_shape(shape: &[usize]) -> Result<(usize, usize)> {
    match shape {
        [v, d] => Ok((*v, *d)),
        _ => Err(CoreError::Value(format!(
            "table must be 2-D [V, d], got shape {}",
            crate::error::fmt_shape(shape)
        ))),
    }
}

pub fn check_vocab_size(vocab_size: i64) -> Result<usize> {
    if vocab_size < 1 {
        return Err(CoreError::Value(format!(
            "vocab_size must be at least 1, got {vocab_size}"
        )));
    }
    usize::try_from(vocab_size)
        .map_err(|_| CoreError::Memory(format!("vocab_size {vocab_size} is too large")))
}

/// `out[i, :] = table[rows[i], :]` for a row-major `table` with `d` columns; `out` is [len(rows), d].
/// Rows must already be checked (`check_ids`).
pub fn embedding_lookup<T: Copy + Send + Sync>(
    table: &[T],
    d: usize,
    rows: &[usize],
    out: &mut [T],
) {
    debug_assert_eq!(out.len(), rows.len() * d);
    if d == 0 {
        return;
    }
    let copy_row = |(dst, &r): (&mut [T], &usize)| dst.copy_from_slice(&table[r * d..(r + 1) * d]);
    if out.len() < PARALLEL_MIN_WORK || !in_pool() {
        out.chunks_mut(d).zip(rows).for_each(copy_row);
    } else {
        out.par_chunks_mut(d)
            .zip(rows)
            .with_min_len(ROWS_PER_TASK)
            .for_each(copy_row);
    }
}

/// `out[i, rows[i]] = 1`, every other entry 0; `out` is [len(rows), vocab_size] and zero on entry.
pub fn one_hot<T: Copy>(rows: &[usize], vocab_size: usize, one: T, out: &mut [T]) {
    debug_assert_eq!(out.len(), rows.len() * vocab_size);
    for (i, &r) in rows.iter().enumerate() {
        out[i * vocab_size + r] = one;
    }
}
