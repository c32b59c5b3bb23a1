//! Row-major matrix products through the `gemm` crate (run-time CPU dispatch). Inside attention
//! they are single-threaded — the tasks are the parallelism, so products never nest thread pools;
//! a lone big product (`linear`) lets gemm split it over the current pool.

use gemm::Parallelism;

use crate::real::Real;

/// A row-major matrix view: `rows × cols` elements, row `i` starting at `i * stride`.
#[derive(Clone, Copy)]
pub struct Mat<'a, T> {
    pub data: &'a [T],
    pub rows: usize,
    pub cols: usize,
    pub stride: usize,
}

impl<'a, T> Mat<'a, T> {
    pub fn new(data: &'a [T], rows: usize, cols: usize, stride: usize) -> Self {
        // The products read through raw pointers: check the extent once, here, in safe code.
        assert!(cols <= stride || rows <= 1, "row stride shorter than a row");
        assert!(
            rows == 0 || cols == 0 || (rows - 1) * stride + cols <= data.len(),
            "matrix out of bounds"
        );
        Mat {
            data,
            rows,
            cols,
            stride,
        }
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

/// `matmul_abt` for one big product, split by gemm itself over `threads` threads of the current
/// rayon pool (for `linear`, where nothing outside the product runs in parallel).
pub fn matmul_abt_threaded<T: Real>(a: Mat<T>, b: Mat<T>, c: &mut [T], ldc: usize, threads: usize) {
    let par = if threads > 1 {
        Parallelism::Rayon(threads)
    } else {
        Parallelism::None
    };
    let rhs = (b.data, 1, b.stride as isize);
    product(a, b.rows, rhs, b.cols, T::one(), c, ldc, false, par);
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
    assert!(
        m == 0 || n == 0 || ((m - 1) * ldc + n <= c.len() && n <= ldc),
        "output out of bounds"
    );
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
    // SAFETY: the extents of a, the rhs and c were checked above (Mat::new and the assert), strides
    // are positive, and c does not alias the inputs (it is a distinct &mut).
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
