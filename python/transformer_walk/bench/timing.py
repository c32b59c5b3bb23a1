"""How one call is timed, on a clock a test can replace; the deadline; the thread-count lock.

``measure`` is the one timing helper of the package: the Speed page's race, the Cost page's
attention curve and the goals all time through it. It warms up (the first calls pay for caches
and thread start-up, not for the kernel), loops calls faster than ``MIN_SAMPLE_S`` inside a
sample so the clock's resolution does not dominate, and starts a call only when the time it is
expected to take (the first call's) still fits before the stop: a budget, a deadline, or both.
"""

from __future__ import annotations

import contextlib
import math
import os
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from transformer_walk.core import Backend

# Unbudgeted calls keep warming up until this much time has passed: a thread pool's new threads
# start on one core and the OS spreads them out only after some milliseconds of work.
MIN_WARMUP_S = 0.1
# A sample shorter than this is mostly timer noise, so fast calls are looped inside one sample.
MIN_SAMPLE_S = 2e-3
MAX_CALLS_PER_SAMPLE = 10_000
# After a NumPy call, OpenBLAS's worker threads keep spinning for a while (its "thread timeout"),
# holding cores the next lane would use: the multi-threaded Rust lane then measured no faster than
# one thread. A pause after NumPy lets them go idle first.
BLAS_SETTLE_S = 0.2


class Clock(Protocol):
    """Where time comes from: the system's, or a test's fake that advances only when told."""

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    def now(self) -> float:
        return time.perf_counter()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


SYSTEM_CLOCK: Clock = SystemClock()


@dataclass(frozen=True)
class Deadline:
    """A moment on ``clock`` after which no more work starts (``at=None``: never)."""

    at: float | None
    clock: Clock = SYSTEM_CLOCK

    @classmethod
    def after(cls, seconds: float | None, clock: Clock = SYSTEM_CLOCK) -> Deadline:
        return cls(None if seconds is None else clock.now() + seconds, clock)

    def passed(self) -> bool:
        return self.at is not None and self.clock.now() >= self.at

    def allows(self, seconds: float) -> bool:
        """Whether work expected to take ``seconds`` would end by the deadline if started now."""
        return self.at is None or self.clock.now() + seconds <= self.at


@dataclass
class Measurement:
    samples_s: list[float]  # time per call of each sample
    calls_per_sample: int
    output: Any  # what the first call returned

    @property
    def median_s(self) -> float:
        return statistics.median(self.samples_s)


def time_call(call: Callable[[], Any], clock: Clock = SYSTEM_CLOCK) -> tuple[float, Any]:
    """(seconds, output) of one call: the atom ``measure`` is made of."""
    start = clock.now()
    output = call()
    return clock.now() - start, output


def measure(
    call: Callable[[], Any],
    *,
    repeats: int,
    warmup: int = 1,
    min_warmup_s: float = MIN_WARMUP_S,
    budget_s: float | None = None,
    deadline: float | None = None,
    settle_s: float = 0.0,
    clock: Clock = SYSTEM_CLOCK,
) -> Measurement:
    """Up to ``repeats`` samples of ``call`` after ``warmup`` calls (and ``min_warmup_s`` of them),
    each sample after an untimed pause of ``settle_s`` (see ``BLAS_SETTLE_S``).

    The first warm-up call doubles as a probe of how long one call takes. Nothing more starts once
    it would end past ``budget_s`` after the start or past ``deadline`` (a ``clock.now()`` value):
    the warm-up is cut short, then the samples; when not even one sample fits, the probe is the
    only sample. So past the stop, at most the probe itself runs over.
    """
    start = clock.now()
    probe, output = time_call(call, clock)
    stops = [t for t in (deadline, None if budget_s is None else start + budget_s) if t is not None]
    stop = min(stops, default=None)

    def fits(seconds: float) -> bool:
        return stop is None or clock.now() + seconds <= stop

    for _ in range(warmup - 1):
        if not fits(probe):
            return Measurement([probe], 1, output)
        call()
    warm_until = clock.now() + min_warmup_s
    while clock.now() < warm_until and fits(probe):
        call()
    calls = (
        1
        if probe >= MIN_SAMPLE_S
        else min(MAX_CALLS_PER_SAMPLE, math.ceil(MIN_SAMPLE_S / max(probe, 1e-9)))
    )
    samples: list[float] = []
    while len(samples) < repeats and fits(settle_s + probe * calls):
        if settle_s:
            clock.sleep(settle_s)
        begin = clock.now()
        for _ in range(calls):
            call()
        samples.append((clock.now() - begin) / calls)
    if not samples:
        return Measurement([probe], 1, output)
    return Measurement(samples, calls, output)


def available_cores() -> int:
    """Cores this process may run on (the affinity mask, not the machine's total)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


#: Held while a measurement has changed rust_core's (process-wide) thread count. The app serves
#: many sessions from one process: two sessions measuring at once (Speed, Cost) would otherwise
#: interleave their save and restore and could leave the pool at 1 thread for everybody.
THREAD_COUNT_LOCK = threading.RLock()


@contextlib.contextmanager
def threads(module: Backend, n: int) -> Iterator[None]:
    """Run with the backend's pool at ``n`` threads, then put the old size back."""
    with THREAD_COUNT_LOCK:
        previous = module.get_num_threads()
        module.set_num_threads(n)
        try:
            yield
        finally:
            module.set_num_threads(previous)


@contextlib.contextmanager
def one_thread(rust: Backend | None) -> Iterator[bool]:
    """NumPy and Rust both on one thread, a like-for-like race (and the steadiest on a shared
    machine): rust_core's pool is set to 1 and restored after; NumPy's BLAS is limited through
    threadpoolctl when that is installed. Yields whether NumPy could be limited."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # optional: without it NumPy keeps its BLAS's own thread count
        threadpool_limits = None
    limiter = threadpool_limits(1) if threadpool_limits else contextlib.nullcontext()
    pool = threads(rust, 1) if rust is not None else contextlib.nullcontext()
    with pool, limiter:
        yield threadpool_limits is not None
