"""What the race runs: the ops, their sizes and the presets of sizes.

- ``softmax``    x [rows, cols], along the last axis;
- ``attention``  q, k, v [batch, heads, n, d] (unmasked, scale 1/√d);
- ``embedding``  ``ids`` random ids looked up in a [vocab, d] table;
- ``minilm``     the all-MiniLM-L6-v2 forward (6 layers) over [batch, n] token ids (NumPy and Rust
  only; needs the model package).

Each op knows its work count (``OpSpec.work``), from which a time measured at one size is scaled
to another: rows·cols for softmax, batch·heads·n²·(4d + 5) for attention, ids·d for embedding.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from transformer_walk.core import BACKENDS
from transformer_walk.core.budget import python_seconds
from transformer_walk.core.status import backend_status
from transformer_walk.models.minilm.config import CONFIG as MINILM

Inputs = tuple[Any, ...]  # the positional arguments of one call


@dataclass(frozen=True)
class OpSpec:
    name: str
    params: tuple[str, ...]  # the size parameters, in the order labels show them
    axis: str  # the parameter that varies along a preset (the chart's x axis)
    scaling: str  # what the pure-Python estimate assumes time is proportional to
    work: Callable[[Mapping[str, int]], float]  # FLOPs (or numbers copied) of one call
    make_inputs: Callable[[np.random.Generator, Mapping[str, int], np.dtype], Inputs]
    call: Callable[[ModuleType, Inputs], np.ndarray]
    # Lanes this op does not offer, with the reason shown in their cells.
    unavailable: Mapping[str, str] = field(default_factory=dict)


def _softmax_inputs(rng: np.random.Generator, p: Mapping[str, int], dtype: np.dtype) -> Inputs:
    return (rng.standard_normal((p["rows"], p["cols"])).astype(dtype),)


def _attention_inputs(rng: np.random.Generator, p: Mapping[str, int], dtype: np.dtype) -> Inputs:
    shape = (p["batch"], p["heads"], p["n"], p["d"])  # (B, h, n, d_k)
    return tuple(rng.standard_normal(shape).astype(dtype) for _ in "qkv")


def _embedding_inputs(rng: np.random.Generator, p: Mapping[str, int], dtype: np.dtype) -> Inputs:
    table = rng.standard_normal((p["vocab"], p["d"])).astype(dtype)  # [V, d]
    ids = rng.integers(0, p["vocab"], size=p["ids"], dtype=np.int64)  # [ids]
    return table, ids


def _minilm_inputs(rng: np.random.Generator, p: Mapping[str, int], dtype: np.dtype) -> Inputs:
    # Random WordPiece ids between [CLS] and [SEP]: the forward's cost does not depend on which.
    ids = rng.integers(1000, 30_000, size=(p["batch"], p["n"]), dtype=np.int64)  # [B, n]
    ids[:, 0], ids[:, -1] = 101, 102
    return (ids,)


@functools.cache
def _minilm(backend_name: str) -> Any:
    """all-MiniLM-L6-v2 on one backend, loaded once (the weights shared between backends)."""
    from transformer_walk.models.minilm import load_minilm

    if backend_name == "numpy":
        return load_minilm(backend="numpy")
    return _minilm("numpy").with_backend(backend_name)


def _minilm_call(backend: ModuleType, args: Inputs) -> np.ndarray:
    """The last hidden state [B, n, 384] of the MiniLM forward on ``backend``."""
    name = next(n for n in BACKENDS if backend_status(n).module is backend)
    return _minilm(name).forward(args[0]).hidden_states[-1]


OPS: dict[str, OpSpec] = {
    "softmax": OpSpec(
        name="softmax",
        params=("rows", "cols"),
        axis="rows",
        scaling="rows·cols",
        # max, subtract, exp, sum, divide: about five operations per element
        work=lambda p: 5.0 * p["rows"] * p["cols"],
        make_inputs=_softmax_inputs,
        call=lambda backend, args: backend.softmax(args[0], axis=-1),
    ),
    "attention": OpSpec(
        name="attention",
        params=("batch", "heads", "n", "d"),
        axis="n",
        scaling="batch·heads·n²·(4·d + 5)",
        # per head: q kᵀ (2·n·n·d) + softmax and scaling (~5·n·n) + weights · v (2·n·n·d)
        work=lambda p: p["batch"] * p["heads"] * p["n"] ** 2 * (4.0 * p["d"] + 5.0),
        make_inputs=_attention_inputs,
        call=lambda backend, args: backend.attention(*args),
    ),
    "embedding": OpSpec(
        name="embedding",
        params=("ids", "vocab", "d"),
        axis="ids",
        scaling="ids·d",
        work=lambda p: float(p["ids"] * p["d"]),  # numbers copied; no arithmetic at all
        make_inputs=_embedding_inputs,
        call=lambda backend, args: backend.embedding_lookup(*args),
    ),
    "minilm": OpSpec(
        name="minilm",
        params=("batch", "n"),
        axis="n",
        scaling="batch·6·(n·(8·384² + 4·384·1536) + 4·n²·384)",
        # FLOPs, two per multiply-add of the model's own count (Q, K, V, W^O, the FFN, scores
        # and weighted sum); the embeddings, LayerNorms and GELU are small.
        work=lambda p: 2.0 * p["batch"] * MINILM.multiply_adds(p["n"]),
        make_inputs=_minilm_inputs,
        call=_minilm_call,
        unavailable={
            "python": f"pure Python needs about {python_seconds(MINILM.multiply_adds(1)):.1f} s "
            "a token (core.budget's estimate); not raced"
        },
    ),
}


@dataclass(frozen=True)
class Case:
    """One op at one size."""

    op: str
    params: tuple[tuple[str, int], ...]  # ordered (name, value) pairs, hashable

    @classmethod
    def of(cls, op: str, **params: int) -> Case:
        spec = OPS[op]
        missing = [name for name in spec.params if name not in params]
        if missing or set(params) - set(spec.params):
            raise ValueError(f"{op} takes sizes {', '.join(spec.params)}; got {sorted(params)}")
        if any(int(value) < 1 for value in params.values()):
            raise ValueError(f"sizes must be at least 1, got {params}")
        return cls(op, tuple((name, int(params[name])) for name in spec.params))

    @property
    def spec(self) -> OpSpec:
        return OPS[self.op]

    @property
    def sizes(self) -> dict[str, int]:
        return dict(self.params)

    @property
    def label(self) -> str:
        return " ".join(f"{name}={value}" for name, value in self.params)

    @property
    def x(self) -> int:
        return self.sizes[self.spec.axis]

    @property
    def work(self) -> float:
        return self.spec.work(self.sizes)


def ladder(op: str, axis_values: Sequence[int], **fixed: int) -> list[Case]:
    """Cases of one op whose axis parameter takes each of ``axis_values``."""
    axis = OPS[op].axis
    return [Case.of(op, **fixed, **{axis: value}) for value in axis_values]


# Presets keep every size on one ladder so the chart reads as "time vs that size".
PRESETS: dict[str, dict[str, list[Case]]] = {
    "tiny": {  # seconds: a smoke test
        "softmax": ladder("softmax", (4, 16), cols=32),
        "attention": ladder("attention", (8, 16), batch=1, heads=2, d=8),
        "embedding": ladder("embedding", (16, 64), vocab=100, d=16),
    },
    "quick": {  # the default (make bench): well under a minute
        "softmax": ladder("softmax", (16, 128, 1024, 4096), cols=256),
        "attention": ladder("attention", (16, 64, 256, 512), batch=1, heads=4, d=32),
        "embedding": ladder("embedding", (100, 1_000, 10_000, 100_000), vocab=10_000, d=64),
        "minilm": ladder("minilm", (16, 64, 128), batch=1),
    },
    "standard": {
        "softmax": ladder("softmax", (64, 256, 1024, 4096), cols=512),
        "attention": ladder("attention", (32, 128, 512), batch=2, heads=8, d=64),
        "embedding": ladder("embedding", (1_000, 10_000, 100_000), vocab=30_522, d=64),
        "minilm": ladder("minilm", (32, 128), batch=8),
    },
    "large": {
        "softmax": ladder("softmax", (256, 1024, 4096, 16384), cols=1024),
        "attention": ladder("attention", (64, 256, 1024), batch=4, heads=12, d=64),
        "embedding": ladder("embedding", (10_000, 100_000, 1_000_000), vocab=30_522, d=384),
        "minilm": ladder("minilm", (128, 256, 512), batch=8),
    },
}
DEFAULT_PRESET = "quick"
