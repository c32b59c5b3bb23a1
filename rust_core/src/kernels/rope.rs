//! Rotary position embedding (RoPE) in llama.cpp's "normal" mode: adjacent pairs are rotated.
//!
//! For x [..., n, d] (d even) and an integer position p_t for each of the n rows, pair i of row t,
//! (a, b) = (x[t, 2i], x[t, 2i + 1]), is rotated by θ = p_t · base^(−2i/d):
//!
//!   (a, b) → (a cos θ − b sin θ, a sin θ + b cos θ)
//!
//! GGUF files of Llama models store W^Q and W^K permuted so that this pairing is the right one.
//! θ, cos θ and sin θ are computed in float64, and so is the rotation, rounded once to the dtype
//! of x: at position 8192 a float32 angle would be off by up to 5e−4 rad. The (cos, sin) table
//! [n, d/2] is built once per call and shared by every leading index (every head).

use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::error::{checked_len, fmt_shape, py_float_repr, CoreError, Result};
use crate::linalg::rows::Rows;
use crate::real::{Id, Real};
use crate::runtime::threads::{in_pool, PARALLEL_MIN_WORK};

/// The shape of a `rope` call: x is [batch, n, d] once its leading dimensions are flattened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RopeDims {
    pub batch: usize,
    pub n: usize,
    pub d: usize,
}

/// Check x [..., n, d], positions [n] and base (E9, E26, E20, E27), in that order.
pub fn check_rope(x: &[usize], positions: &[usize], base: f64) -> Result<RopeDims> {
    let (lead, n, d) = match x {
        [lead @ .., n, d] => (lead, *n, *d),
        _ => {
            return Err(CoreError::Value(format!(
                "x must have at least 2 dimensions [..., n, d], got shape {}",
                fmt_shape(x)
            )))
        }
    };
    if d % 2 != 0 {
        return Err(CoreError::Value(format!(
            "x has shape {}: its last dimension (d) must be even, as rope rotates pairs",
            fmt_shape(x)
        )));
    }
    if positions != [n] {
        return Err(CoreError::Value(format!(
            "positions has shape {}; expected ({n},) to match x of shape {}",
            fmt_shape(positions),
            fmt_shape(x)
        )));
    }
    if !(base.is_finite() && base > 0.0) {
        return Err(CoreError::Value(format!(
            "base must be a finite number > 0, got {}",
            py_float_repr(base)
        )));
    }
    Ok(RopeDims {
        batch: checked_len(lead)?,
        n,
        d,
    })
}

/// E28: a position is a count of tokens before this one; the first negative one is reported.
pub fn check_positions<I: Id>(positions: &[I]) -> Result<()> {
    match positions.iter().map(|&p| p.into()).find(|&p| p < 0) {
        None => Ok(()),
        Some(p) => Err(CoreError::Value(format!("positions must be >= 0, got {p}"))),
    }
}

/// Work of `rope` over `elements` numbers (a rotation is 4 multiply-adds in float64, plus the
/// table's sin and cos).
pub fn rope_work(elements: usize) -> usize {
    elements.saturating_mul(8)
}

/// `angles`, remembered for the last (positions, d, base) asked for: a model rotates q and then k
/// at the same positions in every layer (SmolLM2: 60 calls a forward), and each table costs n·d/2
/// sines and cosines in float64 — for a 357-token prompt about a third of a call.
pub fn angles_cached<I: Id>(positions: &[I], d: usize, base: f64) -> Arc<Vec<(f64, f64)>> {
    type Key = (Vec<i128>, usize, u64); // positions, d, base's bits
    type Table = Arc<Vec<(f64, f64)>>;
    static LAST: Mutex<Option<(Key, Table)>> = Mutex::new(None);
    let key: Key = (
        positions.iter().map(|&p| p.into()).collect(),
        d,
        base.to_bits(),
    );
    if let Ok(last) = LAST.lock() {
        if let Some((k, table)) = last.as_ref() {
            if *k == key {
                return Arc::clone(table);
            }
        }
    }
    let table = Arc::new(angles(positions, d, base));
    if let Ok(mut last) = LAST.lock() {
        *last = Some((key, Arc::clone(&table)));
    }
    table
}

/// (cos θ, sin θ) of every (row t, pair i), [n, d/2], in float64: θ = p_t · base^(−2i/d).
pub fn angles<I: Id>(positions: &[I], d: usize, base: f64) -> Vec<(f64, f64)> {
    let half = d / 2;
    // base^(−2i/d) as `base ** (-(2 * i) / d)` computes it in Python: one pow per pair.
    let freqs: Vec<f64> = (0..half)
        .map(|i| base.powf(-((2 * i) as f64) / d as f64))
        .collect();
    let mut table = Vec::with_capacity(positions.len() * half);
    for &p in positions {
        // Exact up to 2^53; beyond, as `float(p)` rounds it.
        let p = p.into() as f64;
        table.extend(freqs.iter().map(|&f| {
            let theta = p * f;
            (theta.cos(), theta.sin())
        }));
    }
    table
}

/// y [batch, n, d] = x rotated pair by pair, with `table` from `angles` ([n, d/2]). x's rows may
/// lie apart (the heads of a column block of a Q·K·V product, read where they are).
pub fn rope<T: Real>(x: &Rows<T>, table: &[(f64, f64)], dims: RopeDims, y: &mut [T]) {
    let RopeDims { n, d, .. } = dims;
    if y.is_empty() || d == 0 || n == 0 {
        return;
    }
    let half = d / 2;
    // Flat row r [d]: its pairs and the angles of its position, r mod n.
    let row = |(r, y_row): (usize, &mut [T])| {
        let t = r % n;
        let angles = &table[t * half..(t + 1) * half];
        for ((o, v), &(c, s)) in y_row
            .chunks_exact_mut(2)
            .zip(x.row(r).chunks_exact(2))
            .zip(angles)
        {
            let (a, b) = (
                v[0].to_f64().unwrap_or(f64::NAN),
                v[1].to_f64().unwrap_or(f64::NAN),
            );
            o[0] = T::from_f64_lossy(a * c - b * s);
            o[1] = T::from_f64_lossy(a * s + b * c);
        }
    };
    if rope_work(y.len()) < PARALLEL_MIN_WORK || !in_pool() {
        y.chunks_mut(d).enumerate().for_each(row);
    } else {
        // Rows in parallel (decoding has one row per head, prefill many rows per head).
        y.par_chunks_mut(d)
            .enumerate()
            .with_min_len(64)
            .for_each(row);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cached_table_is_the_table_of_the_positions_asked_for() {
        let (a, b): (Vec<u32>, Vec<u32>) = ((0..5).collect(), (3..8).collect());
        for (positions, d, base) in [(&a, 4, 1e4), (&a, 4, 1e4), (&b, 4, 1e4), (&b, 6, 1e4)] {
            assert_eq!(
                *angles_cached(positions, d, base),
                angles(positions, d, base)
            );
        }
        assert_eq!(*angles_cached(&b, 6, 5e5), angles(&b, 6, 5e5));
    }
}
