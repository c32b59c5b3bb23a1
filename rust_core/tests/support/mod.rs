//! Helpers shared by the cargo tests: the integration tests (`mod support;`) and the unit tests
//! inside the library (`test_support`, compiled only for `cargo test`), so none of it ships.
#![allow(dead_code)] // each test binary uses its own subset

/// Equal within `tol`, NaN matching NaN.
pub fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= tol || (x.is_nan() && y.is_nan()))
}

/// A small deterministic pseudo-random sequence in [-1, 1) (no rand dependency for tests).
pub fn lcg(seed: u64, len: usize) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}
