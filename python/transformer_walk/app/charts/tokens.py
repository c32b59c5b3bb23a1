"""Altair charts of the Tokens page. Labels come in as arguments, so the charts know no language."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd


def embedding_rows(
    rows: np.ndarray,
    row_labels: Sequence[str],
    *,
    row_title: str,
    col_title: str,
    value_title: str,
    cell: int = 44,
) -> alt.Chart:
    """Embedding rows [n, d] as a diverging heatmap (blue below 0, red above), the value written
    in each cell in a colour that stays readable on both pale and saturated cells.

    Rows are keyed by position, so a token that appears twice keeps two rows.
    """
    n, d = rows.shape
    keys = [f"{i}:{label}" for i, label in enumerate(row_labels)]
    cols = [str(j + 1) for j in range(d)]
    bound = float(np.abs(rows).max()) or 1.0
    data = pd.DataFrame(
        [
            {"row": keys[i], "col": cols[j], "value": float(rows[i, j])}
            for i in range(n)
            for j in range(d)
        ]
    )
    # "3:dog (48)" → "dog (48)" (Vega expressions have functions, not methods)
    strip = "join(slice(split(datum.value, ':'), 1), ':')"
    base = alt.Chart(data).encode(
        x=alt.X("col:N", sort=cols, title=col_title, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("row:N", sort=keys, title=row_title, axis=alt.Axis(labelExpr=strip)),
    )
    rects = base.mark_rect().encode(
        color=alt.Color(
            "value:Q",
            title=value_title,
            scale=alt.Scale(scheme="redblue", domain=[-bound, bound], reverse=True),
        ),
        tooltip=[
            alt.Tooltip("row:N", title=row_title),
            alt.Tooltip("col:N", title=col_title),
            alt.Tooltip("value:Q", title=value_title, format=".3f"),
        ],
    )
    text = base.mark_text(fontSize=11).encode(
        text=alt.Text("value:Q", format=".2f"),
        # white only on the saturated half of the scale, where black would be hard to read
        color=alt.condition(
            f"abs(datum.value) > {bound / 2}", alt.value("white"), alt.value("black")
        ),
    )
    # A fixed step per cell: the axes and the legend get their own room around the matrix.
    return (rects + text).properties(width=alt.Step(cell), height=alt.Step(30))
