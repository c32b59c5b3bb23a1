"""Altair charts of the pages. Labels come in as arguments, so the charts know no language."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from transformer_walk.app.charts import grid

# The numbers a chart draws come as NumPy arrays or plain lists: the charts only iterate them.
Vector = np.ndarray | Sequence[float]
Matrix = np.ndarray | Sequence[Vector]  # rows top to bottom

# The room a chart may take, by the column it is in (pages pass one as ``width``).
FULL, HALF, THIRD = grid.FULL, grid.HALF, grid.THIRD

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
    """One bar per key, in sentence order, the largest weight highlighted and labelled. Bars are
    keyed by position, so a word that occurs twice keeps two bars."""
    keys = [f"{i}:{token}" for i, token in enumerate(tokens)]
    data = pd.DataFrame(
        {
            "key": keys,
            "token": list(tokens),
            "weight": [float(w) for w in weights],
            "top": [i == top_index for i in range(len(tokens))],
        }
    )
    strip = "join(slice(split(datum.value, ':'), 1), ':')"  # "3:dog" → "dog"
    angle = 0 if len(tokens) <= 8 else -90
    base = alt.Chart(data).encode(
        x=alt.X(
            "key:N", sort=keys, title=token_title,
            axis=alt.Axis(labelAngle=angle, labelExpr=strip, labelOverlap=False),
        ),
        y=alt.Y("weight:Q", title=weight_title, scale=alt.Scale(domain=[0, 1])),
    )  # fmt: skip
    bars = base.mark_bar(cornerRadiusTopLeft=3, cornerRadiusTopRight=3).encode(
        color=alt.condition("datum.top", alt.value(HIGHLIGHT), alt.value(MUTED)),
        tooltip=[
            alt.Tooltip("token:N", title=token_title),
            alt.Tooltip("weight:Q", title=weight_title, format=".3f"),
        ],
    )
    labels = base.mark_text(dy=-8).encode(text=alt.Text("weight:Q", format=".3f"))
    if len(tokens) > 12:  # a number over every bar of a long sentence collides: the top one only
        labels = labels.transform_filter("datum.top")
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
    fmt: str = ".2f",
    domain: tuple[float, float] | None = None,
    width: int = grid.FULL,
) -> alt.LayerChart:
    """A labelled matrix (rows top to bottom, as printed) sized to fit ``width`` px, the column it
    is drawn in: square cells as large as fit, every row and column label shown (a smaller font
    or a rotation, never thinned), values printed in the cells only where they fit. The colour
    scale follows the data (``grid.colours_for``): sequential from 0, or diverging about 0.

    Labels may repeat (a sentence can hold the same word twice), so rows and columns are keyed by
    position and shown by label.
    """
    values = np.asarray(matrix, dtype=np.float64)
    if values.ndim != 2:
        values = values.reshape(len(row_labels), len(col_labels))  # [] → (0, 0)
    n_rows, n_cols = values.shape
    rows = [f"{i}:{label}" for i, label in enumerate(row_labels)]
    cols = [f"{j}:{label}" for j, label in enumerate(col_labels)]
    texts = [format(v, fmt) for v in values.reshape(-1)]  # (rows, cols) → (rows·cols,) row-major
    layout = grid.grid_for(
        n_rows, n_cols, width=width, row_labels=row_labels, col_labels=col_labels, values=texts
    )
    colours = grid.colours_for(values, domain)
    data = pd.DataFrame(
        {
            "row": np.repeat(rows, n_cols),
            "col": np.tile(cols, n_rows),
            "row_label": np.repeat(list(row_labels), n_cols),
            "col_label": np.tile(list(col_labels), n_rows),
            "value": values.reshape(-1),  # (rows, cols) → (rows·cols,), row-major like the keys
            "text": texts,
        }
    )
    # "3:dog" → "dog". Vega expressions have functions, not methods.
    strip = "join(slice(split(datum.value, ':'), 1), ':')"

    def axis(angle: int = 0) -> alt.Axis:
        # labelOverlap=False: Vega would otherwise hide every other label once they crowd.
        return alt.Axis(
            labelExpr=strip, labelOverlap=False, labelFontSize=layout.axis_font,
            labelLimit=grid.LABEL_LIMIT, titleFontSize=grid.AXIS_FONT + 1, labelAngle=angle,
        )  # fmt: skip

    x = alt.X("col:N", sort=cols, title=col_title, axis=axis(layout.x_angle))
    y = alt.Y("row:N", sort=rows, title=row_title, axis=axis())
    legend = alt.Legend(
        orient="bottom", direction="horizontal", titleOrient="left",
        # No wider than the plot (less the title beside it), so the legend never widens the chart.
        gradientLength=grid.legend_length(layout.plot_width(n_cols), value_title),
    )  # fmt: skip
    rects = (
        alt.Chart()
        .mark_rect()
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "value:Q",
                title=value_title,
                legend=legend,
                scale=alt.Scale(scheme=colours.scheme, domain=list(colours.domain)),
            ),
            tooltip=[
                alt.Tooltip("row_label:N", title=row_title),
                alt.Tooltip("col_label:N", title=col_title),
                alt.Tooltip("value:Q", title=value_title, format=fmt),
            ],
        )
    )
    layers: list[alt.Chart] = [rects]
    if layout.value_font:
        layers.append(
            alt.Chart()
            .mark_text(fontSize=layout.value_font)
            .encode(
                x=x,
                y=y,
                text="text:N",
                color=alt.condition(
                    colours.white_text_test(), alt.value("white"), alt.value("black")
                ),
            )
        )
    # One data set for both layers, given to the layer: Altair then has no sub-chart data to
    # compare (it hashes a frame by printing it). A fixed step per cell, not a total size: the
    # axes, titles and legend get their own room instead of squeezing the matrix.
    return alt.LayerChart(
        layer=layers, data=data, width=alt.Step(layout.cell), height=alt.Step(layout.cell)
    )
