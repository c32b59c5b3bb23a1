"""Altair charts of the Self-attention and Multi-head pages (labels come in as arguments)."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from transformer_walk.app.charts import HIGHLIGHT, MUTED, y_axis


def quadratic_cost(n: int, *, n_title: str, count_title: str) -> alt.Chart:
    """n² against n from 1 to a little past the user's n, the user's n marked."""
    top = max(8, 2 * n)
    ns = np.unique(np.linspace(1, top, num=min(top, 60)).round().astype(int))
    data = pd.DataFrame({"n": ns, "scores": ns * ns, "yours": ns == n})
    line = (
        alt.Chart(data)
        .mark_line(color=MUTED)
        .encode(
            x=alt.X(
                "n:Q",
                title=n_title,
                axis=alt.Axis(format="d", tickMinStep=1),
                scale=alt.Scale(domain=[1, top], nice=False),  # the curve starts at one token
            ),  # fmt: skip
            y=alt.Y("scores:Q", title=count_title, axis=y_axis(count_title)),
            tooltip=[alt.Tooltip("n:Q", title=n_title), alt.Tooltip("scores:Q", title=count_title)],
        )
    )
    mark = pd.DataFrame({"n": [n], "scores": [n * n]})
    point = (
        alt.Chart(mark)
        .mark_point(color=HIGHLIGHT, filled=True, size=120)
        .encode(x=alt.X("n:Q"), y=alt.Y("scores:Q"))
    )
    label = (
        alt.Chart(mark)
        .mark_text(color=HIGHLIGHT, dx=8, dy=-10, align="left")
        .encode(x=alt.X("n:Q"), y=alt.Y("scores:Q"), text=alt.Text("scores:Q", format=","))
    )
    # room above the plot for the top tick's label, which is centred on the tick (not flushed)
    return (line + point + label).properties(height=240, padding={"top": 12})
