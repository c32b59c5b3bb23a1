"""The Copying-in-SmolLM2 page through AppTest: the scores, the switching off and the sidebar's
sentence said twice, in both languages, their numbers checked against ``topics.decoder_induction``
run here; the head count slider; a Chinese sentence, one letter, a text past the section's limit,
an empty one."""

from __future__ import annotations

from functools import partial

import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.topics import decoder_induction as induction
from transformer_walk.topics.decoder_attribution import signed

import apptest_support
from apptest_support import no_exception
from smollm2_support import RUST_SKIP, model_skip_reason, shared_model

REASON = model_skip_reason()
#: rust_core where it is built: the page runs some forty forwards of 50 tokens.
BACKEND = "numpy" if RUST_SKIP is not None else "rust"
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
MAX_TOKENS = 32  # pages/decoder_copying.py
open_page = partial(apptest_support.open_page, "decoder_copying.py", backend=BACKEND, timeout=300)


def texts(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


@pytest.fixture(scope="module")
def found() -> induction.CopyingHeads:
    return induction.find_heads(shared_model(BACKEND))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_shows_the_models_copying_heads(language: str, found) -> None:  # noqa: ANN001
    at = open_page(language, sentence="Tom loves his dog")
    no_exception(at)
    assert at.title[0].value == translate("decoder_copying.title", language)
    body = texts(at)
    assert f"{found.loss_first:.1f}" in body and f"{found.loss_second:.1f}" in body
    table = at.dataframe[0].value
    top = found.strongest(len(table))
    assert table.iloc[:, 0].tolist() == [f"L{layer + 1}·H{head + 1}" for layer, head in top]
    model = shared_model(BACKEND)
    heads = found.strongest(induction.TOP)
    held = induction.switch_off(model, induction.held_out(model), heads, found.copying())
    assert signed(held.off_loss - held.intact_loss) in body
    unit = model.tokenize("Tom loves his dog\n")
    mine = induction.switch_off(model, induction.twice(unit)[None], heads, found.copying())
    assert f"{mine.intact_loss:.2f}" in body and f"{mine.off_loss:.2f}" in body
    assert translate("decoder_copying.caveat", language) in [c.value for c in at.caption]


def test_the_slider_switches_more_heads_off(found) -> None:  # noqa: ANN001
    at = open_page("en", sentence="Tom loves his dog")
    at.slider(key="copying_heads_off").set_value(1).run()
    no_exception(at)
    layer, head = found.strongest(1)[0]
    assert f"With L{layer + 1}·H{head + 1} switched off" in texts(at)


@pytest.mark.parametrize("sentence", ["汤姆爱他的狗", "x", "the cat saw the cat"])
def test_the_learners_sentences_open(sentence: str) -> None:
    at = open_page("zh", sentence=sentence)
    no_exception(at)
    n = len(shared_model(BACKEND).tokenize(sentence + "\n"))
    assert f"（{n} 个 token）" in texts(at)


def test_a_long_text_is_cut_to_what_the_section_repeats() -> None:
    at = open_page("en", sentence="tom loves his dog and " * 60)
    no_exception(at)
    said = f"this section repeats its first {MAX_TOKENS - 1} tokens and a line break"
    assert any(said in i.value for i in at.info)
    assert f"({MAX_TOKENS} tokens)" in texts(at)
    data = at.get("vega_lite_chart")[-1].proto.datasets[0].data.data  # the last chart, as Arrow
    assert f"{2 * MAX_TOKENS} · ⏎".encode() in data  # the cut sentence keeps its line break


def test_an_empty_sentence_is_said_not_computed() -> None:
    for blank in ("", " \t\n "):
        at = open_page("en", sentence=blank)
        no_exception(at)
        assert any(i.value == translate("common.empty_text", "en") for i in at.info)
