"""The Transformer block: multi-head attention → residual → LayerNorm → FFN → residual → LayerNorm,
every intermediate from the toy trace with its shape and row statistics; Post-LN vs Pre-LN; L blocks
stacked. Renders ``caches.toy_trace`` and what ``views.block`` derives from it; holds no math."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import toy_trace
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import heatmap
from transformer_walk.app.charts import positions as charts
from transformer_walk.app.i18n import t, translated_radio
from transformer_walk.app.model_widgets import toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views import block as views
from transformer_walk.app.views.labels import shape_label, shown_as, token_axis, token_labels
from transformer_walk.app.widgets import page_start, pick, solved_and_hurts, token_index
from transformer_walk.models.toy import Norm, ToyConfig, Trace
from transformer_walk.topics.claims import percent

NORM_KEY = "blk_norm"
LAYERS_KEY = "blk_layers"
LAYER_KEY = "blk_layer"
STAGE_KEY = "blk_stage"
MAX_ROWS = 12  # tokens drawn in the matrices and the per-token charts
MAX_LAYERS = 6
DEFAULT_LAYERS = 4  # enough to see the stack drift; block 1 is inspected first

STAGE_NAMES = {
    "x_in": "block.stage.x_in",
    "attn_in": "block.stage.attn_in",
    "attn_out": "block.stage.attn_out",
    "resid1": "block.stage.resid1",
    "norm1": "block.stage.norm1",
    "ffn_hidden": "block.stage.ffn_hidden",
    "ffn_out": "block.stage.ffn_out",
    "resid2": "block.stage.resid2",
    "out": "block.stage.out",
}


def _controls() -> tuple[Norm, int]:
    norm_labels: dict[Norm, str] = {"post": t("block.norm.post"), "pre": t("block.norm.pre")}
    links.linked(NORM_KEY, "post", list(norm_labels))
    links.linked(LAYERS_KEY, DEFAULT_LAYERS, range(1, MAX_LAYERS + 1))
    st.session_state.setdefault(NORM_KEY, "post")
    left, right = st.columns(2)
    with left:
        norm = st.radio(
            t("block.norm.label"),
            options=list(norm_labels),
            format_func=norm_labels.__getitem__,
            key=translated_radio(NORM_KEY),
            horizontal=True,
            help=t("block.norm.help"),
        )
    with right:
        layers = st.slider(t("block.layers"), 1, MAX_LAYERS, DEFAULT_LAYERS, key=LAYERS_KEY)
    return norm, layers


def _diagram(trace: Trace, block_index: int) -> None:
    block, norm = trace.blocks[block_index], trace.config.norm
    shapes = {s: views.stage_array(block, s).shape for s in views.STAGES[norm] + ("resid2",)}
    shapes["attn_in"] = block.attn_in.shape
    labels = {
        "x_in": t("block.node.input"),
        "mha": t("block.node.mha"),
        "add1": t("block.node.add"),
        "add2": t("block.node.add"),
        "ln1": "LayerNorm",
        "ln2": "LayerNorm",
        "ffn": t("block.node.ffn", d_ff=trace.config.d_ff),
        "out": t("block.node.out"),
    }
    left, right = st.columns([1, 2])
    with left:
        st.graphviz_chart(views.block_diagram_dot(labels, shapes, norm))
    with right:
        st.markdown(t("block.roles"))
        counts = views.parameter_counts(trace)
        d, f = trace.config.d_model, trace.config.d_ff
        st.latex(
            rf"\underbrace{{4 \cdot {d}^2}}_{{W^Q,W^K,W^V,W^O}} = {counts['attention']},\qquad "
            rf"\underbrace{{2 \cdot {d} \cdot {f} + {f} + {d}}}_{{W_1, b_1, W_2, b_2}} = "
            rf"{counts['ffn']}"
        )
        st.caption(t("block.params_note"))


def _stage_table(trace: Trace, block_index: int) -> None:
    st.header(t("block.stages.title"), divider="gray")
    norm = trace.config.norm
    st.markdown(t("block.stages.body"))
    block = trace.blocks[block_index]
    summaries = views.stage_summaries(block, norm)
    step, shape_col, mean_col, var_col = (
        t("block.col.step"), t("block.col.shape"), t("block.col.mean"), t("block.col.var"),
    )  # fmt: skip
    st.dataframe(
        pd.DataFrame(
            {
                step: [t(STAGE_NAMES[s.stage]) for s in summaries],
                t("block.col.formula"): [views.PLAIN_FORMULAS[norm][s.stage] for s in summaries],
                shape_col: [shape_label(s.shape) for s in summaries],
                mean_col: shown_as([np.mean(s.stats.mean) for s in summaries], 4),
                var_col: shown_as([np.mean(s.stats.var) for s in summaries], 4),
                "LN": ["✓" if s.normalised else "" for s in summaries],
            }
        ).set_index(step),
        column_config={
            mean_col: st.column_config.NumberColumn(format="%.4f"),
            var_col: st.column_config.NumberColumn(format="%.4f"),
        },
    )
    shown = min(trace.n, MAX_ROWS)
    tokens = list(token_labels(trace.tokens, range(shown)).values())
    frame = pd.DataFrame(
        [
            {"stage": t(STAGE_NAMES[s.stage]), "token": tokens[i], "var": float(s.stats.var[i])}
            for s in summaries
            for i in range(shown)
        ]
    )
    st.markdown(t("block.stages.chart"))
    st.vega_lite_chart(
        chart_spec(
            charts.stage_dots,
            frame,
            stage_order=[t(STAGE_NAMES[s.stage]) for s in summaries],
            token_order=tokens,
            y="var",
            y_title=t("block.col.var"),
            x_title=t("block.col.step"),
        ),
        width="stretch",
    )
    if shown < trace.n:
        st.caption(t("block.first_rows", shown=shown, n=trace.n))

    labels = {s.stage: t(STAGE_NAMES[s.stage]) for s in summaries}
    stage = pick(t("block.stages.pick"), STAGE_KEY, labels, "resid1")
    values = views.stage_array(block, stage)[:shown]  # (shown, d_model or d_ff)
    dims = shape_label(views.stage_array(block, stage).shape, times=True, latex=True)
    st.latex(rf"{views.FORMULAS[norm][stage]} \in \mathbb{{R}}^{{{dims}}}")
    st.vega_lite_chart(
        chart_spec(
            heatmap,
            values,
            token_axis(trace.tokens, 0, shown),
            [str(c + 1) for c in range(values.shape[1])],
            row_title="",
            col_title=t("block.axis.feature"),
            value_title=t("block.axis.value"),
        ),
        width="content",
    )


def _layer_norm(trace: Trace, block_index: int) -> None:
    st.header(t("block.ln.title"), divider="gray")
    st.markdown(t("block.ln.body"))
    st.latex(
        r"\operatorname{LN}(x) = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}},\quad "
        r"\mu = \frac{1}{d_{\text{model}}}\sum_j x_j,\quad "
        r"\sigma^2 = \frac{1}{d_{\text{model}}}\sum_j (x_j - \mu)^2"
    )
    norm, block = trace.config.norm, trace.blocks[block_index]
    shown = min(trace.n, MAX_ROWS)
    index, token_config = token_index(
        list(token_labels(trace.tokens, range(shown)).values()), "token"
    )
    for before, after in views.layer_norm_pairs(block, norm):
        b = views.RowStats.of(views.stage_array(block, before))
        a = views.RowStats.of(views.stage_array(block, after))
        name_b, name_a = t(STAGE_NAMES[before]), t(STAGE_NAMES[after])
        st.markdown(t("block.ln.pair", before=name_b, after=name_a))
        columns = {
            f"μ {name_b}": shown_as(b.mean[:shown], 4), f"σ² {name_b}": shown_as(b.var[:shown], 4),
            f"μ {name_a}": shown_as(a.mean[:shown], 4), f"σ² {name_a}": shown_as(a.var[:shown], 4),
        }  # fmt: skip
        st.dataframe(
            pd.DataFrame(columns, index=index),
            column_config={
                **token_config,
                **{c: st.column_config.NumberColumn(format="%.4f") for c in columns},
            },
        )
    st.caption(t("block.ln.eps"))


def _ffn(trace: Trace, block_index: int) -> None:
    st.header(t("block.ffn.title"), divider="gray")
    cfg, block = trace.config, trace.blocks[block_index]
    st.markdown(t("block.ffn.body"))
    st.latex(
        rf"\operatorname{{FFN}}(x) = \max(0,\ xW_1 + b_1)\,W_2 + b_2,\quad "
        rf"W_1 \in \mathbb{{R}}^{{{cfg.d_model} \times {cfg.d_ff}}},\ "
        rf"W_2 \in \mathbb{{R}}^{{{cfg.d_ff} \times {cfg.d_model}}}"
    )
    zeros = float(np.mean(block.ffn_hidden == 0.0))
    st.metric(t("block.ffn.zeros"), percent(zeros))


def _why() -> None:
    st.header(t("block.why.title"), divider="gray")
    st.markdown(t("block.why.body"))
    st.latex(
        r"\text{Post-LN: } x \leftarrow \operatorname{LN}(x + \operatorname{Sublayer}(x))"
        r"\qquad \text{Pre-LN: } x \leftarrow x + \operatorname{Sublayer}(\operatorname{LN}(x))"
    )


def _stack(text: str, layers: int, backend: str, trace: Trace) -> None:
    st.header(t("block.stack.title"), divider="gray")
    st.markdown(t("block.stack.body", layers=layers))
    view = views.stack_view(trace)
    shown = min(trace.n, MAX_ROWS)
    tokens = list(token_labels(trace.tokens, range(shown)).values())
    frame = pd.DataFrame(
        [
            {"block": layer, "cos": float(view.cos_with_input[layer, i]), "token": tokens[i]}
            for layer in range(layers + 1)
            for i in range(shown)
        ]
    )
    st.vega_lite_chart(
        chart_spec(charts.lines,
            frame, x="block", y="cos", series="token", x_title=t("block.stack.block"),
            y_title=t("block.stack.cos"), series_order=tokens, points=True,
        ),
        width="stretch",
    )  # fmt: skip
    st.latex(
        r"\cos\big(x^{(\ell)}_i,\ x^{(0)}_i\big) = "
        r"\frac{x^{(\ell)}_i \cdot x^{(0)}_i}{\lVert x^{(\ell)}_i\rVert\,\lVert x^{(0)}_i\rVert}"
        rf",\quad \overline{{\cos}}\big(x^{{({layers})}},\ x^{{(0)}}\big) = "
        rf"{float(np.mean(view.cos_with_input[-1])):.4f}"
    )
    if shown < trace.n:
        st.caption(t("block.first_rows", shown=shown, n=trace.n))

    st.subheader(t("block.compare.title"))
    st.markdown(t("block.compare.body"))
    norm_labels: dict[Norm, str] = {"post": t("block.norm.post"), "pre": t("block.norm.pre")}
    rows = []
    for norm, label in norm_labels.items():
        other = (
            trace
            if norm == trace.config.norm
            else toy_trace(text, ToyConfig(n_layers=layers, norm=norm), backend)
        )
        stats = views.stack_view(other)
        rows += [
            {"block": layer, "norm": float(np.mean(stats.row_norm[layer])), "series": label}
            for layer in range(layers + 1)
        ]
    st.vega_lite_chart(
        chart_spec(charts.lines,
            pd.DataFrame(rows), x="block", y="norm", series="series",
            x_title=t("block.stack.block"), y_title=t("block.compare.length"),
            series_order=list(norm_labels.values()), points=True,
        ),
        width="stretch",
    )  # fmt: skip


def render() -> None:
    name = page_start("block.title")
    if name is None:
        return
    st.markdown(t("block.intro"))
    norm, layers = _controls()
    text, config = current_sentence(), ToyConfig(n_layers=layers, norm=norm)
    run_on = toy_backend(name, config, [text, text])  # Post-LN and Pre-LN, compared below
    with st.spinner(t("block.computing")):
        trace = toy_trace_or_none(text, config, run_on)
    if trace is None:
        return
    block_index = 0
    if layers > 1:
        labels = {i: t("block.layer_label", number=i + 1) for i in range(layers)}
        block_index = pick(t("block.layer_pick"), LAYER_KEY, labels, 0)
    _diagram(trace, block_index)
    _stage_table(trace, block_index)
    _layer_norm(trace, block_index)
    _ffn(trace, block_index)
    _why()
    _stack(text, layers, run_on, trace)
    solved_and_hurts(t("block.solved"), t("block.hurts"))


render()
