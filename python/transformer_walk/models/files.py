"""What both real models do with their weight files: a sha256 streamed in chunks and kept until
the file changes (MiniLM's 90 MB safetensors, SmolLM2's 98 MB GGUF are hashed once per process)."""

from __future__ import annotations

import hashlib
from pathlib import Path

# (resolved path, mtime_ns, size) → hex digest
_SHA256_CACHE: dict[tuple[str, int, int], str] = {}


def file_sha256(file: Path, chunk_size: int = 1 << 20) -> str:
    """sha256 of ``file``, streamed in chunks and cached until the file changes."""
    stat = file.stat()
    key = (str(file.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _SHA256_CACHE:
        digest = hashlib.sha256()
        with file.open("rb") as handle:
            while chunk := handle.read(chunk_size):
                digest.update(chunk)
        _SHA256_CACHE[key] = digest.hexdigest()
    return _SHA256_CACHE[key]
