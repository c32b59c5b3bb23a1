"""One way to say something about a number.

A *claim function* takes the numbers a page shows and returns what it can stand behind — a message
id and the fields that fill it (a ``Claim``) — or None where the numbers support nothing worth
saying. It is registered with ``@claim(predicate)``: the predicate takes the claim and the same
arguments, and checks from the raw numbers that the claim is true. Pages translate what claim
functions return and never phrase a verdict themselves; tests/test_claims.py runs every registered
claim function over the sentence corpus (tests/data/sentences.json) and checks each claim it makes
with its predicate.

Tokens are named by position and text ("3 · cat", counted from 1) wherever a word can occur twice:
``position_of`` reads the position back for a predicate. Shares and probabilities are written
with ``percent``, on pages and in claims alike, so that none reads a whole or a nothing it is not.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ParamSpec

P = ParamSpec("P")


@dataclass(frozen=True)
class Claim:
    """A sentence a page may show: the message id (``app/texts``) and the values of its fields."""

    message: str
    fields: Mapping[str, object] = field(default_factory=dict)


ClaimFunction = Callable[..., Claim | None]
Predicate = Callable[..., bool]

#: Every registered claim function, by its module and name: (function, predicate).
CLAIMS: dict[str, tuple[ClaimFunction, Predicate]] = {}


def claim(predicate: Predicate) -> Callable[[Callable[P, Claim | None]], Callable[P, Claim | None]]:
    """Register the decorated claim function with ``predicate(claim, *args, **kwargs) -> bool``,
    which must hold for every claim the function returns."""

    def register(function: Callable[P, Claim | None]) -> Callable[P, Claim | None]:
        CLAIMS[f"{function.__module__}.{function.__qualname__}"] = (function, predicate)
        return function

    return register


#: Unicode categories of a token that is marked in its label: punctuation, and the maths,
#: currency and modifier symbols ("+", "$", "^"); not emoji and other pictures (So).
MARKED_CATEGORIES = ("Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk")
#: The signs the pages draw for a byte-level piece's space, newline and tab (``readable_piece``):
#: "␣," is still a comma to a reader.
DRAWN_SPACES = "␣⏎⇥"


def token_label(number: int, token: str) -> str:
    """ "3 · his": a token named by its number and text, as every page names tokens. A token of
    punctuation or symbols only stands between ‹ and ›, "8 · ‹,›": bare, a sentence would read it
    as its own punctuation ("After 8 · , the model…"), and quote marks would nest inside the
    quotes a sentence puts around a label ("“8 · ‹,›”")."""
    marks = [c for c in token if c not in DRAWN_SPACES]
    if marks and all(unicodedata.category(c) in MARKED_CATEGORIES for c in marks):
        token = f"‹{token}›"
    return f"{number} · {token}"


def position_of(label: object) -> int:
    """The 0-based position of a token label "3 · cat" (ValueError if it is not one)."""
    number, sep, _ = str(label).partition(" · ")
    if not sep or not number.isdigit():
        raise ValueError(f"not a token label: {label!r}")
    return int(number) - 1


#: How many places ``percent`` adds beyond those asked for before it writes a bound instead: one,
#: so that a page reads ">99.9%", not "99.9996%".
MORE_PLACES = 1


def percent(value: float, decimals: int = 0) -> str:
    """A share or probability as a page prints it: ``decimals`` places ("54%"), and one more
    where rounding would print a whole or a nothing the value is not (0.996 → "99.6%", not
    "100%"; 0.004 → "0.4%", not "0%"); past that, a bound (0.9996 → ">99.9%", 0.0004 →
    "<0.1%"). Exactly 1 and 0 read "100%" and "0%"; a share above 1 or below 0 is not bounded,
    and not a number reads "nan%"."""
    places = decimals + MORE_PLACES
    if not math.isfinite(value):
        return f"{value:.{decimals}%}"  # "nan%": no rounding to be honest about
    for digits in range(decimals, places + 1):
        text = f"{value:.{digits}%}"
        shown = float(text[:-1])
        if (shown < 100 or value >= 1) and (shown > 0 or value <= 0):
            return text
    # every rounding read 100% or 0%: the value is within half the last place of 1 or 0
    return f">{100 - 10**-places:.{places}f}%" if value > 0.5 else f"<{10**-places:.{places}f}%"
