"""One way to say something about a number.

A *claim function* takes the numbers a page shows and returns what it can stand behind — a message
id and the fields that fill it (a ``Claim``) — or None where the numbers support nothing worth
saying. It is registered with ``@claim(predicate)``: the predicate takes the claim and the same
arguments, and checks from the raw numbers that the claim is true. Pages translate what claim
functions return and never phrase a verdict themselves; tests/test_claims.py runs every registered
claim function over the sentence corpus (tests/data/sentences.json) and checks each claim it makes
with its predicate.

Tokens are named by position and text ("3 · cat", counted from 1) wherever a word can occur twice:
``position_of`` reads the position back for a predicate.
"""

from __future__ import annotations

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


def position_of(label: object) -> int:
    """The 0-based position of a token label "3 · cat" (ValueError if it is not one)."""
    number, sep, _ = str(label).partition(" · ")
    if not sep or not number.isdigit():
        raise ValueError(f"not a token label: {label!r}")
    return int(number) - 1
