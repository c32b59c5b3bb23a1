//! x rounded to 16 bits per block of 32 values, so that a product with 4- or 8-bit weights runs
//! over integers (`qlinear`'s dots) and still lands within a hair of the float32 product. For
//! block b of a row:
//!
//!   d_b = max_j |x_j| / 32767,   q_j = round(x_j / d_b) (ties to even) in −32767 … 32767,
//!   x̂_j = d_b · q_j,   so |x̂_j − x_j| ≤ d_b / 2 = max_j |x_j| / 65534
//!
//! A dot then sums 32 products of integers exactly: Σ_j ŵ_j x̂_j = d_w d_b Σ_j w_j q_j, plus
//! m_w d_b Σ_j q_j for Q4_1's offset m.
//!
//! Why 16 bits where llama.cpp rounds to 8: SmolLM2's outliers (entries near 5,700 in one layer)
//! make 8-bit steps coarse for the rest of their block, and a step that rounds one way in one
//! backend and the other way in another (after float32 sums in different orders) is felt by
//! every later layer, enough to change the greedy text; 16-bit steps keep the logits close to the
//! float32 product's (docs/performance.md).
//!
//! A block holding NaN or ±∞ gets d_b = NaN (every product with it is NaN); a block of zeros, or
//! of values so small that d_b underflows to 0, gets d_b = 0 and q = 0.

use std::sync::OnceLock;

use crate::kernels::quant::BLOCK;
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, Supported};

/// 1.5 · 2²³: adding and subtracting it rounds a float32 of magnitude below 2²² to an integer,
/// ties to even (the default rounding of every float32 addition), in two plain additions that
/// vectorise on any x86-64 (f32::round_ties_even needs SSE4.1, or calls libm).
const ROUNDER: f32 = 12_582_912.0;

/// The largest |q|.
const LEVELS: f32 = 32_767.0;

/// d_b of one block of 32 values (NaN when one of them is not finite).
#[inline]
fn block_scale(xb: &[f32]) -> f32 {
    // The bits of |v| order as the values do, with ∞ above every finite value and NaN above ∞:
    // one integer maximum (which vectorises) gives both max |x| and whether all are finite.
    scale_of_top(
        xb.iter()
            .fold(0u32, |m, v| m.max(v.to_bits() & 0x7FFF_FFFF)),
    )
}

/// d_b from the largest bits of |x| in the block.
#[inline(always)]
fn scale_of_top(top: u32) -> f32 {
    if top < f32::INFINITY.to_bits() {
        f32::from_bits(top) / LEVELS
    } else {
        f32::NAN
    }
}

/// q of one value in a block of scale d > 0, as a float32. The clamp matters only for a
/// subnormal d, whose rounding can leave max |x| / d above 32,767.5.
#[inline(always)]
fn level(v: f32, d: f32) -> f32 {
    ((v / d).clamp(-LEVELS, LEVELS) + ROUNDER) - ROUNDER
}

/// One or a few rows of x rounded: q [rows · in], and per block the pair (d_b, s_b) with
/// s_b = d_b · Σ_j q_j [rows · in / 32] (Q4_1's offset multiplies the block's sum). A pair, so
/// that one 8-byte load gives a dot both numbers.
///
/// Each q also as its two bytes, q = 256 · hi + lo (lo unsigned, hi signed), for the dots whose
/// integer instruction multiplies bytes (`qlinear`'s VNNI dot).
pub struct Rounded {
    pub q: Vec<i16>,
    pub ds: Vec<[f32; 2]>,
    pub lo: Vec<u8>,
    pub hi: Vec<i8>,
}

impl Rounded {
    /// `x` [rows, in], `in` a multiple of 32.
    pub fn new(x: &[f32]) -> Rounded {
        let mut q = vec![0; x.len()];
        let mut ds = vec![[0.0; 2]; x.len() / BLOCK];
        static CHOSEN: OnceLock<Kernels> = OnceLock::new();
        (simd::pick(&CHOSEN, kernels).ints)(x, &mut q, &mut ds);
        let lo = q.iter().map(|&v| v as u8).collect(); // the low byte
        let hi = q.iter().map(|&v| (v >> 8) as i8).collect(); // −128 … 127 for |v| ≤ 32,767
        Rounded { q, ds, lo, hi }
    }

    /// Row `r` of `rows` (`in` values each).
    pub fn row(&self, r: usize, d_in: usize) -> RoundedRow<'_> {
        let (b0, b1) = (r * d_in / BLOCK, (r + 1) * d_in / BLOCK);
        let values = r * d_in..(r + 1) * d_in;
        RoundedRow {
            q: &self.q[values.clone()],
            ds: &self.ds[b0..b1],
            lo: &self.lo[values.clone()],
            hi: &self.hi[values],
        }
    }
}

/// One row of `Rounded`: q [in] (and its bytes lo, hi [in]), (d, s) [in / 32].
#[derive(Clone, Copy)]
pub struct RoundedRow<'a> {
    pub q: &'a [i16],
    pub ds: &'a [[f32; 2]],
    pub lo: &'a [u8],
    pub hi: &'a [i8],
}

/// x̂ = d_b · q_j of every value of `x` (a whole number of blocks) into `out`, for products that
/// run in float32 (a prompt's GEMM): the same x̂ the integer dots multiply, rounded once more
/// to float32.
pub fn rounded_values(x: &[f32], out: &mut [f32]) {
    static CHOSEN: OnceLock<Kernels> = OnceLock::new();
    (simd::pick(&CHOSEN, kernels).values)(x, out)
}

/// The two ways out of the rounding, for one instruction set: q with (d, s) per block, or x̂.
#[derive(Clone, Copy)]
pub struct Kernels {
    pub ints: fn(x: &[f32], q: &mut [i16], ds: &mut [[f32; 2]]),
    pub values: fn(x: &[f32], out: &mut [f32]),
}

/// The kernels for `cpu`: AVX2 (a block in four registers, rounding by `vroundps`) or the
/// portable loops; both give the same bits (tested).
pub fn kernels(cpu: Supported) -> Kernels {
    #[cfg(target_arch = "x86_64")]
    if cpu.level() >= Level::Avx2Fma {
        // SAFETY: `cpu` proves AVX2 and FMA, the features the kernels are compiled for.
        return Kernels {
            ints: |x, q, ds| unsafe { avx2::ints(x, q, ds) },
            values: |x, out| unsafe { avx2::values(x, out) },
        };
    }
    let _ = cpu;
    Kernels {
        ints: portable::ints,
        values: portable::values,
    }
}

mod portable {
    use super::*;

    pub fn ints(x: &[f32], q: &mut [i16], ds: &mut [[f32; 2]]) {
        for ((xb, qb), ds) in x.chunks_exact(BLOCK).zip(q.chunks_exact_mut(BLOCK)).zip(ds) {
            let d = block_scale(xb);
            let mut sum = 0i32;
            if d > 0.0 {
                for (q, &v) in qb.iter_mut().zip(xb) {
                    *q = level(v, d) as i16; // an integer in −32,767 … 32,767
                    sum += i32::from(*q);
                }
            } else {
                qb.fill(0); // d = 0 or NaN
            }
            *ds = [d, d * sum as f32]; // Σ q (|Σ q| < 2²⁰) is exact in float32
        }
    }

    pub fn values(x: &[f32], out: &mut [f32]) {
        for (xb, ob) in x.chunks_exact(BLOCK).zip(out.chunks_exact_mut(BLOCK)) {
            let d = block_scale(xb);
            if d > 0.0 {
                for (o, &v) in ob.iter_mut().zip(xb) {
                    *o = d * level(v, d);
                }
            } else {
                ob.fill(d); // 0 or NaN
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    /// d of the block at `x` and, when d > 0, its 32 levels (q as float32) in four registers.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    unsafe fn block(x: *const f32) -> (f32, [__m256; 4]) {
        let v = [0, 8, 16, 24].map(|i| _mm256_loadu_ps(x.add(i)));
        // max |x| by the bits, as `block_scale`: NaN above ∞ above every finite value
        let abs = _mm256_set1_epi32(0x7FFF_FFFF);
        let bits = v.map(|v| _mm256_and_si256(_mm256_castps_si256(v), abs));
        let m = _mm256_max_epu32(
            _mm256_max_epu32(bits[0], bits[1]),
            _mm256_max_epu32(bits[2], bits[3]),
        );
        let m = _mm_max_epu32(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
        let m = _mm_max_epu32(m, _mm_shuffle_epi32(m, 0b01_00_11_10));
        let m = _mm_max_epu32(m, _mm_shuffle_epi32(m, 0b10_11_00_01));
        let d = scale_of_top(_mm_cvtsi128_si32(m) as u32);
        if d.is_nan() || d == 0.0 {
            return (d, [_mm256_setzero_ps(); 4]);
        }
        let (dv, lo, hi) = (
            _mm256_set1_ps(d),
            _mm256_set1_ps(-LEVELS),
            _mm256_set1_ps(LEVELS),
        );
        let levels = v.map(|v| {
            let clamped = _mm256_min_ps(_mm256_max_ps(_mm256_div_ps(v, dv), lo), hi);
            let rounded =
                _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(clamped);
            // + 0: a small negative value rounds to −0 here and to +0 in `level`
            _mm256_add_ps(rounded, _mm256_setzero_ps())
        });
        (d, levels)
    }

    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn ints(x: &[f32], q: &mut [i16], ds: &mut [[f32; 2]]) {
        let blocks = x.len() / BLOCK;
        assert!(q.len() >= blocks * BLOCK && ds.len() >= blocks);
        for (b, ds) in ds.iter_mut().enumerate().take(blocks) {
            let (d, levels) = block(x.as_ptr().add(b * BLOCK));
            // exact: whole numbers. packs interleaves the 128-bit halves of its operands; the
            // permute puts them back in order: [a0..4, b0..4, a4..8, b4..8] → [a0..8, b0..8]
            let ints = levels.map(|l| _mm256_cvtps_epi32(l));
            let pack = |a, b| _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0b11_01_10_00);
            let qb = q.as_mut_ptr().add(b * BLOCK) as *mut __m256i;
            _mm256_storeu_si256(qb, pack(ints[0], ints[1]));
            _mm256_storeu_si256(qb.add(1), pack(ints[2], ints[3]));
            let s = _mm256_add_epi32(
                _mm256_add_epi32(ints[0], ints[1]),
                _mm256_add_epi32(ints[2], ints[3]),
            );
            let s = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
            let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
            let sum = _mm_cvtsi128_si32(s); // 0 when d is not > 0 (levels all zero)
            *ds = [d, d * sum as f32];
        }
    }

    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn values(x: &[f32], out: &mut [f32]) {
        let blocks = x.len() / BLOCK;
        assert!(out.len() >= blocks * BLOCK);
        for b in 0..blocks {
            let (d, levels) = block(x.as_ptr().add(b * BLOCK));
            let ob = out.as_mut_ptr().add(b * BLOCK);
            if d > 0.0 {
                let dv = _mm256_set1_ps(d);
                for (i, l) in levels.into_iter().enumerate() {
                    _mm256_storeu_ps(ob.add(8 * i), _mm256_mul_ps(dv, l));
                }
            } else {
                std::slice::from_raw_parts_mut(ob, BLOCK).fill(d); // 0 or NaN
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_the_nearest_step_ties_to_even() {
        let mut x = [0.0f32; BLOCK];
        x[0] = 32767.0; // d = 1
        x[1] = 2.5;
        x[2] = -3.5;
        x[3] = 0.49;
        x[4] = -32767.0;
        let r = Rounded::new(&x);
        assert_eq!(&r.q[..5], &[32767, 2, -4, 0, -32767]);
        assert_eq!(r.ds, [[1.0, (2 - 4) as f32]]);
        // q as its two bytes (the VNNI dot's operands): q = 256 · hi + lo
        assert_eq!(&r.lo[..5], &[255, 2, 252, 0, 1]);
        assert_eq!(&r.hi[..5], &[127, 0, -1, 0, -128]);
        let whole = |i: usize| 256 * i32::from(r.hi[i]) + i32::from(r.lo[i]);
        assert!((0..BLOCK).all(|i| whole(i) == i32::from(r.q[i])));
        let mut xh = [0.0f32; BLOCK];
        rounded_values(&x, &mut xh);
        assert_eq!(&xh[..5], &[32767.0, 2.0, -4.0, 0.0, -32767.0]);
    }

    #[test]
    fn every_value_within_half_a_step() {
        let x: Vec<f32> = crate::test_support::lcg(5, 4 * BLOCK)
            .iter()
            .enumerate()
            .map(|(i, &v)| (v * 10f64.powi((i / BLOCK) as i32 * 3 - 4)) as f32)
            .collect();
        let r = Rounded::new(&x);
        for (j, &v) in x.iter().enumerate() {
            let d = r.ds[j / BLOCK][0];
            let xh = d * f32::from(r.q[j]);
            assert!((v - xh).abs() <= 0.5001 * d, "{j}: {v} vs {xh} (d = {d})");
        }
    }

    /// Every instruction set's kernels give the portable kernels' bits, over blocks of random
    /// values at many scales, zeros, ties, NaN, ±∞ and subnormals.
    #[test]
    fn every_simd_variant_gives_the_same_bits() {
        let mut x: Vec<f32> = crate::test_support::lcg(9, 64 * BLOCK)
            .iter()
            .enumerate()
            .map(|(i, &v)| (v * 10f64.powi((i / BLOCK) as i32 % 12 - 6)) as f32)
            .collect();
        x[3 * BLOCK..4 * BLOCK].fill(0.0);
        x[5 * BLOCK + 1] = f32::NAN;
        x[6 * BLOCK + 2] = f32::INFINITY;
        x[7 * BLOCK] = 45_874.0 * 1.4e-45;
        x[8 * BLOCK] = 32767.0;
        x[8 * BLOCK + 1] = 0.5;
        x[8 * BLOCK + 2] = -2.5;
        x[8 * BLOCK + 3] = -0.3; // rounds to 0: +0 on every path
        let want = kernels(Supported::all()[0]);
        let (mut q0, mut ds0, mut v0) = (
            vec![0i16; x.len()],
            vec![[0.0f32; 2]; 64],
            vec![0.0; x.len()],
        );
        (want.ints)(&x, &mut q0, &mut ds0);
        (want.values)(&x, &mut v0);
        for cpu in Supported::all() {
            let k = kernels(cpu);
            let (mut q, mut ds, mut v) = (
                vec![7i16; x.len()],
                vec![[7.0f32; 2]; 64],
                vec![7.0; x.len()],
            );
            (k.ints)(&x, &mut q, &mut ds);
            (k.values)(&x, &mut v);
            assert_eq!(q, q0, "{cpu:?}");
            let bits = |a: &[f32]| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(ds.as_flattened()), bits(ds0.as_flattened()), "{cpu:?}");
            assert_eq!(bits(&v), bits(&v0), "{cpu:?}");
        }
    }

    #[test]
    fn zeros_nan_infinity_and_subnormals() {
        let mut x = [0.0f32; 4 * BLOCK];
        x[BLOCK + 3] = f32::NAN;
        x[2 * BLOCK] = f32::NEG_INFINITY;
        x[3 * BLOCK] = 1e-44; // d underflows to 0
        x[3 * BLOCK + 1] = -1e-44;
        let r = Rounded::new(&x);
        assert_eq!(r.ds[0], [0.0, 0.0]);
        assert!(r.ds[1][0].is_nan() && r.ds[2][0].is_nan() && r.ds[2][1].is_nan());
        assert_eq!(r.ds[3], [0.0, 0.0]);
        assert!(r.q.iter().all(|&q| q == 0));
        let mut xh = [1.0f32; 4 * BLOCK];
        rounded_values(&x, &mut xh);
        assert!(xh[BLOCK..3 * BLOCK].iter().all(|v| v.is_nan()));
        assert!(xh[..BLOCK]
            .iter()
            .chain(&xh[3 * BLOCK..])
            .all(|&v| v == 0.0));
        // A subnormal scale whose rounding leaves max |x| / d above 32,767.5: clamped.
        let mut y = [0.0f32; BLOCK];
        y[0] = 45_874.0 * 1.4e-45; // d = 1.4 · 2⁻¹⁴⁹ rounds to 2⁻¹⁴⁹
        let r = Rounded::new(&y);
        assert_eq!(r.q[0], 32767);
    }
}
