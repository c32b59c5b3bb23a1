"""The Q, K, V page through AppTest: the numbers shown against an independent NumPy computation."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.models.toy import BlockWeights, ToyConfig, positional_encoding, token_vector

import apptest_support
from apptest_support import no_exception, pick_backend

open_page = partial(apptest_support.open_page, "qkv.py")


def metric(at: AppTest, key: str, language: str = "en") -> str:
    label = translate(key, language)
    return next(m.value for m in at.metric if m.label == label)


def expected_score(
    tokens: list[str], i: int, j: int, head: int, d_model: int, h: int, seed: int = 0
) -> float:
    """q_i · k_j of one head from scratch: X = E[tokens] + PE, q = x W^Q_h, k = x W^K_h."""
    X = np.stack([token_vector(tok, d_model, seed) for tok in tokens])
    X = X + positional_encoding(len(tokens), d_model)
    w = BlockWeights.init(ToyConfig(d_model=d_model, h=h, seed=seed), 0)
    d_k = d_model // h
    cols = slice(head * d_k, (head + 1) * d_k)
    return float((X[i] @ w.W_Q[:, cols]) @ (X[j] @ w.W_K[:, cols]))


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_renders_and_checks_the_pair(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("qkv.title", language)
    # Default pair: query "his" (i = 3), key "tom" (j = 1), head 1.
    score = expected_score(["tom", "loves", "his", "dog"], 2, 0, 0, 8, 2)
    assert metric(at, "qkv.pair.dot", language) == f"{score:.6f}"
    assert metric(at, "qkv.pair.bilinear", language) == f"{score:.6f}"
    assert float(metric(at, "qkv.pair.diff", language)) < 1e-12
    assert any(rf"= {score:.6f}" in x.value for x in at.latex)  # the dot product written out
    assert any(r"\mathbb{R}^{4\times8}" in x.value for x in at.latex)  # X's shape
    assert len(at.get("vega_lite_chart")) == 8  # X, 3 weights, Q, K, V, the matching matrix


@pytest.mark.parametrize("language", LANGUAGES)
def test_same_weights_other_sentence(language: str) -> None:
    at = open_page(language)
    # the second sentence starts as yours with its last word changed: "Tom loves his cat"
    assert at.text_input(key="qkv_other").value == "Tom loves his cat"
    count = translate("qkv.fixed.count", language, same=3, changed=1, total=4, layer=1)
    assert any(m.value == count for m in at.markdown)
    table = next(d.value for d in at.dataframe if "max |ΔQ|" in d.value.columns)
    assert list(table["max |ΔQ|"])[:3] == ["0.000", "0.000", "0.000"]
    assert float(table["max |ΔQ|"].iloc[3]) > 0
    at.text_input(key="qkv_other").set_value("Tom loves her cat").run()
    no_exception(at)
    count = translate("qkv.fixed.count", language, same=2, changed=2, total=4, layer=1)
    assert any(m.value == count for m in at.markdown)
    at.radio(key="qkv_layer").set_value(1).run()
    count = translate("qkv.fixed.count", language, same=0, changed=4, total=4, layer=2)
    assert any(m.value == count for m in at.markdown)
    assert any(m.value == translate("qkv.fixed.why_later", language) for m in at.markdown)


def test_controls_change_the_model() -> None:
    at = open_page(sentence="the cat sat on the mat")
    at.selectbox(key="qkv_d_model").set_value(16).run()
    at.selectbox(key="qkv_h").set_value(4).run()
    at.selectbox(key="qkv_head").set_value(3).run()
    at.selectbox(key="qkv_i").set_value(5).run()
    at.selectbox(key="qkv_j").set_value(1).run()
    no_exception(at)
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    score = expected_score(tokens, 5, 1, 3, 16, 4)
    assert metric(at, "qkv.pair.dot") == f"{score:.6f}"
    at.number_input(key="qkv_seed").set_value(7).run()
    no_exception(at)
    assert metric(at, "qkv.pair.dot") == f"{expected_score(tokens, 5, 1, 3, 16, 4, seed=7):.6f}"


def test_the_weighted_sum_matches_the_trace() -> None:
    at = open_page()
    weights = next(d.value for d in at.dataframe if "αᵢⱼ" in d.value.columns)["αᵢⱼ"]
    assert weights.sum() == pytest.approx(1.0)
    assert len(weights) == 4


def test_an_empty_second_sentence_is_explained() -> None:
    at = open_page()
    at.text_input(key="qkv_other").set_value("  ").run()
    no_exception(at)
    assert any(i.value == translate("qkv.fixed.empty", "en") for i in at.info)


def test_empty_text_is_a_friendly_message() -> None:
    at = open_page("en", sentence="")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)


@pytest.mark.parametrize(
    "sentence",
    [" ".join(["dog"] * 200), "我爱我的狗", "Tom 🐶", "dog"],
    ids=["200-words", "cjk", "emoji", "one-token"],
)
def test_edge_inputs(sentence: str) -> None:
    at = open_page("zh", sentence=sentence)
    no_exception(at)
    assert float(metric(at, "qkv.pair.diff", "zh")) < 1e-12


def test_every_backend(app_backend: str) -> None:
    at = open_page()
    label = pick_backend(at, app_backend)
    assert any(label in c.value for c in at.caption)
    score = expected_score(["tom", "loves", "his", "dog"], 2, 0, 0, 8, 2)
    assert metric(at, "qkv.pair.dot") == f"{score:.6f}"


def test_a_sentence_without_his_and_tom_starts_on_its_most_one_sided_pair() -> None:
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    at = open_page(sentence=" ".join(tokens))
    no_exception(at)
    # head 1's weights from scratch (d_model 8, h 2: d_k 4), then the largest a_ij − a_ji
    scores = np.array([[expected_score(tokens, i, j, 0, 8, 2) for j in range(6)] for i in range(6)])
    weights = np.exp(scores / 2.0)
    weights /= weights.sum(axis=1, keepdims=True)
    i, j = np.unravel_index(int(np.argmax(weights - weights.T)), weights.shape)
    assert (at.selectbox(key="qkv_i").value, at.selectbox(key="qkv_j").value) == (i, j)
    assert (i, j) != (2, 0)  # (the old fixed default, "sat" → "the", which this pair is not)


def test_the_second_sentence_follows_the_sidebar_with_one_word_changed() -> None:
    from transformer_walk.app.views.qkv import one_word_changed

    assert one_word_changed("Tom loves his dog") == "Tom loves his cat"
    assert one_word_changed("I have a cat.") == "I have a dog."
    assert one_word_changed("我爱我的狗") == "我爱我的猫"
    assert one_word_changed("我爱我的猫。") == "我爱我的狗。"
    assert one_word_changed("🐟") == "cat"  # the last symbol swapped: positions kept
    assert one_word_changed("1, 2, 3, 4,") == "1, 2, 3, 5,"
    assert one_word_changed("") == "cat"
    long = "The animal didn't cross the street because it was too tired"
    at = open_page(sentence=long)
    assert at.text_input(key="qkv_other").value == long.replace("tired", "cat")
    n = 11  # toy tokens of the long sentence: all but the last position are shared and kept
    count = translate("qkv.fixed.count", "en", same=n - 1, changed=1, total=n, layer=1)
    assert any(m.value == count for m in at.markdown)


def test_the_by_hand_sum_says_exactly_when_it_is_exact() -> None:
    from transformer_walk.app.caches import toy_trace
    from transformer_walk.app.views.qkv import mix_check

    at = open_page()
    no_exception(at)
    head, i = at.selectbox(key="qkv_head").value, at.selectbox(key="qkv_i").value
    trace = toy_trace("Tom loves his dog", ToyConfig(d_model=8, h=2), "rust")
    diff = mix_check(trace, head, i).difference
    captions = [c.value for c in at.caption]
    if diff == 0:
        assert translate("qkv.v.check_exact", "en") in captions
    else:
        assert translate("qkv.v.check", "en", diff=f"{diff:.1e}") in captions
