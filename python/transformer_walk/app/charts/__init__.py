"""Altair charts of the pages. Labels come in as arguments, so the charts know no language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import altair as alt
import numpy as np
import pandas as pd

# The numbers a chart draws come as NumPy arrays or plain lists: the charts only iterate them.
Vector = np.ndarray | Sequence[float]
Matrix = np.ndarray | Sequence[Vector]  # rows top to bottom
# Vega's names of the colour schemes the pages use.
Scheme = Literal["blues", "redblue"]

HIGHLIGHT = "#e4572e"  # the key that wins the most weight
MUTED = "#8da0cb"


def attention_weights(
    tokens: Sequence[str],
    weights: Vector,
    top_index: int,
    *,
    token_title: str,
    weight_title: str,
) -> alt.Chart:
    """One bar per key, in sentence order, the largest weight highlighted and labelled."""
    data = pd.DataFrame(
        {
            "token": list(tokens),
            "weight": [float(w) for w in weights],
            "top": [i == top_index for i in range(len(tokens))],
        }
    )
    base = alt.Chart(data).encode(
        x=alt.X("token:N", sort=list(tokens), title=token_title, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("weight:Q", title=weight_title, scale=alt.Scale(domain=[0, 1])),
    )
    bars = base.mark_bar(cornerRadiusTopLeft=3, cornerRadiusTopRight=3).encode(
        color=alt.condition("datum.top", alt.value(HIGHLIGHT), alt.value(MUTED)),
        tooltip=[
            alt.Tooltip("token:N", title=token_title),
            alt.Tooltip("weight:Q", title=weight_title, format=".3f"),
        ],
    )
    labels = base.mark_text(dy=-8).encode(text=alt.Text("weight:Q", format=".3f"))
    return (bars + labels).properties(height=260)


def timings(
    frame: pd.DataFrame,
    *,
    x_title: str,
    y_title: str,
    lane_title: str,
    lane_order: Sequence[str],
) -> alt.Chart:
    """Time per call against size on log–log axes, one line per lane.

    ``frame`` has columns ``x`` (the size), ``seconds`` (measured median) and ``lane`` (display
    name); only measured cells belong in it — estimates are not data.
    """
    return (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            # nice=False: keep the axes on the measured sizes instead of padding to a decade
            x=alt.X("x:Q", title=x_title, scale=alt.Scale(type="log", nice=False)),
            y=alt.Y("seconds:Q", title=y_title, scale=alt.Scale(type="log")),
            color=alt.Color("lane:N", title=lane_title, sort=list(lane_order)),
            tooltip=[
                alt.Tooltip("lane:N", title=lane_title),
                alt.Tooltip("x:Q", title=x_title),
                alt.Tooltip("time:N", title=y_title),
            ],
        )
        .properties(height=340)
    )


def heatmap(
    matrix: Matrix,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    row_title: str,
    col_title: str,
    value_title: str,
    show_values: bool = True,
    fmt: str = ".2f",
    scheme: Scheme = "blues",
    domain: tuple[float, float] | None = None,
    cell: int = 34,
) -> alt.Chart:
    """A labelled matrix (rows top to bottom, as printed), values written in the cells when small.

    Labels may repeat (a sentence can hold the same word twice), so rows and columns are keyed by
    position and shown by label.
    """
    rows = [f"{i}:{label}" for i, label in enumerate(row_labels)]
    cols = [f"{j}:{label}" for j, label in enumerate(col_labels)]
    data = pd.DataFrame(
        [
            {"row": rows[i], "col": cols[j], "value": float(v)}
            for i, row in enumerate(matrix)
            for j, v in enumerate(row)
        ]
    )
    # "3:dog" → "dog". Vega expressions have functions, not methods.
    strip = "join(slice(split(datum.value, ':'), 1), ':')"
    color_scale = (
        alt.Scale(scheme=scheme, domain=list(domain)) if domain else alt.Scale(scheme=scheme)
    )
    base = alt.Chart(data).encode(
        x=alt.X(
            "col:N", sort=cols, title=col_title, axis=alt.Axis(labelExpr=strip, labelAngle=-40)
        ),
        y=alt.Y("row:N", sort=rows, title=row_title, axis=alt.Axis(labelExpr=strip)),
    )
    rects = base.mark_rect().encode(
        color=alt.Color("value:Q", title=value_title, scale=color_scale),
        tooltip=[
            alt.Tooltip("row:N", title=row_title),
            alt.Tooltip("col:N", title=col_title),
            alt.Tooltip("value:Q", title=value_title, format=fmt),
        ],
    )
    chart = rects
    if show_values and len(rows) * len(cols) <= 400 and len(data):
        chart = rects + base.mark_text(fontSize=11).encode(
            text=alt.Text("value:Q", format=fmt),
            color=alt.condition(
                _dark_cell(data["value"], scheme, domain), alt.value("white"), alt.value("black")
            ),
        )
    # A fixed step per cell (not a fixed total size): the axes, titles and legend then get their
    # own room instead of being squeezed into the matrix's box.
    return chart.properties(width=alt.Step(cell), height=alt.Step(cell))


DIVERGING_SCHEMES = {
    "redblue",
    "blueorange",
    "redyellowblue",
    "purpleorange",
    "spectral",
    "redgrey",
}


def _dark_cell(values: pd.Series, scheme: str, domain: tuple[float, float] | None) -> str:
    """A Vega test for cells dark enough to need white text: the far end of a sequential scale,
    or both far ends of a diverging one (its middle is pale)."""
    lo, hi = domain if domain else (float(values.min()), float(values.max()))
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    if scheme in DIVERGING_SCHEMES:
        return f"abs(datum.value - {mid}) > {0.6 * half}"
    return f"datum.value > {mid}"
