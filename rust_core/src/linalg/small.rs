//! Products of small matrices: attention's tiles at short sequences (32 queries and keys of 16
//! values each in the learner). A call into `gemm` costs about a microsecond of dispatch and
//! packing before it multiplies, as much as such a product itself; here float32 products up to
//! `MAX_WORK` multiply-adds run a register-blocked loop (4 rows × 16 columns of c held in
//! registers while k runs: one AVX-512 register a row, or two AVX2 ones, or plain loops on the
//! baseline), picked at run time as `simd` describes. Other sizes and float64 go to `matmul`.

use std::sync::OnceLock;

use crate::linalg::mat::Mat;
use crate::linalg::matmul::{matmul_ab, matmul_abt};
use crate::linalg::transpose::Transpose;
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, Supported};

/// Products of at most this many multiply-adds (m · n · k) take the small path: beyond it gemm's
/// packing pays for itself.
pub const MAX_WORK: usize = 1 << 18;

/// Rows of c per register block.
const MR: usize = 4;
/// Columns of c per register block: one AVX-512 register of float32.
const NR: usize = 16;

/// The small path for each element type: float32 here, others always through gemm.
pub trait SmallProduct: Transpose {
    /// Whether `small_ab` can take products of this type at all.
    const HAS_SMALL: bool = false;

    /// `c = beta·(a · b) (+ c when accumulate)` when the product is small enough (true), else
    /// nothing (false). a [m × k], b [k × n], c [m × n] at row stride `ldc`.
    fn small_ab(
        _a: Mat<Self>,
        _b: Mat<Self>,
        _beta: Self,
        _c: &mut [Self],
        _ldc: usize,
        _accumulate: bool,
    ) -> bool {
        false
    }
}

impl SmallProduct for f64 {}

impl SmallProduct for f32 {
    const HAS_SMALL: bool = true;

    fn small_ab(
        a: Mat<f32>,
        b: Mat<f32>,
        beta: f32,
        c: &mut [f32],
        ldc: usize,
        accumulate: bool,
    ) -> bool {
        if !fits(a, b, c, ldc) {
            return false;
        }
        static CHOSEN: OnceLock<Body> = OnceLock::new();
        simd::pick(&CHOSEN, variant)(a, b, beta, c, ldc, accumulate);
        true
    }
}

/// Whether the small path takes a · b into c: inner dimensions equal, the product small, and
/// c's m × n block at stride `ldc` inside `c` (else gemm's path, which checks and reports).
fn fits<T>(a: Mat<T>, b: Mat<T>, c: &[T], ldc: usize) -> bool {
    let (m, k, n) = (a.rows(), a.cols(), b.cols());
    let work = m.saturating_mul(n).saturating_mul(k);
    a.cols() == b.rows()
        && m > 0
        && n > 0
        && work <= MAX_WORK
        && (m == 1 || ldc >= n)
        && (m - 1)
            .checked_mul(ldc)
            .and_then(|s| s.checked_add(n))
            .is_some_and(|end| end <= c.len())
}

/// `c = beta·(a · b) (+ c when accumulate)`: the small path when it applies, else `matmul_ab`.
pub fn product_ab<T: SmallProduct>(
    a: Mat<T>,
    b: Mat<T>,
    beta: T,
    c: &mut [T],
    ldc: usize,
    accumulate: bool,
) {
    if !T::small_ab(a, b, beta, c, ldc, accumulate) {
        matmul_ab(a, b, beta, c, ldc, accumulate);
    }
}

/// `c = beta·(a · bᵀ) (+ c when accumulate)`, b [n × k]: on the small path b is first transposed
/// into `scratch` ([k × n], a few hundred values here), else `matmul_abt`.
pub fn product_abt<T: SmallProduct>(
    a: Mat<T>,
    b: Mat<T>,
    beta: T,
    c: &mut [T],
    ldc: usize,
    accumulate: bool,
    scratch: &mut Vec<T>,
) {
    let (n, k) = (b.rows(), b.cols());
    let work = a.rows().saturating_mul(n).saturating_mul(k);
    if work <= MAX_WORK && T::HAS_SMALL && n > 0 && k > 0 {
        scratch.clear();
        scratch.resize(n * k, T::zero());
        T::transpose_into(b, scratch);
        if T::small_ab(a, Mat::new(scratch, k, n, n), beta, c, ldc, accumulate) {
            return;
        }
    }
    matmul_abt(a, b, beta, c, ldc, accumulate);
}

type Body = fn(Mat<f32>, Mat<f32>, f32, &mut [f32], usize, bool);

/// `ROWS` rows of c (from row i0), columns j0 .. j0 + w (w ≤ NR), from all of k.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn block<const ROWS: usize, const FULL: bool>(
    (ad, lda): (&[f32], usize),
    (bd, ldb): (&[f32], usize),
    k: usize,
    (i0, j0, w): (usize, usize, usize),
    beta: f32,
    c: &mut [f32],
    ldc: usize,
    accumulate: bool,
) {
    let mut acc = [[0.0f32; NR]; ROWS];
    let a_rows: [&[f32]; ROWS] = std::array::from_fn(|r| &ad[(i0 + r) * lda..(i0 + r) * lda + k]);
    for p in 0..k {
        let row = &bd[p * ldb + j0..p * ldb + j0 + w];
        // A whole register's worth read as one fixed-size array; a short last block padded
        // with zeros element by element (a copy of run-time length would be a call to memcpy).
        let padded: [f32; NR];
        let bv: &[f32; NR] = if FULL {
            row.try_into().expect("a full block has NR columns")
        } else {
            padded = std::array::from_fn(|l| row.get(l).copied().unwrap_or(0.0));
            &padded
        };
        for (acc_r, a_r) in acc.iter_mut().zip(&a_rows) {
            let s = a_r[p];
            for l in 0..NR {
                acc_r[l] += s * bv[l];
            }
        }
    }
    for (r, acc_r) in acc.iter().enumerate() {
        let at = (i0 + r) * ldc + j0;
        let out = &mut c[at..at + w];
        if accumulate {
            for (o, &v) in out.iter_mut().zip(acc_r) {
                *o += beta * v;
            }
        } else {
            for (o, &v) in out.iter_mut().zip(acc_r) {
                *o = beta * v;
            }
        }
    }
}

/// The baseline copy's body, in plain loops (the x86 copies are written out in `x86`).
#[inline(always)]
fn ab_body(a: Mat<f32>, b: Mat<f32>, beta: f32, c: &mut [f32], ldc: usize, accumulate: bool) {
    let (m, k, n) = (a.rows(), a.cols(), b.cols());
    let (ad, _, _, lda) = a.parts();
    let (bd, _, _, ldb) = b.parts();
    for j0 in (0..n).step_by(NR) {
        let w = NR.min(n - j0);
        if w == NR {
            rows_of::<true>(
                (ad, lda),
                (bd, ldb),
                (m, k),
                (j0, w),
                beta,
                c,
                ldc,
                accumulate,
            );
        } else {
            rows_of::<false>(
                (ad, lda),
                (bd, ldb),
                (m, k),
                (j0, w),
                beta,
                c,
                ldc,
                accumulate,
            );
        }
    }
}

/// Every row of c, 4 at a time, in columns j0 .. j0 + w (`FULL`: w is NR).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn rows_of<const FULL: bool>(
    a: (&[f32], usize),
    b: (&[f32], usize),
    (m, k): (usize, usize),
    (j0, w): (usize, usize),
    beta: f32,
    c: &mut [f32],
    ldc: usize,
    accumulate: bool,
) {
    let mut i0 = 0;
    while i0 + MR <= m {
        block::<MR, FULL>(a, b, k, (i0, j0, w), beta, c, ldc, accumulate);
        i0 += MR;
    }
    for i in i0..m {
        block::<1, FULL>(a, b, k, (i, j0, w), beta, c, ldc, accumulate);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn ab_avx512(a: Mat<f32>, b: Mat<f32>, beta: f32, c: &mut [f32], ldc: usize, acc: bool) {
    // SAFETY: this copy is compiled for AVX-512F, which `WIDE` blocks need.
    unsafe { x86::ab::<true>(a, b, beta, c, ldc, acc) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn ab_avx2(a: Mat<f32>, b: Mat<f32>, beta: f32, c: &mut [f32], ldc: usize, acc: bool) {
    // SAFETY: this copy is compiled for AVX2 and FMA, which the narrow blocks need.
    unsafe { x86::ab::<false>(a, b, beta, c, ldc, acc) }
}

fn ab_baseline(a: Mat<f32>, b: Mat<f32>, beta: f32, c: &mut [f32], ldc: usize, acc: bool) {
    ab_body(a, b, beta, c, ldc, acc)
}

/// The implementation for a level this CPU supports.
fn variant(cpu: Supported) -> Body {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F, the feature this body was compiled for.
        Level::Avx512 => |a, b, beta, c, ldc, acc| unsafe { ab_avx512(a, b, beta, c, ldc, acc) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this body was compiled for.
        Level::Avx2Fma => |a, b, beta, c, ldc, acc| unsafe { ab_avx2(a, b, beta, c, ldc, acc) },
        _ => ab_baseline,
    }
}

/// The AVX-512 and AVX2 bodies, written with intrinsics: through the generic body LLVM kept the
/// 4 × 16 block of c on the stack rather than in registers (with AVX2, in 4-lane pieces: the
/// learner's attention ran slower than on the baseline copy). A column block shorter than 16 is
/// read and written through lane masks, which touch no memory outside their lanes.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{MR, NR};
    use crate::linalg::mat::Mat;

    /// `ROWS` rows of c, the first `w` of 16 columns: one AVX-512 register a row.
    #[target_feature(enable = "avx512f")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn block_wide<const ROWS: usize>(
        (ap, lda): (*const f32, usize),
        (bp, ldb): (*const f32, usize),
        k: usize,
        w: usize,
        beta: f32,
        cp: *mut f32,
        ldc: usize,
        accumulate: bool,
    ) {
        let mask: __mmask16 = if w == NR { !0 } else { (1u16 << w) - 1 };
        let mut acc = [_mm512_setzero_ps(); ROWS];
        for p in 0..k {
            // SAFETY (this block and the stores below): the caller's pointers and strides keep
            // every unmasked lane inside a, b and c.
            unsafe {
                let bv = _mm512_maskz_loadu_ps(mask, bp.add(p * ldb));
                for (r, acc_r) in acc.iter_mut().enumerate() {
                    let s = _mm512_set1_ps(*ap.add(r * lda + p));
                    *acc_r = _mm512_fmadd_ps(s, bv, *acc_r);
                }
            }
        }
        let bv = _mm512_set1_ps(beta);
        for (r, &acc_r) in acc.iter().enumerate() {
            unsafe {
                let at = cp.add(r * ldc);
                let v = if accumulate {
                    _mm512_fmadd_ps(bv, acc_r, _mm512_maskz_loadu_ps(mask, at))
                } else {
                    _mm512_mul_ps(bv, acc_r)
                };
                _mm512_mask_storeu_ps(at, mask, v);
            }
        }
    }

    /// `ROWS` rows of c, the first `w` of 16 columns: two AVX2 registers a row.
    #[target_feature(enable = "avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    unsafe fn block_narrow<const ROWS: usize>(
        (ap, lda): (*const f32, usize),
        (bp, ldb): (*const f32, usize),
        k: usize,
        w: usize,
        beta: f32,
        cp: *mut f32,
        ldc: usize,
        accumulate: bool,
    ) {
        // Lanes below w of each half: all ones, else zero (masked loads read nothing there).
        let lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let half =
            |from: usize| _mm256_cmpgt_epi32(_mm256_set1_epi32(w as i32 - from as i32), lane);
        let (m0, m1) = (half(0), half(8));
        let mut acc = [[_mm256_setzero_ps(); 2]; ROWS];
        for p in 0..k {
            // SAFETY (this block and the stores below): the caller's pointers and strides keep
            // every unmasked lane inside a, b and c; masked-off lanes are not accessed.
            unsafe {
                let row = bp.wrapping_add(p * ldb);
                let b0 = _mm256_maskload_ps(row, m0);
                let b1 = _mm256_maskload_ps(row.wrapping_add(8), m1);
                for (r, acc_r) in acc.iter_mut().enumerate() {
                    let s = _mm256_set1_ps(*ap.add(r * lda + p));
                    acc_r[0] = _mm256_fmadd_ps(s, b0, acc_r[0]);
                    acc_r[1] = _mm256_fmadd_ps(s, b1, acc_r[1]);
                }
            }
        }
        let bv = _mm256_set1_ps(beta);
        for (r, acc_r) in acc.iter().enumerate() {
            for (h, (&v, mask)) in acc_r.iter().zip([m0, m1]).enumerate() {
                unsafe {
                    let at = cp.wrapping_add(r * ldc + 8 * h);
                    let v = if accumulate {
                        _mm256_fmadd_ps(bv, v, _mm256_maskload_ps(at, mask))
                    } else {
                        _mm256_mul_ps(bv, v)
                    };
                    _mm256_maskstore_ps(at, mask, v);
                }
            }
        }
    }

    /// `ROWS` rows of c from `cp`, the first `w` of 16 columns: `block_wide` with `WIDE`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    unsafe fn block<const ROWS: usize, const WIDE: bool>(
        a: (*const f32, usize),
        b: (*const f32, usize),
        k: usize,
        w: usize,
        beta: f32,
        cp: *mut f32,
        ldc: usize,
        accumulate: bool,
    ) {
        // SAFETY: the features are the caller's promise (`ab`), the extents as in `ab`.
        unsafe {
            if WIDE {
                block_wide::<ROWS>(a, b, k, w, beta, cp, ldc, accumulate)
            } else {
                block_narrow::<ROWS>(a, b, k, w, beta, cp, ldc, accumulate)
            }
        }
    }

    /// `super::ab_body` in registers. `fits` has checked c's block; a and b are `Mat`s, whose extents
    /// were checked when they were built. The caller is compiled for AVX-512F with `WIDE`, for
    /// AVX2 and FMA without.
    #[inline(always)]
    pub unsafe fn ab<const WIDE: bool>(
        a: Mat<f32>,
        b: Mat<f32>,
        beta: f32,
        c: &mut [f32],
        ldc: usize,
        acc: bool,
    ) {
        let (m, k, n) = (a.rows(), a.cols(), b.cols());
        let (ad, _, _, lda) = a.parts();
        let (bd, _, _, ldb) = b.parts();
        let (ap, bp, cp) = (ad.as_ptr(), bd.as_ptr(), c.as_mut_ptr());
        for j0 in (0..n).step_by(NR) {
            let w = NR.min(n - j0);
            let mut i0 = 0;
            // SAFETY: rows i0 .. i0 + ROWS of a (k values each), rows 0 .. k of b from column j0
            // (w values each) and of c: all inside their slices, as said above.
            unsafe {
                while i0 + MR <= m {
                    block::<MR, WIDE>(
                        (ap.add(i0 * lda), lda),
                        (bp.add(j0), ldb),
                        k,
                        w,
                        beta,
                        cp.add(i0 * ldc + j0),
                        ldc,
                        acc,
                    );
                    i0 += MR;
                }
                for i in i0..m {
                    block::<1, WIDE>(
                        (ap.add(i * lda), lda),
                        (bp.add(j0), ldb),
                        k,
                        w,
                        beta,
                        cp.add(i * ldc + j0),
                        ldc,
                        acc,
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::lcg;

    /// Every level against a plain float64 product, over shapes with and without remainders of
    /// the 4 × 16 blocks, strided operands and output, both modes.
    #[test]
    fn every_simd_variant_matches_a_plain_product() {
        for (m, k, n) in [
            (1, 1, 1),
            (3, 5, 7),
            (4, 16, 16),
            (32, 16, 32),
            (33, 17, 50),
            (5, 64, 3),
        ] {
            let (lda, ldb, ldc) = (k + 2, n + 3, n + 1);
            let f32s = |seed: u64, len: usize| -> Vec<f32> {
                lcg(seed, len).iter().map(|&v| v as f32).collect()
            };
            let a = f32s(1, m * lda);
            let b = f32s(2, k * ldb);
            let c0 = f32s(3, m * ldc);
            for accumulate in [false, true] {
                let beta = 0.25f32;
                let mut want = c0.clone();
                for i in 0..m {
                    for j in 0..n {
                        let dot: f64 = (0..k)
                            .map(|p| f64::from(a[i * lda + p]) * f64::from(b[p * ldb + j]))
                            .sum();
                        let prior = if accumulate {
                            f64::from(c0[i * ldc + j])
                        } else {
                            0.0
                        };
                        want[i * ldc + j] = (prior + f64::from(beta) * dot) as f32;
                    }
                }
                for cpu in Supported::all() {
                    let mut got = c0.clone();
                    variant(cpu)(
                        Mat::new(&a, m, k, lda),
                        Mat::new(&b, k, n, ldb),
                        beta,
                        &mut got,
                        ldc,
                        accumulate,
                    );
                    for (idx, (g, w)) in got.iter().zip(&want).enumerate() {
                        assert!(
                            (g - w).abs() <= 1e-5 * (1.0 + w.abs()) * k as f32,
                            "{:?} {m}x{k}x{n} acc {accumulate} at {idx}: {g} vs {w}",
                            cpu.level()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn products_outside_the_small_path_go_to_gemm_with_the_same_results() {
        let (m, k, n) = (70, 64, 64); // 286 720 multiply-adds: gemm
        let a: Vec<f32> = lcg(4, m * k).iter().map(|&v| v as f32).collect();
        let b: Vec<f32> = lcg(5, n * k).iter().map(|&v| v as f32).collect();
        let mut small_abt = vec![0.0f32; m * n];
        let mut gemm_abt = vec![0.0f32; m * n];
        let mut scratch = Vec::new();
        product_abt(
            Mat::new(&a, m, k, k),
            Mat::new(&b, n, k, k),
            1.0,
            &mut small_abt,
            n,
            false,
            &mut scratch,
        );
        matmul_abt(
            Mat::new(&a, m, k, k),
            Mat::new(&b, n, k, k),
            1.0,
            &mut gemm_abt,
            n,
            false,
        );
        assert_eq!(small_abt, gemm_abt);
        // A small one through the transposed copy agrees with gemm within rounding.
        let (m, n) = (8, 8);
        let mut via_small = vec![0.0f32; m * n];
        let mut via_gemm = vec![0.0f32; m * n];
        product_abt(
            Mat::new(&a, m, k, k),
            Mat::new(&b, n, k, k),
            0.5,
            &mut via_small,
            n,
            false,
            &mut scratch,
        );
        matmul_abt(
            Mat::new(&a, m, k, k),
            Mat::new(&b, n, k, k),
            0.5,
            &mut via_gemm,
            n,
            false,
        );
        for (s, g) in via_small.iter().zip(&via_gemm) {
            assert!((s - g).abs() <= 1e-5 * (1.0 + g.abs()), "{s} vs {g}");
        }
    }
}
