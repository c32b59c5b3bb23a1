"""The Inside-the-decoder page's chart: a token's place among the vocabulary, layer by layer."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from transformer_walk.app.charts import HIGHLIGHT, MUTED, y_axis


def places_by_layer(
    places: Sequence[int],
    chance: float,
    vocab: int,
    *,
    layer_title: str,
    place_title: str,
    choice_name: str,
    chance_name: str,
    series_title: str,
) -> alt.Chart:
    """``places`` (1 = the top) at layers 0 … L on a log axis with the top at the top, and a
    dashed line at ``chance``, a random token's average place."""
    layers = list(range(len(places)))
    data = pd.DataFrame(
        {
            "layer": layers * 2,
            "place": [float(p) for p in places] + [chance] * len(layers),
            "series": [choice_name] * len(layers) + [chance_name] * len(layers),
        }
    )
    colour = alt.Color(
        "series:N",
        title=series_title,
        scale=alt.Scale(domain=[choice_name, chance_name], range=[HIGHLIGHT, MUTED]),
        legend=alt.Legend(orient="bottom", labelLimit=0),  # 0: names never cut
    )
    return (
        alt.Chart(data)
        .mark_line(point=True)
        .encode(
            x=alt.X(
                "layer:Q",
                title=layer_title,
                axis=alt.Axis(format="d", tickMinStep=1),
                scale=alt.Scale(domain=[0, len(places) - 1], nice=False),
            ),
            y=alt.Y(
                "place:Q",
                title=place_title,
                axis=y_axis(place_title, format=","),
                scale=alt.Scale(type="log", domain=[1, vocab], reverse=True),
            ),
            color=colour,
            strokeDash=alt.StrokeDash(
                "series:N",
                legend=None,
                scale=alt.Scale(domain=[choice_name, chance_name], range=[[1, 0], [6, 4]]),
            ),
            tooltip=[
                alt.Tooltip("series:N", title=series_title),
                alt.Tooltip("layer:Q", title=layer_title),
                alt.Tooltip("place:Q", title=place_title, format=",.0f"),
            ],
        )  # fmt: skip
        .properties(height=300, padding={"top": 12})
    )
