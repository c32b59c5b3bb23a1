"""Reading a GGUF file: its metadata and its tensors, as the file stores them.

GGUF (llama.cpp's format) is a header of typed key/value metadata (the sizes, the tokenizer's
vocabulary and merges, the chat template), a table of tensors (name, ggml type, dimensions,
offset) and the tensors' bytes. The ``gguf`` package (llama.cpp's own reader) parses it and
memory-maps the file, so the 98 MB of weights are read from disk only when a product needs them,
and opening is done once per file per process (``open_gguf`` caches it until the file changes).

Tensors stay in the file's encoding (``GGUFTensor``): a quantized matrix is raw ggml blocks, uint8
[rows, bytes per row], which the backend's ``dequantize`` and ``quantized_linear`` read as they
are. The kinds this code handles:

    q4_1   blocks of 32 weights: a float16 scale d and minimum m, then 32 4-bit q (16 bytes):
           w = d · q + m; 20 bytes a block (5 bits a weight)
    q8_0   blocks of 32 weights: a float16 scale d, then 32 int8 q: w = d · q; 34 bytes a block
    f32    plain float32 (SmolLM2's RMSNorm weights)
    f16    plain float16, widened to float32 when read
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

#: Quantized kinds: weights a block, bytes a block.
BLOCKS: dict[str, tuple[int, int]] = {"q4_1": (32, 20), "q8_0": (32, 34)}
#: Plain float kinds, read into float32 arrays.
FLOATS: dict[str, np.dtype] = {"f32": np.dtype(np.float32), "f16": np.dtype(np.float16)}
#: Every kind a tensor may have here, by ggml's name of the type.
KINDS = {"Q4_1": "q4_1", "Q8_0": "q8_0", "F32": "f32", "F16": "f16"}


class GGUFError(ValueError):
    """The file is not a GGUF file this code can read (the loader adds the file and a hint)."""


@dataclass(frozen=True)
class GGUFTensor:
    """One tensor as the file stores it.

    ``shape`` is the logical shape in PyTorch's order, [out, in] for a matrix (GGUF lists its
    dimensions innermost first, [in, out]). ``data`` is, for a quantized kind, the raw blocks,
    uint8 [rows, bytes per row] with rows = the product of all but the last dimension; for a
    float kind, float32 of ``shape``. Quantized data is a read-only view of the memory-mapped
    file, never a copy.
    """

    name: str
    kind: str  # "q4_1", "q8_0" or "f32" (an f16 tensor is widened and reported as "f32")
    shape: tuple[int, ...]
    data: np.ndarray

    @property
    def quantized(self) -> bool:
        return self.kind in BLOCKS

    @property
    def nbytes(self) -> int:
        """Bytes in memory (for a quantized tensor, in the file): 4.5 or 5 bits a weight."""
        return int(self.data.nbytes)


@dataclass(frozen=True)
class GGUFFile:
    """A parsed GGUF file: ``metadata`` key → Python value (str, int, float, bool, or a list of
    them), ``tensors`` name → GGUFTensor, in the file's order."""

    path: Path
    metadata: Mapping[str, Any]
    tensors: Mapping[str, GGUFTensor]


def _tensor(name: str, type_name: str, dims: tuple[int, ...], raw: np.ndarray) -> GGUFTensor:
    """A GGUFTensor from the reader's view of it; GGUFError for a kind this code cannot read or
    bytes that do not fit the dimensions."""
    kind = KINDS.get(type_name)
    if kind is None:
        raise GGUFError(
            f"tensor {name!r} is of ggml type {type_name}, which this code does not read "
            f"(it reads {', '.join(KINDS)})"
        )
    shape = tuple(reversed(dims))  # GGUF: innermost first → PyTorch's [out, in]
    if kind in FLOATS:
        values = raw.view(FLOATS[kind]) if raw.dtype != FLOATS[kind] else raw
        if values.size != int(np.prod(shape)):
            raise GGUFError(f"tensor {name!r} holds {values.size} values for dimensions {shape}")
        # (…) → shape; float16 widened once, here, so every product is float32.
        dense = np.ascontiguousarray(values.reshape(shape), np.float32)
        return GGUFTensor(name, "f32", shape, dense)
    per_block, block_bytes = BLOCKS[kind]
    if not shape or shape[-1] % per_block:
        raise GGUFError(
            f"tensor {name!r} ({kind}) has rows of {shape[-1] if shape else 0} weights, not a "
            f"multiple of its blocks of {per_block}"
        )
    rows = int(np.prod(shape[:-1]))
    row_bytes = shape[-1] // per_block * block_bytes
    if raw.dtype != np.uint8 or raw.size != rows * row_bytes:
        raise GGUFError(
            f"tensor {name!r} ({kind}, {shape}) holds {raw.nbytes} bytes, expected "
            f"{rows * row_bytes}: the file is damaged"
        )
    return GGUFTensor(name, kind, shape, raw.reshape(rows, row_bytes))  # → [rows, row bytes]


def read_gguf(path: Path) -> GGUFFile:
    """Parse ``path`` (not cached: ``open_gguf`` is). Raises OSError when it cannot be read and
    GGUFError when it is not a GGUF file, is cut short or holds a tensor kind not in ``KINDS``."""
    from gguf import GGUFReader  # heavy (0.4 s): imported when a model is loaded

    try:
        reader = GGUFReader(path)
    except OSError:
        raise
    except Exception as error:  # the reader raises ValueError, IndexError, … on a damaged file
        raise GGUFError(f"not a readable GGUF file ({type(error).__name__}: {error})") from error
    try:
        metadata = {
            name: field.contents()
            for name, field in reader.fields.items()
            if not name.startswith("GGUF.")  # the header's own counts, not metadata
        }
    except (UnicodeDecodeError, ValueError, IndexError) as error:
        raise GGUFError(f"its metadata cannot be read ({error}): the file is damaged") from error
    tensors = {}
    for t in reader.tensors:
        dims = tuple(int(s) for s in t.shape)
        tensors[t.name] = _tensor(t.name, t.tensor_type.name, dims, t.data)
    return GGUFFile(path, metadata, tensors)


# (resolved path, mtime_ns, size) → the parsed file: the reader's 3 s of parsing, once.
_OPEN: dict[tuple[str, int, int], GGUFFile] = {}


def open_gguf(path: str | os.PathLike[str]) -> GGUFFile:
    """``read_gguf(path)``, parsed once per process and kept until the file changes on disk."""
    file = Path(path)
    stat = file.stat()
    key = (str(file.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _OPEN:
        _OPEN[key] = read_gguf(file)
    return _OPEN[key]
