"""Altair charts of the One-hot page. Labels come in as arguments, so the charts know no
language."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from transformer_walk.app.charts import y_axis
from transformer_walk.app.charts.grid import AXIS_FONT

HOT = "#e4572e"
COLD = "#eef1f6"


def one_hot_grid(
    tokens: Sequence[str],
    ids: Sequence[int],
    vocab_size: int,
    *,
    token_title: str,
    column_title: str,
) -> alt.Chart:
    """The [n, |V|] one-hot matrix as a sea of zeros with one lit cell per row.

    Only the n ones are data (a full n × |V| cell grid would exceed what a browser draws well);
    the zeros are one background band per row.
    """
    rows = [f"{i}:{token}" for i, token in enumerate(tokens)]
    hot = pd.DataFrame(
        {
            "row": rows,
            "token": list(tokens),
            "id": [int(i) for i in ids],
            "id_end": [int(i) + 1 for i in ids],
        }
    )
    band = pd.DataFrame({"row": rows, "start": 0, "end": vocab_size})
    # "3:dog" → "dog" (Vega expressions have functions, not methods)
    strip = "join(slice(split(datum.value, ':'), 1), ':')"
    y = alt.Y("row:N", sort=rows, title=token_title, axis=y_axis(token_title, labelExpr=strip))
    x_scale = alt.Scale(domain=[0, vocab_size], nice=False)
    zeros = (
        alt.Chart(band)
        .mark_rect(color=COLD, stroke="white", strokeWidth=1)
        .encode(x=alt.X("start:Q", scale=x_scale, title=column_title), x2=alt.X2("end:Q"), y=y)
    )
    ones = (
        alt.Chart(hot)
        .mark_rect(color=HOT, stroke=HOT, strokeWidth=1.5)
        .encode(
            x=alt.X("id:Q", scale=x_scale),
            x2=alt.X2("id_end:Q"),
            y=y,
            tooltip=[
                alt.Tooltip("token:N", title=token_title),
                alt.Tooltip("id:Q", title=column_title),
            ],
        )
    )
    # A fixed step per row (a fixed total height would squeeze the rows and their labels).
    return (zeros + ones).properties(height=alt.Step(22))


def race_bars(
    frame: pd.DataFrame,
    *,
    route_title: str,
    part_title: str,
    time_title: str,
) -> alt.Chart:
    """Horizontal stacked bars of measured time per route, each with its total written at its
    end (log would hide the stacking, so the axis is linear; on it the lookup's bar is a sliver
    and its number is what the reader reads).

    ``frame`` has columns ``route``, ``part`` (what the time was spent on, in the order the work
    happens), ``ms``, ``label`` (the part's time) and ``total`` (its route's time, as text).
    """
    routes = list(dict.fromkeys(frame["route"]))
    parts = list(dict.fromkeys(frame["part"]))
    data = frame.assign(step=[parts.index(p) for p in frame["part"]])
    y = alt.Y("route:N", sort=routes, title=route_title, axis=y_axis(route_title))
    longest = float(data.groupby("route")["ms"].sum().max())
    room = alt.Scale(domain=[0.0, 1.3 * longest])  # room right of the longest bar for its total
    bars = (
        alt.Chart(data)
        .mark_bar()
        .encode(
            y=y,
            x=alt.X("ms:Q", title=time_title, stack="zero", scale=room),
            # colour and stack in the order of the work, whatever the language's sort order
            color=alt.Color("part:N", title=part_title, sort=parts, scale=alt.Scale(domain=parts)),
            order=alt.Order("step:Q"),
            tooltip=[
                alt.Tooltip("route:N", title=route_title),
                alt.Tooltip("part:N", title=part_title),
                alt.Tooltip("label:N", title=time_title),
            ],
        )
    )
    totals = data.groupby("route", sort=False).agg(ms=("ms", "sum"), total=("total", "first"))
    ends = (
        alt.Chart(totals.reset_index())
        .mark_text(align="left", dx=4, fontSize=AXIS_FONT)
        .encode(y=y, x=alt.X("ms:Q"), text=alt.Text("total:N"))
    )
    return (bars + ends).properties(height=120)
