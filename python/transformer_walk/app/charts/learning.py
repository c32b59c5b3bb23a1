"""Altair charts of the Watch-it-learn page. Labels come in as arguments: the charts know no
language."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from transformer_walk.app.charts import FIT_WIDTH, HIGHLIGHT, MUTED, y_axis

CONTROL_HUE = "#1b9e77"  # teal: apart from the watched model's red
IDLE_HUE = "#7a7a7a"
SECOND_IDLE_HUE = "#bdbdbd"  # a second control line (A head that copies: one per head)
#: The series' colours in order: the level compared with, the watched model, its controls.
HUES = [MUTED, HIGHLIGHT, CONTROL_HUE, IDLE_HUE, SECOND_IDLE_HUE]


def _at_step(step: int) -> alt.Chart:
    """A vertical rule at the checkpoint the slider is on."""
    return (
        alt.Chart(pd.DataFrame({"step": [step]}))
        .mark_rule(color=HIGHLIGHT, strokeWidth=2)
        .encode(x=alt.X("step:Q"))
    )


def _dashed_first(series_order: Sequence[str]) -> alt.StrokeDash:
    """The first series (a level to compare with: chance, a coin toss) dashed, the rest solid;
    in the legend too, where a label beside the line would sit on the other lines."""
    return alt.StrokeDash(
        "series:N",
        scale=alt.Scale(domain=list(series_order),
                        range=[[5, 4]] + [[1, 0]] * (len(series_order) - 1)),
        legend=None,
    )  # fmt: skip


def loss_curves(
    frame: pd.DataFrame,
    step: int,
    *,
    series_order: Sequence[str],
    step_title: str,
    loss_title: str,
    series_title: str,
) -> alt.LayerChart:
    """The loss per training step (log scale: it falls over three decades), one line per series,
    the first (the coin toss) dashed; ``frame`` has ``step``, ``loss`` and ``series``. The x axis
    ends at the last step."""
    last = int(frame["step"].max()) if len(frame) else 1
    lines = (
        alt.Chart(frame)
        .mark_line(strokeWidth=1.5)
        .encode(
            x=alt.X("step:Q", title=step_title, scale=alt.Scale(domain=[0, last], nice=False)),
            y=alt.Y("loss:Q", title=loss_title, axis=y_axis(loss_title),
                    scale=alt.Scale(type="log")),
            color=alt.Color(
                "series:N", title=series_title,
                scale=alt.Scale(domain=list(series_order), range=HUES[: len(series_order)]),
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=500),
            ),
            strokeDash=_dashed_first(series_order),
            tooltip=[alt.Tooltip("series:N", title=series_title),
                     alt.Tooltip("step:Q", title=step_title),
                     alt.Tooltip("loss:Q", title=loss_title, format=".4f")],
        )
    )  # fmt: skip
    return (lines + _at_step(step)).properties(height=300, autosize=FIT_WIDTH)


def weight_over_steps(
    frame: pd.DataFrame,
    step: int,
    *,
    series_order: Sequence[str],
    step_title: str,
    weight_title: str,
    series_title: str,
) -> alt.LayerChart:
    """Mean weight on the name at each checkpoint, one line per series: chance (dashed) first,
    then the watched head and its controls, with a point at each checkpoint (not on the dashed
    level, whose legend symbol would become a blob); ``frame`` has ``step``, ``weight`` and
    ``series``."""
    last = int(frame["step"].max()) if len(frame) else 1
    lines = (
        alt.Chart(frame)
        .mark_line(strokeWidth=2)
        .encode(
            x=alt.X("step:Q", title=step_title, scale=alt.Scale(domain=[0, last], nice=False)),
            y=alt.Y("weight:Q", title=weight_title, axis=y_axis(weight_title, format="%"),
                    scale=alt.Scale(domain=[0, 1])),
            color=alt.Color(
                "series:N", title=series_title,
                scale=alt.Scale(domain=list(series_order), range=HUES[: len(series_order)]),
                legend=alt.Legend(orient="bottom", direction="vertical", labelLimit=500),
            ),
            strokeDash=_dashed_first(series_order),
            tooltip=[alt.Tooltip("series:N", title=series_title),
                     alt.Tooltip("step:Q", title=step_title),
                     alt.Tooltip("weight:Q", title=weight_title, format=".1%")],
        )
    )  # fmt: skip
    points = (
        lines.mark_point(filled=True, size=18)
        .encode(
            color=alt.Color(
                "series:N",
                legend=None,
                scale=alt.Scale(domain=list(series_order), range=HUES[: len(series_order)]),
            ),
            strokeDash=alt.StrokeDash("series:N", legend=None),
        )
        .transform_filter(alt.FieldOneOfPredicate(field="series", oneOf=list(series_order[1:])))
    )
    return (lines + points + _at_step(step)).properties(height=300, autosize=FIT_WIDTH)


def ablation_bars(
    frame: pd.DataFrame, guess: float, *, loss_title: str, guess_label: str
) -> alt.LayerChart:
    """One horizontal bar per switch-off (``label``, ``loss``, ``kind`` in "none", "one",
    "group", "others"), in the frame's order; the coin toss dashed."""
    order = list(frame["label"])
    hues = {"none": MUTED, "one": "#b9c3de", "group": HIGHLIGHT, "others": CONTROL_HUE}
    bars = (
        alt.Chart(frame)
        .mark_bar(cornerRadiusTopRight=3, cornerRadiusBottomRight=3)
        .encode(
            y=alt.Y("label:N", sort=order, title=None, axis=alt.Axis(labelLimit=320)),
            x=alt.X("loss:Q", title=loss_title),
            color=alt.Color("kind:N", legend=None,
                            scale=alt.Scale(domain=list(hues), range=list(hues.values()))),
            tooltip=[alt.Tooltip("label:N", title=" "),
                     alt.Tooltip("loss:Q", title=loss_title, format=".4f")],
        )
    )  # fmt: skip
    labels = bars.mark_text(align="left", dx=4).encode(
        text=alt.Text("loss:Q", format=".3f"), color=alt.ColorValue("#333333")
    )
    level = alt.Chart(pd.DataFrame({"value": [guess], "label": [guess_label]}))
    rule = level.mark_rule(color=MUTED, strokeDash=[5, 4]).encode(x=alt.X("value:Q"))
    # the rule's label above the plot, where no bar is
    text = level.mark_text(align="right", dx=-4, y=-8, color=MUTED).encode(
        x=alt.X("value:Q"), text=alt.Text("label:N")
    )
    return (bars + labels + rule + text).properties(height=22 * len(order) + 20, autosize=FIT_WIDTH)
