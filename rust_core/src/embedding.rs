//! Embedding lookup and one-hot vectors.
//!
//! A lookup copies row `ids[i]` of `table` [V, d]; it is what `one_hot(ids, V) @ table` computes,
//! without the V-wide vector of zeros and the V·d multiply-adds per token.

use rayon::prelude::*;

use crate::error::{CoreError, Result};
use crate::threads::{in_pool, PARALLEL_MIN_WORK};

/// Rows per parallel task: copying a row is cheap, so tasks need many of them to pay for the split.
const ROWS_PER_TASK: usize = 256;

/// An id of any integer type: widening to `i128` keeps every value of every type exact, so
/// `u64::MAX` is reported as itself rather than wrapping to −1.
pub trait Id: Copy + Send + Sync + Into<i128> {}
impl<I: Copy + Send + Sync + Into<i128>> Id for I {}

/// Check every id against the vocabulary: an IndexError naming the first bad id (in order).
pub fn check_ids<I: Id>(ids: &[I], vocab_size: usize) -> Result<()> {
    match ids
        .iter()
        .map(|&id| id.into())
        .find(|&id| id < 0 || id >= vocab_size as i128)
    {
        None => Ok(()),
        Some(id) => Err(CoreError::Index(format!(
            "id {id} is out of range for a vocabulary of size {vocab_size}"
        ))),
    }
}

/// The work of copying `elements` numbers, for `threads::run`. Memory bandwidth, not cores,
/// limits a copy: measured here, a second thread only pays off from about 8M float32 (32 MB).
pub fn lookup_work(elements: usize) -> usize {
    elements / 2
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

/// `out[i, :] = table[ids[i], :]` for a row-major `table` with `d` columns; `out` is
/// [len(ids), d]. Ids must already be checked (`check_ids`).
pub fn embedding_lookup<T: Copy + Send + Sync, I: Id>(
    table: &[T],
    d: usize,
    ids: &[I],
    out: &mut [T],
) {
    debug_assert_eq!(out.len(), ids.len() * d);
    if d == 0 {
        return;
    }
    let copy_row = |(dst, &id): (&mut [T], &I)| {
        let r = id.into() as usize;
        dst.copy_from_slice(&table[r * d..(r + 1) * d])
    };
    if lookup_work(out.len()) < PARALLEL_MIN_WORK || !in_pool() {
        out.chunks_mut(d).zip(ids).for_each(copy_row);
    } else {
        out.par_chunks_mut(d)
            .zip(ids)
            .with_min_len(ROWS_PER_TASK)
            .for_each(copy_row);
    }
}

/// `out[i, ids[i]] = 1`, every other entry 0; `out` is [len(ids), vocab_size] and zero on entry.
/// Ids must already be checked.
pub fn one_hot<T: Copy, I: Id>(ids: &[I], vocab_size: usize, one: T, out: &mut [T]) {
    debug_assert_eq!(out.len(), ids.len() * vocab_size);
    for (i, &id) in ids.iter().enumerate() {
        out[i * vocab_size + id.into() as usize] = one;
    }
}
