//! Embedding lookup and one-hot vectors.
//!
//! A lookup copies row `ids[i]` of `table` [V, d]; it is what `one_hot(ids, V) @ table` computes,
//! without the V-wide vector of zeros and the V·d multiply-adds per token.

use rayon::prelude::*;

use crate::error::{CoreError, Result};
use crate::real::Id;
use crate::runtime::threads::{in_pool, PARALLEL_MIN_WORK};

/// Rows per parallel task: copying a row is cheap, so tasks need many of them to pay for the split.
const ROWS_PER_TASK: usize = 256;

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

/// The work of copying `elements` numbers, for `threads::run`: one unit per number, which puts a
/// copy of a [30522, 384] table (4.7M float32) on the pool, where a second thread speeds it up
/// (docs/performance.md).
pub fn lookup_work(elements: usize) -> usize {
    elements
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

/// Outputs at least this big are written with streaming stores (`copy_rows_streaming`): they do
/// not fit in this machine's 2 MB L2, so caching them only evicts table rows still to be read.
const STREAM_MIN_BYTES: usize = 1 << 22;

/// Rows shorter than this are copied normally. A row that does not start on a cache line (NumPy
/// aligns arrays to 16 bytes) begins and ends with part-lines, written with normal stores; in
/// short rows (d = 64 float32: 256 bytes) those dominate and streaming loses, while rows of
/// d = 384 (1.5 KB) gain from it (docs/performance.md).
const STREAM_MIN_ROW_BYTES: usize = 1024;

/// Rows are prefetched this many ids ahead: a table row is a random address, so the hardware
/// prefetcher cannot guess it, and a few rows' lead gives each read time to arrive before its
/// copy (docs/performance.md).
const PREFETCH_AHEAD: usize = 8;

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
    let stream = std::mem::size_of_val(out) >= STREAM_MIN_BYTES
        && d * std::mem::size_of::<T>() >= STREAM_MIN_ROW_BYTES
        && can_stream();
    let copy = |out: &mut [T], ids: &[I]| {
        if stream {
            // SAFETY: `stream` is true only when `can_stream()` found AVX-512F on this CPU.
            unsafe { copy_rows_streaming(table, d, ids, out) };
        } else {
            copy_rows(table, d, ids, out, |dst, src| dst.copy_from_slice(src));
        }
    };
    if lookup_work(out.len()) < PARALLEL_MIN_WORK || !in_pool() {
        copy(out, ids);
    } else {
        out.par_chunks_mut(d * ROWS_PER_TASK) // [ROWS_PER_TASK, d] blocks of rows
            .zip(ids.par_chunks(ROWS_PER_TASK))
            .for_each(|(out, ids)| copy(out, ids));
    }
}

/// The plain lookup loop, with each row copied by `copy_row` and prefetched ahead of its turn.
#[inline(always)]
fn copy_rows<T: Copy, I: Id>(
    table: &[T],
    d: usize,
    ids: &[I],
    out: &mut [T],
    copy_row: impl Fn(&mut [T], &[T]),
) {
    let row = |id: I| {
        let r = id.into() as usize;
        &table[r * d..(r + 1) * d]
    };
    for (i, (dst, &id)) in out.chunks_exact_mut(d).zip(ids).enumerate() {
        if let Some(&ahead) = ids.get(i + PREFETCH_AHEAD) {
            prefetch(row(ahead));
        }
        copy_row(dst, row(id));
    }
}

fn prefetch<T>(row: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = row.as_ptr().cast::<i8>();
        for at in (0..std::mem::size_of_val(row)).step_by(64) {
            // SAFETY: the address lies inside `row`, and a prefetch never faults anyway.
            unsafe { _mm_prefetch(p.add(at), _MM_HINT_T0) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = row; // elsewhere the hardware's own prefetcher is left to it
}

/// AVX-512 streaming stores (non-temporal, 64 bytes = one cache line each) are used at the
/// library's AVX-512 level (`simd`).
fn can_stream() -> bool {
    crate::simd::Supported::best().level() >= crate::simd::Level::Avx512
}

/// `copy_rows` with streaming stores: the output goes to memory without each of its cache
/// lines first being read in, as a normal store must.
///
/// # Safety
///
/// The CPU must support AVX-512F, i.e. `can_stream()` returned true: the copy executes AVX-512
/// instructions, which are undefined behaviour on a CPU without them. (Rows and ids are bounds
/// checked as in `copy_rows`; nothing else is required.)
unsafe fn copy_rows_streaming<T: Copy, I: Id>(table: &[T], d: usize, ids: &[I], out: &mut [T]) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller guarantees AVX-512F, the one feature `copy_rows_avx512` is compiled for.
    unsafe {
        copy_rows_avx512(table, d, ids, out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    copy_rows(table, d, ids, out, |dst, src| dst.copy_from_slice(src));
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn copy_rows_avx512<T: Copy, I: Id>(table: &[T], d: usize, ids: &[I], out: &mut [T]) {
    use std::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_stream_si512, _mm_sfence};
    copy_rows(table, d, ids, out, |dst, src| {
        assert_eq!(dst.len(), src.len());
        let bytes = std::mem::size_of_val(src);
        let (d, s) = (dst.as_mut_ptr().cast::<u8>(), src.as_ptr().cast::<u8>());
        // SAFETY: both ranges are `bytes` long and cannot overlap (`&mut` and `&`); streaming
        // stores start at the first 64-byte aligned address, as they require; the unaligned
        // head and tail are copied normally.
        unsafe {
            let head = d.align_offset(64).min(bytes);
            std::ptr::copy_nonoverlapping(s, d, head);
            let mut at = head;
            while at + 64 <= bytes {
                let v = _mm512_loadu_si512(s.add(at).cast::<__m512i>());
                _mm512_stream_si512(d.add(at).cast::<__m512i>(), v);
                at += 64;
            }
            std::ptr::copy_nonoverlapping(s.add(at), d.add(at), bytes - at);
        }
    });
    // Streaming stores are weakly ordered: fence them before another thread reads `out`.
    _mm_sfence();
}

/// `out[i, ids[i]] = 1`, every other entry 0; `out` is [len(ids), vocab_size] and zero on entry.
/// Ids must already be checked.
pub fn one_hot<T: Copy, I: Id>(ids: &[I], vocab_size: usize, one: T, out: &mut [T]) {
    debug_assert_eq!(out.len(), ids.len() * vocab_size);
    for (i, &id) in ids.iter().enumerate() {
        out[i * vocab_size + id.into() as usize] = one;
    }
}
