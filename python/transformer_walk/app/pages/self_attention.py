"""Self-attention matrix: the n×n weights of the toy model for the sidebar's sentence.

Renders the toy trace (``caches.toy_trace``) and what ``views.attention`` selects from it: one
head's matrix, one query row and its weighted sum of V, the asymmetry A − Aᵀ, the causal mask,
and the n² cost. Holds no math.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from transformer_walk.app import charts, links
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import attention as charts_attention
from transformer_walk.app.i18n import join_names, say, t, translated_radio
from transformer_walk.app.model_widgets import toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.trained_toy import render_switch
from transformer_walk.app.views import attention as views
from transformer_walk.app.views import latex as latex_steps
from transformer_walk.app.views.labels import (
    difference_label,
    token_axis,
    token_labels,
    vector_label,
)
from transformer_walk.app.views.latex import tex_words
from transformer_walk.app.views.window import window_around
from transformer_walk.app.widgets import (
    forget_picks_of_another_sentence,
    keep_valid_choice,
    page_start,
    pick,
    solved_and_hurts,
    token_index,
    token_window,
)
from transformer_walk.models.toy import ToyConfig, Trace
from transformer_walk.topics import attention_picks as picks

HEAD_KEY = "sam_head"
CAUSAL_KEY = "sam_causal"
WINDOW_KEY = "sam_window"
QUERY_KEY = "sam_query"
SIDE_BY_SIDE_KEYS = 16  # keys of the one-query bar chart drawn beside its metrics
PAIR_I_KEY = "sam_i"
PAIR_J_KEY = "sam_j"
TRAINED_KEY = "sam_model"
PICKS_FOR_KEY = "sam_picks_for"  # the tokens the token picks above were made for
MAX_SHOWN = 24  # tokens per heatmap side: beyond this the cells are too small to read
EXPAND_UP_TO = 6  # write z_i = Σⱼ αᵢⱼ vⱼ term by term for at most this many tokens


def alpha(i: int, j: int) -> str:
    """The metric label of α_ij for 0-based i, j, as a formula: $\alpha_{3,1}$ (a metric label
    renders Markdown, and a literal "α_3,1" showed its underscore)."""
    return rf"$\alpha_{{{i + 1},{j + 1}}}$"


def _intro() -> None:
    st.markdown(t("self_attention.intro"))
    st.latex(
        r"Q = XW^Q,\quad K = XW^K,\quad V = XW^V,\qquad "
        r"A = \operatorname{softmax}\!\left(\frac{QK^{\mathrm T}}{\sqrt{d_k}}\right),\qquad "
        r"\operatorname{SelfAttention}(X) = A\,V"
    )


def _controls(h: int) -> None:
    left, right = st.columns([3, 2])
    with left:
        labels = {i: t("self_attention.head_label", number=i + 1) for i in range(h)}
        links.linked(HEAD_KEY, 0, range(h))
        keep_valid_choice(HEAD_KEY, range(h), 0)
        st.radio(
            t("self_attention.head"),
            options=list(range(h)),
            format_func=labels.__getitem__,
            key=translated_radio(HEAD_KEY),
            horizontal=True,
            help=t("self_attention.head_help"),
        )
    with right:
        st.toggle(t("self_attention.causal"), key=CAUSAL_KEY, help=t("self_attention.causal_help"))


def _matrix(trace: Trace, head: int) -> None:
    st.header(t("self_attention.matrix.title"), divider="gray")
    n, weights = trace.n, views.layer_weights(trace)[head]
    st.markdown(t("self_attention.matrix.body"))
    st.latex(
        rf"A \in \mathbb{{R}}^{{n \times n}},\quad n = {n}:\quad "
        rf"{n} \times {n} = {n * n}"
    )
    start, stop = token_window(
        n,
        MAX_SHOWN,
        WINDOW_KEY,
        help_id="self_attention.window_help",
        note="self_attention.window_note",
    )
    tokens = token_axis(trace.tokens, start, stop)
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            weights[start:stop, start:stop],
            tokens,
            tokens,
            row_title=t("self_attention.axis.query"),
            col_title=t("self_attention.axis.key"),
            value_title="αᵢⱼ",
            fmt=".2f",
            # A window of a long sentence holds a small share of each row: spread the colours.
            domain=(0.0, 1.0) if (start, stop) == (0, n) else None,
        ),
        width="content",
    )
    sums = views.row_sums(weights)
    st.caption(t("self_attention.row_sums", low=f"{sums.min():.3f}", high=f"{sums.max():.3f}"))


def _query_row(trace: Trace, head: int) -> None:
    st.header(t("self_attention.row.title"), divider="gray")
    st.markdown(t("self_attention.row.body"))
    labels = token_labels(trace.tokens)
    i = pick(
        t("self_attention.row.pick"),
        QUERY_KEY,
        labels,
        picks.default_query(trace.tokens),
        linked=True,
    )
    row = views.query_row(trace, head, i)
    # Beside its numbers while the bars are wide enough to label; a long sentence's row takes
    # the full width, its numbers above it (40 bars in 3/5 of the page were 8 px apart).
    if trace.n <= SIDE_BY_SIDE_KEYS:
        left, right = st.columns([3, 2], gap="large")
    else:
        right, left = st.container(), st.container()
    with left:
        st.vega_lite_chart(
            chart_spec(
                charts.attention_weights,
                token_axis(trace.tokens),
                row.weights,
                row.top,
                token_title=t("self_attention.axis.key"),
                weight_title=t("self_attention.row.weight", token=labels[i]),
            ),
            width="stretch",
        )
    with right:
        st.metric(t("self_attention.row.top_weight"), f"{row.weights[row.top]:.3f}")
        st.metric(t("self_attention.row.sum"), f"{row.weights.sum():.3f}")
        if (top := say(views.top_weight(row.weights, trace.tokens))) is not None:
            st.markdown(top)

    st.latex(
        rf"\boldsymbol{{z}}_{{{i + 1}}} = \sum_{{j=1}}^{{n}} "
        rf"\alpha_{{{i + 1}j}}\,\boldsymbol{{v}}_j"
    )
    if trace.n <= EXPAND_UP_TO:
        # One term per line: n terms of d_k numbers do not fit on one.
        terms = r" \\ &+ ".join(
            rf"{latex_steps.number(a)}\,{latex_steps.vector(v, 2)}"
            for a, v in zip(row.weights, row.values, strict=True)
        )
        st.latex(
            rf"\begin{{aligned}} \boldsymbol{{z}}_{{{i + 1}}} &= {terms} \\ "
            rf"&\approx {latex_steps.vector(row.weighted_sum)} \end{{aligned}}"
        )
    else:
        st.latex(rf"\boldsymbol{{z}}_{{{i + 1}}} \approx {latex_steps.vector(row.weighted_sum)}")
    index, token_config = token_index(list(labels.values()), t("self_attention.axis.key"))
    st.dataframe(
        pd.DataFrame(
            {
                "αᵢⱼ": row.weights,
                "vⱼ": [vector_label(v) for v in row.values],
                "αᵢⱼ · vⱼ": [vector_label(c) for c in row.contributions],
            },
            index=index,
        ),
        width="stretch",
        column_config={**token_config, "αᵢⱼ": st.column_config.NumberColumn(format="%.3f")},
    )
    st.success(
        t(
            "self_attention.row.check",
            row=i + 1,
            z=vector_label(row.weighted_sum),
            out=vector_label(row.trace_output),
            diff=difference_label(row.difference),
        ),
        icon=":material/check_circle:",
    )


def _direction(trace: Trace, head: int) -> None:
    st.header(t("self_attention.dir.title"), divider="gray")
    st.markdown(t("self_attention.dir.body"))
    weights = views.layer_weights(trace)[head]
    if trace.n < 2:
        st.info(t("self_attention.dir.one"), icon=":material/info:")
        return
    labels = token_labels(trace.tokens)
    i_default, j_default = picks.default_pair(trace.tokens, weights)
    left, right = st.columns(2)
    with left:
        i = pick(t("self_attention.dir.i"), PAIR_I_KEY, labels, i_default)
    with right:
        j = pick(t("self_attention.dir.j"), PAIR_J_KEY, labels, j_default)
    a_ij, a_ji = float(weights[i, j]), float(weights[j, i])
    ti, tj = labels[i], labels[j]  # by position too: a word can occur twice
    m1, m2, m3 = st.columns(3)
    m1.metric(alpha(i, j), f"{a_ij:.3f}")
    m2.metric(alpha(j, i), f"{a_ji:.3f}")
    m3.metric(t("self_attention.dir.gap"), f"{a_ij - a_ji:+.3f}")
    st.markdown(
        t("self_attention.dir.meaning", ti=ti, tj=tj, a_ij=f"{a_ij:.3f}", a_ji=f"{a_ji:.3f}")
    )
    if i == j:
        st.caption(t("self_attention.dir.same"))

    gap = picks.asymmetry(weights)
    # A long sentence: queries around i and keys around j, so the chosen pair is in the picture
    # (the matrix's window above need not hold it).
    rows, cols = window_around(trace.n, i, MAX_SHOWN), window_around(trace.n, j, MAX_SHOWN)
    st.subheader(t("self_attention.dir.heatmap"))
    if trace.n > MAX_SHOWN:
        st.caption(
            t(
                "self_attention.dir.window",
                q0=rows[0] + 1,
                q1=rows[1],
                k0=cols[0] + 1,
                k1=cols[1],
                n=trace.n,
                ti=ti,
                tj=tj,
            )  # fmt: skip
        )
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            gap[rows[0] : rows[1], cols[0] : cols[1]],  # (queries shown, keys shown)
            token_axis(trace.tokens, *rows),
            token_axis(trace.tokens, *cols),
            row_title=t("self_attention.axis.query"),
            col_title=t("self_attention.axis.key"),
            value_title="αᵢⱼ − αⱼᵢ",
        ),
        width="content",
    )
    if (lopsided := say(views.lopsided_pair(weights, trace.tokens))) is not None:
        st.caption(lopsided)


def _causal(trace: Trace, head: int) -> None:
    st.header(t("self_attention.causal.title"), divider="gray")
    st.markdown(t("self_attention.causal.body"))
    st.latex(
        r"s_{ij} = \begin{cases} \dfrac{\boldsymbol{q}_i \cdot \boldsymbol{k}_j}{\sqrt{d_k}} "
        r"& j \le i \\ -\infty & j > i \end{cases}"
        r"\qquad\Rightarrow\qquad \alpha_{ij} = 0 \quad (j > i)"
    )
    weights = views.layer_weights(trace)
    mass = views.upper_triangle_mass(weights[head])  # the head whose matrix is shown above
    seen = views.visible_keys(weights[head], 0)
    labels = token_labels(trace.tokens, seen)
    seen_text = join_names([f"{labels[j]} ({weights[head, 0, j]:.3f})" for j in seen])
    m1, m2 = st.columns(2)
    m1.metric(t("self_attention.causal.mass", n=trace.n), f"{mass:.3f}")
    m2.metric(t("self_attention.causal.first"), str(len(seen)))
    if trace.n < 2:
        st.info(t("self_attention.causal.one"))
    elif trace.config.causal:
        st.success(
            t("self_attention.causal.on", first=token_labels(trace.tokens, [0])[0], seen=seen_text)
        )
    else:
        st.info(
            t(
                "self_attention.causal.off", first=token_labels(trace.tokens, [0])[0],
                count=len(seen),
                mass=f"{mass:.3f}",
                n=trace.n,
            )
        )  # fmt: skip


def _caveat() -> None:
    st.header(t("self_attention.caveat.title"), divider="gray")
    st.warning(t("self_attention.caveat.body"), icon=":material/psychology_alt:")
    render_switch(TRAINED_KEY)


def _versus_cross_attention() -> None:
    st.header(t("self_attention.cross.title"), divider="gray")
    left, right = st.columns(2)
    with left:
        st.markdown(t("self_attention.cross.self"))
        st.latex(
            r"Q, K, V\ "
            + tex_words(t("self_attention.tex.from"))
            + r"\ X:\quad A \in \mathbb{R}^{n \times n}"
        )
    with right:
        st.markdown(t("self_attention.cross.encdec"))
        st.latex(
            r"\begin{gathered} Q = X_{\text{dec}}W^Q,\quad K = H_{\text{enc}}W^K,\quad "
            r"V = H_{\text{enc}}W^V \\ "
            r"A \in \mathbb{R}^{n_{\text{dec}} \times n_{\text{enc}}} \end{gathered}"
        )


def _cost(trace: Trace) -> None:
    st.header(t("self_attention.cost.title"), divider="gray")
    n, h = trace.n, trace.config.h
    st.markdown(t("self_attention.cost.body"))
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(t("self_attention.cost.n"), str(n))
    m2.metric(t("self_attention.cost.per_head"), f"{views.score_count(n):,}")
    m3.metric(t("self_attention.cost.layer", h=h), f"{views.score_count(n, h):,}")
    m4.metric(t("self_attention.cost.double"), f"{views.score_count(2 * n):,}")
    st.latex(r"QK^{\mathrm T} \in \mathbb{R}^{n \times n}:\quad O(n^2)\ \to\ O(n^2 d)")
    st.vega_lite_chart(
        chart_spec(
            charts_attention.quadratic_cost,
            n,
            n_title=t("self_attention.cost.n"),
            count_title=t("self_attention.cost.per_head"),
        ),
        width="stretch",
    )


def render() -> None:
    name = page_start("self_attention.title")
    if name is None:
        return
    _intro()

    text = current_sentence()
    links.linked(CAUSAL_KEY, False, links.ON_OFF)
    config = ToyConfig(causal=bool(st.session_state.get(CAUSAL_KEY, False)))
    _controls(config.h)
    run_on = toy_backend(name, config, [text])
    with st.spinner(t("self_attention.computing")):
        trace = toy_trace_or_none(text, config, run_on)
    if trace is None:
        return
    head = int(st.session_state.get(HEAD_KEY, 0))
    # A new sentence starts from its own defaults (its "his", its most lopsided pair).
    picked = (QUERY_KEY, PAIR_I_KEY, PAIR_J_KEY, WINDOW_KEY)
    forget_picks_of_another_sentence(trace.tokens, picked, PICKS_FOR_KEY)

    _matrix(trace, head)
    _query_row(trace, head)
    _direction(trace, head)
    _causal(trace, head)
    _caveat()
    _versus_cross_attention()
    _cost(trace)
    solved_and_hurts(t("self_attention.solved"), t("self_attention.hurts"))


render()
