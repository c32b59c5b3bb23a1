"""Altair charts of the Dimensionality page. Labels come in as arguments, so the charts know no
language."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from transformer_walk.app.charts import y_axis

INSIDE = "#8da0cb"
SHELL = "#e4572e"


def volume_shares(
    frame: pd.DataFrame,
    *,
    d_title: str,
    share_title: str,
    part_title: str,
    part_order: Sequence[str],
    marks: pd.DataFrame | None = None,
) -> alt.Chart:
    """Stacked areas of the inner cube's and the boundary layer's shares against d (log axis).

    ``frame``: columns ``d``, ``part`` (display name) and ``share``. ``marks``: optional rows
    ``d``, ``label``, ``y`` (the label's height in pixels from the top) drawn as labelled vertical
    rules (the d_model of real models, say).
    """
    x = alt.X("d:Q", title=d_title, scale=alt.Scale(type="log", nice=False))
    areas = (
        alt.Chart(frame)
        .mark_area(opacity=0.85)
        .encode(
            x=x,
            y=alt.Y(
                "share:Q",
                title=share_title,
                axis=y_axis(share_title),
                stack="zero",
                scale=alt.Scale(domain=[0, 1]),
            ),
            color=alt.Color(
                "part:N",
                title=part_title,
                sort=list(part_order),
                scale=alt.Scale(domain=list(part_order), range=[INSIDE, SHELL]),
            ),
            order=alt.Order("order:Q"),
            tooltip=[
                alt.Tooltip("d:Q", title=d_title),
                alt.Tooltip("part:N", title=part_title),
                alt.Tooltip("share:Q", title=share_title, format=".4f"),
            ],
        )
    )
    chart = areas
    if marks is not None and len(marks):
        rules = alt.Chart(marks).mark_rule(strokeDash=[4, 3], color="#333").encode(x=alt.X("d:Q"))
        labels = (
            alt.Chart(marks)
            .mark_text(align="left", dx=3, baseline="middle", fontSize=11, color="#333")
            .encode(x=alt.X("d:Q"), y=alt.Y("y:Q", scale=None), text=alt.Text("label:N"))
        )
        chart = areas + rules + labels
    return chart.properties(height=300)


def contrast_curve(
    frame: pd.DataFrame,
    *,
    d_title: str,
    contrast_title: str,
) -> alt.Chart:
    """Relative contrast against d, both axes logarithmic: the median over query points as a
    line, their min–max as a band.

    ``frame``: columns ``d``, ``median``, ``low``, ``high``.
    """
    x = alt.X("d:Q", title=d_title, scale=alt.Scale(type="log", nice=False))
    y_scale = alt.Scale(type="log")
    band = (
        alt.Chart(frame)
        .mark_area(opacity=0.25, color=SHELL)
        .encode(
            x=x,
            y=alt.Y("low:Q", scale=y_scale, title=contrast_title, axis=y_axis(contrast_title)),
            y2=alt.Y2("high:Q"),
        )
    )
    line = (
        alt.Chart(frame)
        .mark_line(point=True, color=SHELL)
        .encode(
            x=x,
            y=alt.Y("median:Q", scale=y_scale),
            tooltip=[
                alt.Tooltip("d:Q", title=d_title),
                alt.Tooltip("median:Q", title=contrast_title, format=".3f"),
            ],
        )
    )
    return (band + line).properties(height=300)


def distance_densities(
    frame: pd.DataFrame,
    *,
    x_title: str,
    y_title: str,
    d_title: str,
) -> alt.Chart:
    """One density curve per d of the distances divided by their mean.

    ``frame``: columns ``x`` (bin centre), ``density`` and ``d`` (as text, so the legend is
    categorical).
    """
    order = list(dict.fromkeys(frame["d"]))
    return (
        alt.Chart(frame)
        .mark_line(interpolate="step-after")
        .encode(
            x=alt.X("x:Q", title=x_title),
            y=alt.Y("density:Q", title=y_title, axis=y_axis(y_title)),
            color=alt.Color("d:N", title=d_title, sort=order),
            tooltip=[
                alt.Tooltip("d:N", title=d_title),
                alt.Tooltip("x:Q", title=x_title, format=".2f"),
                alt.Tooltip("density:Q", title=y_title, format=".2f"),
            ],
        )
        .properties(height=260)
    )
