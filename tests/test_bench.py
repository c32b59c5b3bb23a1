"""The benchmark runs, measures, skips by budget and by deadline, survives missing or failing
backends, writes JSON; the one timing helper and the Cost page's attention curve.

These tests check behaviour, never speed: real timings are only asserted to be positive, and
every bound (budget, deadline) is tested on a fake clock that moves only when a fake call says.
"""

from __future__ import annotations

import json
import math
import threading
import types

import numpy as np
import pytest

from transformer_walk import bench
from transformer_walk.app.views.speed_choices import CHOICES
from transformer_walk.bench import (
    BLAS_SETTLE_S,
    DEADLINE,
    ERROR,
    LANE_BACKEND,
    LANES,
    OK,
    PRESETS,
    SKIPPED,
    UNAVAILABLE,
    Case,
    cli,
    format_seconds,
    measure,
    run_benchmark,
    runner,
    time_attention,
)
from transformer_walk.core.status import BackendStatus, backend_status

from conftest import FakeClock, install_fake_race

HAVE = {name: backend_status(name).available for name in ("python", "numpy", "rust")}


def _tiny_cases() -> list[Case]:
    return [case for cases in PRESETS["tiny"].values() for case in cases]


def test_tiny_run_measures_every_available_lane() -> None:
    progress: list[bench.Progress] = []
    result = run_benchmark(_tiny_cases(), repeats=2, python_budget_s=None, progress=progress.append)
    assert len(result.cells) == len(_tiny_cases()) * len(LANES)
    for cell in result.cells:
        if HAVE[bench.LANE_BACKEND[cell.lane]]:
            assert cell.status == OK, cell.note
            assert cell.median_s is not None and cell.median_s > 0
            assert len(cell.samples_s) == 2 and all(s > 0 for s in cell.samples_s)
            if cell.lane != "numpy":
                assert cell.matches_reference is True
        else:
            assert cell.status == UNAVAILABLE and cell.note
    assert progress[-1].done == progress[-1].total == len(result.cells)
    assert [p.done for p in progress] == list(range(len(result.cells) + 1))


def test_speedups_come_from_medians() -> None:
    result = run_benchmark(PRESETS["tiny"]["softmax"], repeats=2, python_budget_s=None)
    label = result.cases("softmax")[0][0]
    python = result.cell("softmax", label, "python")
    numpy = result.cell("softmax", label, "numpy")
    assert python and numpy and python.median_s and numpy.median_s
    up = result.speedup("softmax", label, "numpy", "python")
    assert up == pytest.approx(python.median_s / numpy.median_s)


@pytest.mark.skipif(not HAVE["python"], reason="the pure-Python backend is not importable")
def test_a_tiny_budget_skips_larger_sizes_with_an_estimate() -> None:
    cases = bench.ladder("softmax", (4, 64, 256), cols=32)
    result = run_benchmark(cases, lanes=["python", "numpy"], repeats=3, python_budget_s=1e-9)
    first, second, third = (result.cell("softmax", c.label, "python") for c in cases)
    assert first and second and third
    # The smallest size always runs (it is the basis of the estimate), once, within the budget.
    assert first.status == OK and first.median_s and len(first.samples_s) == 1
    for cell, case in ((second, cases[1]), (third, cases[2])):
        assert cell.status == SKIPPED and cell.median_s is None
        expected = first.median_s * case.work / cases[0].work  # time ∝ rows·cols
        assert cell.estimate_s == pytest.approx(expected)
        assert "rows·cols" in cell.note
        assert "skipped (estimated " in bench.cell_text(cell)
    # Other lanes have no budget.
    assert all(c.status == OK for c in result.cells if c.lane == "numpy")
    assert result.speedup("softmax", cases[2].label, "numpy", "python") is None


@pytest.mark.skipif(not HAVE["python"], reason="the pure-Python backend is not importable")
def test_a_generous_budget_runs_everything() -> None:
    cases = bench.ladder("attention", (4, 8), batch=1, heads=1, d=4)
    result = run_benchmark(cases, lanes=["python"], repeats=2, python_budget_s=60.0)
    assert [c.status for c in result.cells] == [OK, OK]


def test_missing_rust_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_status(name: str) -> BackendStatus:
        if name == "rust":
            return BackendStatus("rust", None, "ModuleNotFoundError: No module named 'rust_core'")
        return backend_status(name)

    monkeypatch.setattr(runner, "backend_status", fake_status)
    result = run_benchmark(PRESETS["tiny"]["softmax"], repeats=1, python_budget_s=None)
    rust = [c for c in result.cells if c.lane.startswith("rust")]
    assert rust and all(c.status == UNAVAILABLE and "rust_core" in c.note for c in rust)
    assert result.meta["rust_core_version"] is None
    assert "unavailable" in bench.report(result)


def test_a_failing_backend_is_an_error_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_softmax(x: object, axis: int = -1) -> None:
        raise RuntimeError("kernel exploded")

    broken = types.SimpleNamespace(softmax=broken_softmax)

    def fake_status(name: str) -> BackendStatus:
        if name == "python":
            return BackendStatus("python", broken, None)  # type: ignore[arg-type]
        return backend_status(name)

    monkeypatch.setattr(runner, "backend_status", fake_status)
    result = run_benchmark(PRESETS["tiny"]["softmax"], lanes=["python", "numpy"], repeats=1)
    python = [c for c in result.cells if c.lane == "python"]
    assert all(c.status == ERROR and "kernel exploded" in c.note for c in python)


@pytest.mark.skipif(not HAVE["rust"], reason="rust_core is not built")
def test_rust_thread_count_is_restored() -> None:
    from rust_core import get_num_threads, set_num_threads

    before = get_num_threads()
    set_num_threads(1)
    try:
        run_benchmark(PRESETS["tiny"]["attention"], lanes=["rust-1", "rust-all"], repeats=1)
        assert get_num_threads() == 1
    finally:
        set_num_threads(before)


def test_cli_prints_a_table_and_writes_json(tmp_path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "bench.json"
    code = cli.main(
        ["--ops", "softmax", "embedding", "--sizes", "tiny", "--repeats", "2", "--json", str(out)]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "== softmax: time per call" in printed and "== embedding" in printed
    assert "speed-up vs NumPy" in printed and "Pure Python" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    n_cases = len(PRESETS["tiny"]["softmax"]) + len(PRESETS["tiny"]["embedding"])
    assert len(data["cells"]) == n_cases * len(LANES)
    assert {"repeats", "warmup", "cores", "dtype", "scaling", "python_budget_s"} <= set(
        data["meta"]
    )
    numpy_cells = [c for c in data["cells"] if c["lane"] == "numpy"]
    assert all(c["status"] == OK and c["median_s"] > 0 for c in numpy_cells)


def test_cli_rejects_bad_arguments(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--repeats", "0"])
    with pytest.raises(SystemExit):
        cli.main(["--ops", "matmul"])
    with pytest.raises(SystemExit):
        cli.main(["--deadline", "-1"])


def test_cases_validate_their_sizes() -> None:
    assert Case.of("softmax", rows=2, cols=3).label == "rows=2 cols=3"
    with pytest.raises(ValueError, match="takes sizes"):
        Case.of("softmax", rows=2)
    with pytest.raises(ValueError, match="at least 1"):
        Case.of("softmax", rows=0, cols=3)
    attention = Case.of("attention", batch=1, heads=2, n=8, d=4)
    assert attention.x == 8 and attention.work == 1 * 2 * 8**2 * (4 * 4 + 5)


def test_page_choices_are_capped() -> None:
    choices = CHOICES["attention"]
    cases = choices.cases("attention", [64, 16], batch=1, heads=4, d=32)
    assert [c.x for c in cases] == [16, 64]
    with pytest.raises(ValueError):
        choices.cases("attention", [4096], batch=1, heads=4, d=32)
    with pytest.raises(ValueError):
        choices.cases("attention", [16], batch=64, heads=4, d=32)


@pytest.mark.parametrize(
    ("ratio", "text"),
    [
        (312.4, "312×"),
        (41.63, "41.6×"),
        (1.0, "1.00×"),
        (0.01, "0.010×"),
        (0.634, "0.634×"),
        (0.00137, "0.0014×"),
    ],
)
def test_format_speedup(ratio: float, text: str) -> None:
    assert bench.format_speedup(ratio) == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (8.12e-7, "812 ns"),
        (4.213e-6, "4.21 µs"),
        (0.013, "13.0 ms"),
        (2.5, "2.50 s"),
        (1234.5, "1234 s"),
    ],
)
def test_format_seconds(seconds: float, text: str) -> None:
    assert format_seconds(seconds) == text


# --- the deadline, on a fake clock ---------------------------------------------------------------

#: Seconds per unit of work of the fake backends: pure Python 100× NumPy, Rust twice as fast.
RATES = {"python": 1e-7, "numpy": 1e-9, "rust": 5e-10}
OVERHEAD_S = 1e-4


def _first_calls_s(cases: list[Case], lanes: tuple[str, ...] = LANES) -> float:
    """What the first call of every lane takes at the smallest case: nothing to estimate it from."""
    return sum(OVERHEAD_S + RATES[LANE_BACKEND[lane]] * cases[0].work for lane in lanes)


def test_a_deadline_bounds_the_run(monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock) -> None:
    """Guards against a run that goes on past its deadline: a cell started although its estimated
    call ends later, or samples taken past it. Unbounded, the same race takes several times as long
    (so the deadline is what held it), and the cells past the deadline are reported, not dropped."""
    calls = install_fake_race(monkeypatch, fake_clock, RATES, OVERHEAD_S)
    cases = bench.ladder("softmax", (16, 64, 256, 1024, 4096, 16384, 65536), cols=1024)
    options = dict(repeats=15, python_budget_s=5.0, clock=fake_clock)

    start = fake_clock.now()
    unbounded = run_benchmark(cases, **options)
    unbounded_s = fake_clock.now() - start
    assert all(c.status in (OK, SKIPPED) and c.skipped_for != DEADLINE for c in unbounded.cells)

    calls.clear()
    deadline_s = 10.0
    assert unbounded_s > 2 * deadline_s
    start = fake_clock.now()
    result = run_benchmark(cases, deadline_s=deadline_s, **options)
    elapsed = fake_clock.now() - start
    assert elapsed <= deadline_s + _first_calls_s(cases) + BLAS_SETTLE_S
    assert result.meta["deadline_s"] == deadline_s

    late = [c for c in result.cells if c.skipped_for == DEADLINE]
    assert late and all(c.status == SKIPPED and c.median_s is None and c.note for c in late)
    assert any(c.status == OK for c in result.cells)
    # Once a lane is past the deadline it runs nothing more (cases go from least to most work) ...
    for lane in LANES:
        mine = [c for c in result.cells if c.lane == lane]
        first = next((i for i, c in enumerate(mine) if c.skipped_for == DEADLINE), len(mine))
        assert all(c.status == SKIPPED for c in mine[first:]), (lane, mine[first:])
    # ... and a case skipped in every lane was never called at all.
    for case in cases:
        if all(result.cell("softmax", case.label, lane).skipped_for == DEADLINE for lane in LANES):
            assert all(work != case.work for _, work in calls), case.label
    assert "skipped (deadline)" in bench.cell_text(late[0])
    assert "deadline of 10 s were not started" in bench.report(result)


def test_a_cell_that_would_start_after_the_deadline_is_skipped(
    monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    calls = install_fake_race(monkeypatch, fake_clock, RATES, OVERHEAD_S)
    result = run_benchmark(PRESETS["tiny"]["softmax"], deadline_s=0.0, clock=fake_clock)
    assert calls == []
    assert {(c.status, c.skipped_for) for c in result.cells} == {(SKIPPED, DEADLINE)}
    with pytest.raises(ValueError, match="deadline_s"):
        run_benchmark(PRESETS["tiny"]["softmax"], deadline_s=-1.0)


def test_a_cell_whose_estimate_ends_past_the_deadline_is_skipped(
    monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """The second size's call is estimated (from the first, by work) at 64× the first: it is not
    started when that would end past the deadline, and its estimate is reported."""
    install_fake_race(monkeypatch, fake_clock, {"numpy": 1e-3}, overhead_s=0.0)
    cases = bench.ladder("softmax", (1, 64), cols=8)  # work 40, then 2,560: 0.04 s, then 2.56 s
    result = run_benchmark(cases, lanes=["numpy"], repeats=1, deadline_s=1.0, clock=fake_clock)
    first, second = result.cells
    assert first.status == OK and first.median_s == pytest.approx(0.04)
    assert (second.status, second.skipped_for) == (SKIPPED, DEADLINE)
    assert second.estimate_s == pytest.approx(2.56)


def test_measure_starts_no_call_that_would_end_past_its_stop(fake_clock: FakeClock) -> None:
    def call() -> str:
        fake_clock.advance(1.0)
        return "out"

    start = fake_clock.now()
    measured = measure(call, repeats=10, deadline=start + 3.5, clock=fake_clock)
    # probe (1 s), warm-up until 0.1 s past it (one more call), one sample: 3 s; a 4th would end
    # at 4 s, past the deadline.
    assert fake_clock.now() - start == pytest.approx(3.0)
    assert measured.samples_s == [1.0] and measured.output == "out"

    start = fake_clock.now()
    measured = measure(call, repeats=10, budget_s=5.5, min_warmup_s=0.0, clock=fake_clock)
    assert fake_clock.now() - start == pytest.approx(5.0)
    assert measured.samples_s == [1.0] * 4

    start = fake_clock.now()
    measured = measure(call, repeats=10, deadline=start, clock=fake_clock)  # already past
    assert fake_clock.now() - start == pytest.approx(1.0)  # the probe alone, the only sample
    assert measured.samples_s == [1.0] and measured.median_s == 1.0


def test_measure_loops_fast_calls_and_pauses_untimed(fake_clock: FakeClock) -> None:
    seconds = 2.0**-13  # about 0.12 ms, and exact in binary: no rounding in the clock's sums

    def call() -> None:
        fake_clock.advance(seconds)

    measured = measure(call, repeats=3, min_warmup_s=0.0, settle_s=0.5, clock=fake_clock)
    assert measured.calls_per_sample == math.ceil(bench.MIN_SAMPLE_S / seconds)
    assert measured.samples_s == [seconds] * 3  # the pauses are not in the samples


# --- the Cost page's attention curve --------------------------------------------------------------


def _timed_lane(clock: FakeClock, seconds_per_n2: float, seen: list[int]):
    def lane(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> None:
        assert q.shape == k.shape == v.shape and q.dtype == np.float32
        seen.append(q.shape[0])
        clock.advance(seconds_per_n2 * q.shape[0] ** 2)

    return lane


def test_time_attention_yields_every_cell_in_order(fake_clock: FakeClock) -> None:
    seen: list[int] = []
    lanes = {"a": _timed_lane(fake_clock, 1e-6, seen), "b": _timed_lane(fake_clock, 2e-6, seen)}
    out = list(time_attention(lanes, [32, 16], 4, repeats=2, budget_s=60, clock=fake_clock))
    assert [(t.lane, t.n) for t in out] == [("a", 16), ("a", 32), ("b", 16), ("b", 32)]
    assert [t.samples for t in out] == [2, 2, 2, 2]
    assert [t.seconds for t in out] == pytest.approx([2.56e-4, 1.024e-3, 5.12e-4, 2.048e-3])
    assert set(seen) == {16, 32}


def test_time_attention_ends_by_its_budget(fake_clock: FakeClock) -> None:
    """Cells past the budget are yielded as None, and so is a cell whose call, estimated as
    t ∝ n² from the lane's previous n, would end past it (n = 64 here: 16 × 0.25 s = 4 s)."""
    seen: list[int] = []
    lane = _timed_lane(fake_clock, 0.25 / 16**2, seen)  # 0.25 s at n = 16
    start = fake_clock.now()
    out = list(
        time_attention({"x": lane}, [16, 32, 64], 2, repeats=1, budget_s=3.0, clock=fake_clock)
    )
    assert fake_clock.now() - start <= 3.0
    assert [t and t.n for t in out] == [16, 32, None]
    assert 64 not in seen


# --- the thread count -----------------------------------------------------------------------------


@pytest.mark.skipif(not HAVE["rust"], reason="rust_core is not built")
def test_one_thread_restores_rust_threads() -> None:
    rust = backend_status("rust").module
    before = rust.get_num_threads()
    with bench.one_thread(rust):
        assert rust.get_num_threads() == 1
    assert rust.get_num_threads() == before


@pytest.mark.skipif(not HAVE["rust"], reason="rust_core is not built")
def test_overlapping_measurements_from_two_sessions_restore_the_pool() -> None:
    """Guards against two sessions measuring at once (Cost and Speed pages share one process)
    interleaving save/restore — A saves 2, B saves 1 (A's setting), A restores 2, B restores 1 —
    and leaving every session on one thread."""
    rust = backend_status("rust").module
    before = rust.get_num_threads()
    rust.set_num_threads(2)
    inside = threading.Event()
    release = threading.Event()

    def measuring_session() -> None:
        with bench.one_thread(rust):
            inside.set()
            release.wait(5)

    a = threading.Thread(target=measuring_session)
    a.start()
    assert inside.wait(5)
    # Held by the measuring session, so the other one (below) must wait for it.
    assert not bench.THREAD_COUNT_LOCK.acquire(blocking=False)
    seen = []

    def other_session() -> None:
        with bench.threads(rust, 1):
            seen.append(rust.get_num_threads())

    b = threading.Thread(target=other_session)
    b.start()
    release.set()
    a.join(5)
    b.join(5)
    try:
        assert seen == [1] and rust.get_num_threads() == 2
    finally:
        rust.set_num_threads(before)


# --- the learner's training step ------------------------------------------------------------------


def test_train_step_inputs_are_one_next_token_batch_and_the_learners_weights() -> None:
    from transformer_walk.bench import train_step
    from transformer_walk.models.learner import param_shapes

    task, init = train_step.make_inputs(
        np.random.default_rng(0), {"batch": 3, "n": 5}, np.dtype(np.float64)
    )
    assert task.inputs.shape == task.targets.shape == (3, 5)
    assert task.inputs.dtype == task.targets.dtype == np.int64
    assert task.vocab_size == train_step.VOCAB
    assert 0 <= task.inputs.min() and task.inputs.max() < train_step.VOCAB
    np.testing.assert_array_equal(task.targets[:, :-1], task.inputs[:, 1:])  # the next symbol
    assert task.batch(7, 11) == (task.inputs, task.targets)  # every step trains on this batch
    shapes = param_shapes(train_step.CONFIG, train_step.VOCAB)
    assert {name: a.shape for name, a in init.items()} == shapes
    assert all(a.dtype == np.float32 for a in init.values())  # the learner's, whatever dtype
    assert train_step.parameter_count() == sum(int(np.prod(s)) for s in shapes.values())
    with pytest.raises(ValueError, match="32 positions"):
        train_step.make_inputs(np.random.default_rng(0), {"batch": 1, "n": 33}, np.float32)


def test_the_quick_race_has_the_issues_training_step() -> None:
    sizes = [case.sizes for case in PRESETS["quick"]["train_step"]]
    assert {"batch": 32, "n": 32} in sizes and min(s["batch"] for s in sizes) == 1
    case = Case.of("train_step", batch=32, n=32)
    assert case.x == 32 and case.work > 32 * Case.of("train_step", batch=1, n=32).work * 0.9


@pytest.mark.skipif(not HAVE["rust"], reason="rust_core is not built")
def test_every_lane_computes_the_same_training_step() -> None:
    """NumPy and Rust (1 and all threads) from the same batch and weights take a step with the
    same loss; each call starts from the case's weights again, so repeated calls agree too."""
    from transformer_walk.bench import train_step

    args = train_step.make_inputs(np.random.default_rng(1), {"batch": 4, "n": 8}, np.float32)
    before = {name: a.copy() for name, a in args[1].items()}
    losses = {name: train_step.step_loss(name, args) for name in ("numpy", "rust")}
    assert losses["numpy"].shape == (1,) and 3.0 < losses["numpy"][0] < 5.0  # about ln 64
    np.testing.assert_allclose(losses["rust"], losses["numpy"], rtol=1e-5)
    np.testing.assert_array_equal(train_step.step_loss("numpy", args), losses["numpy"])
    assert all(np.array_equal(args[1][name], a) for name, a in before.items())  # not updated

    cases = [Case.of("train_step", batch=2, n=8)]
    result = run_benchmark(cases, lanes=["numpy", "rust-1", "rust-all"], repeats=1)
    assert [c.status for c in result.cells] == [OK, OK, OK]
    assert all(c.matches_reference for c in result.cells if c.lane != "numpy")
    text = bench.report(result)
    assert "train_step: training steps per second" in text and "d_model 64" in text


@pytest.mark.skipif(not HAVE["python"], reason="the pure-Python backend is not importable")
def test_pure_python_takes_the_same_training_step() -> None:
    from transformer_walk.bench import train_step

    args = train_step.make_inputs(np.random.default_rng(2), {"batch": 1, "n": 4}, np.float32)
    np.testing.assert_allclose(
        train_step.step_loss("python", args), train_step.step_loss("numpy", args), rtol=1e-5
    )


def test_pure_python_training_steps_are_bounded_before_it_runs_one(
    monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """Guards against pure Python starting a step of minutes because it is the smallest size the
    run has (the one that otherwise always runs): core.budget's estimate is checked first. A size
    that fits runs; the larger ones are then scaled from it, as for every op."""
    from transformer_walk.bench import train_step

    calls = install_fake_race(monkeypatch, fake_clock, RATES, OVERHEAD_S)
    big = Case.of("train_step", batch=32, n=32)
    result = run_benchmark([big], lanes=["python", "numpy"], python_budget_s=2.0, clock=fake_clock)
    python = result.cell("train_step", big.label, "python")
    assert python and (python.status, python.skipped_for) == (SKIPPED, bench.BUDGET)
    assert python.estimate_by_rate
    assert python.estimate_s == train_step.python_step_seconds(big.sizes)
    assert python.estimate_s > 2.0 and "core.budget" in python.note
    assert [name for name, _ in calls if name == "python"] == []  # never started
    assert "core.budget's rate" in bench.report(result)

    calls.clear()
    cases = bench.ladder("train_step", (1, 32), n=32)
    result = run_benchmark(cases, lanes=["python"], python_budget_s=2.0, clock=fake_clock)
    small, large = result.cells
    assert train_step.python_step_seconds(cases[0].sizes) < 2.0  # so batch 1 runs
    assert small.status == OK and large.status == SKIPPED and not large.estimate_by_rate
    assert large.estimate_s == pytest.approx(small.median_s * cases[1].work / cases[0].work)
    assert "estimated from batch=1 n=32" in large.note

    unbounded = run_benchmark([big], lanes=["python"], python_budget_s=None, clock=fake_clock)
    assert unbounded.cells[0].status == OK  # no budget: the estimate holds nothing back


def test_the_report_counts_training_steps_a_second() -> None:
    case = Case.of("train_step", batch=8, n=32)
    cells = [
        bench.Cell("train_step", case.label, case.sizes, case.x, case.work, lane, OK, median)
        for lane, median in (("numpy", 0.025), ("rust-all", 0.01))
    ]
    meta = {"lanes": ["numpy", "rust-all"], "cores": 2, "python_budget_s": 2.0, "dtype": "float32",
            "repeats": 5, "warmup": 1}  # fmt: skip
    text = bench.report(bench.BenchResult(cells, meta))
    block = text.split("-- train_step: training steps per second")[1]
    assert "40.0" in block and "100" in block  # 1 / 25 ms and 1 / 10 ms
    assert "2.50×" in text  # the speed-up vs NumPy beside it
    assert bench.steps_per_second(cells[0]) == pytest.approx(40.0)


def test_page_training_step_choices_are_capped() -> None:
    choices = CHOICES["train_step"]
    assert [c.sizes for c in choices.cases("train_step", [8, 1], n=32)] == [
        {"batch": 1, "n": 32},
        {"batch": 8, "n": 32},
    ]
    with pytest.raises(ValueError):
        choices.cases("train_step", [64], n=32)
    with pytest.raises(ValueError):
        choices.cases("train_step", [1], n=64)
