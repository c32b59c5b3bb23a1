"""Inside the learner before and after task a: the token embedding seen in two dimensions, how far
the male names moved from the female ones, and what one head's W^Q·W^Kᵀ gives pairs of words.

The separation of two groups of words is the distance between their mean vectors over the
spread within them (the root mean square distance of each word to its group's mean): 1 or less
means the groups overlap. Its control is a split the task never asks for: the verbs in two
halves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transformer_walk.models.learner.decoder import Params
from transformer_walk.models.learner.params import LearnerConfig
from transformer_walk.topics.learning.pronouns import PAD, PronounTask

ROLES = ("male", "female", "verb", "noun", "place", "possessive", "other")


def roles(task: PronounTask) -> dict[str, str]:
    """Each word of the task's vocabulary (but <pad>) and its role."""
    w = task.words
    by_role = {
        "male": w.male, "female": w.female, "verb": w.verbs, "noun": w.nouns,
        "place": w.preps, "possessive": (w.his, w.her),
    }  # fmt: skip
    found = {word: role for role, words in by_role.items() for word in words}
    return {word: found.get(word, "other") for word in task.vocabulary if word != PAD}


@dataclass(frozen=True)
class EmbeddingMap:
    words: tuple[str, ...]
    coords: np.ndarray  # [words, 2]: the first two principal components
    explained: float  # the share of the variance they hold


def embedding_map(params: Params, task: PronounTask) -> EmbeddingMap:
    """The token embedding's rows (but <pad>'s) projected on their first two principal axes."""
    words = tuple(roles(task))
    table = params["token_embedding"][[task.ids[w] for w in words]].astype(np.float64)
    centred = table - table.mean(axis=0)  # [words, d]
    _, singular, axes = np.linalg.svd(centred, full_matrices=False)
    total = float((singular**2).sum())
    explained = float((singular[:2] ** 2).sum() / total) if total > 0 else 0.0
    return EmbeddingMap(words, centred @ axes[:2].T, explained)  # [words, d] → [words, 2]


def separation(params: Params, task: PronounTask, first: list[str], second: list[str]) -> float:
    """How far apart two groups of words sit in the token embedding (see the module's note)."""
    table = params["token_embedding"].astype(np.float64)
    a = table[[task.ids[w] for w in first]]
    b = table[[task.ids[w] for w in second]]
    gap = float(np.linalg.norm(a.mean(axis=0) - b.mean(axis=0)))
    within = np.concatenate([a - a.mean(axis=0), b - b.mean(axis=0)])
    spread = float(np.sqrt((within**2).sum(axis=1).mean()))
    return gap / spread if spread > 0 else 0.0


def gender_split(task: PronounTask) -> tuple[list[str], list[str]]:
    return list(task.words.male), list(task.words.female)


def control_split(task: PronounTask) -> tuple[list[str], list[str]]:
    """The verbs in two halves: a split no target depends on."""
    verbs = list(task.words.verbs)
    return verbs[: len(verbs) // 2], verbs[len(verbs) // 2 :]


def word_scores(
    params: Params,
    config: LearnerConfig,
    task: PronounTask,
    head: int,
    queries: list[str],
    keys: list[str],
) -> np.ndarray:
    """[queries, keys]: the first layer's head ``head`` scores for pairs of words, positions left
    out: LN₁(e_q)·W^Q_h + b^Q_h against LN₁(e_k)·W^K_h + b^K_h, over √d_k."""
    d_k = config.d_k
    cols = slice(head * d_k, (head + 1) * d_k)  # head h's rows of W^Q, W^K: [d_k, d]
    gamma, beta = params["layers.0.ln_1.gamma"], params["layers.0.ln_1.beta"]

    def project(words: list[str], w: str) -> np.ndarray:
        e = params["token_embedding"][[task.ids[word] for word in words]].astype(np.float64)
        normed = (e - e.mean(-1, keepdims=True)) / np.sqrt(e.var(-1, keepdims=True) + 1e-5)
        a = normed * gamma + beta  # [words, d]
        weight = params[f"layers.0.attn.w_{w}"][cols].astype(np.float64)  # [d_k, d]
        return a @ weight.T + params[f"layers.0.attn.b_{w}"][cols]  # [words, d_k]

    return project(queries, "q") @ project(keys, "k").T / np.sqrt(d_k)
