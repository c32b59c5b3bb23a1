"""What the Seq2seq page may say about the reversal Transformer beside the two GRUs: claim
functions (``topics.claims``) over the raw numbers — accuracies, losses, seconds — each checked by
its predicate from the same numbers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from transformer_walk.topics.claims import Claim, claim, percent

#: Accuracies closer than this count as even (five points), as ``gru_seq2seq.EVEN_MARGIN``.
EVEN_MARGIN = 0.05
#: Past the training lengths, a fall of at least this many points to at most ``CLIFF_CHANCE``
#: times a random letter's accuracy is a cliff, not a slope.
CLIFF_DROP = 0.3
CLIFF_CHANCE = 2.0
#: A final training loss over this is "still learning" (``gru_seq2seq.STILL_LEARNING_LOSS``).
STILL_LEARNING_LOSS = 0.1
#: A growth counts as slower or faster than both GRUs' only when it is apart from the nearer by
#: this factor: step times on a shared 2-core machine scatter by several percent, so ×7.3 against
#: ×7.6 is no evidence of parallel work.
GROWTH_MARGIN = 1.2


#: The message of each verdict (written out, so that every id the page may show is in the code).
WITHIN = {
    "ahead": "seq2seq_transformer.curve.within.ahead",
    "even": "seq2seq_transformer.curve.within.even",
    "behind": "seq2seq_transformer.curve.within.behind",
}
STATE = {
    "still_learning": "seq2seq_transformer.curve.still_learning",
    "trained": "seq2seq_transformer.curve.trained",
}
MEAN = {
    "slowest": "seq2seq_transformer.time.mean.slowest",
    "between": "seq2seq_transformer.time.mean.between",
    "fastest": "seq2seq_transformer.time.mean.fastest",
}
GROWTH = {
    "slower": "seq2seq_transformer.time.growth.slower",
    "between": "seq2seq_transformer.time.growth.between",
    "close_below": "seq2seq_transformer.time.growth.close_below",
    "close_above": "seq2seq_transformer.time.growth.close_above",
    "faster": "seq2seq_transformer.time.growth.faster",
}


def ms(seconds: float) -> str:
    """Seconds as milliseconds with two significant digits at least: "0.53 ms", "12.4 ms"."""
    value = seconds * 1e3
    return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"


def times(ratio: float) -> str:
    return f"×{ratio:.1f}"


# --- accuracy within and past the training lengths -------------------------------------------


def _versus(transformer: float, attention: float) -> str:
    if transformer - attention >= EVEN_MARGIN:
        return "ahead"
    if attention - transformer >= EVEN_MARGIN:
        return "behind"
    return "even"


def _within_holds(
    said: Claim, length: int, transformer: float, attention: float, fixed: float
) -> bool:
    verdict = _versus(transformer, attention)
    return said == Claim(
        WITHIN[verdict],
        {"length": length, "transformer": percent(transformer), "attention": percent(attention),
         "fixed": percent(fixed)},
    )  # fmt: skip


@claim(_within_holds)
def within_training(length: int, transformer: float, attention: float, fixed: float) -> Claim:
    """The Transformer against the attention GRU at the longest training length (token
    accuracies): ahead, even or behind by ``EVEN_MARGIN``."""
    return Claim(
        WITHIN[_versus(transformer, attention)],
        {"length": length, "transformer": percent(transformer), "attention": percent(attention),
         "fixed": percent(fixed)},
    )  # fmt: skip


def _is_cliff(long_acc: float, next_acc: float, chance: float) -> bool:
    return long_acc - next_acc >= CLIFF_DROP and next_acc <= CLIFF_CHANCE * chance


def _past_holds(
    said: Claim, long: int, long_acc: float, next_acc: float, attention_next: float,
    chance: float,
) -> bool:  # fmt: skip
    if not _is_cliff(long_acc, next_acc, chance):
        return False
    return said == Claim(
        "seq2seq_transformer.curve.cliff",
        {"long": long, "next": long + 1, "long_acc": percent(long_acc),
         "next_acc": percent(next_acc), "attention_next": percent(attention_next),
         "chance": f"{chance:.1%}",
         "positions": 2 * long + 1, "mark_from": 2, "mark_to": long + 1},
    )  # fmt: skip


@claim(_past_holds)
def past_training(
    long: int, long_acc: float, next_acc: float, attention_next: float, chance: float
) -> Claim | None:
    """One letter past the longest training length ``long``: a cliff for the Transformer (a
    fall of ``CLIFF_DROP`` or more to near chance), explained by its learned positions; None when
    it is not one (the curve's other sentences then speak)."""
    if not _is_cliff(long_acc, next_acc, chance):
        return None
    return Claim(
        "seq2seq_transformer.curve.cliff",
        {"long": long, "next": long + 1, "long_acc": percent(long_acc),
         "next_acc": percent(next_acc), "attention_next": percent(attention_next),
         "chance": f"{chance:.1%}",
         # inputs of ``long`` letters fill 2·long + 1 positions; the mark sat at 2 … long + 1
         "positions": 2 * long + 1, "mark_from": 2, "mark_to": long + 1},
    )  # fmt: skip


def _loss_holds(said: Claim, loss: float, window: int) -> bool:
    state = "still_learning" if loss > STILL_LEARNING_LOSS else "trained"
    return said == Claim(STATE[state], {"loss": f"{loss:.3f}", "window": window})


@claim(_loss_holds)
def training_state(loss: float, window: int) -> Claim | None:
    """Whether the Transformer's training loss (mean of the last ``window`` steps) is still over
    ``STILL_LEARNING_LOSS``; None before any step (NaN)."""
    if loss != loss:  # NaN: no step was taken
        return None
    state = "still_learning" if loss > STILL_LEARNING_LOSS else "trained"
    return Claim(STATE[state], {"loss": f"{loss:.3f}", "window": window})


# --- time per step ----------------------------------------------------------------------------


def _rank(transformer: float, grus: Sequence[float]) -> str:
    if transformer > max(grus):
        return "slowest"
    return "fastest" if transformer < min(grus) else "between"


def _mean_holds(said: Claim, fixed: float, attention: float, transformer: float) -> bool:
    if min(fixed, attention, transformer) <= 0:
        return False
    return said == Claim(
        MEAN[_rank(transformer, (fixed, attention))],
        {"fixed": ms(fixed), "attention": ms(attention), "transformer": ms(transformer),
         "ratio": times(transformer / attention)},
    )  # fmt: skip


@claim(_mean_holds)
def mean_step(fixed: float, attention: float, transformer: float) -> Claim | None:
    """Seconds per training step, averaged over each model's training: where the Transformer's
    falls among the GRUs', and its ratio to the attention GRU's. None without a positive time."""
    if min(fixed, attention, transformer) <= 0:
        return None
    return Claim(
        MEAN[_rank(transformer, (fixed, attention))],
        {"fixed": ms(fixed), "attention": ms(attention), "transformer": ms(transformer),
         "ratio": times(transformer / attention)},
    )  # fmt: skip


def _growth_fields(
    lengths: Sequence[int], seconds: Mapping[str, Sequence[float]]
) -> tuple[str, dict[str, object]]:
    ratio = {m: s[-1] / s[0] for m, s in seconds.items()}
    fields: dict[str, object] = {"short": lengths[0], "long": lengths[-1]}
    for m, s in seconds.items():
        fields |= {f"{m}_short": ms(s[0]), f"{m}_long": ms(s[-1]), f"{m}_ratio": times(ratio[m])}
    grus = (ratio["fixed"], ratio["attention"])
    if ratio["transformer"] * GROWTH_MARGIN < min(grus):
        verdict = "slower"
    elif ratio["transformer"] > max(grus) * GROWTH_MARGIN:
        verdict = "faster"
    elif ratio["transformer"] < min(grus):
        verdict = "close_below"  # below both, by less than the margin
    elif ratio["transformer"] > max(grus):
        verdict = "close_above"
    else:
        verdict = "between"
    return GROWTH[verdict], fields


def _usable(lengths: Sequence[int], seconds: Mapping[str, Sequence[float]]) -> bool:
    return (
        len(lengths) >= 2
        and set(seconds) == {"fixed", "attention", "transformer"}
        and all(len(s) == len(lengths) and min(s) > 0 for s in seconds.values())
    )


def _growth_holds(
    said: Claim, lengths: Sequence[int], seconds: Mapping[str, Sequence[float]]
) -> bool:
    if not _usable(lengths, seconds):
        return False
    message, fields = _growth_fields(lengths, seconds)
    return said == Claim(message, fields)


@claim(_growth_holds)
def step_growth(lengths: Sequence[int], seconds: Mapping[str, Sequence[float]]) -> Claim | None:
    """How a training step's time grows from the shortest to the longest length timed, for each
    of "fixed", "attention" and "transformer" (``seconds[model][k]`` at ``lengths[k]``): whether
    the Transformer's grows more slowly than both GRUs', faster than both (each by at least
    ``GROWTH_MARGIN``), between them, or below or above both by less than that margin."""
    if not _usable(lengths, seconds):
        return None
    message, fields = _growth_fields(lengths, seconds)
    return Claim(message, fields)


# --- the learner's own string -------------------------------------------------------------------


def _own_holds(
    said: Claim, length: int, right: int | None, exact: bool, limit: int
) -> bool:  # fmt: skip
    if right is None:
        return length > limit and said == Claim(
            "seq2seq_transformer.own.too_long", {"length": length, "limit": limit}
        )
    if exact and right != length:
        return False
    if exact:
        return said == Claim("seq2seq_transformer.own.exact", {"length": length})
    return said == Claim("seq2seq_transformer.own.partial", {"length": length, "right": right})


@claim(_own_holds)
def own_answer(length: int, right: int | None, exact: bool, limit: int) -> Claim | None:
    """The Transformer's answer to the learner's string of ``length`` letters: exact (every
    letter and the end mark in place), ``right`` letters in place, or not read at all (``right``
    None: longer than ``limit``, the most its position table holds). None if the numbers do not
    fit together (exact with a letter wrong)."""
    if right is None:
        if length <= limit:
            return None
        return Claim("seq2seq_transformer.own.too_long", {"length": length, "limit": limit})
    if exact and right != length:
        return None
    if exact:
        return Claim("seq2seq_transformer.own.exact", {"length": length})
    return Claim("seq2seq_transformer.own.partial", {"length": length, "right": right})
