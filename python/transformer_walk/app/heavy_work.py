"""One server-wide limit on heavy work, so that one learner's long computation never starves a
class.

Every session of a Streamlit server is a thread of one process. Pure Python holds the
interpreter while it computes, and timing races, training and generation fill a core each: a few
students starting them at once would leave none for everybody else's ordinary page. Such work
runs inside ``heavy_work()``, which lets at most ``HEAVY_SLOTS`` of it run at a time (one core
of this machine's kept free for the rest of the class) and tells a learner who has to wait
so on the page, until a slot is free.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator

import streamlit as st

from transformer_walk.app.i18n import t

#: Heavy computations at once, server-wide: all cores but one (at least one).
HEAVY_SLOTS = max(1, (os.cpu_count() or 1) - 1)
_slots = threading.BoundedSemaphore(HEAVY_SLOTS)


@contextlib.contextmanager
def heavy_work(*, heavy: bool = True) -> Iterator[None]:
    """Run the block in one of the server's ``HEAVY_SLOTS``: at once when one is free, else
    after a "waiting for a free core" note that goes away when the slot is taken. ``heavy=False``
    runs it without a slot (a caller whose work is light on some backends)."""
    if not heavy:
        yield
        return
    held = _slots.acquire(blocking=False)
    try:
        if not held:
            note = st.empty()
            note.info(t("common.waiting_core", slots=HEAVY_SLOTS), icon=":material/hourglass_top:")
            held = _slots.acquire()
            note.empty()  # may raise Streamlit's rerun exception: the slot is released below
        yield
    finally:
        if held:
            _slots.release()
