//! y = x · Wᵀ with W [out, in] given as GGML blocks (`quant`), never expanded to float32 in memory.
//!
//! Each block of 32 weights is dequantized into registers and dotted, right there, with the same 32
//! values of every row of x in a tile (one row when decoding, four at a time for a prompt), so a
//! weight is decoded once per tile of rows and read from memory once per call. The dot products
//! keep 8 (or, with AVX-512, 16) independent lane sums, reduced in a fixed order at the end: the
//! compiler turns the loops into SIMD code, compiled once per `simd::Level` and picked at run time
//! as `simd` describes (the baseline variant is the scalar reference the tests hold the others to).
//!
//! Parallel over tiles of (rows of x) × (rows of W): for one row of x that is just blocks of W's
//! rows, each task reading its share of the weights once. Every output element is computed by
//! the same sequence of operations whatever the tiling and the number of threads, so results are
//! identical for any pool size.

use std::sync::OnceLock;

use rayon::prelude::*;

use crate::quant::{BlockFormat, Kind, BLOCK, Q4_1, Q8_0};
use crate::simd::{self, Level, Supported};
use crate::threads::in_pool;

/// Rows of x dotted together with each decoded block.
const X_TILE: usize = 4;
/// Rows of W (output columns) per parallel task.
const W_ROWS_PER_TASK: usize = 32;
/// Rows of x per parallel task: with 32 rows of W, a task is 64 × 32 outputs.
const X_ROWS_PER_TASK: usize = 64;

/// Multiply-adds of one call, weighted for `threads::run`: decoding a weight costs several times
/// a multiply-add, and even one row through one of SmolLM2's [1536, 576] Q4_1 matrices (885K
/// weights) pays for the pool: measured here (AVX-512, median of 3000 calls) 81 µs on one thread,
/// 63 µs on two.
pub fn quantized_linear_work(rows: usize, d_in: usize, d_out: usize) -> usize {
    rows.saturating_add(1)
        .saturating_mul(d_in)
        .saturating_mul(d_out)
        .saturating_mul(4)
}

/// Columns j0.. of every row of x: `cols[i][jj] = x[i, :] · W[j0 + jj, :]`. `x` holds
/// `cols.len()` rows of `d_in`; `w` is all of W's blocks, `row_bytes` per row.
type Tile =
    fn(x: &[f32], d_in: usize, w: &[u8], row_bytes: usize, j0: usize, cols: &mut [&mut [f32]]);

/// Σ over the blocks of one row of W of (decoded block) · (the same 32 values of each x row).
#[inline(always)]
fn dot_rows<B: BlockFormat, const R: usize, const L: usize, const FUSED: bool>(
    xs: [&[f32]; R],
    w_row: &[u8],
) -> [f32; R] {
    let mut acc = [[0.0f32; L]; R];
    let mut wv = [0.0f32; BLOCK];
    for (b, block) in w_row.chunks_exact(B::BYTES).enumerate() {
        B::dequantize::<FUSED>(block, &mut wv);
        for r in 0..R {
            let xb: &[f32; BLOCK] = xs[r][b * BLOCK..(b + 1) * BLOCK]
                .try_into()
                .expect("x rows hold whole blocks");
            for c in 0..BLOCK / L {
                for l in 0..L {
                    let (xv, w) = (xb[c * L + l], wv[c * L + l]);
                    acc[r][l] = if FUSED {
                        xv.mul_add(w, acc[r][l])
                    } else {
                        acc[r][l] + xv * w
                    };
                }
            }
        }
    }
    acc.map(reduce::<L>)
}

/// The lanes summed pairwise, in a fixed order.
#[inline(always)]
fn reduce<const L: usize>(mut lanes: [f32; L]) -> f32 {
    let mut width = L;
    while width > 1 {
        width /= 2;
        for l in 0..width {
            lanes[l] += lanes[l + width];
        }
    }
    lanes[0]
}

#[inline(always)]
fn tile_body<B: BlockFormat, const L: usize, const FUSED: bool>(
    x: &[f32],
    d_in: usize,
    w: &[u8],
    row_bytes: usize,
    j0: usize,
    cols: &mut [&mut [f32]],
) {
    let (m, width) = (cols.len(), cols.first().map_or(0, |c| c.len()));
    let x_row = |i: usize| &x[i * d_in..(i + 1) * d_in];
    for jj in 0..width {
        let w_row = &w[(j0 + jj) * row_bytes..(j0 + jj + 1) * row_bytes];
        let mut i = 0;
        while i + X_TILE <= m {
            let out = dot_rows::<B, X_TILE, L, FUSED>(std::array::from_fn(|a| x_row(i + a)), w_row);
            for a in 0..X_TILE {
                cols[i + a][jj] = out[a];
            }
            i += X_TILE;
        }
        for (r, col) in cols.iter_mut().enumerate().skip(i) {
            col[jj] = dot_rows::<B, 1, L, FUSED>([x_row(r)], w_row)[0];
        }
    }
}

/// The portable tile kernels: the scalar reference (baseline x86-64 or any other CPU).
mod portable {
    use super::*;

    pub fn q4_1(x: &[f32], d_in: usize, w: &[u8], rb: usize, j0: usize, c: &mut [&mut [f32]]) {
        tile_body::<Q4_1, 8, false>(x, d_in, w, rb, j0, c)
    }

    pub fn q8_0(x: &[f32], d_in: usize, w: &[u8], rb: usize, j0: usize, c: &mut [&mut [f32]]) {
        tile_body::<Q8_0, 8, false>(x, d_in, w, rb, j0, c)
    }
}

/// AVX2 + FMA and AVX-512 kernels: the same tiles, each block decoded with vector instructions
/// (bytes widened to int32, converted, scaled by one FMA) into 4 (AVX2) or 2 (AVX-512) registers
/// that serve every row of the tile. The compiler did not vectorise the portable loop (measured:
/// 520 µs for one row through [1536, 576] Q4_1, against 75 µs here).
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use std::arch::x86_64::*;

    /// The f16 number at `at` of a block header, as float32, by F16C's conversion (exact, like
    /// `quant::f16_to_f32`, which costs a quarter of the time of a block here).
    #[target_feature(enable = "sse2,f16c")]
    #[inline]
    unsafe fn half(block: &[u8], at: usize) -> f32 {
        let bits = i32::from(u16::from_le_bytes([block[at], block[at + 1]]));
        _mm_cvtss_f32(_mm_cvtph_ps(_mm_cvtsi32_si128(bits)))
    }

    macro_rules! tile_kernel {
        ($name:ident, $features:literal, $vec:ty, $lanes:expr, $zero:ident, $load:ident, $fma:ident,
         $add:ident, $reduce:ident, $decode_q8:ident, $decode_q4:ident) => {
            /// One row of W against `R` rows of x: Σ_blocks decode(block) · x_r[block].
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn $name<const R: usize, const Q4: bool>(
                xs: [*const f32; R],
                w_row: &[u8],
            ) -> [f32; R] {
                const PER: usize = BLOCK / $lanes;
                let bytes = if Q4 { 20 } else { 34 };
                // One accumulator per register of a block (and, for a single row, per parity
                // of the block), so that consecutive FMAs do not wait on each other's results.
                let mut acc: [[[$vec; PER]; 2]; R] = [[[$zero(); PER]; 2]; R];
                for (b, block) in w_row.chunks_exact(bytes).enumerate() {
                    let wv: [$vec; PER] = if Q4 {
                        $decode_q4(block)
                    } else {
                        $decode_q8(block)
                    };
                    let set = if R == 1 { b % 2 } else { 0 };
                    for r in 0..R {
                        let xb = xs[r].add(b * BLOCK);
                        for c in 0..PER {
                            acc[r][set][c] = $fma($load(xb.add(c * $lanes)), wv[c], acc[r][set][c]);
                        }
                    }
                }
                acc.map(|sets| {
                    let mut total = $zero();
                    for set in sets {
                        for a in set {
                            total = $add(total, a);
                        }
                    }
                    $reduce(total)
                })
            }
        };
    }

    /// Q8_0's 32 values: int8 → int32 → float32, times d (exact).
    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn decode_q8_avx2(block: &[u8]) -> [__m256; 4] {
        let d = _mm256_set1_ps(half(block, 0));
        let q = block.as_ptr().add(2);
        std::array::from_fn(|c| {
            let bytes = _mm_loadl_epi64(q.add(8 * c) as *const __m128i);
            _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(bytes)), d)
        })
    }

    /// Q4_1's 32 values: low nibbles (values 0..16), then high ones (16..32), d · q + m.
    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn decode_q4_avx2(block: &[u8]) -> [__m256; 4] {
        let (d, m) = (
            _mm256_set1_ps(half(block, 0)),
            _mm256_set1_ps(half(block, 2)),
        );
        let raw = _mm_loadu_si128(block.as_ptr().add(4) as *const __m128i);
        let mask = _mm_set1_epi8(0x0F);
        let lo = _mm_and_si128(raw, mask);
        let hi = _mm_and_si128(_mm_srli_epi16(raw, 4), mask);
        let widen = |v: __m128i| _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(v)), d, m);
        [
            widen(lo),
            widen(_mm_srli_si128(lo, 8)),
            widen(hi),
            widen(_mm_srli_si128(hi, 8)),
        ]
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn sum8(v: __m256) -> f32 {
        let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        let s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
        _mm_cvtss_f32(s)
    }

    /// Q8_0 with AVX-512: two registers of 16.
    #[target_feature(enable = "avx512f,f16c")]
    #[inline]
    unsafe fn decode_q8_avx512(block: &[u8]) -> [__m512; 2] {
        let d = _mm512_set1_ps(half(block, 0));
        let q = block.as_ptr().add(2);
        std::array::from_fn(|c| {
            let bytes = _mm_loadu_si128(q.add(16 * c) as *const __m128i);
            _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(bytes)), d)
        })
    }

    /// Q4_1 with AVX-512: the 16 low nibbles are values 0..16, the 16 high ones 16..32.
    #[target_feature(enable = "avx512f,f16c")]
    #[inline]
    unsafe fn decode_q4_avx512(block: &[u8]) -> [__m512; 2] {
        let (d, m) = (
            _mm512_set1_ps(half(block, 0)),
            _mm512_set1_ps(half(block, 2)),
        );
        let raw = _mm_loadu_si128(block.as_ptr().add(4) as *const __m128i);
        let mask = _mm_set1_epi8(0x0F);
        let lo = _mm_and_si128(raw, mask);
        let hi = _mm_and_si128(_mm_srli_epi16(raw, 4), mask);
        let widen = |v: __m128i| _mm512_fmadd_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(v)), d, m);
        [widen(lo), widen(hi)]
    }

    #[target_feature(enable = "avx512f,f16c")]
    #[inline]
    unsafe fn sum16(v: __m512) -> f32 {
        _mm512_reduce_add_ps(v)
    }

    tile_kernel!(
        rows_avx2,
        "avx2,fma,f16c",
        __m256,
        8,
        _mm256_setzero_ps,
        _mm256_loadu_ps,
        _mm256_fmadd_ps,
        _mm256_add_ps,
        sum8,
        decode_q8_avx2,
        decode_q4_avx2
    );
    tile_kernel!(
        rows_avx512,
        "avx512f,f16c",
        __m512,
        16,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_fmadd_ps,
        _mm512_add_ps,
        sum16,
        decode_q8_avx512,
        decode_q4_avx512
    );

    macro_rules! tile_fn {
        ($name:ident, $rows:ident, $features:literal, $q4:expr) => {
            /// See `Tile`; rows of x hold `d_in` values (checked by the caller), `w` whole rows.
            #[target_feature(enable = $features)]
            pub unsafe fn $name(
                x: &[f32],
                d_in: usize,
                w: &[u8],
                rb: usize,
                j0: usize,
                cols: &mut [&mut [f32]],
            ) {
                let (m, width) = (cols.len(), cols.first().map_or(0, |c| c.len()));
                assert!(m * d_in <= x.len() && (j0 + width) * rb <= w.len());
                let x_row = |i: usize| x.as_ptr().add(i * d_in);
                for jj in 0..width {
                    let w_row = &w[(j0 + jj) * rb..(j0 + jj + 1) * rb];
                    let mut i = 0;
                    while i + X_TILE <= m {
                        let out =
                            $rows::<X_TILE, $q4>(std::array::from_fn(|a| x_row(i + a)), w_row);
                        for a in 0..X_TILE {
                            cols[i + a][jj] = out[a];
                        }
                        i += X_TILE;
                    }
                    for (r, col) in cols.iter_mut().enumerate().skip(i) {
                        col[jj] = $rows::<1, $q4>([x_row(r)], w_row)[0];
                    }
                }
            }
        };
    }

    tile_fn!(q4_1_avx2, rows_avx2, "avx2,fma,f16c", true);
    tile_fn!(q8_0_avx2, rows_avx2, "avx2,fma,f16c", false);
    tile_fn!(q4_1_avx512, rows_avx512, "avx512f,f16c", true);
    tile_fn!(q8_0_avx512, rows_avx512, "avx512f,f16c", false);
}

/// Whether this CPU converts f16 in hardware (F16C): every CPU with AVX2 made so far does, but
/// it is a separate feature, so the vector kernels are chosen only with it.
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

/// The tile kernel of `kind` for a level this CPU supports (tests run every one).
pub fn variant(kind: Kind, cpu: Supported) -> Tile {
    match (kind, cpu.level(), f16c()) {
        // SAFETY (every x86 arm): `cpu` and `f16c()` prove the features the kernel was compiled
        // for.
        #[cfg(target_arch = "x86_64")]
        (Kind::Q4_1, Level::Avx512, true) => {
            |x, d, w, rb, j0, c| unsafe { x86::q4_1_avx512(x, d, w, rb, j0, c) }
        }
        #[cfg(target_arch = "x86_64")]
        (Kind::Q8_0, Level::Avx512, true) => {
            |x, d, w, rb, j0, c| unsafe { x86::q8_0_avx512(x, d, w, rb, j0, c) }
        }
        #[cfg(target_arch = "x86_64")]
        (Kind::Q4_1, Level::Avx2Fma, true) => {
            |x, d, w, rb, j0, c| unsafe { x86::q4_1_avx2(x, d, w, rb, j0, c) }
        }
        #[cfg(target_arch = "x86_64")]
        (Kind::Q8_0, Level::Avx2Fma, true) => {
            |x, d, w, rb, j0, c| unsafe { x86::q8_0_avx2(x, d, w, rb, j0, c) }
        }
        (Kind::Q4_1, _, _) => portable::q4_1,
        (Kind::Q8_0, _, _) => portable::q8_0,
    }
}

fn chosen(kind: Kind) -> Tile {
    static Q4_1_TILE: OnceLock<Tile> = OnceLock::new();
    static Q8_0_TILE: OnceLock<Tile> = OnceLock::new();
    match kind {
        Kind::Q4_1 => simd::pick(&Q4_1_TILE, |cpu| variant(Kind::Q4_1, cpu)),
        Kind::Q8_0 => simd::pick(&Q8_0_TILE, |cpu| variant(Kind::Q8_0, cpu)),
    }
}

/// y [rows, out] = x [rows, in] · Wᵀ, W [out, in] as blocks of `kind` (`w` checked to hold exactly
/// them, `in` a multiple of 32). Splits into tiles over the pool when called inside it.
pub fn quantized_linear(kind: Kind, x: &[f32], w: &[u8], d_in: usize, d_out: usize, y: &mut [f32]) {
    quantized_linear_with(chosen(kind), kind, x, w, d_in, d_out, y)
}

/// `quantized_linear` with a given tile kernel.
pub fn quantized_linear_with(
    tile: Tile,
    kind: Kind,
    x: &[f32],
    w: &[u8],
    d_in: usize,
    d_out: usize,
    y: &mut [f32],
) {
    if y.is_empty() {
        return;
    }
    if d_in == 0 {
        y.fill(0.0); // an empty sum
        return;
    }
    let row_bytes = d_in / BLOCK * kind.block_bytes();
    assert!(
        w.len() == d_out * row_bytes && x.len() / d_in == y.len() / d_out,
        "shapes do not match"
    );
    // Tiles: blocks of X_ROWS_PER_TASK rows of x (and y), each split into pieces of
    // W_ROWS_PER_TASK columns; tile (r, t) gets piece t of every row of block r (disjoint borrows).
    // On one thread the tiles run in the same order, so a block of W stays in cache for the rows.
    let run_block = |(y_blk, x_blk): (&mut [f32], &[f32])| {
        let tasks = d_out.div_ceil(W_ROWS_PER_TASK);
        let block_rows = y_blk.len() / d_out;
        let mut parts: Vec<Vec<&mut [f32]>> =
            (0..tasks).map(|_| Vec::with_capacity(block_rows)).collect();
        for row in y_blk.chunks_mut(d_out) {
            // row [out] → pieces of W_ROWS_PER_TASK columns, one per task
            for (part, piece) in parts.iter_mut().zip(row.chunks_mut(W_ROWS_PER_TASK)) {
                part.push(piece);
            }
        }
        let run_tile = |(t, mut cols): (usize, Vec<&mut [f32]>)| {
            tile(x_blk, d_in, w, row_bytes, t * W_ROWS_PER_TASK, &mut cols)
        };
        if in_pool() {
            parts.into_par_iter().enumerate().for_each(run_tile);
        } else {
            parts.into_iter().enumerate().for_each(run_tile);
        }
    };
    let (y_step, x_step) = (X_ROWS_PER_TASK * d_out, X_ROWS_PER_TASK * d_in);
    if in_pool() {
        y.par_chunks_mut(y_step)
            .zip(x.par_chunks(x_step))
            .for_each(run_block);
    } else {
        y.chunks_mut(y_step)
            .zip(x.chunks(x_step))
            .for_each(run_block);
    }
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn every_variant_equals_the_dequantized_product() {
        // rows: 1, a tile of 4, 4 + remainder, more than one x block of 64; out: not a multiple
        // of 32 columns per task; in: one block and several.
        for kind in [Kind::Q4_1, Kind::Q8_0] {
            for (rows, d_in, d_out) in [
                (1, 32, 1),
                (1, 64, 33),
                (4, 96, 7),
                (7, 32, 70),
                (130, 64, 45),
            ] {
                let w = random_blocks(kind, d_out * d_in / BLOCK, 3 + rows as u64);
                let mut wf = vec![0.0f32; d_out * d_in];
                dequantize(kind, &w, &mut wf);
                let x: Vec<f32> = lcg(rows as u64, rows * d_in)
                    .iter()
                    .map(|&v| v as f32)
                    .collect();
                let mut want = vec![0.0f64; rows * d_out];
                let mut reach = vec![0.0f64; rows * d_out];
                for r in 0..rows {
                    for o in 0..d_out {
                        for i in 0..d_in {
                            let (xv, wv) =
                                (f64::from(x[r * d_in + i]), f64::from(wf[o * d_in + i]));
                            want[r * d_out + o] += xv * wv;
                            reach[r * d_out + o] += (xv * wv).abs();
                        }
                    }
                }
                let mut outs = Vec::new();
                for cpu in Supported::all() {
                    let tile = variant(kind, cpu);
                    for threads in [1, 3] {
                        crate::threads::set_num_threads(threads).unwrap();
                        let mut y = vec![f32::NAN; rows * d_out];
                        crate::threads::run(usize::MAX, || {
                            quantized_linear_with(tile, kind, &x, &w, d_in, d_out, &mut y)
                        })
                        .unwrap();
                        for e in 0..y.len() {
                            // Any order of summation is within d_in · ε · Σ|x||w| of the truth.
                            let tol = d_in as f64 * f64::from(f32::EPSILON) * reach[e];
                            assert!(
                                (f64::from(y[e]) - want[e]).abs() <= tol,
                                "{kind:?} {:?} threads={threads} rows={rows} in={d_in} out={d_out}: \
                                 {} vs {}",
                                cpu.level(),
                                y[e],
                                want[e]
                            );
                        }
                        outs.push((cpu.level(), threads, y));
                    }
                }
                // One level gives the same bits for any number of threads.
                for pair in outs.chunks(2) {
                    assert_eq!(pair[0].2, pair[1].2, "{kind:?} {:?}", pair[0].0);
                }
            }
        }
    }
}
