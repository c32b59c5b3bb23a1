"""The Seq2seq page through AppTest: the alignment and the bottleneck numbers, recomputed here."""

from __future__ import annotations

import math
import re
from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.core.status import backend_status
from transformer_walk.topics.seq2seq import PAIRS, Encoder, readback

import apptest_support

open_page = partial(apptest_support.open_page, "seq2seq.py", assert_no_exception=True)


def weights(source: list[str], aligned: list[list[int]], d: int, beta: float) -> np.ndarray:
    """α computed from scratch: tanh RNN states, queries from the aligned words, softmax."""
    enc = Encoder.init(d, 0)
    x = enc.embed(source)
    h, prev = [], np.zeros(d)
    for t in range(len(source)):
        prev = np.tanh(enc.W_x @ x[t] + enc.W_h @ prev)
        h.append(prev)
    H = np.array(h)
    q = np.tanh(np.array([x[a].mean(axis=0) for a in aligned]) @ enc.W_x.T)
    s = q @ H.T * beta / math.sqrt(d)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def c1_latex(at: AppTest) -> str:
    return next(x.value for x in at.latex if r"\boldsymbol{c}_1 =" in x.value)


def c1_weights(at: AppTest) -> list[float]:
    return [float(v) for v in re.findall(r"(\d\.\d\d)\\,\\boldsymbol\{h\}", c1_latex(at))]


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_renders_the_mirror_of_the_sentence(language: str) -> None:
    at = open_page(language)
    assert at.title[0].value == translate("s2s.title", language)
    source = ["tom", "loves", "his", "dog"]
    alpha = weights(source, [[3], [2], [1], [0]], 16, 4.0)
    np.testing.assert_allclose(c1_weights(at), alpha[0], atol=5e-3)
    hits = translate(
        "s2s.align.hits", language, hits=4, total=4,
        backend=translate(f"backend.{at.session_state['backend']}", language), beta="4",
    )  # fmt: skip
    assert any(m.value == hits for m in at.markdown)
    assert len(at.get("vega_lite_chart")) == 4  # fixed, per step, alignment, read-back


def test_the_french_pair_and_controls() -> None:
    at = open_page()
    at.radio(key="s2s_pair").set_value("fr")
    at.select_slider(key="s2s_dim").set_value(8)
    at.slider(key="s2s_sharpness").set_value(2.0).run()
    assert not at.exception
    pair = PAIRS["fr"]
    alpha = weights(list(pair.source), [list(a) for a in pair.alignment], 8, 2.0)
    np.testing.assert_allclose(c1_weights(at), alpha[0], atol=5e-3)
    assert r"(\text{le})" in c1_latex(at)
    hits = sum(int(np.argmax(row)) in a for row, a in zip(alpha, pair.alignment, strict=True))
    assert any(m.value.startswith(f"{hits} of 4 target words") for m in at.markdown)


def test_the_bottleneck_summary_is_the_measured_read_back() -> None:
    at = open_page()
    at.select_slider(key="s2s_dim").set_value(8).run()
    assert not at.exception
    rows = {r.length: r for r in readback(d=8, vocab_size=16)}
    longest = max(rows)
    summary = translate(
        "s2s.neck.summary", "en", d=8, short=f"{rows[2].first_from_final:.0%}", long_T=longest,
        long=f"{rows[longest].first_from_final:.0%}", mean=f"{rows[longest].mean_from_final:.0%}",
        own=f"{rows[longest].mean_from_own:.0%}", chance="6%",
    )  # fmt: skip
    assert any(m.value == summary for m in at.markdown)
    assert rows[longest].first_from_final < rows[2].first_from_final


def test_the_fixed_context_is_the_same_at_every_step() -> None:
    at = open_page(sentence="the black cat sleeps by the river")
    text = next(m.value for m in at.markdown if m.value.startswith("Across the 7 decoder steps"))
    spread = float(re.search(r"differ by up to ([\d.]+)", text).group(1))
    assert spread > 0.1


def test_empty_sentence_keeps_the_fixed_pairs_and_the_experiment() -> None:
    at = open_page("en", sentence="")
    assert any(i.value == translate("s2s.empty", "en") for i in at.info)
    assert len(at.get("vega_lite_chart")) == 1  # the read-back chart still shows
    at.radio(key="s2s_pair").set_value("zh").run()
    assert not at.exception
    assert len(at.get("vega_lite_chart")) == 4


@pytest.mark.parametrize(
    "sentence", ["我爱我的狗", "🐶 ❤️ 🐱", " ".join(["Tom loves his dog"] * 50)]
)
def test_edge_inputs_render_without_an_exception(sentence: str) -> None:
    at = open_page(sentence=sentence)
    assert len(at.get("vega_lite_chart")) == 4
    if sentence.startswith("Tom"):
        capped = translate("s2s.capped", "en", shown=30, n=200)
        assert any(c.value == capped for c in at.caption)


@pytest.mark.parametrize("backend", ["python", "numpy", "rust"])
def test_every_backend_computes_the_same_weights(backend: str) -> None:
    if not backend_status(backend).available:
        pytest.skip(f"{backend} not available")
    at = open_page(backend=backend)
    alpha = weights(["tom", "loves", "his", "dog"], [[3], [2], [1], [0]], 16, 4.0)
    np.testing.assert_allclose(c1_weights(at), alpha[0], atol=5e-3)
    label = translate(f"backend.{backend}", "en")
    assert any(f"**{label}**" in m.value for m in at.markdown)
