//! One AdamW step in place, exactly as torch.optim.AdamW (foreach=False) is written in the spec:
//! the scalars in float64, then used in the arrays' dtype, elementwise:
//!
//! ```text
//! param *= 1 - lr·weight_decay
//! m = β1·m + (1 − β1)·g
//! v = β2·v + (1 − β2)·g·g
//! param -= (lr / (1 − β1^step)) · m / (√v / √(1 − β2^step) + eps)
//! ```
//!
//! Each operation in that order, one rounding each (no fused multiply-adds), so the result is
//! the same bits as NumPy evaluating the same expressions.

use crate::error::{fmt_shape, py_float_repr, CoreError, Result};
use crate::real::Real;
use crate::runtime::threads::{for_each_part, Disjoint};

/// The hyper-parameters of one step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AdamW {
    pub step: i64,
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
    pub weight_decay: f64,
}

/// E49: grad, exp_avg and exp_avg_sq (in that order) must have param's shape.
pub fn check_adamw_shapes(param: &[usize], others: [(&str, &[usize]); 3]) -> Result<()> {
    for (name, shape) in others {
        if shape != param {
            return Err(CoreError::Value(format!(
                "{name} has shape {} and param has shape {}: they must have the same shape",
                fmt_shape(shape),
                fmt_shape(param)
            )));
        }
    }
    Ok(())
}

/// E53 between two arrays' byte ranges [start, end) (an empty range overlaps nothing):
/// `name` and `other` must not share memory.
pub fn check_separate(
    (name, a): (&str, (usize, usize)),
    (other, b): (&str, (usize, usize)),
) -> Result<()> {
    let empty = |r: (usize, usize)| r.0 >= r.1;
    if empty(a) || empty(b) || a.1 <= b.0 || b.1 <= a.0 {
        Ok(())
    } else {
        Err(CoreError::Value(format!(
            "{name} and {other} share memory; adamw_step needs four separate arrays"
        )))
    }
}

/// E51 (step ≥ 1) and E52 (lr, beta1, beta2, eps, weight_decay in that order).
pub fn check_adamw(h: &AdamW) -> Result<()> {
    if h.step < 1 {
        return Err(CoreError::Value(format!(
            "step must be at least 1, got {}",
            h.step
        )));
    }
    let non_negative = |name: &str, v: f64| {
        if v.is_finite() && v >= 0.0 {
            Ok(())
        } else {
            Err(CoreError::Value(format!(
                "{name} must be a finite number >= 0, got {}",
                py_float_repr(v)
            )))
        }
    };
    let unit = |name: &str, v: f64| {
        if (0.0..1.0).contains(&v) {
            Ok(())
        } else {
            Err(CoreError::Value(format!(
                "{name} must be in [0, 1), got {}",
                py_float_repr(v)
            )))
        }
    };
    non_negative("lr", h.lr)?;
    unit("beta1", h.beta1)?;
    unit("beta2", h.beta2)?;
    non_negative("eps", h.eps)?;
    non_negative("weight_decay", h.weight_decay)
}

/// The step's scalars, computed in float64 and then rounded to T.
#[derive(Debug, Clone, Copy)]
struct Scalars<T> {
    decay: T,
    beta1: T,
    one_minus_beta1: T,
    beta2: T,
    one_minus_beta2: T,
    step_size: T,
    bc2_sqrt: T,
    eps: T,
}

impl<T: Real> Scalars<T> {
    fn new(h: &AdamW) -> Self {
        let t = T::from_f64_lossy;
        let step = h.step as f64;
        let bc1 = 1.0 - h.beta1.powf(step);
        let bc2 = 1.0 - h.beta2.powf(step);
        Scalars {
            decay: t(1.0 - h.lr * h.weight_decay),
            beta1: t(h.beta1),
            one_minus_beta1: t(1.0 - h.beta1),
            beta2: t(h.beta2),
            one_minus_beta2: t(1.0 - h.beta2),
            step_size: t(h.lr / bc1),
            bc2_sqrt: t(bc2.sqrt()),
            eps: t(h.eps),
        }
    }

    #[inline]
    fn update(&self, p: &mut [T], g: &[T], m: &mut [T], v: &mut [T]) {
        for (((p, &g), m), v) in p.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
            *p = *p * self.decay;
            *m = self.beta1 * *m + self.one_minus_beta1 * g;
            *v = self.beta2 * *v + self.one_minus_beta2 * g * g;
            *p = *p - self.step_size * *m / (v.sqrt() / self.bc2_sqrt + self.eps);
        }
    }
}

/// Elements per parallel task (64 KB of float32 per array).
const CHUNK: usize = 1 << 14;

/// Work of `adamw_step` over `elements` numbers (about a dozen operations, a sqrt, a division).
pub fn adamw_work(elements: usize) -> usize {
    elements.saturating_mul(16)
}

/// One AdamW step over param, grad, exp_avg and exp_avg_sq (one length, checked by the caller
/// with `check_adamw`).
pub fn adamw_step<T: Real>(
    param: &mut [T],
    grad: &[T],
    exp_avg: &mut [T],
    exp_avg_sq: &mut [T],
    h: &AdamW,
) {
    let s = Scalars::<T>::new(h);
    let len = param.len();
    let parts = len.div_ceil(CHUNK);
    if parts <= 1 {
        return s.update(param, grad, exp_avg, exp_avg_sq);
    }
    let (p, m, v) = (
        Disjoint::new(param),
        Disjoint::new(exp_avg),
        Disjoint::new(exp_avg_sq),
    );
    for_each_part(parts, adamw_work(len), &|c| {
        let start = c * CHUNK;
        let n = CHUNK.min(len - start);
        // SAFETY: part c alone touches these elements of param, exp_avg and exp_avg_sq.
        let (p, m, v) = unsafe { (p.part(start, n), m.part(start, n), v.part(start, n)) };
        s.update(p, &grad[start..start + n], m, v)
    });
}
