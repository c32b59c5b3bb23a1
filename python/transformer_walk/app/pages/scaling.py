"""Scaling: why the scores are divided by √d_k (“From word vectors to Transformer” §18–19).

The sentence's attention weights with the toy's ``scale`` option on and off (two traces), the
measured variance of q·k against d_k, and the softmax saturating as d_k grows — computed by
``transformer_walk.topics.scaling`` with the sidebar backend's softmax. Holds no math.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts, links
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import scaling as charts_scaling
from transformer_walk.app.i18n import join_sentences, t
from transformer_walk.app.model_widgets import toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import token_axis
from transformer_walk.app.widgets import keep_valid_choice, page_start, solved_and_hurts
from transformer_walk.core import get_backend
from transformer_walk.models.toy import ToyConfig, Trace, tokenize
from transformer_walk.topics import scaling

D_MODEL_KEY = "scale_d_model"
H_KEY = "scale_h"
HEAD_KEY = "scale_head"
SAMPLES_KEY = "scale_samples"
TRIALS_KEY = "scale_trials"

D_MODELS = [8, 16, 32, 64, 128]
SHOWN = 16  # query rows drawn in the weights heatmaps (and keys, for a short sentence)
MAX_SHOWN_KEYS = 48  # keys drawn per row at full width: cells stay ~14 px
MAX_KEYS = 64  # keys per softmax row in the saturation experiment (pure Python stays quick)
ORIGINAL_D_K = 64  # the original Transformer's 512 / 8


@st.cache_data(show_spinner=False, max_entries=16)
def _variance(samples: int) -> scaling.Variance:
    return scaling.dot_variance(scaling.D_KS, samples=samples, seed=0)


@st.cache_data(show_spinner=False, max_entries=32)
def _saturation(backend: str, n_keys: int, trials: int) -> scaling.Saturation:
    softmax = get_backend(backend).softmax
    return scaling.saturation(softmax, scaling.D_KS, n_keys=n_keys, trials=trials, seed=0)


def _sentence(text: str, backend: str) -> None:
    st.header(t("scaling.sent.title"), divider="gray")
    st.markdown(t("scaling.sent.body"))
    links.linked(D_MODEL_KEY, D_MODELS[3], D_MODELS)
    c1, c2, c3 = st.columns(3)
    d_model = c1.selectbox("d_model", D_MODELS, index=3, key=D_MODEL_KEY, help=t("scaling.d_help"))
    heads = [h for h in (1, 2, 4, 8) if d_model % h == 0]
    links.linked(H_KEY, 2, heads)
    keep_valid_choice(H_KEY, heads, 2)
    h = c2.selectbox(t("scaling.h"), heads, key=H_KEY)
    head_labels = {r: t("scaling.head_label", number=r + 1) for r in range(h)}
    keep_valid_choice(HEAD_KEY, list(range(h)), 0)
    head = c3.selectbox(
        t("scaling.head"), list(range(h)), format_func=head_labels.__getitem__, key=HEAD_KEY
    )
    config = ToyConfig(d_model=int(d_model), h=int(h))
    run_on = toy_backend(backend, config, [text, text])  # with and without ÷√d_k
    with st.spinner(t("scaling.sent.computing")):
        scaled = toy_trace_or_none(text, config, run_on)
        if scaled is None:
            return
        unscaled = toy_trace_or_none(text, replace(config, scale=False), run_on)
    assert unscaled is not None  # same text: if one trace exists, so does the other
    st.caption(t("scaling.sent.shapes", d_k=config.d_k, root=f"{np.sqrt(config.d_k):.3f}"))
    # A long sentence: each map at full width, one above the other, so that the rows it shows
    # carry all their keys (up to MAX_SHOWN_KEYS) and the row's peak is in the picture.
    wide = scaled.n > SHOWN
    places = [st.container(), st.container()] if wide else st.columns(2, gap="large")
    for place, trace, title in (
        (places[0], scaled, t("scaling.sent.on")),
        (places[1], unscaled, t("scaling.sent.off")),
    ):
        with place:
            _weights_panel(trace, head, title, width=charts.FULL if wide else charts.HALF)
    if wide:
        keys = min(scaled.n, MAX_SHOWN_KEYS)
        st.caption(t("scaling.first_rows", shown=SHOWN, keys=keys, n=scaled.n))


def _weights_panel(trace: Trace, head: int, title: str, width: int) -> None:
    weights = trace.blocks[0].weights[head]  # (n, n)
    stats = scaling.row_stats(weights)
    st.markdown(f"**{title}**")
    m1, m2 = st.columns(2)
    m1.metric(t("scaling.metric.max"), f"{stats.mean_max:.3f}")
    m2.metric(
        t("scaling.metric.entropy"), f"{stats.mean_entropy:.3f}",
        help=t("scaling.metric.entropy_help", top=f"{stats.max_entropy:.3f}"),
    )  # fmt: skip
    shown, keys = min(trace.n, SHOWN), min(trace.n, MAX_SHOWN_KEYS)
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            weights[:shown, :keys],  # (shown, keys): the first queries' rows, all their keys
            token_axis(trace.tokens, 0, shown),
            token_axis(trace.tokens, 0, keys),
            row_title=t("scaling.query"),
            col_title=t("scaling.key"),
            value_title="α",
            domain=(0.0, 1.0),
            width=width,
        ),
        width="content",
    )


def _variance_section() -> None:
    st.header(t("scaling.var.title"), divider="gray")
    st.markdown(t("scaling.var.body"))
    st.latex(
        r"\operatorname{Var}(\boldsymbol{q}\cdot\boldsymbol{k})"
        r"= \sum_{r=1}^{d_k} \operatorname{Var}(q_r k_r)"
        r"= \sum_{r=1}^{d_k} \mathbb{E}[q_r^2]\,\mathbb{E}[k_r^2] = d_k,"
        r"\qquad \operatorname{Var}\!\left("
        r"\frac{\boldsymbol{q}\cdot\boldsymbol{k}}{\sqrt{d_k}}\right)"
        r"= 1"
    )
    samples = st.select_slider(
        t("scaling.samples"), options=[200, 500, 1000, 2000, 5000, 10000], value=2000,
        key=SAMPLES_KEY, help=t("scaling.samples_help"), format_func=lambda v: f"{v:,}",
    )  # fmt: skip
    result = _variance(int(samples))
    raw, scaled, theory = (
        t("scaling.var.series.raw"),
        t("scaling.var.series.scaled"),
        t("scaling.var.series.theory"),
    )
    frame = pd.DataFrame(
        [
            row
            for a, d_k in enumerate(result.d_ks)
            for row in (
                {"d_k": d_k, "value": float(result.unscaled[a]), "series": raw},
                {"d_k": d_k, "value": float(result.scaled[a]), "series": scaled},
                {"d_k": d_k, "value": float(d_k), "series": theory},
            )
        ]
    )
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.vega_lite_chart(
            chart_spec(
                charts_scaling.curves,
                frame,
                x_title="d_k",
                y_title=t("scaling.var.y"),
                series_title="",
                series_order=[raw, scaled, theory],
                log_y=True,
                dashed=[theory],
                fmt=".2f",
            ),  # fmt: skip
            width="stretch",
        )
    with right:
        st.dataframe(
            pd.DataFrame(
                {
                    "d_k": result.d_ks,
                    # (Var(q·k)/d_k would repeat the last column: Var(x/c) = Var(x)/c²)
                    "Var(q·k)": result.unscaled,
                    "Var(q·k/√d_k)": result.scaled,
                }
            ).set_index("d_k"),
            width="stretch",
            height="content",  # every d_k, up to the largest
            column_config={
                c: st.column_config.NumberColumn(format="%.2f")
                for c in ("Var(q·k)", "Var(q·k/√d_k)")
            },
        )
    at = result.d_ks.index(ORIGINAL_D_K)
    st.caption(
        t(
            "scaling.var.note",
            samples=f"{result.samples:,}",
            d_k=ORIGINAL_D_K,
            var=f"{result.unscaled[at]:.1f}",
            std=f"{np.sqrt(result.unscaled[at]):.1f}",
        )
    )


def _gradient_reading(g: scaling.GradientReading) -> None:
    """The sentences under the metrics, written from the curves' numbers."""
    values = dict(
        d_k=g.d_k, n=g.n_keys, unscaled=f"{g.unscaled:.3f}", scaled=f"{g.scaled:.3f}",
        max_weight=f"{g.max_weight:.2f}", last=f"{g.last:.3f}", last_d_k=g.last_d_k,
    )  # fmt: skip
    lines = [t(f"scaling.sat.reading.{g.verdict}", **values)]
    if g.rises_first:
        lines.append(
            t("scaling.sat.reading.rise", peak=f"{g.peak:.3f}", peak_d_k=g.peak_d_k,
              uniform=f"{g.uniform:.3f}", n=g.n_keys)
        )  # fmt: skip
    low, high = f"{g.scaled_low:.3f}", f"{g.scaled_high:.3f}"
    lines.append(t("scaling.sat.reading.scaled", low=low, high=high))
    st.markdown(join_sentences(lines))


def _saturation_section(n_tokens: int, backend: str) -> None:
    st.header(t("scaling.sat.title"), divider="gray")
    n_keys = min(max(n_tokens, 2), MAX_KEYS)
    st.markdown(t("scaling.sat.body", n=n_keys))
    st.latex(
        r"\alpha_j = \frac{e^{s_j}}{\sum_{\ell} e^{s_\ell}},\qquad "
        r"H(\boldsymbol{\alpha}) = -\sum_j \alpha_j \log \alpha_j \;\in [0, \log n]"
    )
    if n_tokens > MAX_KEYS:
        st.caption(t("scaling.sat.capped", n=n_tokens, cap=MAX_KEYS))
    elif n_tokens < 2:
        st.caption(t("scaling.sat.two_keys"))
    trials = st.select_slider(
        t("scaling.trials"), options=[50, 100, 200, 500], value=200, key=TRIALS_KEY,
        help=t("scaling.trials_help"),
    )  # fmt: skip
    with st.spinner(t("scaling.sat.computing")):
        result = _saturation(backend, n_keys, int(trials))
    st.caption(
        t(
            "scaling.sat.computed",
            backend=t(f"backend.{backend}"),
            rows=f"{2 * len(result.d_ks) * result.trials:,}",
            n=n_keys,
        )
    )
    off, on, uniform = t("scaling.sat.off"), t("scaling.sat.on"), t("scaling.sat.uniform")

    def frame(values: dict[str, np.ndarray], reference: float | None = None) -> pd.DataFrame:
        rows = []
        for a, d_k in enumerate(result.d_ks):
            rows.append({"d_k": d_k, "value": float(values["unscaled"][a]), "series": off})
            rows.append({"d_k": d_k, "value": float(values["scaled"][a]), "series": on})
            if reference is not None:
                rows.append({"d_k": d_k, "value": reference, "series": uniform})
        return pd.DataFrame(rows)

    c1, c2, c3 = st.columns(3)
    with c1:
        st.markdown(t("scaling.sat.max_title"))
        st.vega_lite_chart(
            chart_spec(
                charts_scaling.curves,
                frame(result.max_weight, 1.0 / n_keys),
                x_title="d_k",
                y_title=t("scaling.sat.max_y"),
                series_title="",
                series_order=[off, on, uniform],
                dashed=[uniform],
                y_domain=(0.0, 1.0),
            ),  # fmt: skip
            width="stretch",
        )
    with c2:
        st.markdown(t("scaling.sat.entropy_title"))
        st.vega_lite_chart(
            chart_spec(
                charts_scaling.curves,
                frame(result.entropy, float(np.log(n_keys))),
                x_title="d_k",
                y_title=t("scaling.sat.entropy_y"),
                series_title="",
                series_order=[off, on, uniform],
                dashed=[uniform],
            ),  # fmt: skip
            width="stretch",
        )
    with c3:
        st.markdown(t("scaling.sat.jac_title"))
        st.vega_lite_chart(
            chart_spec(
                charts_scaling.curves,
                frame(result.jacobian),
                x_title="d_k",
                y_title=t("scaling.sat.jac_y"),
                series_title="",
                series_order=[off, on],
            ),  # fmt: skip
            width="stretch",
        )
    at = result.d_ks.index(ORIGINAL_D_K)
    m1, m2, m3, m4 = st.columns(4)
    for col, key, values in (
        (m1, "scaling.sat.metric.max_off", result.max_weight["unscaled"]),
        (m2, "scaling.sat.metric.max_on", result.max_weight["scaled"]),
        (m3, "scaling.sat.metric.jac_off", result.jacobian["unscaled"]),
        (m4, "scaling.sat.metric.jac_on", result.jacobian["scaled"]),
    ):
        col.metric(t(key, d_k=ORIGINAL_D_K), f"{values[at]:.3f}")
    _gradient_reading(scaling.gradient_reading(result, ORIGINAL_D_K))
    st.subheader(t("scaling.why.title"))
    st.markdown(t("scaling.why.body"))
    st.latex(
        r"\frac{\partial \alpha_i}{\partial s_j} = \alpha_i\,(\delta_{ij} - \alpha_j)"
        r"\quad\Longrightarrow\quad"
        r"\boldsymbol{\alpha} \to (0,\dots,1,\dots,0):\;"
        r"\frac{\partial \boldsymbol{\alpha}}{\partial \boldsymbol{s}} \to 0"
    )
    st.markdown(t("scaling.why.after"))


def render() -> None:
    name = page_start("scaling.title")
    if name is None:
        return
    st.markdown(t("scaling.intro"))
    st.latex(
        r"\operatorname{Attention}(Q,K,V)"
        r"= \operatorname{softmax}\!\left(\frac{QK^{\mathsf T}}{\sqrt{d_k}}\right)V"
    )
    text = current_sentence()
    _sentence(text, name)
    n_tokens = len(tokenize(text))
    _variance_section()
    _saturation_section(n_tokens, name)
    solved_and_hurts(t("scaling.solved"), t("scaling.hurts"))


render()
