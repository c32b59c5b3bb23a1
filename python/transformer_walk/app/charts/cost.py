"""Altair charts of the Cost page: quantities against n on log–log axes, one line per series."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from transformer_walk.app.charts import y_axis


def loglog_lines(
    frame: pd.DataFrame,
    *,
    x_title: str,
    y_title: str,
    series_title: str,
    series_order: Sequence[str],
    points: bool = True,
    marker_x: float | None = None,
    marker_label: str = "",
) -> alt.LayerChart | alt.Chart:
    """``frame`` has columns ``x``, ``y`` (both > 0) and ``series``; log scales on both axes
    (a power law y ∝ x^p is then a straight line of slope p). ``marker_x`` draws a vertical
    rule there, e.g. where two curves cross."""
    base = (
        alt.Chart(frame)
        .mark_line(point=points)
        .encode(
            x=alt.X("x:Q", title=x_title, scale=alt.Scale(type="log", nice=False)),
            y=alt.Y("y:Q", title=y_title, axis=y_axis(y_title), scale=alt.Scale(type="log")),
            color=alt.Color("series:N", title=series_title, sort=list(series_order)),
            tooltip=[
                alt.Tooltip("series:N", title=series_title),
                alt.Tooltip("x:Q", title=x_title),
                alt.Tooltip("y:Q", title=y_title, format=".3~g"),
            ],
        )
        .properties(height=320)
    )
    if marker_x is None:
        return base
    rule_data = pd.DataFrame({"x": [marker_x], "label": [marker_label]})
    rule = alt.Chart(rule_data).mark_rule(strokeDash=[4, 4], color="#6b7280").encode(x=alt.X("x:Q"))
    text = (
        alt.Chart(rule_data)
        .mark_text(align="left", dx=4, dy=-140, color="#374151")
        .encode(x=alt.X("x:Q"), text=alt.Text("label:N"))
    )
    return alt.LayerChart(layer=[base, rule, text])
