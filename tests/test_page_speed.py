"""The Speed page through AppTest, on fixed races (no clock): its sentence about threads follows
the medians in the table beside it — two threads slower than one are said not to have helped —
and nothing on the page says the kernels use every core, in both languages; a training-step
race shows its steps a second, says each lane against NumPy, and explains estimates made before
pure Python ran."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.bench import BUDGET, OK, OPS, SKIPPED, BenchResult, Case, Cell

from apptest_support import open_page

META = {"cores": 2, "dtype": "float32", "repeats": 5, "numpy_version": "2", "deadline_s": 30,
        "rust_core_version": "0.1", "finished_at": "2026-12-04T18:00:00+00:00"}  # fmt: skip


def race(one: dict[int, float], many: dict[int, float]) -> BenchResult:
    """Softmax medians by rows: NumPy and Rust on one thread as ``one``, Rust on all as ``many``."""
    cells = []
    for lane, medians in (("numpy", one), ("rust-1", one), ("rust-all", many)):
        for rows, median in medians.items():
            case = Case.of("softmax", rows=rows, cols=64)
            cells.append(
                Cell(
                    "softmax", case.label, case.sizes, case.x, case.work, lane, OK, median, [median]
                )
            )
    return BenchResult(cells, {**META, "lanes": ["numpy", "rust-1", "rust-all"]})


def open_with(result: BenchResult, language: str) -> AppTest:
    return open_page("speed.py", language, state={"speed_results": {"softmax": result}},
                     assert_no_exception=True)  # fmt: skip


def texts(at: AppTest) -> list[str]:
    return [e.value for kind in ("markdown", "caption", "info") for e in at.get(kind)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_two_threads_slower_than_one_are_said_not_to_help(language: str) -> None:
    at = open_with(race({64: 1e-5, 1024: 1e-4}, {64: 1.6e-5, 1024: 1.25e-4}), language)
    said = translate("speed.threads.no_help", language, cores=2, threshold="1.10×",
                     span="0.625×–0.800×")  # fmt: skip
    assert said in texts(at)
    assert not any("every core" in t or "所有核心" in t or "全部核心" in t for t in texts(at))


@pytest.mark.parametrize("language", LANGUAGES)
def test_threads_that_helped_are_said_to_with_the_measured_speed_up(language: str) -> None:
    at = open_with(race({64: 1e-5, 1024: 1e-4}, {64: 1.2e-5, 1024: 5.5e-5}), language)
    said = translate("speed.threads.mixed", language, cores=2, threshold="1.10×", span="1.82×",
                     helped="rows=1024 cols=64", other="rows=64 cols=64",
                     other_span="0.833×")  # fmt: skip
    assert said in texts(at)


def step_race() -> BenchResult:
    """Training steps: NumPy 25 ms and Rust on all threads 10 ms at batch 32; pure Python skipped
    there on core.budget's estimate, before it ran any size."""
    case = Case.of("train_step", batch=32, n=32)
    cells = [
        Cell("train_step", case.label, case.sizes, case.x, case.work, lane, OK, median, [median])
        for lane, median in (("numpy", 0.025), ("rust-all", 0.01))
    ]
    skipped = Cell("train_step", case.label, case.sizes, case.x, case.work, "python", SKIPPED,
                   estimate_s=24.1, skipped_for=BUDGET, estimate_by_rate=True)  # fmt: skip
    return BenchResult([skipped, *cells], {**META, "lanes": ["python", "numpy", "rust-all"]})


@pytest.mark.parametrize("language", LANGUAGES)
def test_training_steps_a_second_are_shown_and_said_against_numpy(language: str) -> None:
    at = open_page("speed.py", language, assert_no_exception=True,
                   state={"speed_results": {"train_step": step_race()},
                          "speed_op": "train_step"})  # fmt: skip
    lane = translate("speed.lane.rust-all", language, cores=2)
    said = translate("speed.steps.faster", language, lane=lane, size="batch=32 n=32",
                     rate="100", numpy="40.0", ratio="2.50×")  # fmt: skip
    assert any(said in text for text in texts(at))
    assert translate("speed.steps.title", language) in [h.value for h in at.subheader]
    steps = at.dataframe[1].value  # after the medians: steps a second
    assert list(steps.loc["batch=32 n=32"]) == ["40.0", "100"]
    assert translate("speed.skipped_rate_note", language) in texts(at)
    assert translate("speed.skipped_note", language, scaling=OPS["train_step"].scaling) not in (
        texts(at)
    )
