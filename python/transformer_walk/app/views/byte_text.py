"""Byte-level text as the pages show it: whole UTF-8 characters as text, and a token that holds only
part of a character as its bytes with the character they belong to ("⟨E4 BD→你⟩"), never U+FFFD.

SmolLM2's byte-level BPE cuts a Chinese character (three bytes) or an emoji (four) across tokens:
你好 is four tokens, and decoding each alone gives "�" four times.
"""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

from transformer_walk.app.views.labels import (
    DRAWN_ON_OTHERS,
    NEVER_DRAWN,
    readable_piece,
    visible,
)


class Span(NamedTuple):
    """Bytes ``start``–``end`` of a text: one whole character ``char``, or (``char`` None) one
    byte that begins no valid character."""

    start: int
    end: int
    char: str | None


def _length(lead: int) -> int:
    """How many bytes a UTF-8 character starting with ``lead`` has (1 for an invalid lead)."""
    if lead < 0xC2:
        return 1
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4 if lead < 0xF5 else 1


def utf8_spans(data: bytes) -> list[Span]:
    """``data`` cut into its characters; a byte that starts no whole character is a span of its
    own (a character cut short, a stray continuation byte)."""
    spans: list[Span] = []
    i = 0
    while i < len(data):
        size = _length(data[i])
        try:
            char: str | None = data[i : i + size].decode("utf-8")
        except UnicodeDecodeError:
            char, size = None, 1
        spans.append(Span(i, i + size, char))
        i += size
    return spans


def hex_bytes(data: bytes) -> str:
    """b"\\xe4\\xbd" as "E4 BD"."""
    return " ".join(f"{b:02X}" for b in data)


def piece_labels(pieces: Sequence[bytes], before: bytes = b"") -> list[str]:
    """How each of ``pieces`` (consecutive tokens' bytes) reads: its whole characters as text
    (spaces and newlines marked, ``readable_piece``), each part of a character as
    ``⟨bytes→character⟩`` (``⟨bytes⟩`` where the text ends before the character does). ``before``
    is the text preceding the first piece, so a candidate next token that completes the
    prompt's last character names that character."""
    data = before + b"".join(pieces)
    spans = utf8_spans(data)
    labels = []
    offset = len(before)
    for piece in pieces:
        start, end = offset, offset + len(piece)
        offset = end
        if not piece:
            labels.append(readable_piece(""))
            continue
        text, out = "", []
        for span in spans:
            if span.end <= start or span.start >= end:
                continue
            if span.char is not None and start <= span.start and span.end <= end:
                text += span.char
                continue
            if text:
                out.append(_whole(text))
                text = ""
            part = data[max(start, span.start) : min(end, span.end)]
            if span.char is not None:
                out.append(f"⟨{hex_bytes(part)}→{_char_name(span.char)}⟩")
            elif out and out[-1].startswith("⟨") and "→" not in out[-1]:  # stray bytes together
                out[-1] = f"{out[-1][:-1]} {hex_bytes(part)}⟩"
            else:
                out.append(f"⟨{hex_bytes(part)}⟩")
        if text or not out:
            out.append(_whole(text))
        labels.append("".join(out))
    return labels


def _whole(text: str) -> str:
    """Whole characters of a piece: spaces and breaks marked (``readable_piece``), characters
    that draw nothing by code point (``labels.visible``)."""
    return visible(readable_piece(text))


def _char_name(char: str) -> str:
    """The character a part of a token belongs to, as the arrow names it: "你", or "U+FE0F" for
    one that draws nothing alone."""
    categories = NEVER_DRAWN + DRAWN_ON_OTHERS
    return f"U+{ord(char):04X}" if unicodedata.category(char) in categories else char


def text_html(before: bytes, new: bytes) -> str:
    """The prompt's bytes ``before`` and the generated ``new`` as literal HTML (nothing in them is
    read as Markdown or markup): ``new`` highlighted, so an added space shows, a line break as ⏎
    and a break, and bytes that are not a whole character as ``⟨bytes⟩``."""
    data = before + new
    parts: list[str] = []
    current: list[str] = []
    inside_new = False
    for span in utf8_spans(data):
        is_new = span.start >= len(before)
        if is_new != inside_new:
            parts.append(_close(current, inside_new))
            current, inside_new = [], is_new
        if span.char is None:
            current.append(html.escape(f"⟨{hex_bytes(data[span.start : span.end])}⟩"))
        elif span.char == "\n":
            current.append("⏎<br>")
        else:
            current.append(html.escape(span.char))
    parts.append(_close(current, inside_new))
    return f'<div class="tw-literal">{"".join(parts)}</div>'


def _close(chars: list[str], new: bool) -> str:
    text = "".join(chars)
    return f"<mark>{text}</mark>" if new and text else text
