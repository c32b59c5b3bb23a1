//! A vectorised SiLU for float32, y = x · σ(x), and the fused SwiGLU y = silu(gate) · up.
//!
//! σ(x) = 1 / (1 + e^(−x)) is computed from e = exp(−|x|) ≤ 1 only (the vectorised exp of
//! `simd::exp`, whose argument must be ≤ 0): x / (1 + e) for x ≥ 0 and x · e / (1 + e) for x < 0, so
//! no exponential overflows for large |x|. Below −87.3 e is exactly 0 and silu(x) is −0.0, as
//! x / (1 + e^(−x)) with e^(−x) = inf gives (the true value there is under 1e−36); silu(−inf) is
//! −0.0 too, its limit (the plain formula would say −inf / inf = NaN). The loops are compiled once
//! per `simd::Level` and picked at run time as `simd` describes.

use std::sync::OnceLock;

use crate::real::Real;
use crate::simd::exp::exp_f32;
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, Supported};

/// silu(x) in float32, branch-free (the selects compile to blends).
#[inline(always)]
pub fn silu_f32<const FMA: bool>(x: f32) -> f32 {
    let e = exp_f32::<FMA>(-x.abs()); // NaN gives a finite e; x / (1 + e) is then NaN
    let num = if x >= 0.0 { x } else { x * e };
    let y = num / (1.0 + e);
    if x == f32::NEG_INFINITY {
        -0.0
    } else {
        y
    }
}

/// silu(x) in float64, with libm's exp (as accurate as float64 users expect).
#[inline]
pub fn silu_f64(x: f64) -> f64 {
    let e = (-x.abs()).exp();
    let num = if x >= 0.0 { x } else { x * e };
    if x == f64::NEG_INFINITY {
        -0.0
    } else {
        num / (1.0 + e)
    }
}

const LANES: usize = 16;

/// `y[i] = silu(x[i]) · up[i]`, or `silu(x[i])` when `up` is None.
#[inline(always)]
fn body<const FMA: bool>(x: &[f32], up: Option<&[f32]>, y: &mut [f32]) {
    let mut xs = x.chunks_exact(LANES);
    let mut ys = y.chunks_exact_mut(LANES);
    match up {
        None => {
            for (xc, yc) in (&mut xs).zip(&mut ys) {
                // Fixed-size arrays: independent lanes with no bounds checks, so the loop vectorises.
                let xc: &[f32; LANES] = xc.try_into().expect("chunks_exact yields LANES elements");
                let yc: &mut [f32; LANES] = yc.try_into().expect("chunks_exact yields LANES");
                for l in 0..LANES {
                    yc[l] = silu_f32::<FMA>(xc[l]);
                }
            }
            for (o, &v) in ys.into_remainder().iter_mut().zip(xs.remainder()) {
                *o = silu_f32::<FMA>(v);
            }
        }
        Some(up) => {
            let mut us = up.chunks_exact(LANES);
            for ((xc, uc), yc) in (&mut xs).zip(&mut us).zip(&mut ys) {
                let xc: &[f32; LANES] = xc.try_into().expect("chunks_exact yields LANES elements");
                let uc: &[f32; LANES] = uc.try_into().expect("chunks_exact yields LANES elements");
                let yc: &mut [f32; LANES] = yc.try_into().expect("chunks_exact yields LANES");
                for l in 0..LANES {
                    yc[l] = silu_f32::<FMA>(xc[l]) * uc[l];
                }
            }
            let rest = xs.remainder().iter().zip(us.remainder());
            for (o, (&v, &u)) in ys.into_remainder().iter_mut().zip(rest) {
                *o = silu_f32::<FMA>(v) * u;
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn body_avx512(x: &[f32], up: Option<&[f32]>, y: &mut [f32]) {
    body::<true>(x, up, y)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn body_avx2(x: &[f32], up: Option<&[f32]>, y: &mut [f32]) {
    body::<true>(x, up, y)
}

fn body_baseline(x: &[f32], up: Option<&[f32]>, y: &mut [f32]) {
    body::<false>(x, up, y)
}

type Body = fn(&[f32], Option<&[f32]>, &mut [f32]);

/// The implementation for a level this CPU supports.
fn variant(cpu: Supported) -> Body {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F, the feature this body was compiled for.
        Level::Avx512 => |x, up, y| unsafe { body_avx512(x, up, y) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this body was compiled for.
        Level::Avx2Fma => |x, up, y| unsafe { body_avx2(x, up, y) },
        _ => body_baseline,
    }
}

/// `y[i] = silu(x[i])` (or `silu(x[i]) · up[i]`) with the best variant for this CPU.
pub fn silu_f32_slice(x: &[f32], up: Option<&[f32]>, y: &mut [f32]) {
    static CHOSEN: OnceLock<Body> = OnceLock::new();
    simd::pick(&CHOSEN, variant)(x, up, y)
}

/// SiLU and SwiGLU for each element type.
pub trait Silu: Real {
    /// `y[i] = silu(x[i])`, or `silu(x[i]) · up[i]` (SwiGLU) when `up` is given. f32 uses the
    /// vectorised exp; f64 keeps libm's exp.
    fn silu_into(x: &[Self], up: Option<&[Self]>, y: &mut [Self]);
}

impl Silu for f32 {
    fn silu_into(x: &[f32], up: Option<&[f32]>, y: &mut [f32]) {
        silu_f32_slice(x, up, y)
    }
}

impl Silu for f64 {
    fn silu_into(x: &[f64], up: Option<&[f64]>, y: &mut [f64]) {
        match up {
            None => y.iter_mut().zip(x).for_each(|(o, &v)| *o = silu_f64(v)),
            Some(up) => {
                for ((o, &v), &u) in y.iter_mut().zip(x).zip(up) {
                    *o = silu_f64(v) * u;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_simd_variant_matches_float64() {
        // Every float32 step of 1/256 over [-100, 100] (the exp's cut-off at -87.3 included),
        // plus huge, tiny and special values; a length that leaves a remainder after 16 lanes.
        let mut x: Vec<f32> = (-100 * 256..=100 * 256).map(|i| i as f32 / 256.0).collect();
        x.extend([1e-30, -1e-30, 3e38, -3e38, -1e4, 1e4, f32::MIN_POSITIVE]);
        let specials = [f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 0.0, -0.0];
        x.extend(specials);
        let up: Vec<f32> = x.iter().map(|v| 0.5 - v.sin()).collect();
        for cpu in Supported::all() {
            let level = cpu.level();
            let (mut got, mut fused) = (vec![0.0f32; x.len()], vec![0.0f32; x.len()]);
            variant(cpu)(&x, None, &mut got);
            variant(cpu)(&x, Some(&up), &mut fused);
            for (i, &v) in x.iter().enumerate() {
                let want = silu_f64(f64::from(v));
                let g = f64::from(got[i]);
                let same_special = (g.is_nan() && want.is_nan()) || g == want;
                // Within 3 float32 ulps of the float64 value, or 2e-36 absolute (the flush to
                // -0.0 below -87.3: x · e^x is at most 1.03e-36 there).
                let close = (g - want).abs() <= 3.0 * f64::from(f32::EPSILON) * want.abs() + 2e-36;
                assert!(
                    same_special || close,
                    "{level:?}: silu({v}) = {g}, want {want}"
                );
                let f = fused[i];
                assert!(
                    f.to_bits() == (got[i] * up[i]).to_bits() || (f.is_nan() && got[i].is_nan()),
                    "{level:?}: swiglu({v}, {}) = {f}",
                    up[i]
                );
            }
            let n = x.len();
            assert!(
                got[n - 4] == 0.0 && got[n - 4].is_sign_negative(),
                "silu(-inf)"
            );
            assert!(got[n - 5] == f32::INFINITY && got[n - 3].is_nan());
        }
    }
}
