"""Shared test setup: the backend parameter lists.

The "rust" lane is always listed. When ``rust_core`` cannot be imported (not built into this
environment) its parameters are marked *skipped* with the reason "rust_core is not built", so a
missing extension shows up in the test report instead of silently shrinking the matrix.
"""

from __future__ import annotations

import itertools
import os

import pytest
from hypothesis import settings

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


@pytest.fixture(params=BACKEND_NAMES)
def backend_name(request: pytest.FixtureRequest) -> str:
    """Each backend name in turn ("rust" skipped when not built)."""
    return request.param
