"""What the Real-model pages show, selected or derived from MiniLM's ``EncoderOutput``.

The model's own numbers (attention weights, hidden states, input embeddings) come from
``transformer_walk.models.minilm``; nothing here runs the encoder. These helpers pick heads and rows
out of them, renormalise attention without [CLS]/[SEP], rank the 6 × 12 heads for one (query,
target) pair and hold each against what position alone predicts and against other sentences with
the same relation, compare a run with one head switched off with the full run (beside a control
head of the same layer), find a word's pieces, and measure how vectors move from layer to layer
(cosines, distances, one PCA shared by every layer so that a token's path can be drawn); they also
choose the verdicts the pages print: a tested pair against a same-sense control pair, a head
switched off against its control, and the words two sentences share (whole-sentence cosines are
pulled by them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.topics.attention_picks import pronoun_position

SPECIAL_TOKENS = ("[CLS]", "[SEP]")
# The running example's defaults (“From word vectors to Transformer” §26): "his" asks, "tom" and
# "dog" are the two answers.
DEFAULT_QUERY = "his"
DEFAULT_TARGETS = ("tom", "dog")


# --- tokens -------------------------------------------------------------------------------------


def content_positions(tokens: list[str]) -> list[int]:
    """Positions of every token except [CLS] and [SEP]."""
    return [i for i, token in enumerate(tokens) if token not in SPECIAL_TOKENS]


def has_content(tokens: list[str]) -> bool:
    """False for a text that tokenized to nothing but [CLS] and [SEP] (empty or blank)."""
    return bool(content_positions(tokens))


def unknown_spans(text: str, tokens: list[str], offsets: Sequence[tuple[int, int]]) -> list[str]:
    """The pieces of ``text`` the tokenizer could only write as [UNK], each once, in order of
    appearance (an emoji, most Chinese characters: the English vocabulary has no piece)."""
    spans = [text[a:b] for token, (a, b) in zip(tokens, offsets, strict=True) if token == "[UNK]"]
    return list(dict.fromkeys(spans))


def default_query(tokens: list[str]) -> int:
    """ "his" if the text has it; otherwise the last content token that stands for a word
    (``word_like``: not an [UNK], which every unknown character shares, nor punctuation), it has
    the most context before it; the last content token if none does; [CLS] (0) for a text
    without content."""
    if DEFAULT_QUERY in tokens:
        return tokens.index(DEFAULT_QUERY)
    content = content_positions(tokens)
    words = [p for p in content if word_like(tokens[p])]
    return words[-1] if words else content[-1] if content else 0


def default_target(tokens: list[str], query: int, preferred: str, taken: Sequence[int] = ()) -> int:
    """``preferred`` if the text has it (and it is not the query); otherwise the first content
    token other than the query and the positions already ``taken`` (so that two pickers without
    their preferred words start on two different tokens); the query itself when there is none."""
    if preferred in tokens and tokens.index(preferred) != query:
        return tokens.index(preferred)
    others = [i for i in content_positions(tokens) if i != query]
    fresh = [i for i in others if i not in taken]
    return fresh[0] if fresh else others[0] if others else query


def default_toward(
    tokens: list[str], attentions: np.ndarray, query: int, preferred: str = DEFAULT_TARGETS[0]
) -> tuple[int, bool]:
    """Where "toward" starts: ``preferred`` if the text has it (and it is not the query), else the
    token the query attends to most (``most_attended``: the first content token, "when" or "the",
    means nothing). The flag is True in that second case, so the page can say why.
    attentions [L, h, n, n]."""
    if preferred in tokens and tokens.index(preferred) != query:
        return tokens.index(preferred), False
    return next(iter(most_attended(attentions, tokens, query, 1)), query), True


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


def word_like(token: str) -> bool:
    """A token that stands for a word or a piece of one: it has a letter or a digit, and it is
    not one of the tokenizer's markers ([CLS], [SEP], [UNK])."""
    return not (token.startswith("[") and token.endswith("]")) and any(c.isalnum() for c in token)


def most_attended(attentions: np.ndarray, tokens: list[str], query: int, k: int) -> list[int]:
    """The ``k`` word-like tokens (``word_like``, not the query) that ``query`` gives the most
    weight, averaged over every layer and head; largest first, ties in sentence order.
    attentions [L, h, n, n]."""
    mean = attentions[:, :, query, :].mean(axis=(0, 1))  # (n,): the query's row, all heads
    candidates = [p for p, token in enumerate(tokens) if p != query and word_like(token)]
    return sorted(candidates, key=lambda p: (-float(mean[p]), p))[: max(0, k)]


def pronoun_query(tokens: list[str]) -> int:
    """The attention page's first query: "his" if the text has it, else its last pronoun
    (``attention_picks.pronoun_position``: "Tom says Mary loves her cat" asks from "her", not
    from "cat"), else ``default_query``."""
    pronoun = pronoun_position(tokens)
    return default_query(tokens) if pronoun is None else pronoun


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


#: Possessive pronouns and their owners, at different distances and not always the first word, so
#: that a head keyed to a distance or to the sentence's start does not pass them all.
POSSESSIVES = (
    Relation("Tom loves his dog", "his", "tom"),
    Relation("The old man loves his dog", "his", "man"),
    Relation("Tom says Mary loves her cat", "her", "mary"),
    Relation("The teacher drove home from work in her new car", "her", "teacher"),
    Relation("The boy next door lost his keys", "his", "boy"),
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


# --- words and vectors --------------------------------------------------------------------------


def find_word(text: str, word: str) -> tuple[int, int] | None:
    """Character span of the first occurrence of ``word`` in ``text`` (case-insensitive): as a
    whole word if it occurs as one, else anywhere (Chinese has no spaces between words)."""
    word = word.strip()
    if not word:
        return None
    whole = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, flags=re.IGNORECASE)
    if whole:
        return whole.span()
    start = text.lower().find(word.lower())
    return None if start < 0 else (start, start + len(word))


def word_pieces(offsets: list[tuple[int, int]], span: tuple[int, int]) -> list[int]:
    """Positions of the tokens whose characters overlap ``span`` (specials have no characters)."""
    start, stop = span
    return [i for i, (s, e) in enumerate(offsets) if e > s and s < stop and e > start]


def mean_rows(vectors: np.ndarray, pieces: list[int]) -> np.ndarray:
    """A word split into several pieces is the mean of its pieces' vectors.
    vectors [..., n, d] → [..., d]."""
    return vectors[..., pieces, :].mean(axis=-2)


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarity over the last axis (broadcasting): [..., d] × [..., d] → [...]."""
    a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
    dot = (a64 * b64).sum(axis=-1)
    norms = np.linalg.norm(a64, axis=-1) * np.linalg.norm(b64, axis=-1)
    return dot / np.maximum(norms, 1e-300)


def cosine_matrix(vectors: np.ndarray) -> np.ndarray:
    """All pairwise cosines of the rows: [m, d] → [m, m]."""
    return cosine(vectors[:, None, :], vectors[None, :, :])


def nearest_rows(table: np.ndarray, vector: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k rows of ``table`` [V, d] with the highest cosine to ``vector`` [d], best first:
    (row indices [k], cosines [k]). Computed in the table's dtype: one [V, d] · [d] product."""
    sims = table @ vector.astype(table.dtype)  # (V,)
    norms = np.linalg.norm(table, axis=1) * np.linalg.norm(vector)  # (V,)
    sims = sims / np.maximum(norms, np.finfo(table.dtype).tiny)
    k = max(0, min(k, len(sims)))
    if k == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=sims.dtype)
    best = np.argpartition(-sims, k - 1)[:k]
    best = best[np.argsort(-sims[best], kind="stable")]
    return best, sims[best]


@dataclass(frozen=True)
class Projection:
    """Every token's hidden state at every layer, projected onto the same two directions."""

    coords: np.ndarray  # [L + 1, n, 2]
    share: float  # of the total variance kept by the two directions


def pca_by_layer(hidden_states: np.ndarray) -> Projection:
    """One PCA fitted on all (layer, token) vectors together, so positions are comparable
    across layers and a token's path is a path in one picture. hidden [L + 1, n, d]."""
    layers, n, d = hidden_states.shape
    points = np.asarray(hidden_states, np.float64).reshape(layers * n, d)  # (L+1)·n points
    centred = points - points.mean(axis=0)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    k = min(2, vt.shape[0])
    coords = np.zeros((layers * n, 2))
    coords[:, :k] = centred @ vt[:k].T
    # SVD signs are arbitrary: fix them so the picture does not flip between runs.
    for c in range(k):
        if coords[np.argmax(np.abs(coords[:, c])), c] < 0:
            coords[:, c] = -coords[:, c]
    total = float((s**2).sum())
    share = float((s[:k] ** 2).sum() / total) if total > 0 else 1.0
    return Projection(coords.reshape(layers, n, 2), share)


@dataclass(frozen=True)
class LayerDistances:
    """How far token i is from token j at each layer, in the full d_model-dimensional space."""

    cosine: np.ndarray  # [L + 1]
    euclidean: np.ndarray  # [L + 1]

    @property
    def closest_layer(self) -> int:
        return int(np.argmax(self.cosine))


def distances_by_layer(hidden_states: np.ndarray, i: int, j: int) -> LayerDistances:
    """Cosine and Euclidean distance between tokens i and j at every layer. hidden [L + 1, n, d]."""
    a, b = hidden_states[:, i], hidden_states[:, j]  # (L + 1, d) each
    diff = np.asarray(a, np.float64) - np.asarray(b, np.float64)
    return LayerDistances(cosine(a, b), np.linalg.norm(diff, axis=-1))


def rank_among_tokens(
    hidden_states: np.ndarray, i: int, j: int, candidates: list[int]
) -> np.ndarray:
    """At each layer, the rank (1 = closest) of token j among ``candidates`` by cosine to token i.
    hidden [L + 1, n, d] → [L + 1] ints."""
    others = [c for c in candidates if c != i]
    sims = cosine(hidden_states[:, i : i + 1], hidden_states[:, others])  # (L + 1, len(others))
    mine = sims[:, others.index(j)][:, None]  # (L + 1, 1)
    return (sims > mine).sum(axis=1) + 1


def mean_cosine_to_others(hidden_states: np.ndarray, i: int, candidates: list[int]) -> np.ndarray:
    """At each layer, token i's mean cosine to the other ``candidates``: the tide every pair
    rides on (in a trained encoder the tokens of a sentence tend to grow alike).
    hidden [L + 1, n, d] → [L + 1]."""
    others = [c for c in candidates if c != i]
    if not others:
        return np.zeros(hidden_states.shape[0])
    return cosine(hidden_states[:, i : i + 1], hidden_states[:, others]).mean(axis=1)


def alike_verdict(first: float, last: float) -> str:
    """ "alike" when the mean cosine to the other tokens rose from layer 0 to the last (the
    tokens grew alike), else "not_alike"."""
    return "alike" if last > first else "not_alike"


# --- one word in two sentences ------------------------------------------------------------------


@dataclass(frozen=True)
class WordInContext:
    """Where a word sits in one run, and its vectors there (the mean of its pieces)."""

    pieces: list[int]  # token positions of the word's WordPiece pieces
    word: np.ndarray  # [d] rows of the input table (context-free)
    embedded: np.ndarray  # [d] embeddings.out = LN(word + position + token type) = x⁰
    hidden: np.ndarray  # [L + 1, d] hidden states, x⁰ first


def word_in_context(
    text: str,
    word: str,
    offsets: list[tuple[int, int]],
    word_rows: np.ndarray,
    embedded: np.ndarray,
    hidden_states: np.ndarray,
) -> WordInContext | None:
    """The word's pieces and vectors in one run (None when the text does not contain it).
    word_rows, embedded [n, d]; hidden_states [L + 1, n, d]."""
    span = find_word(text, word)
    pieces = word_pieces(offsets, span) if span else []
    if not pieces:
        return None
    return WordInContext(
        pieces,
        mean_rows(word_rows, pieces),
        mean_rows(embedded, pieces),
        mean_rows(hidden_states, pieces),
    )


@dataclass(frozen=True)
class Drift:
    """Cosine between the same word's vectors in two sentences, stage by stage."""

    word: float  # the input table's rows: 1 when the pieces are the same ids
    embedded: float  # after adding positions and LayerNorm (x⁰)
    layers: np.ndarray  # [L + 1]: hidden_states[0] (= embedded) … hidden_states[L]


def drift(a: WordInContext, b: WordInContext) -> Drift:
    return Drift(
        float(cosine(a.word, b.word)),
        float(cosine(a.embedded, b.embedded)),
        cosine(a.hidden, b.hidden),
    )


def lowest_between(cosines: Sequence[float] | np.ndarray) -> int | None:
    """The layer of the lowest cosine, if it is worth naming next to the first and the last: None
    when, at the 3 decimals shown, the lowest equals the first or the last value (it would only
    repeat a number already quoted). Ties go to the earlier layer."""
    shown = [round(float(c), 3) for c in cosines]
    low = min(shown)
    return None if low in (shown[0], shown[-1]) else shown.index(low)


# How far below the control pair the tested pair must end to count as "apart". Measured for
# "bank" against "I sat on the river bank." (all-MiniLM-L6-v2, after layer 6): over 15 other
# river-bank sentences the cosine has a standard deviation of 0.047, and two of them differ by
# 0.044 (median over the 105 pairs); so a gap under 0.05 is what merely swapping one same-sense
# sentence for another produces. Eight money-sense sentences ended 0.085–0.134 below the default
# control (0.890).
SENSE_MARGIN = 0.05
SENSE_VERDICTS = ("apart", "no_gap", "reversed")


def sense_gap(test_last: float, control_last: float) -> float:
    """control − test, on the cosines as shown (3 decimals), so that the verdict and the numbers
    it quotes agree even at the margin."""
    return round(round(float(control_last), 3) - round(float(test_last), 3), 3)


def sense_verdict(test_last: float, control_last: float, margin: float = SENSE_MARGIN) -> str:
    """Does the tested pair (two sentences, meant in two senses) end further apart than the
    control pair (the same word in the same sense)? From the last-layer cosines: "apart" when the
    test pair ends more than ``margin`` below the control, "reversed" when more than ``margin``
    above it, "no_gap" within it (a gap of exactly ``margin`` included)."""
    if margin < 0:
        raise ValueError(f"margin must be >= 0, got {margin}")
    gap = sense_gap(test_last, control_last)
    if gap > margin:
        return "apart"
    if gap < -margin:
        return "reversed"
    return "no_gap"


def drift_verdict(cosines: Sequence[float], ranks: Sequence[int]) -> str:
    """What the numbers of "does token i move toward token j?" support, with the rank as the
    control: "closer" when the cosine rose and j ends as i's nearest token; "all_closer" when it
    rose but j does not end nearest (the tokens grew alike, j not singled out); "not_closer" when
    the cosine did not rise. ``cosines`` and ``ranks`` (1 = nearest) by layer, layer 0 first."""
    if cosines[-1] <= cosines[0]:
        return "not_closer"
    return "closer" if ranks[-1] == 1 else "all_closer"


# --- words shared by two sentences --------------------------------------------------------------

# Han characters stand alone: Chinese writes no spaces, so each character counts as a word.
_WORD = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[^\W_\u3400-\u9fff\uf900-\ufaff]+")


def words(text: str) -> set[str]:
    """The lower-cased words of ``text``: runs of letters and digits, each Han character alone."""
    return set(_WORD.findall(text.lower()))


def shared_words(a: str, b: str) -> list[str]:
    """The words two sentences have in common (compared lower-cased), each as it is first
    written in ``a``, in ``a``'s order."""
    theirs, seen, shared = words(b), set(), []
    for written in _WORD.findall(a):
        word = written.lower()
        if word in theirs and word not in seen:
            seen.add(word)
            shared.append(written)
    return shared


def word_overlap(a: str, b: str) -> float:
    """Jaccard over words: |shared| / |all distinct words of both| (0 for two texts without any)."""
    wa, wb = words(a), words(b)
    union = wa | wb
    return len(wa & wb) / len(union) if union else 0.0


OVERLAP_KINDS = ("none", "little", "shared")


def overlap_kind(a: str, b: str, min_overlap: float | None = None) -> str:
    """How much two sentences' words overlap, for the sentence about them: "none" (no word in
    common), "little" (some, but a word overlap under ``min_overlap``, ``OVERLAP_LEAD`` unless
    given: one "the" in two six-word sentences), "shared" (at least that)."""
    threshold = OVERLAP_LEAD if min_overlap is None else min_overlap
    if not shared_words(a, b):
        return "none"
    return "shared" if word_overlap(a, b) >= threshold else "little"


@dataclass(frozen=True)
class OverlapPull:
    """Sentence ``i`` is closer to ``j`` than to ``k`` (its nearest and second-nearest by cosine)
    and shares more of its words with ``j`` than with ``k``."""

    i: int
    j: int
    k: int


def closest_pair(sims: np.ndarray) -> tuple[int, int]:
    """The two different rows with the highest cosine (i < j; ties: the first in row order).
    sims [m, m], m >= 2."""
    m = sims.shape[0]
    if m < 2 or sims.shape != (m, m):
        raise ValueError(f"need a square matrix of at least 2 sentences, got shape {sims.shape}")
    pairs = [(i, j) for i in range(m) for j in range(i + 1, m)]
    return max(pairs, key=lambda p: (float(sims[p]), -p[0], -p[1]))


# How much more of its words a sentence must share with its nearest neighbour than with the
# runner-up before the page names the pull. Two six-word sentences sharing one word have a
# Jaccard of 1/11 ≈ 0.09, so a lead of 0.15 takes about two shared words more (one in sentences of
# three or four words): a lone "the" is not named, "I, the, bank" against "the" (0.33 − 0.09) is.
OVERLAP_LEAD = 0.15


def overlap_pull(
    sims: np.ndarray, sentences: Sequence[str], min_lead: float = OVERLAP_LEAD
) -> OverlapPull | None:
    """Where the order of a sentence's two nearest neighbours follows the words it shares with
    them: for each sentence i, its nearest j and second-nearest k by cosine, kept when the word
    overlap (Jaccard) with j is higher than with k by at least ``min_lead``. Of those, the one
    with the largest lead (ties: the earlier sentence); None when there is none or fewer than 3
    sentences. sims [m, m]."""
    m = len(sentences)
    if sims.shape != (m, m):
        raise ValueError(f"sims has shape {sims.shape}, expected ({m}, {m}) for {m} sentences")
    best: tuple[float, OverlapPull] | None = None
    for i in range(m if m >= 3 else 0):
        others = sorted((o for o in range(m) if o != i), key=lambda o: (-float(sims[i, o]), o))
        j, k = others[0], others[1]
        lead = word_overlap(sentences[i], sentences[j]) - word_overlap(sentences[i], sentences[k])
        if lead > 0 and lead >= min_lead and (best is None or lead > best[0]):
            best = (lead, OverlapPull(i, j, k))
    return best[1] if best else None
