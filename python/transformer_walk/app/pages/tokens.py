"""Tokens — the app's first screen: a welcome to the road, then text → tokens → ids → vectors for
the sidebar's sentence (the toy model's trace) and word-level tokens against MiniLM's WordPiece."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from tokenizers import Tokenizer

from transformer_walk.app import charts, links, navigation
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.i18n import join_names, t
from transformer_walk.app.model_widgets import (
    smollm2_model,
    tokenizer_or_reason,
    toy_backend,
    toy_trace_or_none,
)
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views import bpe as bpe_views
from transformer_walk.app.views.labels import UNKNOWN_SHOWN, unknown_labels, visible
from transformer_walk.app.views.latex import tex_words
from transformer_walk.app.widgets import page_start, solved_and_hurts
from transformer_walk.models.minilm.wordpiece import INSTALL_HINT, count_words, word_pieces
from transformer_walk.models.toy import BASE_WORDS, ToyConfig, Trace
from transformer_walk.topics.claims import token_label

MAX_HEATMAP_ROWS = 24  # more rows than this make an unreadable embedding picture
TRY_KEY = "tok_try_word"
MAX_POSITIONS = 512  # MiniLM's position table
PIECES_PER_ROW = 10  # columns of a strip that fit the page's width with whole cells
MAX_STRIPS = 8  # a 2,000-character text has hundreds of pieces: the first 80 tell the story
MAX_TRY_CHARS = 100  # one word, even a long one; the field is not for whole texts
TRY_DEFAULT = "unbelievably"


def _welcome() -> None:
    with st.container(border=True):
        st.subheader(t("tokens.welcome.title"))
        st.markdown(t("tokens.welcome.body"))
        left, right = st.columns(2, gap="large")
        with left:
            st.markdown("**" + t("tokens.welcome.sidebar_title") + "**")
            st.markdown(t("tokens.welcome.sidebar"))
        with right:
            st.markdown("**" + t("tokens.welcome.road_title") + "**")
            number = 0
            for group, pages in navigation.ROAD:
                stops = []
                for _file, _url, title, _icon in pages:
                    number += 1
                    stops.append(f"{number}. {t(title)}")
                st.markdown(f"*{t(group)}* — " + " · ".join(stops))
        st.caption(t("tokens.welcome.here"))


def _pipeline(trace: Trace) -> None:
    st.header(t("tokens.pipeline.title"), divider="gray")
    st.markdown(t("tokens.pipeline.body"))
    text, token, token_id = (
        tex_words(t(k)) for k in ("tokens.tex.text", "tokens.tex.token", "tokens.tex.id")
    )
    st.latex(rf"{text}\;\rightarrow\;{token}\;\rightarrow\;{token_id}\;\rightarrow\;"
             r"\boldsymbol{e}_i \in \mathbb{R}^{d_{\text{model}}}")  # fmt: skip
    n, d_model = trace.embeddings.shape
    base = len(dict.fromkeys(BASE_WORDS))  # the list repeats a word or two; the vocabulary doesn't
    added = len(trace.vocab) - base

    left, right = st.columns([2, 3], gap="large")
    with left:
        st.markdown(t("tokens.step.tokens"))
        st.caption(t("tokens.step.tokens_body"))
        st.markdown(t("tokens.step.ids"))
        st.caption(t("tokens.step.ids_body", vocab=len(trace.vocab), base=base, added=added))
        st.dataframe(
            pd.DataFrame(
                {
                    t("tokens.col.token"): [visible(x) for x in trace.tokens],
                    t("tokens.col.id"): trace.ids.tolist(),
                },
                index=pd.Index(range(1, n + 1), name=t("tokens.col.position")),
            ),
            width="stretch",
            height=min(38 + 35 * n, 38 + 35 * MAX_HEATMAP_ROWS // 2),  # about the heatmap's
        )
    with right:
        st.markdown(t("tokens.step.vectors"))
        st.caption(t("tokens.step.vectors_body", d_model=d_model, n=n))
        st.latex(
            r"\boldsymbol{e}_i = E[\,\mathrm{id}_i\,],\quad E \in \mathbb{R}^{|V| \times "
            rf"d_{{\text{{model}}}}}} = \mathbb{{R}}^{{{len(trace.vocab)} \times {d_model}}}"
        )
        shown = min(n, MAX_HEATMAP_ROWS)
        rows = trace.embeddings[:shown]  # (shown, d_model)
        st.vega_lite_chart(
            chart_spec(
                charts.heatmap,
                rows,
                [
                    f"{token_label(p + 1, visible(tok))} ({i})"
                    for p, (tok, i) in enumerate(
                        zip(trace.tokens[:shown], trace.ids[:shown], strict=True)
                    )
                ],
                [str(j + 1) for j in range(rows.shape[1])],
                row_title=t("tokens.chart.token"),
                col_title=t("tokens.chart.dim"),
                value_title=t("tokens.chart.value"),
                width=charts.FULL * 3 // 5,
            ),
            width="content",
        )
        if shown < n:
            st.caption(t("tokens.vectors.capped", shown=shown, n=n))


def _counts(text: str, trace: Trace, tokenizer: Tokenizer | None) -> None:
    st.header(t("tokens.count.title"), divider="gray")
    st.markdown(t("tokens.count.body"))
    words = count_words(text)
    pieces = word_pieces(tokenizer, text) if tokenizer is not None else None
    c1, c2, c3 = st.columns(3)
    c1.metric(t("tokens.metric.words"), words, help=t("tokens.metric.words_help"))
    c2.metric(t("tokens.metric.toy"), trace.n, help=t("tokens.metric.toy_help"))
    c3.metric(
        t("tokens.metric.wordpiece"),
        pieces.n if pieces is not None else t("tokens.metric.unavailable"),
        help=t("tokens.metric.wordpiece_help"),
    )
    if pieces is not None:
        summary = t(
            "tokens.count.summary",
            toy=trace.n,
            wordpiece=pieces.n,
            pieces=pieces.n_without_special,
            words=words,
        )
    else:
        summary = t("tokens.count.summary_toy_only", toy=trace.n, words=words)
    st.markdown(summary)


def _wordpiece(text: str, tokenizer: Tokenizer | None, reason: str) -> None:
    st.subheader(t("tokens.wp.title"))
    if tokenizer is None:
        st.warning(t("tokens.wp.missing", reason=reason), icon=":material/download:")
        st.code(INSTALL_HINT, language="bash")
        st.caption(t("tokens.wp.missing_rest"))
        return
    st.markdown(t("tokens.wp.body", vocab=f"{tokenizer.get_vocab_size():,}"))
    pieces = word_pieces(tokenizer, text)
    by_word = pieces.pieces_per_word(text)
    split = [(word, p) for word, p in by_word if len(p) > 1]
    st.markdown(t("tokens.wp.sequence"))
    shown = min(pieces.n, PIECES_PER_ROW * MAX_STRIPS)
    for start in range(0, shown, PIECES_PER_ROW):
        stop = min(start + PIECES_PER_ROW, shown)
        st.dataframe(
            # One column per position, read left to right like the sentence, in strips that fit
            # the page (one strip of 42 columns scrolled, and showed 17); text cells, since each
            # column holds a token and an id.
            pd.DataFrame(
                [pieces.tokens[start:stop], [str(i) for i in pieces.ids[start:stop]]],
                index=[t("tokens.col.token"), t("tokens.col.id")],
                columns=[str(i) for i in range(start + 1, stop + 1)],
            ),
            width="stretch",
        )
    if shown < pieces.n:
        st.caption(t("tokens.wp.capped", shown=shown, n=pieces.n))
    if split:
        st.markdown(t("tokens.wp.split_words", count=len(split)))
        st.dataframe(
            pd.DataFrame(
                {
                    t("tokens.col.word"): [word for word, _ in split],
                    t("tokens.col.pieces"): [" · ".join(p) for _, p in split],
                    t("tokens.col.count"): [len(p) for _, p in split],
                }
            ),
            hide_index=True,
            width="stretch",
        )
    elif not pieces.n_unknown and all(c <= 1 for c in pieces.pieces_per_spaced_word(text)):
        # "every word is whole" is not true of a word that became [UNK], nor of "didn't", which
        # the pre-tokenizer counts as three words before WordPiece sees it
        st.caption(t("tokens.wp.no_split"))
    if pieces.n_unknown:
        unknown = unknown_labels(text, pieces.tokens, pieces.offsets)
        st.info(
            t(
                "tokens.wp.unknown",
                count=pieces.n_unknown,
                pieces=join_names(unknown, most=UNKNOWN_SHOWN),
            ),
            icon=":material/help:",
        )
    if pieces.n > MAX_POSITIONS:
        st.warning(t("tokens.wp.long", n=pieces.n), icon=":material/content_cut:")

    links.linked(TRY_KEY, TRY_DEFAULT, links.Text(MAX_TRY_CHARS))
    word = st.text_input(
        t("tokens.try.label"),
        value=TRY_DEFAULT,
        key=TRY_KEY,
        help=t("tokens.try.help"),
        max_chars=MAX_TRY_CHARS,
    ).strip()
    if not word:
        st.caption(t("tokens.try.empty"))
        return
    tried = word_pieces(tokenizer, word)
    inner = tried.tokens[1:-1]  # without [CLS] … [SEP]
    st.markdown(
        t(
            "tokens.try.result",
            word=word,
            pieces=" · ".join(f"`{p}`" for p in inner),
            count=len(inner),
        )
    )


def _pieces_in_strips(pieces: list[str], ids: list[int]) -> int:
    """SmolLM2's pieces and their ids in strips of ``PIECES_PER_ROW`` columns (at most
    ``MAX_STRIPS``), rows named apart from WordPiece's; returns how many were shown."""
    shown = min(len(pieces), PIECES_PER_ROW * MAX_STRIPS)
    for start in range(0, shown, PIECES_PER_ROW):
        stop = min(start + PIECES_PER_ROW, shown)
        st.dataframe(
            pd.DataFrame(
                [pieces[start:stop], [str(i) for i in ids[start:stop]]],
                index=[t("tokens.bpe.row"), t("tokens.col.id")],
                columns=[str(i) for i in range(start + 1, stop + 1)],
            ),
            width="stretch",
        )
    return shown


def _bpe(text: str, tokenizer: Tokenizer | None) -> None:
    st.subheader(t("tokens.bpe.title"))
    model = smollm2_model()  # the friendly message when it is missing; the page goes on
    if model is None:
        return
    st.markdown(t("tokens.bpe.body", vocab=f"{model.config.vocab_size:,}"))
    split = bpe_views.bpe_split(model.tokenizer, text)
    st.metric(t("tokens.metric.bpe"), split.n)
    shown = _pieces_in_strips(split.pieces, split.ids)
    if shown < split.n:
        st.caption(t("tokens.bpe.capped", shown=shown, n=split.n))
    wordpiece = word_pieces(tokenizer, text).n_without_special if tokenizer is not None else None
    key, fields = bpe_views.bpe_summary(split, wordpiece, count_words(text))
    st.markdown(t(key, **fields))


def render() -> None:
    name = page_start("tokens.title")
    _welcome()
    if name is None:
        return
    text = current_sentence()
    config = ToyConfig()
    trace = toy_trace_or_none(text, config, toy_backend(name, config, [text]))
    if trace is None:
        return
    _pipeline(trace)
    tokenizer, reason = tokenizer_or_reason()
    _counts(text, trace, tokenizer)
    _wordpiece(text, tokenizer, reason)
    _bpe(text, tokenizer)
    st.markdown(t("tokens.caveat"))
    solved_and_hurts(t("tokens.solved"), t("tokens.hurts"))


render()
