"""block_views.py: the stage order per norm placement, row statistics around each LayerNorm, the
stack view and the diagram's live shapes, checked against the toy model's own trace."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.app.views import block as views
from transformer_walk.models.toy import ToyConfig, ToyTransformer, layer_norm


def _trace(norm: str = "post", n_layers: int = 1, text: str = "Tom loves his dog"):
    return ToyTransformer(ToyConfig(norm=norm, n_layers=n_layers), "numpy").run(text)


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_stages_follow_the_block_in_order(norm: str) -> None:
    trace = _trace(norm)
    block = trace.blocks[0]
    summaries = views.stage_summaries(block, norm)
    assert [s.stage for s in summaries] == list(views.STAGES[norm])
    assert set(views.FORMULAS[norm]) == set(views.STAGES[norm]) == set(views.PLAIN_FORMULAS[norm])
    shapes = {s.stage: s.shape for s in summaries}
    assert shapes["ffn_hidden"] == (4, 32)
    assert all(shape == (4, 8) for stage, shape in shapes.items() if stage != "ffn_hidden")
    for s in summaries:  # exactly the LayerNorm outputs have mean 0, variance ~1 in every row
        if s.normalised:
            np.testing.assert_allclose(s.stats.mean, 0.0, atol=1e-12)
            np.testing.assert_allclose(s.stats.var, 1.0, atol=1e-3)
    assert sum(s.normalised for s in summaries) == 2


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_layer_norm_pairs_are_input_and_output_of_a_layer_norm(norm: str) -> None:
    block = _trace(norm).blocks[0]
    pairs = views.layer_norm_pairs(block, norm)
    assert len(pairs) == 2
    for before, after in pairs:
        np.testing.assert_allclose(
            layer_norm(views.stage_array(block, before)), views.stage_array(block, after)
        )
        assert views.RowStats.of(views.stage_array(block, before)).var.min() > 0.1


def test_row_stats_by_hand() -> None:
    stats = views.RowStats.of(np.array([[1.0, 3.0], [2.0, 2.0]]))
    np.testing.assert_allclose(stats.mean, [2.0, 2.0])
    np.testing.assert_allclose(stats.var, [1.0, 0.0])  # population variance, as LayerNorm uses


def test_cosine_rows() -> None:
    a = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    b = np.array([[2.0, 0.0], [-1.0, -1.0], [1.0, 0.0]])
    np.testing.assert_allclose(views.cosine_rows(a, b), [1.0, -1.0, 0.0])


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_stack_view_follows_each_block(norm: str) -> None:
    trace = _trace(norm, n_layers=3)
    view = views.stack_view(trace)
    assert view.cos_with_input.shape == (4, 4)
    assert view.cos_with_previous.shape == (3, 4)
    np.testing.assert_allclose(view.cos_with_input[0], 1.0)
    np.testing.assert_allclose(
        view.cos_with_previous[1], views.cosine_rows(trace.blocks[1].out, trace.blocks[0].out)
    )
    np.testing.assert_allclose(view.row_norm[2], np.linalg.norm(trace.blocks[1].out, axis=1))
    if norm == "post":  # every block ends in a LayerNorm: length √d_model (to ε)
        np.testing.assert_allclose(view.row_norm[1:], np.sqrt(8), rtol=1e-4)
    else:
        assert not np.allclose(view.row_norm[1:], np.sqrt(8), rtol=1e-2)


def test_parameter_counts() -> None:
    counts = views.parameter_counts(_trace())
    assert counts == {"attention": 4 * 8 * 8, "ffn": 2 * 8 * 32 + 32 + 8}


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_block_diagram_has_every_box_with_its_shape(norm: str) -> None:
    block = _trace(norm, text="a b c d e").blocks[0]
    shapes = {s: views.stage_array(block, s).shape for s in views.STAGES[norm] + ("resid2",)}
    labels = {k: k.upper() for k in ("x_in", "mha", "add1", "add2", "ln1", "ln2", "ffn", "out")}
    dot = views.block_diagram_dot(labels, shapes, norm)
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")
    for label in labels.values():
        assert f'label="{label}\\n[5, 8]"' in dot
    assert dot.count("style=dashed") == 2
    first = "x_in -> ln1 -> mha" if norm == "pre" else "x_in -> mha -> add1 -> ln1"
    assert first in dot
