"""Independent parts of one job run side by side, each on one thread.

A batch of texts through MiniLM is a chain of about 50 kernel calls. Split inside each call over
two cores, every call ends by waiting for the slower half, and each core reads activations the
other one wrote. Cut into parts that run whole on their own threads instead (a part's calls on
that thread alone: ``Backend.on_this_thread``), the parts never wait for each other and each
keeps its activations in its own core's cache: MiniLM's 8 texts × 128 tokens as two parts of 4
took 83.6 ms against 90.1 (docs/performance.md). The parts run the same kernels on the same rows,
so the results are the same bits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from transformer_walk.core import Backend

T = TypeVar("T")

_lock = threading.Lock()
_pool: tuple[int, ThreadPoolExecutor] | None = None  # (its threads, the pool)


def _workers(threads: int) -> ThreadPoolExecutor:
    """A pool of ``threads`` Python threads, kept between calls: a new thread starts on its
    parent's core, and the OS takes milliseconds to move it to a free one."""
    global _pool
    with _lock:
        if _pool is None or _pool[0] != threads:
            if _pool is not None:
                _pool[1].shutdown(wait=False)  # its queued parts still run; then its threads exit
            _pool = (threads, ThreadPoolExecutor(threads, thread_name_prefix="side_by_side"))
        return _pool[1]


def run_side_by_side(be: Backend, work: Callable[[T], None], parts: Sequence[T]) -> None:
    """``work(part)`` for each of ``parts``: on ``be``'s threads side by side, each part's calls
    on its thread alone, when the backend has more than one thread and there is more than one
    part; else one after another here. An exception in a part is raised here, once every part
    has ended."""
    threads = be.get_num_threads()
    if threads < 2 or len(parts) < 2:
        for part in parts:
            work(part)
        return

    def alone(part: T) -> None:
        with be.on_this_thread():
            work(part)

    futures = [_workers(threads).submit(alone, part) for part in parts]
    for future in futures:
        future.exception()  # wait for every part before raising any part's error
    for future in futures:
        future.result()
