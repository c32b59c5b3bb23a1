"""The decoder's lanes of the speed race: SmolLM2 reading a prompt (prefill) and generating one
token after cached ones (decode), on NumPy and Rust, checked against each other, read as tokens a
second. Skipped, with the reason, without the model package."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.bench import (
    OK,
    OPS,
    UNAVAILABLE,
    Case,
    ladder,
    report,
    run_benchmark,
    tokens_per_second,
)
from transformer_walk.bench import cases as bench_cases
from transformer_walk.core import get_backend

from smollm2_support import MODEL_SKIP, RUST_SKIP

pytestmark = pytest.mark.skipif(MODEL_SKIP is not None, reason=str(MODEL_SKIP))
LANES = ["python", "numpy"] + (["rust-1", "rust-all"] if RUST_SKIP is None else [])


def test_prefill_and_decode_race_on_every_lane_but_pure_python() -> None:
    cases = ladder("smollm2_prefill", (3,)) + ladder("smollm2_decode", (5,))
    result = run_benchmark(cases, lanes=LANES, repeats=1)
    for cell in result.cells:
        if cell.lane == "python":
            assert cell.status == UNAVAILABLE and "s a token" in cell.note
            continue
        assert cell.status == OK, cell.note
        assert cell.median_s is not None and cell.median_s > 0
        if cell.lane != "numpy":
            assert cell.matches_reference is True, (cell.op, cell.lane)
        tokens = 3 if cell.op == "smollm2_prefill" else 1
        assert tokens_per_second(cell) == pytest.approx(tokens / cell.median_s)
    text = report(result)
    assert "-- smollm2_prefill: tokens per second" in text
    assert "-- smollm2_decode: tokens per second" in text


def test_a_decode_call_times_the_same_step_every_time() -> None:
    """The cache goes back to ``past`` positions after each call, so the second call computes
    exactly the first one's logits (a cache that kept growing would move the token along)."""
    case = Case.of("smollm2_decode", past=4)
    inputs = case.spec.make_inputs(np.random.default_rng(0), case.sizes, np.dtype("float32"))
    cache = inputs[0]
    numpy = get_backend("numpy")
    first = case.spec.call(numpy, inputs)
    assert cache.length == 4
    second = case.spec.call(numpy, inputs)
    np.testing.assert_array_equal(first, second)
    assert first.shape == (1, 49152)
    # …and it is the logits of the whole sequence's last position, computed without a cache.
    ids = np.concatenate([inputs_ids(case), inputs[1]])
    full = bench_cases._smollm2("numpy").logits(ids)[-1]
    # (to the 16-bit steps of the activations: test_smollm2_generate's CACHE_ATOL)
    np.testing.assert_allclose(first[0], full, atol=0.03, rtol=0)


def inputs_ids(case: Case) -> np.ndarray:
    """The cached ids of a decode case's inputs (the same seeded draw as ``make_inputs``)."""
    return bench_cases._prompt_ids(np.random.default_rng(0), case.sizes["past"] + 1)[:-1]


def test_the_work_counts_only_the_scored_position() -> None:
    cfg = bench_cases.SMOLLM2
    prefill = OPS["smollm2_prefill"].work({"n": 8})
    assert prefill == 2.0 * cfg.multiply_adds(8, scored=1) < 2.0 * cfg.multiply_adds(8)
    assert OPS["smollm2_decode"].work({"past": 8}) == 2.0 * cfg.multiply_adds(1, past=8)
