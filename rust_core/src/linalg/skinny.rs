//! `y = x · Wᵀ (+ b)` in float32 when x has few rows (up to `MAX_ROWS`): one sentence through a
//! Linear layer. W is float32, or half precision (`half_linear_few_rows`), widened to float32 in
//! registers as it is loaded, so memory carries half the bytes.
//!
//! A general matrix product first repacks W into panels, which for a handful of rows costs more
//! than the product itself (docs/performance.md). Here each row of W (contiguous, as [out, in] is
//! stored) is read once, straight from memory, and dotted with every row of x while it is in cache.
//! The dot products use AVX-512 or AVX2+FMA explicitly (the compiler did not vectorise the generic
//! loop); other CPUs, and float64, keep gemm. Attention uses the same dots for a generated token's
//! few query rows against a tile of keys (`scores`), and `accumulate` for their weighted values.

use std::sync::OnceLock;

use half::f16;

use crate::linalg::mat::Mat;
use crate::real::Real;
use crate::runtime::threads::{for_each_part, stretch_rows, Disjoint};
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, Supported};

/// At most this many rows of x take this path: a sentence of up to 128 tokens. Up to there it
/// beats gemm, which repacks all of W each call and splits small products poorly over the pool's
/// threads; beyond it gemm's packing pays for itself (docs/performance.md).
pub const MAX_ROWS: usize = 128;

/// W's rows are split into long stretches (`threads::stretch_rows`), as the quantized dots split
/// theirs, none shorter than this many rows.
const MIN_ROWS_PER_PART: usize = 16;

/// A kernel computing columns `j0..j0 + cols[i].len()` of y for every row i:
/// `cols[i][jj] = x[i, :k] · w[j0 + jj, :k]` (bias added after), row i of x starting at
/// `i · x_stride` and row j of w at `j · w_stride`; W's elements are float32 or `f16`.
type Block<W = f32> = fn(
    x: &[f32],
    x_stride: usize,
    k: usize,
    w: &[W],
    w_stride: usize,
    j0: usize,
    cols: &mut [&mut [f32]],
);

/// An element of W the kernels read: float32, or half precision widened (exactly) to float32.
pub trait Weight: Copy + Send + Sync {
    fn widen(self) -> f32;
}

impl Weight for f32 {
    #[inline(always)]
    fn widen(self) -> f32 {
        self
    }
}

impl Weight for f16 {
    #[inline(always)]
    fn widen(self) -> f32 {
        self.to_f32()
    }
}

/// The kernel for a level this CPU supports; none at the baseline level (gemm then).
fn variant(cpu: Supported) -> Option<Block> {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F, the feature this kernel was compiled for.
        Level::Avx512 => Some(|x, xs, k, w, ws, j0, cols| unsafe {
            x86::avx512::block(x, xs, k, w, ws, j0, cols)
        }),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this kernel was compiled for.
        Level::Avx2Fma => {
            Some(|x, xs, k, w, ws, j0, cols| unsafe { x86::avx2::block(x, xs, k, w, ws, j0, cols) })
        }
        _ => None,
    }
}

fn chosen() -> Option<Block> {
    static CHOSEN: OnceLock<Option<Block>> = OnceLock::new();
    simd::pick(&CHOSEN, variant)
}

/// The half-precision kernel for a level this CPU supports (`Level::Avx2Fma` includes F16C).
fn half_variant(cpu: Supported) -> Option<Block<f16>> {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F, the feature this kernel was compiled for.
        Level::Avx512 => Some(|x, xs, k, w, ws, j0, cols| unsafe {
            x86::avx512_half::block(x, xs, k, w, ws, j0, cols)
        }),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2, FMA and F16C, the features this kernel was compiled for.
        Level::Avx2Fma => Some(|x, xs, k, w, ws, j0, cols| unsafe {
            x86::avx2_half::block(x, xs, k, w, ws, j0, cols)
        }),
        _ => None,
    }
}

fn half_chosen() -> Option<Block<f16>> {
    static CHOSEN: OnceLock<Option<Block<f16>>> = OnceLock::new();
    simd::pick(&CHOSEN, half_variant)
}

/// True when this CPU has the kernel of `half_linear_few_rows`.
pub fn half_available() -> bool {
    half_chosen().is_some()
}

/// `linear_few_rows` for a half-precision w [n, k]: y = x · float32(w)ᵀ (+ bias); only call when
/// `half_available()`.
pub fn half_linear_few_rows(x: &[f32], w: &[f16], bias: Option<&[f32]>, k: usize, y: &mut [f32]) {
    let block = half_chosen().expect("half_linear_few_rows needs half_available()");
    linear_with(block, x, w, bias, k, y)
}

/// True when this CPU has the kernels of `linear_few_rows`, `scores` and `accumulate`.
pub fn available() -> bool {
    chosen().is_some()
}

/// y [m, n] = x [m, k] · wᵀ (+ bias [n]), w [n, k] row-major, for m ≤ `MAX_ROWS`; only call when
/// `available()`. Splits the rows of w over the pool when called inside it.
pub fn linear_few_rows(x: &[f32], w: &[f32], bias: Option<&[f32]>, k: usize, y: &mut [f32]) {
    let block = chosen().expect("linear_few_rows needs available()");
    linear_with(block, x, w, bias, k, y)
}

fn linear_with<W: Weight>(
    block: Block<W>,
    x: &[f32],
    w: &[W],
    bias: Option<&[f32]>,
    k: usize,
    y: &mut [f32],
) {
    assert!(k > 0, "k = 0 is gemm's case");
    let n = w.len() / k;
    if n == 0 || y.is_empty() {
        return;
    }
    assert!(
        x.len() == y.len() / n * k && w.len() == n * k,
        "shapes do not match"
    );
    let m = y.len() / n;
    let rows_per_part = stretch_rows(n, MIN_ROWS_PER_PART);
    let parts = n.div_ceil(rows_per_part);
    let out = Disjoint::new(y);
    // Part t computes columns [t · rows_per_part, …) of every row of y, on the pool or the team.
    for_each_part(parts, m * k * n, &|t| {
        let j0 = t * rows_per_part;
        let width = rows_per_part.min(n - j0);
        // SAFETY: part t alone writes these columns of each row.
        let mut cols: Vec<&mut [f32]> = (0..m)
            .map(|r| unsafe { out.part(r * n + j0, width) })
            .collect();
        block(x, k, k, w, k, j0, &mut cols);
        if let Some(b) = bias {
            for col in cols.iter_mut() {
                col.iter_mut().zip(&b[j0..]).for_each(|(v, &bj)| *v += bj);
            }
        }
    });
}

/// Query rows up to which attention's tiles use `scores` and `accumulate` instead of gemm (a
/// generated token has one row per head). gemm packs each tile of K and V before multiplying,
/// which for a row or two costs more than the products (docs/performance.md).
pub const FEW_QUERIES: usize = 4;

/// s [rows, n] = scale · (x · wᵀ) for x [rows, k] and w [n, k], rows at any stride, on this
/// thread: the scores of a few query rows against a tile of keys. Only call when `available()`.
pub fn scores(x: Mat<f32>, w: Mat<f32>, scale: f32, s: &mut [f32]) {
    scores_with(chosen().expect("scores needs available()"), x, w, scale, s)
}

fn scores_with(block: Block, x: Mat<f32>, w: Mat<f32>, scale: f32, s: &mut [f32]) {
    let (x_data, rows, k, x_stride) = x.parts();
    let (w_data, n, w_k, w_stride) = w.parts();
    assert!(k == w_k && s.len() == rows * n, "shapes do not match");
    if rows == 0 || n == 0 {
        return;
    }
    let mut cols: Vec<&mut [f32]> = s.chunks_mut(n).collect();
    block(x_data, x_stride, k, w_data, w_stride, 0, &mut cols);
    s.iter_mut().for_each(|v| *v *= scale); // after the sum, as gemm's beta applies it
}

/// z [rows, d] += p [rows, n] · v [n, d], v's rows at any stride, for rows ≤ `FEW_QUERIES`, on
/// this thread: a few query rows' weighted values. Only call when `available()`.
pub fn accumulate(p: &[f32], v: Mat<f32>, z: &mut [f32]) {
    static CHOSEN: OnceLock<Option<Accumulate>> = OnceLock::new();
    let kernel = simd::pick(&CHOSEN, accumulate_variant).expect("accumulate needs available()");
    accumulate_with(kernel, p, v, z)
}

fn accumulate_with(kernel: Accumulate, p: &[f32], v: Mat<f32>, z: &mut [f32]) {
    let (v_data, n, d, v_stride) = v.parts(); // the Mat fits in v_data (checked when built)
    let rows = z.len().checked_div(d).unwrap_or(0);
    let fits = rows <= FEW_QUERIES && z.len() == rows * d && p.len() == rows * n;
    assert!(fits, "shapes do not match");
    if rows == 0 || n == 0 {
        return;
    }
    kernel(p, n, v_data, v_stride, d, z);
}

/// Which element types have these kernels: float32 does (on a CPU with AVX2 or AVX-512), float64
/// keeps gemm. Each method returns false when the caller should use gemm instead.
pub trait FewRows: Real {
    /// Whether `linear` may take a few rows here (float32, on a CPU with the kernel).
    const SKINNY: bool;

    /// `y = x · wᵀ (+ bias)` by `linear_few_rows` when x has at most `MAX_ROWS` rows.
    fn skinny_linear(
        _x: &[Self],
        _w: &[Self],
        _bias: Option<&[Self]>,
        _d_in: usize,
        _y: &mut [Self],
    ) -> bool {
        false
    }

    /// `s = scale · (q · kᵀ)` by `scores` for at most `FEW_QUERIES` query rows.
    fn few_rows_scores(_q: Mat<Self>, _k: Mat<Self>, _scale: Self, _s: &mut [Self]) -> bool {
        false
    }

    /// `z += p · v` by `accumulate`, on the same terms as `few_rows_scores`.
    fn few_rows_accumulate(_p: &[Self], _v: Mat<Self>, _z: &mut [Self]) -> bool {
        false
    }
}

impl FewRows for f32 {
    const SKINNY: bool = true;

    fn skinny_linear(
        x: &[f32],
        w: &[f32],
        bias: Option<&[f32]>,
        d_in: usize,
        y: &mut [f32],
    ) -> bool {
        let rows = x.len().checked_div(d_in).unwrap_or(usize::MAX);
        if rows > MAX_ROWS || d_in == 0 || !available() {
            return false;
        }
        linear_few_rows(x, w, bias, d_in, y);
        true
    }

    fn few_rows_scores(q: Mat<f32>, k: Mat<f32>, scale: f32, s: &mut [f32]) -> bool {
        if q.parts().1 > FEW_QUERIES || !available() {
            return false;
        }
        scores(q, k, scale, s);
        true
    }

    fn few_rows_accumulate(p: &[f32], v: Mat<f32>, z: &mut [f32]) -> bool {
        let d = v.parts().2;
        if d == 0 || z.len() / d > FEW_QUERIES || !available() {
            return false;
        }
        accumulate(p, v, z);
        true
    }
}

impl FewRows for f64 {
    const SKINNY: bool = false;
}

type Accumulate = fn(p: &[f32], n: usize, v: &[f32], v_stride: usize, d: usize, z: &mut [f32]);

fn accumulate_variant(cpu: Supported) -> Option<Accumulate> {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F (and FMA), the features this body was compiled for.
        Level::Avx512 => Some(|p, n, v, vs, d, z| unsafe { accumulate_avx512(p, n, v, vs, d, z) }),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this body was compiled for.
        Level::Avx2Fma => Some(|p, n, v, vs, d, z| unsafe { accumulate_avx2(p, n, v, vs, d, z) }),
        _ => None,
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
unsafe fn accumulate_avx512(p: &[f32], n: usize, v: &[f32], vs: usize, d: usize, z: &mut [f32]) {
    accumulate_rows(p, n, v, vs, d, z)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn accumulate_avx2(p: &[f32], n: usize, v: &[f32], vs: usize, d: usize, z: &mut [f32]) {
    accumulate_rows(p, n, v, vs, d, z)
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn accumulate_rows(p: &[f32], n: usize, v: &[f32], vs: usize, d: usize, z: &mut [f32]) {
    match z.len() / d {
        1 => accumulate_block::<1>(p, n, v, vs, d, z),
        2 => accumulate_block::<2>(p, n, v, vs, d, z),
        3 => accumulate_block::<3>(p, n, v, vs, d, z),
        4 => accumulate_block::<4>(p, n, v, vs, d, z),
        _ => unreachable!("at most FEW_QUERIES rows (checked by accumulate_with)"),
    }
}

/// `accumulate` for R rows: 64 columns of every row of z held in registers (R × 64 floats: 16
/// of AVX-512's 32 at R = 4; AVX2's 16 spill from R = 3) while all n rows of v pass, each read
/// once; the columns beyond the last 64 one at a time.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn accumulate_block<const R: usize>(
    p: &[f32],
    n: usize,
    v: &[f32],
    vs: usize,
    d: usize,
    z: &mut [f32],
) {
    const W: usize = 64;
    let mut c0 = 0;
    while c0 + W <= d {
        let mut acc = [[0.0f32; W]; R];
        for (r, a) in acc.iter_mut().enumerate() {
            a.copy_from_slice(&z[r * d + c0..r * d + c0 + W]);
        }
        for j in 0..n {
            let vr: &[f32; W] = v[j * vs + c0..j * vs + c0 + W]
                .try_into()
                .expect("W values");
            for (r, a) in acc.iter_mut().enumerate() {
                let pj = p[r * n + j];
                for t in 0..W {
                    a[t] = pj.mul_add(vr[t], a[t]);
                }
            }
        }
        for (r, a) in acc.iter().enumerate() {
            z[r * d + c0..r * d + c0 + W].copy_from_slice(a);
        }
        c0 += W;
    }
    for r in 0..R {
        for j in 0..n {
            let pj = p[r * n + j];
            for t in c0..d {
                z[r * d + t] = pj.mul_add(v[j * vs + t], z[r * d + t]);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    /// A tile of `NX` rows of x by `W_BLOCK` rows of W: each load of x serves four products and
    /// each load of W serves `NX`. A kernel's whole tiles have `X_BLOCK` rows of x: 4 with
    /// AVX-512's 32 registers (16 sums), 3 with AVX2's 16, where 16 sums left no register for the
    /// operands and the sums spilled to the stack (docs/performance.md).
    const W_BLOCK: usize = 4;

    macro_rules! block_kernel {
        ($mod:ident, $features:literal, $lanes:expr, $vec:ty, $zero:ident, $load:ident,
         $fma:ident, $reduce:expr, $w:ty, $wload:expr, $x_block:expr) => {
            pub mod $mod {
                use super::*;
                use crate::linalg::skinny::Weight;

                const X_BLOCK: usize = $x_block;

                /// `out[a][b] = x_a · w_b` over `k` elements for the rows at `xr` and `wr`.
                #[target_feature(enable = $features)]
                #[inline]
                unsafe fn tile<const NX: usize>(
                    xr: [*const f32; NX],
                    wr: [*const $w; W_BLOCK],
                    k: usize,
                    ahead: usize,
                ) -> [[f32; W_BLOCK]; NX] {
                    let full = k - k % $lanes;
                    let mut acc: [[$vec; W_BLOCK]; NX] = [[$zero(); W_BLOCK]; NX];
                    let mut p = 0;
                    while p < full {
                        // The same columns of W two blocks on, fetched while this block is
                        // multiplied, into L2 (T1), not L1 (T0): a core has only a few L1 miss
                        // buffers, and prefetches held there cap its reads from memory
                        // (docs/performance.md).
                        for &r in &wr {
                            _mm_prefetch::<_MM_HINT_T1>(r.add(p).wrapping_add(ahead) as *const i8);
                        }
                        // The NX rows of x in registers, then one row of W at a time: NX · 4 sums,
                        // NX + 1 operands.
                        let xv: [$vec; NX] = std::array::from_fn(|a| $load(xr[a].add(p)));
                        for b in 0..W_BLOCK {
                            let wv = $wload(wr[b].add(p));
                            for a in 0..NX {
                                acc[a][b] = $fma(xv[a], wv, acc[a][b]);
                            }
                        }
                        p += $lanes;
                    }
                    std::array::from_fn(|a| {
                        std::array::from_fn(|b| {
                            let tail: f32 = (full..k)
                                .map(|q| *xr[a].add(q) * (*wr[b].add(q)).widen())
                                .sum();
                            $reduce(acc[a][b]) + tail
                        })
                    })
                }

                /// See `Block`. Rows of x and W hold `k` values at their strides (checked here).
                #[target_feature(enable = $features)]
                pub unsafe fn block(
                    x: &[f32],
                    x_stride: usize,
                    k: usize,
                    w: &[$w],
                    w_stride: usize,
                    j0: usize,
                    cols: &mut [&mut [f32]],
                ) {
                    let (m, width) = (cols.len(), cols.first().map_or(0, |c| c.len()));
                    if m == 0 || width == 0 {
                        return;
                    }
                    assert!((j0 + width - 1) * w_stride + k <= w.len());
                    assert!((m - 1) * x_stride + k <= x.len());
                    let x_row = |i: usize| x.as_ptr().add(i * x_stride);
                    // `tile` prefetches the same columns two blocks of W's rows on.
                    let ahead = 2 * W_BLOCK * w_stride;
                    let mut jj = 0;
                    while jj < width {
                        let nb = W_BLOCK.min(width - jj);
                        // A short last block repeats its last row of W and drops the extra results.
                        let wr = std::array::from_fn(|b| {
                            w.as_ptr().add((j0 + jj + b.min(nb - 1)) * w_stride)
                        });
                        let mut i = 0;
                        while i + X_BLOCK <= m {
                            let t = tile::<X_BLOCK>(
                                std::array::from_fn(|a| x_row(i + a)),
                                wr,
                                k,
                                ahead,
                            );
                            for a in 0..X_BLOCK {
                                put(&mut cols[i + a][jj..], &t[a], nb);
                            }
                            i += X_BLOCK;
                        }
                        // The rows left, fewer than X_BLOCK, in one tile, not one by one: each
                        // tile reads the block of W again (from cache), so fewer tiles do less.
                        macro_rules! rest {
                            ($nx:literal) => {{
                                let t = tile::<$nx>(
                                    std::array::from_fn(|a| x_row(i + a)),
                                    wr,
                                    k,
                                    ahead,
                                );
                                for a in 0..$nx {
                                    put(&mut cols[i + a][jj..], &t[a], nb);
                                }
                            }};
                        }
                        match m - i {
                            0 => {}
                            1 => rest!(1),
                            2 => rest!(2),
                            3 => rest!(3),
                            _ => unreachable!("fewer than X_BLOCK rows are left"),
                        }
                        jj += nb;
                    }
                }
            }
        };
    }

    /// A tile's `nb` results for one row of x into `out`: a whole block as four moves of known
    /// length, where a copy of a run-time length became a call to `memcpy` per row and block.
    #[inline(always)]
    fn put(out: &mut [f32], t: &[f32; W_BLOCK], nb: usize) {
        if nb == W_BLOCK {
            out[..W_BLOCK].copy_from_slice(t);
        } else {
            out[..nb].copy_from_slice(&t[..nb]);
        }
    }

    #[target_feature(enable = "avx2,fma")]
    unsafe fn sum8(v: __m256) -> f32 {
        let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        let s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
        _mm_cvtss_f32(s)
    }

    block_kernel!(
        avx512,
        "avx512f",
        16,
        __m512,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_fmadd_ps,
        |v| _mm512_reduce_add_ps(v),
        f32,
        |p: *const f32| _mm512_loadu_ps(p),
        4
    );
    block_kernel!(
        avx2,
        "avx2,fma",
        8,
        __m256,
        _mm256_setzero_ps,
        _mm256_loadu_ps,
        _mm256_fmadd_ps,
        |v| sum8(v),
        f32,
        |p: *const f32| _mm256_loadu_ps(p),
        3
    );
    // Half-precision W: 16 (8) halves loaded and widened to float32 by one instruction.
    block_kernel!(
        avx512_half,
        "avx512f",
        16,
        __m512,
        _mm512_setzero_ps,
        _mm512_loadu_ps,
        _mm512_fmadd_ps,
        |v| _mm512_reduce_add_ps(v),
        half::f16,
        |p: *const half::f16| _mm512_cvtph_ps(_mm256_loadu_si256(p as *const __m256i)),
        4
    );
    block_kernel!(
        avx2_half,
        "avx2,fma,f16c",
        8,
        __m256,
        _mm256_setzero_ps,
        _mm256_loadu_ps,
        _mm256_fmadd_ps,
        |v| sum8(v),
        half::f16,
        |p: *const half::f16| _mm256_cvtph_ps(_mm_loadu_si128(p as *const __m128i)),
        3
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{close, lcg};

    #[test]
    fn scores_and_accumulate_read_rows_at_any_stride() {
        for cpu in Supported::all() {
            if let (Some(block), Some(acc)) = (variant(cpu), accumulate_variant(cpu)) {
                check_strided(block, acc);
            }
        }
    }

    fn check_strided(block: Block, acc: Accumulate) {
        let f = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<f32>>();
        // (rows, keys, width, padding after each row): remainders after the 4-row tiles, the
        // SIMD lanes and the 64-column register block.
        for (rows, n, k, pad) in [(1, 5, 33, 7), (3, 9, 64, 0), (4, 17, 70, 3), (2, 1, 1, 0)] {
            let stride = k + pad;
            let x = f(&lcg(1, rows * stride));
            let w = f(&lcg(2, n * stride));
            let mut s = vec![f32::NAN; rows * n];
            scores_with(
                block,
                Mat::new(&x, rows, k, stride),
                Mat::new(&w, n, k, stride),
                0.5,
                &mut s,
            );
            let want: Vec<f64> = (0..rows * n)
                .map(|e| {
                    let (i, j) = (e / n, e % n);
                    0.5 * (0..k)
                        .map(|p| f64::from(x[i * stride + p]) * f64::from(w[j * stride + p]))
                        .sum::<f64>()
                })
                .collect();
            let got: Vec<f64> = s.iter().map(|&v| f64::from(v)).collect();
            assert!(close(&got, &want, 1e-5), "scores: {rows} {n} {k} {pad}");

            // z [rows, k] += p [rows, n] · w [n, k] (w's rows padded as above)
            let p = f(&lcg(3, rows * n));
            let z0 = f(&lcg(4, rows * k));
            let mut z = z0.clone();
            accumulate_with(acc, &p, Mat::new(&w, n, k, stride), &mut z);
            let want: Vec<f64> = (0..rows * k)
                .map(|e| {
                    let (i, t) = (e / k, e % k);
                    f64::from(z0[e])
                        + (0..n)
                            .map(|j| f64::from(p[i * n + j]) * f64::from(w[j * stride + t]))
                            .sum::<f64>()
                })
                .collect();
            let got: Vec<f64> = z.iter().map(|&v| f64::from(v)).collect();
            assert!(close(&got, &want, 1e-5), "accumulate: {rows} {n} {k} {pad}");
        }
    }

    /// (m, k, n) of the variants' tests: m leaves each remainder after the whole tiles of x's
    /// rows (4 with AVX-512, 3 with AVX2); k after the 8 and 16 lanes; n after the 4-row blocks
    /// of W, and n = 130 splits over several tasks in the pool.
    const SHAPES: [(usize, usize, usize); 7] = [
        (1, 1, 1),
        (3, 7, 5),
        (4, 16, 4),
        (5, 17, 130),
        (6, 33, 9),
        (7, 48, 66),
        (32, 40, 3),
    ];

    #[test]
    fn every_simd_variant_matches_a_plain_loop() {
        let variants: Vec<(crate::simd::Level, Block)> = Supported::all()
            .into_iter()
            .filter_map(|cpu| variant(cpu).map(|b| (cpu.level(), b)))
            .collect();
        for &(level, block) in &variants {
            for (m, k, n) in SHAPES {
                let x: Vec<f32> = lcg(m as u64, m * k).iter().map(|&v| v as f32).collect();
                let w: Vec<f32> = lcg(7 + k as u64, n * k).iter().map(|&v| v as f32).collect();
                let b: Vec<f32> = lcg(99, n).iter().map(|&v| v as f32).collect();
                let want: Vec<f64> = (0..m * n)
                    .map(|e| {
                        let (i, j) = (e / n, e % n);
                        let dot: f64 = (0..k)
                            .map(|p| f64::from(x[i * k + p]) * f64::from(w[j * k + p]))
                            .sum();
                        dot + f64::from(b[j])
                    })
                    .collect();
                let mut here = vec![f32::NAN; m * n];
                linear_with(block, &x, &w, Some(&b), k, &mut here);
                let mut pooled = vec![f32::NAN; m * n];
                crate::runtime::threads::run(usize::MAX, || {
                    linear_with(block, &x, &w, Some(&b), k, &mut pooled)
                })
                .unwrap();
                for got in [&here, &pooled] {
                    let got: Vec<f64> = got.iter().map(|&v| f64::from(v)).collect();
                    assert!(close(&got, &want, 1e-5), "{level:?}: m={m} k={k} n={n}");
                }
            }
        }
    }

    #[test]
    fn every_half_variant_matches_a_plain_loop_over_the_widened_weights() {
        let variants: Vec<(crate::simd::Level, Block<f16>)> = Supported::all()
            .into_iter()
            .filter_map(|cpu| half_variant(cpu).map(|b| (cpu.level(), b)))
            .collect();
        for &(level, block) in &variants {
            for (m, k, n) in SHAPES {
                let x: Vec<f32> = lcg(m as u64, m * k).iter().map(|&v| v as f32).collect();
                let w: Vec<f16> = lcg(7 + k as u64, n * k)
                    .iter()
                    .map(|&v| f16::from_f64(v))
                    .collect();
                let b: Vec<f32> = lcg(99, n).iter().map(|&v| v as f32).collect();
                let want: Vec<f64> = (0..m * n)
                    .map(|e| {
                        let (i, j) = (e / n, e % n);
                        let dot: f64 = (0..k)
                            .map(|p| f64::from(x[i * k + p]) * w[j * k + p].to_f64())
                            .sum();
                        dot + f64::from(b[j])
                    })
                    .collect();
                let mut got = vec![f32::NAN; m * n];
                crate::runtime::threads::run(usize::MAX, || {
                    linear_with(block, &x, &w, Some(&b), k, &mut got)
                })
                .unwrap();
                let got: Vec<f64> = got.iter().map(|&v| f64::from(v)).collect();
                assert!(close(&got, &want, 1e-5), "{level:?}: m={m} k={k} n={n}");
            }
        }
    }
}
