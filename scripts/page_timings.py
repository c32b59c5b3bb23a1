"""How long each page takes to answer: opening it, and moving each of its main controls one step
from its default, as the server sees it (the script run, through Streamlit's AppTest; the
browser's drawing comes on top). Median of ``--repeats`` runs, each from emptied data caches so
that every run computes what a first visit or a first move computes (loaded models are kept, as
a running server keeps them). Prints a Markdown table; a time over 1 s is marked.

    python scripts/page_timings.py                      # every page, 3 runs each
    python scripts/page_timings.py --pages qkv.py cost.py --repeats 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the AppTest helpers the page tests use

from transformer_walk.app.navigation import ROAD  # noqa: E402

from apptest_support import VALUE_WIDGETS, open_page, send_labels  # noqa: E402

SLOW_S = 1.0  # the goal: every default interaction answers within this


def nudge(widget: Any) -> str:
    """Move ``widget`` one step from where it is (the next option, one step up or down, the
    other state); return what was set."""
    kind = widget.type
    if kind in ("slider", "number_input"):
        value, step = widget.value, widget.step
        if isinstance(value, (list, tuple)):  # a range: move its upper end
            top = value[1] + step if value[1] + step <= widget.max else value[1] - step
            widget.set_value([value[0], top])
            return repr([value[0], top])
        high = widget.max if widget.max is not None else float("inf")
        moved = value + step if value + step <= high else value - step
        if float(value).is_integer() and float(step).is_integer():  # an int widget
            moved = int(moved)
        widget.set_value(moved)
        return repr(moved)
    if kind in ("toggle", "checkbox"):
        flipped = not widget.value
        widget.set_value(flipped)
        return repr(flipped)
    options = widget.options
    if kind == "multiselect":
        chosen = list(widget.indices)
        labels = [options[i] for i in chosen]
        extra = next((o for o in options if o not in labels), None)
        labels = (
            labels[:-1]
            if extra is None or len(labels) >= (widget.max_selections or 99)
            else [*labels, extra]
        )
        send_labels(widget, labels)
        return repr(labels)
    if kind == "select_slider":
        index = (list(widget.proto.value) or list(widget.proto.default))[0]
        label = options[int(index) + 1 if int(index) + 1 < len(options) else int(index) - 1]
        send_labels(widget, [label])
        return repr(label)
    index = widget.index or 0  # selectbox, radio
    label = options[(index + 1) % len(options)]
    send_labels(widget, label)
    return repr(label)


def timed(run: Callable[[], Any]) -> float:
    st.cache_data.clear()
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def page_rows(page: str, repeats: int) -> list[tuple[str, str, float]]:
    """(control, what was set, median seconds) for opening ``page`` and for each main control."""
    rows = [("open", "", statistics.median(timed(lambda: open_page(page)) for _ in range(repeats)))]
    at = open_page(page)
    keys = [w.key for kind in VALUE_WIDGETS for w in at.main.get(kind) if w.key]
    for key in keys:
        times, what = [], ""
        for _ in range(repeats):
            at = open_page(page)
            widget = next(
                (w for kind in VALUE_WIDGETS for w in at.main.get(kind) if w.key == key), None
            )
            if widget is None:  # shown only in some states
                break
            what = nudge(widget)
            times.append(timed(at.run))
            if at.exception:
                raise SystemExit(f"{page}: moving {key} to {what} raised: {at.exception[0].value}")
        if times:
            rows.append((key, what, statistics.median(times)))
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
    slow = 0
    for page in args.pages:
        for control, what, seconds in page_rows(page, args.repeats):
            mark = " ⚠" if seconds > SLOW_S else ""
            slow += seconds > SLOW_S
            print(f"| {page} | {control} | {what[:40]} | {seconds:.2f}{mark} |", flush=True)
    print(f"\n{slow} over {SLOW_S:g} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
