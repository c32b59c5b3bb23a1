"""The KV-cache page through AppTest: the prefill and a decoding step of the sidebar's sentence in
both languages, their numbers checked against ``topics.decoder_cache`` run here; another layer and
head; a Chinese sentence, one letter, a text past the page's limit, an empty one."""

from __future__ import annotations

from functools import partial

import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.topics import decoder_cache as cache

import apptest_support
from apptest_support import no_exception
from smollm2_support import RUST_SKIP, model_skip_reason, shared_model

REASON = model_skip_reason()
BACKEND = "numpy" if RUST_SKIP is not None else "rust"
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
MAX_TOKENS = 24  # pages/decoder_cache.py
open_page = partial(apptest_support.open_page, "decoder_cache.py", backend=BACKEND, timeout=180)


def texts(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def metrics(at: AppTest) -> list[str]:
    return [m.value for m in at.metric]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_prefill_then_a_step_in_both_languages(language: str) -> None:
    at = open_page(language, sentence="Tom loves his dog")
    no_exception(at)
    assert at.title[0].value == translate("decoder_cache.title", language)
    model = shared_model(BACKEND)
    walked = cache.walk(model, model.tokenize("Tom loves his dog"))
    first = walked.steps[0]
    assert cache.millions(first.multiply_adds) in metrics(at)
    assert f"{cache.cache_bytes(model).per_token:,}" in texts(at)
    assert translate("decoder_cache.rows.prefill", language, n=4) in [c.value for c in at.caption]
    at.select_slider(key="cache_step").set_value(3).run()
    no_exception(at)
    step = walked.steps[3]
    assert cache.millions(step.multiply_adds) in metrics(at)
    assert cache.millions(step.recompute_multiply_adds) in metrics(at)
    body = texts(at)
    assert f"about {cache.millions(step.recompute_multiply_adds)} million" in body or (
        language == "zh" and f"大约要 {cache.millions(step.recompute_multiply_adds)} 百万次" in body
    )  # the work claim
    assert f"{walked.steps[3].length}" in body


def test_another_layer_and_head_are_shown() -> None:
    at = open_page("en", sentence="Tom loves his dog")
    at.selectbox(key="cache_layer").set_value(18).run()
    at.selectbox(key="cache_head").set_value(6).run()
    no_exception(at)
    body = texts(at)
    assert "Cached keys, layer 19, key/value head 3" in body
    assert "query head 7 reads key/value head 3, which it shares with query heads 8 and 9" in body


@pytest.mark.parametrize("sentence", ["汤姆爱他的狗", "x", "the cat saw the cat"])
def test_the_learners_sentences_open(sentence: str) -> None:
    at = open_page("zh", sentence=sentence)
    no_exception(at)
    n = len(shared_model(BACKEND).tokenize(sentence))
    assert (f"提示中的 {n} 个 token" if n > 1 else "提示中唯一的 token") in texts(at)


def test_a_long_text_is_cut_to_the_pages_prompt() -> None:
    at = open_page("en", sentence="tom loves his dog and " * 60)
    no_exception(at)
    assert any(f"uses the first {MAX_TOKENS}" in i.value for i in at.info)
    assert f"The {MAX_TOKENS} prompt tokens" in texts(at)


def test_one_token_is_one_token() -> None:
    at = open_page("en", sentence="x")
    no_exception(at)
    assert "The prompt's one token goes through" in texts(at)
    assert "Its one row was written at this step." in [c.value for c in at.caption]
    assert "bytes for its one position" in texts(at)


def test_an_empty_sentence_is_said_not_computed() -> None:
    for blank in ("", " \t\n "):
        at = open_page("en", sentence=blank)
        no_exception(at)
        assert any(i.value == translate("common.empty_text", "en") for i in at.info)
        assert not at.metric
