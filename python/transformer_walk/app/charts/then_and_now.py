"""Altair charts of the 2017 vs today page (every word comes in as an argument)."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

from transformer_walk.app.charts import y_axis


def offset_dots(
    starts: np.ndarray,
    lanes: dict[str, np.ndarray],
    *,
    x_title: str,
    y_title: str,
    lane_title: str,
) -> alt.Chart:
    """q·k against the key's position p, one line per way of giving positions."""
    frame = pd.DataFrame(
        [
            {"p": int(p), "dot": float(v), "lane": lane}
            for lane, values in lanes.items()
            for p, v in zip(starts, values, strict=True)
        ]
    )
    return (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("p:Q", title=x_title),
            y=alt.Y("dot:Q", title=y_title, axis=y_axis(y_title)),
            color=alt.Color("lane:N", title=lane_title, sort=list(lanes)),
            tooltip=[
                alt.Tooltip("lane:N", title=lane_title),
                alt.Tooltip("p:Q", title=x_title),
                alt.Tooltip("dot:Q", title=y_title, format=".4f"),
            ],
        )
        .properties(height=260)
    )


def histogram(counts: np.ndarray, edges: np.ndarray, *, x_title: str, y_title: str) -> alt.Chart:
    """Bars of ``counts`` over the bins between ``edges`` ([bins + 1])."""
    frame = pd.DataFrame({"lo": edges[:-1], "hi": edges[1:], "count": counts})
    return (
        alt.Chart(frame)
        .mark_bar()
        .encode(
            x=alt.X("lo:Q", title=x_title, bin="binned"),
            x2=alt.X2("hi"),  # typed: a shorthand string goes through Altair's slow from_dict
            y=alt.Y("count:Q", title=y_title, axis=y_axis(y_title)),
            tooltip=[
                alt.Tooltip("lo:Q", title=x_title, format=".3f"),
                alt.Tooltip("count:Q", title=y_title),
            ],
        )
        .properties(height=240)
    )
