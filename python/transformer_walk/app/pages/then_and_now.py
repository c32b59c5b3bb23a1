"""2017 vs today: the toy model's original block beside SmolLM2's decoder layer. The table reads
both configs (``topics.then_and_now.design_rows``); RoPE, GQA, RMSNorm and SwiGLU are shown on
SmolLM2's trace of the sidebar's sentence (``caches.smollm2_traced``) and the toy trace
(``caches.toy_trace``). Holds no math: ``topics.then_and_now`` computes, ``views.then_and_now``
words the numbers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import smollm2_traced
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import heatmap
from transformer_walk.app.charts import then_and_now as charts
from transformer_walk.app.i18n import say, t
from transformer_walk.app.model_widgets import smollm2_model, toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views import then_and_now as views
from transformer_walk.app.views.byte_text import piece_labels
from transformer_walk.app.views.labels import human_bytes, token_labels
from transformer_walk.app.widgets import (
    backend_within_budget,
    keep_valid_choice,
    page_start,
    solved_and_hurts,
)
from transformer_walk.core import get_backend
from transformer_walk.models.smollm2 import PYTHON_QUANTIZED_SLOWDOWN, DecoderOutput, SmolLM2
from transformer_walk.models.toy import ToyConfig
from transformer_walk.topics import then_and_now as tan
from transformer_walk.topics.claims import percent

LAYER_KEY = "tan_layer"
TOKEN_KEY = "tan_token"
HEAD_KEY = "tan_head"
DELTA_KEY = "tan_delta"
MAX_TOKENS = 64  # traced: 30 layers of every intermediate (about 1 MB a token)
MAX_DELTA, DEFAULT_DELTA = 32, 3  # the RoPE check's offsets: up to the query's position
STARTS = np.arange(0, 400, 25)  # the key positions p of the RoPE check
SHOWN_COLUMNS = 16  # of the hidden vector, in the norms' table
TOY = ToyConfig()  # the 2017 block as the road built it
# Message ids of the table's rows and cells (``tan.design_rows`` names them), written out so
# that the id check finds them.
ROWS = {
    "norm": "then_and_now.row.norm",
    "positions": "then_and_now.row.positions",
    "ffn": "then_and_now.row.ffn",
    "heads": "then_and_now.row.heads",
    "mask": "then_and_now.row.mask",
    "sizes": "then_and_now.row.sizes",
}
CELLS = {
    "layernorm_post": "then_and_now.cell.layernorm_post",
    "layernorm_pre": "then_and_now.cell.layernorm_pre",
    "rmsnorm_pre": "then_and_now.cell.rmsnorm_pre",
    "sinusoidal": "then_and_now.cell.sinusoidal",
    "no_positions": "then_and_now.cell.no_positions",
    "rope": "then_and_now.cell.rope",
    "relu": "then_and_now.cell.relu",
    "swiglu": "then_and_now.cell.swiglu",
    "full_heads": "then_and_now.cell.full_heads",
    "gqa": "then_and_now.cell.gqa",
    "bidirectional": "then_and_now.cell.bidirectional",
    "causal": "then_and_now.cell.causal",
    "sizes": "then_and_now.cell.sizes",
}


def _table(model: SmolLM2) -> None:
    st.subheader(t("then_and_now.table.title"))
    rows = tan.design_rows(TOY, model.config)
    frame = pd.DataFrame(
        {
            t("then_and_now.col.part"): [t(ROWS[r.row]) for r in rows],
            t("then_and_now.col.toy"): [t(CELLS[r.toy], **r.toy_fields) for r in rows],
            t("then_and_now.col.smol"): [t(CELLS[r.smol], **r.smol_fields) for r in rows],
        }
    )
    st.dataframe(frame, hide_index=True, width="stretch")


def _trace(model: SmolLM2, text: str, selected: str) -> DecoderOutput | None:
    offsets = model.tokenizer.encode_full(text).offsets
    if not offsets:
        st.info(t("common.empty_text"), icon=":material/edit_note:")
        return None
    kept = views.traced_prefix(text, offsets, MAX_TOKENS)
    if kept != text:
        st.info(
            t("then_and_now.too_long", n=len(offsets), kept=MAX_TOKENS),
            icon=":material/content_cut:",
        )
    n = min(len(offsets), MAX_TOKENS)
    work = int(PYTHON_QUANTIZED_SLOWDOWN * model.config.multiply_adds(n))
    backend = backend_within_budget(selected, work)
    with st.spinner(t("then_and_now.computing")):
        return smollm2_traced(kept, backend)


def _rope(
    model: SmolLM2, out: DecoderOutput, layer: int, token: int, labels: dict[int, str]
) -> None:
    cfg = model.config
    assert out.layers is not None
    trace = out.layers[layer]
    st.subheader(t("then_and_now.rope.title"))
    left, right = st.columns(2)
    head = left.selectbox(t("then_and_now.rope.head"), range(cfg.h), key=HEAD_KEY, format_func=str)
    with right:
        delta = _offset(token)
    key_token = token - delta  # a real key of the sentence, Δ tokens before the query
    q = trace.q[head, token]  # before RoPE
    k = trace.k[head // cfg.group, key_token]
    st.markdown(
        t("then_and_now.rope.body", q_token=labels[token], k_token=labels[key_token],
          layer=layer + 1, head=head)
    )  # fmt: skip
    be = get_backend(out.backend)
    dots = tan.offset_dots(be, q, k, STARTS, delta, cfg.rope_base)
    st.vega_lite_chart(
        chart_spec(
            charts.offset_dots,
            dots.starts,
            {
                t("then_and_now.rope.lane_rope"): dots.rope,
                t("then_and_now.rope.lane_added"): dots.added,
            },
            x_title=t("then_and_now.rope.axis_p"),
            y_title=t("then_and_now.rope.axis_dot"),
            lane_title=t("then_and_now.rope.lane"),
        ),
        width="stretch",
    )
    a, b = st.columns(2)
    a.metric(t("then_and_now.rope.spread_rope"), f"{dots.rope_spread:.1e}")
    b.metric(t("then_and_now.rope.spread_added"), f"{dots.added_spread:.3f}")
    if (verdict := say(views.rope_sentence(dots))) is not None:
        st.markdown(verdict)
    # the model's own turned vectors at their real positions, against the chart
    traced = float(np.dot(trace.q_rot[head, token], trace.k_rot[head // cfg.group, key_token]))
    here = tan.offset_dots(be, q, k, np.array([key_token]), delta, cfg.rope_base)
    if (check := say(views.rope_trace_check(dots, here, traced, token, key_token))) is not None:
        st.caption(check)


def _offset(token: int) -> int:
    """The offset Δ: the key is the token Δ places before the query, so Δ runs from 0 to the
    query's position (at most ``MAX_DELTA``); the control says so, and the first token, with no
    earlier key, has only Δ = 0."""
    top = min(MAX_DELTA, token)
    if top == 0:
        st.caption(t("then_and_now.rope.first_token"))
        return 0
    keep_valid_choice(DELTA_KEY, range(top + 1), min(DEFAULT_DELTA, top))
    delta = int(st.slider(t("then_and_now.rope.delta"), 0, top, key=DELTA_KEY))
    st.caption(t("then_and_now.rope.delta_range", top=top, i=token))
    return delta


def _gqa(model: SmolLM2) -> None:
    cfg = model.config
    st.subheader(t("then_and_now.gqa.title"))
    st.markdown(t("then_and_now.gqa.body", h=cfg.h, h_kv=cfg.h_kv, group=cfg.group))
    left, right = st.columns([1, 1])
    with left:
        st.vega_lite_chart(
            chart_spec(
                heatmap,
                tan.kv_head_map(cfg),
                [str(j) for j in range(cfg.h)],
                [str(g) for g in range(cfg.h_kv)],
                row_title=t("then_and_now.gqa.query"),
                col_title=t("then_and_now.gqa.kv"),
                value_title=t("then_and_now.gqa.reads"),
                fmt=".0f",
                width=320,
            ),
            width="content",
        )
    with right:
        st.metric(
            t("then_and_now.gqa.bytes_gqa", h_kv=cfg.h_kv),
            human_bytes(cfg.kv_bytes_per_token()),
        )
        st.metric(
            t("then_and_now.gqa.bytes_full", h=cfg.h), human_bytes(cfg.kv_bytes_per_token(cfg.h))
        )
    st.markdown(say(views.gqa_sentence(cfg)))


def _norms(model: SmolLM2, out: DecoderOutput, layer: int, token: int, label: str) -> None:
    assert out.layers is not None
    trace = out.layers[layer]
    st.subheader(t("then_and_now.norm.title"))
    st.markdown(t("then_and_now.norm.body", layer=layer + 1, token=label))
    x = trace.x_in[token]
    cmp = tan.compare_norms(x, model.config.eps)
    cols = st.columns(5)
    for col, (name, value) in zip(
        cols,
        [
            ("then_and_now.norm.mean", cmp.mean),
            ("then_and_now.norm.rms", cmp.rms),
            ("then_and_now.norm.std", cmp.std),
            ("then_and_now.norm.out_mean_rms", cmp.rms_out_mean),
            ("then_and_now.norm.out_mean_ln", cmp.layer_out_mean),
        ],
        strict=True,
    ):
        col.metric(t(name), f"{value:.4f}" if abs(value) >= 1e-3 else views.tiny(value))
    k = min(SHOWN_COLUMNS, len(x))
    st.caption(t("then_and_now.norm.first", k=k, d=len(x)))
    st.dataframe(
        pd.DataFrame(
            [x[:k], cmp.rms_out[:k], cmp.layer_out[:k]],
            index=[t("then_and_now.norm.x"), "RMSNorm", "LayerNorm"],
            columns=[str(c) for c in range(k)],
        ).style.format("{:.3f}"),
        width="stretch",
    )
    if (said := say(views.norm_sentence(cmp))) is not None:
        st.markdown(said)
    gamma = trace.params.attn_norm.weight
    error = float(np.abs(cmp.rms_out * gamma - trace.norm1[token]).max())
    size = float(np.abs(trace.norm1[token]).max())
    if (check := say(views.norm_check(error, size))) is not None:
        st.caption(check)


def _ffn(out: DecoderOutput, layer: int, token: int, label: str, text: str, selected: str) -> None:
    assert out.layers is not None
    gate = out.layers[layer].gate_act[token]
    st.subheader(t("then_and_now.ffn.title"))
    st.markdown(t("then_and_now.ffn.body", d_ff=len(gate), token=label, layer=layer + 1))
    counts, edges = tan.histogram(gate)
    st.vega_lite_chart(
        chart_spec(
            charts.histogram,
            counts,
            edges,
            x_title=t("then_and_now.ffn.axis_value"),
            y_title=t("then_and_now.ffn.axis_count"),
        ),
        width="stretch",
    )
    gate_shares = tan.zero_shares(gate)
    toy = toy_trace_or_none(text, TOY, toy_backend(selected, TOY, [text]))
    if toy is None:
        return
    toy_token = min(token, toy.n - 1)  # the toy splits words, SmolLM2 pieces: the same place
    relu = tan.zero_shares(toy.blocks[0].ffn_hidden[toy_token])
    a, b, c = st.columns(3)
    a.metric(t("then_and_now.ffn.gate_near", near=tan.NEAR_ZERO), percent(gate_shares.near, 1))
    b.metric(t("then_and_now.ffn.gate_exact"), percent(gate_shares.exact, 1))
    c.metric(t("then_and_now.ffn.relu_exact"), percent(relu.exact, 1))
    toy_label = token_labels(toy.tokens, [toy_token])[toy_token]
    ffn = views.ffn_sentence(gate, toy.blocks[0].ffn_hidden[toy_token], toy_label)
    if ffn is not None:
        st.markdown(say(ffn))


def _per_token(model: SmolLM2, selected: str) -> None:
    """RoPE, the norms and the FFN on one token of one layer of the sidebar's sentence."""
    text = current_sentence()
    out = _trace(model, text, selected)
    if out is None:
        return
    pieces = piece_labels([model.tokenizer.token_bytes(int(i)) for i in out.ids])
    labels = token_labels(pieces)
    links.linked(LAYER_KEY, 1, range(1, model.config.n_layers + 1))
    links.linked(TOKEN_KEY, out.n - 1, range(out.n))
    left, right = st.columns(2)
    layer = left.slider(t("then_and_now.layer"), 1, model.config.n_layers, 1, key=LAYER_KEY) - 1
    keep_valid_choice(TOKEN_KEY, range(out.n), out.n - 1)
    token = right.selectbox(
        t("then_and_now.token"), range(out.n), key=TOKEN_KEY,
        format_func=lambda i: labels[i],
    )  # fmt: skip
    _rope(model, out, layer, token, labels)
    _norms(model, out, layer, token, labels[token])
    _ffn(out, layer, token, labels[token], text, selected)


def render() -> None:
    selected = page_start("then_and_now.title")
    st.markdown(t("then_and_now.intro"))
    model = smollm2_model()
    if selected is not None and model is not None:
        _table(model)
        _gqa(model)
        _per_token(model, selected)
    solved_and_hurts(t("then_and_now.solved"), t("then_and_now.hurts"))
    st.caption(t("then_and_now.sources"))


render()
