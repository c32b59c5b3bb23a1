"""What a race produces: its lanes, one ``Cell`` per lane and case, the whole ``BenchResult``.

Lanes: ``python`` and ``numpy`` (the backends of the same names), ``rust-1`` (``rust_core`` with
``set_num_threads(1)``) and ``rust-all`` (one thread per available core); and, for the ops that
have one, ``onnxruntime`` (ONNX Runtime on one thread per core, when it is installed).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

LANES: tuple[str, ...] = ("python", "numpy", "rust-1", "rust-all")
LANE_BACKEND: dict[str, str] = {
    "python": "python",
    "numpy": "numpy",
    "rust-1": "rust",
    "rust-all": "rust",
}
#: Lanes that are not one of our backends but another program on the same work, raced only on
#: the ops that have them (``OpSpec.external``) and only when installed: ONNX Runtime on MiniLM.
EXTERNAL_LANES: tuple[str, ...] = ("onnxruntime",)
REFERENCE_LANE = "numpy"  # speed-ups are "x vs NumPy", and outputs are checked against it
BUDGETED_LANE = "python"

OK, SKIPPED, UNAVAILABLE, ERROR = "ok", "skipped", "unavailable", "error"
# Why a cell was skipped: pure Python's budget per cell, or the deadline of the whole run.
BUDGET, DEADLINE = "budget", "deadline"


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
    estimate_s: float | None = None  # only for SKIPPED, when known: extrapolated time per call
    # only for SKIPPED: the estimate is core.budget's rate (OpSpec.python_call_s), not a size
    # pure Python ran, scaled
    estimate_by_rate: bool = False
    skipped_for: str = ""  # only for SKIPPED: BUDGET or DEADLINE
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
