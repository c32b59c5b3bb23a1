"""Arrays for a model's weights in one block of memory that Linux may back with 2 MB pages.

A forward on a few tokens is mostly reading weights once; in 4 KB pages MiniLM's 42.5 MB of
Linear weights span some 10,000 pages, each an address translation and a point where the
hardware prefetcher stops, in 2 MB pages 21 (docs/performance.md has the measurements).

The block is a private anonymous mapping advised with MADV_HUGEPAGE, which Linux honours when
transparent huge pages are "always" or "madvise" (the default of most distributions) and ignores
when they are "never"; elsewhere it is ordinary memory. Either way the arrays hold the same
values. A loader reads its file straight into them, a few MB at a time, so that loading never
holds a second copy of the weights.
"""

from __future__ import annotations

import math
import mmap
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

#: The size of the pages asked for (x86-64 Linux, and arm64 with 4 KB base pages).
LARGE_PAGE = 2 << 20
#: Every array starts at a multiple of this: a cache line, and the kernels' widest load.
ALIGN = 64


def large_page_arrays(
    shapes: Mapping[str, tuple[int, ...]], dtype: npt.DTypeLike = np.float32
) -> dict[str, np.ndarray]:
    """Zeroed, writable, C-contiguous arrays of ``shapes`` (same keys, same order), one after
    the other in one block advised for 2 MB pages, each starting ``ALIGN``-byte aligned. The
    caller fills them and, for a model's weights, makes them read-only: writing the values
    straight in, rather than copying finished arrays, means a loader never holds a second copy
    of the weights."""
    dtype = np.dtype(dtype)
    spans, end = {}, 0  # key → (first byte, bytes)
    for key, shape in shapes.items():
        nbytes = math.prod(shape) * dtype.itemsize
        spans[key] = (end, nbytes)
        end += -(-nbytes // ALIGN) * ALIGN  # rounded up to ALIGN
    block = _advised_block(end)
    # (nbytes,) uint8 → (size,) of dtype → shape
    return {
        key: block[start : start + nbytes].view(dtype).reshape(shapes[key])
        for key, (start, nbytes) in spans.items()
    }


def _advised_block(nbytes: int) -> np.ndarray:
    """``nbytes`` of zeroed memory (uint8) from a ``LARGE_PAGE`` boundary on, advised for large
    pages before any of it is touched: a page first touched small stays small. MemoryError when
    the system cannot map that much."""
    size = nbytes + LARGE_PAGE  # room to start on a boundary
    try:
        if hasattr(mmap, "MAP_PRIVATE"):  # POSIX
            # Private: for fd −1 Python maps shared memory by default, which Linux backs with
            # shmem pages, not (by default) transparent huge pages. The arrays' base keeps the
            # mapping alive.
            mapping = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        else:
            mapping = mmap.mmap(-1, size)
    except OSError as error:  # ENOMEM; callers expect what NumPy raises for too big an array
        raise MemoryError(f"cannot map {size:,} bytes for the weights: {error}") from error
    if hasattr(mmap, "MADV_HUGEPAGE"):  # Linux
        try:
            mapping.madvise(mmap.MADV_HUGEPAGE)
        except OSError:  # EINVAL: a kernel without transparent huge pages; the advice is optional
            pass
    whole = np.frombuffer(mapping, dtype=np.uint8)
    start = -whole.ctypes.data % LARGE_PAGE  # the first 2 MB boundary in the mapping
    return whole[start : start + nbytes]
