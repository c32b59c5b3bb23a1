"""Which backends can be imported right now, and which one to use by default.

The Rust backend exists only once ``rust_core`` has been compiled and installed, so the app and the
benchmark ask here first instead of letting an ``ImportError`` reach the learner.
"""

from __future__ import annotations

from dataclasses import dataclass

from transformer_walk.core import BACKENDS, get_backend
from transformer_walk.core.backend import Backend, missing_kernels

# Preferred first: the compiled core is what the app is built to show off; NumPy is the fallback
# because it is always fast enough for every page.
PREFERENCE: tuple[str, ...] = ("rust", "numpy", "python")


@dataclass(frozen=True)
class BackendStatus:
    name: str
    module: Backend | None
    error: str | None  # why the import failed; None when the backend is usable

    @property
    def available(self) -> bool:
        return self.module is not None


def backend_status(name: str) -> BackendStatus:
    """Try to import one backend and report the outcome instead of raising."""
    try:
        module = get_backend(name)
    except ImportError as exc:  # ModuleNotFoundError included
        return BackendStatus(name, None, f"{type(exc).__name__}: {exc}")
    # Every function of the Protocol: an import can "succeed" without them.
    missing = missing_kernels(module)
    if missing:
        # From the repository root, the Cargo crate directory rust_core/ imports as an empty
        # namespace package when the extension is not installed.
        where = getattr(module, "__file__", None) or list(getattr(module, "__path__", []))
        module_name = getattr(module, "__name__", name)
        return BackendStatus(name, None, f"{module_name} ({where}) lacks {', '.join(missing)}")
    return BackendStatus(name, module, None)


def backend_statuses() -> dict[str, BackendStatus]:
    """Status of every backend, in the order of ``BACKENDS``."""
    return {name: backend_status(name) for name in BACKENDS}


def available_backends() -> list[str]:
    return [name for name, status in backend_statuses().items() if status.available]


def default_backend(available: list[str] | None = None) -> str | None:
    """``rust`` when importable, else ``numpy``, else ``python``; None if nothing imports."""
    names = available_backends() if available is None else available
    return next((name for name in PREFERENCE if name in names), None)


def backend_version(module: Backend) -> str | None:
    """The module's ``__version__`` if it has one (``rust_core`` does)."""
    version = getattr(module, "__version__", None)
    return str(version) if version is not None else None
