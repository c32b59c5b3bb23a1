"""Small rendering pieces every walkthrough page shares, so the road looks the same at each stop."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.i18n import t
from transformer_walk.app.sidebar import selected_backend
from transformer_walk.app.views.labels import cell_label, text_width
from transformer_walk.app.views.window import window
from transformer_walk.core import budget


def page_start(
    title_key: str, *, caption: str | None = "common.computed_with", uses_backend: bool = True
) -> str | None:
    """The page's header: its title, then the sidebar's backend said under it with ``caption``
    (a message id with a ``{backend}`` field). Returns that backend's name; None, after an error
    message, when no backend can be imported.

    A page that computes without the sidebar's backend passes ``uses_backend=False``: its
    ``caption`` (a message without fields, or None) is shown as it is and None is returned."""
    st.title(t(title_key))
    if not uses_backend:
        if caption is not None:
            st.caption(t(caption))
        return None
    backend = selected_backend()
    if backend is None:
        st.error(t("common.no_backend"))
        return None
    name, _module = backend
    if caption is not None:
        st.caption(t(caption, backend=t(f"backend.{name}")))
    return name


def python_fallback_text() -> str:
    """Why a page computed with NumPy although pure Python was picked, in the page's language."""
    return t(
        "common.python_fallback",
        rate=f"{budget.PYTHON_MULTIPLY_ADDS_PER_S:,.0f}",
        budget=f"{budget.PYTHON_BUDGET_S:g}",
    )


def python_fallback_note() -> None:
    """Say that pure Python would have passed its budget here, so NumPy computed instead."""
    st.info(python_fallback_text(), icon=":material/hourglass_top:")


def backend_within_budget(selected: str, multiply_adds: int) -> str:
    """The backend that computes ``multiply_adds`` of work when ``selected`` is picked in the
    sidebar (``core.budget``'s rule), after saying so when it is not ``selected``."""
    used = budget.backend_for(selected, multiply_adds)
    if used != selected:
        python_fallback_note()
    return used


#: st.dataframe's geometry (Streamlit 1.67): a 35-px row, the header row, and the border.
TABLE_ROW_PX, TABLE_FRAME_PX = 35, 38
#: Rows a table shows whole; a longer one scrolls inside its box.
WHOLE_TABLE_ROWS = 50


def table_height(rows: int, most: int = WHOLE_TABLE_ROWS) -> int:
    """The ``height`` that shows a table of ``rows`` rows without a scroll box (its first ``most``
    rows when longer): Streamlit's default box scrolls after ten, hiding most of a 40-token
    sentence's rows."""
    return TABLE_FRAME_PX + TABLE_ROW_PX * max(1, min(rows, most))


#: A table's column of token labels: px per narrow character (Source Sans at 14 px), padding.
CHAR_PX, CELL_PADDING_PX = 7.5, 28


def token_index(labels: Sequence[str], name: str) -> tuple[pd.Index, dict[str, Any]]:
    """A table's index of token labels ("3 · cat"), each cut to what a cell shows, and the
    ``column_config`` entry that makes the index column wide enough for the longest: left to
    itself, Streamlit sizes it by its header and clips the labels without a mark."""
    cells = [cell_label(label) for label in labels]
    widest = max([text_width(name), *(text_width(c) for c in cells)])
    width = int(CELL_PADDING_PX + CHAR_PX * widest)
    return pd.Index(cells, name=name), {"_index": st.column_config.TextColumn(width=width)}


def solved_and_hurts(solved: str, hurts: str) -> None:
    """The stop's summary line, in the spirit of the summary table of “From Words to Attention”:
    what this stage solved, and what still hurts (which the next stop answers). Arguments are
    already-translated texts."""
    solved_label, hurts_label = t("common.solved"), t("common.hurts")
    left, right = st.columns(2)
    with left:
        st.success(f"**{solved_label}** {solved}", icon=":material/check_circle:")
    with right:
        st.warning(f"**{hurts_label}** {hurts}", icon=":material/report:")


def token_window(n: int, shown: int, key: str, *, help_id: str, note: str) -> tuple[int, int]:
    """The [start, stop) window of a long sentence's tokens that n×n charts show: everything
    when n ≤ ``shown``, else a slider for the first token. ``help_id`` and ``note`` are the
    page's message ids (help takes ``shown``, ``n``; note ``first``, ``last``, ``n``)."""
    if n <= shown:
        return (0, n)
    st.slider(
        t("common.window"), min_value=1, max_value=n - shown + 1, value=1, key=key,
        help=t(help_id, shown=shown, n=n),
    )  # fmt: skip
    start, stop = window(n, st.session_state[key] - 1, shown)
    st.caption(t(note, first=start + 1, last=stop, n=n))
    return (start, stop)


def pick(
    label: str,
    key: str,
    options: dict[Any, str],
    default: Any,
    *,
    linked: bool = False,
    **kwargs: Any,
) -> Any:
    """A selectbox over ``options`` ({value: shown label}) whose stored choice stays valid as the
    options change (``keep_valid_choice``) and whose box shows the choice's current label when
    the labels change (a shape that follows the sentence); ``kwargs`` go to ``st.selectbox``.
    ``linked``: one of the page's main settings, carried by its address (``links.linked``)."""
    if linked:
        links.linked(key, default, list(options))
    keep_valid_choice(key, list(options), default)
    labels_key = f"{key}__labels"  # the labels drawn last time, a plain state key
    labels = list(options.values())
    if st.session_state.get(labels_key) != labels:
        # Set to itself: Streamlit sends the value to the browser again, which otherwise keeps
        # showing the old label of the same choice.
        st.session_state[key] = st.session_state[key]
        st.session_state[labels_key] = labels
    return st.selectbox(
        label, options=list(options), format_func=options.__getitem__, key=key, **kwargs
    )


def forget_picks_of_another_sentence(
    tokens: Sequence[str], keys: Sequence[str], marker: str
) -> bool:
    """When ``tokens`` are not the ones the picks ``keys`` were made for (remembered under
    ``marker``), drop those picks so a new sentence starts from its own defaults. True if so."""
    if st.session_state.get(marker) == list(tokens):
        return False
    for key in keys:
        st.session_state.pop(key, None)
    st.session_state[marker] = list(tokens)
    return True


def keep_valid_choice(key: str, options: Sequence[Any], default: Any) -> None:
    """Before drawing the picker ``key``: keep its stored choice among ``options`` (a new sentence
    changes them), else put ``default``. A choice the learner never moved off the default follows
    the default as it changes, so a value forced by a short sentence (token 1 of a one-token text)
    does not stick once a longer one is typed."""
    default_key = f"{key}__default"  # the default put last time, a plain (non-widget) state key
    value = st.session_state.get(key)
    if value not in options or value == st.session_state.get(default_key):
        st.session_state[key] = default
    st.session_state[default_key] = default
