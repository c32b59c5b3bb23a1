"""The 2017 vs today page through AppTest: both languages, the table read from the configs, the
RoPE, GQA, norm and gate numbers checked against a fresh SmolLM2 trace taken here; the empty
and the 2,000-character sentence; the friendly message when the model is missing."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.models.smollm2 import SMOLLM2_135M
from transformer_walk.topics import then_and_now as tan

import apptest_support
from apptest_support import no_exception
from smollm2_support import model_skip_reason

REASON = model_skip_reason()
needs_model = pytest.mark.skipif(REASON is not None, reason=REASON or "")
open_page = partial(apptest_support.open_page, "then_and_now.py", backend="numpy", timeout=180)


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


@pytest.fixture(scope="module")
def model():  # noqa: ANN201 - SmolLM2
    if REASON is not None:
        pytest.skip(REASON)
    from transformer_walk.models.smollm2 import load_smollm2

    return load_smollm2(backend="numpy")


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_in_both_languages(language: str, model) -> None:  # noqa: ANN001
    at = open_page(language, sentence="Tom loves his dog")
    no_exception(at)
    table = at.dataframe[0].value
    assert (
        translate("then_and_now.cell.gqa", language, h=9, h_kv=3, d_k=64)
        in table.iloc[:, 2].tolist()
    )
    assert translate("then_and_now.cell.layernorm_post", language) in table.iloc[:, 1].tolist()
    kv = metric(at, translate("then_and_now.gqa.bytes_gqa", language, h_kv=3))
    assert kv == "45.0 KiB"  # 46,080 bytes
    # The RoPE check on the last token's real q (layer 1, head 0) and the key Δ = 3 back.
    out = model.run("Tom loves his dog", trace=True)
    layer = out.layers[0]
    token = out.n - 1
    dots = tan.offset_dots(
        model.backend, layer.q[0, token], layer.k[0, token - 3], np.arange(0, 400, 25), 3,
        SMOLLM2_135M.rope_base,
    )  # fmt: skip
    assert dots.rope_spread < 1e-6
    assert (
        metric(at, translate("then_and_now.rope.spread_added", language))
        == f"{dots.added_spread:.3f}"
    )
    same = translate(
        "then_and_now.rope.same", language, value=f"{dots.rope.mean():.4f}",
        spread=f"{dots.rope_spread:.1e}", added_spread=f"{dots.added_spread:.3f}", delta=3,
    )  # fmt: skip
    assert any(m.value == same for m in at.markdown)
    cmp = tan.compare_norms(layer.x_in[token], SMOLLM2_135M.eps)
    assert metric(at, translate("then_and_now.norm.rms", language)) == f"{cmp.rms:.4f}"
    gate = tan.zero_shares(layer.gate_act[token])
    near = translate("then_and_now.ffn.gate_near", language, near=tan.NEAR_ZERO)
    assert metric(at, near) == f"{100 * gate.near:.1f}%"
    assert gate.exact < 0.01  # SiLU is 0 only at 0
    assert float(metric(at, translate("then_and_now.ffn.relu_exact", language)).rstrip("%")) > 20


@needs_model
def test_another_layer_and_head(model) -> None:  # noqa: ANN001
    at = open_page("en", sentence="Tom loves his dog")
    at.slider(key="tan_layer").set_value(30).run()
    at.selectbox(key="tan_head").set_value(8).run()
    no_exception(at)
    assert any("layer 30" in m.value for m in at.markdown)


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_empty_and_long_sentences(language: str, model) -> None:  # noqa: ANN001
    at = open_page(language, sentence="   ")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", language) for i in at.info)
    assert at.dataframe  # the table does not need a sentence
    long = ("The old fisherman came back to the harbour 女儿 🐟 " * 60)[:2000]
    at = open_page(language, sentence=long)
    no_exception(at)
    n = len(model.tokenize(long))
    message = translate("then_and_now.too_long", language, n=n, kept=64)
    assert any(i.value == message for i in at.info)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_missing_model_is_explained(language: str, smollm2_missing: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert any(
        i.value == translate("model_widgets.smol.missing", language, reason=smollm2_missing)
        for i in at.info
    )
    assert any(m.value == translate("then_and_now.intro", language) for m in at.markdown)


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rope_offset_never_reaches_before_the_first_token(language: str, model) -> None:  # noqa: ANN001
    """Δ runs from 0 to the query's position, so the key is a real token Δ before it; the check
    against the trace prints that pair, and its score is the chart's (no key clamped to the first
    token under a Δ of 32)."""
    text = "the cat saw the cat"
    at = open_page(language, sentence=text)
    no_exception(at)
    out = model.run(text, trace=True)
    last = out.n - 1
    slider = at.slider(key="tan_delta")
    assert slider.max == min(32, last) and slider.value == min(3, last)
    assert translate("then_and_now.rope.delta_range", language, top=min(32, last), i=last) in [
        c.value for c in at.caption
    ]
    slider.set_value(slider.max).run()
    no_exception(at)
    layer, delta = out.layers[0], min(32, last)
    j = last - delta
    dots = tan.offset_dots(model.backend, layer.q[0, last], layer.k[0, j], np.arange(0, 400, 25),
                           delta, SMOLLM2_135M.rope_base)  # fmt: skip
    here = tan.offset_dots(model.backend, layer.q[0, last], layer.k[0, j], np.array([j]), delta,
                           SMOLLM2_135M.rope_base)  # fmt: skip
    traced = float(np.dot(layer.q_rot[0, last], layer.k_rot[0, j]))
    check = translate(
        "then_and_now.rope.trace", language, i=last, j=j, delta=delta, traced=f"{traced:.4f}",
        here=f"{float(here.rope[0]):.4f}", low=f"{float(dots.rope.min()):.4f}",
        high=f"{float(dots.rope.max()):.4f}",
    )  # fmt: skip
    assert check in [c.value for c in at.caption]
    assert f"{float(here.rope[0]):.4f}" == f"{float(dots.rope.mean()):.4f}"  # the chart's score
    at.selectbox(key="tan_token").set_value(1).run()  # Δ = 4 is past token 1: back in range
    no_exception(at)
    assert at.slider(key="tan_delta").max == 1 and at.slider(key="tan_delta").value <= 1
    at.selectbox(key="tan_token").set_value(0).run()  # the first token: no earlier key
    no_exception(at)
    assert translate("then_and_now.rope.first_token", language) in [c.value for c in at.caption]
    assert not any(s.key == "tan_delta" for s in at.slider)
    assert any(c.value.startswith(translate("then_and_now.rope.trace", language, i=0, j=0, delta=0,
               traced="", here="", low="", high="")[:30]) for c in at.caption)  # fmt: skip
