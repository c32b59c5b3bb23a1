"""Three interchangeable implementations of the rust_core API.

``get_backend(name)`` returns an object with exactly the functions of ``rust_core`` (same names,
arguments, semantics and errors), taking and returning NumPy arrays:

- ``"python"``: Python floats, lists and ``math`` only (NumPy is touched at the edges, to read the
  input and build the result);
- ``"numpy"``: idiomatic vectorised NumPy;
- ``"rust"``: the compiled ``rust_core`` extension.

They are each other's test oracles and the three lanes of every speed comparison.
"""

from __future__ import annotations

import importlib
from types import ModuleType

BACKENDS: tuple[str, ...] = ("python", "numpy", "rust")

_MODULES = {
    "python": "transformer_walk.core.python_backend",
    "numpy": "transformer_walk.core.numpy_backend",
    "rust": "rust_core",
}


def get_backend(name: str) -> ModuleType:
    """Return the backend called ``name`` (one of ``BACKENDS``)."""
    if name not in _MODULES:
        raise ValueError(f"unknown backend {name!r}; expected one of {', '.join(BACKENDS)}")
    return importlib.import_module(_MODULES[name])


__all__ = ["BACKENDS", "get_backend"]
