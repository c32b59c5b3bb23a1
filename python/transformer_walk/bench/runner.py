"""The race: every lane on every case, within pure Python's budget and the run's deadline.

Every cell is one backend call on seeded random input, timed by ``timing.measure`` (warm-up,
``repeats`` samples, the median per call). The reference lane (NumPy) runs first on each case, so
every other lane's output is checked against it; after it the race pauses ``BLAS_SETTLE_S`` so
OpenBLAS's spinning threads do not steal the next lane's cores. Rust's thread count is set per
lane and restored afterwards. A lane whose backend does not import is reported as unavailable, a
call that raises as an error: the race itself never raises for either.

Two bounds keep a run short, both from estimates: a cell's time per call is its lane's median at
the largest case of the same op run so far, scaled by work (``OpSpec.work``, see ``cases``).

- Pure Python has a budget per cell: it always runs the smallest size, and a larger size only if
  its estimate fits the budget. An op whose smallest size may already be too slow (a training
  step) estimates pure Python's first call from ``core.budget``'s rate (``OpSpec.python_call_s``),
  so that size too runs only if it fits.
- The whole run may have a deadline: a cell that would start after it, or whose estimated call
  would end after it, is not started. A cell that is started takes no sample that would end past
  the deadline. So a run ends by its deadline, give or take the first call of a lane (which has
  nothing to be estimated from: cases run from least to most work, so it is the smallest one)
  and the making of one case's inputs.

Skipped cells are reported as skipped, with why and, when known, the estimate.
"""

from __future__ import annotations

import contextlib
import functools
import platform
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from transformer_walk.bench.cases import OPS, Case
from transformer_walk.bench.results import (
    BUDGET,
    BUDGETED_LANE,
    DEADLINE,
    ERROR,
    EXTERNAL_LANES,
    LANE_BACKEND,
    LANES,
    OK,
    REFERENCE_LANE,
    SKIPPED,
    UNAVAILABLE,
    BenchResult,
    Cell,
    Progress,
    ProgressCallback,
)
from transformer_walk.bench.timing import (
    BLAS_SETTLE_S,
    MIN_WARMUP_S,
    SYSTEM_CLOCK,
    Clock,
    Deadline,
    available_cores,
    measure,
    threads,
)
from transformer_walk.core import Backend
from transformer_walk.core.status import backend_status, backend_version

DEFAULT_REPEATS = 5
DEFAULT_WARMUP = 1
DEFAULT_PYTHON_BUDGET_S = 2.0
DEFAULT_SEED = 0


def _lane_threads(lane: str, cores: int) -> int | None:
    return {"rust-1": 1, "rust-all": cores}.get(lane)


def _outputs_match(
    output: Any, reference: Any, dtype: np.dtype, tolerance: tuple[float, float] | None = None
) -> bool:
    """Whether a lane's output is NumPy's up to rounding: ``tolerance`` (rtol, atol) when the op
    sets one (its kernels sum in another order by design), else by the float type."""
    if tolerance is not None:
        rtol, atol = tolerance
    else:
        rtol, atol = (1e-4, 1e-5) if dtype == np.float32 else (1e-9, 1e-12)
    out, ref = np.asarray(output), np.asarray(reference)
    return out.shape == ref.shape and bool(np.allclose(out, ref, rtol=rtol, atol=atol))


def _estimate(basis: tuple[Case, float] | None, case: Case) -> float | None:
    """Time per call of ``case``, scaled by work from a measured (case, median) of the same op."""
    if basis is None:
        return None
    measured_case, median = basis
    return median * case.work / measured_case.work


def _time_cell(
    cell: Cell,
    call: Callable[[], Any],
    threaded: Backend | None,
    *,
    repeats: int,
    warmup: int,
    budget_s: float | None,
    deadline: Deadline,
    cores: int,
) -> Any:
    """Measure ``call`` (one lane on one case) into ``cell``; return its output (None on error).
    ``threaded``: the backend whose pool the lane sizes (rust_core's), if any."""
    n_threads = _lane_threads(cell.lane, cores)
    try:
        with threads(threaded, n_threads) if threaded and n_threads else contextlib.nullcontext():
            measured = measure(
                call,
                repeats=repeats,
                warmup=warmup,
                # a budgeted lane is too slow to need it, and could not afford it
                min_warmup_s=0.0 if budget_s is not None else MIN_WARMUP_S,
                budget_s=budget_s,
                deadline=deadline.at,
                clock=deadline.clock,
            )
    except Exception as exc:  # a backend bug must not end the whole race
        cell.status, cell.note = ERROR, f"{type(exc).__name__}: {exc}"
        return None
    cell.samples_s = measured.samples_s
    cell.calls_per_sample = measured.calls_per_sample
    cell.median_s = measured.median_s
    return measured.output


def _lane_call(
    lane: str, case: Case, statuses: Mapping[str, Any], cores: int
) -> tuple[str | None, Callable[[tuple[Any, ...]], Any], Backend | None]:
    """How ``lane`` runs ``case``: (why it cannot — None when it can, the call on the case's
    inputs, the backend whose pool it sizes)."""
    if lane in LANE_BACKEND:
        module = statuses[LANE_BACKEND[lane]].module
        why = None if module is not None else statuses[LANE_BACKEND[lane]].error or ""
        return why, functools.partial(case.spec.call, module), module
    if lane not in case.spec.external:
        return f"{lane} does not run {case.op}", lambda inputs: None, None
    missing, run = case.spec.external[lane]
    return missing(), lambda inputs: run(inputs, cores), None


def _skip(cell: Cell, why: str, estimate: float | None, note: str) -> None:
    cell.status, cell.skipped_for, cell.estimate_s, cell.note = SKIPPED, why, estimate, note


def run_benchmark(
    cases: Sequence[Case],
    *,
    lanes: Sequence[str] = LANES,
    repeats: int = DEFAULT_REPEATS,
    warmup: int = DEFAULT_WARMUP,
    python_budget_s: float | None = DEFAULT_PYTHON_BUDGET_S,
    deadline_s: float | None = None,
    clock: Clock = SYSTEM_CLOCK,
    dtype: str = "float32",
    seed: int = DEFAULT_SEED,
    progress: ProgressCallback | None = None,
) -> BenchResult:
    """Time every lane on every case; never raises for a missing backend or a failing call.

    Cases of one op run from least to most work, so estimates always extrapolate from the largest
    size a lane actually ran. ``python_budget_s=None`` lets pure Python run everything;
    ``deadline_s`` (seconds on ``clock`` from the call) bounds the whole run.
    """
    if repeats < 1 or warmup < 1:
        raise ValueError(f"repeats and warmup must be at least 1, got {repeats} and {warmup}")
    unknown = [lane for lane in lanes if lane not in LANE_BACKEND and lane not in EXTERNAL_LANES]
    if unknown:
        known = ", ".join((*LANES, *EXTERNAL_LANES))
        raise ValueError(f"unknown lanes {unknown}; expected some of {known}")
    if deadline_s is not None and deadline_s < 0:
        raise ValueError(f"deadline_s must be positive or None, got {deadline_s}")
    deadline = Deadline.after(deadline_s, clock)
    np_dtype = np.dtype(dtype)
    cores = available_cores()
    statuses = {
        name: backend_status(name)
        for name in dict.fromkeys(LANE_BACKEND[x] for x in lanes if x in LANE_BACKEND)
    }
    ordered = sorted(dict.fromkeys(cases), key=lambda c: (list(OPS).index(c.op), c.work))
    # The reference lane runs first so every other lane can be checked against its output.
    lane_order = sorted(lanes, key=lambda lane: lane != REFERENCE_LANE)
    total = len(ordered) * len(lane_order)
    cells: list[Cell] = []
    basis: dict[tuple[str, str], tuple[Case, float]] = {}  # (op, lane) → (largest case run, median)

    for case_index, case in enumerate(ordered):
        inputs: tuple[Any, ...] | None = None  # made when a first cell of the case starts
        reference: Any = None
        for lane_index, lane in enumerate(lane_order):
            if progress:
                done = case_index * len(lane_order) + lane_index
                progress(Progress(done, total, case.op, case.label, lane))
            cell = Cell(case.op, case.label, case.sizes, case.x, case.work, lane, OK)
            budget = python_budget_s if lane == BUDGETED_LANE else None
            estimate = _estimate(basis.get((case.op, lane)), case)
            by_rate = False
            rate_estimate = case.spec.python_call_s if budget is not None else None
            if estimate is None and rate_estimate is not None:
                # nothing measured yet to scale: core.budget's rate bounds pure Python's first call
                estimate, by_rate = rate_estimate(case.sizes), True
            why_not, call, threaded = _lane_call(lane, case, statuses, cores)
            if why_not is not None:
                cell.status, cell.note = UNAVAILABLE, why_not
            elif lane in case.spec.unavailable:
                cell.status, cell.note = UNAVAILABLE, case.spec.unavailable[lane]
            elif estimate is not None and budget is not None and estimate > budget:
                if by_rate:
                    basis_text = "estimated by core.budget's pure-Python rate before any size ran"
                else:
                    basis_text = f"estimated from {basis[(case.op, lane)][0].label}"
                _skip(cell, BUDGET, estimate, f"{basis_text} assuming time ∝ {case.spec.scaling}")
                cell.estimate_by_rate = by_rate
            elif deadline.passed() or (estimate is not None and not deadline.allows(estimate)):
                _skip(cell, DEADLINE, estimate, f"not started: past the {deadline_s:g} s deadline")
            else:
                if inputs is None:
                    rng = np.random.default_rng([seed, case_index])
                    inputs = case.spec.make_inputs(rng, case.sizes, np_dtype)
                output = _time_cell(
                    cell, functools.partial(call, inputs), threaded, repeats=repeats,
                    warmup=warmup, budget_s=budget, deadline=deadline, cores=cores,
                )  # fmt: skip
                # OpenBLAS's threads (and ONNX Runtime's) spin after a call: let them settle
                if LANE_BACKEND.get(lane) == "numpy" or lane in EXTERNAL_LANES:
                    clock.sleep(BLAS_SETTLE_S)
                if lane == REFERENCE_LANE:
                    reference = output
                elif output is not None and reference is not None:
                    cell.matches_reference = _outputs_match(
                        output, reference, np_dtype, case.spec.tolerance
                    )
                if cell.median_s is not None:
                    basis[(case.op, lane)] = (case, cell.median_s)
            cells.append(cell)

    if progress:
        progress(Progress(total, total))
    meta = _meta(lanes, repeats, warmup, python_budget_s, deadline_s, dtype, seed, cores, statuses)
    return BenchResult(cells, meta)


def _meta(
    lanes: Sequence[str],
    repeats: int,
    warmup: int,
    python_budget_s: float | None,
    deadline_s: float | None,
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
        "deadline_s": deadline_s,
        "dtype": dtype,
        "seed": seed,
        "cores": cores,
        "rust_threads_all": cores,
        "rust_core_version": backend_version(rust.module) if rust and rust.module else None,
        "numpy_version": np.__version__,
        "python_version": platform.python_version(),
        "platform": platform.platform(),
        "scaling": {name: spec.scaling for name, spec in OPS.items()},
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
