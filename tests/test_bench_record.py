"""``--record DIR`` (``make bench BENCH_JSON=1``): one file per day and CPU kind, holding the
machine and each section a run wrote."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from transformer_walk.bench import cli, machine

ZEN4 = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
model name\t: AMD EPYC
flags\t\t: fpu sse avx2 fma avx512f avx512_vnni

processor\t: 1
"""


def test_the_machine_is_read_from_cpuinfo(tmp_path: Path) -> None:
    info = tmp_path / "cpuinfo"
    info.write_text(ZEN4, encoding="utf-8")
    described = machine.describe(str(info))
    assert (described["cpu"], described["family"], described["model"]) == ("AMD EPYC", 25, 17)
    assert described["features"] == ["avx512f", "avx512_vnni", "avx2", "fma"]
    assert machine.slug(described) == "amd-epyc-f25m17-avx512"


def test_the_slug_names_the_widest_simd() -> None:
    zen3 = {"cpu": "AMD EPYC 7B13", "family": 25, "model": 1, "features": ["avx2", "fma"]}
    assert machine.slug(zen3) == "amd-epyc-7b13-f25m1-avx2"
    assert machine.slug({"cpu": "", "features": []}) == "cpu-x86-64"


def test_the_file_is_named_by_date_and_cpu(tmp_path: Path) -> None:
    zen4 = {"cpu": "AMD EPYC", "family": 25, "model": 17, "features": ["avx512f"]}
    path = machine.record_path(tmp_path, zen4, date(2026, 12, 5))
    assert path == tmp_path / "2026-12-05-amd-epyc-f25m17-avx512.json"


def test_each_run_writes_its_section_and_keeps_the_other(tmp_path: Path) -> None:
    first = machine.record(tmp_path, "goals", {"rows": [1]})
    machine.record(tmp_path, "race", {"cells": []})
    again = machine.record(tmp_path, "race", {"cells": [2]})
    assert first == again and [p.name for p in tmp_path.iterdir()] == [first.name]
    kept = json.loads(first.read_text(encoding="utf-8"))
    assert kept["goals"] == {"rows": [1]} and kept["race"] == {"cells": [2]}
    assert kept["machine"]["cores"] >= 1


def test_the_cli_records_the_race(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--ops", "softmax", "--lanes", "numpy", "--repeats", "1", "--budget", "0.01"]
    assert cli.main([*args, "--record", str(tmp_path)]) == 0
    (path,) = tmp_path.iterdir()
    assert str(path) in capsys.readouterr().out
    race = json.loads(path.read_text(encoding="utf-8"))["race"]
    assert {c["op"] for c in race["cells"]} == {"softmax"} and race["meta"]["lanes"] == ["numpy"]
