"""Count-based n-gram language models on the shipped corpus.

An n-gram model predicts the next word from the n − 1 words before it, by counting:

    P(w_t | w_{t−n+1} … w_{t−1}) = c(w_{t−n+1} … w_{t−1} w_t) / c(w_{t−n+1} … w_{t−1} ·)

where ``c(context ·)`` counts the context followed by any word. Each sentence is padded with
n − 1 start markers ``<s>`` and one end marker ``</s>``, so the first word has a context and the
model also learns where sentences stop. Add-k smoothing, (c + k) / (C + k·|V|), is the classic
patch for the zero counts that plain counting gives every unseen n-gram.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

BOS = "<s>"
EOS = "</s>"
MAX_N = 5

Words = Sequence[str]


def padded(words: Words, n: int) -> list[str]:
    """``words`` with n − 1 start markers before and one end marker after."""
    return [BOS] * (n - 1) + list(words) + [EOS]


def ngrams(words: Words, n: int) -> list[tuple[str, ...]]:
    """Every run of n consecutive items of ``words`` (none when the sequence is shorter than n)."""
    return [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]


@dataclass(frozen=True)
class Step:
    """One factor of the chain rule: P(word | context)."""

    context: tuple[str, ...]
    word: str
    count: int  # c(context word)
    context_count: int  # c(context ·)
    probability: float  # with the model's smoothing; 0 when unseen and unsmoothed

    @property
    def seen(self) -> bool:
        return self.count > 0


@dataclass(frozen=True)
class SentenceScore:
    steps: list[Step]

    @property
    def probability(self) -> float:
        return math.prod(step.probability for step in self.steps)

    @property
    def log_probability(self) -> float:
        """ln P(sentence); −inf as soon as one factor is 0."""
        if any(step.probability == 0 for step in self.steps):
            return -math.inf
        return sum(math.log(step.probability) for step in self.steps)

    @property
    def zero_steps(self) -> list[int]:
        return [i for i, step in enumerate(self.steps) if step.probability == 0]


class NgramCounts:
    """Counts of every n-gram of orders 1 … ``max_n`` over padded sentences."""

    def __init__(self, sentences: Iterable[Words], max_n: int = MAX_N) -> None:
        if max_n < 1:
            raise ValueError(f"max_n must be at least 1, got {max_n}")
        self.max_n = max_n
        self.sentences = [tuple(s) for s in sentences]
        # counts[n][gram] for the padded sentences; contexts[n][prefix] = Σ_w c(prefix w)
        self.counts: dict[int, Counter[tuple[str, ...]]] = {}
        self.contexts: dict[int, Counter[tuple[str, ...]]] = {}
        for n in range(1, max_n + 1):
            grams: Counter[tuple[str, ...]] = Counter()
            for sentence in self.sentences:
                grams.update(ngrams(padded(sentence, n), n))
            prefixes: Counter[tuple[str, ...]] = Counter()
            for gram, c in grams.items():
                prefixes[gram[:-1]] += c
            self.counts[n], self.contexts[n] = grams, prefixes
        # Plain (unpadded) n-grams, for the sparsity counts: what a sentence really contains.
        self.plain: dict[int, Counter[tuple[str, ...]]] = {
            n: Counter(g for s in self.sentences for g in ngrams(s, n)) for n in range(1, max_n + 1)
        }

    @cached_property
    def vocabulary(self) -> tuple[str, ...]:
        """The corpus's word types, most frequent first (ties alphabetical)."""
        unigrams = self.plain[1]
        return tuple(sorted((g[0] for g in unigrams), key=lambda w: (-unigrams[(w,)], w)))

    @property
    def n_tokens(self) -> int:
        return sum(len(s) for s in self.sentences)

    def _check_n(self, n: int) -> None:
        if not 1 <= n <= self.max_n:
            raise ValueError(f"n must be between 1 and {self.max_n}, got {n}")

    def probability(
        self, context: Sequence[str], word: str, *, add_k: float = 0.0
    ) -> tuple[int, int, float]:
        """(c(context word), c(context ·), P(word | context)) for an n-gram of n = len(context)+1.

        Predictable outcomes are the vocabulary plus ``</s>``: add-k spreads k over all of them.
        """
        n = len(context) + 1
        self._check_n(n)
        count = self.counts[n][(*context, word)]
        total = self.contexts[n][tuple(context)]
        outcomes = len(self.vocabulary) + 1
        if add_k > 0:
            return count, total, (count + add_k) / (total + add_k * outcomes)
        return count, total, (count / total if total else 0.0)

    def score(self, words: Words, n: int, *, add_k: float = 0.0) -> SentenceScore:
        """The chain rule: P(w_1 … w_m </s>) = Π_t P(w_t | the n − 1 words before it)."""
        self._check_n(n)
        seq = padded(words, n)
        steps = []
        for i in range(n - 1, len(seq)):
            context = tuple(seq[i - n + 1 : i])
            count, total, p = self.probability(context, seq[i], add_k=add_k)
            steps.append(Step(context, seq[i], count, total, p))
        return SentenceScore(steps)

    def continuations(self, context: Sequence[str], top: int = 10) -> list[tuple[str, int, float]]:
        """The most frequent next words after ``context``: (word, count, P(word | context))."""
        n = len(context) + 1
        self._check_n(n)
        total = self.contexts[n][tuple(context)]
        if not total:
            return []
        ctx = tuple(context)
        found = [(g[-1], c) for g, c in self.counts[n].items() if g[:-1] == ctx]
        found.sort(key=lambda wc: (-wc[1], wc[0]))
        return [(w, c, c / total) for w, c in found[:top]]

    def distinct(self, n: int) -> int:
        """How many different n-grams (unpadded) the corpus contains."""
        self._check_n(n)
        return len(self.plain[n])

    def unseen_share(self, sentences: Iterable[Words], n: int) -> tuple[int, int]:
        """(unseen, total): how many of the n-grams in ``sentences`` never occur in the corpus."""
        self._check_n(n)
        grams = [g for s in sentences for g in ngrams(list(s), n)]
        unseen = sum(1 for g in grams if g not in self.plain[n])
        return unseen, len(grams)


@dataclass(frozen=True)
class SparsityRow:
    n: int
    distinct: int  # different n-grams seen in training
    possible: int  # |V|^n
    heldout_unseen: int
    heldout_total: int
    sentence_unseen: int
    sentence_total: int

    @property
    def share_of_possible_seen(self) -> float:
        return self.distinct / self.possible

    @property
    def heldout_unseen_share(self) -> float:
        return self.heldout_unseen / self.heldout_total if self.heldout_total else math.nan

    @property
    def sentence_unseen_share(self) -> float:
        return self.sentence_unseen / self.sentence_total if self.sentence_total else math.nan


def split_heldout(sentences: Sequence[Words], every: int = 10) -> tuple[list[Words], list[Words]]:
    """(training, held-out): every ``every``-th sentence is held out, the rest trains."""
    train = [s for i, s in enumerate(sentences) if i % every != every - 1]
    held = [s for i, s in enumerate(sentences) if i % every == every - 1]
    return train, held


def sparsity(
    train: NgramCounts, heldout: Sequence[Words], sentence: Words, full: NgramCounts | None = None
) -> list[SparsityRow]:
    """For n = 1 … max_n: how many n-grams exist, how many could, and the share never seen —
    of held-out corpus sentences (by the training part) and of ``sentence`` (by ``full``)."""
    full = full or train
    rows = []
    for n in range(1, train.max_n + 1):
        h_unseen, h_total = train.unseen_share(heldout, n)
        s_unseen, s_total = full.unseen_share([sentence], n)
        rows.append(
            SparsityRow(
                n=n,
                distinct=train.distinct(n),
                possible=len(train.vocabulary) ** n,
                heldout_unseen=h_unseen,
                heldout_total=h_total,
                sentence_unseen=s_unseen,
                sentence_total=s_total,
            )
        )
    return rows


# --- the fixed window: "Tom … his" ----------------------------------------------------------------

#: Sentences where the word that decides "his" (the name) sits further and further away.
LONG_DISTANCE = (
    "Tom loves his dog",
    "Tom who lives near the lake loves his dog",
    "Tom who works at the school every friday loves his dog",
)
#: The same in Chinese: a relative clause stands before the name, so only a second clause
#: (whose commas the counting drops) puts the name far from 他.
LONG_DISTANCE_ZH = (
    "汤姆爱他的狗",
    "住在湖边的汤姆爱他的狗",
    "汤姆每个星期五都在学校工作，他爱他的狗",
)


@dataclass(frozen=True)
class WindowDemo:
    """The sentences of the fixed-window demo, the name that decides, and the two pronouns."""

    sentences: tuple[str, ...]
    name: tuple[str, ...]  # the name's words ("tom"; 汤, 姆)
    pronoun: str  # the one the name calls for
    other: str  # the one it rules out


WINDOW_DEMOS: dict[str, WindowDemo] = {
    "en": WindowDemo(LONG_DISTANCE, ("tom",), "his", "her"),
    "zh": WindowDemo(LONG_DISTANCE_ZH, ("汤", "姆"), "他", "她"),
}


def name_end(words: Words, name: Sequence[str]) -> int:
    """The index of the last word of the first occurrence of ``name`` in ``words``: the last
    word a model must see to know who it is (ValueError if absent)."""
    k = len(name)
    for i in range(len(words) - k + 1):
        if tuple(words[i : i + k]) == tuple(name):
            return i + k - 1
    raise ValueError(f"{name} not in {words}")


@dataclass(frozen=True)
class WindowRow:
    n: int
    context: tuple[str, ...]
    sees_name: bool
    p_his: float  # P(pronoun | context): "his", or 他
    p_her: float  # P(other | context): "her", or 她
    context_count: int


def window_rows(
    model: NgramCounts,
    words: Words,
    target: int,
    name_index: int = 0,
    pronouns: tuple[str, str] = ("his", "her"),
) -> list[WindowRow]:
    """For each order n = 2 … max_n: the context an n-gram model reads before ``words[target]``,
    whether the deciding word ``words[name_index]`` is inside it, and P(pronoun | context) for
    each of the two ``pronouns``, counted on the corpus."""
    seq = padded(words, model.max_n)
    offset = model.max_n - 1  # position of words[0] in seq
    rows = []
    for n in range(2, model.max_n + 1):
        start = offset + target - (n - 1)
        context = tuple(seq[start : offset + target])
        _, total, p_his = model.probability(context, pronouns[0])
        _, _, p_her = model.probability(context, pronouns[1])
        sees = start <= offset + name_index
        rows.append(WindowRow(n, context, sees, p_his, p_her, total))
    return rows


def order_needed(target: int, name_index: int = 0) -> int:
    """The smallest n whose context (n − 1 words) reaches from ``target`` back to the name."""
    return target - name_index + 1
