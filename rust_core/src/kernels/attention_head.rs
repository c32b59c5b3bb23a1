//! One small attention head at a time, whole: the forward and backward of float32 heads with at
//! most `HEAD_MAX_LEN` queries and keys and `HEAD_MAX_WIDTH` values per row (the learner's heads:
//! 32 × 32 scores over 16 values; MiniLM's for a sentence of up to 128 tokens: 32 values) and no
//! mask, causal or not.
//!
//! At such sizes the tiled kernels (`attention`, `attention_backward`) spend several times the
//! arithmetic on what surrounds it: copies and transposes per tile, a dispatched call per small
//! product, a row-statistics pass. Here a head's keys and values are laid out once, padded to
//! whole registers of 16 lanes, and every product is one loop — `R` output rows of 16-lane
//! accumulators (of two adjacent 16-lane chunks at once for S = Q Kᵀ, dP = dO Vᵀ and Z = P V
//! with AVX-512, `panels`) over a shared inner index — that reads its left operand through any
//! two strides,
//! so Pᵀ dO and dSᵀ Q need no transposed copy. A causal head stops each product at the diagonal,
//! 16 keys at a time. The softmax, D = Σ_j P_ij dP_ij and dS = P ∘ (dP − D) (the formulas are
//! `attention_backward`'s) run on the same blocks of rows right after their scores, one phase
//! across all the block's rows before the next: each phase of a row waits on a sum across its
//! lanes, and a row at a time left the core idle in those waits.
//!
//! The path is taken only where it means exactly what the tiled kernels mean: every input of the
//! head finite, and no score or dP able to overflow (a bound from the inputs' largest magnitudes,
//! checked first), so that no softmax row is poisoned or empty and leaving the hidden keys out
//! changes no result. Otherwise `head_forward` / `head_backward` return false and the caller runs
//! the tiled kernel. Sums run in another order than the tiled kernels', so results agree with
//! them to float32 rounding, not bit for bit; a head is computed in one fixed order, so results
//! stay identical for any number of threads.

use std::sync::OnceLock;

use crate::kernels::attention_inputs::{Dims, Options};
use crate::linalg::mat::Mat;
use crate::linalg::skinny::{self, FEW_QUERIES};
use crate::linalg::transpose::transpose_f32;
use crate::simd::exp::exp_f32;
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, mul_add, Supported};

/// n and m at most: up to here the whole head ran faster than the tiles, or level with them
/// (docs/performance.md), for d_k and d_v up to `HEAD_MAX_WIDTH`. A head is taken whole only when
/// the tiled kernel gives it one task (`attention`'s `BLOCK_Q` rows or fewer, checked there).
pub const HEAD_MAX_LEN: usize = 128;
/// d_k and d_v at most: wider heads of 128 queries ran slower whole than tiled.
pub const HEAD_MAX_WIDTH: usize = 64;
/// Lanes of one accumulator: one AVX-512 register of float32, two AVX2 ones.
const L: usize = 16;
type Lanes = [f32; L];
/// Output rows per register block: 8 independent chains of fused multiply-adds. It divides `L`,
/// so the rows of a block share their causal chunk of keys.
const R: usize = 8;
/// The largest |score| or |dP| a head may reach (from its inputs' magnitudes) and take this path:
/// far enough below f32::MAX that no sum, difference or scaled value on the way overflows.
const BOUND: f32 = f32::MAX / 8.0;

/// The whole-head path for each element type: float32 here; float64 keeps the tiled kernels.
pub trait HeadPath: Sized {
    /// `attention`'s output for query head `b` (all n rows) into `z` [n, d_v]; false (nothing
    /// written) when the head does not take this path.
    fn head_forward(_io: &Inputs<Self>, _b: usize, _z: &mut [Self], _s: &mut HeadScratch) -> bool {
        false
    }

    /// `attention_backward`'s results for key/value head `u`: grad_q of its g query heads
    /// ([g, n, d_k]), grad_k [m, d_k] and grad_v [m, d_v], all written; false (nothing written)
    /// when the unit does not take this path.
    fn head_backward(
        _io: &Inputs<Self>,
        _grad_out: &[Self],
        _u: usize,
        _grads: (&mut [Self], &mut [Self], &mut [Self]),
        _s: &mut HeadScratch,
    ) -> bool {
        false
    }
}

impl HeadPath for f64 {}

impl HeadPath for f32 {
    fn head_forward(io: &Inputs<f32>, b: usize, z: &mut [f32], s: &mut HeadScratch) -> bool {
        let Some(shape) = Shape::of(io) else {
            return false;
        };
        // A generated token's few queries go to the tiled kernel's few-row dots, which read the
        // keys where they lie: whole heads ran several times slower there (docs/performance.md).
        if shape.n <= FEW_QUERIES && skinny::available() {
            return false;
        }
        static CHOSEN: OnceLock<ForwardBody> = OnceLock::new();
        simd::pick(&CHOSEN, forward_variant)(&shape, io.head(b), z, s)
    }

    fn head_backward(
        io: &Inputs<f32>,
        grad_out: &[f32],
        u: usize,
        grads: (&mut [f32], &mut [f32], &mut [f32]),
        s: &mut HeadScratch,
    ) -> bool {
        let Some(shape) = Shape::of(io) else {
            return false;
        };
        static CHOSEN: OnceLock<BackwardBody> = OnceLock::new();
        simd::pick(&CHOSEN, backward_variant)(&shape, io, grad_out, u, grads, s)
    }
}

/// What a head reads: q, k and v as `dims`' layouts place them, and the options.
pub struct Inputs<'a, T> {
    pub q: &'a [T],
    pub k: &'a [T],
    pub v: &'a [T],
    pub dims: &'a Dims,
    pub opt: &'a Options<'a, T>,
}

impl<'a, T> Inputs<'a, T> {
    /// Query head b's queries and the keys and values it reads, all rows.
    fn head(&self, b: usize) -> (Mat<'a, T>, Mat<'a, T>, Mat<'a, T>) {
        let Dims { n, m, .. } = *self.dims;
        (
            self.dims.queries(self.q, b, 0, n),
            self.dims.keys(self.k, b, 0, m),
            self.dims.values(self.v, b, 0, m),
        )
    }
}

/// Whether every |Σ_p a_ip b_jp| (inner length `len`, from the largest |a| and |b|, None for a
/// NaN or ±inf among them) and its `scale` multiple stay within `BOUND`.
fn within_bound(len: usize, a: Option<f32>, b: Option<f32>, scale: f32) -> bool {
    let (Some(x), Some(y)) = (a, b) else {
        return false;
    };
    let sum = len as f32 * x * y;
    sum <= BOUND && sum * scale.abs() <= BOUND
}

/// The largest |x| over whole rows of 16 lanes, or None when one is NaN or ±inf. With AVX-512
/// from the bit patterns (`x86::max_abs_avx512`); else per lane, with a plain comparison and a
/// witness that sums x · 0 (0 unless it met a NaN or ±inf), so that the loop vectorises
/// (f32::max's NaN rule makes a serial chain).
#[inline(always)]
fn max_abs<const WIDE: bool>(rows: &[f32]) -> Option<f32> {
    #[cfg(target_arch = "x86_64")]
    if WIDE {
        // SAFETY: `WIDE` bodies are compiled for AVX-512F (the `variant`s).
        return unsafe { x86::max_abs_avx512(rows) };
    }
    let (mut most, mut zero) = ([0.0f32; L], [0.0f32; L]);
    for chunk in rows.chunks_exact(L) {
        for l in 0..L {
            let x = chunk[l].abs();
            most[l] = if x > most[l] { x } else { most[l] };
            zero[l] += chunk[l] * 0.0;
        }
    }
    (lane_sum(&zero) == 0.0).then(|| lane_reduce(&most, |a, b| if a > b { a } else { b }))
}

/// A head's sizes, each padded to whole registers (`*p`), and the options it needs.
#[derive(Clone, Copy)]
struct Shape {
    n: usize,
    m: usize,
    d_k: usize,
    d_v: usize,
    mp: usize,
    dkp: usize,
    dvp: usize,
    causal: bool,
    scale: f32,
}

impl Shape {
    /// The head's shape when a call takes this path (no mask, n and m from 1 to
    /// `HEAD_MAX_LEN`, d_k and d_v from 1 to `HEAD_MAX_WIDTH`).
    fn of(io: &Inputs<f32>) -> Option<Shape> {
        let Dims { n, m, d_k, d_v, .. } = *io.dims;
        let len = |x: usize| (1..=HEAD_MAX_LEN).contains(&x);
        let width = |x: usize| (1..=HEAD_MAX_WIDTH).contains(&x);
        let takes = io.opt.mask.is_none() && len(n) && len(m) && width(d_k) && width(d_v);
        let pad = |x: usize| x.div_ceil(L) * L;
        takes.then_some(Shape {
            n,
            m,
            d_k,
            d_v,
            mp: pad(m),
            dkp: pad(d_k),
            dvp: pad(d_v),
            causal: io.opt.causal,
            scale: io.opt.scale,
        })
    }

    /// Chunks of 16 keys that query row i sees: all of them, or up to its own position.
    #[inline(always)]
    fn chunks(&self, i: usize) -> usize {
        let all = self.mp / L;
        if self.causal {
            (i / L + 1).min(all)
        } else {
            all
        }
    }

    /// The keys a block of output rows r0 … r0 + rows − 1 of dQ or Z reads (its last row's).
    #[inline(always)]
    fn keys_upto(&self, r0: usize, rows: usize) -> usize {
        if self.causal {
            (r0 + rows).min(self.m)
        } else {
            self.m
        }
    }

    /// The first query that sees key j0 (the rows of dK and dV read from there on).
    #[inline(always)]
    fn queries_from(&self, j0: usize) -> usize {
        if self.causal {
            j0
        } else {
            0
        }
    }
}

/// The buffers of a run of heads, grown on first use and reused (all padded, C order).
#[derive(Default)]
pub struct HeadScratch {
    /// Kᵀ [d_k, mp] and Vᵀ [d_v, mp]: the right operands of S = Q Kᵀ and dP = dO Vᵀ.
    kt: Vec<f32>,
    vt: Vec<f32>,
    /// K [m, dkp] (for dQ) and V [m, dvp] (for Z).
    kp: Vec<f32>,
    vp: Vec<f32>,
    /// Q [n, dkp] and dO [n, dvp].
    qp: Vec<f32>,
    dop: Vec<f32>,
    /// Scores, then P [n, mp]; dP, then dS [n, mp].
    p: Vec<f32>,
    ds: Vec<f32>,
    /// dK [m, dkp] and dV [m, dvp], summed over the unit's query heads.
    gk: Vec<f32>,
    gv: Vec<f32>,
}

/// The first `len` elements of `v`, grown (with zeros) to hold them.
fn room(v: &mut Vec<f32>, len: usize) -> &mut [f32] {
    if v.len() < len {
        v.resize(len, 0.0);
    }
    &mut v[..len]
}

/// a's rows into `dst` at row stride `ld` (a multiple of 16, ≥ a.cols()), each padded with
/// zeros; the largest |value| (`max_abs`).
#[inline(always)]
fn copy_rows<const WIDE: bool>(a: Mat<f32>, dst: &mut [f32], ld: usize) -> Option<f32> {
    let (data, rows, cols, stride) = a.parts();
    for (r, out) in dst.chunks_exact_mut(ld).take(rows).enumerate() {
        let row = &data[r * stride..r * stride + cols];
        // 16 lanes at a time, so that a short row is a few register moves, not a memcpy call.
        for (c, o) in out.chunks_exact_mut(L).enumerate() {
            let o: &mut Lanes = o.try_into().expect("L lanes");
            if let Some(src) = row.get(c * L..c * L + L) {
                o.copy_from_slice(src);
            } else {
                *o = std::array::from_fn(|l| row.get(c * L + l).copied().unwrap_or(0.0));
            }
        }
    }
    max_abs::<WIDE>(&dst[..rows * ld])
}

/// aᵀ into `dst` [a.cols(), ld], ld (a multiple of 16) ≥ a.rows(), each row padded with zeros;
/// the largest |value| (`max_abs`). By the vectorised transpose when no padding is needed.
#[inline(always)]
fn copy_transposed<const WIDE: bool>(a: Mat<f32>, dst: &mut [f32], ld: usize) -> Option<f32> {
    let (data, rows, cols, stride) = a.parts();
    if rows == ld {
        transpose_f32(a, &mut dst[..cols * ld]);
    } else {
        for (c, out) in dst.chunks_exact_mut(ld).take(cols).enumerate() {
            for (r, o) in out[..rows].iter_mut().enumerate() {
                *o = data[r * stride + c];
            }
            out[rows..].fill(0.0);
        }
    }
    max_abs::<WIDE>(&dst[..cols * ld])
}

/// `acc[r] = Σ_{p in lo..hi} a[(r0 + r)·ars + p·aps] · b[p·ldb + c0 .. p·ldb + c0 + L]` for r < RR:
/// RR rows of a product, 16 output columns from c0, over the inner indices lo … hi − 1. Written
/// with intrinsics on x86-64: through plain loops LLVM vectorised across the rows, gathering a.
#[inline(always)]
fn panel<const FMA: bool, const WIDE: bool, const RR: usize>(
    a: &[f32],
    (r0, ars, aps): (usize, usize, usize),
    b: &[f32],
    (ldb, c0): (usize, usize),
    (lo, hi): (usize, usize),
) -> [Lanes; RR] {
    if lo >= hi {
        return [[0.0f32; L]; RR];
    }
    // Every index read grows with r and p: the largest ones bound them all.
    assert!((r0 + RR - 1) * ars + (hi - 1) * aps < a.len());
    assert!((hi - 1) * ldb + c0 + L <= b.len());
    let a_at = |r: usize, p: usize| (r0 + r) * ars + p * aps;
    #[cfg(target_arch = "x86_64")]
    if FMA {
        // SAFETY: `FMA` bodies are compiled for AVX2 and FMA, `WIDE` ones for AVX-512F too (the
        // `variant`s), and every index is within the slices (checked above).
        return unsafe { x86::panel::<WIDE, RR>(a, (r0, ars, aps), b, (ldb, c0), (lo, hi)) };
    }
    let mut acc = [[0.0f32; L]; RR];
    for p in lo..hi {
        let bv: &Lanes = b[p * ldb + c0..p * ldb + c0 + L]
            .try_into()
            .expect("L lanes");
        for (r, acc_r) in acc.iter_mut().enumerate() {
            let s = a[a_at(r, p)];
            for l in 0..L {
                acc_r[l] = mul_add::<FMA>(s, bv[l], acc_r[l]);
            }
        }
    }
    acc
}

/// `panel` for CC adjacent chunks of 16 columns from c0, chunk by chunk in the result. With
/// AVX-512 in one pass: each element of a, broadcast once, meets CC registers of b, so a step
/// loads RR + CC operands for RR · CC multiply-adds where `panel` loads RR + 1 for RR.
#[inline(always)]
fn panels<const FMA: bool, const WIDE: bool, const RR: usize, const CC: usize>(
    a: &[f32],
    a_rows: (usize, usize, usize),
    b: &[f32],
    (ldb, c0): (usize, usize),
    (lo, hi): (usize, usize),
) -> [[Lanes; RR]; CC] {
    #[cfg(target_arch = "x86_64")]
    if WIDE && lo < hi {
        let (r0, ars, aps) = a_rows;
        // Every index read grows with r, p and the chunk: the largest ones bound them all.
        assert!((r0 + RR - 1) * ars + (hi - 1) * aps < a.len());
        assert!((hi - 1) * ldb + c0 + CC * L <= b.len());
        // SAFETY: `WIDE` bodies are compiled for AVX-512F, AVX2 and FMA (the `variant`s), and
        // every index is within the slices (checked above).
        return unsafe { x86::panels_avx512::<RR, CC>(a, a_rows, b, (ldb, c0), (lo, hi)) };
    }
    std::array::from_fn(|c| panel::<FMA, WIDE, RR>(a, a_rows, b, (ldb, c0 + c * L), (lo, hi)))
}

/// Runs `f::<R>` over whole blocks of R rows from 0, then `f::<1>` over the rows left.
macro_rules! by_blocks {
    ($count:expr, |$r0:ident, $rr:ident| $body:expr) => {{
        let count = $count;
        let mut $r0 = 0;
        while $r0 + R <= count {
            {
                const $rr: usize = R;
                $body;
            }
            $r0 += R;
        }
        while $r0 < count {
            {
                const $rr: usize = 1;
                $body;
            }
            $r0 += 1;
        }
    }};
}

/// Scores S = scale · Q Kᵀ of rows r0 … r0 + RR − 1 into `p` and, with `grad`, dP = dO Vᵀ into
/// `ds`, over the chunks of keys the block's last row sees; the keys a row may not see are
/// masked by `softmax_rows`.
#[inline(always)]
fn scores_rows<const FMA: bool, const WIDE: bool, const RR: usize>(
    sh: &Shape,
    r0: usize,
    s: &mut HeadScratch,
    grad: bool,
) {
    let chunks = sh.chunks(r0 + RR - 1);
    let pairs = chunks / 2;
    for c in (0..2 * pairs).step_by(2) {
        scores_chunks::<FMA, WIDE, RR, 2>(sh, r0, c, s, grad);
    }
    for c in 2 * pairs..chunks {
        scores_chunks::<FMA, WIDE, RR, 1>(sh, r0, c, s, grad);
    }
}

/// `scores_rows` for chunks c … c + CC − 1 of keys.
#[inline(always)]
fn scores_chunks<const FMA: bool, const WIDE: bool, const RR: usize, const CC: usize>(
    sh: &Shape,
    r0: usize,
    c: usize,
    s: &mut HeadScratch,
    grad: bool,
) {
    let Shape { d_k, d_v, mp, .. } = *sh;
    let acc = panels::<FMA, WIDE, RR, CC>(&s.qp, (r0, sh.dkp, 1), &s.kt, (mp, c * L), (0, d_k));
    let dp = if grad {
        panels::<FMA, WIDE, RR, CC>(&s.dop, (r0, sh.dvp, 1), &s.vt, (mp, c * L), (0, d_v))
    } else {
        [[[0.0; L]; RR]; CC]
    };
    for (cc, (acc, dp)) in acc.iter().zip(&dp).enumerate() {
        for r in 0..RR {
            let at = (r0 + r) * mp + (c + cc) * L;
            let out: &mut Lanes = (&mut s.p[at..at + L]).try_into().expect("L lanes");
            for l in 0..L {
                out[l] = acc[r][l] * sh.scale;
            }
            if grad {
                s.ds[at..at + L].copy_from_slice(&dp[r]);
            }
        }
    }
}

/// Rows r0 … r0 + RR − 1 of `p` (their scores) become the softmax P; with `grad`, the same rows
/// of `ds` (their dP) become dS = P ∘ (dP − D), D_i = Σ_j P_ij dP_ij. A phase at a time across
/// the rows: each row's steps wait on a sum across its lanes, and rows side by side overlap.
#[inline(always)]
fn softmax_rows<const FMA: bool, const WIDE: bool, const RR: usize>(
    sh: &Shape,
    r0: usize,
    s: &mut HeadScratch,
    grad: bool,
) {
    // The rows of a block share their chunks of keys (R divides L).
    let width = sh.chunks(r0 + RR - 1) * L;
    let at = |r: usize| (r0 + r) * sh.mp;
    // Keys past `seen` (the padding, and in a causal head the later keys) are masked in each
    // row's last chunk, all but its first `lim` lanes; their dP need no mask, as
    // dS = P ∘ (dP − D) is 0 where P is.
    let lims: [usize; RR] = std::array::from_fn(|r| {
        let i = r0 + r;
        let seen = if sh.causal { sh.m.min(i + 1) } else { sh.m };
        seen - (width - L)
    });
    #[cfg(target_arch = "x86_64")]
    if WIDE {
        let rows = at(0)..at(RR - 1) + width;
        let ds = grad.then(|| &mut s.ds[rows.clone()]);
        // SAFETY: `WIDE` bodies are compiled for AVX-512F, AVX2 and FMA (the `variant`s).
        return unsafe { x86::softmax_rows_avx512(&mut s.p[rows], ds, sh.mp, width, &lims) };
    }
    let mut max = [0.0f32; RR];
    for (r, max_r) in max.iter_mut().enumerate() {
        let row = &mut s.p[at(r)..at(r) + width];
        // 0 on the first `lim` lanes, −inf on the rest: an addition, where a per-lane choice
        // compiles to a branch per count.
        let hide: &Lanes = HIDE[L - lims[r]..2 * L - lims[r]]
            .try_into()
            .expect("L lanes");
        let last: &mut Lanes = (&mut row[width - L..]).try_into().expect("L lanes");
        for l in 0..L {
            last[l] += hide[l];
        }
        // At least key 0 is seen and every score is finite (the bound): the max is finite.
        let mut most = [f32::NEG_INFINITY; L];
        for chunk in row.chunks_exact(L) {
            for l in 0..L {
                most[l] = if chunk[l] > most[l] {
                    chunk[l]
                } else {
                    most[l]
                };
            }
        }
        *max_r = lane_reduce(&most, |a, b| if a > b { a } else { b });
    }
    let mut inv = [0.0f32; RR];
    for (r, inv_r) in inv.iter_mut().enumerate() {
        let mut sum = [0.0f32; L];
        for chunk in s.p[at(r)..at(r) + width].chunks_exact_mut(L) {
            for l in 0..L {
                chunk[l] = exp_f32::<FMA>(chunk[l] - max[r]); // −inf → 0
                sum[l] += chunk[l];
            }
        }
        *inv_r = 1.0 / lane_sum(&sum);
    }
    if !grad {
        for (r, &inv_r) in inv.iter().enumerate() {
            s.p[at(r)..at(r) + width]
                .iter_mut()
                .for_each(|x| *x *= inv_r);
        }
        return;
    }
    let mut d = [0.0f32; RR];
    for (r, d_r) in d.iter_mut().enumerate() {
        let mut acc = [0.0f32; L];
        let (row, dp) = (&mut s.p[at(r)..at(r) + width], &s.ds[at(r)..at(r) + width]);
        for (pc, dc) in row.chunks_exact_mut(L).zip(dp.chunks_exact(L)) {
            for l in 0..L {
                pc[l] *= inv[r];
                acc[l] = mul_add::<FMA>(pc[l], dc[l], acc[l]);
            }
        }
        *d_r = lane_sum(&acc);
    }
    for (r, &d_r) in d.iter().enumerate() {
        let (row, dp) = (&s.p[at(r)..at(r) + width], &mut s.ds[at(r)..at(r) + width]);
        for (pc, dc) in row.chunks_exact(L).zip(dp.chunks_exact_mut(L)) {
            for l in 0..L {
                dc[l] = pc[l] * (dc[l] - d_r);
            }
        }
    }
}

/// 16 zeros then 16 −inf: a window of 16 from it masks a chunk's last lanes.
const HIDE: [f32; 2 * L] = {
    let mut t = [0.0f32; 2 * L];
    let mut l = L;
    while l < 2 * L {
        t[l] = f32::NEG_INFINITY;
        l += 1;
    }
    t
};

/// The 16 lanes summed in a fixed order (pairwise).
#[inline(always)]
fn lane_sum(x: &Lanes) -> f32 {
    lane_reduce(x, |a, b| a + b)
}

/// The 16 lanes combined by `f` as a tree, halves first: four vector steps, where a fold over
/// the lanes is a serial chain of sixteen.
#[inline(always)]
fn lane_reduce(x: &Lanes, f: impl Fn(f32, f32) -> f32) -> f32 {
    let h8: [f32; 8] = std::array::from_fn(|l| f(x[l], x[l + 8]));
    let h4: [f32; 4] = std::array::from_fn(|l| f(h8[l], h8[l + 4]));
    let h2: [f32; 2] = std::array::from_fn(|l| f(h4[l], h4[l + 2]));
    f(h2[0], h2[1])
}

/// S, the softmax (and dP, dS) of every query row of the head in `s.qp` (and `s.dop`).
#[inline(always)]
fn rows_softmax<const FMA: bool, const WIDE: bool>(sh: &Shape, s: &mut HeadScratch, grad: bool) {
    by_blocks!(sh.n, |r0, RR| {
        scores_rows::<FMA, WIDE, RR>(sh, r0, s, grad);
        softmax_rows::<FMA, WIDE, RR>(sh, r0, s, grad);
    });
}

/// Output rows r0 … r0 + RR − 1 (`width` columns at row stride `width`) from 16-lane chunks:
/// `out = beta · acc`, the lanes past `width` dropped.
#[inline(always)]
fn store_rows<const RR: usize>(
    acc: &[Lanes; RR],
    beta: f32,
    out: &mut [f32],
    width: usize,
    r0: usize,
    c0: usize,
) {
    let w = L.min(width - c0);
    for (r, acc_r) in acc.iter().enumerate() {
        let at = (r0 + r) * width + c0;
        for (o, &x) in out[at..at + w].iter_mut().zip(acc_r) {
            *o = beta * x;
        }
    }
}

/// Padded rows r0 … r0 + RR − 1 of `out` (row stride `ld`), 16 lanes from c0: `out += beta · acc`.
#[inline(always)]
fn add_rows<const FMA: bool, const RR: usize>(
    acc: &[Lanes; RR],
    beta: f32,
    out: &mut [f32],
    ld: usize,
    r0: usize,
    c0: usize,
) {
    for (r, acc_r) in acc.iter().enumerate() {
        let at = (r0 + r) * ld + c0;
        for (o, &x) in out[at..at + L].iter_mut().zip(acc_r) {
            *o = mul_add::<FMA>(beta, x, *o);
        }
    }
}

type ForwardBody = fn(&Shape, (Mat<f32>, Mat<f32>, Mat<f32>), &mut [f32], &mut HeadScratch) -> bool;

/// Z = softmax(scale · Q Kᵀ) V for one head into `z` [n, d_v]; false (z unwritten) when an input
/// is not finite or a score could overflow.
#[inline(always)]
fn forward_body<const FMA: bool, const WIDE: bool>(
    sh: &Shape,
    (q, k, v): (Mat<f32>, Mat<f32>, Mat<f32>),
    z: &mut [f32],
    s: &mut HeadScratch,
) -> bool {
    let Shape {
        n,
        m,
        d_k,
        d_v,
        mp,
        dkp,
        dvp,
        ..
    } = *sh;
    let k_max = copy_transposed::<WIDE>(k, room(&mut s.kt, d_k * mp), mp);
    let v_max = copy_rows::<WIDE>(v, room(&mut s.vp, m * dvp), dvp);
    let q_max = copy_rows::<WIDE>(q, room(&mut s.qp, n * dkp), dkp);
    if v_max.is_none() || !within_bound(d_k, q_max, k_max, sh.scale) {
        return false;
    }
    room(&mut s.p, n * mp);
    rows_softmax::<FMA, WIDE>(sh, s, false);
    let pairs = dvp / L / 2;
    by_blocks!(n, |r0, RR| {
        let keys = sh.keys_upto(r0, RR);
        for c0 in (0..2 * pairs * L).step_by(2 * L) {
            let acc = panels::<FMA, WIDE, RR, 2>(&s.p, (r0, mp, 1), &s.vp, (dvp, c0), (0, keys));
            for (cc, acc) in acc.iter().enumerate() {
                store_rows::<RR>(acc, 1.0, z, d_v, r0, c0 + cc * L);
            }
        }
        for c0 in (2 * pairs * L..d_v).step_by(L) {
            let acc = panel::<FMA, WIDE, RR>(&s.p, (r0, mp, 1), &s.vp, (dvp, c0), (0, keys));
            store_rows::<RR>(&acc, 1.0, z, d_v, r0, c0);
        }
    });
    true
}

type BackwardBody = fn(
    &Shape,
    &Inputs<f32>,
    &[f32],
    usize,
    (&mut [f32], &mut [f32], &mut [f32]),
    &mut HeadScratch,
) -> bool;

/// The gradients of key/value head u and its g query heads (see `HeadPath::head_backward`);
/// false when an input is not finite or a score or dP could overflow (then the results may be
/// partly written: the tiled kernel that runs instead writes every one).
#[inline(always)]
fn backward_body<const FMA: bool, const WIDE: bool>(
    sh: &Shape,
    io: &Inputs<f32>,
    grad_out: &[f32],
    u: usize,
    (grad_q, grad_k, grad_v): (&mut [f32], &mut [f32], &mut [f32]),
    s: &mut HeadScratch,
) -> bool {
    let Shape {
        n,
        m,
        d_k,
        d_v,
        mp,
        dkp,
        dvp,
        scale,
        ..
    } = *sh;
    let group = io.dims.group;
    let (_, k, v) = io.head(u * group);
    let k_max = copy_transposed::<WIDE>(k, room(&mut s.kt, d_k * mp), mp);
    let v_max = copy_transposed::<WIDE>(v, room(&mut s.vt, d_v * mp), mp);
    copy_rows::<WIDE>(k, room(&mut s.kp, m * dkp), dkp);
    room(&mut s.gk, m * dkp).fill(0.0);
    room(&mut s.gv, m * dvp).fill(0.0);
    room(&mut s.p, n * mp);
    room(&mut s.ds, n * mp);
    for (h, gq) in grad_q.chunks_exact_mut(n * d_k).enumerate() {
        let b = u * group + h;
        let q_max = copy_rows::<WIDE>(
            io.dims.queries(io.q, b, 0, n),
            room(&mut s.qp, n * dkp),
            dkp,
        );
        let d_o = Mat::new(&grad_out[b * n * d_v..(b + 1) * n * d_v], n, d_v, d_v);
        let do_max = copy_rows::<WIDE>(d_o, room(&mut s.dop, n * dvp), dvp);
        if !within_bound(d_k, q_max, k_max, scale) || !within_bound(d_v, do_max, v_max, 1.0) {
            return false;
        }
        rows_softmax::<FMA, WIDE>(sh, s, true);
        // dQ = scale · dS K
        by_blocks!(n, |r0, RR| {
            let keys = sh.keys_upto(r0, RR);
            for c0 in (0..d_k).step_by(L) {
                let acc = panel::<FMA, WIDE, RR>(&s.ds, (r0, mp, 1), &s.kp, (dkp, c0), (0, keys));
                store_rows::<RR>(&acc, scale, gq, d_k, r0, c0);
            }
        });
        // dK += scale · dSᵀ Q and dV += Pᵀ dO, reading dS and P down their columns.
        by_blocks!(m, |j0, RR| {
            let from = sh.queries_from(j0);
            for c0 in (0..d_k).step_by(L) {
                let acc = panel::<FMA, WIDE, RR>(&s.ds, (j0, 1, mp), &s.qp, (dkp, c0), (from, n));
                add_rows::<FMA, RR>(&acc, scale, &mut s.gk, dkp, j0, c0);
            }
            for c0 in (0..d_v).step_by(L) {
                let acc = panel::<FMA, WIDE, RR>(&s.p, (j0, 1, mp), &s.dop, (dvp, c0), (from, n));
                add_rows::<FMA, RR>(&acc, 1.0, &mut s.gv, dvp, j0, c0);
            }
        });
    }
    for (out, acc) in grad_k.chunks_exact_mut(d_k).zip(s.gk.chunks_exact(dkp)) {
        out.copy_from_slice(&acc[..d_k]);
    }
    for (out, acc) in grad_v.chunks_exact_mut(d_v).zip(s.gv.chunks_exact(dvp)) {
        out.copy_from_slice(&acc[..d_v]);
    }
    true
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::*;

    /// `panel` on a CPU with AVX2 and FMA: one AVX-512 register per row where the CPU has them,
    /// else two AVX2 ones, four rows at a time (8 rows would need 16 of AVX2's 16 registers for
    /// the sums alone).
    #[inline(always)]
    pub unsafe fn panel<const WIDE: bool, const RR: usize>(
        a: &[f32],
        a_rows: (usize, usize, usize),
        b: &[f32],
        b_at: (usize, usize),
        (lo, hi): (usize, usize),
    ) -> [Lanes; RR] {
        let mut out = [[0.0f32; L]; RR];
        if WIDE {
            // SAFETY: AVX-512F is the caller's promise with `WIDE`; indices are the caller's.
            unsafe { panel_avx512::<RR>(a, a_rows, b, b_at, (lo, hi), &mut out) };
        } else {
            for r4 in (0..RR).step_by(4) {
                let rows = r4..RR.min(r4 + 4);
                // SAFETY: AVX2 and FMA are the caller's promise; indices are the caller's.
                unsafe { panel_avx2(a, a_rows, rows, b, b_at, (lo, hi), &mut out) };
            }
        }
        out
    }

    /// Where row r's element p of `a` lies, as two pointers and a step: a down its columns
    /// (rows adjacent, `ars` = 1) reads RR neighbours at fixed offsets from one pointer a step;
    /// a along its rows, each row from its own pointer with the same index.
    #[inline(always)]
    fn a_pointers<const RR: usize>(
        a: &[f32],
        (r0, ars, aps): (usize, usize, usize),
        lo: usize,
    ) -> [*const f32; RR] {
        // The caller has checked every index read (`super::panel`).
        std::array::from_fn(|r| a.as_ptr().wrapping_add((r0 + r) * ars + lo * aps))
    }

    /// `max_abs` in AVX-512 registers: the largest of the magnitudes' bit patterns, which order
    /// as the magnitudes do and put NaN and ±inf above every finite value.
    #[inline]
    #[target_feature(enable = "avx512f")]
    pub unsafe fn max_abs_avx512(rows: &[f32]) -> Option<f32> {
        let magnitude = _mm512_set1_epi32(0x7fff_ffff);
        let mut most = _mm512_setzero_si512();
        for chunk in rows.chunks_exact(L) {
            // SAFETY: a chunk is 16 floats.
            let bits = unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) };
            most = _mm512_max_epu32(most, _mm512_and_si512(bits, magnitude));
        }
        let top = _mm512_reduce_max_epu32(most);
        (top < f32::INFINITY.to_bits()).then(|| f32::from_bits(top))
    }

    /// `softmax_rows` in AVX-512 registers: RR rows at a stride of `ld` in `p` (scores, then P)
    /// and `ds` (dP, then dS), `width` keys each, the lanes of a row's last chunk from lims[r]
    /// on masked. Written out because the plain loops compiled to gathers and scatters.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub unsafe fn softmax_rows_avx512<const RR: usize>(
        p: &mut [f32],
        ds: Option<&mut [f32]>,
        ld: usize,
        width: usize,
        lims: &[usize; RR],
    ) {
        let chunks = width / L;
        let len = (RR - 1) * ld + width;
        assert!(chunks >= 1 && width.is_multiple_of(L) && p.len() >= len);
        assert!(ds.as_ref().is_none_or(|ds| ds.len() >= len));
        assert!(lims.iter().all(|lim| (1..=L).contains(lim)));
        // SAFETY (every access below): chunk c < chunks of row r < RR, within `len`.
        let at = |r: usize, c: usize| r * ld + c * L;
        let pp = p.as_mut_ptr();
        let hidden = _mm512_set1_ps(f32::NEG_INFINITY);
        let mut max = [hidden; RR];
        for (r, max_r) in max.iter_mut().enumerate() {
            let keep = ((1u32 << lims[r]) - 1) as __mmask16;
            let last = unsafe { pp.add(at(r, chunks - 1)) };
            let x = _mm512_mask_blend_ps(keep, hidden, unsafe { _mm512_loadu_ps(last) });
            unsafe { _mm512_storeu_ps(last, x) };
            let mut most = x;
            for c in 0..chunks - 1 {
                most = _mm512_max_ps(most, unsafe { _mm512_loadu_ps(pp.add(at(r, c))) });
            }
            // At least key 0 is seen and every score is finite (the bound): the max is finite.
            *max_r = _mm512_set1_ps(_mm512_reduce_max_ps(most));
        }
        let mut inv = [hidden; RR];
        for (r, inv_r) in inv.iter_mut().enumerate() {
            let mut sum = _mm512_setzero_ps();
            for c in 0..chunks {
                let x = unsafe { _mm512_loadu_ps(pp.add(at(r, c))) };
                // SAFETY: __m512 and [f32; 16] are the same 64 bytes.
                let mut e: Lanes = unsafe { std::mem::transmute(_mm512_sub_ps(x, max[r])) };
                for v in e.iter_mut() {
                    *v = exp_f32::<true>(*v); // −inf → 0
                }
                let e = unsafe { std::mem::transmute::<Lanes, __m512>(e) };
                unsafe { _mm512_storeu_ps(pp.add(at(r, c)), e) };
                sum = _mm512_add_ps(sum, e);
            }
            *inv_r = _mm512_set1_ps(1.0 / _mm512_reduce_add_ps(sum));
        }
        let Some(ds) = ds else {
            for (r, &inv_r) in inv.iter().enumerate() {
                for c in 0..chunks {
                    let x = unsafe { _mm512_loadu_ps(pp.add(at(r, c))) };
                    unsafe { _mm512_storeu_ps(pp.add(at(r, c)), _mm512_mul_ps(x, inv_r)) };
                }
            }
            return;
        };
        let dsp = ds.as_mut_ptr();
        let mut d = [hidden; RR];
        for (r, d_r) in d.iter_mut().enumerate() {
            let mut acc = _mm512_setzero_ps();
            for c in 0..chunks {
                let x = _mm512_mul_ps(unsafe { _mm512_loadu_ps(pp.add(at(r, c))) }, inv[r]);
                unsafe { _mm512_storeu_ps(pp.add(at(r, c)), x) };
                acc = _mm512_fmadd_ps(x, unsafe { _mm512_loadu_ps(dsp.add(at(r, c))) }, acc);
            }
            *d_r = _mm512_set1_ps(_mm512_reduce_add_ps(acc));
        }
        for (r, &d_r) in d.iter().enumerate() {
            for c in 0..chunks {
                let x = unsafe { _mm512_loadu_ps(pp.add(at(r, c))) };
                let g = unsafe { _mm512_loadu_ps(dsp.add(at(r, c))) };
                let out = _mm512_mul_ps(x, _mm512_sub_ps(g, d_r));
                unsafe { _mm512_storeu_ps(dsp.add(at(r, c)), out) };
            }
        }
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    unsafe fn panel_avx512<const RR: usize>(
        a: &[f32],
        a_rows: (usize, usize, usize),
        b: &[f32],
        (ldb, c0): (usize, usize),
        (lo, hi): (usize, usize),
        out: &mut [Lanes; RR],
    ) {
        let mut acc = [_mm512_setzero_ps(); RR];
        let rows = a_pointers::<RR>(a, a_rows, lo);
        let (aps, bp) = (a_rows.2, b.as_ptr());
        // SAFETY (both loops): within a and b (the caller's check of the largest indices).
        if a_rows.1 == 1 {
            for p in 0..hi - lo {
                let bv = unsafe { _mm512_loadu_ps(bp.add((lo + p) * ldb + c0)) };
                let at = unsafe { rows[0].add(p * aps) };
                for (r, acc_r) in acc.iter_mut().enumerate() {
                    let s = _mm512_set1_ps(unsafe { *at.add(r) });
                    *acc_r = _mm512_fmadd_ps(s, bv, *acc_r);
                }
            }
        } else {
            for p in 0..hi - lo {
                let bv = unsafe { _mm512_loadu_ps(bp.add((lo + p) * ldb + c0)) };
                for (r, acc_r) in acc.iter_mut().enumerate() {
                    let s = _mm512_set1_ps(unsafe { *rows[r].add(p * aps) });
                    *acc_r = _mm512_fmadd_ps(s, bv, *acc_r);
                }
            }
        }
        for (o, acc_r) in out.iter_mut().zip(acc) {
            // SAFETY: o is 16 floats.
            unsafe { _mm512_storeu_ps(o.as_mut_ptr(), acc_r) };
        }
    }

    /// `super::panels` in AVX-512 registers: RR × CC sums, one broadcast of a and CC loads of b
    /// a step.
    #[inline]
    #[target_feature(enable = "avx512f,avx2,fma")]
    pub unsafe fn panels_avx512<const RR: usize, const CC: usize>(
        a: &[f32],
        a_rows: (usize, usize, usize),
        b: &[f32],
        (ldb, c0): (usize, usize),
        (lo, hi): (usize, usize),
    ) -> [[Lanes; RR]; CC] {
        let mut acc = [[_mm512_setzero_ps(); CC]; RR];
        let rows = a_pointers::<RR>(a, a_rows, lo);
        let (aps, bp) = (a_rows.2, b.as_ptr());
        for p in 0..hi - lo {
            // SAFETY: within a and b (the caller's check of the largest indices).
            let at = unsafe { bp.add((lo + p) * ldb + c0) };
            let bv: [__m512; CC] =
                std::array::from_fn(|c| unsafe { _mm512_loadu_ps(at.add(c * L)) });
            for (acc_r, row) in acc.iter_mut().zip(&rows) {
                // SAFETY: row r's element lo + p of a, within a (the caller's check).
                let s = _mm512_set1_ps(unsafe { *row.add(p * aps) });
                for (acc_rc, &b_c) in acc_r.iter_mut().zip(&bv) {
                    *acc_rc = _mm512_fmadd_ps(s, b_c, *acc_rc);
                }
            }
        }
        let mut out = [[[0.0f32; L]; RR]; CC];
        for (r, acc_r) in acc.iter().enumerate() {
            for (c, acc_rc) in acc_r.iter().enumerate() {
                // SAFETY: out[c][r] is 16 floats.
                unsafe { _mm512_storeu_ps(out[c][r].as_mut_ptr(), *acc_rc) };
            }
        }
        out
    }

    #[inline]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn panel_avx2<const RR: usize>(
        a: &[f32],
        a_rows: (usize, usize, usize),
        rows: std::ops::Range<usize>,
        b: &[f32],
        (ldb, c0): (usize, usize),
        (lo, hi): (usize, usize),
        out: &mut [Lanes; RR],
    ) {
        let mut acc = [[_mm256_setzero_ps(); 2]; 4];
        let ptrs = a_pointers::<RR>(a, a_rows, lo);
        let (aps, bp) = (a_rows.2, b.as_ptr());
        for p in 0..hi - lo {
            // SAFETY: within a and b (the caller's check of the largest indices).
            unsafe {
                let b0 = _mm256_loadu_ps(bp.add((lo + p) * ldb + c0));
                let b1 = _mm256_loadu_ps(bp.add((lo + p) * ldb + c0 + 8));
                for (acc_r, ptr) in acc.iter_mut().zip(&ptrs[rows.clone()]) {
                    let s = _mm256_set1_ps(*ptr.add(p * aps));
                    acc_r[0] = _mm256_fmadd_ps(s, b0, acc_r[0]);
                    acc_r[1] = _mm256_fmadd_ps(s, b1, acc_r[1]);
                }
            }
        }
        for (acc_r, o) in acc.iter().zip(&mut out[rows]) {
            // SAFETY: o is 16 floats.
            unsafe {
                _mm256_storeu_ps(o.as_mut_ptr(), acc_r[0]);
                _mm256_storeu_ps(o.as_mut_ptr().add(8), acc_r[1]);
            }
        }
    }

    #[target_feature(enable = "avx512f,avx2,fma")]
    pub unsafe fn forward_avx512(
        sh: &Shape,
        qkv: (Mat<f32>, Mat<f32>, Mat<f32>),
        z: &mut [f32],
        s: &mut HeadScratch,
    ) -> bool {
        forward_body::<true, true>(sh, qkv, z, s)
    }

    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn forward_avx2(
        sh: &Shape,
        qkv: (Mat<f32>, Mat<f32>, Mat<f32>),
        z: &mut [f32],
        s: &mut HeadScratch,
    ) -> bool {
        forward_body::<true, false>(sh, qkv, z, s)
    }

    #[target_feature(enable = "avx512f,avx2,fma")]
    pub unsafe fn backward_avx512(
        sh: &Shape,
        io: &Inputs<f32>,
        grad_out: &[f32],
        u: usize,
        grads: (&mut [f32], &mut [f32], &mut [f32]),
        s: &mut HeadScratch,
    ) -> bool {
        backward_body::<true, true>(sh, io, grad_out, u, grads, s)
    }

    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn backward_avx2(
        sh: &Shape,
        io: &Inputs<f32>,
        grad_out: &[f32],
        u: usize,
        grads: (&mut [f32], &mut [f32], &mut [f32]),
        s: &mut HeadScratch,
    ) -> bool {
        backward_body::<true, false>(sh, io, grad_out, u, grads, s)
    }
}

/// The forward for a level this CPU supports.
fn forward_variant(cpu: Supported) -> ForwardBody {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F (with AVX2 and FMA), the features this copy was
        // compiled for.
        Level::Avx512 => |sh, qkv, z, s| unsafe { x86::forward_avx512(sh, qkv, z, s) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this copy was compiled for.
        Level::Avx2Fma => |sh, qkv, z, s| unsafe { x86::forward_avx2(sh, qkv, z, s) },
        _ => forward_body::<false, false>,
    }
}

/// The backward for a level this CPU supports.
fn backward_variant(cpu: Supported) -> BackwardBody {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F (with AVX2 and FMA), the features this copy was
        // compiled for.
        Level::Avx512 => {
            |sh, io, g, u, grads, s| unsafe { x86::backward_avx512(sh, io, g, u, grads, s) }
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this copy was compiled for.
        Level::Avx2Fma => {
            |sh, io, g, u, grads, s| unsafe { x86::backward_avx2(sh, io, g, u, grads, s) }
        }
        _ => backward_body::<false, false>,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::attention_inputs::check_shapes;
    use crate::test_support::lcg;

    /// One head's inputs in float32 ([n, d_k], [m, d_k], [m, d_v], dO [n, d_v]) and options.
    struct Head {
        n: usize,
        m: usize,
        d_k: usize,
        d_v: usize,
        group: usize,
        causal: bool,
        q: Vec<f32>,
        k: Vec<f32>,
        v: Vec<f32>,
        grad_out: Vec<f32>,
    }

    impl Head {
        /// `group` query heads over one key/value head, inputs from `lcg` times `size`.
        fn new(shape: (usize, usize, usize, usize), group: usize, causal: bool, size: f32) -> Head {
            let (n, m, d_k, d_v) = shape;
            let f32s = |seed, len| lcg(seed, len).iter().map(|&x| size * x as f32).collect();
            Head {
                n,
                m,
                d_k,
                d_v,
                group,
                causal,
                q: f32s(1, group * n * d_k),
                k: f32s(2, m * d_k),
                v: f32s(3, m * d_v),
                grad_out: f32s(4, group * n * d_v),
            }
        }

        fn dims(&self) -> Dims {
            let Head { n, m, d_k, d_v, .. } = *self;
            check_shapes(&[self.group, n, d_k], &[1, m, d_k], Some(&[1, m, d_v])).unwrap()
        }

        /// The head's q, k and v as a call reads them.
        fn inputs<'a>(&'a self, dims: &'a Dims, opt: &'a Options<f32>) -> Inputs<'a, f32> {
            Inputs {
                q: &self.q,
                k: &self.k,
                v: &self.v,
                dims,
                opt,
            }
        }

        /// The float64 formulas with the weights held whole, for query head h: Z [n, d_v],
        /// dQ [n, d_k], and its parts of dK [m, d_k] and dV [m, d_v].
        fn reference(&self, h: usize) -> [Vec<f64>; 4] {
            let Head { n, m, d_k, d_v, .. } = *self;
            let scale = 1.0 / (d_k as f64).sqrt();
            let q = |i: usize, c: usize| self.q[(h * n + i) * d_k + c] as f64;
            let k = |j: usize, c: usize| self.k[j * d_k + c] as f64;
            let v = |j: usize, c: usize| self.v[j * d_v + c] as f64;
            let g = |i: usize, c: usize| self.grad_out[(h * n + i) * d_v + c] as f64;
            let seen = |i: usize, j: usize| !self.causal || j <= i;
            let (mut z, mut gq) = (vec![0.0; n * d_v], vec![0.0; n * d_k]);
            let (mut gk, mut gv) = (vec![0.0; m * d_k], vec![0.0; m * d_v]);
            for i in 0..n {
                let s: Vec<f64> = (0..m)
                    .map(|j| match seen(i, j) {
                        true => scale * (0..d_k).map(|c| q(i, c) * k(j, c)).sum::<f64>(),
                        false => f64::NEG_INFINITY,
                    })
                    .collect();
                let max = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let e: Vec<f64> = s.iter().map(|x| (x - max).exp()).collect();
                let p: Vec<f64> = e.iter().map(|x| x / e.iter().sum::<f64>()).collect();
                let dp: Vec<f64> = (0..m)
                    .map(|j| (0..d_v).map(|c| g(i, c) * v(j, c)).sum())
                    .collect();
                let d: f64 = (0..m).map(|j| p[j] * dp[j]).sum();
                for j in 0..m {
                    let ds = p[j] * (dp[j] - d);
                    for c in 0..d_v {
                        z[i * d_v + c] += p[j] * v(j, c);
                        gv[j * d_v + c] += p[j] * g(i, c);
                    }
                    for c in 0..d_k {
                        gq[i * d_k + c] += scale * ds * k(j, c);
                        gk[j * d_k + c] += scale * ds * q(i, c);
                    }
                }
            }
            [z, gq, gk, gv]
        }
    }

    /// Largest |a − b| / (1 + |b|).
    fn worst(a: &[f32], b: &[f64]) -> f64 {
        assert_eq!(a.len(), b.len());
        a.iter()
            .zip(b)
            .map(|(&x, y)| (x as f64 - y).abs() / (1.0 + y.abs()))
            .fold(0.0, f64::max)
    }

    /// Every level's forward and backward on `head`, against the reference (within float32
    /// rounding) when `takes`, else refused with the outputs left as they were.
    fn check(head: &Head, takes: bool) {
        let Head {
            n,
            m,
            d_k,
            d_v,
            group,
            ..
        } = *head;
        let dims = head.dims();
        let opt = Options {
            mask: None,
            causal: head.causal,
            scale: 1.0 / (d_k as f32).sqrt(),
        };
        let io = Inputs {
            q: &head.q,
            k: &head.k,
            v: &head.v,
            dims: &dims,
            opt: &opt,
        };
        let refs: Vec<[Vec<f64>; 4]> = (0..group).map(|h| head.reference(h)).collect();
        let sum = |part: usize| -> Vec<f64> {
            (0..refs[0][part].len())
                .map(|x| refs.iter().map(|r| r[part][x]).sum())
                .collect()
        };
        let shape = Shape::of(&io).expect("a small head without a mask");
        for cpu in Supported::all() {
            let level = cpu.level();
            let mut s = HeadScratch::default();
            for (h, want) in refs.iter().enumerate() {
                let mut z = vec![f32::NAN; n * d_v];
                let took = forward_variant(cpu)(&shape, io.head(h), &mut z, &mut s);
                assert_eq!(took, takes, "{level:?}: forward taken");
                if takes {
                    let e = worst(&z, &want[0]);
                    assert!(e < 2e-6, "{level:?}: z of head {h} off by {e}");
                } else {
                    assert!(z.iter().all(|x| x.is_nan()), "{level:?}: z written");
                }
            }
            let mut gq = vec![f32::NAN; group * n * d_k];
            let (mut gk, mut gv) = (vec![f32::NAN; m * d_k], vec![f32::NAN; m * d_v]);
            let grads = (&mut gq[..], &mut gk[..], &mut gv[..]);
            let took = backward_variant(cpu)(&shape, &io, &head.grad_out, 0, grads, &mut s);
            assert_eq!(took, takes, "{level:?}: backward taken");
            if takes {
                let want_q: Vec<f64> = refs.iter().flat_map(|r| r[1].clone()).collect();
                for (name, got, want) in [
                    ("grad_q", &gq, want_q),
                    ("grad_k", &gk, sum(2)),
                    ("grad_v", &gv, sum(3)),
                ] {
                    let e = worst(got, &want);
                    assert!(e < 2e-6, "{level:?}: {name} off by {e}");
                }
            }
        }
    }

    #[test]
    fn every_level_matches_the_formulas_on_small_heads() {
        // (n, m, d_k, d_v), group, causal: the learner's head, odd sizes, n ≠ m both ways,
        // MiniLM's head at 128 tokens, the largest heads, chunks of keys and of values both even
        // and odd in number (the forward takes two at a time), one query and key, grouped query
        // heads.
        let cases = [
            ((32, 32, 16, 16), 1, true),
            ((32, 32, 16, 16), 1, false),
            ((5, 40, 7, 3), 1, false),
            ((40, 5, 16, 17), 1, true),
            ((17, 50, 9, 33), 1, true),
            ((128, 128, 32, 32), 1, false),
            ((128, 128, 64, 64), 1, true),
            ((100, 80, 64, 48), 1, false),
            ((70, 128, 20, 64), 1, true),
            ((1, 1, 1, 1), 1, false),
            ((33, 20, 8, 8), 3, true),
        ];
        for (shape, group, causal) in cases {
            check(&Head::new(shape, group, causal, 2.0), true);
        }
    }

    #[test]
    fn heads_it_cannot_take_are_left_to_the_tiled_kernels() {
        // A NaN or an infinity among the inputs, or scores and dP large enough to overflow.
        let mut head = Head::new((20, 30, 4, 3), 1, true, 1.0);
        head.q[7] = f32::NAN;
        check(&head, false);
        let mut head = Head::new((20, 30, 4, 3), 1, false, 1.0);
        head.v[11] = f32::INFINITY;
        check(&head, false);
        let mut head = Head::new((20, 30, 4, 3), 1, false, 1.0);
        head.grad_out[2] = f32::NEG_INFINITY;
        let dims = head.dims();
        let opt = Options {
            mask: None,
            causal: false,
            scale: 0.5,
        };
        let io = Inputs {
            q: &head.q,
            k: &head.k,
            v: &head.v,
            dims: &dims,
            opt: &opt,
        };
        let mut s = HeadScratch::default();
        let (mut gq, mut gk, mut gv) = (vec![0.0; 80], vec![0.0; 120], vec![0.0; 90]);
        let grads = (&mut gq[..], &mut gk[..], &mut gv[..]);
        assert!(!f32::head_backward(&io, &head.grad_out, 0, grads, &mut s));
        check(&Head::new((20, 30, 4, 3), 1, true, 1e19), false);
        // A generated token's few queries go to the tiled kernel's few-row dots where it has them.
        let token = Head::new((FEW_QUERIES, 40, 64, 64), 1, false, 1.0);
        let dims = token.dims();
        let mut z = vec![0.0; FEW_QUERIES * 64];
        let took = f32::head_forward(&token.inputs(&dims, &opt), 0, &mut z, &mut s);
        assert_eq!(took, !skinny::available());
        // Nor does a size past HEAD_MAX_LEN or HEAD_MAX_WIDTH.
        let (len, width) = (HEAD_MAX_LEN, HEAD_MAX_WIDTH);
        for size in [
            (len + 1, 8, 4, 4),
            (8, len + 1, 4, 4),
            (8, 8, width + 1, 4),
            (8, 8, 4, width + 1),
        ] {
            let big = Head::new(size, 1, false, 1.0);
            let dims = big.dims();
            assert!(
                Shape::of(&big.inputs(&dims, &opt)).is_none(),
                "{size:?} taken"
            );
        }
    }
}
