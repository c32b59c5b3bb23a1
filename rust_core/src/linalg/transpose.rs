//! A matrix transposed into a new C-order buffer: a block of W's rows, for gemm.
//!
//! gemm packs the weights of `linear` into panels along the output columns, which in W stored
//! [out, in] means one value from each of many rows at a time (64 rows for float32 with AVX-512),
//! a gather. With 1536 inputs a row is 6 KB long, so 64 such rows fall in 2 of the 64 sets of a
//! Zen 4 core's L1 data cache (32 KB, 8 ways), which hold 16 of their lines. Handed the block
//! transposed ([in, out]: rows of consecutive output columns), gemm packs by copying rows.
//! Transposing first, in tiles of 8 × 8 (eight values, 32 bytes, of a row read and written at a
//! time), costs a pass over the block that long rows repay; when to do it is a rule of thumb on
//! the rows' length (`matmul`'s `TRANSPOSE_MIN_ROW_BYTES`; docs/performance.md), not a model of
//! the cache.

use std::sync::OnceLock;

use crate::linalg::mat::Mat;
use crate::real::Real;
#[cfg(target_arch = "x86_64")]
use crate::simd::Level;
use crate::simd::{self, Supported};

/// out [cols, rows] (C order) = bᵀ, for b [rows, cols] at any row stride, in any `Real`: tiles of
/// 8 × 8 values, plainly.
pub fn transpose_plain<T: Real>(b: Mat<T>, out: &mut [T]) {
    let (_, rows, cols, _) = b.parts();
    assert_eq!(out.len(), rows * cols, "the output holds bᵀ");
    transpose_part(b, 0..rows, 0..cols, out);
}

/// The values of b in `rows` × `cols` written to their places in out = bᵀ (out holds all of bᵀ),
/// a tile of 8 × 8 at a time.
fn transpose_part<T: Real>(
    b: Mat<T>,
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
    out: &mut [T],
) {
    let (data, n_rows, _, stride) = b.parts();
    for i0 in rows.clone().step_by(8) {
        for j0 in cols.clone().step_by(8) {
            for i in i0..(i0 + 8).min(rows.end) {
                for j in j0..(j0 + 8).min(cols.end) {
                    out[j * n_rows + i] = data[i * stride + j];
                }
            }
        }
    }
}

/// `transpose_plain` for float32, by AVX registers where the CPU has AVX2 (the 8 × 8 tiles in
/// eight loads, 24 shuffles and eight stores; the edges plainly).
pub fn transpose_f32(b: Mat<f32>, out: &mut [f32]) {
    static CHOSEN: OnceLock<Kernel> = OnceLock::new();
    simd::pick(&CHOSEN, variant)(b, out)
}

type Kernel = fn(Mat<f32>, &mut [f32]);

/// The transpose for each element type: by AVX registers for float32, plainly otherwise.
pub trait Transpose: Real {
    /// out [cols, rows] = bᵀ in C order.
    fn transpose_into(b: Mat<Self>, out: &mut [Self]) {
        transpose_plain(b, out)
    }
}

impl Transpose for f32 {
    fn transpose_into(b: Mat<f32>, out: &mut [f32]) {
        transpose_f32(b, out)
    }
}

impl Transpose for f64 {}

fn variant(cpu: Supported) -> Kernel {
    match cpu.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `cpu` proves AVX2 (and so AVX), the feature this body was compiled for.
        Level::Avx2Fma | Level::Avx512 => |b, out| unsafe { x86::transpose_avx(b, out) },
        _ => transpose_plain::<f32>,
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use crate::linalg::mat::Mat;

    /// See `transpose_f32`.
    #[target_feature(enable = "avx")]
    pub unsafe fn transpose_avx(b: Mat<f32>, out: &mut [f32]) {
        let (data, rows, cols, stride) = b.parts();
        assert_eq!(out.len(), rows * cols, "the output holds bᵀ");
        let (full_rows, full_cols) = (rows - rows % 8, cols - cols % 8);
        let (src, dst) = (data.as_ptr(), out.as_mut_ptr());
        for i0 in (0..full_rows).step_by(8) {
            for j0 in (0..full_cols).step_by(8) {
                // SAFETY: rows i0 .. i0 + 8 hold columns j0 .. j0 + 8 (the `Mat` fits in data);
                // out's rows j0 .. j0 + 8 hold columns i0 .. i0 + 8 (its length, checked above).
                unsafe {
                    tile(
                        src.add(i0 * stride + j0),
                        stride,
                        dst.add(j0 * rows + i0),
                        rows,
                    )
                };
            }
        }
        // The last rows % 8 rows, then the last cols % 8 columns of the full rows.
        super::transpose_part(b, full_rows..rows, 0..cols, out);
        super::transpose_part(b, 0..full_rows, full_cols..cols, out);
    }

    /// The 8 × 8 tile at `src` (rows `ss` apart) transposed to `dst` (rows `ds` apart).
    #[target_feature(enable = "avx")]
    #[inline]
    unsafe fn tile(src: *const f32, ss: usize, dst: *mut f32, ds: usize) {
        let r: [__m256; 8] = std::array::from_fn(|i| unsafe { _mm256_loadu_ps(src.add(i * ss)) });
        // Pairs of rows interleaved: (r0 r1) → a0 b0 a1 b1 | a4 b4 a5 b5, and the high halves.
        let t: [__m256; 8] = std::array::from_fn(|i| {
            let (a, b) = (r[i / 2 * 2], r[i / 2 * 2 + 1]);
            if i % 2 == 0 {
                _mm256_unpacklo_ps(a, b)
            } else {
                _mm256_unpackhi_ps(a, b)
            }
        });
        // Four rows' values of one column, in each 128-bit lane.
        let u = [
            _mm256_shuffle_ps::<0x44>(t[0], t[2]),
            _mm256_shuffle_ps::<0xEE>(t[0], t[2]),
            _mm256_shuffle_ps::<0x44>(t[1], t[3]),
            _mm256_shuffle_ps::<0xEE>(t[1], t[3]),
            _mm256_shuffle_ps::<0x44>(t[4], t[6]),
            _mm256_shuffle_ps::<0xEE>(t[4], t[6]),
            _mm256_shuffle_ps::<0x44>(t[5], t[7]),
            _mm256_shuffle_ps::<0xEE>(t[5], t[7]),
        ];
        // Lanes joined: column c of all eight rows (c < 4 from the low lanes, else the high).
        for c in 0..4 {
            let low = _mm256_permute2f128_ps::<0x20>(u[c], u[c + 4]);
            let high = _mm256_permute2f128_ps::<0x31>(u[c], u[c + 4]);
            unsafe {
                _mm256_storeu_ps(dst.add(c * ds), low);
                _mm256_storeu_ps(dst.add((c + 4) * ds), high);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_matches_the_definition() {
        // Whole 8 × 8 tiles, edges of rows, of columns and of both, one row, one column, and rows
        // at a stride wider than the matrix.
        for (rows, cols, pad) in [
            (8, 8, 0),
            (16, 24, 3),
            (7, 9, 0),
            (17, 33, 5),
            (1, 13, 0),
            (13, 1, 2),
        ] {
            let stride = cols + pad;
            let data: Vec<f32> = (0..rows * stride).map(|v| v as f32).collect();
            let b = Mat::new(&data, rows, cols, stride);
            let want: Vec<f32> = (0..cols * rows)
                .map(|e| data[(e % rows) * stride + e / rows])
                .collect();
            let mut plain = vec![f32::NAN; rows * cols];
            transpose_plain(b, &mut plain);
            assert_eq!(plain, want, "plain {rows} × {cols}");
            for cpu in Supported::all() {
                let mut got = vec![f32::NAN; rows * cols];
                variant(cpu)(b, &mut got);
                assert_eq!(got, want, "{:?} {rows} × {cols}", cpu.level());
            }
        }
    }
}
