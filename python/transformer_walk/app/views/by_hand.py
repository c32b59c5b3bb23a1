"""What Attention by hand may say about one query's scores: who wins and by how much, whether
the scores are still the article's illustrative ones, and how a guess fared — each a claim
function (``topics.claims``) whose predicate re-checks it from the scores.

A guess is judged on the scores it was made for, which the page keeps with it: an edit after
the reveal changes the steps shown, never the verdict on an earlier guess.

Weights are compared as the page shows them, to three decimals: keys whose weights show the
same are tied. Tokens are passed as the names the page shows (``names``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

import numpy as np

from transformer_walk.topics.claims import Claim, claim

Scores: TypeAlias = Sequence[float] | np.ndarray  # [n], one query's scores

#: The least ratio α_top / α_runner-up (as shown, to two decimals) called a clear win.
CLEAR_RATIO = 2.0
#: A weight guess this close to the true weight is "close".
WEIGHT_TOLERANCE = 0.05


def weights_of(scores: Scores) -> np.ndarray:
    """softmax(scores) in float64, the largest score subtracted first."""
    s = np.asarray(scores, dtype=np.float64)
    e = np.exp(s - s.max())
    return e / e.sum()


def winners(scores: Scores) -> list[int]:
    """Every key whose weight shows (to three decimals) as the largest."""
    shown = np.round(weights_of(scores), 3)
    return np.flatnonzero(shown == shown.max()).tolist()


def runner_up(scores: Scores) -> int | None:
    """The key with the largest weight after the winners (the first such), None if all tie."""
    top = set(winners(scores))
    rest = [j for j in np.argsort(-weights_of(scores), kind="stable").tolist() if j not in top]
    return rest[0] if rest else None


def _number(value: float) -> str:
    """A score as typed: 2.5, 1, -0.3 (never "-0")."""
    text = f"{float(value):g}"
    return "0" if text == "-0" else text


def scores_text(scores: Scores) -> str:
    """[2.5, 0.5, 1, 0.8]: a score vector as notation, the same in both languages."""
    return "[" + ", ".join(_number(s) for s in scores) + "]"


# --- who wins ---------------------------------------------------------------------------------


def _winner_fields(scores: Scores, names: Sequence[str], query: str) -> Claim | None:
    if len(scores) == 0:
        return None
    top = winners(scores)
    weight = f"{weights_of(scores)[top[0]]:.3f}"
    if len(top) == 1:
        return Claim(
            "attention_by_hand.reveal.answer",
            {"token": names[top[0]], "weight": weight, "query": query},
        )
    tied = [names[i] for i in top]
    return Claim(
        "attention_by_hand.reveal.answer_tie", {"token": tied, "weight": weight, "query": query}
    )


def _winner_holds(said: Claim, scores: Scores, names: Sequence[str], query: str) -> bool:
    return said == _winner_fields(scores, names, query) and query in names


@claim(_winner_holds)
def winner(scores: Scores, names: Sequence[str], query: str) -> Claim | None:
    """The key (or keys, tied as shown) with the largest weight, and that weight."""
    return _winner_fields(scores, names, query)


def _lead_fields(scores: Scores, names: Sequence[str]) -> Claim | None:
    top, second = winners(scores), runner_up(scores)
    s = [float(x) for x in scores]
    if len(top) > 1 and len({s[i] for i in top}) == 1:
        return Claim(
            "attention_by_hand.reveal.tie",
            {"top": [names[i] for i in top], "s_top": _number(s[top[0]])},
        )
    if len(top) > 1:  # tied as shown, not in score
        return Claim(
            "attention_by_hand.reveal.tie_shown",
            {
                "top": [names[i] for i in top],
                "weight": f"{weights_of(scores)[top[0]]:.3f}",
                "scores": [_number(s[i]) for i in top],
            },
        )
    if second is None:
        return None  # a single key: nothing to win against
    w = weights_of(scores)
    ratio = f"{w[top[0]] / w[second]:.2f}"
    return Claim(
        "attention_by_hand.reveal.clear"
        if float(ratio) >= CLEAR_RATIO
        else "attention_by_hand.reveal.close",
        {
            "top": names[top[0]],
            "second": names[second],
            "s_top": _number(s[top[0]]),
            "s_second": _number(s[second]),
            "gap": _number(s[top[0]] - s[second]),
            "ratio": ratio,
            "clear": f"{CLEAR_RATIO:g}",
        },
    )


def _lead_holds(said: Claim, scores: Scores, names: Sequence[str]) -> bool:
    """Recomputed from the scores: the winner and the runner-up, their scores, the ratio of their
    weights, and "clear" only at or above ``CLEAR_RATIO`` (a tie only when the weights show
    equal)."""
    w = weights_of(scores)
    shown = np.round(w, 3)
    if said.message in ("attention_by_hand.reveal.tie", "attention_by_hand.reveal.tie_shown"):
        named = said.fields["top"]
        if not isinstance(named, list):
            return False
        tied = [i for i, name in enumerate(names) if name in named]
        same_score = len({float(scores[i]) for i in tied}) == 1
        return (
            len(tied) > 1
            and len(set(shown[tied])) == 1
            and same_score == (said.message == "attention_by_hand.reveal.tie")
            and said == _lead_fields(scores, names)
        )
    ratio = float(str(said.fields["ratio"]))
    clear = said.message == "attention_by_hand.reveal.clear"
    return said == _lead_fields(scores, names) and (
        ratio >= CLEAR_RATIO if clear else ratio < CLEAR_RATIO
    )


@claim(_lead_holds)
def lead(scores: Scores, names: Sequence[str]) -> Claim | None:
    """How the winner won: a tie; a clear win (at least ``CLEAR_RATIO`` times the runner-up's
    weight), explained; or how close it was. None for a single key."""
    return _lead_fields(scores, names)


# --- whose numbers these are ------------------------------------------------------------------


def _changed(scores: Scores, article: Scores) -> list[int]:
    return [j for j, (a, b) in enumerate(zip(scores, article, strict=True)) if float(a) != float(b)]


def _origin_holds(said: Claim, scores: Scores, article: Scores, names: Sequence[str]) -> bool:
    changed = _changed(scores, article)
    if said.message == "attention_by_hand.illustrative":
        return not changed and not said.fields
    return (
        said.message == "attention_by_hand.edited"
        and bool(changed)
        and list(said.fields) == ["tokens"]
        and said.fields["tokens"] == [names[j] for j in changed]
    )


@claim(_origin_holds)
def origin(scores: Scores, article: Scores, names: Sequence[str]) -> Claim:
    """ "Illustrative" only while every score is the article's; else whose scores were edited."""
    changed = _changed(scores, article)
    if not changed:
        return Claim("attention_by_hand.illustrative")
    return Claim("attention_by_hand.edited", {"tokens": [names[j] for j in changed]})


# --- the learner's guess ----------------------------------------------------------------------


def _then_holds(said: Claim, guessed_on: Scores, scores: Scores) -> bool:
    return (
        list(map(float, guessed_on)) != list(map(float, scores))
        and said.message == "attention_by_hand.reveal.then"
        and dict(said.fields) == {"scores": scores_text(guessed_on)}
    )


@claim(_then_holds)
def guessed_on_other_scores(guessed_on: Scores, scores: Scores) -> Claim | None:
    """That the guess was made on other scores than those shown now, and which: the verdicts
    below it are about those. None while the scores are the same."""
    if list(map(float, guessed_on)) == list(map(float, scores)):
        return None
    return Claim("attention_by_hand.reveal.then", {"scores": scores_text(guessed_on)})


def _verdict(guess: int | None, guessed_on: Scores, names: Sequence[str]) -> Claim:
    if guess is None:
        return Claim("attention_by_hand.reveal.no_guess")
    top = winners(guessed_on)
    if len(top) > 1:
        tied = [names[i] for i in top]
        if guess in top:
            return Claim("attention_by_hand.reveal.right_tie", {"token": names[guess]})
        return Claim("attention_by_hand.reveal.wrong_tie", {"guess": names[guess], "token": tied})
    if guess == top[0]:
        return Claim("attention_by_hand.reveal.right", {"token": names[guess]})
    return Claim("attention_by_hand.reveal.wrong", {"guess": names[guess], "token": names[top[0]]})


def _verdict_holds(
    said: Claim, guess: int | None, guessed_on: Scores, names: Sequence[str]
) -> bool:
    right = said.message.startswith("attention_by_hand.reveal.right")
    return said == _verdict(guess, guessed_on, names) and (
        guess is None or right == (guess in winners(guessed_on))
    )


@claim(_verdict_holds)
def guess_verdict(guess: int | None, guessed_on: Scores, names: Sequence[str]) -> Claim:
    """Right or wrong, judged on ``guessed_on``: the scores the guess was made for."""
    return _verdict(guess, guessed_on, names)


def _weight_verdict(guess: float, token: int, guessed_on: Scores, names: Sequence[str]) -> Claim:
    weight = float(weights_of(guessed_on)[token])
    error = float(guess) - weight
    fields: dict[str, object] = {
        "token": names[token],
        "guess": f"{guess:.2f}",
        "weight": f"{weight:.3f}",
    }
    if abs(error) <= WEIGHT_TOLERANCE:
        return Claim(
            "attention_by_hand.reveal.weight_close",
            {**fields, "tolerance": f"{WEIGHT_TOLERANCE:g}"},
        )
    if error > 0:
        return Claim("attention_by_hand.reveal.weight_high", fields)
    # "a modest gap becomes a large share" explains a low guess only for the key that won
    top = token in winners(guessed_on)
    return Claim(
        "attention_by_hand.reveal.weight_low"
        if top
        else "attention_by_hand.reveal.weight_low_other",
        fields,
    )


def _weight_holds(
    said: Claim, guess: float, token: int, guessed_on: Scores, names: Sequence[str]
) -> bool:
    weight = float(weights_of(guessed_on)[token])
    agrees = {
        "attention_by_hand.reveal.weight_close": abs(guess - weight) <= WEIGHT_TOLERANCE,
        "attention_by_hand.reveal.weight_high": guess - weight > WEIGHT_TOLERANCE,
        "attention_by_hand.reveal.weight_low": weight - guess > WEIGHT_TOLERANCE
        and token in winners(guessed_on),
        "attention_by_hand.reveal.weight_low_other": weight - guess > WEIGHT_TOLERANCE
        and token not in winners(guessed_on),
    }.get(said.message, False)
    return agrees and said == _weight_verdict(guess, token, guessed_on, names)


@claim(_weight_holds)
def weight_verdict(guess: float, token: int, guessed_on: Scores, names: Sequence[str]) -> Claim:
    """How far the guessed weight of ``token`` was from its weight under ``guessed_on``."""
    return _weight_verdict(guess, token, guessed_on, names)
