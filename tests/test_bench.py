"""The benchmark runs, measures, skips by budget, survives missing or failing backends, writes JSON.

These tests check behaviour, never speed: timings are only asserted to be positive.
"""

from __future__ import annotations

import json
import math
import types

import pytest

from transformer_walk import bench
from transformer_walk.app.views.speed_choices import CHOICES
from transformer_walk.bench import (
    ERROR,
    LANES,
    OK,
    PRESETS,
    SKIPPED,
    UNAVAILABLE,
    Case,
    format_seconds,
    run_benchmark,
)
from transformer_walk.core.status import BackendStatus, backend_status

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

    monkeypatch.setattr(bench, "backend_status", fake_status)
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

    monkeypatch.setattr(bench, "backend_status", fake_status)
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
    code = bench.main(
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
        bench.main(["--repeats", "0"])
    with pytest.raises(SystemExit):
        bench.main(["--ops", "matmul"])


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
    assert not math.isnan(seconds)
