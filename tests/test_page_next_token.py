"""The Next-token page through AppTest, in both languages: llama.cpp's top next tokens for "Tom
loves his", the temperature / top-k sliders reshaping them, the next / sample / generate buttons
appending tokens (each step's candidates kept), the causal heat map with its mask, the loss and
perplexity checked against the model's logits; a Chinese, an empty and a 2,000-character prompt;
the pure-Python fallback and the missing model."""

from __future__ import annotations

import html
import json
import math
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.app.views import next_token as views
from transformer_walk.app.views.labels import human_bytes, readable_piece
from transformer_walk.app.widgets import python_fallback_text
from transformer_walk.models.smollm2 import SmolLM2

import apptest_support
from apptest_support import no_exception
from conftest import HAVE_RUST
from smollm2_support import MODEL_SKIP, shared_model

pytestmark = pytest.mark.skipif(MODEL_SKIP is not None, reason=str(MODEL_SKIP))
BACKEND = "rust" if HAVE_RUST else "numpy"
open_page = partial(apptest_support.open_page, "next_token.py", backend=BACKEND)
REFERENCE = Path(__file__).with_name("data") / "smollm2_tom_loves_his.npz"


@pytest.fixture(scope="module")
def model() -> SmolLM2:
    return shared_model("numpy")


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def markdowns(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def reading(language: str, model: SmolLM2, text: str, temp: float, k: int | None = None) -> str:
    last = model.logits(model.tokenize(text))[-1]
    probs = views.distribution(last, temp, k, None)
    best = views.top_candidates(last, probs, 1)[0]
    return translate(
        "next_token.shape_reading", language, t=f"{temp:g}",
        best=readable_piece(model.tokenizer.piece(best.id)), p=f"{best.probability:.1%}",
        kept=f"{np.count_nonzero(probs):,}", vocab=f"{model.config.vocab_size:,}",
    )  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_tom_loves_his_shows_llama_cpps_candidates_and_temperature_moves_them(
    language: str, model: SmolLM2
) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("next_token.title", language)
    assert metric(at, translate("next_token.metric.n", language)) == "3"
    assert reading(language, model, "Tom loves his", 1.0) in markdowns(at)
    at.slider(key="nt_temperature").set_value(0.3).run()
    no_exception(at)
    assert reading(language, model, "Tom loves his", 0.3) in markdowns(at)
    at.slider(key="nt_top_k").set_value(3).run()
    assert reading(language, model, "Tom loves his", 0.3, 3) in markdowns(at)
    # "next": one greedy step, whose kept candidates are llama.cpp's best after " his".
    at.button(key="nt_next").click().run()
    no_exception(at)
    reference = np.load(REFERENCE)["tom.top_ids"][2]  # (20,) llama.cpp's best, best first
    table = at.dataframe[0].value
    expected = [readable_piece(model.tokenizer.piece(int(i))) for i in reference[:3]]
    assert list(table[translate("next_token.col.token", language)][:3]) == expected == [
        "␣wife", "␣company", "␣family"
    ]  # fmt: skip
    assert table[translate("next_token.col.picked", language)][0] == "✔"


def test_generate_streams_bounded_steps_with_timings_and_the_cache_grows(model: SmolLM2) -> None:
    at = open_page("en")
    at.slider(key="nt_temperature").set_value(0.0).run()
    at.button(key="nt_generate").click().run()
    no_exception(at)
    greedy = model.generate("Tom loves his", 20, stop_at_end=True)
    steps = list(at.session_state["nt_generated"]["steps"])
    assert len(steps) <= 20
    assert [s["id"] for s in steps] == greedy.ids.tolist()
    n = 3 + len(steps)
    cache = metric(at, translate("next_token.metric.cache_total", "en", n=n))
    assert cache == human_bytes(2 * 30 * 3 * 64 * 4 * n)
    assert any(m.startswith("Measured here, in one call to generate:") for m in markdowns(at))
    # The text literally (not as Markdown), what was generated marked.
    text = next(h.proto.body for h in at.get("html") if "tw-literal" in h.proto.body)
    assert text.startswith('<div class="tw-literal">Tom loves his<mark>')
    assert html.escape(greedy.text.replace("\n", "⏎<br>"))[:20] in text
    # The causal map grew to the whole text, its upper triangle drawn as masked.
    specs = [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]
    spec = next(s for s in specs if "width" in s)  # the heat map (its cells are sent apart)
    assert len(spec["layer"][1]["encoding"]["x"]["sort"]) == n
    assert spec["layer"][0]["transform"] == [{"filter": "datum.value === null"}]
    # "sample" goes on from there; "clear" forgets the continuation.
    at.button(key="nt_sample").click().run()
    assert len(at.session_state["nt_generated"]["steps"]) == len(steps) + (
        0 if at.session_state["nt_generated"]["stopped"] else 1
    )
    at.button(key="nt_reset").click().run()
    assert at.session_state["nt_generated"]["steps"] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_loss_and_perplexity_follow_the_logits(language: str, model: SmolLM2) -> None:
    at = open_page(language)
    at.text_area(key="nt_prompt").set_value("The cat sat on the mat because it was").run()
    no_exception(at)
    ids = model.tokenize("The cat sat on the mat because it was")
    z = model.logits(ids).astype(np.float64)
    logp = z - z.max(axis=1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(axis=1, keepdims=True))
    losses = -logp[np.arange(len(ids) - 1), ids[1:]]
    ppl = math.exp(losses.mean())
    assert metric(at, translate("next_token.metric.ppl", language)) == f"{ppl:,.1f}"
    key, fields = views.perplexity_reading(ppl, model.config.vocab_size)
    assert translate(key, language, **fields) in markdowns(at)


def test_a_short_prompts_perplexity_is_traced_to_its_token(model: SmolLM2) -> None:
    """Guards against a canned "far from what the model expects" under "Tom loves his": its
    perplexity rests on " loves", guessed from "Tom" alone, and the page says so."""
    at = open_page("en")
    no_exception(at)
    ids = model.tokenize("Tom loves his")
    z = model.logits(ids).astype(np.float64)
    logp = z - z.max(axis=1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(axis=1, keepdims=True))
    losses = -logp[np.arange(len(ids) - 1), ids[1:]]
    assert losses[0] > losses.sum() / 2  # " loves" carries most of it
    said = [m for m in markdowns(at) if m.startswith("Most of it comes from one token")]
    assert len(said) == 1 and "2 · " in said[0], markdowns(at)
    assert not any("far from what the model expects" in m for m in markdowns(at))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_chinese_an_empty_and_a_long_prompt(language: str) -> None:
    at = open_page(language)
    at.text_area(key="nt_prompt").set_value("汤姆爱他的").run()
    no_exception(at)
    assert int(metric(at, translate("next_token.metric.n", language))) >= 3
    at.button(key="nt_next").click().run()
    no_exception(at)
    at.text_area(key="nt_prompt").set_value("").run()
    no_exception(at)
    assert any(i.value == translate("next_token.empty", language) for i in at.info)
    long = ("Tom loves his dog and walks it every morning. " * 44)[:2000]
    at.text_area(key="nt_prompt").set_value(long).run()
    no_exception(at)
    n = int(metric(at, translate("next_token.metric.n", language)))
    assert n > views.ATTENTION_TOKENS
    shown = views.ATTENTION_TOKENS
    assert translate("next_token.attn.capped", language, n=n, shown=shown) in [
        c.value for c in at.caption
    ]
    assert at.session_state["nt_generated"]["steps"] == []  # a new prompt starts afresh


def test_a_chinese_prompt_shows_its_byte_pieces_never_a_replacement_character() -> None:
    at = open_page("zh")
    at.text_area(key="nt_prompt").set_value("你好").run()
    no_exception(at)
    caption = next(c.value for c in at.caption if c.value.startswith("token"))
    assert "\ufffd" not in caption
    assert "⟨E4 BD→你⟩" in caption  # 你 = E4 BD A0, cut across two tokens


def test_a_multi_line_chat_prompt_is_wrapped_in_the_models_template(model: SmolLM2) -> None:
    at = open_page("en")
    at.text_area(key="nt_prompt").set_value("Name a fruit.\nOne word.").run()
    at.toggle(key="nt_chat").set_value(True).run()
    no_exception(at)
    wrapped = model.tokenizer.chat("Name a fruit.\nOne word.")
    assert wrapped.endswith("<|im_start|>assistant\n")
    assert int(metric(at, translate("next_token.metric.n", "en"))) == len(model.tokenize(wrapped))
    text = next(h.proto.body for h in at.get("html") if "tw-literal" in h.proto.body)
    assert "Name a fruit.⏎<br>One word.&lt;|im_end|&gt;" in text
    at.button(key="nt_next").click().run()
    no_exception(at)
    step = at.session_state["nt_generated"]["steps"][0]
    assert step["id"] == int(np.argmax(model.logits(model.tokenize(wrapped))[-1]))


def test_pure_python_falls_back_with_the_note() -> None:
    at = apptest_support.open_page("next_token.py", "en", backend="python")
    no_exception(at)
    assert any(i.value == python_fallback_text() for i in at.info)
    assert metric(at, translate("next_token.metric.n", "en")) == "3"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_missing_model_is_explained(language: str, smollm2_missing: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert any(
        i.value == translate("model_widgets.smol.missing", language, reason=smollm2_missing)
        for i in at.info
    )
    assert at.markdown[0].value == translate("next_token.intro", language)
