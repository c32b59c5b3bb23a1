"""Every documented error (docs/api.md, E1–E16 and E22–E24; E17–E21 are in test_dense.py), for
every backend, word for word.

Each case is a bad call, the exception type and the exact message the contract prescribes. The
first test holds each backend to it (``pytest.raises(match=re.escape(...))`` and equality of the
whole string); the second checks that every pair of backends says exactly the same thing for the
same input. Cases that break two rules at once pin down the documented order of the checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from transformer_walk.core import contract, get_backend

from conftest import BACKEND_NAMES

F32, F64 = np.float32, np.float64


def arr(shape: tuple[int, ...], dtype: Any = F64) -> np.ndarray:
    return np.zeros(shape, dtype=dtype)


TABLE = np.arange(6, dtype=F32).reshape(3, 2)  # V = 3, d = 2
Q, K, V = arr((2, 3, 4), F32), arr((2, 5, 4), F32), arr((2, 5, 6), F32)  # scores (2, 3, 5)


@dataclass
class Case:
    id: str
    fn: str
    args: tuple
    kwargs: dict = field(default_factory=dict)
    exc: type[Exception] = ValueError
    message: str = ""

    def call(self, backend_name: str) -> Any:
        return getattr(get_backend(backend_name), self.fn)(*self.args, **self.kwargs)


def attn(*args: Any, **kwargs: Any) -> tuple[tuple, dict]:
    return args, kwargs


#: E23's limit, the machine's physical memory, as every backend reads it.
MEMORY = contract.machine_memory()
#: Zero-strided views that stand for arrays far larger than any machine's memory: E23 must refuse
#: them from their shapes, before a single byte is copied or allocated.
HUGE = 10**6
HUGE_Q = np.broadcast_to(np.float32(0.5), (HUGE, 4))
HUGE_IDS = np.broadcast_to(np.int64(1), (HUGE, HUGE))
HUGE_X = np.broadcast_to(np.float32(1.0), (HUGE, HUGE))


def too_big(what: str, shape: str, dtype: str) -> str:
    return f"{what} of shape {shape} and dtype {dtype} would need more than this machine's " + (
        f"{MEMORY} bytes of memory"
    )


FLOAT_ONLY = "expected float32 or float64"
SHARE = "all inputs of one call must share one dtype"
TWO_D = "must have at least 2 dimensions [..., n, d], got shape"
LEAD = "leading dimensions must be equal"

# fmt: off
CASES = [
    # E1: a float argument has another dtype.
    Case("E1-table-int", "embedding_lookup", (arr((3, 2), np.int64), [0]), exc=TypeError,
         message=f"table has dtype int64; {FLOAT_ONLY}"),
    Case("E1-table-f16", "embedding_lookup", (arr((3, 2), np.float16), [0]), exc=TypeError,
         message=f"table has dtype float16; {FLOAT_ONLY}"),
    Case("E1-x-int-list", "softmax", ([1, 2, 3],), exc=TypeError,
         message=f"x has dtype int64; {FLOAT_ONLY}"),
    Case("E1-x-bool", "softmax", (np.array([True, False]),), exc=TypeError,
         message=f"x has dtype bool; {FLOAT_ONLY}"),
    Case("E1-x-object", "softmax", (np.array([1.0, "a"], dtype=object),), exc=TypeError,
         message=f"x has dtype object; {FLOAT_ONLY}"),
    Case("E1-x-complex", "softmax", (np.array([1j]),), exc=TypeError,
         message=f"x has dtype complex128; {FLOAT_ONLY}"),
    Case("E1-q-int", "attention", (arr((3, 4), np.int32), K[0], V[0]), exc=TypeError,
         message=f"q has dtype int32; {FLOAT_ONLY}"),
    Case("E1-k-int", "attention", (Q, arr((2, 5, 4), np.int64), V), exc=TypeError,
         message=f"k has dtype int64; {FLOAT_ONLY}"),
    Case("E1-v-f16", "attention", (Q, K, arr((2, 5, 6), np.float16)), exc=TypeError,
         message=f"v has dtype float16; {FLOAT_ONLY}"),
    Case("E1-weights-k-uint8", "attention_weights", (Q, arr((2, 5, 4), np.uint8)), exc=TypeError,
         message=f"k has dtype uint8; {FLOAT_ONLY}"),
    # E2: float arguments of one call differ in dtype (first is q).
    Case("E2-k", "attention", (Q, arr((2, 5, 4), F64), V), exc=TypeError,
         message=f"k has dtype float64 but q has dtype float32; {SHARE}"),
    Case("E2-v", "attention", (arr((2, 3, 4)), arr((2, 5, 4)), V), exc=TypeError,
         message=f"v has dtype float32 but q has dtype float64; {SHARE}"),
    Case("E2-weights-k", "attention_weights", (arr((3, 4)), K[0]), exc=TypeError,
         message=f"k has dtype float32 but q has dtype float64; {SHARE}"),
    # E3: ids not of an integer dtype (bool is not one).
    Case("E3-lookup-float", "embedding_lookup", (TABLE, [0.0]), exc=TypeError,
         message="ids has dtype float64; expected an integer dtype"),
    Case("E3-lookup-bool", "embedding_lookup", (TABLE, np.array([True])), exc=TypeError,
         message="ids has dtype bool; expected an integer dtype"),
    Case("E3-one-hot-f32", "one_hot", (np.array([1], F32), 3), exc=TypeError,
         message="ids has dtype float32; expected an integer dtype"),
    Case("E3-one-hot-empty-list", "one_hot", ([], 3), exc=TypeError,
         message="ids has dtype float64; expected an integer dtype"),
    # E4: mask neither bool nor float.
    Case("E4-int", "attention", (Q, K, V), {"mask": np.zeros((3, 5), np.int64)}, TypeError,
         "mask has dtype int64; expected bool or a float dtype"),
    Case("E4-complex", "attention_weights", (Q, K), {"mask": np.zeros(5, complex)}, TypeError,
         "mask has dtype complex128; expected bool or a float dtype"),
    Case("E4-uint8", "attention_weights", (Q, K), {"mask": np.ones(5, np.uint8)}, TypeError,
         "mask has dtype uint8; expected bool or a float dtype"),
    # E5: one_hot's dtype not float32/float64.
    Case("E5-f16", "one_hot", ([0], 3), {"dtype": np.float16}, TypeError,
         "dtype float16 is not supported; expected float32 or float64"),
    Case("E5-int32", "one_hot", ([0], 3), {"dtype": np.int32}, TypeError,
         "dtype int32 is not supported; expected float32 or float64"),
    Case("E5-bool", "one_hot", ([0], 3), {"dtype": bool}, TypeError,
         "dtype bool is not supported; expected float32 or float64"),
    # E6: an id outside [0, V), the first in C order.
    Case("E6-too-big", "embedding_lookup", (TABLE, [0, 3, 5]), exc=IndexError,
         message="id 3 is out of range for a vocabulary of size 3"),
    Case("E6-negative", "embedding_lookup", (TABLE, [1, -1]), exc=IndexError,
         message="id -1 is out of range for a vocabulary of size 3"),
    Case("E6-c-order", "embedding_lookup", (TABLE, np.array([[0, -2], [7, 1]]).T),
         exc=IndexError, message="id 7 is out of range for a vocabulary of size 3"),
    Case("E6-uint64-max", "embedding_lookup", (TABLE, np.array([2**64 - 1], np.uint64)),
         exc=IndexError,
         message="id 18446744073709551615 is out of range for a vocabulary of size 3"),
    Case("E6-int8-min", "embedding_lookup", (arr((200, 2)), np.array([5, -128], np.int8)),
         exc=IndexError, message="id -128 is out of range for a vocabulary of size 200"),
    Case("E6-zero-dim", "embedding_lookup", (TABLE, 5), exc=IndexError,
         message="id 5 is out of range for a vocabulary of size 3"),
    Case("E6-empty-table", "embedding_lookup", (arr((0, 2)), [0]), exc=IndexError,
         message="id 0 is out of range for a vocabulary of size 0"),
    Case("E6-one-hot", "one_hot", ([0, 4], 4), exc=IndexError,
         message="id 4 is out of range for a vocabulary of size 4"),
    Case("E6-one-hot-negative", "one_hot", (np.array([[1], [-3]], np.int16), 4), exc=IndexError,
         message="id -3 is out of range for a vocabulary of size 4"),
    # E7: table not 2-D.
    Case("E7-1d", "embedding_lookup", (arr((2,)), [0]),
         message="table must be 2-D [V, d], got shape (2,)"),
    Case("E7-3d", "embedding_lookup", (arr((1, 2, 3)), [0]),
         message="table must be 2-D [V, d], got shape (1, 2, 3)"),
    Case("E7-0d", "embedding_lookup", (1.0, [0]),
         message="table must be 2-D [V, d], got shape ()"),
    # E8: softmax axis out of range (0-d x included).
    Case("E8-positive", "softmax", ([1.0, 2.0],), {"axis": 1},
         message="axis 1 is out of bounds for x of shape (2,)"),
    Case("E8-negative", "softmax", (arr((2, 3)),), {"axis": -3},
         message="axis -3 is out of bounds for x of shape (2, 3)"),
    Case("E8-0d", "softmax", (np.float64(1.0),),
         message="axis -1 is out of bounds for x of shape ()"),
    Case("E8-0d-axis-0", "softmax", (arr(()),), {"axis": 0},
         message="axis 0 is out of bounds for x of shape ()"),
    # E9: q, k or v with fewer than 2 dimensions.
    Case("E9-q", "attention", (arr((4,), F32), K[0], V[0]),
         message=f"q {TWO_D} (4,)"),
    Case("E9-k", "attention", (Q[0], arr((4,), F32), V[0]),
         message=f"k {TWO_D} (4,)"),
    Case("E9-v-0d", "attention", (Q[0], K[0], arr((), F32)),
         message=f"v {TWO_D} ()"),
    Case("E9-weights-k", "attention_weights", (Q[0], arr((4,), F32)),
         message=f"k {TWO_D} (4,)"),
    # E10: q and k differ in d_k.
    Case("E10", "attention", (Q, arr((2, 5, 3), F32), V),
         message="q has shape (2, 3, 4) and k has shape (2, 5, 3): their last dimensions (d_k) "
         "differ"),
    Case("E10-weights", "attention_weights", (Q[0], arr((5, 7), F32)),
         message="q has shape (3, 4) and k has shape (5, 7): their last dimensions (d_k) differ"),
    # E11: leading dimensions of k or v differ from q's (no broadcasting).
    Case("E11-k", "attention", (Q, arr((3, 5, 4), F32), V),
         message=f"q has shape (2, 3, 4) and k has shape (3, 5, 4): {LEAD}"),
    Case("E11-k-fewer-dims", "attention", (Q, K[0], V),
         message=f"q has shape (2, 3, 4) and k has shape (5, 4): {LEAD}"),
    Case("E11-k-size-1", "attention_weights", (Q, arr((1, 5, 4), F32)),
         message=f"q has shape (2, 3, 4) and k has shape (1, 5, 4): {LEAD}"),
    Case("E11-v", "attention", (Q, K, arr((1, 5, 6), F32)),
         message=f"q has shape (2, 3, 4) and v has shape (1, 5, 6): {LEAD}"),
    # E12: k and v differ in m.
    Case("E12", "attention", (Q[0], K[0], arr((6, 2), F32)),
         message="k has shape (5, 4) and v has shape (6, 2): they must have the same number of "
         "keys (m)"),
    # E13: mask does not broadcast to the scores (2, 3, 5).
    Case("E13-transposed", "attention", (Q, K, V), {"mask": arr((5, 3))},
         message="mask of shape (5, 3) cannot be broadcast to the scores' shape (2, 3, 5)"),
    Case("E13-more-dims", "attention_weights", (Q, K), {"mask": arr((1, 2, 3, 5), bool)},
         message="mask of shape (1, 2, 3, 5) cannot be broadcast to the scores' shape (2, 3, 5)"),
    Case("E13-zero-size", "attention_weights", (Q[0], K[0]), {"mask": arr((0, 5))},
         message="mask of shape (0, 5) cannot be broadcast to the scores' shape (3, 5)"),
    Case("E13-lead", "attention", (Q, K, V), {"mask": arr((3, 1, 5), bool)},
         message="mask of shape (3, 1, 5) cannot be broadcast to the scores' shape (2, 3, 5)"),
    # E14: scale NaN or infinite.
    Case("E14-nan", "attention", (Q, K, V), {"scale": float("nan")},
         message="scale must be a finite number, got nan"),
    Case("E14-inf", "attention_weights", (Q, K), {"scale": float("inf")},
         message="scale must be a finite number, got inf"),
    Case("E14-minus-inf", "attention", (Q, K, V), {"scale": -float("inf")},
         message="scale must be a finite number, got -inf"),
    # E15: set_num_threads(n) with n < 1.
    Case("E15-zero", "set_num_threads", (0,),
         message="number of threads must be at least 1, got 0"),
    Case("E15-negative", "set_num_threads", (-3,),
         message="number of threads must be at least 1, got -3"),
    # E22: set_num_threads(n) with n > 1024 (200,000 threads would hang the process).
    Case("E22-too-many", "set_num_threads", (200_000,),
         message="number of threads must be at most 1024, got 200000"),
    # E16: one_hot with vocab_size < 1.
    Case("E16-zero", "one_hot", ([0], 0), message="vocab_size must be at least 1, got 0"),
    Case("E16-negative", "one_hot", (np.zeros(0, np.int64), -2),
         message="vocab_size must be at least 1, got -2"),
    # E22: set_num_threads(n) with n > 1024 is above, next to E15.
    # E23: the result or an argument (at its full, broadcast shape) would not fit in memory.
    Case("E23-weights-result", "attention_weights", (HUGE_Q, HUGE_Q), exc=MemoryError,
         message=too_big("the result", "(1000000, 1000000)", "float32")),
    Case("E23-attention-mask", "attention", (HUGE_Q, HUGE_Q, HUGE_Q),
         {"mask": np.broadcast_to(True, (HUGE, HUGE))}, MemoryError,
         too_big("mask", "(1000000, 1000000)", "bool")),
    Case("E23-one-hot", "one_hot", ([0], 10**12), exc=MemoryError,
         message=too_big("the result", "(1, 1000000000000)", "float32")),
    Case("E23-one-hot-empty-ids", "one_hot", (np.zeros(0, np.int8), 10**12), {"dtype": F64},
         MemoryError, too_big("the result", "(0, 1000000000000)", "float64")),
    Case("E23-lookup-result", "embedding_lookup", (TABLE, HUGE_IDS), exc=MemoryError,
         message=too_big("the result", "(1000000, 1000000, 2)", "float32")),
    Case("E23-lookup-ids-d0", "embedding_lookup", (arr((3, 0)), HUGE_IDS), exc=MemoryError,
         message=too_big("the result", "(1000000, 1000000, 0)", "float64")),
    Case("E23-softmax", "softmax", (HUGE_X,), {"axis": 0}, MemoryError,
         too_big("the result", "(1000000, 1000000)", "float32")),
    Case("E23-linear-x", "linear", (HUGE_X, np.broadcast_to(np.float32(1), (1, HUGE))),
         exc=MemoryError, message=too_big("x", "(1000000, 1000000)", "float32")),
    Case("E23-layer-norm", "layer_norm", (HUGE_X, np.ones(HUGE, F32), np.zeros(HUGE, F32)),
         exc=MemoryError, message=too_big("the result", "(1000000, 1000000)", "float32")),
    Case("E23-gelu", "gelu", (HUGE_X,), exc=MemoryError,
         message=too_big("the result", "(1000000, 1000000)", "float32")),
    # E24: an integer argument outside the signed 64-bit range.
    Case("E24-vocab-size", "one_hot", ([0], 2**63),
         message="vocab_size must fit in a signed 64-bit integer, got 9223372036854775808"),
    Case("E24-vocab-size-uint64", "one_hot", ([0], np.uint64(2**63 + 5)),
         message="vocab_size must fit in a signed 64-bit integer, got 9223372036854775813"),
    Case("E24-axis", "softmax", ([1.0],), {"axis": -(2**63) - 1},
         message="axis must fit in a signed 64-bit integer, got -9223372036854775809"),
    Case("E24-threads", "set_num_threads", (2**70,),
         message="n must fit in a signed 64-bit integer, got 1180591620717411303424"),
    # Inputs that once read differently in rust_core and the Python backends.
    Case("E14-int-beyond-float", "attention_weights", (Q, K), {"scale": -(10**400)},
         message="scale must be a finite number, got -inf"),
    Case("E21-python-repr", "layer_norm", (arr((2, 3)), arr((3,)), arr((3,))), {"eps": -1e-05},
         message="eps must be a finite number >= 0, got -1e-05"),
    Case("E21-python-repr-exponent", "layer_norm", (arr((2, 3)), arr((3,)), arr((3,))),
         {"eps": -1.5e20}, message="eps must be a finite number >= 0, got -1.5e+20"),
    Case("E3-timedelta", "embedding_lookup", (TABLE, np.array([1], "m8[s]")), exc=TypeError,
         message="ids has dtype timedelta64[s]; expected an integer dtype"),
    Case("E6-big-endian-ids", "embedding_lookup", (TABLE, np.array([0, 7], ">i8")),
         exc=IndexError, message="id 7 is out of range for a vocabulary of size 3"),
    Case("E1-big-endian-int", "softmax", (np.zeros(3, ">i4"),), exc=TypeError,
         message=f"x has dtype int32; {FLOAT_ONLY}"),
    # Order of the checks: when two rules are broken, the earlier one is reported.
    Case("order-scalar-before-E1", "softmax", (np.array([1]),), {"axis": 0.5}, TypeError,
         "'float' object cannot be interpreted as an integer"),
    Case("order-scale-read-before-E1", "attention", (arr((3, 4), np.int32), K[0], V[0]),
         {"scale": "2"}, TypeError, "must be real number, not str"),
    Case("order-E24-before-E5", "one_hot", ([0.5], 2**64), {"dtype": np.int32},
         message="vocab_size must fit in a signed 64-bit integer, got 18446744073709551616"),
    Case("order-E16-before-E23", "one_hot", (HUGE_IDS, 0),
         message="vocab_size must be at least 1, got 0"),
    Case("order-E7-before-E23", "embedding_lookup", (arr((3,)), HUGE_IDS),
         message="table must be 2-D [V, d], got shape (3,)"),
    Case("order-E23-before-E6", "embedding_lookup",
         (TABLE, np.broadcast_to(np.int8(-5), (HUGE, HUGE))), exc=MemoryError,
         message=too_big("the result", "(1000000, 1000000, 2)", "float32")),
    Case("order-E14-before-E23", "attention_weights", (HUGE_Q, HUGE_Q),
         {"scale": float("nan")}, message="scale must be a finite number, got nan"),
    Case("order-E8-before-E23", "softmax", (HUGE_X,), {"axis": 2},
         message="axis 2 is out of bounds for x of shape (1000000, 1000000)"),
    Case("order-E23-result-before-args", "embedding_lookup",
         (np.broadcast_to(np.float32(0), (HUGE, HUGE)), HUGE_IDS), exc=MemoryError,
         message=too_big("the result", "(1000000, 1000000, 1000000)", "float32")),
    Case("order-E23-args-in-order", "attention", (HUGE_X[: 10**5, : 10**5],) * 2
         + (HUGE_X[: 10**5, :1],), exc=MemoryError,
         message=too_big("q", "(100000, 100000)", "float32")),
    Case("order-lookup-E1-before-E3", "embedding_lookup", (arr((3, 2), np.int8), [0.5]),
         exc=TypeError, message=f"table has dtype int8; {FLOAT_ONLY}"),
    Case("order-lookup-E3-before-E7", "embedding_lookup", (arr((3,)), [0.5]), exc=TypeError,
         message="ids has dtype float64; expected an integer dtype"),
    Case("order-lookup-E7-before-E6", "embedding_lookup", (arr((3,)), [99]),
         message="table must be 2-D [V, d], got shape (3,)"),
    Case("order-one-hot-E5-before-E3", "one_hot", ([0.5], 3), {"dtype": np.int32}, TypeError,
         "dtype int32 is not supported; expected float32 or float64"),
    Case("order-one-hot-E3-before-E16", "one_hot", ([0.5], 0), exc=TypeError,
         message="ids has dtype float64; expected an integer dtype"),
    Case("order-one-hot-E16-before-E6", "one_hot", ([5], 0),
         message="vocab_size must be at least 1, got 0"),
    Case("order-softmax-E1-before-E8", "softmax", (np.array(1),), {"axis": 3}, TypeError,
         f"x has dtype int64; {FLOAT_ONLY}"),
    Case("order-E1-q-before-E9", "attention", (arr((4,), np.int64), arr((4,)), arr(())),
         exc=TypeError, message=f"q has dtype int64; {FLOAT_ONLY}"),
    Case("order-E1-k-before-E1-v", "attention", (Q, arr((2, 5, 4), np.int32),
         arr((2, 5, 6), np.float16)), exc=TypeError, message=f"k has dtype int32; {FLOAT_ONLY}"),
    # "E1 then E2 for q, k, v in that order": k is checked completely (E1, E2) before v.
    Case("order-E2-k-before-E1-v", "attention", (Q, arr((2, 5, 4), F64),
         arr((2, 5, 6), np.int64)), exc=TypeError,
         message=f"k has dtype float64 but q has dtype float32; {SHARE}"),
    Case("order-E2-before-E9", "attention", (arr((4,), F32), arr((4,), F64), arr((4,), F32)),
         exc=TypeError, message=f"k has dtype float64 but q has dtype float32; {SHARE}"),
    Case("order-E9-q-before-k", "attention", (arr((4,)), arr((4,)), arr(())),
         message=f"q {TWO_D} (4,)"),
    Case("order-E9-v-before-E10", "attention", (arr((3, 4)), arr((5, 2)), arr((6,))),
         message=f"v {TWO_D} (6,)"),
    Case("order-E10-before-E11", "attention", (Q, arr((3, 5, 7), F32), V),
         message="q has shape (2, 3, 4) and k has shape (3, 5, 7): their last dimensions (d_k) "
         "differ"),
    Case("order-E11-k-before-v", "attention", (Q, arr((3, 5, 4), F32), arr((4, 5, 6), F32)),
         message=f"q has shape (2, 3, 4) and k has shape (3, 5, 4): {LEAD}"),
    Case("order-E11-before-E12", "attention", (Q, K, arr((3, 6, 6), F32)),
         message=f"q has shape (2, 3, 4) and v has shape (3, 6, 6): {LEAD}"),
    Case("order-E12-before-E4", "attention", (Q, K, arr((2, 6, 6), F32)),
         {"mask": np.zeros(5, np.int64)},
         message="k has shape (2, 5, 4) and v has shape (2, 6, 6): they must have the same "
         "number of keys (m)"),
    Case("order-E4-before-E13", "attention", (Q, K, V), {"mask": np.zeros((9, 9), np.int64)},
         TypeError, "mask has dtype int64; expected bool or a float dtype"),
    Case("order-E13-before-E14", "attention_weights", (Q, K),
         {"mask": arr((9,)), "scale": float("nan")},
         message="mask of shape (9,) cannot be broadcast to the scores' shape (2, 3, 5)"),
    Case("order-E4-before-E14", "attention", (Q, K, V),
         {"mask": np.zeros(5, np.int8), "scale": float("inf")}, TypeError,
         "mask has dtype int8; expected bool or a float dtype"),
]
# fmt: on

CASE_PARAMS = [pytest.param(case, id=case.id) for case in CASES]


def test_every_documented_error_is_covered() -> None:
    covered = {case.id.split("-")[0] for case in CASES}
    assert {f"E{i}" for i in [*range(1, 17), 22, 23, 24]} <= covered


@pytest.mark.parametrize("backend_name", BACKEND_NAMES)
@pytest.mark.parametrize("case", CASE_PARAMS)
def test_error_type_and_message(backend_name: str, case: Case) -> None:
    with pytest.raises(case.exc, match=re.escape(case.message)) as info:
        case.call(backend_name)
    assert type(info.value) is case.exc
    assert str(info.value) == case.message


@pytest.mark.parametrize("backend_name", BACKEND_NAMES)
def test_rejected_thread_count_keeps_the_setting(backend_name: str) -> None:
    backend = get_backend(backend_name)
    before = backend.get_num_threads()
    with pytest.raises(ValueError):
        backend.set_num_threads(0)
    assert backend.get_num_threads() == before


@pytest.mark.parametrize("backend_name", BACKEND_NAMES)
def test_valid_edge_inputs_do_not_raise(backend_name: str) -> None:
    """The boundaries of the rules: these are fine and must not be rejected."""
    b = get_backend(backend_name)
    b.embedding_lookup(TABLE, np.array([2, 0], np.uint8))  # V - 1 is the last valid id
    b.one_hot(np.array(0, np.int64), 1)  # the smallest vocabulary
    b.softmax(arr((2, 3)), axis=-2)  # the most negative valid axis
    b.attention(Q, K, V, mask=arr((5,), bool), scale=0.0)  # 1-D mask, zero scale
    b.attention(Q, K, V, mask=arr((1, 3, 5), np.float16))  # any float mask dtype
    b.attention_weights(Q[:, :0], K[:, :0], mask=arr((1, 0, 1)))  # empty n and m
