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
with a linearly decaying learning rate; everything is seeded, so a given set of
hyper-parameters always gives the same vectors.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

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


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))  # σ(x) without overflow warnings


def pair_loss(E: np.ndarray, U: np.ndarray, c: np.ndarray, o: np.ndarray, neg: np.ndarray) -> float:
    """Σ over the batch of −log σ(u_o·e_c) − Σ_j log σ(−u_j·e_c)."""
    s_pos = np.einsum("bd,bd->b", E[c], U[o])  # (B,)
    s_neg = np.einsum("bd,bkd->bk", E[c], U[neg])  # (B, k)
    return float(-_log_sigmoid(s_pos).sum() - _log_sigmoid(-s_neg).sum())


def sgd_step(
    E: np.ndarray, U: np.ndarray, c: np.ndarray, o: np.ndarray, neg: np.ndarray, lr: float
) -> float:
    """One SGD step, in place, on a batch of centres c [B], contexts o [B] and negatives
    neg [B, k]. Returns the batch's summed loss before the step.

    Written with dense products over the (small) vocabulary instead of gathering a [B, k, d] block
    of output vectors and scattering its gradient back row by row: the coefficient of every output
    vector in every pair's gradient goes into one [B, V] matrix A, and then
    ∂L/∂e_c = A·U and ∂L/∂U = Aᵀ·e, two matrix products (4–5× faster per step here). The sums
    are those of plain SGD on each pair, as word2vec does: a word that occurs twice in a batch
    (as a centre, or as a context and a negative) gets both updates."""
    B, V = len(c), U.shape[0]
    rows = np.arange(B)
    e = E[c]  # (B, d)
    scores = e @ U.T  # (B, V): every centre against every output vector
    targets = np.concatenate([o[:, None], neg], axis=1)  # (B, 1 + k): the context, then negatives
    s = scores[rows[:, None], targets]  # (B, 1 + k): s_pos, then s_neg
    signs = np.ones(s.shape[1])  # (1 + k,)
    signs[0] = -1.0
    # −log σ(s_pos) − Σ log σ(−s_neg) = Σ log(1 + e^{−s_pos}) + Σ log(1 + e^{s_neg})
    loss = float(np.logaddexp(0.0, s * signs).sum())
    # ∂L/∂s_pos = σ(s_pos) − 1,  ∂L/∂s_neg = σ(s_neg), gathered into A [B, V] (repeats summed)
    slopes = _sigmoid(s)  # (B, 1 + k)
    slopes[:, 0] -= 1.0
    cells = (rows[:, None] * V + targets).reshape(-1)  # (B·(1 + k),)
    A = np.bincount(cells, weights=slopes.reshape(-1), minlength=B * V).reshape(B, V)  # (B, V)
    grad_e = A @ U  # (B, d): Σ_v A[b, v] u_v
    grad_U = A.T @ e  # (V, d): Σ_b A[b, v] e_b
    centres = np.zeros((E.shape[0], B))  # (V, B): column b is the one-hot of c[b]
    centres[c, rows] = 1.0
    E -= lr * (centres @ grad_e)  # a centre that occurs twice gets both updates
    U -= lr * grad_U
    return loss


NOISE_TABLE = 1 << 16  # cells of the table negatives are drawn from: P_n to within 1/65,536


def noise_table(counts: np.ndarray, size: int = NOISE_TABLE) -> np.ndarray:
    """word2vec's unigram table: ``size`` cells, word w in a share of them ∝ count(w)^(3/4) (the
    noise distribution P_n), so a negative is one uniform index into it — a tenth of the time of
    drawing from P_n directly (``rng.choice(p=…)`` inverts the CDF by binary search per draw)."""
    noise = np.asarray(counts, dtype=float) ** 0.75
    cdf = np.cumsum(noise / noise.sum())  # (V,)
    cells = (np.arange(size) + 0.5) / size  # (size,): the middle of each cell
    return np.minimum(np.searchsorted(cdf, cells, side="right"), len(cdf) - 1)  # (size,) word ids


_BLAS_LIMIT = threading.Lock()


def train(
    sentences: Sentences,
    params: Word2VecParams | None = None,
    on_epoch: Callable[[int, float], None] | None = None,
) -> Word2VecResult:
    """Train E on ``sentences``; ``on_epoch(epoch, mean_loss)`` is called after each epoch."""
    params = params or Word2VecParams()
    params.validate()
    vocab, counts = build_vocab(sentences)
    if not vocab:
        raise ValueError("the corpus has no words")
    # One BLAS thread: a step's products are [128, 119]-sized, too small to split, and OpenBLAS's
    # second thread only added hand-over time (about 0.92 s instead of 1.10 s for 10 epochs at
    # window 3 on this 2-core machine; the vectors are the same to the bit). The limit is global
    # to the process, so trainings take turns: two overlapping ones would restore each other's
    # saved settings out of order and could leave BLAS on one thread for good.
    with _BLAS_LIMIT, threadpool_limits(1, user_api="blas"):
        return _train(sentences, params, vocab, counts, on_epoch)


def _train(
    sentences: Sentences,
    params: Word2VecParams,
    vocab: tuple[str, ...],
    counts: np.ndarray,
    on_epoch: Callable[[int, float], None] | None,
) -> Word2VecResult:
    index = {w: i for i, w in enumerate(vocab)}
    centres, contexts = skipgram_pairs(sentences, index, params.window)
    V, d, k = len(vocab), params.dim, params.negatives
    rng = np.random.default_rng(params.seed)

    E = (rng.random((V, d)) - 0.5) / d  # (V, d) small random input vectors
    U = np.zeros((V, d))  # (V, d) output vectors
    initial = E.copy()
    table = noise_table(counts)

    losses = [(1 + k) * math.log(2.0)]  # every score is 0 before the first update
    n_pairs = len(centres)
    total_steps = max(1, params.epochs * math.ceil(n_pairs / params.batch_size))
    step = 0
    for epoch in range(params.epochs):
        order = rng.permutation(n_pairs)
        negatives = table[rng.integers(0, len(table), size=(n_pairs, k))]  # (P, k)
        loss_sum = 0.0
        for start in range(0, n_pairs, params.batch_size):
            batch = order[start : start + params.batch_size]
            c, o, neg = centres[batch], contexts[batch], negatives[start : start + len(batch)]
            lr = params.learning_rate * max(1e-4, 1.0 - step / total_steps)
            step += 1
            loss_sum += sgd_step(E, U, c, o, neg, lr)
        mean = loss_sum / max(1, n_pairs)
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
