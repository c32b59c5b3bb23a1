//! The one error type of the kernels. Each variant becomes one Python exception class in `py.rs`
//! (`Type` → TypeError, `Value` → ValueError, `Index` → IndexError, `Memory` → MemoryError), so a
//! kernel never needs to know about Python, and Python never sees a Rust panic.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoreError {
    Type(String),
    Value(String),
    Index(String),
    Memory(String),
}

pub type Result<T> = std::result::Result<T, CoreError>;

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::Type(m)
            | CoreError::Value(m)
            | CoreError::Index(m)
            | CoreError::Memory(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CoreError {}

/// A shape written as Python writes a tuple — `()`, `(3,)`, `(2, 3)` — so that messages read the
/// same from every backend.
pub fn fmt_shape(shape: &[usize]) -> String {
    match shape {
        [] => "()".to_string(),
        [one] => format!("({one},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// Number of elements of `shape`, or a MemoryError when it does not fit in memory's address space.
pub fn checked_len(shape: &[usize]) -> Result<usize> {
    shape
        .iter()
        .try_fold(1usize, |acc, &d| acc.checked_mul(d))
        .filter(|&len| len <= isize::MAX as usize)
        .ok_or_else(|| {
            CoreError::Memory(format!(
                "an array of shape {} is too large",
                fmt_shape(shape)
            ))
        })
}
