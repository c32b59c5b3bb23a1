"""Q, K, V: where the three views of every token come from (“From word vectors to Transformer”
§11–14).

Renders the toy model's trace of the sidebar's sentence (X, the block's weights, Q, K, V), checks
the bilinear form of §13 and the weighted sum of §14 against it
(``transformer_walk.app.views.qkv``), and runs the same weights on a second sentence. Holds no math.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts, links
from transformer_walk.app.caches import toy_trace
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.i18n import t
from transformer_walk.app.model_widgets import toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import MAX_SENTENCE_CHARS, current_sentence
from transformer_walk.app.views import qkv
from transformer_walk.app.views.labels import (
    difference_label,
    shape_label,
    token_axis,
    token_labels,
)
from transformer_walk.app.views.latex import tex_words
from transformer_walk.app.widgets import (
    keep_valid_choice,
    page_start,
    solved_and_hurts,
    table_height,
    token_index,
)
from transformer_walk.models.toy import EmptyInputError, ToyConfig, Trace
from transformer_walk.topics.attention_picks import default_pair

D_MODEL_KEY = "qkv_d_model"
H_KEY = "qkv_h"
SEED_KEY = "qkv_seed"
HEAD_KEY = "qkv_head"
I_KEY = "qkv_i"
J_KEY = "qkv_j"
OTHER_KEY = "qkv_other"
OTHER_FOR_KEY = "qkv_other_for"  # the sidebar sentence the second one was made from
LAYER_KEY = "qkv_layer"

D_MODELS = [4, 8, 16]
SHOWN_ROWS = 16  # token rows drawn in a heatmap; the trace keeps them all
# A weight matrix's cell at most: wide enough for "-0.12" at d_model 8, small enough that the
# three W rows do not make the page a screen longer.
W_CELL = 34


def _vector(values: np.ndarray) -> str:
    return r"\begin{bmatrix}" + " & ".join(f"{v:.3f}" for v in values) + r"\end{bmatrix}"


def _controls() -> ToyConfig:
    links.linked(D_MODEL_KEY, D_MODELS[1], D_MODELS)
    links.linked(SEED_KEY, 0, range(10_000))
    c1, c2, c3 = st.columns(3)
    d_model = c1.selectbox("d_model", D_MODELS, index=1, key=D_MODEL_KEY, help=t("qkv.d_help"))
    heads = [h for h in (1, 2, 4) if d_model % h == 0]
    default_h = 2 if 2 in heads else heads[0]
    links.linked(H_KEY, default_h, heads)
    keep_valid_choice(H_KEY, heads, default_h)
    h = c2.selectbox(t("qkv.h"), heads, key=H_KEY, help=t("qkv.h_help"))
    seed = c3.number_input(
        t("qkv.seed"), min_value=0, max_value=9999, value=0, step=1, key=SEED_KEY,
        help=t("qkv.seed_help"),
    )  # fmt: skip
    # Two layers so that the "are Q, K, V fixed?" section can look past the first one; the first
    # block's weights and numbers are the same as in a one-layer model with this seed.
    return ToyConfig(d_model=int(d_model), h=int(h), seed=int(seed), n_layers=2)


def _heat(
    matrix: np.ndarray,
    rows: list[str],
    cols: list[str],
    row_title: str,
    value: str,
    width: int = charts.FULL,
    max_cell: int = charts.grid.MAX_CELL,
) -> None:
    shown = min(len(rows), SHOWN_ROWS)
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            matrix[:shown],
            rows[:shown],
            cols,
            row_title=row_title,
            col_title=t("qkv.col.dim"),
            value_title=value,
            width=width,
            max_cell=max_cell,
        ),
        width="content",
    )
    if len(rows) > shown:
        st.caption(t("qkv.first_rows", shown=shown, n=len(rows)))


def _projections(trace: Trace, config: ToyConfig, backend: str) -> None:
    st.header(t("qkv.proj.title"), divider="gray")
    st.markdown(t("qkv.proj.body"))
    st.latex(r"Q = X W^Q, \qquad K = X W^K, \qquad V = X W^V")
    block = trace.blocks[0]
    weights = trace.blocks[0].params
    n, d = trace.n, config.d_model
    st.latex(
        rf"X \in \mathbb{{R}}^{{{n}\times{d}}},\quad "
        rf"W^Q, W^K, W^V \in \mathbb{{R}}^{{{d}\times{d}}}"
        rf"\;\Rightarrow\; Q, K, V \in \mathbb{{R}}^{{{n}\times{d}}}"
        rf"\quad (h = {config.h},\ d_k = {config.d_k})"
    )
    st.caption(t("qkv.proj.heads", h=config.h, d_k=config.d_k, d=d))
    tokens = token_axis(trace.tokens)
    dims = [str(c + 1) for c in range(d)]
    st.markdown(t("qkv.proj.x", n=n, d=d))
    _heat(block.attn_in, tokens, dims, t("qkv.row.token"), "X")
    # Each weight beside the product it makes, half a column each: in thirds, an 8 × 8 W got
    # 25-px cells, too small for its values.
    for name, weight, product in zip(
        "QKV", (weights.W_Q, weights.W_K, weights.W_V), (block.Q, block.K, block.V), strict=True
    ):
        left, right = st.columns(2)
        with left:
            st.markdown(f"**$W^{name}$** · {shape_label(weight.shape, times=True)}")
            # colour-bar title in words: the header above names the matrix (Vega cannot set W^Q)
            _heat(
                weight, dims, dims, t("qkv.row.input_dim"), t("qkv.legend.weight"),
                charts.HALF, max_cell=W_CELL,
            )  # fmt: skip
        with right:
            st.markdown(f"**${name} = XW^{name}$** · {shape_label(product.shape, times=True)}")
            _heat(product, tokens, dims, t("qkv.row.token"), name, charts.HALF, max_cell=W_CELL)


def _pair(trace: Trace, config: ToyConfig, backend: str) -> tuple[int, int]:
    st.header(t("qkv.pair.title"), divider="gray")
    st.markdown(t("qkv.pair.body"))
    st.latex(
        r"s_{ij}^{(r)} = \boldsymbol{q}_i^{(r)} \boldsymbol{k}_j^{(r)\mathsf T}"
        r"= \boldsymbol{x}_i W_r^Q (W_r^K)^{\mathsf T} \boldsymbol{x}_j^{\mathsf T}"
    )
    positions = list(range(trace.n))
    labels = token_labels(trace.tokens)
    head_labels = {h: t("qkv.head", number=h + 1) for h in range(config.h)}
    # (his, tom) in the running example; elsewhere the most one-sided pair of head 1's weights
    first, second = default_pair(trace.tokens, trace.blocks[0].weights[0])
    keep_valid_choice(I_KEY, positions, first)
    keep_valid_choice(J_KEY, positions, second)
    keep_valid_choice(HEAD_KEY, list(range(config.h)), 0)
    c1, c2, c3 = st.columns(3)
    i = c1.selectbox(t("qkv.pair.i"), positions, format_func=labels.__getitem__, key=I_KEY)
    j = c2.selectbox(t("qkv.pair.j"), positions, format_func=labels.__getitem__, key=J_KEY)
    head = c3.selectbox(
        t("qkv.pair.head"), list(range(config.h)), format_func=head_labels.__getitem__,
        key=HEAD_KEY,
    )  # fmt: skip
    weights = trace.blocks[0].params
    check = qkv.pair_check(trace, weights, head, i, j)
    r = head + 1  # heads as the text numbers them
    st.latex(
        rf"\boldsymbol{{q}}_{{{i + 1}}}^{{({r})}} = {_vector(check.q_i)},\quad"
        rf"\boldsymbol{{k}}_{{{j + 1}}}^{{({r})}} = {_vector(check.k_j)}"
    )
    st.latex(
        rf"\boldsymbol{{q}}_{{{i + 1}}}^{{({r})}}\cdot\boldsymbol{{k}}_{{{j + 1}}}^{{({r})}}"
        + "".join(
            rf"{' + ' if r else ' = '}({a:.3f})({b:.3f})"
            for r, (a, b) in enumerate(zip(check.q_i, check.k_j, strict=True))
        )
        + rf" = {check.dot:.6f}"
    )
    m1, m2, m3 = st.columns(3)
    m1.metric(t("qkv.pair.dot"), f"{check.dot:.6f}")
    m2.metric(t("qkv.pair.bilinear"), f"{check.bilinear:.6f}")
    m3.metric(t("qkv.pair.diff"), difference_label(check.difference))
    st.success(
        t(
            check.message_id,
            i=token_labels(trace.tokens, [i])[i],
            j=token_labels(trace.tokens, [j])[j],
            dot=f"{check.dot:.6f}",
            bilinear=f"{check.bilinear:.6f}",
            diff=difference_label(check.difference),
        ),
        icon=":material/check_circle:",
    )
    st.caption(
        t(
            "qkv.pair.scaled",
            score=f"{check.score:.6f}",
            scale=f"{check.scale:.4f}",
            d_k=config.d_k,
            backend=t(f"backend.{backend}"),
        )
    )
    left, right = st.columns([2, 3], gap="large")
    with left:
        d = config.d_model
        dims = [str(c + 1) for c in range(d)]
        M = qkv.matching_matrix(weights, head, config.d_k)
        st.markdown(t("qkv.pair.matrix", d=d))
        st.vega_lite_chart(
            chart_spec(
                charts.heatmap,
                M,
                dims,
                dims,
                row_title=t("qkv.axis.dim_i"),
                col_title=t("qkv.axis.dim_j"),
                value_title="M",
                width=charts.FULL * 2 // 5,  # the left of columns [2, 3]
            ),
            width="content",
        )
    with right:
        st.markdown(t("qkv.pair.why"))
    return i, head


def _values(trace: Trace, i: int, head: int) -> None:
    st.header(t("qkv.v.title"), divider="gray")
    st.markdown(t("qkv.v.body"))
    st.latex(r"\boldsymbol{z}_i = \sum_{j=1}^{n} \alpha_{ij}\, \boldsymbol{v}_j")
    mix = qkv.mix_check(trace, head, i)
    index, token_config = token_index(list(token_labels(trace.tokens).values()), "j")
    frame = pd.DataFrame(
        {
            "αᵢⱼ": mix.weights,
            "vⱼ": [", ".join(f"{x:.3f}" for x in row) for row in mix.values],
        },
        index=index,
    )
    st.markdown(t("qkv.v.row", token=token_labels(trace.tokens, [i])[i], head=head + 1))
    st.dataframe(
        frame,
        width="stretch",
        height=table_height(len(frame)),
        column_config={**token_config, "αᵢⱼ": st.column_config.NumberColumn(format="%.4f")},
    )
    st.latex(
        rf"\boldsymbol{{z}}_{{{i + 1}}} = {_vector(mix.z_by_hand)}"
        rf"\quad{tex_words(t('qkv.tex.trace'))}{_vector(mix.z_trace)}\text{{)}}"
    )
    if mix.difference == 0:  # "up to 0.0e+00" said less than it knew
        st.caption(t("qkv.v.check_exact"))
    else:
        st.caption(t("qkv.v.check", diff=difference_label(mix.difference)))
    st.markdown(t("qkv.v.roles"))


def _fixed(trace: Trace, config: ToyConfig, backend: str) -> None:
    st.header(t("qkv.fixed.title"), divider="gray")
    st.markdown(t("qkv.fixed.body"))
    # As long as the sidebar allows: a longer text would only build a bigger n×n trace.
    other_text = st.text_input(t("qkv.fixed.other"), key=OTHER_KEY, max_chars=MAX_SENTENCE_CHARS)
    try:
        other = toy_trace(other_text, config, backend)
    except EmptyInputError:
        st.info(t("qkv.fixed.empty"), icon=":material/edit_note:")
        return
    layer = st.radio(
        t("qkv.fixed.layer"), [0, 1], format_func={0: "1", 1: "2"}.__getitem__,
        horizontal=True, key=LAYER_KEY, help=t("qkv.fixed.layer_help"),
    )  # fmt: skip
    rows = qkv.compare_rows(trace, other, layer)
    yes, no, missing = t("qkv.fixed.yes"), t("qkv.fixed.no"), "—"

    def num(value: float | None) -> str:
        return missing if value is None else f"{value:.3f}"

    table = pd.DataFrame(
        {
            t("qkv.fixed.col.a"): [r.token_a or missing for r in rows],
            t("qkv.fixed.col.b"): [r.token_b or missing for r in rows],
            "max |ΔX|": [num(r.input_diff) for r in rows],
            "max |ΔQ|": [num(r.q_diff) for r in rows],
            "max |ΔK|": [num(r.k_diff) for r in rows],
            "max |ΔV|": [num(r.v_diff) for r in rows],
            t("qkv.fixed.col.changed"): [
                missing if r.changed is None else yes if r.changed else no for r in rows
            ],
        },
        index=pd.Index([r.position + 1 for r in rows], name=t("qkv.fixed.col.position")),
    )
    st.dataframe(table, width="stretch", height=table_height(len(table)))
    compared = [r for r in rows if r.changed is not None]
    same = sum(1 for r in compared if not r.changed)
    st.markdown(
        t(
            "qkv.fixed.count",
            same=same,
            changed=len(compared) - same,
            total=len(compared),
            layer=layer + 1,
        )
    )
    st.markdown(t("qkv.fixed.why_first") if layer == 0 else t("qkv.fixed.why_later"))
    st.info(t("qkv.fixed.answer"), icon=":material/lightbulb:")


def render() -> None:
    name = page_start("qkv.title")
    if name is None:
        return
    st.markdown(t("qkv.intro"))
    st.table(
        pd.DataFrame(
            {
                t("qkv.analogy.col.vector"): [t("qkv.name.q"), t("qkv.name.k"), t("qkv.name.v")],
                t("qkv.analogy.col.role"): [
                    t("qkv.analogy.q"),
                    t("qkv.analogy.k"),
                    t("qkv.analogy.v"),
                ],
            }
        ).set_index(t("qkv.analogy.col.vector"))
    )
    st.warning(t("qkv.analogy.caveat"), icon=":material/info:")
    config = _controls()
    text = current_sentence()
    # The sentence and, further down, the second one (as last typed) run on one backend.
    # A new sentence starts its comparison from itself with one word changed.
    if st.session_state.get(OTHER_FOR_KEY) != text or OTHER_KEY not in st.session_state:
        st.session_state[OTHER_KEY] = qkv.one_word_changed(text)
        st.session_state[OTHER_FOR_KEY] = text
    other = st.session_state[OTHER_KEY]
    run_on = toy_backend(name, config, [text, other])
    trace = toy_trace_or_none(text, config, run_on)
    if trace is None:
        return
    _projections(trace, config, run_on)
    i, head = _pair(trace, config, run_on)
    _values(trace, i, head)
    _fixed(trace, config, run_on)
    solved_and_hurts(t("qkv.solved"), t("qkv.hurts"))


render()
