"""The Scaling page through AppTest: the numbers shown against independent NumPy computations."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.core.status import backend_status
from transformer_walk.models.toy import ToyConfig, ToyTransformer

import apptest_support
from apptest_support import no_exception, pick_backend

D_KS = [2**p for p in range(11)]


open_page = partial(apptest_support.open_page, "scaling.py")


def metrics(at: AppTest, label: str) -> list[str]:
    return [m.value for m in at.metric if m.label == label]


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def sentence_stats(sentence: str, d_model: int, h: int, head: int) -> list[tuple[float, float]]:
    """(mean largest weight, mean entropy) of one head, scaled then unscaled, from q and k."""
    trace = ToyTransformer(ToyConfig(d_model=d_model, h=h), "numpy").run(sentence)
    q, k = trace.blocks[0].q_heads[head], trace.blocks[0].k_heads[head]  # (n, d_k) each
    out = []
    for scale in (1 / np.sqrt(d_model // h), 1.0):
        a = softmax(q @ k.T * scale)
        entropy = -(a * np.log(np.where(a > 0, a, 1))).sum(axis=-1)
        out.append((a.max(axis=-1).mean(), entropy.mean()))
    return out


def saturation_at(d_k: int, n_keys: int, trials: int) -> tuple[float, float]:
    """Mean largest weight at ``d_k``, unscaled and scaled, drawing as the page's experiment does
    (seed [0, 18], d_k = 1, 2, 4, … in order) but softmax-ing here with NumPy."""
    rng = np.random.default_rng([0, 18])
    for dk in D_KS:
        q = rng.standard_normal((trials, 1, dk))
        k = rng.standard_normal((trials, n_keys, dk))
        if dk == d_k:
            s = (q * k).sum(axis=-1)
            return softmax(s).max(axis=-1).mean(), softmax(s / np.sqrt(dk)).max(axis=-1).mean()
    raise ValueError(d_k)


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_renders_with_computed_numbers(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("scaling.title", language)
    (on_max, on_h), (off_max, off_h) = sentence_stats("Tom loves his dog", 64, 2, 0)
    shown_max = metrics(at, translate("scaling.metric.max", language))
    shown_entropy = metrics(at, translate("scaling.metric.entropy", language))
    assert shown_max == [f"{on_max:.3f}", f"{off_max:.3f}"]
    assert shown_entropy == [f"{on_h:.3f}", f"{off_h:.3f}"]
    assert off_max > on_max  # unscaled rows are peakier
    off, on = saturation_at(64, n_keys=4, trials=200)
    label = translate("scaling.sat.metric.max_off", language, d_k=64)
    assert metrics(at, label) == [f"{off:.3f}"]
    assert metrics(at, translate("scaling.sat.metric.max_on", language, d_k=64)) == [f"{on:.3f}"]
    rust = translate("backend.rust", language)
    caption = translate(
        "scaling.sat.computed", language, backend=rust, rows=f"{2 * 11 * 200:,}", n=4
    )
    if backend_status("rust").available:
        assert any(c.value == caption for c in at.caption)


def test_variance_table_grows_like_d_k() -> None:
    at = open_page()
    table = next(d.value for d in at.dataframe if "Var(q·k)" in d.value.columns)
    assert list(table.index) == D_KS
    ratio = table["Var(q·k)"].to_numpy() / np.array(D_KS)
    assert np.all((ratio > 0.8) & (ratio < 1.2))
    np.testing.assert_allclose(table["Var(q·k/√d_k)"], ratio)  # Var(x/√d) = Var(x)/d
    assert list(table.columns) == ["Var(q·k)", "Var(q·k/√d_k)"]  # no column repeats another
    at.select_slider(key="scale_samples").set_value(500).run()
    no_exception(at)
    assert any("500 random pairs" in c.value for c in at.caption)


def test_controls_change_d_k_and_the_experiment() -> None:
    sentence = "the old man gave his dog a red book"
    at = open_page(sentence=sentence)
    at.selectbox(key="scale_d_model").set_value(128).run()
    at.selectbox(key="scale_h").set_value(4).run()
    at.selectbox(key="scale_head").set_value(3).run()
    at.select_slider(key="scale_trials").set_value(50).run()
    no_exception(at)
    assert any(c.value.startswith("Here d_k = 32,") for c in at.caption)
    (on_max, _), (off_max, _) = sentence_stats(sentence, 128, 4, 3)
    assert metrics(at, "mean largest weight per row") == [f"{on_max:.3f}", f"{off_max:.3f}"]
    off, on = saturation_at(64, n_keys=9, trials=50)
    assert metrics(at, "largest weight, d_k = 64, unscaled") == [f"{off:.3f}"]
    assert metrics(at, "largest weight, d_k = 64, scaled") == [f"{on:.3f}"]


def test_a_head_beyond_a_smaller_h_falls_back() -> None:
    at = open_page()
    at.selectbox(key="scale_h").set_value(8).run()
    at.selectbox(key="scale_head").set_value(7).run()
    at.selectbox(key="scale_h").set_value(1).run()
    no_exception(at)
    assert at.selectbox(key="scale_head").value == 0


def test_empty_text_keeps_the_experiments() -> None:
    at = open_page("en", sentence="")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)
    assert any(c.value == translate("scaling.sat.two_keys", "en") for c in at.caption)
    assert any("Var(q·k)" in d.value.columns for d in at.dataframe)


@pytest.mark.parametrize(
    "sentence", [" ".join(["dog"] * 200), "我爱我的狗", "Tom 🐶 loves"], ids=["200", "cjk", "emoji"]
)
def test_edge_inputs(sentence: str) -> None:
    at = open_page("zh", sentence=sentence)
    no_exception(at)
    assert len(metrics(at, translate("scaling.metric.max", "zh"))) == 2


def reading(at: AppTest) -> str:
    """The paragraph under the saturation metrics (the one naming both gradient sizes)."""
    found = [m.value for m in at.markdown if "With ÷√d_k the curve stays" in m.value]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize(
    ("sentence", "verdict", "rises"),
    [
        # 4 keys: at d_k = 64 the unscaled gradient is a fraction of the scaled one
        ("Tom loves his dog", "smaller", False),
        # 40 keys (the browser walk's long sentence): still close at d_k = 64, and the unscaled
        # curve rises before it falls: the paragraph must say so, not "saturation → 0"
        (" ".join(["word"] * 40), "close", True),
    ],
)
def test_the_gradient_paragraph_says_what_the_curves_show(
    sentence: str, verdict: str, rises: bool
) -> None:
    at = open_page(sentence=sentence)
    no_exception(at)
    off = metrics(at, translate("scaling.sat.metric.jac_off", "en", d_k=64))[0]
    on = metrics(at, translate("scaling.sat.metric.jac_on", "en", d_k=64))[0]
    text = reading(at)
    assert f"{off} unscaled" in text or f"gradient is {off}" in text, text
    assert on in text
    assert (float(off) < 0.8 * float(on)) == (verdict == "smaller")
    opening = translate(f"scaling.sat.reading.{verdict}", "en").split("{")[0]
    assert text.startswith(opening), text
    assert ("first rises" in text) == rises


def test_long_sentences_cap_the_keys() -> None:
    at = open_page(sentence=" ".join(["dog"] * 200))
    assert any(c.value == translate("scaling.sat.capped", "en", n=200, cap=64) for c in at.caption)


def test_every_backend(app_backend: str) -> None:
    at = open_page()
    label = pick_backend(at, app_backend)
    assert any(f"**{label}**" in c.value and "4,400 rows" in c.value for c in at.caption)
    off, _on = saturation_at(64, n_keys=4, trials=200)
    assert metrics(at, "largest weight, d_k = 64, unscaled") == [f"{off:.3f}"]


def test_a_long_sentences_maps_show_whole_rows_at_full_width() -> None:
    import json

    sentence = " ".join(f"w{i}" for i in range(40))  # 40 tokens
    at = open_page(sentence=sentence)
    no_exception(at)
    maps = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")][:2]  # on, then off
    for spec in maps:
        encoding = spec["layer"][0]["encoding"]
        assert len(encoding["y"]["sort"]) == 16  # the first 16 queries' rows ...
        assert len(encoding["x"]["sort"]) == 40  # ... over all 40 keys
    caption = translate("scaling.first_rows", "en", shown=16, keys=40, n=40)
    assert any(c.value == caption for c in at.caption)
    short = open_page()  # "Tom loves his dog": 4 × 4, side by side, no caption
    spec = json.loads(short.get("vega_lite_chart")[0].proto.spec)
    assert len(spec["layer"][0]["encoding"]["x"]["sort"]) == 4
