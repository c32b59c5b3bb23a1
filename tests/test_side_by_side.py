"""Parts of one job side by side: ``on_this_thread`` on every backend, ``run_side_by_side``, and
MiniLM's ``embed`` cutting a batch into parts without changing a bit of any embedding."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from transformer_walk.core import get_backend
from transformer_walk.models.side_by_side import run_side_by_side

from conftest import HAVE_RUST

BACKENDS = [
    "python",
    "numpy",
    pytest.param("rust", marks=pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")),
]


@pytest.fixture
def backend(request: pytest.FixtureRequest):
    be = get_backend(request.param)
    before = be.get_num_threads()
    be.set_num_threads(2)
    yield be
    be.set_num_threads(before)


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_on_this_thread_reads_one_here_and_nests(backend):
    with backend.on_this_thread():
        assert backend.get_num_threads() == 1
        with backend.on_this_thread():
            assert backend.get_num_threads() == 1
        assert backend.get_num_threads() == 1
    assert backend.get_num_threads() == 2


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_on_this_thread_leaves_other_threads_their_setting(backend):
    inside, seen = threading.Event(), []

    def other():
        inside.wait(timeout=30)
        seen.append(backend.get_num_threads())

    t = threading.Thread(target=other)
    t.start()
    with backend.on_this_thread():
        inside.set()
        t.join(timeout=30)
    assert seen == [2]


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_on_this_thread_ends_when_an_exception_leaves_the_block(backend):
    with pytest.raises(KeyError):
        with backend.on_this_thread():
            raise KeyError("raised inside")
    assert backend.get_num_threads() == 2


@pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")
def test_rust_calls_inside_the_block_give_the_same_bits():
    import rust_core

    rng = np.random.default_rng(0)
    x = rng.standard_normal((512, 384)).astype(np.float32)
    w = rng.standard_normal((1536, 384)).astype(np.float32)
    q = rng.standard_normal((4, 12, 128, 32)).astype(np.float32)
    before = rust_core.get_num_threads()
    rust_core.set_num_threads(2)
    try:
        pooled = rust_core.linear(x, w), rust_core.attention(q, q, q)
        with rust_core.on_this_thread():
            alone = rust_core.linear(x, w), rust_core.attention(q, q, q)
    finally:
        rust_core.set_num_threads(before)
    for a, b in zip(pooled, alone, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_each_part_runs_once_on_a_thread_of_its_own_setting(backend):
    seen: dict[int, tuple[int, int]] = {}
    lock = threading.Lock()

    def work(part: int) -> None:
        time.sleep(0.01)  # so that one worker cannot take every part
        with lock:
            assert part not in seen
            seen[part] = (threading.get_ident(), backend.get_num_threads())

    run_side_by_side(backend, work, list(range(6)))
    assert sorted(seen) == list(range(6))
    assert {threads for _, threads in seen.values()} == {1}
    assert threading.get_ident() not in {ident for ident, _ in seen.values()}


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_one_part_runs_here_on_every_thread(backend):
    seen: list[tuple[int, int]] = []
    run_side_by_side(
        backend, lambda part: seen.append((threading.get_ident(), backend.get_num_threads())), [0]
    )
    assert seen == [(threading.get_ident(), 2)]


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_a_part_that_asks_for_parts_runs_them_in_place(backend):
    inner: list[int] = []

    def work(part: int) -> None:
        here = threading.get_ident()
        run_side_by_side(backend, lambda _: inner.append(threading.get_ident() == here), [0, 1])

    run_side_by_side(backend, work, [0, 1])  # would wait on its own pool if it queued them
    assert inner == [True] * 4


@pytest.mark.parametrize("backend", BACKENDS, indirect=True)
def test_a_parts_error_is_raised_after_every_part_has_ended(backend):
    done: list[int] = []

    def work(part: int) -> None:
        if part == 0:
            raise ValueError("part 0 failed")
        time.sleep(0.05)
        done.append(part)

    with pytest.raises(ValueError, match="part 0 failed"):
        run_side_by_side(backend, work, [0, 1, 2, 3])
    assert sorted(done) == [1, 2, 3]


# --- MiniLM's embed -----------------------------------------------------------------------------

minilm = pytest.importorskip("transformer_walk.models.minilm")

#: rust_core's few-row products take up to this many rows of x (rust_core/src/linalg/skinny.rs,
#: MAX_ROWS); more go through gemm, whose rows do not depend on how many there are.
FEW_ROWS = 128


def _batch(b: int, n: int) -> tuple[list[int], np.ndarray, np.ndarray]:
    return list(range(b)), np.ones((b, n), np.int64), np.ones((b, n), bool)  # (b, n) each


@pytest.mark.parametrize("threads", [1, 2, 3, 4])
def test_parts_are_cut_by_texts_nearly_evenly_and_big_enough(threads):
    part_rows = minilm.model.PART_MIN_ROWS
    for b in range(1, 40):
        for n in (3, 16, 60, 100, 128, 129, 200, 256):
            parts = minilm.model._parts(_batch(b, n), threads)
            assert [i for at, _, _, _ in parts for i in at] == list(range(b))
            assert all(ids.shape[1] == n and mask.shape == ids.shape for _, ids, mask, _ in parts)
            assert 1 <= len(parts) <= threads
            sizes = [len(at) for at, _, _, _ in parts]
            if len(parts) > 1:
                # Above the few-row products' limit, a part's products take the whole batch's
                # path; the slowest part sets the time, so none is much bigger than another.
                assert min(sizes) * n >= part_rows > FEW_ROWS
                assert max(sizes) - min(sizes) <= 1 and 4 * max(sizes) <= 5 * min(sizes)
            if threads >= 2 and b % 2 == 0 and (b // 2) * n >= part_rows:
                assert len(parts) >= 2, (b, n)  # an even batch of two big halves is cut


def test_parts_keep_the_batchs_masking():
    key_mask = np.ones((8, 128), bool)
    key_mask[-1, 100:] = False  # the last text is shorter: only the second part has padding
    parts = minilm.model._parts((list(range(8)), np.ones((8, 128), np.int64), key_mask), 2)
    assert all(attend is not None for *_, attend in parts)
    assert parts[0][3].all()  # all True, and still applied: the whole batch applies it
    full = np.ones((8, 128), bool)  # no padding anywhere: no part applies a mask
    unpadded = minilm.model._parts((list(range(8)), np.ones((8, 128), np.int64), full), 2)
    assert [attend for *_, attend in unpadded] == [None, None]


@pytest.fixture(scope="module")
def rust_minilm():
    if not HAVE_RUST:
        pytest.skip("rust_core is not built")
    return minilm.load_minilm(backend="rust")


def _texts(count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    words = ["the", "dog", "river", "bank", "loves", "cash", "Tom", "猫", "2026", "!", "naïve"]
    return [" ".join(rng.choice(words, int(rng.integers(20, 140)))) for _ in range(count)]


def _embeddings(model, texts, threads, cut, monkeypatch, **kwargs):
    import rust_core

    monkeypatch.setattr(minilm.model, "PART_MIN_ROWS", 256 if cut else 10**9)
    before = rust_core.get_num_threads()
    rust_core.set_num_threads(threads)
    try:
        return model.embed(texts, **kwargs)
    finally:
        rust_core.set_num_threads(before)


def test_short_texts_cut_into_parts_give_the_same_bits(rust_minilm, monkeypatch):
    """31 texts of 20 tokens and one shorter: the first part has no padding of its own, and
    unmasked heads of at most 128 keys take another kernel (attention_head.rs); the part applies
    the batch's mask anyway."""
    texts = ["the dog loves the river bank and the cash in it every day of the long year"] * 31
    texts.append("a dog")
    rows = rust_minilm.token_rows(texts)
    assert len(minilm.model._parts(next(iter(rust_minilm.batches(rows, 32))), 2)) == 2
    cut = _embeddings(rust_minilm, texts, 2, True, monkeypatch)
    for threads in (1, 2):
        whole = _embeddings(rust_minilm, texts, threads, False, monkeypatch)
        np.testing.assert_array_equal(cut, whole)


@pytest.mark.parametrize("weights", ["float32", "float16"])
def test_embed_cut_into_parts_is_the_same_bits_as_whole(rust_minilm, weights):
    import rust_core

    model = rust_minilm if weights == "float32" else minilm.load_minilm(weights="float16")
    texts = _texts(13, seed=1)  # batch_size 8: two batches, the first cut into two parts
    rows = model.token_rows(texts)
    first = next(iter(model.batches(rows, 8)))
    assert len(minilm.model._parts(first, 2)) == 2
    before = rust_core.get_num_threads()
    try:
        rust_core.set_num_threads(1)
        whole = model.embed(texts, batch_size=8)
        rust_core.set_num_threads(2)
        cut = model.embed(texts, batch_size=8)
        ablated = model.embed(texts, batch_size=8, ablate=[(0, 3), (5, 11)])
        rust_core.set_num_threads(1)
        ablated_whole = model.embed(texts, batch_size=8, ablate=[(0, 3), (5, 11)])
    finally:
        rust_core.set_num_threads(before)
    np.testing.assert_array_equal(cut, whole)
    np.testing.assert_array_equal(ablated, ablated_whole)
    assert not np.array_equal(ablated, whole)
