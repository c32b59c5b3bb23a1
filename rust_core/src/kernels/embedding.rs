//! Embedding lookup and one-hot vectors.
//!
//! A lookup copies row `ids[i]` of `table` [V, d]; it is what `one_hot(ids, V) @ table` computes,
//! without the V-wide vector of zeros and the V·d multiply-adds per token.

use rayon::prelude::*;

use crate::error::{CoreError, Result};
use crate::real::Id;
use crate::runtime::threads::{in_pool, PARALLEL_MIN_WORK};
use crate::simd::{Level, Supported};

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

/// Outputs at least this big are written with streaming stores (`lookup_with`): they do not fit
/// in this machine's 2 MB L2, so caching them only evicts table rows still to be read.
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
    lookup_with(Supported::best(), table, d, ids, out);
}

/// `embedding_lookup` at the level `cpu`. A big output is written with streaming stores
/// (non-temporal: the output goes to memory without each of its cache lines first being read in,
/// as a normal store must), 64 bytes at a time with AVX-512 and 32 with AVX2 (with the library
/// held to AVX2, normal stores took 1.35 times as long, docs/performance.md); at the baseline,
/// and for small outputs or short rows, normal stores.
fn lookup_with<T: Copy + Send + Sync, I: Id>(
    cpu: Supported,
    table: &[T],
    d: usize,
    ids: &[I],
    out: &mut [T],
) {
    debug_assert_eq!(out.len(), ids.len() * d);
    if d == 0 {
        return;
    }
    // A small output, or short rows, keep normal stores whatever the level.
    let stream = std::mem::size_of_val(out) >= STREAM_MIN_BYTES
        && d * std::mem::size_of::<T>() >= STREAM_MIN_ROW_BYTES;
    let level = if stream { cpu.level() } else { Level::Baseline };
    let copy = |out: &mut [T], ids: &[I]| match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Supported` holds a level this CPU runs.
        Level::Avx512 => unsafe { x86::copy_rows_avx512(table, d, ids, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Level::Avx2Fma => unsafe { x86::copy_rows_avx2(table, d, ids, out) },
        _ => copy_rows::<false, T, I>(table, d, ids, out, |dst, src| dst.copy_from_slice(src)),
    };
    if lookup_work(out.len()) < PARALLEL_MIN_WORK || !in_pool() {
        copy(out, ids);
    } else {
        out.par_chunks_mut(d * ROWS_PER_TASK) // [ROWS_PER_TASK, d] blocks of rows
            .zip(ids.par_chunks(ROWS_PER_TASK))
            .for_each(|(out, ids)| copy(out, ids));
    }
}

/// The plain lookup loop, with each row copied by `copy_row` and prefetched ahead of its turn:
/// into L1, or into L2 with `TO_L2` (the streaming copies, whose stores hold the L1 miss buffers
/// that prefetches into L1 would also wait for: docs/performance.md).
#[inline(always)]
fn copy_rows<const TO_L2: bool, T: Copy, I: Id>(
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
            prefetch::<TO_L2, T>(row(ahead));
        }
        copy_row(dst, row(id));
    }
}

#[inline(always)]
fn prefetch<const TO_L2: bool, T>(row: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0, _MM_HINT_T1};
        let p = row.as_ptr().cast::<i8>();
        for at in (0..std::mem::size_of_val(row)).step_by(64) {
            // SAFETY: the address lies inside `row`, and a prefetch never faults anyway.
            unsafe {
                if TO_L2 {
                    _mm_prefetch(p.add(at), _MM_HINT_T1)
                } else {
                    _mm_prefetch(p.add(at), _MM_HINT_T0)
                }
            };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = row; // elsewhere the hardware's own prefetcher is left to it
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::copy_rows;
    use crate::real::Id;

    /// `copy_rows` with streaming stores, then a fence: streaming stores are weakly ordered, and
    /// another thread may read `out` next. Each row's whole 64-byte cache lines of `out` go
    /// through `line`, its head and tail (part-lines) through normal stores, so that no line is
    /// written partly each way.
    ///
    /// # Safety
    ///
    /// `line(dst, src)` may assume that dst is 64-byte aligned and that both point at 64 bytes
    /// within `out`'s and `table`'s rows (it writes dst, reads src); it must do nothing else.
    #[inline(always)]
    unsafe fn stream_rows<T: Copy, I: Id>(
        table: &[T],
        d: usize,
        ids: &[I],
        out: &mut [T],
        line: impl Fn(*mut u8, *const u8),
    ) {
        copy_rows::<true, T, I>(table, d, ids, out, |dst, src| {
            assert_eq!(dst.len(), src.len());
            let bytes = std::mem::size_of_val(src);
            let (d, s) = (dst.as_mut_ptr().cast::<u8>(), src.as_ptr().cast::<u8>());
            // SAFETY: both ranges are `bytes` long and cannot overlap (`&mut` and `&`); every
            // line starts at a 64-byte aligned address of dst, and it and src's 64 bytes lie
            // within them.
            unsafe {
                let head = d.align_offset(64).min(bytes);
                std::ptr::copy_nonoverlapping(s, d, head);
                let mut at = head;
                while at + 64 <= bytes {
                    line(d.add(at), s.add(at));
                    at += 64;
                }
                std::ptr::copy_nonoverlapping(s.add(at), d.add(at), bytes - at);
            }
        });
        // SAFETY: SFENCE is part of SSE, which every x86-64 CPU has.
        unsafe { _mm_sfence() };
    }

    /// # Safety
    ///
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn copy_rows_avx512<T: Copy, I: Id>(
        table: &[T],
        d: usize,
        ids: &[I],
        out: &mut [T],
    ) {
        // SAFETY: the line is 64 bytes to an aligned address (`stream_rows`), on AVX-512F.
        unsafe {
            stream_rows::<T, I>(table, d, ids, out, |d, s| {
                _mm512_stream_si512(d.cast(), _mm512_loadu_si512(s.cast()))
            })
        }
    }

    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn copy_rows_avx2<T: Copy, I: Id>(table: &[T], d: usize, ids: &[I], out: &mut [T]) {
        // SAFETY: the line is 64 bytes to an aligned address (`stream_rows`), two 32-byte
        // halves, each aligned, on AVX2.
        unsafe {
            stream_rows::<T, I>(table, d, ids, out, |d, s| {
                _mm256_stream_si256(d.cast(), _mm256_loadu_si256(s.cast()));
                _mm256_stream_si256(d.add(32).cast(), _mm256_loadu_si256(s.add(32).cast()));
            })
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Row `id` of `table` for each id, by a plain loop; asserted big enough to be streamed.
    fn gathered<T: Copy>(table: &[T], d: usize, ids: &[i64]) -> Vec<T> {
        let rows: Vec<T> = ids
            .iter()
            .flat_map(|&id| table[id as usize * d..(id as usize + 1) * d].to_vec())
            .collect();
        assert!(std::mem::size_of_val(&rows[..]) >= STREAM_MIN_BYTES);
        rows
    }

    /// Every level's stores against a plain loop, on outputs big enough to stream and to be split
    /// over the pool: rows that are no whole number of cache lines, outputs starting 0, 4, 12 and
    /// 32 bytes past a cache line, float32 and float64, on this thread and over the pool.
    #[test]
    fn every_level_copies_the_rows_a_plain_loop_copies() {
        let (vocab, ids_len) = (97, 16_400);
        let ids: Vec<i64> = (0..ids_len).map(|i| (i * 31 + i / 7) % vocab).collect();
        for d in [256, 300, 301] {
            assert!(
                ids_len as usize * d >= PARALLEL_MIN_WORK,
                "the pool splits the copy"
            );
            let table: Vec<f32> = (0..vocab as usize * d).map(|i| i as f32 * 0.5).collect();
            let want = gathered(&table, d, &ids);
            for cpu in Supported::all() {
                for past_line in [0, 1, 3, 8] {
                    let mut buf = vec![f32::NAN; want.len() + 16 + past_line];
                    let at = buf.as_ptr().align_offset(64) + past_line;
                    let out = &mut buf[at..at + want.len()];
                    lookup_with(cpu, &table, d, &ids, out);
                    assert_eq!(out, &want[..], "{cpu:?}, d {d}, {past_line} elements in");
                    out.fill(f32::NAN);
                    crate::runtime::threads::run(usize::MAX, || {
                        lookup_with(cpu, &table, d, &ids, out)
                    })
                    .unwrap();
                    assert_eq!(out, &want[..], "{cpu:?}, d {d}, {past_line} in, pooled");
                }
            }
        }
        let d = 160; // float64: 1280-byte rows
        let table: Vec<f64> = (0..vocab as usize * d).map(|i| i as f64 - 0.25).collect();
        let want = gathered(&table, d, &ids);
        for cpu in Supported::all() {
            let mut got = vec![f64::NAN; want.len() + 1];
            lookup_with(cpu, &table, d, &ids, &mut got[1..]);
            assert_eq!(&got[1..], &want[..], "{cpu:?}, float64");
        }
    }
}
