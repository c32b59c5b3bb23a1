//! New output arrays, filled by a kernel run without the GIL: big ones over the recycled blocks
//! of `runtime::pool` (no page faults), others through NumPy's C API.

use numpy::npyffi::{npy_intp, PY_ARRAY_API};
use numpy::{Element, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::{checked_len, fmt_shape, CoreError};
use crate::runtime::{pool, threads};

/// How a kernel fills its output, which decides how NumPy allocates it.
#[derive(Clone, Copy)]
pub enum Fill {
    /// The kernel writes only some elements (one-hot): np.zeros.
    Zeros,
    /// The kernel writes every element: np.empty, which skips zeroing and lets the allocator hand
    /// back memory that is already faulted in.
    Overwritten,
}

/// The memory of an output array from `pool`: its base object, whose block goes back to the pool
/// when NumPy lets go of the array (and of every view of it).
#[pyclass(frozen, module = "rust_core._rust_core")]
struct PooledMemory {
    _block: pool::Block,
}

/// A new C-ordered output array. One of `pool::MIN_BYTES` or more that the kernel overwrites
/// whole is made over a `pool::Block` (recycled from an earlier block of the same size: no page
/// faults); any other is allocated by NumPy, which raises MemoryError itself when memory
/// runs out. Through NumPy's C API (`PyArray_Empty` / `PyArray_Zeros` / `PyArray_NewFromDescr`,
/// what `numpy.empty` and the like call), since looking the functions up in Python costs more than
/// a small kernel.
fn new_output<'py, T: Element>(
    py: Python<'py>,
    shape: &[usize],
    fill: Fill,
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    let len = checked_len(shape)?;
    let bytes = len.checked_mul(std::mem::size_of::<T>());
    if let (Fill::Overwritten, Some(block)) = (fill, bytes.and_then(pool::Block::new)) {
        return pooled_output(py, shape, block);
    }
    let mut dims = dims_of(shape)?;
    let nd = ndim_of(&dims)?;
    // SAFETY: both functions read `nd` dimensions from `dims` (alive for the call) and steal the
    // reference to the descriptor that `into_dtype_ptr` hands over; they return a new reference
    // or NULL with a Python error set, which `from_owned_ptr_or_err` turns into that error.
    let arr = unsafe {
        let descr = T::get_dtype(py).into_dtype_ptr();
        let ptr = match fill {
            Fill::Zeros => PY_ARRAY_API.PyArray_Zeros(py, nd, dims.as_mut_ptr(), descr, 0),
            Fill::Overwritten => PY_ARRAY_API.PyArray_Empty(py, nd, dims.as_mut_ptr(), descr, 0),
        };
        Bound::from_owned_ptr_or_err(py, ptr)?
    };
    Ok(arr.cast_into::<PyArrayDyn<T>>()?)
}

/// A C-ordered array of `shape` over `block` (exactly its size), which its base object owns.
fn pooled_output<'py, T: Element>(
    py: Python<'py>,
    shape: &[usize],
    block: pool::Block,
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    let data = block.as_ptr();
    let mut dims = dims_of(shape)?;
    let nd = ndim_of(&dims)?;
    // Owner first: from here on an error drops it, and with it gives the block back.
    let owner = Bound::new(py, PooledMemory { _block: block })?;
    // SAFETY: `PyArray_NewFromDescr` reads `nd` dimensions from `dims`, steals the descriptor's
    // reference, computes C-order strides (none given) and wraps `data` without owning it: the
    // block is 64-byte aligned and holds exactly the shape's elements of T. NULL comes with a
    // Python error set. `PyArray_SetBaseObject` steals the reference to `owner` (released on
    // failure too), so the block lives until the array and all its views are gone.
    unsafe {
        let descr = T::get_dtype(py).into_dtype_ptr();
        let subtype = numpy::npyffi::get_type_object(py, numpy::npyffi::NpyTypes::PyArray_Type);
        let ptr = PY_ARRAY_API.PyArray_NewFromDescr(
            py,
            subtype,
            descr,
            nd,
            dims.as_mut_ptr(),
            std::ptr::null_mut(),
            data.cast(),
            numpy::npyffi::NPY_ARRAY_WRITEABLE,
            std::ptr::null_mut(),
        );
        let arr = Bound::from_owned_ptr_or_err(py, ptr)?;
        let base = PY_ARRAY_API.PyArray_SetBaseObject(py, ptr.cast(), owner.into_ptr());
        if base != 0 {
            return Err(PyErr::fetch(py));
        }
        Ok(arr.cast_into::<PyArrayDyn<T>>()?)
    }
}

fn dims_of(shape: &[usize]) -> PyResult<Vec<npy_intp>> {
    shape
        .iter()
        .map(|&d| npy_intp::try_from(d))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|_| {
            CoreError::Memory(format!("an array of shape {} is too big", fmt_shape(shape))).into()
        })
}

fn ndim_of(dims: &[npy_intp]) -> PyResult<std::ffi::c_int> {
    std::ffi::c_int::try_from(dims.len())
        .map_err(|_| CoreError::Value(format!("too many dimensions: {}", dims.len())).into())
}

/// What a kernel run by `fill_outputs` returns: nothing, or a `Result` for one that can fail
/// (softmax along an axis asks for scratch memory).
pub trait Outcome: Send {
    fn into_result(self) -> Result<(), CoreError>;
}

impl Outcome for () {
    fn into_result(self) -> Result<(), CoreError> {
        Ok(())
    }
}

impl Outcome for Result<(), CoreError> {
    fn into_result(self) -> Result<(), CoreError> {
        self
    }
}

/// Fill a new output of `shape` with `kernel(out_slice)` run without the GIL.
pub fn fill_output<'py, T: Element, R: Outcome>(
    py: Python<'py>,
    shape: &[usize],
    fill: Fill,
    work: usize,
    kernel: impl FnOnce(&mut [T]) -> R + Send,
) -> PyResult<Bound<'py, PyAny>> {
    let [out] = fill_outputs(py, [shape], fill, work, |[out]| kernel(out))?;
    Ok(out)
}

/// New outputs of `shapes`, allocated as `fill` says and filled together by one
/// `kernel([slices])` run without the GIL (`attention_with_weights` has two results).
pub fn fill_outputs<'py, T: Element, R: Outcome, const N: usize>(
    py: Python<'py>,
    shapes: [&[usize]; N],
    fill: Fill,
    work: usize,
    kernel: impl FnOnce([&mut [T]; N]) -> R + Send,
) -> PyResult<[Bound<'py, PyAny>; N]> {
    let write_error =
        |e: &dyn std::fmt::Display| PyValueError::new_err(format!("cannot write the result: {e}"));
    let outs = shapes
        .iter()
        .map(|shape| new_output::<T>(py, shape, fill))
        .collect::<PyResult<Vec<_>>>()?;
    {
        let mut rws = outs
            .iter()
            .map(|out| out.try_readwrite().map_err(|e| write_error(&e)))
            .collect::<PyResult<Vec<_>>>()?;
        let slices = rws
            .iter_mut()
            .map(|rw| rw.as_slice_mut().map_err(|e| write_error(&e)))
            .collect::<PyResult<Vec<_>>>()?;
        let slices: [&mut [T]; N] = slices.try_into().map_err(|_| write_error(&"N outputs"))?;
        compute(py, work, || kernel(slices).into_result())??;
    }
    let outs: Vec<_> = outs.into_iter().map(Bound::into_any).collect();
    outs.try_into().map_err(|_| write_error(&"N outputs"))
}

/// Run a kernel of about `work` operations without the GIL (in the pool when worth it).
fn compute<R: Send>(py: Python<'_>, work: usize, f: impl FnOnce() -> R + Send) -> PyResult<R> {
    Ok(py.detach(|| threads::run(work, f))?)
}
