"""Big outputs live in memory that rust_core recycles (rust_core/src/runtime/pool.rs): each such
array is owned by its base object, outlives nothing it should not, and a freed block serves the
next allocation of its size without a single new page."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading

import numpy as np
import pytest

import rust_core

#: rust_core's pool takes outputs of at least this many bytes (pool::MIN_BYTES).
MIN_POOLED = 1 << 18


def _big(shape: tuple[int, ...], seed: int, dtype: type = np.float32) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_big_output_is_an_ordinary_writeable_array_owned_by_its_base(dtype: type) -> None:
    x = _big((512, 384), 0, dtype)
    y = rust_core.layer_norm(x, np.ones(384, dtype), np.zeros(384, dtype), 1e-5)
    assert y.nbytes >= MIN_POOLED
    assert y.dtype == dtype and y.shape == x.shape
    assert y.flags["C_CONTIGUOUS"] and y.flags["ALIGNED"] and y.flags["WRITEABLE"]
    assert not y.flags["OWNDATA"] and type(y.base).__name__ == "PooledMemory"
    assert y.ctypes.data % 64 == 0
    mean, std = x.mean(-1, keepdims=True), x.std(-1, keepdims=True)
    np.testing.assert_allclose(y, (x - mean) / np.sqrt(std**2 + 1e-5), rtol=1e-4, atol=1e-4)
    y[0, 0] = 7.0  # writeable from Python, like any array
    assert y[0, 0] == 7.0


def test_small_outputs_stay_numpys() -> None:
    y = rust_core.gelu(np.ones((4, 8), np.float32))
    assert y.nbytes < MIN_POOLED and y.flags["OWNDATA"]


def test_a_view_keeps_the_memory_after_the_array_is_gone() -> None:
    x = _big((8, 128, 1536), 1)
    y = rust_core.gelu(x)
    view = y[2:5, 7]
    expected = view.copy()
    del y
    gc.collect()
    # Outputs of the same size, written with other values: had the block gone back to the pool
    # with the view still on it, one of these would have been written over it.
    others = [rust_core.gelu(x * 3.0) for _ in range(3)]
    np.testing.assert_array_equal(view, expected)
    del others


def test_a_recycled_block_holds_nothing_of_its_last_use() -> None:
    """The bias of ``linear`` is written first and the product added to it: a block handed
    back holding another output's numbers must not leak into the sum."""
    x, w, b = _big((300, 384), 2), _big((1536, 384), 3), _big((1536,), 4)
    for _ in range(3):
        garbage = rust_core.gelu(_big((300, 1536), 5) * 1e6)  # the same size as the output
        del garbage
        y = rust_core.linear(x, w, b)
        np.testing.assert_allclose(y, x @ w.T + b, rtol=2e-4, atol=2e-3)


#: A feed-forward network's outputs (MiniLM's, on 8 × 128 tokens) made and dropped in a loop, as
#: a forward makes them layer after layer; prints the page faults of 10 rounds.
FFN_LOOP = """
import resource, numpy as np, rust_core
rng = np.random.default_rng(0)
a = rng.standard_normal((8, 128, 384), dtype=np.float32)
w1 = rng.standard_normal((1536, 384), dtype=np.float32)
w2 = rng.standard_normal((384, 1536), dtype=np.float32)
def ffn():
    pre = rust_core.linear(a, w1)  # (8, 128, 1536): 6 MB
    hidden = rust_core.gelu(pre)  # 6 MB more
    del pre
    return rust_core.linear(hidden, w2)  # (8, 128, 384)
ffn(); ffn()  # every size made once and freed: the pool holds a block of each
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(10):
    ffn()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def test_freed_outputs_serve_the_next_ones_without_new_pages() -> None:
    """In a fresh process (malloc's choices depend on the history of the heap). Without the
    pool, malloc handed some freed blocks back to the OS and each round faulted about 1,100
    pages in again (1.8 µs each on the project's machine; a whole MiniLM forward faulted
    3,300)."""
    run = subprocess.run(
        [sys.executable, "-c", FFN_LOOP], capture_output=True, text=True, timeout=120, check=True
    )
    faults = int(run.stdout.strip())
    # The outputs span 2 × 6 + 1.5 MB a round, and the gemm crate's packing scratch, allocated on
    # every call, is recycled too (measured: 0 faults in 10 rounds; without recycling, 11,700).
    pages = 10 * (2 * 8 * 128 * 1536 + 8 * 128 * 384) * 4 // 4096
    assert faults < pages // 100, f"{faults} page faults in 10 rounds, the outputs span {pages}"


def test_a_freed_block_goes_to_the_next_output_of_its_size_not_to_numpy() -> None:
    x = _big((8, 128, 1536), 9)
    y = rust_core.gelu(x)
    address = y.ctypes.data
    del y
    numpys = np.empty_like(x)  # malloc would have handed this one the freed memory
    z = rust_core.gelu(x)
    assert z.ctypes.data == address != numpys.ctypes.data


def test_threads_making_and_dropping_big_outputs_get_their_own_numbers() -> None:
    xs = [_big((256, 1024), 10 + t) for t in range(4)]
    expected = [np.asarray(rust_core.gelu(x)).copy() for x in xs]
    errors: list[str] = []

    def work(t: int) -> None:
        for _ in range(25):
            y = rust_core.gelu(xs[t])
            if not np.array_equal(y, expected[t]):
                errors.append(f"thread {t} got another thread's numbers")
            del y

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
