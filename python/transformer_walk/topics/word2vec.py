"""Skip-gram word2vec with negative sampling, in NumPy, small enough to train in the app.

The model keeps two tables: E (the "input" vectors, the embedding matrix E ∈ R^{V×d} the pages
show) and U (the "output" vectors, used only for training). For every pair of a centre word c and
a word o inside its window, and k "negative" words drawn from the unigram distribution raised to
the 3/4 power (Mikolov et al., 2013), the loss is

    L = −log σ(u_o · e_c) − Σ_{j=1..k} log σ(−u_j · e_c)

so training pulls e_c towards the words it appears with and pushes it away from random ones.
Words met in similar contexts end up with similar vectors: that is the whole trick.

E starts small and random and U starts at zero (as in the original word2vec code), so before
the first step every score is 0 and the loss is exactly (1 + k)·ln 2. Updates are minibatch SGD
with a linearly decaying learning rate, run by a backend's ``skipgram_sgd`` (rust_core by default:
an epoch on the shipped corpus takes milliseconds there, a tenth of a second in NumPy, where
every step of 128 pairs is some twenty small array calls); everything is seeded, so a given set
of hyper-parameters always gives the same vectors.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.core import get_backend
from transformer_walk.core.backend import FloatArray
from transformer_walk.topics.claims import Claim, claim

Sentences = Sequence[Sequence[str]]


@dataclass(frozen=True)
class Word2VecParams:
    dim: int = 16  # d, the length of each word vector
    window: int = 2  # context words on each side of the centre word
    negatives: int = 5  # k negative samples per (centre, context) pair
    epochs: int = 10
    learning_rate: float = 0.05
    batch_size: int = 128
    seed: int = 0

    def validate(self) -> None:
        if self.dim < 1 or self.window < 1 or self.negatives < 1 or self.epochs < 0:
            raise ValueError("dim, window and negatives must be ≥ 1 and epochs ≥ 0")
        if self.batch_size < 1 or not self.learning_rate > 0:
            raise ValueError("batch_size must be ≥ 1 and learning_rate > 0")


@dataclass(frozen=True)
class Word2VecResult:
    params: Word2VecParams
    vocab: tuple[str, ...]  # most frequent first
    counts: np.ndarray  # [V] corpus frequency of each word
    initial: np.ndarray  # [V, d] E before training
    embeddings: np.ndarray  # [V, d] E after training
    losses: list[float]  # mean loss per pair: the value before training, then one per epoch
    n_pairs: int  # (centre, context) pairs per epoch

    def index(self, word: str) -> int | None:
        try:
            return self.vocab.index(word)
        except ValueError:
            return None


def build_vocab(sentences: Sentences) -> tuple[tuple[str, ...], np.ndarray]:
    """Word types, most frequent first (ties alphabetical), and their counts."""
    counts = Counter(w for s in sentences for w in s)
    vocab = tuple(sorted(counts, key=lambda w: (-counts[w], w)))
    return vocab, np.array([counts[w] for w in vocab], dtype=np.int64)


def skipgram_pairs(
    sentences: Sentences, index: dict[str, int], window: int
) -> tuple[np.ndarray, np.ndarray]:
    """(centres, contexts): every ordered pair of words at distance 1 … ``window`` in a sentence."""
    centres: list[np.ndarray] = []
    contexts: list[np.ndarray] = []
    for sentence in sentences:
        ids = np.array([index[w] for w in sentence], dtype=np.int64)
        for offset in range(1, window + 1):
            if len(ids) <= offset:
                break
            # both directions: (w_t, w_{t+offset}) and (w_{t+offset}, w_t)
            centres += [ids[:-offset], ids[offset:]]
            contexts += [ids[offset:], ids[:-offset]]
    if not centres:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(centres), np.concatenate(contexts)


def _log_sigmoid(x: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0.0, -x)  # log σ(x), stable for large |x|


def pair_loss(E: np.ndarray, U: np.ndarray, c: np.ndarray, o: np.ndarray, neg: np.ndarray) -> float:
    """Σ over the batch of −log σ(u_o·e_c) − Σ_j log σ(−u_j·e_c)."""
    s_pos = np.einsum("bd,bd->b", E[c], U[o])  # (B,)
    s_neg = np.einsum("bd,bkd->bk", E[c], U[neg])  # (B, k)
    return float(-_log_sigmoid(s_pos).sum() - _log_sigmoid(-s_neg).sum())


NOISE_TABLE = 1 << 16  # cells of the table negatives are drawn from: P_n to within 1/65,536


def noise_table(counts: np.ndarray, size: int = NOISE_TABLE) -> np.ndarray:
    """word2vec's unigram table: ``size`` cells, word w in a share of them ∝ count(w)^(3/4) (the
    noise distribution P_n), so a negative is one uniform index into it — a tenth of the time of
    drawing from P_n directly (``rng.choice(p=…)`` inverts the CDF by binary search per draw)."""
    noise = np.asarray(counts, dtype=float) ** 0.75
    cdf = np.cumsum(noise / noise.sum())  # (V,)
    cells = (np.arange(size) + 0.5) / size  # (size,): the middle of each cell
    return np.minimum(np.searchsorted(cdf, cells, side="right"), len(cdf) - 1)  # (size,) word ids


def train(
    sentences: Sentences,
    params: Word2VecParams | None = None,
    on_epoch: Callable[[int, float], None] | None = None,
    backend: str = "rust",
) -> Word2VecResult:
    """Train E on ``sentences``; ``on_epoch(epoch, mean_loss)`` is called after each epoch. The
    steps run in ``backend``'s ``skipgram_sgd`` (the backends agree to rounding)."""
    params = params or Word2VecParams()
    params.validate()
    vocab, counts = build_vocab(sentences)
    if not vocab:
        raise ValueError("the corpus has no words")
    sgd = get_backend(backend).skipgram_sgd
    index = {w: i for i, w in enumerate(vocab)}
    centres, contexts = skipgram_pairs(sentences, index, params.window)
    V, d, k = len(vocab), params.dim, params.negatives
    rng = np.random.default_rng(params.seed)

    # float64 in, float64 out: each step's new E and U have the dtype the backend was given
    E: FloatArray = (rng.random((V, d)) - 0.5) / d  # (V, d) small random input vectors
    U: FloatArray = np.zeros((V, d))  # (V, d) output vectors
    initial = E.copy()
    table = noise_table(counts)

    losses = [(1 + k) * math.log(2.0)]  # every score is 0 before the first update
    n_pairs = len(centres)
    steps = math.ceil(n_pairs / params.batch_size)  # per epoch
    # the learning rate decays linearly over all steps of all epochs, to 1e-4 of its start
    decay = np.maximum(1e-4, 1.0 - np.arange(params.epochs * steps) / max(1, params.epochs * steps))
    for epoch in range(params.epochs):
        order = rng.permutation(n_pairs)
        negatives = table[rng.integers(0, len(table), size=(n_pairs, k))]  # (P, k)
        # (P, 2 + k): each row a centre, its context, then k negatives
        pairs = np.column_stack([centres[order], contexts[order], negatives])
        rates = params.learning_rate * decay[epoch * steps : (epoch + 1) * steps]  # (steps,)
        E, U, step_losses = sgd(E, U, pairs, rates, params.batch_size)
        mean = float(step_losses.sum()) / max(1, n_pairs)
        losses.append(mean)
        if on_epoch is not None:
            on_epoch(epoch + 1, mean)
    return Word2VecResult(params, vocab, counts, initial, E, losses, n_pairs)


# --- reading the vectors ------------------------------------------------------------------------


def normalise_rows(x: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    return x / np.where(norms == 0, 1.0, norms)


def cosine_matrix(a: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """cos(a_i, b_j) = a_i · b_j / (‖a_i‖ ‖b_j‖) → [len(a), len(b)] (a zero row gives 0)."""
    a_n = normalise_rows(a)
    b_n = a_n if b is None else normalise_rows(b)
    return a_n @ b_n.T


def nearest(
    table: np.ndarray, vocab: Sequence[str], word: str, k: int = 5
) -> list[tuple[str, float]]:
    """The k words whose rows of ``table`` have the highest cosine with ``word``'s (not itself)."""
    i = list(vocab).index(word)
    sims = cosine_matrix(table[i : i + 1], table)[0]  # (V,)
    sims[i] = -np.inf
    best = np.argsort(-sims, kind="stable")[:k]
    return [(vocab[j], float(sims[j])) for j in best]


def pca_2d(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Project the rows of x onto their two leading principal axes (an SVD of the centred rows).

    Returns (coordinates [rows, 2], explained share of variance of the two axes [2]). The sign of
    each axis is fixed so the largest-|coordinate| row is positive, making the map stable.
    """
    centred = x - x.mean(axis=0, keepdims=True)  # (rows, d)
    _, s, vt = np.linalg.svd(centred, full_matrices=False)
    coords = centred @ vt[:2].T  # (rows, 2)
    for j in range(coords.shape[1]):
        if coords[np.argmax(np.abs(coords[:, j])), j] < 0:
            coords[:, j] *= -1
    var = s**2
    share = var[:2] / var.sum() if var.sum() > 0 else np.zeros(2)
    if coords.shape[1] < 2:  # d = 1: a single axis, padded with zeros
        coords = np.pad(coords, ((0, 0), (0, 2 - coords.shape[1])))
        share = np.pad(share, (0, 2 - len(share)))
    return coords, share


#: Mean cosines closer than this count as "between" the two senses (a tenth of the scale).
LEAN_MARGIN = 0.1
LEANS: tuple[str, ...] = ("first", "second", "between")


def lean(first: float, second: float, margin: float = LEAN_MARGIN) -> str:
    """Which of two mean cosines a vector sits closer to: "first", "second", or "between" when
    they differ by less than ``margin``."""
    if abs(first - second) < margin:
        return "between"
    return "first" if first > second else "second"


# --- what the numbers say about senses and training: claims (topics.claims) ---------------------

#: The words that stand for each sense of "bank", per corpus: (water words, money words). In the
#: Chinese corpus the senses are different words (河岸 / 银行), counted by characters.
SENSE_WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (("river", "lake"), ("cash", "money")),
    "zh": (("河", "湖"), ("钱", "金")),
}


def sense_cosines(
    result: Word2VecResult, word: str, language: str
) -> tuple[list[float], list[float]] | None:
    """cos(word, each water word) and cos(word, each money word) in the trained table, or None
    when one of the words has no row."""
    water, money = SENSE_WORDS[language]
    found = [result.index(w) for w in (word, *water, *money)]
    ids = [i for i in found if i is not None]
    if len(ids) < len(found):
        return None
    e = result.embeddings
    sims = cosine_matrix(e[ids[:1]], e[ids[1:]])[0]  # (len(water) + len(money),)
    return [float(x) for x in sims[: len(water)]], [float(x) for x in sims[len(water) :]]


def _means(water: Sequence[float], money: Sequence[float]) -> tuple[str, str, str]:
    """The two mean cosines as shown (three decimals) and the side they lean to."""
    w, m = float(np.mean(water)), float(np.mean(money))
    return f"{w:.3f}", f"{m:.3f}", lean(w, m)


def _lean_holds(messages: dict[str, str]) -> Callable[..., bool]:
    """A predicate for a lean claim whose message for each side (and "untrained") is given."""

    def holds(said: Claim, water: Sequence[float], money: Sequence[float], epochs: int) -> bool:
        if not water or not money:
            return False
        w, m, side = _means(water, money)
        expected = messages["untrained" if epochs == 0 else side]
        return said.message == expected and dict(said.fields) == {"water": w, "money": m}

    return holds


BANK_LEANS = {
    "first": "embeddings.static.lean.first",
    "second": "embeddings.static.lean.second",
    "between": "embeddings.static.lean.between",
    "untrained": "embeddings.static.lean.untrained",
}
CHAR_LEANS = {
    "first": "embeddings.zh.lean.water",
    "second": "embeddings.zh.lean.money",
    "between": "embeddings.zh.lean.between",
    "untrained": "embeddings.zh.lean.untrained",
}


@claim(_lean_holds(BANK_LEANS))
def bank_lean(water: Sequence[float], money: Sequence[float], epochs: int) -> Claim | None:
    """Which sense the one vector of "bank" sits closer to, from its cosines with the water words
    and with the money words: a lean only after training (at 0 epochs the vectors are the random
    start, and the sentence says so) and only when the means differ by LEAN_MARGIN or more."""
    if not water or not money:
        return None
    w, m, side = _means(water, money)
    return Claim(BANK_LEANS["untrained" if epochs == 0 else side], {"water": w, "money": m})


@claim(_lean_holds(CHAR_LEANS))
def char_lean(water: Sequence[float], money: Sequence[float], epochs: int) -> Claim | None:
    """The same reading for one character of the Chinese twin (银, 行, 岸): nearer the water
    characters, the money ones, between, or — at 0 epochs — nothing learned yet."""
    if not water or not money:
        return None
    w, m, side = _means(water, money)
    return Claim(CHAR_LEANS["untrained" if epochs == 0 else side], {"water": w, "money": m})


def _after_holds(said: Claim, epochs: int) -> bool:
    expected = "embeddings.after.trained" if epochs > 0 else "embeddings.after.untrained"
    return said.message == expected and dict(said.fields) == {"epochs": epochs}


@claim(_after_holds)
def after_training(epochs: int) -> Claim | None:
    """The title over the trained table: "after N epochs", or at 0 epochs that it is still the
    random start (there is no "after training" without training)."""
    return Claim(
        "embeddings.after.trained" if epochs > 0 else "embeddings.after.untrained",
        {"epochs": epochs},
    )


def _kinds_holds(
    said: Claim, word: str, kind: str, before: Sequence[str], after: Sequence[str], epochs: int
) -> bool:
    expected = "embeddings.nn.summary" if epochs > 0 else "embeddings.nn.summary_untrained"
    fields = {
        "word": word,
        "before": sum(k == kind for k in before),
        "after": sum(k == kind for k in after),
        "k": len(after),
    }
    return said.message == expected and dict(said.fields) == fields and len(before) == len(after)


@claim(_kinds_holds)
def neighbour_kinds(
    word: str, kind: str, before: Sequence[str], after: Sequence[str], epochs: int
) -> Claim | None:
    """How many of the word's nearest neighbours share its kind, at the random start and in the
    trained table (``before``/``after``: the neighbours' kinds); at 0 epochs the two tables are
    one, and the sentence says so instead of "after training"."""
    if not after or len(before) != len(after):
        return None
    fields = {
        "word": word,
        "before": sum(k == kind for k in before),
        "after": sum(k == kind for k in after),
        "k": len(after),
    }
    return Claim(
        "embeddings.nn.summary" if epochs > 0 else "embeddings.nn.summary_untrained", fields
    )


def _closest(sims: np.ndarray) -> tuple[list[tuple[int, int]], str]:
    """Every pair i < j whose cosine, shown to three decimals, is the largest off the diagonal,
    and that value as shown."""
    m = np.asarray(sims, dtype=np.float64)
    upper = [(i, j) for i in range(len(m)) for j in range(i + 1, len(m))]
    shown = {pair: f"{m[pair]:.3f}" for pair in upper}
    best = max(upper, key=lambda pair: m[pair])
    return [pair for pair in upper if shown[pair] == shown[best]], shown[best]


def _closest_holds(said: Claim, sims: np.ndarray, words: Sequence[str]) -> bool:
    if len(words) < 2 or len(set(words)) != len(words):
        return False
    pairs, cos = _closest(sims)
    if len(pairs) == 1:
        i, j = pairs[0]
        expected = {"a": words[i], "b": words[j], "cos": cos}
        return said.message == "embeddings.cos.closest" and dict(said.fields) == expected
    named = [f"{words[i]}–{words[j]}" for i, j in pairs]
    expected_tie = {"pairs": named, "cos": cos, "count": len(pairs)}
    return said.message == "embeddings.cos.closest_tie" and dict(said.fields) == expected_tie


@claim(_closest_holds)
def closest_pair(sims: np.ndarray, words: Sequence[str]) -> Claim | None:
    """The closest pair of the sentence's distinct words by cosine (``sims`` [m, m]), or every pair
    tied with it at the three decimals shown; nothing for fewer than two words."""
    if len(words) < 2 or len(set(words)) != len(words):
        return None
    pairs, cos = _closest(sims)
    if len(pairs) == 1:
        i, j = pairs[0]
        return Claim("embeddings.cos.closest", {"a": words[i], "b": words[j], "cos": cos})
    named = [f"{words[i]}–{words[j]}" for i, j in pairs]
    return Claim("embeddings.cos.closest_tie", {"pairs": named, "cos": cos, "count": len(pairs)})
