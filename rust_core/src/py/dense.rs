//! The rest of a Transformer layer: `linear` (and `half_linear`, its half-precision weights),
//! `layer_norm`, `gelu`, `rms_norm`, `silu`, `swiglu` and `rope`.

use half::f16;
use numpy::{Element, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::error::CoreError;

use crate::kernels::dense;
use crate::kernels::rope as rp;
use crate::linalg::norm::NormRows;
use crate::linalg::rows::rows_and_cols;
use crate::linalg::skinny::FewRows;
use crate::linalg::transpose::Transpose;
use crate::py::arrays::{with_ids, CArray, Operand};
use crate::py::convert::{
    as_ndarray, check_all_fit, check_int_dtype, dtype_name, float_kind, shared_float_kind, Float,
    RealArg,
};
use crate::py::output::{fill_output, Fill};
use crate::real::{Id, Real};
use crate::runtime::threads;
use crate::simd::gelu::Gelu;
use crate::simd::silu::Silu;

#[pyfunction]
#[pyo3(signature = (x, weight, bias=None, *, weight_t=None))]
pub fn linear<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    weight: &Bound<'py, PyAny>,
    bias: Option<&Bound<'py, PyAny>>,
    weight_t: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let x = as_ndarray(x)?;
    let weight = as_ndarray(weight)?;
    let bias = bias.filter(|b| !b.is_none()).map(as_ndarray).transpose()?;
    let weight_t = weight_t
        .filter(|w| !w.is_none())
        .map(as_ndarray)
        .transpose()?;
    let arrays = [
        ("x", Some(&x)),
        ("weight", Some(&weight)),
        ("bias", bias.as_ref()),
        ("weight_t", weight_t.as_ref()),
    ];
    let kind = shared_float_kind(&arrays)?;
    let dims = dense::check_linear(x.shape(), weight.shape(), bias.as_ref().map(|b| b.shape()))?;
    if let Some(wt) = &weight_t {
        dense::check_weight_t(wt.shape(), weight.shape())?;
    }
    let out_shape = [&x.shape()[..x.ndim() - 1], &[dims.2]].concat();
    check_all_fit(&out_shape, &dtype_name(&x)?, x.dtype().itemsize(), &arrays)?;
    let weights = (&weight, weight_t.as_ref());
    match kind {
        Float::F32 => linear_typed::<f32>(py, &x, weights, bias.as_ref(), dims, &out_shape),
        Float::F64 => linear_typed::<f64>(py, &x, weights, bias.as_ref(), dims, &out_shape),
    }
}

fn linear_typed<'py, T: FewRows + Transpose + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    (weight, weight_t): (
        &Bound<'py, PyUntypedArray>,
        Option<&Bound<'py, PyUntypedArray>>,
    ),
    bias: Option<&Bound<'py, PyUntypedArray>>,
    (rows, d_in, d_out): (usize, usize, usize),
    out_shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let (x, w) = (CArray::<T>::read(x)?, CArray::<T>::read(weight)?);
    let b = bias.map(CArray::<T>::read).transpose()?;
    let wt = weight_t.map(CArray::<T>::read).transpose()?;
    let (x, w, b) = (x.slice(), w.slice(), b.as_ref().map(CArray::slice));
    let wt = wt.as_ref().map(CArray::slice);
    let work = dense::linear_run_work::<T>(rows, d_in, d_out);
    fill_output(py, out_shape, Fill::Overwritten, work, |y| {
        dense::linear(x, (w, wt), b, d_in, d_out, y)
    })
}

/// x · float32(weight)ᵀ + bias for a float16 weight [out, in]: x [..., in] and bias [out] float32
/// → [..., out] float32.
#[pyfunction]
#[pyo3(signature = (x, weight, bias=None))]
pub fn half_linear<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    weight: &Bound<'py, PyAny>,
    bias: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let x = as_ndarray(x)?;
    let weight = as_ndarray(weight)?;
    let bias = bias.filter(|b| !b.is_none()).map(as_ndarray).transpose()?;
    for (name, arr, want) in [
        ("x", Some(&x), "float32"),
        ("weight", Some(&weight), "float16"),
        ("bias", bias.as_ref(), "float32"),
    ] {
        if let Some(arr) = arr {
            let dtype = dtype_name(arr)?;
            if dtype != want {
                return Err(CoreError::Type(format!(
                    "{name} has dtype {dtype}; half_linear takes float32 x and bias and a \
                     float16 weight"
                ))
                .into());
            }
        }
    }
    let dims = dense::check_linear(x.shape(), weight.shape(), bias.as_ref().map(|b| b.shape()))?;
    let (rows, d_in, d_out) = dims;
    let out_shape = [&x.shape()[..x.ndim() - 1], &[d_out]].concat();
    let arrays = [
        ("x", Some(&x)),
        ("weight", Some(&weight)),
        ("bias", bias.as_ref()),
    ];
    check_all_fit(&out_shape, "float32", 4, &arrays)?;
    let (x, w) = (CArray::<f32>::read(&x)?, CArray::<f16>::read(&weight)?);
    let b = bias.as_ref().map(CArray::<f32>::read).transpose()?;
    let (x, w, b) = (x.slice(), w.slice(), b.as_ref().map(CArray::slice));
    let work = dense::half_linear_run_work(rows, d_in, d_out);
    fill_output(py, &out_shape, Fill::Overwritten, work, |y| {
        dense::half_linear(x, w, b, d_in, d_out, y)
    })
}

/// LayerNorm over the last axis, of x + residual when a residual is given.
#[pyfunction]
#[pyo3(
    signature = (x, gamma, beta, eps=RealArg(1e-5), *, residual=None),
    text_signature = "(x, gamma, beta, eps=1e-05, *, residual=None)"
)]
pub fn layer_norm<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    gamma: &Bound<'py, PyAny>,
    beta: &Bound<'py, PyAny>,
    eps: RealArg,
    residual: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let eps = eps.0;
    let x = as_ndarray(x)?;
    let gamma = as_ndarray(gamma)?;
    let beta = as_ndarray(beta)?;
    let residual = residual
        .filter(|r| !r.is_none())
        .map(as_ndarray)
        .transpose()?;
    let arrays = [
        ("x", Some(&x)),
        ("gamma", Some(&gamma)),
        ("beta", Some(&beta)),
        ("residual", residual.as_ref()),
    ];
    let kind = shared_float_kind(&arrays)?;
    let r_shape = residual.as_ref().map(|r| r.shape());
    let d = dense::check_layer_norm(x.shape(), gamma.shape(), beta.shape(), r_shape, eps)?;
    check_all_fit(x.shape(), &dtype_name(&x)?, x.dtype().itemsize(), &arrays)?;
    let inputs = (&x, &gamma, &beta, residual.as_ref());
    match kind {
        Float::F32 => layer_norm_typed::<f32>(py, inputs, eps, d),
        Float::F64 => layer_norm_typed::<f64>(py, inputs, eps, d),
    }
}

/// x, gamma, beta and the optional residual of `layer_norm`.
type NormInputs<'a, 'py> = (
    &'a Bound<'py, PyUntypedArray>,
    &'a Bound<'py, PyUntypedArray>,
    &'a Bound<'py, PyUntypedArray>,
    Option<&'a Bound<'py, PyUntypedArray>>,
);

fn layer_norm_typed<'py, T: NormRows + Element>(
    py: Python<'py>,
    (x, gamma, beta, residual): NormInputs<'_, 'py>,
    eps: f64,
    d: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let (x_c, g, b) = (
        CArray::<T>::read(x)?,
        CArray::<T>::read(gamma)?,
        CArray::<T>::read(beta)?,
    );
    let r = residual.map(CArray::<T>::read).transpose()?;
    let (x_s, g, b, r) = (
        x_c.slice(),
        g.slice(),
        b.slice(),
        r.as_ref().map(CArray::slice),
    );
    let eps = T::from_f64_lossy(eps);
    // Work 0: the norm hands its rows to the team itself (`dense::by_rows`).
    fill_output(py, x.shape(), Fill::Overwritten, 0, |y| {
        dense::layer_norm(x_s, r, (g, b), eps, d, y)
    })
}

/// The exact GELU, 0.5 · z · (1 + erf(z / √2)), elementwise, of z = x (+ bias along the rows).
#[pyfunction]
#[pyo3(signature = (x, *, bias=None), text_signature = "(x, *, bias=None)")]
pub fn gelu<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    bias: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let x = as_ndarray(x)?;
    let bias = bias.filter(|b| !b.is_none()).map(as_ndarray).transpose()?;
    let arrays = [("x", Some(&x)), ("bias", bias.as_ref())];
    let kind = shared_float_kind(&arrays)?;
    dense::check_gelu(x.shape(), bias.as_ref().map(|b| b.shape()))?;
    check_all_fit(x.shape(), &dtype_name(&x)?, x.dtype().itemsize(), &arrays)?;
    match kind {
        Float::F32 => gelu_typed::<f32>(py, &x, bias.as_ref()),
        Float::F64 => gelu_typed::<f64>(py, &x, bias.as_ref()),
    }
}

fn gelu_typed<'py, T: Gelu + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    bias: Option<&Bound<'py, PyUntypedArray>>,
) -> PyResult<Bound<'py, PyAny>> {
    let c = CArray::<T>::read(x)?;
    let b = bias.map(CArray::<T>::read).transpose()?;
    let (s, b) = (c.slice(), b.as_ref().map(CArray::slice));
    let work = threads::pool_work(dense::gelu_work(s.len()));
    fill_output(py, x.shape(), Fill::Overwritten, work, |y| {
        dense::gelu(s, b, y)
    })
}

/// RMSNorm over the last axis: x / √(mean(x²) + eps) · weight.
#[pyfunction]
#[pyo3(
    signature = (x, weight, eps=RealArg(1e-5)),
    text_signature = "(x, weight, eps=1e-05)"
)]
pub fn rms_norm<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    weight: &Bound<'py, PyAny>,
    eps: RealArg,
) -> PyResult<Bound<'py, PyAny>> {
    let eps = eps.0;
    let x = as_ndarray(x)?;
    let weight = as_ndarray(weight)?;
    let arrays = [("x", Some(&x)), ("weight", Some(&weight))];
    let kind = shared_float_kind(&arrays)?;
    let d = dense::check_rms_norm(x.shape(), weight.shape(), eps)?;
    check_all_fit(x.shape(), &dtype_name(&x)?, x.dtype().itemsize(), &arrays)?;
    match kind {
        Float::F32 => rms_norm_typed::<f32>(py, &x, &weight, eps, d),
        Float::F64 => rms_norm_typed::<f64>(py, &x, &weight, eps, d),
    }
}

fn rms_norm_typed<'py, T: NormRows + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    weight: &Bound<'py, PyUntypedArray>,
    eps: f64,
    d: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let (x_c, w) = (CArray::<T>::read(x)?, CArray::<T>::read(weight)?);
    let (x_s, w) = (x_c.slice(), w.slice());
    let eps = T::from_f64_lossy(eps);
    // Work 0: the norm hands its rows to the team itself (`dense::by_rows`).
    fill_output(py, x.shape(), Fill::Overwritten, 0, |y| {
        dense::rms_norm(x_s, w, eps, d, y)
    })
}

/// SiLU, x · σ(x), elementwise.
#[pyfunction]
pub fn silu<'py>(py: Python<'py>, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let x = as_ndarray(x)?;
    let (kind, dtype) = float_kind("x", &x)?;
    check_all_fit(x.shape(), &dtype, x.dtype().itemsize(), &[("x", Some(&x))])?;
    match kind {
        Float::F32 => silu_typed::<f32>(py, &x, None),
        Float::F64 => silu_typed::<f64>(py, &x, None),
    }
}

/// SwiGLU, silu(gate) · up, elementwise in one pass (gate and up of one shape).
#[pyfunction]
pub fn swiglu<'py>(
    py: Python<'py>,
    gate: &Bound<'py, PyAny>,
    up: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let gate = as_ndarray(gate)?;
    let up = as_ndarray(up)?;
    let arrays = [("gate", Some(&gate)), ("up", Some(&up))];
    let kind = shared_float_kind(&arrays)?;
    dense::check_swiglu(gate.shape(), up.shape())?;
    let (dtype, item_size) = (dtype_name(&gate)?, gate.dtype().itemsize());
    check_all_fit(gate.shape(), &dtype, item_size, &arrays)?;
    match kind {
        Float::F32 => silu_typed::<f32>(py, &gate, Some(&up)),
        Float::F64 => silu_typed::<f64>(py, &gate, Some(&up)),
    }
}

fn silu_typed<'py, T: Silu + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    up: Option<&Bound<'py, PyUntypedArray>>,
) -> PyResult<Bound<'py, PyAny>> {
    // Rows read in place: gate and up are column blocks of one product.
    let (n, cols) = rows_and_cols(x.shape());
    let x_in = Operand::<T>::read(x, n, cols)?;
    let up_in = up.map(|u| Operand::<T>::read(u, n, cols)).transpose()?;
    let (x_rows, up_rows) = (x_in.rows(), up_in.as_ref().map(Operand::rows));
    let work = dense::silu_work(x.shape().iter().product());
    fill_output(py, x.shape(), Fill::Overwritten, work, |y| {
        dense::silu(&x_rows, up_rows.as_ref(), y)
    })
}

/// Rotary position embedding over adjacent pairs: x [..., n, d], positions [n] (integers ≥ 0).
#[pyfunction]
#[pyo3(
    signature = (x, positions, base=RealArg(10000.0)),
    text_signature = "(x, positions, base=10000.0)"
)]
pub fn rope<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    positions: &Bound<'py, PyAny>,
    base: RealArg,
) -> PyResult<Bound<'py, PyAny>> {
    let base = base.0;
    let x = as_ndarray(x)?;
    let positions = as_ndarray(positions)?;
    let (kind, dtype) = float_kind("x", &x)?;
    check_int_dtype("positions", &positions)?;
    let dims = rp::check_rope(x.shape(), positions.shape(), base)?;
    let args = [("x", Some(&x)), ("positions", Some(&positions))];
    check_all_fit(x.shape(), &dtype, x.dtype().itemsize(), &args)?;
    with_ids!(&positions, pos => {
        rp::check_positions(pos)?;
        match kind {
            Float::F32 => rope_typed::<f32, _>(py, &x, pos, dims, base),
            Float::F64 => rope_typed::<f64, _>(py, &x, pos, dims, base),
        }
    })
}

fn rope_typed<'py, T: Real + Element, I: Id>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    positions: &[I],
    dims: rp::RopeDims,
    base: f64,
) -> PyResult<Bound<'py, PyAny>> {
    // Rows read in place: q and k are heads of column blocks of one Q·K·V product.
    let x_in = Operand::<T>::read(x, dims.n, dims.d)?;
    let x_rows = x_in.rows();
    let work = rp::rope_work(dims.batch * dims.n * dims.d);
    fill_output(py, x.shape(), Fill::Overwritten, work, |y| {
        let table = rp::angles_cached(positions, dims.d, base);
        rp::rope(&x_rows, &table, dims, y)
    })
}
