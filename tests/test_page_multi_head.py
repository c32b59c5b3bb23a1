"""The Multi-head page through AppTest: both languages, the sentence, the d_model and h sliders
(including an h that does not divide d_model), numbers checked against multi-head attention
recomputed here from the toy model's own weights; and the switch to the toy trained on the
possessive task, its heads checked against the trained learner's reading recomputed here."""

from __future__ import annotations

import json
import math
from functools import partial

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.caches import name_head_study, training_backend
from transformer_walk.app.i18n import LANGUAGES, join_names, say, translate
from transformer_walk.app.trained_toy import MODELS
from transformer_walk.app.widgets import python_fallback_text
from transformer_walk.core.status import backend_status
from transformer_walk.models.toy import ToyConfig, ToyTransformer
from transformer_walk.topics.claims import percent, token_label
from transformer_walk.topics.learning.name_head import (
    NameHeadSettings,
    NameHeadStudy,
    read_sentence,
)
from transformer_walk.topics.learning.name_head_claims import heads_on_name_claim
from transformer_walk.topics.learning.pronouns import PronounTask, parse

import apptest_support
from apptest_support import no_exception, open_address

open_page = partial(apptest_support.open_page, "multi_head.py")


def set_sizes(at: AppTest, d_model: int, h: int) -> AppTest:
    at.slider(key="mh_d_model").set_value(d_model)
    at.slider(key="mh_h").set_value(h)
    return at.run()


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if column in d.value.columns)


def expected(text: str, d_model: int = 8, h: int = 2) -> dict[str, object]:
    """Multi-head attention recomputed by hand from the toy model's weights and block input."""
    model = ToyTransformer(ToyConfig(d_model=d_model, h=h), "numpy")
    trace = model.run(text)
    w, d_k, n = model.weights[0], d_model // h, len(trace.tokens)

    def heads(m: np.ndarray) -> np.ndarray:
        return m.reshape(n, h, d_k).transpose(1, 0, 2)  # (n, d_model) → (h, n, d_k)

    x = trace.x0
    q, k, v = heads(x @ w.W_Q), heads(x @ w.W_K), heads(x @ w.W_V)
    s = q @ k.transpose(0, 2, 1) / math.sqrt(d_k)
    e = np.exp(s - s.max(-1, keepdims=True))
    a = e / e.sum(-1, keepdims=True)  # (h, n, n)
    concat = np.concatenate(list(a @ v), axis=1)  # h × (n, d_k) → (n, d_model)
    return {"tokens": trace.tokens, "a": a, "concat": concat, "out": concat @ w.W_O}


def cells(tokens: list[str], rows: np.ndarray, language: str = "en") -> list[str]:
    """The "largest weight on" cells worked out here: each head's key by position and text, or
    every key tied with it at the three decimals the table shows."""
    out = []
    for row in np.round(rows, 3):
        tied = [token_label(p + 1, tokens[p]) for p in np.flatnonzero(row == row.max())]
        if len(tied) == 1:
            out.append(tied[0])
        else:
            names = join_names(tied, language)
            out.append(translate("multi_head.his.top_tie", language, count=len(tied), tokens=names))
    return out


def top_keys(at: AppTest, language: str = "en") -> list[str]:
    column = translate("multi_head.his.col.top", language)
    return list(table_with(at, column)[column])


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_renders_two_heads_of_width_four(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("multi_head.title", language)
    assert metric(at, "d_model") == "8"
    assert metric(at, "h") == "2"
    assert metric(at, "d_k = d_model / h") == "4"
    assert metric(at, translate("multi_head.n", language)) == "4"
    latex = [x.value for x in at.latex]
    # h × [n, d_k] → [n, d_model]
    assert any(r"2 \times [4,\ 4]" in x and r"[4,\ 8]" in x for x in latex)
    assert any(r"\frac{8}{2} = 4" in x for x in latex)
    assert any("= 256 = 4" in x for x in latex)  # 4 · 8² for the toy
    assert any("1{,}048{,}576" in x for x in latex)  # 4 · 512²
    # "his" (the default query) in each head, against attention recomputed here.
    e = expected("Tom loves his dog")
    tokens, a = e["tokens"], e["a"]
    assert top_keys(at, language) == cells(tokens, a[:, 2], language)
    weights = table_with(at, translate("multi_head.his.col.weight", language))
    np.testing.assert_allclose(
        weights[translate("multi_head.his.col.weight", language)], a[:, 2].max(axis=1), atol=1e-12
    )
    check = translate("multi_head.concat.check", language, concat="0", out="0")
    assert any(s.value == check for s in at.success)
    assert any(i.value == translate("multi_head.his.random", language) for i in at.info)
    base = next(t.value for t in at.table)
    assert "1,048,576" in base.to_string() and "512" in base.to_string()
    # 2 side-by-side matrices, his × heads, 2 head outputs, concat, W^O, output.
    assert len(at.get("vega_lite_chart")) == 2 + 1 + 2 + 3


def test_sliders_change_the_heads_and_their_width() -> None:
    at = set_sizes(open_page(), 12, 3)
    no_exception(at)
    assert metric(at, "d_model") == "12"
    assert metric(at, "h") == "3"
    assert metric(at, "d_k = d_model / h") == "4"
    assert not at.warning or all("does not divide" not in w.value for w in at.warning)
    e = expected("Tom loves his dog", 12, 3)
    tokens, a = e["tokens"], e["a"]
    assert top_keys(at) == cells(tokens, a[:, 2])
    assert any(r"3 \times [4,\ 4]" in x.value and r"[4,\ 12]" in x.value for x in at.latex)
    (params,) = [m.value for m in at.markdown if m.value.startswith("| $h$ | $d_k$ |")]
    lines = params.splitlines()
    assert lines[0].endswith(
        f"| $W_i^Q, W_i^K, W_i^V$ | $W^O$ | {translate('multi_head.params.total', 'en')} |"
    )
    rows = [line.strip("| ").split(" | ") for line in lines[2:]]
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4, 6, 12]
    assert {r[-1] for r in rows} == {"576"}  # 4 · 12², whatever h
    assert len(at.get("vega_lite_chart")) == 3 + 1 + 3 + 3


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_h_that_does_not_divide_d_model_is_explained_not_a_crash(language: str) -> None:
    at = set_sizes(open_page(language), 8, 3)
    no_exception(at)
    message = translate(
        "multi_head.invalid", language, h=3, d_model=8, ratio="2.67", valid="1, 2, 4, 8", used=2
    )
    assert any(w.value == message for w in at.warning), [w.value for w in at.warning]
    assert metric(at, "h") == "2"  # the nearest valid h is shown meanwhile
    at = set_sizes(at, 8, 4)
    no_exception(at)
    assert not any(w.value.startswith(message[:10]) for w in at.warning)
    assert metric(at, "d_k = d_model / h") == "2"


def test_a_prime_d_model_allows_only_one_and_itself() -> None:
    at = set_sizes(open_page(), 7, 5)
    no_exception(at)
    message = translate(
        "multi_head.invalid", "en", h=5, d_model=7, ratio="1.40", valid="1, 7", used=7
    )
    assert any(w.value == message for w in at.warning)
    assert metric(at, "d_k = d_model / h") == "1"


def test_a_new_sentence_and_another_query_token() -> None:
    at = open_page()
    at.session_state["sentence"] = "the dog sees the cat"
    at.run()
    no_exception(at)
    e = expected("the dog sees the cat")
    tokens, a = e["tokens"], e["a"]
    assert metric(at, "n (tokens)") == "5"
    assert top_keys(at) == cells(tokens, a[:, 4])  # the last token
    at.selectbox(key="mh_query").set_value(1).run()  # dog
    no_exception(at)
    assert top_keys(at) == cells(tokens, a[:, 1])
    assert any(r"2 \times [5,\ 4]" in x.value and r"[5,\ 8]" in x.value for x in at.latex)


def test_empty_text_gives_the_friendly_message() -> None:
    at = open_page("en", sentence="")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)
    assert not at.metric


@pytest.mark.parametrize("sentence", ["我爱我的狗", "Tom 🐶 loves his 🐶!", "a_b $x$ {y} 5% #"])
def test_cjk_emoji_and_latex_characters(sentence: str) -> None:
    at = open_page(sentence=sentence)
    no_exception(at)
    e = expected(sentence)
    tokens, a = e["tokens"], e["a"]
    assert metric(at, "n (tokens)") == str(len(tokens))
    words = [i for i, tok in enumerate(tokens) if any(c.isalnum() for c in tok)]
    q = tokens.index("his") if "his" in tokens else (words or [len(tokens) - 1])[-1]
    assert top_keys(at) == cells(tokens, a[:, q])


def test_two_hundred_words_at_the_largest_sizes() -> None:
    words = ("Tom loves his dog and the dog loves Tom " * 25).split()[:200]
    at = open_page(sentence=" ".join(words))
    at = set_sizes(at, 64, 16)
    no_exception(at)
    assert metric(at, "n (tokens)") == "200"
    assert metric(at, "d_k = d_model / h") == "4"
    assert at.slider(key="mh_window").max == 200 - 12 + 1
    # 16 side by side, his × heads, 4 head outputs drawn, concat and output in two pieces, W^O.
    assert len(at.get("vega_lite_chart")) == 16 + 1 + 4 + 5
    assert any(c.value == translate("multi_head.concat.more", "en", more=12) for c in at.caption)


def test_each_backend_computes_the_same_numbers(app_backend: str) -> None:
    at = open_page()
    at.radio(key="backend").set_value(app_backend).run()
    at = set_sizes(at, 6, 3)
    no_exception(at)
    label = translate(f"backend.{app_backend}", "en")
    assert any(f"**{label}**" in c.value for c in at.caption)
    e = expected("Tom loves his dog", 6, 3)
    weights = table_with(at, "weight")["weight"]
    np.testing.assert_allclose(weights, e["a"][:, 2].max(axis=1), atol=1e-6)


def test_pure_python_hands_large_sizes_to_numpy_and_says_so() -> None:
    if not backend_status("python").available:
        pytest.skip("no pure-Python backend")
    at = open_page(sentence=" ".join(["dog"] * 200))
    at.radio(key="backend").set_value("python").run()
    assert any("**Pure Python**" in c.value for c in at.caption)  # small sizes: Python itself
    at = set_sizes(at, 64, 16)
    no_exception(at)
    note = python_fallback_text()
    assert any(i.value == note and "**NumPy**" in i.value for i in at.info)


def test_a_long_sentences_query_row_is_drawn_whole() -> None:
    import json

    sentence = " ".join(f"w{i}" for i in range(40))
    at = open_page(sentence=sentence)
    no_exception(at)
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    encodings = [s["layer"][0]["encoding"] for s in specs if "layer" in s]
    strips = [e for e in encodings if "sort" in e.get("x", {}) and len(e["x"]["sort"]) == 40]
    assert len(strips) == 1  # the one-query strip: every key, not the first 12
    assert strips[0]["y"]["sort"] == ["0:head 1", "1:head 2"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_repeated_word_is_named_by_position_and_a_tie_is_said(language: str) -> None:
    """ "a cat a": the second head's row of the last "a" gives both "a"s the same weight at three
    decimals; the cell names both copies by position, never just "a"."""
    at = open_page(language, sentence="a cat a")
    no_exception(at)
    e = expected("a cat a")
    tokens, a = e["tokens"], e["a"]
    query = at.selectbox(key="mh_query").value
    shown = top_keys(at, language)
    assert shown == cells(tokens, a[:, query], language)
    tie = translate(
        "multi_head.his.top_tie", language, count=2, tokens=join_names(["1 · a", "3 · a"], language)
    )
    assert tie in shown, shown  # the tie found in the corpus search: head 2 of the last "a"
    assert all("·" in cell for cell in shown)


def test_the_cells_of_the_cat_saw_the_cat_tell_the_copies_apart() -> None:
    at = open_page(sentence="the cat saw the cat")
    no_exception(at)
    e = expected("the cat saw the cat")
    for query in range(5):
        at.selectbox(key="mh_query").set_value(query).run()
        no_exception(at)
        assert top_keys(at) == cells(e["tokens"], e["a"][:, query])


def split_sentence(tokens: list[str], rows: np.ndarray, query: int, language: str = "en") -> str:
    """The sentence under the table, worked out here: one key for every head, or several."""
    tops = [set(np.flatnonzero(r == r.max()).tolist()) for r in np.round(rows, 3)]
    union = sorted(set().union(*tops))
    label = {p: f"{p + 1} · {tokens[p]}" for p in range(len(tokens))}
    if len(union) == 1:
        return translate("multi_head.his.agree", language, query=label[query], h=len(rows),
                         key=label[union[0]])  # fmt: skip
    keys = join_names([label[p] for p in union], language)
    return translate("multi_head.his.split", language, query=label[query], h=len(rows),
                     count=len(union), keys=keys)  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_his_paragraph_only_on_the_running_examples_his(language: str) -> None:
    """The paragraph about "his" in "Tom loves his dog" describes that sentence only: it goes
    away for another query or sentence, while the computed sentence on the heads follows them."""
    example = translate("multi_head.his.example", language)
    at = open_page(language)
    no_exception(at)
    markdown = [m.value for m in at.markdown]
    assert example in markdown
    e = expected("Tom loves his dog")
    assert split_sentence(e["tokens"], e["a"][:, 2], 2, language) in markdown
    at.selectbox(key="mh_query").set_value(3).run()  # dog
    markdown = [m.value for m in at.markdown]
    assert example not in markdown
    assert split_sentence(e["tokens"], e["a"][:, 3], 3, language) in markdown
    for sentence in ("the cat saw the cat", "Tom loves his cat", "我爱我的狗，我的狗也爱我"):
        at.session_state["sentence"] = sentence
        at.run()
        no_exception(at)
        markdown = [m.value for m in at.markdown]
        assert example not in markdown, sentence
        e = expected(sentence)
        query = at.selectbox(key="mh_query").value
        assert split_sentence(e["tokens"], e["a"][:, query], query, language) in markdown


def test_one_head_has_no_heads_to_compare() -> None:
    at = set_sizes(open_page(), 8, 1)
    no_exception(at)
    said = [m.value for m in at.markdown]
    assert not any(s.startswith("For ") and "heads put" in s for s in said)


def test_at_d_model_64_the_output_is_drawn_full_width_not_a_strip() -> None:
    """At d_model 64 a half-page [n, 64] output had 4-px cells and labels nobody could read; it
    is drawn at the page's width under the concat, W^O too, both with legible cells."""
    import json

    def steps(at: AppTest) -> list[int]:
        specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
        return [s["width"]["step"] for s in specs[-5:]]  # concat ×2, output ×2, W^O

    at = set_sizes(open_page(), 64, 16)
    no_exception(at)
    assert min(steps(at)[:4]) >= 20  # 64 columns in two pieces of 32
    assert steps(at)[4] >= 11  # W^O, 64 × 64 at the page's width
    pieces = [translate("multi_head.concat.columns", "en", first=f, last=f + 31) for f in (1, 33)]
    assert [c.value for c in at.caption if c.value in pieces] == pieces * 2
    at = set_sizes(at, 8, 2)
    no_exception(at)
    assert min(steps(at)[-3:]) >= 30  # small: side by side, large cells with their numbers


# --- random weights or the toy trained on the possessive task -----------------------------------

TRAINED = {"mh_model": "trained"}
TASK_SENTENCES = [("en", "Tom loves his dog"), ("zh", "小红在家里喜欢她的猫")]


def studied(language: str) -> NameHeadStudy:
    """The study the page reads (the app's cache: the disk copy, or trained once)."""
    return name_head_study(NameHeadSettings(language=language), training_backend())


def chart_cells(chart: object) -> list[dict[str, object]]:
    """The cells of a heatmap as its spec holds them: row and col keys ("2:3 · his"), value."""
    data = chart.proto.data.data  # type: ignore[attr-defined]  # the Arrow table of its rows
    return pa.ipc.open_stream(data).read_all().to_pylist() if data else []


def heatmap_of(cells: list[dict[str, object]]) -> tuple[list[str], list[str], np.ndarray]:
    """(row labels, column labels, values) of a heatmap's cells, in drawing order."""
    rows = list(dict.fromkeys(str(c["row"]) for c in cells))
    cols = list(dict.fromkeys(str(c["col"]) for c in cells))
    values = np.array([np.nan if c["value"] is None else c["value"] for c in cells], dtype=float)
    strip = [label.split(":", 1)[1] for label in rows], [label.split(":", 1)[1] for label in cols]
    return *strip, values.reshape(len(rows), len(cols))


def expected_claim(language: str, sentence: str) -> tuple[str, str]:
    """(message id, sentence) of the heads-on-name claim, from the weights recomputed here."""
    task = PronounTask(language)
    s = studied(language)
    parsed = parse(task, sentence, s.settings.config.max_positions).sentence
    assert parsed is not None
    reading = read_sentence(s.params, s.settings.config, task, parsed, training_backend())
    label = {p: f"{p + 1} · {w}" for p, w in enumerate(parsed.tokens)}
    said = heads_on_name_claim(
        reading.weights[..., parsed.name_position],
        label[parsed.query_position],
        label[parsed.name_position],
        parsed.query_position + 1,
    )
    text = say(said, language=language)  # as the page writes it, escaped for markdown
    assert said is not None and text is not None
    return said.message, text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_switch_renders_on_random_weights_in_both_languages(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    switch = at.radio(key="mh_model")
    assert switch.label == translate("trained_toy.switch", language)
    assert switch.value == "random"
    assert switch.options == [translate(f"trained_toy.{m}", language) for m in MODELS]
    assert any(h.value == translate("multi_head.trained.title", language) for h in at.header)
    body = translate(
        "multi_head.trained.body", language, layers=2, h=4, d_model=64, d_k=16, words=43
    )
    assert body in [m.value for m in at.markdown]
    assert not [m for m in at.markdown if m.value == "L1·H1"]  # nothing trained drawn
    assert len(at.get("vega_lite_chart")) == 2 + 1 + 2 + 3


@pytest.mark.parametrize(("language", "sentence"), TASK_SENTENCES)
def test_trained_draws_every_head_of_the_trained_toy(language: str, sentence: str) -> None:
    at = open_page(language, sentence=sentence, state=TRAINED, timeout=120)
    no_exception(at)
    s = studied(language)
    task = PronounTask(language)
    read = parse(task, sentence, s.settings.config.max_positions).sentence
    assert read is not None
    reading = read_sentence(s.params, s.settings.config, task, read, training_backend())
    tokens = [f"{p + 1} · {w}" for p, w in enumerate(read.tokens)]
    layers, h, *shape = reading.matrices.shape  # [L, h, n, n]
    heads = [f"L{layer + 1}·H{head + 1}" for layer in range(layers) for head in range(h)]
    markdown = [m.value for m in at.markdown]
    assert heads == [m for m in markdown if m in heads]  # one title per head, in order
    sentence_read = " ".join(read.tokens)
    assert translate("multi_head.trained.reads", language, sentence=sentence_read) in markdown
    charts = at.get("vega_lite_chart")
    # 8 random-toy charts (2 heads, his × heads, 2 head outputs, concat, W^O, output), then
    # the trained toy's 8 heads and their rows from the query
    assert len(charts) == 8 + layers * h + 1
    cells = [chart_cells(c) for c in charts]
    trained = [heatmap_of(c) for c in cells]
    # the trained toy's matrices: causal, 0 above the diagonal (the random toy's are not)
    upper = np.triu_indices(len(tokens), k=1)
    mine = [m[0] == m[1] == tokens and not m[2][upper].any() or m[0] == heads for m in trained]
    matrices = [m for m, its in zip(trained, mine, strict=True) if its and m[0] != heads]
    assert len(matrices) == layers * h
    # cells and legend in percent, as the bars and sentences beside them ("1.00" before)
    for chart, its_cells, its in zip(charts, cells, mine, strict=True):
        if its:
            assert [c["text"] for c in its_cells] == [percent(c["value"]) for c in its_cells]
            spec = json.loads(chart.proto.spec)
            assert spec["layer"][0]["encoding"]["color"]["legend"]["format"] == "%"
            # the numbers print: four heads a row had cells too narrow for ">99.9%", and none did
            assert spec["layer"][-1]["mark"]["type"] == "text"
    for (_, _, values), want in zip(
        matrices, reading.matrices.reshape(layers * h, *shape), strict=True
    ):
        np.testing.assert_allclose(values, want, atol=1e-6)
    visible = read.query_position + 1
    (rows,) = [m for m in trained if m[0] == heads]
    assert rows[1] == tokens[:visible]  # causal: the query sees itself and the words before
    np.testing.assert_allclose(
        rows[2], reading.weights[..., :visible].reshape(layers * h, visible), atol=1e-6
    )
    where = translate(
        "multi_head.trained.row", language,
        possessive=tokens[read.possessive_position], query=tokens[read.query_position],
    )  # fmt: skip
    assert where in markdown
    message, said = expected_claim(language, sentence)
    assert message == "trained_toy.claim.heads_on_name"  # the trained heads find the name
    assert said in markdown
    assert any(w.value == translate("multi_head.trained.caveat", language) for w in at.warning)


@pytest.mark.parametrize(
    "sentence",
    ["the cat saw the cat", "pneumonoultramicroscopicsilico", "123 456 !!! ??? 42%", "，。！"],
)
def test_a_sentence_the_trained_toy_cannot_read_gets_the_message(sentence: str) -> None:
    at = open_page(sentence=sentence, state=TRAINED, timeout=120)
    no_exception(at)
    message = translate("trained_toy.unreadable", "en", words=43)
    assert [i.value for i in at.info if i.value == message] == [message]
    assert not [m for m in at.markdown if m.value == "L1·H1"]


def test_a_word_outside_the_vocabulary_is_left_out_and_named() -> None:
    """A 30-letter word is outside the vocabulary: the toy reads the rest, which still holds a
    name and its possessive, and a note under the link names the word it left out."""
    word = "x" * 30
    at = open_page(sentence=f"Tom {word} loves his dog", state=TRAINED, timeout=120)
    no_exception(at)
    read = translate("multi_head.trained.reads", "en", sentence="tom loves his dog")
    assert read in [m.value for m in at.markdown]
    note = translate("watch_it_learn.watch.dropped", "en", words=43, unknown=word)
    assert note in [c.value for c in at.caption]
    at = open_page(state=TRAINED, timeout=120)  # every word known: no note
    no_exception(at)
    assert not [c.value for c in at.caption if "left out" in c.value]


def test_the_switch_round_trips_through_the_address() -> None:
    at = open_address("http://localhost:8501/multi-head?model=trained", timeout=120)
    no_exception(at)
    assert at.session_state["mh_model"] == "trained"
    assert at.radio(key="mh_model").value == "trained"
    assert at.query_params["model"] == "trained"
    assert any(m.value == "L2·H4" for m in at.markdown)
    (code,) = at.sidebar.code
    assert str(code.value).endswith("multi-head?model=trained")  # the share box's link
    at.radio(key="mh_model").set_value("random").run()
    no_exception(at)
    assert "model" not in at.query_params  # the default leaves the address
    at = open_address("http://localhost:8501/multi-head?model=bogus")
    no_exception(at)
    assert at.radio(key="mh_model").value == "random"
    assert any("`model=bogus`" in i.value for i in at.info)  # the note names what was left out


@pytest.mark.parametrize(
    ("language", "sentence"),
    [("en", "Tom sees Anna and loves her dog"), ("zh", "小明和安娜她的狗")],
)
def test_trained_says_when_the_model_picks_the_other_possessive(
    language: str, sentence: str
) -> None:
    at = open_page(language, sentence=sentence, state=TRAINED, timeout=120)
    no_exception(at)
    want = apptest_support.wrong_possessive_text(language, sentence)
    assert want in [w.value for w in at.warning]


def test_trained_says_nothing_wrong_when_the_model_is_right() -> None:
    at = open_page("en", sentence="Tom loves his dog", state=TRAINED, timeout=120)
    no_exception(at)
    assert not [w.value for w in at.warning if "The model is wrong here" in w.value]


def test_trained_heads_go_two_a_row_only_when_that_lets_their_numbers_print() -> None:
    from transformer_walk.app.pages.multi_head import _heads_per_row

    labels = ["1 · tom", "2 · loves", "3 · his", "4 · dog"]
    heads = 8  # two layers of four, each head's 16 cell texts
    assert _heads_per_row(labels, 4, [[">99.9%"] * 16] * heads) == 2  # too wide for 4 a row
    assert _heads_per_row(labels, 4, [["48%"] * 16] * heads) == 4  # fit four a row
    assert _heads_per_row(labels, 4) == 4  # no texts: legibility alone, as before


def test_trained_heads_say_where_their_numbers_are_when_cells_cannot_print_them() -> None:
    long = "today in the park tom sees the cat and loves his dog near the tree"  # 15 known words
    at = open_page("zh", sentence=long, state=TRAINED, timeout=120)
    no_exception(at)
    assert translate("multi_head.trained.hover", "zh", n=15) in [c.value for c in at.caption]
    at = open_page("zh", sentence="Tom loves his dog", state=TRAINED, timeout=120)
    assert not [c.value for c in at.caption if "显示不下百分比" in c.value]  # its numbers print
