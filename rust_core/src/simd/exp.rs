//! A vectorised exp for the softmax's hot loop: e_j = exp(x_j − max), summed on the way.
//!
//! `f32::exp` calls libm one value at a time; here the same Cephes-style formula as
//! [`exp_f32`] is written branch-free so the compiler turns each loop into SIMD code. The loop body
//! is compiled for each `simd::Level` and picked at run time as `simd` describes.

use std::sync::OnceLock;

use crate::real::Real;
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, mul_add, Supported};

const LOG2E: f32 = std::f32::consts::LOG2_E;
// ln 2 split in two so that n·ln2 is subtracted exactly for |n| ≤ 128 (Cody–Waite).
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
/// Below this, exp(x) is under f32's smallest normal number; we return exactly 0 (so −inf → 0).
const LOWEST: f32 = -87.336_55;
/// Adding and subtracting 1.5·2²³ rounds a float to the nearest integer without a branch.
const ROUND: f32 = 12_582_912.0;

/// exp(x) for x ≤ 0 (after the max is subtracted), relative error about 1e-7, exact 0 below
/// −87.3 (and for −inf). Not for NaN or positive x > 88 (the softmax handles those before).
/// `FMA`: fused multiply-adds (`simd::mul_add`), for the bodies compiled with them.
#[inline(always)]
pub fn exp_f32<const FMA: bool>(x: f32) -> f32 {
    let xc = x.max(LOWEST);
    // exp(x) = 2^n · exp(r), n = round(x / ln 2), |r| ≤ ln2 / 2. Adding ROUND leaves n in the low
    // mantissa bits of t (t's bits are ROUND's bits + n), which gives 2^n below with integer ops
    // only: a float→int conversion would not vectorise.
    let t = mul_add::<FMA>(xc, LOG2E, ROUND);
    let n = t - ROUND;
    // r = x − n·ln2, in two steps (Cody–Waite)
    let r = mul_add::<FMA>(-n, LN2_LO, mul_add::<FMA>(-n, LN2_HI, xc));
    // Cephes expf polynomial for exp(r) − 1 − r on [−ln2/2, ln2/2]
    let mut p = 1.987_569_1e-4_f32;
    p = mul_add::<FMA>(p, r, 1.398_199_9e-3);
    p = mul_add::<FMA>(p, r, 8.333_452e-3);
    p = mul_add::<FMA>(p, r, 4.166_579_6e-2);
    p = mul_add::<FMA>(p, r, 1.666_666_5e-1);
    p = mul_add::<FMA>(p, r, 0.5);
    let e = mul_add::<FMA>(p * r, r, r) + 1.0;
    let n_bits = t.to_bits().wrapping_sub(ROUND.to_bits()); // n as a two's-complement integer
    let scale = f32::from_bits(n_bits.wrapping_add(127) << 23);
    if x < LOWEST {
        0.0
    } else {
        e * scale
    }
}

const LANES: usize = 16;

#[inline(always)]
fn exp_sub_sum_body<const FMA: bool>(row: &mut [f32], max: f32) -> f32 {
    let mut acc = [0.0f32; LANES];
    let mut chunks = row.chunks_exact_mut(LANES);
    for c in &mut chunks {
        // A fixed-size array, so the compiler sees 16 independent lanes with no bounds checks.
        let c: &mut [f32; LANES] = c
            .try_into()
            .expect("chunks_exact_mut yields LANES elements");
        for l in 0..LANES {
            c[l] = exp_f32::<FMA>(c[l] - max);
            acc[l] += c[l];
        }
    }
    let mut sum = 0.0;
    for x in chunks.into_remainder() {
        *x = exp_f32::<FMA>(*x - max);
        sum += *x;
    }
    acc.iter().sum::<f32>() + sum
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn exp_sub_sum_avx512(row: &mut [f32], max: f32) -> f32 {
    exp_sub_sum_body::<true>(row, max)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn exp_sub_sum_avx2(row: &mut [f32], max: f32) -> f32 {
    exp_sub_sum_body::<true>(row, max)
}

fn exp_sub_sum_baseline(row: &mut [f32], max: f32) -> f32 {
    exp_sub_sum_body::<false>(row, max)
}

type ExpSubSum = fn(&mut [f32], f32) -> f32;

/// The implementation for a level this CPU supports.
fn variant(cpu: Supported) -> ExpSubSum {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F, the feature this body was compiled for.
        Level::Avx512 => |row, max| unsafe { exp_sub_sum_avx512(row, max) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this body was compiled for.
        Level::Avx2Fma => |row, max| unsafe { exp_sub_sum_avx2(row, max) },
        _ => exp_sub_sum_baseline,
    }
}

/// `row[j] = exp(row[j] − max)` for every j; returns Σ_j row[j]. `max` must be the row's finite
/// maximum (so every argument is ≤ 0).
pub fn exp_sub_sum_f32(row: &mut [f32], max: f32) -> f32 {
    static CHOSEN: OnceLock<ExpSubSum> = OnceLock::new();
    simd::pick(&CHOSEN, variant)(row, max)
}

/// The softmax's exp for each element type.
pub trait ExpSum: Real {
    /// `row[j] = exp(row[j] − max)` for every j, returning the sum. `max` is the row's finite
    /// maximum. f32 uses the vectorised exp above; f64 keeps libm's exp, whose last-bit accuracy
    /// float64 users expect.
    fn exp_sub_sum(row: &mut [Self], max: Self) -> Self;
}

impl ExpSum for f32 {
    fn exp_sub_sum(row: &mut [f32], max: f32) -> f32 {
        exp_sub_sum_f32(row, max)
    }
}

impl ExpSum for f64 {
    fn exp_sub_sum(row: &mut [f64], max: f64) -> f64 {
        let mut sum = 0.0;
        for x in row.iter_mut() {
            *x = (*x - max).exp();
            sum += *x;
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::lcg;

    /// The plain reference: libm's exp, one value at a time, summed in float64.
    fn exp_sub_sum_reference(row: &mut [f32], max: f32) -> f32 {
        let mut sum = 0.0f64;
        for x in row.iter_mut() {
            *x = (*x - max).exp();
            sum += *x as f64;
        }
        sum as f32
    }

    #[test]
    fn exp_f32_is_within_3e_7_of_libm_over_its_domain() {
        // Both forms: with fused multiply-adds (the AVX2 and AVX-512 bodies) and without.
        fn check<const FMA: bool>() {
            let mut worst = 0.0f64;
            let mut x = -87.0f32;
            while x <= 0.0 {
                let want = (x as f64).exp();
                worst = worst.max(((exp_f32::<FMA>(x) as f64) - want).abs() / want);
                x += 0.0037;
            }
            assert!(worst < 3e-7, "FMA {FMA}: worst relative error {worst}");
            assert_eq!(exp_f32::<FMA>(f32::NEG_INFINITY), 0.0);
            assert_eq!(exp_f32::<FMA>(-100.0), 0.0);
            assert_eq!(exp_f32::<FMA>(0.0), 1.0);
        }
        check::<false>();
        check::<true>();
    }

    #[test]
    fn every_simd_variant_matches_libm() {
        // Rows with every remainder length after the 16 lanes, with −inf entries among them.
        for cpu in Supported::all() {
            let f = variant(cpu);
            for len in [0usize, 1, 7, 15, 16, 17, 33, 100, 1000] {
                let mut row: Vec<f32> = lcg(len as u64, len)
                    .iter()
                    .map(|v| (*v * 40.0) as f32)
                    .collect();
                if len > 3 {
                    row[2] = f32::NEG_INFINITY;
                }
                let max = row.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
                let max = if max.is_finite() { max } else { 0.0 };
                let mut want = row.clone();
                let want_sum = exp_sub_sum_reference(&mut want, max);
                let sum = f(&mut row, max);
                let level = cpu.level();
                assert!(
                    (sum - want_sum).abs() <= 1e-5 * want_sum.max(1.0),
                    "{level:?} len {len}: sum"
                );
                for (g, w) in row.iter().zip(&want) {
                    assert!(
                        (g - w).abs() <= 3e-7 * w.max(f32::MIN_POSITIVE) + 1e-30,
                        "{level:?} len {len}: {g} vs {w}"
                    );
                }
            }
        }
    }
}
