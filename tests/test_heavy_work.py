"""The server-wide limit on heavy work (app/heavy_work.py): at most HEAVY_SLOTS at once, a note
on the page while a learner waits, and the slot given back however the work ends."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from transformer_walk.app import heavy_work as heavy


class _Note:
    """Stands in for the ``st.empty()`` placeholder the note is written into."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def info(self, body: str, **_: Any) -> None:
        self.log.append(f"info: {body}")

    def empty(self) -> None:
        self.log.append("empty")


@pytest.fixture
def one_slot(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.BoundedSemaphore, list[str]]:
    slots = threading.BoundedSemaphore(1)
    log: list[str] = []
    monkeypatch.setattr(heavy, "_slots", slots)
    monkeypatch.setattr(heavy.st, "empty", lambda: _Note(log))
    monkeypatch.setattr(heavy, "t", lambda key, **fields: f"{key} {fields}")
    return slots, log


def test_at_least_one_slot_and_one_core_left_for_the_class() -> None:
    import os

    assert heavy.HEAVY_SLOTS >= 1
    assert heavy.HEAVY_SLOTS == max(1, (os.cpu_count() or 1) - 1)


def test_a_free_slot_is_taken_at_once_without_a_note(one_slot: Any) -> None:
    slots, log = one_slot
    with heavy.heavy_work():
        assert not slots.acquire(blocking=False)  # held by the block
    assert log == []
    assert slots.acquire(blocking=False)  # given back


def test_a_learner_who_waits_is_told_and_goes_on_when_the_slot_frees(one_slot: Any) -> None:
    slots, log = one_slot
    assert slots.acquire(blocking=False)  # another learner's race holds the only slot
    done = threading.Event()

    def learner() -> None:
        with heavy.heavy_work():
            log.append("work")
        done.set()

    thread = threading.Thread(target=learner)
    thread.start()
    assert not done.wait(0.3)  # waiting, with the note up
    assert log == ["info: common.waiting_core {'slots': 1}"]
    slots.release()
    assert done.wait(10)
    thread.join()
    assert log == ["info: common.waiting_core {'slots': 1}", "empty", "work"]
    assert slots.acquire(blocking=False)  # and given back after the work


def test_the_slot_is_given_back_when_the_work_raises(one_slot: Any) -> None:
    slots, _log = one_slot
    with pytest.raises(RuntimeError), heavy.heavy_work():
        raise RuntimeError("a rerun stopped this run")
    assert slots.acquire(blocking=False)


def test_the_slot_is_given_back_when_the_note_raises(one_slot: Any) -> None:
    """Streamlit stops a run at its next st.* call when the learner moved on: here, clearing the
    note after the slot was taken."""
    slots, _log = one_slot

    class Stopped(Exception):
        pass

    class Raising(_Note):
        def empty(self) -> None:
            raise Stopped

    heavy.st.empty = lambda: Raising([])  # type: ignore[assignment]  # monkeypatched back
    assert slots.acquire(blocking=False)
    threading.Timer(0.2, slots.release).start()
    with pytest.raises(Stopped), heavy.heavy_work():
        pass
    assert slots.acquire(blocking=False)


def test_light_work_takes_no_slot(one_slot: Any) -> None:
    slots, log = one_slot
    assert slots.acquire(blocking=False)  # all slots busy
    with heavy.heavy_work(heavy=False):
        log.append("light")
    assert log == ["light"]
