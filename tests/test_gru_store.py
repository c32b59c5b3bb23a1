"""The disk cache of trained GRU encoder–decoders: what is read back is what was trained, and a
file that does not fit (other config, damaged, missing) is never used."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from transformer_walk.app import caches
from transformer_walk.topics import gru_store
from transformer_walk.topics.gru_seq2seq import Comparison, GruConfig, train_both

SMALL = GruConfig(hidden=4, embed=3, attn=2, train_max_len=3, eval_max_len=4, steps=6, batch=5,
                  eval_per_length=7)  # fmt: skip


@pytest.fixture(scope="module")
def trained() -> Comparison:
    return train_both(SMALL)


def test_what_is_read_back_is_what_was_trained(trained: Comparison, tmp_path: Path) -> None:
    path = gru_store.save(trained, tmp_path)
    assert path.name == gru_store.key(SMALL) and path.exists()
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind
    stored = gru_store.load(SMALL, tmp_path)
    assert stored is not None and stored.from_disk and not trained.from_disk
    for variant in ("fixed", "attention"):
        a, b = trained.model(variant), stored.model(variant)
        assert (a.config, a.variant, a.losses, a.scores, a.seconds) == (
            b.config, b.variant, b.losses, b.scores, b.seconds,
        )  # fmt: skip
        assert a.params.keys() == b.params.keys()
        for name in a.params:
            np.testing.assert_array_equal(a.params[name], b.params[name], err_msg=name)


def test_the_key_follows_every_setting() -> None:
    keys = {gru_store.key(c) for c in (SMALL, GruConfig(), GruConfig(seed=1), GruConfig(steps=9))}
    assert len(keys) == 4


def test_a_file_that_does_not_fit_is_not_used(trained: Comparison, tmp_path: Path) -> None:
    assert gru_store.load(SMALL, tmp_path) is None  # nothing there
    path = gru_store.save(trained, tmp_path)
    other = GruConfig(hidden=4, embed=3, attn=2, train_max_len=3, eval_max_len=4, steps=6,
                      batch=5, eval_per_length=7, seed=3)  # fmt: skip
    os.replace(path, tmp_path / gru_store.key(other))  # another config's name, this content
    assert gru_store.load(other, tmp_path) is None
    (tmp_path / gru_store.key(SMALL)).write_bytes(b"PK\x03\x04 not a zip")
    assert gru_store.load(SMALL, tmp_path) is None
    path = gru_store.save(trained, tmp_path)
    path.write_bytes(path.read_bytes()[:200])  # cut short
    assert gru_store.load(SMALL, tmp_path) is None


def test_the_page_cache_trains_once_per_machine(
    trained: Comparison, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(caches.DISK_CACHE_ENV, str(tmp_path))
    caches.gru_comparison.clear()
    first = caches.gru_comparison(SMALL)
    assert not first.from_disk and (tmp_path / gru_store.key(SMALL)).exists()
    assert first.fixed.losses == trained.fixed.losses  # seeded: the same training
    caches.gru_comparison.clear()  # a new server
    second = caches.gru_comparison(SMALL)
    assert second.from_disk and second.attention.scores == first.attention.scores
    caches.gru_comparison.clear()


def test_an_unwritable_cache_still_serves_the_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the directory should be")
    monkeypatch.setenv(caches.DISK_CACHE_ENV, str(blocked / "cache"))
    caches.gru_comparison.clear()
    assert not caches.gru_comparison(SMALL).from_disk
    caches.gru_comparison.clear()
