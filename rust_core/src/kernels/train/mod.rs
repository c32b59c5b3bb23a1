//! The backward passes of the forward kernels and the training steps around them, as
//! /work/train_spec.md specifies them (PyTorch's autograd of each forward):
//!
//! - `dense_backward`: linear, LayerNorm, GELU and ReLU backward;
//! - `loss`: cross-entropy over [N, C] logits with an ignored target value;
//! - `embedding_backward`: a [V, d] table's gradient, repeated ids accumulated;
//! - `adamw`: one AdamW step in place (torch.optim.AdamW, foreach=False).
//!
//! Shared here: E43 (a gradient whose shape is not the forward output's) and fallible scratch.

pub mod adamw;
pub mod dense_backward;
pub mod embedding_backward;
pub mod loss;

use crate::error::{fmt_shape, CoreError, Result};

/// E43: the incoming gradient `name` must have `expected`, the shape of the forward's output.
pub fn check_grad_shape(name: &str, shape: &[usize], expected: &[usize]) -> Result<()> {
    if shape == expected {
        Ok(())
    } else {
        Err(CoreError::Value(format!(
            "{name} has shape {}; expected {}, the shape of the forward's output",
            fmt_shape(shape),
            fmt_shape(expected)
        )))
    }
}

/// A zeroed scratch buffer of `len` elements, a MemoryError (not Rust's abort) when the OS
/// refuses it.
pub(crate) fn scratch<T: Clone>(len: usize, zero: T) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        CoreError::Memory(format!("cannot allocate scratch memory for {len} elements"))
    })?;
    v.resize(len, zero);
    Ok(v)
}
