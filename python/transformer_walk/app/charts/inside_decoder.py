"""The Inside-the-decoder page's chart: a token's place among the vocabulary, layer by layer."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from transformer_walk.app.charts import HIGHLIGHT, MUTED, y_axis

#: A term that pushes the token up, and one that pushes it down: the blue and red of the
#: "redblue" scheme the heads' grid is drawn in.
UP, DOWN = "#4393c3", "#d6604d"


def places_by_layer(
    places: Sequence[int],
    chance: float,
    vocab: int,
    *,
    layer_title: str,
    place_title: str,
    choice_name: str,
    chance_name: str,
) -> alt.Chart:
    """``places`` (1 = the top) at layers 0 … L as points on a log axis with the top at the
    top, ticked down to ``vocab`` (the last place); ``chance``, a random token's average place,
    as a dashed line."""
    layers = list(range(len(places)))
    choice = pd.DataFrame({"layer": layers, "place": [float(p) for p in places]})
    level = pd.DataFrame({"layer": [0, len(places) - 1], "place": [chance, chance]})
    names = [choice_name, chance_name]
    colour = alt.Color(
        "series:N",
        title=None,
        scale=alt.Scale(domain=names, range=[HIGHLIGHT, MUTED]),
        legend=alt.Legend(orient="bottom", labelLimit=0),  # 0: names never cut
    )
    ticks = [t for t in (1, 10, 100, 1_000, 10_000) if t < vocab] + [vocab]
    x = alt.X(
        "layer:Q", title=layer_title, axis=alt.Axis(format="d", tickMinStep=1),
        scale=alt.Scale(domain=[0, len(places) - 1], nice=False),
    )  # fmt: skip
    y = alt.Y(
        "place:Q", title=place_title, axis=y_axis(place_title, format=",", values=ticks),
        scale=alt.Scale(type="log", domain=[1, vocab], reverse=True),
    )  # fmt: skip
    tooltip = [
        alt.Tooltip("series:N", title=None),
        alt.Tooltip("layer:Q", title=layer_title),
        alt.Tooltip("place:Q", title=place_title, format=",.0f"),
    ]
    line = (
        alt.Chart(choice)
        .transform_calculate(series=f"{choice_name!r}")
        .mark_line(point=True)
        .encode(x=x, y=y, color=colour, tooltip=tooltip)
    )
    dashed = (
        alt.Chart(level)
        .transform_calculate(series=f"{chance_name!r}")
        .mark_line(strokeDash=[6, 4])
        .encode(x=x, y=y, color=colour, tooltip=tooltip)
    )
    return (line + dashed).properties(height=300, padding={"top": 12})


def terms_by_layer(terms: Sequence[float], *, layer_title: str, term_title: str) -> alt.Chart:
    """One bar per layer (1 … L): each MLP's term, coloured as the heads' grid beside it colours
    a term (Vega's "redblue": blue up, red down)."""
    data = pd.DataFrame(
        {"layer": list(range(1, len(terms) + 1)), "term": [float(v) for v in terms]}
    )
    return (
        alt.Chart(data)
        .mark_bar()
        .encode(
            x=alt.X("layer:O", title=layer_title, axis=alt.Axis(labelAngle=0)),
            y=alt.Y("term:Q", title=term_title, axis=y_axis(term_title)),
            color=alt.ColorValue(DOWN, condition={"test": "datum.term > 0", "value": UP}),
            tooltip=[
                alt.Tooltip("layer:O", title=layer_title),
                alt.Tooltip("term:Q", title=term_title, format="+.3f"),
            ],
        )
        .properties(height=240)
    )
