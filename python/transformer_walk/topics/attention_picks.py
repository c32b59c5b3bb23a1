"""Where the attention pages and experiments look first: the running example's "his" (and the pair
his → tom), otherwise a pronoun (what attention is famous for resolving), otherwise the last word,
and the most lopsided pair of an attention matrix.

Shared by the app's pages and by ``checks``, so every stop of the road starts from the same query.
"""

from __future__ import annotations

import numpy as np

#: Third-person pronouns, lower case as the tokenizers write them: a sentence without "his" asks
#: from its last one ("… because it was too tired" from "it", not from "tired").
PRONOUNS = (
    *("his", "her", "its", "their", "it", "he", "she", "they", "him", "them"),
    *("他", "她", "它"),
)


def pronoun_position(tokens: list[str]) -> int | None:
    """Where "his" is (the running example's query), else the last of ``PRONOUNS``; None if the
    tokens hold no pronoun."""
    if "his" in tokens:
        return tokens.index("his")
    found = [p for p, token in enumerate(tokens) if token in PRONOUNS]
    return found[-1] if found else None


def default_query(tokens: list[str]) -> int:
    """``pronoun_position``; in a sentence without a pronoun, its last word (a token with a
    letter or digit: "." and "," make poor queries), or the last token if none has one."""
    if (pronoun := pronoun_position(tokens)) is not None:
        return pronoun
    words = [i for i, token in enumerate(tokens) if any(ch.isalnum() for ch in token)]
    return words[-1] if words else len(tokens) - 1


def asymmetry(weights: np.ndarray) -> np.ndarray:
    """A − Aᵀ of an [n, n] matrix: zero everywhere only if A is symmetric."""
    return weights - weights.T


def most_asymmetric_pair(weights: np.ndarray) -> tuple[int, int]:
    """(i, j) with the largest |a_ij − a_ji|, i ≠ j, and a_ij ≥ a_ji; (0, 0) for one token."""
    n = weights.shape[0]
    if n < 2:
        return (0, 0)
    gap = asymmetry(weights)
    i, j = np.unravel_index(int(np.argmax(gap)), gap.shape)  # the largest positive entry
    return (int(i), int(j))


def default_pair(tokens: list[str], weights: np.ndarray) -> tuple[int, int]:
    """The running example's pair (his, tom) when the sentence has both, else the most
    asymmetric pair of ``weights`` [n, n]."""
    if "his" in tokens and "tom" in tokens:
        return (tokens.index("his"), tokens.index("tom"))
    return most_asymmetric_pair(weights)
