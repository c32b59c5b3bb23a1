"""A calibration for "same sense or not?": how far apart MiniLM puts one word used in one sense,
and in two, measured on sentences written and labelled for it (``data/senses.tsv``, CC0).

One pair of sentences cannot carry a verdict about senses: any two sentences move a word's
hidden state, and how far depends on the word. So the Contextual meaning page reads the learner's
pair against many labelled pairs: for each ambiguous word of the set, every two of its sentences
make a pair, same-sense when their labels agree, different-sense when not. Per layer this gives
the cosines of the word's vectors in same-sense and in different-sense pairs, how well the cosine
tells them apart (AUC), and the ranges a learner's cosine must leave before a verdict is said.

Nothing here renders; the model is passed in (``models.minilm``), the numbers come out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import combinations
from typing import Protocol

import numpy as np

from transformer_walk.topics.claims import Claim, claim, percent

SENSES_FILE = "senses.tsv"
LANGUAGES = ("en", "zh")
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

# --- one word in one run ------------------------------------------------------------------------


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


def word_pieces(offsets: Sequence[tuple[int, int]], span: tuple[int, int]) -> list[int]:
    """Positions of the tokens whose characters overlap ``span`` (specials have no characters)."""
    start, stop = span
    return [i for i, (s, e) in enumerate(offsets) if e > s and s < stop and e > start]


def mean_rows(vectors: np.ndarray, pieces: list[int]) -> np.ndarray:
    """A word split into several pieces is the mean of its pieces' vectors.
    vectors [..., n, d] → [..., d]."""
    return np.asarray(vectors[..., pieces, :].mean(axis=-2))


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarity over the last axis (broadcasting): [..., d] × [..., d] → [...]."""
    a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
    dot = (a64 * b64).sum(axis=-1)
    norms = np.linalg.norm(a64, axis=-1) * np.linalg.norm(b64, axis=-1)
    return np.asarray(dot / np.maximum(norms, 1e-300))


def language_of(word: str) -> str:
    """ "zh" for a word with a Han character, else "en": which calibration reads it."""
    return "zh" if _HAN.search(word) else "en"


# --- the labelled sentences ---------------------------------------------------------------------


@dataclass(frozen=True)
class SenseSentence:
    """One sentence of the set: its language, the ambiguous word, the sense label, the text."""

    lang: str
    word: str
    sense: str
    text: str


@lru_cache(maxsize=1)
def sense_sentences() -> tuple[SenseSentence, ...]:
    """Every sentence of ``data/senses.tsv`` (header: lang, word, sense, sentence)."""
    raw = (resources.files("transformer_walk.topics") / "data" / SENSES_FILE).read_text("utf-8")
    lines = [line.split("\t") for line in raw.splitlines()[1:] if line.strip()]
    return tuple(SenseSentence(*fields) for fields in lines)


def labelled_pairs(sentences: Sequence[SenseSentence]) -> list[tuple[int, int, bool]]:
    """Every two sentences of one word and one language: (i, j, same sense?)."""
    by_word: dict[tuple[str, str], list[int]] = {}
    for k, s in enumerate(sentences):
        by_word.setdefault((s.lang, s.word), []).append(k)
    return [
        (i, j, sentences[i].sense == sentences[j].sense)
        for group in by_word.values()
        for i, j in combinations(group, 2)
    ]


# --- the calibration ----------------------------------------------------------------------------


class Encoder(Protocol):
    """What the calibration needs of a model: ``run(text)`` with ``offsets`` and
    ``hidden_states`` [L + 1, n, d] (``models.minilm.MiniLM``)."""

    def run(self, text: str) -> _Run: ...


class _Run(Protocol):
    offsets: list[tuple[int, int]]
    hidden_states: np.ndarray
    tokens: list[str]


def auc(positive: np.ndarray, negative: np.ndarray) -> float:
    """The probability that a random ``positive`` value exceeds a random ``negative`` one (ties
    count half): 1 separates perfectly, 0.5 is chance. NaN when either side is empty."""
    pos, neg = np.asarray(positive, np.float64), np.asarray(negative, np.float64)
    if pos.size == 0 or neg.size == 0:
        return float("nan")
    greater = (pos[:, None] > neg[None, :]).mean()
    ties = (pos[:, None] == neg[None, :]).mean()
    return float(greater + 0.5 * ties)


@dataclass(frozen=True)
class Calibration:
    """One language's labelled pairs, measured: the cosine of the word's vectors in each pair at
    each layer 0..L, same-sense and different-sense pairs apart."""

    lang: str
    same: np.ndarray  # [same-sense pairs, L + 1]
    different: np.ndarray  # [different-sense pairs, L + 1]
    words: int  # ambiguous words
    sentences: int
    unknown_words: int  # words MiniLM reads as [UNK] in at least one of their sentences
    tokens: int = 0  # tokens of all its sentences, [CLS] and [SEP] left out
    unknown_tokens: int = 0  # of those, [UNK]

    @property
    def unknown_share(self) -> float:
        """The share of the sentences' tokens that MiniLM reads as [UNK] (0 without tokens)."""
        return self.unknown_tokens / self.tokens if self.tokens else 0.0

    @property
    def layers(self) -> int:
        return int(self.same.shape[1])

    def auc(self) -> np.ndarray:
        """Per layer, how well a higher cosine marks a same-sense pair: [L + 1]."""
        return np.array([auc(self.same[:, k], self.different[:, k]) for k in range(self.layers)])

    def accuracy(self) -> np.ndarray:
        """Per layer, the best share of pairs one cosine threshold sorts right (same-sense above
        it, different-sense at or below it): [L + 1]."""
        return np.array(
            [_best_split(self.same[:, k], self.different[:, k]) for k in range(self.layers)]
        )

    def best_layer(self) -> int:
        """The layer whose cosine separates the senses best (highest AUC; ties: the earlier)."""
        return int(np.argmax(self.auc()))


def _best_split(same: np.ndarray, different: np.ndarray) -> float:
    cuts = np.concatenate([[-np.inf], np.sort(np.concatenate([same, different]))])
    right = [((same > c).sum() + (different <= c).sum()) for c in cuts]
    return float(max(right) / (len(same) + len(different)))


def calibrate(
    model: Encoder, sentences: Sequence[SenseSentence] | None = None
) -> dict[str, Calibration]:
    """Run every sentence of the set through ``model`` once and measure every labelled pair: one
    ``Calibration`` per language. A sentence in which the word is not found is an error of the
    set (tests hold every sentence to its word)."""
    rows = list(sense_sentences() if sentences is None else sentences)
    vectors, unknown = [], set()
    counts = {lang: [0, 0] for lang in LANGUAGES}  # tokens, [UNK] tokens
    for s in rows:
        run = model.run(s.text)
        content = [tok for tok in run.tokens if tok not in ("[CLS]", "[SEP]")]
        counts.setdefault(s.lang, [0, 0])
        counts[s.lang][0] += len(content)
        counts[s.lang][1] += content.count("[UNK]")
        span = find_word(s.text, s.word)
        pieces = word_pieces(run.offsets, span) if span else []
        if not pieces:
            raise ValueError(f"“{s.word}” not found in “{s.text}”")
        if any(run.tokens[p] == "[UNK]" for p in pieces):
            unknown.add((s.lang, s.word))
        vectors.append(mean_rows(run.hidden_states, pieces))  # (L + 1, d)
    out = {}
    for lang in LANGUAGES:
        mine = [(i, j, same) for i, j, same in labelled_pairs(rows) if rows[i].lang == lang]
        if not mine:
            continue
        cos = {(i, j): cosine(vectors[i], vectors[j]) for i, j, _ in mine}
        depth = vectors[0].shape[0]  # L + 1: an empty kind keeps its shape [0, L + 1]
        out[lang] = Calibration(
            lang,
            np.array([cos[i, j] for i, j, same in mine if same]).reshape(-1, depth),
            np.array([cos[i, j] for i, j, same in mine if not same]).reshape(-1, depth),
            len({s.word for s in rows if s.lang == lang}),
            sum(s.lang == lang for s in rows),
            sum(1 for lang_, _ in unknown if lang_ == lang),
            *counts[lang],
        )
    return out


# --- the learner's pair, read against it -------------------------------------------------------

#: The message of each verdict (``app/texts/contextual.py``), written out so the id check finds it.
SENSE_MESSAGES = {
    "different": "contextual.cal.verdict.different",
    "same": "contextual.cal.verdict.same",
    "cannot": "contextual.cal.verdict.cannot",
}


def _shown(value: float) -> float:
    return round(float(value), 3)


def _verdict(cos: float, same_min: float, different_max: float) -> str:
    """On the values as shown: "different" below every same-sense pair (and not above every
    different-sense pair), "same" above every different-sense pair (and not below every
    same-sense one), else "cannot"."""
    below, above = cos < same_min, cos > different_max
    if below and not above:
        return "different"
    if above and not below:
        return "same"
    return "cannot"


def _fields(word: str, cosines: np.ndarray, calibration: Calibration) -> dict[str, object]:
    layer = calibration.best_layer()
    cos = _shown(cosines[layer])
    same, different = calibration.same[:, layer], calibration.different[:, layer]
    return {
        "word": word.strip(),
        "layer": layer,
        "cos": f"{cos:.3f}",
        "same_min": f"{_shown(same.min()):.3f}",
        "different_max": f"{_shown(different.max()):.3f}",
        "n_same": len(same),
        "n_different": len(different),
        "beyond": int((np.round(different, 3) < cos).sum()),
        "beyond_same": int((np.round(same, 3) > cos).sum()),
        "auc": f"{calibration.auc()[layer]:.2f}",
    }


def _sense_holds(said: Claim, word: str, cosines: np.ndarray, calibration: Calibration) -> bool:
    expected = _fields(word, cosines, calibration)
    fields = dict(said.fields)
    verdict = _verdict(
        float(str(fields["cos"])),
        float(str(fields["same_min"])),
        float(str(fields["different_max"])),
    )
    return fields == expected and said.message == SENSE_MESSAGES[verdict]


@claim(_sense_holds)
def sense_claim(word: str, cosines: np.ndarray, calibration: Calibration) -> Claim | None:
    """What the learner's pair says about ``word``'s senses, read against the calibration of its
    language at the layer that separates senses best: "different" senses only where the pair's
    cosine [L + 1] is lower than in every same-sense pair of the set, "same" sense only where it
    is higher than in every different-sense pair, else "cannot" (these numbers cannot tell).
    None for an empty word or a calibration without pairs of either kind."""
    if not word.strip() or not len(calibration.same) or not len(calibration.different):
        return None
    fields = _fields(word, cosines, calibration)
    verdict = _verdict(
        float(str(fields["cos"])),
        float(str(fields["same_min"])),
        float(str(fields["different_max"])),
    )
    return Claim(SENSE_MESSAGES[verdict], fields)


#: Per language, what the best layer's AUC must reach for the page to say the layers "separate"
#: senses (at or above ``CLEAR_AUC``), "separate them somewhat" (at or above ``SOME_AUC``), or
#: do little better than chance (0.5) below it.
CLEAR_AUC = 0.75
SOME_AUC = 0.6
#: The message of each (separation, language), written out so the id check finds it.
SEPARATION_MESSAGES = {
    ("clear", "en"): "contextual.cal.sep.clear.en",
    ("some", "en"): "contextual.cal.sep.some.en",
    ("chance", "en"): "contextual.cal.sep.chance.en",
    ("clear", "zh"): "contextual.cal.sep.clear.zh",
    ("some", "zh"): "contextual.cal.sep.some.zh",
    ("chance", "zh"): "contextual.cal.sep.chance.zh",
}


def _separation_fields(calibration: Calibration) -> dict[str, object]:
    aucs = calibration.auc()
    layer = calibration.best_layer()
    return {
        "layer": layer,
        "auc": f"{aucs[layer]:.2f}",
        "last": calibration.layers - 1,
        "last_auc": f"{aucs[-1]:.2f}",
        "n_same": len(calibration.same),
        "n_different": len(calibration.different),
        "words": calibration.words,
        "unknown": calibration.unknown_words,
        "unknown_share": percent(calibration.unknown_share),
    }


def _separation_kind(shown_auc: float) -> str:
    return "clear" if shown_auc >= CLEAR_AUC else "some" if shown_auc >= SOME_AUC else "chance"


def _separation_holds(said: Claim, calibration: Calibration) -> bool:
    fields = dict(said.fields)
    kind = _separation_kind(float(str(fields["auc"])))
    return (
        fields == _separation_fields(calibration)
        and said.message == SEPARATION_MESSAGES[kind, calibration.lang]
    )


@claim(_separation_holds)
def separation_claim(calibration: Calibration) -> Claim | None:
    """How well one language's calibration pairs are told apart by the cosine, at the best layer
    and after the last: "clear" (AUC at least ``CLEAR_AUC``), "some" (at least ``SOME_AUC``) or
    "chance"; the message names the language. None without pairs of either kind."""
    if not len(calibration.same) or not len(calibration.different):
        return None
    fields = _separation_fields(calibration)
    kind = _separation_kind(float(str(fields["auc"])))
    return Claim(SEPARATION_MESSAGES[kind, calibration.lang], fields)
