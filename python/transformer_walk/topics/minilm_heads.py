"""MiniLM's heads, as the Attention page reads them: attention renormalised without [CLS]/[SEP],
the 6 × 12 heads ranked for one (query, target) pair, each held against what position alone
predicts and against other sentences with the same relation, and a run with one head switched
off compared with the full run (beside a control head of the same layer) — with the verdicts
the page prints. Nothing here runs the encoder.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.topics.claims import Claim, claim
from transformer_walk.topics.minilm_tokens import (
    DEFAULT_TARGETS,
    SPECIAL_TOKENS,
    content_positions,
    default_target,
    most_attended,
)
from transformer_walk.topics.senses import cosine

# --- attention ----------------------------------------------------------------------------------


def without_specials(weights: np.ndarray, tokens: list[str]) -> tuple[np.ndarray, list[int]]:
    """Attention with the [CLS]/[SEP] rows and columns dropped and every remaining row
    renormalised to sum to 1 again, with the kept positions.

    weights [..., n, n] → [..., m, m], m = number of content tokens. Each row is divided by the
    weight it had left for content tokens, so the ratios between the kept weights stay as the
    model computed them; only the share that went to [CLS]/[SEP] is handed back.
    """
    keep = content_positions(tokens)
    if not keep:
        return weights[..., :0, :0], keep
    kept = weights[..., keep, :][..., keep]  # (..., m, m)
    totals = kept.sum(axis=-1, keepdims=True)  # (..., m, 1): what the row left for content
    return kept / np.maximum(totals, np.finfo(kept.dtype).tiny), keep


def special_share(weights: np.ndarray, tokens: list[str]) -> np.ndarray:
    """Per layer and head, the mean share of a content query's weight that goes to [CLS] and
    [SEP]. weights [L, h, n, n] → [L, h]; zeros for a text without content."""
    keep = content_positions(tokens)
    specials = [i for i in range(len(tokens)) if i not in keep]
    if not keep or not specials:
        return np.zeros(weights.shape[:-2])
    rows = weights[..., keep, :]  # (L, h, m, n)
    return rows[..., specials].sum(axis=-1).mean(axis=-1)


SINK_SHARE = 0.5  # a head "parks" on a token that takes over half its weight, averaged over queries


def sink_heads(weights: np.ndarray, tokens: list[str]) -> dict[str, int]:
    """How many heads park most of their weight on [CLS], and how many on [SEP]: heads whose
    queries give that token more than ``SINK_SHARE`` of their weight on average.
    weights [L, h, n, n] (rows sum to 1)."""
    counts = {}
    for special in ("[CLS]", "[SEP]"):
        columns = [j for j, token in enumerate(tokens) if token == special]
        share = weights[..., columns].sum(axis=-1).mean(axis=-1)  # (L, h): mean over queries
        counts[special] = int(np.count_nonzero(share > SINK_SHARE))
    return counts


@dataclass(frozen=True)
class RankedHead:
    """One head of the ranking: 0-based layer and head, the weight, and the key that wins the
    query's row in that head."""

    layer: int
    head: int
    weight: float
    top_key: int

    @property
    def label(self) -> str:
        return f"L{self.layer + 1}·H{self.head + 1}"


def rank_heads(
    weights: np.ndarray, query: int, target: int, top: int | None = None
) -> list[RankedHead]:
    """Every head ranked by how much weight ``query`` gives ``target`` (largest first; ties in
    layer, then head order). weights [L, h, n, n]."""
    n_layers, h = weights.shape[:2]
    row = weights[:, :, query, :]  # (L, h, n): the query's row in every head
    to_target = row[:, :, target]  # (L, h)
    order = sorted(
        ((layer, head) for layer in range(n_layers) for head in range(h)),
        key=lambda lh: (-float(to_target[lh]), lh),
    )
    ranked = [
        RankedHead(layer, head, float(to_target[layer, head]), int(row[layer, head].argmax()))
        for layer, head in order
    ]
    return ranked if top is None else ranked[:top]


def head_rows(weights: np.ndarray, query: int, heads: list[RankedHead]) -> np.ndarray:
    """The query's row in each of the given heads: [len(heads), n]."""
    return np.stack([weights[r.layer, r.head, query] for r in heads]) if heads else np.zeros((0, 0))


def mean_weight(attentions: np.ndarray, query: int, key: int) -> float:
    """The weight ``query`` gives ``key``, averaged over every layer and head. [L, h, n, n]."""
    return float(attentions[:, :, query, key].mean())


def uniform_weight(n_keys: int) -> float:
    """The weight of a key when a row spreads evenly: a baseline to compare a ranking with."""
    return 1.0 / max(1, n_keys)


@dataclass(frozen=True)
class Target:
    """Where a target picker starts: ``position``, and why — "example" (the running example's
    word), "attended" (``most_attended``) or "order" (the first token left)."""

    position: int
    source: str


def ranking_targets(attentions: np.ndarray, tokens: list[str], query: int) -> list[Target]:
    """The targets the ranking starts on, one per word of ``DEFAULT_TARGETS``: that word where the
    text has it (and it is not the query), else the next of the tokens the query attends to most
    (``most_attended``), else ``default_target``'s first tokens (a text without word-like tokens).
    attentions [L, h, n, n]."""
    preferred = [
        tokens.index(word) if word in tokens and tokens.index(word) != query else None
        for word in DEFAULT_TARGETS
    ]
    attended = most_attended(attentions, tokens, query, 2 * len(DEFAULT_TARGETS))
    spare = iter(p for p in attended if p not in preferred)
    targets: list[Target] = []
    for position in preferred:
        if position is not None:
            targets.append(Target(position, "example"))
        elif (fresh := next(spare, None)) is not None:
            targets.append(Target(fresh, "attended"))
        else:
            taken = [target.position for target in targets]
            targets.append(Target(default_target(tokens, query, "", taken=taken), "order"))
    return targets


def view_words(tokens: list[str], positions: Sequence[int]) -> list[int]:
    """Indices into a view of the sentence (its ``positions``) of the tokens other than [CLS] and
    [SEP]: the queries and keys whose habits the position controls average."""
    return [k for k, p in enumerate(positions) if tokens[p] not in SPECIAL_TOKENS]


# --- position alone: the controls of the ranking ------------------------------------------------

#: A head *has* a position pattern (previous token, itself, first or last key) when the queries give
#: that key more than this share of their weight on average, as ``SINK_SHARE``.
PATTERN_SHARE = SINK_SHARE
#: "Above what position alone predicts": more than this many times the prediction (and more than an
#: even share, 1/m). Twice, so that a weight a little over a noisy mean is not called a link.
ABOVE_RATIO = 2.0
#: The verdicts of ``position_verdict``: four patterns that explain the weight by position, and
#: the two answers of the comparison with the prediction.
POSITION_VERDICTS = (
    "previous", "next", "same", "first", "first_word", "last", "above", "not_above"
)  # fmt: skip
PATTERNS = POSITION_VERDICTS[:-2]  # the verdicts that put a weight down to position


@dataclass(frozen=True)
class PositionHabits:
    """How one head spends its queries' weight by position alone, in one sentence: the mean over
    the queries (``position_habits``' ``words``) of the weight each gives the token just before
    it, itself, the first key and the last key, the token just after it and the first word (the
    first of ``words``, which is not the first key while [CLS] is shown); and the even share
    1/m."""

    previous: float
    same: float
    first: float
    last: float
    keys: int  # m
    next: float = 0.0
    first_word: float = 0.0
    first_word_at: int = 0  # where the first word stands among the keys

    @property
    def uniform(self) -> float:
        return uniform_weight(self.keys)


def position_habits(
    head: np.ndarray, words: Sequence[int] | None = None, leave_out: int | None = None
) -> PositionHabits:
    """``PositionHabits`` of one head's matrix ``head`` [m, m], averaged over the query rows
    ``words`` (all by default; the page passes the word-like ones, so that [CLS] looking at
    itself does not count as a habit), ``leave_out`` left out (the query under test: its own
    weight must not predict itself). The token before or after a word counts only when it is a
    word too ([CLS] "before" the first word is a sink, not a previous token). 0 where no query
    has such a key."""
    m = head.shape[-1]
    keys = list(range(m)) if words is None else list(words)
    allowed = set(keys)
    rows = [q for q in keys if q != leave_out]

    def mean(values: list[float]) -> float:
        return float(np.mean(values)) if values else 0.0

    first_word = min(keys) if keys else 0
    return PositionHabits(
        previous=mean([float(head[q, q - 1]) for q in rows if q - 1 in allowed]),
        same=mean([float(head[q, q]) for q in rows]),
        first=mean([float(head[q, 0]) for q in rows]),
        last=mean([float(head[q, m - 1]) for q in rows]),
        keys=m,
        next=mean([float(head[q, q + 1]) for q in rows if q + 1 in allowed]),
        # the other words' weight to the first word (its own row would be "same")
        first_word=mean([float(head[q, first_word]) for q in rows if q != first_word]),
        first_word_at=first_word,
    )


def relative_place(query: int, target: int, keys: int) -> tuple[str, int]:
    """Where ``target`` stands for ``query`` among ``keys`` keys, as position alone sees it:
    ("first", 0) or ("last", 0) for the ends (a head can park on either), ("same", 0) for the
    query itself, else ("back", k) or ("ahead", k), k places away."""
    if target == 0:
        return ("first", 0)
    if target == keys - 1:
        return ("last", 0)
    if target == query:
        return ("same", 0)
    return ("back", query - target) if target < query else ("ahead", target - query)


@dataclass(frozen=True)
class Prediction:
    """What position alone predicts for the weight from one query to one key in one head."""

    value: float
    pairs: int  # how many other (query, key) pairs it averages; 0: none, ``value`` is 1/m

    @property
    def basis(self) -> str:
        """ "mean" (of ``pairs`` other pairs) or "even" (no other pair: the even share 1/m)."""
        return "mean" if self.pairs else "even"


def position_prediction(
    head: np.ndarray, query: int, target: int, words: Sequence[int] | None = None
) -> Prediction:
    """What position alone predicts for ``head[query, target]`` [m, m]: the mean weight that the
    other queries of ``words`` (all by default) give the key standing where ``target`` stands
    relative to them — the same key when ``target`` is the first or the last one (a head can park
    on either end), otherwise the key ``target − query`` places away (one of ``words`` too). The
    query itself is left out, so its own weight does not predict itself; with no other pair the
    prediction is the even share 1/m."""
    m = head.shape[-1]
    rows = [q for q in (range(m) if words is None else words) if q != query]
    if relative_place(query, target, m)[0] in ("first", "last"):
        keys = [(q, target) for q in rows]
    else:
        allowed = set(range(m) if words is None else words)
        offset = target - query
        keys = [(q, q + offset) for q in rows if q + offset in allowed and 0 <= q + offset < m]
    if not keys:
        return Prediction(uniform_weight(m), 0)
    return Prediction(float(np.mean([head[q, k] for q, k in keys])), len(keys))


def position_verdict(
    weight: float, habits: PositionHabits, query: int, target: int, predicted: float
) -> str:
    """Whether position alone explains the weight ``query`` gives ``target`` in one head:

    - one of ``PATTERNS`` ("previous", "next", "same", "first", "first_word", "last"): the target
      is the token just before or just after the query, the query itself, the first key, the
      first word or the last key, and the head gives that key more than ``PATTERN_SHARE`` of its
      weight on average (``habits``) — a position pattern;
    - "above": otherwise, when the weight is more than ``ABOVE_RATIO`` times ``predicted``
      (``position_prediction``) and more than the even share 1/m;
    - "not_above": otherwise (a tie with either bound is not above).
    """
    patterns = (
        ("previous", target == query - 1, habits.previous),
        ("next", target == query + 1, habits.next),
        ("same", target == query, habits.same),
        ("first", target == 0, habits.first),
        ("first_word", target == habits.first_word_at, habits.first_word),
        ("last", target == habits.keys - 1, habits.last),
    )
    for name, applies, share in patterns:
        if applies and share > PATTERN_SHARE:
            return name
    return "above" if weight > max(ABOVE_RATIO * predicted, habits.uniform) else "not_above"


@dataclass(frozen=True)
class PositionCheck:
    """One head's weight for one (query, target) pair beside what position alone predicts."""

    weight: float
    habits: PositionHabits
    predicted: Prediction
    verdict: str  # one of POSITION_VERDICTS

    @property
    def pattern_share(self) -> float:
        """The habit behind a pattern verdict ("previous" → ``habits.previous`` …); 0 for
        "above" and "not_above"."""
        return float(getattr(self.habits, self.verdict, 0.0)) if self.verdict in PATTERNS else 0.0


def check_position(
    head: np.ndarray, query: int, target: int, words: Sequence[int] | None = None
) -> PositionCheck:
    """``position_verdict`` of ``head[query, target]``, with its habits and prediction.
    head [m, m]."""
    habits = position_habits(head, words, leave_out=query)
    predicted = position_prediction(head, query, target, words)
    weight = float(head[query, target])
    return PositionCheck(
        weight, habits, predicted, position_verdict(weight, habits, query, target, predicted.value)
    )


def check_heads(
    weights: np.ndarray, query: int, target: int, words: Sequence[int] | None = None
) -> list[list[PositionCheck]]:
    """``check_position`` in every head: [L][h]. weights [L, h, m, m]."""
    n_layers, h = weights.shape[:2]
    return [
        [check_position(weights[layer, head], query, target, words) for head in range(h)]
        for layer in range(n_layers)
    ]


# --- the same relation in other sentences ------------------------------------------------------


@dataclass(frozen=True)
class Relation:
    """A sentence in which ``pronoun`` refers back to ``owner`` (both single WordPiece tokens)."""

    text: str
    pronoun: str
    owner: str


#: Possessive pronouns and their owners, at different distances (from 2 to 8 words back) and not
#: always the first word, so that a head keyed to a distance or to the sentence's start does not
#: pass them all: the control sentences of the head claims. Each pronoun and owner is one WordPiece
#: token, and the owner is the only word before the pronoun it can refer to (tests hold both).
POSSESSIVES = (
    Relation("Tom loves his dog", "his", "tom"),
    Relation("The old man loves his dog", "his", "man"),
    Relation("Tom says Mary loves her cat", "her", "mary"),
    Relation("The teacher drove home from work in her new car", "her", "teacher"),
    Relation("The boy next door lost his keys", "his", "boy"),
    Relation("Anna washed her hands", "her", "anna"),
    Relation("Yesterday the farmer sold his horse", "his", "farmer"),
    Relation("The queen waved to the crowd from her balcony", "her", "queen"),
    Relation("After dinner the king read his letters", "his", "king"),
    Relation("My sister painted her room blue", "her", "sister"),
    Relation("The doctor left his bag in the car", "his", "doctor"),
    Relation("In the morning the girl fed her rabbit", "her", "girl"),
    Relation("The pilot checked the map before he started his engine", "his", "pilot"),
    Relation("Peter gave the book back to his friend", "his", "peter"),
    Relation("The actress forgot her lines on stage", "her", "actress"),
    Relation("The children watched as the baker opened his shop", "his", "baker"),
    Relation("When it rained the old woman closed her windows", "her", "woman"),
    Relation("The student who sat at the back raised his hand", "his", "student"),
    Relation("Every evening the fisherman mends his nets", "his", "fisherman"),
    Relation("The nurse smiled and put on her coat", "her", "nurse"),
    Relation("Jack cleaned the mud off his boots", "his", "jack"),
    Relation("The singer thanked her band", "her", "singer"),
    Relation("On Sunday my uncle washed his car", "his", "uncle"),
    Relation("Lucy found a coin in her pocket", "her", "lucy"),
)


def relation_positions(tokens: list[str], relation: Relation) -> tuple[int, int] | None:
    """(pronoun, owner) positions in ``tokens``: the last pronoun and the last owner before it;
    None when either is missing."""
    pronouns = [p for p, token in enumerate(tokens) if token == relation.pronoun]
    if not pronouns:
        return None
    owners = [p for p, token in enumerate(tokens[: pronouns[-1]]) if token == relation.owner]
    return (pronouns[-1], owners[-1]) if owners else None


@dataclass(frozen=True)
class RelationCheck:
    """One head on one sentence of ``POSSESSIVES``: the pronoun's weight to its owner beside what
    position alone predicts, and the word the pronoun gives the most weight."""

    pronoun: int
    owner: int
    check: PositionCheck
    top_word: int  # among ``words`` other than the pronoun

    @property
    def owner_on_top(self) -> bool:
        return self.top_word == self.owner

    @property
    def links(self) -> bool:
        """Above what position predicts, and the owner is the word the pronoun looks at most."""
        return self.check.verdict == "above" and self.owner_on_top


def check_relation(
    head: np.ndarray, pronoun: int, owner: int, words: Sequence[int]
) -> RelationCheck:
    """``check_position`` of pronoun → owner in ``head`` [m, m], and the pronoun's top word among
    ``words`` (itself left out; ties to the earlier word)."""
    others = [k for k in words if k != pronoun]
    top = max(others, key=lambda k: (float(head[pronoun, k]), -k)) if others else owner
    return RelationCheck(pronoun, owner, check_position(head, pronoun, owner, words), top)


def same_sentence(a: str, b: str) -> bool:
    """Whether two texts are one sentence, case, outer spaces and final punctuation aside (the
    page's own sentence is no control for a head picked on it)."""

    def norm(text: str) -> str:
        return re.sub(r"[\s.!?。！？]+$", "", text.strip()).lower()

    return norm(a) == norm(b)


def top_word_habit(checks: Sequence[RelationCheck], first_words: Sequence[int]) -> tuple[str, int]:
    """What the pronoun's top word is in every one of ``checks`` by position alone: ("offset", k)
    when it is always k places from the pronoun (k > 0 after it, < 0 before), ("first_word", 0)
    when it is always its sentence's first word (``first_words``, one per check), else
    ("none", 0). A habit like that explains "the head looks at the owner" wherever the owner
    stands there, and nothing where it does not."""
    if not checks:
        return ("none", 0)
    offsets = {c.top_word - c.pronoun for c in checks}
    if len(offsets) == 1:
        return ("offset", offsets.pop())
    if all(c.top_word == f for c, f in zip(checks, first_words, strict=True)):
        return ("first_word", 0)
    return ("none", 0)


#: The verdicts of ``controls_verdict``.
CONTROL_VERDICTS = ("all", "most", "some", "none")


def controls_verdict(above: int, total: int) -> str:
    """How a head reads across ``total`` control sentences in ``above`` of which it passes
    (``RelationCheck.links``): "all" of them, "most" (more than half), "some" (at least one,
    half or fewer), "none". ValueError for counts that cannot be."""
    if total < 1 or not 0 <= above <= total:
        raise ValueError(f"{above} of {total} sentences: need 0 <= above <= total and total >= 1")
    if above == total:
        return "all"
    if 2 * above > total:
        return "most"
    return "some" if above else "none"


# --- the controls, said -------------------------------------------------------------------------


def _passes(check: RelationCheck) -> tuple[bool, bool]:
    """(above, links) recomputed from the check's raw numbers, not read from its verdict."""
    c = check.check
    verdict = position_verdict(c.weight, c.habits, check.pronoun, check.owner, c.predicted.value)
    return verdict == "above", verdict == "above" and check.top_word == check.owner


def _counts(checks: Sequence[RelationCheck]) -> dict[str, int]:
    passes = [_passes(c) for c in checks]
    return {
        "above": sum(above for above, _ in passes),
        "links": sum(links for _, links in passes),
        "total": len(checks),
    }


def _summary_holds(said: Claim, head: str, checks: Sequence[RelationCheck]) -> bool:
    return (
        bool(checks)
        and said.message == "minilm_attention.ctrl.summary"
        and dict(said.fields) == {"head": head, **_counts(checks)}
    )


@claim(_summary_holds)
def controls_summary(head: str, checks: Sequence[RelationCheck]) -> Claim | None:
    """In how many control sentences head ``head`` gives the owner more than position alone
    predicts, and in how many of those the owner is also the pronoun's top word; None without
    a sentence."""
    if not checks:
        return None
    return Claim("minilm_attention.ctrl.summary", {"head": head, **_counts(checks)})


#: The message of each ``controls_verdict``, written out so that the id check finds it.
CONTROL_MESSAGES = {
    "all": "minilm_attention.ctrl.verdict.all",
    "most": "minilm_attention.ctrl.verdict.most",
    "some": "minilm_attention.ctrl.verdict.some",
    "none": "minilm_attention.ctrl.verdict.none",
}
HABIT_MESSAGES = {
    "after": "minilm_attention.ctrl.habit.offset_after",
    "before": "minilm_attention.ctrl.habit.offset_before",
}


def _controls_holds(said: Claim, head: str, checks: Sequence[RelationCheck]) -> bool:
    if not checks:
        return False
    counts = _counts(checks)
    verdict = controls_verdict(counts["links"], counts["total"])
    return said.message == CONTROL_MESSAGES[verdict] and dict(said.fields) == {
        "head": head,
        "links": counts["links"],
        "total": counts["total"],
    }


@claim(_controls_holds)
def controls_claim(head: str, checks: Sequence[RelationCheck]) -> Claim | None:
    """What the control sentences allow about head ``head``: it passes in "all", "most",
    "some" or "none" of them (``controls_verdict`` over ``RelationCheck.links``); None without a
    sentence."""
    if not checks:
        return None
    counts = _counts(checks)
    verdict = controls_verdict(counts["links"], counts["total"])
    return Claim(
        CONTROL_MESSAGES[verdict],
        {"head": head, "links": counts["links"], "total": counts["total"]},
    )


def _habit_holds(
    said: Claim, head: str, checks: Sequence[RelationCheck], first_words: Sequence[int]
) -> bool:
    if not checks or dict(said.fields).get("head") != head:
        return False
    offsets = {c.top_word - c.pronoun for c in checks}
    if said.message in HABIT_MESSAGES.values():
        k = said.fields.get("k")
        sign = 1 if said.message.endswith("after") else -1
        return (
            len(offsets) == 1
            and isinstance(k, int)
            and k > 0
            and offsets == {sign * k}
            and set(said.fields) == {"head", "k"}
        )
    return (
        said.message == "minilm_attention.ctrl.habit.first_word"
        and len(offsets) > 1
        and all(c.top_word == f for c, f in zip(checks, first_words, strict=True))
        and set(said.fields) == {"head"}
    )


@claim(_habit_holds)
def habit_claim(
    head: str, checks: Sequence[RelationCheck], first_words: Sequence[int]
) -> Claim | None:
    """A position habit behind the pronoun's top word in every control sentence
    (``top_word_habit``): always k tokens after or before it, or always the sentence's first
    word; None when there is no such habit."""
    kind, k = top_word_habit(checks, first_words)
    if kind == "offset" and k != 0:
        side = "after" if k > 0 else "before"
        return Claim(HABIT_MESSAGES[side], {"head": head, "k": abs(k)})
    if kind == "first_word":
        return Claim("minilm_attention.ctrl.habit.first_word", {"head": head})
    return None


# --- one head switched off ---------------------------------------------------------------------


def control_head(
    weights: np.ndarray, layer: int, query: int, target: int, switched_off: int
) -> int:
    """The head switched off beside ``switched_off`` as a control: of the other heads of
    ``layer``, the one in the middle when they are ranked by the weight ``query`` gives
    ``target`` (largest first, ties in head order; of an even number, the upper of the two
    middle ones). It is chosen by the ranking's own measure, not by what switching it off does,
    so it cannot have been picked to look small; from the same layer, so it acts at the same
    depth. weights [L, h, m, m]; ValueError for a layer without another head."""
    to_target = weights[layer, :, query, target]  # (h,)
    others = sorted(
        (h for h in range(weights.shape[1]) if h != switched_off),
        key=lambda h: (-float(to_target[h]), h),
    )
    if not others:
        raise ValueError(f"layer {layer} has no head besides {switched_off} to compare with")
    return others[(len(others) - 1) // 2]


#: Decimals of the cosines the page shows: heads move a state by 1 − cos ≈ 0.0003–0.01.
ABLATION_DECIMALS = 4


@dataclass(frozen=True)
class AblationEffect:
    """What switching one head off did to a run: cosines with the run that has every head on."""

    query_cosine: float  # the query token's last hidden state, off against on
    sentence_cosine: float  # the sentence embeddings
    nearest: int  # the token whose last hidden state is nearest the query's, with the head off

    @property
    def query_change(self) -> float:
        """1 − cos of the query's state, from the cosine as shown (``ABLATION_DECIMALS``)."""
        return shown_change(self.query_cosine)

    @property
    def sentence_change(self) -> float:
        return shown_change(self.sentence_cosine)


def shown_change(cos: float) -> float:
    """1 − cos on the cosine as the page shows it, so the verdict and its numbers agree."""
    return round(1.0 - round(float(cos), ABLATION_DECIMALS), ABLATION_DECIMALS)


def nearest_token(last: np.ndarray, query: int, candidates: Sequence[int]) -> int:
    """Of ``candidates`` (the query left out), the token whose row of ``last`` [n, d] has the
    highest cosine with the query's (ties: the earlier); the query itself when there is none."""
    others = [c for c in candidates if c != query]
    if not others:
        return query
    sims = cosine(last[query][None, :], last[others])  # (len(others),)
    return others[int(np.argmax(sims))]


def ablation_effect(
    on_last: np.ndarray,
    off_last: np.ndarray,
    on_sentence: np.ndarray,
    off_sentence: np.ndarray,
    query: int,
    candidates: Sequence[int],
) -> AblationEffect:
    """Compare a run with one head off with the run with every head on: last hidden states
    [n, d] and sentence embeddings [d] of each, the query's position, the tokens it may be
    nearest to (``nearest_token``, in the run with the head off)."""
    return AblationEffect(
        float(cosine(on_last[query], off_last[query])),
        float(cosine(on_sentence, off_sentence)),
        nearest_token(off_last, query, candidates),
    )


# How much further than the control head a head must move the query's state to count as moving
# it more. Measured with all-MiniLM-L6-v2 on the five POSSESSIVES sentences, the long fisherman
# sentence, "The cat chased the mouse because it was hungry" and "I sat on the river bank and
# watched the water" (each with its page default query), switching off each of the 72 heads in
# turn: between two heads of one layer, taken without regard to any pair, the median ratio of
# their changes (1 − cos) is 2.8, and one moves the query more than 6 times as far as the other
# in 12% of the ordered pairs (a quarter
# either way). Below 6 a single control head would too often be
# outdone by chance.
ABLATION_RATIO = 6.0
# A change under this, for both heads, is too small to compare: a third of those 576 single-head
# switches move the query's last state by less (the median moves it by 0.0016).
ABLATION_FLOOR = 0.001
ABLATION_VERDICTS = ("more", "less", "similar", "neither")


def ablation_verdict(
    change: float,
    control: float,
    ratio: float = ABLATION_RATIO,
    floor: float = ABLATION_FLOOR,
) -> str:
    """Does switching the head off change the query's state more than switching off the control
    head? From the two changes 1 − cos (``shown_change``): "neither" when both are below
    ``floor``; "more" when ``change`` is more than ``ratio`` times ``control``; "less" when
    ``control`` is more than ``ratio`` times ``change``; "similar" otherwise (exactly ``ratio``
    times included). ValueError for a ratio below 1, a negative floor or a negative change."""
    if ratio < 1 or floor < 0:
        raise ValueError(f"need ratio >= 1 and floor >= 0, got ratio={ratio}, floor={floor}")
    if change < 0 or control < 0:
        raise ValueError(f"changes 1 − cos are >= 0 here, got {change} and {control}")
    # The changes come with 4 decimals, and 6 × 0.0017 is 0.010199999999999999 in floating
    # point: a tolerance far below those decimals keeps an exact tie a tie.
    tie = 1e-12
    if change < floor - tie and control < floor - tie:
        return "neither"
    if change - ratio * control > tie:
        return "more"
    if control - ratio * change > tie:
        return "less"
    return "similar"
