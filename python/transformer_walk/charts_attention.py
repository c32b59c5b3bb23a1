"""Altair charts of the Self-attention and Multi-head pages (labels come in as arguments)."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from transformer_walk.charts import HIGHLIGHT, MUTED


def diverging_heatmap(
    matrix: np.ndarray,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    *,
    row_title: str,
    col_title: str,
    value_title: str,
    fmt: str = ".2f",
    cell: int = 34,
    show_values: bool = True,
) -> alt.Chart:
    """A signed matrix (A − Aᵀ, head outputs, W^O) on a red–blue scale centred on 0, values written
    in the cells when asked and small enough."""
    rows = [f"{i}:{label}" for i, label in enumerate(row_labels)]
    cols = [f"{j}:{label}" for j, label in enumerate(col_labels)]
    data = pd.DataFrame(
        [
            {"row": rows[i], "col": cols[j], "value": float(v)}
            for i, row in enumerate(matrix)
            for j, v in enumerate(row)
        ]
    )
    extent = float(np.max(np.abs(matrix), initial=0.0)) or 1.0
    # "3:dog" → "dog". Vega expressions have no method calls (no .slice / .join on values).
    strip = "substring(datum.value, indexof(datum.value, ':') + 1)"
    base = alt.Chart(data).encode(
        x=alt.X(
            "col:N", sort=cols, title=col_title, axis=alt.Axis(labelExpr=strip, labelAngle=-40)
        ),
        y=alt.Y("row:N", sort=rows, title=row_title, axis=alt.Axis(labelExpr=strip)),
    )
    rects = base.mark_rect().encode(
        color=alt.Color(
            "value:Q",
            title=value_title,
            scale=alt.Scale(scheme="redblue", domain=[-extent, extent], domainMid=0),
        ),
        tooltip=[
            alt.Tooltip("row:N", title=row_title),
            alt.Tooltip("col:N", title=col_title),
            alt.Tooltip("value:Q", title=value_title, format=fmt),
        ],
    )
    chart = rects
    if show_values and len(rows) * len(cols) <= 400:
        # Dark cells at both ends of the scale: white text where |value| is large.
        text = base.mark_text(fontSize=11).encode(
            text=alt.Text("value:Q", format=fmt),
            color=alt.condition(
                f"abs(datum.value) > {extent / 2}", alt.value("white"), alt.value("black")
            ),
        )
        chart = rects + text
    # A step per band, not a total size: st.altair_chart overrides a chart's numeric width.
    return chart.properties(width=alt.Step(cell), height=alt.Step(cell))


def quadratic_cost(n: int, *, n_title: str, count_title: str) -> alt.Chart:
    """n² against n from 1 to a little past the user's n, the user's n marked."""
    top = max(8, 2 * n)
    ns = np.unique(np.linspace(1, top, num=min(top, 60)).round().astype(int))
    data = pd.DataFrame({"n": ns, "scores": ns * ns, "yours": ns == n})
    line = (
        alt.Chart(data)
        .mark_line(color=MUTED)
        .encode(
            x=alt.X("n:Q", title=n_title, axis=alt.Axis(format="d", tickMinStep=1)),
            y=alt.Y("scores:Q", title=count_title),
            tooltip=[alt.Tooltip("n:Q", title=n_title), alt.Tooltip("scores:Q", title=count_title)],
        )
    )
    mark = pd.DataFrame({"n": [n], "scores": [n * n]})
    point = (
        alt.Chart(mark)
        .mark_point(color=HIGHLIGHT, filled=True, size=120)
        .encode(x="n:Q", y="scores:Q")
    )
    label = (
        alt.Chart(mark)
        .mark_text(color=HIGHLIGHT, dx=8, dy=-10, align="left")
        .encode(x="n:Q", y="scores:Q", text=alt.Text("scores:Q", format=","))
    )
    return (line + point + label).properties(height=240)
