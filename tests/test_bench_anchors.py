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


@needs_ort
def test_onnx_runtimes_int8_model_is_close_but_not_equal_to_float32(minilm) -> None:
    """The quantised graph is a different model: near float32's embeddings, not equal to them."""
    texts = ["Tom loves his dog", "汤姆爱他的狗", "x"]
    cosines = anchors.cosines(onnx_lane.session(2, int8=True).embed(texts), minilm.embed(texts))
    assert 0.95 < cosines.min() and cosines.max() < 0.99999


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


def _fake_goal(
    ours_s: float | list[float],
    anchor_s: float | list[float],
    rate: bool = False,
    missing: str | None = None,
    calls: list[str] | None = None,
):
    """A row whose sides take the given seconds a call (a list: call after call, the first
    being the checked warm-up), noting each call's side in ``calls``."""
    clock = FakeClock()

    def side(name: str, seconds: float | list[float]):
        times = iter(seconds) if isinstance(seconds, list) else None

        def call():
            took = next(times) if times is not None else seconds
            clock.advance(took)
            if calls is not None:
                calls.append(name)
            return took, "out"

        return call

    pair = anchors.Pair(
        side("ours", ours_s), side("anchor", anchor_s), lambda a, b: f"checked {a} {b}"
    )
    goal = anchors.AnchorGoal("work", "Anchor", 2.0, rate, lambda: missing, lambda threads: pair)
    return goal, clock


def test_a_row_without_a_goal_is_neither_met_nor_missed() -> None:
    goal, clock = _fake_goal(0.01, 0.03)
    goal = anchors.AnchorGoal("trade", "Anchor", None, False, goal.missing, goal.make)
    row = anchors.run_row(goal, threads=2, rounds=1, calls=1, clock=clock)
    assert row.ratio == pytest.approx(3.0) and row.met is None


def test_a_row_is_the_ratio_of_medians_after_a_checked_warm_up() -> None:
    goal, clock = _fake_goal(0.01, 0.03)
    row = anchors.run_row(goal, threads=2, rounds=5, calls=3, clock=clock)
    assert row.ours_s == 0.01 and row.anchor_s == 0.03
    assert row.ratio == pytest.approx(3.0) and row.met and row.note == "checked out out"
    assert row.ratio_range() == pytest.approx((3.0, 3.0))


def test_each_round_keeps_each_sides_best_call_and_the_row_their_median() -> None:
    """Three rounds of two calls: ours is best at 10, 30, 20 ms, the anchor at 40, 40, 90 ms
    (one slow call in each round is dropped); the medians are 20 and 40 ms."""
    ours = [0.5, 0.010, 0.015, 0.050, 0.030, 0.020, 0.060]
    anchor = [0.5, 0.040, 0.080, 0.040, 0.100, 0.090, 0.095]
    goal, clock = _fake_goal(ours, anchor)
    row = anchors.run_row(goal, threads=2, rounds=3, calls=2, clock=clock)
    assert row.ours_rounds_s == [0.010, 0.030, 0.020]
    assert row.anchor_rounds_s == [0.040, 0.040, 0.090]
    assert (row.ours_s, row.anchor_s) == (0.020, 0.040)
    assert row.ratio == pytest.approx(2.0) and row.met
    assert row.ratio_range() == pytest.approx((4 / 3, 4.5))


def test_the_sides_take_turns_and_each_round_starts_with_the_other_after_a_pause() -> None:
    calls: list[str] = []
    goal, clock = _fake_goal(0.01, 0.03, calls=calls)
    start = clock.now()
    anchors.run_row(goal, threads=2, rounds=2, calls=2, clock=clock)
    assert calls == ["ours", "anchor"] + ["ours", "anchor"] * 2 + ["anchor", "ours"] * 2
    work = 0.01 + 0.03 + 2 * 2 * (0.01 + 0.03)
    assert clock.now() - start == pytest.approx(work + 8 * anchors.BLAS_SETTLE_S)


@pytest.mark.parametrize(("rounds", "calls"), [(0, 5), (5, 0), (-1, 1)])
def test_a_row_refuses_no_rounds_or_no_calls(rounds: int, calls: int) -> None:
    goal, clock = _fake_goal(0.01, 0.03)
    with pytest.raises(ValueError, match="at least one round and one call"):
        anchors.run_row(goal, threads=2, rounds=rounds, calls=calls, clock=clock)


def test_a_missing_lane_is_reported_and_times_nothing() -> None:
    goal, clock = _fake_goal(0.01, 0.03, missing="onnxruntime is not installed; pip install x")
    start = clock.now()
    row = anchors.run_row(goal, threads=2, rounds=5, calls=5, clock=clock)
    assert row.anchor_s is None and row.met is None and "pip install" in row.note
    assert clock.now() == start


def test_the_report_prints_times_rates_and_missing_lanes() -> None:
    from transformer_walk.bench import goals

    report = {
        "cores": 2,
        "anchor_rounds": 2,
        "anchor_calls": 3,
        "machine": {"cpu": "Some CPU", "family": 6, "model": 106, "cores": 2,
                    "features": ["avx512f", "avx2", "fma"]},
        "builds": {"rust_core": "0.1.0, avx512", "ONNX Runtime": "not installed"},
        "anchors": [
            dict(name="embed", anchor_name="ONNX Runtime", target=1.0, rate=False, ours_s=0.1,
                 anchor_s=0.09, ratio=0.9, met=False, note="embeddings within 1e-7",
                 ours_rounds_s=[0.1, 0.1], anchor_rounds_s=[0.08, 0.11]),
            dict(name="decode", anchor_name="llama.cpp", target=1.0, rate=True, ours_s=0.008,
                 anchor_s=0.01, ratio=1.25, met=True, note="the same first 5 of 32",
                 ours_rounds_s=[0.008, 0.008], anchor_rounds_s=[0.01, 0.01]),
            dict(name="prefill", anchor_name="llama.cpp", target=2.0, rate=False, ours_s=None,
                 anchor_s=None, ratio=None, met=None, note="llama-cpp-python is not installed"),
            dict(name="half", anchor_name="ORT int8", target=None, rate=False, ours_s=0.003,
                 anchor_s=0.0024, ratio=0.8, met=None, note="cosines 0.99999 and 0.99",
                 ours_rounds_s=[0.003], anchor_rounds_s=[0.0024]),
        ],
    }  # fmt: skip
    text = goals.format_report(report)
    assert "100.00 ms" in text and "0.90×" in text and "0.80–1.10" in text and "NO" in text
    assert "125.0 tok/s" in text and "100.0 tok/s" in text and "yes" in text
    assert "llama-cpp-python is not installed" in text
    half = next(line for line in text.splitlines() if line.startswith("half"))
    assert "0.80×" in half and "—" in half and "yes" not in half and "NO" not in half
    assert "best of 3 calls after a pause" in text and "median of 2 rounds" in text
    assert "machine: Some CPU (family 6 model 106, 2 cores), features: avx512f avx2 fma" in text
    assert "rust_core: 0.1.0, avx512" in text and "ONNX Runtime: not installed" in text


def test_the_builds_name_every_side() -> None:
    built = anchors.builds()
    assert set(built) == {"rust_core", "ONNX Runtime", "llama.cpp"}
    if HAVE_RUST:
        import rust_core

        assert rust_core.simd_level() in built["rust_core"]
    if onnx_lane.available() is not None:
        assert built["ONNX Runtime"] == "not installed"


# llama_print_system_info() of llama-cpp-python 0.3.36 built on an Intel Xeon with AMX (family 6
# model 167): natively (-march=native compiles the AMX kernels) and with the features listed.
NATIVE_AMX = (
    "CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX_VNNI = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | BMI2 = 1"
    " | AVX512 = 1 | AVX512_VBMI = 1 | AVX512_VNNI = 1 | AVX512_BF16 = 1 | AMX_INT8 = 1 |"
    " LLAMAFILE = 1 | OPENMP = 1 | REPACK = 1 | "
)
LISTED = NATIVE_AMX.replace("AMX_INT8 = 1 | ", "")


def test_a_llama_cpp_build_with_amx_is_refused_and_one_without_is_not() -> None:
    refusal = llama_lane.amx_refusal(NATIVE_AMX)
    assert refusal is not None and "AMX" in refusal and "GGML_NATIVE off" in refusal
    assert llama_lane.amx_refusal(LISTED) is None


@pytest.mark.parametrize(("info", "runs"), [(NATIVE_AMX, False), (LISTED, True)])
def test_the_lane_and_the_builds_say_why_an_amx_build_does_not_run(
    monkeypatch, info: str, runs: bool
) -> None:
    """A stand-in llama_cpp module with the build's system info: the lane is available or
    refused by it, and the builds line names the build either way (and the refusal)."""
    import sys
    import types

    fake = types.ModuleType("llama_cpp")
    fake.__version__ = "0.3.36"  # type: ignore[attr-defined]
    fake.llama_print_system_info = lambda: info.encode()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "llama_cpp", fake)
    llama_lane.available.cache_clear()
    try:
        assert (llama_lane.available() is None) is runs
        built = anchors.builds()["llama.cpp"]
        assert built.startswith("llama-cpp-python 0.3.36, CPU : SSE3 = 1")
        assert ("not run: this llama.cpp build uses AMX" in built) is not runs
    finally:
        llama_lane.available.cache_clear()


@pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")
def test_the_goals_report_leads_with_the_machine_and_the_anchor_rows(monkeypatch) -> None:
    from transformer_walk.bench import goals

    row = anchors.AnchorRow("embed", "ONNX Runtime", 1.0, False, 0.1, None, None, None, "absent")
    asked: list[tuple[int, int]] = []
    monkeypatch.setattr(
        anchors,
        "run_row",
        lambda goal, threads, rounds, calls: asked.append((rounds, calls)) or row,
    )
    report = goals.run(anchors_only=True, anchor_rounds=11, anchor_calls=4)
    assert len(report["anchors"]) == len(anchors.goals()) and "rows" not in report
    assert set(asked) == {(11, 4)}  # the anchor rows' own counts, not the kernels' ROUNDS
    text = goals.format_report(report)
    assert text.startswith("machine: ") and "rust_core: " in text
    assert "absent" in text and "best of 4 calls" in text and "median of 11 rounds" in text
