//! Row-major matrix products through the `gemm` crate (run-time CPU dispatch). Inside attention
//! they are single-threaded — the tasks are the parallelism, so products never nest thread pools;
//! a lone big product (`linear`) lets gemm split it over the current pool.

use gemm::Parallelism;

use crate::error::{CoreError, Result};
use crate::real::Real;

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
        let fits = rows == 0
            || cols == 0
            || ((rows == 1 || cols <= stride)
                && (rows - 1)
                    .checked_mul(stride)
                    .and_then(|start| start.checked_add(cols))
                    .is_some_and(|end| end <= data.len()));
        if fits {
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

/// `c = beta·(a · bᵀ) (+ c when accumulate)`: a [m × k], b [n × k] (so bᵀ is [k × n]),
/// c [m × n] row-major with row stride `ldc`.
pub fn matmul_abt<T: Real>(
    a: Mat<T>,
    b: Mat<T>,
    beta: T,
    c: &mut [T],
    ldc: usize,
    accumulate: bool,
) {
    // a · bᵀ: element (p, j) of bᵀ is b[j, p], at j·stride + p: column stride b.stride, row stride 1.
    product(
        a,
        b.rows,
        (b.data, 1, b.stride as isize),
        b.cols,
        beta,
        c,
        ldc,
        accumulate,
        Parallelism::None,
    );
}

/// `matmul_abt` with beta 1 for one big product, split by gemm itself over `threads` threads of
/// the current rayon pool (for `linear`, where nothing outside the product runs in parallel).
pub fn matmul_abt_threaded<T: Real>(
    a: Mat<T>,
    b: Mat<T>,
    c: &mut [T],
    ldc: usize,
    threads: usize,
    accumulate: bool,
) {
    let par = if threads > 1 {
        Parallelism::Rayon(threads)
    } else {
        Parallelism::None
    };
    let rhs = (b.data, 1, b.stride as isize);
    product(a, b.rows, rhs, b.cols, T::one(), c, ldc, accumulate, par);
}

/// `c = beta·(a · b) (+ c when accumulate)`: a [m × k], b [k × n], c [m × n] with row stride `ldc`.
pub fn matmul_ab<T: Real>(
    a: Mat<T>,
    b: Mat<T>,
    beta: T,
    c: &mut [T],
    ldc: usize,
    accumulate: bool,
) {
    product(
        a,
        b.cols,
        (b.data, b.stride as isize, 1),
        b.rows,
        beta,
        c,
        ldc,
        accumulate,
        Parallelism::None,
    );
}

#[allow(clippy::too_many_arguments)]
fn product<T: Real>(
    a: Mat<T>,
    n: usize,
    (rhs, rhs_rs, rhs_cs): (&[T], isize, isize),
    k_rhs: usize,
    beta: T,
    c: &mut [T],
    ldc: usize,
    accumulate: bool,
    parallelism: Parallelism,
) {
    let (m, k) = (a.rows, a.cols);
    assert_eq!(k, k_rhs, "inner dimensions differ");
    // The output, checked as a matrix view of `c` is (no overflow, no overlapping rows).
    let ldc = match Mat::try_new(&*c, m, n, ldc) {
        Ok(view) => view.stride,
        Err(e) => panic!("output: {e}"),
    };
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        // An empty sum is 0; gemm would leave `c` untouched.
        if !accumulate {
            for row in c.chunks_mut(ldc).take(m) {
                row[..n].fill(T::zero());
            }
        }
        return;
    }
    // SAFETY: the extents of a and of the rhs were checked when their `Mat`s were built (the only
    // way to build one) and that of c just above; strides are positive; c does not alias the
    // inputs (it is a distinct &mut).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c.as_mut_ptr(),
            1,
            ldc as isize,
            accumulate,
            a.data.as_ptr(),
            1,
            a.stride as isize,
            rhs.as_ptr(),
            rhs_cs,
            rhs_rs,
            T::one(),
            beta,
            false,
            false,
            false,
            parallelism,
        );
    }
}
