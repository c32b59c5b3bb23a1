"""A toy RNN encoder–decoder interface: one fixed context vector vs a context per decoder step.

Encoder: a tanh RNN over toy word vectors, h_i = tanh(W_x x_i + W_h h_{i−1}), h_0 = 0.

- **Fixed context** (Cho et al., 2014; Sutskever et al., 2014): the decoder receives c = h_T, the
  same vector at every step, whatever word it is producing.
- **Attention** (Bahdanau et al., 2015): at step t the decoder scores every encoder state,
  e_{t,i} = score(s_t, h_i), normalises α_t = softmax(e_t) and reads c_t = Σ_i α_{t,i} h_i.

Nothing here is trained. To show the alignment a trained model would find, we build the
decoder's query at step t from the source word(s) that target word translates: q_t = tanh(W_x x̄),
the state the encoder would have for that word alone, with x̄ the mean of the aligned words'
vectors. This is a *teaching construction* that stands in for a learned decoder state; the
scorer is the scaled dot product, e_{t,i} = β · q_t · h_i / √d, with β a sharpness knob. The
softmax and the weighted sum are the backend's ``attention_weights`` and ``attention``.

The bottleneck experiment asks how much of word i can still be read back, by a linear probe,
from the single vector h_T, against reading it from h_i itself — which is what attention gives
the decoder access to.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from transformer_walk.models.toy import token_vector

RECURRENCE = 0.8  # spectral norm of W_h: below 1, so old inputs fade (and states stay bounded)
MAX_SOURCE = 30  # tokens of the user's sentence the page encodes (heatmaps stay readable)


@dataclass(frozen=True)
class ToyPair:
    """A source sentence, its translation, and which source word(s) each target word renders."""

    key: str
    source: tuple[str, ...]
    target: tuple[str, ...]
    alignment: tuple[tuple[int, ...], ...]  # one tuple of source indices per target word

    def __post_init__(self) -> None:
        if len(self.alignment) != len(self.target):
            raise ValueError("one alignment entry per target word")
        if any(not a or not all(0 <= i < len(self.source) for i in a) for a in self.alignment):
            raise ValueError("every target word aligns to at least one source index in range")


#: Fixed toy pairs whose word order differs from English.
PAIRS: dict[str, ToyPair] = {
    # French puts most adjectives after the noun: black cat → chat noir.
    "fr": ToyPair(
        "fr",
        ("the", "black", "cat", "sleeps"),
        ("le", "chat", "noir", "dort"),
        ((0,), (2,), (1,), (3,)),
    ),
    # Chinese puts the time before the verb; 七点 renders two English words, "at seven".
    "zh": ToyPair(
        "zh",
        ("i", "eat", "breakfast", "at", "seven"),
        ("我", "七点", "吃", "早饭"),
        ((0,), (3, 4), (1,), (2,)),
    ),
}


def mirror_pair(tokens: Sequence[str]) -> ToyPair:
    """The toy language "Mirror": the same words reversed (target j renders source n−1−j)."""
    n = len(tokens)
    return ToyPair(
        "mirror",
        tuple(tokens),
        tuple(reversed(tokens)),
        tuple((n - 1 - j,) for j in range(n)),
    )


@dataclass(frozen=True)
class Encoder:
    W_x: np.ndarray  # [d, d]
    W_h: np.ndarray  # [d, d], spectral norm RECURRENCE
    seed: int

    @classmethod
    def init(cls, d: int, seed: int = 0, recurrence: float = RECURRENCE) -> Encoder:
        rng = np.random.default_rng([seed, 7])
        W_x = rng.standard_normal((d, d)) / math.sqrt(d)
        q, _ = np.linalg.qr(rng.standard_normal((d, d)))  # a random rotation: norm 1
        return cls(W_x=W_x, W_h=recurrence * q, seed=seed)

    @property
    def d(self) -> int:
        return self.W_x.shape[0]

    def embed(self, words: Sequence[str]) -> np.ndarray:
        """Toy word vectors (seeded by each word's text) → [n, d]."""
        return np.stack([token_vector(w, self.d, self.seed) for w in words])

    def states(self, x: np.ndarray) -> np.ndarray:
        """h_1 … h_T for inputs x [..., T, d] → [..., T, d] (leading dims are a batch)."""
        h = np.zeros(x.shape[:-2] + (self.d,))  # (..., d)
        out = np.empty(x.shape[:-1] + (self.d,))
        for t in range(x.shape[-2]):
            h = np.tanh(x[..., t, :] @ self.W_x.T + h @ self.W_h.T)  # (..., d)
            out[..., t, :] = h
        return out

    def alone(self, x: np.ndarray) -> np.ndarray:
        """tanh(W_x x): the state a word would produce with nothing before it."""
        return np.tanh(x @ self.W_x.T)


@dataclass(frozen=True)
class Seq2SeqTrace:
    pair: ToyPair
    backend: str
    sharpness: float
    embeddings: np.ndarray  # [T, d] source word vectors x_i
    states: np.ndarray  # [T, d] encoder states h_i
    fixed_context: np.ndarray  # [d] c = h_T
    queries: np.ndarray  # [T', d] decoder queries q_t (teaching construction)
    scores: np.ndarray  # [T', T] e_{t,i}
    weights: np.ndarray  # [T', T] α_{t,i}
    contexts: np.ndarray  # [T', d] c_t = Σ_i α_{t,i} h_i

    @property
    def scale(self) -> float:
        return self.sharpness / math.sqrt(self.states.shape[1])

    @property
    def top_source(self) -> list[int]:
        """For each target word, the source position with the largest weight."""
        return [int(i) for i in np.argmax(self.weights, axis=1)]

    @property
    def aligned_hits(self) -> int:
        """How many target words give their largest weight to a source word they translate.

        Compared by word: a repeated source word ("the … the") has the same toy vector at both
        places, so content alone cannot tell the two apart — either one counts."""
        src = self.pair.source
        return sum(
            src[top] in {src[i] for i in a}
            for top, a in zip(self.top_source, self.pair.alignment, strict=True)
        )

    @property
    def weight_on_aligned(self) -> np.ndarray:
        """[T'] the total weight each target word puts on the word(s) it translates."""
        return np.array([self.weights[t, list(a)].sum() for t, a in enumerate(self.pair.alignment)])


def run(
    pair: ToyPair, backend: ModuleType, backend_name: str, d: int = 16, sharpness: float = 4.0,
    seed: int = 0,
) -> Seq2SeqTrace:  # fmt: skip
    """Encode ``pair.source``, then form the fixed context and every per-step context."""
    if not pair.source:
        raise ValueError("the source sentence is empty")
    enc = Encoder.init(d, seed)
    x = enc.embed(pair.source)  # (T, d)
    h = enc.states(x)  # (T, d)
    x_bar = np.stack([x[list(a)].mean(axis=0) for a in pair.alignment])  # (T', d)
    q = enc.alone(x_bar)  # (T', d)
    scale = sharpness / math.sqrt(d)
    scores = (q @ h.T) * scale  # (T', T)
    weights = np.asarray(backend.attention_weights(q, h, scale=scale))  # (T', T)
    contexts = np.asarray(backend.attention(q, h, h, scale=scale))  # (T', d)
    return Seq2SeqTrace(
        pair=pair, backend=backend_name, sharpness=sharpness, embeddings=x, states=h,
        fixed_context=h[-1], queries=q, scores=scores, weights=weights, contexts=contexts,
    )  # fmt: skip


# --- the bottleneck: what can still be read back from one vector -------------------------------


@dataclass(frozen=True)
class ReadbackRow:
    length: int  # T, the source length
    first_from_final: float  # accuracy of recovering word 1 from h_T
    mean_from_final: float  # mean over positions of recovering word i from h_T
    mean_from_own: float  # mean over positions of recovering word i from h_i
    per_position_final: tuple[float, ...]  # [T] accuracy of word i from h_T


def _probe_accuracy(
    train_x: np.ndarray, train_y: np.ndarray, test_x: np.ndarray, test_y: np.ndarray, k: int
) -> float:
    """Fit a linear read-out (ridge least squares onto one-hot labels) and report its accuracy."""
    xb = np.hstack([train_x, np.ones((len(train_x), 1))])  # (N, d+1) with a bias column
    targets = np.eye(k)[train_y]  # (N, k)
    w = np.linalg.solve(xb.T @ xb + 1e-3 * np.eye(xb.shape[1]), xb.T @ targets)  # (d+1, k)
    pred = np.hstack([test_x, np.ones((len(test_x), 1))]) @ w  # (M, k)
    return float(np.mean(np.argmax(pred, axis=1) == test_y))


def readback(
    d: int = 16,
    lengths: Sequence[int] = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32),
    vocab_size: int = 16,
    n_train: int = 1500,
    n_test: int = 500,
    seed: int = 0,
) -> list[ReadbackRow]:
    """For each source length T: random sentences of T words from a ``vocab_size``-word toy
    vocabulary go through the encoder; a linear probe trained on ``n_train`` of them tries to
    name word i of each of ``n_test`` new ones, from h_T (the fixed context) and from h_i.
    Chance is 1 / vocab_size."""
    enc = Encoder.init(d, seed)
    vocab = [f"w{i}" for i in range(vocab_size)]
    table = enc.embed(vocab)  # (k, d)
    rng = np.random.default_rng([seed, 11])
    rows = []
    for T in lengths:
        ids = rng.integers(0, vocab_size, size=(n_train + n_test, T))  # (N+M, T)
        states = enc.states(table[ids])  # (N+M, T, d)
        tr, te = slice(0, n_train), slice(n_train, None)
        final = states[:, -1, :]  # (N+M, d)
        from_final = [
            _probe_accuracy(final[tr], ids[tr, i], final[te], ids[te, i], vocab_size)
            for i in range(T)
        ]
        from_own = [
            _probe_accuracy(states[tr, i], ids[tr, i], states[te, i], ids[te, i], vocab_size)
            for i in range(T)
        ]
        rows.append(
            ReadbackRow(
                length=T,
                first_from_final=from_final[0],
                mean_from_final=float(np.mean(from_final)),
                mean_from_own=float(np.mean(from_own)),
                per_position_final=tuple(from_final),
            )
        )
    return rows
