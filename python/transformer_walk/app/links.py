"""The address a teacher can share: the page, the sentence, the language, the backend and the
page's main settings, held in ``st.query_params`` and kept in step as the learner changes them.

A setting is *linked* by calling :func:`linked` before its widget is drawn and before the page
reads it: the sidebar links the language, the sentence and the backend, each page its main one to
three settings (``widgets.pick(..., linked=True)`` for a picker). In the address a setting is
named by its session key after the page's prefix (``mla_head`` → ``head``; ``lang``,
``sentence``, ``backend`` as they are) and appears only while it differs from its default, so a
link stays short; a page's settings leave the address with the page.

The address is read once, on a session's first run (a link opened, a page reloaded, a student
moved to another replica). A value is used only if it is one of its widget's legal values; any
other — an unknown language, a backend missing here, a 5,000-character sentence, ``head=99``, a
word where a number goes, a setting this page does not have — leaves the default, and a short
note above the page names what was left out. :func:`in_step` wraps a whole run (``app.py``).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from transformer_walk.app.i18n import join_names, t


@dataclass(frozen=True)
class Span:
    """The floats a slider takes: ``lo`` ≤ x ≤ ``hi``, on its grid of ``step`` from ``lo``.
    (An integer slider's legal values are a ``range``.)"""

    lo: float
    hi: float
    step: float


@dataclass(frozen=True)
class Text:
    """What a text field takes: at most ``max_chars`` characters, and no control characters
    but line breaks and tabs."""

    max_chars: int


#: A switch's legal values.
ON_OFF = (False, True)

#: A widget's legal values: its options (a ``range`` for an integer slider), a Span or a Text.
Legal = Sequence[Any] | Span | Text

#: The longest query string written: RFC 9110's recommended minimum for a URL, and well inside
#: the 16 KB an HAProxy buffer holds for the request line and headers (deploy/haproxy.cfg).
#: A longer one (a long Chinese sentence is 9 characters a character) leaves out its longest
#: values, and the share box says so.
MAX_QUERY_CHARS = 8000
#: Characters of a left-out value that a note quotes.
QUOTED_CHARS = 16

_PENDING = "links.pending"  # {name: value} of the opening address, not yet used; {} once read
_NOTES = "links.notes"  # ["name=value", …] left out of the opening address, until said
_LINKED = "links.linked"  # {session key: default} of the settings linked in this run


def param_name(key: str) -> str:
    """A setting's name in the address: its session key after the page's prefix."""
    return key.split("_", 1)[-1]


def as_text(value: Any) -> str:
    """A value as the address holds it: ``true``/``false`` for a switch, else ``str``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def parse(raw: str, legal: Legal) -> Any:
    """The value ``raw`` (as the address holds it) stands for, if it is legal; else ValueError."""
    if isinstance(legal, Text):
        controls = any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in raw)
        if len(raw) > legal.max_chars or controls:
            raise ValueError(raw)
        return raw
    if isinstance(legal, Span):
        number = float(raw)
        steps = (number - legal.lo) / legal.step if math.isfinite(number) else math.nan
        if not (legal.lo <= number <= legal.hi and abs(steps - round(steps)) < 1e-6):
            raise ValueError(raw)
        return number
    if isinstance(legal, range):  # a million options are not compared one by one
        if int(raw) not in legal:
            raise ValueError(raw)
        return int(raw)
    for option in legal:
        if as_text(option) == raw:
            return option
    raise ValueError(raw)


def linked(key: str, default: Any, legal: Legal) -> None:
    """Put the setting ``key`` (a widget's session key, ``default`` its value when untouched) in
    the address for this run, and on the session's first run take its value from the address
    when that is one of ``legal``."""
    state = st.session_state
    registry: dict[str, Any] = state.setdefault(_LINKED, {})
    name = param_name(key)
    clash = [other for other in registry if other != key and param_name(other) == name]
    if clash:
        raise ValueError(f"{key!r} and {clash[0]!r} would share the address's {name!r}")
    registry[key] = default
    pending: dict[str, str] = state.get(_PENDING, {})
    if name in pending:
        raw = pending.pop(name)
        try:
            state[key] = parse(raw, legal)
        except ValueError:
            _left_out(name, raw)


def _left_out(name: str, raw: str) -> None:
    quoted = raw if len(raw) <= QUOTED_CHARS else raw[: QUOTED_CHARS - 1] + "…"
    shown = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in f"{name}={quoted}")
    st.session_state.setdefault(_NOTES, []).append(shown)


def _code(names: list[str]) -> str:
    """Names as inline code, listed as the language lists them."""
    return join_names([f"`{name.replace('`', 'ˋ')}`" for name in names])


def address() -> tuple[dict[str, str], list[str]]:
    """The query the current state makes: the linked settings that differ from their defaults,
    as the address holds them, in the order they were linked; and the names of those left out
    because the query would be longer than ``MAX_QUERY_CHARS``, longest first."""
    state = st.session_state
    params = {
        param_name(key): as_text(state[key])
        for key, default in state.get(_LINKED, {}).items()
        if key in state and state[key] != default
    }
    dropped: list[str] = []
    while params and len(urlencode(params)) > MAX_QUERY_CHARS:
        longest = max(params, key=lambda name: len(urlencode({name: params[name]})))
        del params[longest]
        dropped.append(longest)
    return params, dropped


@contextmanager
def in_step() -> Iterator[None]:
    """Around a whole run (sidebar, navigation, page): read the opening address on a session's
    first run; after a run that finished, say what it held that was left out, write the address
    the state now makes, and draw the share box. A run stopped early (a page switch) writes
    nothing: the next one does."""
    state = st.session_state
    if _PENDING not in state:
        state[_PENDING] = {name: st.query_params[name] for name in st.query_params}
    state[_LINKED] = {}
    # Above the page, and only while the opening address is being read: no empty slot after.
    notes = st.empty() if state[_PENDING] or state.get(_NOTES) else None
    yield
    for name, raw in state[_PENDING].items():  # not a setting of this page
        _left_out(name, raw)
    state[_PENDING] = {}
    said = state.pop(_NOTES, [])
    if said and notes is not None:
        notes.info(t("common.link_left_out", params=_code(said)), icon=":material/link_off:")
    params, dropped = address()
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)
    share_box(params, dropped)


def share_box(params: dict[str, str], dropped: list[str]) -> None:
    """The sidebar's "Share this page": the page's address with ``params``, in a code block whose
    button copies it."""
    query = urlencode(params)
    link = (st.context.url or "") + (f"?{query}" if query else "")
    with st.sidebar, st.popover(t("sidebar.share"), icon=":material/share:", width="stretch"):
        st.caption(t("sidebar.share_help"))
        st.code(link, language=None, wrap_lines=True)
        if dropped:
            st.caption(t("sidebar.share_too_long", params=_code(dropped)))
