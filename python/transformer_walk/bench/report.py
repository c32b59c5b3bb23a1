"""The race as plain text: medians side by side and speed-ups vs NumPy, one block per op."""

from __future__ import annotations

from transformer_walk.bench.cases import OPS
from transformer_walk.bench.results import (
    BUDGET,
    DEADLINE,
    ERROR,
    OK,
    REFERENCE_LANE,
    SKIPPED,
    UNAVAILABLE,
    BenchResult,
    Cell,
)
from transformer_walk.bench.timing import MIN_WARMUP_S


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


def tokens_per_second(cell: Cell | None) -> float | None:
    """Tokens one call of a model op reads, divided by its median; None for the other ops and
    for cells without a median."""
    tokens = OPS[cell.op].tokens if cell is not None else None
    if cell is None or tokens is None or not cell.median_s:
        return None
    return tokens(cell.sizes) / cell.median_s


def steps_per_second(cell: Cell | None) -> float | None:
    """Calls a second (1 / median) of an op whose call is one counted step (``OpSpec.rate_of``,
    the training step); None for the other ops and for cells without a median."""
    if cell is None or OPS[cell.op].rate_of is None or not cell.median_s:
        return None
    return 1.0 / cell.median_s


def format_rate(per_second: float) -> str:
    """3 significant digits, thousands grouped: 27.4, 312, 1,250."""
    if per_second >= 99.95:
        return f"{per_second:,.0f}"
    return f"{per_second:#.3g}"


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
    if cell.status == SKIPPED and cell.skipped_for == DEADLINE:
        return "skipped (deadline)"
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
    if meta.get("deadline_s") is not None and any(c.skipped_for == DEADLINE for c in result.cells):
        out.append(f"cells past the run's deadline of {meta['deadline_s']:g} s were not started")
    for op in result.ops:
        cases = result.cases(op)
        header = ["size", *(lane_title(lane, cores) for lane in lanes)]
        rows = [header] + [
            [label, *(cell_text(result.cell(op, label, lane)) for lane in lanes)]
            for label, _ in cases
        ]
        out += ["", f"== {op}: time per call"]
        out += [f"   ({OPS[op].about})"] if OPS[op].about else []
        out.append(format_table(rows))
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
        if OPS[op].tokens is not None:
            rows = [["size", *(lane_title(lane, cores) for lane in lanes)]]
            for label, _ in cases:
                rates = (tokens_per_second(result.cell(op, label, lane)) for lane in lanes)
                rows.append([label, *("—" if r is None else format_rate(r) for r in rates)])
            out += [f"-- {op}: tokens per second", format_table(rows)]
        if (unit := OPS[op].rate_of) is not None:
            rows = [["size", *(lane_title(lane, cores) for lane in lanes)]]
            for label, _ in cases:
                rates = (steps_per_second(result.cell(op, label, lane)) for lane in lanes)
                rows.append([label, *("—" if r is None else format_rate(r) for r in rates)])
            out += [f"-- {op}: {unit} per second", format_table(rows)]
        budget_skips = [c for c in result.cells if c.op == op and c.skipped_for == BUDGET]
        if any(not c.estimate_by_rate for c in budget_skips):
            out.append(
                f"   pure Python estimates scale the largest size it ran by {OPS[op].scaling}"
            )
        if any(c.estimate_by_rate for c in budget_skips):
            out.append(
                "   pure Python estimates made before it had run a size come from core.budget's "
                "rate of pure-Python arithmetic, not from a measurement"
            )
        for c in result.cells:
            if c.op == op and c.status in (UNAVAILABLE, ERROR) and c.label == cases[0][0]:
                out.append(f"   {lane_title(c.lane, cores)} {c.status}: {c.note}")
            if c.op == op and c.matches_reference is False:
                out.append(
                    f"   (!) {lane_title(c.lane, cores)} at {c.label} differs from NumPy's output"
                )
    return "\n".join(out)
