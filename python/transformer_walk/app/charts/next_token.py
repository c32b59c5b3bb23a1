"""Charts of the Next-token page: the candidates' probabilities, the loss along the prompt, the
two speeds, and a causal head with its mask drawn. Labels come in as arguments."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import numpy as np
import pandas as pd

from transformer_walk.app.charts import (
    FULL,
    HIGHLIGHT,
    MUTED,
    NO_FLUSH,
    Spec,
    Vector,
    heatmap,
    y_axis,
)

MASKED_GREY = "#d9d9d9"


def candidate_bars(
    labels: Sequence[str],
    probs: Vector,
    chosen: int | None,
    *,
    token_title: str,
    prob_title: str,
) -> alt.LayerChart:
    """One horizontal bar per candidate, best at the top, its probability printed; bar
    ``chosen`` (an index, or None) in the highlight colour."""
    data = pd.DataFrame(
        {
            "key": [f"{i}:{label}" for i, label in enumerate(labels)],
            "token": list(labels),
            "p": [float(p) for p in probs],
            "chosen": [i == chosen for i in range(len(labels))],
        }
    )
    strip = "join(slice(split(datum.value, ':'), 1), ':')"
    base = alt.Chart(data).encode(
        y=alt.Y("key:N", sort=list(data["key"]), title=token_title,
                axis=alt.Axis(labelExpr=strip, labelOverlap=False, labelLimit=160, **NO_FLUSH)),
        # The whole [0, 1] once one token dominates; at T ≥ 1 the best few share a few per
        # cent, which a [0, 1] axis would flatten: the axis then fits the largest.
        x=alt.X("p:Q", title=prob_title,
                scale=alt.Scale(domain=[0, 1]) if max(data["p"], default=0) > 0.5 else alt.Scale()),
    )  # fmt: skip
    bars = base.mark_bar().encode(
        color=alt.ColorValue(MUTED, condition={"test": "datum.chosen", "value": HIGHLIGHT}),
        tooltip=[alt.Tooltip("token:N", title=token_title),
                 alt.Tooltip("p:Q", title=prob_title, format=".4f")],
    )  # fmt: skip
    text = base.mark_text(align="left", dx=4).encode(text=alt.Text("p:Q", format=".3f"))
    return (bars + text).properties(height=26 * max(1, len(labels)) + 20)


def loss_bars(
    labels: Sequence[str], losses: Vector, *, token_title: str, loss_title: str
) -> alt.Chart:
    """The loss −log P of each predicted token, in prompt order (every label shown)."""
    keys = [f"{i}:{label}" for i, label in enumerate(labels)]
    data = pd.DataFrame({"key": keys, "token": list(labels), "loss": [float(x) for x in losses]})
    strip = "join(slice(split(datum.value, ':'), 1), ':')"
    angle = 0 if len(labels) <= 8 else -90
    return (
        alt.Chart(data)
        .mark_bar(color=MUTED)
        .encode(
            x=alt.X(
                "key:N",
                sort=keys,
                title=token_title,
                axis=alt.Axis(labelExpr=strip, labelAngle=angle, labelOverlap=False, **NO_FLUSH),
            ),
            y=alt.Y("loss:Q", title=loss_title, axis=y_axis(loss_title)),
            tooltip=[
                alt.Tooltip("token:N", title=token_title),
                alt.Tooltip("loss:Q", title=loss_title, format=".3f"),
            ],
        )  # fmt: skip
        .properties(height=260)
    )


def speed_bars(names: Sequence[str], rates: Vector, *, rate_title: str) -> alt.LayerChart:
    """Tokens a second of each way of running the model, from 0 (so the bars' lengths compare
    as the rates do), the number printed."""
    data = pd.DataFrame({"way": list(names), "rate": [float(r) for r in rates]})
    base = alt.Chart(data).encode(
        y=alt.Y("way:N", sort=list(names), title=None,
                axis=alt.Axis(labelLimit=320, **NO_FLUSH)),
        x=alt.X("rate:Q", title=rate_title),
    )  # fmt: skip
    bars = base.mark_bar(color=MUTED)
    text = base.mark_text(align="left", dx=4).encode(text=alt.Text("rate:Q", format=",.1f"))
    # A step per bar: a fixed height was not kept (Streamlit drew the bars about 1 px thick).
    return (bars + text).properties(height=alt.Step(36))


def causal_heatmap(
    weights: np.ndarray,
    labels: Sequence[str],
    *,
    query_title: str,
    key_title: str,
    value_title: str,
    width: int = FULL,
) -> Spec:
    """``charts.heatmap`` of a causal head [m, m] whose NaN cells (above the diagonal: the
    mask) are drawn grey and left without a number, instead of dropped as missing data."""
    spec = heatmap(
        weights, labels, labels,
        row_title=query_title, col_title=key_title, value_title=value_title,
        domain=(0.0, 1.0), width=width,
    )  # fmt: skip
    for cell in spec["data"]["values"]:
        if cell["value"] is None:
            cell["text"] = ""
    rect, *rest = spec["layer"]
    masked = {
        "mark": {"type": "rect", "color": MASKED_GREY},
        "transform": [{"filter": "datum.value === null"}],
        "encoding": {"x": rect["encoding"]["x"], "y": rect["encoding"]["y"]},
    }
    spec["layer"] = [masked, rect, *rest]
    return spec
