"""How shapes are written: the same sizes in tables, diagrams and formulas."""

from __future__ import annotations

import pytest

from transformer_walk.app.i18n import markdown_literal
from transformer_walk.app.views.labels import (
    human_bytes,
    markdown_table,
    shape_label,
)
from transformer_walk.topics.claims import position_of, token_label


def test_a_shape_reads_alike_in_text_and_in_a_formula() -> None:
    """Guards against "[4,4]" in a formula: math mode drops the plain space of "[4, 4]"."""
    assert shape_label((4, 8)) == "[4, 8]"
    assert shape_label((2, 4, 4), latex=True) == r"[2,\ 4,\ 4]"
    assert shape_label((4, 8), times=True) == "4\u00a0×\u00a08"  # no-break spaces
    assert shape_label((4, 8), times=True, latex=True) == r"4 \times 8"


def test_words_in_a_formula_are_escaped_for_katex() -> None:
    from transformer_walk.app.views.latex import tex_words

    assert tex_words("每层乘加次数：") == r"\text{每层乘加次数：}"
    assert tex_words("a_b {x} 100% #1 & ~^\\") == (
        r"\text{a\_b \{x\} 100\% \#1 \& \~{}\^{}\textbackslash{}}"
    )


def test_sizes_in_bytes_are_named_by_their_powers_of_1024() -> None:
    assert human_bytes(512) == "512 B"
    assert human_bytes(1536) == "1.5 KiB"
    assert human_bytes(800_000) == "781.2 KiB"
    assert human_bytes(40_000_000) == "38.1 MiB"
    assert human_bytes(3 * 1024**4) == "3,072.0 GiB"


def test_markdown_table_keeps_formulas_and_escapes_bars() -> None:
    assert markdown_table(["$h$", "x"], [[1, "a|b"], [2, "c"]]) == (
        "| $h$ | x |\n| --- | --- |\n| 1 | a\\|b |\n| 2 | c |"
    )


def test_markdown_literal_shows_markup_as_itself() -> None:
    """Guards against a learner's text read as Markdown: emphasis, math, a heading, an entity
    ("&amp;" would show "&"), an emoji shortcode (":cat:" would show a cat)."""
    assert markdown_literal("*his* $x$ #1") == r"\*his\* \$x\$ #1"  # a "#" inside a line
    assert markdown_literal("a\nb") == "a  \nb"  # a line break Markdown keeps
    assert markdown_literal("## a\n- b\n 12. c\n==") == "\\## a  \n\\- b  \n 12\\. c  \n\\=="
    assert markdown_literal("-0.31\n0.76 #") == "-0.31  \n0.76 #"  # no mark: left as it is
    assert markdown_literal("&amp;") == r"\&amp;"
    assert markdown_literal(":cat:") == ":\u200bcat:\u200b"


def test_a_value_rounded_to_zero_loses_its_sign() -> None:
    from transformer_walk.app.views.labels import shown_as

    shown = shown_as([-3e-9, -0.0, 0.12344, -0.00005], 4)
    assert [f"{v:.4f}" for v in shown] == ["0.0000", "0.0000", "0.1234", "-0.0001"]
    assert shown[2] == 0.12344  # only what shows as zero is changed


def test_a_difference_of_zero_reads_zero() -> None:
    from transformer_walk.app.views.labels import difference_label

    assert difference_label(0.0) == "0"
    assert difference_label(1.4e-17) == "1.4e-17"


def test_tokens_that_draw_nothing_are_named_by_code_point() -> None:
    from transformer_walk.app.views.labels import token_labels, visible

    assert visible("\ufe0f") == "⟨U+FE0F⟩"  # the variation selector of "❤️", a token of its own
    assert visible("tom\x07") == "tom⟨U+0007⟩"
    assert visible("👨\u200d👩") == "👨\u200d👩"  # a joiner inside a sequence draws with it
    assert visible("é") == "é"
    assert token_labels(["❤", "\ufe0f"]) == {0: "1 · ❤", 1: "2 · ⟨U+FE0F⟩"}


def test_a_vector_never_shows_minus_zero() -> None:
    from transformer_walk.app.views.labels import vector_label

    assert vector_label([-0.0001, 0.25, -0.5]) == "[0.000, 0.250, -0.500]"


def test_numbers_of_any_size_without_python_exponents() -> None:
    from transformer_walk.app.views.labels import power_label

    assert power_label(0.0) == "0"
    assert power_label(0.0412) == "0.0412"
    assert power_label(14161.0) == "14,161"
    assert power_label(2.39e10) == "2.39 × 10¹⁰"
    assert power_label(8.1e-7, 2) == "8.1 × 10⁻⁷"


@pytest.mark.parametrize(
    ("token", "shown"),
    [
        ("his", "his"),
        ("[CLS]", "[CLS]"),
        ("␣cat", "␣cat"),  # a byte-level piece with its space drawn
        ("2026", "2026"),
        ("🐶", "🐶"),  # a picture is not read as punctuation
        ("(96→他)", "(96→他)"),  # letters or digits inside: as it is
        (",", "‹,›"),
        ("，", "‹，›"),  # the Chinese comma too
        ("...", "‹...›"),
        ('"', '‹"›'),
        ("“", "‹“›"),
        ("##.", "‹##.›"),  # a WordPiece continuation of punctuation
        ("+", "‹+›"),
        ("␣,", "‹␣,›"),  # a byte-level piece's drawn space does not hide its comma
        ("␣", "␣"),  # a space alone is already drawn
        ("$", "‹$›"),
        ("", ""),
    ],
)
def test_a_token_label_marks_punctuation_only(token: str, shown: str) -> None:
    label = token_label(8, token)
    assert label == f"8 · {shown}"
    assert position_of(label) == 7  # the pickers' and the claims' parser reads it back
