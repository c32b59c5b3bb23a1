//! y = x · Wᵀ with W [out, in] given as GGML blocks (`quant`), never expanded to float32 whole.
//!
//! Two ways, one result (the exact product of x with the dequantized weights, up to the rounding
//! of float32 sums):
//!
//! - **few rows** (a generated token): each row of W is decoded block by block in registers and
//!   dotted with every row of x right there (AVX2 + FMA, or a portable loop), so a decoding step
//!   reads each weight once, from memory, with the next rows prefetched while it computes.
//! - **many rows** (a prompt): tiles of W's rows are dequantized into a small float32 buffer and
//!   multiplied with all the rows of x by a fast GEMM (`matmul`), so decoding a weight is shared
//!   by every row and the product runs near the machine's float32 peak.
//!
//! Parallel over parts of W's rows (`threads::for_each_part`: rayon's pool for a prompt, the
//! low-latency team for a token); every output element is computed by the same operations
//! whatever the number of threads, so results do not depend on it.

use std::sync::OnceLock;

use crate::matmul::{matmul_abt, Mat};
use crate::quant::{dequantize_blocks, Kind, BLOCK};
use crate::simd::{self, Level, Supported};
use crate::threads::{for_each_part, Disjoint};

/// Rows of x up to which the dots take the few-rows path; beyond it a tile of dequantized weights
/// is shared by enough rows to pay for its decoding. Measured here (2 threads, SmolLM2's
/// [576, 1536] Q4_1 matrix): 1, 2, 4 rows by the dots 34, 66, 130 µs; 5 and 8 rows by the tiles
/// 140 and 173 µs — the dots' time grows with every row, the tiles' hardly.
pub const FEW_ROWS: usize = 4;
/// Rows of W per part of the few-rows path: 32 rows of 576 values are about 2 µs of work.
const DOT_ROWS_PER_PART: usize = 32;
/// Rows of W per tile of the GEMM path: 32 rows of 1536 values are 192 KB of float32, which stay
/// in the L2 cache while every row of x passes.
const GEMM_ROWS_PER_PART: usize = 32;

/// Multiply-adds of one call, for `threads::run`'s choice of rayon's pool: 0 for the few-rows
/// path, which splits over the low-latency team itself (`threads::for_each_part`) instead.
pub fn quantized_linear_work(rows: usize, d_in: usize, d_out: usize) -> usize {
    if rows <= FEW_ROWS {
        0
    } else {
        rows.saturating_add(1)
            .saturating_mul(d_in)
            .saturating_mul(d_out)
    }
}

/// One row of W (its blocks) against one float32 row of x: Σ over blocks of Ŵ_block · x_block,
/// each weight decoded exactly (d · q + m) in registers.
type Dot = unsafe fn(w_row: &[u8], x: &[f32]) -> f32;

/// The portable reference: each block dequantized exactly, 8 lane sums, reduced pairwise.
mod portable {
    use super::*;
    use crate::quant::BlockFormat;

    fn dot<B: BlockFormat>(w_row: &[u8], x: &[f32]) -> f32 {
        let mut lanes = [0.0f32; 8];
        let mut wv = [0.0f32; BLOCK];
        for (block, xb) in w_row.chunks_exact(B::BYTES).zip(x.chunks_exact(BLOCK)) {
            B::dequantize::<false>(block, &mut wv);
            for (i, (&w, &v)) in wv.iter().zip(xb).enumerate() {
                lanes[i % 8] += w * v;
            }
        }
        let mut width = 8;
        while width > 1 {
            width /= 2;
            for l in 0..width {
                lanes[l] += lanes[l + width];
            }
        }
        lanes[0]
    }

    pub fn q4_1(w_row: &[u8], x: &[f32]) -> f32 {
        dot::<crate::quant::Q4_1>(w_row, x)
    }

    pub fn q8_0(w_row: &[u8], x: &[f32]) -> f32 {
        dot::<crate::quant::Q8_0>(w_row, x)
    }
}

/// The AVX2 dots: each block decoded into registers (bytes widened to int32, converted, d · q + m
/// by one fused multiply-add — exact, as `quant` explains) and multiplied with x into four
/// accumulators, one per 8 values of a block. 256-bit registers even where AVX-512 exists: on
/// this project's machine a 512-bit version of the same loop was slower (82 µs against 68 µs
/// for one row through [1536, 576] Q4_1 on one thread), its byte widening bound to one port.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use std::arch::x86_64::*;

    /// Bytes ahead of the block being read that the dots prefetch: a decoding step's weights
    /// come from memory, and 4 KB ahead was the best of 0.5–16 KB on one (measured this session
    /// with an 8-bit version of these dots: 8.5 against 12.6 ms a token without prefetching).
    pub const PREFETCH_AHEAD: usize = 4096;

    /// [d, m] of a block header (two f16) as float32, in lanes 0 and 1.
    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn header(block: *const u8) -> __m128 {
        _mm_cvtph_ps(_mm_cvtsi32_si128((block as *const i32).read_unaligned()))
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn sum8(acc: [__m256; 4]) -> f32 {
        let v = _mm256_add_ps(_mm256_add_ps(acc[0], acc[1]), _mm256_add_ps(acc[2], acc[3]));
        let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps(s, s, 1)))
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn q4_1(w_row: &[u8], x: &[f32]) -> f32 {
        let blocks = x.len() / BLOCK;
        assert!(w_row.len() >= blocks * 20);
        let mask = _mm_set1_epi8(0x0F);
        let mut acc = [_mm256_setzero_ps(); 4];
        for b in 0..blocks {
            let block = w_row.as_ptr().add(b * 20);
            _mm_prefetch::<_MM_HINT_T0>(block.wrapping_add(PREFETCH_AHEAD) as *const i8);
            let dm = header(block);
            let (d, m) = (
                _mm256_broadcastss_ps(dm),
                _mm256_broadcastss_ps(_mm_movehdup_ps(dm)),
            );
            let raw = _mm_loadu_si128(block.add(4) as *const __m128i);
            let lo = _mm_and_si128(raw, mask); // values 0..16
            let hi = _mm_and_si128(_mm_srli_epi16(raw, 4), mask); // values 16..32
            let xb = x.as_ptr().add(b * BLOCK);
            for (c, bytes) in [lo, _mm_srli_si128(lo, 8), hi, _mm_srli_si128(hi, 8)]
                .into_iter()
                .enumerate()
            {
                let w = _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(bytes)), d, m);
                acc[c] = _mm256_fmadd_ps(w, _mm256_loadu_ps(xb.add(8 * c)), acc[c]);
            }
        }
        sum8(acc)
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn q8_0(w_row: &[u8], x: &[f32]) -> f32 {
        let blocks = x.len() / BLOCK;
        assert!(w_row.len() >= blocks * 34);
        let mut acc = [_mm256_setzero_ps(); 4];
        for b in 0..blocks {
            let block = w_row.as_ptr().add(b * 34);
            _mm_prefetch::<_MM_HINT_T0>(block.wrapping_add(PREFETCH_AHEAD) as *const i8);
            let d = _mm256_broadcastss_ps(header(block));
            let xb = x.as_ptr().add(b * BLOCK);
            for (c, a) in acc.iter_mut().enumerate() {
                let bytes = _mm_loadl_epi64(block.add(2 + 8 * c) as *const __m128i);
                let w = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(bytes)), d);
                *a = _mm256_fmadd_ps(w, _mm256_loadu_ps(xb.add(8 * c)), *a);
            }
        }
        sum8(acc)
    }
}

/// Whether this CPU converts f16 in hardware (F16C): every CPU with AVX2 made so far does, but it
/// is a separate feature, so the vector kernels are chosen only with it.
fn f16c() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("f16c")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The dot kernels this CPU can run, by name, slowest (the portable reference) first; tests hold
/// each to the dequantized product.
pub fn variants(kind: Kind, cpu: Supported) -> Vec<(&'static str, Dot)> {
    let mut out: Vec<(&'static str, Dot)> = vec![match kind {
        Kind::Q4_1 => ("portable", portable::q4_1 as Dot),
        Kind::Q8_0 => ("portable", portable::q8_0 as Dot),
    }];
    #[cfg(target_arch = "x86_64")]
    if cpu.level() >= Level::Avx2Fma && f16c() {
        // SAFETY: `cpu` and `f16c()` prove the features the kernels were compiled for, which is
        // all `unsafe` asks of their callers.
        out.push(match kind {
            Kind::Q4_1 => ("avx2", x86::q4_1 as Dot),
            Kind::Q8_0 => ("avx2", x86::q8_0 as Dot),
        });
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = cpu;
    out
}

fn chosen(kind: Kind) -> Dot {
    static Q4_1_DOT: OnceLock<Dot> = OnceLock::new();
    static Q8_0_DOT: OnceLock<Dot> = OnceLock::new();
    fn fastest(kind: Kind, cpu: Supported) -> Dot {
        variants(kind, cpu).last().expect("a portable kernel").1
    }
    match kind {
        Kind::Q4_1 => simd::pick(&Q4_1_DOT, |cpu| fastest(Kind::Q4_1, cpu)),
        Kind::Q8_0 => simd::pick(&Q8_0_DOT, |cpu| fastest(Kind::Q8_0, cpu)),
    }
}

/// y [rows, out] = x [rows, in] · Wᵀ, W [out, in] as blocks of `kind` (`w` checked to hold exactly
/// them, `in` a multiple of 32).
pub fn quantized_linear(kind: Kind, x: &[f32], w: &[u8], d_in: usize, d_out: usize, y: &mut [f32]) {
    if y.is_empty() {
        return;
    }
    if d_in == 0 {
        y.fill(0.0); // an empty sum
        return;
    }
    let rows = x.len() / d_in;
    assert!(
        w.len() == d_out * (d_in / BLOCK) * kind.block_bytes() && y.len() == rows * d_out,
        "shapes do not match"
    );
    if rows <= FEW_ROWS {
        few_rows(chosen(kind), kind, x, w, d_in, d_out, y);
    } else {
        gemm_path(kind, x, w, d_in, d_out, y);
    }
}

/// The few-rows path with a given dot kernel (tests run every variant): each row of x against
/// each row of W, split over parts of W's rows.
pub fn few_rows(
    dot: Dot,
    kind: Kind,
    x: &[f32],
    w: &[u8],
    d_in: usize,
    d_out: usize,
    y: &mut [f32],
) {
    let row_bytes = d_in / BLOCK * kind.block_bytes();
    let rows = x.len() / d_in;
    assert!(y.len() == rows * d_out && w.len() == d_out * row_bytes);
    let parts = d_out.div_ceil(DOT_ROWS_PER_PART);
    let out = Disjoint::new(y);
    for_each_part(parts, rows * d_in * d_out, &|p| {
        let j0 = p * DOT_ROWS_PER_PART;
        let width = DOT_ROWS_PER_PART.min(d_out - j0);
        for r in 0..rows {
            // SAFETY: part p alone writes columns j0 .. j0 + width of each row.
            let cols = unsafe { out.part(r * d_out + j0, width) };
            let xr = &x[r * d_in..(r + 1) * d_in];
            for (jj, c) in cols.iter_mut().enumerate() {
                let w_row = &w[(j0 + jj) * row_bytes..(j0 + jj + 1) * row_bytes];
                // SAFETY: `dot` is one of `variants`, whose features this CPU has; the slices
                // hold whole blocks (checked above).
                *c = unsafe { dot(w_row, xr) };
            }
        }
    });
}

/// The float32 path: tiles of W's rows dequantized and multiplied with every row of `x` by gemm.
fn gemm_path(kind: Kind, x: &[f32], w: &[u8], d_in: usize, d_out: usize, y: &mut [f32]) {
    let rows = x.len() / d_in;
    let row_bytes = d_in / BLOCK * kind.block_bytes();
    let parts = d_out.div_ceil(GEMM_ROWS_PER_PART);
    let out = Disjoint::new(y);
    let work = rows * d_in * d_out;
    for_each_part(parts, work, &|p| {
        let j0 = p * GEMM_ROWS_PER_PART;
        let width = GEMM_ROWS_PER_PART.min(d_out - j0);
        let mut tile = vec![0.0f32; width * d_in]; // [width, d_in]: rows j0.. of Ŵ
        dequantize_blocks(
            kind,
            &w[j0 * row_bytes..(j0 + width) * row_bytes],
            &mut tile,
        );
        let mut c = vec![0.0f32; rows * width]; // [rows, width]
        matmul_abt(
            Mat::new(x, rows, d_in, d_in),
            Mat::new(&tile, width, d_in, d_in),
            1.0,
            &mut c,
            width,
            false,
        );
        for (r, c_row) in c.chunks_exact(width).enumerate() {
            // SAFETY: part p alone writes columns j0 .. j0 + width of each row.
            unsafe { out.part(r * d_out + j0, width) }.copy_from_slice(c_row);
        }
    });
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::quant::dequantize;
    use crate::test_support::lcg;

    /// Random blocks of `kind`: random bytes, with scales that are ordinary, negative, subnormal.
    pub(crate) fn random_blocks(kind: Kind, blocks: usize, seed: u64) -> Vec<u8> {
        let bytes = lcg(seed, blocks * kind.block_bytes());
        let mut data: Vec<u8> = bytes.iter().map(|v| ((v + 1.0) * 127.9) as u8).collect();
        let scales = [0x2E66u16, 0xAE66, 0x0123, 0x8010, 0x1C00, 0x3C00];
        for (b, block) in data.chunks_exact_mut(kind.block_bytes()).enumerate() {
            block[..2].copy_from_slice(&scales[b % scales.len()].to_le_bytes());
            if kind == Kind::Q4_1 {
                block[2..4].copy_from_slice(&scales[(b + 3) % scales.len()].to_le_bytes());
            }
        }
        data
    }

    /// Σ x_i w_i and Σ |x_i w_i| in float64, for each (row of x, row of w).
    fn reference(x: &[f32], w: &[f32], d_in: usize) -> (Vec<f64>, Vec<f64>) {
        let (rows, cols) = (x.len() / d_in, w.len() / d_in);
        let mut want = vec![0.0; rows * cols];
        let mut reach = vec![0.0; rows * cols];
        for r in 0..rows {
            for o in 0..cols {
                for i in 0..d_in {
                    let p = f64::from(x[r * d_in + i]) * f64::from(w[o * d_in + i]);
                    want[r * cols + o] += p;
                    reach[r * cols + o] += p.abs();
                }
            }
        }
        (want, reach)
    }

    fn assert_close(got: &[f32], want: &[f64], reach: &[f64], d_in: usize, what: &str) {
        for e in 0..got.len() {
            // Any order of summation is within d_in · ε · Σ|x||w| of the truth.
            let tol = d_in as f64 * f64::from(f32::EPSILON) * reach[e];
            assert!(
                (f64::from(got[e]) - want[e]).abs() <= tol,
                "{what}: element {e}: {} vs {}",
                got[e],
                want[e]
            );
        }
    }

    type Run<'a> = Box<dyn Fn(&mut [f32]) + Sync + 'a>;

    /// Both paths, every dot variant, 1 and several threads: the dequantized product; and one
    /// variant gives the same bits for any number of threads. Sizes: one row, the few-rows limit
    /// and past it, parts that are not whole (33, 70, 45 rows of W), more than one part.
    #[test]
    fn every_path_equals_the_dequantized_product() {
        for kind in [Kind::Q4_1, Kind::Q8_0] {
            for (rows, d_in, d_out) in [
                (1, 32, 1),
                (1, 64, 33),
                (4, 96, 70),
                (5, 64, 45),
                (130, 64, 45),
            ] {
                let w = random_blocks(kind, d_out * d_in / BLOCK, 3 + rows as u64);
                let mut wf = vec![0.0f32; d_out * d_in];
                dequantize(kind, &w, &mut wf);
                let x: Vec<f32> = lcg(rows as u64, rows * d_in)
                    .iter()
                    .map(|&v| v as f32)
                    .collect();
                let (want, reach) = reference(&x, &wf, d_in);
                let mut runs: Vec<(String, Run)> = vec![(
                    "quantized_linear".into(),
                    Box::new(|y: &mut [f32]| quantized_linear(kind, &x, &w, d_in, d_out, y)),
                )];
                if rows <= FEW_ROWS {
                    for (name, dot) in variants(kind, Supported::best()) {
                        let (x, w) = (&x, &w);
                        runs.push((
                            format!("few_rows {name}"),
                            Box::new(move |y: &mut [f32]| {
                                few_rows(dot, kind, x, w, d_in, d_out, y)
                            }),
                        ));
                    }
                }
                for (name, run) in &runs {
                    let mut outs = Vec::new();
                    for threads in [1, 3] {
                        crate::threads::set_num_threads(threads).unwrap();
                        let mut y = vec![f32::NAN; rows * d_out];
                        // In the pool (the prompt's way) and outside it (the team's).
                        crate::threads::run(usize::MAX, || run(&mut y)).unwrap();
                        let what =
                            format!("{kind:?} {name} threads={threads} {rows}×{d_in}→{d_out}");
                        assert_close(&y, &want, &reach, d_in, &what);
                        let mut y2 = vec![f32::NAN; rows * d_out];
                        run(&mut y2);
                        assert_eq!(y, y2, "{what}: pool and team");
                        outs.push(y);
                    }
                    assert_eq!(outs[0], outs[1], "{kind:?} {name}: 1 and 3 threads");
                }
            }
        }
    }
}
