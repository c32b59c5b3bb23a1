"""The whole pipeline: raw text to contextual representations as one diagram
(“From word vectors to Transformer” §33–34, §36).

Every node carries its live shape for the sidebar's sentence and opens to its numbers; the stops
come from ``views.pipeline`` over the toy trace (``caches.toy_trace``). Holds no math.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts, links
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.i18n import t
from transformer_walk.app.model_widgets import toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views import pipeline as views
from transformer_walk.app.views.labels import token_axis
from transformer_walk.app.views.latex import tex_words
from transformer_walk.app.widgets import page_start, pick, solved_and_hurts
from transformer_walk.models.toy import ToyConfig, Trace

LAYERS_KEY = "pipe_layers"
BLOCK_KEY = "pipe_block"
STOP_KEY = "pipe_stop"
HEAD_KEY = "pipe_head"
MAX_SHOWN = 16  # rows and columns of a stop's heatmap; the table below holds them all


def _labels() -> dict[str, str]:
    return {
        "text": t("pipeline.node.text"),
        "tokens": t("pipeline.node.tokens"),
        "ids": t("pipeline.node.ids"),
        "one_hot": t("pipeline.node.one_hot"),
        "embeddings": t("pipeline.node.embeddings"),
        "positions": t("pipeline.node.positions"),
        "qkv": t("pipeline.node.qkv"),
        "heads": t("pipeline.node.heads"),
        "weights": t("pipeline.node.weights"),
        "head_out": t("pipeline.node.head_out"),
        "concat": t("pipeline.node.concat"),
        "w_o": t("pipeline.node.w_o"),
        "norm1": t("pipeline.node.norm1"),
        "ffn": t("pipeline.node.ffn"),
        "norm2": t("pipeline.node.norm2"),
        "output": t("pipeline.node.output"),
        "block": t("pipeline.node.block"),
    }


def _stage_names() -> dict[str, str]:
    return {
        "representation": t("pipeline.stage.representation"),
        "interaction": t("pipeline.stage.interaction"),
        "aggregation": t("pipeline.stage.aggregation"),
        "token": t("pipeline.stage.token"),
    }


def _framing() -> None:
    st.subheader(t("pipeline.framing.title"))
    st.markdown(t("pipeline.framing.body"))
    st.latex(
        r"\underbrace{X = \operatorname{Embed}(\text{tokens}) + PE}_{"
        + tex_words(t("pipeline.tex.representation"))
        + r"}\;\to\;\underbrace{A = \operatorname{softmax}\!\left(\tfrac{QK^{\mathsf T}}"
        + r"{\sqrt{d_k}}\right)}_{"
        + tex_words(t("pipeline.tex.interaction"))
        + r"}\;\to\;\underbrace{AV}_{"
        + tex_words(t("pipeline.tex.aggregation"))
        + "}"
    )
    st.markdown(t("pipeline.framing.qkv"))
    st.caption(t("pipeline.framing.caveat"))


def _controls() -> tuple[int, int]:
    """(number of blocks L, 0-based block whose inside is shown)."""
    links.linked(LAYERS_KEY, ToyConfig.n_layers, range(1, 5))
    left, right = st.columns(2)
    with left:
        layers = st.slider(t("pipeline.layers"), 1, 4, ToyConfig.n_layers, key=LAYERS_KEY)
    block = 0
    with right:
        if layers > 1:
            block = st.selectbox(
                t("pipeline.block"), list(range(layers)), index=0, key=BLOCK_KEY,
                format_func=lambda i: str(i + 1),
            )  # fmt: skip
            block = min(int(block), layers - 1)
    return int(layers), block


def _legend() -> None:
    names = _stage_names()
    chips = " ".join(
        # inline-block + nowrap: a chip that does not fit moves whole to the next line (an
        # inline span broke mid-chip and was clipped at the column's edge)
        f'<span style="background:{views.STAGE_COLOURS[s]};padding:2px 8px;border-radius:6px;'
        f'margin:0 4px 4px 0;display:inline-block;white-space:nowrap">{names[s]}</span>'
        for s in views.STAGES
    )
    st.markdown(chips, unsafe_allow_html=True)


def _matrix_labels(
    stop: views.Stop, trace: Trace, matrix: np.ndarray
) -> tuple[list[str], list[str]]:
    """Row and column labels of a stop's matrix: tokens for rows (and keys), indices otherwise."""
    n_rows, n_cols = matrix.shape
    rows = token_axis(trace.tokens) if n_rows == trace.n else [t("pipeline.row")]
    if stop.key in ("weights", "ids"):
        cols = token_axis(trace.tokens)
    else:
        cols = [str(j) for j in range(n_cols)]
    return rows, cols


def _numbers(stop: views.Stop, trace: Trace) -> None:
    """The selected stop opened: formula, shape, its numbers as a heatmap and a table."""
    st.latex(stop.formula)
    st.markdown(t("pipeline.shape", shape=stop.shape_text))
    if stop.array is None:  # the raw text: no numbers behind it
        st.code(trace.text or " ", language=None)
        return
    if stop.key == "tokens":
        st.dataframe(
            pd.DataFrame(
                {t("pipeline.col.position"): range(trace.n), t("pipeline.col.token"): trace.tokens}
            ),
            hide_index=True,
        )
        return
    array = stop.array
    head = 0
    if array.ndim == 3:
        heads = list(range(array.shape[0]))
        head = st.radio(
            t("pipeline.head"),
            heads,
            horizontal=True,
            key=HEAD_KEY,
            format_func=lambda i: str(i + 1),
        )
        head = min(int(head), array.shape[0] - 1)
    matrix = views.as_matrix(array, head).astype(float)
    rows, cols = _matrix_labels(stop, trace, matrix)
    if stop.key == "one_hot":
        used = views.used_columns(array)
        st.caption(t("pipeline.one_hot_note", used=len(used), V=array.shape[1]))
        matrix = matrix[:, used]
        cols = [trace.vocab.tokens[j] for j in used]
    shown_r, shown_c = min(len(rows), MAX_SHOWN), min(len(cols), MAX_SHOWN)
    if shown_r < len(rows) or shown_c < len(cols):
        st.caption(t("pipeline.window", rows=shown_r, cols=shown_c))
    is_weights = stop.key == "weights"
    st.vega_lite_chart(
        chart_spec(charts.heatmap,
            matrix[:shown_r, :shown_c], rows[:shown_r], cols[:shown_c],
            row_title=t("pipeline.axis.row"), col_title=t("pipeline.axis.col"),
            value_title=t("pipeline.axis.value"),
            fmt=".0f" if stop.key in ("ids", "one_hot") else ".2f",
            # [0, 1] for a short sentence's whole matrix; a long one's weights are small, and the
            # scale then spreads over what is shown.
            domain=(0.0, 1.0) if is_weights and len(cols) == shown_c <= 12 else None,
            width=charts.FULL * 3 // 5,  # the right of columns [2, 3]
        ),
        width="content",
    )  # fmt: skip
    frame = pd.DataFrame(matrix, columns=[f"{j}:{c}" for j, c in enumerate(cols)])
    frame.insert(0, t("pipeline.col.token"), rows)
    with st.expander(t("pipeline.all_numbers")):
        st.dataframe(frame, hide_index=True)
    if is_weights:
        st.caption(t("pipeline.rows_sum", total=f"{matrix.sum(axis=1).mean():.4f}"))


def render() -> None:
    name = page_start("pipeline.title")
    if name is None:
        return
    st.markdown(t("pipeline.intro"))
    text = current_sentence()
    layers, block = _controls()
    config = ToyConfig(n_layers=layers)
    trace = toy_trace_or_none(text, config, toy_backend(name, config, [text]))
    if trace is None:
        return
    stops = views.pipeline_stops(trace, block, t("pipeline.text_size", n=len(trace.text)))
    by_key = {s.key: s for s in stops}
    labels = _labels()
    option_labels = {s.key: f"{labels[s.key]} {s.shape_text}" for s in stops}

    diagram, detail = st.columns([2, 3])
    with detail:
        st.subheader(t("pipeline.open.title"))
        key = pick(t("pipeline.open"), STOP_KEY, option_labels, "weights", linked=True)
        stop = by_key[key]
        st.caption(t("pipeline.stage_of", stage=_stage_names()[stop.stage]))
        _numbers(stop, trace)
    with diagram:
        st.subheader(t("pipeline.diagram.title"))
        st.caption(
            t("pipeline.diagram.caption", n=trace.n, V=len(trace.vocab),
              d_model=trace.config.d_model, h=trace.config.h, d_k=trace.config.d_k,
              d_ff=trace.config.d_ff, L=layers)
        )  # fmt: skip
        _legend()
        st.graphviz_chart(views.pipeline_dot(stops, labels, selected=key, layers=layers))

    _framing()
    solved_and_hurts(t("pipeline.solved"), t("pipeline.hurts"))


render()
