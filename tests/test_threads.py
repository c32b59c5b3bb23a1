"""rust_core's thread pool: results independent of the thread count, the GIL released, and calls
from several Python threads at once that are correct and really overlap."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest

rust_core = pytest.importorskip("rust_core", reason="rust_core is not built")


@pytest.fixture(autouse=True)
def restore_threads():
    before = rust_core.get_num_threads()
    yield
    rust_core.set_num_threads(before)


def _inputs(seed: int = 0, dtype=np.float32):
    rng = np.random.default_rng(seed)
    # Sizes above the parallel threshold, with n not a multiple of any task size.
    q = rng.standard_normal((2, 3, 301, 32)).astype(dtype)
    k = rng.standard_normal((2, 3, 257, 32)).astype(dtype)
    v = rng.standard_normal((2, 3, 257, 24)).astype(dtype)
    x = rng.standard_normal((1031, 129)).astype(dtype) * 20
    table = rng.standard_normal((5000, 96)).astype(dtype)
    ids = rng.integers(0, 5000, size=(1000, 130))  # 12.5M numbers: the parallel copy
    return q, k, v, x, table, ids


def _all_ops(q, k, v, x, table, ids):
    return [
        rust_core.attention(q, k, v),
        rust_core.attention(q, k, v, causal=True),
        rust_core.attention_weights(q, k, mask=np.tril(np.ones((301, 257), bool))),
        *rust_core.attention_with_weights(q, k, v, mask=np.tril(np.ones((301, 257), bool))),
        rust_core.softmax(x),
        rust_core.softmax(x, axis=0),
        rust_core.embedding_lookup(table, ids),
    ]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_results_do_not_depend_on_the_number_of_threads(dtype):
    inputs = _inputs(dtype=dtype)
    rust_core.set_num_threads(1)
    one = _all_ops(*inputs)
    for n in (2, 3, 8):
        rust_core.set_num_threads(n)
        assert rust_core.get_num_threads() == n
        for a, b in zip(one, _all_ops(*inputs), strict=True):
            np.testing.assert_array_equal(a, b)  # bitwise: each row is computed by one thread


def test_concurrent_calls_from_python_threads_are_correct():
    inputs = _inputs(seed=1)
    expected = _all_ops(*inputs)
    errors: list[BaseException] = []

    def worker(i: int):
        try:
            rust_core.set_num_threads(1 + i % 3)  # resize the pool while other calls run
            for _ in range(3):
                for a, b in zip(expected, _all_ops(*inputs), strict=True):
                    np.testing.assert_array_equal(a, b)
        except BaseException as e:  # noqa: BLE001 - reported to the main thread below
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a call deadlocked"
    assert not errors, errors[0]


def _long_attention(min_seconds: float = 0.2):
    """q, k, v for an attention call that takes at least ``min_seconds`` on one thread (the kernel
    is fast, so the size is found by doubling rather than guessed)."""
    rng = np.random.default_rng(2)
    rust_core.set_num_threads(1)
    n = 1024
    while True:
        q = rng.standard_normal((1, 4, n, 64)).astype(np.float32)
        start = time.perf_counter()
        rust_core.attention(q, q, q)
        if time.perf_counter() - start >= min_seconds or n >= 1 << 16:
            return q, q.copy(), q.copy()
        n *= 2


@pytest.mark.parametrize("fn", ["attention", "attention_with_weights"])
def test_the_gil_is_released_during_compute(fn):
    """While one thread is inside rust_core, another keeps running Python bytecode.

    If the GIL were held for the whole call, the counter could not move until the call returned.
    """
    q, k, v = _long_attention()
    rust_core.set_num_threads(1)

    done = threading.Event()
    ticks_during_call = 0

    def call():
        getattr(rust_core, fn)(q, k, v)
        done.set()

    t = threading.Thread(target=call)
    t.start()
    while not done.is_set():
        ticks_during_call += 1
        time.sleep(0)  # yield the GIL, as any Python code eventually does
    t.join()
    assert ticks_during_call > 100


def test_calls_from_two_python_threads_overlap():
    """While one Python thread is inside a long single-threaded call, calls from a second thread
    start and return, many of them: neither the GIL nor any lock of rust_core's holds the second
    thread up until the first call ends. (Judged by order of events, not by a clock: with calls
    serialised, at most one short call could slip in between the long call's end and its thread
    saying so.)"""
    q, k, v = _long_attention()
    rust_core.set_num_threads(1)
    small = q[:, :, :8].copy()
    started, finished = threading.Event(), threading.Event()

    def long_call():
        started.set()
        rust_core.attention(q, k, v)
        finished.set()

    t = threading.Thread(target=long_call)
    t.start()
    assert started.wait(10)
    during = 0
    while not finished.is_set():
        rust_core.attention(small, small, small)
        during += not finished.is_set()
    t.join()
    assert during >= 10, f"only {during} short call(s) returned during the long one"


def _pool_cpu_ticks() -> dict[int, int]:
    """CPU time (clock ticks) so far of each thread of rust_core's pool, by thread id."""
    ticks = {}
    for task in Path("/proc/self/task").iterdir():
        if (task / "comm").read_text().startswith("rust_core"):
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            ticks[int(task.name)] = int(fields[11]) + int(fields[12])  # utime + stime
    return ticks


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_one_big_call_runs_on_several_pool_threads():
    """Per-thread CPU accounting (not timing, so a busy machine does not matter): during one call
    on a two-thread pool, both pool threads do work."""
    q, k, v = _long_attention()
    rust_core.set_num_threads(2)
    rust_core.attention(q[:, :, :64], k[:, :, :64], v[:, :, :64])  # start the pool's threads
    before = _pool_cpu_ticks()
    rust_core.attention(q, k, v)
    after = _pool_cpu_ticks()
    busy = [tid for tid in after if after[tid] > before.get(tid, 0)]
    assert len(busy) >= 2, f"only {len(busy)} pool thread(s) did work: {before} → {after}"


def test_default_thread_count_comes_from_the_environment():
    import subprocess
    import sys

    code = "import rust_core; print(rust_core.get_num_threads())"
    env = {**os.environ, "RUST_CORE_NUM_THREADS": "3"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "3", out.stderr


SIZES_THEN_COUNT = """
import os, time
import numpy as np
import rust_core

def comm(task):
    # A thread may exit between the listing and the read (a replaced pool's threads do): skip it.
    try:
        with open(task.path + "/comm") as f:
            return f.read()
    except (FileNotFoundError, ProcessLookupError):
        return None

def threads(prefix=""):
    names = [comm(t) for t in os.scandir("/proc/self/task")]
    return sum(n is not None and n.startswith(prefix) for n in names)

def settled(check):
    # A new pool's threads name themselves once they start, and a replaced pool's threads exit
    # on their own soon after it is dropped: wait for both.
    for _ in range(500):
        if check():
            return True
        time.sleep(0.01)
    return False

x = np.ones((512, 1024), np.float32)  # 16M operations: the pool runs it
for n in range(1, 41):
    rust_core.set_num_threads(n)
    rust_core.softmax(x)
settled(lambda: threads("rust_core") == 40)
print(threads(), threads("rust_core"))
rust_core.set_num_threads(1)  # one thread needs no pool; the last one stays for the next 40
rust_core.softmax(x)
settled(lambda: threads("rust_core") == 40)
print(threads("rust_core"))
rust_core.set_num_threads(2)
rust_core.softmax(x)
settled(lambda: threads("rust_core") == 2)
print(threads("rust_core"))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
def test_trying_many_pool_sizes_leaves_one_pool():
    """Guards against pools kept for every size ever set: sizes 1 to 40, each with a call on the
    pool, left 822 threads alive. Now at most 48 threads remain (40 of them the pool's), the
    40-thread pool survives a switch to one thread, and a new size replaces it."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "RUST_CORE_NUM_THREADS"}
    out = subprocess.run(
        [sys.executable, "-c", SIZES_THEN_COUNT], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    total, pool, kept, replaced = (int(w) for w in out.stdout.split())
    assert total <= 48 and pool == 40, out.stdout
    assert kept == 40 and replaced == 2, out.stdout


PIN_REPORT = """
import os
import rust_core

rust_core.set_num_threads(2)  # returns once its threads have started (and pinned themselves)
pool = [t.name for t in os.scandir("/proc/self/task")
        if open(t.path + "/comm").read().startswith("rust_core")]
print(len(os.sched_getaffinity(0)), *sorted(len(os.sched_getaffinity(int(t))) for t in pool))
"""


@pytest.mark.skipif(
    not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="needs Linux and two cores",
)
@pytest.mark.parametrize("pin", [None, "1", "0"])
def test_pool_threads_are_pinned_unless_rust_core_pin_is_0(pin):
    """Each thread of a two-thread pool runs on one core of its own, unless RUST_CORE_PIN=0, which
    leaves every core to each of them (the OS places them)."""
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "RUST_CORE_PIN"}
    if pin is not None:
        env["RUST_CORE_PIN"] = pin
    out = subprocess.run(
        [sys.executable, "-c", PIN_REPORT], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    cores, *pool = (int(w) for w in out.stdout.split())
    assert pool == ([cores, cores] if pin == "0" else [1, 1]), out.stdout
