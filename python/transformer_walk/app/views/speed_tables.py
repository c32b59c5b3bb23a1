"""What the Speed page shows of a ``BenchResult``: tables, chart data, highlights, the CSV.

The numbers are the benchmark's measured medians; this module only arranges and labels them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import pandas as pd

from transformer_walk.app.i18n import t
from transformer_walk.bench import (
    DEADLINE,
    ERROR,
    OK,
    OPS,
    SKIPPED,
    UNAVAILABLE,
    BenchResult,
    Cell,
    format_rate,
    format_seconds,
    format_speedup,
    tokens_per_second,
)
from transformer_walk.topics.claims import Claim, claim

PREFILL, DECODE = "smollm2_prefill", "smollm2_decode"

#: The least ratio of times the page calls "faster": a smaller gain is within what a rerun on a
#: shared machine moves (see "Why numbers vary" on the page).
FASTER = 1.1


def lane_name(lane: str, cores: int) -> str:
    return t(f"speed.lane.{lane}", cores=cores)


def cell_text(cell: Cell | None) -> str:
    if cell is None:
        return ""
    if cell.status == OK and cell.median_s is not None:
        return format_seconds(cell.median_s) + (" ⚠" if cell.matches_reference is False else "")
    if cell.status == SKIPPED and cell.skipped_for == DEADLINE:
        return t("speed.cell.deadline")
    if cell.status == SKIPPED and cell.estimate_s is not None:
        return t("speed.cell.skipped", estimate=format_seconds(cell.estimate_s))
    return t({UNAVAILABLE: "speed.cell.unavailable", ERROR: "speed.cell.error"}[cell.status])


def _lanes(result: BenchResult) -> list[str]:
    return list(result.meta["lanes"])


def medians_table(result: BenchResult, op: str) -> pd.DataFrame:
    """Sizes down, lanes across, each cell a median time (or why there is none)."""
    cores = result.meta["cores"]
    rows = {
        label: {
            lane_name(lane, cores): cell_text(result.cell(op, label, lane))
            for lane in _lanes(result)
        }
        for label, _ in result.cases(op)
    }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = t("speed.col.size")
    return frame


def measured_lanes(result: BenchResult, op: str) -> list[str]:
    """The run's lanes that measured at least one case of ``op`` (not those unavailable for it,
    such as pure Python for the models)."""
    return [lane for lane in _lanes(result) if _measured(result, op, lane)]


def speedups_table(result: BenchResult, op: str, versus: str) -> pd.DataFrame | None:
    """How many times faster each other lane ran than ``versus`` (measured medians only), for
    the lanes that measured something on ``op``.

    None when ``versus`` was not part of the run or measured nothing on ``op``.
    """
    cores = result.meta["cores"]
    lanes = measured_lanes(result, op)
    if versus not in lanes:
        return None
    others = [lane for lane in lanes if lane != versus]
    rows = {}
    for label, _ in result.cases(op):
        ups = {lane: result.speedup(op, label, lane, versus) for lane in others}
        rows[label] = {
            lane_name(lane, cores): "—" if up is None else format_speedup(up)
            for lane, up in ups.items()
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = t("speed.col.size")
    return frame


def tokens_table(result: BenchResult, op: str) -> pd.DataFrame | None:
    """Sizes down, the lanes that measured something across, each cell tokens a second
    (measured medians only); None for an op that is not a model."""
    if OPS[op].tokens is None:
        return None
    cores = result.meta["cores"]
    rows = {}
    for label, _ in result.cases(op):
        rates = {
            lane: tokens_per_second(result.cell(op, label, lane))
            for lane in measured_lanes(result, op)
        }
        rows[label] = {
            lane_name(lane, cores): "—" if rate is None else format_rate(rate)
            for lane, rate in rates.items()
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = t("speed.col.size")
    return frame


def _measured(result: BenchResult, op: str, lane: str) -> list[Cell]:
    return [
        c
        for c in result.cells
        if c.op == op and c.lane == lane and c.status == OK and c.median_s is not None
    ]


def _prompt_and_step(
    prefill: BenchResult, decode: BenchResult, lane: str
) -> tuple[Cell, Cell] | None:
    """The longest prompt ``lane`` read, and the generated step whose cached length is nearest
    it; None unless the lane measured both ops."""
    prompts, steps = _measured(prefill, PREFILL, lane), _measured(decode, DECODE, lane)
    if not prompts or not steps:
        return None
    prompt = max(prompts, key=lambda c: c.x)
    return prompt, min(steps, key=lambda c: (abs(c.x - prompt.x), c.x))


def _prompt_fields(
    prefill: BenchResult, decode: BenchResult, lane: str
) -> dict[str, object] | None:
    pair = _prompt_and_step(prefill, decode, lane)
    if pair is None:
        return None
    prompt, step = pair
    read, made = tokens_per_second(prompt), tokens_per_second(step)
    if read is None or made is None:
        return None
    return {
        "lane": lane_name(lane, prefill.meta["cores"]),
        "n": prompt.x,
        "past": step.x,
        "prefill": format_rate(read),
        "decode": format_rate(made),
        "ratio": format_speedup(read / made),
        "faster": read / made >= FASTER,
    }


def _prompt_holds(said: Claim, prefill: BenchResult, decode: BenchResult, lane: str) -> bool:
    fields = _prompt_fields(prefill, decode, lane)
    if fields is None:
        return False
    faster = fields.pop("faster")
    message = "speed.tokens.versus" if faster else "speed.tokens.versus_slower"
    if not faster:
        fields["threshold"] = format_speedup(FASTER)
    return said.message == message and dict(said.fields) == fields


@claim(_prompt_holds)
def prompt_versus_generation(prefill: BenchResult, decode: BenchResult, lane: str) -> Claim | None:
    """Tokens a second reading ``lane``'s longest prompt against generating after the cached
    length nearest that prompt: "as many tokens a second together" only from ``FASTER`` on,
    else that the prompt was not clearly faster. None unless the lane ran both ops."""
    fields = _prompt_fields(prefill, decode, lane)
    if fields is None:
        return None
    if fields.pop("faster"):
        return Claim("speed.tokens.versus", fields)
    return Claim("speed.tokens.versus_slower", {**fields, "threshold": format_speedup(FASTER)})


def prefill_vs_decode(prefill: BenchResult, decode: BenchResult) -> list[Claim]:
    """One claim per lane that ran both SmolLM2 ops (``prompt_versus_generation``)."""
    said = [prompt_versus_generation(prefill, decode, lane) for lane in prefill.meta["lanes"]]
    return [claim for claim in said if claim is not None]


def chart_frame(result: BenchResult, op: str) -> pd.DataFrame:
    """Measured cells only (x, seconds, lane, time text): estimates are not plotted."""
    cores = result.meta["cores"]
    records = [
        {
            "x": cell.x,
            "seconds": cell.median_s,
            "lane": lane_name(cell.lane, cores),
            "time": format_seconds(cell.median_s),
        }
        for cell in result.cells
        if cell.op == op and cell.status == OK and cell.median_s
    ]
    return pd.DataFrame(records, columns=["x", "seconds", "lane", "time"])


@dataclass(frozen=True)
class Highlight:
    label: str  # "Rust · 1 thread vs NumPy"
    value: str  # "3.20×"
    size: str  # the case it was measured at


def highlights(result: BenchResult, op: str) -> list[Highlight]:
    """Speed-ups at the largest size both lanes measured, for a row of metrics."""
    cores = result.meta["cores"]
    pairs = [
        ("numpy", "python"),
        ("rust-1", "numpy"),
        ("rust-all", "numpy"),
        ("rust-all", "python"),
    ]
    found = []
    for lane, versus in pairs:
        for label, _ in reversed(result.cases(op)):
            up = result.speedup(op, label, lane, versus)
            if up is not None:
                title = t(
                    "speed.highlight", lane=lane_name(lane, cores), versus=lane_name(versus, cores)
                )
                found.append(Highlight(title, format_speedup(up), label))
                break
    return found


def measured_at(result: BenchResult) -> str:
    """'2026-01-31 12:00:00' from the ISO timestamp in the metadata."""
    return str(result.meta["finished_at"]).replace("T", " ").removesuffix("+00:00")


def any_skipped(result: BenchResult, op: str, why: str, *, by_rate: bool = False) -> bool:
    """Whether a cell of ``op`` was skipped for ``why`` (``bench.BUDGET`` or ``bench.DEADLINE``)
    on an estimate scaled from a measured size, or with ``by_rate`` on ``core.budget``'s rate
    before pure Python had run any (``OpSpec.python_call_s``): the page explains each apart."""
    return any(
        c.op == op
        and c.status == SKIPPED
        and c.skipped_for == why
        and c.estimate_by_rate == by_rate
        for c in result.cells
    )


def mismatches(result: BenchResult, op: str) -> list[Cell]:
    """Cells whose output differed from NumPy's (a backend bug worth seeing)."""
    return [c for c in result.cells if c.op == op and c.matches_reference is False]


def problems(result: BenchResult, op: str) -> list[Cell]:
    """The first unavailable or failing cell of each lane (one explanation per lane)."""
    first: dict[str, Cell] = {}
    for c in result.cells:
        if c.op == op and c.status in (UNAVAILABLE, ERROR):
            first.setdefault(c.lane, c)
    return list(first.values())


def x_title(op: str) -> str:
    return t(f"speed.axis.{OPS[op].axis}")


def csv_frame(result: BenchResult) -> pd.DataFrame:
    """Every cell, untranslated, for download (samples as a space-separated list)."""
    records = []
    for cell in result.cells:
        record = asdict(cell)
        sizes = record.pop("sizes")
        record["samples_s"] = " ".join(f"{s:.9g}" for s in cell.samples_s)
        record.update({f"size_{k}": v for k, v in sizes.items()})
        records.append(record)
    return pd.DataFrame(records)


def csv_bytes(result: BenchResult) -> bytes:
    return csv_frame(result).to_csv(index=False).encode("utf-8")


# --- What the race says about threads ----------------------------------------------------------


def thread_speedups(result: BenchResult, op: str) -> list[tuple[str, float]]:
    """(size, one thread's time ÷ all threads' time) at every size where both Rust lanes
    measured ``op``, in run order: above 1 the threads helped."""
    ups = [
        (label, result.speedup(op, label, "rust-all", "rust-1")) for label, _ in result.cases(op)
    ]
    return [(label, up) for label, up in ups if up is not None]


def _span(ups: list[float]) -> str:
    """The ratios as the page shows them: one ("1.84×"), or the least and the most
    ("0.71×–0.95×")."""
    low, high = format_speedup(min(ups)), format_speedup(max(ups))
    return low if low == high else f"{low}–{high}"


def _threads_said(result: BenchResult, op: str) -> Claim | None:
    pairs = thread_speedups(result, op)
    if not pairs:
        return None
    cores = int(result.meta["cores"])
    if cores < 2:
        return Claim("speed.threads.one_core", {"cores": cores})
    helped = [(label, up) for label, up in pairs if up >= FASTER]
    other = [(label, up) for label, up in pairs if up < FASTER]
    fields: dict[str, object] = {"cores": cores, "threshold": format_speedup(FASTER)}
    if not helped:
        return Claim("speed.threads.no_help", {**fields, "span": _span([u for _, u in other])})
    if not other:
        return Claim("speed.threads.helped", {**fields, "span": _span([u for _, u in helped])})
    return Claim(
        "speed.threads.mixed",
        {
            **fields,
            "helped": [label for label, _ in helped],
            "span": _span([u for _, u in helped]),
            "other": [label for label, _ in other],
            "other_span": _span([u for _, u in other]),
        },
    )


def _threads_hold(said: Claim, result: BenchResult, op: str) -> bool:
    """Each field against the measured medians: the cores the run had, the sizes on each side of
    ``FASTER``, and the span of one thread's time ÷ all threads' time on that side."""
    ups = dict(thread_speedups(result, op))
    cores = int(result.meta["cores"])
    if not ups or said.fields.get("cores") != cores:
        return False
    if said.message == "speed.threads.one_core":
        return cores < 2 and set(said.fields) == {"cores"}
    if cores < 2 or said.fields.get("threshold") != format_speedup(FASTER):
        return False
    helped = [label for label, up in ups.items() if up >= FASTER]
    other = [label for label in ups if label not in helped]
    shown = {
        "speed.threads.helped": (helped, []),
        "speed.threads.no_help": ([], other),
        "speed.threads.mixed": (said.fields.get("helped"), said.fields.get("other")),
    }.get(said.message)
    if shown is None or shown != (helped, other):
        return False
    mixed = said.message == "speed.threads.mixed"
    spans = {"span": helped or other} | ({"other_span": other} if mixed else {})
    keys = {"cores", "threshold"} | set(spans) | ({"helped", "other"} if mixed else set())
    return set(said.fields) == keys and all(
        said.fields[key] == _span([ups[label] for label in labels]) for key, labels in spans.items()
    )


@claim(_threads_hold)
def threads(result: BenchResult, op: str) -> Claim | None:
    """What the run shows of Rust on all threads against Rust on one, size by size: faster (by
    at least ``FASTER``) at every size, at some, or at none; that one core leaves nothing to
    compare; None when the two lanes never both measured ``op``."""
    return _threads_said(result, op)
