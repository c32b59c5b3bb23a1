"""Altair charts of the Seq2seq page. Labels come in as arguments: the charts know no language."""

from __future__ import annotations

import altair as alt
import pandas as pd

from transformer_walk.app.charts import FIT_WIDTH, HIGHLIGHT, MUTED, y_axis

FIXED_HUE = "#f4a259"  # the fixed-context model (attention's is HIGHLIGHT), on both charts
TRANSFORMER_HUE = "#2a9d8f"  # the Transformer, a third hue far from both GRUs'
#: The models' hues in the order fixed, attention, Transformer.
MODEL_HUES = [FIXED_HUE, HIGHLIGHT, TRANSFORMER_HUE]


def _chance_line(chance: float, label: str, *, at_right: bool) -> alt.LayerChart:
    """A dashed rule at the accuracy of guessing, labelled just above it at the plot's left or
    right edge (whichever the lines leave free)."""
    data = pd.DataFrame({"chance": [chance], "label": [label]})
    rule = alt.Chart(data).mark_rule(color=MUTED, strokeDash=[5, 4]).encode(y=alt.Y("chance:Q"))
    text = (
        alt.Chart(data)
        .mark_text(
            align="right" if at_right else "left",
            x="width" if at_right else 0,
            dx=-4 if at_right else 4,
            dy=-6,
            color=MUTED,
        )
        .encode(y=alt.Y("chance:Q"), text=alt.Text("label:N"))
    )
    return rule + text


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
                # the two h_T series in the fixed context's hue (dark and light), the own-state
                # one in attention's: the accuracy chart above uses the same two hues
                scale=alt.Scale(domain=series_order, range=["#b5651d", FIXED_HUE, HIGHLIGHT]),
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=500),
            ),
            tooltip=[
                alt.Tooltip("series:N", title=series_title),
                alt.Tooltip("T:Q", title=length_title),
                alt.Tooltip("accuracy:Q", title=accuracy_title, format=".1%"),
            ],
        )
    )  # fmt: skip
    chance_line = _chance_line(chance, chance_label, at_right=False)
    return (lines + chance_line).properties(height=320, autosize=FIT_WIDTH)


def accuracy_by_length(
    frame: pd.DataFrame,
    chance: float,
    train_max: int,
    *,
    series_order: list[str],
    length_title: str,
    accuracy_title: str,
    whole_title: str,
    series_title: str,
    chance_label: str,
    trained_label: str,
) -> alt.Chart:
    """Token accuracy against the source length, one line per model, the training lengths
    shaded and a random letter's accuracy dashed.

    ``frame`` has columns ``T``, ``accuracy`` and ``whole`` (0…1: letters right, whole strings
    right) and ``series`` (display name, one of ``series_order``, which fixes the colours)."""
    longest = int(frame["T"].max())
    x_scale = alt.Scale(domain=[0.5, longest + 0.5], nice=False)
    band_data = pd.DataFrame({"start": [0.5], "end": [train_max + 0.5], "label": [trained_label]})
    band = (
        alt.Chart(band_data)
        .mark_rect(color=MUTED, opacity=0.15)
        .encode(x=alt.X("start:Q", scale=x_scale), x2=alt.X2("end:Q"))
    )
    band_text = (
        alt.Chart(band_data)
        .mark_text(align="left", baseline="top", dx=4, y=4, color=MUTED)
        .encode(x=alt.X("start:Q", scale=x_scale), text=alt.Text("label:N"))
    )
    lines = (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("T:Q", title=length_title, scale=x_scale,
                    axis=alt.Axis(values=list(range(1, longest + 1)), format="d")),
            y=alt.Y("accuracy:Q", title=accuracy_title, scale=alt.Scale(domain=[0, 1]),
                    axis=y_axis(accuracy_title, format="%")),
            color=alt.Color(
                "series:N",
                title=series_title,
                scale=alt.Scale(domain=series_order, range=MODEL_HUES[: len(series_order)]),
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=500),
            ),
            tooltip=[
                alt.Tooltip("series:N", title=series_title),
                alt.Tooltip("T:Q", title=length_title),
                alt.Tooltip("accuracy:Q", title=accuracy_title, format=".1%"),
                alt.Tooltip("whole:Q", title=whole_title, format=".1%"),
            ],
        )
    )  # fmt: skip
    # at the left: every model is near 100% there, while at the right the Transformer's line
    # runs along chance and would cross the label
    chance_line = _chance_line(chance, chance_label, at_right=False)
    return (band + band_text + lines + chance_line).properties(height=320, autosize=FIT_WIDTH)


def step_times(
    frame: pd.DataFrame,
    *,
    series_order: list[str],
    length_title: str,
    time_title: str,
    series_title: str,
) -> alt.Chart:
    """Milliseconds of one training step against the string's length, one line per model.

    ``frame`` has columns ``T``, ``ms`` and ``series`` (one of ``series_order``: fixed,
    attention, Transformer, which fixes the colours the accuracy chart uses)."""
    longest = int(frame["T"].max())
    return (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("T:Q", title=length_title, scale=alt.Scale(domain=[0.5, longest + 0.5],
                    nice=False), axis=alt.Axis(values=list(range(1, longest + 1)), format="d")),
            y=alt.Y("ms:Q", title=time_title, scale=alt.Scale(zero=True),
                    axis=y_axis(time_title)),
            color=alt.Color(
                "series:N",
                title=series_title,
                scale=alt.Scale(domain=series_order, range=MODEL_HUES[: len(series_order)]),
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=500),
            ),
            tooltip=[
                alt.Tooltip("series:N", title=series_title),
                alt.Tooltip("T:Q", title=length_title),
                alt.Tooltip("ms:Q", title=time_title, format=".2f"),
            ],
        )
        .properties(height=300, autosize=FIT_WIDTH)
    )  # fmt: skip
