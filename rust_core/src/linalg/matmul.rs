//! Row-major matrix products through the `gemm` crate (run-time CPU dispatch), each call on one
//! thread. Inside attention the tasks are the parallelism, so products never nest thread pools;
//! a lone big product (`linear`) is split into blocks of columns over the current pool.

use gemm::Parallelism;

use crate::linalg::mat::Mat;
use crate::linalg::transpose::Transpose;
use crate::real::Real;
use crate::runtime::threads::{for_each_part, Disjoint};

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
        b.rows(),
        (b.data(), 1, b.stride() as isize),
        b.cols(),
        beta,
        c,
        ldc,
        accumulate,
    );
}

/// `matmul_abt` (beta 1, no accumulation) into a block whose rows interleave with other threads'
/// blocks (`threads::Disjoint::block`), which no `&mut` slice can hold. Long rows of b are first
/// transposed into a buffer of the call's own (`rhs_of`).
///
/// # Safety
///
/// As `product_raw`: c's a.rows × b.rows block at row stride `ldc` lies within one allocation
/// that nothing else reads or writes during the call, and `ldc` ≥ b.rows.
pub unsafe fn matmul_abt_raw<T: Transpose>(a: Mat<T>, b: Mat<T>, c: *mut T, ldc: usize) {
    let mut scratch = Vec::new();
    let rhs = rhs_of(b, &mut scratch);
    // SAFETY: the caller's contract is product_raw's.
    unsafe { product_raw(a, b.rows(), rhs, b.cols(), T::one(), c, ldc, false) }
}

/// bᵀ as gemm's right-hand side (its elements, row and column strides): b's rows where they lie,
/// or, when there are two or more and they are `TRANSPOSE_MIN_ROW_BYTES` or more apart, b
/// transposed into `scratch` ([k, n] in C order), which gemm packs faster (`transpose`).
fn rhs_of<'a, T: Transpose>(b: Mat<'a, T>, scratch: &'a mut Vec<T>) -> (&'a [T], isize, isize) {
    if b.stride() * std::mem::size_of::<T>() < TRANSPOSE_MIN_ROW_BYTES || b.rows() < 2 {
        return (b.data(), 1, b.stride() as isize);
    }
    scratch.clear();
    scratch.resize(b.rows() * b.cols(), T::zero());
    T::transpose_into(b, scratch);
    (&scratch[..], b.rows() as isize, 1)
}

/// `c = a · bᵀ (+ start)` for one big product, split into blocks for `threads` threads, spread
/// by `for_each_part` (for `linear`, where nothing outside the product runs in parallel): each
/// task computes a block of c's columns (`MIN_PART_COLUMNS` says how many blocks), from its own
/// rows of b, by gemm on its thread (`gemm_in_pieces`), so each task packs only its share of b
/// (a weight matrix: the big operand), which beats letting gemm split the product itself
/// (docs/performance.md); a small b is split by blocks of a's rows instead.
///
/// A block whose rows of b are long is transposed first (`rhs_of`).
///
/// `start` [n] (a bias), when given, is what every row of c starts from: each task writes its
/// columns of it into its own block just before its product adds to them, so that pass is split
/// over the threads too, instead of running on the caller's thread while the others wait
/// (docs/performance.md).
///
/// `bt` [k, n], when given, holds bᵀ by rows (the caller's copy, kept equal to b): gemm then
/// reads each task's columns of it in place, which it packs faster than b's rows, with no
/// transposition a call.
pub fn matmul_abt_threaded<T: Transpose>(
    a: Mat<T>,
    b: Mat<T>,
    bt: Option<Mat<T>>,
    c: &mut [T],
    ldc: usize,
    threads: usize,
    start: Option<&[T]>,
) {
    let (m, n) = (a.rows(), b.rows());
    let ldc = checked_output(&*c, m, n, ldc);
    if let Some(s) = start {
        assert_eq!(s.len(), n, "one starting value a column");
    }
    if let Some(bt) = bt {
        assert!(
            bt.rows() == b.cols() && bt.cols() == n,
            "bt is b's shape transposed"
        );
    }
    // A small b (a toy's weights) is cheap for every task to pack: blocks of rows then leave
    // each task only its own rows of a to pack, where blocks of columns would each pack all of it.
    let by_rows = n * b.cols() * std::mem::size_of::<T>() <= ROW_SPLIT_MAX_RHS_BYTES;
    let parts = if threads <= 1 || n < 2 || m < 2 {
        1
    } else if by_rows {
        (2 * threads).min(m)
    } else {
        (n / MIN_PART_COLUMNS).clamp(threads, 4 * threads).min(n)
    };
    // The smallest part, rows × columns; a product whose parts would not sum as one part does
    // is not split.
    let (rows, cols) = if by_rows {
        (m / parts, n)
    } else {
        (m, n / parts)
    };
    let parts = if parts_sum_alike(rows, cols) {
        parts
    } else {
        1
    };
    let out = Disjoint::new(c);
    let task = |t: usize| {
        // Rows i0 .. i1 and columns j0 .. j1 of c.
        let ((i0, i1), (j0, j1)) = if by_rows {
            ((m * t / parts, m * (t + 1) / parts), (0, n))
        } else {
            ((0, m), (n * t / parts, n * (t + 1) / parts))
        };
        let (rows, width) = (i1 - i0, j1 - j0);
        let mut scratch = Vec::new();
        let rhs = match bt {
            Some(bt) => {
                // Columns j0 .. j1 of bᵀ (checked to lie in it): rows bt.stride() apart.
                let cols = Mat::new(&bt.data()[j0..], bt.rows(), width, bt.stride());
                (cols.data(), bt.stride() as isize, 1)
            }
            None => rhs_of(
                Mat::new(&b.data()[j0 * b.stride()..], width, b.cols(), b.stride()),
                &mut scratch,
            ),
        };
        // In range (checked by `block`).
        let band = out.block(i0 * ldc + j0, rows, width, ldc);
        if let Some(s) = start {
            for i in 0..rows {
                // SAFETY: row i of the block lies in this task's block, which no other task
                // touches; the slice ends before the product below starts.
                unsafe { std::slice::from_raw_parts_mut(band.add(i * ldc), width) }
                    .copy_from_slice(&s[j0..j1]);
            }
        }
        let a_rows = Mat::new(&a.data()[i0 * a.stride()..], rows, a.cols(), a.stride());
        // SAFETY: this task alone writes its block; c does not alias a or b.
        unsafe {
            product_raw(
                a_rows,
                width,
                rhs,
                b.cols(),
                T::one(),
                band,
                ldc,
                start.is_some(),
            );
        }
    };
    if parts == 1 {
        return task(0);
    }
    let work = m.saturating_mul(a.cols()).saturating_mul(n);
    for_each_part(parts, work, &task);
}

/// A b of at most this many bytes is shared out by blocks of a's rows, not of b's: the learner's
/// weights (64 KB at most) are, MiniLM's (590 KB and more) are not (docs/performance.md).
const ROW_SPLIT_MAX_RHS_BYTES: usize = 128 << 10;

/// Rows of b at least this far apart (in bytes) are transposed before gemm packs them
/// (`transpose`): gemm's gather across rows this long crowds a few sets of the L1 cache, so the
/// extra pass pays for MiniLM's 6 KB rows and `quantized_linear`'s tiles from 1536 inputs, not
/// for MiniLM's 1.5 KB rows (docs/performance.md).
const TRANSPOSE_MIN_ROW_BYTES: usize = 4096;

/// A lone big product's blocks of columns have at least this many when there are enough columns
/// for one block a thread (each block packs all of a, the activations, again), and there are up to
/// 4 blocks a thread, handed out one at a time, so that a thread slowed by another process leaves
/// its remaining blocks to the others; narrower blocks would repack a too often to pay
/// (docs/performance.md).
const MIN_PART_COLUMNS: usize = 192;

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
        b.cols(),
        (b.data(), b.stride() as isize, 1),
        b.rows(),
        beta,
        c,
        ldc,
        accumulate,
    );
}

/// `c = beta·(aᵀ · b) (+ c when accumulate)`: a [k × m] and b [k × n] row-major, c [m × n] with
/// row stride `ldc`. aᵀ is read where it lies (gemm takes it as a column-major m × k matrix, the
/// layout its kernels read without a transposed copy).
pub fn matmul_atb<T: Real>(
    a: Mat<T>,
    b: Mat<T>,
    beta: T,
    c: &mut [T],
    ldc: usize,
    accumulate: bool,
) {
    let ldc = checked_output(&*c, a.cols(), b.cols(), ldc);
    // SAFETY: c is a distinct &mut holding the m × n output at stride ldc (checked just above).
    unsafe { matmul_atb_raw(a, b, beta, c.as_mut_ptr(), ldc, accumulate) }
}

/// `matmul_atb` into the m × n block at `c` with row stride `ldc`: for parts that write
/// interleaved blocks (`threads::Disjoint::block`, a band of columns each).
///
/// # Safety
///
/// The block (rows 0 .. m, columns 0 .. n at stride ldc) lies within one allocation that nothing
/// else reads or writes during the call; `ldc` ≥ n when m > 1.
pub unsafe fn matmul_atb_raw<T: Real>(
    a: Mat<T>,
    b: Mat<T>,
    beta: T,
    c: *mut T,
    ldc: usize,
    accumulate: bool,
) {
    let (k, m, n) = (a.rows(), a.cols(), b.cols());
    assert_eq!(k, b.rows(), "inner dimensions differ");
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        if !accumulate {
            for i in 0..m {
                // SAFETY: row i's n elements are in the block (the caller's contract).
                unsafe { std::slice::from_raw_parts_mut(c.add(i * ldc), n) }.fill(T::zero());
            }
        }
        return;
    }
    // aᵀ: element (i, p) is a[p, i], at p·stride + i.
    let lhs = (a.data().as_ptr(), 1, a.stride() as isize);
    let rhs = (b.data().as_ptr(), b.stride() as isize, 1);
    // SAFETY: the extents of a and b were checked when their `Mat`s were built, that of c by the
    // caller; strides are positive; c aliases neither input (the caller's contract).
    unsafe { gemm_in_pieces((m, n, k), c, ldc, accumulate, lhs, rhs, beta) }
}

/// The row stride of an m × n output in `c` at stride `ldc`, checked as a matrix view of `c` is
/// (no overflow, no overlapping rows).
fn checked_output<T>(c: &[T], m: usize, n: usize, ldc: usize) -> usize {
    match Mat::try_new(c, m, n, ldc) {
        Ok(view) => view.stride(),
        Err(e) => panic!("output: {e}"),
    }
}

#[allow(clippy::too_many_arguments)]
fn product<T: Real>(
    a: Mat<T>,
    n: usize,
    rhs: (&[T], isize, isize),
    k_rhs: usize,
    beta: T,
    c: &mut [T],
    ldc: usize,
    accumulate: bool,
) {
    let ldc = checked_output(&*c, a.rows(), n, ldc);
    // SAFETY: c is a distinct &mut holding the m × n output at stride ldc (checked just above).
    unsafe { product_raw(a, n, rhs, k_rhs, beta, c.as_mut_ptr(), ldc, accumulate) }
}

/// `product` into the m × n block at `c` with row stride `ldc`, on this thread.
///
/// # Safety
///
/// The block (rows 0 .. m, columns 0 .. n at stride ldc) lies within one allocation that nothing
/// else reads or writes during the call; `ldc` ≥ n when m > 1.
#[allow(clippy::too_many_arguments)]
unsafe fn product_raw<T: Real>(
    a: Mat<T>,
    n: usize,
    (rhs, rhs_rs, rhs_cs): (&[T], isize, isize),
    k_rhs: usize,
    beta: T,
    c: *mut T,
    ldc: usize,
    accumulate: bool,
) {
    let (m, k) = (a.rows(), a.cols());
    assert_eq!(k, k_rhs, "inner dimensions differ");
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        // An empty sum is 0; gemm would leave `c` untouched.
        if !accumulate {
            for i in 0..m {
                // SAFETY: row i's n elements are in the block (the caller's contract).
                unsafe { std::slice::from_raw_parts_mut(c.add(i * ldc), n) }.fill(T::zero());
            }
        }
        return;
    }
    let lhs = (a.data().as_ptr(), a.stride() as isize, 1);
    // SAFETY: the extents of a and of the rhs were checked when their `Mat`s were built (the only
    // way to build one) and that of c by the caller; strides are positive; c does not alias the
    // inputs (the caller's contract).
    unsafe {
        gemm_in_pieces(
            (m, n, k),
            c,
            ldc,
            accumulate,
            lhs,
            (rhs.as_ptr(), rhs_rs, rhs_cs),
            beta,
        )
    }
}

/// c (m × n at row stride `ldc`) = beta · lhs · rhs (+ c when `accumulate`) by gemm on this
/// thread, lhs [m × k] and rhs [k × n] given as (first element, row stride, column stride), k in
/// even pieces of at most `K_PIECE`, each added onto c by the next (gemm's alpha = 1 keeps c).
///
/// # Safety
///
/// Every element of lhs, rhs and c's block lies within one allocation each, with positive
/// strides; c aliases neither input and nothing else touches it during the call.
#[allow(clippy::too_many_arguments)]
unsafe fn gemm_in_pieces<T: Real>(
    (m, n, k): (usize, usize, usize),
    c: *mut T,
    ldc: usize,
    accumulate: bool,
    (lhs, lhs_rs, lhs_cs): (*const T, isize, isize),
    (rhs, rhs_rs, rhs_cs): (*const T, isize, isize),
    beta: T,
) {
    if k == 0 {
        return; // the callers' case (an empty sum), handled before
    }
    let piece = k.div_ceil(k.div_ceil(K_PIECE)); // (576: 288 + 288)
    for p0 in (0..k).step_by(piece) {
        // SAFETY: the piece's columns p0 .. of lhs and rows p0 .. of rhs lie within them (the
        // caller's contract).
        unsafe {
            gemm::gemm(
                m,
                n,
                piece.min(k - p0),
                c,
                1,
                ldc as isize,
                accumulate || p0 > 0,
                lhs.offset(p0 as isize * lhs_cs),
                lhs_cs,
                lhs_rs,
                rhs.offset(p0 as isize * rhs_rs),
                rhs_cs,
                rhs_rs,
                T::one(),
                beta,
                false,
                false,
                false,
                Parallelism::None,
            );
        }
    }
}

/// gemm's dot-product kernels take blocks of at most this many outputs (16 × 16).
const GEMM_SMALL: usize = 256;

/// Whether parts of a product, the smallest `rows` × `cols`, sum each output as the whole
/// product does on one thread: gemm computes a block of at most `GEMM_SMALL` outputs, or of one
/// row or column, by other kernels (a dot product per output, a matrix-vector product) that sum
/// k in another order than its blocked one.
pub fn parts_sum_alike(rows: usize, cols: usize) -> bool {
    rows >= 2 && cols >= 2 && rows * cols > GEMM_SMALL
}

/// The longest sum one gemm call takes. gemm cuts a longer k into blocks whose length depends on
/// the block of c it is handed (512 for a block of at most 64 × 64, else k split evenly into
/// blocks of at most a length from the L1 cache, never below 512), so the thread count, which
/// sets the parts' shapes, would set the order of the sums; it takes a piece of at most 512
/// whole whatever the shape, so every part sums k in the same pieces: k split evenly into pieces
/// of at most 512, as gemm's own split of a large block does where that length is 512.
const K_PIECE: usize = 512;

#[cfg(test)]
mod tests {
    use super::*;

    /// gemm's right-hand side for b [rows, cols] at row stride `stride`: elements, row and
    /// column strides of bᵀ, and whether it is a transposed copy.
    fn rhs(b: &[f32], rows: usize, cols: usize, stride: usize) -> (Vec<f32>, isize, isize, bool) {
        let mut scratch = Vec::new();
        let (data, rs, cs) = rhs_of(Mat::new(b, rows, cols, stride), &mut scratch);
        let copied = data.as_ptr() != b.as_ptr();
        (data.to_vec(), rs, cs, copied)
    }

    /// `matmul_abt_threaded` on 1 to 8 threads (the calling thread and the team), by blocks of
    /// rows (a small b) and of columns (a large one), with and without a starting bias, from b or
    /// from bᵀ: every part sums k in the same pieces by the same kernel, and parts too small for
    /// that are not made (`parts_sum_alike`), so every split equals one thread's.
    #[test]
    fn every_split_of_a_threaded_product_and_its_bt_equal_one_thread() {
        let values = |len: usize, seed: u32| -> Vec<f32> {
            (0..len)
                .map(|i| {
                    ((i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) % 1000) as f32
                        / 500.0
                        - 1.0
                })
                .collect()
        };
        // (m, k, n): b of 5·64·4 bytes (rows) and 600·64·4 = 150 KB (columns); 7 rows, odd;
        // 1536 inputs, whose rows of b are transposed a call when bᵀ is not given; k above 512
        // with parts of at most 64 × 64 on some thread counts and not on others, split by rows
        // (b of 60 KB) and by columns; parts that would be single rows or at most 256 outputs
        // (3 and 5 rows against 300 and 2000 columns).
        let shapes = [
            (7, 64, 5),
            (1024, 64, 192),
            (33, 64, 600),
            (40, 1536, 200),
            (300, 768, 20),
            (64, 768, 256),
            (4, 1000, 300),
            (3, 768, 300),
            (5, 768, 2000),
        ];
        for (m, k, n) in shapes {
            let (a, b, bias) = (values(m * k, 1), values(n * k, 2), values(n, 3));
            let mut bt = vec![0.0f32; k * n];
            for (j, row) in b.chunks_exact(k).enumerate() {
                for (p, &x) in row.iter().enumerate() {
                    bt[p * n + j] = x;
                }
            }
            for start in [None, Some(&bias[..])] {
                let product = |by_bt: bool, threads: usize| {
                    let mut c = vec![f32::NAN; m * n];
                    matmul_abt_threaded(
                        Mat::new(&a, m, k, k),
                        Mat::new(&b, n, k, k),
                        by_bt.then(|| Mat::new(&bt, k, n, n)),
                        &mut c,
                        n,
                        threads,
                        start,
                    );
                    c
                };
                for by_bt in [false, true] {
                    let want = product(by_bt, 1);
                    for threads in [2, 3, 4, 6, 8] {
                        let what = format!("m {m}, k {k}, n {n}, {threads} threads, bt {by_bt}");
                        assert_eq!(product(by_bt, threads), want, "{what}");
                    }
                }
                // Read from bᵀ, gemm may sum in another order (for a few rows), within rounding.
                for (x, y) in product(true, 1).iter().zip(&product(false, 1)) {
                    let bound = 1e-5 * (1.0 + y.abs());
                    assert!(
                        (x - y).abs() <= bound,
                        "m {m}, k {k}, n {n}: {x} against {y}"
                    );
                }
            }
        }
    }

    #[test]
    fn rows_4_kb_apart_are_transposed_and_shorter_ones_read_in_place() {
        let b: Vec<f32> = (0..3 * 1030).map(|i| i as f32).collect();
        // 3 rows of 1000 values, 1024 apart (4096 bytes): bᵀ [1000, 3] in C order, a copy.
        let (data, rs, cs, copied) = rhs(&b, 3, 1000, 1024);
        assert!(copied);
        assert_eq!((rs, cs), (3, 1));
        for j in 0..3 {
            for p in 0..1000 {
                assert_eq!(data[p * 3 + j], b[j * 1024 + p], "bᵀ[{p}, {j}]");
            }
        }
        // 1023 apart (4092 bytes): b's own rows, read where they lie.
        let (_, rs, cs, copied) = rhs(&b, 3, 1000, 1023);
        assert!(!copied);
        assert_eq!((rs, cs), (1, 1023));
        // One row, however long: nothing to gain from a copy.
        let (_, _, _, copied) = rhs(&b, 1, 3000, 3000);
        assert!(!copied);
    }
}
