//! A vectorised exact GELU for float32: y = 0.5 · x · (1 + erf(x / √2)).
//!
//! libm's `erff` works one value at a time with branches, slow enough to weigh on a whole MiniLM
//! forward (docs/performance.md). This erf is the rational approximation Eigen and XLA use for
//! float32, erf(z) ≈ z · P(z²) / Q(z²) on z clamped to [−4, 4] (beyond that erf rounds to ±1 in
//! float32), written branch-free so each loop compiles to SIMD code, once per `simd::Level`, picked
//! at run time as `simd` describes.

use std::sync::OnceLock;

use crate::real::Real;
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, mul_add, Supported};

/// erf(z) for float32. GELU built on it is within 2·ε·|x| of the float64 value everywhere (tested).
#[inline(always)]
pub fn erf_f32<const FMA: bool>(z: f32) -> f32 {
    let zc = z.clamp(-4.0, 4.0); // NaN stays NaN
    let z2 = zc * zc;
    // Numerator: odd polynomial z · P(z²).
    let mut p = -2.726_142_3e-10_f32;
    p = mul_add::<FMA>(p, z2, 2.770_681_4e-8);
    p = mul_add::<FMA>(p, z2, -2.101_024e-6);
    p = mul_add::<FMA>(p, z2, -5.692_506_4e-5);
    p = mul_add::<FMA>(p, z2, -7.349_906_3e-4);
    p = mul_add::<FMA>(p, z2, -2.954_600_2e-3);
    p = mul_add::<FMA>(p, z2, -1.609_603_3e-2);
    // Denominator: even polynomial Q(z²).
    let mut q = -1.456_607_2e-5_f32;
    q = mul_add::<FMA>(q, z2, -2.133_740_6e-4);
    q = mul_add::<FMA>(q, z2, -1.682_827e-3);
    q = mul_add::<FMA>(q, z2, -7.373_329e-3);
    q = mul_add::<FMA>(q, z2, -1.426_473_9e-2);
    let e = zc * p / q;
    // At |z| ≥ 4 erf rounds to ±1 in float32; returning exactly ±1 there (the rational form is a
    // hair short) makes GELU exactly 0 far left and NaN at −inf, as the plain formula gives.
    if zc.abs() >= 4.0 {
        1.0f32.copysign(z)
    } else {
        e
    }
}

#[inline(always)]
fn gelu_f32<const FMA: bool>(x: f32) -> f32 {
    0.5 * x * (1.0 + erf_f32::<FMA>(x * std::f32::consts::FRAC_1_SQRT_2))
}

const LANES: usize = 16;

#[inline(always)]
fn gelu_body<const FMA: bool>(x: &[f32], y: &mut [f32]) {
    let mut xs = x.chunks_exact(LANES);
    let mut ys = y.chunks_exact_mut(LANES);
    for (xc, yc) in (&mut xs).zip(&mut ys) {
        // Fixed-size arrays: 16 independent lanes with no bounds checks, so the loop vectorises.
        let xc: &[f32; LANES] = xc.try_into().expect("chunks_exact yields LANES elements");
        let yc: &mut [f32; LANES] = yc.try_into().expect("chunks_exact yields LANES elements");
        for l in 0..LANES {
            yc[l] = gelu_f32::<FMA>(xc[l]);
        }
    }
    for (o, &v) in ys.into_remainder().iter_mut().zip(xs.remainder()) {
        *o = gelu_f32::<FMA>(v);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn gelu_avx512(x: &[f32], y: &mut [f32]) {
    gelu_body::<true>(x, y)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn gelu_avx2(x: &[f32], y: &mut [f32]) {
    gelu_body::<true>(x, y)
}

fn gelu_baseline(x: &[f32], y: &mut [f32]) {
    gelu_body::<false>(x, y)
}

type Body = fn(&[f32], &mut [f32]);

/// The implementation for a level this CPU supports.
fn variant(cpu: Supported) -> Body {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F, the feature this body was compiled for.
        Level::Avx512 => |x, y| unsafe { gelu_avx512(x, y) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this body was compiled for.
        Level::Avx2Fma => |x, y| unsafe { gelu_avx2(x, y) },
        _ => gelu_baseline,
    }
}

/// `y[i] = GELU(x[i])` with the best variant for this CPU.
pub fn gelu_f32_slice(x: &[f32], y: &mut [f32]) {
    static CHOSEN: OnceLock<Body> = OnceLock::new();
    simd::pick(&CHOSEN, variant)(x, y)
}

/// 1/√(2π), the normal density's factor.
const INV_SQRT_2PI: f32 = 0.398_942_3;

/// GELU's derivative times `g`: g · (Φ(x) + x · φ(x)), with this module's erf and `simd::exp`'s
/// exp (−x²/2 ≤ 0 is its domain; NaN and ±inf come out NaN, as the plain formula gives).
#[inline(always)]
fn gelu_grad_f32<const FMA: bool>(x: f32, g: f32) -> f32 {
    let cdf = 0.5 * (1.0 + erf_f32::<FMA>(x * std::f32::consts::FRAC_1_SQRT_2));
    let pdf = crate::simd::exp::exp_f32::<FMA>(-0.5 * x * x) * INV_SQRT_2PI;
    g * mul_add::<FMA>(x, pdf, cdf)
}

#[inline(always)]
fn gelu_grad_body<const FMA: bool>(x: &[f32], g: &[f32], out: &mut [f32]) {
    let mut xs = x.chunks_exact(LANES);
    let mut gs = g.chunks_exact(LANES);
    let mut os = out.chunks_exact_mut(LANES);
    for ((xc, gc), oc) in (&mut xs).zip(&mut gs).zip(&mut os) {
        // Fixed-size arrays, as in `gelu_body`, so the loop vectorises.
        let xc: &[f32; LANES] = xc.try_into().expect("chunks_exact yields LANES elements");
        let gc: &[f32; LANES] = gc.try_into().expect("chunks_exact yields LANES elements");
        let oc: &mut [f32; LANES] = oc.try_into().expect("chunks_exact yields LANES elements");
        for l in 0..LANES {
            oc[l] = gelu_grad_f32::<FMA>(xc[l], gc[l]);
        }
    }
    let tail = os
        .into_remainder()
        .iter_mut()
        .zip(xs.remainder())
        .zip(gs.remainder());
    for ((o, &v), &gv) in tail {
        *o = gelu_grad_f32::<FMA>(v, gv);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn gelu_grad_avx512(x: &[f32], g: &[f32], out: &mut [f32]) {
    gelu_grad_body::<true>(x, g, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn gelu_grad_avx2(x: &[f32], g: &[f32], out: &mut [f32]) {
    gelu_grad_body::<true>(x, g, out)
}

fn gelu_grad_baseline(x: &[f32], g: &[f32], out: &mut [f32]) {
    gelu_grad_body::<false>(x, g, out)
}

type GradBody = fn(&[f32], &[f32], &mut [f32]);

/// The backward implementation for a level this CPU supports.
fn grad_variant(cpu: Supported) -> GradBody {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F, the feature this body was compiled for.
        Level::Avx512 => |x, g, o| unsafe { gelu_grad_avx512(x, g, o) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this body was compiled for.
        Level::Avx2Fma => |x, g, o| unsafe { gelu_grad_avx2(x, g, o) },
        _ => gelu_grad_baseline,
    }
}

/// `out[i] = g[i] · GELU'(x[i])` with the best variant for this CPU (x, g and out of one length).
pub fn gelu_grad_f32_slice(x: &[f32], g: &[f32], out: &mut [f32]) {
    static CHOSEN: OnceLock<GradBody> = OnceLock::new();
    simd::pick(&CHOSEN, grad_variant)(x, g, out)
}

/// The exact GELU for each element type.
pub trait Gelu: Real {
    /// `y[i] = 0.5 · x[i] · (1 + erf(x[i] / √2))`. f32 uses the vectorised erf above; f64 keeps
    /// libm's erf.
    fn gelu_into(x: &[Self], y: &mut [Self]);
}

impl Gelu for f32 {
    fn gelu_into(x: &[f32], y: &mut [f32]) {
        gelu_f32_slice(x, y)
    }
}

impl Gelu for f64 {
    fn gelu_into(x: &[f64], y: &mut [f64]) {
        for (o, &v) in y.iter_mut().zip(x) {
            *o = 0.5 * v * (1.0 + libm::erf(v * std::f64::consts::FRAC_1_SQRT_2));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain reference: libm's erf in float64.
    fn gelu_reference(x: &[f32], y: &mut [f32]) {
        for (o, &v) in y.iter_mut().zip(x) {
            let v = f64::from(v);
            *o = (0.5 * v * (1.0 + libm::erf(v * std::f64::consts::FRAC_1_SQRT_2))) as f32;
        }
    }

    #[test]
    fn every_simd_variant_of_the_derivative_matches_float64_libm() {
        let mut x: Vec<f32> = (-12 * 512..=12 * 512).map(|i| i as f32 / 512.0).collect();
        x.extend([1e-30, -1e-30, 3e38, -3e38, -1e4, 1e4]);
        let specials = [f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 0.0, -0.0];
        x.extend(specials);
        let g: Vec<f32> = (0..x.len()).map(|i| 0.5 + (i % 7) as f32 * 0.25).collect();
        for cpu in Supported::all() {
            let level = cpu.level();
            let mut got = vec![0.0f32; x.len()];
            grad_variant(cpu)(&x, &g, &mut got);
            for ((&v, &gv), &o) in x.iter().zip(&g).zip(&got) {
                let v64 = f64::from(v);
                let cdf = 0.5 * (1.0 + libm::erf(v64 * std::f64::consts::FRAC_1_SQRT_2));
                let pdf = (-0.5 * v64 * v64).exp() * f64::from(INV_SQRT_2PI);
                let want = f64::from(gv) * (cdf + v64 * pdf);
                let same_special = (o.is_nan() && want.is_nan()) || f64::from(o) == want;
                // The derivative lies in [−0.17, 1.13]: a few float32 ulps of 1, times g.
                let close = (f64::from(o) - want).abs() <= 4.0 * f64::from(f32::EPSILON * gv);
                assert!(
                    same_special || close,
                    "{level:?}: gelu'({v}) · {gv} = {o}, want {want}"
                );
            }
        }
    }

    #[test]
    fn every_simd_variant_matches_float64_libm() {
        // Every float32 step of 1/1024 over [-12, 12], plus tiny, huge and special values;
        // lengths that leave a remainder after the 16-lane blocks.
        let mut x: Vec<f32> = (-12 * 1024..=12 * 1024)
            .map(|i| i as f32 / 1024.0)
            .collect();
        x.extend([
            1e-30,
            -1e-30,
            1e-7,
            -1e-7,
            3e38,
            -3e38,
            -1e4,
            1e4,
            f32::MIN_POSITIVE,
        ]);
        let specials = [f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 0.0, -0.0];
        x.extend(specials);
        let mut want = vec![0.0f32; x.len()];
        gelu_reference(&x, &mut want);
        for cpu in Supported::all() {
            let level = cpu.level();
            let mut got = vec![0.0f32; x.len()];
            variant(cpu)(&x, &mut got);
            for ((&v, &g), &w) in x.iter().zip(&got).zip(&want) {
                let same_special = (g.is_nan() && w.is_nan()) || g == w;
                // Absolute error against the float64 truth, relative to |x| (the scale of
                // GELU's output): two float32 ulps.
                let close = (g - w).abs() <= 2.0 * f32::EPSILON * v.abs().max(1e-30);
                assert!(
                    same_special || close,
                    "{level:?}: gelu({v}) = {g}, want {w}"
                );
            }
            // Far left GELU is exactly zero, as NumPy's float32 computation gives.
            assert_eq!(
                got[x.len() - specials.len() - 3],
                0.0,
                "{level:?}: gelu(-1e4)"
            );
        }
    }
}
