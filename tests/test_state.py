"""The trace caches: long texts cannot fill the server's memory with traces."""

from __future__ import annotations

import pytest

from transformer_walk.app import caches as state
from transformer_walk.models.toy import ToyConfig


@pytest.fixture
def counted_runs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Texts the toy model actually traced (cache misses), with fresh caches."""
    runs: list[str] = []
    model = state.toy_model(ToyConfig(), "numpy")
    original = model.run
    monkeypatch.setattr(model, "run", lambda text: runs.append(text) or original(text))
    state._short_trace.clear()
    state._long_trace.clear()
    yield runs
    state._short_trace.clear()
    state._long_trace.clear()


def test_short_texts_stay_cached(counted_runs: list[str]) -> None:
    texts = [f"word{i} loves his dog" for i in range(10)]
    for text in texts + texts:
        state.toy_trace(text, ToyConfig(), "numpy")
    assert counted_runs == texts  # the second pass is served from the cache


def test_only_a_few_long_traces_are_kept(counted_runs: list[str]) -> None:
    # Guards against: 64 cached traces of 2,000-character texts (100–200 MB each) on a server.
    long_texts = [
        f"w{i} " * (state.LONG_TEXT_TOKENS + 1) for i in range(state.LONG_TRACES_KEPT + 1)
    ]
    for text in long_texts:
        state.toy_trace(text, ToyConfig(), "numpy")
    state.toy_trace(long_texts[-1], ToyConfig(), "numpy")  # the newest is still cached
    assert len(counted_runs) == len(long_texts)
    state.toy_trace(long_texts[0], ToyConfig(), "numpy")  # the oldest was dropped
    assert len(counted_runs) == len(long_texts) + 1
