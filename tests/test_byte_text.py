"""Byte-level pieces and text shown without U+FFFD: whole characters as text, parts of one as their
bytes and the character (``views.byte_text``), checked against Python's own UTF-8 decoding."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from transformer_walk.app.views.byte_text import piece_labels, text_html, utf8_spans

CODE_POINT = re.compile(r"⟨U\+([0-9A-F]{4,6})⟩")
PART = re.compile(r"⟨([0-9A-F]{2}(?: [0-9A-F]{2})*)(?:→([^⟩]+))?⟩")


def test_a_chinese_character_cut_across_tokens_names_its_bytes_and_itself() -> None:
    ni, hao = "你".encode(), "好".encode()  # E4 BD A0, E5 A5 BD
    pieces = [ni[:2], ni[2:] + hao[:2], hao[2:]]
    assert piece_labels(pieces) == ["⟨E4 BD→你⟩", "⟨A0→你⟩⟨E5 A5→好⟩", "⟨BD→好⟩"]


def test_whole_characters_read_as_text_with_spaces_and_breaks_marked() -> None:
    pieces = [b"Tom", b" loves", "，我".encode(), b"\n"]
    assert piece_labels(pieces) == ["Tom", "␣loves", "，我", "⏎"]


def test_a_candidate_completes_the_prompts_last_character() -> None:
    ni = "你".encode()
    assert piece_labels([ni[2:]], before=b"x" + ni[:2]) == ["⟨A0→你⟩"]


def test_a_text_that_ends_inside_a_character_shows_the_bytes_alone() -> None:
    assert piece_labels(["你".encode()[:2]]) == ["⟨E4 BD⟩"]
    assert piece_labels([b"a\xff"]) == ["a⟨FF⟩"]


def test_an_invisible_character_is_named_by_its_code_point() -> None:
    zwj = "\u200d".encode()
    assert piece_labels([zwj[:1], zwj[1:]]) == ["⟨E2→U+200D⟩", "⟨80 8D→U+200D⟩"]


@given(st.text(max_size=30), st.data())
def test_any_text_cut_anywhere_never_shows_a_replacement_and_keeps_every_byte(
    text: str, data: st.DataObject
) -> None:
    raw = text.encode()
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=8)))
    bounds = [0, *cuts, len(raw)]
    pieces = [raw[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    labels = piece_labels(pieces)
    assert len(labels) == len(pieces)
    for piece, label in zip(pieces, labels, strict=True):
        assert "\ufffd" not in label or "\ufffd" in text
        shown = b"".join(bytes.fromhex(m.group(1)) for m in PART.finditer(label))
        named = [m.group(2) for m in PART.finditer(label)]
        assert all(name is not None for name in named)  # a whole text: every part has its char
        assert len(shown) <= len(piece)
        if not PART.search(label):
            named_back = CODE_POINT.sub(lambda m: chr(int(m.group(1), 16)), label)
            assert named_back.replace("␣", " ").replace("⏎", "\n").replace("⇥", "\t") in (
                piece.decode(),
                "∅",
            )


def test_spans_cover_the_bytes_in_order() -> None:
    data = "a你".encode() + b"\xe4\xbd"
    spans = utf8_spans(data)
    assert [(s.start, s.end, s.char) for s in spans] == [
        (0, 1, "a"),
        (1, 4, "你"),
        (4, 5, None),
        (5, 6, None),
    ]


def test_the_text_is_literal_html_with_the_new_part_marked() -> None:
    shown = text_html(b"1. **x** <b>", b" y\n")
    assert "**x**" in shown and "&lt;b&gt;" in shown
    assert shown.endswith("<mark> y⏎<br></mark></div>")
    assert "\ufffd" not in text_html(b"", "你".encode()[:2])


def test_a_piece_that_draws_nothing_is_named_by_code_point() -> None:
    heart = "❤️".encode()  # E2 9D A4, then the variation selector EF B8 8F
    assert piece_labels([heart[:3], heart[3:]]) == ["❤", "⟨U+FE0F⟩"]
