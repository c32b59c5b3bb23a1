"""Every chart of the pages as a cached Vega-Lite spec: built once for its inputs, shared by every
session of the server.

A page draws ``st.vega_lite_chart(chart_spec(charts.heatmap, matrix, labels, ...))``. Building
an Altair chart, checking it against the Vega-Lite schema and turning its tables into Arrow
takes milliseconds per chart, and a page redraws all its charts on every rerun, for every
student of a class: most of a rerun's own time (docs/performance.md, "A class on one server").
Here the finished spec, data already in Arrow, is kept by the chart's inputs, so a rerun that
draws the same chart again only copies it out.

The conversion is Streamlit's own (``st.altair_chart`` calls the same function), so a cached
chart is the chart ``st.altair_chart`` would draw (tests/test_chart_specs.py compares them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyarrow as pa
import streamlit as st
from streamlit import dataframe_util

# Private to Streamlit (pinned in requirements/dev.txt): the conversion st.altair_chart makes,
# theme and Arrow datasets included; tests/test_chart_specs.py fails if it changes.
from streamlit.elements.vega_charts import AltairChart, _convert_altair_to_vega_lite_spec

Spec = dict[str, Any]
Builder = Callable[..., AltairChart | Spec]

#: Distinct charts kept (least recently drawn dropped first): a few tens of KB each.
CHART_SPECS_KEPT = 1024


def chart_spec(build: Builder, /, *args: Any, **kwargs: Any) -> Spec:
    """``build(*args, **kwargs)`` as a Vega-Lite spec for ``st.vega_lite_chart``, from the
    server-wide cache when the same chart was drawn before. ``build`` is one of ``app.charts``'
    builders (an Altair chart or a spec dict); the arguments must be hashable by Streamlit
    (arrays, frames, strings, numbers and containers of them)."""
    return _spec(f"{build.__module__}.{build.__qualname__}", args, kwargs, build)


@st.cache_data(show_spinner=False, max_entries=CHART_SPECS_KEPT)
def _spec(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], _build: Builder) -> Spec:
    """The spec of ``_build`` (named by ``name``, which keys the cache) on these arguments."""
    chart = _build(*args, **kwargs)
    if isinstance(chart, dict):
        return _arrow_values(chart)
    return _convert_altair_to_vega_lite_spec(chart)


def _arrow_values(spec: Spec) -> Spec:
    """A spec dict whose inline rows (``data.values``) are turned into the Arrow table
    Streamlit would make of them on every draw."""
    data = spec.get("data")
    if not (isinstance(data, dict) and isinstance(data.get("values"), list)):
        return spec
    rows = dataframe_util.convert_anything_to_arrow_bytes(data["values"])
    table = pa.ipc.open_stream(rows).read_all()
    return {**spec, "data": {**data, "values": table}}
