"""Seq2seq and its bottleneck: one fixed context vector vs a per-step context (Bahdanau attention).

Renders ``transformer_walk.topics.seq2seq`` (the softmax and weighted sums on the sidebar's
backend); holds no math.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts
from transformer_walk.app.charts import seq2seq as charts_seq2seq
from transformer_walk.app.i18n import t
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import token_axis
from transformer_walk.app.widgets import page_start, solved_and_hurts
from transformer_walk.core import get_backend
from transformer_walk.models.toy import tokenize
from transformer_walk.topics.seq2seq import (
    MAX_SOURCE,
    PAIRS,
    ReadbackRow,
    Seq2SeqTrace,
    mirror_pair,
    readback,
    run,
)

PAIR_KEY = "s2s_pair"
DIM_KEY = "s2s_dim"
SHARP_KEY = "s2s_sharpness"
DIM_OPTIONS = [4, 8, 16, 32]
READBACK_VOCAB = 16


@st.cache_data(show_spinner=False, max_entries=8)
def readback_rows(d: int) -> list[ReadbackRow]:
    return readback(d=d, vocab_size=READBACK_VOCAB)


@st.cache_data(show_spinner=False, max_entries=64)
def seq2seq_trace(
    source: tuple[str, ...], pair_key: str, backend: str, d: int, sharpness: float
) -> Seq2SeqTrace:
    pair = mirror_pair(source) if pair_key == "mirror" else PAIRS[pair_key]
    return run(pair, get_backend(backend), backend, d=d, sharpness=sharpness)


def _intro() -> None:
    st.markdown(t("s2s.intro"))
    st.latex(
        r"\boldsymbol{h}_i = \tanh(W_x\boldsymbol{x}_i + W_h\boldsymbol{h}_{i-1}),\qquad"
        r"\boldsymbol{c} = \boldsymbol{h}_T,\qquad "
        r"P(y_t \mid y_{<t}, x_{1:T}) = g(y_{t-1}, \boldsymbol{s}_{t-1}, \boldsymbol{c})"
    )
    st.markdown(t("s2s.intro.problem"))


def _controls() -> tuple[str, int, float]:
    labels = {
        "mirror": t("s2s.pair.mirror"),
        "fr": "the black cat sleeps → le chat noir dort",
        "zh": "I eat breakfast at seven → 我 七点 吃 早饭",
    }
    c1, c2, c3 = st.columns([3, 1, 1])
    pair_key = c1.radio(
        t("s2s.pair"), options=list(labels), format_func=labels.__getitem__, key=PAIR_KEY
    )
    d = c2.select_slider(t("s2s.dim"), options=DIM_OPTIONS, value=16, key=DIM_KEY)
    sharpness = c3.slider(
        t("s2s.sharpness"), 0.5, 8.0, 4.0, step=0.5, key=SHARP_KEY, help=t("s2s.sharpness_help")
    )
    if pair_key == "mirror":
        st.caption(t("s2s.pair.mirror_help"))
    return pair_key, d, sharpness


def _fixed_vs_per_step(trace: Seq2SeqTrace) -> None:
    st.header(t("s2s.fixed.title"), divider="gray")
    st.markdown(t("s2s.fixed.body"))
    target = token_axis(trace.pair.target)
    dims = [str(j + 1) for j in range(trace.states.shape[1])]
    fixed = np.tile(trace.fixed_context, (len(target), 1))  # (T', d): the same c at every step
    span = float(max(np.abs(fixed).max(), np.abs(trace.contexts).max(), 1e-9))
    left, right = st.columns(2)
    for col, matrix, title, latex in (
        (left, fixed, t("s2s.fixed.fixed"), r"\boldsymbol{c} = \boldsymbol{h}_T"),
        (right, trace.contexts, t("s2s.fixed.attention"),
         r"\boldsymbol{c}_t = \sum_i \alpha_{t,i}\,\boldsymbol{h}_i"),
    ):  # fmt: skip
        with col:
            st.markdown(f"**{title}**")
            st.latex(latex)
            st.vega_lite_chart(
                charts.heatmap(
                    matrix,
                    target,
                    dims,
                    row_title=t("s2s.axis.step"),
                    col_title=t("s2s.axis.dim"),
                    value_title=t("s2s.axis.value"),
                    domain=(-span, span),
                    width=charts.HALF,
                ),
                width="content",
            )
    spread = float(np.ptp(trace.contexts, axis=0).max()) if len(target) > 1 else 0.0
    st.markdown(t("s2s.fixed.compare", steps=len(target), spread=f"{spread:.3f}"))


def _alignment(trace: Seq2SeqTrace) -> None:
    st.header(t("s2s.align.title"), divider="gray")
    st.markdown(t("s2s.align.body"))
    st.latex(
        r"e_{t,i} = \beta\,\frac{\boldsymbol{q}_t\cdot\boldsymbol{h}_i}{\sqrt{d}},\qquad"
        r"\alpha_{t,i} = \frac{\exp(e_{t,i})}{\sum_j \exp(e_{t,j})},\qquad"
        r"\boldsymbol{c}_t = \sum_i \alpha_{t,i}\,\boldsymbol{h}_i"
    )
    st.caption(t("s2s.align.construction"))
    source, target = token_axis(trace.pair.source), token_axis(trace.pair.target)
    st.vega_lite_chart(
        charts.heatmap(
            trace.weights,
            target,
            source,
            row_title=t("s2s.axis.target"),
            col_title=t("s2s.axis.source"),
            value_title="α",
            domain=(0.0, 1.0),
        ),
        width="content",
    )
    hits, total = trace.aligned_hits, len(target)
    st.markdown(
        t(
            "s2s.align.hits",
            hits=hits,
            total=total,
            backend=t(f"backend.{trace.backend}"),
            beta=f"{trace.sharpness:g}",
        )
    )
    t0 = 0
    row = trace.weights[t0]
    terms = " + ".join(f"{a:.2f}\\,\\boldsymbol{{h}}_{{{i + 1}}}" for i, a in enumerate(row[:8]))
    if len(row) > 8:
        terms += r" + \cdots"
    st.latex(rf"\boldsymbol{{c}}_1 = {terms}\quad(\text{{{_latex_safe(trace.pair.target[t0])}}})")
    st.info(t("s2s.align.caveat"), icon=":material/info:")


def _latex_safe(word: str) -> str:
    return "".join(ch if ch.isalnum() or ch in " -'" else " " for ch in word).strip() or "?"


def _bottleneck(d: int) -> None:
    st.header(t("s2s.neck.title"), divider="gray")
    st.markdown(t("s2s.neck.body", vocab=READBACK_VOCAB))
    with st.spinner(t("s2s.neck.running")):
        rows = readback_rows(d)
    first = t("s2s.neck.series.first")
    mean = t("s2s.neck.series.mean")
    own = t("s2s.neck.series.own")
    frame = pd.DataFrame(
        [
            {"T": r.length, "series": name, "accuracy": value}
            for r in rows
            for name, value in (
                (first, r.first_from_final),
                (mean, r.mean_from_final),
                (own, r.mean_from_own),
            )
        ]
    )
    chance = 1 / READBACK_VOCAB
    st.altair_chart(
        charts_seq2seq.readback(
            frame,
            chance,
            series_order=[first, mean, own],
            length_title=t("s2s.neck.axis_length"),
            accuracy_title=t("s2s.neck.axis_accuracy"),
            series_title=t("s2s.neck.axis_series"),
            chance_label=t("s2s.neck.chance", chance=f"{chance:.0%}"),
        ),
        width="stretch",
    )
    by_length = {r.length: r for r in rows}
    short, long = by_length[2], by_length[max(by_length)]
    st.markdown(
        t(
            "s2s.neck.summary",
            d=d,
            short=f"{short.first_from_final:.0%}",
            long_T=long.length,
            long=f"{long.first_from_final:.0%}",
            mean=f"{long.mean_from_final:.0%}",
            own=f"{long.mean_from_own:.0%}",
            chance=f"{chance:.0%}",
        )
    )


def render() -> None:
    name = page_start("s2s.title")
    if name is None:
        return
    _intro()
    tokens = tokenize(current_sentence())
    pair_key, d, sharpness = _controls()
    trace = None
    if pair_key == "mirror":
        if not tokens:
            st.info(t("s2s.empty"), icon=":material/edit_note:")
        else:
            if len(tokens) > MAX_SOURCE:
                st.caption(t("s2s.capped", shown=MAX_SOURCE, n=len(tokens)))
            trace = seq2seq_trace(tuple(tokens[:MAX_SOURCE]), "mirror", name, d, sharpness)
    else:
        trace = seq2seq_trace((), pair_key, name, d, sharpness)
    if trace is not None:
        _fixed_vs_per_step(trace)
        _alignment(trace)
    _bottleneck(d)
    solved_and_hurts(t("s2s.solved"), t("s2s.hurts"))


render()
