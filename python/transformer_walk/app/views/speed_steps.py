"""What the Speed page shows of a training-step race: steps a second, and each lane against
NumPy in words (``steps_versus_numpy``). The numbers are the race's measured medians."""

from __future__ import annotations

import pandas as pd

from transformer_walk.app.i18n import t
from transformer_walk.app.views.speed_tables import FASTER, lane_name, measured_lanes
from transformer_walk.bench import (
    OPS,
    REFERENCE_LANE,
    BenchResult,
    format_rate,
    format_speedup,
    steps_per_second,
)
from transformer_walk.topics.claims import Claim, claim


def steps_table(result: BenchResult, op: str) -> pd.DataFrame | None:
    """Sizes down, the lanes that measured something across, each cell steps a second (measured
    medians only); None for an op whose call is not a counted step."""
    if OPS[op].rate_of is None:
        return None
    cores = result.meta["cores"]
    rows = {}
    for label, _ in result.cases(op):
        rates = {
            lane: steps_per_second(result.cell(op, label, lane))
            for lane in measured_lanes(result, op)
        }
        rows[label] = {
            lane_name(lane, cores): "—" if rate is None else format_rate(rate)
            for lane, rate in rates.items()
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = t("speed.col.size")
    return frame


def _fields(result: BenchResult, op: str, lane: str) -> dict[str, object] | None:
    """The largest size where ``lane`` and NumPy both measured a step: both rates, their ratio
    and whether it reaches ``FASTER``; None where they never both did."""
    if lane == REFERENCE_LANE or OPS[op].rate_of is None:
        return None
    for label, _ in reversed(result.cases(op)):
        mine = steps_per_second(result.cell(op, label, lane))
        numpy = steps_per_second(result.cell(op, label, REFERENCE_LANE))
        if mine is not None and numpy is not None:
            return {
                "lane": lane_name(lane, result.meta["cores"]),
                "size": label,
                "rate": format_rate(mine),
                "numpy": format_rate(numpy),
                "ratio": format_speedup(mine / numpy),
                "faster": mine / numpy >= FASTER,
            }
    return None


def _holds(said: Claim, result: BenchResult, op: str, lane: str) -> bool:
    fields = _fields(result, op, lane)
    if fields is None:
        return False
    faster = fields.pop("faster")
    if not faster:
        fields["threshold"] = format_speedup(FASTER)
    message = "speed.steps.faster" if faster else "speed.steps.not_faster"
    return said.message == message and dict(said.fields) == fields


@claim(_holds)
def steps_versus_numpy(result: BenchResult, op: str, lane: str) -> Claim | None:
    """``lane``'s training steps a second against NumPy's at the largest size both measured:
    "as many" from ``FASTER`` on, else under what the page counts as faster. None for NumPy
    itself, for an op whose call is not a step, and where the two never both measured."""
    fields = _fields(result, op, lane)
    if fields is None:
        return None
    if fields.pop("faster"):
        return Claim("speed.steps.faster", fields)
    return Claim("speed.steps.not_faster", {**fields, "threshold": format_speedup(FASTER)})


def steps_said(result: BenchResult, op: str) -> list[Claim]:
    """One claim per lane that measured a step beside NumPy (``steps_versus_numpy``)."""
    said = [steps_versus_numpy(result, op, lane) for lane in result.meta["lanes"]]
    return [claim for claim in said if claim is not None]
