"""pipeline_views: the stops read off the trace (arrays, live shapes, stages) and the diagram."""

from __future__ import annotations

import numpy as np

from transformer_walk.app.views import pipeline as views
from transformer_walk.models.toy import ToyConfig, ToyTransformer

LABELS = {key: key.upper() for key in (
    "text tokens ids one_hot embeddings positions qkv heads weights head_out concat w_o norm1 "
    "ffn norm2 output block".split()
)}  # fmt: skip


def trace(text: str = "Tom loves his dog", **config: object):
    return ToyTransformer(ToyConfig(**config), "numpy").run(text)


def test_stops_carry_the_live_shapes() -> None:
    tr = trace("Tom loves his dog today", d_model=12, h=3, d_ff=20)
    n, V = 5, len(tr.vocab)
    shapes = {s.key: s.shape for s in views.pipeline_stops(tr)}
    assert shapes == {
        "text": (len(tr.text),), "tokens": (n,), "ids": (n,), "one_hot": (n, V),
        "embeddings": (n, 12), "positions": (n, 12), "qkv": (n, 12), "heads": (3, n, 4),
        "weights": (3, n, n), "head_out": (3, n, 4), "concat": (n, 12), "w_o": (n, 12),
        "norm1": (n, 12), "ffn": (n, 20), "norm2": (n, 12), "output": (n, 12),
    }  # fmt: skip
    by_key = {s.key: s for s in views.pipeline_stops(tr)}
    assert by_key["weights"].shape_text == f"[h, n, n] = [3, {n}, {n}]"
    assert by_key["ffn"].shape_text == f"[n, d_ff] = [{n}, 20]"


def test_stops_are_the_trace_arrays_in_order() -> None:
    tr = trace(n_layers=2)
    stops = views.pipeline_stops(tr, block=1)
    b = tr.blocks[1]
    arrays = {s.key: s.array for s in stops}
    assert arrays["weights"] is b.weights and arrays["ffn"] is b.ffn_hidden
    assert arrays["positions"] is tr.x0 and arrays["output"] is tr.blocks[1].out
    # the one-hot row times E is the embedding row: the stops agree with each other
    np.testing.assert_allclose(arrays["one_hot"] @ tr.embedding_table, arrays["embeddings"])
    assert [s.stage for s in stops].index("interaction") == [s.key for s in stops].index("weights")


def test_as_matrix_and_used_columns() -> None:
    tr = trace("dog dog tom")
    assert views.as_matrix(tr.ids).shape == (1, 3)
    w = tr.blocks[0].weights
    np.testing.assert_array_equal(views.as_matrix(w, 1), w[1])
    used = views.used_columns(tr.one_hot)
    assert list(used) == sorted(set(tr.ids.tolist()))


def test_dot_has_every_node_its_shape_and_the_selection() -> None:
    stops = views.pipeline_stops(trace())
    dot = views.pipeline_dot(stops, LABELS, selected="weights", layers=3)
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")
    for s in stops:
        assert f'{s.key} [label="{LABELS[s.key]}\\n{s.shape_text}"' in dot
    assert dot.count("->") == len(stops) - 1
    assert "BLOCK × 3" in dot
    assert dot.count("penwidth=3") == 1 and 'weights [label="WEIGHTS' in dot


def test_dot_escapes_quotes_in_labels() -> None:
    labels = dict(LABELS, text='say "hi"')
    dot = views.pipeline_dot(views.pipeline_stops(trace()), labels)
    assert 'say \\"hi\\"' in dot
