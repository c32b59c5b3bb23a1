//! Small dense-vector helpers shared by the kernels.
//!
//! `dot` keeps eight independent partial sums: a single running sum is a serial dependency chain
//! that the compiler may not reorder (floating-point addition is not associative), while eight
//! lanes let it use SIMD registers.

use crate::real::Real;

#[inline]
pub fn dot<T: Real>(a: &[T], b: &[T]) -> T {
    debug_assert_eq!(a.len(), b.len());
    const LANES: usize = 8;
    let mut acc = [T::zero(); LANES];
    let (a_main, a_tail) = a.split_at(a.len() - a.len() % LANES);
    let (b_main, b_tail) = b.split_at(a_main.len());
    for (ca, cb) in a_main.chunks_exact(LANES).zip(b_main.chunks_exact(LANES)) {
        for l in 0..LANES {
            acc[l] = acc[l] + ca[l] * cb[l];
        }
    }
    let mut sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (&x, &y) in a_tail.iter().zip(b_tail) {
        sum = sum + x * y;
    }
    sum
}

/// Σ f(x_i), in eight lanes like `dot`.
#[inline]
pub fn sum_map<T: Real>(x: &[T], f: impl Fn(T) -> T) -> T {
    const LANES: usize = 8;
    let mut acc = [T::zero(); LANES];
    let (main, tail) = x.split_at(x.len() - x.len() % LANES);
    for c in main.chunks_exact(LANES) {
        for l in 0..LANES {
            acc[l] = acc[l] + f(c[l]);
        }
    }
    let mut sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for &v in tail {
        sum = sum + f(v);
    }
    sum
}

/// `y += alpha * x`
#[inline]
pub fn axpy<T: Real>(alpha: T, x: &[T], y: &mut [T]) {
    debug_assert_eq!(x.len(), y.len());
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi = *yi + alpha * xi;
    }
}
