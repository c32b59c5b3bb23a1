//! y = x̂ · Wᵀ with W [out, in] given as GGML blocks (`quant`), never expanded to float32 whole,
//! and x̂ = x rounded to 16 bits per block of 32 values (`round16`).
//!
//! Two ways, one result (the exact product of x̂ with the dequantized weights, up to the
//! rounding of float32 sums):
//!
//! - **few rows** (a generated token): x is rounded to int16 once, then the rows of W, four at a
//!   time against each block of x, are decoded block by block in registers and their integer
//!   products with x's summed exactly (AVX2, for Q4_1 AVX-512 VNNI's byte dot where the CPU has
//!   it, or a portable loop), so a decoding step reads each weight once, from memory, with the
//!   next weights prefetched while it computes, and integer products cost less than widening
//!   each weight to float32 (docs/performance.md).
//! - **many rows** (a prompt): x̂ is written out in float32, tiles of W's rows are dequantized
//!   into a float32 buffer that each thread keeps, and multiplied with all the rows of x̂ by a
//!   fast GEMM (`matmul`), so decoding a weight is shared by every row and the product runs near
//!   the machine's float32 peak.
//!
//! Parallel over parts of W's rows (`threads::for_each_part`: rayon's pool for a prompt, the
//! low-latency team for a token); every output element is computed by the same operations
//! whatever the number of threads, so results do not depend on it.

use std::sync::OnceLock;

use crate::kernels::quant::round16::{rounded_values, Rounded, RoundedRow};
use crate::kernels::quant::{dequantize_blocks, Kind, BLOCK};
use crate::linalg::mat::Mat;
use crate::linalg::matmul::matmul_abt_raw;
use crate::runtime::threads::{for_each_part, stretch_rows, Disjoint};
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, Supported};

/// Rows of x up to which the dots take the few-rows path; beyond it a tile of dequantized weights
/// is shared by enough rows to pay for its decoding. The dots might still win at 5 or 6 rows, but
/// a prompt that short is rare, so the limit stays that of the float32 dots (docs/performance.md).
pub const FEW_ROWS: usize = 4;
/// The few-rows path splits W's rows into long stretches (`threads::stretch_rows`), none shorter
/// than this many rows (16 rows of 576 values), so that a part is worth its hand-off
/// (docs/performance.md).
const DOT_MIN_ROWS_PER_PART: usize = 16;
/// Rows of x per part of the GEMM path's rounding (16 rows of 576 values), enough work to be
/// worth a hand-off (docs/performance.md).
const ROUND_ROWS_PER_PART: usize = 16;
/// Float32 values in a tile of the GEMM path's dequantized weights: 56 Ki values (224 KB) stay in
/// a core's 1 MB L2 cache while every row of x passes.
const TILE_VALUES: usize = 56 * 1024;

/// Rows of W per tile of the GEMM path: as many as `TILE_VALUES` holds, in steps of 32 (gemm's
/// micro-tiles are 16, 32, 48 or 64 of them wide), from 32 to 96. Wider tiles let gemm use its
/// widest micro-kernel, and 96 splits SmolLM2's 576 and 192 outputs evenly between two threads;
/// from 1536 inputs the tile stays 32 rows, as wider ones do not pay there, transposed for gemm
/// (`matmul::rhs_of`) or not (docs/performance.md). No wider than 96, so that a few hundred
/// outputs from few inputs still make a part for each thread.
fn tile_rows(d_in: usize) -> usize {
    (TILE_VALUES / d_in.max(1) / 32 * 32).clamp(32, 96)
}

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

/// Rows of W against one row of x rounded to 16 bits (`round16`): `w_rows` holds `out.len()` whole
/// rows of W (their blocks), and out[r] = Σ_b d_w d_b Σ_j w_j q_j (+ m_w s_b) for row r.
type Dot = unsafe fn(w_rows: &[u8], x: RoundedRow<'_>, out: &mut [f32]);

/// The portable reference: each block's integer sum, scaled and added in order, a row at a time.
mod portable {
    use super::*;
    use crate::kernels::quant::f16_to_f32;

    fn half(block: &[u8], at: usize) -> f32 {
        f16_to_f32(u16::from_le_bytes([block[at], block[at + 1]]))
    }

    fn q4_1_row(w_row: &[u8], x: RoundedRow<'_>) -> f32 {
        let mut sum = 0.0f32;
        for ((block, q), &[d, s]) in w_row
            .chunks_exact(20)
            .zip(x.q.chunks_exact(BLOCK))
            .zip(x.ds)
        {
            let mut isum = 0i32;
            for j in 0..16 {
                let byte = block[4 + j];
                isum += i32::from(byte & 0x0F) * i32::from(q[j]);
                isum += i32::from(byte >> 4) * i32::from(q[j + 16]);
            }
            sum += half(block, 0) * d * isum as f32 + half(block, 2) * s;
        }
        sum
    }

    fn q8_0_row(w_row: &[u8], x: RoundedRow<'_>) -> f32 {
        let mut sum = 0.0f32;
        for ((block, q), &[d, _]) in w_row
            .chunks_exact(34)
            .zip(x.q.chunks_exact(BLOCK))
            .zip(x.ds)
        {
            let isum: i32 = (0..BLOCK)
                .map(|j| i32::from(block[2 + j] as i8) * i32::from(q[j]))
                .sum();
            sum += half(block, 0) * d * isum as f32;
        }
        sum
    }

    fn each_row(
        row: fn(&[u8], RoundedRow<'_>) -> f32,
        w_rows: &[u8],
        x: RoundedRow<'_>,
        out: &mut [f32],
    ) {
        if out.is_empty() {
            return;
        }
        let row_bytes = w_rows.len() / out.len();
        for (o, w_row) in out.iter_mut().zip(w_rows.chunks_exact(row_bytes)) {
            *o = row(w_row, x);
        }
    }

    pub fn q4_1(w_rows: &[u8], x: RoundedRow<'_>, out: &mut [f32]) {
        each_row(q4_1_row, w_rows, x, out)
    }

    pub fn q8_0(w_rows: &[u8], x: RoundedRow<'_>, out: &mut [f32]) {
        each_row(q8_0_row, w_rows, x, out)
    }
}

/// The SIMD dots: per block, the 32 weights widened to int16 (two registers of 16) and
/// multiplied with x's 32 q by AVX2's `madd` (pairs of int16 products summed to int32), the two
/// halves added — or, for Q4_1 on a CPU with AVX-512 VNNI, the weights as bytes against q's two
/// bytes (`ByteDot`) — then converted and scaled into float32 accumulators, one per row of W.
/// Every lane's integer sum is exact, and so is its conversion to float32 (at most
/// 4 · 128 · 32,767 < 2²⁴); the portable loop converts a block's whole sum (up to 2²⁷) and adds
/// without FMA, and the dots' lanes group the values differently, so they differ by float32
/// roundings.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use std::arch::x86_64::*;

    /// Bytes ahead of the block being read that the dots prefetch: a decoding step's weights
    /// come from memory, and 4 KB ahead hides that latency best (docs/performance.md).
    pub const PREFETCH_AHEAD: usize = 4096;

    /// Rows of W a SIMD dot takes at once: each block of x is loaded once for all of them, and their
    /// accumulators are independent chains, which one row alone (18 blocks from 576 inputs) is too
    /// short to hide the latency of (docs/performance.md).
    const ROWS_AT_ONCE: usize = 4;

    /// `rows::<N>(w, row_bytes, x, out)` over `w_rows` in groups of `ROWS_AT_ONCE`, then the rest.
    macro_rules! by_groups {
        ($rows:ident, $w_rows:expr, $x:expr, $out:expr) => {{
            let (w_rows, x, out): (&[u8], RoundedRow<'_>, &mut [f32]) = ($w_rows, $x, $out);
            let n = out.len();
            if n == 0 {
                return;
            }
            let row_bytes = w_rows.len() / n;
            assert!(w_rows.len() == n * row_bytes && x.ds.len() * BLOCK == x.q.len());
            let full = n / ROWS_AT_ONCE * ROWS_AT_ONCE;
            for r in (0..full).step_by(ROWS_AT_ONCE) {
                let o: &mut [f32; ROWS_AT_ONCE] =
                    (&mut out[r..r + ROWS_AT_ONCE]).try_into().unwrap();
                $rows::<ROWS_AT_ONCE>(&w_rows[r * row_bytes..], row_bytes, x, o);
            }
            let w_rest = &w_rows[full * row_bytes..];
            match &mut out[full..] {
                [a] => $rows::<1>(w_rest, row_bytes, x, std::array::from_mut(a)),
                [a, b] => {
                    let mut o = [0.0; 2];
                    $rows::<2>(w_rest, row_bytes, x, &mut o);
                    (*a, *b) = (o[0], o[1]);
                }
                [a, b, c] => {
                    let mut o = [0.0; 3];
                    $rows::<3>(w_rest, row_bytes, x, &mut o);
                    (*a, *b, *c) = (o[0], o[1], o[2]);
                }
                _ => {}
            }
        }};
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn sum8(v: __m256) -> f32 {
        let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps(s, s, 1)))
    }

    /// Block b of N ≤ 4 rows of W (`row_bytes` apart from `w`, blocks of `block_bytes`) with
    /// block b of x: each row's header (its first 4 bytes, two float16) times x's [d_b, s_b], in
    /// lanes 2r and 2r + 1 of 8 (zero past N) — [d_w d_b, m_w s_b] of Q4_1; for Q8_0 lane 2r is
    /// d_w d_b and lane 2r + 1 (two weights read as a float16) is not used. One conversion for
    /// every row takes fewer shuffles than one a row, and the shuffle port is what the dots wait
    /// on.
    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn scales<const N: usize>(
        w: *const u8,
        row_bytes: usize,
        block_bytes: usize,
        x: RoundedRow<'_>,
        b: usize,
    ) -> __m256 {
        let h = |r: usize| {
            if r < N {
                (w.add(r * row_bytes + b * block_bytes) as *const i32).read_unaligned()
            } else {
                0
            }
        };
        let headers = _mm256_cvtph_ps(_mm_set_epi32(h(3), h(2), h(1), h(0)));
        // [d_b, s_b] in every pair of lanes (read unaligned: a pair of f32 is aligned to 4 bytes)
        let pair = (x.ds.as_ptr().add(b) as *const i64).read_unaligned();
        _mm256_mul_ps(headers, _mm256_castsi256_ps(_mm256_set1_epi64x(pair)))
    }

    /// x's 32 q of block b, in two registers of 16.
    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn x_block(x: RoundedRow<'_>, b: usize) -> (__m256i, __m256i) {
        let q = x.q.as_ptr().add(b * BLOCK);
        (
            _mm256_loadu_si256(q as *const __m256i),
            _mm256_loadu_si256(q.add(16) as *const __m256i),
        )
    }

    /// Lane `lane` of v in every lane.
    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn spread(v: __m256, lane: i32) -> __m256 {
        _mm256_permutevar8x32_ps(v, _mm256_set1_epi32(lane))
    }

    /// One Q4_1 block of a row of W against x's block, as 8 lanes of exact integer sums: AVX2's
    /// `madd` over the weights widened to 16 bits, two registers of 16 a block.
    #[derive(Clone, Copy)]
    struct Madd(__m256i, __m256i);

    impl Madd {
        /// x's block b (loaded once for every row).
        #[target_feature(enable = "avx2,fma,f16c")]
        #[inline]
        unsafe fn x(x: RoundedRow<'_>, b: usize) -> Madd {
            let (q0, q1) = x_block(x, b);
            Madd(q0, q1)
        }

        /// With the block's 16 bytes of nibbles at `nibbles`: byte k holds value k in its low
        /// nibble and value k + 16 in its high one.
        #[target_feature(enable = "avx2,fma,f16c")]
        #[inline]
        unsafe fn sums(self, nibbles: *const u8) -> __m256i {
            let mask = _mm_set1_epi8(0x0F);
            let raw = _mm_loadu_si128(nibbles as *const __m128i);
            let lo = _mm256_cvtepu8_epi16(_mm_and_si128(raw, mask)); // values 0..16
            let hi = _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(raw, 4), mask)); // 16..32
            _mm256_add_epi32(_mm256_madd_epi16(lo, self.0), _mm256_madd_epi16(hi, self.1))
        }
    }

    /// The same with AVX-512 VNNI's byte dot (`vpdpbusd`, in 256-bit registers): the nibbles
    /// become the block's 32 weights as bytes, in order, by one broadcast load, a shift by 0 or 4
    /// per half and a mask, with no shuffle; each weight w then meets x's q = 256 · hi + lo
    /// (`Rounded`) as w · hi (weights unsigned, hi signed), shifted up a byte, plus lo · w (lo
    /// unsigned, w ≤ 15 signed), four products a lane. A lane holds at most
    /// 4 · 15 · (128 · 256 + 255) < 2²¹: exact.
    #[derive(Clone, Copy)]
    struct ByteDot {
        lo: __m256i,
        hi: __m256i,
    }

    impl ByteDot {
        #[target_feature(enable = "avx2,fma,f16c,avx512f,avx512vl,avx512vnni")]
        #[inline]
        unsafe fn x(x: RoundedRow<'_>, b: usize) -> ByteDot {
            ByteDot {
                lo: _mm256_loadu_si256(x.lo.as_ptr().add(b * BLOCK) as *const __m256i),
                hi: _mm256_loadu_si256(x.hi.as_ptr().add(b * BLOCK) as *const __m256i),
            }
        }

        #[target_feature(enable = "avx2,fma,f16c,avx512f,avx512vl,avx512vnni")]
        #[inline]
        unsafe fn sums(self, nibbles: *const u8) -> __m256i {
            let halves = _mm256_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4); // low nibbles, then high ones
            let raw = _mm256_broadcastsi128_si256(_mm_loadu_si128(nibbles as *const __m128i));
            let weights = _mm256_and_si256(_mm256_srlv_epi32(raw, halves), _mm256_set1_epi8(0x0F));
            let high = _mm256_dpbusd_epi32(_mm256_setzero_si256(), weights, self.hi);
            _mm256_dpbusd_epi32(_mm256_slli_epi32(high, 8), self.lo, weights)
        }
    }

    /// `$name::<N>`: N ≤ 4 rows of Q4_1 blocks, `row_bytes` apart from `w`, against x, each
    /// block's integer sums by `$sums` (`Madd` or `ByteDot`), compiled for `$features`.
    macro_rules! q4_1_rows {
        ($name:ident, $features:literal, $sums:ident) => {
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn $name<const N: usize>(
                w: &[u8],
                row_bytes: usize,
                x: RoundedRow<'_>,
                out: &mut [f32; N],
            ) {
                let blocks = x.ds.len();
                assert!(N <= 4 && row_bytes == blocks * 20 && w.len() >= N * row_bytes);
                assert!(x.lo.len() == blocks * BLOCK && x.hi.len() == blocks * BLOCK);
                let mut acc = [_mm256_setzero_ps(); N];
                let mut offsets = _mm256_setzero_ps(); // lane 2r + 1: Σ_b m_w s_b of row r
                for b in 0..blocks {
                    let xb = $sums::x(x, b);
                    let prods = scales::<N>(w.as_ptr(), row_bytes, 20, x, b); // [d_w d_b, m_w s_b]
                    offsets = _mm256_add_ps(offsets, prods);
                    for (r, acc_r) in acc.iter_mut().enumerate() {
                        let block = w.as_ptr().add(r * row_bytes + b * 20);
                        _mm_prefetch::<_MM_HINT_T0>(block.wrapping_add(PREFETCH_AHEAD) as *const i8);
                        let sums = xb.sums(block.add(4));
                        let scale = spread(prods, 2 * r as i32);
                        *acc_r = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sums), scale, *acc_r);
                    }
                }
                let mut offset = [0.0f32; 8];
                _mm256_storeu_ps(offset.as_mut_ptr(), offsets);
                for r in 0..N {
                    out[r] = sum8(acc[r]) + offset[2 * r + 1];
                }
            }
        };
    }

    q4_1_rows!(q4_1_rows, "avx2,fma,f16c", Madd);
    q4_1_rows!(
        q4_1_rows_vnni,
        "avx2,fma,f16c,avx512f,avx512vl,avx512vnni",
        ByteDot
    );

    /// N ≤ 4 rows of Q8_0 blocks, `row_bytes` apart from `w`, against x.
    #[target_feature(enable = "avx2,fma,f16c")]
    #[inline]
    unsafe fn q8_0_rows<const N: usize>(
        w: &[u8],
        row_bytes: usize,
        x: RoundedRow<'_>,
        out: &mut [f32; N],
    ) {
        let blocks = x.ds.len();
        assert!(N <= 4 && row_bytes == blocks * 34 && w.len() >= N * row_bytes);
        let mut acc = [_mm256_setzero_ps(); N];
        for b in 0..blocks {
            let (q0, q1) = x_block(x, b);
            let prods = scales::<N>(w.as_ptr(), row_bytes, 34, x, b); // lane 2r: d_w d_b
            for (r, acc_r) in acc.iter_mut().enumerate() {
                let block = w.as_ptr().add(r * row_bytes + b * 34);
                _mm_prefetch::<_MM_HINT_T0>(block.wrapping_add(PREFETCH_AHEAD) as *const i8);
                let w0 = _mm256_cvtepi8_epi16(_mm_loadu_si128(block.add(2) as *const __m128i));
                let w1 = _mm256_cvtepi8_epi16(_mm_loadu_si128(block.add(18) as *const __m128i));
                let sums = _mm256_add_epi32(_mm256_madd_epi16(w0, q0), _mm256_madd_epi16(w1, q1));
                let scale = spread(prods, 2 * r as i32);
                *acc_r = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sums), scale, *acc_r);
            }
        }
        for r in 0..N {
            out[r] = sum8(acc[r]);
        }
    }

    #[target_feature(enable = "avx2,fma,f16c,avx512f,avx512vl,avx512vnni")]
    pub unsafe fn q4_1_vnni(w_rows: &[u8], x: RoundedRow<'_>, out: &mut [f32]) {
        by_groups!(q4_1_rows_vnni, w_rows, x, out)
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn q4_1(w_rows: &[u8], x: RoundedRow<'_>, out: &mut [f32]) {
        by_groups!(q4_1_rows, w_rows, x, out)
    }

    #[target_feature(enable = "avx2,fma,f16c")]
    pub unsafe fn q8_0(w_rows: &[u8], x: RoundedRow<'_>, out: &mut [f32]) {
        by_groups!(q8_0_rows, w_rows, x, out)
    }
}

/// The dot kernels this CPU can run, by name, slowest (the portable reference) first; tests hold
/// each to the product of the rounded x with the dequantized weights.
pub fn variants(kind: Kind, cpu: Supported) -> Vec<(&'static str, Dot)> {
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))] // the faster ones are x86's
    let mut out: Vec<(&'static str, Dot)> = vec![match kind {
        Kind::Q4_1 => ("portable", portable::q4_1 as Dot),
        Kind::Q8_0 => ("portable", portable::q8_0 as Dot),
    }];
    #[cfg(target_arch = "x86_64")]
    if cpu.level() >= Level::Avx2Fma {
        // SAFETY: `cpu` proves the features the kernels were compiled for (AVX2, FMA, F16C),
        // which is all `unsafe` asks of their callers.
        out.push(match kind {
            Kind::Q4_1 => ("avx2", x86::q4_1 as Dot),
            Kind::Q8_0 => ("avx2", x86::q8_0 as Dot),
        });
    }
    // Q4_1 only: for Q8_0's signed weights the byte dot needs a correction that costs what it
    // saves (docs/performance.md).
    #[cfg(target_arch = "x86_64")]
    if kind == Kind::Q4_1
        && cpu.level() >= Level::Avx512
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512vnni")
    {
        // SAFETY: AVX-512F, AVX2, FMA and F16C by `cpu`'s level (`simd` detects them together),
        // VL and VNNI just detected.
        out.push(("avx512vnni", x86::q4_1_vnni as Dot));
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
    let rpp = stretch_rows(d_out, DOT_MIN_ROWS_PER_PART);
    let parts = d_out.div_ceil(rpp);
    let rounded = Rounded::new(x); // q [rows · in], (d, s) [rows · in / 32]
    let out = Disjoint::new(y);
    for_each_part(parts, rows * d_in * d_out, &|p| {
        let j0 = p * rpp;
        let width = rpp.min(d_out - j0);
        for r in 0..rows {
            // SAFETY: part p alone writes columns j0 .. j0 + width of each row.
            let cols = unsafe { out.part(r * d_out + j0, width) };
            let w_rows = &w[j0 * row_bytes..(j0 + width) * row_bytes];
            // SAFETY: `dot` is one of `variants`, whose features this CPU has; the slices hold
            // whole blocks (checked above).
            unsafe { dot(w_rows, rounded.row(r, d_in), cols) };
        }
    });
}

/// The float32 path: tiles of W's rows dequantized and multiplied with every row of `x` by gemm.
fn gemm_path(kind: Kind, x: &[f32], w: &[u8], d_in: usize, d_out: usize, y: &mut [f32]) {
    let rows = x.len() / d_in;
    let row_bytes = d_in / BLOCK * kind.block_bytes();
    // [rows, in]: x rounded to 16 bits, as the dots have it, rows shared among the threads
    let mut x_hat = vec![0.0f32; x.len()];
    let round_parts = rows.div_ceil(ROUND_ROWS_PER_PART);
    let hat = Disjoint::new(&mut x_hat);
    for_each_part(round_parts, rows * d_in, &|p| {
        let (r0, r1) = (
            p * ROUND_ROWS_PER_PART,
            ((p + 1) * ROUND_ROWS_PER_PART).min(rows),
        );
        // SAFETY: part p alone writes rows r0 .. r1.
        let out = unsafe { hat.part(r0 * d_in, (r1 - r0) * d_in) };
        rounded_values(&x[r0 * d_in..r1 * d_in], out);
    });
    let x = &x_hat[..];
    let tile_rows = tile_rows(d_in);
    let parts = d_out.div_ceil(tile_rows);
    let out = Disjoint::new(y);
    let work = rows * d_in * d_out;
    for_each_part(parts, work, &|p| {
        let j0 = p * tile_rows;
        let width = tile_rows.min(d_out - j0);
        // Nothing below runs another part on this thread (dequantize_blocks and gemm without
        // parallelism stay on it), so TILE is never borrowed twice.
        TILE.with_borrow_mut(|kept| {
            if kept.len() < width * d_in {
                kept.resize(width * d_in, 0.0);
            }
            let tile = &mut kept[..width * d_in]; // [width, d_in]: rows j0.. of Ŵ
            dequantize_blocks(kind, &w[j0 * row_bytes..(j0 + width) * row_bytes], tile);
            // y[:, j0 .. j0 + width] = x̂ · tileᵀ, written in place: columns of y, one band a part.
            let band = out.block(j0, rows, width, d_out);
            // SAFETY: part p alone writes columns j0 .. j0 + width of y's rows (in range: checked
            // by `block`); y does not alias x̂ or the tile.
            unsafe {
                matmul_abt_raw(
                    Mat::new(x, rows, d_in, d_in),
                    Mat::new(tile, width, d_in, d_in),
                    band,
                    d_out,
                )
            };
            if kept.len() > TILE_VALUES {
                *kept = Vec::new();
            }
        });
    });
}

thread_local! {
    /// The GEMM path's tile of dequantized weights, kept by each thread from call to call: a new
    /// one per tile meant zeroing (and often mapping) as many bytes as the float32 weights.
    /// Only tiles of up to `TILE_VALUES` are kept (every tile from up to 1792 inputs); a wider
    /// one (32 rows of more inputs) is freed after its part, so no thread holds more than 224 KB
    /// between calls (the transposed copy the product makes from 1024 inputs, `matmul::rhs_of`,
    /// is freed after each tile).
    static TILE: std::cell::RefCell<Vec<f32>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::quant::dequantize;
    use crate::kernels::quant::tests::random_blocks;
    use crate::test_support::lcg;

    /// Σ x_i w_i and Σ |x_i| |w|_i in float64, for each (row of x, row of the blocks `w`), where
    /// |w|_i is |d q_i| + |m| for Q4_1 (the dots sum d Σ q x and m Σ x of a block apart, so their
    /// rounding scales with both parts, which may cancel) and |d q_i| for Q8_0.
    fn reference(kind: Kind, x: &[f32], w: &[u8], d_in: usize) -> (Vec<f64>, Vec<f64>) {
        let cols = w.len() / (d_in / BLOCK * kind.block_bytes());
        let mut wf = vec![0.0f32; cols * d_in];
        dequantize(kind, w, &mut wf);
        let mut unsigned = w.to_vec(); // the scales' sign bits cleared: |d| q + |m|
        for block in unsigned.chunks_exact_mut(kind.block_bytes()) {
            block[1] &= 0x7F;
            if kind == Kind::Q4_1 {
                block[3] &= 0x7F;
            }
        }
        let mut w_abs = vec![0.0f32; cols * d_in];
        dequantize(kind, &unsigned, &mut w_abs);
        let rows = x.len() / d_in;
        let mut want = vec![0.0; rows * cols];
        let mut reach = vec![0.0; rows * cols];
        for r in 0..rows {
            for o in 0..cols {
                for i in 0..d_in {
                    let xi = f64::from(x[r * d_in + i]);
                    want[r * cols + o] += xi * f64::from(wf[o * d_in + i]);
                    reach[r * cols + o] += xi.abs() * f64::from(w_abs[o * d_in + i]).abs();
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

    /// Q4_1 blocks whose two parts cancel (d = 1, m = −15 + 1/128, every nibble 15: each weight
    /// 1/128): within the bound that counts |d q| and |m| apart, through every path.
    #[test]
    fn cancelling_offsets_stay_within_the_bound() {
        let d_in = 32;
        let mut w = vec![0u8; 20];
        w[..2].copy_from_slice(&0x3C00u16.to_le_bytes()); // d = 1
        w[2..4].copy_from_slice(&0xCB7Fu16.to_le_bytes()); // m = −14.9921875 = −15 + 1/128
        w[4..].fill(0xFF);
        let x: Vec<f32> = (0..5 * d_in).map(|i| 1.0 + (i % 7) as f32 / 3.0).collect();
        let mut x_hat = vec![0.0f32; x.len()];
        rounded_values(&x, &mut x_hat);
        let (want, reach) = reference(Kind::Q4_1, &x_hat, &w, d_in);
        for (name, dot) in variants(Kind::Q4_1, Supported::best()) {
            let mut y = vec![0.0f32; 1];
            few_rows(dot, Kind::Q4_1, &x[..d_in], &w, d_in, 1, &mut y);
            assert_close(&y, &want[..1], &reach[..1], d_in, name);
        }
        let mut y = vec![0.0f32; 5];
        quantized_linear(Kind::Q4_1, &x, &w, d_in, 1, &mut y);
        assert_close(&y, &want, &reach, d_in, "GEMM");
    }

    /// The extremes of the integer products, through every dot: Q8_0's −128 against q = ±32,767
    /// (the largest lane sums, 4 · 128 · 32,767, just below 2²⁴), Q4_1's nibble 15 against
    /// −32,767; and a NaN in x, which makes every output of its row NaN (and of no other row).
    #[test]
    fn extreme_bytes_and_nan_through_every_dot() {
        let d_in = 64;
        for kind in [Kind::Q4_1, Kind::Q8_0] {
            let mut w = vec![0u8; 2 * kind.block_bytes()];
            for block in w.chunks_exact_mut(kind.block_bytes()) {
                block[..2].copy_from_slice(&0x3C00u16.to_le_bytes()); // d = 1
                match kind {
                    Kind::Q8_0 => block[2..].fill(0x80), // w = −128
                    Kind::Q4_1 => block[4..].fill(0xFF), // nibbles 15 (and m = 0)
                }
            }
            let sign = if kind == Kind::Q8_0 { 1.0 } else { -1.0 };
            let mut x = vec![sign * 3.0f32; 2 * d_in]; // q = ±32,767 everywhere
            x[d_in + 5] = f32::NAN;
            let w_value = if kind == Kind::Q8_0 { -128.0 } else { 15.0 };
            let want = w_value * f64::from(sign) * 3.0 * d_in as f64;
            for (name, dot) in variants(kind, Supported::best()) {
                let mut y = vec![0.0f32; 2];
                few_rows(dot, kind, &x, &w, d_in, 1, &mut y);
                let rel = (f64::from(y[0]) - want).abs() / want.abs();
                assert!(rel < 1e-6, "{kind:?} {name}: {} vs {want}", y[0]);
                assert!(y[1].is_nan(), "{kind:?} {name}: a NaN in x");
            }
            let x5: Vec<f32> = x.iter().chain(&x).chain(&x[..d_in]).copied().collect(); // 5 rows
            let mut y = vec![0.0f32; 5];
            quantized_linear(kind, &x5, &w, d_in, 1, &mut y); // the GEMM path
            assert!(
                (f64::from(y[0]) - want).abs() / want.abs() < 1e-6,
                "{kind:?} GEMM"
            );
            assert!(
                y[1].is_nan() && y[3].is_nan() && !y[4].is_nan(),
                "{kind:?} GEMM NaN"
            );
        }
    }

    type Run<'a> = Box<dyn Fn(&mut [f32]) + Sync + 'a>;

    #[test]
    fn tiles_have_the_measured_widths() {
        assert_eq!(
            (tile_rows(576), tile_rows(1536), tile_rows(64)),
            (96, 32, 96)
        );
        assert_eq!(tile_rows(1 << 20), 32); // never fewer than 32 rows
    }

    /// Both paths, every dot variant, 1 and several threads: the dequantized product; and one
    /// variant gives the same bits for any number of threads. Sizes: one row, the few-rows limit
    /// and past it, parts that are not whole (33, 70, 45 rows of W), more than one part, parts
    /// that leave 1, 2 and 3 rows after the dots' groups of `ROWS_AT_ONCE` (33, 70, 19, 7); GEMM
    /// tiles of 96 rows from 576 inputs (200 = 96 + 96 + 8) and of 32 from 1536 (70 = 32 + 32 +
    /// 6), after which a thread's kept tile is larger than the next call needs (64 inputs).
    #[test]
    fn every_path_equals_the_dequantized_product() {
        for kind in [Kind::Q4_1, Kind::Q8_0] {
            for (rows, d_in, d_out) in [
                (1, 32, 1),
                (1, 64, 33),
                (2, 64, 19),
                (3, 64, 7),
                (4, 96, 70),
                (5, 64, 45),
                (130, 64, 45),
                (9, 576, 200),
                (6, 1536, 70),
                (7, 64, 200),
            ] {
                let w = random_blocks(kind, d_out * d_in / BLOCK, 3 + rows as u64);
                let x: Vec<f32> = lcg(rows as u64, rows * d_in)
                    .iter()
                    .map(|&v| v as f32)
                    .collect();
                // The product is that of x rounded to 16 bits (`round16`, tested on its own).
                let mut x_hat = vec![0.0f32; x.len()];
                rounded_values(&x, &mut x_hat);
                let (want, reach) = reference(kind, &x_hat, &w, d_in);
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
                        crate::runtime::threads::set_num_threads(threads).unwrap();
                        let mut y = vec![f32::NAN; rows * d_out];
                        // In the pool (the prompt's way) and outside it (the team's).
                        crate::runtime::threads::run(usize::MAX, || run(&mut y)).unwrap();
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
