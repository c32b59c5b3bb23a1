"""The class as a command: ``scripts/classroom.py`` drives simulated students through Streamlit's
agent API. Here it runs small (5 students, 20 s) on the browser tests' server, which has the agent
API on, and fails on any error — never on time: how fast a class is answered is measured by
``make classroom``, not asserted."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import soak


def _load() -> Any:
    path = Path(__file__).resolve().parents[1] / "scripts" / "classroom.py"
    spec = importlib.util.spec_from_file_location("scripts_classroom", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["scripts_classroom"] = module  # dataclasses looks the module up by name
    spec.loader.exec_module(module)
    return module


classroom = _load()


def test_a_student_moves_a_widget_to_another_legal_value() -> None:
    rng = random.Random(0)
    select = {"type": "selectbox", "value": "b", "props": {"options": "['a', 'b', 'c']"}}
    assert classroom.other_value(select, rng) in ("a", "c")
    one = {"type": "radio", "value": "a", "props": {"options": "['a']"}}
    assert classroom.other_value(one, rng) is None
    slider = {
        "type": "slider",
        "value": 2,
        "value_schema": {"type": "integer"},
        "props": {"min_value": "1", "max_value": "3", "step": "1"},
    }
    for _ in range(20):
        moved = classroom.other_value(slider, rng)
        assert moved in (1, 3) and isinstance(moved, int)
    assert classroom.other_value({"type": "toggle", "value": False, "props": {}}, rng) is True
    disabled = {**select, "props": {**select["props"], "disabled": "True"}}
    assert classroom.other_value(disabled, rng) is None
    ranged = {**slider, "value": [1, 2]}  # a range slider: left alone
    assert classroom.other_value(ranged, rng) is None


def test_a_field_of_a_form_is_sent_with_the_forms_submit_button() -> None:
    field = {"type": "radio", "key": "guess", "form_id": "quiz", "value": "a"}
    submit = {"type": "form_submit_button", "key": "FormSubmitter:quiz-Reveal"}
    other = {"type": "form", "key": "other", "children": []}
    tree = {"type": "main", "children": [other, {"type": "form", "key": "quiz",
            "children": [field, submit]}]}  # fmt: skip
    assert classroom.submit_key(tree, "quiz") == "FormSubmitter:quiz-Reveal"
    assert classroom.submit_key(tree, "other") is None
    assert classroom.submit_key(tree, "missing") is None


def test_exceptions_are_read_from_the_tree_and_the_status() -> None:
    raised = {"status": "error", "tree": {"type": "root", "children": []}}
    assert classroom.exceptions(raised) == ["the app raised (status: error)"]
    box = {"type": "exception", "props": {"message": "boom"}}
    assert classroom.exceptions({"status": "error", "tree": {"type": "main", "c": [box]}}) == [
        "boom"
    ]
    assert classroom.exceptions({"status": "ready", "tree": {"type": "root"}}) == []


@pytest.mark.soak
@pytest.mark.xdist_group("browser")  # the browser tests' server and worker
@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs Linux /proc")
def test_a_small_class_meets_no_error(
    app_server: soak.Server, capsys: pytest.CaptureFixture[str]
) -> None:
    code = classroom.main(
        ["--students", "5", "--seconds", "20", "--arrive", "5", "--url", app_server.url]
    )
    out = capsys.readouterr().out
    print(out)
    assert code == 0, f"{out}\n--- server log ---\n{app_server.log_tail()}"
    assert "errors: 0" in out
    first = next(line for line in out.splitlines() if line.startswith("first open"))
    assert int(first.split()[2]) == 5, out  # every student got its page, however slowly
