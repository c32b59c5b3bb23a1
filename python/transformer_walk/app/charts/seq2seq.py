"""Altair charts of the Seq2seq page. Labels come in as arguments: the charts know no language."""

from __future__ import annotations

import altair as alt
import pandas as pd

from transformer_walk.app.charts import FIT_WIDTH, HIGHLIGHT, MUTED, y_axis


def readback(
    frame: pd.DataFrame,
    chance: float,
    *,
    series_order: list[str],
    length_title: str,
    accuracy_title: str,
    series_title: str,
    chance_label: str,
) -> alt.Chart:
    """Read-back accuracy against the source length T, one line per series, chance dashed.

    ``frame`` has columns ``T``, ``accuracy`` (0…1) and ``series`` (display name, one of
    ``series_order``, which fixes the colours)."""
    lines = (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("T:Q", title=length_title, scale=alt.Scale(type="log", base=2, nice=False)),
            y=alt.Y("accuracy:Q", title=accuracy_title, scale=alt.Scale(domain=[0, 1]),
                    axis=y_axis(accuracy_title, format="%")),
            color=alt.Color(
                "series:N",
                title=series_title,
                scale=alt.Scale(domain=series_order, range=[HIGHLIGHT, "#f4a259", "#66a61e"]),
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=500),
            ),
            tooltip=[
                alt.Tooltip("series:N", title=series_title),
                alt.Tooltip("T:Q", title=length_title),
                alt.Tooltip("accuracy:Q", title=accuracy_title, format=".1%"),
            ],
        )
    )  # fmt: skip
    rule_data = pd.DataFrame({"chance": [chance], "label": [chance_label]})
    rule = (
        alt.Chart(rule_data).mark_rule(color=MUTED, strokeDash=[5, 4]).encode(y=alt.Y("chance:Q"))
    )
    text = (
        alt.Chart(rule_data)
        .mark_text(align="left", dx=4, dy=-6, color=MUTED, x=0)
        .encode(y=alt.Y("chance:Q"), text=alt.Text("label:N"))
    )
    return (lines + rule + text).properties(height=320, autosize=FIT_WIDTH)
