"""``attention_with_weights``: both results of one attention computation, equal to what
``attention`` and ``attention_weights`` return for the same arguments, with the same errors.

The weights are the very computation of ``attention_weights`` (bit for bit, on every backend); the
output is their product with v, which in rust_core is another order of summation than the tiled
``attention`` kernel, so it is held to the agreement tolerance of tests/test_backends.py.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from test_backends import PROPERTY, assert_agree, attention_cases, output_tolerance
from test_errors import CASES, HUGE, HUGE_Q, too_big

from transformer_walk.core import get_backend

from conftest import BACKEND_NAMES, HAVE_RUST

FLOAT_DTYPES = [np.dtype(np.float32), np.dtype(np.float64)]


def with_weights(name: str, q: Any, k: Any, v: Any, **kw: Any) -> tuple[np.ndarray, np.ndarray]:
    """Call ``attention_with_weights`` of backend ``name`` and check what every call must satisfy:
    no warning, a tuple of two new C-contiguous arrays, the inputs left as they were."""
    inputs = [a for a in (q, k, v, kw.get("mask")) if isinstance(a, np.ndarray)]
    before = [a.copy() for a in inputs]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = get_backend(name).attention_with_weights(q, k, v, **kw)
    assert type(result) is tuple and len(result) == 2
    for out in result:
        assert type(out) is np.ndarray and out.flags.c_contiguous
        for a in inputs:
            assert not np.may_share_memory(out, a), "the results must be new arrays"
    assert not np.may_share_memory(*result)
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b, err_msg="an input was modified", strict=True)
    return result


def assert_same_as_separate_calls(name: str, q, k, v, **kw: Any) -> None:
    out, weights = with_weights(name, q, k, v, **kw)
    backend = get_backend(name)
    expected_weights = backend.attention_weights(q, k, **kw)
    np.testing.assert_array_equal(weights, expected_weights, strict=True)  # the same computation
    case = {"v": np.asarray(v)}
    assert_agree(out, backend.attention(q, k, v, **kw), **output_tolerance(case))


@pytest.mark.parametrize("name", BACKEND_NAMES)
@PROPERTY
@given(case=attention_cases())
def test_equals_attention_and_attention_weights(name: str, case: dict[str, Any]) -> None:
    """Drawn cases: leading dimensions, n ≠ m, empty dimensions, ±inf and NaN in q, k, v and the
    mask, bool and float masks broadcast or strided, causal, float32 and float64."""
    kw = {"mask": case["mask"], "causal": case["causal"], "scale": case["scale"]}
    assert_same_as_separate_calls(name, case["q"], case["k"], case["v"], **kw)


def _qkv(lead: tuple[int, ...], n: int, m: int, d_k: int, d_v: int, dtype: np.dtype):
    rng = np.random.default_rng(n * 1000 + m)
    return tuple(
        rng.standard_normal((*lead, rows, d)).astype(dtype)
        for rows, d in ((n, d_k), (m, d_k), (m, d_v))
    )


@pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("threads", [1, 2])
def test_equals_separate_calls_at_sizes_that_use_the_pool(dtype: np.dtype, threads: int) -> None:
    """Above the parallel threshold (2·3·130·300·57 ≈ 13M operations), with a query block and a
    key count that are not multiples of the kernel's tiles, for every kind of mask."""
    backend = get_backend("rust")
    before = backend.get_num_threads()
    backend.set_num_threads(threads)
    try:
        q, k, v = _qkv((2, 3), 130, 300, 32, 24, dtype)
        rng = np.random.default_rng(7)
        allow = rng.random((130, 300)) < 0.6
        allow[5] = False  # query 5 may attend to nothing
        add = np.where(rng.random((3, 1, 300)) < 0.2, -np.inf, rng.standard_normal((3, 1, 300)))
        for kw in ({}, {"causal": True}, {"mask": allow}, {"mask": add, "causal": True}):
            assert_same_as_separate_calls("rust", q, k, v, **kw)
    finally:
        backend.set_num_threads(before)


@pytest.mark.parametrize("name", BACKEND_NAMES)
@pytest.mark.parametrize("dtype", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("mask_kind", ["bool", "float", "causal"])
def test_fully_masked_rows_give_zeros(name: str, dtype: np.dtype, mask_kind: str) -> None:
    """A query that may attend to nothing has zero weights and a zero output, even where v holds
    inf and NaN (0 · v would be NaN); the other rows weigh those values and are not finite."""
    q, k, v = _qkv((2,), 3, 4, 3, 2, dtype)
    v[:, 0, 0], v[:, 1, 1] = np.inf, np.nan
    allowed = np.ones((3, 4), dtype=bool)
    allowed[1] = False
    kw: dict[str, Any] = {
        "bool": {"mask": allowed},
        "float": {"mask": np.where(allowed, 0.0, -np.inf)},
        # Causal, and a mask hiding key 0 from query 0: query 0 may attend to nothing.
        "causal": {"mask": np.arange(3)[:, None] + np.arange(4) > 0, "causal": True},
    }[mask_kind]
    hidden = 0 if mask_kind == "causal" else 1
    out, weights = with_weights(name, q, k, v, **kw)
    np.testing.assert_array_equal(weights[:, hidden], np.zeros((2, 4), dtype), strict=True)
    np.testing.assert_array_equal(out[:, hidden], np.zeros((2, 2), dtype), strict=True)
    others = [i for i in range(3) if i != hidden]
    np.testing.assert_allclose(weights[:, others].sum(axis=-1), 1.0, rtol=1e-5)
    assert not np.isfinite(out[:, others]).any()
    assert_same_as_separate_calls(name, q, k, v, **kw)


@pytest.mark.parametrize("name", BACKEND_NAMES)
@pytest.mark.parametrize(
    ("lead", "n", "m", "d_k", "d_v"),
    [((), 0, 3, 2, 2), ((), 3, 0, 2, 2), ((), 3, 4, 0, 2), ((), 3, 4, 2, 0), ((0, 2), 3, 4, 2, 2)],
)
def test_empty_dimensions(name: str, lead, n: int, m: int, d_k: int, d_v: int) -> None:
    q, k, v = _qkv(lead, n, m, d_k, d_v, np.dtype(np.float64))
    out, weights = with_weights(name, q, k, v)
    assert out.shape == (*lead, n, d_v) and weights.shape == (*lead, n, m)
    if m == 0:  # no key to attend to: every output row is zero
        np.testing.assert_array_equal(out, np.zeros((*lead, n, d_v)), strict=True)
    assert_same_as_separate_calls(name, q, k, v)


# --- errors: exactly those of `attention` ---------------------------------------------------------

#: Every error case of `attention` but E23's: those inputs have n·m weights too big as well, and
#: this function reports its weights before its arguments (RESULT_CASES).
ATTENTION_CASES = [
    pytest.param(case, id=case.id)
    for case in CASES
    if case.fn == "attention" and case.exc is not MemoryError
]

#: The two results are checked in the order they are returned, before the arguments.
RESULT_CASES = [
    pytest.param(
        (HUGE_Q, HUGE_Q, HUGE_Q[:, :1]),
        too_big("the weights", f"({HUGE}, {HUGE})", "float32"),
        id="E23-the-weights",
    ),
    pytest.param(
        (HUGE_Q[:1], HUGE_Q[:1], np.broadcast_to(np.float32(0), (1, HUGE**2))),
        too_big("the result", f"(1, {HUGE**2})", "float32"),
        id="E23-the-result-first",
    ),
    pytest.param(
        (HUGE_Q, HUGE_Q, np.broadcast_to(np.float32(0), (HUGE, HUGE))),
        too_big("the result", f"({HUGE}, {HUGE})", "float32"),
        id="E23-the-result-before-the-weights",
    ),
]


def _raised(fn: Any) -> tuple[type, str]:
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value), str(info.value)


@pytest.mark.parametrize("name", BACKEND_NAMES)
@pytest.mark.parametrize("case", ATTENTION_CASES)
def test_errors_are_those_of_attention(name: str, case: Any) -> None:
    backend = get_backend(name)
    got = _raised(lambda: backend.attention_with_weights(*case.args, **case.kwargs))
    assert got == (case.exc, case.message)


@pytest.mark.parametrize("name", BACKEND_NAMES)
@pytest.mark.parametrize(("args", "message"), RESULT_CASES)
def test_both_results_must_fit_in_memory(name: str, args: tuple, message: str) -> None:
    with pytest.raises(MemoryError, match=re.escape(message)) as info:
        get_backend(name).attention_with_weights(*args)
    assert str(info.value) == message
