//! Cross-entropy over logits [N, C] and integer targets [N], as torch.nn.functional.cross_entropy
//! with `reduction="mean"`: loss = mean over counted rows (target ≠ ignore_index) of
//! logsumexp(row) − row[target]; grad = (softmax(row) − onehot(target)) / count on counted rows,
//! 0 on ignored ones. With no counted row the loss is NaN and the gradient all zeros.
//!
//! Rows go in parts of `ROWS_PER_PART` over the threads; each part's loss is summed in float64
//! in its own slot, and the slots are added in part order, so the loss does not depend on the
//! number of threads.

use crate::error::{fmt_shape, CoreError, Result};
use crate::kernels::softmax::max_and_nan;
use crate::kernels::train::scratch;
use crate::real::Id;
use crate::runtime::threads::{for_each_part, Disjoint};
use crate::simd::exp::ExpSum;

/// Check the shapes of `cross_entropy`: E46 (logits 2-D), E47 (targets [N]). Returns (N, C).
pub fn check_cross_entropy(logits: &[usize], targets: &[usize]) -> Result<(usize, usize)> {
    let (n, c) = match logits {
        [n, c] => (*n, *c),
        _ => {
            return Err(CoreError::Value(format!(
                "logits must be 2-D [N, C], got shape {}",
                fmt_shape(logits)
            )))
        }
    };
    if targets != [n] {
        return Err(CoreError::Value(format!(
            "targets has shape {}; expected ({n},) to match logits of shape {}",
            fmt_shape(targets),
            fmt_shape(logits)
        )));
    }
    Ok((n, c))
}

/// E48: the first target (in order) that is neither `ignore_index` nor in [0, classes).
pub fn check_targets<I: Id>(targets: &[I], classes: usize, ignore_index: i64) -> Result<()> {
    let ignore = i128::from(ignore_index);
    match targets
        .iter()
        .map(|&t| t.into())
        .find(|&t: &i128| t != ignore && (t < 0 || t >= classes as i128))
    {
        None => Ok(()),
        Some(t) => Err(CoreError::Index(format!(
            "target {t} is out of range for {classes} classes"
        ))),
    }
}

/// Rows per part.
const ROWS_PER_PART: usize = 32;

/// Work of `cross_entropy` over `elements` logits (an exp, a division, a few passes).
pub fn cross_entropy_work(elements: usize) -> usize {
    elements.saturating_mul(32)
}

/// The mean loss (NaN when no row counts) and `grad` [N, C] (every element written). Targets
/// must already be checked (`check_targets`).
pub fn cross_entropy<T: ExpSum, I: Id>(
    logits: &[T],
    targets: &[I],
    classes: usize,
    ignore_index: i64,
    grad: &mut [T],
) -> Result<f64> {
    let ignore = i128::from(ignore_index);
    let counted = |t: I| -> Option<usize> {
        let t: i128 = t.into();
        (t != ignore).then_some(t as usize)
    };
    let count = targets.iter().filter(|&&t| counted(t).is_some()).count();
    if count == 0 || classes == 0 {
        grad.fill(T::zero());
        return Ok(f64::NAN);
    }
    let n = targets.len();
    let count_t = T::from_f64_lossy(count as f64);
    let parts = n.div_ceil(ROWS_PER_PART);
    let mut losses = scratch(parts, 0.0f64)?;
    {
        let out = Disjoint::new(grad);
        let loss_out = Disjoint::new(&mut losses);
        for_each_part(parts, cross_entropy_work(logits.len()), &|p| {
            let r0 = p * ROWS_PER_PART;
            let r1 = (r0 + ROWS_PER_PART).min(n);
            // SAFETY: part p alone writes rows r0 .. r1 of grad and its own loss slot.
            let (g, loss) = unsafe {
                (
                    out.part(r0 * classes, (r1 - r0) * classes),
                    &mut loss_out.part(p, 1)[0],
                )
            };
            let mut sum = 0.0f64;
            for (r, g_row) in (r0..r1).zip(g.chunks_exact_mut(classes)) {
                let Some(t) = counted(targets[r]) else {
                    g_row.fill(T::zero());
                    continue;
                };
                let row = &logits[r * classes..(r + 1) * classes];
                let (max, has_nan) = max_and_nan(row);
                g_row.copy_from_slice(row);
                let s = if !has_nan && max.is_finite() {
                    T::exp_sub_sum(g_row, max)
                } else {
                    // NaN, +inf or all −inf: the plain formula, which gives NaN as torch does.
                    let mut s = T::zero();
                    for v in g_row.iter_mut() {
                        *v = (*v - max).exp();
                        s = s + *v;
                    }
                    s
                };
                let lse = max.to_f64().unwrap_or(f64::NAN) + s.to_f64().unwrap_or(f64::NAN).ln();
                sum += lse - row[t].to_f64().unwrap_or(f64::NAN);
                for v in g_row.iter_mut() {
                    *v = *v / s / count_t;
                }
                g_row[t] = g_row[t] - T::one() / count_t;
            }
            *loss = sum;
        });
    }
    Ok(losses.iter().sum::<f64>() / count as f64)
}
