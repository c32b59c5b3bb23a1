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
    pub fn all_finite(&self) -> bool {
        (0..self.rows).all(|r| {
            let start = r * self.stride;
            self.data[start..start + self.cols]
                .iter()
                .all(|x| x.is_finite())
        })
    }
}
