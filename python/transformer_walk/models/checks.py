"""The argument checks both real models make, defined once."""

from __future__ import annotations

from typing import Any, TypeGuard

import numpy as np


def is_int(value: object) -> TypeGuard[int | np.integer[Any]]:
    """An int or a NumPy integer, not a bool (True is not a layer, a seed or a count)."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def check_text(text: object) -> None:
    """TypeError unless ``text`` is a str; ValueError for a lone surrogate, which is not a
    character (the tokenizers' own error for it says only "must be str")."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(
            f"the text has a lone surrogate (U+{ord(text[error.start]):04X}) at position "
            f"{error.start}: half of a UTF-16 pair, not a character, so it cannot be "
            "tokenized; remove it, or decode the text's bytes with errors='replace'"
        ) from None
