"""The rows against ONNX Runtime and llama.cpp: both sides compute the same thing, rows are
measured as documented (on a fake clock), and a lane that is not installed is said to be so.
ONNX Runtime and llama.cpp are optional (not in CI); the ONNX graph itself is checked in CI by
``onnx``'s reference evaluator, which needs only NumPy."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.bench import anchors, llama_lane, onnx_lane

from conftest import HAVE_RUST, FakeClock
from smollm2_support import MODEL_SKIP

needs_ort = pytest.mark.skipif(onnx_lane.available() is not None, reason="no onnxruntime")
needs_llama = pytest.mark.skipif(
    llama_lane.available() is not None or MODEL_SKIP is not None, reason="no llama-cpp-python"
)


@pytest.fixture(scope="module")
def minilm():
    from transformer_walk.models.minilm import load_minilm

    return load_minilm(backend="numpy")


def test_the_onnx_graph_is_our_encoder(minilm) -> None:
    """The graph ONNX Runtime runs, evaluated by onnx's pure-NumPy reference: the same last
    hidden state as our NumPy backend, padding included (a padded batch of two texts)."""
    from onnx.reference import ReferenceEvaluator

    rows = minilm.token_rows(["Tom loves his dog", "I sat on the river bank."])
    _, ids, key_mask = next(minilm.batches(rows))
    got = ReferenceEvaluator(onnx_lane.build_graph(minilm)).run(
        None, {"input_ids": ids, "attention_mask": key_mask.astype(np.int64)}
    )[0]
    want = minilm.forward(ids, key_mask).hidden_states[-1]
    real = key_mask[..., None]  # padded positions' outputs are never pooled
    np.testing.assert_allclose(np.where(real, got, 0), np.where(real, want, 0), atol=1e-5)


def test_the_embed_batches_have_the_issue_sizes(minilm) -> None:
    assert {len(r) for r in minilm.token_rows(anchors.texts(8, 126))} == {128}


@needs_ort
def test_onnx_runtime_embeds_as_we_do(minilm) -> None:
    texts = ["Tom loves his dog", "I deposited cash at the bank.", "x"]
    got = onnx_lane.session(2).embed(texts)
    np.testing.assert_allclose(got, minilm.embed(texts), atol=1e-5)
    reference = np.load("tests/data/minilm_tom_loves_his_dog.npz")["sentence_embedding"]
    np.testing.assert_allclose(got[0], reference, atol=1e-5)


@needs_llama
def test_llama_cpp_reads_the_same_file_and_tokens() -> None:
    from transformer_walk.models.smollm2 import load_smollm2

    ours, theirs = load_smollm2(backend="numpy"), llama_lane.model(2)
    prompt = anchors.prompt_ids(ours, anchors.PREFILL_TOKENS)
    assert len(prompt) == anchors.PREFILL_TOKENS
    assert theirs.tokenize(anchors.PROMPT) == ours.tokenize(anchors.PROMPT)
    logits = theirs.prefill(ours.tokenize(anchors.PROMPT))
    assert logits.shape == (ours.config.vocab_size,)
    assert ours.decode([int(np.argmax(logits))]) == " wife"  # as ours (test_smollm2)


def _fake_goal(ours_s: float, anchor_s: float, rate: bool = False, missing: str | None = None):
    clock = FakeClock()

    def side(seconds: float):
        def call():
            clock.advance(seconds)
            return seconds, "out"

        return call

    pair = anchors.Pair(side(ours_s), side(anchor_s), lambda a, b: f"checked {a} {b}")
    goal = anchors.AnchorGoal("work", "Anchor", 2.0, rate, lambda: missing, lambda threads: pair)
    return goal, clock


def test_a_row_is_the_ratio_of_medians_after_a_checked_warm_up() -> None:
    goal, clock = _fake_goal(0.01, 0.03)
    row = anchors.run_row(goal, threads=2, rounds=5, clock=clock)
    assert row.ours_s == 0.01 and row.anchor_s == 0.03
    assert row.ratio == pytest.approx(3.0) and row.met and row.note == "checked out out"


def test_a_missing_lane_is_reported_and_times_nothing() -> None:
    goal, clock = _fake_goal(0.01, 0.03, missing="onnxruntime is not installed; pip install x")
    start = clock.now()
    row = anchors.run_row(goal, threads=2, rounds=5, clock=clock)
    assert row.anchor_s is None and row.met is None and "pip install" in row.note
    assert clock.now() == start


def test_the_report_prints_times_rates_and_missing_lanes() -> None:
    from transformer_walk.bench import goals

    report = {
        "cores": 2,
        "anchors": [
            dict(name="embed", anchor_name="ONNX Runtime", target=1.0, rate=False, ours_s=0.1,
                 anchor_s=0.09, ratio=0.9, met=False, note="embeddings within 1e-7"),
            dict(name="decode", anchor_name="llama.cpp", target=1.0, rate=True, ours_s=0.008,
                 anchor_s=0.01, ratio=1.25, met=True, note="the same first 5 of 32"),
            dict(name="prefill", anchor_name="llama.cpp", target=2.0, rate=False, ours_s=None,
                 anchor_s=None, ratio=None, met=None, note="llama-cpp-python is not installed"),
        ],
    }  # fmt: skip
    text = goals.format_report(report)
    assert "100.00 ms" in text and "0.90×" in text and "NO" in text
    assert "125.0 tok/s" in text and "100.0 tok/s" in text and "yes" in text
    assert "llama-cpp-python is not installed" in text


@pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")
def test_the_goals_report_leads_with_the_anchor_rows(monkeypatch) -> None:
    from transformer_walk.bench import goals

    row = anchors.AnchorRow("embed", "ONNX Runtime", 1.0, False, 0.1, None, None, None, "absent")
    asked: list[int] = []
    monkeypatch.setattr(
        anchors, "run_row", lambda goal, threads, rounds: asked.append(rounds) or row
    )
    report = goals.run(anchors_only=True, anchor_rounds=11)
    assert len(report["anchors"]) == len(anchors.goals()) and "rows" not in report
    assert set(asked) == {11}  # the anchor rows' own count, not the kernels' ROUNDS
    text = goals.format_report(report)
    assert "absent" in text and "medians of 11 rounds" in text
