//! LayerNorm and RMSNorm of rows, for any `Real`, and for float32 with AVX2 registers bit for bit
//! what the generic code computes: its sums are eight partial sums (`sum_map`), which there are the
//! eight lanes of one register, added and at the end combined in the same order; its outputs are
//! the same operations on each value in the same order (Rust never fuses a · b + c into one
//! rounding).
//!
//! Why the float32 copy: compiled for baseline x86-64, LLVM spread `sum_map`'s eight sums over
//! shuffled halves of 128-bit registers, several times slower than one AVX2 register. The loop is
//! picked at run time as `simd` describes; both levels above the baseline have AVX2.

use std::sync::OnceLock;

use crate::real::Real;
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, Supported};

/// Which norm `norm_rows` computes, with its parameters ([d] each).
#[derive(Clone, Copy)]
pub enum Norm<'a, T> {
    /// (x − mean) / √(var + eps) · gamma + beta
    Layer { gamma: &'a [T], beta: &'a [T] },
    /// x / √(mean(x²) + eps) · weight
    Rms { weight: &'a [T] },
}

/// The norm of each row of x (`d` values) into y, for any `Real`: LayerNorm in two passes (the
/// mean, then the centred sum of squares) and then the output; `norm_rows_f32` does the same in
/// the same order with AVX2.
pub fn norm_rows<T: Real>(norm: Norm<T>, eps: T, d: usize, x: &[T], y: &mut [T]) {
    let inv_d = T::one() / T::from_f64_lossy(d as f64);
    for (y_row, x_row) in y.chunks_mut(d).zip(x.chunks(d)) {
        match norm {
            Norm::Layer { gamma, beta } => {
                let mean = sum_map(x_row, |v| v) * inv_d;
                let var = sum_map(x_row, |v| (v - mean) * (v - mean)) * inv_d;
                let inv_std = T::one() / (var + eps).sqrt();
                for (((o, &v), &g), &b) in y_row.iter_mut().zip(x_row).zip(gamma).zip(beta) {
                    *o = (v - mean) * inv_std * g + b;
                }
            }
            Norm::Rms { weight } => {
                let inv_rms = T::one() / (sum_map(x_row, |v| v * v) * inv_d + eps).sqrt();
                for ((o, &v), &w) in y_row.iter_mut().zip(x_row).zip(weight) {
                    *o = v * inv_rms * w;
                }
            }
        }
    }
}

/// Σ f(x_i) in eight independent partial sums: a single running sum is a serial dependency chain
/// that the compiler may not reorder (floating-point addition is not associative), while eight
/// lanes let it use SIMD registers.
#[inline]
pub fn sum_map<T: Real>(x: &[T], f: impl Fn(T) -> T) -> T {
    const LANES: usize = 8;
    let mut acc = [T::zero(); LANES];
    let (main, tail) = x.split_at(x.len() - x.len() % LANES);
    for c in main.chunks_exact(LANES) {
        for l in 0..LANES {
            acc[l] = acc[l] + f(c[l]);
        }
    }
    let mut sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for &v in tail {
        sum = sum + f(v);
    }
    sum
}

/// The norms for each element type: float32 through `norm_rows_f32`, others by `norm_rows`.
pub trait NormRows: Real {
    /// LayerNorm or RMSNorm of each row of x (`d` values) into y.
    fn norm_rows(norm: Norm<Self>, eps: Self, d: usize, x: &[Self], y: &mut [Self]) {
        norm_rows(norm, eps, d, x, y)
    }
}

impl NormRows for f32 {
    fn norm_rows(norm: Norm<f32>, eps: f32, d: usize, x: &[f32], y: &mut [f32]) {
        norm_rows_f32(norm, eps, d, x, y)
    }
}

impl NormRows for f64 {}

type Kernel = fn(Norm<f32>, f32, usize, &[f32], &mut [f32]);

/// The implementation for a level this CPU supports.
fn variant(cpu: Supported) -> Kernel {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 (with FMA, unused here), the feature this copy needs.
        Level::Avx2Fma | Level::Avx512 => {
            |norm, eps, d, x, y| unsafe { x86::norm_rows(norm, eps, d, x, y) }
        }
        _ => norm_rows::<f32>,
    }
}

/// `norm_rows` for float32: each row of x (`d` values) normalised into y.
pub fn norm_rows_f32(norm: Norm<f32>, eps: f32, d: usize, x: &[f32], y: &mut [f32]) {
    static CHOSEN: OnceLock<Kernel> = OnceLock::new();
    simd::pick(&CHOSEN, variant)(norm, eps, d, x, y)
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86 {
    use std::arch::x86_64::*;

    use super::Norm;

    const LANES: usize = 8;

    /// ((a0 + a4) + (a1 + a5)) + ((a2 + a6) + (a3 + a7)): how `sum_map` combines its sums.
    #[target_feature(enable = "avx2")]
    unsafe fn combine(acc: __m256) -> f32 {
        let s = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps::<1>(acc));
        // [s0 + s1, s1 + s0, s2 + s3, s3 + s2]
        let t = _mm_add_ps(s, _mm_shuffle_ps::<0b10_11_00_01>(s, s));
        _mm_cvtss_f32(t) + _mm_cvtss_f32(_mm_movehl_ps(t, t))
    }

    /// Σ (v − centre)², or Σ (v − centre) when `square` is false. A centre of 0 gives the
    /// plain sums bit for bit (v − 0 is v for every float, −0 and NaN included).
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn sum(x: &[f32], centre: f32, square: bool) -> f32 {
        let main = x.len() - x.len() % LANES;
        let cv = _mm256_set1_ps(centre);
        let mut acc = _mm256_setzero_ps();
        for i in (0..main).step_by(LANES) {
            // SAFETY: i + 8 ≤ main ≤ x.len().
            let v = _mm256_sub_ps(unsafe { _mm256_loadu_ps(x.as_ptr().add(i)) }, cv);
            acc = _mm256_add_ps(acc, if square { _mm256_mul_ps(v, v) } else { v });
        }
        let mut total = combine(acc);
        for &v in &x[main..] {
            let v = v - centre;
            total += if square { v * v } else { v };
        }
        total
    }

    /// See `super::norm_rows`; x and y hold whole rows of `d` values, the parameters `d` each.
    #[target_feature(enable = "avx2")]
    pub unsafe fn norm_rows(norm: Norm<f32>, eps: f32, d: usize, x: &[f32], y: &mut [f32]) {
        if d == 0 {
            return;
        }
        let params_fit = match norm {
            Norm::Layer { gamma, beta } => gamma.len() >= d && beta.len() >= d,
            Norm::Rms { weight } => weight.len() >= d,
        };
        assert!(
            params_fit && x.len() == y.len() && x.len().is_multiple_of(d),
            "rows do not match"
        );
        let inv_d = 1.0 / (d as f64) as f32; // as `from_f64_lossy(d as f64)`
        let main = d - d % LANES;
        for (y_row, x_row) in y.chunks_mut(d).zip(x.chunks(d)) {
            let (xp, yp) = (x_row.as_ptr(), y_row.as_mut_ptr());
            match norm {
                Norm::Layer { gamma, beta } => {
                    let mean = sum(x_row, 0.0, false) * inv_d;
                    let var = sum(x_row, mean, true) * inv_d;
                    let inv_std = 1.0 / (var + eps).sqrt();
                    let (mv, sv) = (_mm256_set1_ps(mean), _mm256_set1_ps(inv_std));
                    for i in (0..main).step_by(LANES) {
                        // SAFETY: i + 8 ≤ d, the length of the row and (checked above) at most
                        // that of gamma and beta.
                        unsafe {
                            let v = _mm256_sub_ps(_mm256_loadu_ps(xp.add(i)), mv);
                            let v = _mm256_mul_ps(
                                _mm256_mul_ps(v, sv),
                                _mm256_loadu_ps(gamma.as_ptr().add(i)),
                            );
                            let v = _mm256_add_ps(v, _mm256_loadu_ps(beta.as_ptr().add(i)));
                            _mm256_storeu_ps(yp.add(i), v);
                        }
                    }
                    for i in main..d {
                        y_row[i] = (x_row[i] - mean) * inv_std * gamma[i] + beta[i];
                    }
                }
                Norm::Rms { weight } => {
                    let inv_rms = 1.0 / (sum(x_row, 0.0, true) * inv_d + eps).sqrt();
                    let rv = _mm256_set1_ps(inv_rms);
                    for i in (0..main).step_by(LANES) {
                        // SAFETY: as above, with weight for gamma.
                        unsafe {
                            let v = _mm256_mul_ps(_mm256_loadu_ps(xp.add(i)), rv);
                            let v = _mm256_mul_ps(v, _mm256_loadu_ps(weight.as_ptr().add(i)));
                            _mm256_storeu_ps(yp.add(i), v);
                        }
                    }
                    for i in main..d {
                        y_row[i] = x_row[i] * inv_rms * weight[i];
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::lcg;

    /// Every level gives the generic code's bits, for rows shorter than, equal to and longer than
    /// a register, with and without a remainder, with a large mean (where a one-pass variance
    /// would lose it).
    #[test]
    fn every_simd_variant_matches_the_generic_rows_bit_for_bit() {
        for d in [1, 3, 7, 8, 9, 15, 16, 17, 31, 384, 385, 576] {
            let rows = 3;
            let f32s = |seed: u64, len: usize| -> Vec<f32> {
                lcg(seed, len).into_iter().map(|v| v as f32).collect()
            };
            let mut x: Vec<f32> = f32s(7, rows * d).iter().map(|v| 1000.0 + 3.0 * v).collect();
            // A row of −0: the plain sums subtract a centre of 0, which must leave −0 as it is.
            x[(rows - 1) * d..].fill(-0.0);
            let (gamma, beta) = (f32s(8, d), f32s(9, d));
            let norms = [
                Norm::Layer {
                    gamma: &gamma,
                    beta: &beta,
                },
                Norm::Rms { weight: &gamma },
            ];
            for norm in norms {
                let mut want = vec![0.0f32; x.len()];
                norm_rows(norm, 1e-5, d, &x, &mut want);
                for cpu in Supported::all() {
                    let mut got = vec![0.0f32; x.len()];
                    variant(cpu)(norm, 1e-5, d, &x, &mut got);
                    let same = got
                        .iter()
                        .zip(&want)
                        .all(|(a, b)| a.to_bits() == b.to_bits());
                    assert!(same, "{:?}, d = {d}: {got:?} != {want:?}", cpu.level());
                }
            }
        }
    }
}
