"""The errors both real models raise while loading, defined once.

``models.minilm`` and ``models.smollm2`` re-export them (``minilm.WeightsError is
smollm2.WeightsError``): a caller catches one class whichever model it loads. Each loader's
``LOAD_ERRORS`` lists what it raises; every message starts with the file at fault, says what is
wrong with it and ends with a hint, what to do.
"""

from __future__ import annotations

from pathlib import Path


class WeightsError(ValueError):
    """A model file is there but is not the expected one — its checksum, format, metadata or
    config, tensors (names, shapes, dtypes, finite values) or tokenizer — or it cannot be read
    for a reason other than permissions."""


class ConfigError(ValueError):
    """A model's config (MiniLM's config.json, SmolLM2's GGUF metadata) describes no model this
    code can run; the loader turns it into a WeightsError naming the file."""


def unreadable(path: Path, error: OSError, hint: str) -> Exception:
    """The loaders' exception for an OSError met while reading ``path``: PermissionError,
    FileNotFoundError (the file was there a moment ago) or WeightsError, ending with ``hint``."""
    if isinstance(error, PermissionError):
        return PermissionError(
            f"{path} cannot be read (permission denied): let the user running the app read it, "
            f"or copy the model's files to a directory it can read; {hint}"
        )
    if isinstance(error, FileNotFoundError):
        return FileNotFoundError(f"{path} not found (it vanished while loading); {hint}")
    return WeightsError(f"{path} cannot be read ({error.strerror or error}); {hint}")
