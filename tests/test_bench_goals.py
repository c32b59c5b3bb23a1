"""The goals benchmark compares like with like: for every goal, the NumPy code and rust_core give
the same result on the goal's own inputs (timings themselves are measured, never asserted)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import HAVE_RUST

pytestmark = pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")


def test_every_goal_compares_equal_results():
    from transformer_walk.bench import goals as bench_goals

    goals = bench_goals.goals()
    assert len(goals) >= 5
    for goal in goals:
        args = goal.make(np.random.default_rng(0))
        want, got = np.asarray(goal.numpy(*args)), np.asarray(goal.rust(*args))
        assert got.shape == want.shape and got.dtype == want.dtype, goal.name
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=2e-4, err_msg=goal.name)
    from transformer_walk.bench import train_step

    step = next(goal for goal in goals if goal.name.startswith("learner training"))
    assert step.target == 5.0 and "batch 32 × 32" in step.name  # the goal
    # a call is a run of steps, as a training loop runs them: one loss per step
    losses = step.rust(*step.make(np.random.default_rng(0)))
    assert losses.shape == (train_step.RUN_STEPS,) and f"{train_step.RUN_STEPS} steps" in step.name


def test_report_lists_every_row_with_its_verdict():
    from transformer_walk.bench import goals as bench_goals

    report = {
        "cores": 2,
        "rows": [
            dict(name="softmax", numpy_s=0.03, rust_s=0.01, rust_1_thread_s=0.02, ratio=3.0,
                 target=3.0, met=True, gflops=5.0),
            dict(name="lookup", numpy_s=0.002, rust_s=0.002, rust_1_thread_s=0.002, ratio=1.0,
                 target=2.5, met=False, gflops=None),
        ],
        "matmul_peak_gflops": {"numpy_matmul": 400.0, "rust_linear": 380.0},
        "lookup_copy_floor_s": 0.00123,
        "attention_32768": dict(n=32768, peak_growth_mb=9.0, output_mb=8.0, seconds=1.0,
                                finite=True, n_by_m_matrix_mb=4096.0),
    }  # fmt: skip
    text = bench_goals.format_report(report)
    assert "softmax" in text and "yes" in text and "NO" in text
    assert "400 GFLOP/s" in text and "grew 9 MB" in text and "4096 MB" in text
    assert "25 MB result in 1.23 ms" in text


def test_bench_goals_flag_prints_the_goal_table(monkeypatch):
    from transformer_walk.bench import cli
    from transformer_walk.bench import goals as bench_goals

    seen = []
    monkeypatch.setattr(bench_goals, "main", lambda argv: seen.append(argv) or 0)
    assert cli.main(["--goals", "--json", "goals.json"]) == 0
    assert seen == [["--json", "goals.json"]]
