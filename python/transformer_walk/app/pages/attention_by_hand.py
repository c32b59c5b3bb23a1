"""Attention by hand: the query "his" against the keys Tom / loves / his / dog, number by number,
with the article's numbers; then the same steps on the sidebar's sentence with the toy model's.

Renders ``topics.worked_example`` (computed by the sidebar's backend); holds no math.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.i18n import say, t
from transformer_walk.app.model_widgets import toy_backend, toy_trace_or_none
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views import attention as attention_views
from transformer_walk.app.views import by_hand
from transformer_walk.app.views import latex as latex_steps
from transformer_walk.app.views.labels import token_labels, vector_label
from transformer_walk.app.widgets import page_start, pick, table_height, token_index
from transformer_walk.models.toy import ToyConfig
from transformer_walk.topics.attention_picks import default_query
from transformer_walk.topics.worked_example import (
    DEFAULT_SCORES,
    DEFAULT_TOKENS,
    DEFAULT_VALUES,
    QUERY_INDEX,
    AttentionTrace,
    InputError,
    worked_example,
)

EDITOR_KEY = "abh_editor"  # the data editor's edit state (edited_rows, …)
REVEALED_KEY = "abh_revealed"
GUESS_KEY = "abh_guess"  # (token index or None, weight, scores): copied out of the form on submit
SCORES_KEY = "abh_scores_shown"  # the scores of the last run: those a guess is made on
GUESS_TOKEN_KEY = "abh_guess_token"  # the form's widgets
GUESS_WEIGHT_KEY = "abh_guess_weight"
MINE_QUERY_KEY = "abh_mine_query"  # the query of "your sentence"


def _reset_inputs() -> None:
    st.session_state.pop(EDITOR_KEY, None)  # forgetting the edits brings back the article's numbers


def _reveal() -> None:
    """The guess, with the scores it was made on (those shown when the learner pressed Reveal):
    it is judged on them, whatever the scores are edited to afterwards."""
    st.session_state[GUESS_KEY] = (
        st.session_state.get(GUESS_TOKEN_KEY),
        st.session_state.get(GUESS_WEIGHT_KEY),
        st.session_state.get(SCORES_KEY, DEFAULT_SCORES),
    )
    st.session_state[REVEALED_KEY] = True


def _hide() -> None:
    st.session_state[REVEALED_KEY] = False


def _setting() -> None:
    st.markdown(t("attention_by_hand.intro"))
    cols = st.columns(3)
    for col, (formula, caption) in zip(
        cols,
        [
            (latex_steps.MATCH, "attention_by_hand.move.match"),
            (latex_steps.SOFTMAX, "attention_by_hand.move.normalise"),
            (latex_steps.WEIGHTED_SUM, "attention_by_hand.move.aggregate"),
        ],
        strict=True,
    ):
        with col:
            st.markdown(t(caption))
            st.latex(formula)
    with st.expander(t("attention_by_hand.qkv.title")):
        st.markdown(t("attention_by_hand.qkv.body"))
        st.table(
            pd.DataFrame(
                {
                    t("attention_by_hand.qkv.col.vector"): [
                        t("qkv.name.q"),
                        t("qkv.name.k"),
                        t("qkv.name.v"),
                    ],
                    t("attention_by_hand.qkv.col.role"): [
                        t("attention_by_hand.qkv.q"),
                        t("attention_by_hand.qkv.k"),
                        t("attention_by_hand.qkv.v"),
                    ],
                }
            ).set_index(t("attention_by_hand.qkv.col.vector"))
        )
        st.markdown(t("attention_by_hand.qkv.caveat"))


def _editor_frame() -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "s": list(DEFAULT_SCORES),
            "v1": [row[0] for row in DEFAULT_VALUES],
            "v2": [row[1] for row in DEFAULT_VALUES],
        },
        index=pd.Index(list(DEFAULT_TOKENS), name="token"),
    )
    return frame


def _input_error_text(error: InputError) -> str:
    if error.code == "wrong_shape":
        return t("attention_by_hand.err.shape")
    names = []
    for kind, row, col in error.cells:
        token = DEFAULT_TOKENS[row]
        names.append(
            t("attention_by_hand.err.cell_s", token=token)
            if kind == "s"
            else t("attention_by_hand.err.cell_v", token=token, col=(col or 0) + 1)
        )
    return t(f"attention_by_hand.err.{error.code}", cells=", ".join(names))


def _step_scores(backend: str) -> AttentionTrace:
    """Step 1: the inputs (editable) and the scores. Returns the trace the later steps show."""
    st.header(t("attention_by_hand.step1.title"), divider="gray")
    left, right = st.columns([5, 4], gap="large")
    with left:
        st.markdown(t("attention_by_hand.step1.body"))
        st.latex(latex_steps.QUERY)
        st.latex(latex_steps.SCORE)
        st.caption(t("attention_by_hand.step1.encoder_note"))
    with right:
        st.markdown(t("attention_by_hand.editor.title"))
        edited = st.data_editor(
            _editor_frame(),
            key=EDITOR_KEY,
            num_rows="fixed",
            width="stretch",
            column_config={
                "_index": st.column_config.TextColumn(
                    t("attention_by_hand.col.token"), disabled=True
                ),
                "s": st.column_config.NumberColumn(
                    t("attention_by_hand.col.s"), help=t("attention_by_hand.col.s_help")
                ),
                "v1": st.column_config.NumberColumn(
                    "v_j[1]", help=t("attention_by_hand.col.v_help")
                ),
                "v2": st.column_config.NumberColumn(
                    "v_j[2]", help=t("attention_by_hand.col.v_help")
                ),
            },
        )
        st.button(
            t("attention_by_hand.editor.reset"),
            on_click=_reset_inputs,
            icon=":material/restart_alt:",
        )

    scores = edited["s"].tolist()
    values = edited[["v1", "v2"]].values.tolist()
    try:
        trace = worked_example(backend, scores=scores, values=values, query_index=QUERY_INDEX)
    except InputError as error:
        st.warning(_input_error_text(error) + " " + t("attention_by_hand.err.fallback"), icon="✏️")
        trace = worked_example(backend, query_index=QUERY_INDEX)

    st.latex(latex_steps.scores(trace))
    st.session_state[SCORES_KEY] = tuple(float(x) for x in trace.scores)
    st.info(say(by_hand.origin(trace.scores, DEFAULT_SCORES, trace.tokens)), icon=":material/info:")
    return trace


def _predict(trace: AttentionTrace) -> bool:
    """The predict-then-reveal moment. Returns True once the learner has revealed."""
    with st.container(border=True):
        st.subheader(t("attention_by_hand.predict.title"))
        if not st.session_state.get(REVEALED_KEY, False):
            with st.form("abh_predict"):
                st.radio(
                    t("attention_by_hand.predict.top"),
                    options=list(range(trace.n)),
                    format_func=trace.tokens.__getitem__,
                    index=None,
                    horizontal=True,
                    key=GUESS_TOKEN_KEY,
                )
                st.slider(
                    t("attention_by_hand.predict.weight", token=trace.tokens[0]),
                    min_value=0.0,
                    max_value=1.0,
                    value=0.25,
                    step=0.01,
                    key=GUESS_WEIGHT_KEY,
                    help=t("attention_by_hand.predict.weight_help"),
                )
                st.form_submit_button(
                    t("attention_by_hand.predict.reveal"), type="primary", on_click=_reveal
                )
            st.caption(t("attention_by_hand.predict.hint"))
            return False

        guess_index, guess_weight, guessed_on = st.session_state.get(
            GUESS_KEY, (None, None, DEFAULT_SCORES)
        )
        names, scores = trace.tokens, trace.scores
        if (answer := say(by_hand.winner(scores, names, trace.query_token))) is not None:
            st.markdown(answer)
        if (then := say(by_hand.guessed_on_other_scores(guessed_on, scores))) is not None:
            st.info(then, icon=":material/history:")
        if (verdict := by_hand.guess_verdict(guess_index, guessed_on, names)) is not None:
            box = {"attention_by_hand.reveal.no_guess": st.info,
                   "attention_by_hand.reveal.right": st.success,
                   "attention_by_hand.reveal.right_tie": st.success,
                   }.get(verdict.message, st.warning)  # fmt: skip
            box(say(verdict))
        if (lead := say(by_hand.lead(scores, names))) is not None:
            st.markdown(lead)
        if guess_weight is not None and (
            weight := say(by_hand.weight_verdict(guess_weight, 0, guessed_on, names))
        ):
            st.markdown(weight)
        st.button(t("attention_by_hand.reveal.again"), on_click=_hide, icon=":material/replay:")
        return True


def _step_softmax(trace: AttentionTrace) -> None:
    st.header(t("attention_by_hand.step2.title"), divider="gray")
    left, right = st.columns([5, 4], gap="large")
    with left:
        st.markdown(t("attention_by_hand.step2.body"))
        st.latex(latex_steps.SOFTMAX)
        st.latex(latex_steps.SOFTMAX_STABLE)
        st.markdown(t("attention_by_hand.step2.stable"))
        st.latex(latex_steps.softmax_of_top(trace))
    with right:
        st.vega_lite_chart(
            chart_spec(
                charts.attention_weights,
                trace.tokens,
                trace.weights,
                trace.top_index,
                token_title=t("attention_by_hand.chart.token"),
                weight_title=t("attention_by_hand.chart.weight", query=trace.query_token),
            ),
            width="stretch",
        )
        m1, m2, m3 = st.columns(3)
        m1.metric(t("attention_by_hand.metric.max"), f"{trace.max_score:.3f}")
        m2.metric(t("attention_by_hand.metric.exp_sum"), f"{trace.exp_sum:.3f}")
        m3.metric(t("attention_by_hand.metric.weight_sum"), f"{trace.weights.sum():.3f}")
    st.dataframe(
        pd.DataFrame(
            {
                t("attention_by_hand.col.s"): trace.scores,
                "sⱼ − m": trace.shifted_scores,
                "exp(sⱼ − m)": trace.shifted_exp,
                "αⱼ": trace.weights,
            },
            index=pd.Index(trace.tokens, name=t("attention_by_hand.col.token")),
        ),
        width="stretch",
        height=table_height(trace.n),
        column_config={
            name: st.column_config.NumberColumn(format="%.3f")
            for name in (t("attention_by_hand.col.s"), "sⱼ − m", "exp(sⱼ − m)", "αⱼ")
        },
    )
    st.latex(latex_steps.weights(trace))


def _step_values(trace: AttentionTrace) -> None:
    st.header(t("attention_by_hand.step3.title"), divider="gray")
    st.markdown(t("attention_by_hand.step3.body"))
    st.latex(latex_steps.WEIGHTED_SUM)
    st.latex(latex_steps.weighted_sum(trace))
    st.dataframe(
        pd.DataFrame(
            {
                "αⱼ": trace.weights,
                "vⱼ": [vector_label(v) for v in trace.values],
                "αⱼ vⱼ": [vector_label(c) for c in trace.contributions],
            },
            index=pd.Index(trace.tokens, name=t("attention_by_hand.col.token")),
        ),
        width="stretch",
        height=table_height(trace.n),
        column_config={"αⱼ": st.column_config.NumberColumn(format="%.3f")},
    )
    cols = st.columns(len(trace.z) + 1)
    for i, value in enumerate(trace.z):
        cols[i].metric(f"z_his[{i + 1}]", f"{value:.3f}")
    with cols[-1]:
        st.caption(t("attention_by_hand.step3.article_check"))
    st.latex(latex_steps.FUSED_CALL)
    st.success(
        t(
            "attention_by_hand.fused",
            backend=t(f"backend.{trace.backend}"),
            z=vector_label(trace.z),
            total=vector_label(trace.weighted_sum),
            diff=f"{trace.fused_difference:.1e}" if trace.fused_difference else "0",
        ),
        icon=":material/check_circle:",
    )


def _your_sentence(selected: str) -> None:
    """The same three steps on the sidebar's sentence, with the toy model's numbers: head 1 of
    its first block, the row of one query — ``worked_example`` again, on those scores and values,
    checked against the head output the toy computed itself."""
    st.header(t("attention_by_hand.mine.title"), divider="gray")
    text = current_sentence()
    config = ToyConfig()
    trace = toy_trace_or_none(text, config, toy_backend(selected, config, [text]))
    if trace is None:
        return
    block = trace.blocks[0]
    st.markdown(
        t("attention_by_hand.mine.body", d_model=config.d_model, h=config.h, d_k=config.d_k)
    )
    labels = token_labels(trace.tokens)
    i = pick(
        t("attention_by_hand.mine.query"),
        MINE_QUERY_KEY,
        labels,
        default_query(trace.tokens),
        linked=True,
    )
    mine = worked_example(
        selected,
        scores=block.scores[0, i].tolist(),  # (n,): q_i·k_j / √d_k, head 1
        values=block.v_heads[0].tolist(),  # (n, d_k): head 1's value vectors
        tokens=trace.tokens,
        query_index=i,
    )
    left, right = st.columns([3, 2], gap="large")
    index, token_config = token_index(list(labels.values()), t("attention_by_hand.col.token"))
    with left:
        st.dataframe(
            pd.DataFrame(
                {
                    t("attention_by_hand.col.s"): mine.scores,
                    "αⱼ": mine.weights,
                    "vⱼ": [vector_label(v) for v in mine.values],
                },
                index=index,
            ),
            width="stretch",
            height=table_height(mine.n),
            column_config={
                **token_config,
                t("attention_by_hand.col.s"): st.column_config.NumberColumn(format="%.3f"),
                "αⱼ": st.column_config.ProgressColumn(format="%.3f", min_value=0.0, max_value=1.0),
            },
        )
    with right:
        st.metric(t("attention_by_hand.mine.top", query=labels[i]), f"{mine.weights.max():.3f}")
        if (top := say(attention_views.top_weight(mine.weights, trace.tokens))) is not None:
            st.markdown(top)  # every key tied with it named, by position
        st.metric(f"z ({t('attention_by_hand.mine.z')})", vector_label(mine.z))
        own = block.head_out[0, i]  # (d_k,): what the toy's forward pass computed
        st.caption(
            t("attention_by_hand.mine.check", diff=f"{float(np.abs(mine.z - own).max()):.1e}")
        )
    st.caption(t("attention_by_hand.mine.caveat"))


def _caveats_and_heads() -> None:
    st.header(t("attention_by_hand.caveat.title"), divider="gray")
    st.markdown(t("attention_by_hand.caveat.body"))
    st.subheader(t("attention_by_hand.heads.title"))
    st.markdown(t("attention_by_hand.heads.body"))
    cols = st.columns(3)
    for col, head in zip(cols, ("1", "2", "3"), strict=True):
        with col.container(border=True):
            st.markdown(t(f"attention_by_hand.heads.h{head}"))
    st.latex(latex_steps.MULTI_HEAD)
    st.markdown(t("attention_by_hand.heads.after"))
    with st.expander(t("attention_by_hand.matrix.title")):
        st.latex(latex_steps.MATRIX_FORM)
        st.markdown(t("attention_by_hand.matrix.body"))


def render() -> None:
    name = page_start("attention_by_hand.title")
    if name is None:
        return
    _setting()
    trace = _step_scores(name)
    if _predict(trace):
        _step_softmax(trace)
        _step_values(trace)
        _your_sentence(name)  # after the reveal: on the default sentence it would give it away
    else:
        st.info(t("attention_by_hand.locked"), icon=":material/lock:")
    _caveats_and_heads()


render()
