"""Altair charts of the pages. Labels come in as arguments, so the charts know no language.

Encodings are typed channel objects (``alt.X("n:Q")``, ``alt.YDatum(1.0)``,
``alt.ColorValue(MUTED, condition={...})``; a fixed position is a mark property, ``x=0``), never
shorthand strings, ``alt.value``, ``alt.datum`` or ``alt.condition``: Altair converts those
through its slow ``from_dict`` (tests/test_app_robustness.py holds every page to this).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import altair as alt
import numpy as np
import pandas as pd

from transformer_walk.app.charts import grid

# A Vega-Lite spec written out as a dict (for st.vega_lite_chart), where Altair is too slow.
Spec = dict[str, Any]
VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"
# The numbers a chart draws come as NumPy arrays or plain lists: the charts only iterate them.
Vector = np.ndarray | Sequence[float]
Matrix = np.ndarray | Sequence[Vector]  # rows top to bottom

# The room a chart may take, by the column it is in (pages pass one as ``width``).
FULL, HALF, THIRD = grid.FULL, grid.HALF, grid.THIRD

HIGHLIGHT = "#e4572e"  # the key that wins the most weight
MUTED = "#8da0cb"
# For a chart with its legend under the plot: the width fits the column and the height is the
# plot's own, the legend below it. Streamlit's default, "fit", fits the whole chart, legend
# included, into the height, and a three-line legend left a 320-px chart a plot of some 80 px.
FIT_WIDTH = alt.AutoSizeParams(type="fit-x", contains="padding")


def pca_axes(frame: pd.DataFrame) -> tuple[alt.X, alt.Y]:
    """The x and y of a PCA scatter of ``frame``'s ``x``/``y`` columns: "PC 1"/"PC 2", no ticks
    (the units mean nothing), scales pinned to ``grid.padded_domain`` so that
    ``grid.free_labels``' arithmetic is the drawing."""

    def scale(column: str) -> alt.Scale:
        return alt.Scale(domain=list(grid.padded_domain(list(frame[column]))), nice=False)

    hidden = alt.Axis(labels=False, ticks=False)
    return (
        alt.X("x:Q", title="PC 1", axis=hidden, scale=scale("x")),
        alt.Y("y:Q", title="PC 2", axis=hidden, scale=scale("y")),
    )


#: Streamlit's chart theme sets ``labelFlush``: the first and last labels are pushed inside the
#: axis, which on a band axis moves row 1's label down onto row 2. Off on every axis here.
NO_FLUSH: dict[str, Any] = {"labelFlush": False}


def _superscript(expr: str) -> str:
    """A Vega expression: the text of the number ``expr`` in superscript digits (−7 → ⁻⁷)."""
    text = f"('' + {expr})"
    for plain, raised in zip("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹", strict=True):
        text = f"replace({text}, regexp('{plain}', 'g'), '{raised}')"
    return text


#: Labels of a log axis as powers of ten (10⁻⁷ … 10⁻¹, 1, 10, 10²), one notation for every tick
#: (Vega's own "0.000001" beside "1e-7" mixed two); a tick between powers keeps its plain value.
_EXPONENT = "round(log(datum.value) / LN10)"
POWER_OF_TEN_LABELS = (
    f"abs(datum.value / pow(10, {_EXPONENT}) - 1) < 1e-6"
    f" ? (datum.value == 1 ? '1' : datum.value == 10 ? '10' : '10' + {_superscript(_EXPONENT)})"
    " : format(datum.value, '~g')"
)


def y_axis(title: str, **properties: Any) -> alt.Axis:
    """The y axis of a chart titled ``title``: ``properties`` as given, the title set upright
    when it is short Chinese (``grid.upright_title``), which rotated reads sideways; labels not
    flushed (``NO_FLUSH``)."""
    return alt.Axis(**(NO_FLUSH | properties), **grid.upright_axis(title))


#: The most keys ``attention_weights`` labels every one of: turned labels 14 px apart across the
#: widest column (about 880 px) leave room for about 60.
MAX_LABELLED_KEYS = 60


def attention_weights(
    tokens: Sequence[str],
    weights: Vector,
    top_index: int,
    *,
    token_title: str,
    weight_title: str,
    stacked: bool = False,
    fmt: str = ".3f",
    texts: Sequence[str] | None = None,
) -> alt.Chart:
    """One bar per key, in sentence order, the largest weight highlighted and labelled. Bars are
    keyed by position, so a word that occurs twice keeps two bars. With ``stacked`` the labels
    ("3 · his") are set upright on two lines, the position over the word, instead of turned 90°
    past eight keys (a turned Chinese word reads sideways).

    The weights are labelled, and shown in the tooltip, in ``fmt``, or as ``texts`` (one per
    key) when the page wrote them as its sentences do (``topics.claims.percent``); the y axis
    reads in percent when ``fmt`` does."""
    keys = [f"{i}:{token}" for i, token in enumerate(tokens)]
    data = pd.DataFrame(
        {
            "key": keys,
            "token": list(tokens),
            "weight": [float(w) for w in weights],
            "text": [cell_text(float(w), fmt) for w in weights] if texts is None else list(texts),
            "top": [i == top_index for i in range(len(tokens))],
        }
    )
    strip = "join(slice(split(datum.value, ':'), 1), ':')"  # "3:dog" → "dog"
    in_percent = {"format": "%"} if fmt.endswith("%") else {}  # the axis as the labels: "40%"
    angle = 0 if len(tokens) <= 8 or stacked else -90
    # Every key is labelled while the labels fit side by side, turned; past that they would
    # print over each other (437 keys of a long text in one row), so Vega keeps those that do
    # not collide, and each bar still has its tooltip.
    overlap: Literal[False, "greedy"] = False if len(tokens) <= MAX_LABELLED_KEYS else "greedy"
    if stacked:  # "3:3 · his" → ["3", "his"]: two lines
        strip = f"split({strip}, ' · ')"
    # The page stretches the chart to its column, so the height holds the axis labels too: turned
    # labels ("352 · fisherman") took so much of it that the y title was cut short.
    height = 260 if angle == 0 else 340
    base = alt.Chart(data).encode(
        x=alt.X(
            "key:N", sort=keys, title=token_title,
            axis=alt.Axis(labelAngle=angle, labelExpr=strip, labelOverlap=overlap, **NO_FLUSH),
        ),
        # The whole [0, 1] while one weight dominates; over many keys the weights are small, and
        # a [0, 1] axis would flatten them: the axis then fits the largest.
        y=alt.Y(
            "weight:Q",
            title=weight_title,
            # a title naming a 30-letter word ran past both ends of the axis: cut with "…"
            axis=y_axis(weight_title, titleLimit=height - 40, **in_percent),
            scale=alt.Scale(domain=[0, 1]) if max(data["weight"], default=0) > 0.5 else alt.Scale(),
        ),
    )  # fmt: skip
    bars = base.mark_bar(cornerRadiusTopLeft=3, cornerRadiusTopRight=3).encode(
        color=alt.ColorValue(MUTED, condition={"test": "datum.top", "value": HIGHLIGHT}),
        tooltip=[
            alt.Tooltip("token:N", title=token_title),
            alt.Tooltip("text:N", title=weight_title),
        ],
    )
    labels = base.mark_text(dy=-8).encode(text=alt.Text("text:N"))
    if len(tokens) > 12:  # a number over every bar of a long sentence collides: the top one only
        labels = labels.transform_filter("datum.top")
    return (bars + labels).properties(height=height)


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
            y=alt.Y("seconds:Q", title=y_title, axis=y_axis(y_title), scale=alt.Scale(type="log")),
            color=alt.Color("lane:N", title=lane_title, sort=list(lane_order)),
            tooltip=[
                alt.Tooltip("lane:N", title=lane_title),
                alt.Tooltip("x:Q", title=x_title),
                alt.Tooltip("time:N", title=y_title),
            ],
        )
        .properties(height=340)
    )


def cell_text(value: float, fmt: str) -> str:
    """``value`` formatted for a cell, without the sign of a value that rounds to zero: −0.004
    printed "-0.00" beside "0.00" for +0.004."""
    text = format(value, fmt)
    if text.startswith("-") and not any(c in "123456789" for c in text):
        return text[1:]
    return text


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
    max_cell: int = grid.MAX_CELL,
    texts: Sequence[str] | None = None,
) -> Spec:
    """A labelled matrix (rows top to bottom, as printed) sized to fit ``width`` px, the column it
    is drawn in: square cells as large as fit (up to ``max_cell`` px; a wide matrix of few rows
    gets taller rows, ``grid.grid_for``), every row and column label
    shown (a smaller font or a rotation, never thinned), values printed in the cells only where
    they fit. The colour
    scale follows the data (``grid.colours_for``): sequential from 0, or diverging about 0; its
    legend reads in percent when ``fmt`` does.
    Drawn with ``st.vega_lite_chart``.

    Labels may repeat (a sentence can hold the same word twice), so rows and columns are keyed by
    position and shown by label.

    ``texts``, one per cell in row-major order, are printed in the cells and the tooltip instead
    of the values formatted with ``fmt``: a page writes its shares as its sentences do
    (``topics.claims.percent``: "99.8%", where ".0%" would print "100%"); charts know no number
    wording of their own.

    The Vega-Lite spec is written out as a dict rather than built with Altair: the pages draw
    some thirty of these per rerun, and Altair's objects and schema check would dominate the
    rerun. ``tests/test_chart_grid.py`` checks the spec against the Vega-Lite schema instead.
    """
    given_texts = texts is not None
    values = np.asarray(matrix, dtype=np.float64)
    if values.ndim != 2:
        values = values.reshape(len(row_labels), len(col_labels))  # [] → (0, 0)
    n_rows, n_cols = values.shape
    rows = [f"{i}:{label}" for i, label in enumerate(row_labels)]
    cols = [f"{j}:{label}" for j, label in enumerate(col_labels)]
    flat = values.reshape(-1)  # (rows, cols) → (rows·cols,), row-major like the cells below
    if texts is None:
        texts = [cell_text(v, fmt) for v in flat]
    elif len(texts) != flat.size:
        raise ValueError(f"{len(texts)} cell texts for a {n_rows}x{n_cols} matrix")
    # the tooltip shows the cell's own text when the page wrote it, else the value in ``fmt``
    shown = (
        {"field": "text", "type": "nominal", "title": value_title}
        if given_texts
        else {"field": "value", "type": "quantitative", "title": value_title, "format": fmt}
    )
    layout = grid.grid_for(
        n_rows,
        n_cols,
        width=width,
        row_labels=row_labels,
        col_labels=col_labels,
        values=texts,
        row_title=row_title,
        max_cell=max_cell,
    )
    colours = grid.colours_for(values, domain)
    cells = [
        {
            "row": rows[k // n_cols],
            "col": cols[k % n_cols],
            "row_label": row_labels[k // n_cols],
            "col_label": col_labels[k % n_cols],
            "value": float(v) if np.isfinite(v) else None,  # JSON has no NaN
            "text": texts[k],
        }
        for k, v in enumerate(flat)
    ]
    # "3:dog" → "dog". Vega expressions have functions, not methods. labelOverlap=False: Vega
    # would otherwise hide every other label once they crowd.
    axis = NO_FLUSH | {
        "labelExpr": "join(slice(split(datum.value, ':'), 1), ':')",
        "labelOverlap": False,
        "labelFontSize": layout.axis_font,
        "labelLimit": grid.LABEL_LIMIT,
        "titleFontSize": grid.TITLE_FONT,
    }
    x = {"field": "col", "type": "nominal", "sort": cols, "title": col_title,
         "axis": axis | {"labelAngle": layout.x_angle}}  # fmt: skip
    upright = layout.upright_y_title  # set horizontally, one word a line
    y = {"field": "row", "type": "nominal", "sort": rows,
         "title": grid.title_lines(row_title) if upright else row_title,
         "axis": axis | {"labelAngle": 0, "labelFontSize": layout.row_label_font}
         | (grid.UPRIGHT_Y_TITLE if upright else {})}  # fmt: skip
    # Under the plot and no wider than it, its title beside the bar or above it.
    legend = {"orient": "bottom", "direction": "horizontal"} | grid.legend_fit(
        layout.plot_width(n_cols), value_title, colours.domain
    )
    if fmt.endswith("%"):  # cells print shares as percents: so does the legend ("0%" … "100%")
        legend["format"] = "%"
    rects = {
        "mark": {"type": "rect"},
        "encoding": {
            "x": x,
            "y": y,
            "color": {
                "field": "value", "type": "quantitative", "title": value_title, "legend": legend,
                "scale": {"scheme": colours.scheme, "domain": list(colours.domain)},
            },
            "tooltip": [
                {"field": "row_label", "type": "nominal", "title": row_title},
                {"field": "col_label", "type": "nominal", "title": col_title},
                shown,
            ],
        },
    }  # fmt: skip
    layers = [rects]
    if layout.value_font:
        white = {"test": colours.white_text_test(), "value": "white"}
        layers.append(
            {
                "mark": {"type": "text", "fontSize": layout.value_font},
                "encoding": {
                    "x": x,
                    "y": y,
                    "text": {"field": "text", "type": "nominal"},
                    "color": {"condition": white, "value": "black"},
                },
            }
        )
    # A fixed step per cell, not a total size: the axes, titles and legend get their own room
    # instead of squeezing the matrix.
    return {
        "$schema": VEGA_LITE_SCHEMA,
        "data": {"values": cells},
        "width": {"step": layout.cell},
        "height": {"step": layout.row_height},  # taller than wide in a wide matrix of few rows
        "layer": layers,
    }
