"""Race the backends: pure Python vs NumPy vs Rust on one thread and on all threads.

    python -m transformer_walk.bench                       # quick preset, all ops
    python -m transformer_walk.bench --ops attention --sizes standard --repeats 7 --json out.json
    python -m transformer_walk.bench --goals                 # the performance goals, as ratios

Ops and the sizes they take:

- ``softmax``    x [rows, cols], along the last axis;
- ``attention``  q, k, v [batch, heads, n, d] (unmasked, scale 1/√d);
- ``embedding``  ``ids`` random ids looked up in a [vocab, d] table;
- ``minilm``     the all-MiniLM-L6-v2 forward (6 layers) over [batch, n] token ids (NumPy and Rust
  only; needs the model package).

Lanes: ``python`` and ``numpy`` (the backends of the same names), ``rust-1`` (``rust_core`` with
``set_num_threads(1)``) and ``rust-all`` (one thread per available core); the thread count is
restored afterwards. A lane whose backend does not import is reported as unavailable.

Every cell is one backend call on seeded random input, timed with ``time.perf_counter``: warm-up
calls (``warmup`` of them, and for every lane but pure Python at least ``MIN_WARMUP_S`` of them, so
a thread pool's threads have spread over the cores), then ``repeats`` samples, and we report the
median time per call. After a NumPy lane the race pauses ``BLAS_SETTLE_S`` so OpenBLAS's spinning
threads do not steal the next lane's cores. Calls faster than a
millisecond are looped inside a sample so the clock's resolution does not dominate.

Pure Python would need minutes at the larger sizes, so it has a time budget per cell: it always runs
the smallest size, and a larger size only if its estimate fits the budget. The estimate scales the
largest size it did run by the op's work count (``OpSpec.scaling``: rows·cols for softmax,
batch·heads·n²·(4d + 5) for attention, ids·d for embedding); skipped cells report that estimate.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import os
import platform
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from transformer_walk.core import BACKENDS
from transformer_walk.core.status import backend_status, backend_version

LANES: tuple[str, ...] = ("python", "numpy", "rust-1", "rust-all")
LANE_BACKEND: dict[str, str] = {
    "python": "python",
    "numpy": "numpy",
    "rust-1": "rust",
    "rust-all": "rust",
}
REFERENCE_LANE = "numpy"  # speed-ups are "x vs NumPy", and outputs are checked against it
BUDGETED_LANE = "python"

DEFAULT_REPEATS = 5
DEFAULT_WARMUP = 1
DEFAULT_PYTHON_BUDGET_S = 2.0
DEFAULT_SEED = 0
# After a NumPy call, OpenBLAS's worker threads keep spinning for a while (its "thread timeout"),
# holding cores the next lane would use: the multi-threaded Rust lane then measured no faster than
# one thread. A pause after each NumPy lane lets them go idle first.
BLAS_SETTLE_S = 0.2
# Unbudgeted lanes keep calling during their warm-up until this much time has passed.
MIN_WARMUP_S = 0.1
# A sample shorter than this is mostly timer noise, so fast calls are looped inside one sample.
MIN_SAMPLE_S = 2e-3
MAX_CALLS_PER_SAMPLE = 10_000


def available_cores() -> int:
    """Cores this process may run on (the affinity mask, not the machine's total)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


# --- the ops ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpSpec:
    name: str
    params: tuple[str, ...]  # the size parameters, in the order labels show them
    axis: str  # the parameter that varies along a preset (the chart's x axis)
    scaling: str  # what the pure-Python estimate assumes time is proportional to
    work: Callable[[Mapping[str, int]], float]  # FLOPs (or numbers copied) of one call
    make_inputs: Callable[[np.random.Generator, Mapping[str, int], np.dtype], tuple[Any, ...]]
    call: Callable[[ModuleType, tuple[Any, ...]], np.ndarray]
    # Lanes this op does not offer, with the reason shown in their cells.
    unavailable: Mapping[str, str] = field(default_factory=dict)


def _softmax_inputs(rng: np.random.Generator, p: Mapping[str, int], dtype: np.dtype) -> tuple:
    return (rng.standard_normal((p["rows"], p["cols"])).astype(dtype),)


def _attention_inputs(rng: np.random.Generator, p: Mapping[str, int], dtype: np.dtype) -> tuple:
    shape = (p["batch"], p["heads"], p["n"], p["d"])  # (B, h, n, d_k)
    return tuple(rng.standard_normal(shape).astype(dtype) for _ in "qkv")


def _embedding_inputs(rng: np.random.Generator, p: Mapping[str, int], dtype: np.dtype) -> tuple:
    table = rng.standard_normal((p["vocab"], p["d"])).astype(dtype)  # [V, d]
    ids = rng.integers(0, p["vocab"], size=p["ids"], dtype=np.int64)  # [ids]
    return table, ids


def _minilm_inputs(rng: np.random.Generator, p: Mapping[str, int], dtype: np.dtype) -> tuple:
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


def _minilm_call(backend: ModuleType, args: tuple[Any, ...]) -> np.ndarray:
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
        # per layer and sequence, in FLOPs: Q, K, V, W^O (4 · 2·n·d²), the FFN (2 · 2·n·d·d_ff),
        # scores and weighted sum (2 · 2·n²·d); the embeddings, LayerNorms and GELU are small.
        work=lambda p: (
            p["batch"] * 6.0 * (p["n"] * (8 * 384**2 + 4 * 384 * 1536) + 4 * p["n"] ** 2 * 384)
        ),
        make_inputs=_minilm_inputs,
        call=_minilm_call,
        unavailable={"python": "pure Python needs about 0.3 s per token; not raced"},
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


# --- results ------------------------------------------------------------------------------------

OK, SKIPPED, UNAVAILABLE, ERROR = "ok", "skipped", "unavailable", "error"


@dataclass
class Cell:
    """The outcome of one lane on one case."""

    op: str
    label: str
    sizes: dict[str, int]
    x: int
    work: float
    lane: str
    status: str  # OK | SKIPPED | UNAVAILABLE | ERROR
    median_s: float | None = None  # time per call; only for OK
    samples_s: list[float] = field(default_factory=list)  # time per call of every sample
    calls_per_sample: int = 1
    estimate_s: float | None = None  # only for SKIPPED: extrapolated time per call
    note: str = ""  # estimate basis, import error or exception text
    matches_reference: bool | None = None  # output ≈ NumPy's; None when not compared


@dataclass
class BenchResult:
    cells: list[Cell]
    meta: dict[str, Any]

    def cell(self, op: str, label: str, lane: str) -> Cell | None:
        return next(
            (c for c in self.cells if c.op == op and c.label == label and c.lane == lane), None
        )

    def cases(self, op: str) -> list[tuple[str, int]]:
        """(label, x) of the op's cases, in run order."""
        seen: dict[str, int] = {}
        for c in self.cells:
            if c.op == op:
                seen.setdefault(c.label, c.x)
        return list(seen.items())

    @property
    def ops(self) -> list[str]:
        return list(dict.fromkeys(c.op for c in self.cells))

    def speedup(self, op: str, label: str, lane: str, versus: str) -> float | None:
        """How many times faster ``lane`` ran than ``versus`` (measured medians only)."""
        mine, theirs = self.cell(op, label, lane), self.cell(op, label, versus)
        if not (mine and theirs and mine.median_s and theirs.median_s):
            return None
        return theirs.median_s / mine.median_s

    def to_dict(self) -> dict[str, Any]:
        return {"meta": self.meta, "cells": [asdict(c) for c in self.cells]}

    def write_json(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")


@dataclass(frozen=True)
class Progress:
    """Sent to the progress callback before each cell starts, and once more when all are done."""

    done: int
    total: int
    op: str = ""
    label: str = ""
    lane: str = ""


ProgressCallback = Callable[[Progress], None]


# --- timing -------------------------------------------------------------------------------------


@dataclass
class _Measurement:
    samples_s: list[float]  # time per call of each sample
    calls_per_sample: int
    output: Any


def _measure(
    call: Callable[[], Any], repeats: int, warmup: int, budget_s: float | None
) -> _Measurement:
    """Median-ready samples of ``call``; with a budget, cut repeats so the cell fits in it."""
    start = time.perf_counter()
    output = call()  # the first warm-up doubles as a probe of how long one call takes
    probe = time.perf_counter() - start
    if budget_s is not None and probe * 2 > budget_s:
        # One more call would overrun the budget: the probe is the only sample we can afford.
        return _Measurement([probe], 1, output)
    for _ in range(warmup - 1):
        call()
    if budget_s is None:
        # Keep warming for a moment: a thread pool's new threads start on one core and the OS
        # spreads them out only after some milliseconds of work.
        warm_until = time.perf_counter() + MIN_WARMUP_S
        while time.perf_counter() < warm_until:
            call()
    calls = (
        1 if probe >= MIN_SAMPLE_S else min(MAX_CALLS_PER_SAMPLE, math.ceil(MIN_SAMPLE_S / probe))
    )
    if budget_s is not None:
        affordable = int((budget_s - probe * warmup) // (probe * calls))
        repeats = max(1, min(repeats, affordable))
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            call()
        samples.append((time.perf_counter() - start) / calls)
    return _Measurement(samples, calls, output)


#: Held while a measurement has changed rust_core's (process-wide) thread count. The app serves
#: many sessions from one process: two sessions measuring at once (Speed, Cost) would otherwise
#: interleave their save and restore and could leave the pool at 1 thread for everybody.
THREAD_COUNT_LOCK = threading.RLock()


@contextlib.contextmanager
def _threads(module: ModuleType, n: int) -> Iterator[None]:
    """Run with the backend's pool at ``n`` threads, then put the old size back."""
    with THREAD_COUNT_LOCK:
        previous = module.get_num_threads()
        module.set_num_threads(n)
        try:
            yield
        finally:
            module.set_num_threads(previous)


def _lane_threads(lane: str, cores: int) -> int | None:
    return {"rust-1": 1, "rust-all": cores}.get(lane)


def _outputs_match(output: Any, reference: Any, dtype: np.dtype) -> bool:
    rtol, atol = (1e-4, 1e-5) if dtype == np.float32 else (1e-9, 1e-12)
    out, ref = np.asarray(output), np.asarray(reference)
    return out.shape == ref.shape and bool(np.allclose(out, ref, rtol=rtol, atol=atol))


# --- the run ------------------------------------------------------------------------------------


def _estimate(basis: tuple[Case, float] | None, case: Case) -> float | None:
    """Time per call of ``case``, scaled by work from a measured (case, median) of the same op."""
    if basis is None:
        return None
    measured_case, median = basis
    return median * case.work / measured_case.work


def _time_cell(
    cell: Cell,
    module: ModuleType,
    case: Case,
    inputs: tuple[Any, ...],
    repeats: int,
    warmup: int,
    budget_s: float | None,
    cores: int,
) -> Any:
    """Measure one lane on one case into ``cell``; return the call's output (None on error)."""
    threads = _lane_threads(cell.lane, cores)
    call = functools.partial(case.spec.call, module, inputs)
    try:
        with _threads(module, threads) if threads else contextlib.nullcontext():
            measured = _measure(call, repeats, warmup, budget_s)
    except Exception as exc:  # a backend bug must not end the whole race
        cell.status, cell.note = ERROR, f"{type(exc).__name__}: {exc}"
        return None
    cell.samples_s = measured.samples_s
    cell.calls_per_sample = measured.calls_per_sample
    cell.median_s = statistics.median(measured.samples_s)
    return measured.output


def run_benchmark(
    cases: Sequence[Case],
    *,
    lanes: Sequence[str] = LANES,
    repeats: int = DEFAULT_REPEATS,
    warmup: int = DEFAULT_WARMUP,
    python_budget_s: float | None = DEFAULT_PYTHON_BUDGET_S,
    dtype: str = "float32",
    seed: int = DEFAULT_SEED,
    progress: ProgressCallback | None = None,
) -> BenchResult:
    """Time every lane on every case; never raises for a missing backend or a failing call.

    Cases of one op run from least to most work, so pure Python's estimates always extrapolate
    from the largest size it actually ran. ``python_budget_s=None`` lets pure Python run everything.
    """
    if repeats < 1 or warmup < 1:
        raise ValueError(f"repeats and warmup must be at least 1, got {repeats} and {warmup}")
    unknown = [lane for lane in lanes if lane not in LANE_BACKEND]
    if unknown:
        raise ValueError(f"unknown lanes {unknown}; expected some of {', '.join(LANES)}")
    np_dtype = np.dtype(dtype)
    cores = available_cores()
    statuses = {
        name: backend_status(name) for name in dict.fromkeys(LANE_BACKEND[x] for x in lanes)
    }
    ordered = sorted(dict.fromkeys(cases), key=lambda c: (list(OPS).index(c.op), c.work))
    # The reference lane runs first so every other lane can be checked against its output.
    lane_order = sorted(lanes, key=lambda lane: lane != REFERENCE_LANE)
    total = len(ordered) * len(lane_order)
    cells: list[Cell] = []
    python_basis: dict[str, tuple[Case, float]] = {}  # op → (largest case run, its median)

    for case_index, case in enumerate(ordered):
        inputs = case.spec.make_inputs(
            np.random.default_rng([seed, case_index]), case.sizes, np_dtype
        )
        reference: Any = None
        for lane_index, lane in enumerate(lane_order):
            if progress:
                done = case_index * len(lane_order) + lane_index
                progress(Progress(done, total, case.op, case.label, lane))
            cell = Cell(case.op, case.label, case.sizes, case.x, case.work, lane, OK)
            status = statuses[LANE_BACKEND[lane]]
            budget = python_budget_s if lane == BUDGETED_LANE else None
            estimate = _estimate(python_basis.get(case.op), case) if budget is not None else None
            if status.module is None:
                cell.status, cell.note = UNAVAILABLE, status.error or ""
            elif lane in case.spec.unavailable:
                cell.status, cell.note = UNAVAILABLE, case.spec.unavailable[lane]
            elif estimate is not None and budget is not None and estimate > budget:
                basis_case = python_basis[case.op][0]
                cell.status, cell.estimate_s = SKIPPED, estimate
                cell.note = f"estimated from {basis_case.label} assuming time ∝ {case.spec.scaling}"
            else:
                output = _time_cell(
                    cell, status.module, case, inputs, repeats, warmup, budget, cores
                )
                if LANE_BACKEND[lane] == "numpy":
                    time.sleep(BLAS_SETTLE_S)
                if lane == REFERENCE_LANE:
                    reference = output
                elif output is not None and reference is not None:
                    cell.matches_reference = _outputs_match(output, reference, np_dtype)
                if lane == BUDGETED_LANE and cell.median_s is not None:
                    python_basis[case.op] = (case, cell.median_s)
            cells.append(cell)

    if progress:
        progress(Progress(total, total))
    return BenchResult(
        cells, _meta(lanes, repeats, warmup, python_budget_s, dtype, seed, cores, statuses)
    )


def _meta(
    lanes: Sequence[str],
    repeats: int,
    warmup: int,
    python_budget_s: float | None,
    dtype: str,
    seed: int,
    cores: int,
    statuses: Mapping[str, Any],
) -> dict[str, Any]:
    rust = statuses.get("rust")
    return {
        "lanes": list(lanes),
        "repeats": repeats,
        "warmup": warmup,
        "python_budget_s": python_budget_s,
        "dtype": dtype,
        "seed": seed,
        "cores": cores,
        "rust_threads_all": cores,
        "rust_core_version": backend_version(rust.module) if rust and rust.module else None,
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "platform": platform.platform(),
        "scaling": {name: spec.scaling for name, spec in OPS.items()},
        "finished_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


# --- text output --------------------------------------------------------------------------------


def format_seconds(seconds: float) -> str:
    """3 significant digits in the unit that fits: 812 ns, 4.21 µs, 13.0 ms, 2.50 s, 1234 s."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale or unit == "ns":
            value = seconds / scale
            # values that would round up to 1000 in this unit print as e.g. "1000 ms": fine
            decimals = 0 if value >= 99.95 else 1 if value >= 9.995 else 2
            return f"{value:.{decimals}f} {unit}"
    raise AssertionError("unreachable")


def format_speedup(ratio: float) -> str:
    """2–3 significant digits, so tiny ratios stay readable: 312×, 41.6×, 0.63×, 0.0014×."""
    if ratio >= 100:
        return f"{ratio:.0f}×"
    if ratio >= 0.1:
        return f"{ratio:#.3g}×"  # '#' keeps trailing zeros: 1.40×, not 1.4×
    return f"{ratio:#.2g}×"


def lane_title(lane: str, cores: int) -> str:
    return {
        "python": "Pure Python",
        "numpy": "NumPy",
        "rust-1": "Rust 1 thread",
        "rust-all": f"Rust all threads ({cores})",
    }[lane]


def cell_text(cell: Cell | None) -> str:
    if cell is None:
        return ""
    if cell.status == OK and cell.median_s is not None:
        mismatch = " (!)" if cell.matches_reference is False else ""
        return format_seconds(cell.median_s) + mismatch
    if cell.status == SKIPPED and cell.estimate_s is not None:
        return f"skipped (estimated {format_seconds(cell.estimate_s)})"
    return cell.status


def format_table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(
            text.ljust(w) if i == 0 else text.rjust(w)
            for i, (text, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    ]
    return "\n".join(lines)


def report(result: BenchResult) -> str:
    """Medians side by side and speed-ups vs NumPy, one block per op, as plain text."""
    meta, lanes = result.meta, result.meta["lanes"]
    cores = meta["cores"]
    budget = meta["python_budget_s"]
    out = [
        f"{meta['dtype']}, median time per call of {meta['repeats']} samples after "
        f"{meta['warmup']} warm-up call(s) (and at least {MIN_WARMUP_S:g} s of them, pure Python "
        f"excepted); pure Python budget "
        f"{'none' if budget is None else f'{budget:g} s'} per cell; {cores} core(s) available",
    ]
    for op in result.ops:
        cases = result.cases(op)
        header = ["size", *(lane_title(lane, cores) for lane in lanes)]
        rows = [header] + [
            [label, *(cell_text(result.cell(op, label, lane)) for lane in lanes)]
            for label, _ in cases
        ]
        out += ["", f"== {op}: time per call", format_table(rows)]
        others = [lane for lane in lanes if lane != REFERENCE_LANE]
        if REFERENCE_LANE in lanes and others:
            rows = [["size", *(lane_title(lane, cores) for lane in others)]]
            for label, _ in cases:
                ups = (result.speedup(op, label, lane, REFERENCE_LANE) for lane in others)
                rows.append([label, *("—" if up is None else format_speedup(up) for up in ups)])
            out += [
                f"-- {op}: speed-up vs NumPy (NumPy time / lane time; above 1× is faster)",
                format_table(rows),
            ]
        notes = {c.note for c in result.cells if c.op == op and c.status == SKIPPED}
        if notes:
            out.append(
                f"   pure Python estimates scale the largest size it ran by {OPS[op].scaling}"
            )
        for c in result.cells:
            if c.op == op and c.status in (UNAVAILABLE, ERROR) and c.label == cases[0][0]:
                out.append(f"   {lane_title(c.lane, cores)} {c.status}: {c.note}")
            if c.op == op and c.matches_reference is False:
                out.append(
                    f"   (!) {lane_title(c.lane, cores)} at {c.label} differs from NumPy's output"
                )
    return "\n".join(out)


# --- command line -------------------------------------------------------------------------------


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m transformer_walk.bench",
        description="Time softmax, attention and embedding lookup in pure Python, NumPy and Rust.",
    )
    parser.add_argument(
        "--ops", nargs="+", choices=list(OPS), default=list(OPS), help="ops to time (default: all)"
    )
    parser.add_argument(
        "--sizes",
        choices=list(PRESETS),
        default=DEFAULT_PRESET,
        help=f"size preset (default: {DEFAULT_PRESET})",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=DEFAULT_REPEATS,
        help=f"timed samples per cell (default: {DEFAULT_REPEATS})",
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=DEFAULT_WARMUP,
        help=f"untimed calls first (default: {DEFAULT_WARMUP})",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_PYTHON_BUDGET_S,
        help=f"pure Python seconds per cell; 0 = no limit (default: {DEFAULT_PYTHON_BUDGET_S:g})",
    )
    parser.add_argument(
        "--lanes", nargs="+", choices=LANES, default=list(LANES), help="lanes to run (default: all)"
    )
    parser.add_argument(
        "--dtype",
        choices=("float32", "float64"),
        default="float32",
        help="float type of the inputs (default: float32)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the random inputs")
    parser.add_argument(
        "--json", metavar="PATH", help="also write every cell, with its samples, to PATH"
    )
    parser.add_argument(
        "--goals",
        action="store_true",
        help="instead, measure issue 6's goals against NumPy (transformer_walk.bench.goals)",
    )
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.warmup < 1:
        parser.error("--repeats and --warmup must be at least 1")
    if args.budget < 0:
        parser.error("--budget must be 0 (no limit) or positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(argv)
    if args.goals:
        from transformer_walk.bench import (
            goals as bench_goals,  # imports this module: import it only here
        )

        return bench_goals.main(["--json", args.json] if args.json else [])
    cases = [case for op in args.ops for case in PRESETS[args.sizes][op]]

    def show(p: Progress) -> None:
        if p.lane:
            print(
                f"\r[{p.done + 1}/{p.total}] {p.op} {p.label} {p.lane}".ljust(70),
                end="",
                file=sys.stderr,
                flush=True,
            )
        else:
            print("\r".ljust(72) + "\r", end="", file=sys.stderr, flush=True)

    result = run_benchmark(
        cases,
        lanes=args.lanes,
        repeats=args.repeats,
        warmup=args.warmup,
        python_budget_s=args.budget or None,
        dtype=args.dtype,
        seed=args.seed,
        progress=show if sys.stderr.isatty() else None,
    )
    print(report(result))
    if args.json:
        result.write_json(args.json)
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
