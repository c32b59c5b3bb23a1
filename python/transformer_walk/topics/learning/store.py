"""Trained studies kept in files, so that a later server reads them instead of training again.

A file is named by a hash of what its numbers depend on: the settings, the backend, the code
that trains and measures (its source files) and NumPy's version — training is seeded and
deterministic on a machine. A file that is missing, damaged or written for other settings is not
used (``read`` returns None and the caller trains). Files hold plain arrays
(``np.load(allow_pickle=False)``), never pickles; they are written atomically.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np

#: Bumped when the layout of the files changes.
FORMAT = 1


def file_name(kind: str, settings: str, code: Iterable[str]) -> str:
    """``kind-<hash>.npz`` for ``settings`` (a repr) computed by the source files ``code``."""
    digest = hashlib.sha256(f"format {FORMAT}\n{settings}\nnumpy {np.__version__}\n".encode())
    for source in code:
        digest.update(Path(source).read_bytes())
    return f"{kind}-{digest.hexdigest()[:24]}.npz"


def write(path: Path, arrays: Mapping[str, np.ndarray]) -> Path:
    """Write ``arrays`` to ``path`` so that a reader never sees half a file. OSError if the
    directory cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            np.savez(file, **arrays)  # type: ignore[arg-type]
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def read(path: Path) -> dict[str, np.ndarray] | None:
    """Every array of ``path``, or None when it is missing or damaged."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in data.files}
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        return None
