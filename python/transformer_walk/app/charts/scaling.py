"""Altair charts of the Scaling page. Labels come in as arguments: the charts know no language."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from transformer_walk.app.charts import FIT_WIDTH, HIGHLIGHT, MUTED, y_axis

REFERENCE = "#999999"


def curves(
    frame: pd.DataFrame,
    *,
    x_title: str,
    y_title: str,
    series_title: str,
    series_order: Sequence[str],
    log_y: bool = False,
    dashed: Sequence[str] = (),
    y_domain: tuple[float, float] | None = None,
    fmt: str = ".3f",
) -> alt.Chart:
    """One line per series against d_k on a log₂ axis; ``frame`` has columns d_k, value, series.
    Series named in ``dashed`` are references (a formula), not measurements."""
    colors = [HIGHLIGHT, MUTED, REFERENCE, "#66a61e"][: len(series_order)]
    if log_y:
        y_scale = alt.Scale(type="log")
    elif y_domain is not None:
        y_scale = alt.Scale(domain=list(y_domain))
    else:
        y_scale = alt.Scale(zero=True)
    return (
        alt.Chart(frame)
        .mark_line(point=True)
        .encode(
            x=alt.X("d_k:Q", title=x_title, scale=alt.Scale(type="log", base=2, nice=False)),
            y=alt.Y("value:Q", title=y_title, axis=y_axis(y_title), scale=y_scale),
            color=alt.Color(
                "series:N",
                title=series_title,
                sort=list(series_order),
                scale=alt.Scale(domain=list(series_order), range=colors),
                legend=alt.Legend(orient="bottom", direction="vertical"),
            ),
            strokeDash=alt.StrokeDashValue(
                [1, 0],
                condition={
                    "test": alt.FieldOneOfPredicate(field="series", oneOf=list(dashed)),
                    "value": [5, 4],
                },
            ),
            tooltip=[
                alt.Tooltip("series:N", title=series_title),
                alt.Tooltip("d_k:Q", title=x_title),
                alt.Tooltip("value:Q", title=y_title, format=fmt),
            ],
        )
        .properties(height=380, autosize=FIT_WIDTH)
    )
