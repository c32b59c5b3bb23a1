//! The binding layer: converts Python arguments to slices, dispatches on dtype, releases the GIL
//! around the kernels, and converts results and errors back. No math lives here.

use numpy::ndarray::{ArrayD, ArrayViewD, CowArray, IxDyn};
use numpy::npyffi::{npy_intp, PY_ARRAY_API};
use numpy::{
    Element, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::attention::{self as attn, Dims, Mask, MaskLayout, MaskValues, Options, Results};
use crate::dense;
use crate::embedding;
use crate::error::{check_fits, checked_len, fmt_shape, int64_overflow, CoreError};
use crate::pool;
use crate::qlinear;
use crate::quant::{self, Kind};
use crate::real::Real;
use crate::rope as rp;
use crate::rows::{Layout, Rows};
use crate::skipgram as sg;
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

/// NumPy's name of `arr`'s dtype ("float32", "int64", …). The plain numeric kinds are named here
/// from the kind and size, as NumPy names them; any other dtype (datetime, structured, …) asks
/// Python. Every call reads it, and `dtype.name` through Python cost about 1.5 µs a time: a
/// tenth of a small `linear`.
fn dtype_name(arr: &Bound<'_, PyUntypedArray>) -> PyResult<String> {
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
/// The float kind every present array of one call shares (E1, E2); absent optional arrays
/// (`None`) are skipped. The same list, with the call's other arrays, then goes to `check_all_fit`.
fn shared_float_kind(arrays: &[(&str, Option<&Bound<'_, PyUntypedArray>>)]) -> PyResult<Float> {
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

// ---------------------------------------------------------------------------------------------
// Scalar arguments: read while PyO3 reads the arguments, before any array is checked, exactly as
// the Python backends read them (docs/api.md, "Scalar arguments").

/// An integer argument (`vocab_size`, `axis`, `n`), read as `operator.index` reads it (a TypeError
/// for anything else). A value beyond i64 is kept as its decimal text, so that `get` reports it as
/// E24 by name rather than letting PyO3's OverflowError escape.
pub struct Int64Arg(Result<i64, String>);

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
    fn get(self, name: &str) -> PyResult<i64> {
        self.0.map_err(|text| int64_overflow(name, &text).into())
    }
}

/// A float argument (`scale`, `eps`), read as CPython's `PyFloat_AsDouble` reads it (numbers and
/// objects with `__float__` or `__index__`; a TypeError otherwise). An integer too large for a
/// float (10**400) becomes ±inf, which E14 and E21 then reject like any infinity, instead of an
/// OverflowError escaping.
pub struct RealArg(f64);

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
pub struct Flag(bool);

impl<'a, 'py> FromPyObject<'a, 'py> for Flag {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Flag(obj.is_truthy()?))
    }
}

// ---------------------------------------------------------------------------------------------
// Arrays

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
fn check_all_fit(
    result_shape: &[usize],
    result_dtype: &str,
    item_size: usize,
    args: &[(&str, Option<&Bound<'_, PyUntypedArray>>)],
) -> PyResult<()> {
    check_fits("the result", result_shape, result_dtype, item_size)?;
    check_args_fit(args)
}

/// E23 for each present argument, in the order of the signature.
fn check_args_fit(args: &[(&str, Option<&Bound<'_, PyUntypedArray>>)]) -> PyResult<()> {
    for &(name, arr) in args {
        if let Some(arr) = arr {
            check_arg_fits(name, arr)?;
        }
    }
    Ok(())
}

/// Whether the numpy crate can view `arr` soundly as an ndarray of its element type. It cannot
/// when the array has more than 32 dimensions (it panics), or a misaligned start or strides that
/// are not a whole number of elements — a field of a packed structured array, for example: a
/// float64 field of `[('a', 'u1'), ('b', 'f8')]` has stride 9, which a view would round down to
/// one element and then read the wrong bytes.
fn viewable(arr: &Bound<'_, PyUntypedArray>) -> bool {
    let item = arr.dtype().itemsize() as isize;
    arr.ndim() <= 32
        && arr.is_aligned()
        && (item == 0 || arr.strides().iter().all(|&s| s % item == 0))
}

/// `arr` as a readonly array of `T`, with two cases that could not be read directly made readable
/// first, by NumPy (after every check, E23 included, so the copies are known to fit):
/// - a byte-swapped array ('>f4' on x86) has the same dtype name, so it passed the dtype checks,
///   but its numbers are not native: it is read from a native copy;
/// - an array that is not `viewable` is read from a flat C-ordered copy. Kernels only ever read
///   C-ordered slices, so the flattening loses nothing (callers take shapes from `arr`);
/// - any other array that is not C-contiguous is read from NumPy's C-ordered copy.
fn readonly<'py, T: Element>(
    arr: &Bound<'py, PyUntypedArray>,
) -> PyResult<PyReadonlyArrayDyn<'py, T>> {
    let mut arr = arr.clone();
    if arr.dtype().is_native_byteorder() == Some(false) {
        let dtype = arr.dtype().call_method1("newbyteorder", ("=",))?;
        arr = arr
            .call_method1("astype", (dtype,))?
            .cast_into::<PyUntypedArray>()?;
    }
    if !viewable(&arr) {
        arr = arr
            .py()
            .import("numpy")?
            .getattr("ascontiguousarray")?
            .call1((arr,))?
            .call_method1("reshape", (-1,))?
            .cast_into::<PyUntypedArray>()?;
    } else if !arr.is_c_contiguous() {
        // A strided view (a column block of a product, a cache's first positions): NumPy copies
        // it row by row at memory speed, where `contiguous`'s element-by-element walk took
        // nanoseconds a number (SmolLM2's gate and up halves cost 2.8 ms a layer for a prompt).
        arr = arr
            .py()
            .import("numpy")?
            .getattr("ascontiguousarray")?
            .call1((arr,))?
            .cast_into::<PyUntypedArray>()?;
    }
    arr.cast_into::<PyArrayDyn<T>>()?
        .try_readonly()
        .map_err(|e| PyValueError::new_err(format!("cannot read the array: {e}")))
}

/// `f` of every element of `view`, in C order, in memory asked for fallibly: E23 has checked the
/// size against the machine, but the OS may still refuse it, and that must be a MemoryError rather
/// than Rust's abort on a failed allocation.
fn collect_c_order<A, B>(view: ArrayViewD<'_, A>, mut f: impl FnMut(&A) -> B) -> PyResult<Vec<B>> {
    let mut data = Vec::new();
    data.try_reserve_exact(view.len()).map_err(|_| {
        CoreError::Memory(format!(
            "cannot allocate memory for a copy of an array of shape {}",
            fmt_shape(view.shape())
        ))
    })?;
    view.iter().for_each(|x| data.push(f(x)));
    Ok(data)
}

fn owned_c_order<A, B>(view: ArrayViewD<'_, A>, f: impl FnMut(&A) -> B) -> PyResult<ArrayD<B>> {
    let shape = view.raw_dim();
    let data = collect_c_order(view, f)?;
    ArrayD::from_shape_vec(shape, data)
        .map_err(|e| PyValueError::new_err(format!("internal shape error: {e}")))
}

/// The array's elements in C order: borrowed when already C-contiguous, copied once otherwise.
fn contiguous<'a, T: Element + Clone>(
    ro: &'a PyReadonlyArrayDyn<'_, T>,
) -> PyResult<CowArray<'a, T, IxDyn>> {
    let view = ro.as_array();
    if view.is_standard_layout() {
        Ok(CowArray::from(view))
    } else {
        Ok(CowArray::from(owned_c_order(view, T::clone)?))
    }
}

fn as_slice<'a, T>(c: &'a CowArray<'_, T, IxDyn>) -> &'a [T] {
    // `contiguous` only returns standard-layout arrays, for which `as_slice` is always Some.
    c.as_slice().unwrap_or(&[])
}

/// The integer dtypes `ids` (and `positions`) may have (E3, E25 otherwise); `with_ids`
/// dispatches on the same names.
const ID_DTYPES: [&str; 8] = [
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
];

/// E3, on the dtype alone, so that it is raised before anything is read.
fn check_ids_dtype(ids: &Bound<'_, PyUntypedArray>) -> PyResult<()> {
    let dtype = dtype_name(ids)?;
    if ID_DTYPES.contains(&dtype.as_str()) {
        Ok(())
    } else {
        Err(ids_dtype_error(&dtype))
    }
}

fn ids_dtype_error(dtype: &str) -> PyErr {
    CoreError::Type(format!("ids has dtype {dtype}; expected an integer dtype")).into()
}

/// Run `$body` with `$ids` (an integer array of any width and signedness) read as a slice
/// `$slice` of its own integer type — one expansion per type, no widening copy. Any other dtype is
/// E3 (callers check it first, with `check_ids_dtype`, before E23 allows the read).
macro_rules! with_ids {
    ($ids:expr, $slice:ident => $body:expr) => {{
        macro_rules! as_type {
            ($t:ty) => {{
                let ro = readonly::<$t>($ids)?;
                let c = contiguous(&ro)?;
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
            other => Err(ids_dtype_error(other)),
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
/// what `numpy.empty` and the like call): looking the functions up in Python took microseconds a
/// call.
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
trait Outcome: Send {
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
fn fill_output<'py, T: Element, R: Outcome>(
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
fn fill_outputs<'py, T: Element, R: Outcome, const N: usize>(
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

// ---------------------------------------------------------------------------------------------
// embedding_lookup, one_hot

fn lookup_typed<'py, T: Real + Element, I: embedding::Id>(
    py: Python<'py>,
    table: &Bound<'py, PyUntypedArray>,
    ids: &[I],
    out_shape: &[usize],
    d: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let ro = readonly::<T>(table)?;
    let t = contiguous(&ro)?;
    let t = as_slice(&t);
    let work = embedding::lookup_work(ids.len() * d);
    fill_output(py, out_shape, Fill::Overwritten, work, |out| {
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
    let (kind, dtype) = float_kind("table", &table)?;
    check_ids_dtype(&ids)?;
    let (vocab, d) = embedding::check_table_shape(table.shape())?;
    // E23 before E6: checking the ids means reading (and maybe copying) all of them.
    let out_shape = [ids.shape(), &[d]].concat();
    let item_size = table.dtype().itemsize();
    check_all_fit(
        &out_shape,
        &dtype,
        item_size,
        &[("table", Some(&table)), ("ids", Some(&ids))],
    )?;
    with_ids!(&ids, id_slice => {
        embedding::check_ids(id_slice, vocab)?;
        match kind {
            Float::F32 => lookup_typed::<f32, _>(py, &table, id_slice, &out_shape, d),
            Float::F64 => lookup_typed::<f64, _>(py, &table, id_slice, &out_shape, d),
        }
    })
}

fn one_hot_typed<'py, T: Real + Element, I: embedding::Id>(
    py: Python<'py>,
    ids: &[I],
    out_shape: &[usize],
    vocab: usize,
) -> PyResult<Bound<'py, PyAny>> {
    // Not worth the pool: one store per row into an already-zeroed array.
    fill_output(py, out_shape, Fill::Zeros, 0, |out| {
        embedding::one_hot(ids, vocab, T::one(), out)
    })
}

/// One-hot vectors: [*ids.shape, vocab_size] with a single 1 per row.
#[pyfunction]
#[pyo3(signature = (ids, vocab_size, dtype=None))]
pub fn one_hot<'py>(
    py: Python<'py>,
    ids: &Bound<'py, PyAny>,
    vocab_size: Int64Arg,
    dtype: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let vocab_size = vocab_size.get("vocab_size")?;
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
    let (kind, item_size) = match dtype.as_str() {
        "float32" => (Float::F32, 4),
        "float64" => (Float::F64, 8),
        _ => {
            return Err(CoreError::Type(format!(
                "dtype {dtype} is not supported; expected float32 or float64"
            ))
            .into())
        }
    };
    let ids = as_ndarray(ids)?;
    check_ids_dtype(&ids)?;
    let vocab = embedding::check_vocab_size(vocab_size)?;
    let out_shape = [ids.shape(), &[vocab]].concat();
    check_all_fit(&out_shape, &dtype, item_size, &[("ids", Some(&ids))])?;
    with_ids!(&ids, id_slice => {
        embedding::check_ids(id_slice, vocab)?;
        match kind {
            Float::F32 => one_hot_typed::<f32, _>(py, id_slice, &out_shape, vocab),
            Float::F64 => one_hot_typed::<f64, _>(py, id_slice, &out_shape, vocab),
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
    let c = contiguous(&ro)?;
    let src = as_slice(&c);
    let (shape, work) = (x.shape(), sm::softmax_work(src.len()));
    fill_output(py, shape, Fill::Overwritten, work, |out| {
        sm::softmax_along(src, out, shape, axis)
    })
}

/// Numerically stable softmax along `axis` (see docs/api.md for −inf, NaN and empty slices).
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

/// Read a mask already checked by `mask_is_bool` (E4), `MaskLayout::new` (E13) and E23.
fn read_mask<'py, T: Real + Element>(
    mask: &Bound<'py, PyUntypedArray>,
) -> PyResult<MaskArray<'py, T>> {
    if mask_is_bool(mask)? {
        return Ok(MaskArray::Allow(readonly::<bool>(mask)?));
    }
    if mask.dtype().is_equiv_to(&numpy::dtype::<T>(mask.py())) {
        return Ok(MaskArray::Add(readonly::<T>(mask)?));
    }
    // float16 and float32 widen to float64 exactly; then one rounding to T.
    let wide = mask
        .call_method1("astype", ("float64",))?
        .cast_into::<PyUntypedArray>()?;
    let ro = readonly::<f64>(&wide)?;
    Ok(MaskArray::Converted(owned_c_order(ro.as_array(), |&x| {
        T::from_f64_lossy(x)
    })?))
}

impl<'py, T: Element + Clone> MaskArray<'py, T> {
    fn data(&self) -> PyResult<MaskData<'_, T>> {
        Ok(match self {
            MaskArray::Allow(ro) => MaskData::Allow(contiguous(ro)?),
            MaskArray::Add(ro) => MaskData::Add(contiguous(ro)?),
            MaskArray::Converted(a) => MaskData::Add(a.as_standard_layout()),
        })
    }
}

/// The arguments of one attention call, all checked.
struct AttentionCall<'a, 'py> {
    q: &'a Bound<'py, PyUntypedArray>,
    k: &'a Bound<'py, PyUntypedArray>,
    v: Option<&'a Bound<'py, PyUntypedArray>>,
    dims: Dims,
    mask: Option<(&'a Bound<'py, PyUntypedArray>, MaskLayout)>,
    causal: bool,
    scale: f64,
    returns: Results,
}

/// q, k or v as the kernel reads it: in place when every row is contiguous and every other axis
/// steps a whole, non-negative number of elements (`view_layout`: a key/value cache's first
/// positions, the heads of a fused Q·K·V product), else a C-ordered array (`readonly`).
struct Operand<'py, T: Element> {
    array: PyReadonlyArrayDyn<'py, T>,
    /// (the layout, the elements from the array's first to the last it reaches) when read in
    /// place.
    view: Option<(Layout, usize)>,
}

impl<'py, T: Element + Clone> Operand<'py, T> {
    fn read(arr: &Bound<'py, PyUntypedArray>, rows: usize, cols: usize) -> PyResult<Self> {
        if let Some(view) = view_layout(arr, rows, cols) {
            let array = arr
                .clone()
                .cast_into::<PyArrayDyn<T>>()?
                .try_readonly()
                .map_err(|e| PyValueError::new_err(format!("cannot read the array: {e}")))?;
            return Ok(Operand {
                array,
                view: Some(view),
            });
        }
        Ok(Operand {
            array: readonly::<T>(arr)?,
            view: None,
        })
    }

    /// The C-ordered array to read when the operand is not read in place.
    fn copy(&self) -> PyResult<Option<CowArray<'_, T, IxDyn>>> {
        match self.view {
            Some(_) => Ok(None),
            None => contiguous(&self.array).map(Some),
        }
    }

    /// The elements the kernel reads and their layout: the array itself when read in place,
    /// else `copy` (from `copy()`) with `c_order`, the layout of C order.
    fn elements<'a>(
        &'a self,
        copy: Option<&'a CowArray<'a, T, IxDyn>>,
        c_order: &Layout,
    ) -> (&'a [T], Layout) {
        match (copy, &self.view) {
            (Some(c), _) => (as_slice(c), c_order.clone()),
            (None, Some((layout, len))) => {
                // SAFETY: `view_layout` checked that `len` elements from the array's first one
                // lie within it (non-negative strides, the last element reached inside the
                // array's extent), and the read-only borrow keeps them alive and unchanged while
                // `self` lives.
                let data =
                    unsafe { std::slice::from_raw_parts(self.array.as_array().as_ptr(), *len) };
                (data, layout.clone())
            }
            (None, None) => (&[], c_order.clone()), // not reached: `copy` made one
        }
    }

    /// The array as rows for the row-wise kernels: in place, or `copy` (from `copy()`).
    fn rows<'a>(&'a self, copy: Option<&'a CowArray<'a, T, IxDyn>>) -> Rows<'a, T> {
        match (copy, &self.view) {
            (None, Some((layout, len))) => {
                let shape = self.array.shape();
                let (n, cols) = (shape[shape.len() - 2], shape[shape.len() - 1]);
                let (data, _) = self.elements(None, layout);
                debug_assert_eq!(data.len(), *len);
                Rows::strided(data, layout.clone(), n, cols)
            }
            _ => {
                let cols = self.array.shape().last().copied().unwrap_or(1);
                Rows::contiguous(copy.map_or(&[][..], as_slice), cols)
            }
        }
    }
}

/// (rows, columns) of an array [..., rows, cols]: (1, cols) for one dimension, (1, 1) for none.
fn rows_and_cols(shape: &[usize]) -> (usize, usize) {
    match shape {
        [.., n, cols] => (*n, *cols),
        [cols] => (1, *cols),
        [] => (1, 1),
    }
}

/// For an array that is not C-contiguous but whose rows (the last axis, `cols` long) are
/// contiguous and whose other axes step a non-negative whole number of elements: its layout and
/// the elements from its first to the last one it reaches. None when it must be copied instead.
/// Axes of length 1 are never stepped along, so their strides (which NumPy leaves arbitrary) are
/// taken as 0.
fn view_layout(
    arr: &Bound<'_, PyUntypedArray>,
    rows: usize,
    cols: usize,
) -> Option<(Layout, usize)> {
    let (shape, strides) = (arr.shape(), arr.strides());
    let item = arr.dtype().itemsize() as isize;
    let nd = shape.len();
    if arr.is_c_contiguous()
        || nd < 2
        || item == 0
        || cols == 0
        || shape.contains(&0)
        || !viewable(arr)
        || arr.dtype().is_native_byteorder() == Some(false)
        || (cols > 1 && strides[nd - 1] != item)
    {
        return None;
    }
    // Element strides; 0 along axes of length 1.
    let mut steps = Vec::with_capacity(nd - 1);
    for (&size, &stride) in shape[..nd - 1].iter().zip(strides) {
        if size == 1 {
            steps.push(0);
        } else if stride < 0 {
            return None;
        } else {
            steps.push((stride / item) as usize);
        }
    }
    let row_stride = if rows > 1 { steps[nd - 2] } else { cols };
    if rows > 1 && row_stride < cols {
        return None; // rows overlap
    }
    let last = shape[..nd - 1]
        .iter()
        .zip(&steps)
        .map(|(&size, &step)| (size - 1) * step)
        .sum::<usize>();
    let layout = Layout::strided(&shape[..nd - 2], &steps[..nd - 2], row_stride);
    Some((layout, last + cols))
}

fn attention_typed<'py, T: Real + Element>(
    py: Python<'py>,
    call: AttentionCall<'_, 'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let dims = &call.dims;
    let mask_array = call
        .mask
        .as_ref()
        .map(|(arr, _)| read_mask::<T>(arr))
        .transpose()?;
    let mask_data = mask_array.as_ref().map(MaskArray::data).transpose()?;
    let mask = match (&mask_data, call.mask) {
        (Some(data), Some((_, layout))) => {
            let values = match data {
                MaskData::Allow(c) => MaskValues::Allow(as_slice(c)),
                MaskData::Add(c) => MaskValues::Add(as_slice(c)),
            };
            Some(Mask { values, layout })
        }
        _ => None,
    };
    let opt = Options {
        mask,
        causal: call.causal,
        // A finite scale beyond float32's range becomes ±inf, as NumPy's cast makes it.
        scale: T::from_f64_lossy(call.scale),
    };

    // Operands are read in place when their rows are contiguous: the heads of a fused Q·K·V
    // product and a key/value cache's first positions would otherwise be copied every layer
    // (copying a cache cost a generated token more than its attention after 2048 positions).
    let q_in = Operand::<T>::read(call.q, dims.n, dims.d_k)?;
    let k_in = Operand::<T>::read(call.k, dims.m, dims.d_k)?;
    let v_in = call
        .v
        .map(|v| Operand::<T>::read(v, dims.m, dims.d_v))
        .transpose()?;
    let (q_c, k_c) = (q_in.copy()?, k_in.copy()?);
    let v_c = v_in.as_ref().map(Operand::copy).transpose()?.flatten();
    let mut dims = dims.clone();
    let (q_s, q_layout) = q_in.elements(q_c.as_ref(), &dims.q_layout);
    let (k_s, k_layout) = k_in.elements(k_c.as_ref(), &dims.k_layout);
    let (v_s, v_layout) = match &v_in {
        Some(v) => v.elements(v_c.as_ref(), &dims.v_layout),
        None => (&[][..], dims.v_layout.clone()), // attention_weights: no v
    };
    (dims.q_layout, dims.k_layout, dims.v_layout) = (q_layout, k_layout, v_layout);
    let dims = &dims;
    let work = attn::attention_work(dims);
    let (out_shape, scores_shape) = (dims.output_shape(), dims.scores_shape());
    match call.returns {
        Results::Output => fill_output(py, &out_shape, Fill::Overwritten, work, |out| {
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
    let q = as_ndarray(q)?;
    let k = as_ndarray(k)?;
    let v = v.map(as_ndarray).transpose()?;
    let floats = [("q", Some(&q)), ("k", Some(&k)), ("v", v.as_ref())];
    let kind = shared_float_kind(&floats)?;
    let dims = attn::check_shapes(q.shape(), k.shape(), v.as_ref().map(|v| v.shape()))?;
    let mask = mask.filter(|m| !m.is_none()).map(as_ndarray).transpose()?;
    // E4 and E13 from the mask's dtype and shape, before any of its data is read or converted.
    let layout = match &mask {
        Some(m) => {
            mask_is_bool(m)?;
            Some(MaskLayout::new(m.shape(), &dims)?)
        }
        None => None,
    };
    let scale = attn::check_scale(scale.map_or_else(|| attn::default_scale(dims.d_k), |s| s.0))?;
    // E23: the results in the order they are returned, then the arguments.
    let (dtype, item_size) = (dtype_name(&q)?, q.dtype().itemsize());
    for (what, shape) in returns.shapes(&dims) {
        check_fits(what, &shape, &dtype, item_size)?;
    }
    check_args_fit(&[floats[0], floats[1], floats[2], ("mask", mask.as_ref())])?;
    let call = AttentionCall {
        q: &q,
        k: &k,
        v: v.as_ref(),
        dims,
        mask: mask.as_ref().zip(layout),
        causal: causal.0,
        scale,
        returns,
    };
    match kind {
        Float::F32 => attention_typed::<f32>(py, call),
        Float::F64 => attention_typed::<f64>(py, call),
    }
}

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

// ---------------------------------------------------------------------------------------------
// linear, layer_norm, gelu

fn linear_typed<'py, T: Real + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    weight: &Bound<'py, PyUntypedArray>,
    bias: Option<&Bound<'py, PyUntypedArray>>,
    (rows, d_in, d_out): (usize, usize, usize),
    out_shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let (x_ro, w_ro) = (readonly::<T>(x)?, readonly::<T>(weight)?);
    let (x_c, w_c) = (contiguous(&x_ro)?, contiguous(&w_ro)?);
    let b_ro = bias.map(readonly::<T>).transpose()?;
    let b_c = b_ro.as_ref().map(contiguous).transpose()?;
    let (x_s, w_s, b_s) = (as_slice(&x_c), as_slice(&w_c), b_c.as_ref().map(as_slice));
    fill_output(
        py,
        out_shape,
        Fill::Overwritten,
        dense::linear_work::<T>(rows, d_in, d_out),
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
    let arrays = [
        ("x", Some(&x)),
        ("weight", Some(&weight)),
        ("bias", bias.as_ref()),
    ];
    let kind = shared_float_kind(&arrays)?;
    let dims = dense::check_linear(x.shape(), weight.shape(), bias.as_ref().map(|b| b.shape()))?;
    let out_shape = [&x.shape()[..x.ndim() - 1], &[dims.2]].concat();
    check_all_fit(&out_shape, &dtype_name(&x)?, x.dtype().itemsize(), &arrays)?;
    match kind {
        Float::F32 => linear_typed::<f32>(py, &x, &weight, bias.as_ref(), dims, &out_shape),
        Float::F64 => linear_typed::<f64>(py, &x, &weight, bias.as_ref(), dims, &out_shape),
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
    let (x_c, g_c, b_c) = (contiguous(&x_ro)?, contiguous(&g_ro)?, contiguous(&b_ro)?);
    let (x_s, g_s, b_s) = (as_slice(&x_c), as_slice(&g_c), as_slice(&b_c));
    let eps = T::from_f64_lossy(eps);
    fill_output(
        py,
        x.shape(),
        Fill::Overwritten,
        0, // here: the norm hands its rows to the team itself (`dense::by_rows`)
        |y| dense::layer_norm(x_s, g_s, b_s, eps, d, y),
    )
}

/// LayerNorm over the last axis: (x − mean) / √(var + eps) · gamma + beta.
#[pyfunction]
#[pyo3(
    signature = (x, gamma, beta, eps=RealArg(1e-5)),
    text_signature = "(x, gamma, beta, eps=1e-05)"
)]
pub fn layer_norm<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    gamma: &Bound<'py, PyAny>,
    beta: &Bound<'py, PyAny>,
    eps: RealArg,
) -> PyResult<Bound<'py, PyAny>> {
    let eps = eps.0;
    let x = as_ndarray(x)?;
    let gamma = as_ndarray(gamma)?;
    let beta = as_ndarray(beta)?;
    let arrays = [
        ("x", Some(&x)),
        ("gamma", Some(&gamma)),
        ("beta", Some(&beta)),
    ];
    let kind = shared_float_kind(&arrays)?;
    let d = dense::check_layer_norm(x.shape(), gamma.shape(), beta.shape(), eps)?;
    check_all_fit(x.shape(), &dtype_name(&x)?, x.dtype().itemsize(), &arrays)?;
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
    let c = contiguous(&ro)?;
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
    let (kind, dtype) = float_kind("x", &x)?;
    check_all_fit(x.shape(), &dtype, x.dtype().itemsize(), &[("x", Some(&x))])?;
    match kind {
        Float::F32 => gelu_typed::<f32>(py, &x),
        Float::F64 => gelu_typed::<f64>(py, &x),
    }
}

// ---------------------------------------------------------------------------------------------
// rms_norm, silu, swiglu

fn rms_norm_typed<'py, T: Real + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    weight: &Bound<'py, PyUntypedArray>,
    eps: f64,
    d: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let (x_ro, w_ro) = (readonly::<T>(x)?, readonly::<T>(weight)?);
    let (x_c, w_c) = (contiguous(&x_ro)?, contiguous(&w_ro)?);
    let (x_s, w_s) = (as_slice(&x_c), as_slice(&w_c));
    let eps = T::from_f64_lossy(eps);
    fill_output(
        py,
        x.shape(),
        Fill::Overwritten,
        0, // here: the norm hands its rows to the team itself (`dense::by_rows`)
        |y| dense::rms_norm(x_s, w_s, eps, d, y),
    )
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

fn silu_typed<'py, T: Real + Element>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    up: Option<&Bound<'py, PyUntypedArray>>,
) -> PyResult<Bound<'py, PyAny>> {
    // Rows read in place: gate and up are column blocks of one product.
    let (n, cols) = rows_and_cols(x.shape());
    let x_in = Operand::<T>::read(x, n, cols)?;
    let x_c = x_in.copy()?;
    let up_in = up.map(|u| Operand::<T>::read(u, n, cols)).transpose()?;
    let up_c = up_in.as_ref().map(Operand::copy).transpose()?.flatten();
    let x_rows = x_in.rows(x_c.as_ref());
    let up_rows = up_in.as_ref().map(|u| u.rows(up_c.as_ref()));
    let elements = x.shape().iter().product();
    fill_output(
        py,
        x.shape(),
        Fill::Overwritten,
        dense::silu_work(elements),
        |y| dense::silu(&x_rows, up_rows.as_ref(), y),
    )
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

// ---------------------------------------------------------------------------------------------
// rope

fn rope_typed<'py, T: Real + Element, I: embedding::Id>(
    py: Python<'py>,
    x: &Bound<'py, PyUntypedArray>,
    positions: &[I],
    dims: rp::RopeDims,
    base: f64,
) -> PyResult<Bound<'py, PyAny>> {
    // Rows read in place: q and k are heads of column blocks of one Q·K·V product.
    let x_in = Operand::<T>::read(x, dims.n, dims.d)?;
    let x_c = x_in.copy()?;
    let x_rows = x_in.rows(x_c.as_ref());
    fill_output(
        py,
        x.shape(),
        Fill::Overwritten,
        rp::rope_work(dims.batch * dims.n * dims.d),
        |y| {
            let table = rp::angles_cached(positions, dims.d, base);
            rp::rope(&x_rows, &table, dims, y)
        },
    )
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
    let pos_dtype = dtype_name(&positions)?;
    if !ID_DTYPES.contains(&pos_dtype.as_str()) {
        return Err(CoreError::Type(format!(
            "positions has dtype {pos_dtype}; expected an integer dtype"
        ))
        .into());
    }
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

// ---------------------------------------------------------------------------------------------
// dequantize, quantized_linear

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
    let ro = readonly::<u8>(&data)?;
    let c = contiguous(&ro)?;
    let bytes = as_slice(&c);
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
    let (x_ro, w_ro) = (readonly::<f32>(&x)?, readonly::<u8>(&data)?);
    let (x_c, w_c) = (contiguous(&x_ro)?, contiguous(&w_ro)?);
    let (x_s, w_s) = (as_slice(&x_c), as_slice(&w_c));
    fill_output(
        py,
        &out_shape,
        Fill::Overwritten,
        qlinear::quantized_linear_work(rows, d_in, d_out),
        |y| qlinear::quantized_linear(kind, x_s, w_s, d_in, d_out, y),
    )
}

// ---------------------------------------------------------------------------------------------
// skipgram_sgd

fn skipgram_typed<'py, T: Real + Element, I: embedding::Id>(
    py: Python<'py>,
    arrays: [&Bound<'py, PyUntypedArray>; 3],
    pairs: &[I],
    dims: sg::SkipgramDims,
) -> PyResult<Bound<'py, PyAny>> {
    let [table, output, rates] = arrays;
    let (t_ro, u_ro, r_ro) = (
        readonly::<T>(table)?,
        readonly::<T>(output)?,
        readonly::<T>(rates)?,
    );
    let (t_c, u_c, r_c) = (contiguous(&t_ro)?, contiguous(&u_ro)?, contiguous(&r_ro)?);
    let (t_s, u_s, r_s) = (as_slice(&t_c), as_slice(&u_c), as_slice(&r_c));
    let shape = [dims.vocab, dims.d];
    let steps = [dims.steps()];
    let [new_table, new_output, losses] = fill_outputs(
        py,
        [&shape[..], &shape[..], &steps[..]],
        Fill::Overwritten,
        0,
        |[e, u, l]| {
            e.copy_from_slice(t_s);
            u.copy_from_slice(u_s);
            sg::skipgram_sgd(e, u, pairs, r_s, dims, l)
        },
    )?;
    Ok(PyTuple::new(py, [new_table, new_output, losses])?.into_any())
}

/// Skip-gram word2vec, minibatch SGD with negative sampling: `pairs` [P, 2 + k] rows (centre,
/// context, k negatives), `batch_size` rows a step, one learning rate a step → the new `table`
/// (E), `output_table` (U) and each step's summed loss before its update.
#[pyfunction]
pub fn skipgram_sgd<'py>(
    py: Python<'py>,
    table: &Bound<'py, PyAny>,
    output_table: &Bound<'py, PyAny>,
    pairs: &Bound<'py, PyAny>,
    learning_rates: &Bound<'py, PyAny>,
    batch_size: Int64Arg,
) -> PyResult<Bound<'py, PyAny>> {
    let batch_size = batch_size.get("batch_size")?;
    let table = as_ndarray(table)?;
    let output = as_ndarray(output_table)?;
    let pairs = as_ndarray(pairs)?;
    let rates = as_ndarray(learning_rates)?;
    let kind = shared_float_kind(&[
        ("table", Some(&table)),
        ("output_table", Some(&output)),
        ("learning_rates", Some(&rates)),
    ])?;
    let pairs_dtype = dtype_name(&pairs)?;
    if !ID_DTYPES.contains(&pairs_dtype.as_str()) {
        return Err(CoreError::Type(format!(
            "pairs has dtype {pairs_dtype}; expected an integer dtype"
        ))
        .into());
    }
    embedding::check_table_shape(table.shape())?;
    let dims = sg::check_skipgram(
        table.shape(),
        output.shape(),
        pairs.shape(),
        rates.shape(),
        batch_size,
    )?;
    let args = [
        ("table", Some(&table)),
        ("output_table", Some(&output)),
        ("pairs", Some(&pairs)),
        ("learning_rates", Some(&rates)),
    ];
    let dtype = dtype_name(&table)?;
    check_all_fit(table.shape(), &dtype, table.dtype().itemsize(), &args)?;
    with_ids!(&pairs, ids => {
        embedding::check_ids(ids, dims.vocab)?;
        let arrays = [&table, &output, &rates];
        match kind {
            Float::F32 => skipgram_typed::<f32, _>(py, arrays, ids, dims),
            Float::F64 => skipgram_typed::<f64, _>(py, arrays, ids, dims),
        }
    })
}

// ---------------------------------------------------------------------------------------------
// threads

/// Resize the thread pool the kernels use (n ≥ 1). Calls already running finish on the old pool.
#[pyfunction]
pub fn set_num_threads(n: Int64Arg) -> PyResult<()> {
    Ok(threads::set_num_threads(n.get("n")?)?)
}

/// The size of the thread pool the kernels use.
#[pyfunction]
pub fn get_num_threads() -> PyResult<usize> {
    Ok(threads::get_num_threads()?)
}

/// The instruction set this library's own kernels run: "baseline", "avx2" or "avx512" (the
/// CPU's best, capped by `RUST_CORE_SIMD`).
#[pyfunction]
pub fn simd_level() -> &'static str {
    crate::simd::Supported::best().level().name()
}
