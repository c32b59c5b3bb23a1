"""Altair charts of the N-grams page. Labels come in as arguments: the charts know no language."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from transformer_walk.app.charts import FIT_WIDTH, HIGHLIGHT, MUTED, NO_FLUSH, y_axis


def continuations(
    words: Sequence[str],
    probabilities: Sequence[float],
    counts: Sequence[int],
    *,
    word_title: str,
    probability_title: str,
    count_title: str,
) -> alt.Chart:
    """Horizontal bars, most likely next word on top, each labelled with its probability."""
    data = pd.DataFrame(
        {"word": list(words), "p": [float(p) for p in probabilities], "count": list(counts)}
    )
    base = alt.Chart(data).encode(
        y=alt.Y("word:N", sort=list(words), title=word_title, axis=y_axis(word_title)),
        x=alt.X("p:Q", title=probability_title, scale=alt.Scale(domainMin=0)),
    )
    bars = base.mark_bar(color=MUTED, cornerRadiusTopRight=3, cornerRadiusBottomRight=3).encode(
        tooltip=[
            alt.Tooltip("word:N", title=word_title),
            alt.Tooltip("p:Q", title=probability_title, format=".3f"),
            alt.Tooltip("count:Q", title=count_title),
        ]
    )
    labels = base.mark_text(align="left", dx=4).encode(text=alt.Text("p:Q", format=".3f"))
    return (bars + labels).properties(height=alt.Step(28))


def sparsity(
    frame: pd.DataFrame,
    *,
    series_order: list[str],
    n_title: str,
    share_title: str,
    series_title: str,
) -> alt.Chart:
    """Share of n-grams never seen against n, one line per series.

    ``frame`` has columns ``n``, ``share`` (0…1, NaN where there is nothing to count) and
    ``series`` (display name, one of ``series_order``, which fixes the colours)."""
    data = frame.dropna(subset=["share"])
    return (
        alt.Chart(data)
        .mark_line(point=alt.OverlayMarkDef(size=70))
        .encode(
            x=alt.X("n:O", title=n_title, axis=alt.Axis(labelAngle=0, **NO_FLUSH)),
            y=alt.Y("share:Q", title=share_title, axis=y_axis(share_title, format="%")),
            color=alt.Color(
                "series:N",
                title=series_title,
                scale=alt.Scale(domain=series_order, range=[MUTED, HIGHLIGHT, "#66a61e"]),
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=500),
            ),
            tooltip=[
                alt.Tooltip("series:N", title=series_title),
                alt.Tooltip("n:O", title=n_title),
                alt.Tooltip("share:Q", title=share_title, format=".2%"),
            ],
        )
        .properties(height=300, autosize=FIT_WIDTH)
    )
