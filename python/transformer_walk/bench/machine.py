"""The machine a run was timed on, and the file its results are kept in.

``--record DIR`` (``make bench BENCH_JSON=1``) keeps each run in ``DIR/<date>-<cpu>.json``: a
figure means little without the CPU it came from, and the file name says which kind it is before
the file is opened. The race and the goals run as two processes of one ``make bench``, so each
writes its own section of the day's file for this CPU.
"""

from __future__ import annotations

import json
import os
import platform
import re
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from transformer_walk.bench.timing import available_cores
from transformer_walk.core.status import backend_status

#: Settings that change what the race measures, kept when they are set.
ENV = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "RUST_CORE_SIMD", "RUST_CORE_NUM_THREADS")
#: The CPU features the kernels choose between; the rest of /proc/cpuinfo's list says nothing here.
FEATURES = ("avx512f", "avx512_vnni", "avx512_bf16", "avx2", "fma", "f16c", "bmi2")


def _cpuinfo(path: str = "/proc/cpuinfo") -> dict[str, str]:
    """The first processor's fields (all processors of these machines are alike)."""
    fields: dict[str, str] = {}
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return fields
    for line in text.splitlines():
        if not line.strip():
            break
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields


def simd_level() -> str | None:
    """rust_core's SIMD level (``simd_level`` describes the binary, so it is not a kernel)."""
    module = backend_status("rust").module
    level = getattr(module, "simd_level", None)
    return str(level()) if callable(level) else None


def _blas() -> str | None:
    try:
        config: Any = np.show_config(mode="dicts")
        blas = config["Build Dependencies"]["blas"]
        return f"{blas['name']} {blas['version']}"
    except (KeyError, TypeError, ValueError):
        return None


def describe(cpuinfo: str = "/proc/cpuinfo") -> dict[str, Any]:
    """The CPU (model name, family, model, the features that matter), cores, libraries and the
    load average when it was read."""
    info = _cpuinfo(cpuinfo)
    flags = set(info.get("flags", "").split())
    return {
        "cpu": info.get("model name") or platform.processor() or platform.machine(),
        "vendor": info.get("vendor_id"),
        "family": int(info["cpu family"]) if info.get("cpu family", "").isdigit() else None,
        "model": int(info["model"]) if info.get("model", "").isdigit() else None,
        "features": [f for f in FEATURES if f in flags],
        "cores": available_cores(),
        "rust_core_simd": simd_level(),
        "numpy": np.__version__,
        "blas": _blas(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "env": {k: os.environ[k] for k in ENV if k in os.environ},
        # On a shared host the load says how far to trust the run.
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def slug(machine: dict[str, Any]) -> str:
    """A file-name form of the CPU kind, e.g. ``amd-epyc-f25m17-avx512``: the model name alone
    does not tell a Zen 3 from a Zen 4 on these virtual machines, family and model do."""
    name = re.sub(r"[^a-z0-9]+", "-", str(machine["cpu"]).lower()).strip("-") or "cpu"
    parts = [name]
    if machine.get("family") is not None and machine.get("model") is not None:
        parts.append(f"f{machine['family']}m{machine['model']}")
    features = machine.get("features", [])
    parts.append("avx512" if "avx512f" in features else "avx2" if "avx2" in features else "x86-64")
    return "-".join(parts)


def record_path(directory: str | Path, machine: dict[str, Any], day: date | None = None) -> Path:
    return Path(directory) / f"{(day or date.today()).isoformat()}-{slug(machine)}.json"


def record(directory: str | Path, section: str, data: dict[str, Any]) -> Path:
    """Write ``data`` as ``section`` ("race" or "goals") of today's file for this machine, keeping
    the file's other section: a later run the same day replaces only what it ran."""
    machine = describe()
    path = record_path(directory, machine)
    path.parent.mkdir(parents=True, exist_ok=True)
    kept: dict[str, Any] = {}
    if path.exists():
        kept = json.loads(path.read_text(encoding="utf-8"))
    kept.update({"machine": machine, section: data})
    path.write_text(json.dumps(kept, indent=2) + "\n", encoding="utf-8")
    return path
