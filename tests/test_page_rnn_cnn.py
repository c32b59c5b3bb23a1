"""The RNN and CNN page through AppTest: numbers checked against an independent computation."""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.models.toy import ToyConfig, ToyTransformer
from transformer_walk.topics import rnn

import apptest_support
from apptest_support import no_exception, pick_backend

open_page = partial(apptest_support.open_page, "rnn_cnn.py")


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def sci(value: float) -> str:
    """Three significant digits: a plain number from 0.001 to 9,999, else "2.14 × 10⁻³²"."""
    exponent = math.floor(math.log10(value))
    if -3 <= exponent <= 3:
        return f"{value:,.{max(0, 2 - exponent)}f}"
    power = str(exponent).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{value / 10**exponent:.2f} × 10{power}"


def chain_norms(sentence: str, rho: float, steps: int) -> list[float]:
    """‖∂h_t/∂x_1‖ by an explicit product of Jacobians, written out here without rnn's helpers."""
    trace = ToyTransformer(ToyConfig(), "numpy").run(sentence)
    w = rnn.init_weights(8, 8, seed=0, spectral_radius=rho)
    x = np.array([trace.embeddings[t % trace.n] for t in range(max(steps, trace.n))])
    h = np.zeros(8)
    J = None
    norms = []
    for x_t in x:
        h = np.tanh(x_t @ w.W_x + h @ w.W_h)
        slope = np.diag(1 - h**2)
        J = slope @ w.W_x.T if J is None else slope @ w.W_h.T @ J
        norms.append(float(np.linalg.norm(J, 2)))
    return norms


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_renders_the_running_example(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("rnn_cnn.title", language)
    assert metric(at, translate("rnn_cnn.seq.rnn_steps", language)) == "4"
    norms = chain_norms("Tom loves his dog", 0.9, 40)
    assert metric(at, translate("rnn_cnn.metric.at_n", language, n=4)) == sci(norms[3])
    assert metric(at, translate("rnn_cnn.metric.at_steps", language, T=40)) == sci(norms[39])
    factor = (norms[39] / norms[0]) ** (1 / 39)
    assert metric(at, translate("rnn_cnn.metric.factor", language)) == f"{factor:.3f}"
    assert any(
        w.value
        == translate(
            "rnn_cnn.verdict.vanish",
            language,
            factor=f"{factor:.3f}",
            half=f"{math.log(0.5) / math.log(factor):.1f}",
        )
        for w in at.warning
    )
    # CNN, window 3: Tom and dog are 3 apart → ⌈3/2⌉ = 2 layers.
    assert metric(at, translate("rnn_cnn.field.layers", language)) == "2"
    assert metric(at, translate("rnn_cnn.field.distance", language)) == "3"
    table = at.table[0].value
    assert table.loc[translate("rnn_cnn.cmp.sequential", language), "RNN"] == "n = 4, O(n)"
    # n = 4, k = 3: ⌈3/2⌉ = 2 layers (n/k would be 1.33)
    assert (
        table.loc[translate("rnn_cnn.cmp.max_path", language), "CNN"] == "⌈(n−1)/(k−1)⌉ = 2, O(n/k)"
    )
    assert table.loc[translate("rnn_cnn.cmp.cost", language), "RNN"] == f"O(n·d²) = {4 * 512**2:,}"
    attention = translate("rnn_cnn.cmp.col.attention", language)
    assert (
        table.loc[translate("rnn_cnn.cmp.cost", language), attention] == f"O(n²·d) = {16 * 512:,}"
    )
    assert len(at.get("vega_lite_chart")) >= 5


def test_a_large_radius_explodes() -> None:
    at = open_page()
    at.slider(key="rnn_rho").set_value(5.0).run()
    no_exception(at)
    norms = chain_norms("Tom loves his dog", 5.0, 40)
    factor = (norms[39] / norms[0]) ** (1 / 39)
    assert factor > 1.05
    assert metric(at, "average factor per step") == f"{factor:.3f}"
    assert any(w.value.startswith("**Exploding.**") for w in at.warning)


def test_longer_chain_and_another_sentence() -> None:
    sentence = "the old man gave his dog a red book"
    at = open_page(sentence=sentence)
    at.slider(key="rnn_steps").set_value(120).run()
    no_exception(at)
    norms = chain_norms(sentence, 0.9, 120)
    assert metric(at, "RNN: steps that must run one after another") == "9"
    assert metric(at, "‖∂h_T/∂x₁‖ at T = 120") == sci(norms[119])
    # j defaults to the last token: 8 apart, window 3 → 4 layers.
    assert metric(at, "CNN layers to link them") == "4"
    assert at.table[0].value.loc["longest path between two tokens", "RNN"] == "n − 1 = 8, O(n)"


def test_window_and_token_choices_change_the_layers() -> None:
    at = open_page(sentence="a b c d e f g h i j")
    at.slider(key="rnn_k").set_value(4).run()
    at.selectbox(key="rnn_i").set_value(1).run()
    at.selectbox(key="rnn_j").set_value(8).run()
    no_exception(at)
    assert metric(at, "distance |i − j|") == "7"
    assert metric(at, "CNN layers to link them") == "3"  # ⌈7/3⌉
    assert metric(at, "RNN steps between them") == "7"
    assert at.table[0].value.loc["path from “2 · b” to “9 · i”", "CNN"] == "3"
    at.number_input(key="rnn_d").set_value(4).run()
    assert any("at least d = 4" in m.value for m in at.markdown)


def test_choices_survive_a_shorter_sentence() -> None:
    at = open_page(sentence="a b c d e f g h i j")
    at.selectbox(key="rnn_j").set_value(9).run()
    at.session_state["sentence"] = "Tom loves"
    at.run()
    no_exception(at)
    assert metric(at, "distance |i − j|") == "1"


def test_a_window_longer_than_the_sentence_is_explained() -> None:
    at = open_page(sentence="Tom loves")
    at.slider(key="rnn_k").set_value(5).run()
    no_exception(at)
    assert any(i.value == translate("rnn_cnn.cnn.too_short", "en", n=2, k=5) for i in at.info)


def test_a_single_token_has_no_chain() -> None:
    at = open_page(sentence="dog")
    at.slider(key="rnn_steps").set_value(1).run()
    no_exception(at)
    assert any(i.value == translate("rnn_cnn.verdict.one_step", "en") for i in at.info)
    assert any(i.value == translate("rnn_cnn.field.one_token", "en") for i in at.info)


def test_empty_text_is_a_friendly_message() -> None:
    at = open_page("en", sentence="   ")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)


@pytest.mark.parametrize(
    "sentence, n",
    [(" ".join(["word"] * 200), 200), ("我爱我的狗", 5), ("Tom 🐶 loves 🐶", 4)],
    ids=["200-words", "cjk", "emoji"],
)
def test_edge_inputs(sentence: str, n: int) -> None:
    at = open_page("zh", sentence=sentence)
    no_exception(at)
    assert metric(at, translate("rnn_cnn.seq.rnn_steps", "zh")) == str(n)


def test_every_backend(app_backend: str) -> None:
    at = open_page()
    label = pick_backend(at, app_backend)
    assert any(f"**{label}**" in c.value for c in at.caption)
    assert metric(at, "CNN layers to link them") == "2"


def test_dilated_convolutions_are_called_shorter_only_when_they_are() -> None:
    """Guards against "dilated convolutions shorten that to 2" at n = 4, where contiguous
    windows already need 2 layers: the sentence is chosen from the two path lengths."""
    for sentence in ("Tom loves his dog", " ".join(["word"] * 40)):
        at = open_page(sentence=sentence)
        no_exception(at)
        n = len(sentence.split())
        plain = math.ceil((n - 1) / 2)  # contiguous windows of k = 3 widen by 2 a layer
        dilated = next(layers for layers in range(1, 20) if 3**layers >= n)  # field 3^L
        key = "rnn_cnn.cmp.dilated" if dilated < plain else "rnn_cnn.cmp.dilated_same"
        expected = translate(key, "en", k=3, layers=dilated, plain=plain, n=n)
        assert any(m.value == expected for m in at.markdown), (sentence[:20], key)


def test_one_token_has_no_path_to_speak_of() -> None:
    """Guards against "a CNN needs 0 layers to connect the two ends" and "O(1) = 0" for a
    sentence of one token: the page says there is nothing to connect."""
    at = open_page(sentence="cat")
    no_exception(at)
    assert any(m.value == translate("rnn_cnn.cmp.one_token", "en", n=1) for m in at.markdown)
    assert not any("CNN needs" in m.value for m in at.markdown)
    assert any(i.value == translate("rnn_cnn.field.one_token", "en") for i in at.info)
    table = at.table[0].value
    assert "O(1) = 0" not in table.to_string()
    assert "min(1, n−1) = 0, O(1)" in table.to_string()
