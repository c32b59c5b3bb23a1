"""Validation shared by the two Python backends, written once so that it matches docs/api.md.

``docs/api.md`` fixes, for every function, which checks run, in which order, and the exact text of
every error (E1–E53). ``rust_core`` implements the same table in Rust; the ``"python"`` and
``"numpy"`` backends both call the helpers here, so there is a single Python copy of the contract
and the tests can hold all three backends to the same messages.

The helpers only look at dtypes, shapes and ids; they never compute a result. Each backend calls
one ``validate_*`` function at its top, which runs the checks in the documented order and hands
back the inputs converted to NumPy arrays.

The functions' names, parameters and result types are not here: they are the ``Backend`` Protocol
(``core.backend``), which mypy holds every backend to. This module is what a type cannot say.
"""

from __future__ import annotations

import math
import operator
import os
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

#: The float dtypes the kernels compute in natively (E1, E5).
FLOAT_DTYPES: tuple[np.dtype, ...] = (np.dtype(np.float32), np.dtype(np.float64))

#: The largest pool any backend accepts (E22): starting 200,000 OS threads would hang the process.
MAX_THREADS = 1024

#: Environment variable that sets the default thread count (as for ``rust_core``).
NUM_THREADS_ENV = "RUST_CORE_NUM_THREADS"

#: The range of the integer arguments ``vocab_size``, ``axis`` and ``n`` (E24): a signed 64-bit int.
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def _shape(shape: tuple[int, ...]) -> str:
    """Format a shape as a Python tuple, ``(2, 3)``, ``(3,)``, ``()``, as the messages require."""
    return repr(tuple(int(s) for s in shape))


# --- scalar arguments ---------------------------------------------------------------------------
#
# They are read first, in the order of the signature, before any array is looked at — as
# rust_core reads them while its arguments are unpacked — so a bad scalar is reported first.


def as_int64(name: str, value: Any) -> int:
    """An integer argument (``vocab_size``, ``axis``, ``n``): anything ``operator.index`` takes
    (a TypeError otherwise); E24 outside the signed 64-bit range, where rust_core could not hold
    it (and which is far beyond any meaningful size, axis or thread count)."""
    result = operator.index(value)
    if not INT64_MIN <= result <= INT64_MAX:
        raise ValueError(f"{name} must fit in a signed 64-bit integer, got {result}")
    return result


def as_real(value: Any) -> float:
    """A float argument (``scale``, ``eps``) read as rust_core reads it, with CPython's
    ``PyFloat_AsDouble``: numbers and objects with ``__float__`` or ``__index__``, a TypeError
    ("must be real number, not str") otherwise — ``math.isfinite`` performs exactly that
    conversion. An integer too large for a float (10**400) becomes ±inf, for E14 / E21 to reject.
    """
    try:
        math.isfinite(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf
    return float(value)


# --- dtypes -------------------------------------------------------------------------------------


def _native_dtype(dtype: np.dtype) -> np.dtype:
    """``dtype`` in the machine's byte order: a byte-swapped float32 ('>f4' on x86) is still a
    float32 (NumPy even names it so) and is accepted like one."""
    return dtype if dtype.isnative else dtype.newbyteorder("=")


def _native(arr: np.ndarray) -> np.ndarray:
    """``arr`` with native byte order, so that results have native dtypes. Called once every check
    (E23 included) has passed, since it may copy."""
    return arr if arr.dtype.isnative else arr.astype(_native_dtype(arr.dtype))


def as_float_array(name: str, value: Any) -> np.ndarray:
    """Read a float argument (``table``, ``x``, ``q``, ``k``, ``v``) with ``np.asarray``.

    E1: only float32 and float64 are computed natively, so anything else (float16, integers,
    bool, object) is rejected rather than silently converted — the result dtype must be the
    input's dtype.
    """
    arr = np.asarray(value)
    if _native_dtype(arr.dtype) not in FLOAT_DTYPES:
        raise TypeError(f"{name} has dtype {arr.dtype.name}; expected float32 or float64")
    return arr


def as_float_arrays(named: list[tuple[str, Any]]) -> list[np.ndarray]:
    """Read several float arguments of one call; E1 then E2 for each of them, in order.

    E2: all float inputs of one call share the dtype of the first one (``q`` for attention), so
    the kernels never mix precisions. Each argument is checked completely (E1, then E2 against
    the first) before the next one is looked at.
    """
    arrays: list[np.ndarray] = []
    first_name = named[0][0]
    for name, value in named:
        arr = as_float_array(name, value)
        if arrays and _native_dtype(arr.dtype) != _native_dtype(arrays[0].dtype):
            raise TypeError(
                f"{name} has dtype {arr.dtype.name} but {first_name} has dtype "
                f"{arrays[0].dtype.name}; all inputs of one call must share one dtype"
            )
        arrays.append(arr)
    return arrays


def as_ids(value: Any) -> np.ndarray:
    """Read ``ids`` with ``np.asarray``; E3 if its dtype is not an integer dtype.

    Any signed or unsigned integer width is accepted. ``bool`` is not: ``True`` as an id is far
    more likely a mistake (a mask passed by accident) than a deliberate id 1. Nor is
    ``timedelta64``, which NumPy files under the integers.
    """
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"ids has dtype {arr.dtype.name}; expected an integer dtype")
    return arr


def as_mask(value: Any) -> np.ndarray:
    """Read ``mask``; E4 unless it is bool (True = may attend) or a float dtype (added).

    Any float width is accepted (a float16 mask is common and harmless); it is cast to the
    dtype of ``q`` later, by ``cast_mask``, once its shape is known to be right.
    """
    arr = np.asarray(value)
    if arr.dtype != np.bool_ and not np.issubdtype(arr.dtype, np.floating):
        raise TypeError(f"mask has dtype {arr.dtype.name}; expected bool or a float dtype")
    return arr


def cast_mask(mask: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Cast a float mask to the dtype of ``q``; a bool mask is returned unchanged.

    The contract adds the mask "cast to the dtype of q", so every backend adds exactly the same
    numbers. Values beyond float32's range become ±inf, which is what that cast means, hence
    no overflow warning.
    """
    if mask.dtype == np.bool_:
        return mask
    with np.errstate(over="ignore"):
        return mask.astype(dtype, copy=False)


def one_hot_dtype(dtype: Any) -> np.dtype:
    """Normalise ``one_hot``'s ``dtype`` argument; E5 unless it is float32 or float64.

    ``None`` means the default, float32 (as in ``rust_core``) — not NumPy's ``np.dtype(None)``,
    which would be float64.
    """
    dt = _native_dtype(np.dtype(np.float32 if dtype is None else dtype))
    if dt not in FLOAT_DTYPES:
        raise TypeError(f"dtype {dt.name} is not supported; expected float32 or float64")
    return dt


# --- shapes and values --------------------------------------------------------------------------


def check_table(table: np.ndarray) -> None:
    """E7: an embedding table is a matrix [V, d] — one row per vocabulary entry."""
    if table.ndim != 2:
        raise ValueError(f"table must be 2-D [V, d], got shape {_shape(table.shape)}")


def check_vocab_size(size: int) -> int:
    """E16: a vocabulary needs at least one entry for a one-hot row to have its single 1."""
    if size < 1:
        raise ValueError(f"vocab_size must be at least 1, got {size}")
    return size


def machine_memory() -> int | None:
    """The machine's physical memory in bytes (E23's limit), as rust_core reads it; None (no
    limit) where the OS does not say."""
    try:
        pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return pages * page_size if pages > 0 and page_size > 0 else None


def check_fits(what: str, shape: tuple[int, ...], dtype: Any) -> None:
    """E23: a MemoryError, before anything is allocated, when an array of ``shape`` and ``dtype``
    would need more than the machine's memory.

    Asking anyway either fails deep inside an allocation (an abort in rust_core, a NumPy
    MemoryError with NumPy's wording here) or, on overcommitted memory, succeeds and gets the
    process killed once the pages are touched. Zero dimensions are skipped, as NumPy does when it
    checks that a shape can exist at all, so an absurd empty shape is refused like a full one.
    """
    dt = np.dtype(dtype)
    memory = machine_memory()
    if memory is not None and dt.itemsize * math.prod(d for d in shape if d) > memory:
        raise MemoryError(
            f"{what} of shape {_shape(shape)} and dtype {dt.name} would need more than this "
            f"machine's {memory} bytes of memory"
        )


def check_all_fit(
    result_shape: tuple[int, ...], result_dtype: Any, args: list[tuple[str, np.ndarray | None]]
) -> None:
    """E23 for the result, then for each array argument in the order of the signature, counted
    at its full shape: a broadcast or strided view may have to be copied into C order."""
    check_fits("the result", result_shape, result_dtype)
    check_args_fit(args)


def check_args_fit(args: list[tuple[str, np.ndarray | None]]) -> None:
    """E23 for each array argument that is given, in the order of the signature."""
    for name, arr in args:
        if arr is not None:
            check_fits(name, arr.shape, arr.dtype)


def check_ids_in_range(ids: np.ndarray, vocab_size: int) -> None:
    """E6: every id must be in ``[0, vocab_size)``; the first bad one in C order is reported.

    Negative ids are errors (no Python-style counting from the end): a negative id is a bug in
    the tokenizer, not a request for the last row. The comparison is done without converting
    the ids, so uint64 ids above 2**63 and ids narrower than ``vocab_size`` both work.
    """
    if ids.size == 0:
        return
    info = np.iinfo(ids.dtype)
    bad = ids < 0 if info.min < 0 else np.zeros(ids.shape, dtype=bool)
    if vocab_size <= info.max:
        bad = bad | (ids >= vocab_size)
    if bad.any():
        first = int(np.ravel(ids, order="C")[np.flatnonzero(np.ravel(bad, order="C"))[0]])
        raise IndexError(f"id {first} is out of range for a vocabulary of size {vocab_size}")


def normalize_axis(ax: int, shape: tuple[int, ...]) -> int:
    """E8: ``axis`` must name one of the dimensions of ``x`` (negative counts from the end).

    A 0-d ``x`` has no axis at all, so it always fails here — softmax needs a slice.
    """
    ndim = len(shape)
    if not -ndim <= ax < ndim:
        raise ValueError(f"axis {ax} is out of bounds for x of shape {_shape(shape)}")
    return ax % ndim


def resolve_scale(scale: float | None, d_k: int) -> float:
    """The factor applied to q·k: 1/√d_k by default (1 when d_k = 0), else ``scale``; E14.

    The default keeps the scores' variance independent of d_k (the "scaled" in scaled
    dot-product attention). ``d_k = 0`` makes every dot product 0, so any finite factor gives
    the same scores; 1 avoids dividing by zero. A NaN or infinite scale would turn every score
    into NaN, so it is rejected up front.
    """
    if scale is None:
        return 1.0 if d_k == 0 else 1.0 / math.sqrt(d_k)
    if not math.isfinite(scale):
        raise ValueError(f"scale must be a finite number, got {scale!r}")
    return scale


@dataclass(frozen=True)
class AttentionInputs:
    """Validated arguments of ``attention``, ``attention_weights`` and ``attention_with_weights``.

    ``lead`` are the leading (batch/head) dimensions of ``q``; ``k`` and ``v`` have the same, except
    that with grouped-query attention their heads (axis -3) are ``h / group`` of q's ``h``: query
    head ``j`` reads key/value head ``j // group`` (``group`` is 1 when the heads are not grouped).
    ``scores_shape`` is ``(*lead, n, m)``. ``mask`` is ``None``, a bool array (True = may
    attend) or a float array already cast to the dtype of ``q``; it is not broadcast yet
    (broadcasting is cheap for NumPy and explicit for the pure-Python backend).
    """

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray | None
    mask: np.ndarray | None
    causal: bool
    scale: float
    lead: tuple[int, ...]
    n: int
    m: int
    d_k: int
    group: int = 1

    @property
    def dtype(self) -> np.dtype:
        return self.q.dtype

    @property
    def scores_shape(self) -> tuple[int, ...]:
        return (*self.lead, self.n, self.m)


def _check_matrices(named: list[tuple[str, np.ndarray]]) -> None:
    """E9: q, k and v are (batches of) matrices [..., n, d]; checked in the order given."""
    for name, arr in named:
        if arr.ndim < 2:
            raise ValueError(
                f"{name} must have at least 2 dimensions [..., n, d], got shape {_shape(arr.shape)}"
            )


def _check_mask_broadcasts(mask: np.ndarray, scores_shape: tuple[int, ...]) -> None:
    """E13: the mask must broadcast *to* the scores (NumPy's rules, one direction only).

    It may have fewer dimensions than the scores, never more, and each of its dimensions is
    either 1 or equal to the matching dimension of the scores — the mask never enlarges the
    result.
    """
    ok = mask.ndim <= len(scores_shape) and all(
        ms in (1, ss) for ms, ss in zip(mask.shape[::-1], scores_shape[::-1], strict=False)
    )
    if not ok:
        raise ValueError(
            f"mask of shape {_shape(mask.shape)} cannot be broadcast to the scores' shape "
            f"{_shape(scores_shape)}"
        )


def _kv_group(q_shape: tuple[int, ...], k_shape: tuple[int, ...]) -> int:
    """E11, E30: k's leading dimensions are q's, except that when both have 3 or more dimensions
    k may have fewer heads (axis -3), h_kv, as long as q's h is a multiple of them (grouped-query
    attention). Returns h / h_kv, the query heads per key/value head (1 when not grouped)."""
    q_lead, k_lead = q_shape[:-2], k_shape[:-2]
    if q_lead and k_lead and q_lead[:-1] == k_lead[:-1] and q_lead[-1] != k_lead[-1]:
        h, h_kv = q_lead[-1], k_lead[-1]
        if h_kv == 0 or h % h_kv != 0:
            raise ValueError(
                f"q has shape {_shape(q_shape)} and k has shape {_shape(k_shape)}: the number of "
                f"query heads (axis -3, {h}) must be a multiple of the number of key/value heads "
                f"({h_kv})"
            )
        return h // h_kv
    if q_lead != k_lead:
        raise ValueError(
            f"q has shape {_shape(q_shape)} and k has shape {_shape(k_shape)}: "
            "leading dimensions must be equal"
        )
    return 1


def validate_attention(
    q: Any,
    k: Any,
    v: Any | None,
    mask: Any,
    causal: bool,
    scale: Any,
    *,
    with_v: bool,
    with_weights: bool = False,
) -> AttentionInputs:
    """Run the attention checks in the documented order and return the converted inputs.

    Order (docs/api.md): the scalars ``causal`` and ``scale``; E1 then E2 for q, k, v; E9 for
    q, k, v; E10; E11 or E30 for k (against q), E11 for v (against k); E12; E4; E13; E14; E23.
    ``with_v=False`` is ``attention_weights``, which has no ``v``; ``with_weights=True`` is
    ``attention_with_weights``, whose second result, the weights, E23 checks after the first.
    """
    causal = bool(causal)
    real_scale = None if scale is None else as_real(scale)
    names = [("q", q), ("k", k)] + ([("v", v)] if with_v else [])
    arrays = as_float_arrays(names)
    qa, ka = arrays[0], arrays[1]
    va = arrays[2] if with_v else None
    _check_matrices([(name, arr) for (name, _), arr in zip(names, arrays, strict=True)])

    if qa.shape[-1] != ka.shape[-1]:
        raise ValueError(
            f"q has shape {_shape(qa.shape)} and k has shape {_shape(ka.shape)}: "
            "their last dimensions (d_k) differ"
        )
    lead = qa.shape[:-2]
    group = _kv_group(qa.shape, ka.shape)
    if va is not None and va.shape[:-2] != ka.shape[:-2]:
        raise ValueError(
            f"k has shape {_shape(ka.shape)} and v has shape {_shape(va.shape)}: "
            "leading dimensions must be equal"
        )
    if va is not None and va.shape[-2] != ka.shape[-2]:
        raise ValueError(
            f"k has shape {_shape(ka.shape)} and v has shape {_shape(va.shape)}: "
            "they must have the same number of keys (m)"
        )

    n, m, d_k = qa.shape[-2], ka.shape[-2], qa.shape[-1]
    scores_shape = (*lead, n, m)
    mask_arr = None
    if mask is not None:
        mask_arr = as_mask(mask)
        _check_mask_broadcasts(mask_arr, scores_shape)
    resolved_scale = resolve_scale(real_scale, d_k)
    out_shape = (*lead, n, va.shape[-1]) if va is not None else scores_shape
    args = [("q", qa), ("k", ka), ("v", va), ("mask", mask_arr)]
    if with_weights:
        check_fits("the result", out_shape, qa.dtype)
        check_fits("the weights", scores_shape, qa.dtype)
        check_args_fit(args)
    else:
        check_all_fit(out_shape, qa.dtype, args)
    dtype = _native_dtype(qa.dtype)
    return AttentionInputs(
        q=_native(qa),
        k=_native(ka),
        v=None if va is None else _native(va),
        mask=None if mask_arr is None else cast_mask(_native(mask_arr), dtype),
        causal=causal,
        scale=resolved_scale,
        lead=tuple(lead),
        n=n,
        m=m,
        d_k=d_k,
        group=group,
    )


def validate_embedding_lookup(table: Any, ids: Any) -> tuple[np.ndarray, np.ndarray]:
    """Order: E1 (table), E3, E7, E23, E6 — the size check before the ids are read. Returns
    ``(table, ids)`` as arrays."""
    table_arr = as_float_array("table", table)
    ids_arr = as_ids(ids)
    check_table(table_arr)
    out_shape = (*ids_arr.shape, table_arr.shape[1])
    check_all_fit(out_shape, table_arr.dtype, [("table", table_arr), ("ids", ids_arr)])
    check_ids_in_range(ids_arr, table_arr.shape[0])
    return _native(table_arr), _native(ids_arr)


def validate_one_hot(ids: Any, vocab_size: Any, dtype: Any) -> tuple[np.ndarray, int, np.dtype]:
    """Order: vocab_size read (E24), E5, E3, E16, E23, E6. Returns ``(ids, vocab_size, dtype)``
    normalised."""
    size = as_int64("vocab_size", vocab_size)
    dt = one_hot_dtype(dtype)
    ids_arr = as_ids(ids)
    check_vocab_size(size)
    check_all_fit((*ids_arr.shape, size), dt, [("ids", ids_arr)])
    check_ids_in_range(ids_arr, size)
    return _native(ids_arr), size, dt


def validate_softmax(x: Any, axis: Any) -> tuple[np.ndarray, int]:
    """Order: axis read (E24), E1, E8, E23. Returns ``(x, axis)`` with ``axis`` made
    non-negative."""
    ax = as_int64("axis", axis)
    arr = as_float_array("x", x)
    resolved = normalize_axis(ax, arr.shape)
    check_all_fit(arr.shape, arr.dtype, [("x", arr)])
    return _native(arr), resolved


def _check_same_shape(a: tuple[str, np.ndarray], b: tuple[str, np.ndarray]) -> None:
    """E29: two arrays combined element by element (no broadcasting) have one shape."""
    (a_name, a_arr), (b_name, b_arr) = a, b
    if a_arr.shape != b_arr.shape:
        raise ValueError(
            f"{a_name} has shape {_shape(a_arr.shape)} and {b_name} has shape "
            f"{_shape(b_arr.shape)}: they must have the same shape"
        )


def _check_vector(
    name: str, arr: np.ndarray, d: int, other: str, other_shape: tuple[int, ...]
) -> None:
    """E20: a bias, gamma, beta or weight must be exactly [d] (rope's positions [n])."""
    if arr.shape != (d,):
        raise ValueError(
            f"{name} has shape {_shape(arr.shape)}; expected ({d},) to match {other} of shape "
            f"{_shape(other_shape)}"
        )


def _check_eps(eps: float) -> None:
    """E21: eps keeps a division by a root finite; a negative one could make the root NaN."""
    if not math.isfinite(eps) or eps < 0:
        raise ValueError(f"eps must be a finite number >= 0, got {eps!r}")


def _check_has_last_axis(x: np.ndarray) -> None:
    """E17: linear, half_linear, layer_norm, rms_norm and quantized_linear act on the last axis,
    so x needs one."""
    if x.ndim == 0:
        raise ValueError("x must have at least 1 dimension [..., d], got shape ()")


def validate_linear(
    x: Any, weight: Any, bias: Any, weight_t: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Order: E1/E2 for x, weight, bias, weight_t; E17, E18, E19, E20, E55, E23. Returns x,
    weight and bias: ``weight_t`` (weight's transpose, which rust_core's products may read
    instead) is checked, and the Python backends then compute from weight."""
    named = [("x", x), ("weight", weight)] + ([("bias", bias)] if bias is not None else [])
    named += [("weight_t", weight_t)] if weight_t is not None else []
    arrays = dict(zip([name for name, _ in named], as_float_arrays(named), strict=True))
    x_arr, w_arr = arrays["x"], arrays["weight"]
    b_arr, wt_arr = arrays.get("bias"), arrays.get("weight_t")
    out_shape = _linear_shape(x_arr, w_arr, b_arr)
    if wt_arr is not None and wt_arr.shape != w_arr.shape[::-1]:
        raise ValueError(
            f"weight_t has shape {_shape(wt_arr.shape)}; expected {_shape(w_arr.shape[::-1])}, "
            f"the transpose of weight of shape {_shape(w_arr.shape)}"
        )
    named_arrays = [("x", x_arr), ("weight", w_arr), ("bias", b_arr), ("weight_t", wt_arr)]
    check_all_fit(out_shape, x_arr.dtype, named_arrays)
    return _native(x_arr), _native(w_arr), None if b_arr is None else _native(b_arr)


def _linear_shape(
    x_arr: np.ndarray, w_arr: np.ndarray, b_arr: np.ndarray | None
) -> tuple[int, ...]:
    """E17, E18, E19, E20 of ``linear`` and ``half_linear``; the result's shape [..., out]."""
    _check_has_last_axis(x_arr)
    if w_arr.ndim != 2:
        raise ValueError(f"weight must be 2-D [out, in], got shape {_shape(w_arr.shape)}")
    if x_arr.shape[-1] != w_arr.shape[1]:
        raise ValueError(
            f"x has shape {_shape(x_arr.shape)} and weight has shape {_shape(w_arr.shape)}: "
            f"x's last dimension must equal weight's second (in)"
        )
    if b_arr is not None:
        _check_vector("bias", b_arr, w_arr.shape[0], "weight", w_arr.shape)
    return (*x_arr.shape[:-1], w_arr.shape[0])


#: ``half_linear``'s dtypes: float32 x and bias, a float16 weight (E54).
HALF_LINEAR_DTYPES = {
    "x": np.dtype(np.float32),
    "weight": np.dtype(np.float16),
    "bias": np.dtype(np.float32),
}


def validate_half_linear(
    x: Any, weight: Any, bias: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Order: E54 for x, weight, bias; E17, E18, E19, E20, E23. Returns the arrays."""
    named = [("x", x), ("weight", weight)] + ([("bias", bias)] if bias is not None else [])
    arrays = []
    for name, value in named:
        arr = np.asarray(value)
        if _native_dtype(arr.dtype) != HALF_LINEAR_DTYPES[name]:
            raise TypeError(
                f"{name} has dtype {arr.dtype.name}; half_linear takes float32 x and bias and a "
                "float16 weight"
            )
        arrays.append(arr)
    x_arr, w_arr = arrays[0], arrays[1]
    b_arr = arrays[2] if bias is not None else None
    out_shape = _linear_shape(x_arr, w_arr, b_arr)
    check_all_fit(out_shape, np.float32, [("x", x_arr), ("weight", w_arr), ("bias", b_arr)])
    return _native(x_arr), _native(w_arr), None if b_arr is None else _native(b_arr)


def validate_layer_norm(
    x: Any, gamma: Any, beta: Any, eps: Any, residual: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Order: eps read; E1/E2 for x, gamma, beta, residual; E17, E20 (gamma, beta), E29
    (residual), E21, E23. Returns the array to normalise — x, or x + residual in x's dtype —
    gamma, beta and eps."""
    value = as_real(eps)
    named = [("x", x), ("gamma", gamma), ("beta", beta)]
    if residual is not None:
        named.append(("residual", residual))
    arrays = as_float_arrays(named)
    x_arr, g_arr, b_arr = arrays[:3]
    r_arr = arrays[3] if residual is not None else None
    _check_has_last_axis(x_arr)
    d = x_arr.shape[-1]
    _check_vector("gamma", g_arr, d, "x", x_arr.shape)
    _check_vector("beta", b_arr, d, "x", x_arr.shape)
    if r_arr is not None:
        _check_same_shape(("x", x_arr), ("residual", r_arr))
    _check_eps(value)
    check_all_fit(
        x_arr.shape, x_arr.dtype, [(n, a) for (n, _), a in zip(named, arrays, strict=True)]
    )
    if r_arr is not None:
        with np.errstate(all="ignore"):
            x_arr = x_arr + r_arr  # the sum that is normalised, rounded to x's dtype
    return _native(x_arr), _native(g_arr), _native(b_arr), value


def validate_gelu(x: Any, bias: Any = None) -> np.ndarray:
    """Order: E1/E2 for x, bias; E17, E20 (bias); E23. Returns the array to apply GELU to: x, or
    x + bias along its last axis in x's dtype."""
    if bias is None:
        arr = as_float_array("x", x)
        check_all_fit(arr.shape, arr.dtype, [("x", arr)])
        return _native(arr)
    arr, b_arr = as_float_arrays([("x", x), ("bias", bias)])
    _check_has_last_axis(arr)
    _check_vector("bias", b_arr, arr.shape[-1], "x", arr.shape)
    check_all_fit(arr.shape, arr.dtype, [("x", arr), ("bias", b_arr)])
    with np.errstate(all="ignore"):
        return _native(arr + b_arr)  # broadcast along the rows, rounded to x's dtype


def validate_rms_norm(x: Any, weight: Any, eps: Any) -> tuple[np.ndarray, np.ndarray, float]:
    """Order: eps read; E1/E2 for x, weight; E17, E20 (weight), E21, E23. Returns the arrays and
    eps."""
    value = as_real(eps)
    x_arr, w_arr = as_float_arrays([("x", x), ("weight", weight)])
    _check_has_last_axis(x_arr)
    _check_vector("weight", w_arr, x_arr.shape[-1], "x", x_arr.shape)
    _check_eps(value)
    check_all_fit(x_arr.shape, x_arr.dtype, [("x", x_arr), ("weight", w_arr)])
    return _native(x_arr), _native(w_arr), value


def validate_silu(x: Any) -> np.ndarray:
    """Order: E1, E23."""
    return validate_gelu(x)


def validate_swiglu(gate: Any, up: Any) -> tuple[np.ndarray, np.ndarray]:
    """Order: E1/E2 for gate, up; E29 (same shape: they are multiplied element by element); E23."""
    g_arr, u_arr = as_float_arrays([("gate", gate), ("up", up)])
    _check_same_shape(("gate", g_arr), ("up", u_arr))
    check_all_fit(g_arr.shape, g_arr.dtype, [("gate", g_arr), ("up", u_arr)])
    return _native(g_arr), _native(u_arr)


def validate_rope(x: Any, positions: Any, base: Any) -> tuple[np.ndarray, np.ndarray, float]:
    """Order: base read; E1 (x), E25 (positions' dtype), E9 (x), E26 (d even), E20 (positions
    [n]), E27 (base), E23, E28 (positions >= 0, the one check that reads values). Returns
    ``(x, positions, base)``."""
    value = as_real(base)
    x_arr = as_float_array("x", x)
    pos = np.asarray(positions)
    if pos.dtype.kind not in "iu":
        raise TypeError(f"positions has dtype {pos.dtype.name}; expected an integer dtype")
    _check_matrices([("x", x_arr)])
    if x_arr.shape[-1] % 2:
        raise ValueError(
            f"x has shape {_shape(x_arr.shape)}: its last dimension (d) must be even, as rope "
            "rotates pairs"
        )
    _check_vector("positions", pos, x_arr.shape[-2], "x", x_arr.shape)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"base must be a finite number > 0, got {value!r}")
    check_all_fit(x_arr.shape, x_arr.dtype, [("x", x_arr), ("positions", pos)])
    if pos.dtype.kind == "i" and pos.size and (pos < 0).any():
        first = int(pos[np.flatnonzero(pos < 0)[0]])
        raise ValueError(f"positions must be >= 0, got {first}")
    return _native(x_arr), _native(pos), value


#: The GGML block formats ``dequantize`` and ``quantized_linear`` read, and the bytes of one block
#: of 32 values: Q4_1 = f16 d, f16 m, 16 bytes of nibbles; Q8_0 = f16 d, 32 int8.
QUANT_BLOCK_BYTES: dict[str, int] = {"q4_1": 20, "q8_0": 34}

#: Values per block, in every format above.
QUANT_BLOCK = 32
#: quantized_linear rounds x to 16 bits per block of QUANT_BLOCK values first: d = max|x| / this,
#: q = round(x / d) in −ACTIVATION_LEVELS … ACTIVATION_LEVELS (docs/api.md).
ACTIVATION_LEVELS = 32767


def as_quant_kind(kind: Any) -> str:
    """E31: ``kind`` names one of the block formats (a str, exactly as listed)."""
    if isinstance(kind, str) and kind in QUANT_BLOCK_BYTES:
        return str(kind)
    names = ", ".join(repr(k) for k in QUANT_BLOCK_BYTES)
    raise ValueError(f"kind must be one of {names}, got {kind!r}")


def as_shape(value: Any) -> tuple[int, ...]:
    """E32: ``shape`` is a tuple (or list) of integers, each read as ``operator.index`` reads it
    (its TypeError otherwise), within the signed 64-bit range (E24)."""
    if not isinstance(value, tuple | list):
        raise TypeError(f"shape must be a tuple of integers, got {type(value).__name__}")
    return tuple(as_int64("shape", d) for d in value)


def as_quant_data(data: Any) -> np.ndarray:
    """E35: quantized data is the raw bytes of the blocks."""
    arr = np.asarray(data)
    if arr.dtype != np.uint8:
        raise TypeError(f"data has dtype {arr.dtype.name}; expected uint8 (raw GGML blocks)")
    return arr


def _check_quant_shape(shape: tuple[int, ...], matrix: bool) -> None:
    """E33, E34: (out, in) for a product (``matrix``), else (..., k); no negative dimension; the
    last one a whole number of blocks."""
    if matrix and len(shape) != 2:
        raise ValueError(f"shape must be 2-D (out, in), got {_shape_signed(shape)}")
    if not shape:
        raise ValueError("shape must have at least 1 dimension (..., k), got ()")
    if any(d < 0 for d in shape):
        raise ValueError(f"shape must not have negative dimensions, got {_shape_signed(shape)}")
    if shape[-1] % QUANT_BLOCK:
        raise ValueError(
            f"shape {_shape(shape)} has a last dimension of {shape[-1]}, which is not a multiple "
            f"of {QUANT_BLOCK} (the values in a block)"
        )


def _shape_signed(shape: tuple[int, ...]) -> str:
    return repr(tuple(shape))


def _check_quant_bytes(kind: str, shape: tuple[int, ...], data: np.ndarray) -> None:
    """E37: ``data`` holds exactly the blocks of an array of ``shape``, in any array shape."""
    expected = math.prod(shape) // QUANT_BLOCK * QUANT_BLOCK_BYTES[kind]
    if data.size != expected:
        raise ValueError(
            f"data has {data.size} bytes, but a {kind} array of shape {_shape(shape)} takes "
            f"{expected}"
        )


def validate_dequantize(
    data: Any, kind: Any, shape: Any
) -> tuple[np.ndarray, str, tuple[int, ...]]:
    """Order: kind read (E31), shape read (E32, E24); E35; E33, E34; E23 (the result, then data);
    E37. Returns ``(data, kind, shape)``."""
    name = as_quant_kind(kind)
    dims = as_shape(shape)
    arr = as_quant_data(data)
    _check_quant_shape(dims, matrix=False)
    check_all_fit(dims, np.float32, [("data", arr)])
    _check_quant_bytes(name, dims, arr)
    return arr, name, dims


def validate_quantized_linear(
    x: Any, data: Any, kind: Any, shape: Any
) -> tuple[np.ndarray, np.ndarray, str, tuple[int, ...]]:
    """Order: kind read (E31), shape read (E32, E24); E36 (x float32), E35; E17; E33, E34; E19;
    E23 (the result, x, data); E37. Returns ``(x, data, kind, shape)``."""
    name = as_quant_kind(kind)
    dims = as_shape(shape)
    x_arr = np.asarray(x)
    if _native_dtype(x_arr.dtype) != np.dtype(np.float32):
        raise TypeError(f"x has dtype {x_arr.dtype.name}; quantized products take float32")
    arr = as_quant_data(data)
    _check_has_last_axis(x_arr)
    _check_quant_shape(dims, matrix=True)
    if x_arr.shape[-1] != dims[1]:
        raise ValueError(
            f"x has shape {_shape(x_arr.shape)} and weight has shape {_shape(dims)}: "
            f"x's last dimension must equal weight's second (in)"
        )
    check_all_fit((*x_arr.shape[:-1], dims[0]), np.float32, [("x", x_arr), ("data", arr)])
    _check_quant_bytes(name, dims, arr)
    return _native(x_arr), arr, name, dims


def validate_skipgram_sgd(
    table: Any, output_table: Any, pairs: Any, learning_rates: Any, batch_size: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """Order: batch_size read (E24); E1, E2 (table, output_table, learning_rates); E38 (pairs'
    dtype); E7; E39 (output_table's shape); E40 (pairs [P, 2 + k]); E41 (batch_size ≥ 1); E42
    (one rate per step); E23 (the result, then the arguments); E6. Returns
    ``(table, output_table, pairs, learning_rates, batch_size)``."""
    batch = as_int64("batch_size", batch_size)
    table_arr, output_arr, rates = as_float_arrays(
        [("table", table), ("output_table", output_table), ("learning_rates", learning_rates)]
    )
    pairs_arr = np.asarray(pairs)
    if pairs_arr.dtype.kind not in "iu":
        raise TypeError(f"pairs has dtype {pairs_arr.dtype.name}; expected an integer dtype")
    check_table(table_arr)
    if output_arr.shape != table_arr.shape:
        raise ValueError(
            f"output_table has shape {_shape(output_arr.shape)} and table has shape "
            f"{_shape(table_arr.shape)}: they must have the same shape"
        )
    if pairs_arr.ndim != 2 or pairs_arr.shape[1] < 2:
        raise ValueError(
            "pairs must be 2-D [P, 2 + k] (centre, context, k negatives), got shape "
            f"{_shape(pairs_arr.shape)}"
        )
    if batch < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch}")
    n_pairs = pairs_arr.shape[0]
    steps = -(-n_pairs // batch)  # ⌈P / batch_size⌉
    if rates.shape != (steps,):
        raise ValueError(
            f"learning_rates has shape {_shape(rates.shape)}; expected ({steps},): one rate per "
            f"batch of {batch} of the {n_pairs} pairs"
        )
    args: list[tuple[str, np.ndarray | None]] = [
        ("table", table_arr),
        ("output_table", output_arr),
        ("pairs", pairs_arr),
        ("learning_rates", rates),
    ]
    check_all_fit(table_arr.shape, table_arr.dtype, args)
    check_ids_in_range(pairs_arr, table_arr.shape[0])
    return _native(table_arr), _native(output_arr), _native(pairs_arr), _native(rates), batch


# --- training: the backward kernels, cross_entropy and adamw_step (E43–E53) ---------------------


def _check_grad_shape(name: str, arr: np.ndarray, expected: tuple[int, ...]) -> None:
    """E43: an upstream gradient has exactly the shape of the forward's output; no broadcasting,
    which would silently sum a gradient the forward never produced."""
    if arr.shape != expected:
        raise ValueError(
            f"{name} has shape {_shape(arr.shape)}; expected {_shape(expected)}, the shape of the "
            "forward's output"
        )


def validate_linear_backward(
    x: Any, weight: Any, grad_y: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Order: E1/E2 for x, weight, grad_y; E17, E18, E19, E43, E23 (grad_x at x's shape, then
    the arguments). Returns the arrays."""
    x_arr, w_arr, g_arr = as_float_arrays([("x", x), ("weight", weight), ("grad_y", grad_y)])
    _check_has_last_axis(x_arr)
    if w_arr.ndim != 2:
        raise ValueError(f"weight must be 2-D [out, in], got shape {_shape(w_arr.shape)}")
    if x_arr.shape[-1] != w_arr.shape[1]:
        raise ValueError(
            f"x has shape {_shape(x_arr.shape)} and weight has shape {_shape(w_arr.shape)}: "
            f"x's last dimension must equal weight's second (in)"
        )
    _check_grad_shape("grad_y", g_arr, (*x_arr.shape[:-1], w_arr.shape[0]))
    check_all_fit(x_arr.shape, x_arr.dtype, [("x", x_arr), ("weight", w_arr), ("grad_y", g_arr)])
    return _native(x_arr), _native(w_arr), _native(g_arr)


def validate_layer_norm_backward(
    x: Any, gamma: Any, grad_y: Any, eps: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Order: eps read; E1/E2 for x, gamma, grad_y; E17, E20 (gamma), E43, E21, E23. Returns the
    arrays and eps."""
    value = as_real(eps)
    x_arr, g_arr, dy = as_float_arrays([("x", x), ("gamma", gamma), ("grad_y", grad_y)])
    _check_has_last_axis(x_arr)
    _check_vector("gamma", g_arr, x_arr.shape[-1], "x", x_arr.shape)
    _check_grad_shape("grad_y", dy, x_arr.shape)
    _check_eps(value)
    check_all_fit(x_arr.shape, x_arr.dtype, [("x", x_arr), ("gamma", g_arr), ("grad_y", dy)])
    return _native(x_arr), _native(g_arr), _native(dy), value


def validate_gelu_backward(x: Any, grad_y: Any) -> tuple[np.ndarray, np.ndarray]:
    """Order: E1/E2 for x, grad_y; E43; E23. Also ``relu_backward``'s: both are elementwise."""
    x_arr, dy = as_float_arrays([("x", x), ("grad_y", grad_y)])
    _check_grad_shape("grad_y", dy, x_arr.shape)
    check_all_fit(x_arr.shape, x_arr.dtype, [("x", x_arr), ("grad_y", dy)])
    return _native(x_arr), _native(dy)


def validate_attention_backward(
    q: Any, k: Any, v: Any, grad_out: Any, mask: Any, causal: bool, scale: Any
) -> tuple[AttentionInputs, np.ndarray]:
    """Order: all of ``validate_attention``'s checks (the forward's call must be valid first);
    then E1/E2 for grad_out (against q), E43, E23 (grad_out). Returns the inputs and grad_out."""
    a = validate_attention(q, k, v, mask, causal, scale, with_v=True)
    assert a.v is not None
    # q is passed as it is (already read) so that E2 names q and its dtype as the first input.
    _, dz = as_float_arrays([("q", a.q), ("grad_out", grad_out)])
    _check_grad_shape("grad_out", dz, (*a.lead, a.n, a.v.shape[-1]))
    check_fits("grad_out", dz.shape, dz.dtype)
    return a, _native(dz)


def is_ignored(targets: np.ndarray, ignore_index: int) -> np.ndarray:
    """``targets == ignore_index`` for integer targets of any width, without wrapping
    ``ignore_index`` into their range (uint8 targets are never -100)."""
    info = np.iinfo(targets.dtype)
    if not info.min <= ignore_index <= info.max:
        return np.zeros(targets.shape, dtype=bool)
    return targets == targets.dtype.type(ignore_index)


def validate_cross_entropy(
    logits: Any, targets: Any, ignore_index: Any
) -> tuple[np.ndarray, np.ndarray, int]:
    """Order: ignore_index read (E24); E1 (logits), E45, E46, E47, E23 (the result at logits'
    shape, then logits, targets), E48. Returns ``(logits, targets, ignore_index)``."""
    ignore = as_int64("ignore_index", ignore_index)
    z = as_float_array("logits", logits)
    t = np.asarray(targets)
    if t.dtype.kind not in "iu":
        raise TypeError(f"targets has dtype {t.dtype.name}; expected an integer dtype")
    if z.ndim != 2:
        raise ValueError(f"logits must be 2-D [N, C], got shape {_shape(z.shape)}")
    if t.shape != (z.shape[0],):
        raise ValueError(
            f"targets has shape {_shape(t.shape)}; expected ({z.shape[0]},) to match logits of "
            f"shape {_shape(z.shape)}"
        )
    check_all_fit(z.shape, z.dtype, [("logits", z), ("targets", t)])
    _check_targets_in_range(t, z.shape[1], ignore)
    return _native(z), _native(t), ignore


def _check_targets_in_range(targets: np.ndarray, classes: int, ignore: int) -> None:
    """E48: every target that is not ``ignore`` names a class in ``[0, C)``; the first bad one is
    reported. Compared without converting, as ``check_ids_in_range`` does."""
    if targets.size == 0:
        return
    info = np.iinfo(targets.dtype)
    bad = targets < 0 if info.min < 0 else np.zeros(targets.shape, dtype=bool)
    if classes <= info.max:
        bad = bad | (targets >= classes)
    bad &= ~is_ignored(targets, ignore)
    if bad.any():
        first = int(targets[np.flatnonzero(bad)[0]])
        raise IndexError(f"target {first} is out of range for {classes} classes")


def validate_embedding_backward(
    ids: Any, grad_out: Any, vocab_size: Any
) -> tuple[np.ndarray, np.ndarray, int]:
    """Order: vocab_size read (E24); E3, E1 (grad_out), E16, E44, E23 (the result [V, d], then
    ids, grad_out), E6. Returns ``(ids, grad_out, vocab_size)``."""
    size = as_int64("vocab_size", vocab_size)
    ids_arr = as_ids(ids)
    dz = as_float_array("grad_out", grad_out)
    check_vocab_size(size)
    if dz.ndim != ids_arr.ndim + 1 or dz.shape[:-1] != ids_arr.shape:
        raise ValueError(
            f"grad_out has shape {_shape(dz.shape)} and ids has shape {_shape(ids_arr.shape)}: "
            "grad_out must be [*ids.shape, d]"
        )
    check_all_fit((size, dz.shape[-1]), dz.dtype, [("ids", ids_arr), ("grad_out", dz)])
    check_ids_in_range(ids_arr, size)
    return _native(ids_arr), _native(dz), size


@dataclass(frozen=True)
class AdamWInputs:
    """Validated arguments of ``adamw_step``: ``param``, ``exp_avg`` and ``exp_avg_sq`` are the
    caller's own arrays (updated in place), ``grad`` a native array of their shape."""

    param: np.ndarray
    grad: np.ndarray
    exp_avg: np.ndarray
    exp_avg_sq: np.ndarray
    step: int
    lr: float
    beta1: float
    beta2: float
    eps: float
    weight_decay: float

    def scalars(self) -> AdamWScalars:
        """The update's scalars in float64, as torch computes them; each backend then rounds
        them once to the arrays' dtype."""
        return AdamWScalars(
            decay=1 - self.lr * self.weight_decay,
            beta1=self.beta1,
            rest1=1 - self.beta1,
            beta2=self.beta2,
            rest2=1 - self.beta2,
            eps=self.eps,
            step_size=self.lr / (1 - self.beta1**self.step),
            root_bc2=math.sqrt(1 - self.beta2**self.step),
        )


@dataclass(frozen=True)
class AdamWScalars:
    """p ← p·decay; m ← beta1·m + rest1·g; v ← beta2·v + rest2·g²;
    p ← p − step_size·m / (√v / root_bc2 + eps)."""

    decay: float
    beta1: float
    rest1: float
    beta2: float
    rest2: float
    eps: float
    step_size: float  # lr / (1 − beta1^step)
    root_bc2: float  # √(1 − beta2^step)


def _check_updatable(name: str, value: Any) -> None:
    """E50: an array updated in place must be the caller's own C-contiguous, writeable, native
    ndarray — a copy (of a list, a strided view, swapped bytes) would take the update with it."""
    ok = (
        isinstance(value, np.ndarray)
        and value.flags.c_contiguous
        and value.flags.writeable
        and value.dtype.isnative
    )
    if not ok:
        raise ValueError(
            f"{name} must be a C-contiguous, writeable NumPy array in native byte order, as "
            "adamw_step updates it in place"
        )


def _check_hyperparameters(
    lr: float, beta1: float, beta2: float, eps: float, weight_decay: float
) -> None:
    """E52, in the order lr, beta1, beta2, eps, weight_decay: rates and terms ≥ 0 and finite,
    betas in [0, 1) (a beta of 1 makes the bias correction 1 − β^t zero)."""
    named = [("lr", lr), ("beta1", beta1), ("beta2", beta2), ("eps", eps)]
    for name, value in [*named, ("weight_decay", weight_decay)]:
        if name in ("beta1", "beta2"):
            if not 0 <= value < 1:  # NaN fails too
                raise ValueError(f"{name} must be in [0, 1), got {value!r}")
        elif not math.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")


def validate_adamw_step(
    param: Any,
    grad: Any,
    exp_avg: Any,
    exp_avg_sq: Any,
    *,
    step: Any,
    lr: Any,
    beta1: Any,
    beta2: Any,
    eps: Any,
    weight_decay: Any,
) -> AdamWInputs:
    """Order: step read (E24), lr, beta1, beta2, eps, weight_decay read; E1/E2 for param, grad,
    exp_avg, exp_avg_sq; E49, E50, E53, E51, E52."""
    n = as_int64("step", step)
    reals = [as_real(value) for value in (lr, beta1, beta2, eps, weight_decay)]
    names = ["param", "grad", "exp_avg", "exp_avg_sq"]
    values = [param, grad, exp_avg, exp_avg_sq]
    arrays = as_float_arrays(list(zip(names, values, strict=True)))
    for name, arr in zip(names[1:], arrays[1:], strict=True):
        if arr.shape != arrays[0].shape:
            raise ValueError(
                f"{name} has shape {_shape(arr.shape)} and param has shape "
                f"{_shape(arrays[0].shape)}: they must have the same shape"
            )
    for name, value in (("param", param), ("exp_avg", exp_avg), ("exp_avg_sq", exp_avg_sq)):
        _check_updatable(name, value)
    _check_separate(names, arrays)
    if n < 1:
        raise ValueError(f"step must be at least 1, got {n}")
    _check_hyperparameters(*reals)
    return AdamWInputs(param, _native(arrays[1]), exp_avg, exp_avg_sq, n, *reals)


def _check_separate(names: list[str], arrays: list[np.ndarray]) -> None:
    """E53: no two of the four arrays overlap in memory, or an update of one would change
    another's input halfway (and the result would depend on the order of the loop)."""
    for i in range(len(arrays)):
        for j in range(i + 1, len(arrays)):
            if np.may_share_memory(arrays[i], arrays[j]):
                raise ValueError(
                    f"{names[i]} and {names[j]} share memory; adamw_step needs four separate arrays"
                )


# --- threads ------------------------------------------------------------------------------------


def default_num_threads() -> int:
    """``RUST_CORE_NUM_THREADS`` if it is an integer in [1, MAX_THREADS], else the number of cores.

    The Python backends read the same variable as ``rust_core`` so that a benchmark run under
    one setting reports the same thread count for every lane. A malformed value is ignored
    rather than fatal: it should not stop the app from starting.
    """
    raw = os.environ.get(NUM_THREADS_ENV, "").strip()
    try:
        value = int(raw)
    except ValueError:
        value = 0
    return value if 1 <= value <= MAX_THREADS else (os.cpu_count() or 1)


class ThreadCount:
    """The ``set_num_threads`` / ``get_num_threads`` state of one backend.

    The Python backends are single-threaded (NumPy's BLAS has its own pool), but they keep the
    setting so that they expose exactly ``rust_core``'s API and the benchmark code can treat
    all three lanes alike. Each backend owns its own instance, as each Rust pool is its own.
    """

    def __init__(self) -> None:
        self._value: int | None = None
        self._alone = threading.local()  # depth: how many ``on_this_thread`` blocks we are in

    def get(self) -> int:
        """The current setting (1 inside ``on_this_thread``); the default is resolved on first
        use, not at import."""
        if getattr(self._alone, "depth", 0) > 0:
            return 1
        if self._value is None:
            self._value = default_num_threads()
        return self._value

    def on_this_thread(self) -> OnThisThread:
        """``rust_core.on_this_thread``: inside the block, this thread's setting reads 1."""
        return OnThisThread(self._alone)

    def set(self, n: Any) -> None:
        """E24 (n read), E15: a pool needs at least one thread; E22: and at most MAX_THREADS."""
        value = as_int64("n", n)
        if value < 1:
            raise ValueError(f"number of threads must be at least 1, got {value}")
        if value > MAX_THREADS:
            raise ValueError(f"number of threads must be at most {MAX_THREADS}, got {value}")
        self._value = value


class OnThisThread:
    """A ``ThreadCount``'s ``on_this_thread`` block, as rust_core's: blocks nest, and one object
    may be entered on several threads at once (the depth is each thread's own)."""

    def __init__(self, alone: threading.local) -> None:
        self._alone = alone

    def __enter__(self) -> None:
        self._alone.depth = getattr(self._alone, "depth", 0) + 1

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        self._alone.depth = max(0, getattr(self._alone, "depth", 0) - 1)  # an error propagates
