"""What the race runs: the ops, their sizes and the presets of sizes.

- ``softmax``    x [rows, cols], along the last axis;
- ``attention``  q, k, v [batch, heads, n, d] (unmasked, scale 1/√d);
- ``embedding``  ``ids`` random ids looked up in a [vocab, d] table;
- ``minilm``     the all-MiniLM-L6-v2 forward (6 layers) over [batch, n] token ids (NumPy and Rust
  only; needs the model package);
- ``smollm2_prefill``  SmolLM2-135M reading a prompt of n tokens in one pass (30 layers, the
  products over the file's 4-bit blocks; the last position scored), as generation starts;
- ``smollm2_decode``   SmolLM2-135M generating one token after ``past`` cached ones: one position
  through the key/value cache, scored by the whole output head (both need the model package);
- ``train_step`` one AdamW step of the learner's toy on a fixed [batch, n] batch (``train_step``).

Each op knows its work count (``OpSpec.work``), from which a time measured at one size is scaled
to another: rows·cols for softmax, batch·heads·n²·(4d + 5) for attention, ids·d for embedding;
the models count their multiply-adds. The models also count the tokens one call reads
(``OpSpec.tokens``), so their medians read as tokens a second; a training step is counted as
itself (``OpSpec.rate_of``), so its medians read as steps a second.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from transformer_walk.bench import train_step
from transformer_walk.core import BACKENDS, Backend
from transformer_walk.core.budget import python_seconds
from transformer_walk.core.status import backend_status
from transformer_walk.models.minilm.config import CONFIG as MINILM
from transformer_walk.models.smollm2.config import SMOLLM2_135M as SMOLLM2
from transformer_walk.models.smollm2.model import PREFILL_CHUNK, PYTHON_QUANTIZED_SLOWDOWN

Inputs = tuple[Any, ...]  # the positional arguments of one call
ExternalCall = Callable[[Inputs, int], Any]  # (inputs, threads) → output


@dataclass(frozen=True)
class OpSpec:
    name: str
    params: tuple[str, ...]  # the size parameters, in the order labels show them
    axis: str  # the parameter that varies along a preset (the chart's x axis)
    scaling: str  # what the pure-Python estimate assumes time is proportional to
    work: Callable[[Mapping[str, int]], float]  # FLOPs (or numbers copied) of one call
    make_inputs: Callable[[np.random.Generator, Mapping[str, int], np.dtype], Inputs]
    call: Callable[[Backend, Inputs], np.ndarray]
    # Pure Python's estimated seconds a token (core.budget), for the models it is too slow to
    # race: its lane is then unavailable, with that estimate as the reason.
    python_token_s: float | None = None
    # Tokens one call reads (the models only): the median as tokens a second.
    tokens: Callable[[Mapping[str, int]], int] | None = None
    # (rtol, atol) of the check against NumPy's output; None: the race's float default.
    tolerance: tuple[float, float] | None = None
    # External lanes (results.EXTERNAL_LANES) this op can race: lane → (why it cannot run, or
    # None; the call on this op's inputs with that many threads).
    external: Mapping[str, tuple[Callable[[], str | None], ExternalCall]] = field(
        default_factory=dict
    )
    # What one call is, when its medians read as calls a second ("training steps").
    rate_of: str | None = None
    # Pure Python's estimated seconds for one call at some sizes (core.budget's rate), for an op
    # whose smallest size may already be too slow: the runner checks it against the budget before
    # pure Python has run the op, so even its first size is not started when it cannot fit.
    python_call_s: Callable[[Mapping[str, int]], float] | None = None
    # A line the report prints under the op's heading: what the sizes do not say.
    about: str = ""

    @property
    def unavailable(self) -> dict[str, str]:
        """Lanes this op does not offer, with the reason shown in their cells."""
        if self.python_token_s is None:
            return {}
        return {
            "python": f"pure Python needs about {self.python_token_s:.1f} s a token "
            "(core.budget's estimate); not raced"
        }


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


def _minilm_call(backend: Backend, args: Inputs) -> np.ndarray:
    """The last hidden state [B, n, 384] of the MiniLM forward on ``backend``."""
    return _minilm(_backend_name(backend)).forward(args[0]).hidden_states[-1]


def _minilm_onnxruntime(args: Inputs, threads: int) -> np.ndarray:
    """The same last hidden state, computed by ONNX Runtime (``onnx_lane``)."""
    from transformer_walk.bench import onnx_lane

    ids = args[0]
    return onnx_lane.session(threads).last_hidden_state(ids, np.ones(ids.shape, dtype=bool))


def _onnxruntime_missing() -> str | None:
    from transformer_walk.bench import onnx_lane

    return onnx_lane.available()


@functools.cache
def _smollm2(backend_name: str) -> Any:
    """SmolLM2-135M on one backend, loaded once (the 4-bit blocks shared between backends)."""
    from transformer_walk.models.smollm2 import load_smollm2

    if backend_name == "numpy":
        return load_smollm2(backend="numpy")
    return _smollm2("numpy").with_backend(backend_name)


def _backend_name(backend: Backend) -> str:
    return next(n for n in BACKENDS if backend_status(n).module is backend)


def _prompt_ids(rng: np.random.Generator, n: int) -> np.ndarray:
    # Ordinary tokens (the special ones sit below 17): the cost does not depend on which.
    return rng.integers(1000, SMOLLM2.vocab_size, size=n, dtype=np.int64)  # [n]


def _prefill_inputs(rng: np.random.Generator, p: Mapping[str, int], dtype: np.dtype) -> Inputs:
    return (_prompt_ids(rng, p["n"]),)


def _prefill_call(backend: Backend, args: Inputs) -> np.ndarray:
    """The prompt read into a new cache, as ``SmolLM2.generate`` starts: the last logits [1, V]."""
    model = _smollm2(_backend_name(backend))
    return model.forward(args[0], model.new_cache(), last_only=True).logits


def _decode_inputs(rng: np.random.Generator, p: Mapping[str, int], dtype: np.dtype) -> Inputs:
    """A cache holding ``past`` random tokens (filled once, by NumPy, for every lane) and the
    next token: every lane then times the same step over the same keys and values."""
    ids = _prompt_ids(rng, p["past"] + 1)  # [past + 1]
    model = _smollm2("numpy")
    cache = model.new_cache()
    for start in range(0, p["past"], PREFILL_CHUNK):  # chunks bound the attention scores' memory
        model.forward(ids[start : min(start + PREFILL_CHUNK, p["past"])], cache, last_only=True)
    return cache, ids[-1:]


def _decode_call(backend: Backend, args: Inputs) -> np.ndarray:
    """One generated token's forward at position ``past``: its logits [1, V]; the cache is put
    back to ``past`` positions, so every call times the same step."""
    cache, token = args
    n = cache.length
    try:
        return _smollm2(_backend_name(backend)).forward(token, cache, last_only=True).logits
    finally:
        cache.truncate(n)


# Rust and NumPy sum the 4-bit block products in another order, and where that tips an activation
# onto its next 16-bit step (quantized_linear) the step carries on: their logits (magnitudes ~10)
# differ by at most 0.009 on 18 tokens; a wrong block or position moves them by whole units.
SMOLLM2_TOLERANCE = (0.0, 0.03)

#: Pure Python's ``quantized_linear`` unpacks every 4-bit weight in Python too (model.py).
SMOLLM2_PYTHON_TOKEN_S = python_seconds(int(SMOLLM2.multiply_adds(1) * PYTHON_QUANTIZED_SLOWDOWN))

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
        python_token_s=python_seconds(MINILM.multiply_adds(1)),
        tokens=lambda p: p["batch"] * p["n"],
        external={"onnxruntime": (_onnxruntime_missing, _minilm_onnxruntime)},
    ),
    "smollm2_prefill": OpSpec(
        name="smollm2_prefill",
        params=("n",),
        axis="n",
        scaling="30·(n·(2·576² + 2·576·192 + 3·576·1536) + 9·n²·(2·64 + 20)) + 576·49152",
        # FLOPs of the model's own count (config.multiply_adds), the head scoring one position
        work=lambda p: 2.0 * SMOLLM2.multiply_adds(p["n"], scored=1),
        make_inputs=_prefill_inputs,
        call=_prefill_call,
        python_token_s=SMOLLM2_PYTHON_TOKEN_S,
        tokens=lambda p: p["n"],
        tolerance=SMOLLM2_TOLERANCE,
    ),
    "smollm2_decode": OpSpec(
        name="smollm2_decode",
        params=("past",),
        axis="past",
        scaling="30·(2·576² + 2·576·192 + 3·576·1536 + 9·(past + 1)·(2·64 + 20)) + 576·49152",
        work=lambda p: 2.0 * SMOLLM2.multiply_adds(1, past=p["past"]),
        make_inputs=_decode_inputs,
        call=_decode_call,
        python_token_s=SMOLLM2_PYTHON_TOKEN_S,
        tokens=lambda p: 1,
        tolerance=SMOLLM2_TOLERANCE,
    ),
    "train_step": OpSpec(
        name="train_step",
        params=("batch", "n"),
        axis="batch",
        scaling=train_step.SCALING,
        work=train_step.step_flops,
        make_inputs=train_step.make_inputs,
        call=lambda backend, args: train_step.step_loss(_backend_name(backend), args),
        rate_of="training steps",
        python_call_s=train_step.python_step_seconds,
        about=(
            f"one AdamW step of the learner (d_model {train_step.CONFIG.d_model}, "
            f"{train_step.CONFIG.h} heads, d_ff {train_step.CONFIG.d_ff}, "
            f"{train_step.CONFIG.layers} layers) on {train_step.VOCAB} symbols, next-token "
            "targets; float32 whatever --dtype; every lane from the same batch and weights"
        ),
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
        "smollm2_prefill": ladder("smollm2_prefill", (16, 64, 256)),
        "smollm2_decode": ladder("smollm2_decode", (16, 256, 1024)),
        # batch 32 × 32 tokens is the size; pure Python fits its budget at batch 1 only
        "train_step": ladder("train_step", (1, 8, 32), n=32),
    },
    "standard": {
        "softmax": ladder("softmax", (64, 256, 1024, 4096), cols=512),
        "attention": ladder("attention", (32, 128, 512), batch=2, heads=8, d=64),
        "embedding": ladder("embedding", (1_000, 10_000, 100_000), vocab=30_522, d=64),
        "minilm": ladder("minilm", (32, 128), batch=8),
        "smollm2_prefill": ladder("smollm2_prefill", (16, 128, 512)),
        "smollm2_decode": ladder("smollm2_decode", (16, 512, 2048)),
        "train_step": ladder("train_step", (1, 8, 32, 64), n=32),
    },
    "large": {
        "softmax": ladder("softmax", (256, 1024, 4096, 16384), cols=1024),
        "attention": ladder("attention", (64, 256, 1024), batch=4, heads=12, d=64),
        "embedding": ladder("embedding", (10_000, 100_000, 1_000_000), vocab=30_522, d=384),
        "minilm": ladder("minilm", (128, 256, 512), batch=8),
        "smollm2_prefill": ladder("smollm2_prefill", (64, 512, 2048)),
        "smollm2_decode": ladder("smollm2_decode", (64, 1024, 4096)),
        "train_step": ladder("train_step", (1, 32, 128), n=32),
    },
}
DEFAULT_PRESET = "quick"
