//! The gradient of `embedding_lookup` with respect to its table: grad_table [V, d] where row v is
//! the sum of grad_out's rows at the positions whose id is v (repeated ids accumulate), in C
//! order of the ids, on one thread (a scatter-add: memory-bound, and its order fixed so that the
//! sums do not depend on the number of threads).

use crate::error::{fmt_shape, CoreError, Result};
use crate::real::{Id, Real};

/// E44: grad_out must be [*ids.shape, d]. Returns d.
pub fn check_embedding_backward(grad_out: &[usize], ids: &[usize]) -> Result<usize> {
    match grad_out.split_last() {
        Some((&d, lead)) if lead == ids => Ok(d),
        _ => Err(CoreError::Value(format!(
            "grad_out has shape {} and ids has shape {}: grad_out must be [*ids.shape, d]",
            fmt_shape(grad_out),
            fmt_shape(ids)
        ))),
    }
}

/// Work of `embedding_backward`: one add per element of grad_out.
pub fn embedding_backward_work(elements: usize) -> usize {
    elements
}

/// `table[ids[i], :] += grad_out[i, :]` for every i, into `table` [V, d] (zeroed by the caller).
/// Ids must already be checked against V (`embedding::check_ids`).
pub fn embedding_backward<T: Real, I: Id>(ids: &[I], grad_out: &[T], d: usize, table: &mut [T]) {
    if d == 0 {
        return;
    }
    for (&id, g) in ids.iter().zip(grad_out.chunks_exact(d)) {
        let id: i128 = id.into();
        let start = id as usize * d;
        for (t, &v) in table[start..start + d].iter_mut().zip(g) {
            *t = *t + v;
        }
    }
}
