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
/// the shortest digits that round-trip, in fixed notation when the decimal exponent is in
/// [-4, 16) and otherwise in scientific notation with a sign and at least two exponent digits
/// (`1e-05`, `-1.5e+20`), where Rust's `Debug` would write `1e-5` and `-1.5e20`.
///
/// The digits are Rust's shortest round-trip ones, except in a tie: when `x` lies exactly halfway
/// between two strings of that length that both read back as `x` (-70368744177664.625: …64.62
/// and …64.63), Python (David Gay's dtoa, mode 0) takes the one whose last digit is even, where
/// Rust's may take the other.
pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return (if x > 0.0 { "inf" } else { "-inf" }).into();
    }
    let (digits, exp) = shortest_digits(x.abs());
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let fixed = if exp < 0 {
            format!("0.{}{digits}", "0".repeat((-exp - 1) as usize))
        } else {
            let point = exp as usize + 1;
            if digits.len() > point {
                format!("{}.{}", &digits[..point], &digits[point..])
            } else {
                format!("{digits}{}.0", "0".repeat(point - digits.len()))
            }
        };
        format!("{sign}{fixed}")
    } else {
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        let exp_sign = if exp < 0 { '-' } else { '+' };
        format!(
            "{sign}{first}{point}{rest}e{exp_sign}{:02}",
            exp.unsigned_abs()
        )
    }
}

/// The shortest significant digits that read back as `x` (finite, ≥ 0) and the decimal exponent
/// of the first: `x` = 0.d₁d₂… × 10^(exp + 1). A tie between two candidates goes to the even
/// last digit, as Python's repr breaks it.
fn shortest_digits(x: f64) -> (String, i32) {
    let sci = format!("{x:e}"); // "1.5e20", "1e-5", "0e0": Rust's shortest round-trip digits
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len();
    let last_odd = digits.bytes().last().is_some_and(|d| (d - b'0') % 2 == 1);
    if !last_odd {
        return (digits, exp);
    }
    // x's exact decimal expansion (at most 767 significant digits for an f64): a tie when the
    // digits after the first k are exactly 5000….
    let exact = format!("{x:.1100e}");
    let (exact_mantissa, exact_exp) = exact.split_once('e').unwrap_or((&exact, "0"));
    if exact_exp.parse::<i32>().ok() != Some(exp) {
        return (digits, exp);
    }
    let exact_digits: Vec<u8> = exact_mantissa.bytes().filter(u8::is_ascii_digit).collect();
    let tie =
        exact_digits.get(k) == Some(&b'5') && exact_digits[k + 1..].iter().all(|&d| d == b'0');
    if !tie {
        return (digits, exp);
    }
    // The two candidates are the exact digits cut to k (T) and T + 1 in the last place; Rust's
    // is one of them. (T ending in 9 is no real tie: T + 1 would end in 0, and a shorter string
    // would round-trip.)
    let truncated = &exact_digits[..k];
    let mut other = digits.clone().into_bytes();
    let last = other[k - 1];
    if truncated == digits.as_bytes() {
        if last == b'9' {
            return (digits, exp);
        }
        other[k - 1] = last + 1;
    } else {
        other[k - 1] = last - 1;
    }
    let other = String::from_utf8(other).unwrap_or_default();
    let candidate = format!("{}.{}e{exp}", &other[..1], &other[1..]);
    match candidate.parse::<f64>() {
        Ok(back) if back == x => (other, exp),
        _ => (digits, exp),
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
            (0.0, "0.0"),
            (1.0, "1.0"),
            (100.0, "100.0"),
            (0.001, "0.001"),
            (1e-4 + 1e-20, "0.00010000000000000002"),
            (1e22, "1e+22"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            // Ties between two shortest strings go to the even last digit, as repr breaks them:
            // this float is 70368744177664.625 exactly, as close to …64.62 as to …64.63.
            (-70368744177664.62, "-70368744177664.62"),
            (70368744177664.62, "70368744177664.62"),
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
