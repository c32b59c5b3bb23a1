//! `softmax`, `attention`, `attention_weights`, `attention_with_weights` and
//! `attention_backward`.

use numpy::{Element, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::error::{check_fits, fmt_shape, CoreError};
use crate::kernels::attention as attn;
use crate::kernels::attention_backward as attn_bwd;
use crate::kernels::attention_head::HeadPath;
use crate::kernels::attention_inputs::{
    self as inputs, Dims, Mask, MaskLayout, MaskValues, Options, Results,
};
use crate::kernels::softmax as sm;
use crate::linalg::skinny::FewRows;
use crate::linalg::small::SmallProduct;
use crate::py::arrays::{owned_c_order, CArray, Operand};
use crate::py::convert::{
    as_ndarray, check_all_fit, check_args_fit, dtype_name, float_kind, shared_float_kind, Flag,
    Float, Int64Arg, RealArg,
};
use crate::py::output::{fill_output, fill_outputs, Fill};
use crate::real::Real;
use crate::runtime::threads::pool_work;
use crate::simd::exp::ExpSum;

#[pyfunction]
#[pyo3(signature = (x, axis=Int64Arg(Ok(-1))), text_signature = "(x, axis=-1)")]
pub fn softmax<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    axis: Int64Arg,
) -> PyResult<Bound<'py, PyAny>> {
    let axis = axis.get("axis")?;
    let x = as_ndarray(x)?;
    let (kind, dtype) = float_kind("x", &x)?;
    let axis = sm::resolve_axis(axis, x.shape())?;
    check_all_fit(x.shape(), &dtype, x.dtype().itemsize(), &[("x", Some(&x))])?;
    match kind {
        Float::F32 => softmax_typed::<f32>(py, &x, axis),
        Float::F64 => softmax_typed::<f64>(py, &x, axis),
    }
}

fn softmax_typed<'py, T: ExpSum + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    axis: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let c = CArray::<T>::read(x)?;
    let src = c.slice();
    let (shape, work) = (x.shape(), sm::softmax_work(src.len()));
    fill_output(py, shape, Fill::Overwritten, work, |out| {
        sm::softmax_along(src, out, shape, axis)
    })
}

// ---------------------------------------------------------------------------------------------
// attention, attention_weights, attention_with_weights

/// softmax(q kᵀ · scale + mask) v: q [..., n, d_k], k [..., m, d_k], v [..., m, d_v] → [..., n, d_v].
#[pyfunction]
#[pyo3(
    signature = (q, k, v, *, mask=None, causal=Flag(false), scale=None),
    text_signature = "(q, k, v, *, mask=None, causal=False, scale=None)"
)]
pub fn attention<'py>(
    py: Python<'py>,
    q: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    v: &Bound<'py, PyAny>,
    mask: Option<&Bound<'py, PyAny>>,
    causal: Flag,
    scale: Option<RealArg>,
) -> PyResult<Bound<'py, PyAny>> {
    attention_entry(py, q, k, Some(v), mask, causal, scale, Results::Output)
}

/// The [..., n, m] weights softmax(q kᵀ · scale + mask) of the same computation as `attention`.
#[pyfunction]
#[pyo3(
    signature = (q, k, *, mask=None, causal=Flag(false), scale=None),
    text_signature = "(q, k, *, mask=None, causal=False, scale=None)"
)]
pub fn attention_weights<'py>(
    py: Python<'py>,
    q: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    mask: Option<&Bound<'py, PyAny>>,
    causal: Flag,
    scale: Option<RealArg>,
) -> PyResult<Bound<'py, PyAny>> {
    attention_entry(py, q, k, None, mask, causal, scale, Results::Weights)
}

/// (`attention(...)`, `attention_weights(...)`) of one computation: QKᵀ and the softmax run once.
#[pyfunction]
#[pyo3(
    signature = (q, k, v, *, mask=None, causal=Flag(false), scale=None),
    text_signature = "(q, k, v, *, mask=None, causal=False, scale=None)"
)]
pub fn attention_with_weights<'py>(
    py: Python<'py>,
    q: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    v: &Bound<'py, PyAny>,
    mask: Option<&Bound<'py, PyAny>>,
    causal: Flag,
    scale: Option<RealArg>,
) -> PyResult<Bound<'py, PyAny>> {
    attention_entry(py, q, k, Some(v), mask, causal, scale, Results::Both)
}

/// Validate and dispatch the attention entry points (`v` is None for the weights alone).
#[allow(clippy::too_many_arguments)]
fn attention_entry<'py>(
    py: Python<'py>,
    q: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    v: Option<&Bound<'py, PyAny>>,
    mask: Option<&Bound<'py, PyAny>>,
    causal: Flag,
    scale: Option<RealArg>,
    returns: Results,
) -> PyResult<Bound<'py, PyAny>> {
    let args = AttentionArgs::check(q, k, v, mask, causal, scale, returns)?;
    match args.kind {
        Float::F32 => attention_typed::<f32>(py, &args, returns),
        Float::F64 => attention_typed::<f64>(py, &args, returns),
    }
}

/// The arguments of one attention call, all checked, as attention's entry points and
/// `attention_backward` check them.
struct AttentionArgs<'py> {
    q: Bound<'py, PyUntypedArray>,
    k: Bound<'py, PyUntypedArray>,
    v: Option<Bound<'py, PyUntypedArray>>,
    kind: Float,
    dims: Dims,
    mask: Option<(Bound<'py, PyUntypedArray>, MaskLayout)>,
    causal: bool,
    scale: f64,
}

impl<'py> AttentionArgs<'py> {
    /// The checks of docs/api.md in their order: E1/E2 over q, k, v; the shapes (E9–E12, E30);
    /// the mask's dtype (E4) and shape (E13); the scale (E14); E23 for `returns`' results, then
    /// for q, k, v and the mask.
    fn check(
        q: &Bound<'py, PyAny>,
        k: &Bound<'py, PyAny>,
        v: Option<&Bound<'py, PyAny>>,
        mask: Option<&Bound<'py, PyAny>>,
        causal: Flag,
        scale: Option<RealArg>,
        returns: Results,
    ) -> PyResult<Self> {
        let q = as_ndarray(q)?;
        let k = as_ndarray(k)?;
        let v = v.map(as_ndarray).transpose()?;
        let floats = [("q", Some(&q)), ("k", Some(&k)), ("v", v.as_ref())];
        let kind = shared_float_kind(&floats)?;
        let dims = inputs::check_shapes(q.shape(), k.shape(), v.as_ref().map(|v| v.shape()))?;
        let mask = mask.filter(|m| !m.is_none()).map(as_ndarray).transpose()?;
        // E4 and E13 from the mask's dtype and shape, before any of its data is read or converted.
        let layout = match &mask {
            Some(m) => {
                mask_is_bool(m)?;
                Some(MaskLayout::new(m.shape(), &dims)?)
            }
            None => None,
        };
        let scale =
            inputs::check_scale(scale.map_or_else(|| inputs::default_scale(dims.d_k), |s| s.0))?;
        // E23: the results in the order they are returned, then the arguments.
        let (dtype, item_size) = (dtype_name(&q)?, q.dtype().itemsize());
        for (what, shape) in returns.shapes(&dims) {
            check_fits(what, &shape, &dtype, item_size)?;
        }
        check_args_fit(&[floats[0], floats[1], floats[2], ("mask", mask.as_ref())])?;
        Ok(AttentionArgs {
            q,
            k,
            v,
            kind,
            dims,
            mask: mask.zip(layout),
            causal: causal.0,
            scale,
        })
    }
}

/// q, k, v and the mask of checked arguments, read as the kernels read them.
struct AttentionInputs<'py, T: Element> {
    q: Operand<'py, T>,
    k: Operand<'py, T>,
    v: Option<Operand<'py, T>>,
    mask: Option<(MaskArray<'py, T>, MaskLayout)>,
}

impl<'py, T: Real + Element> AttentionInputs<'py, T> {
    /// Operands are read in place when their rows are contiguous: the heads of a fused Q·K·V
    /// product and a key/value cache's first positions would otherwise be copied every layer.
    fn read(args: &AttentionArgs<'py>) -> PyResult<Self> {
        let dims = &args.dims;
        let mask = match &args.mask {
            Some((arr, layout)) => Some((MaskArray::<T>::read(arr)?, layout.clone())),
            None => None,
        };
        Ok(AttentionInputs {
            q: Operand::<T>::read(&args.q, dims.n, dims.d_k)?,
            k: Operand::<T>::read(&args.k, dims.m, dims.d_k)?,
            v: args
                .v
                .as_ref()
                .map(|v| Operand::<T>::read(v, dims.m, dims.d_v))
                .transpose()?,
            mask,
        })
    }

    /// The elements of q, k and v (v's empty when there is none) and `dims` with their layouts.
    fn slices(&self, dims: &Dims) -> (&[T], &[T], &[T], Dims) {
        let mut dims = dims.clone();
        let (q_s, q_layout) = self.q.elements(&dims.q_layout);
        let (k_s, k_layout) = self.k.elements(&dims.k_layout);
        let (v_s, v_layout) = match &self.v {
            Some(v) => v.elements(&dims.v_layout),
            None => (&[][..], dims.v_layout.clone()), // attention_weights: no v
        };
        (dims.q_layout, dims.k_layout, dims.v_layout) = (q_layout, k_layout, v_layout);
        (q_s, k_s, v_s, dims)
    }

    /// The kernels' options for these inputs.
    fn options(&self, args: &AttentionArgs<'py>) -> Options<'_, T> {
        Options {
            mask: self.mask.as_ref().map(|(m, layout)| Mask {
                values: m.values(),
                layout: layout.clone(),
            }),
            causal: args.causal,
            // A finite scale beyond float32's range becomes ±inf, as NumPy's cast makes it.
            scale: T::from_f64_lossy(args.scale),
        }
    }
}

fn attention_typed<'py, T: ExpSum + FewRows + SmallProduct + HeadPath + Element>(
    py: Python<'py>,
    args: &AttentionArgs<'py>,
    returns: Results,
) -> PyResult<Bound<'py, PyAny>> {
    let inputs = AttentionInputs::<T>::read(args)?;
    let opt = inputs.options(args);
    let (q_s, k_s, v_s, dims) = inputs.slices(&args.dims);
    let dims = &dims;
    let work = attn::attention_work(dims);
    let (out_shape, scores_shape) = (dims.output_shape(), dims.scores_shape());
    match returns {
        // The output alone splits through the team below the pool's size (`for_each_block`).
        Results::Output => fill_output(py, &out_shape, Fill::Overwritten, pool_work(work), |out| {
            attn::attention(q_s, k_s, v_s, dims, &opt, out)
        }),
        Results::Weights => fill_output(py, &scores_shape, Fill::Overwritten, work, |out| {
            attn::attention_weights(q_s, k_s, dims, &opt, out)
        }),
        Results::Both => {
            let shapes = [out_shape.as_slice(), &scores_shape];
            let [z, w] = fill_outputs(py, shapes, Fill::Overwritten, work, |[z, w]| {
                attn::attention_with_weights(q_s, k_s, v_s, dims, &opt, z, w)
            })?;
            Ok(PyTuple::new(py, [z, w])?.into_any())
        }
    }
}

// ---------------------------------------------------------------------------------------------
// attention_backward

/// (grad_q, grad_k, grad_v) of `attention(q, k, v, mask=mask, causal=causal, scale=scale)` for
/// the gradient `grad_out` [..., n, d_v] of its output.
#[pyfunction]
#[pyo3(
    signature = (q, k, v, grad_out, *, mask=None, causal=Flag(false), scale=None),
    text_signature = "(q, k, v, grad_out, *, mask=None, causal=False, scale=None)"
)]
#[allow(clippy::too_many_arguments)]
pub fn attention_backward<'py>(
    py: Python<'py>,
    q: &Bound<'py, PyAny>,
    k: &Bound<'py, PyAny>,
    v: &Bound<'py, PyAny>,
    grad_out: &Bound<'py, PyAny>,
    mask: Option<&Bound<'py, PyAny>>,
    causal: Flag,
    scale: Option<RealArg>,
) -> PyResult<Bound<'py, PyAny>> {
    // attention's checks, E23 for its result included, then grad_out's: E1/E2, E43, E23.
    let args = AttentionArgs::check(q, k, Some(v), mask, causal, scale, Results::Output)?;
    let grad_out = as_ndarray(grad_out)?;
    shared_float_kind(&[("q", Some(&args.q)), ("grad_out", Some(&grad_out))])?;
    let expected = args.dims.output_shape();
    if grad_out.shape() != expected.as_slice() {
        return Err(CoreError::Value(format!(
            "grad_out has shape {}; expected {}, the shape of the forward's output",
            fmt_shape(grad_out.shape()),
            fmt_shape(&expected)
        ))
        .into());
    }
    check_args_fit(&[("grad_out", Some(&grad_out))])?;
    match args.kind {
        Float::F32 => attention_backward_typed::<f32>(py, &args, &grad_out),
        Float::F64 => attention_backward_typed::<f64>(py, &args, &grad_out),
    }
}

fn attention_backward_typed<'py, T: attn_bwd::AttentionGrad + Element>(
    py: Python<'py>,
    args: &AttentionArgs<'py>,
    grad_out: &Bound<'py, PyUntypedArray>,
) -> PyResult<Bound<'py, PyAny>> {
    let inputs = AttentionInputs::<T>::read(args)?;
    let d_o = CArray::<T>::read(grad_out)?;
    let d_o = d_o.slice();
    let opt = inputs.options(args);
    let (q_s, k_s, v_s, dims) = inputs.slices(&args.dims);
    let dims = &dims;
    let work = pool_work(attn_bwd::attention_backward_work(dims));
    let v_shape = args.v.as_ref().map_or(&[][..], |v| v.shape());
    let shapes = [args.q.shape(), args.k.shape(), v_shape];
    let [gq, gk, gv] = fill_outputs(py, shapes, Fill::Overwritten, work, |[gq, gk, gv]| {
        attn_bwd::attention_backward(q_s, k_s, v_s, d_o, dims, &opt, gq, gk, gv)
    })?;
    Ok(PyTuple::new(py, [gq, gk, gv])?.into_any())
}

/// A mask as read from Python: bool, float of q's dtype, or float of another dtype converted to
/// q's (overflow → ±inf, silently, as a cast does: float64's lowest value is a common "masked"
/// marker).
enum MaskArray<'py, T: Element> {
    Allow(CArray<'py, bool>),
    Add(CArray<'py, T>),
    Converted(numpy::ndarray::ArrayD<T>),
}

impl<'py, T: Real + Element> MaskArray<'py, T> {
    /// Read a mask already checked by `mask_is_bool` (E4), `MaskLayout::new` (E13) and E23.
    fn read(mask: &Bound<'py, PyUntypedArray>) -> PyResult<Self> {
        if mask_is_bool(mask)? {
            return Ok(MaskArray::Allow(CArray::read(mask)?));
        }
        if mask.dtype().is_equiv_to(&numpy::dtype::<T>(mask.py())) {
            return Ok(MaskArray::Add(CArray::read(mask)?));
        }
        // float16 and float32 widen to float64 exactly; then one rounding to T.
        let wide = mask
            .call_method1("astype", ("float64",))?
            .cast_into::<PyUntypedArray>()?;
        let ro = crate::py::arrays::readonly::<f64>(&wide)?;
        Ok(MaskArray::Converted(owned_c_order(ro.as_array(), |&x| {
            T::from_f64_lossy(x)
        })?))
    }

    /// The mask's elements in C order.
    fn values(&self) -> MaskValues<'_, T> {
        match self {
            MaskArray::Allow(c) => MaskValues::Allow(c.slice()),
            MaskArray::Add(c) => MaskValues::Add(c.slice()),
            MaskArray::Converted(a) => MaskValues::Add(a.as_slice().unwrap_or(&[])),
        }
    }
}

/// E4: whether the mask is bool (true) or float (false), from its dtype alone.
fn mask_is_bool(mask: &Bound<'_, PyUntypedArray>) -> PyResult<bool> {
    let dtype = dtype_name(mask)?;
    if dtype == "bool" {
        Ok(true)
    } else if dtype.starts_with("float") {
        Ok(false)
    } else {
        Err(CoreError::Type(format!(
            "mask has dtype {dtype}; expected bool or a float dtype"
        ))
        .into())
    }
}
