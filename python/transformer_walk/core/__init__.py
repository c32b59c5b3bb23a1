"""Three interchangeable implementations of the rust_core API.

``get_backend(name)`` returns a ``Backend`` (``core.backend``): an object with exactly the functions
of ``rust_core`` (same names, arguments, semantics and errors), taking and returning NumPy arrays:

- ``"python"``: Python floats, lists and ``math`` only (NumPy is touched at the edges, to read the
  input and build the result);
- ``"numpy"``: idiomatic vectorised NumPy;
- ``"rust"``: the compiled ``rust_core`` extension.

They are each other's test oracles and the three lanes of every speed comparison.
"""

from __future__ import annotations

from transformer_walk.core.backend import Backend

BACKENDS: tuple[str, ...] = ("python", "numpy", "rust")


def get_backend(name: str) -> Backend:
    """Return the backend called ``name`` (one of ``BACKENDS``), imported on first use.

    Each ``return`` hands a module to a ``Backend``, which is where mypy checks that module's
    functions against the Protocol (``rust_core`` through its stub).
    """
    if name == "python":
        from transformer_walk.core import python_backend

        return python_backend
    if name == "numpy":
        from transformer_walk.core import numpy_backend

        return numpy_backend
    if name == "rust":
        import rust_core

        return rust_core
    raise ValueError(f"unknown backend {name!r}; expected one of {', '.join(BACKENDS)}")


__all__ = ["BACKENDS", "Backend", "get_backend"]
