//! The operations the Python API names, in pure Rust over slices (no pyo3 types): each checks
//! its shapes (with the messages of docs/api.md) and computes over `linalg`, `simd` and
//! `runtime`.

pub mod attention;
pub mod attention_backward;
pub mod attention_head;
pub mod attention_inputs;
pub mod dense;
pub mod embedding;
pub mod quant;
pub mod rope;
pub mod skipgram;
pub mod softmax;
pub mod train;
