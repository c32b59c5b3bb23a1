"""Altair charts of the Embeddings page. Labels come in as arguments: charts know no language."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from transformer_walk.app.charts import FIT_WIDTH, HIGHLIGHT, grid, pca_axes, y_axis

MAP_HEIGHT = 420  # px of the scatter's plot
PLOT_MARGIN = 40  # px of a scatter's width taken by its y title and paddings, not the plot


def loss_curve(losses: Sequence[float], *, epoch_title: str, loss_title: str) -> alt.Chart:
    """Mean loss per (centre, context) pair against the epoch; epoch 0 is before training."""
    data = pd.DataFrame({"epoch": list(range(len(losses))), "loss": [float(x) for x in losses]})
    base = alt.Chart(data).encode(
        x=alt.X("epoch:Q", title=epoch_title, axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("loss:Q", title=loss_title, axis=y_axis(loss_title), scale=alt.Scale(zero=True)),
        tooltip=[
            alt.Tooltip("epoch:Q", title=epoch_title),
            alt.Tooltip("loss:Q", title=loss_title, format=".3f"),
        ],
    )
    return (
        base.mark_line(color=HIGHLIGHT) + base.mark_point(color=HIGHLIGHT, filled=True)
    ).properties(height=260)


def word_map(
    frame: pd.DataFrame,
    *,
    title: str,
    category_title: str,
    category_order: Sequence[str],
    highlight: Sequence[str] = (),
    width: int = grid.HALF,
) -> alt.Chart:
    """A 2-D scatter of words coloured by category, labelled where the labels do not collide
    (``grid.free_labels``; every word keeps its tooltip).

    ``frame`` has columns ``x``, ``y``, ``word`` and ``category`` (display name); words in
    ``highlight`` (the learner's sentence) are drawn larger, in bold, and always labelled."""
    mine = frame["word"].isin(list(highlight))
    labelled = grid.free_labels(
        list(frame["x"]), list(frame["y"]), list(frame["word"]),
        width=width - PLOT_MARGIN, height=MAP_HEIGHT, first=[i for i, m in enumerate(mine) if m],
    )  # fmt: skip
    data = frame.assign(mine=mine, labelled=labelled)
    x, y = pca_axes(frame)
    base = alt.Chart(data, title=title).encode(
        x=x,
        y=y,
        color=alt.Color(
            "category:N",
            title=category_title,
            sort=list(category_order),
            scale=alt.Scale(scheme="tableau10"),
            legend=alt.Legend(orient="bottom", columns=4),
        ),
        tooltip=[alt.Tooltip("word:N"), alt.Tooltip("category:N", title=category_title)],
    )
    points = base.mark_circle(opacity=0.85).encode(
        size=alt.SizeValue(50, condition={"test": "datum.mine", "value": 160})
    )
    # fontWeight is a mark property, not a channel: one text layer per weight
    labels = base.mark_text(align="left", dx=5, dy=-3, fontSize=11).encode(text=alt.Text("word:N"))
    bold = base.mark_text(align="left", dx=6, dy=-4, fontSize=13, fontWeight="bold")
    # the learner's words are labelled even among other dots: a white outline drawn under each
    # keeps those dots from cutting into the letters
    halo = base.mark_text(
        align="left", dx=6, dy=-4, fontSize=13, fontWeight="bold", stroke="white",
        strokeWidth=4, strokeJoin="round", color="white",
    )  # fmt: skip
    return (
        points
        + labels.transform_filter("!datum.mine && datum.labelled")
        + halo.encode(text=alt.Text("word:N")).transform_filter("datum.mine")
        + bold.encode(text=alt.Text("word:N")).transform_filter("datum.mine")
    ).properties(height=MAP_HEIGHT, autosize=FIT_WIDTH)
