"""Altair charts of the Positions and Block pages (labels come in as arguments)."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from transformer_walk.app.charts import NO_FLUSH, grid, y_axis


def _tick_values(count: int, ticks: int = 8) -> list[int]:
    step = max(1, int(np.ceil(count / ticks)))
    return list(range(0, count, step))


def index_heatmap(
    matrix: np.ndarray,
    *,
    row_title: str,
    col_title: str,
    value_title: str,
    domain: tuple[float, float] = (-1.0, 1.0),
    width: int = grid.FULL,
) -> alt.Chart:
    """A big matrix indexed by integers (positions × dimensions, positions × positions): no
    per-cell labels, a few ticks, values in the tooltip; cells as large as ``width`` allows
    (3 to 12 px), the colour scale from ``grid.colours_for``."""
    rows, cols = matrix.shape
    # Axis labels and ticks take about 8 fonts' width; an upright title its own width besides.
    upright = grid.text_width(row_title, grid.TITLE_FONT) if grid.upright_title(row_title) else 0
    cell = max(3, min(12, (width - 8 * grid.AXIS_FONT - int(upright)) // max(1, cols)))
    colours = grid.colours_for(matrix, domain)
    data = pd.DataFrame(
        {
            "row": np.repeat(np.arange(rows), cols),
            "col": np.tile(np.arange(cols), rows),
            "value": matrix.reshape(-1),  # (rows, cols) → (rows·cols,), row-major like the frame
        }
    )
    return (
        alt.Chart(data)
        .mark_rect()
        .encode(
            x=alt.X(
                "col:O",
                title=col_title,
                axis=alt.Axis(values=_tick_values(cols), labelAngle=0, **NO_FLUSH),
            ),
            y=alt.Y("row:O", title=row_title, axis=y_axis(row_title, values=_tick_values(rows))),
            color=alt.Color(
                "value:Q",
                title=value_title,
                scale=alt.Scale(scheme=colours.scheme, domain=list(colours.domain)),
            ),
            tooltip=[
                alt.Tooltip("row:O", title=row_title),
                alt.Tooltip("col:O", title=col_title),
                alt.Tooltip("value:Q", title=value_title, format=".3f"),
            ],
        )
        .properties(width=alt.Step(cell), height=alt.Step(cell))
    )


def _all_entries(count: int) -> alt.Legend:
    """A legend that lists all ``count`` series, whole labels: to the right of the plot, where it
    takes width, not the plot's height (a stretched chart fits plot and legend into its height, so
    a legend underneath squashed the plot), and in two columns past 8 entries (a taller one was
    cut off at the plot's bottom). The pages draw at most 12 series."""
    return alt.Legend(orient="right", symbolLimit=0, labelLimit=260, columns=1 if count <= 8 else 2)


def _series_colour(field: str, order: Sequence[str], count: int) -> alt.Color:
    """One colour per series, in ``order``; past 10 series a 20-colour palette, so that no two
    lines share a colour (the default has 10)."""
    scale = alt.Scale(scheme="tableau20") if count > 10 else alt.Scale()
    return alt.Color(
        f"{field}:N", title=None, sort=list(order), legend=_all_entries(count), scale=scale
    )


def lines(
    frame: pd.DataFrame,
    *,
    x: str,
    y: str,
    series: str,
    x_title: str,
    y_title: str,
    series_order: Sequence[str] | None = None,
    points: bool = False,
) -> alt.Chart:
    """One line per value of ``series`` (long-format ``frame``)."""
    return (
        alt.Chart(frame)
        .mark_line(point=points)
        .encode(
            x=alt.X(f"{x}:Q", title=x_title, axis=alt.Axis(tickMinStep=1)),
            y=alt.Y(f"{y}:Q", title=y_title, axis=y_axis(y_title)),
            color=_series_colour(series, series_order or [], frame[series].nunique()),
            tooltip=[
                alt.Tooltip(f"{series}:N"),
                alt.Tooltip(f"{x}:Q", title=x_title),
                alt.Tooltip(f"{y}:Q", title=y_title, format=".4f"),
            ],
        )  # fmt: skip
        .properties(height=280)
    )


def row_bars(
    labels: Sequence[str], values: np.ndarray, *, x_title: str, y_title: str, fmt: str = ".2e"
) -> alt.Chart:
    """One bar per token (labels may repeat, so rows are keyed by position)."""
    keys = [f"{i}:{label}" for i, label in enumerate(labels)]
    data = pd.DataFrame({"row": keys, "value": np.asarray(values, dtype=float)})
    strip = "join(slice(split(datum.value, ':'), 1), ':')"
    return (
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X("value:Q", title=x_title),
            y=alt.Y(
                "row:N",
                sort=keys,
                title=y_title,
                # labelLimit: "10 · 我（原 6）" whole, the place it came from included
                axis=y_axis(y_title, labelExpr=strip, labelOverlap=False, labelLimit=220),
            ),
            tooltip=[alt.Tooltip("value:Q", title=x_title, format=fmt)],
        )
        # Every label while they fit; a long sentence gets a fixed height (labels thinned).
        .properties(height=alt.Step(22) if len(keys) <= 30 else 640)
    )


def stage_dots(
    frame: pd.DataFrame,
    *,
    stage_order: Sequence[str],
    token_order: Sequence[str],
    y: str,
    y_title: str,
    x_title: str,
) -> alt.Chart:
    """Per-token statistic (``y``) at each stage of the block, stages left to right; columns
    ``stage``, ``token``, ``y``. LayerNorm's reset shows as all tokens landing on one value."""
    return (
        alt.Chart(frame)
        .mark_circle(size=70, opacity=0.8)
        .encode(
            x=alt.X(
                "stage:N",
                sort=list(stage_order),
                title=x_title,
                axis=alt.Axis(labelAngle=-30, labelLimit=200, labelOverlap=False, **NO_FLUSH),
            ),
            y=alt.Y(f"{y}:Q", title=y_title, axis=y_axis(y_title)),
            # In sentence order ("10 · x" after "9 · y"), every token in the legend.
            color=alt.Color(
                "token:N", title=None, sort=list(token_order), legend=_all_entries(len(token_order))
            ),
            tooltip=[
                alt.Tooltip("stage:N"),
                alt.Tooltip("token:N"),
                alt.Tooltip(f"{y}:Q", title=y_title, format=".4f"),
            ],
        )  # fmt: skip
        .properties(height=260)
    )
