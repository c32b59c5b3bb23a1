//! Reading a call's arguments as the Python backends read them, and the one mapping of kernel
//! errors to Python exceptions: any array-like as a NumPy array, dtype names and the float kind
//! of a call (E1, E2, E3), integer, float and flag scalars (docs/api.md, "Scalar arguments"),
//! and E23's size checks before anything is allocated.

use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::error::{check_fits, int64_overflow, CoreError};

/// The one place where kernel errors become Python exceptions.
impl From<CoreError> for PyErr {
    fn from(e: CoreError) -> PyErr {
        match e {
            CoreError::Type(m) => PyTypeError::new_err(m),
            CoreError::Value(m) => PyValueError::new_err(m),
            CoreError::Index(m) => PyIndexError::new_err(m),
            CoreError::Memory(m) => PyMemoryError::new_err(m),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Arrays and dtypes

/// Any array-like as a NumPy array: arrays pass through, lists and scalars go through
/// `numpy.asarray`, so every backend accepts the same inputs.
pub fn as_ndarray<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyUntypedArray>> {
    if let Ok(arr) = obj.cast::<PyUntypedArray>() {
        return Ok(arr.clone());
    }
    let arr = obj
        .py()
        .import("numpy")?
        .getattr("asarray")?
        .call1((obj,))?;
    Ok(arr.cast_into::<PyUntypedArray>()?)
}

/// NumPy's name of `arr`'s dtype ("float32", "int64", …). The plain numeric kinds are named here
/// from the kind and size, as NumPy names them; any other dtype (datetime, structured, …) asks
/// Python: every call reads it, and asking Python for `dtype.name` costs a noticeable part of a
/// small `linear`.
pub fn dtype_name(arr: &Bound<'_, PyUntypedArray>) -> PyResult<String> {
    let dtype = arr.dtype();
    let bits = dtype.itemsize() * 8;
    let family = match dtype.kind() {
        b'b' if bits == 8 => return Ok("bool".to_owned()),
        b'i' if matches!(bits, 8 | 16 | 32 | 64) => "int",
        b'u' if matches!(bits, 8 | 16 | 32 | 64) => "uint",
        b'f' if matches!(bits, 16 | 32 | 64) => "float",
        b'c' if matches!(bits, 64 | 128) => "complex",
        _ => return dtype.getattr("name")?.extract(),
    };
    // A structured or sub-array dtype has kind 'V'; metadata and byte order do not change a name.
    Ok(format!("{family}{bits}"))
}

/// The two float dtypes the kernels compute in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Float {
    F32,
    F64,
}

/// E1: `arr`'s float kind and dtype name.
pub fn float_kind(name: &str, arr: &Bound<'_, PyUntypedArray>) -> PyResult<(Float, String)> {
    let dtype = dtype_name(arr)?;
    match dtype.as_str() {
        "float32" => Ok((Float::F32, dtype)),
        "float64" => Ok((Float::F64, dtype)),
        _ => Err(CoreError::Type(format!(
            "{name} has dtype {dtype}; expected float32 or float64"
        ))
        .into()),
    }
}

/// The float kind every present array of one call shares (E1, E2); absent optional arrays
/// (`None`) are skipped. The same list, with the call's other arrays, then goes to `check_all_fit`.
pub fn shared_float_kind(arrays: &[(&str, Option<&Bound<'_, PyUntypedArray>>)]) -> PyResult<Float> {
    let mut present = arrays
        .iter()
        .filter_map(|&(name, arr)| arr.map(|a| (name, a)));
    let (first_name, first) = present.next().expect("every call has a first float array");
    let (kind, first_dtype) = float_kind(first_name, first)?;
    for (name, arr) in present {
        let (other, dtype) = float_kind(name, arr)?;
        if other != kind {
            return Err(CoreError::Type(format!(
                "{name} has dtype {dtype} but {first_name} has dtype {first_dtype}; \
                 all inputs of one call must share one dtype"
            ))
            .into());
        }
    }
    Ok(kind)
}

/// The integer dtypes `ids`, `positions` and `pairs` may have (E3, E25 otherwise); `with_ids`
/// dispatches on the same names.
pub const ID_DTYPES: [&str; 8] = [
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
];

/// E3 (and its kin for `positions` and `pairs`), on the dtype alone, so that it is raised before
/// anything is read.
pub fn check_int_dtype(name: &str, arr: &Bound<'_, PyUntypedArray>) -> PyResult<()> {
    let dtype = dtype_name(arr)?;
    if ID_DTYPES.contains(&dtype.as_str()) {
        Ok(())
    } else {
        Err(int_dtype_error(name, &dtype))
    }
}

pub fn int_dtype_error(name: &str, dtype: &str) -> PyErr {
    CoreError::Type(format!(
        "{name} has dtype {dtype}; expected an integer dtype"
    ))
    .into()
}

// ---------------------------------------------------------------------------------------------
// Scalar arguments: read while PyO3 reads the arguments, before any array is checked, exactly as
// the Python backends read them (docs/api.md, "Scalar arguments").

/// An integer argument (`vocab_size`, `axis`, `n`), read as `operator.index` reads it (a TypeError
/// for anything else). A value beyond i64 is kept as its decimal text, so that `get` reports it as
/// E24 by name rather than letting PyO3's OverflowError escape.
pub struct Int64Arg(pub Result<i64, String>);

impl<'a, 'py> FromPyObject<'a, 'py> for Int64Arg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(v) => Ok(Int64Arg(Ok(v))),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                let index = obj.py().import("operator")?.getattr("index")?;
                Ok(Int64Arg(Err(index.call1((obj,))?.str()?.to_string())))
            }
            Err(e) => Err(e),
        }
    }
}

impl Int64Arg {
    pub fn get(self, name: &str) -> PyResult<i64> {
        self.0.map_err(|text| int64_overflow(name, &text).into())
    }
}

/// A float argument (`scale`, `eps`), read as CPython's `PyFloat_AsDouble` reads it (numbers and
/// objects with `__float__` or `__index__`; a TypeError otherwise). An integer too large for a
/// float (10**400) becomes ±inf, which E14 and E21 then reject like any infinity, instead of an
/// OverflowError escaping.
pub struct RealArg(pub f64);

impl<'a, 'py> FromPyObject<'a, 'py> for RealArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<f64>() {
            Ok(v) => Ok(RealArg(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                let positive = obj.gt(0)?;
                Ok(RealArg(if positive {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                }))
            }
            Err(e) => Err(e),
        }
    }
}

/// `causal`, read as `bool(causal)`: any object with a truth value, as in the Python backends
/// (an array of several elements raises NumPy's ValueError).
pub struct Flag(pub bool);

impl<'a, 'py> FromPyObject<'a, 'py> for Flag {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Flag(obj.is_truthy()?))
    }
}

// ---------------------------------------------------------------------------------------------
// Sizes (E23)

/// E23 for an argument: counted at its full shape, since a broadcast or strided view may have to
/// be copied into C order before a kernel can read it.
fn check_arg_fits(name: &str, arr: &Bound<'_, PyUntypedArray>) -> PyResult<()> {
    let dtype = dtype_name(arr)?;
    Ok(check_fits(
        name,
        arr.shape(),
        &dtype,
        arr.dtype().itemsize(),
    )?)
}

/// E23 for the result and then for each argument, in the order of the signature.
pub fn check_all_fit(
    result_shape: &[usize],
    result_dtype: &str,
    item_size: usize,
    args: &[(&str, Option<&Bound<'_, PyUntypedArray>>)],
) -> PyResult<()> {
    check_fits("the result", result_shape, result_dtype, item_size)?;
    check_args_fit(args)
}

/// E23 for each present argument, in the order of the signature.
pub fn check_args_fit(args: &[(&str, Option<&Bound<'_, PyUntypedArray>>)]) -> PyResult<()> {
    for &(name, arr) in args {
        if let Some(arr) = arr {
            check_arg_fits(name, arr)?;
        }
    }
    Ok(())
}
