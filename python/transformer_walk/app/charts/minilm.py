"""Altair charts of the Real-model pages (MiniLM). Labels come in as arguments: charts know no
language."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from transformer_walk.app.charts import (
    FIT_WIDTH,
    HIGHLIGHT,
    MUTED,
    NO_FLUSH,
    Vector,
    grid,
    pca_axes,
    y_axis,
)

GRID_PANEL = 64  # pixels per small heatmap of the 6 × 12 grid


def head_grid(
    weights: np.ndarray,
    tokens: Sequence[str],
    *,
    layer_title: str,
    head_title: str,
    query_title: str,
    key_title: str,
    value_title: str,
    selected: tuple[int, int] | None = None,
) -> alt.FacetChart:
    """Every head's attention matrix as a small heatmap: rows = layers, columns = heads.

    weights [L, h, m, m] (already windowed); tokens the m labels (tooltips only: the panels are
    too small for axis labels). ``selected`` (0-based layer, head) gets a coloured frame.
    Streamlit ships the data as Arrow, so 6 · 12 · 40² cells stay fast."""
    n_layers, h, m, _ = weights.shape
    layer, head, q, k = np.meshgrid(
        np.arange(n_layers), np.arange(h), np.arange(m), np.arange(m), indexing="ij"
    )  # each (L, h, m, m)
    data = pd.DataFrame(
        {
            "layer": layer.ravel() + 1,
            "head": head.ravel() + 1,
            "q": q.ravel(),
            "k": k.ravel(),
            "query": np.asarray(tokens, dtype=object)[q.ravel()],
            "key": np.asarray(tokens, dtype=object)[k.ravel()],
            "w": weights.astype(np.float64).ravel(),
        }
    )
    rects = (
        alt.Chart()
        .mark_rect()
        .encode(
            x=alt.X("k:O", axis=None),
            y=alt.Y("q:O", axis=None),
            color=alt.Color(
                "w:Q",
                title=value_title,
                scale=alt.Scale(scheme="blues", domain=[0, 1]),
                legend=alt.Legend(orient="top"),
            ),
            tooltip=[
                alt.Tooltip("layer:O", title=layer_title),
                alt.Tooltip("head:O", title=head_title),
                alt.Tooltip("query:N", title=query_title),
                alt.Tooltip("key:N", title=key_title),
                alt.Tooltip("w:Q", title=value_title, format=".3f"),
            ],
        )
        .properties(width=GRID_PANEL, height=GRID_PANEL)
    )
    layered: alt.Chart | alt.LayerChart = rects
    if selected is not None:
        frame = (
            alt.Chart()
            .mark_rect(
                fill=None, stroke=HIGHLIGHT, strokeWidth=3, x=0, y=0, x2=GRID_PANEL, y2=GRID_PANEL
            )
            .transform_filter(
                f"datum.layer == {selected[0] + 1} && datum.head == {selected[1] + 1} "
                "&& datum.q == 0 && datum.k == 0"
            )
        )
        layered = alt.LayerChart(layer=[rects, frame])
    return layered.facet(
        data=data,
        row=alt.Row(
            "layer:O",
            title=layer_title,
            header=alt.Header(labelAngle=0, **grid.upright_axis(layer_title)),
        ),
        column=alt.Column("head:O", title=head_title),
        spacing=4,
    ).configure_view(stroke="#ddd")


def head_view(
    tokens: Sequence[str],
    row: Vector,
    query: int,
    *,
    weight_title: str,
    query_title: str,
    key_title: str,
) -> alt.LayerChart:
    """The "head view": the query token on the left joined to every key on the right by a line
    whose width and opacity grow with the weight (one row of one head)."""
    n = len(tokens)
    peak = max(float(np.max(row)), 1e-12) if n else 1.0
    lines = pd.DataFrame(
        {
            "x": 0.0,
            "x2": 1.0,
            "y": float(query),
            "y2": np.arange(n, dtype=float),
            "key": list(tokens),
            "w": [float(w) for w in row],
            "rel": [float(w) / peak for w in row],  # the strongest line is fully drawn
        }
    )
    labels = pd.DataFrame(
        {
            "x": [0.0] * n + [1.0] * n,
            "y": list(range(n)) * 2,
            "token": list(tokens) * 2,
            "side": ["left"] * n + ["right"] * n,
            "is_query": [i == query for i in range(n)] + [False] * n,
        }
    )
    y_scale = alt.Scale(domain=[-0.5, n - 0.5], reverse=True)
    x_scale = alt.Scale(domain=[-0.35, 1.35])
    rules = (
        alt.Chart(lines)
        .mark_rule(color=HIGHLIGHT, strokeCap="round")
        .encode(
            x=alt.X("x:Q", scale=x_scale, axis=None),
            x2=alt.X2("x2:Q"),
            y=alt.Y("y:Q", scale=y_scale, axis=None),
            y2=alt.Y2("y2:Q"),
            opacity=alt.Opacity(
                "rel:Q", scale=alt.Scale(domain=[0, 1], range=[0.03, 1]), legend=None
            ),
            strokeWidth=alt.StrokeWidth(
                "rel:Q", scale=alt.Scale(domain=[0, 1], range=[0.5, 8]), legend=None
            ),
            tooltip=[
                alt.Tooltip("key:N", title=key_title),
                alt.Tooltip("w:Q", title=weight_title, format=".3f"),
            ],
        )
    )
    base = alt.Chart(labels).encode(
        x=alt.X("x:Q", scale=x_scale, axis=None),
        y=alt.Y("y:Q", scale=y_scale, axis=None),
        text=alt.Text("token:N"),
        color=alt.ColorValue("#333", condition={"test": "datum.is_query", "value": HIGHLIGHT}),
    )
    # align and dx are mark properties, not channels: one text layer per side
    left = base.mark_text(fontSize=15, align="right", dx=-8).transform_filter(
        "datum.side == 'left'"
    )
    right = base.mark_text(fontSize=15, align="left", dx=8).transform_filter(
        "datum.side == 'right'"
    )
    titles = pd.DataFrame({"x": [0.0, 1.0], "label": [query_title, key_title]})
    heads = (
        alt.Chart(titles)
        .mark_text(fontWeight="bold", dy=-18, fontSize=12, color=MUTED, y=0)
        .encode(x=alt.X("x:Q", scale=x_scale, axis=None), text=alt.Text("label:N"))
    )
    return (
        alt.LayerChart(layer=[rules, left, right, heads])
        .properties(width=520, height=max(160, 34 * n), padding={"top": 24})
        .configure_view(stroke=None)
    )


# per_layer_lines' colours, by series order: the measured line, its control, the static baseline.
LINE_COLOURS = (HIGHLIGHT, "#1f77b4", MUTED)


def per_layer_lines(
    frame: pd.DataFrame,
    *,
    layer_title: str,
    value_title: str,
    series_title: str,
    series_order: Sequence[str],
    domain: tuple[float, float] | None = None,
    colours: Sequence[str] | None = None,
) -> alt.Chart:
    """One line per series across layers 0..L. ``frame`` has ``layer``, ``value``, ``series``.

    Colours go by ``series_order`` (the first series in ``LINE_COLOURS[0]``, or ``colours[0]``
    when given …), not by the sorted names: sorted, the order and so the colours changed with the
    language."""
    order = list(series_order)
    scale = alt.Scale(domain=list(domain)) if domain else alt.Scale(zero=False)
    palette = list(colours) if colours is not None else list(LINE_COLOURS)
    colours_scale = (
        alt.Scale(domain=order, range=palette[: len(order)])
        if len(order) <= len(palette)
        else alt.Scale(domain=order)
    )
    base = alt.Chart(frame).encode(
        x=alt.X("layer:O", title=layer_title, axis=alt.Axis(labelAngle=0, **NO_FLUSH)),
        y=alt.Y("value:Q", title=value_title, axis=y_axis(value_title), scale=scale),
        color=alt.Color(
            "series:N",
            title=series_title,
            sort=order,
            scale=colours_scale,
            # one series a line, whole: side by side they were cut at the column's edge
            legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=400),
        ),
        tooltip=[
            alt.Tooltip("series:N", title=series_title),
            alt.Tooltip("layer:O", title=layer_title),
            alt.Tooltip("value:Q", title=value_title, format=".3f"),
        ],
    )
    return (base.mark_line() + base.mark_point(filled=True, size=60)).properties(
        height=300, autosize=FIT_WIDTH
    )


PATHS_HEIGHT = 440  # px of token_paths' plot


def _free_path_labels(frame: pd.DataFrame, mine: pd.Series, last: int, width: int) -> list[bool]:
    """Which rows of ``token_paths``' frame get their label: see there."""
    layers = frame["layer"].to_numpy()
    ends = [i for i in range(len(frame)) if mine.iloc[i] and layers[i] in (0, last)]
    middles = [i for i in range(len(frame)) if mine.iloc[i] and layers[i] not in (0, last)]
    names = [i for i in range(len(frame)) if not mine.iloc[i] and layers[i] == last]
    rows = ends + middles + names  # in the order they claim room
    texts = [str(layers[i]) if mine.iloc[i] else str(frame["token"].iloc[i]) for i in rows]
    kept = grid.free_labels(
        list(frame["x"].iloc[rows]), list(frame["y"].iloc[rows]), texts,
        width=width - 40, height=PATHS_HEIGHT, first=list(range(len(ends))), dx=7,
    )  # fmt: skip
    labelled = [False] * len(frame)
    for row, keep in zip(rows, kept, strict=True):
        labelled[row] = keep
    return labelled


def token_paths(
    frame: pd.DataFrame,
    *,
    layer_title: str,
    token_title: str,
    highlight: Sequence[str],
    width: int = grid.FULL,
) -> alt.LayerChart:
    """Every token's position in one shared 2-D projection, one point per layer, with the
    highlighted tokens' paths drawn across the layers (layer 0 → 6).

    ``frame`` has ``x``, ``y``, ``layer`` (0..L), ``token`` (a unique label per position).
    Labels are drawn where they do not collide (``grid.free_labels``): the highlighted paths'
    first and last layer numbers always, their other numbers, then the other tokens' names."""
    mine = frame["token"].isin(list(highlight))
    last = int(frame["layer"].max()) if len(frame) else 0
    data = frame.assign(mine=mine, labelled=_free_path_labels(frame, mine, last, width))
    x, y = pca_axes(frame)
    tooltip = [alt.Tooltip("token:N", title=token_title), alt.Tooltip("layer:O", title=layer_title)]
    others = (
        alt.Chart(data)
        .mark_circle(color=MUTED, opacity=0.5, size=30)
        .encode(x=x, y=y, tooltip=tooltip)
        .transform_filter("!datum.mine")
    )
    chosen = alt.Chart(data).transform_filter("datum.mine")
    color = alt.Color(
        "token:N",
        title=token_title,
        sort=list(highlight),
        scale=alt.Scale(domain=list(highlight), range=[HIGHLIGHT, "#1f77b4"]),
        legend=alt.Legend(orient="bottom"),
    )
    path = chosen.mark_line(strokeWidth=2.5).encode(
        x=x, y=y, order=alt.Order("layer:O"), color=color
    )
    points = chosen.mark_circle(size=90, opacity=1).encode(x=x, y=y, color=color, tooltip=tooltip)
    numbers = (
        chosen.mark_text(dx=9, dy=-7, fontSize=11)
        .encode(x=x, y=y, text=alt.Text("layer:O"), color=color)
        .transform_filter("datum.labelled")
    )
    names = (
        alt.Chart(data)
        .mark_text(dx=6, align="left", fontSize=11, color="#777")
        .encode(x=x, y=y, text=alt.Text("token:N"))
        .transform_filter(f"!datum.mine && datum.layer == {last} && datum.labelled")
    )  # the other tokens are named where they end up
    return alt.LayerChart(layer=[others, names, path, points, numbers]).properties(
        height=PATHS_HEIGHT, autosize=FIT_WIDTH
    )
