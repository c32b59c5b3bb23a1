//! Skip-gram word2vec with negative sampling: minibatch SGD over (centre, context, negatives) rows.
//!
//! `E` (`table`, [V, d]) holds the input vectors, `U` (`output_table`, [V, d]) the output ones. A
//! row of `pairs` is `[c, o, n_1, …, n_k]`; its loss is
//! `softplus(−u_o·e_c) + Σ_j softplus(u_{n_j}·e_c)` (= −log σ(u_o·e_c) − Σ_j log σ(−u_{n_j}·e_c)).
//! Each step takes the next `batch` rows, computes every gradient from the vectors as they were
//! before the step, and then subtracts `lr` times the summed gradients — plain SGD on each pair, as
//! word2vec does, so a word that occurs twice in a batch gets both updates. The NumPy backend's
//! dense version and the pure-Python loops compute the same sums; only their order differs.
//!
//! One thread: the steps are sequential and each is far too small (128 pairs × 6 dot products of
//! d ≈ 16) to split.

use crate::error::{fmt_shape, CoreError, Result};
use crate::real::{Id, Real};

/// The sizes of one call, checked by `check_skipgram`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkipgramDims {
    pub vocab: usize,
    pub d: usize,
    pub pairs: usize,
    /// Columns of a row of `pairs`: the centre, the context, then k negatives.
    pub width: usize,
    pub batch: usize,
}

impl SkipgramDims {
    /// ⌈pairs / batch⌉: the number of SGD steps, one learning rate each.
    pub fn steps(&self) -> usize {
        self.pairs.div_ceil(self.batch)
    }
}

/// E39, E40, E41, E42 (in that order) on the shapes alone; `table_shape` is already 2-D (E7).
pub fn check_skipgram(
    table_shape: &[usize],
    output_shape: &[usize],
    pairs_shape: &[usize],
    rates_shape: &[usize],
    batch_size: i64,
) -> Result<SkipgramDims> {
    if output_shape != table_shape {
        return Err(CoreError::Value(format!(
            "output_table has shape {} and table has shape {}: they must have the same shape",
            fmt_shape(output_shape),
            fmt_shape(table_shape)
        )));
    }
    let (pairs, width) = match pairs_shape {
        [p, w] if *w >= 2 => (*p, *w),
        _ => {
            return Err(CoreError::Value(format!(
                "pairs must be 2-D [P, 2 + k] (centre, context, k negatives), got shape {}",
                fmt_shape(pairs_shape)
            )))
        }
    };
    if batch_size < 1 {
        return Err(CoreError::Value(format!(
            "batch_size must be at least 1, got {batch_size}"
        )));
    }
    let dims = SkipgramDims {
        vocab: table_shape[0],
        d: table_shape[1],
        pairs,
        width,
        batch: usize::try_from(batch_size).unwrap_or(usize::MAX),
    };
    if rates_shape != [dims.steps()] {
        return Err(CoreError::Value(format!(
            "learning_rates has shape {}; expected ({},): one rate per batch of {} of the {} pairs",
            fmt_shape(rates_shape),
            dims.steps(),
            batch_size,
            pairs
        )));
    }
    Ok(dims)
}

/// (softplus(x), σ(x)) = (log(1 + eˣ), 1 / (1 + e⁻ˣ)) without overflow, from one exp(−|x|).
fn softplus_sigmoid<T: Real>(x: T) -> (T, T) {
    let e = (-x.abs()).exp(); // in (0, 1]
    let softplus = x.max(T::zero()) + e.ln_1p();
    let sigmoid = if x >= T::zero() {
        T::one() / (T::one() + e)
    } else {
        e / (T::one() + e)
    };
    (softplus, sigmoid)
}

/// a · b with four running sums, so the compiler can keep them in one SIMD register (one sum
/// would chain every addition on the previous one).
fn dot<T: Real>(a: &[T], b: &[T]) -> T {
    let mut sums = [T::zero(); 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail = a4
        .remainder()
        .iter()
        .zip(b4.remainder())
        .fold(T::zero(), |s, (&x, &y)| s + x * y);
    for (x, y) in a4.zip(b4) {
        for i in 0..4 {
            sums[i] = sums[i] + x[i] * y[i];
        }
    }
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
}

/// Run every step in place on `table` (E) and `output` (U); `losses[s]` receives step s's summed
/// loss before its update. Ids must already be checked against the vocabulary (E6).
pub fn skipgram_sgd<T: Real, I: Id>(
    table: &mut [T],
    output: &mut [T],
    pairs: &[I],
    rates: &[T],
    dims: SkipgramDims,
    losses: &mut [T],
) {
    let SkipgramDims {
        d, width, batch, ..
    } = dims;
    let id = |x: I| -> usize { usize::try_from(x.into()).unwrap_or(0) };
    // Scratch for one step: the centres' vectors and gradients [batch, d], U's gradient [V, d]
    // with the rows it touched (so clearing it costs the batch, not the vocabulary).
    let mut e = vec![T::zero(); batch * d];
    let mut grad_e = vec![T::zero(); batch * d];
    let mut grad_u = vec![T::zero(); output.len()];
    let mut touched = vec![false; dims.vocab];
    let mut rows_touched: Vec<usize> = Vec::with_capacity(batch * (width - 1));
    for (step, chunk) in pairs.chunks(batch * width).enumerate() {
        let mut loss = T::zero();
        for (b, row) in chunk.chunks_exact(width).enumerate() {
            let c = id(row[0]);
            let e_b = &mut e[b * d..(b + 1) * d];
            e_b.copy_from_slice(&table[c * d..(c + 1) * d]);
            let g_b = &mut grad_e[b * d..(b + 1) * d];
            g_b.fill(T::zero());
            for (j, &target) in row[1..].iter().enumerate() {
                let t = id(target);
                let u_t = &output[t * d..(t + 1) * d];
                let s = dot(e_b, u_t);
                // the context (j = 0) is pulled in: ∂/∂s softplus(−s) = σ(s) − 1;
                // a negative is pushed away: ∂/∂s softplus(s) = σ(s)
                let (term, slope) = if j == 0 {
                    let (softplus, sigmoid) = softplus_sigmoid(-s);
                    (softplus, -sigmoid) // σ(s) − 1 = −σ(−s)
                } else {
                    softplus_sigmoid(s)
                };
                loss = loss + term;
                for (g, &u) in g_b.iter_mut().zip(u_t) {
                    *g = *g + slope * u;
                }
                for (g, &x) in grad_u[t * d..(t + 1) * d].iter_mut().zip(e_b.iter()) {
                    *g = *g + slope * x;
                }
                if !touched[t] {
                    touched[t] = true;
                    rows_touched.push(t);
                }
            }
        }
        let lr = rates[step];
        for (b, row) in chunk.chunks_exact(width).enumerate() {
            let c = id(row[0]);
            for (w, &g) in table[c * d..(c + 1) * d]
                .iter_mut()
                .zip(&grad_e[b * d..(b + 1) * d])
            {
                *w = *w - lr * g;
            }
        }
        for &t in &rows_touched {
            let g = &mut grad_u[t * d..(t + 1) * d];
            for (w, x) in output[t * d..(t + 1) * d].iter_mut().zip(g.iter_mut()) {
                *w = *w - lr * *x;
                *x = T::zero();
            }
            touched[t] = false;
        }
        rows_touched.clear();
        losses[step] = loss;
    }
}
