//! Linear algebra over row-major views: the views themselves (`mat`, `rows`), matrix products
//! (`matmul` through gemm, `skinny` for a few rows), `transpose`, and the row norms (`norm`).
//! Each per-type choice (a float32 SIMD loop or the generic code) is a small trait beside its
//! kernel: `FewRows`, `Transpose`, `NormRows`.

pub mod mat;
pub mod matmul;
pub mod norm;
pub mod rows;
pub mod skinny;
pub mod small;
pub mod transpose;
