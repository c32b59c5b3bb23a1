//! `embedding_lookup`, `one_hot` and `skipgram_sgd`: a [V, d] table and integer ids.

use numpy::{Element, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::error::CoreError;
use crate::kernels::embedding;
use crate::kernels::skipgram as sg;
use crate::py::arrays::{with_ids, CArray};
use crate::py::convert::{
    as_ndarray, check_all_fit, check_int_dtype, dtype_name, float_kind, shared_float_kind, Float,
    Int64Arg,
};
use crate::py::output::{fill_output, fill_outputs, Fill};
use crate::real::{Id, Real};

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
    check_int_dtype("ids", &ids)?;
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

fn lookup_typed<'py, T: Real + Element, I: Id>(
    py: Python<'py>,
    table: &Bound<'py, PyUntypedArray>,
    ids: &[I],
    out_shape: &[usize],
    d: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let table = CArray::<T>::read(table)?;
    let t = table.slice();
    let work = embedding::lookup_work(ids.len() * d);
    fill_output(py, out_shape, Fill::Overwritten, work, |out| {
        embedding::embedding_lookup(t, d, ids, out)
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
    check_int_dtype("ids", &ids)?;
    let vocab = embedding::check_vocab_size(vocab_size)?;
    let out_shape = [ids.shape(), &[vocab]].concat();
    check_all_fit(&out_shape, &dtype, item_size, &[("ids", Some(&ids))])?;
    with_ids!(&ids, id_slice => {
        embedding::check_ids(id_slice, vocab)?;
        // Not worth the pool: one store per row into an already-zeroed array.
        match kind {
            Float::F32 => fill_output(py, &out_shape, Fill::Zeros, 0, |out| {
                embedding::one_hot(id_slice, vocab, 1.0f32, out)
            }),
            Float::F64 => fill_output(py, &out_shape, Fill::Zeros, 0, |out| {
                embedding::one_hot(id_slice, vocab, 1.0f64, out)
            }),
        }
    })
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
    check_int_dtype("pairs", &pairs)?;
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

fn skipgram_typed<'py, T: Real + Element, I: Id>(
    py: Python<'py>,
    [table, output, rates]: [&Bound<'py, PyUntypedArray>; 3],
    pairs: &[I],
    dims: sg::SkipgramDims,
) -> PyResult<Bound<'py, PyAny>> {
    let (table, output, rates) = (
        CArray::<T>::read(table)?,
        CArray::<T>::read(output)?,
        CArray::<T>::read(rates)?,
    );
    let (t, u, r) = (table.slice(), output.slice(), rates.slice());
    let shape = [dims.vocab, dims.d];
    let steps = [dims.steps()];
    let [new_table, new_output, losses] = fill_outputs(
        py,
        [&shape[..], &shape[..], &steps[..]],
        Fill::Overwritten,
        0,
        |[new_e, new_u, l]| {
            new_e.copy_from_slice(t);
            new_u.copy_from_slice(u);
            sg::skipgram_sgd(new_e, new_u, pairs, r, dims, l)
        },
    )?;
    Ok(PyTuple::new(py, [new_table, new_output, losses])?.into_any())
}
