"""How the pages write a shape, a short vector or a size in bytes: the same in tables, diagrams
and formulas."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from transformer_walk.topics.claims import token_label


def shape_label(shape: Sequence[int], *, times: bool = False, latex: bool = False) -> str:
    """(4, 8) as "[4, 8]"; with ``times`` as "4 × 8", the sizes of a matrix, its spaces no-break
    ones so that a line never ends between its sizes. ``latex`` writes the same for a formula:
    "[4,\\ 8]" (math mode drops a plain space) and "4 \\times 8"."""
    sizes = [str(int(s)) for s in shape]
    if not times:
        return "[" + (r",\ " if latex else ", ").join(sizes) + "]"
    return (r" \times " if latex else "\u00a0×\u00a0").join(sizes)


def tex_shape(shape: Sequence[int]) -> str:
    """``shape_label`` for a formula: "[4,\\ 8]"."""
    return shape_label(shape, latex=True)


#: Characters that draw nothing wherever they stand: controls, format characters (a variation
#: selector U+FE0F, a zero-width joiner), line and paragraph separators.
NEVER_DRAWN = ("Cc", "Cf", "Zl", "Zp")
#: Characters that draw nothing on their own: combining marks and spaces.
DRAWN_ON_OTHERS = ("Mn", "Me", "Zs")


def code_point(char: str) -> str:
    """ "⟨U+FE0F⟩": a character named by its code point."""
    return f"⟨U+{ord(char):04X}⟩"


def visible(token: str) -> str:
    """A token as a label can show it: a token of characters that draw nothing (the emoji
    variation selector U+FE0F after "❤", a zero-width space) by their code points, and a control
    character anywhere; the rest as it is (a joiner inside an emoji sequence draws with it)."""
    if token and all(unicodedata.category(c) in NEVER_DRAWN + DRAWN_ON_OTHERS for c in token):
        return "".join(code_point(c) for c in token)
    return "".join(code_point(c) if unicodedata.category(c) == "Cc" else c for c in token)


def token_labels(
    tokens: Sequence[str], positions: Iterable[int] | None = None, *, first: int = 1
) -> dict[int, str]:
    """{position: "3 · his"}: the tokens at ``positions`` (all by default) with their numbers,
    counted from ``first`` — 1 for "the third token", 0 where the number is the position itself.
    Built once per run, for pickers' ``format_func`` (which may be called outside the run)."""
    chosen = range(len(tokens)) if positions is None else positions
    return {p: token_label(p + first, visible(tokens[p])) for p in chosen}


#: Characters of a token label a table cell shows; a longer one is cut with "…".
CELL_CHARS = 26


def cell_label(label: str, most: int = CELL_CHARS) -> str:
    """``label`` as a table cell can show it: cut with "…" past ``most`` characters (Streamlit's
    table clips a long cell without any mark; "1 · supercalifragilisticexpialidocious" read
    "1 · superc")."""
    return label if len(label) <= most else label[: most - 1] + "…"


def text_width(text: str) -> int:
    """``text``'s width in narrow-character units: a CJK or full-width character counts two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def token_axis(tokens: Sequence[str], start: int = 0, stop: int | None = None) -> list[str]:
    """A chart axis of the tokens at positions ``start`` to ``stop``, numbered as the pickers
    number them ("3 · his"), so a repeated word stays two labels and any token can be found."""
    return list(token_labels(tokens, range(start, len(tokens) if stop is None else stop)).values())


def difference_label(value: float) -> str:
    """The largest difference between two computations of one number: "0" when they agree bit
    for bit (not "0.0e+00"), else two significant digits, 1.4e-17."""
    return "0" if value == 0 else f"{value:.1e}"


SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_label(value: float, digits: int = 3) -> str:
    """A number of any size as a learner reads it, with ``digits`` significant digits: 0, 0.0412,
    14,161 as they are, and beyond that a power of ten, 2.39 × 10¹⁰ or 1.1 × 10⁻⁷ — never the
    "2.39e+10" of Python's formats."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    exponent = math.floor(math.log10(abs(value)))
    if -3 <= exponent < 6:
        return f"{value:,.{max(0, digits - 1 - exponent)}f}"
    mantissa = value / 10.0**exponent
    return f"{mantissa:.{digits - 1}f} × 10{str(exponent).translate(SUPERSCRIPT)}"


def shown_as(values: Any, digits: int) -> Any:
    """``values`` for a table that shows ``digits`` decimals: those that round to zero made 0, the
    rest unchanged. A LayerNorm's mean of −3e-9 printed as "-0.0000", a sign the number does not
    have at that precision."""
    array = np.asarray(values, dtype=np.float64)
    return np.where(np.abs(array) < 0.5 * 10.0**-digits, 0.0, array)


def vector_label(values: Iterable[float], digits: int = 3) -> str:
    """[0.853, 0.292]: a short vector in a table cell or a sentence (LaTeX: ``latex.vector``); a
    value that rounds to zero is 0.000, never -0.000."""
    return "[" + ", ".join(f"{v:.{digits}f}" for v in shown_as(list(values), digits)) + "]"


def readable_piece(piece: str) -> str:
    """A byte-level BPE token's text as the pages show it: spaces as ␣, newlines as ⏎, tabs as ⇥
    (" wife" → "␣wife"), so a leading space is seen and an all-space token is not blank."""
    return piece.replace(" ", "␣").replace("\n", "⏎").replace("\t", "⇥") or "∅"


def human_bytes(size: float) -> str:
    """1536 → '1.5 KiB': powers of 1024, the unit memory is bought in, named as such."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(size) < 1024 or unit == "GiB":
            return f"{size:,.0f} {unit}" if unit == "B" else f"{size:,.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table: unlike ``st.dataframe``'s, its headers and cells may hold ``$…$``
    formulas (``$W_i^Q$`` rendered, not typed out). A ``|`` in a cell is escaped."""

    def line(cells: Sequence[object]) -> str:
        return "| " + " | ".join(str(c).replace("|", r"\|") for c in cells) + " |"

    return "\n".join([line(header), line(["---"] * len(header)), *(line(r) for r in rows)])


UNKNOWN_SHOWN = 12  # [UNK]s named in a message: a text of 2,000 emoji has 2,000 of them


def unknown_labels(text: str, tokens: list[str], offsets: Sequence[tuple[int, int]]) -> list[str]:
    """What became [UNK], one label per such token with its number as the pages count tokens
    ("3 · 你"; [CLS] is 1): an emoji, most Chinese characters — the English vocabulary has no
    piece for them, and a character can occur twice."""
    return [
        token_label(p + 1, visible(text[a:b]))
        for p, (token, (a, b)) in enumerate(zip(tokens, offsets, strict=True))
        if token == "[UNK]"
    ]
