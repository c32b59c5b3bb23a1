//! A row-major matrix view over a slice, checked once when built, that every product and
//! row-wise kernel reads through.

use crate::error::{CoreError, Result};
use crate::real::Real;
use crate::runtime::threads::rows_fit;

/// A row-major matrix view: `rows × cols` elements, row `i` starting at `i * stride`.
///
/// The products read it through raw pointers, so a `Mat` always fits in its slice: the fields are
/// private and the constructors check the extent, in safe code, once.
#[derive(Clone, Copy, Debug)]
pub struct Mat<'a, T> {
    data: &'a [T],
    rows: usize,
    cols: usize,
    stride: usize,
}

impl<'a, T> Mat<'a, T> {
    /// The view, or an error when it would reach past the end of `data` (or its extent overflows
    /// `usize`), or when rows overlap (`stride < cols` with more than one row). An empty matrix
    /// (`rows` or `cols` 0) fits any slice.
    pub fn try_new(data: &'a [T], rows: usize, cols: usize, stride: usize) -> Result<Self> {
        if rows_fit(data.len(), rows, cols, stride) {
            Ok(Mat {
                data,
                rows,
                cols,
                // Unread when there is no second row or no column: made the row length, so that
                // every stride passed on fits in an isize.
                stride: if rows <= 1 || cols == 0 { cols } else { stride },
            })
        } else {
            Err(CoreError::Value(format!(
                "a {rows} × {cols} matrix with row stride {stride} does not fit in {} elements",
                data.len()
            )))
        }
    }

    /// `try_new` for extents the caller has just computed from the slice itself.
    ///
    /// # Panics
    ///
    /// When the matrix does not fit in `data` (see `try_new`): a bug in the caller, caught before
    /// any product can read past the slice.
    pub fn new(data: &'a [T], rows: usize, cols: usize, stride: usize) -> Self {
        match Self::try_new(data, rows, cols, stride) {
            Ok(mat) => mat,
            Err(e) => panic!("{e}"),
        }
    }

    /// (elements, rows, columns, row stride): for kernels that walk the rows themselves. Row i
    /// is `data[i * stride .. i * stride + cols]`, within `data` (checked when built).
    pub fn parts(&self) -> (&'a [T], usize, usize, usize) {
        (self.data, self.rows, self.cols, self.stride)
    }

    /// The elements the view lies in (row i at `i * stride`).
    #[inline]
    pub fn data(&self) -> &'a [T] {
        self.data
    }

    #[inline]
    pub fn rows(&self) -> usize {
        self.rows
    }

    #[inline]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Elements from one row to the next.
    #[inline]
    pub fn stride(&self) -> usize {
        self.stride
    }
}

impl<T: Real> Mat<'_, T> {
    /// Whether every element is finite (no NaN, no ±inf).
    #[inline]
    pub fn all_finite(&self) -> bool {
        (0..self.rows).all(|r| {
            let start = r * self.stride;
            all_finite(&self.data[start..start + self.cols])
        })
    }
}

/// Whether every element of `x` is finite. 0 · x is 0 for a finite x and NaN for NaN or ±inf, so
/// each of 8 lanes sums those products and stays 0 unless it met one: a loop without branches
/// that compiles to SIMD, where an early-exit test of each element ran one element at a time.
#[inline]
pub fn all_finite<T: Real>(x: &[T]) -> bool {
    const L: usize = 8;
    let mut acc = [T::zero(); L];
    let mut chunks = x.chunks_exact(L);
    for c in &mut chunks {
        for l in 0..L {
            acc[l] = acc[l] + c[l] * T::zero();
        }
    }
    let tail = chunks
        .remainder()
        .iter()
        .fold(T::zero(), |a, &v| a + v * T::zero());
    acc.iter().all(|a| *a == T::zero()) && tail == T::zero()
}

#[cfg(test)]
mod tests {
    use super::all_finite;

    #[test]
    fn all_finite_finds_a_nan_or_an_infinity_anywhere() {
        for len in [0, 1, 7, 8, 9, 17, 64] {
            let x: Vec<f32> = (0..len).map(|i| i as f32 * 1e30).collect();
            assert!(all_finite(&x), "len {len}");
            for at in 0..len {
                for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                    let mut y = x.clone();
                    y[at] = bad;
                    assert!(!all_finite(&y), "len {len}, {bad} at {at}");
                }
            }
        }
        assert!(all_finite(&[f64::MAX, f64::MIN, -0.0]));
    }
}
