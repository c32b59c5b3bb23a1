//! The training kernels: `linear_backward`, `layer_norm_backward`, `gelu_backward`,
//! `relu_backward`, `cross_entropy`, `embedding_backward` and `adamw_step` (in place), with the
//! checks and messages of the training spec, in its order.

use numpy::npyffi::NPY_ARRAY_WRITEABLE;
use numpy::{
    Element, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyReadwriteArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyTuple};

use crate::error::CoreError;
use crate::kernels::embedding::{check_ids, check_vocab_size};
use crate::kernels::train::adamw::{self, AdamW};
use crate::kernels::train::check_grad_shape;
use crate::kernels::train::dense_backward::{self as db, GeluGrad, LinearDims, NormBackward};
use crate::kernels::train::embedding_backward as eb;
use crate::kernels::train::loss;
use crate::linalg::transpose::Transpose;
use crate::py::arrays::{with_ids, CArray};
use crate::py::convert::{
    as_ndarray, check_all_fit, check_int_dtype, dtype_name, float_kind, shared_float_kind, Flag,
    Float, Int64Arg, RealArg,
};
use crate::py::output::{fill_output, fill_outputs, Fill};
use crate::real::{Id, Real};
use crate::runtime::threads;
use crate::simd::exp::ExpSum;

/// (grad_x, grad_weight, grad_bias or None) of y = x · Wᵀ + b, summed over x's leading dims.
#[pyfunction]
#[pyo3(
    signature = (x, weight, grad_y, *, bias=Flag(true)),
    text_signature = "(x, weight, grad_y, *, bias=True)"
)]
pub fn linear_backward<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    weight: &Bound<'py, PyAny>,
    grad_y: &Bound<'py, PyAny>,
    bias: Flag,
) -> PyResult<Bound<'py, PyAny>> {
    let x = as_ndarray(x)?;
    let weight = as_ndarray(weight)?;
    let grad_y = as_ndarray(grad_y)?;
    let arrays = [
        ("x", Some(&x)),
        ("weight", Some(&weight)),
        ("grad_y", Some(&grad_y)),
    ];
    let kind = shared_float_kind(&arrays)?;
    let dims = db::check_linear_backward(x.shape(), weight.shape(), grad_y.shape())?;
    check_all_fit(x.shape(), &dtype_name(&x)?, x.dtype().itemsize(), &arrays)?;
    let inputs = [&x, &weight, &grad_y];
    match kind {
        Float::F32 => linear_backward_typed::<f32>(py, inputs, dims, bias.0),
        Float::F64 => linear_backward_typed::<f64>(py, inputs, dims, bias.0),
    }
}

fn linear_backward_typed<'py, T: Transpose + Element>(
    py: Python<'py>,
    [x, weight, grad_y]: [&Bound<'py, PyUntypedArray>; 3],
    dims: LinearDims,
    bias: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (x_c, w_c, gy_c) = (
        CArray::<T>::read(x)?,
        CArray::<T>::read(weight)?,
        CArray::<T>::read(grad_y)?,
    );
    let (xs, ws, gys) = (x_c.slice(), w_c.slice(), gy_c.slice());
    let w_shape = [dims.d_out, dims.d_in];
    let work = threads::pool_work(db::linear_backward_work(dims));
    if bias {
        let b_shape = [dims.d_out];
        let [gx, gw, gb] = fill_outputs(
            py,
            [x.shape(), &w_shape[..], &b_shape[..]],
            Fill::Overwritten,
            work,
            |[gx, gw, gb]| db::linear_backward(xs, ws, gys, dims, gx, gw, Some(gb)),
        )?;
        Ok(PyTuple::new(py, [gx, gw, gb])?.into_any())
    } else {
        let [gx, gw] = fill_outputs(
            py,
            [x.shape(), &w_shape[..]],
            Fill::Overwritten,
            work,
            |[gx, gw]| db::linear_backward(xs, ws, gys, dims, gx, gw, None),
        )?;
        Ok(PyTuple::new(py, [gx, gw, py.None().into_bound(py)])?.into_any())
    }
}

/// (grad_x, grad_gamma, grad_beta) of layer_norm(x, gamma, beta, eps) over the last axis.
#[pyfunction]
#[pyo3(
    signature = (x, gamma, grad_y, eps=RealArg(1e-5)),
    text_signature = "(x, gamma, grad_y, eps=1e-05)"
)]
pub fn layer_norm_backward<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    gamma: &Bound<'py, PyAny>,
    grad_y: &Bound<'py, PyAny>,
    eps: RealArg,
) -> PyResult<Bound<'py, PyAny>> {
    let eps = eps.0;
    let x = as_ndarray(x)?;
    let gamma = as_ndarray(gamma)?;
    let grad_y = as_ndarray(grad_y)?;
    let arrays = [
        ("x", Some(&x)),
        ("gamma", Some(&gamma)),
        ("grad_y", Some(&grad_y)),
    ];
    let kind = shared_float_kind(&arrays)?;
    let d = db::check_layer_norm_backward(x.shape(), gamma.shape(), grad_y.shape(), eps)?;
    check_all_fit(x.shape(), &dtype_name(&x)?, x.dtype().itemsize(), &arrays)?;
    let inputs = [&x, &gamma, &grad_y];
    match kind {
        Float::F32 => layer_norm_backward_typed::<f32>(py, inputs, eps, d),
        Float::F64 => layer_norm_backward_typed::<f64>(py, inputs, eps, d),
    }
}

fn layer_norm_backward_typed<'py, T: NormBackward + Element>(
    py: Python<'py>,
    [x, gamma, grad_y]: [&Bound<'py, PyUntypedArray>; 3],
    eps: f64,
    d: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let (x_c, g_c, gy_c) = (
        CArray::<T>::read(x)?,
        CArray::<T>::read(gamma)?,
        CArray::<T>::read(grad_y)?,
    );
    let (xs, gs, gys) = (x_c.slice(), g_c.slice(), gy_c.slice());
    let eps = T::from_f64_lossy(eps);
    let v_shape = [d];
    // Work 0: the rows go to the team by parts (`for_each_part`), as the forward norms.
    let outs = fill_outputs(
        py,
        [x.shape(), &v_shape[..], &v_shape[..]],
        Fill::Overwritten,
        0,
        |[gx, gg, gb]| db::layer_norm_backward(xs, gs, gys, eps, d, gx, gg, gb),
    )?;
    Ok(PyTuple::new(py, outs)?.into_any())
}

/// grad_x of the exact-erf GELU: grad_y · (Φ(x) + x · φ(x)).
#[pyfunction]
pub fn gelu_backward<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    grad_y: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    elementwise_backward(py, x, grad_y, Activation::Gelu)
}

/// grad_x of ReLU: grad_y where x > 0, else 0.
#[pyfunction]
pub fn relu_backward<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    grad_y: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    elementwise_backward(py, x, grad_y, Activation::Relu)
}

#[derive(Clone, Copy)]
enum Activation {
    Gelu,
    Relu,
}

fn elementwise_backward<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    grad_y: &Bound<'py, PyAny>,
    act: Activation,
) -> PyResult<Bound<'py, PyAny>> {
    let x = as_ndarray(x)?;
    let grad_y = as_ndarray(grad_y)?;
    let arrays = [("x", Some(&x)), ("grad_y", Some(&grad_y))];
    let kind = shared_float_kind(&arrays)?;
    check_grad_shape("grad_y", grad_y.shape(), x.shape())?;
    check_all_fit(x.shape(), &dtype_name(&x)?, x.dtype().itemsize(), &arrays)?;
    match kind {
        Float::F32 => elementwise_typed::<f32>(py, &x, &grad_y, act),
        Float::F64 => elementwise_typed::<f64>(py, &x, &grad_y, act),
    }
}

fn elementwise_typed<'py, T: GeluGrad + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    grad_y: &Bound<'py, PyUntypedArray>,
    act: Activation,
) -> PyResult<Bound<'py, PyAny>> {
    let (x_c, gy_c) = (CArray::<T>::read(x)?, CArray::<T>::read(grad_y)?);
    let (xs, gys) = (x_c.slice(), gy_c.slice());
    // Work 0: the chunks go to the team by parts (`for_each_part`), as the norms.
    match act {
        Activation::Gelu => fill_output(py, x.shape(), Fill::Overwritten, 0, |gx| {
            db::gelu_backward(xs, gys, gx)
        }),
        Activation::Relu => fill_output(py, x.shape(), Fill::Overwritten, 0, |gx| {
            db::relu_backward(xs, gys, gx)
        }),
    }
}

/// (mean loss as a Python float, grad_logits [N, C]) of cross-entropy over logits [N, C] and
/// integer targets [N]; targets equal to `ignore_index` do not count.
#[pyfunction]
#[pyo3(
    signature = (logits, targets, *, ignore_index=Int64Arg(Ok(-100))),
    text_signature = "(logits, targets, *, ignore_index=-100)"
)]
pub fn cross_entropy<'py>(
    py: Python<'py>,
    logits: &Bound<'py, PyAny>,
    targets: &Bound<'py, PyAny>,
    ignore_index: Int64Arg,
) -> PyResult<Bound<'py, PyAny>> {
    let ignore_index = ignore_index.get("ignore_index")?;
    let logits = as_ndarray(logits)?;
    let targets = as_ndarray(targets)?;
    let (kind, dtype) = float_kind("logits", &logits)?;
    check_int_dtype("targets", &targets)?;
    let (_, classes) = loss::check_cross_entropy(logits.shape(), targets.shape())?;
    let args = [("logits", Some(&logits)), ("targets", Some(&targets))];
    check_all_fit(logits.shape(), &dtype, logits.dtype().itemsize(), &args)?;
    with_ids!(&targets, t => {
        loss::check_targets(t, classes, ignore_index)?;
        match kind {
            Float::F32 => cross_entropy_typed::<f32, _>(py, &logits, t, classes, ignore_index),
            Float::F64 => cross_entropy_typed::<f64, _>(py, &logits, t, classes, ignore_index),
        }
    })
}

fn cross_entropy_typed<'py, T: ExpSum + Element, I: Id>(
    py: Python<'py>,
    logits: &Bound<'py, PyUntypedArray>,
    targets: &[I],
    classes: usize,
    ignore_index: i64,
) -> PyResult<Bound<'py, PyAny>> {
    let l_c = CArray::<T>::read(logits)?;
    let ls = l_c.slice();
    let mut mean = f64::NAN;
    // Work 0: the rows go to the team by parts (`for_each_part`), as the norms.
    let grad = fill_output(py, logits.shape(), Fill::Overwritten, 0, |g| {
        loss::cross_entropy(ls, targets, classes, ignore_index, g).map(|l| mean = l)
    })?;
    let loss_value = PyFloat::new(py, mean).into_any();
    Ok(PyTuple::new(py, [loss_value, grad])?.into_any())
}

/// grad_table [vocab_size, d] of embedding_lookup(table, ids): grad_out's rows summed by id.
#[pyfunction]
pub fn embedding_backward<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
    grad_out: &Bound<'py, PyAny>,
    vocab_size: Int64Arg,
) -> PyResult<Bound<'py, PyAny>> {
    let vocab_size = vocab_size.get("vocab_size")?;
    let ids = as_ndarray(ids)?;
    let grad_out = as_ndarray(grad_out)?;
    check_int_dtype("ids", &ids)?;
    let (kind, dtype) = float_kind("grad_out", &grad_out)?;
    let vocab = check_vocab_size(vocab_size)?;
    let d = eb::check_embedding_backward(grad_out.shape(), ids.shape())?;
    let out_shape = [vocab, d];
    let args = [("ids", Some(&ids)), ("grad_out", Some(&grad_out))];
    check_all_fit(&out_shape, &dtype, grad_out.dtype().itemsize(), &args)?;
    with_ids!(&ids, id_slice => {
        check_ids(id_slice, vocab)?;
        match kind {
            Float::F32 => embedding_backward_typed::<f32, _>(py, &grad_out, id_slice, &out_shape),
            Float::F64 => embedding_backward_typed::<f64, _>(py, &grad_out, id_slice, &out_shape),
        }
    })
}

fn embedding_backward_typed<'py, T: Real + Element, I: Id>(
    py: Python<'py>,
    grad_out: &Bound<'py, PyUntypedArray>,
    ids: &[I],
    out_shape: &[usize; 2],
) -> PyResult<Bound<'py, PyAny>> {
    let g_c = CArray::<T>::read(grad_out)?;
    let gs = g_c.slice();
    let d = out_shape[1];
    let work = eb::embedding_backward_work(gs.len());
    fill_output(py, out_shape, Fill::Zeros, work, |table| {
        eb::embedding_backward(ids, gs, d, table)
    })
}

/// A float argument read only when its turn comes (after `step`), as `RealArg` reads it; an
/// absent one is its default.
pub enum LazyReal {
    Given(Py<PyAny>),
    Default(f64),
}

impl<'a, 'py> FromPyObject<'a, 'py> for LazyReal {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(LazyReal::Given(obj.to_owned().unbind()))
    }
}

impl LazyReal {
    fn get(self, py: Python<'_>) -> PyResult<f64> {
        match self {
            LazyReal::Given(obj) => Ok(obj.bind(py).extract::<RealArg>()?.0),
            LazyReal::Default(v) => Ok(v),
        }
    }
}

/// One AdamW step in place on param, exp_avg and exp_avg_sq (torch.optim.AdamW, foreach=False).
#[pyfunction]
#[pyo3(
    signature = (
        param, grad, exp_avg, exp_avg_sq, *, step, lr,
        beta1=LazyReal::Default(0.9), beta2=LazyReal::Default(0.999),
        eps=LazyReal::Default(1e-8), weight_decay=LazyReal::Default(0.01)
    ),
    text_signature = "(param, grad, exp_avg, exp_avg_sq, *, step, lr, beta1=0.9, beta2=0.999, \
                      eps=1e-08, weight_decay=0.01)"
)]
#[allow(clippy::too_many_arguments)]
pub fn adamw_step<'py>(
    py: Python<'py>,
    param: &Bound<'py, PyAny>,
    grad: &Bound<'py, PyAny>,
    exp_avg: &Bound<'py, PyAny>,
    exp_avg_sq: &Bound<'py, PyAny>,
    step: Int64Arg,
    lr: LazyReal,
    beta1: LazyReal,
    beta2: LazyReal,
    eps: LazyReal,
    weight_decay: LazyReal,
) -> PyResult<()> {
    let step = step.get("step")?;
    let h = AdamW {
        step,
        lr: lr.get(py)?,
        beta1: beta1.get(py)?,
        beta2: beta2.get(py)?,
        eps: eps.get(py)?,
        weight_decay: weight_decay.get(py)?,
    };
    let originals = [param, grad, exp_avg, exp_avg_sq];
    let [p, g, m, v] = [
        as_ndarray(param)?,
        as_ndarray(grad)?,
        as_ndarray(exp_avg)?,
        as_ndarray(exp_avg_sq)?,
    ];
    let kind = shared_float_kind(&[
        ("param", Some(&p)),
        ("grad", Some(&g)),
        ("exp_avg", Some(&m)),
        ("exp_avg_sq", Some(&v)),
    ])?;
    adamw::check_adamw_shapes(
        p.shape(),
        [
            ("grad", g.shape()),
            ("exp_avg", m.shape()),
            ("exp_avg_sq", v.shape()),
        ],
    )?;
    // E50: the arrays updated in place are the caller's own ndarrays, writable as they lie.
    for (name, i) in [("param", 0), ("exp_avg", 2), ("exp_avg_sq", 3)] {
        if !updatable(originals[i]) {
            return Err(CoreError::Value(format!(
                "{name} must be a C-contiguous, writeable NumPy array in native byte order, \
                 as adamw_step updates it in place"
            ))
            .into());
        }
    }
    // E53: no two of the four may overlap (np.may_share_memory's byte ranges).
    let named = [
        ("param", byte_range(&p)),
        ("grad", byte_range(&g)),
        ("exp_avg", byte_range(&m)),
        ("exp_avg_sq", byte_range(&v)),
    ];
    for i in 0..4 {
        for j in i + 1..4 {
            adamw::check_separate(named[i], named[j])?;
        }
    }
    adamw::check_adamw(&h)?;
    match kind {
        Float::F32 => adamw_typed::<f32>(py, [&p, &g, &m, &v], &h),
        Float::F64 => adamw_typed::<f64>(py, [&p, &g, &m, &v], &h),
    }
}

/// Whether `obj` is an ndarray that can be updated in place: C-contiguous, writeable and in native
/// byte order. A misaligned one is accepted too (as NumPy's backend updates it): `Updated`
/// updates it through an aligned copy.
fn updatable(obj: &Bound<'_, PyAny>) -> bool {
    let Ok(arr) = obj.cast::<PyUntypedArray>() else {
        return false;
    };
    // SAFETY: `as_array_ptr` points at the live array object `arr` holds; only its flags are read.
    let flags = unsafe { (*arr.as_array_ptr()).fields.flags };
    arr.is_c_contiguous()
        && flags & NPY_ARRAY_WRITEABLE != 0
        && arr.dtype().is_native_byteorder() != Some(false)
}

/// The bytes [start, end) that `arr`'s elements span (empty when it has no element).
fn byte_range(arr: &Bound<'_, PyUntypedArray>) -> (usize, usize) {
    // SAFETY: reads the data pointer of the live array object `arr` holds.
    let data = unsafe { (*arr.as_array_ptr()).fields.data } as usize as i128;
    if arr.shape().contains(&0) {
        return (0, 0);
    }
    let (mut lo, mut hi) = (data, data + arr.dtype().itemsize() as i128);
    for (&n, &s) in arr.shape().iter().zip(arr.strides()) {
        let reach = (n as i128 - 1) * s as i128;
        if reach < 0 {
            lo += reach;
        } else {
            hi += reach;
        }
    }
    (lo.max(0) as usize, hi.max(0) as usize)
}

fn adamw_typed<'py, T: Real + Element>(
    py: Python<'py>,
    [p, g, m, v]: [&Bound<'py, PyUntypedArray>; 4],
    h: &AdamW,
) -> PyResult<()> {
    // Nothing to update; and empty views of one buffer, which overlap nothing (E53), would still
    // look like one borrow to the numpy crate ("The given array is already borrowed").
    if p.len() == 0 {
        return Ok(());
    }
    let g_c = CArray::<T>::read(g)?;
    let gs = g_c.slice();
    let (mut p_u, mut m_u, mut v_u) = (
        Updated::<T>::new(p)?,
        Updated::<T>::new(m)?,
        Updated::<T>::new(v)?,
    );
    {
        let (ps, ms, vs) = (p_u.slice_mut()?, m_u.slice_mut()?, v_u.slice_mut()?);
        let work = threads::pool_work(adamw::adamw_work(ps.len()));
        py.detach(|| threads::run(work, || adamw::adamw_step(ps, gs, ms, vs, h)))?;
    }
    p_u.write_back();
    m_u.write_back();
    v_u.write_back();
    Ok(())
}

/// An array that `adamw_step` updates (already checked by E50 and E53): borrowed in place when it
/// is aligned, else updated in an aligned copy that is written back to its bytes afterwards (a
/// slice cannot point at a misaligned float).
enum Updated<'py, T: Element> {
    InPlace(PyReadwriteArrayDyn<'py, T>),
    Copied { data: Vec<T>, dest: *mut u8 },
}

impl<'py, T: Real + Element> Updated<'py, T> {
    fn new(a: &Bound<'py, PyUntypedArray>) -> PyResult<Self> {
        if a.is_aligned() {
            let rw = a
                .clone()
                .cast_into::<PyArrayDyn<T>>()
                .map_err(PyErr::from)?
                .try_readwrite()
                .map_err(|e| write_error(&e))?;
            return Ok(Updated::InPlace(rw));
        }
        let len = a.len();
        let mut data: Vec<T> = Vec::new();
        data.try_reserve_exact(len).map_err(|_| {
            CoreError::Memory(format!(
                "cannot allocate memory for a copy of an array of {len} elements"
            ))
        })?;
        // SAFETY: E50 checked that `a` is a C-contiguous, writeable, native-endian array of `T`,
        // so its `len` elements are the `len * size_of::<T>()` bytes from its data pointer; they
        // are copied bytewise (no alignment needed) into `data`'s reserved, aligned capacity, and
        // every bit pattern is a valid float.
        let dest = unsafe {
            let dest = (*a.as_array_ptr()).fields.data.cast::<u8>();
            std::ptr::copy_nonoverlapping(
                dest,
                data.as_mut_ptr() as *mut u8,
                len * std::mem::size_of::<T>(),
            );
            data.set_len(len);
            dest
        };
        Ok(Updated::Copied { data, dest })
    }

    fn slice_mut(&mut self) -> PyResult<&mut [T]> {
        match self {
            Updated::InPlace(rw) => rw.as_slice_mut().map_err(|e| write_error(&e)),
            Updated::Copied { data, .. } => Ok(data),
        }
    }

    /// The copy's numbers back into the array (called with the GIL held, as `new` was).
    fn write_back(self) {
        if let Updated::Copied { data, dest } = self {
            // SAFETY: `dest` is the data pointer of the array `new` copied from, still alive (the
            // caller holds a reference to it) and writeable, `data.len()` elements long; E53
            // guarantees no other argument's bytes lie there.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    data.as_ptr() as *const u8,
                    dest,
                    data.len() * std::mem::size_of::<T>(),
                );
            }
        }
    }
}

fn write_error(e: &dyn std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("cannot update the array: {e}"))
}
