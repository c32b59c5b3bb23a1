//! The one error type of the kernels. Each variant becomes one Python exception class in
//! `py::convert` (`Type` → TypeError, `Value` → ValueError, `Index` → IndexError, `Memory` →
//! MemoryError), so a kernel never needs to know about Python, and Python never sees a Rust panic.

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

/// `x` as Python's `repr(float)` writes it, so that E14 and E21 read the same from every backend:
/// the shortest digits that round-trip (Rust's too), in fixed notation when the decimal exponent is
/// in [-4, 16) and otherwise in scientific notation with a sign and at least two exponent digits
/// (`1e-05`, `-1.5e+20`), where Rust's `Debug` would write `1e-5` and `-1.5e20`.
pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return (if x > 0.0 { "inf" } else { "-inf" }).into();
    }
    let sci = format!("{x:e}"); // "-1.5e20", "1e-5", "0e0": shortest round-trip digits
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..16).contains(&exp) {
        let fixed = format!("{x}"); // Display never uses an exponent
        if fixed.contains('.') {
            fixed
        } else {
            fixed + ".0"
        }
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
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

/// The machine's physical memory in bytes, E23's limit (read once; `u64::MAX`, no limit, where the
/// OS does not say). The Python backends read the same two numbers (`os.sysconf`).
pub fn machine_memory() -> u64 {
    static MEMORY: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *MEMORY.get_or_init(|| {
        #[cfg(unix)]
        {
            // SAFETY: sysconf only reads system configuration; it has no memory-safety preconditions.
            let (pages, page_size) = unsafe {
                (
                    libc::sysconf(libc::_SC_PHYS_PAGES),
                    libc::sysconf(libc::_SC_PAGESIZE),
                )
            };
            if pages > 0 && page_size > 0 {
                return (pages as u64).saturating_mul(page_size as u64);
            }
        }
        u64::MAX
    })
}

/// E23: a MemoryError, before anything is allocated, when an array of `shape` with items of
/// `item_size` bytes would need more than the machine's memory. Asking anyway would either fail
/// inside an allocation (which aborts the process in Rust) or succeed on overcommitted memory and
/// get the process killed when the pages are touched.
///
/// Zero dimensions are skipped, as NumPy does when it checks that a shape can exist at all: an
/// empty `(0, 10**12)` result is refused like a full one, so no backend depends on how its array
/// library treats absurd empty shapes.
pub fn check_fits(what: &str, shape: &[usize], dtype: &str, item_size: usize) -> Result<()> {
    let bytes = shape
        .iter()
        .filter(|&&d| d != 0)
        .try_fold(item_size as u128, |acc, &d| acc.checked_mul(d as u128));
    let memory = machine_memory();
    match bytes {
        Some(b) if b <= u128::from(memory) => Ok(()),
        _ => Err(CoreError::Memory(format!(
            "{what} of shape {} and dtype {dtype} would need more than this machine's {memory} \
             bytes of memory",
            fmt_shape(shape)
        ))),
    }
}

/// E24 for an integer argument (`vocab_size`, `axis`, `n`) that does not fit in an i64; `value`
/// is its decimal text.
pub fn int64_overflow(name: &str, value: &str) -> CoreError {
    CoreError::Value(format!(
        "{name} must fit in a signed 64-bit integer, got {value}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn py_float_repr_matches_python() {
        // The right-hand sides are Python's repr() of the same floats.
        for (x, py) in [
            (-1e-5, "-1e-05"),
            (1e-4, "0.0001"),
            (-0.0, "-0.0"),
            (0.5, "0.5"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (-1.5e20, "-1.5e+20"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (-123.456, "-123.456"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(py_float_repr(x), py, "{x:?}");
        }
    }

    #[test]
    fn check_fits_counts_nonzero_dimensions_and_never_overflows() {
        assert!(check_fits("x", &[3, 4], "float32", 4).is_ok());
        assert!(check_fits("x", &[0, 4], "float32", 4).is_ok());
        let huge = usize::MAX;
        for shape in [
            &[huge, huge, huge][..],
            &[0, huge, huge],
            &[1 << 40, 1 << 40],
        ] {
            let err = check_fits("the result", shape, "float64", 8).unwrap_err();
            assert!(matches!(err, CoreError::Memory(_)), "{err:?}");
        }
    }
}
