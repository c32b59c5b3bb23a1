"""Check yourself: predict, then reveal. Ten claims (the article's eight misconceptions and two more
it answers), each settled by a live experiment from ``topics.checks`` run on the sidebar's backend.

The score lives in session state: which questions were revealed and whether the guess was right.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts
from transformer_walk.app.caches import smollm2_on
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.i18n import join_names, markdown_literal, t, translated_radio
from transformer_walk.app.model_widgets import smollm2_model, tokenizer_or_reason
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import (
    difference_label,
    shape_label,
    token_axis,
    token_labels,
)
from transformer_walk.app.views.latex import tex_words
from transformer_walk.app.widgets import page_start, python_fallback_note, solved_and_hurts
from transformer_walk.topics import checks

RESULTS_KEY = "chk_results"  # {question id: guess was right}, filled on reveal
ANSWER_PREFIX = "chk_answer_"  # + question id: the radio's key


# The experiments are data: cached by their inputs, so a rerun does not redo them.
_long_input = st.cache_data(show_spinner=False, max_entries=4)(checks.long_input)
_activations = st.cache_data(show_spinner=False, max_entries=16)(checks.activations_change)
_raw_vs_projected = st.cache_data(show_spinner=False, max_entries=16)(checks.raw_vs_projected)
_values = st.cache_data(show_spinner=False, max_entries=16)(checks.values_and_weights)
_heads = st.cache_data(show_spinner=False, max_entries=16)(checks.heads_differ)
_seeds = st.cache_data(show_spinner=False, max_entries=16)(checks.weights_by_seed)
#: The real race's sentence by ``PrefillDecode.verdict``.
REAL_SAYS = {
    "slower": "check_yourself.seq.real_slower",
    "not_slower": "check_yourself.seq.real_not_slower",
}
_prefixes = st.cache_data(show_spinner=False, max_entries=16)(checks.causal_prefixes)
_symmetry = st.cache_data(show_spinner=False, max_entries=16)(checks.symmetry)
_order = st.cache_data(show_spinner=False, max_entries=16)(checks.order_check)


def _num(x: float) -> str:
    return f"{x:.1e}" if x and abs(x) < 1e-3 else f"{x:.3f}"


def _matrix(
    values: np.ndarray, tokens: list[str], title: str, width: int = charts.HALF
) -> None:  # values: [n, n]
    st.markdown(f"**{title}**")
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            values,
            token_axis(tokens),
            token_axis(tokens),
            row_title=t("check_yourself.axis.query"),
            col_title=t("check_yourself.axis.key"),
            value_title="αᵢⱼ",
            domain=(0.0, 1.0),
            width=width,
        ),
        width="content",
    )


def _query_rows(
    rows: charts.Matrix, labels: list[str], tokens: list[str], query: str, row_title: str
) -> None:
    """One query's weights over the keys, [k, n]: a row per model, head or variant."""
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            rows,
            labels,
            token_axis(tokens),
            row_title=row_title,
            col_title=t("check_yourself.axis.key"),
            value_title=f"a({query}, j)",
            domain=(0.0, 1.0),
        ),
        width="content",
    )


# --- the experiments, rendered --------------------------------------------------------------------


def _show_n_tokens(text: str, backend: str) -> None:
    tokenizer, reason = tokenizer_or_reason()
    texts = [checks.RARE_WORD_SENTENCE, text]
    counts = [checks.token_count(x, tokenizer) for x in texts]
    rare = counts[0]
    if rare.pieces is None:  # no tokenizer
        st.info(t("check_yourself.n_tokens.no_tokenizer", reason=reason), icon=":material/info:")
    else:
        st.markdown(
            t(
                "check_yourself.n_tokens.result",
                text=rare.text,
                words=rare.words,
                n=rare.wordpiece_n,
                pieces=" ".join(rare.pieces),
            )
        )
    table = {
        t("check_yourself.col.text"): [c.text for c in counts],
        t("check_yourself.col.words"): [c.words for c in counts],
        t("check_yourself.col.toy"): [c.toy_tokens for c in counts],
    }
    if tokenizer is not None:
        table[t("check_yourself.col.wordpiece")] = [c.wordpiece_n for c in counts]
    st.dataframe(pd.DataFrame(table), hide_index=True)
    st.latex(
        r"n = \#"
        + tex_words(t("check_yourself.tex.tokens"))
        + r" \;\neq\; \#"
        + tex_words(t("check_yourself.tex.words"))
    )


def _show_d_model(text: str, backend: str) -> None:
    result = _long_input(backend)
    lengths = " / ".join(str(r.n) for r in result.runs)
    st.markdown(
        t("check_yourself.d_model.result", d_model=result.d_model, h=result.h, lengths=lengths)
    )
    if result.backend != backend:
        python_fallback_note()
    st.dataframe(
        pd.DataFrame(
            {
                t("check_yourself.col.n"): [r.n for r in result.runs],
                t("check_yourself.col.x"): [shape_label(r.x_shape) for r in result.runs],
                t("check_yourself.col.weights"): [
                    shape_label(r.weights_shape) for r in result.runs
                ],
                t("check_yourself.col.out"): [shape_label(r.out_shape) for r in result.runs],
                t("check_yourself.col.row_sum"): [
                    difference_label(r.max_row_sum_error) for r in result.runs
                ],
            }
        ),
        hide_index=True,
    )
    longest = result.runs[-1]
    st.latex(
        rf"X \in \mathbb{{R}}^{{n \times d_{{\text{{model}}}}}}:\ "
        rf"n = {longest.n} > 512,\ d_{{\text{{model}}}} = {result.d_model}"
    )


def _show_fixed(text: str, backend: str) -> None:
    r = _activations(text, backend)
    st.markdown(
        t(
            "check_yourself.fixed.result",
            first=r.texts[0],
            second=r.texts[1],
            token=r.token,
            w_q=_num(r.w_q_difference),
            q=_num(r.q_difference),
        )
    )
    st.latex(
        rf"\max|W^Q_{{(1)}} - W^Q_{{(2)}}| = {_num(r.w_q_difference)},\qquad "
        rf"\max|q^{{(1)}} - q^{{(2)}}| = {_num(r.q_difference)}"
    )


def _show_dot(text: str, backend: str) -> None:
    r = _raw_vs_projected(text, backend)
    query = token_labels(r.tokens, [r.query])[r.query]
    st.markdown(
        t(
            "check_yourself.dot.result",
            query=query,
            raw_top=r.raw_top,
            projected_top=r.projected_top,
        )
    )
    st.latex(
        r"\operatorname{softmax}_j\!\Big(\frac{x_i \cdot x_j}{\sqrt{d_{\text{model}}}}\Big)"
        r"\quad" + tex_words(t("check_yourself.tex.vs")) + r"\quad"
        r"\operatorname{softmax}_j\!\Big(\frac{(x_iW^Q)\cdot(x_jW^K)}{\sqrt{d_k}}\Big)"
    )
    labels = [t("check_yourself.dot.raw"), t("check_yourself.dot.projected")]
    _query_rows([r.raw, r.projected], labels, r.tokens, query, row_title="")


def _show_values(text: str, backend: str) -> None:
    r = _values(text, backend)
    st.markdown(
        t(
            "check_yourself.values.result",
            weights=_num(r.weights_difference),
            output=_num(r.output_difference),
        )
    )
    st.latex(
        r"A = \operatorname{softmax}\!\Big(\frac{QK^{\mathsf T}}{\sqrt{d_k}}\Big)"
        + r"\ "
        + tex_words(t("check_yourself.tex.no_v"))
        + r",\qquad Z = AV"
    )
    left, right = st.columns(2)
    with left:
        _matrix(r.weights, r.tokens, t("check_yourself.values.before"))
    with right:
        _matrix(r.weights_new_v, r.tokens, t("check_yourself.values.after"))


def _show_heads(text: str, backend: str) -> None:
    r = _heads(text, backend)
    differ = (
        t("check_yourself.heads.differ")
        if r.column_blocks_differ
        else t("check_yourself.heads.same")
    )
    query = token_labels(r.tokens, [r.query])[r.query]
    st.markdown(t("check_yourself.heads.result", h=r.h, d_k=r.d_k, differ=differ, query=query))
    st.latex(rf"W_i^Q = W^Q[:,\,(i-1)d_k : i\,d_k],\quad d_k = {r.d_k},\ i = 1,\ldots,{r.h}")
    heads = [str(i + 1) for i in range(r.h)]
    _query_rows(r.rows, heads, r.tokens, query, row_title=t("check_yourself.axis.head"))


def _show_truth(text: str, backend: str) -> None:
    r = _seeds(text, backend)
    query = token_labels(r.tokens, [r.query])[r.query]
    tops = join_names(
        [
            t("check_yourself.truth.seed", top=top, seed=s)
            for top, s in zip(r.top_keys, r.seeds, strict=True)
        ]
    )
    st.markdown(t("check_yourself.truth.result", models=len(r.seeds), query=query, tops=tops))
    seeds = [str(s) for s in r.seeds]
    _query_rows(r.weights_by_seed, seeds, r.tokens, query, row_title=t("check_yourself.axis.seed"))


def _show_sequential(text: str, backend: str) -> None:
    r = _prefixes(text, backend)
    st.markdown(
        t(
            "check_yourself.seq.result",
            n=len(r.tokens),
            parallel=r.parallel_passes,
            sequential=r.sequential_passes,
            gap=_num(r.max_difference),
        )
    )
    st.latex(r"P(x_1,\ldots,x_n) = \prod_{t=1}^{n} P(x_t \mid x_1, \ldots, x_{t-1})")
    _show_real_generation(text, backend)


@st.cache_data(show_spinner=False, max_entries=16)
def _prefill_decode(text: str, backend: str) -> checks.PrefillDecode:
    """Timed once per sentence and backend: a re-reveal shows the same race, not a new one."""
    return checks.prefill_vs_decode(smollm2_on(backend), text)


def _show_real_generation(text: str, backend: str) -> None:
    """The same claim settled by the real decoder's clock (SmolLM2 on the sidebar's backend; NumPy
    in place of pure Python, which takes about 30 s a token)."""
    st.markdown(t("check_yourself.seq.real_title"))
    if smollm2_model() is None:
        return
    used = backend if backend != "python" else "numpy"
    with st.spinner(t("check_yourself.seq.real_running")):
        r = _prefill_decode(text, used)
    left, right = st.columns(2)
    left.metric(t("check_yourself.seq.real_prefill", n=r.n), f"{1000 * r.prefill_seconds:.0f} ms")
    right.metric(t("check_yourself.seq.real_decode", n=r.n), f"{1000 * r.decode_seconds:.0f} ms")
    says = REAL_SAYS[r.verdict]
    st.markdown(t(says, n=r.n, ratio=f"{r.ratio:.1f}", backend=t(f"backend.{used}")))


def _show_symmetry(text: str, backend: str) -> None:
    r = _symmetry(text, backend)
    i, j = r.pair
    if i == j:
        st.info(t("check_yourself.sym.single"), icon=":material/info:")
    else:
        st.markdown(
            t(
                "check_yourself.sym.result",
                i=token_labels(r.tokens, [i])[i],
                j=token_labels(r.tokens, [j])[j],
                a_ij=f"{r.a_ij:.3f}",
                a_ji=f"{r.a_ji:.3f}",
                max=_num(r.max_asymmetry),
            )
        )
        st.latex(
            rf"\alpha_{{{i + 1}{j + 1}}} = {r.a_ij:.3f} \neq "
            rf"\alpha_{{{j + 1}{i + 1}}} = {r.a_ji:.3f}"
        )
    _matrix(r.weights, r.tokens, "A", charts.FULL)


def _show_order(text: str, backend: str) -> None:
    r = _order(text, backend)
    st.markdown(
        t(
            "check_yourself.order.result",
            original=" ".join(r.tokens),
            shuffled=" ".join(r.shuffled),
            without=_num(r.without_positions),
            with_pe=_num(r.with_positions),
        )
    )
    st.latex(
        rf"\max\big|\,f(PX) - P f(X)\,\big| = {_num(r.without_positions)}\ "
        + tex_words(t("check_yourself.tex.no_pe"))
        + rf",\quad {_num(r.with_positions)}\ "
        + tex_words(t("check_yourself.tex.with_pe"))
    )


# --- the questions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    qid: str
    claim: str  # message id of the claim
    why: str  # message id of the explanation
    answer: str  # "yes" | "no" | "depends"
    misconception: int | None  # its number in the article's list, None for the extra ones
    show: Callable[[str, str], None]  # renders the live experiment for (text, backend)
    also: tuple[str, ...] = ()  # other answers the article's own wording makes right

    def grade(self, guess: str) -> bool:
        return guess == self.answer or guess in self.also


QUESTIONS: list[Question] = [
    Question(
        "n_tokens",
        "check_yourself.n_tokens.q",
        "check_yourself.n_tokens.why",
        "depends",
        1,
        _show_n_tokens,
    ),
    Question(
        "d_model", "check_yourself.d_model.q", "check_yourself.d_model.why", "no", 2, _show_d_model
    ),
    Question("fixed", "check_yourself.fixed.q", "check_yourself.fixed.why", "no", 3, _show_fixed),
    # The article calls belief 4 "inaccurate" (不准确), as soft as belief 1's "not strict".
    Question(
        "dot",
        "check_yourself.dot.q",
        "check_yourself.dot.why",
        "no",
        4,
        _show_dot,
        also=("depends",),
    ),
    Question(
        "values", "check_yourself.values.q", "check_yourself.values.why", "no", 5, _show_values
    ),
    Question("heads", "check_yourself.heads.q", "check_yourself.heads.why", "yes", 6, _show_heads),
    # The article: "not so", yet weights may correlate with linguistic relations; so a learner
    # who says "not necessarily" has read it right too.
    Question(
        "truth",
        "check_yourself.truth.q",
        "check_yourself.truth.why",
        "no",
        7,
        _show_truth,
        also=("depends",),
    ),
    Question(
        "sequential", "check_yourself.seq.q", "check_yourself.seq.why", "no", 8, _show_sequential
    ),
    # "in general not symmetric": "not necessarily" says the same
    Question(
        "symmetric",
        "check_yourself.sym.q",
        "check_yourself.sym.why",
        "no",
        None,
        _show_symmetry,
        also=("depends",),
    ),
    Question(
        "order", "check_yourself.order.q", "check_yourself.order.why", "no", None, _show_order
    ),
]

OPTIONS = ("yes", "no", "depends")


def _option_labels() -> dict[str, str]:
    # Precomputed: AppTest calls format_func outside the script run, where t() has no language.
    return {
        "yes": t("check_yourself.opt.yes"),
        "no": t("check_yourself.opt.no"),
        "depends": t("check_yourself.opt.depends"),
    }


def _results() -> dict[str, bool]:
    return st.session_state.setdefault(RESULTS_KEY, {})


def _reset() -> None:
    st.session_state[RESULTS_KEY] = {}
    for q in QUESTIONS:
        st.session_state.pop(ANSWER_PREFIX + q.qid, None)


def _reveal(qid: str) -> None:
    """The reveal button's callback: runs before the page, so the score above is already fresh."""
    guess = st.session_state.get(ANSWER_PREFIX + qid)
    if guess is not None:
        _results()[qid] = next(q for q in QUESTIONS if q.qid == qid).grade(guess)


def _score(bottom: bool = False) -> None:
    results = _results()
    left, right = st.columns([4, 1])
    left.markdown(
        t(
            "check_yourself.score",
            right=sum(results.values()),
            revealed=len(results),
            total=len(QUESTIONS),
        )
    )
    right.button(
        t("check_yourself.reset"),
        key="chk_reset_bottom" if bottom else "chk_reset",
        on_click=_reset,
        help=t("check_yourself.reset_help"),
    )


def _question(number: int, q: Question, text: str, backend: str, labels: dict[str, str]) -> None:
    results = _results()
    revealed = q.qid in results
    with st.container(border=True):
        st.subheader(f"{number}. {t(q.claim)}")
        guess = st.radio(
            t("check_yourself.pick"),
            options=list(OPTIONS),
            format_func=labels.__getitem__,
            index=None,
            horizontal=True,
            key=translated_radio(ANSWER_PREFIX + q.qid),
            disabled=revealed,  # the guess is locked once the answer is out
        )
        if not revealed:
            st.button(
                t("check_yourself.reveal"),
                key=f"chk_reveal_{q.qid}",
                disabled=guess is None,
                help=t("check_yourself.reveal_help"),
                on_click=_reveal,
                args=(q.qid,),
            )
            return
        if results[q.qid] and guess != q.answer and guess is not None:
            st.success(
                t("check_yourself.right_also", guess=labels[guess], answer=labels[q.answer]),
                icon=":material/check_circle:",
            )
        elif results[q.qid]:
            st.success(
                t("check_yourself.right", answer=labels[q.answer]), icon=":material/check_circle:"
            )
        else:
            st.error(
                t(
                    "check_yourself.wrong",
                    guess="—" if guess is None else labels.get(guess, "—"),
                    answer=labels[q.answer],
                ),
                icon=":material/cancel:",
            )
        # where the claim comes from, once answered: before, "belief N" would hint at the answer
        tag = (
            t("check_yourself.misconception", number=q.misconception)
            if q.misconception is not None
            else t("check_yourself.more")
        )
        st.caption(tag)
        st.markdown(t(q.why))
        with st.spinner(t("check_yourself.computing")):
            q.show(text, backend)


def render() -> None:
    backend = page_start("check_yourself.title")
    if backend is None:
        return
    st.markdown(t("check_yourself.intro"))
    text, used_default = checks.check_text(current_sentence())
    shown = markdown_literal(text)
    if used_default:
        st.info(t("check_yourself.default_note", text=shown), icon=":material/edit_note:")
    else:
        st.caption(t("check_yourself.sentence_note", max_tokens=checks.MAX_TOKENS, text=shown))
    _score()
    labels = _option_labels()
    for number, q in enumerate(QUESTIONS, start=1):
        _question(number, q, text, backend, labels)
    _score(bottom=True)
    solved_and_hurts(t("check_yourself.solved"), t("check_yourself.hurts"))


render()
