"""The Copying-in-SmolLM2 page's chart: each token of the second copy's probability, intact and
with heads switched off."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from transformer_walk.app.charts import FIT_WIDTH, HIGHLIGHT, MUTED, y_axis
from transformer_walk.app.charts.learning import CONTROL_HUE

#: The intact model and the heads switched off solid, the controls dashed.
DASHES = [[1, 0], [1, 0], [6, 4]]


def copy_probabilities(
    tokens: Sequence[str],
    series: dict[str, Sequence[float]],
    *,
    token_title: str,
    prob_title: str,
) -> alt.Chart:
    """One line per entry of ``series`` (name → a probability per token; the first intact, the
    second the heads off, the third the controls) over ``tokens``, the labels of the predicted
    tokens in order, on a 0–1 axis."""
    names = list(series)
    frame = pd.DataFrame(
        [
            {"token": token, "series": name, "prob": float(p)}
            for name, values in series.items()
            for token, p in zip(tokens, values, strict=True)
        ]
    )
    order = list(tokens)
    return (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("token:N", sort=order, title=token_title,
                    axis=alt.Axis(labelAngle=-45, labelLimit=120, labelOverlap=False)),
            y=alt.Y("prob:Q", title=prob_title, axis=y_axis(prob_title, format="%"),
                    scale=alt.Scale(domain=[0, 1])),
            color=alt.Color("series:N", title=None, sort=names,
                            scale=alt.Scale(domain=names,
                                            range=[MUTED, HIGHLIGHT, CONTROL_HUE][: len(names)]),
                            legend=alt.Legend(orient="bottom", labelLimit=0, symbolType="circle")),
            # the controls dashed: where they and the intact model agree, both stay visible
            strokeDash=alt.StrokeDash("series:N", sort=names, legend=None,
                                      scale=alt.Scale(domain=names, range=DASHES[: len(names)])),
            tooltip=[alt.Tooltip("series:N", title=None), alt.Tooltip("token:N", title=token_title),
                     alt.Tooltip("prob:Q", title=prob_title, format=".1%")],
        )
        .properties(height=300, autosize=FIT_WIDTH)
    )  # fmt: skip
