"""How long each page takes to answer: opening it, and moving each of its main controls away
from its default, as the server sees it (the script run, through Streamlit's AppTest; the
browser's drawing comes on top). "open" is a first visit to a fresh server: the data caches are
emptied first, and so are the models a page trains (Seq2seq's), which a new server reads back from
the disk cache; loaded models are kept, as a running server keeps them. For a page that trains,
"open, new machine" also starts from an empty disk cache (the very first visit: it trains, under a
progress bar). The disk cache is a temporary directory of this run, never ~/.cache. A control is
moved from the page at its defaults, ``--repeats`` times to a value not seen before (one, two,
three steps away), so every run computes what a first move computes; the median is printed.
Prints a Markdown table; a time over 1 s is marked ⚠, or ⏳ where the run trained a model (a new
file in the disk cache), which the page does once, under a progress bar, and keeps.

    python scripts/page_timings.py                      # every page, 3 runs each
    python scripts/page_timings.py --pages qkv.py cost.py --repeats 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the AppTest helpers the page tests use

from transformer_walk.app import caches  # noqa: E402
from transformer_walk.app.navigation import ROAD  # noqa: E402

from apptest_support import VALUE_WIDGETS, open_page, send_labels  # noqa: E402

os.environ[caches.DISK_CACHE_ENV] = tempfile.mkdtemp(prefix="tw-timings-")  # see the docstring

SLOW_S = 1.0  # the goal: every default interaction answers within this


def nudge(widget: Any, steps: int) -> str:
    """Move ``widget`` ``steps`` steps from where it is (further options, steps up, or down
    where up has no room; a switch is flipped); return what was set."""
    kind = widget.type
    if kind in ("slider", "number_input"):
        value, step = widget.value, widget.step
        if isinstance(value, (list, tuple)):  # a range: move its upper end
            high = widget.max
            top = value[1] + steps * step
            top = top if top <= high else max(value[0], value[1] - steps * step)
            widget.set_value([value[0], top])
            return repr([value[0], top])
        high = widget.max if widget.max is not None else float("inf")
        low = widget.min if widget.min is not None else float("-inf")
        moved = value + steps * step
        moved = moved if moved <= high else max(low, value - steps * step)
        if float(value).is_integer() and float(step).is_integer():  # an int widget
            moved = int(moved)
        else:
            moved = round(moved, 10)  # 0.06, not 0.060000000000000005
        widget.set_value(moved)
        return repr(moved)
    if kind in ("toggle", "checkbox"):
        flipped = not widget.value
        widget.set_value(flipped)
        return repr(flipped)
    options = widget.options
    if kind == "multiselect":
        labels = [options[i] for i in widget.indices]
        extra = [o for o in options if o not in labels][:steps]
        full = len(labels) + len(extra) > (widget.max_selections or len(options))
        labels = labels[:-1] if full or not extra else [*labels, *extra]
        send_labels(widget, labels)
        return repr(labels)
    if kind == "select_slider":
        index = int((list(widget.proto.value) or list(widget.proto.default))[0])
        to = index + steps if index + steps < len(options) else max(0, index - steps)
        send_labels(widget, [options[to]])
        return repr(options[to])
    index = widget.index or 0  # selectbox, radio
    label = options[(index + steps) % len(options)]
    send_labels(widget, label)
    return repr(label)


#: Pages that train models on their first visit (and keep them on disk).
TRAINING_PAGES = ("seq2seq.py",)


#: Models trained by the timed runs (new files in the disk cache): a slow row that trained is
#: marked as such, not as slow.
TRAINED: set[str] = set()


def _stored() -> set[str]:
    directory = caches.disk_cache_dir()
    return {str(path) for path in directory.iterdir()} if directory.is_dir() else set()


def timed(run: Callable[[], Any], *, cold: bool = False, new_machine: bool = False) -> float:
    if cold:
        st.cache_data.clear()
        caches.gru_comparison.clear()  # a fresh server: read back from disk, or trained
    if new_machine:
        os.environ[caches.DISK_CACHE_ENV] = tempfile.mkdtemp(prefix="tw-timings-")
    before = _stored()
    started = time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    TRAINED.update(_stored() - before)
    return seconds


Row = tuple[str, str, float, bool]


def page_rows(page: str, repeats: int) -> list[Row]:
    """(control, what was set, median seconds, whether it trained a model) for opening ``page``
    and for each main control."""
    rows: list[Row] = []
    trained = len(TRAINED)

    def add(control: str, what: str, times: list[float]) -> None:
        nonlocal trained
        rows.append((control, what, statistics.median(times), len(TRAINED) > trained))
        trained = len(TRAINED)

    add("open", "", [timed(lambda: open_page(page), cold=True) for _ in range(repeats)])
    if page in TRAINING_PAGES:
        firsts = [
            timed(lambda: open_page(page), cold=True, new_machine=True) for _ in range(repeats)
        ]
        add("open, new machine", "", firsts)
    at = open_page(page)  # also puts the defaults back in the caches
    keys = [w.key for kind in VALUE_WIDGETS for w in at.main.get(kind) if w.key]
    for key in keys:
        times, what = [], ""
        for steps in range(1, repeats + 1):
            at = open_page(page)
            widgets = (w for kind in VALUE_WIDGETS for w in at.main.get(kind) if w.key == key)
            widget = next(widgets, None)
            if widget is None:  # shown only in some states
                break
            what = nudge(widget, steps)
            times.append(timed(at.run))
            if at.exception:
                raise SystemExit(f"{page}: moving {key} to {what} raised: {at.exception[0].value}")
        if times:
            add(key, what, times)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    files = [file for _group, pages in ROAD for file, *_ in pages]
    parser.add_argument("--pages", nargs="*", default=files, help="page files, e.g. qkv.py")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    for page in files:  # load the models and warm the imports once, outside the timings
        if page in args.pages:
            open_page(page)
    print(f"| page | control | set to | median of {args.repeats} (s) |")
    print("|---|---|---|---:|")
    slow = training = 0
    for page in args.pages:
        for control, what, seconds, trained in page_rows(page, args.repeats):
            over = seconds > SLOW_S
            mark = (" ⏳ trained (progress bar, kept on disk)" if trained else " ⚠") if over else ""
            slow += over and not trained
            training += over and trained
            print(f"| {page} | {control} | {what[:40]} | {seconds:.2f}{mark} |", flush=True)
    print(f"\n{slow} over {SLOW_S:g} s; {training} more trained a model once, under a progress bar")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
