//! `dequantize` and `quantized_linear`: GGML blocks (Q4_1, Q8_0) as raw bytes.

use numpy::{PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::error::CoreError;
use crate::kernels::dense;
use crate::kernels::quant::{self, qlinear, Kind};
use crate::py::arrays::CArray;
use crate::py::convert::{as_ndarray, check_all_fit, dtype_name, Int64Arg};
use crate::py::output::{fill_output, Fill};

/// The float32 values of GGML blocks: data (uint8, whole blocks), kind "q4_1" or "q8_0",
/// shape (..., k) with k % 32 == 0.
#[pyfunction]
pub fn dequantize<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    kind: &Bound<'py, PyAny>,
    shape: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let kind = read_kind(kind)?;
    let shape = read_shape(shape)?;
    let data = as_ndarray(data)?;
    check_data_dtype(&data)?;
    let shape = quant::check_shape(&shape, None)?;
    check_all_fit(&shape, "float32", 4, &[("data", Some(&data))])?;
    quant::check_bytes(kind, &shape, data.len())?;
    let data = CArray::<u8>::read(&data)?;
    let bytes = data.slice();
    let values = shape.iter().product::<usize>();
    fill_output(
        py,
        &shape,
        Fill::Overwritten,
        quant::dequantize_work(values),
        |out| quant::dequantize(kind, bytes, out),
    )
}

/// x · Wᵀ for W [out, in] given as GGML blocks (never expanded in memory): x [..., in] float32
/// → [..., out] float32.
#[pyfunction]
pub fn quantized_linear<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    kind: &Bound<'py, PyAny>,
    shape: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let kind = read_kind(kind)?;
    let shape = read_shape(shape)?;
    let x = as_ndarray(x)?;
    let data = as_ndarray(data)?;
    let x_dtype = dtype_name(&x)?;
    if x_dtype != "float32" {
        return Err(CoreError::Type(format!(
            "x has dtype {x_dtype}; quantized products take float32"
        ))
        .into());
    }
    check_data_dtype(&data)?;
    dense::last_dim(x.shape())?;
    let shape = quant::check_shape(&shape, Some(2))?;
    let (rows, d_in, d_out) = dense::check_linear(x.shape(), &shape, None)?;
    let out_shape = [&x.shape()[..x.ndim() - 1], &[d_out]].concat();
    let args = [("x", Some(&x)), ("data", Some(&data))];
    check_all_fit(&out_shape, "float32", 4, &args)?;
    quant::check_bytes(kind, &shape, data.len())?;
    let (x_c, w_c) = (CArray::<f32>::read(&x)?, CArray::<u8>::read(&data)?);
    let (x_s, w_s) = (x_c.slice(), w_c.slice());
    fill_output(
        py,
        &out_shape,
        Fill::Overwritten,
        qlinear::quantized_linear_work(rows, d_in, d_out),
        |y| qlinear::quantized_linear(kind, x_s, w_s, d_in, d_out, y),
    )
}

/// `kind` (E31): the name of a block format, a str.
fn read_kind(kind: &Bound<'_, PyAny>) -> PyResult<Kind> {
    let name = match kind.cast::<PyString>() {
        Ok(s) => Some(s.to_str()?.to_owned()),
        Err(_) => None,
    };
    match name.as_deref().and_then(Kind::parse) {
        Some(k) => Ok(k),
        None => Err(quant::kind_error(&kind.repr()?.to_string()).into()),
    }
}

/// `shape` (E32, E24): a tuple or list of integers, each read as `operator.index` reads it.
fn read_shape(shape: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    if !(shape.is_instance_of::<PyTuple>() || shape.is_instance_of::<PyList>()) {
        return Err(CoreError::Type(format!(
            "shape must be a tuple of integers, got {}",
            shape.get_type().name()?
        ))
        .into());
    }
    shape
        .try_iter()?
        .map(|item| item?.extract::<Int64Arg>()?.get("shape"))
        .collect()
}

/// E35: quantized data is raw bytes.
fn check_data_dtype(data: &Bound<'_, PyUntypedArray>) -> PyResult<()> {
    let dtype = dtype_name(data)?;
    if dtype == "uint8" {
        Ok(())
    } else {
        Err(CoreError::Type(format!(
            "data has dtype {dtype}; expected uint8 (raw GGML blocks)"
        ))
        .into())
    }
}
