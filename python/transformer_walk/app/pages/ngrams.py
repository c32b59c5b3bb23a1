"""N-grams: counting what comes next on the shipped corpus, and where counting runs out.

Renders ``transformer_walk.topics.ngrams`` over ``transformer_walk.topics.corpus``; holds no math.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import ngrams as charts_ngrams
from transformer_walk.app.i18n import current_language, join_names, say, t, translated_radio
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import power_label
from transformer_walk.app.views.latex import scientific, tex_words
from transformer_walk.app.widgets import keep_valid_choice, page_start, solved_and_hurts
from transformer_walk.topics import corpus
from transformer_walk.topics.claims import percent
from transformer_walk.topics.corpus import Language
from transformer_walk.topics.ngrams import (
    BOS,
    EOS,
    WINDOW_DEMOS,
    NgramCounts,
    SentenceScore,
    Words,
    name_end,
    order_needed,
    sparsity,
    split_heldout,
    window_rows,
)

ORDER_KEY = "ngram_order"
SMOOTH_KEY = "ngram_smooth"
WORD_KEY = "ngram_word"
FAR_KEY = "ngram_far"
MAX_LATEX_FACTORS = 10  # the product is written out up to here, then "⋯"
FACTORS_PER_LINE = 5
MAX_LISTED = 5  # unseen n-grams named in the warning


@st.cache_resource(show_spinner=False, max_entries=len(corpus.CORPORA))
def corpus_models(language: Language = "en") -> tuple[NgramCounts, NgramCounts, list[Words]]:
    """(counts on the whole corpus, counts on the training part, the held-out sentences) for the
    English or the Chinese corpus: two entries at most, each counted once per server."""
    sentences = corpus.sentences(language)
    train, heldout = split_heldout(sentences)
    return NgramCounts(sentences), NgramCounts(train), heldout


def _shown(word: str) -> str:
    return {BOS: "⟨s⟩", EOS: "⟨/s⟩"}.get(word, word)


def _latex_word(word: str) -> str:
    """A word inside st.latex: upright text; the tokenizer's words hold letters, digits, "_" and
    "'" only (punctuation is dropped), so escaping "_" is all KaTeX needs."""
    if word in (BOS, EOS):
        return r"\langle s\rangle" if word == BOS else r"\langle /s\rangle"
    escaped = word.replace("_", r"\_")
    return rf"\text{{{escaped}}}"


def _intro(model: NgramCounts, language: Language, words: list[str]) -> None:
    st.markdown(t("ngrams.intro"))
    st.latex(r"P(w_t \mid w_{t-n+1},\dots,w_{t-1}) = \frac{c(w_{t-n+1}\dots w_{t-1}\,w_t)}"
             r"{c(w_{t-n+1}\dots w_{t-1}\,\cdot)}")  # fmt: skip
    c1, c2, c3 = st.columns(3)
    c1.metric(t("ngrams.metric.sentences"), f"{len(model.sentences):,}")
    c2.metric(
        t("ngrams.metric.tokens" if language == "en" else "ngrams.metric.chars"),
        f"{model.n_tokens:,}",
    )
    c3.metric(t("ngrams.metric.vocab"), f"{len(model.vocabulary):,}")
    chosen = say(corpus.corpus_choice(words))
    if chosen:
        st.info(chosen, icon=":material/translate:")
    with st.expander(t("ngrams.corpus.title")):
        st.markdown(t("ngrams.corpus.body" if language == "en" else "ngrams.corpus.body_zh"))
        st.code("\n".join(corpus.raw_sentences(language)[:12]), language=None)


def _chain_rule(model: NgramCounts, words: list[str], language: Language) -> None:
    st.header(t("ngrams.chain.title"), divider="gray")
    st.markdown(t("ngrams.chain.body"))
    left, right = st.columns(2)
    labels = {2: t("ngrams.order.2"), 3: t("ngrams.order.3")}
    links.linked(ORDER_KEY, 2, list(labels))
    links.linked(SMOOTH_KEY, False, links.ON_OFF)
    n = left.radio(
        t("ngrams.order"), options=[2, 3], format_func=labels.__getitem__,
        key=translated_radio(ORDER_KEY), horizontal=True,
    )  # fmt: skip
    smooth = right.toggle(t("ngrams.smooth"), key=SMOOTH_KEY, help=t("ngrams.smooth_help"))
    add_k = 1.0 if smooth else 0.0
    score = model.score(words, n, add_k=add_k)

    unknown = sorted({w for w in words if (w,) not in model.plain[1]})
    if unknown:
        st.info(t("ngrams.chain.unknown", words=join_names(unknown)), icon=":material/help:")
    st.latex(_chain_latex(score, n))
    st.dataframe(_steps_frame(score), width="stretch", hide_index=True)

    m1, m2 = st.columns(2)
    m1.metric(t("ngrams.metric.p"), power_label(score.probability))
    logp = score.log_probability
    m2.metric(t("ngrams.metric.logp"), "−∞" if logp == -math.inf else f"{logp:.2f}")
    if score.zero_steps:
        quoted = [
            "“" + " ".join(_shown(w) for w in (*score.steps[i].context, score.steps[i].word)) + "”"
            for i in score.zero_steps[:MAX_LISTED]
        ]
        # all of them: "a, b and c" (“a”、“b” 和 “c”); cut short: "a, b, c …" with the list comma
        comma = "、" if current_language() == "zh" else ", "
        more = len(score.zero_steps) > MAX_LISTED
        missing = comma.join(quoted) + " …" if more else join_names(quoted)
        # every word unknown: there is no "stretch" the corpus missed, only words it lacks
        none_known = bool(words) and all((w,) not in model.plain[1] for w in words)
        st.warning(
            t("ngrams.chain.zero_unknown")
            if none_known
            else t("ngrams.chain.zero", ngrams=missing, count=len(score.zero_steps)),
            icon=":material/block:",
        )
    elif smooth:
        st.info(t("ngrams.chain.smoothed"), icon=":material/water_drop:")
    else:
        seen = "ngrams.chain.all_seen" if language == "en" else "ngrams.chain.all_seen_zh"
        st.success(t(seen), icon=":material/check_circle:")


def _chain_latex(score: SentenceScore, n: int) -> str:
    """The chain rule with this sentence's numbers (the factors themselves are in the table)."""
    history = r"w_{t-1}" if n == 2 else r"w_{t-2}, w_{t-1}"
    values = [f"{s.probability:.3f}" for s in score.steps[:MAX_LATEX_FACTORS]]
    # the factors five to a line and the result on its own, so that a narrow column cuts
    # neither (one long line ran past the column and lost its result)
    rows = [
        r" \cdot ".join(values[i : i + FACTORS_PER_LINE])
        for i in range(0, len(values), FACTORS_PER_LINE)
    ]
    if len(score.steps) > MAX_LATEX_FACTORS:
        rows[-1] += r" \cdots"
    product = r" \\ &\quad\cdot ".join(rows)
    return (
        rf"\begin{{aligned}}P({tex_words(t('ngrams.tex.sentence'))}) &= "
        rf"\prod_{{t=1}}^{{{len(score.steps)}}} P(w_t \mid {history}) \\"
        rf" &= {product} \\ &= {scientific(score.probability, 3)}\end{{aligned}}"
    )


def _steps_frame(score: SentenceScore) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "t": list(range(1, len(score.steps) + 1)),
            t("ngrams.col.context"): [" ".join(_shown(w) for w in s.context) for s in score.steps],
            t("ngrams.col.word"): [_shown(s.word) for s in score.steps],
            t("ngrams.col.count"): [s.count for s in score.steps],
            t("ngrams.col.context_count"): [s.context_count for s in score.steps],
            # an unseen context is 0/0, undefined: the model scores it 0, and the cell says both
            "P": [
                "0 (0/0)" if s.context_count == 0 and s.probability == 0 else f"{s.probability:.4f}"
                for s in score.steps
            ],
        }
    )


def _next_words(model: NgramCounts, words: list[str], language: Language) -> None:
    st.header(t("ngrams.next.title"), divider="gray")
    st.markdown(t("ngrams.next.body"))
    options = list(model.vocabulary)
    in_vocab = [w for w in words if w in options]
    default = in_vocab[0] if in_vocab else WINDOW_DEMOS[language].pronoun
    keep_valid_choice(WORD_KEY, options, default)
    word = st.selectbox(t("ngrams.next.word"), options=options, key=WORD_KEY)
    found = model.continuations((word,), top=10)
    total = model.contexts[2][(word,)]
    st.caption(t("ngrams.next.caption", word=word, total=total, kinds=len(
        [g for g in model.counts[2] if g[0] == word])))  # fmt: skip
    if not found:
        st.info(t("ngrams.next.none", word=word))
        return
    st.vega_lite_chart(
        chart_spec(
            charts_ngrams.continuations,
            [_shown(w) for w, _, _ in found],
            [p for _, _, p in found],
            [c for _, c, _ in found],
            word_title=t("ngrams.next.axis_word", word=word),
            probability_title=t("ngrams.next.axis_p", word=word),
            count_title=t("ngrams.next.axis_count"),
        ),
        width="stretch",
    )
    top_word, top_count, top_p = found[0]
    st.latex(
        rf"P({_latex_word(top_word)}\mid {_latex_word(word)}) = \frac{{{top_count}}}{{{total}}}"
        rf" = {top_p:.3f}"
    )


def _sparsity(
    full: NgramCounts, train: NgramCounts, heldout: list[Words], words: list[str]
) -> None:
    st.header(t("ngrams.sparse.title"), divider="gray")
    st.markdown(t("ngrams.sparse.body"))
    rows = sparsity(train, heldout, words, full)
    series_possible = t("ngrams.sparse.series.possible")
    series_heldout = t("ngrams.sparse.series.heldout")
    series_sentence = t("ngrams.sparse.series.sentence")
    long = pd.DataFrame(
        [
            {"n": r.n, "series": name, "share": share}
            for r in rows
            for name, share in (
                (series_possible, 1 - r.share_of_possible_seen),
                (series_heldout, r.heldout_unseen_share),
                (series_sentence, r.sentence_unseen_share),
            )
        ]
    )
    st.vega_lite_chart(
        chart_spec(
            charts_ngrams.sparsity,
            long,
            series_order=[series_possible, series_heldout, series_sentence],
            n_title="n",
            share_title=t("ngrams.sparse.axis_share"),
            series_title=t("ngrams.sparse.axis_series"),
        ),
        width="stretch",
    )
    st.dataframe(
        pd.DataFrame(
            {
                "n": [r.n for r in rows],
                t("ngrams.sparse.col.distinct"): [r.distinct for r in rows],
                "|V|ⁿ": [power_label(r.possible) for r in rows],
                t("ngrams.sparse.col.heldout"): [
                    f"{r.heldout_unseen}/{r.heldout_total}" for r in rows
                ],
                t("ngrams.sparse.col.sentence"): [
                    f"{r.sentence_unseen}/{r.sentence_total}" if r.sentence_total else "—"
                    for r in rows
                ],
            }
        ),
        hide_index=True,
        width="stretch",
    )
    # words + 1 factors: ⟨s⟩ before the first word, ⟨/s⟩ after the last
    st.caption(
        t("ngrams.sparse.unpadded", words=len(words), bigrams=max(len(words) - 1, 0),
          factors=len(words) + 1)
    )  # fmt: skip
    last = rows[-1]
    st.markdown(
        t(
            "ngrams.sparse.summary",
            n=last.n,
            seen=f"{last.distinct:,}",
            possible=power_label(last.possible),
            share=power_label(last.share_of_possible_seen, 2),
            heldout=percent(last.heldout_unseen_share),
        )
    )


def _window(model: NgramCounts, language: Language) -> None:
    demo = WINDOW_DEMOS[language]
    zh = language == "zh"
    st.header(t("ngrams.window.title_zh" if zh else "ngrams.window.title"), divider="gray")
    st.markdown(t("ngrams.window.body_zh" if zh else "ngrams.window.body"))
    options = list(demo.sentences)
    keep_valid_choice(FAR_KEY, options, options[0])
    sentence = st.radio(t("ngrams.window.pick"), options=options, key=FAR_KEY)
    words = corpus.words(sentence)
    target = words.index(demo.pronoun)
    name_index = name_end(words, demo.name)
    rows = window_rows(model, words, target, name_index, (demo.pronoun, demo.other))
    yes, no = t("ngrams.window.yes"), t("ngrams.window.no")
    st.dataframe(
        pd.DataFrame(
            {
                "n": [r.n for r in rows],
                t("ngrams.window.col.context"): [
                    " ".join(_shown(w) for w in r.context) for r in rows
                ],
                t("ngrams.window.col.sees"): [yes if r.sees_name else no for r in rows],
                t("ngrams.col.context_count"): [r.context_count for r in rows],
                t("ngrams.window.col.p", word=demo.pronoun): [round(r.p_his, 3) for r in rows],
                t("ngrams.window.col.p", word=demo.other): [round(r.p_her, 3) for r in rows],
            }
        ),
        hide_index=True,
        width="stretch",
    )
    needed = order_needed(target, name_index)
    vocab = len(model.vocabulary)
    st.markdown(
        t(
            "ngrams.window.needed_zh" if zh else "ngrams.window.needed",
            **({"last": demo.name[-1]} if zh else {}),
            name="".join(demo.name),
            distance=target - name_index,
            n=needed,
            contexts=power_label(vocab ** (needed - 1)),
            vocab=vocab,
        )
    )


def render() -> None:
    page_start("ngrams.title", caption="ngrams.no_backend", uses_backend=False)
    words = corpus.words(current_sentence())
    language = corpus.language_of(words)
    full, train, heldout = corpus_models(language)
    _intro(full, language, words)
    if not words:
        st.info(t("ngrams.empty"), icon=":material/edit_note:")
    else:
        _chain_rule(full, words, language)
        _next_words(full, words, language)
    _sparsity(full, train, heldout, words)
    _window(full, language)
    solved_and_hurts(t("ngrams.solved"), t("ngrams.hurts"))


render()
