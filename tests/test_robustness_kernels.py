"""rust_core never crashes, aborts, hangs or leaks Rust panic text, whatever it is given.

Two kinds of test:

- *hostile but small* (in this process; hypothesis draws the calls, and the dtype × argument and
  non-array × argument matrices are run in full): every public function is called with every
  NumPy dtype, 0-d arrays, empty dimensions, Fortran / negative-stride / strided /
  broadcast / misaligned / byte-swapped / read-only layouts, packed structured fields, more than
  32 dimensions, NaN and ±inf, sizes on both sides of the thread pool's threshold (2**22
  operations) and of attention's tiles (64 query rows, 256 keys), and hostile scalars. A call
  must either return what the ``"numpy"`` backend returns (within tolerances a wrong row, mask,
  scale or tile would break) or raise exactly what it raises: TypeError, ValueError, IndexError
  or MemoryError, same class and same message, with no Rust panic text anywhere (message or
  stderr). A panic surfaces as PyO3's PanicException, a BaseException, so everything is caught.
- *too big for the machine* (in a subprocess, so that an abort or an OOM kill is a failing
  test, not a dead test run): requests whose result or input would need more than the machine's
  memory, built from zero-strided views so that the input itself is tiny, must fail with E23's
  MemoryError within a few seconds, without the process growing.
"""

from __future__ import annotations

import functools
import json
import math
import operator
import subprocess
import sys
import textwrap
import warnings
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from transformer_walk.core import contract, get_backend

from conftest import BACKEND_NAMES, HAVE_RUST

#: Every test that calls rust_core directly; the memory tests run each backend ("rust" skipped
#: by conftest's BACKEND_NAMES when it is not built).
requires_rust = pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")

NUMPY = get_backend("numpy")
RUST = get_backend("rust") if HAVE_RUST else None

PROPERTY = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,  # capfd: read and emptied after every example
    ],
)

#: The only exceptions a bad call may raise (exact classes, so no PanicException, OverflowError
#: or other surprise passes).
ALLOWED = (TypeError, ValueError, IndexError, MemoryError)

#: Text that only a Rust panic, abort or failed allocation would print.
PANIC_TEXT = (
    "panicked",
    "RUST_BACKTRACE",
    "called `Option::unwrap()`",
    "called `Result::unwrap()`",
    "stack backtrace",
    "memory allocation of",
    "Please report a bug",
    ".rs:",
    "PanicException",
)

F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
FLOATS = [F32, F64]
INT_DTYPES = [
    np.dtype(t)
    for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
]


def swapped(dt: Any) -> np.dtype:
    """``dt`` in the other byte order ('>f4' on x86): NumPy still calls it float32."""
    return np.dtype(dt).newbyteorder("S")


#: Every kind of dtype NumPy has, byte-swapped variants included.
ALL_DTYPES = [
    *INT_DTYPES,
    np.dtype(np.float16),
    F32,
    F64,
    np.dtype(np.longdouble),
    np.dtype(np.complex64),
    np.dtype(np.complex128),
    np.dtype(np.clongdouble),
    np.dtype(bool),
    np.dtype(object),
    np.dtype("U5"),
    np.dtype("S5"),
    np.dtype("datetime64[ns]"),
    np.dtype("timedelta64[s]"),
    np.dtype("V8"),
    np.dtype([("a", np.float32)]),
    swapped(np.float32),
    swapped(np.float64),
    swapped(np.int64),
    swapped(np.uint16),
]

INF, NAN = math.inf, math.nan
#: Quarters in [-4, 4]: sums of a few products of them are exact in float32 and float64, so the
#: backends see identical scores and dot products and tolerances can stay tight.
GRID = [i / 4 for i in range(-16, 17)]
SPECIALS = [NAN, INF, -INF, 0.0, -0.0]


# --- calling and comparing ----------------------------------------------------------------------


@dataclass
class Call:
    fn: str
    args: tuple
    kwargs: dict = field(default_factory=dict)

    def __repr__(self) -> str:  # shown by hypothesis on failure: shapes, dtypes and strides
        def show(a: Any) -> str:
            if isinstance(a, np.ndarray):
                return f"array(shape={a.shape}, dtype={a.dtype.str}, strides={a.strides})"
            return repr(a)

        parts = [show(a) for a in self.args] + [f"{k}={show(v)}" for k, v in self.kwargs.items()]
        return f"{self.fn}({', '.join(parts)})"


def outcome(backend: Any, call: Call) -> tuple[Any, Any]:
    """``("ok", result)`` or ``(exception class, message)``; BaseException too (a PyO3 panic).
    A warning is an error: NaN and ±inf are values of the contract, not accidents."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return "ok", getattr(backend, call.fn)(*call.args, **call.kwargs)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - a PanicException must be seen, not propagated
        return type(e), str(e)


def assert_no_panic_text(text: str) -> None:
    for marker in PANIC_TEXT:
        assert marker not in text, f"Rust panic text {marker!r} in: {text[:500]}"


def assert_clean_error(kind: Any, message: str) -> None:
    assert kind in ALLOWED, f"raised {kind.__name__}: {message}"
    assert_no_panic_text(message)


def assert_matches(actual: Any, expected: np.ndarray, rtol: float, atol: Any = 0.0) -> None:
    """Same type, dtype, shape, NaN positions and infinities; finite values within
    ``atol + rtol·|expected|`` (``atol`` may be an array, e.g. proportional to |x|)."""
    assert type(actual) is np.ndarray, type(actual)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.dtype.isnative
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    assert actual.flags.c_contiguous
    a, e = actual.astype(np.float64), expected.astype(np.float64)
    nan_a, nan_e = np.isnan(a), np.isnan(e)
    assert (nan_a == nan_e).all(), f"NaN positions differ at {np.argwhere(nan_a != nan_e)[:5]}"
    with np.errstate(invalid="ignore"):
        ok = nan_a | (a == e) | (np.abs(a - e) <= atol + rtol * np.abs(e))
    bad = np.argwhere(~ok)[:5]
    assert ok.all(), f"differ at {bad.tolist()}: rust {a[~ok][:5]} vs numpy {e[~ok][:5]}"


def _finite_abs(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    return np.where(np.isfinite(a), np.abs(a), 0.0)


def tolerance(call: Call, expected: np.ndarray) -> tuple[float, Any]:
    """(rtol, atol) for comparing rust_core with NumPy on ``call``: summation order and a
    last-bit difference in exp or erf, never a wrong row, mask, scale or tile."""
    f32 = expected.dtype == F32
    eps = 1e-5 if f32 else 1e-12
    # Arguments as the backends read them (lists, memoryviews and __array__ objects included).
    args = [None if a is None else np.asarray(a) for a in call.args]
    if call.fn in ("embedding_lookup", "one_hot"):
        return 0.0, 0.0  # copies: bit-exact
    if call.fn in ("softmax", "attention_weights"):
        return eps, eps / 10
    if call.fn == "attention":
        v = args[2]
        reach = float(_finite_abs(v).sum(axis=-2).max()) if v.size else 0.0
        return eps, eps / 10 * max(1.0, reach)  # z = Σ a_ij v_j may cancel to ~0
    if call.fn == "linear":
        x, w = args[0], args[1]
        b = args[2] if len(args) > 2 and args[2] is not None else 0.0
        reach = _finite_abs(x) @ _finite_abs(w).T + _finite_abs(b) if x.size and w.size else 0
        return eps, eps * (1 + np.asarray(reach))
    if call.fn == "layer_norm":
        g, b = _finite_abs(args[1]), _finite_abs(args[2])
        reach = float((g.max() if g.size else 0) + (b.max() if b.size else 0))
        return (1e-4, 1e-4 * (1 + reach)) if f32 else (1e-10, 1e-10 * (1 + reach))
    if call.fn == "gelu":  # docs/api.md: float32 within 2·ε·|x| of the true value
        x = _finite_abs(args[0])
        # float64: libm's erf, but 1 + erf(x/√2) cancels for negative x, so the error is
        # absolute, a few ulps of |x|.
        return (2e-6, 3e-7 * x + 1e-37) if f32 else (1e-14, 1e-15 * x + 1e-300)
    if call.fn == "rms_norm":
        reach = float(_finite_abs(args[1]).max()) if args[1].size else 0.0
        return (1e-5, 1e-5 * (1 + reach)) if f32 else (1e-12, 1e-12 * (1 + reach))
    if call.fn in ("silu", "swiglu"):  # a vectorised exp (float32), libm's (float64)
        return (4e-7, 2e-36) if f32 else (1e-14, 1e-300)
    if call.fn == "rope":  # angles in float64 in both; the rotation rounds once
        x = _finite_abs(args[0])
        return (1e-6, 1e-6 * (1 + x.max(initial=0))) if f32 else (1e-12, 1e-12)
    raise AssertionError(call.fn)


#: Functions with several results, and the function each result is compared as.
PARTS = {"attention_with_weights": ("attention", "attention_weights")}


def results_of(call: Call, result: Any) -> list[tuple[str, Any]]:
    """``(fn, array)`` for each result of ``call``: one, or one per entry of ``PARTS``."""
    parts = PARTS.get(call.fn)
    if parts is None:
        return [(call.fn, result)]
    assert type(result) is tuple and len(result) == len(parts), type(result)
    return list(zip(parts, result, strict=True))


def inputs_of(call: Call) -> list[np.ndarray]:
    return [a for a in (*call.args, *call.kwargs.values()) if isinstance(a, np.ndarray)]


def same_contents(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit for bit (NaN and void dtypes included; object arrays by value)."""
    if a.dtype.hasobject:
        return a.tolist() == b.tolist()
    return np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def check_against_numpy(call: Call, capfd: pytest.CaptureFixture[str] | None = None) -> str:
    """Run ``call`` on rust_core and on NumPy: the same result or the same clean error.
    Returns "ok" or the name of the exception raised, for tests that want more."""
    before = [a.copy() for a in inputs_of(call)]
    rust, ref = outcome(RUST, call), outcome(NUMPY, call)
    if capfd is not None:
        assert_no_panic_text(capfd.readouterr().err)
    for a, b in zip(inputs_of(call), before, strict=True):
        assert same_contents(a, b), "an input was modified"
    if rust[0] != "ok":
        assert_clean_error(*rust)
    assert rust[0] == ref[0], f"{call}: rust {rust[0]} {rust[1]!r:.300} vs numpy {ref[1]!r:.300}"
    if rust[0] != "ok":
        assert rust[1] == ref[1], f"{call}: messages differ"
        return rust[0].__name__
    pairs = zip(results_of(call, rust[1]), results_of(call, ref[1]), strict=True)
    for (part, got), (_, want) in pairs:
        for a in inputs_of(call):
            assert not np.may_share_memory(got, a), "the result must be a new array"
        rtol, atol = tolerance(Call(part, call.args, call.kwargs), want)
        assert_matches(got, want, rtol, atol)
    return "ok"


# --- layouts ------------------------------------------------------------------------------------

LAYOUTS = [
    "C",
    "F",
    "reversed",
    "strided",
    "swapped_axes",
    "broadcast",
    "readonly",
    "misaligned",
    "packed_field",
    "byteswapped",
]


def relayout(x: np.ndarray, kind: str) -> np.ndarray:
    """``x`` in another memory layout: the same values except for "broadcast" (its first row
    repeated through a zero stride)."""
    if x.dtype.kind not in "biuf" or x.ndim == 0 and kind not in ("readonly", "byteswapped"):
        return x
    if kind == "F":
        return np.asfortranarray(x)
    if kind == "reversed":  # negative strides along every axis
        rev = tuple(slice(None, None, -1) for _ in x.shape)
        return x[rev].copy()[rev]
    if kind == "strided":  # every other element of a larger buffer
        every_other = tuple(slice(None, None, 2) for _ in x.shape)
        big = np.zeros(tuple(2 * s for s in x.shape), dtype=x.dtype)
        big[every_other] = x
        return big[every_other]
    if kind == "swapped_axes" and x.ndim >= 2:
        return np.swapaxes(np.swapaxes(x, 0, -1).copy(), 0, -1)
    if kind == "broadcast" and x.size:
        return np.broadcast_to(x[:1], x.shape)
    if kind == "readonly":
        y = x.copy()
        y.flags.writeable = False
        return y
    if kind == "misaligned":  # C-contiguous, but starting one byte into an aligned buffer
        raw = np.zeros(x.nbytes + 1, dtype=np.uint8)
        y = np.frombuffer(raw.data, dtype=x.dtype, count=x.size, offset=1).reshape(x.shape)
        y[...] = x  # frombuffer of a writable buffer is writable
        return y
    if kind == "packed_field":  # a field of a packed record: stride itemsize + 1, misaligned
        rec = np.zeros(x.shape, dtype=[("pad", np.uint8), ("value", x.dtype)])
        rec["value"] = x
        return rec["value"]
    if kind == "byteswapped":
        return x.astype(swapped(x.dtype))
    return x


layouts = st.sampled_from(LAYOUTS)


# --- valid calls with hostile layouts and values ------------------------------------------------


def values(dtype: np.dtype, specials: bool, wide: bool = False) -> st.SearchStrategy[float]:
    base = st.sampled_from(GRID)
    if wide:  # gelu's and softmax's inputs need no exact products
        base = st.one_of(base, st.floats(-60, 60, width=32), st.sampled_from([1e4, -1e4]))
    return st.one_of(base, st.sampled_from(SPECIALS)) if specials else base


def small_shapes(min_dims: int = 0, max_dims: int = 3) -> st.SearchStrategy[tuple[int, ...]]:
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=0, max_side=4)


@st.composite
def valid_calls(draw: st.DrawFn) -> Call:
    """A call of any public function with valid or invalid shapes and arguments: shapes with
    empty dimensions and 0-d arrays, NaN/±inf, every id dtype, every layout."""
    fn = draw(
        st.sampled_from(
            [
                "embedding_lookup",
                "one_hot",
                "softmax",
                "attention",
                "attention_weights",
                "attention_with_weights",
                "linear",
                "layer_norm",
                "gelu",
                "rms_norm",
                "silu",
                "swiglu",
                "rope",
            ]
        )
    )
    dtype = draw(st.sampled_from(FLOATS))
    specials = draw(st.booleans())
    kwargs: dict = {}

    def arr(shape: tuple[int, ...], wide: bool = False) -> np.ndarray:
        return draw(hnp.arrays(dtype, shape, elements=values(dtype, specials, wide)))

    def ids(shape: tuple[int, ...], vocab: int) -> np.ndarray:
        lo = -1 if draw(st.integers(0, 9)) == 0 else 0  # now and then an id out of range
        hi = vocab if lo < 0 else max(vocab - 1, 0)
        id_dtype = draw(st.sampled_from(INT_DTYPES))
        if id_dtype.kind == "u":
            lo = 0
        return draw(hnp.arrays(id_dtype, shape, elements=st.integers(lo, hi)))

    if fn == "embedding_lookup":
        vocab, d = draw(st.integers(0, 5)), draw(st.integers(0, 4))
        args: tuple = (arr((vocab, d)), ids(draw(small_shapes()), vocab))
    elif fn == "one_hot":
        vocab = draw(st.integers(1, 6))
        args = (ids(draw(small_shapes()), vocab), vocab)
        kwargs = draw(st.sampled_from([{}, {"dtype": np.float32}, {"dtype": np.float64}]))
    elif fn == "softmax":
        shape = draw(small_shapes(0, 4))
        args = (arr(shape, wide=True),)
        kwargs = {"axis": draw(st.integers(-len(shape) - 1, len(shape)))}
    elif fn.startswith("attention"):
        lead = draw(small_shapes(0, 2))
        n, m, d_k, d_v = (draw(st.integers(0, 4)) for _ in range(4))
        args = (arr((*lead, n, d_k)), arr((*lead, m, d_k)))
        if fn != "attention_weights":
            args += (arr((*lead, m, d_v)),)
        scores = (*lead, n, m)
        kwargs = {"causal": draw(st.booleans())}
        kind = draw(st.sampled_from(["none", "bool", "float"]))
        if kind != "none":
            ndim = draw(st.integers(0, len(scores)))
            mask_shape = tuple(draw(st.sampled_from([s, 1])) for s in scores[len(scores) - ndim :])
            mask_dtype = bool if kind == "bool" else draw(st.sampled_from(["f2", "f4", "f8"]))
            mask_values = st.sampled_from([*GRID, -INF, NAN]) if kind == "float" else None
            kwargs["mask"] = relayout(
                draw(hnp.arrays(mask_dtype, mask_shape, elements=mask_values)), draw(layouts)
            )
        scale = draw(st.sampled_from([None, None, 0.5, 2.0, 0.0, -1.0]))
        if scale is not None:
            kwargs["scale"] = scale
    elif fn == "linear":
        lead = draw(small_shapes(0, 2))
        d_in, d_out = draw(st.integers(0, 5)), draw(st.integers(0, 5))
        x_shape = (*lead, d_in) if draw(st.integers(0, 9)) else lead  # now and then 0-d x
        args = (arr(x_shape), arr((d_out, d_in)))
        if draw(st.booleans()):
            args += (arr((d_out,)),)
    elif fn == "layer_norm":
        shape = draw(small_shapes(0, 3))
        d = shape[-1] if shape else 1
        args = (arr(shape), arr((d,)), arr((d,)))
        kwargs = {"eps": draw(st.sampled_from([0.0, 1e-12, 1e-5, 1.0]))}
    elif fn == "rms_norm":
        shape = draw(small_shapes(0, 3))
        d = shape[-1] if shape else 1
        args = (arr(shape), arr((d,)))
        kwargs = {"eps": draw(st.sampled_from([0.0, 1e-12, 1e-5, 1.0]))}
    elif fn == "swiglu":
        shape = draw(small_shapes(0, 3))
        other = shape if draw(st.integers(0, 9)) else draw(small_shapes(0, 3))  # now and then E29
        args = (arr(shape, wide=True), arr(other, wide=True))
    elif fn == "rope":
        shape = draw(small_shapes(0, 4))
        n = shape[-2] if len(shape) >= 2 else 1
        lo = -1 if draw(st.integers(0, 9)) == 0 else 0  # now and then a negative position
        pos_dtype = draw(st.sampled_from(INT_DTYPES))
        positions = draw(
            hnp.arrays(
                pos_dtype,
                (n,),
                elements=st.integers(max(lo, 0) if pos_dtype.kind == "u" else lo, 100),
            )
        )
        args = (arr(shape), positions)
        kwargs = {"base": draw(st.sampled_from([10000.0, 1e5, 1.0, 0.0]))}
    elif fn == "silu":
        args = (arr(draw(small_shapes(0, 4)), wide=True),)
    else:
        args = (arr(draw(small_shapes(0, 4)), wide=True),)
    args = tuple(relayout(a, draw(layouts)) if isinstance(a, np.ndarray) else a for a in args)
    return Call(fn, args, kwargs)


@requires_rust
@settings(PROPERTY, max_examples=300)
@given(call=valid_calls())
def test_any_call_agrees_with_numpy(call: Call, capfd: pytest.CaptureFixture[str]) -> None:
    """Guards against: a layout read wrongly (negative, zero or odd strides, Fortran order, a
    misaligned or byte-swapped buffer), an empty or 0-d shape that panics, NaN/±inf handled
    differently from the contract, and errors that differ from the other backends."""
    check_against_numpy(call, capfd)


# --- every dtype in every array argument --------------------------------------------------------

#: One valid call per function, as (function, {slot: (kind, shape)}, other keyword arguments):
#: "float" arguments share one dtype, "ids" are ids below 3, "mask" is a float mask.
SLOTS: dict[str, tuple[list[tuple[str, str, tuple[int, ...]]], dict[str, Any]]] = {
    "embedding_lookup": ([("table", "float", (3, 2)), ("ids", "ids", (2, 3))], {}),
    "one_hot": ([("ids", "ids", (2, 3))], {"vocab_size": 3}),
    "softmax": ([("x", "float", (2, 3))], {}),
    "attention": (
        [("q", "float", (2, 3, 4)), ("k", "float", (2, 5, 4)), ("v", "float", (2, 5, 6))],
        {"mask": ("mask", (3, 5))},
    ),
    "attention_weights": (
        [("q", "float", (2, 3, 4)), ("k", "float", (2, 5, 4))],
        {"mask": ("mask", (3, 5))},
    ),
    "attention_with_weights": (
        [("q", "float", (2, 3, 4)), ("k", "float", (2, 5, 4)), ("v", "float", (2, 5, 6))],
        {"mask": ("mask", (3, 5))},
    ),
    "linear": ([("x", "float", (2, 3)), ("weight", "float", (4, 3)), ("bias", "float", (4,))], {}),
    "layer_norm": ([("x", "float", (2, 3)), ("gamma", "float", (3,)), ("beta", "float", (3,))], {}),
    "gelu": ([("x", "float", (2, 3))], {}),
    "rms_norm": ([("x", "float", (2, 3)), ("weight", "float", (3,))], {}),
    "silu": ([("x", "float", (2, 3))], {}),
    "swiglu": ([("gate", "float", (2, 3)), ("up", "float", (2, 3))], {}),
    "rope": ([("x", "float", (2, 3, 4)), ("positions", "ids", (3,))], {}),
}


def in_dtype(base: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """The values of ``base`` (small non-negative numbers) as an array of ``dtype``."""
    if dtype.kind == "V":
        return np.zeros(base.shape, dtype=dtype)
    if dtype.kind in "mM":
        return base.astype(np.int64).astype(dtype)
    if dtype.kind in "US":
        return base.astype(np.int64).astype(dtype)
    return base.astype(dtype)


#: Every (function, array argument) pair, the mask included.
SLOT_PARAMS = [
    pytest.param(fn, name, id=f"{fn}-{name}")
    for fn, (slots, extra) in SLOTS.items()
    for name in [n for n, _, _ in slots] + (["mask"] if "mask" in extra else [])
]


def call_with(fn: str, target: str, value: Any, shared: np.dtype, rng: np.random.Generator) -> Call:
    """The valid call of ``SLOTS[fn]`` with argument ``target`` replaced by ``value``, if it is
    not callable: ``value(base)`` of the valid values otherwise."""
    slots, extra = SLOTS[fn]
    kwargs: dict[str, Any] = {k: v for k, v in extra.items() if k != "mask"}
    args = []
    for name, kind, shape in slots:
        base = rng.integers(0, 3, size=shape).astype(np.float64)
        valid = base.astype(shared) if kind == "float" else base.astype(np.int64)
        args.append((value(base) if callable(value) else value) if name == target else valid)
    if "mask" in extra:
        base = rng.integers(0, 2, size=extra["mask"][1]).astype(np.float64)
        valid = base.astype(shared)
        kwargs["mask"] = (value(base) if callable(value) else value) if target == "mask" else valid
    if fn == "one_hot":
        args.append(kwargs.pop("vocab_size"))
    return Call(fn, tuple(args), kwargs)


@requires_rust
@pytest.mark.parametrize(("fn", "target"), SLOT_PARAMS)
def test_every_dtype_in_every_argument(
    fn: str, target: str, capfd: pytest.CaptureFixture[str]
) -> None:
    """Every dtype NumPy has (``ALL_DTYPES``), in every array argument of every function — all
    of them, not a sample. Guards against: a dtype that reaches a kernel it was not checked for
    (complex, object, datetime, longdouble, void), a byte-swapped array read as native numbers,
    and an integer id dtype that is refused or misread. Besides agreeing with NumPy, the outcome
    is the documented one: E1/E3/E4 naming the argument, or a correct result."""
    slots, _ = SLOTS[fn]
    kind = {name: k for name, k, _ in slots}.get(target, "mask")
    rng = np.random.default_rng(0)
    for dtype in ALL_DTYPES:
        # The shared float dtype: that of the hostile array when it is float32/float64 (either
        # byte order), so that only the argument under test can be wrong.
        native = dtype.newbyteorder("=")
        shared = native if native in FLOATS else F64
        call = call_with(fn, target, lambda base, dt=dtype: in_dtype(base, dt), shared, rng)
        result = check_against_numpy(call, capfd)
        accepted = {
            "float": native in FLOATS,
            "ids": dtype.kind in "iu",
            "mask": dtype.kind in "bf",
        }[kind]
        if accepted:
            assert result == "ok", (dtype, call)
        else:
            assert result == "TypeError", (dtype, call)
            message = outcome(RUST, call)[1]
            assert message.startswith(f"{target} has dtype {dtype.name}; expected"), message


#: Things that are not arrays, for any array argument: np.asarray decides what they become.
class _ArrayLike:
    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.arange(6, dtype=np.float32).reshape(2, 3)


class _BrokenArrayLike:
    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raise ValueError("no array here")


with warnings.catch_warnings():  # np.matrix is discouraged, but callers may still pass one
    warnings.simplefilter("ignore", PendingDeprecationWarning)
    MATRIX = np.matrix(np.ones((2, 3)))

NOT_ARRAYS = [
    None,
    "abc",
    b"xy",
    {"a": 1},
    {1.0, 2.0},
    3 + 4j,
    Decimal("1.5"),
    [[1.0], [2.0, 3.0]],  # ragged
    [None, 1.0],
    [[0.5, 1.0, 2.0], [3.0, 4.0, 5.0]],  # a valid float64 [2, 3]
    [[0, 1, 2], [1, 1, 0]],  # valid ids
    np.float32(1.5),
    np.int64(2),
    True,
    memoryview(np.arange(3, dtype=np.float64)),
    _ArrayLike(),
    _BrokenArrayLike(),
    np.ma.masked_array(np.ones((2, 3)), mask=[[True, False, False]] * 2),
    MATRIX,
]


@requires_rust
@pytest.mark.parametrize(("fn", "target"), SLOT_PARAMS)
def test_non_array_arguments(fn: str, target: str, capfd: pytest.CaptureFixture[str]) -> None:
    """Every non-array in ``NOT_ARRAYS``, in every array argument. Guards against: an argument
    that is not an array (None, str, dict, ragged lists, objects whose __array__ raises,
    subclasses) crashing the binding or being read differently from the other backends."""
    rng = np.random.default_rng(0)
    for thing in NOT_ARRAYS:
        check_against_numpy(call_with(fn, target, thing, F64, rng), capfd)


# --- ids of every integer dtype and value -------------------------------------------------------


@requires_rust
@PROPERTY
@given(
    id_dtype=st.sampled_from(INT_DTYPES + [swapped(np.int64), swapped(np.uint64)]),
    shape=small_shapes(0, 3),
    vocab=st.integers(1, 300),
    layout=layouts,
    lookup=st.booleans(),
    data=st.data(),
)
def test_ids_of_every_integer_dtype(
    id_dtype: np.dtype,
    shape: tuple[int, ...],
    vocab: int,
    layout: str,
    lookup: bool,
    data: st.DataObject,
    capfd: pytest.CaptureFixture[str],
) -> None:
    """Guards against: an id wrapped or truncated on its way to Rust (uint64 above 2**63 read as
    negative, int8 -128, an id ≥ V in a narrow type), a bad id not reported, the wrong one
    reported (not the first in C order), or a good id answered with the wrong row."""
    info = np.iinfo(id_dtype)
    edge = st.sampled_from(
        [info.min, info.max, -1, 0, vocab - 1, vocab, vocab + 1, 2**63 - 1, 2**63, 2**63 + 5]
    )
    good = st.integers(0, min(vocab - 1, int(info.max)))
    element = st.one_of(good, good, edge).filter(lambda i: info.min <= i <= info.max)
    ids = relayout(data.draw(hnp.arrays(id_dtype, shape, elements=element)), layout)
    table = np.arange(vocab * 2, dtype=np.float32).reshape(vocab, 2)
    call = Call("embedding_lookup", (table, ids)) if lookup else Call("one_hot", (ids, vocab), {})
    check_against_numpy(call, capfd)

    flat = [int(i) for i in np.ravel(ids, order="C").tolist()]  # exact Python ints
    bad = [i for i in flat if not 0 <= i < vocab]
    got = outcome(RUST, call)
    if bad:
        assert got == (IndexError, f"id {bad[0]} is out of range for a vocabulary of size {vocab}")
    else:
        assert got[0] == "ok"
        rows = np.array(flat, dtype=np.int64).reshape(ids.shape)
        expected = table[rows] if lookup else np.eye(vocab, dtype=np.float32)[rows]
        np.testing.assert_array_equal(got[1], expected, strict=True)


# --- scalars ------------------------------------------------------------------------------------

HOSTILE_SCALARS = st.one_of(
    st.integers(),
    st.sampled_from([2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64, 10**400, -(10**400)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        [
            None,
            True,
            False,
            "2",
            "",
            b"1",
            3j,
            Fraction(1, 3),
            Fraction(10**400),
            Decimal("0.5"),
            Decimal("NaN"),
            Decimal("-Infinity"),
            np.float32(0.5),
            np.float64(np.nan),
            np.int8(-1),
            np.uint64(2**64 - 1),
            np.bool_(True),
            np.array(2),
            np.array([1.0, 2.0]),
            np.array([]),
            [1],
            "float32",
            np.float64,
        ]
    ),
)


@requires_rust
@PROPERTY
@given(
    slot=st.sampled_from(["vocab_size", "dtype", "axis", "causal", "scale", "eps"]), data=st.data()
)
def test_hostile_scalars(slot: str, data: st.DataObject, capfd: pytest.CaptureFixture[str]) -> None:
    """Guards against: an OverflowError or a PyO3 conversion message escaping for 2**70 or
    10**400, a scalar read with other rules than the Python backends' (truthiness of ``causal``,
    ``operator.index`` for integers, ``PyFloat_AsDouble`` for floats)."""
    value = data.draw(HOSTILE_SCALARS)
    q = np.ones((2, 3, 4), np.float32)
    x = np.ones((2, 3))
    call = {
        "vocab_size": Call("one_hot", (np.array([0, 1]), value), {}),
        "dtype": Call("one_hot", (np.array([0, 1]), 3), {"dtype": value}),
        "axis": Call("softmax", (x,), {"axis": value}),
        "causal": Call("attention", (q, q, q), {"causal": value}),
        "scale": Call("attention_weights", (q, q), {"scale": value}),
        "eps": Call("layer_norm", (x, np.ones(3), np.zeros(3)), {"eps": value}),
    }[slot]
    if slot == "vocab_size" and isinstance(value, int | np.integer) and 10**6 < value < 2**63:
        return  # a valid one-hot that may need gigabytes; the E23 tests cover huge ones
    check_against_numpy(call, capfd)


@pytest.fixture
def restore_threads():
    before = RUST.get_num_threads()
    yield
    RUST.set_num_threads(before)


@requires_rust
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    n=st.one_of(
        st.integers().filter(lambda i: not 1 <= i <= 1024),
        # Valid counts stay small: each one set starts that many threads.
        st.sampled_from([0, 1, 2, 1025, 2**63, -(2**63) - 1, 1.0, "2", None, np.int8(2), True]),
    )
)
def test_hostile_thread_counts(n: Any, restore_threads: None) -> None:
    """Guards against: a thread count that overflows, hangs the process (200,000 threads) or is
    read differently from the Python backends; a refused count must leave the setting alone."""
    before = RUST.get_num_threads()
    call = Call("set_num_threads", (n,))
    rust, ref = outcome(RUST, call), outcome(NUMPY, call)
    assert rust[0] == ref[0] and (rust[0] == "ok" or rust[1] == ref[1]), (rust, ref)
    if rust[0] != "ok":
        assert_clean_error(*rust)
        assert RUST.get_num_threads() == before
    else:
        assert RUST.get_num_threads() == operator.index(n)


# --- more than 32 dimensions --------------------------------------------------------------------


@requires_rust
@pytest.mark.parametrize(
    "fn", ["softmax", "softmax-axis", "gelu", "layer_norm", "attention", "lookup"]
)
def test_more_than_32_dimensions(fn: str, capfd: pytest.CaptureFixture[str]) -> None:
    """Guards against: the numpy crate's "unexpected dimensionality" panic (it views at most 32
    dimensions; NumPy allows 64)."""
    rng = np.random.default_rng(3)
    lead = (1,) * 34 + (2,)
    x = rng.standard_normal((*lead, 3, 4))
    call = {
        "softmax": Call("softmax", (x,)),
        "softmax-axis": Call("softmax", (x,), {"axis": 34}),
        "gelu": Call("gelu", (x,)),
        "layer_norm": Call("layer_norm", (x, np.ones(4), np.zeros(4))),
        "attention": Call("attention", (x, x, x), {"mask": np.tri(3, dtype=bool), "causal": True}),
        "lookup": Call("embedding_lookup", (x[(0,) * 35], np.zeros((*lead, 2), np.uint8))),
    }[fn]
    assert check_against_numpy(call, capfd) == "ok"


# --- sizes at the thread pool's threshold -------------------------------------------------------

THRESHOLD = 1 << 22  # rust_core.threads.PARALLEL_MIN_WORK


def _boundary_calls() -> list[pytest.param]:
    """For each kernel, calls of work just below and exactly at 2**22 operations (each kernel's
    ``*_work`` in rust_core), so that the serial and the pooled path both run."""
    rng = np.random.default_rng(7)

    def a(*shape: int, dtype=np.float32) -> np.ndarray:
        return rng.choice(np.array(GRID, dtype=dtype), size=shape)

    cases = []
    for below, label in ((1, "below"), (0, "at")):
        rows = 2**17 // 1024  # softmax: 32 per element
        cases.append((f"softmax-{label}", Call("softmax", (a(rows, 1024 - below),))))
        cases.append(
            (f"softmax-axis0-{label}", Call("softmax", (a(1024 - below, rows),), {"axis": 0}))
        )
        cases.append(
            (f"gelu-{label}", Call("gelu", (a(2**18 // 64, 64 - below),)))
        )  # 16 per element
        x = a(2**18 // 64 - below, 64)
        cases.append((f"layer_norm-{label}", Call("layer_norm", (x, a(64), a(64)))))
        table = a(500, 256)  # 1 KB rows: the streamed copy when AVX-512 is there
        ids = rng.integers(0, 500, size=2**14 - below)
        cases.append((f"lookup-{label}", Call("embedding_lookup", (table, ids))))
        # linear: rows · in · out; 64 rows take gemm, 32 the few-rows kernel.
        for rows_, d_in in ((64, 256), (32, 512)):
            x, w, b = a(rows_ - below, d_in), a(256, d_in), a(256)
            cases.append((f"linear-{rows_}rows-{label}", Call("linear", (x, w, b))))
        # attention: batch · n · m · (d_k + d_v + 1), across several 64 × 256 tiles.
        q, k, v = a(1, 512, 8), a(1, 512, 8), a(1, 512, 7 - below)
        cases.append((f"attention-{label}", Call("attention", (q, k, v), {"causal": True})))
        cases.append(
            (f"with-weights-{label}", Call("attention_with_weights", (q, k, v), {"causal": True}))
        )
        cases.append(
            (
                f"weights-{label}",
                Call(
                    "attention_weights",
                    (a(1, 512, 15 - below), a(1, 512, 15 - below)),
                    {"scale": 0.25},
                ),
            )
        )
    return [pytest.param(call, id=label) for label, call in cases]


@requires_rust
@pytest.mark.parametrize("call", _boundary_calls())
def test_sizes_at_the_thread_threshold(call: Call, restore_threads: None) -> None:
    """Guards against: a split of the work across the pool that drops, repeats or misplaces rows
    (the last partial task, a tile edge), and results that depend on the thread count."""
    results = []
    for n in (1, 2):
        RUST.set_num_threads(n)
        check_against_numpy(call)
        results.append(results_of(call, getattr(RUST, call.fn)(*call.args, **call.kwargs)))
    for (_, one), (_, two) in zip(*results, strict=True):
        np.testing.assert_array_equal(one, two, strict=True)


# --- attention's tile edges ---------------------------------------------------------------------

EDGES = [1, 63, 64, 65, 255, 256, 257]


@requires_rust
@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    n=st.sampled_from(EDGES),
    m=st.sampled_from(EDGES),
    d_k=st.sampled_from([1, 8, 17]),
    d_v=st.sampled_from([1, 5]),
    dtype=st.sampled_from(FLOATS),
    causal=st.booleans(),
    mask_kind=st.sampled_from(["none", "bool", "float", "rows"]),
    poison=st.sampled_from(["none", "nan-q", "inf-k", "nan-v"]),
    fn=st.sampled_from(["attention", "attention_weights", "attention_with_weights"]),
    layout=layouts,
    seed=st.integers(0, 2**16),
)
def test_attention_tile_edges(
    n: int,
    m: int,
    d_k: int,
    d_v: int,
    dtype: np.dtype,
    causal: bool,
    mask_kind: str,
    poison: str,
    fn: str,
    layout: str,
    seed: int,
    capfd: pytest.CaptureFixture[str],
) -> None:
    """Guards against: off-by-one errors at the edges of attention's tiles (BLOCK_Q = 64 query
    rows, BLOCK_K = 256 keys): a last partial tile skipped or overrun, the online softmax's
    rescaling between key tiles, causal cut-offs that fall inside a tile, masks and NaN/inf that
    sit exactly on a tile boundary, and rows fully masked in one tile but not another."""
    rng = np.random.default_rng(seed)
    grid = np.array(GRID[8:-8], dtype=dtype)  # |values| ≤ 2: exact scores
    q, k, v = (rng.choice(grid, size=(2, rows, d)) for rows, d in ((n, d_k), (m, d_k), (m, d_v)))
    edge = [i for i in (63, 64, 255, 256) if i < m] or [m - 1]
    if poison == "nan-q":
        q[0, min(n - 1, 64), 0] = np.nan
    elif poison == "inf-k":
        k[1, rng.choice(edge), 0] = np.inf
    elif poison == "nan-v":
        v[0, rng.choice(edge), 0] = np.nan
    kwargs: dict[str, Any] = {"causal": causal, "scale": 0.5}
    if mask_kind == "bool":
        kwargs["mask"] = rng.random((n, m)) < 0.7
    elif mask_kind == "float":
        kwargs["mask"] = rng.choice(np.array([0.0, -1.0, 0.25, -np.inf]), size=(2, 1, m))
    elif mask_kind == "rows":  # whole rows masked, and keys masked tile by tile
        allowed = np.ones((n, m), dtype=bool)
        allowed[::3] = False
        allowed[:, :256] &= rng.random(n)[:, None] < 0.5
        kwargs["mask"] = allowed
    q, k, v = (relayout(a, layout) for a in (q, k, v))
    args = (q, k) if fn == "attention_weights" else (q, k, v)
    assert check_against_numpy(Call(fn, args, kwargs), capfd) == "ok"


# --- requests too big for the machine: in a subprocess --------------------------------------------

MEMORY = contract.machine_memory()

#: (id, setup code, call, the argument E23 names). Every input is a zero-strided view of a few
#: bytes standing for an array far larger than the machine's memory.
TOO_BIG = [
    (
        "weights-1e6x1e6",
        "q = np.broadcast_to(np.float32(1), (1, 1, 10**6, 4))",
        "b.attention_weights(q, q)",
        "the result",
    ),
    (
        "attention-huge-mask",
        "q = np.broadcast_to(np.float32(1), (10**6, 4))\n"
        "mask = np.broadcast_to(True, (10**6, 10**6))",
        "b.attention(q, q, q, mask=mask)",
        "mask",
    ),
    (
        "with-weights-1e6x1e6",  # the output is 4 MB, the weights 4 TB
        "q = np.broadcast_to(np.float32(1), (10**6, 4))",
        "b.attention_with_weights(q, q, q[:, :1])",
        "the weights",
    ),
    (
        "attention-huge-k",  # the result is one number; k stands for 400 GB
        "q = np.zeros((1, 10**5), np.float32); k = np.broadcast_to(np.float32(1), (10**6, 10**5))",
        "b.attention(q, k, k[:, :1])",
        "k",
    ),
    ("one-hot-vocab-1e12", "ids = [0]", "b.one_hot(ids, 10**12)", "the result"),
    (
        "one-hot-broadcast-ids",
        "ids = np.broadcast_to(np.uint8(1), (10**6, 10**6))",
        "b.one_hot(ids, 3)",
        "the result",
    ),
    (
        "one-hot-just-over-memory",
        f"ids = [0]; vocab = {MEMORY} // 4 + 1",
        "b.one_hot(ids, vocab)",
        "the result",
    ),
    (
        "lookup-broadcast-ids",
        "t = np.ones((3, 4), np.float32); ids = np.broadcast_to(np.int64(0), (10**6, 10**6))",
        "b.embedding_lookup(t, ids)",
        "the result",
    ),
    (
        "lookup-bad-broadcast-ids",  # every id is out of range: E23 must come before the scan
        "t = np.ones((3, 4), np.float32); ids = np.broadcast_to(np.int64(-1), (10**5, 10**5))",
        "b.embedding_lookup(t, ids)",
        "the result",
    ),
    (
        "lookup-huge-table",
        "t = np.broadcast_to(np.float32(1), (10**12, 4))",
        "b.embedding_lookup(t, [0, 1])",
        "table",
    ),
    (
        "softmax-axis0",
        "x = np.broadcast_to(np.float32(0), (10**6, 10**6))",
        "b.softmax(x, axis=0)",
        "the result",
    ),
    (
        "linear-huge-x",
        "x = np.broadcast_to(np.float32(1), (10**6, 10**6)); w = np.ones((1, 10**6), np.float32)",
        "b.linear(x, w)",
        "x",
    ),
    (
        "layer-norm",
        "x = np.broadcast_to(np.float64(1), (10**6, 10**6)); g = np.ones(10**6)",
        "b.layer_norm(x, g, g)",
        "the result",
    ),
    ("gelu", "x = np.broadcast_to(np.float64(1), (10**6, 10**6))", "b.gelu(x)", "the result"),
]

#: Linux lets a process reset its peak resident size ("5" into clear_refs), so one child can
#: measure each case's own peak; elsewhere every case gets a fresh child.
PEAK_RESETTABLE = Path("/proc/self/clear_refs").exists()

CHILD = """
import json, resource, sys
import numpy as np
from transformer_walk.core import get_backend
b = get_backend({backend!r})

def reset_peak():
    if {resettable!r}:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")

def case(name, setup, call):
    reset_peak()
    scope = {{"np": np, "b": b}}
    exec(setup, scope)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        exec(call, scope)
        raised, message = None, ""
    except Exception as e:
        raised, message = type(e).__name__, str(e)
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    grew_kb = rss_after - rss_before
    print(json.dumps({{"case": name, "raised": raised, "message": message, "grew_kb": grew_kb}}))
    sys.stdout.flush()

for name, setup, call in json.loads(sys.argv[1]):
    print(json.dumps({{"starting": name}}))
    sys.stdout.flush()
    case(name, setup, call)
"""


def _text(output: bytes | str | None) -> str:
    return output.decode(errors="replace") if isinstance(output, bytes) else output or ""


@functools.cache
def too_big_reports(backend: str, tmp: str) -> dict[str, dict[str, Any]]:
    """Every TOO_BIG case's report on ``backend``, from as few children as isolation allows.

    Spawning a Python per case (42 of them) was most of this file's time. The cases of a
    backend share a child, which resets its peak memory before each; a child that dies (an
    abort, an OOM kill) is a failure of the case it was running, and the cases after it go on
    in a new child."""
    pending = [(c[0], c[1], c[2]) for c in TOO_BIG]
    reports: dict[str, dict[str, Any]] = {}
    while pending:
        batch = pending if PEAK_RESETTABLE else pending[:1]
        code = textwrap.dedent(CHILD.format(backend=backend, resettable=PEAK_RESETTABLE))
        try:
            done = subprocess.run(
                [sys.executable, "-c", code, json.dumps(batch)],
                capture_output=True,
                text=True,
                timeout=120,  # the hang guard: every case together takes a few seconds
                cwd=tmp,
            )
            stdout, stderr, exit_status = done.stdout, done.stderr, str(done.returncode)
        except subprocess.TimeoutExpired as e:  # its output so far comes as bytes
            stdout, stderr = (_text(e.stdout), _text(e.stderr))
            exit_status = "killed after 120 s"
        running = None
        for line in stdout.splitlines():
            record = json.loads(line)
            if "starting" in record:
                running = record["starting"]
            else:
                reports[record.pop("case")] = {**record, "stderr": stderr}
                running = None
        if running is not None or exit_status != "0":
            crashed = running or batch[-1][0]
            reports[crashed] = {"exit": exit_status, "stderr": stderr}
        pending = [c for c in pending if c[0] not in reports]
    return reports


@pytest.mark.skipif(MEMORY is None, reason="the OS does not report its memory")
@pytest.mark.parametrize("backend", BACKEND_NAMES)
@pytest.mark.parametrize("case", [pytest.param(c[0], id=c[0]) for c in TOO_BIG])
def test_too_big_for_the_machine(
    backend: str, case: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Guards against: a request that needs more memory than the machine has aborting the
    process ("memory allocation of … failed"), getting it OOM-killed, or spending minutes
    copying or scanning a broadcast input before failing. It must raise E23's MemoryError from
    the shapes alone (a scan of these inputs would outlast the child's 120 s hang guard), without
    the process growing, with the same message everywhere."""
    what = {c[0]: c[3] for c in TOO_BIG}[case]
    report = too_big_reports(backend, str(tmp_path_factory.getbasetemp()))[case]
    assert_no_panic_text(report["stderr"])
    assert "exit" not in report, f"exit {report['exit']}: {report['stderr'][-2000:]}"
    assert report["raised"] == "MemoryError", report
    assert report["message"].startswith(f"{what} of shape ("), report
    assert report["message"].endswith(
        f"would need more than this machine's {MEMORY} bytes of memory"
    )
    assert report["grew_kb"] < 64 * 1024, report  # KB: nothing the size of the request


@pytest.mark.skipif(MEMORY is None, reason="the OS does not report its memory")
@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_e23_limit_is_the_machines_memory(backend: str) -> None:
    """Guards against: E23 refusing what fits, or letting through what does not, by a factor
    (elements counted instead of bytes, the wrong memory figure). An empty one-hot whose row
    needs exactly the machine's memory is accepted and allocates nothing (zero dimensions are
    skipped in E23's count but make the array empty); four bytes more is refused."""
    assert MEMORY > 2**30  # the cases above really are beyond it
    b = get_backend(backend)
    no_ids = np.zeros(0, np.int64)
    fits = b.one_hot(no_ids, MEMORY // 4)  # float32: 4 · (MEMORY // 4) ≤ MEMORY bytes
    assert fits.shape == (0, MEMORY // 4) and fits.dtype == F32
    with pytest.raises(MemoryError, match=f"^the result of shape \\(0, {MEMORY // 4 + 1}\\) "):
        b.one_hot(no_ids, MEMORY // 4 + 1)
    with pytest.raises(MemoryError, match=f"^the result of shape \\(0, {MEMORY // 4}\\) "):
        b.one_hot(no_ids, MEMORY // 4, dtype=np.float64)  # the same shape in 8-byte items


@requires_rust
@pytest.mark.parametrize("m", [257, 600])
def test_causal_keys_beyond_the_last_tile_still_propagate_nan_values(m: int) -> None:
    """Guards against: the causal early exit skipping key tiles whose values hold NaN. The plain
    formula Σ_j a_ij v_j gives 0 · NaN = NaN there, as NumPy does (found by the tile-edge test)."""
    q = np.ones((1, 1, 1, 8), np.float32)
    k = np.ones((1, 1, m, 8), np.float32)
    v = np.ones((1, 1, m, 1), np.float32)
    v[..., m - 1, 0] = np.nan  # a key in the query's future, in a tile past the first
    want = get_backend("numpy").attention(q, k, v, causal=True)
    got = RUST.attention(q, k, v, causal=True)
    assert np.isnan(want).all() and np.isnan(got).all()
    v[..., m - 1, 0] = 1.0
    np.testing.assert_array_equal(RUST.attention(q, k, v, causal=True), np.ones((1, 1, 1, 1)))
