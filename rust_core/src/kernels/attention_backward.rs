//! The gradient of `attention`: given q, k, v and grad_out = ∂L/∂Z for Z = softmax(S) V with
//! S = Q Kᵀ · scale + mask, the gradients
//!
//!   P = softmax(S);  dV = Pᵀ dO;  dP = dO Vᵀ;  D_i = Σ_j P_ij dP_ij = dO_i · Z_i
//!   dS = P ∘ (dP − D);  dQ = scale · dS K;  dK = scale · dSᵀ Q
//!
//! computed as FlashAttention-2's backward pass does, a block of query rows at a time, so that
//! nothing n × m is ever held. For a block, a first pass over the key tiles computes the scores S
//! and dP = dO V_tileᵀ, the softmax's row statistics (the online maximum and sum of `attention`,
//! giving the log-sum-exp L_i) and, alongside with the same rescaling, D_i = Σ_j P_ij dP_ij; a
//! second pass turns each tile into P = exp(S − L) and dS, and adds the tile's share to dQ (the
//! block's rows), dK and dV (the tile's keys). The first pass keeps its tiles of S and dP for the
//! second when a block's row of keys is short enough (`CACHE_MAX`: 5 products per score instead of
//! 7); otherwise the second pass recomputes them.
//!
//! The parallel tasks are the key/value heads (`Dims::kv`): a task takes one head of k and v and
//! every query head that reads it (g of them under grouped-query attention), so the sums into dK
//! and dV are its own and need no locks, and each task runs in a fixed order: the results are
//! identical for any number of threads.
//!
//! A query that may attend to nothing (every score −inf) has zero gradients and adds nothing to
//! dK and dV, whatever its grad_out row holds. A query with a NaN or +inf score has a NaN softmax
//! row, as in PyTorch, which the products then spread as PyTorch's would. Keys the causal mask
//! hides from a whole block are skipped only when that cannot change a result: when their keys
//! and values, and the block's queries and grad_out rows, are finite (0 · NaN is NaN).
//!
//! A float32 unit whose heads are small (at most 128 queries and keys, 64 values a row, no mask)
//! is taken whole by `attention_head` when its inputs are finite and no score or dP can overflow;
//! the rules above then hold by construction, and results agree with the tiled path's to float32
//! rounding.

use crate::kernels::attention_head::{HeadPath, HeadScratch, Inputs};
use crate::kernels::attention_inputs::{mask_tile, Dims, Options};
use crate::kernels::softmax::max_and_nan;
use crate::linalg::mat::{all_finite, Mat};
use crate::linalg::small::{product_ab, product_abt, SmallProduct};
use crate::real::Real;
use crate::runtime::threads::{for_each_part, split_threads, Disjoint};
use crate::simd::exp::ExpSum;
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, Supported};
use std::sync::OnceLock;

/// Query rows per block.
const BLOCK_Q: usize = 128;
/// Keys per tile: the tiles of S, dP and a transpose (128 × 128 float32, 64 KB each), the tiles of K
/// and V and the block's rows of Q, dO and dQ stay within a core's L2 cache for d up to a few
/// hundred. 128 × 128 tiles ran [1, 8, 1024, 64] float32 about 8 % faster than 64 × 64.
const BLOCK_K: usize = 128;

/// Elements of a task's cache of a block's scores and dP, which spares the second pass two of its
/// five products: 2 MB of float32, room for 128 query rows over 2048 keys. Longer rows of keys
/// are recomputed in the second pass instead (nothing grows with n · m).
const CACHE_MAX: usize = 1 << 19;

/// Multiply-adds of one `attention_backward` call at most (S and dP recomputed), saturating: the
/// scores and dP twice, dQ, dK, dV once each, per query and key.
pub fn attention_backward_work(dims: &Dims) -> usize {
    let per_pair = 4usize
        .saturating_mul(dims.d_k)
        .saturating_add(3usize.saturating_mul(dims.d_v))
        .saturating_add(2);
    dims.batch
        .saturating_mul(dims.n.saturating_mul(dims.m))
        .saturating_mul(per_pair)
}

/// (grad_q, grad_k, grad_v) of `attention(q, k, v)` for `grad_out`, into new buffers in C order:
/// grad_q [batch, n, d_k] (q's shape), grad_k [batch / g, m, d_k] (k's), grad_v [batch / g, m, d_v]
/// (v's). q, k and v lie in their slices as `dims`' layouts say; grad_out is [batch, n, d_v] in C
/// order. Every element of the three results is written.
#[allow(clippy::too_many_arguments)]
pub fn attention_backward<T: AttentionGrad>(
    q: &[T],
    k: &[T],
    v: &[T],
    grad_out: &[T],
    dims: &Dims,
    opt: &Options<T>,
    grad_q: &mut [T],
    grad_k: &mut [T],
    grad_v: &mut [T],
) {
    let Dims {
        n,
        m,
        d_k,
        d_v,
        group,
        ..
    } = *dims;
    let units = dims.batch.checked_div(group).unwrap_or(0);
    debug_assert_eq!(grad_out.len(), dims.batch * n * d_v);
    debug_assert_eq!(grad_q.len(), dims.batch * n * d_k);
    debug_assert_eq!(grad_k.len(), units * m * d_k);
    debug_assert_eq!(grad_v.len(), units * m * d_v);
    let (gq, gk, gv) = (
        Disjoint::new(grad_q),
        Disjoint::new(grad_k),
        Disjoint::new(grad_v),
    );
    let task = Units {
        q,
        k,
        v,
        grad_out,
        dims,
        opt,
        grad_q: &gq,
        grad_k: &gk,
        grad_v: &gv,
    };
    // Runs of consecutive units, a few a thread, each with one set of buffers: a small head
    // (the learner's 32 × 32 scores) takes about as long as allocating its buffers afresh.
    let work = attention_backward_work(dims);
    let parts = units.min(PARTS_PER_THREAD * split_threads(work));
    for_each_part(parts, work, &|p| {
        T::backward_units(&task, units * p / parts, units * (p + 1) / parts)
    });
}

/// Everything a run of units reads, and the three results they write at disjoint places.
pub struct Units<'a, 'b, T> {
    q: &'a [T],
    k: &'a [T],
    v: &'a [T],
    grad_out: &'a [T],
    dims: &'a Dims,
    opt: &'a Options<'a, T>,
    grad_q: &'b Disjoint<'a, T>,
    grad_k: &'b Disjoint<'a, T>,
    grad_v: &'b Disjoint<'a, T>,
}

/// Units `lo .. hi` with one set of buffers. Inlined into each `simd::Level`'s copy, so that the
/// glue around the products (the row statistics, P and dS) compiles to that level's registers.
#[inline(always)]
fn run_units<T: ExpSum + SmallProduct + HeadPath>(task: &Units<T>, lo: usize, hi: usize) {
    let Dims {
        n,
        m,
        d_k,
        d_v,
        group,
        ..
    } = *task.dims;
    let (q_len, k_len, v_len) = (group * n * d_k, m * d_k, m * d_v);
    let mut scratch = Scratch::new(task.dims);
    let mut head = HeadScratch::default();
    let io = Inputs {
        q: task.q,
        k: task.k,
        v: task.v,
        dims: task.dims,
        opt: task.opt,
    };
    for u in lo..hi {
        // SAFETY: unit u alone writes query heads u·g … u·g + g − 1 of grad_q and key/value
        // head u of grad_k and grad_v, and only the run that holds u runs it.
        let (gq_u, gk_u, gv_u) = unsafe {
            (
                task.grad_q.part(u * q_len, q_len),
                task.grad_k.part(u * k_len, k_len),
                task.grad_v.part(u * v_len, v_len),
            )
        };
        if T::head_backward(
            &io,
            task.grad_out,
            u,
            (&mut *gq_u, &mut *gk_u, &mut *gv_u),
            &mut head,
        ) {
            continue;
        }
        unit(
            task.q,
            task.k,
            task.v,
            task.grad_out,
            task.dims,
            task.opt,
            u,
            gq_u,
            gk_u,
            gv_u,
            &mut scratch,
        );
    }
}

/// `attention_backward`'s runs of units for each element type: float32 through a copy of
/// `run_units` compiled for the CPU's `simd::Level`, float64 through the plain one.
pub trait AttentionGrad: ExpSum + SmallProduct + HeadPath {
    fn backward_units(task: &Units<Self>, lo: usize, hi: usize) {
        run_units(task, lo, hi)
    }
}

impl AttentionGrad for f64 {}

impl AttentionGrad for f32 {
    fn backward_units(task: &Units<f32>, lo: usize, hi: usize) {
        static CHOSEN: OnceLock<UnitsBody> = OnceLock::new();
        simd::pick(&CHOSEN, units_variant)(task, lo, hi)
    }
}

type UnitsBody = fn(&Units<f32>, usize, usize);

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
unsafe fn run_units_avx512(task: &Units<f32>, lo: usize, hi: usize) {
    run_units(task, lo, hi)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn run_units_avx2(task: &Units<f32>, lo: usize, hi: usize) {
    run_units(task, lo, hi)
}

/// The float32 runs for a level this CPU supports.
fn units_variant(cpu: Supported) -> UnitsBody {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX-512F (with AVX2 and FMA), the features this copy was
        // compiled for.
        Level::Avx512 => |t, lo, hi| unsafe { run_units_avx512(t, lo, hi) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 and FMA, the features this copy was compiled for.
        Level::Avx2Fma => |t, lo, hi| unsafe { run_units_avx2(t, lo, hi) },
        _ => run_units::<f32>,
    }
}

/// Parts a thread of `attention_backward` (runs of whole units), so that a thread slowed by
/// another process leaves some of its share to the others.
const PARTS_PER_THREAD: usize = 4;

/// What the first pass found for one query row.
#[derive(Clone, Copy)]
enum RowKind<T> {
    /// Attends to something: the log-sum-exp of its scores and D = Σ_j P_ij dP_ij (= dO · Z).
    Live { lse: T, d: T },
    /// Every score −inf: zero gradients, no contribution.
    Dead,
    /// A NaN or +inf score: a NaN softmax row.
    Poisoned,
}

/// Per-row state of the online softmax (as in `attention`).
#[derive(Clone, Copy)]
struct RowState<T> {
    max: T,
    sum: T,
    /// Σ_j exp(S_ij − max) dP_ij, rescaled with `sum`, in float64.
    d_sum: f64,
    poisoned: bool,
}

/// The buffers of one task.
struct Scratch<T> {
    /// The block's queries, C order [rows, d_k].
    q: Vec<T>,
    /// The block's grad_out rows, C order [rows, d_v].
    d_o: Vec<T>,
    /// The block's tiles of S and of dP from the first pass, for the second (`CACHE_MAX`);
    /// empty when they do not fit.
    cache: Vec<T>,
    /// A tile of scores, then of P: [rows, cols].
    s: Vec<T>,
    /// A tile of dP, then of dS: [rows, cols].
    dp: Vec<T>,
    /// A transposed tile (Pᵀ, then dSᵀ): [cols, rows].
    t: Vec<T>,
    state: Vec<RowState<T>>,
    kinds: Vec<RowKind<T>>,
    /// A tile of keys or values transposed, for the small products (`linalg::small`).
    bt: Vec<T>,
}

impl<T: Real> Scratch<T> {
    fn new(dims: &Dims) -> Self {
        let rows = dims.n.min(BLOCK_Q);
        let cols = dims.m.min(BLOCK_K);
        Scratch {
            q: vec![T::zero(); rows * dims.d_k],
            d_o: vec![T::zero(); rows * dims.d_v],
            cache: if (2 * rows).saturating_mul(dims.m) <= CACHE_MAX {
                vec![T::zero(); 2 * rows * dims.m]
            } else {
                Vec::new()
            },
            s: vec![T::zero(); rows * cols],
            dp: vec![T::zero(); rows * cols],
            t: vec![T::zero(); rows * cols],
            state: Vec::with_capacity(rows),
            kinds: Vec::with_capacity(rows),
            bt: Vec::with_capacity(cols * dims.d_k.max(dims.d_v)),
        }
    }
}

/// The largest key index whose key or value row holds a NaN or ±inf, for key/value head `kv`.
#[inline(always)]
fn last_non_finite_key<T: Real>(k: &[T], v: &[T], dims: &Dims, kv: usize) -> Option<usize> {
    let b = kv * dims.group; // a query head that reads it
                             // The common case, every key and value finite, in one pass over the head's rows.
    if dims.keys(k, b, 0, dims.m).all_finite() && dims.values(v, b, 0, dims.m).all_finite() {
        return None;
    }
    (0..dims.m)
        .rev()
        .find(|&j| !dims.keys(k, b, j, 1).all_finite() || !dims.values(v, b, j, 1).all_finite())
}

/// Task `u`: key/value head u and the g query heads that read it.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn unit<T: ExpSum + SmallProduct>(
    q: &[T],
    k: &[T],
    v: &[T],
    grad_out: &[T],
    dims: &Dims,
    opt: &Options<T>,
    u: usize,
    grad_q: &mut [T],
    grad_k: &mut [T],
    grad_v: &mut [T],
    scratch: &mut Scratch<T>,
) {
    grad_k.fill(T::zero());
    grad_v.fill(T::zero());
    let Dims {
        n, d_k, d_v, group, ..
    } = *dims;
    if n == 0 {
        return;
    }
    let last_bad = if opt.causal {
        last_non_finite_key(k, v, dims, u)
    } else {
        None
    };
    for h in 0..group {
        let b = u * group + h;
        for i0 in (0..n).step_by(BLOCK_Q) {
            let rows = BLOCK_Q.min(n - i0);
            let gq = &mut grad_q[(h * n + i0) * d_k..(h * n + i0 + rows) * d_k];
            let d_o = &grad_out[(b * n + i0) * d_v..(b * n + i0 + rows) * d_v];
            let block = Block {
                b,
                i0,
                rows,
                last_bad,
            };
            block_backward(q, k, v, d_o, dims, opt, &block, gq, grad_k, grad_v, scratch);
        }
    }
}

/// One block of query rows of query head (batch index) `b`.
struct Block {
    b: usize,
    i0: usize,
    rows: usize,
    /// `last_non_finite_key` of its key/value head, when causal.
    last_bad: Option<usize>,
}

/// Both passes over one block: its rows of grad_q (`gq`, [rows, d_k]) are written, and its
/// contributions added to its head's `grad_k` [m, d_k] and `grad_v` [m, d_v].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn block_backward<T: ExpSum + SmallProduct>(
    q: &[T],
    k: &[T],
    v: &[T],
    d_o: &[T],
    dims: &Dims,
    opt: &Options<T>,
    block: &Block,
    gq: &mut [T],
    grad_k: &mut [T],
    grad_v: &mut [T],
    scratch: &mut Scratch<T>,
) {
    let Dims { m, d_k, d_v, .. } = *dims;
    let &Block {
        b,
        i0,
        rows,
        last_bad,
    } = block;
    let Scratch {
        q: q_c,
        d_o: do_c,
        cache,
        s,
        dp,
        t,
        state,
        kinds,
        bt,
    } = scratch;
    let q_c = &mut q_c[..rows * d_k];
    let do_c = &mut do_c[..rows * d_v];
    // The block's queries and grad_out rows, contiguous (a copy of rows × d values, small beside
    // the products that read them m / BLOCK_K times).
    let (q_src, _, _, q_stride) = dims.queries(q, b, i0, rows).parts();
    for (r, dst) in q_c.chunks_mut(d_k.max(1)).enumerate().take(rows) {
        dst.copy_from_slice(&q_src[r * q_stride..r * q_stride + d_k]);
    }
    do_c.copy_from_slice(d_o);

    // Keys the causal mask hides from every row of the block: skipped when finite values make
    // their terms exact zeros.
    let seen = i0 + rows;
    let mut end = m;
    if opt.causal
        && seen < m
        && last_bad.is_none_or(|j| j < seen)
        && all_finite(q_c)
        && all_finite(do_c)
    {
        end = seen;
    }

    // Pass 1: the row statistics as `attention` computes them, and D_i = Σ_j P_ij dP_ij alongside
    // (its terms rescaled with the sum), with the tiles of S and dP kept in the cache when it
    // holds them.
    state.clear();
    state.resize(
        rows,
        RowState {
            max: T::neg_infinity(),
            sum: T::zero(),
            d_sum: 0.0,
            poisoned: false,
        },
    );
    let cached = cache.len() >= 2 * rows * end;
    let half = cache.len() / 2;
    let (cache_s, cache_dp) = cache.split_at_mut(half);
    // A row of one cached tile keeps exp(S − max) in the cache in place of S: its max is then
    // final, so pass 2 finds P by one multiplication instead of a second exponential.
    let one_tile = cached && end <= BLOCK_K;
    let q_blk = Mat::new(q_c, rows, d_k, d_k);
    let do_blk = Mat::new(do_c, rows, d_v, d_v);
    for j0 in (0..end).step_by(BLOCK_K) {
        let cols = BLOCK_K.min(end - j0);
        let (s_t, dp_t) = if cached {
            let at = rows * j0..rows * (j0 + cols);
            (&mut cache_s[at.clone()], &mut cache_dp[at])
        } else {
            (&mut s[..rows * cols], &mut dp[..rows * cols])
        };
        scores(q_blk, k, dims, opt, (b, i0, j0), s_t, bt);
        let values = dims.values(v, b, j0, cols);
        product_abt(do_blk, values, T::one(), dp_t, cols, false, bt);
        let e_buf = &mut t[..cols];
        for ((s_i, dp_i), st) in s_t
            .chunks_mut(cols)
            .zip(dp_t.chunks(cols))
            .zip(state.iter_mut())
        {
            let (tile_max, nan) = max_and_nan(s_i);
            if nan || tile_max == T::infinity() {
                st.poisoned = true;
            }
            if st.poisoned || tile_max == T::neg_infinity() {
                continue; // this row takes nothing from this tile
            }
            let new_max = if tile_max > st.max { tile_max } else { st.max };
            let correction = (st.max - new_max).exp(); // exp(−inf) = 0 on the row's first tile
            let e = if one_tile {
                s_i
            } else {
                e_buf.copy_from_slice(s_i);
                &mut *e_buf
            };
            let tile_sum = T::exp_sub_sum(e, new_max); // e ← exp(s − new_max)
            let tile_d = dot_f64(e, dp_i);
            st.sum = st.sum * correction + tile_sum;
            st.d_sum = st.d_sum * correction.to_f64().unwrap_or(f64::NAN) + tile_d;
            st.max = new_max;
        }
    }
    kinds.clear();
    let mut poisoned = false;
    for st in state.iter() {
        kinds.push(if st.poisoned {
            poisoned = true;
            RowKind::Poisoned
        } else if st.sum == T::zero() {
            RowKind::Dead
        } else {
            RowKind::Live {
                lse: st.max + st.sum.ln(),
                d: T::from_f64_lossy(st.d_sum / st.sum.to_f64().unwrap_or(f64::NAN)),
            }
        });
    }
    // A dead row adds nothing to dK, dV: its queries and grad_out rows become zeros (its dS and
    // P rows are zeros too), so even an infinite one gives 0, not 0 · inf = NaN.
    for (r, kind) in kinds.iter().enumerate() {
        if matches!(kind, RowKind::Dead) {
            q_c[r * d_k..(r + 1) * d_k].fill(T::zero());
            do_c[r * d_v..(r + 1) * d_v].fill(T::zero());
        }
    }
    // A NaN softmax row is NaN at the hidden keys too: none may be skipped then (and the tiles
    // then differ from the first pass's: recomputed, not cached).
    let cached = cached && !(poisoned && end < m);
    let one_tile = one_tile && cached;
    if poisoned {
        end = m;
    }

    // Pass 2: per tile, P, dP and dS, and their products.
    gq.fill(T::zero());
    let q_blk = Mat::new(q_c, rows, d_k, d_k);
    let do_blk = Mat::new(do_c, rows, d_v, d_v);
    for j0 in (0..end).step_by(BLOCK_K) {
        let cols = BLOCK_K.min(end - j0);
        let t = &mut t[..rows * cols];
        let (s_t, dp_t) = if cached {
            let at = rows * j0..rows * (j0 + cols);
            (&mut cache_s[at.clone()], &mut cache_dp[at])
        } else {
            let (s_t, dp_t) = (&mut s[..rows * cols], &mut dp[..rows * cols]);
            scores(q_blk, k, dims, opt, (b, i0, j0), s_t, bt);
            let values = dims.values(v, b, j0, cols);
            product_abt(do_blk, values, T::one(), dp_t, cols, false, bt);
            (s_t, dp_t)
        };
        // P = exp(S − L), or exp(S − max) / sum where pass 1 left exp(S − max)
        for ((p, kind), st) in s_t.chunks_mut(cols).zip(kinds.iter()).zip(state.iter()) {
            match *kind {
                RowKind::Live { .. } if one_tile => {
                    let inv = T::one() / st.sum;
                    p.iter_mut().for_each(|x| *x = *x * inv);
                }
                RowKind::Live { lse, .. } => {
                    T::exp_sub_sum(p, lse);
                }
                RowKind::Dead => p.fill(T::zero()),
                RowKind::Poisoned => p.fill(T::nan()),
            }
        }
        // dV[j0 ..] += Pᵀ dO
        T::transpose_into(Mat::new(s_t, rows, cols, cols), t);
        let gv = &mut grad_v[j0 * d_v..(j0 + cols) * d_v];
        product_ab(
            Mat::new(t, cols, rows, rows),
            do_blk,
            T::one(),
            gv,
            d_v,
            true,
        );
        // dS = P ∘ (dP − D), in dP's place
        for ((ds, p), kind) in dp_t
            .chunks_mut(cols)
            .zip(s_t.chunks(cols))
            .zip(kinds.iter())
        {
            match *kind {
                RowKind::Live { d, .. } => {
                    for (x, &p) in ds.iter_mut().zip(p) {
                        *x = p * (*x - d);
                    }
                }
                RowKind::Dead => ds.fill(T::zero()),
                RowKind::Poisoned => ds.fill(T::nan()),
            }
        }
        // dQ += scale · dS K_tile
        let keys = dims.keys(k, b, j0, cols);
        product_ab(
            Mat::new(dp_t, rows, cols, cols),
            keys,
            opt.scale,
            gq,
            d_k,
            true,
        );
        // dK[j0 ..] += scale · dSᵀ Q
        T::transpose_into(Mat::new(dp_t, rows, cols, cols), t);
        let gk = &mut grad_k[j0 * d_k..(j0 + cols) * d_k];
        product_ab(
            Mat::new(t, cols, rows, rows),
            q_blk,
            opt.scale,
            gk,
            d_k,
            true,
        );
    }
    for (g, kind) in gq.chunks_mut(d_k.max(1)).zip(kinds.iter()) {
        if matches!(kind, RowKind::Dead) {
            g.fill(T::zero());
        }
    }
}

/// The tile S = Q_blk K_tileᵀ · scale (+ mask, causal) of keys j0 … j0 + cols − 1 into `s`.
#[inline(always)]
fn scores<T: SmallProduct>(
    q_blk: Mat<T>,
    k: &[T],
    dims: &Dims,
    opt: &Options<T>,
    (b, i0, j0): (usize, usize, usize),
    s: &mut [T],
    bt: &mut Vec<T>,
) {
    let cols = s.len().checked_div(q_blk.rows()).unwrap_or(0);
    let keys = dims.keys(k, b, j0, cols);
    product_abt(q_blk, keys, opt.scale, s, cols, false, bt);
    if opt.mask.is_some() || opt.causal {
        mask_tile(s, b, i0, j0, cols, opt);
    }
}

/// Σ a_i · b_i, each product rounded in T and summed in float64 in 8 partial sums (a single
/// running sum is a serial chain the compiler may not reorder).
#[inline(always)]
fn dot_f64<T: Real>(a: &[T], b: &[T]) -> f64 {
    const L: usize = 8;
    let mut acc = [0.0f64; L];
    let (mut a_s, mut b_s) = (a.chunks_exact(L), b.chunks_exact(L));
    for (x, y) in (&mut a_s).zip(&mut b_s) {
        for l in 0..L {
            acc[l] += (x[l] * y[l]).to_f64().unwrap_or(f64::NAN);
        }
    }
    let mut sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (&x, &y) in a_s.remainder().iter().zip(b_s.remainder()) {
        sum += (x * y).to_f64().unwrap_or(f64::NAN);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::attention_inputs::check_shapes;
    use crate::test_support::lcg;

    /// Every level's float32 runs of units give the plain copy's bits: the lanes compile to
    /// other registers, every sum keeps its order.
    #[test]
    fn every_simd_variant_of_the_backward_units_matches_the_plain_one() {
        // (q's shape, k's and v's shape, causal): one tile, several tiles, grouped heads, each
        // too big for `attention_head`'s whole heads (more than 128 keys or queries).
        let cases: [(&[usize], &[usize], bool); 3] = [
            (&[6, 37, 16], &[6, 170, 16], true),
            (&[2, 5, 8], &[2, 150, 8], false),
            (&[4, 130, 4], &[2, 130, 4], true),
        ];
        for (q_shape, kv_shape, causal) in cases {
            let dims = check_shapes(q_shape, kv_shape, Some(kv_shape)).unwrap();
            let f32s = |seed: u64, len: usize| -> Vec<f32> {
                lcg(seed, len).iter().map(|&v| (2.0 * v) as f32).collect()
            };
            let len = |s: &[usize]| s.iter().product::<usize>();
            let (q, k, v) = (
                f32s(1, len(q_shape)),
                f32s(2, len(kv_shape)),
                f32s(3, len(kv_shape)),
            );
            let grad_out = f32s(4, len(q_shape));
            let opt = Options {
                mask: None,
                causal,
                scale: 0.25,
            };
            let units = dims.batch / dims.group;
            let run = |body: UnitsBody| {
                let mut out = (
                    vec![0.0f32; q.len()],
                    vec![0.0f32; k.len()],
                    vec![0.0f32; v.len()],
                );
                let (gq, gk, gv) = (
                    Disjoint::new(&mut out.0),
                    Disjoint::new(&mut out.1),
                    Disjoint::new(&mut out.2),
                );
                let task = Units {
                    q: &q,
                    k: &k,
                    v: &v,
                    grad_out: &grad_out,
                    dims: &dims,
                    opt: &opt,
                    grad_q: &gq,
                    grad_k: &gk,
                    grad_v: &gv,
                };
                body(&task, 0, units);
                out
            };
            let want = run(run_units::<f32>);
            for cpu in Supported::all() {
                assert_eq!(
                    run(units_variant(cpu)),
                    want,
                    "{:?}, q {q_shape:?}",
                    cpu.level()
                );
            }
        }
    }
}
