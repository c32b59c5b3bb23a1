"""The N-grams page through AppTest: the numbers shown against counts made here from the file."""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import cache, partial
from importlib import resources

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.app.views.labels import power_label

import apptest_support

open_page = partial(apptest_support.open_page, "ngrams.py", assert_no_exception=True)


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if column in d.value.columns)


# --- an independent count of the raw corpus file --------------------------------------------------


@cache
def raw_sentences(language: str = "en") -> list[list[str]]:
    """The corpus file read here: English words, or Chinese characters one by one."""
    text = (
        resources.files("transformer_walk.topics") / "data" / f"corpus_{language}.txt"
    ).read_text("utf-8")
    pattern = r"[a-z']+" if language == "en" else r"[\u4e00-\u9fff]"
    return [re.findall(pattern, line.lower()) for line in text.splitlines() if line.strip()]


@cache
def counts(n: int, language: str = "en") -> tuple[Counter, Counter]:
    grams, contexts = Counter(), Counter()
    for s in raw_sentences(language):
        seq = ["<s>"] * (n - 1) + s + ["</s>"]
        for i in range(n - 1, len(seq)):
            grams[tuple(seq[i - n + 1 : i + 1])] += 1
            contexts[tuple(seq[i - n + 1 : i])] += 1
    return grams, contexts


def sentence_probability(
    words: list[str], n: int, add_k: float = 0.0, language: str = "en"
) -> float:
    grams, contexts = counts(n, language)
    vocab = {w for s in raw_sentences(language) for w in s}
    seq = ["<s>"] * (n - 1) + words + ["</s>"]
    p = 1.0
    for i in range(n - 1, len(seq)):
        c, total = grams[tuple(seq[i - n + 1 : i + 1])], contexts[tuple(seq[i - n + 1 : i])]
        p *= (
            (c + add_k) / (total + add_k * (len(vocab) + 1))
            if add_k
            else (c / total if total else 0)
        )
    return p


# --- tests ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_renders_the_corpus_and_the_default_sentence(language: str) -> None:
    at = open_page(language)
    assert at.title[0].value == translate("ngrams.title", language)
    vocab = {w for s in raw_sentences() for w in s}
    assert metric(at, translate("ngrams.metric.sentences", language)) == f"{len(raw_sentences()):,}"
    assert metric(at, translate("ngrams.metric.vocab", language)) == f"{len(vocab):,}"
    expected = sentence_probability(["tom", "loves", "his", "dog"], 2)
    assert metric(at, translate("ngrams.metric.p", language)) == power_label(expected)
    assert metric(at, translate("ngrams.metric.logp", language)) == f"{math.log(expected):.2f}"
    assert any(s.value == translate("ngrams.chain.all_seen", language) for s in at.success)
    assert len(at.get("vega_lite_chart")) == 2  # next words, sparsity


def test_the_trigram_switch_changes_every_factor() -> None:
    at = open_page()
    at.radio(key="ngram_order").set_value(3).run()
    assert not at.exception
    expected = sentence_probability(["tom", "loves", "his", "dog"], 3)
    assert metric(at, "P(sentence)") == power_label(expected)
    steps = frame_with(at, "c(context w)")
    assert steps["context"].tolist()[:3] == ["⟨s⟩ ⟨s⟩", "⟨s⟩ tom", "tom loves"]
    grams, contexts = counts(3)
    assert steps["c(context w)"].tolist()[2] == grams[("tom", "loves", "his")]
    assert steps["c(context ·)"].tolist()[2] == contexts[("tom", "loves")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_unseen_bigram_gives_zero_and_smoothing_repairs_it(language: str) -> None:
    at = open_page(language, sentence="Tom loves his computer")
    assert metric(at, translate("ngrams.metric.p", language)) == "0"
    assert metric(at, translate("ngrams.metric.logp", language)) == "−∞"
    zero = translate("ngrams.chain.zero", language, ngrams="X", count=1).split("X")[0]
    assert any(w.value.startswith(zero) for w in at.warning)
    assert any("computer" in i.value for i in at.info)  # named as out of the corpus
    at.toggle(key="ngram_smooth").set_value(True).run()
    assert not at.exception
    expected = sentence_probability(["tom", "loves", "his", "computer"], 2, add_k=1.0)
    assert expected > 0
    assert metric(at, translate("ngrams.metric.p", language)) == power_label(expected)


def test_next_words_of_a_chosen_word() -> None:
    at = open_page()
    at.selectbox(key="ngram_word").set_value("his").run()
    assert not at.exception
    grams, contexts = counts(2)
    after = Counter({g[1]: c for g, c in grams.items() if g[0] == "his"})
    top, top_count = after.most_common(1)[0]
    total = contexts[("his",)]
    assert any(
        rf"\frac{{{top_count}}}{{{total}}} = {top_count / total:.3f}" in x.value for x in at.latex
    )
    caption = translate("ngrams.next.caption", "en", word="his", total=total, kinds=len(after))
    assert any(c.value == caption for c in at.caption)


def test_sparsity_table_matches_an_independent_held_out_count() -> None:
    at = open_page()
    table = frame_with(at, "held-out unseen")
    sentences = raw_sentences()
    train = [s for i, s in enumerate(sentences) if i % 10 != 9]
    held = [s for i, s in enumerate(sentences) if i % 10 == 9]
    for n in (1, 3, 5):
        seen = {tuple(s[i : i + n]) for s in train for i in range(len(s) - n + 1)}
        grams = [tuple(s[i : i + n]) for s in held for i in range(len(s) - n + 1)]
        unseen = sum(g not in seen for g in grams)
        assert table["held-out unseen"].tolist()[n - 1] == f"{unseen}/{len(grams)}"
    shares = [int(a) / int(b) for a, b in (x.split("/") for x in table["held-out unseen"])]
    assert shares == sorted(shares) and shares[-1] > shares[0]


def test_the_fixed_window_cannot_see_a_far_name() -> None:
    at = open_page()
    near = frame_with(at, "P(his | context)")
    assert near["sees the name?"].tolist() == ["no", "yes", "yes", "yes"]
    assert near["P(his | context)"].tolist()[1] == 1.0
    far_sentence = "Tom who lives near the lake loves his dog"
    at.radio(key="ngram_far").set_value(far_sentence).run()
    assert not at.exception
    far = frame_with(at, "P(his | context)")
    assert far["sees the name?"].tolist() == ["no"] * 4
    grams, contexts = counts(3)
    p_his = grams[("lake", "loves", "his")] / contexts[("lake", "loves")]
    assert far["P(his | context)"].tolist()[1] == round(p_his, 3)
    assert any("n ≥ 8" in m.value for m in at.markdown)


@pytest.mark.parametrize(
    "sentence", ["", "我爱我的狗", "🐶❤️🐱", " ".join(["Tom loves his dog by the river"] * 29)]
)
def test_edge_inputs_render_without_an_exception(sentence: str) -> None:
    at = open_page(sentence=sentence)
    assert at.title[0].value == translate("ngrams.title", "en")
    if not re.search(r"\w", sentence):
        assert any(i.value == translate("ngrams.empty", "en") for i in at.info)
    if sentence.startswith("我"):  # counted on the Chinese corpus, character by character
        expected = sentence_probability(list(sentence), 2, language="zh")
        assert expected > 0 and metric(at, "P(sentence)") == power_label(expected)
    if sentence.startswith("Tom"):  # 203 words: the sentence repeats, "river tom" never occurs
        assert len(frame_with(at, "c(context w)")) == 204


def test_every_backend_gives_the_same_counts(app_backend: str) -> None:
    at = open_page(backend=app_backend)
    expected = sentence_probability(["tom", "loves", "his", "dog"], 2)
    assert metric(at, "P(sentence)") == power_label(expected)


def test_an_unseen_context_is_shown_as_0_over_0() -> None:
    at = open_page(sentence="zebra tom loves his dog")  # "zebra" is never in the corpus
    table = next(d.value for d in at.dataframe if "P" in d.value.columns)
    assert table["P"].iloc[1] == "0 (0/0)"  # zebra → tom: the context "zebra" was never seen
    assert table["P"].iloc[2] != "0 (0/0)"  # tom → loves: a seen context, a real probability
    assert float(table["P"].iloc[2]) > 0


def test_a_sentence_of_unknown_words_is_not_called_a_missed_stretch() -> None:
    at = open_page(sentence="机器三四")  # no character of it in the Chinese corpus
    assert translate("ngrams.chain.zero_unknown", "en") in [w.value for w in at.warning]
    at = open_page(sentence="zebra tom loves his dog")  # one unknown word among known ones
    assert translate("ngrams.chain.zero_unknown", "en") not in [w.value for w in at.warning]


@pytest.mark.parametrize(
    ("language", "sentence"),
    [("en", "我爱我的狗"), ("zh", "他去银行存钱"), ("zh", "我们在河岸边散步")],
)
def test_a_chinese_sentence_is_counted_on_the_chinese_corpus(language: str, sentence: str) -> None:
    at = open_page(language, sentence=sentence)
    chars = list(sentence)
    chosen = translate("ngrams.corpus.pick.zh", language, n=len(chars))
    assert chosen in [i.value for i in at.info]
    assert (
        metric(at, translate("ngrams.metric.sentences", language))
        == f"{len(raw_sentences('zh')):,}"
    )
    vocab = {w for s in raw_sentences("zh") for w in s}
    assert metric(at, translate("ngrams.metric.vocab", language)) == f"{len(vocab):,}"
    assert (
        metric(at, translate("ngrams.metric.chars", language))
        == f"{sum(map(len, raw_sentences('zh'))):,}"
    )
    expected = sentence_probability(chars, 2, language="zh")
    assert expected > 0  # every character and bigram of these occurs in the corpus
    assert metric(at, translate("ngrams.metric.p", language)) == power_label(expected)
    assert translate("ngrams.chain.all_seen_zh", language) in [s.value for s in at.success]
    body = translate("ngrams.corpus.body_zh", language)
    assert body in [m.value for m in at.markdown]  # says how it is segmented, and why


def test_the_chinese_window_counts_he_and_she() -> None:
    at = open_page(sentence="汤姆爱他的狗")
    near = frame_with(at, "P(他 | context)")
    assert near["sees the name?"].tolist() == ["no", "yes", "yes", "yes"]
    grams, contexts = counts(2, "zh")
    assert near["P(他 | context)"].tolist()[0] == round(grams[("爱", "他")] / contexts[("爱",)], 3)
    assert near["P(她 | context)"].tolist()[1] == 0.0
    at.radio(key="ngram_far").set_value("汤姆每个星期五都在学校工作，他爱他的狗").run()
    far = frame_with(at, "P(他 | context)")
    assert far["sees the name?"].tolist() == ["no"] * 4
    assert any("n ≥ 13" in m.value for m in at.markdown)


def test_a_mixed_sentence_says_which_corpus_and_why() -> None:
    at = open_page(sentence="Tom 爱 his 狗")  # half CJK: the English corpus
    chosen = translate("ngrams.corpus.pick.mixed_en", "en", cjk=2, n=4)
    assert chosen in [i.value for i in at.info]
    assert any("爱" in i.value and "狗" in i.value for i in at.info)  # named as not in it
    at = open_page(sentence="我用 Python 和 Rust 写代码")  # 6 of 8 CJK: the Chinese corpus
    assert translate("ngrams.corpus.pick.mixed_zh", "en", cjk=6, n=8) in [i.value for i in at.info]
    assert any("python" in i.value and "rust" in i.value for i in at.info)


def test_lists_are_joined_as_the_page_language_writes_them() -> None:
    at = open_page("zh", sentence="机器三四")  # none in the Chinese corpus
    unknown = translate("ngrams.chain.unknown", "zh", words="三、器、四 和 机")
    assert unknown in [i.value for i in at.info]
    at = open_page("zh", sentence="汤姆爱电脑和机器")  # 8 zero factors: five listed, cut short
    warning = next(w.value for w in at.warning)
    assert (
        "”、“" in warning and warning.count("”、“") == 4 and "…" in warning and ", " not in warning
    )


def test_the_chain_formula_puts_its_result_on_a_line_of_its_own() -> None:
    """With many factors the one-line product ran past its column and lost its result."""
    from transformer_walk.app.views.latex import scientific

    sentence = "Tom loves his dog and Anna loves her cat by the river"
    at = open_page(sentence=sentence)
    expected = sentence_probability(re.findall(r"[a-z]+", sentence.lower()), 2)
    chain = next(x.value for x in at.latex if r"\prod" in x.value)
    lines = chain.split(r"\\")
    assert len(lines) == 4 and r"\cdots" in lines[2]  # ∏, factors 1-5, 6-10 and ⋯, the result
    assert all(line.count(r"\cdot ") <= 5 for line in lines)
    assert lines[-1].replace("$$", "").strip() == rf"&= {scientific(expected, 3)}\end{{aligned}}"
