"""Altair charts of the RNN/CNN page. Labels come in as arguments: the charts know no language."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from transformer_walk.app.charts import (
    HIGHLIGHT,
    MUTED,
    NO_FLUSH,
    POWER_OF_TEN_LABELS,
    Vector,
    grid,
    y_axis,
)

GRID_AXIS_ROOM = 70  # px of a coverage grid's width taken by its y axis, title and padding


def rnn_chain(
    tokens: Sequence[str],
    log10_sensitivity: Vector,
    *,
    color_title: str,
    more: str | None = None,
) -> alt.LayerChart:
    """x_t → h_t and h_{t−1} → h_t drawn as a chain: tokens below, states above, each state coloured
    by log₁₀ ‖∂h_t/∂x_1‖. ``more`` labels a trailing "…" node when the chain was cut short."""
    m = len(tokens)
    nodes = pd.DataFrame(
        {
            "t": list(range(m)),
            "token": list(tokens),
            "state": [f"h{_subscript(t + 1)}" for t in range(m)],
            "log10": [float(v) if np.isfinite(v) else None for v in log10_sensitivity],
        }
    )
    up = pd.DataFrame({"t": range(m), "y0": 0.22, "y1": 0.82})  # x_t → h_t
    across = pd.DataFrame({"t": range(m - 1), "t1": [t + 0.75 for t in range(m - 1)]})  # h → h
    x_scale = alt.Scale(domain=[-0.6, m - 0.4 + (0.8 if more else 0)])
    x = alt.X("t:Q", axis=None, scale=x_scale)
    y_scale = alt.Scale(domain=[-0.05, 1.45])
    rules_up = (
        alt.Chart(up)
        .mark_rule(color=MUTED, strokeWidth=2)
        .encode(x=x, y=alt.Y("y0:Q", axis=None, scale=y_scale), y2=alt.Y2("y1:Q"))
    )
    rules_across = (
        alt.Chart(across)
        .mark_rule(color=MUTED, strokeWidth=2)
        .encode(x=x, x2=alt.X2("t1:Q"), y=alt.YDatum(1.0))
    )
    arrow_heads = (
        alt.Chart(across.assign(mid=[t + 0.72 for t in range(m - 1)]))
        .mark_point(shape="triangle-right", filled=True, size=70, color=MUTED)
        .encode(x=alt.X("mid:Q", axis=None, scale=x_scale), y=alt.YDatum(1.0))
    )
    states = (
        alt.Chart(nodes)
        .mark_circle(size=900, stroke="#333", strokeWidth=1)
        .encode(
            x=x,
            y=alt.YDatum(1.0),
            color=alt.Color(
                "log10:Q", title=color_title, scale=alt.Scale(scheme="viridis"), legend=None
            ),
            tooltip=[
                alt.Tooltip("state:N", title="h"),
                alt.Tooltip("token:N", title="x"),
                alt.Tooltip("log10:Q", title=color_title, format=".2f"),
            ],
        )
    )
    state_labels = (
        alt.Chart(nodes)
        .mark_text(fontSize=13, fontWeight="bold", baseline="bottom")
        .encode(x=x, y=alt.YDatum(1.22), text=alt.Text("state:N"))
    )
    token_labels = (
        alt.Chart(nodes)
        .mark_text(fontSize=13, baseline="top")
        .encode(x=x, y=alt.YDatum(0.15), text=alt.Text("token:N"))
    )
    layers = [rules_up, rules_across, arrow_heads, states, state_labels, token_labels]
    if more:
        tail = pd.DataFrame({"t": [m - 0.1], "text": [more]})
        layers.append(
            alt.Chart(tail)
            .mark_text(fontSize=13, align="left")
            .encode(x=x, y=alt.YDatum(1.0), text=alt.Text("text:N"))
        )
    return alt.LayerChart(layer=layers).properties(height=120, width=max(240, 80 * m))


def sensitivity(
    frame: pd.DataFrame, *, x_title: str, y_title: str, series_title: str, series: Sequence[str]
) -> alt.Chart:
    """‖∂h_t/∂x_1‖ against t on a log axis. ``frame`` has t, norm, token, series; ``series`` is
    (your sentence, the sentence repeated, the reference without tanh), the last drawn dashed."""
    sentence, repeat, reference = series
    color = alt.Color(
        "series:N",
        title=series_title,
        sort=list(series),
        scale=alt.Scale(domain=list(series), range=[HIGHLIGHT, MUTED, "#999999"]),
        legend=alt.Legend(orient="right", labelLimit=280),
    )
    base = alt.Chart(frame).encode(
        x=alt.X("t:Q", title=x_title, scale=alt.Scale(nice=False)),
        y=alt.Y(
            "norm:Q",
            title=y_title,
            axis=y_axis(y_title, labelExpr=POWER_OF_TEN_LABELS),
            scale=alt.Scale(type="log"),
        ),  # fmt: skip
    )
    tanh = base.transform_filter(alt.FieldOneOfPredicate(field="series", oneOf=[sentence, repeat]))
    line = tanh.mark_line(color=MUTED)
    points = tanh.mark_circle(size=45).encode(
        color=color,
        tooltip=[
            alt.Tooltip("t:Q", title=x_title),
            alt.Tooltip("token:N", title="x_t"),
            alt.Tooltip("norm:Q", title=y_title, format=".3e"),
        ],
    )
    ref = (
        base.transform_filter(alt.FieldEqualPredicate(field="series", equal=reference))
        .mark_line(strokeDash=[5, 4])
        .encode(color=color, tooltip=[alt.Tooltip("norm:Q", title=y_title, format=".3e")])
    )
    one = alt.Chart(pd.DataFrame({"y": [1.0]})).mark_rule(strokeDash=[2, 2], color="#bbbbbb")
    return (one.encode(y=alt.Y("y:Q")) + ref + line + points).properties(height=340)


def receptive_field(
    k: int,
    layers: int,
    needed_span: int,
    *,
    x_title: str,
    y_title: str,
    needed_title: str,
) -> alt.Chart:
    """1 + L(k − 1) against L, with the span the two chosen tokens need as a horizontal rule."""
    top = max(layers, 1) + 2
    frame = pd.DataFrame({"L": range(top + 1), "field": [1 + L * (k - 1) for L in range(top + 1)]})
    base = alt.Chart(frame).encode(
        x=alt.X("L:Q", title=x_title, axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("field:Q", title=y_title, axis=y_axis(y_title)),
    )
    line = base.mark_line(point=True, color=MUTED).encode(
        tooltip=[alt.Tooltip("L:Q", title=x_title), alt.Tooltip("field:Q", title=y_title)]
    )
    need = pd.DataFrame({"y": [needed_span], "label": [needed_title]})
    rule = alt.Chart(need).mark_rule(color=HIGHLIGHT, strokeDash=[5, 4]).encode(y=alt.Y("y:Q"))
    label = (
        alt.Chart(need)
        .mark_text(align="left", dx=4, dy=-7, color=HIGHLIGHT)
        .encode(x=alt.XDatum(0), y=alt.Y("y:Q"), text=alt.Text("label:N"))
    )
    hit = pd.DataFrame({"L": [layers], "field": [1 + layers * (k - 1)]})
    dot = (
        alt.Chart(hit)
        .mark_point(size=160, color=HIGHLIGHT, filled=True)
        .encode(x=alt.X("L:Q"), y=alt.Y("field:Q"))
    )
    return (line + rule + label + dot).properties(height=260)


def coverage_grid(
    tokens: Sequence[str],
    covered: Sequence[range],
    i: int,
    j: int,
    *,
    layer_title: str,
    token_title: str,
    status_titles: dict[str, str],
    width: int = grid.HALF,
) -> alt.Chart:
    """Rows = layers 0 … L, columns = tokens; a cell is filled when the unit that starts at
    min(i, j) already sees that token after that many layers. i and j are marked. Cells are as
    wide as ``width`` (the column) allows, up to 44 px; labels turn when they do not fit."""
    step = int(max(8, min(44, (width - GRID_AXIS_ROOM) // max(1, len(tokens)))))
    widest = max((grid.text_width(tok, grid.AXIS_FONT) for tok in tokens), default=0)
    angle = 0 if widest <= step - 2 else -45 if step >= 14 else -90
    cols = [f"{p}:{tok}" for p, tok in enumerate(tokens)]
    records = []
    for layer, seen in enumerate(covered):
        for p in range(len(tokens)):
            status = "pair" if p in (i, j) and p in seen else "seen" if p in seen else "unseen"
            records.append(
                {
                    "layer": layer,
                    "col": cols[p],
                    "status": status_titles[status],
                    "token": tokens[p],
                }
            )
    frame = pd.DataFrame(records)
    # "3:dog" → "dog". Vega expressions have functions, not methods: no .slice() on arrays.
    strip = "slice(datum.value, indexof(datum.value, ':') + 1)"
    order = [status_titles[s] for s in ("pair", "seen", "unseen")]
    return (
        alt.Chart(frame)
        .mark_rect(stroke="white", strokeWidth=1)
        .encode(
            x=alt.X(
                "col:N",
                sort=cols,
                title=token_title,
                # every token labelled: Vega would drop every other turned label as "overlapping"
                axis=alt.Axis(labelExpr=strip, labelAngle=angle, labelOverlap=False, **NO_FLUSH),
            ),
            y=alt.Y("layer:O", title=layer_title, axis=y_axis(layer_title)),
            color=alt.Color(
                "status:N",
                title=None,
                sort=order,
                scale=alt.Scale(domain=order, range=[HIGHLIGHT, MUTED, "#eeeeee"]),
                # under the grid: at the right it took the width the cells need
                legend=alt.Legend(orient="bottom", direction="horizontal"),
            ),
            tooltip=[alt.Tooltip("token:N"), alt.Tooltip("layer:O", title=layer_title)],
        )
        # A step fixes the cell size; a fixed width would have to hold the axes and legend too.
        .properties(width=alt.Step(step), height=alt.Step(30))
    )


def _subscript(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
