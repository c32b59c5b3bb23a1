"""Independent parts of one job run side by side, each on one thread.

A batch of texts through MiniLM is a chain of about 50 kernel calls. Split inside each call over
two cores, every call ends by waiting for the slower half, and each core reads activations the
other one wrote. Cut into parts that run whole on their own threads instead (a part's calls on
that thread alone: ``Backend.on_this_thread``), the parts never wait for each other and each
keeps its activations in its own core's cache: MiniLM's 8 texts × 128 tokens as two parts of 4
took 82.9 ms against 90.3 (docs/performance.md). The caller decides how many parts there are
(one a thread at most), and that the parts' results do not depend on the cut.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from typing import TypeVar

from transformer_walk.core import Backend

T = TypeVar("T")

_lock = threading.Lock()
#: One pool of Python threads per number of parts, kept for the process: a new thread starts on
#: its parent's core, and the OS takes milliseconds to move it to a free one. Never shut down, so
#: no caller can find its pool closed between choosing it and handing it parts.
_pools: dict[int, ThreadPoolExecutor] = {}
#: Set on a pool's threads while they run a part: a part that asks for parts of its own runs them
#: in place, instead of queueing them behind itself on the pool it holds.
_in_part = threading.local()


def _pool(size: int) -> ThreadPoolExecutor:
    with _lock:
        if size not in _pools:
            _pools[size] = ThreadPoolExecutor(size, thread_name_prefix="side_by_side")
        return _pools[size]


def run_side_by_side(be: Backend, work: Callable[[T], None], parts: Sequence[T]) -> None:
    """``work(part)`` for each of ``parts``: with two or more, side by side on threads of their
    own, each part's calls on its thread alone (``be.on_this_thread``); with one, here, where its
    calls may use every thread. An exception in a part is raised here, once every part has
    ended."""
    if len(parts) < 2 or getattr(_in_part, "active", False):
        for part in parts:
            work(part)
        return

    def alone(part: T) -> None:
        _in_part.active = True
        try:
            with be.on_this_thread():
                work(part)
        finally:
            _in_part.active = False

    pool = _pool(len(parts))
    futures = [pool.submit(alone, part) for part in parts]
    wait(futures)  # every part ends before any part's error is raised
    for future in futures:
        future.result()
