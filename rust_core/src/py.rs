//! The binding layer: converts Python arguments to slices, dispatches on dtype, releases the GIL
//! around the kernels, and converts results and errors back. No math lives here.

use numpy::ndarray::{ArrayD, CowArray, IxDyn};
use numpy::{
    Element, IntoPyArray, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn,
    PyUntypedArray, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::attention::{self as attn, Dims, Mask, MaskValues, Options};
use crate::dense;
use crate::embedding;
use crate::error::{checked_len, fmt_shape, CoreError};
use crate::real::Real;
use crate::softmax as sm;
use crate::threads;

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
// Reading arguments

/// Any array-like as a NumPy array: arrays pass through, lists and scalars go through
/// `numpy.asarray`, so every backend accepts the same inputs.
fn as_ndarray<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyUntypedArray>> {
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

fn dtype_name(arr: &Bound<'_, PyUntypedArray>) -> PyResult<String> {
    arr.dtype().getattr("name")?.extract()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Float {
    F32,
    F64,
}

fn float_kind(name: &str, arr: &Bound<'_, PyUntypedArray>) -> PyResult<(Float, String)> {
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

/// The float kind shared by named arrays, checking E1 then E2 for each in turn.
fn shared_float_kind(arrays: &[(&str, &Bound<'_, PyUntypedArray>)]) -> PyResult<Float> {
    let (first_name, first) = arrays[0];
    let (kind, first_dtype) = float_kind(first_name, first)?;
    for &(name, arr) in &arrays[1..] {
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

fn readonly<'py, T: Element>(
    arr: &Bound<'py, PyUntypedArray>,
) -> PyResult<PyReadonlyArrayDyn<'py, T>> {
    arr.cast::<PyArrayDyn<T>>()?
        .try_readonly()
        .map_err(|e| PyValueError::new_err(format!("cannot read the array: {e}")))
}

/// The array's elements in C order: borrowed when already C-contiguous, copied once otherwise.
fn contiguous<'a, T: Element + Clone>(ro: &'a PyReadonlyArrayDyn<'_, T>) -> CowArray<'a, T, IxDyn> {
    let view = ro.as_array();
    if view.is_standard_layout() {
        CowArray::from(view)
    } else {
        CowArray::from(view.as_standard_layout().into_owned())
    }
}

fn as_slice<'a, T>(c: &'a CowArray<'_, T, IxDyn>) -> &'a [T] {
    // `contiguous` only returns standard-layout arrays, for which `as_slice` is always Some.
    c.as_slice().unwrap_or(&[])
}

/// Run `$body` with `$ids` (an integer array of any width and signedness) read as a slice
/// `$slice` of its own integer type — one expansion per type, no widening copy. Any other dtype is
/// E3, raised before `$body` runs.
macro_rules! with_ids {
    ($ids:expr, $slice:ident => $body:expr) => {{
        macro_rules! as_type {
            ($t:ty) => {{
                let ro = readonly::<$t>($ids)?;
                let c = contiguous(&ro);
                let $slice: &[$t] = as_slice(&c);
                $body
            }};
        }
        match dtype_name($ids)?.as_str() {
            "int8" => as_type!(i8),
            "int16" => as_type!(i16),
            "int32" => as_type!(i32),
            "int64" => as_type!(i64),
            "uint8" => as_type!(u8),
            "uint16" => as_type!(u16),
            "uint32" => as_type!(u32),
            "uint64" => as_type!(u64),
            other => Err(CoreError::Type(format!(
                "ids has dtype {other}; expected an integer dtype"
            ))
            .into()),
        }
    }};
}

/// How a kernel fills its output, which decides how NumPy allocates it.
#[derive(Clone, Copy)]
enum Fill {
    /// The kernel writes only some elements (one-hot): np.zeros.
    Zeros,
    /// The kernel writes every element: np.empty, which skips zeroing and lets the allocator hand
    /// back memory that is already faulted in.
    Overwritten,
}

/// A new C-ordered output array allocated by NumPy: it raises MemoryError itself when memory runs
/// out, and asks the OS for huge pages for big arrays (far fewer page faults than a fresh Vec).
fn new_output<'py, T: Element>(
    py: Python<'py>,
    shape: &[usize],
    fill: Fill,
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    checked_len(shape)?;
    let make = match fill {
        Fill::Zeros => "zeros",
        Fill::Overwritten => "empty",
    };
    let arr = py
        .import("numpy")?
        .getattr(make)?
        .call1((PyTuple::new(py, shape)?, numpy::dtype::<T>(py)))?;
    Ok(arr.cast_into::<PyArrayDyn<T>>()?)
}

/// Fill a new output of `shape` with `kernel(out_slice)` run without the GIL.
fn fill_output<'py, T: Element>(
    py: Python<'py>,
    shape: &[usize],
    fill: Fill,
    work: usize,
    kernel: impl FnOnce(&mut [T]) + Send,
) -> PyResult<Bound<'py, PyAny>> {
    let out = new_output::<T>(py, shape, fill)?;
    {
        let mut rw = out
            .try_readwrite()
            .map_err(|e| PyValueError::new_err(format!("cannot write the result: {e}")))?;
        let slice = rw
            .as_slice_mut()
            .map_err(|e| PyValueError::new_err(format!("cannot write the result: {e}")))?;
        compute(py, work, || kernel(slice))?;
    }
    Ok(out.into_any())
}

/// Run a kernel of about `work` operations without the GIL (in the pool when worth it).
fn compute<R: Send>(py: Python<'_>, work: usize, f: impl FnOnce() -> R + Send) -> PyResult<R> {
    Ok(py.detach(|| threads::run(work, f))?)
}

// ---------------------------------------------------------------------------------------------
// embedding_lookup, one_hot

fn lookup_typed<'py, T: Real + Element, I: embedding::Id>(
    py: Python<'py>,
    table: &Bound<'py, PyUntypedArray>,
    ids: &[I],
    ids_shape: &[usize],
    d: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let ro = readonly::<T>(table)?;
    let t = contiguous(&ro);
    let t = as_slice(&t);
    let out_shape = [ids_shape, &[d]].concat();
    let work = embedding::lookup_work(ids.len() * d);
    fill_output(py, &out_shape, Fill::Overwritten, work, |out| {
        embedding::embedding_lookup(t, d, ids, out)
    })
}

/// Rows of `table` [V, d] picked by `ids` (any integer dtype, any shape) → [*ids.shape, d].
#[pyfunction]
pub fn embedding_lookup<'py>(
    py: Python<'py>,
    table: &Bound<'py, PyAny>,
    ids: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let table = as_ndarray(table)?;
    let ids = as_ndarray(ids)?;
    let (kind, _) = float_kind("table", &table)?;
    with_ids!(&ids, id_slice => {
        let (vocab, d) = embedding::check_table_shape(table.shape())?;
        embedding::check_ids(id_slice, vocab)?;
        match kind {
            Float::F32 => lookup_typed::<f32, _>(py, &table, id_slice, ids.shape(), d),
            Float::F64 => lookup_typed::<f64, _>(py, &table, id_slice, ids.shape(), d),
        }
    })
}

fn one_hot_typed<'py, T: Real + Element, I: embedding::Id>(
    py: Python<'py>,
    ids: &[I],
    ids_shape: &[usize],
    vocab: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let out_shape = [ids_shape, &[vocab]].concat();
    // Not worth the pool: one store per row into an already-zeroed array.
    fill_output(py, &out_shape, Fill::Zeros, 0, |out| {
        embedding::one_hot(ids, vocab, T::one(), out)
    })
}

/// One-hot vectors: [*ids.shape, vocab_size] with a single 1 per row.
#[pyfunction]
#[pyo3(signature = (ids, vocab_size, dtype=None))]
pub fn one_hot<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
    vocab_size: i64,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let dtype = match dtype {
        Some(d) => d.clone(),
        None => numpy::dtype::<f32>(py).into_any(),
    };
    let dtype: String = py
        .import("numpy")?
        .getattr("dtype")?
        .call1((dtype,))?
        .getattr("name")?
        .extract()?;
    let kind = match dtype.as_str() {
        "float32" => Float::F32,
        "float64" => Float::F64,
        _ => {
            return Err(CoreError::Type(format!(
                "dtype {dtype} is not supported; expected float32 or float64"
            ))
            .into())
        }
    };
    let ids = as_ndarray(ids)?;
    with_ids!(&ids, id_slice => {
        let vocab = embedding::check_vocab_size(vocab_size)?;
        embedding::check_ids(id_slice, vocab)?;
        match kind {
            Float::F32 => one_hot_typed::<f32, _>(py, id_slice, ids.shape(), vocab),
            Float::F64 => one_hot_typed::<f64, _>(py, id_slice, ids.shape(), vocab),
        }
    })
}

// ---------------------------------------------------------------------------------------------
// softmax

fn softmax_typed<'py, T: Real + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    axis: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let ro = readonly::<T>(x)?;
    let shape = x.shape().to_vec();
    let last = shape.len() - 1;
    if axis == last {
        let c = contiguous(&ro);
        let src = as_slice(&c);
        let len = shape[last];
        return fill_output(
            py,
            &shape,
            Fill::Overwritten,
            sm::softmax_work(src.len()),
            |out| sm::softmax_rows_into(src, out, len),
        );
    }
    // Another axis: move it last so that each slice is a contiguous row ([..., len]), normalise,
    // and move it back.
    let mut perm: Vec<usize> = (0..shape.len()).filter(|&a| a != axis).collect();
    perm.push(axis);
    let moved = ro
        .as_array()
        .permuted_axes(perm.clone())
        .as_standard_layout()
        .into_owned();
    let moved_shape = moved.shape().to_vec();
    let mut data = moved.into_raw_vec_and_offset().0;
    let len = moved_shape[last];
    compute(py, sm::softmax_work(data.len()), || {
        sm::softmax_rows(&mut data, len)
    })?;
    let moved_back = ArrayD::from_shape_vec(IxDyn(&moved_shape), data)
        .map_err(|e| PyValueError::new_err(format!("internal shape error: {e}")))?;
    let mut inverse = vec![0; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p] = i;
    }
    let out = moved_back
        .permuted_axes(inverse)
        .as_standard_layout()
        .into_owned();
    Ok(out.into_pyarray(py).into_any())
}

/// Numerically stable softmax along `axis` (see docs/api.md for −inf, NaN and empty slices).
#[pyfunction]
#[pyo3(signature = (x, axis=-1), text_signature = "(x, axis=-1)")]
pub fn softmax<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    axis: i64,
) -> PyResult<Bound<'py, PyAny>> {
    let x = as_ndarray(x)?;
    let (kind, _) = float_kind("x", &x)?;
    let ndim = x.ndim() as i64;
    let resolved = if axis < 0 { axis + ndim } else { axis };
    if !(0..ndim).contains(&resolved) {
        return Err(CoreError::Value(format!(
            "axis {axis} is out of bounds for x of shape {}",
            fmt_shape(x.shape())
        ))
        .into());
    }
    match kind {
        Float::F32 => softmax_typed::<f32>(py, &x, resolved as usize),
        Float::F64 => softmax_typed::<f64>(py, &x, resolved as usize),
    }
}

// ---------------------------------------------------------------------------------------------
// attention, attention_weights

/// A mask as read from Python: bool, float of q's dtype (borrowed), or float of another dtype
/// converted to q's (overflow → ±inf, silently, as a cast does: float64's lowest value is a common
/// "masked" marker).
enum MaskArray<'py, T: Element> {
    Allow(PyReadonlyArrayDyn<'py, bool>),
    Add(PyReadonlyArrayDyn<'py, T>),
    Converted(ArrayD<T>),
}

/// The mask's elements in C order, ready for `MaskValues`.
enum MaskData<'a, T> {
    Allow(CowArray<'a, bool, IxDyn>),
    Add(CowArray<'a, T, IxDyn>),
}

fn read_mask<'py, T: Real + Element>(
    mask: &Bound<'py, PyUntypedArray>,
) -> PyResult<MaskArray<'py, T>> {
    let dtype = dtype_name(mask)?;
    if dtype == "bool" {
        return Ok(MaskArray::Allow(readonly::<bool>(mask)?));
    }
    if !dtype.starts_with("float") {
        return Err(CoreError::Type(format!(
            "mask has dtype {dtype}; expected bool or a float dtype"
        ))
        .into());
    }
    if mask.dtype().is_equiv_to(&numpy::dtype::<T>(mask.py())) {
        return Ok(MaskArray::Add(readonly::<T>(mask)?));
    }
    // float16 and float32 widen to float64 exactly; then one rounding to T.
    let wide = mask
        .call_method1("astype", ("float64",))?
        .cast_into::<PyUntypedArray>()?;
    let ro = readonly::<f64>(&wide)?;
    Ok(MaskArray::Converted(ro.as_array().mapv(T::from_f64_lossy)))
}

impl<'py, T: Element + Clone> MaskArray<'py, T> {
    fn data(&self) -> MaskData<'_, T> {
        match self {
            MaskArray::Allow(ro) => MaskData::Allow(contiguous(ro)),
            MaskArray::Add(ro) => MaskData::Add(contiguous(ro)),
            MaskArray::Converted(a) => MaskData::Add(a.as_standard_layout()),
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn attention_typed<'py, T: Real + Element>(
    py: Python<'py>,
    q: &Bound<'py, PyUntypedArray>,
    k: &Bound<'py, PyUntypedArray>,
    v: Option<&Bound<'py, PyUntypedArray>>,
    dims: &Dims,
    mask: Option<&Bound<'py, PyUntypedArray>>,
    causal: bool,
    scale: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let mask_array = mask.map(read_mask::<T>).transpose()?;
    let mask_data = mask_array.as_ref().map(MaskArray::data);
    let mask = match (&mask_data, mask) {
        (Some(data), Some(arr)) => {
            let values = match data {
                MaskData::Allow(c) => MaskValues::Allow(as_slice(c)),
                MaskData::Add(c) => MaskValues::Add(as_slice(c)),
            };
            Some(Mask::broadcast(values, arr.shape(), dims)?)
        }
        _ => None,
    };
    let scale = attn::check_scale(scale.unwrap_or_else(|| attn::default_scale(dims.d_k)))?;
    let opt = Options {
        mask,
        causal,
        scale: T::from(scale).unwrap_or_else(T::one),
    };

    let q_ro = readonly::<T>(q)?;
    let q_c = contiguous(&q_ro);
    let k_ro = readonly::<T>(k)?;
    let k_c = contiguous(&k_ro);
    let (q_s, k_s) = (as_slice(&q_c), as_slice(&k_c));
    match v {
        Some(v) => {
            let v_ro = readonly::<T>(v)?;
            let v_c = contiguous(&v_ro);
            let v_s = as_slice(&v_c);
            let out_shape = [dims.lead.as_slice(), &[dims.n, dims.d_v]].concat();
            fill_output(
                py,
                &out_shape,
                Fill::Overwritten,
                attn::attention_work(dims),
                |out| attn::attention(q_s, k_s, v_s, dims, &opt, out),
            )
        }
        None => {
            let out_shape = dims.scores_shape();
            fill_output(
                py,
                &out_shape,
                Fill::Overwritten,
                attn::attention_work(dims),
                |out| attn::attention_weights(q_s, k_s, dims, &opt, out),
            )
        }
    }
}

/// Validate and dispatch both attention entry points (`v` is None for the weights).
fn attention_entry<'py>(
    py: Python<'py>,
    q: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    v: Option<&Bound<'py, PyAny>>,
    mask: Option<&Bound<'py, PyAny>>,
    causal: bool,
    scale: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let q = as_ndarray(q)?;
    let k = as_ndarray(k)?;
    let v = v.map(as_ndarray).transpose()?;
    let mut named = vec![("q", &q), ("k", &k)];
    if let Some(v) = &v {
        named.push(("v", v));
    }
    let kind = shared_float_kind(&named)?;
    let dims = attn::check_shapes(q.shape(), k.shape(), v.as_ref().map(|v| v.shape()))?;
    let mask = mask.filter(|m| !m.is_none()).map(as_ndarray).transpose()?;
    match kind {
        Float::F32 => {
            attention_typed::<f32>(py, &q, &k, v.as_ref(), &dims, mask.as_ref(), causal, scale)
        }
        Float::F64 => {
            attention_typed::<f64>(py, &q, &k, v.as_ref(), &dims, mask.as_ref(), causal, scale)
        }
    }
}

/// softmax(q kᵀ · scale + mask) v: q [..., n, d_k], k [..., m, d_k], v [..., m, d_v] → [..., n, d_v].
#[pyfunction]
#[pyo3(signature = (q, k, v, *, mask=None, causal=false, scale=None))]
pub fn attention<'py>(
    py: Python<'py>,
    q: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    v: &Bound<'py, PyAny>,
    mask: Option<&Bound<'py, PyAny>>,
    causal: bool,
    scale: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    attention_entry(py, q, k, Some(v), mask, causal, scale)
}

/// The [..., n, m] weights softmax(q kᵀ · scale + mask) of the same computation as `attention`.
#[pyfunction]
#[pyo3(signature = (q, k, *, mask=None, causal=false, scale=None))]
pub fn attention_weights<'py>(
    py: Python<'py>,
    q: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    mask: Option<&Bound<'py, PyAny>>,
    causal: bool,
    scale: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    attention_entry(py, q, k, None, mask, causal, scale)
}

// ---------------------------------------------------------------------------------------------
// linear, layer_norm, gelu

fn linear_typed<'py, T: Real + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    weight: &Bound<'py, PyUntypedArray>,
    bias: Option<&Bound<'py, PyUntypedArray>>,
    (rows, d_in, d_out): (usize, usize, usize),
) -> PyResult<Bound<'py, PyAny>> {
    let (x_ro, w_ro) = (readonly::<T>(x)?, readonly::<T>(weight)?);
    let (x_c, w_c) = (contiguous(&x_ro), contiguous(&w_ro));
    let b_ro = bias.map(readonly::<T>).transpose()?;
    let b_c = b_ro.as_ref().map(contiguous);
    let (x_s, w_s, b_s) = (as_slice(&x_c), as_slice(&w_c), b_c.as_ref().map(as_slice));
    let out_shape = [&x.shape()[..x.ndim() - 1], &[d_out]].concat();
    fill_output(
        py,
        &out_shape,
        Fill::Overwritten,
        dense::linear_work(rows, d_in, d_out),
        |y| dense::linear(x_s, w_s, b_s, d_in, d_out, y),
    )
}

/// x · weightᵀ + bias: x [..., in], weight [out, in] (PyTorch's layout), bias [out] → [..., out].
#[pyfunction]
#[pyo3(signature = (x, weight, bias=None))]
pub fn linear<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    weight: &Bound<'py, PyAny>,
    bias: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let x = as_ndarray(x)?;
    let weight = as_ndarray(weight)?;
    let bias = bias.filter(|b| !b.is_none()).map(as_ndarray).transpose()?;
    let mut named = vec![("x", &x), ("weight", &weight)];
    if let Some(b) = &bias {
        named.push(("bias", b));
    }
    let kind = shared_float_kind(&named)?;
    let dims = dense::check_linear(x.shape(), weight.shape(), bias.as_ref().map(|b| b.shape()))?;
    match kind {
        Float::F32 => linear_typed::<f32>(py, &x, &weight, bias.as_ref(), dims),
        Float::F64 => linear_typed::<f64>(py, &x, &weight, bias.as_ref(), dims),
    }
}

fn layer_norm_typed<'py, T: Real + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    gamma: &Bound<'py, PyUntypedArray>,
    beta: &Bound<'py, PyUntypedArray>,
    eps: f64,
    d: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let (x_ro, g_ro, b_ro) = (
        readonly::<T>(x)?,
        readonly::<T>(gamma)?,
        readonly::<T>(beta)?,
    );
    let (x_c, g_c, b_c) = (contiguous(&x_ro), contiguous(&g_ro), contiguous(&b_ro));
    let (x_s, g_s, b_s) = (as_slice(&x_c), as_slice(&g_c), as_slice(&b_c));
    let eps = T::from_f64_lossy(eps);
    fill_output(
        py,
        x.shape(),
        Fill::Overwritten,
        dense::layer_norm_work(x_s.len()),
        |y| dense::layer_norm(x_s, g_s, b_s, eps, d, y),
    )
}

/// LayerNorm over the last axis: (x − mean) / √(var + eps) · gamma + beta.
#[pyfunction]
#[pyo3(signature = (x, gamma, beta, eps=1e-5), text_signature = "(x, gamma, beta, eps=1e-05)")]
pub fn layer_norm<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    gamma: &Bound<'py, PyAny>,
    beta: &Bound<'py, PyAny>,
    eps: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let x = as_ndarray(x)?;
    let gamma = as_ndarray(gamma)?;
    let beta = as_ndarray(beta)?;
    let kind = shared_float_kind(&[("x", &x), ("gamma", &gamma), ("beta", &beta)])?;
    let d = dense::check_layer_norm(x.shape(), gamma.shape(), beta.shape(), eps)?;
    match kind {
        Float::F32 => layer_norm_typed::<f32>(py, &x, &gamma, &beta, eps, d),
        Float::F64 => layer_norm_typed::<f64>(py, &x, &gamma, &beta, eps, d),
    }
}

fn gelu_typed<'py, T: Real + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
) -> PyResult<Bound<'py, PyAny>> {
    let ro = readonly::<T>(x)?;
    let c = contiguous(&ro);
    let s = as_slice(&c);
    fill_output(
        py,
        x.shape(),
        Fill::Overwritten,
        dense::gelu_work(s.len()),
        |y| dense::gelu(s, y),
    )
}

/// The exact GELU, 0.5 · x · (1 + erf(x / √2)), elementwise.
#[pyfunction]
pub fn gelu<'py>(py: Python<'py>, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let x = as_ndarray(x)?;
    match float_kind("x", &x)?.0 {
        Float::F32 => gelu_typed::<f32>(py, &x),
        Float::F64 => gelu_typed::<f64>(py, &x),
    }
}

// ---------------------------------------------------------------------------------------------
// threads

/// Resize the thread pool the kernels use (n ≥ 1). Calls already running finish on the old pool.
#[pyfunction]
pub fn set_num_threads(n: i64) -> PyResult<()> {
    Ok(threads::set_num_threads(n)?)
}

/// The size of the thread pool the kernels use.
#[pyfunction]
pub fn get_num_threads() -> PyResult<usize> {
    Ok(threads::get_num_threads()?)
}
