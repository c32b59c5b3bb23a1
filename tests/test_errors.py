"""Every documented error (docs/api.md, E1–E16 and E22–E42; E17–E21 are in test_dense.py, and
here for the decoder's functions), for every backend, word for word.

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
HEADS = "the number of query heads"
X8 = arr((2, 3, 8))  # x [..., n, d] for rope: n = 3, d = 8
POS = np.array([0, 1, 2])
Q8 = np.zeros((4, 20), np.uint8)  # 4 Q4_1 blocks: a (4, 32) or (2, 64) array; or 2 Q8_0 + 12 bytes
W41 = np.zeros((3, 40), np.uint8)  # a (3, 64) Q4_1 weight
X64 = arr((2, 64), F32)
W16 = np.ones((3, 4), np.float16)  # a half-precision weight [out, in]
HALF = "half_linear takes float32 x and bias and a float16 weight"
SG_E = arr((3, 2))  # E and U [V, d] for skipgram_sgd: V = 3, d = 2
SG_PAIRS = np.array([[0, 1, 2, 0]] * 5)  # P = 5 rows of centre, context, 2 negatives
SG_RATES = np.full(3, 0.1)  # ⌈5 / 2⌉ = 3 steps of batch_size 2
NOT_KIND = "kind must be one of 'q4_1', 'q8_0', got"

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
    Case("E11-k", "attention", (arr((2, 2, 3, 4), F32), arr((3, 2, 5, 4), F32),
         arr((3, 2, 5, 6), F32)),
         message=f"q has shape (2, 2, 3, 4) and k has shape (3, 2, 5, 4): {LEAD}"),
    Case("E11-k-fewer-dims", "attention", (Q, K[0], V),
         message=f"q has shape (2, 3, 4) and k has shape (5, 4): {LEAD}"),
    Case("E11-k-heads-and-2d", "attention_weights", (Q[0], arr((1, 5, 4), F32)),
         message=f"q has shape (3, 4) and k has shape (1, 5, 4): {LEAD}"),
    # v has k's leading dimensions (with grouped heads, not q's).
    Case("E11-v", "attention", (Q, K, arr((1, 5, 6), F32)),
         message=f"k has shape (2, 5, 4) and v has shape (1, 5, 6): {LEAD}"),
    Case("E11-v-grouped", "attention", (arr((6, 3, 4), F32), K, arr((6, 5, 6), F32)),
         message=f"k has shape (2, 5, 4) and v has shape (6, 5, 6): {LEAD}"),
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
    # E25: rope's positions are not of an integer dtype.
    Case("E25-float", "rope", (X8, [0.0, 1.0, 2.0]), exc=TypeError,
         message="positions has dtype float64; expected an integer dtype"),
    Case("E25-bool", "rope", (X8, np.array([True, False, True])), exc=TypeError,
         message="positions has dtype bool; expected an integer dtype"),
    # E26: rope's d is odd.
    Case("E26", "rope", (arr((3, 5)), POS),
         message="x has shape (3, 5): its last dimension (d) must be even, as rope rotates pairs"),
    # E9, E20 for rope: x needs [..., n, d]; positions must be [n].
    Case("E9-rope-x", "rope", (arr((8,)), POS), message=f"x {TWO_D} (8,)"),
    Case("E20-rope-positions", "rope", (X8, np.arange(4)),
         message="positions has shape (4,); expected (3,) to match x of shape (2, 3, 8)"),
    Case("E20-rope-positions-2d", "rope", (X8, POS[None]),
         message="positions has shape (1, 3); expected (3,) to match x of shape (2, 3, 8)"),
    # E27: rope's base.
    Case("E27-zero", "rope", (X8, POS), {"base": 0.0},
         message="base must be a finite number > 0, got 0.0"),
    Case("E27-inf", "rope", (X8, POS), {"base": float("inf")},
         message="base must be a finite number > 0, got inf"),
    Case("E27-negative", "rope", (X8, POS), {"base": -1e5},
         message="base must be a finite number > 0, got -100000.0"),
    # E28: a negative position (the first one).
    Case("E28", "rope", (X8, np.array([0, -7, -1], np.int16)),
         message="positions must be >= 0, got -7"),
    # E29: swiglu's inputs differ in shape.
    Case("E29", "swiglu", (arr((2, 3)), arr((3, 2))),
         message="gate has shape (2, 3) and up has shape (3, 2): they must have the same shape"),
    Case("E29-broadcastable", "swiglu", (arr((2, 3)), arr((3,))),
         message="gate has shape (2, 3) and up has shape (3,): they must have the same shape"),
    Case("E29-residual", "layer_norm", (arr((2, 3)), arr((3,)), arr((3,))),
         {"residual": arr((3, 2))},
         message="x has shape (2, 3) and residual has shape (3, 2): they must have the same shape"),
    # E30: grouped-query attention with q's heads not a multiple of k's.
    Case("E30", "attention", (arr((1, 9, 3, 4), F32), arr((1, 4, 5, 4), F32),
         arr((1, 4, 5, 6), F32)),
         message=f"q has shape (1, 9, 3, 4) and k has shape (1, 4, 5, 4): {HEADS} (axis -3, 9) "
         "must be a multiple of the number of key/value heads (4)"),
    Case("E30-zero-kv-heads", "attention_weights", (Q, arr((0, 5, 4), F32)),
         message=f"q has shape (2, 3, 4) and k has shape (0, 5, 4): {HEADS} (axis -3, 2) must "
         "be a multiple of the number of key/value heads (0)"),
    # E31: an unknown kind of block.
    Case("E31-upper", "dequantize", (Q8, "Q4_1", (4, 32)), message=f"{NOT_KIND} 'Q4_1'"),
    Case("E31-other", "quantized_linear", (X64, W41, "q4_0", (3, 64)),
         message=f"{NOT_KIND} 'q4_0'"),
    Case("E31-not-a-str", "dequantize", (Q8, 3, (4, 32)), message=f"{NOT_KIND} 3"),
    # E32: shape is not a tuple (or list).
    Case("E32-int", "dequantize", (Q8, "q4_1", 128), exc=TypeError,
         message="shape must be a tuple of integers, got int"),
    Case("E32-array", "quantized_linear", (X64, W41, "q4_1", np.array([3, 64])), exc=TypeError,
         message="shape must be a tuple of integers, got ndarray"),
    Case("E32-entry", "dequantize", (Q8, "q4_1", (4, 32.0)), exc=TypeError,
         message="'float' object cannot be interpreted as an integer"),
    Case("E24-shape", "dequantize", (Q8, "q4_1", (2**64, 32)),
         message="shape must fit in a signed 64-bit integer, got 18446744073709551616"),
    # E33: shape has the wrong number of dimensions, or a negative one.
    Case("E33-empty", "dequantize", (Q8, "q8_0", ()),
         message="shape must have at least 1 dimension (..., k), got ()"),
    Case("E33-negative", "dequantize", (Q8, "q8_0", [-1, 32]),
         message="shape must not have negative dimensions, got (-1, 32)"),
    Case("E33-not-2d", "quantized_linear", (X64, W41, "q4_1", (192,)),
         message="shape must be 2-D (out, in), got (192,)"),
    Case("E33-3d", "quantized_linear", (X64, W41, "q4_1", (1, 3, 64)),
         message="shape must be 2-D (out, in), got (1, 3, 64)"),
    # E34: the last dimension is not a whole number of blocks.
    Case("E34", "dequantize", (Q8, "q4_1", (5, 24)),
         message="shape (5, 24) has a last dimension of 24, which is not a multiple of 32 (the "
         "values in a block)"),
    Case("E34-linear", "quantized_linear", (arr((2, 48), F32), W41, "q4_1", (3, 48)),
         message="shape (3, 48) has a last dimension of 48, which is not a multiple of 32 (the "
         "values in a block)"),
    # E35: data is not raw bytes.
    Case("E35-int8", "dequantize", (Q8.view(np.int8), "q4_1", (4, 32)), exc=TypeError,
         message="data has dtype int8; expected uint8 (raw GGML blocks)"),
    Case("E35-float", "quantized_linear", (X64, W41.astype(F32), "q4_1", (3, 64)),
         exc=TypeError, message="data has dtype float32; expected uint8 (raw GGML blocks)"),
    # E36: x of a quantized product is not float32.
    Case("E36-f64", "quantized_linear", (arr((2, 64)), W41, "q4_1", (3, 64)), exc=TypeError,
         message="x has dtype float64; quantized products take float32"),
    Case("E36-int", "quantized_linear", (np.ones(64, np.int32), W41, "q4_1", (3, 64)),
         exc=TypeError, message="x has dtype int32; quantized products take float32"),
    # E38–E42 and the shared rules: skipgram_sgd (word2vec's training step).
    Case("E38", "skipgram_sgd", (SG_E, SG_E, SG_PAIRS.astype(F64), SG_RATES, 2), exc=TypeError,
         message="pairs has dtype float64; expected an integer dtype"),
    Case("E39", "skipgram_sgd", (SG_E, arr((4, 3)), SG_PAIRS, SG_RATES, 2),
         message="output_table has shape (4, 3) and table has shape (3, 2): they must have the "
         "same shape"),
    Case("E40", "skipgram_sgd", (SG_E, SG_E, SG_PAIRS[:, :1], SG_RATES, 2),
         message="pairs must be 2-D [P, 2 + k] (centre, context, k negatives), got shape (5, 1)"),
    Case("E40-1d", "skipgram_sgd", (SG_E, SG_E, SG_PAIRS[0], SG_RATES, 2),
         message="pairs must be 2-D [P, 2 + k] (centre, context, k negatives), got shape (4,)"),
    Case("E41", "skipgram_sgd", (SG_E, SG_E, SG_PAIRS, SG_RATES, 0),
         message="batch_size must be at least 1, got 0"),
    Case("E42", "skipgram_sgd", (SG_E, SG_E, SG_PAIRS, SG_RATES[:2], 2),
         message="learning_rates has shape (2,); expected (3,): one rate per batch of 2 of the "
         "5 pairs"),
    Case("E1-skipgram", "skipgram_sgd", (SG_E, SG_E.astype(np.int64), SG_PAIRS, SG_RATES, 2),
         exc=TypeError, message="output_table has dtype int64; " + FLOAT_ONLY),
    Case("E2-skipgram", "skipgram_sgd", (SG_E, SG_E, SG_PAIRS, SG_RATES.astype(F32), 2),
         exc=TypeError, message="learning_rates has dtype float32 but table has dtype float64; "
         + SHARE),
    Case("E6-skipgram", "skipgram_sgd", (SG_E, SG_E, np.array([[0, 1, 2, 0], [1, 2, -1, 7]]),
                                          SG_RATES[:1], 2), exc=IndexError,
         message="id -1 is out of range for a vocabulary of size 3"),
    Case("E7-skipgram", "skipgram_sgd", (SG_E[0], SG_E[0], SG_PAIRS, SG_RATES, 2),
         message="table must be 2-D [V, d], got shape (2,)"),
    Case("E24-skipgram", "skipgram_sgd", (SG_E, SG_E, SG_PAIRS, SG_RATES, 2**64),
         message="batch_size must fit in a signed 64-bit integer, got 18446744073709551616"),
    Case("order-E41-before-E42", "skipgram_sgd", (SG_E, SG_E, SG_PAIRS, SG_RATES[:1], -1),
         message="batch_size must be at least 1, got -1"),
    Case("order-E38-before-E7", "skipgram_sgd", (SG_E[0], SG_E[0], [[0.5, 1.0]], SG_RATES, 2),
         exc=TypeError, message="pairs has dtype float64; expected an integer dtype"),
    # E37: data does not hold exactly the blocks of shape.
    Case("E37", "dequantize", (Q8, "q8_0", (2, 32)),
         message="data has 80 bytes, but a q8_0 array of shape (2, 32) takes 68"),
    Case("E37-linear", "quantized_linear", (X64, W41, "q8_0", (3, 64)),
         message="data has 120 bytes, but a q8_0 array of shape (3, 64) takes 204"),
    # E17, E19, E20, E21 and E23 for the new functions (their messages are the existing ones).
    Case("E17-rms-norm", "rms_norm", (np.float64(1.0), np.ones(1)),
         message="x must have at least 1 dimension [..., d], got shape ()"),
    Case("E20-rms-norm", "rms_norm", (arr((2, 3)), np.ones(2)),
         message="weight has shape (2,); expected (3,) to match x of shape (2, 3)"),
    Case("E21-rms-norm", "rms_norm", (arr((2, 3)), np.ones(3)), {"eps": float("nan")},
         message="eps must be a finite number >= 0, got nan"),
    Case("E2-rms-norm", "rms_norm", (arr((2, 3)), np.ones(3, F32)), exc=TypeError,
         message=f"weight has dtype float32 but x has dtype float64; {SHARE}"),
    Case("E1-silu", "silu", (np.ones(3, np.int64),), exc=TypeError,
         message=f"x has dtype int64; {FLOAT_ONLY}"),
    Case("E2-swiglu", "swiglu", (arr((3,), F32), arr((3,))), exc=TypeError,
         message=f"up has dtype float64 but gate has dtype float32; {SHARE}"),
    Case("E1-rope", "rope", (np.ones((3, 2), np.int64), POS), exc=TypeError,
         message=f"x has dtype int64; {FLOAT_ONLY}"),
    # half_linear: E54 (its dtypes, in the order x, weight, bias), then linear's shape errors.
    Case("E54-x", "half_linear", (arr((2, 4)), W16), exc=TypeError,
         message=f"x has dtype float64; {HALF}"),
    Case("E54-list", "half_linear", ([[1.0, 2.0, 3.0, 4.0]], W16), exc=TypeError,
         message=f"x has dtype float64; {HALF}"),
    Case("E54-weight", "half_linear", (arr((2, 4), F32), arr((3, 4), F32)), exc=TypeError,
         message=f"weight has dtype float32; {HALF}"),
    Case("E54-bias", "half_linear", (arr((2, 4), F32), W16, np.ones(3, np.float16)),
         exc=TypeError, message=f"bias has dtype float16; {HALF}"),
    Case("order-E54-x-before-weight", "half_linear", (np.ones(4, np.int32), np.ones((3, 4))),
         exc=TypeError, message=f"x has dtype int32; {HALF}"),
    Case("order-E54-weight-before-bias", "half_linear",
         (arr((2, 4), F32), np.ones((3, 4), np.int8), np.ones(3)), exc=TypeError,
         message=f"weight has dtype int8; {HALF}"),
    Case("order-E54-before-E17", "half_linear", (np.float64(1.0), W16), exc=TypeError,
         message=f"x has dtype float64; {HALF}"),
    Case("E17-half", "half_linear", (np.float32(1.0), W16),
         message="x must have at least 1 dimension [..., d], got shape ()"),
    Case("E18-half", "half_linear", (arr((2, 4), F32), np.ones(4, np.float16)),
         message="weight must be 2-D [out, in], got shape (4,)"),
    Case("E19-half", "half_linear", (arr((2, 5), F32), W16),
         message="x has shape (2, 5) and weight has shape (3, 4): x's last dimension must equal "
                 "weight's second (in)"),
    Case("E20-half", "half_linear", (arr((2, 4), F32), W16, np.ones(2, F32)),
         message="bias has shape (2,); expected (3,) to match weight of shape (3, 4)"),
    Case("E23-half", "half_linear", (HUGE_X, np.broadcast_to(np.float16(1), (HUGE, HUGE))),
         exc=MemoryError, message=too_big("the result", "(1000000, 1000000)", "float32")),
    Case("E17-quantized", "quantized_linear", (np.float32(1.0), W41, "q4_1", (3, 64)),
         message="x must have at least 1 dimension [..., d], got shape ()"),
    Case("E19-quantized", "quantized_linear", (arr((2, 32), F32), W41, "q4_1", (3, 64)),
         message="x has shape (2, 32) and weight has shape (3, 64): x's last dimension must "
         "equal weight's second (in)"),
    Case("E23-dequantize", "dequantize", (Q8, "q8_0", (10**12, 32)), exc=MemoryError,
         message=too_big("the result", "(1000000000000, 32)", "float32")),
    Case("E23-quantized-linear", "quantized_linear", (HUGE_X[:, :32], W41, "q4_1",
         (10**6, 32)), exc=MemoryError,
         message=too_big("the result", "(1000000, 1000000)", "float32")),
    Case("E23-rope", "rope", (np.broadcast_to(np.float32(1), (HUGE, HUGE, 2)), np.arange(HUGE)),
         exc=MemoryError, message=too_big("the result", "(1000000, 1000000, 2)", "float32")),
    Case("E23-swiglu", "swiglu", (HUGE_X, HUGE_X), exc=MemoryError,
         message=too_big("the result", "(1000000, 1000000)", "float32")),
    # Order of the new checks.
    Case("order-kind-before-shape", "dequantize", (Q8.astype(F32), "q5_0", 7),
         message=f"{NOT_KIND} 'q5_0'"),
    Case("order-shape-before-data", "dequantize", (Q8.astype(F32), "q8_0", 7), exc=TypeError,
         message="shape must be a tuple of integers, got int"),
    Case("order-E36-before-E35", "quantized_linear", (arr((2, 64)), W41.view(np.int8), "q4_1",
         (3, 64)), exc=TypeError, message="x has dtype float64; quantized products take float32"),
    Case("order-E34-before-E19", "quantized_linear", (arr((2, 5), F32), W41, "q4_1", (3, 40)),
         message="shape (3, 40) has a last dimension of 40, which is not a multiple of 32 (the "
         "values in a block)"),
    Case("order-E23-before-E37", "dequantize", (Q8, "q4_1", (10**12, 64)), exc=MemoryError,
         message=too_big("the result", "(1000000000000, 64)", "float32")),
    Case("order-E25-before-E9", "rope", (arr((8,)), [0.5]), exc=TypeError,
         message="positions has dtype float64; expected an integer dtype"),
    Case("order-E26-before-E20", "rope", (arr((3, 5)), np.arange(4)),
         message="x has shape (3, 5): its last dimension (d) must be even, as rope rotates pairs"),
    Case("order-E27-before-E28", "rope", (X8, np.array([-1, 0, 1])), {"base": -2.0},
         message="base must be a finite number > 0, got -2.0"),
    Case("order-E23-before-E28", "rope", (np.broadcast_to(np.float32(1), (HUGE, HUGE, 2)),
         np.broadcast_to(np.int64(-1), (HUGE,))), exc=MemoryError,
         message=too_big("the result", "(1000000, 1000000, 2)", "float32")),
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
    Case("order-E30-k-before-v", "attention", (Q, arr((3, 5, 4), F32), arr((4, 5, 6), F32)),
         message=f"q has shape (2, 3, 4) and k has shape (3, 5, 4): {HEADS} (axis -3, 2) must be "
         "a multiple of the number of key/value heads (3)"),
    Case("order-E11-before-E12", "attention", (Q, K, arr((3, 6, 6), F32)),
         message=f"k has shape (2, 5, 4) and v has shape (3, 6, 6): {LEAD}"),
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
    assert {f"E{i}" for i in [*range(1, 17), *range(22, 43), 54]} <= covered


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
    b.attention_weights(Q, arr((1, 5, 4), F32))  # one key/value head for both query heads
    b.attention(arr((6, 3, 4), F32), K, V, mask=arr((6, 1, 5), bool))  # 3 query heads per kv head
    b.rope(arr((3, 0)), POS)  # d = 0 is even
    b.rope(X8, np.array([0, 2**63 - 1, 5], np.int64), base=1.0)  # a huge position, base 1
    b.rope(X8, np.array([0, 2**64 - 1, 5], np.uint64))
    b.dequantize(Q8, "q4_1", [2, 64])  # a list as shape, data of another array shape
    b.dequantize(np.zeros((0, 20), np.uint8), "q4_1", (0, 5, 32))  # empty
    b.quantized_linear(X64[:0], W41, "q4_1", (3, 64))  # no rows
    b.half_linear(X64[:0, :4], W16)  # no rows
    b.half_linear(arr((2, 4), F32).astype(">f4"), W16.astype(">f2"))  # byte-swapped is accepted
    b.rms_norm(arr((2, 3)), np.ones(3), eps=0)  # eps = 0
    b.skipgram_sgd(SG_E, SG_E, SG_PAIRS[:0], SG_RATES[:0], 1)  # no pairs, no steps
    b.skipgram_sgd(SG_E, SG_E, SG_PAIRS[:, :2], SG_RATES, 2)  # k = 0 negatives
