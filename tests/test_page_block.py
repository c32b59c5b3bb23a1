"""The Block page through AppTest: both languages, the sentence, the Post-LN/Pre-LN switch, the
number of blocks, the block and step pickers; the numbers shown checked against the toy model's
blocks recomputed here with NumPy from its own weights."""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import pytest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.app.widgets import python_fallback_text
from transformer_walk.core.status import backend_status
from transformer_walk.models.toy import ToyConfig, ToyTransformer
from transformer_walk.topics.claims import percent

import apptest_support
from apptest_support import no_exception

open_page = partial(apptest_support.open_page, "block.py")


def ln(x: np.ndarray) -> np.ndarray:
    return (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)


def mha(x: np.ndarray, w, h: int = 2) -> np.ndarray:  # noqa: ANN001 - BlockWeights
    n, d = x.shape
    d_k = d // h
    out = []
    for k in range(h):
        cols = slice(k * d_k, (k + 1) * d_k)
        q, kk, v = (x @ w.W_Q)[:, cols], (x @ w.W_K)[:, cols], (x @ w.W_V)[:, cols]
        s = q @ kk.T / np.sqrt(d_k)
        a = np.exp(s - s.max(1, keepdims=True))
        out.append((a / a.sum(1, keepdims=True)) @ v)
    return np.concatenate(out, axis=1) @ w.W_O


def ffn(z: np.ndarray, w) -> tuple[np.ndarray, np.ndarray]:  # noqa: ANN001 - BlockWeights
    hidden = np.maximum(0, z @ w.W_1 + w.b_1)  # (n, d_ff)
    return hidden, hidden @ w.W_2 + w.b_2


def stages(text: str, norm: str, layers: int) -> list[dict[str, np.ndarray]]:
    """Every block's steps, recomputed from the model's weights and input x0."""
    model = ToyTransformer(ToyConfig(norm=norm, n_layers=layers), "numpy")
    x = model.run(text).x0
    result = []
    for w in model.weights:
        s = {"x_in": x}
        if norm == "post":
            s["attn_out"] = mha(x, w)
            s["resid1"] = x + s["attn_out"]
            s["norm1"] = ln(s["resid1"])
            s["ffn_hidden"], s["ffn_out"] = ffn(s["norm1"], w)
            s["resid2"] = s["norm1"] + s["ffn_out"]
            s["out"] = ln(s["resid2"])
        else:
            s["attn_in"] = ln(x)
            s["attn_out"] = mha(s["attn_in"], w)
            s["resid1"] = x + s["attn_out"]
            s["norm1"] = ln(s["resid1"])
            s["ffn_hidden"], s["ffn_out"] = ffn(s["norm1"], w)
            s["out"] = s["resid1"] + s["ffn_out"]
        result.append(s)
        x = s["out"]
    return result


ORDER = {
    "post": ["x_in", "attn_out", "resid1", "norm1", "ffn_hidden", "ffn_out", "resid2", "out"],
    "pre": ["x_in", "attn_in", "attn_out", "resid1", "norm1", "ffn_hidden", "ffn_out", "out"],
}


def check_stage_table(at, language: str, expected: dict[str, np.ndarray], norm: str) -> None:  # noqa: ANN001
    table: pd.DataFrame = at.dataframe[0].value
    names = [translate(f"block.stage.{s}", language) for s in ORDER[norm]]
    assert list(table.index) == names
    means = [float(np.mean(expected[s].mean(1))) for s in ORDER[norm]]
    variances = [float(np.mean(expected[s].var(1))) for s in ORDER[norm]]
    np.testing.assert_allclose(table[translate("block.col.mean", language)], means, atol=1e-9)
    np.testing.assert_allclose(table[translate("block.col.var", language)], variances, atol=1e-9)
    shapes = [f"[{expected[s].shape[0]}, {expected[s].shape[1]}]" for s in ORDER[norm]]
    assert list(table[translate("block.col.shape", language)]) == shapes


def mean_cos_latex(at) -> str:  # noqa: ANN001
    return next(x.value for x in at.latex if r"\overline{\cos}" in x.value).strip("$\n")


@pytest.mark.parametrize("language", LANGUAGES)
def test_default_four_post_ln_blocks(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("block.title", language)
    expected = stages("Tom loves his dog", "post", 4)
    check_stage_table(at, language, expected[0], "post")
    # LayerNorm tables: before / after of each LN, per token.
    ln_tables = at.dataframe[1:3]
    first = ln_tables[0].value
    np.testing.assert_allclose(first.iloc[:, 1], expected[0]["resid1"].var(1), atol=1e-9)
    np.testing.assert_allclose(first.iloc[:, 3], expected[0]["norm1"].var(1), atol=1e-9)
    np.testing.assert_allclose(first.iloc[:, 2], 0.0, atol=1e-12)
    zeros = float(np.mean(expected[0]["ffn_hidden"] == 0))
    assert at.metric[0].value == percent(zeros)
    x0, out = expected[0]["x_in"], expected[-1]["out"]
    cos = np.sum(x0 * out, 1) / np.linalg.norm(x0, axis=1) / np.linalg.norm(out, axis=1)
    assert mean_cos_latex(at).rstrip().endswith(f"= {cos.mean():.4f}")
    assert any(r"= 256" in x.value and "= 552" in x.value for x in at.latex)


def test_pre_ln_switch_and_block_picker() -> None:
    at = open_page()
    at.radio(key="blk_norm").set_value("pre").run()
    no_exception(at)
    expected = stages("Tom loves his dog", "pre", 4)
    check_stage_table(at, "en", expected[0], "pre")
    at.selectbox(key="blk_layer").set_value(2).run()  # block 3
    no_exception(at)
    check_stage_table(at, "en", expected[2], "pre")
    x0, out = expected[0]["x_in"], expected[-1]["out"]
    cos = np.sum(x0 * out, 1) / np.linalg.norm(x0, axis=1) / np.linalg.norm(out, axis=1)
    assert mean_cos_latex(at).rstrip().endswith(f"= {cos.mean():.4f}")


def test_layers_slider_sentence_and_step_picker() -> None:
    at = open_page()
    at.session_state["sentence"] = "the dog sees the cat"
    at.slider(key="blk_layers").set_value(1).run()
    no_exception(at)
    assert [s.key for s in at.selectbox] == ["blk_stage"]  # one block: no block picker
    expected = stages("the dog sees the cat", "post", 1)
    check_stage_table(at, "en", expected[0], "post")
    at.selectbox(key="blk_stage").set_value("ffn_hidden").run()
    no_exception(at)
    assert any(r"\mathbb{R}^{5 \times 32}" in x.value for x in at.latex)
    at.slider(key="blk_layers").set_value(6).run()
    no_exception(at)
    expected = stages("the dog sees the cat", "post", 6)
    x0, out = expected[0]["x_in"], expected[-1]["out"]
    cos = np.sum(x0 * out, 1) / np.linalg.norm(x0, axis=1) / np.linalg.norm(out, axis=1)
    assert mean_cos_latex(at).rstrip().endswith(f"= {cos.mean():.4f}")
    assert r"x^{(6)}" in mean_cos_latex(at)


def test_empty_text_gives_the_friendly_message() -> None:
    at = open_page("en", sentence="")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)
    assert not at.dataframe


@pytest.mark.parametrize(
    "sentence",
    [
        "dog",
        "我爱我的狗",
        "Tom 🐶 loves his 🐶!",
        " ".join(("Tom loves his dog " * 50).split()[:200]),
    ],
)
def test_one_word_cjk_emoji_and_two_hundred_words(sentence: str) -> None:
    at = open_page(sentence=sentence)
    no_exception(at)
    check_stage_table(at, "en", stages(sentence, "post", 4)[0], "post")


def test_each_backend(app_backend: str) -> None:
    at = open_page(backend=app_backend)
    no_exception(at)
    label = translate(f"backend.{app_backend}", "en")
    assert any(f"**{label}**" in c.value for c in at.caption)
    table = at.dataframe[0].value
    expected = stages("Tom loves his dog", "post", 4)[0]
    variances = [float(np.mean(expected[s].var(1))) for s in ORDER["post"]]
    np.testing.assert_allclose(table[translate("block.col.var", "en")], variances, atol=1e-6)


def test_pure_python_with_two_hundred_words_and_six_blocks_falls_back_to_numpy() -> None:
    if not backend_status("python").available:
        pytest.skip("no pure-Python backend")
    at = open_page(sentence=" ".join(["dog", "cat"] * 100), backend="python")
    at.slider(key="blk_layers").set_value(6).run()
    no_exception(at)
    assert any(i.value == python_fallback_text() for i in at.info)
