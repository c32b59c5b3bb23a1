"""The Whole-pipeline page through AppTest: both languages, the sentence, the stop picker and the
blocks slider; shapes and numbers checked against the toy model run here."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.models.toy import ToyConfig, ToyTransformer

import apptest_support
from apptest_support import no_exception

open_page = partial(apptest_support.open_page, "pipeline.py")


def diagram(at: AppTest) -> str:
    return at.get("graphviz_chart")[0].proto.spec


def shape_line(at: AppTest) -> str:
    return next(m.value for m in at.markdown if m.value.startswith(("Shape:", "形状：")))


def numbers(at: AppTest) -> np.ndarray:
    """The selected stop's full table, without its token column."""
    frame = at.dataframe[-1].value
    return frame.iloc[:, 1:].to_numpy(dtype=float)


@pytest.mark.parametrize("language", LANGUAGES)
def test_opens_with_live_shapes_in_both_languages(language: str) -> None:
    at = open_page(language=language, assert_no_exception=True)
    assert at.title[0].value == translate("pipeline.title", language)
    spec = diagram(at)
    V = len(ToyTransformer(ToyConfig(), "numpy").run("Tom loves his dog").vocab)
    for shape in (
        "[n] = [4]",
        f"[n, V] = [4, {V}]",
        "[h, n, n] = [2, 4, 4]",
        "[n, d_ff] = [4, 32]",
    ):
        assert shape in spec
    assert translate("pipeline.node.weights", language) in spec
    assert shape_line(at).endswith("`[h, n, n] = [2, 4, 4]`")  # the weights stop opens first


def test_weights_are_the_models_and_sentence_changes_every_shape() -> None:
    text = "the cat sat on the red mat today"
    at = open_page(sentence=text, backend="numpy", assert_no_exception=True)
    assert "[h, n, n] = [2, 8, 8]" in diagram(at)
    trace = ToyTransformer(ToyConfig(), "numpy").run(text)
    np.testing.assert_allclose(numbers(at), trace.blocks[0].weights[0], atol=1e-9)
    np.testing.assert_allclose(numbers(at).sum(axis=1), 1.0)
    at.radio(key="pipe_head").set_value(1).run()
    no_exception(at)
    np.testing.assert_allclose(numbers(at), trace.blocks[0].weights[1], atol=1e-9)


def test_picking_a_stop_and_stacking_blocks() -> None:
    at = open_page(assert_no_exception=True)
    at.slider(key="pipe_layers").set_value(2).run()
    at.selectbox(key="pipe_stop").set_value("output").run()
    no_exception(at)
    assert "× 2" in diagram(at)
    trace = ToyTransformer(ToyConfig(n_layers=2), at.session_state["backend"]).run(
        "Tom loves his dog"
    )
    np.testing.assert_allclose(numbers(at), trace.output, atol=1e-9)
    assert trace.output is not trace.blocks[0].out
    at.selectbox(key="pipe_stop").set_value("ffn").run()
    assert shape_line(at).endswith("`[n, d_ff] = [4, 32]`")
    np.testing.assert_allclose(numbers(at), trace.blocks[0].ffn_hidden, atol=1e-9)


def test_one_hot_shows_only_used_columns() -> None:
    at = open_page(sentence="dog dog tom", assert_no_exception=True)
    at.selectbox(key="pipe_stop").set_value("one_hot").run()
    no_exception(at)
    table = numbers(at)
    assert table.shape == (3, 2)
    np.testing.assert_array_equal(table.sum(axis=1), 1.0)


@pytest.mark.parametrize(
    ("sentence", "backend"),
    [
        ("", None),
        (" ".join(["word"] * 200), "python"),
        ("我爱我的狗", "rust"),
        ("Tom 🐶 ❤️", "python"),
    ],
)
def test_edge_inputs_do_not_raise(sentence: str, backend: str | None) -> None:
    at = open_page(sentence=sentence, backend=backend, assert_no_exception=True)
    if not sentence:
        assert at.info and not at.get("graphviz_chart")
    else:
        n = len(ToyTransformer(ToyConfig(), "numpy").run(sentence).tokens)
        assert f"[h, n, n] = [2, {n}, {n}]" in diagram(at)
