"""What the Multi-head page says about one query's row in each head, as claims
(``topics.claims``): which key each head weighs most (named by position and text, ties said), and
whether the heads put their largest weights on one key or spread them over several.

Weights are compared as the page shows them, at three decimals, so two keys that print the same
weight are a tie, not a win for the first one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from transformer_walk.app.views.labels import difference_label, token_labels
from transformer_walk.models.toy import tokenize
from transformer_walk.topics.claims import Claim, claim, position_of

#: The road's running example, whose "his" the page's paragraph on relations is about.
RUNNING_EXAMPLE = "Tom loves his dog"
EXAMPLE_QUERY = 2  # "his", counted from 0


def shows_running_example(tokens: Sequence[str], query: int) -> bool:
    """Whether the page is on the running example's "his": the only place where the paragraph
    about "his" (its relations to "Tom" and "dog") describes the sentence on the screen."""
    return list(tokens) == tokenize(RUNNING_EXAMPLE) and query == EXAMPLE_QUERY


def top_keys(row: np.ndarray) -> list[int]:
    """The keys of a weight row [n] with its largest weight at three decimals (ties all kept)."""
    shown = np.round(np.asarray(row, dtype=np.float64), 3)
    return np.flatnonzero(shown == shown.max()).tolist() if shown.size else []


def _label(tokens: Sequence[str], position: int) -> str:
    return token_labels(tokens, [position])[position]


def _positions(labels: object, tokens: Sequence[str]) -> list[int]:
    """The positions a label or a list of labels names, each checked against ``tokens``."""
    named = [labels] if isinstance(labels, str) else list(labels)  # type: ignore[call-overload]
    out = [position_of(label) for label in named]
    wrong = [p for p, label in zip(out, named, strict=True) if not 0 <= p < len(tokens)
             or _label(tokens, p) != label]  # fmt: skip
    if wrong:
        raise ValueError(f"{labels!r} does not name tokens of {list(tokens)!r}")
    return out


# --- the table: each head's largest weight ----------------------------------------------------


def _top_holds(said: Claim, row: np.ndarray, tokens: Sequence[str]) -> bool:
    tied = top_keys(row)
    if said.message == "multi_head.his.top_one":
        return len(tied) == 1 and _positions(said.fields["tokens"], tokens) == tied
    return (
        said.message == "multi_head.his.top_tie"
        and len(tied) > 1
        and not isinstance(said.fields["tokens"], str)
        and _positions(said.fields["tokens"], tokens) == tied
        and said.fields["count"] == len(tied)
    )


@claim(_top_holds)
def head_top(row: np.ndarray, tokens: Sequence[str]) -> Claim | None:
    """The table cell "largest weight on" of one head's row [n]: the key by position and text
    ("3 · cat"), or every key tied with it at three decimals; nothing for an empty row."""
    tied = top_keys(row)
    if not tied:
        return None
    labels = [_label(tokens, p) for p in tied]
    if len(tied) == 1:
        return Claim("multi_head.his.top_one", {"tokens": labels[0]})
    return Claim("multi_head.his.top_tie", {"tokens": labels, "count": len(tied)})


# --- one key for every head, or several? -------------------------------------------------------


def _heads_tops(rows: np.ndarray) -> list[list[int]]:
    return [top_keys(row) for row in np.asarray(rows, dtype=np.float64)]


def _split_holds(said: Claim, rows: np.ndarray, tokens: Sequence[str], query: int) -> bool:
    tops = _heads_tops(rows)
    union = sorted({p for keys in tops for p in keys})
    agree = len(union) == 1
    common = (
        len(tops) >= 2
        and len(tokens) >= 2
        and said.fields["h"] == len(tops)
        and _positions(said.fields["query"], tokens) == [query]
    )
    if said.message == "multi_head.his.agree":
        return common and agree and _positions(said.fields["key"], tokens) == union
    return (
        said.message == "multi_head.his.split"
        and common
        and not agree
        and said.fields["count"] == len(union)
        and not isinstance(said.fields["keys"], str)
        and _positions(said.fields["keys"], tokens) == union
    )


@claim(_split_holds)
def heads_split(rows: np.ndarray, tokens: Sequence[str], query: int) -> Claim | None:
    """Whether the h heads' rows for ``query`` ([h, n]) put their largest weight on one and the
    same key, or on several different keys (ties counted, each key once); nothing for one head
    or one token, where there is nothing to compare."""
    tops = _heads_tops(rows)
    if len(tops) < 2 or len(tokens) < 2:
        return None
    union = sorted({p for keys in tops for p in keys})
    fields: dict[str, object] = {"query": _label(tokens, query), "h": len(tops)}
    if len(union) == 1:
        return Claim("multi_head.his.agree", {**fields, "key": _label(tokens, union[0])})
    keys = [_label(tokens, p) for p in union]
    return Claim("multi_head.his.split", {**fields, "count": len(union), "keys": keys})


# --- the concat and W^O, checked on the trace --------------------------------------------------

#: Largest gap still read as rounding: the concat is a copy (gap 0) and Concat · W^O is the
#: same float64 product the model took, so anything above this is a real difference.
ROUNDING = 1e-9


def _concat_fields(concat: float, out: float) -> dict[str, object]:
    return {"concat": difference_label(concat), "out": difference_label(out)}


def _concat_message(concat: float, out: float) -> str:
    within = concat <= ROUNDING and out <= ROUNDING
    return "multi_head.concat.check" if within else "multi_head.concat.check_apart"


def _concat_holds(said: Claim, concat: float, out: float) -> bool:
    return said.message == _concat_message(concat, out) and dict(said.fields) == _concat_fields(
        concat, out
    )


@claim(_concat_holds)
def concat_check(concat: float, out: float) -> Claim:
    """The check of the concat section: ``concat`` the largest gap between the concat's column
    blocks and the heads' outputs, ``out`` between Concat · W^O and the recorded attention
    output. "Checked" only when both are rounding error; otherwise the gaps, said as such."""
    return Claim(_concat_message(concat, out), _concat_fields(concat, out))
