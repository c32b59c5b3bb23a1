//! Scaled dot-product attention: Z = softmax(Q Kᵀ · scale + mask) V.
//!
//! Shapes (after the binding has flattened the leading dimensions into one `batch`):
//! q [batch, n, d_k], k [batch / g, m, d_k], v [batch / g, m, d_v] → z [batch, n, d_v],
//! weights [batch, n, m], where g = 1 unless the heads are grouped.
//!
//! Grouped-query attention: q [..., h, n, d_k] with k, v [..., h_kv, m, d] and h = g · h_kv. Query
//! head j reads key/value head j / g (as llama.cpp and Hugging Face's `repeat_kv` do); flattened,
//! q's batch index b reads k's and v's batch index b / g, so the shared heads are never copied.
//!
//! `attention` is tiled in the manner of FlashAttention: a task takes a block of query rows, walks
//! the keys a tile at a time, and keeps for each row a running maximum m_i, a running sum l_i and
//! an unnormalised output o_i (the "online softmax"):
//!
//!   S = Q_blk K_tileᵀ · scale (+ mask)            one matrix product per tile
//!   m' = max(m, rowmax S);  P = exp(S − m')      the vectorised exp
//!   l = l·exp(m − m') + rowsum P;  o = o·exp(m − m') + P V_tile
//!   z = o / l                                     at the end
//!
//! so scores never exist as an n×m matrix (a task holds BLOCK_Q × BLOCK_K of them) and the
//! products run through a fast GEMM, or for a few query rows (a generated token) through the
//! dots of `skinny`. Tasks are (batch, query block) pairs spread over the pool, or the team for
//! calls of microseconds; each is computed in a fixed order, so results are identical for any
//! number of threads. The tests hold the kernels to a readable row-by-row reference (in `tests`,
//! not shipped).
//!
//! A float32 head of at most 128 queries and keys and 64 values a row without a mask (the
//! learner's heads, MiniLM's in `embed` of unpadded texts of up to 128 tokens) is computed whole
//! instead, by `attention_head`, when its inputs are finite and its scores cannot overflow: at
//! that size the tiles' copies and calls cost more than the arithmetic. A forward with at most
//! `FEW_QUERIES` query rows (a generated token) keeps the tiles' few-row dots where the CPU has
//! them.

use rayon::prelude::*;

use crate::kernels::attention_head::{HeadPath, HeadScratch, Inputs, HEAD_MAX_LEN};
use crate::kernels::attention_inputs::{mask_tile, Dims, Options};
use crate::kernels::softmax::{max_and_nan, softmax_in_place};
use crate::linalg::mat::Mat;
use crate::linalg::matmul::{matmul_ab, matmul_abt};
use crate::linalg::skinny::FewRows;
use crate::linalg::small::{product_ab, product_abt, SmallProduct};
use crate::real::Real;
use crate::runtime::threads::{
    for_each_part, in_pool, num_threads, Disjoint, PARALLEL_MIN_WORK, TEAM_MIN_WORK,
};
use crate::simd::exp::ExpSum;

/// Multiply-adds of one `attention` call (scores, exponentials, weighted sum), saturating.
pub fn attention_work(dims: &Dims) -> usize {
    dims.batch
        .saturating_mul(dims.n.saturating_mul(dims.m))
        .saturating_mul(dims.d_k + dims.d_v + 1)
}

/// Query rows per task: with BLOCK_K keys per tile, a 128 × 256 score tile (128 KB of float32) and
/// the matching K and V tiles stay within a core's L2 cache for d_k up to a few hundred, and 128
/// rows give gemm fewer, larger products than 64 would (docs/performance.md).
const BLOCK_Q: usize = 128;
// A head is taken whole only as one task: all its query rows in one block.
const _: () = assert!(HEAD_MAX_LEN <= BLOCK_Q);

/// Keys per tile.
const BLOCK_K: usize = 256;

/// Per-row state of the online softmax.
#[derive(Clone, Copy)]
struct RowState<T> {
    max: T,
    sum: T,
    /// A NaN or +inf score: the row's output is NaN whatever else happens.
    poisoned: bool,
}

/// Scratch of one task, reused across the tasks a rayon worker (or the calling thread) runs.
struct Scratch<T> {
    scores: Vec<T>,
    rows: Vec<RowState<T>>,
    /// A tile of keys transposed, for the small products (`linalg::small`).
    bt: Vec<T>,
    /// The buffers of a small head taken whole (`attention_head`).
    head: HeadScratch,
}

impl<T: Real> Scratch<T> {
    /// Room for one tile of a call with n query rows and m keys: a generated token's (n = 1) is
    /// 1 × m, so that its calls do not zero a full tile's 128 KB (and fault its pages in).
    fn new(n: usize, m: usize) -> Self {
        let rows = n.min(BLOCK_Q);
        Scratch {
            scores: vec![T::zero(); rows * m.min(BLOCK_K)],
            rows: Vec::with_capacity(rows),
            bt: Vec::new(),
            head: HeadScratch::default(),
        }
    }
}

/// One task of `attention`: query rows i0..i0+rows of batch b into `z` ([rows, d_v]).
#[allow(clippy::too_many_arguments)]
fn attention_block<T: ExpSum + FewRows + SmallProduct + HeadPath>(
    q: &[T],
    k: &[T],
    v: &[T],
    dims: &Dims,
    opt: &Options<T>,
    b: usize,
    i0: usize,
    z: &mut [T],
    scratch: &mut Scratch<T>,
) {
    let Dims { m, d_v, .. } = *dims;
    let rows = z.len() / d_v;
    if i0 == 0 && rows == dims.n {
        let io = Inputs { q, k, v, dims, opt };
        if T::head_forward(&io, b, z, &mut scratch.head) {
            return;
        }
    }
    let q_blk = dims.queries(q, b, i0, rows);
    z.fill(T::zero());
    let state = &mut scratch.rows;
    state.clear();
    state.resize(
        rows,
        RowState {
            max: T::neg_infinity(),
            sum: T::zero(),
            poisoned: false,
        },
    );

    // With the causal mask no row of this block sees a key after its last query: those keys'
    // weights are 0, so they are not computed — unless a value there is NaN or ±inf, which the
    // plain formula Σ_j a_ij v_j turns into NaN (0 · NaN), as the other backends do. (Cutting the
    // tiles there, not only skipping whole tiles past it, saves a quarter of a 357-token prompt's
    // causal scores.)
    let seen = i0 + rows; // keys 0 … i0 + rows − 1
    let end = if opt.causal && seen < m && dims.values(v, b, seen, m - seen).all_finite() {
        seen
    } else {
        m
    };
    for j0 in (0..end).step_by(BLOCK_K) {
        let cols = BLOCK_K.min(end - j0);
        let s = &mut scratch.scores[..rows * cols];
        // S = Q_blk · K_tileᵀ · scale   (rows × cols); a generated token's few rows by dot
        // products straight over the keys (`skinny`), not through gemm's packing.
        let keys = dims.keys(k, b, j0, cols);
        if !T::few_rows_scores(q_blk, keys, opt.scale, s) {
            product_abt(q_blk, keys, opt.scale, s, cols, false, &mut scratch.bt);
        }
        if opt.mask.is_some() || opt.causal {
            mask_tile(s, b, i0, j0, cols, opt);
        }
        for ((p, st), z_i) in s
            .chunks_mut(cols)
            .zip(state.iter_mut())
            .zip(z.chunks_mut(d_v))
        {
            let (tile_max, nan) = max_and_nan(p);
            if nan || tile_max == T::infinity() {
                st.poisoned = true;
            }
            if st.poisoned || tile_max == T::neg_infinity() {
                p.fill(T::zero()); // this row takes nothing from this tile
                continue;
            }
            let new_max = if tile_max > st.max { tile_max } else { st.max };
            let correction = (st.max - new_max).exp(); // exp(−inf) = 0 on the row's first tile
            let tile_sum = T::exp_sub_sum(p, new_max); // p ← exp(s − new_max)
            st.sum = st.sum * correction + tile_sum;
            st.max = new_max;
            if correction != T::one() {
                z_i.iter_mut().for_each(|x| *x = *x * correction);
            }
        }
        // O += P · V_tile   (rows × d_v), likewise
        let p = &scratch.scores[..rows * cols];
        let values = dims.values(v, b, j0, cols);
        if !T::few_rows_accumulate(p, values, z) {
            product_ab(
                Mat::new(p, rows, cols, cols),
                values,
                T::one(),
                z,
                d_v,
                true,
            );
        }
    }
    for (st, z_i) in state.iter().zip(z.chunks_mut(d_v)) {
        if st.poisoned {
            z_i.fill(T::nan());
        } else if st.sum == T::zero() {
            z_i.fill(T::zero()); // nothing to attend to
        } else {
            let inv = T::one() / st.sum;
            z_i.iter_mut().for_each(|x| *x = *x * inv);
        }
    }
}

/// One task of `attention_weights`: rows i0.. of batch b into `a` ([rows, m], rows ≤ BLOCK_Q).
/// Returns, per row, whether it attends to anything (false: all its weights are 0).
fn weights_block<T: ExpSum>(
    q: &[T],
    k: &[T],
    dims: &Dims,
    opt: &Options<T>,
    b: usize,
    i0: usize,
    a: &mut [T],
) -> [bool; BLOCK_Q] {
    let m = dims.m;
    let rows = a.len() / m;
    matmul_abt(
        dims.queries(q, b, i0, rows),
        dims.keys(k, b, 0, m),
        opt.scale,
        a,
        m,
        false,
    );
    if opt.mask.is_some() || opt.causal {
        mask_tile(a, b, i0, 0, m, opt);
    }
    let mut attends = [false; BLOCK_Q];
    for (row, live) in a.chunks_mut(m).zip(attends.iter_mut()) {
        *live = softmax_in_place(row);
    }
    attends
}

/// One task of `attention_with_weights`: the weights of rows i0.. of batch b into `a`
/// ([rows, m]), then z ([rows, d_v]) = a · v_b by one matrix product.
#[allow(clippy::too_many_arguments)]
fn weights_and_output_block<T: ExpSum>(
    q: &[T],
    k: &[T],
    v: &[T],
    dims: &Dims,
    opt: &Options<T>,
    b: usize,
    i0: usize,
    a: &mut [T],
    z: &mut [T],
) {
    let Dims { m, d_v, .. } = *dims;
    let rows = a.len() / m;
    let attends = weights_block(q, k, dims, opt, b, i0, a);
    matmul_ab(
        Mat::new(a, rows, m, m),
        dims.values(v, b, 0, m),
        T::one(),
        z,
        d_v,
        false,
    );
    for (z_i, &live) in z.chunks_mut(d_v).zip(&attends) {
        if !live {
            // A query with nothing to attend to outputs zeros (not 0·v, which is NaN for inf v).
            z_i.fill(T::zero());
        }
    }
}

/// Parts a thread of `for_each_block` on the team.
const TEAM_PARTS_PER_THREAD: usize = 4;

/// Split `out` ([batch, n, row_len]) into (batch, first query row, block of BLOCK_Q rows) tasks and
/// run them: across the pool when the call is big and on it; off the pool, over the low-latency
/// team (`threads::for_each_part`) from a generated token's size up (one query row per head against
/// a cache of a few hundred keys, a call of microseconds that still gains from a second thread when
/// the team wakes it; docs/performance.md); else one after another here. Each task gets scratch
/// with room for a tile of `keys` keys.
fn for_each_block<T, F>(out: &mut [T], n: usize, row_len: usize, keys: usize, work: usize, f: F)
where
    T: Real,
    F: Fn(usize, usize, &mut [T], &mut Scratch<T>) + Sync,
{
    if out.is_empty() || row_len == 0 || n == 0 {
        return;
    }
    let per_batch = n * row_len;
    if !in_pool() && work >= TEAM_MIN_WORK && num_threads() > 1 {
        let blocks = n.div_ceil(BLOCK_Q);
        let batch = out.len() / per_batch;
        let tasks = batch * blocks;
        // Runs of consecutive tasks, a few a thread, each with one scratch: many small heads (a
        // training batch's) take about as long each as allocating a scratch afresh.
        let parts = tasks.min(TEAM_PARTS_PER_THREAD * num_threads());
        let out = Disjoint::new(out);
        for_each_part(parts, work, &|p| {
            let mut scratch = Scratch::new(n, keys);
            for t in tasks * p / parts..tasks * (p + 1) / parts {
                let (b, i0) = (t / blocks, (t % blocks) * BLOCK_Q);
                let rows = BLOCK_Q.min(n - i0);
                // SAFETY: task t alone writes query rows i0 .. i0 + rows of batch b, and part p
                // alone runs task t.
                let o = unsafe { out.part(b * per_batch + i0 * row_len, rows * row_len) };
                f(b, i0, o, &mut scratch);
            }
        });
    } else if work < PARALLEL_MIN_WORK || !in_pool() {
        let mut scratch = Scratch::new(n, keys);
        for (b, out_b) in out.chunks_mut(per_batch).enumerate() {
            for (blk, o) in out_b.chunks_mut(BLOCK_Q * row_len).enumerate() {
                f(b, blk * BLOCK_Q, o, &mut scratch);
            }
        }
    } else {
        out.par_chunks_mut(per_batch)
            .enumerate()
            .for_each(|(b, out_b)| {
                out_b
                    .par_chunks_mut(BLOCK_Q * row_len)
                    .enumerate()
                    .for_each_init(
                        || Scratch::new(n, keys),
                        |scratch, (blk, o)| f(b, blk * BLOCK_Q, o, scratch),
                    );
            });
    }
}

/// `for_each_block` over two outputs split alike: `a` ([batch, n, a_len]) and `z`
/// ([batch, n, z_len]), both row lengths non-zero; `f(b, i0, a_block, z_block)`.
#[allow(clippy::too_many_arguments)]
fn for_each_block_pair<T, F>(
    a: &mut [T],
    a_len: usize,
    z: &mut [T],
    z_len: usize,
    n: usize,
    work: usize,
    f: F,
) where
    T: Real,
    F: Fn(usize, usize, &mut [T], &mut [T]) + Sync,
{
    if a.is_empty() || z.is_empty() || a_len == 0 || z_len == 0 || n == 0 {
        return;
    }
    let (a_batch, z_batch) = (n * a_len, n * z_len);
    let (a_block, z_block) = (BLOCK_Q * a_len, BLOCK_Q * z_len);
    if work < PARALLEL_MIN_WORK || !in_pool() {
        for (b, (a_b, z_b)) in a.chunks_mut(a_batch).zip(z.chunks_mut(z_batch)).enumerate() {
            for (blk, (a_k, z_k)) in a_b
                .chunks_mut(a_block)
                .zip(z_b.chunks_mut(z_block))
                .enumerate()
            {
                f(b, blk * BLOCK_Q, a_k, z_k);
            }
        }
    } else {
        a.par_chunks_mut(a_batch)
            .zip(z.par_chunks_mut(z_batch))
            .enumerate()
            .for_each(|(b, (a_b, z_b))| {
                a_b.par_chunks_mut(a_block)
                    .zip(z_b.par_chunks_mut(z_block))
                    .enumerate()
                    .for_each(|(blk, (a_k, z_k))| f(b, blk * BLOCK_Q, a_k, z_k));
            });
    }
}

/// z [batch, n, d_v] = softmax(q kᵀ·scale + mask) v, tiled (see the module's documentation).
pub fn attention<T: ExpSum + FewRows + SmallProduct + HeadPath>(
    q: &[T],
    k: &[T],
    v: &[T],
    dims: &Dims,
    opt: &Options<T>,
    out: &mut [T],
) {
    debug_assert_eq!(out.len(), dims.batch * dims.n * dims.d_v);
    for_each_block(
        out,
        dims.n,
        dims.d_v,
        dims.m,
        attention_work(dims),
        |b, i0, z, scratch| attention_block(q, k, v, dims, opt, b, i0, z, scratch),
    );
}

/// weights [batch, n, m] = softmax(q kᵀ·scale + mask): the scores of a block of rows by one
/// matrix product, then a softmax per row.
pub fn attention_weights<T: ExpSum>(
    q: &[T],
    k: &[T],
    dims: &Dims,
    opt: &Options<T>,
    out: &mut [T],
) {
    debug_assert_eq!(out.len(), dims.batch * dims.n * dims.m);
    // No scratch (0 keys' room): each block's scores are its rows of `out`.
    for_each_block(
        out,
        dims.n,
        dims.m,
        0,
        attention_work(dims),
        |b, i0, a, _| {
            weights_block(q, k, dims, opt, b, i0, a);
        },
    );
}

/// Both results of one computation: the weights [batch, n, m] as `attention_weights` computes them
/// (bit for bit), and z [batch, n, d_v] = weights · v, one matrix product per block of rows. QKᵀ
/// and the softmax run once, where calling `attention` and `attention_weights` runs them twice.
pub fn attention_with_weights<T: ExpSum>(
    q: &[T],
    k: &[T],
    v: &[T],
    dims: &Dims,
    opt: &Options<T>,
    z: &mut [T],
    weights: &mut [T],
) {
    debug_assert_eq!(z.len(), dims.batch * dims.n * dims.d_v);
    debug_assert_eq!(weights.len(), dims.batch * dims.n * dims.m);
    if dims.m == 0 {
        z.fill(T::zero()); // no key to attend to
        return;
    }
    if dims.d_v == 0 {
        attention_weights(q, k, dims, opt, weights);
        return;
    }
    for_each_block_pair(
        weights,
        dims.m,
        z,
        dims.d_v,
        dims.n,
        attention_work(dims),
        |b, i0, a, z| weights_and_output_block(q, k, v, dims, opt, b, i0, a, z),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::attention_inputs::{check_shapes, Mask, MaskLayout, MaskValues};
    use crate::test_support::{close, lcg};

    fn dot<T: Real>(a: &[T], b: &[T]) -> T {
        a.iter().zip(b).fold(T::zero(), |acc, (&x, &y)| acc + x * y)
    }

    /// Scores of query row `i` of batch `b` against all m keys, one dot product each, by the
    /// rules of `mask_tile`.
    fn score_row<T: Real>(q_i: &[T], k_b: &[T], b: usize, i: usize, opt: &Options<T>) -> Vec<T> {
        let d_k = q_i.len();
        let m = k_b.len().checked_div(d_k).unwrap_or(0);
        (0..m)
            .map(|j| {
                let mut s = dot(q_i, &k_b[j * d_k..(j + 1) * d_k]) * opt.scale;
                if let Some(mask) = &opt.mask {
                    let layout = &mask.layout;
                    let at = layout.offset(b) + i * layout.row_stride + j * layout.col_stride;
                    s = match mask.values {
                        MaskValues::Add(add) => s + add[at],
                        MaskValues::Allow(allow) if !allow[at] => s + T::neg_infinity(),
                        MaskValues::Allow(_) => s,
                    };
                }
                if opt.causal && j > i {
                    T::neg_infinity()
                } else {
                    s
                }
            })
            .collect()
    }

    /// The plain reference of both kernels: one query row at a time, then Σ_j a_ij v_j.
    fn reference<T: ExpSum>(
        q: &[T],
        k: &[T],
        v: &[T],
        dims: &Dims,
        opt: &Options<T>,
    ) -> (Vec<T>, Vec<T>) {
        let Dims { n, m, d_k, d_v, .. } = *dims;
        let (mut z, mut w) = (Vec::new(), Vec::new());
        for r in 0..dims.batch * n {
            let (b, i) = (r / n, r % n);
            let mut a = score_row(
                &q[r * d_k..(r + 1) * d_k],
                &k[dims.kv(b) * m * d_k..(dims.kv(b) + 1) * m * d_k],
                b,
                i,
                opt,
            );
            let attends = softmax_in_place(&mut a);
            for t in 0..d_v {
                // A query with nothing to attend to outputs zeros (not 0·v, NaN for inf v).
                let sum = (0..m).fold(T::zero(), |acc, j| {
                    acc + a[j] * v[(dims.kv(b) * m + j) * d_v + t]
                });
                z.push(if attends { sum } else { T::zero() });
            }
            w.extend(a);
        }
        (z, w)
    }

    /// The tiled kernels against the reference, at sizes that reach every path: several key
    /// tiles with a remainder, query blocks with a remainder, causal tiles skipped and cut, masks
    /// broadcast, rows fully masked, NaN and +inf scores, float32 and float64, 1 and 3 threads.
    #[test]
    fn tiled_kernels_equal_the_reference_on_every_path() {
        fn check<T: ExpSum + FewRows + SmallProduct + HeadPath>(tol: f64) {
            for &(batch, n, m, d_k, d_v) in &[
                (1, 1, 1, 1, 1),
                (2, 65, 257, 8, 5),
                (1, 130, 600, 33, 17),
                (3, 64, 512, 64, 64),
                (1, 200, 3, 4, 2),
                // A few query rows (skinny's dots instead of gemm): keys over several tiles,
                // d_v past one 64-column register block, d_k past the SIMD lanes.
                (2, 3, 600, 64, 70),
                (9, 1, 300, 33, 64),
                (1, 4, 256, 16, 8),
            ] {
                let dims = check_shapes(&[batch, n, d_k], &[batch, m, d_k], Some(&[batch, m, d_v]))
                    .unwrap();
                let conv = |v: Vec<f64>| v.into_iter().map(T::from_f64_lossy).collect::<Vec<T>>();
                let mut q = conv(lcg(20, batch * n * d_k).iter().map(|x| x * 3.0).collect());
                let k = conv(lcg(21, batch * m * d_k));
                let mut v = conv(lcg(22, batch * m * d_v));
                if n > 10 {
                    q[5 * d_k] = T::nan(); // row 5 of batch 0 becomes NaN
                }
                if n <= 4 && batch > 1 {
                    // Through the few-row dots: a NaN query (batch 0, row 0) and a NaN value in
                    // batch 1's last key (0 · NaN is NaN, as the plain formula gives).
                    q[0] = T::nan();
                    v[(2 * m - 1) * d_v] = T::nan();
                }
                let allow: Vec<bool> = (0..n * m).map(|x| (x / m) % 7 != 3 && x % 5 != 1).collect();
                let add = conv(
                    lcg(23, m)
                        .iter()
                        .map(|x| if *x > 0.9 { f64::NEG_INFINITY } else { *x })
                        .collect(),
                );
                let add_rows = conv(
                    lcg(24, n)
                        .iter()
                        .map(|x| if *x > 0.8 { f64::NEG_INFINITY } else { 2.0 * x })
                        .collect(),
                );
                let mask = |values, shape: &[usize]| Mask {
                    values,
                    layout: MaskLayout::new(shape, &dims).unwrap(),
                };
                let variants: Vec<(Option<Mask<T>>, bool)> = vec![
                    (None, false),
                    (None, true),
                    (Some(mask(MaskValues::Allow(&allow), &[n, m])), false),
                    (Some(mask(MaskValues::Add(&add), &[m])), true),
                    // One value per query row, broadcast along the keys (column stride 0).
                    (Some(mask(MaskValues::Allow(&allow[..n]), &[n, 1])), false),
                    (Some(mask(MaskValues::Add(&add_rows), &[n, 1])), false),
                ];
                for (mask, causal) in variants {
                    let opt = Options {
                        mask,
                        causal,
                        scale: T::from_f64_lossy(0.3),
                    };
                    let (want_z, want_w) = reference(&q, &k, &v, &dims, &opt);
                    for threads in [1, 3] {
                        crate::runtime::threads::set_num_threads(threads).unwrap();
                        let mut z = vec![T::zero(); batch * n * d_v];
                        let mut w = vec![T::zero(); batch * n * m];
                        let (mut z2, mut w2) = (vec![T::nan(); z.len()], vec![T::nan(); w.len()]);
                        crate::runtime::threads::run(usize::MAX, || {
                            attention(&q, &k, &v, &dims, &opt, &mut z);
                            attention_weights(&q, &k, &dims, &opt, &mut w);
                            attention_with_weights(&q, &k, &v, &dims, &opt, &mut z2, &mut w2);
                        })
                        .unwrap();
                        // Outside the pool, as the binding runs calls under its parallel
                        // threshold: calls of a generated token's size go to the team.
                        let mut z3 = vec![T::nan(); z.len()];
                        attention(&q, &k, &v, &dims, &opt, &mut z3);
                        let f =
                            |x: &[T]| x.iter().map(|v| v.to_f64().unwrap()).collect::<Vec<f64>>();
                        let what = format!(
                            "{dims:?} causal={causal} mask={} threads={threads}",
                            opt.mask.is_some()
                        );
                        assert!(close(&f(&z), &f(&want_z), tol), "z differs: {what}");
                        assert!(
                            close(&f(&z3), &f(&want_z), tol),
                            "z differs off the pool: {what}"
                        );
                        assert!(close(&f(&w), &f(&want_w), tol), "weights differ: {what}");
                        assert!(
                            close(&f(&z2), &f(&want_z), tol),
                            "with_weights z differs: {what}"
                        );
                        let same = w2
                            .iter()
                            .zip(&w)
                            .all(|(a, b)| a == b || (a.is_nan() && b.is_nan()));
                        assert!(same, "with_weights weights differ: {what}");
                    }
                }
            }
        }
        check::<f64>(1e-12);
        check::<f32>(2e-6);
    }
}
