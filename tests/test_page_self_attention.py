"""The Self-attention matrix page through AppTest: both languages, the sentence and every control,
numbers checked against attention recomputed here from the toy model's own weights."""

from __future__ import annotations

import json
import math
from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.app.widgets import python_fallback_text
from transformer_walk.core.status import backend_status
from transformer_walk.models.toy import ToyConfig, ToyTransformer

import apptest_support
from apptest_support import no_exception, pick_backend

open_page = partial(apptest_support.open_page, "self_attention.py")


def metric(at: AppTest, key: str, language: str = "en", **fields: object) -> str:
    label = translate(key, language, **fields) if "." in key else key
    return next(m.value for m in at.metric if m.label == label)


def expected_weights(text: str, causal: bool = False) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(tokens, A [h, n, n], V heads [h, n, d_k]) recomputed by hand from the model's weights."""
    model = ToyTransformer(ToyConfig(causal=causal), "numpy")
    trace = model.run(text)
    cfg, w = model.config, model.weights[0]
    x = trace.x0  # (n, d_model) the block's input: upstream of attention
    n = len(trace.tokens)

    def heads(m: np.ndarray) -> np.ndarray:
        return m.reshape(n, cfg.h, cfg.d_k).transpose(1, 0, 2)  # (n, d_model) → (h, n, d_k)

    q, k, v = heads(x @ w.W_Q), heads(x @ w.W_K), heads(x @ w.W_V)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(cfg.d_k)  # (h, n, n)
    if causal:
        scores = np.where(np.triu(np.ones((n, n), bool), k=1), -np.inf, scores)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return trace.tokens, e / e.sum(-1, keepdims=True), v


def vec(values: np.ndarray) -> str:
    return "[" + ", ".join(f"{x:.3f}" for x in values) + "]"


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_renders_the_toy_matrix_for_tom_loves_his_dog(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("self_attention.title", language)
    tokens, a, v = expected_weights("Tom loves his dog")
    # The default pair is the article's (his, Tom): a_{3,1} and a_{1,3} of head 1.
    assert metric(at, r"$\alpha_{3,1}$") == f"{a[0, 2, 0]:.3f}"
    assert metric(at, r"$\alpha_{1,3}$") == f"{a[0, 0, 2]:.3f}"
    assert metric(at, "self_attention.dir.gap", language) == f"{a[0, 2, 0] - a[0, 0, 2]:+.3f}"
    # The query row defaults to "his": its top key and the check of z against the trace.
    his = a[0, 2]
    top = int(his.argmax())
    said = translate("self_attention.row.top_one", language, tokens=f"{top + 1} · {tokens[top]}",
                     weight=f"{his.max():.3f}")  # fmt: skip
    assert said in [m.value for m in at.markdown]
    assert metric(at, "self_attention.row.top_weight", language) == f"{his.max():.3f}"
    assert metric(at, "self_attention.row.sum", language) == "1.000"
    z = his @ v[0, :, :]
    assert any(vec(z) in s.value for s in at.success)
    assert any(r"\approx [" in x.value for x in at.latex)
    # n² for n = 4, and the unmasked upper triangle holds weight.
    assert metric(at, "self_attention.cost.per_head", language) == "16"
    assert metric(at, "self_attention.cost.layer", language, h=2) == "32"
    # Head 1's matrix is the one shown, and its own upper triangle is what the metric counts.
    mass = metric(at, "self_attention.causal.mass", language, n=4)
    assert mass == f"{np.triu(a[0], k=1).sum():.3f}"
    assert len(at.get("vega_lite_chart")) == 4  # matrix, row bars, A − Aᵀ, n² curve
    assert any(i.value == translate("self_attention.caveat.body", language) for i in at.warning)


def test_picking_head_2_and_another_query_row() -> None:
    at = open_page()
    at.radio(key="sam_head").set_value(1).run()
    at.selectbox(key="sam_query").set_value(3).run()  # dog
    no_exception(at)
    tokens, a, v = expected_weights("Tom loves his dog")
    row = a[1, 3]
    assert any(f"“{row.argmax() + 1} · {tokens[row.argmax()]}”" in m.value for m in at.markdown)
    assert metric(at, "self_attention.row.top_weight") == f"{row.max():.3f}"
    assert metric(at, r"$\alpha_{3,1}$") == f"{a[1, 2, 0]:.3f}"  # the pair follows the head too
    assert any(vec(row @ v[1]) in s.value for s in at.success)


def test_picking_a_pair_shows_both_directions() -> None:
    at = open_page()
    at.selectbox(key="sam_i").set_value(1)
    at.selectbox(key="sam_j").set_value(3).run()  # loves, dog
    no_exception(at)
    _tokens, a, _v = expected_weights("Tom loves his dog")
    assert metric(at, r"$\alpha_{2,4}$") == f"{a[0, 1, 3]:.3f}"
    assert metric(at, r"$\alpha_{4,2}$") == f"{a[0, 3, 1]:.3f}"
    meaning = translate(
        "self_attention.dir.meaning", "en", ti="2 · loves", tj="4 · dog", a_ij=f"{a[0, 1, 3]:.3f}",
        a_ji=f"{a[0, 3, 1]:.3f}",
    )  # fmt: skip
    assert any(m.value == meaning for m in at.markdown)


@pytest.mark.parametrize("language", LANGUAGES)
def test_causal_switch_empties_the_upper_triangle(language: str) -> None:
    at = open_page(language)
    at.toggle(key="sam_causal").set_value(True).run()
    no_exception(at)
    tokens, a, v = expected_weights("Tom loves his dog", causal=True)
    assert metric(at, "self_attention.causal.mass", language, n=4) == "0.000"
    assert metric(at, "self_attention.causal.first", language) == "1"
    seen = f"1 · {tokens[0]} (1.000)"
    on = translate("self_attention.causal.on", language, first=f"1 · {tokens[0]}", seen=seen)
    assert any(s.value == on for s in at.success)
    his = a[0, 2]  # his sees Tom, loves, itself — not dog
    assert his[3] == 0.0
    assert metric(at, "self_attention.row.top_weight", language) == f"{his.max():.3f}"
    assert any(vec(his @ v[0]) in s.value for s in at.success)


def test_a_new_sentence_changes_every_number() -> None:
    at = open_page()
    at.session_state["sentence"] = "The cat sat on the mat"
    at.run()
    no_exception(at)
    tokens, a, v = expected_weights("The cat sat on the mat")
    # No his/Tom here: the query is the last token, the pair the most lopsided one.
    last = a[0, 5]
    assert any(f"“{last.argmax() + 1} · {tokens[last.argmax()]}”" in m.value for m in at.markdown)
    assert metric(at, "self_attention.row.top_weight") == f"{last.max():.3f}"
    assert metric(at, "self_attention.cost.n") == "6"
    assert metric(at, "self_attention.cost.per_head") == "36"
    assert metric(at, "self_attention.cost.double") == "144"
    gap = a[0] - a[0].T
    i, j = np.unravel_index(int(gap.argmax()), gap.shape)
    assert metric(at, rf"$\alpha_{{{i + 1},{j + 1}}}$") == f"{a[0, i, j]:.3f}"


def test_a_shorter_sentence_after_a_longer_one_resets_the_picks() -> None:
    at = open_page()
    at.selectbox(key="sam_query").set_value(3).run()
    at.session_state["sentence"] = "hello world"
    at.run()
    no_exception(at)
    assert at.selectbox(key="sam_query").value in (0, 1)


def test_empty_text_gives_the_friendly_message() -> None:
    at = open_page("en", sentence="   ")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)
    assert not at.metric


@pytest.mark.parametrize(
    "sentence", ["我爱我的狗", "Tom 🐶 loves his 🐶!", "x_1 $a$ {b} 50% & #tag \\ ^"]
)
def test_cjk_emoji_and_latex_characters(sentence: str) -> None:
    at = open_page(sentence=sentence)
    no_exception(at)
    tokens, a, _v = expected_weights(sentence)
    assert metric(at, "self_attention.cost.n") == str(len(tokens))
    # The query row starts on "his", else on the last token that holds a letter or digit.
    words = [i for i, tok in enumerate(tokens) if any(c.isalnum() for c in tok)]
    q = tokens.index("his") if "his" in tokens else (words or [len(tokens) - 1])[-1]
    assert metric(at, "self_attention.row.top_weight") == f"{a[0, q].max():.3f}"


def test_two_hundred_words_shows_a_window_and_stays_correct() -> None:
    words = ("Tom loves his dog and the dog loves Tom " * 25).split()[:200]
    at = open_page(sentence=" ".join(words))
    no_exception(at)
    assert metric(at, "self_attention.cost.n") == "200"
    assert metric(at, "self_attention.cost.per_head") == "40,000"
    window = at.slider(key="sam_window")
    assert window.max == 200 - 24 + 1
    window.set_value(50).run()
    no_exception(at)
    note = translate("self_attention.window_note", "en", first=50, last=73, n=200)
    assert any(c.value == note for c in at.caption)


def test_each_backend_computes_the_same_numbers(app_backend: str) -> None:
    at = open_page()
    label = pick_backend(at, app_backend)
    assert any(f"**{label}**" in c.value for c in at.caption)
    _tokens, a, _v = expected_weights("Tom loves his dog")
    assert metric(at, r"$\alpha_{3,1}$") == f"{a[0, 2, 0]:.3f}"


def test_pure_python_hands_a_long_text_to_numpy_and_says_so() -> None:
    if not backend_status("python").available:
        pytest.skip("no pure-Python backend")
    at = open_page(sentence=" ".join(["a"] * 900))  # within the sidebar's 2000 characters
    at.radio(key="backend").set_value("python").run()
    no_exception(at)
    # The header names the pick, the note what computed instead.
    assert any("**Pure Python**" in c.value for c in at.caption)
    assert any(i.value == python_fallback_text() and "**NumPy**" in i.value for i in at.info)


def test_a_long_sentences_asymmetry_map_holds_the_chosen_pair() -> None:
    import json

    from transformer_walk.app.views.window import window_around

    sentence = " ".join(f"w{i}" for i in range(40))
    at = open_page(sentence=sentence)
    no_exception(at)
    i, j = at.selectbox(key="sam_i").value, at.selectbox(key="sam_j").value
    rows, cols = window_around(40, i, 24), window_around(40, j, 24)
    assert rows[0] <= i < rows[1] and cols[0] <= j < cols[1]
    caption = translate(
        "self_attention.dir.window", "en", q0=rows[0] + 1, q1=rows[1], k0=cols[0] + 1, k1=cols[1],
        n=40,
        ti=f"{i + 1} · w{i}", tj=f"{j + 1} · w{j}",
    )  # fmt: skip
    assert any(c.value == caption for c in at.caption)
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    heatmaps = [s["layer"][0]["encoding"] for s in specs if "layer" in s]
    axes = [(e["y"]["sort"], e["x"]["sort"]) for e in heatmaps if "sort" in e.get("y", {})]
    assert any(
        y[0].endswith(f" · w{rows[0]}") and x[0].endswith(f" · w{cols[0]}") and len(x) == 24
        for y, x in axes
    )
    assert window_around(40, 2, 24) == (0, 24) and window_around(40, 39, 24) == (16, 40)
    assert window_around(5, 3, 24) == (0, 5)


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_token_has_no_pair_and_nothing_to_mask(language: str) -> None:
    at = open_page(language, sentence="dog")
    no_exception(at)
    assert any(i.value == translate("self_attention.dir.one", language) for i in at.info)
    assert any(i.value == translate("self_attention.causal.one", language) for i in at.info)
    assert not [s for s in at.selectbox if s.key == "sam_i"]  # no pair to pick


@pytest.mark.parametrize(
    ("language", "sentence", "shown"),
    [
        ("en", "Tom loves his dog", "**tom loves his dog**"),
        ("zh", "小红在家里喜欢她的猫", "**小红 在 家里 喜欢 她的 猫**"),
    ],
)
def test_the_trained_switch_reads_the_sentence_with_the_trained_learner(
    language: str, sentence: str, shown: str
) -> None:
    at = apptest_support.open_page(
        "self_attention.py", language, sentence=sentence, state={"sam_model": "trained"},
        assert_no_exception=True, timeout=120,
    )  # fmt: skip
    body = "\n".join(m.value for m in at.markdown)
    assert shown in body
    claim = "In this sentence, head" if language == "en" else "在这个句子里，头"
    assert claim in body  # the trained head looks at the name, with the number beside chance
    # where to look: the row of the word before the possessive, drawn as bars too
    where = "the looking back happens in the row of" if language == "en" else "“回头看”发生在"
    assert where in body
    query = "2 · loves" if language == "en" else "4 · 喜欢"
    assert query in body
    masked = (
        "above the diagonal are masked" if language == "en" else "对角线以上的格子被因果遮罩遮住"
    )
    assert masked in body
    switch = next(r for r in at.radio if r.key == "sam_model")
    assert switch.label == ("Model parameters" if language == "en" else "模型参数")
    # the watched head's matrix in percent, as the bars and sentences beside it ("1.00" before)
    weight = translate("trained_toy.weight", language)
    (matrix,) = [
        layer["encoding"]
        for c in at.get("vega_lite_chart")
        for layer in json.loads(c.proto.spec).get("layer", [])[:1]
        if layer["encoding"].get("color", {}).get("title") == weight
    ]
    assert matrix["color"]["legend"]["format"] == "%"
    assert matrix["tooltip"][-1]["field"] == "text"  # the page's own "99.7%", not ".0%"
    # the query row's bars: a layer of bars over the token axis of the Watch-it-learn page
    axis = translate("watch_it_learn.watch.axis_token", language)
    layers = [
        layer
        for c in at.get("vega_lite_chart")
        for layer in json.loads(c.proto.spec).get("layer", [])
    ]
    assert any(
        layer.get("mark", {}).get("type") == "bar"
        and layer.get("encoding", {}).get("x", {}).get("title") == axis
        for layer in layers
    )


def test_the_trained_switch_explains_a_sentence_it_cannot_read() -> None:
    at = apptest_support.open_page(
        "self_attention.py", "en", sentence="the cat saw the cat",
        state={"sam_model": "trained"}, assert_no_exception=True, timeout=120,
    )  # fmt: skip
    assert any("The trained model knows 43 words" in i.value for i in at.info)


@pytest.mark.parametrize(
    ("language", "sentence"),
    [("en", "Tom sees Anna and loves her dog"), ("zh", "小明和安娜她的狗")],
)
def test_the_trained_switch_says_when_the_model_picks_the_other_possessive(
    language: str, sentence: str
) -> None:
    at = apptest_support.open_page(
        "self_attention.py", language, sentence=sentence, state={"sam_model": "trained"},
        assert_no_exception=True, timeout=120,
    )  # fmt: skip
    assert apptest_support.wrong_possessive_text(language, sentence) in [
        w.value for w in at.warning
    ]
    # the two probabilities are shown here too, above the claim
    assert any(m.value.startswith(("At ", "在 ")) and "%" in m.value for m in at.markdown)
