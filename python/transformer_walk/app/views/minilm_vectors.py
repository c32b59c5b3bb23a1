"""MiniLM's vectors, as the Contextual page reads them: a word's pieces, cosines and distances
between hidden states, one PCA shared by every layer (so a token's path can be drawn), one word
in two sentences, and the words two sentences share (which
pull whole-sentence cosines) — with the verdicts the page prints. Nothing here runs the encoder.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

# The word-in-a-run helpers live with the calibration that uses them too; read from here by pages.
from transformer_walk.topics.senses import cosine as cosine
from transformer_walk.topics.senses import find_word as find_word
from transformer_walk.topics.senses import mean_rows as mean_rows
from transformer_walk.topics.senses import word_pieces as word_pieces

# --- words and vectors --------------------------------------------------------------------------


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
