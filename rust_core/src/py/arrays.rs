//! Arguments as the slices the kernels read: C-ordered arrays (`CArray`, copied only when they
//! must be), integer ids of any width (`with_ids!`), and operands whose rows are read where they
//! lie (`Operand`: the heads of a fused Q·K·V product, a key/value cache's first positions).

use numpy::ndarray::{ArrayD, ArrayViewD};
use numpy::{
    Element, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::error::{fmt_shape, CoreError};
use crate::linalg::rows::{strided_layout, Layout, Rows};

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

/// `arr` as a readonly array of `T`, with the cases that could not be read directly made readable
/// first, by NumPy (after every check, E23 included, so the copies are known to fit):
/// - a byte-swapped array ('>f4' on x86) has the same dtype name, so it passed the dtype checks,
///   but its numbers are not native: it is read from a native copy;
/// - an array that is not `viewable` is read from a flat C-ordered copy. Kernels only ever read
///   C-ordered slices, so the flattening loses nothing (callers take shapes from `arr`);
/// - any other array that is not C-contiguous is read from NumPy's C-ordered copy.
pub fn readonly<'py, T: Element>(
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
        // it row by row at memory speed, where an element-by-element walk is far slower.
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

/// `collect_c_order` as an array of `view`'s shape.
pub fn owned_c_order<A, B>(view: ArrayViewD<'_, A>, f: impl FnMut(&A) -> B) -> PyResult<ArrayD<B>> {
    let shape = view.raw_dim();
    let data = collect_c_order(view, f)?;
    ArrayD::from_shape_vec(shape, data)
        .map_err(|e| PyValueError::new_err(format!("internal shape error: {e}")))
}

/// An argument's elements in C order: the array itself when it is C-contiguous, else one copy.
pub struct CArray<'py, T: Element> {
    array: PyReadonlyArrayDyn<'py, T>,
    copy: Option<ArrayD<T>>,
}

impl<'py, T: Element + Clone> CArray<'py, T> {
    /// `arr` read as `readonly` reads it, then copied when it is still not in C order.
    pub fn read(arr: &Bound<'py, PyUntypedArray>) -> PyResult<Self> {
        let array = readonly::<T>(arr)?;
        let view = (!array.is_c_contiguous()).then(|| array.as_array());
        let copy = match view {
            Some(view) if !view.is_standard_layout() => Some(owned_c_order(view, T::clone)?),
            _ => None,
        };
        Ok(CArray { array, copy })
    }

    /// The elements in C order.
    pub fn slice(&self) -> &[T] {
        c_order(&self.array, self.copy.as_ref())
    }
}

/// The elements of `array` in C order: `copy`'s when there is one, else the array's own, which
/// are then in C order: straight from NumPy's data pointer when it is aligned (no ndarray view to
/// build, a noticeable part of a small call), else through a view.
fn c_order<'a, T: Element>(
    array: &'a PyReadonlyArrayDyn<'_, T>,
    copy: Option<&'a ArrayD<T>>,
) -> &'a [T] {
    // Both are in C order, for which a view's `to_slice` always succeeds.
    match copy {
        Some(copy) => copy.as_slice().unwrap_or(&[]),
        None => match array.as_slice() {
            Ok(slice) => slice,
            Err(_) => array.as_array().to_slice().unwrap_or(&[]),
        },
    }
}

/// Run `$body` with `$ids` (an integer array of any width and signedness) read as a slice
/// `$slice` of its own integer type — one expansion per type, no widening copy. Any other dtype is
/// E3 (callers check it first, with `check_int_dtype`, before E23 allows the read).
macro_rules! with_ids {
    ($ids:expr, $slice:ident => $body:expr) => {{
        macro_rules! as_type {
            ($t:ty) => {{
                let ids = $crate::py::arrays::CArray::<$t>::read($ids)?;
                let $slice: &[$t] = ids.slice();
                $body
            }};
        }
        match $crate::py::convert::dtype_name($ids)?.as_str() {
            "int8" => as_type!(i8),
            "int16" => as_type!(i16),
            "int32" => as_type!(i32),
            "int64" => as_type!(i64),
            "uint8" => as_type!(u8),
            "uint16" => as_type!(u16),
            "uint32" => as_type!(u32),
            "uint64" => as_type!(u64),
            other => Err($crate::py::convert::int_dtype_error("ids", other)),
        }
    }};
}
pub(crate) use with_ids;

/// q, k, v (or x of a row-wise kernel) as the kernel reads it: in place when every row is
/// contiguous and every other axis steps a whole, non-negative number of elements
/// (`linalg::rows::strided_layout`), else in C order (`CArray`).
pub struct Operand<'py, T: Element> {
    array: PyReadonlyArrayDyn<'py, T>,
    /// (the layout, the elements from the array's first to the last it reaches) when read in
    /// place.
    view: Option<(Layout, usize)>,
    /// A C-ordered copy, when the array is neither read in place nor C-ordered itself.
    copy: Option<ArrayD<T>>,
    /// The length of a row, from the caller: `array` may be a flat copy (`readonly` flattens
    /// an array it cannot view), whose shape no longer says it.
    cols: usize,
}

impl<'py, T: Element + Clone> Operand<'py, T> {
    /// `arr` [..., rows, cols].
    pub fn read(arr: &Bound<'py, PyUntypedArray>, rows: usize, cols: usize) -> PyResult<Self> {
        if let Some(view) = view_layout(arr, rows, cols) {
            let array = arr
                .clone()
                .cast_into::<PyArrayDyn<T>>()?
                .try_readonly()
                .map_err(|e| PyValueError::new_err(format!("cannot read the array: {e}")))?;
            return Ok(Operand {
                array,
                view: Some(view),
                copy: None,
                cols,
            });
        }
        let CArray { array, copy } = CArray::read(arr)?;
        Ok(Operand {
            array,
            view: None,
            copy,
            cols,
        })
    }

    /// The elements the kernel reads and their layout: the array itself when read in place,
    /// else its C-ordered elements with `c_order_layout`.
    pub fn elements(&self, c_order_layout: &Layout) -> (&[T], Layout) {
        match &self.view {
            Some((layout, len)) => {
                // SAFETY: `view_layout` checked that `len` elements from the array's first one
                // lie within it (non-negative strides, the last element reached inside the
                // array's extent), and the read-only borrow keeps them alive and unchanged while
                // `self` lives.
                let data =
                    unsafe { std::slice::from_raw_parts(self.array.as_array().as_ptr(), *len) };
                (data, layout.clone())
            }
            None => (
                c_order(&self.array, self.copy.as_ref()),
                c_order_layout.clone(),
            ),
        }
    }

    /// The array as rows for the row-wise kernels.
    pub fn rows(&self) -> Rows<'_, T> {
        match &self.view {
            Some((layout, _)) => {
                // Read in place, so `array` has its own shape: [..., n, cols].
                let shape = self.array.shape();
                let n = shape[shape.len() - 2];
                let (data, _) = self.elements(layout);
                Rows::strided(data, layout.clone(), n, self.cols)
            }
            // Not `array`'s last axis: a misaligned or packed array is read from a flat copy,
            // whose one axis would make every row the whole array (and row r read as row 0).
            None => Rows::contiguous(c_order(&self.array, self.copy.as_ref()), self.cols),
        }
    }
}

/// `strided_layout` for an array that is not C-contiguous and whose numbers are native and
/// `viewable`; None when it must be copied instead.
fn view_layout(
    arr: &Bound<'_, PyUntypedArray>,
    rows: usize,
    cols: usize,
) -> Option<(Layout, usize)> {
    if arr.is_c_contiguous() || !viewable(arr) || arr.dtype().is_native_byteorder() == Some(false) {
        return None;
    }
    let item = arr.dtype().itemsize() as isize;
    strided_layout(arr.shape(), arr.strides(), item, rows, cols)
}
