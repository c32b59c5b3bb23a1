"""The Embeddings page through AppTest: trained vectors, lookup, cosines, neighbours, bank."""

from __future__ import annotations

import math
from functools import cache, partial

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.topics import corpus
from transformer_walk.topics.word2vec import Word2VecParams, Word2VecResult, train

import apptest_support

open_page = partial(apptest_support.open_page, "embeddings.py", assert_no_exception=True)


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def frames_with(at: AppTest, column: str) -> list[pd.DataFrame]:
    return [d.value for d in at.dataframe if column in d.value.columns]


@cache
def result(dim: int = 16, epochs: int = 8, window: int = 2) -> Word2VecResult:
    return train(corpus.sentences(), Word2VecParams(dim=dim, epochs=epochs, window=window))


def cos(r: Word2VecResult, a: str, b: str, table: np.ndarray | None = None) -> float:
    e = r.embeddings if table is None else table
    x, y = e[r.vocab.index(a)], e[r.vocab.index(b)]
    return float(x @ y / (np.linalg.norm(x) * np.linalg.norm(y)))


def ranking(r: Word2VecResult, word: str, table: np.ndarray) -> list[str]:
    sims = [(cos(r, word, w, table), w) for w in r.vocab if w != word]
    return [w for _, w in sorted(sims, key=lambda sw: -sw[0])]


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_trains_and_shows_the_loss(language: str) -> None:
    at = open_page(language)
    assert at.title[0].value == translate("embeddings.title", language)
    r = result()
    assert (
        metric(at, translate("embeddings.metric.loss_before", language)) == f"{6 * math.log(2):.3f}"
    )
    assert metric(at, translate("embeddings.metric.loss_after", language)) == f"{r.losses[-1]:.3f}"
    facts = translate(
        "embeddings.train.facts", language, pairs=f"{r.n_pairs:,}", k=5,
        start=f"{6 * math.log(2):.3f}",
        V=len(r.vocab), d=16, params=f"{len(r.vocab) * 16:,}",
    )  # fmt: skip
    assert any(m.value == facts for m in at.markdown)
    assert len(at.get("vega_lite_chart")) == 5  # loss, lookup, cosine, two maps


def test_lookup_and_cosines_of_the_sentence() -> None:
    at = open_page(sentence="The dog and the cat sleep by the river")
    r = result()
    assert any("`embedding_lookup(E, ids)`" in m.value and "8 × 16" in m.value for m in at.markdown)
    assert any(i.value.startswith("Not in the learned vocabulary: sleep.") for i in at.info)
    assert any(c.value == translate("embeddings.lookup.check", "en") for c in at.caption)
    words = ["the", "dog", "and", "cat", "by", "river"]
    best = max(
        ((cos(r, a, b), a, b) for i, a in enumerate(words) for b in words[i + 1 :]),
        key=lambda x: x[0],
    )
    closest = translate("embeddings.cos.closest", "en", a=best[1], b=best[2], cos=f"{best[0]:.3f}")
    assert any(m.value == closest for m in at.markdown)
    assert {best[1], best[2]} == {"dog", "cat"}


def test_neighbours_before_and_after_training() -> None:
    at = open_page()
    at.selectbox(key="emb_word").set_value("river").run()
    assert not at.exception
    r = result()
    before, after = frames_with(at, "neighbour")
    assert after["neighbour"].tolist() == ranking(r, "river", r.embeddings)[:6]
    assert before["neighbour"].tolist() == ranking(r, "river", r.initial)[:6]
    assert after["cos"].tolist()[0] == round(cos(r, "river", after["neighbour"][0]), 3)
    assert {"stream", "lake", "sea", "pond"} <= set(after["neighbour"][:5])


def test_changing_the_hyper_parameters_retrains() -> None:
    at = open_page()
    at.select_slider(key="emb_dim").set_value(8)
    at.slider(key="emb_epochs").set_value(3).run()
    assert not at.exception
    r = result(dim=8, epochs=3)
    assert metric(at, "Loss after") == f"{r.losses[-1]:.3f}"
    assert any(f"{len(r.vocab)} × 8 = {len(r.vocab) * 8:,}" in m.value for m in at.markdown)
    at.slider(key="emb_epochs").set_value(0).run()
    assert not at.exception
    assert metric(at, "Loss after") == metric(at, "Loss before")
    assert any(i.value == translate("embeddings.train.untrained", "en") for i in at.info)


def test_bank_has_one_vector_in_both_senses() -> None:
    at = open_page()
    r = result()
    for word in ("river", "cash"):
        assert metric(at, f"cos(bank, {word})") == f"{cos(r, 'bank', word):.3f}"
    same = translate(
        "embeddings.static.same", "en", a="Tom sat on the river bank",
        b="Anna took cash from the bank",
        diff="0",
    )  # fmt: skip
    assert any(m.value == same for m in at.markdown)
    # The sentence on the two senses is read off the four cosines above it (the default
    # training leans to money: 0.725 and 0.721 against 0.509 and 0.515).
    water = np.mean([cos(r, "bank", w) for w in ("river", "lake")])
    money = np.mean([cos(r, "bank", w) for w in ("cash", "money")])
    side = "second" if money > water + 0.1 else "first" if water > money + 0.1 else "between"
    reading = translate(
        f"embeddings.static.lean.{side}", "en", water=f"{water:.3f}", money=f"{money:.3f}"
    )
    assert any(m.value == reading for m in at.markdown), reading
    assert side == "second"
    assert any("Real model pages" in i.value for i in at.info)


@pytest.mark.parametrize(
    "sentence", ["", "我爱我的狗", "🐶❤️", " ".join(["Tom loves his dog"] * 50)]
)
def test_edge_inputs_render_without_an_exception(sentence: str) -> None:
    at = open_page(sentence=sentence)
    assert at.title[0].value == translate("embeddings.title", "en")
    if sentence in ("", "🐶❤️"):
        assert any(i.value == translate("embeddings.empty", "en") for i in at.info)
    if sentence.startswith("Tom"):
        capped = translate("embeddings.lookup.capped", "en", shown=30, n=200)
        assert any(c.value == capped for c in at.caption)


def test_every_backend_looks_up_the_same_rows(app_backend: str) -> None:
    at = open_page(backend=app_backend)
    label = translate(f"backend.{app_backend}", "en")
    assert any(f"**{label}**" in c.value for c in at.caption)
    assert any(c.value == translate("embeddings.lookup.check", "en") for c in at.caption)


def test_the_neighbour_picker_starts_on_a_content_word_of_the_sentence() -> None:
    """Guards against a long sentence's neighbours starting on "the" (a function word, nothing to
    cluster with): the picker takes the sentence's first content word."""
    from transformer_walk.topics import corpus

    sentence = "the old fisherman walks his dog along the river"
    at = open_page(sentence=sentence)
    assert at.selectbox(key="emb_word").value == "dog"  # the running example's word wins
    at = open_page(sentence="the old man walks along the river")
    first = next(
        w
        for w in corpus.words("the old man walks along the river")
        if corpus.category(w) != corpus.FUNCTION_CATEGORY
    )
    assert first == "old" and at.selectbox(key="emb_word").value == "old"


def test_the_map_says_which_of_your_words_are_in_bold() -> None:
    at = open_page(sentence="zebra")
    assert translate("embeddings.map.mine_none", "en") in [c.value for c in at.caption]
    at = open_page()
    mine = translate(
        "embeddings.map.mine", "en", words="tom, loves and dog"
    )  # his: a function word
    assert mine in [c.value for c in at.caption]


@cache
def result_zh(dim: int = 16, epochs: int = 8, window: int = 2) -> Word2VecResult:
    return train(corpus.sentences("zh"), Word2VecParams(dim=dim, epochs=epochs, window=window))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_chinese_sentence_trains_on_the_chinese_corpus(language: str) -> None:
    at = open_page(language, sentence="我爱我的狗")
    r = result_zh()
    assert translate("ngrams.corpus.pick.zh", language, n=5) in [i.value for i in at.info]
    assert metric(at, translate("embeddings.metric.loss_after", language)) == f"{r.losses[-1]:.3f}"
    assert any(f"{len(r.vocab)} × 16" in m.value for m in at.markdown)
    unknown = translate("embeddings.lookup.unknown", language, words="X").split("X")[0]
    assert not any(i.value.startswith(unknown) for i in at.info)  # every character has a row
    assert at.selectbox(key="emb_word").value == "狗"
    before, after = frames_with(at, translate("embeddings.nn.col.word", language))
    assert (
        after[translate("embeddings.nn.col.word", language)].tolist()
        == ranking(r, "狗", r.embeddings)[:6]
    )


def test_the_chinese_bank_twin_reads_its_table_from_the_cosines() -> None:
    at = open_page(sentence="他去银行存钱")
    r = result_zh()
    same = translate(
        "embeddings.static.zh.same", "en", a="他去银行存钱", b="他沿着河边步行", diff="0"
    )
    assert same in [m.value for m in at.markdown]
    table = frames_with(at, "what the cosines show")[0]
    assert len(table) == 3
    for row, char in zip(table.to_dict("records"), "银行岸", strict=True):
        water = [cos(r, char, w) for w in "河湖"]
        money = [cos(r, char, w) for w in "钱金"]
        assert row["cos(·, 河)"] == round(water[0], 3) and row["cos(·, 金)"] == round(money[1], 3)
        w, m = np.mean(water), np.mean(money)
        side = "money" if m >= w + 0.1 else "water" if w >= m + 0.1 else "between"
        expected = translate(f"embeddings.zh.lean.{side}", "en", water=f"{w:.3f}", money=f"{m:.3f}")
        assert row["what the cosines show"] == expected
    assert table["what the cosines show"].tolist()[0].startswith("nearer the money")
    assert table["what the cosines show"].tolist()[2].startswith("nearer the water")


@pytest.mark.parametrize("sentence", ["Tom loves his dog", "我们在河岸边散步"])
def test_zero_epochs_claims_no_training_and_no_lean(sentence: str) -> None:
    at = open_page(sentence=sentence)
    at.slider(key="emb_epochs").set_value(0).run()
    assert not at.exception
    texts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    assert not any("After training" in x or "leans to" in x for x in texts)
    assert "**" + translate("embeddings.after.untrained", "en", epochs=0) + "**" in texts
    if sentence.startswith("Tom"):
        r = result(epochs=0)
        water = np.mean([cos(r, "bank", w) for w in ("river", "lake")])
        money = np.mean([cos(r, "bank", w) for w in ("cash", "money")])
        untrained = translate(
            "embeddings.static.lean.untrained", "en", water=f"{water:.3f}", money=f"{money:.3f}"
        )
        assert untrained in texts
    else:
        readings = frames_with(at, "what the cosines show")[0]["what the cosines show"]
        assert all(x.startswith("random start (0 epochs)") for x in readings)
    assert any(m.value.endswith("so nothing here was learned.") for m in at.markdown)
