"""The bottleneck without training: how much of word i a linear probe can still read back from
the single vector h_T of an RNN encoder, against reading it from h_i itself.

Encoder: a tanh RNN with random, untrained weights over toy word vectors,
h_i = tanh(W_x x_i + W_h h_{i−1}), h_0 = 0, with W_h scaled to spectral norm ``RECURRENCE`` < 1 so
that old inputs fade and states stay bounded. Nothing here learns except the probe: the question is
what one vector of fixed size *can* hold at all, before any decoder is trained to use it. A
fixed-context decoder gets only h_T; attention lets the decoder reach every h_i.

The trained encoder–decoders, with a fixed context and with attention, are in
``transformer_walk.topics.gru_seq2seq``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from transformer_walk.models.toy import token_vector

RECURRENCE = 0.8  # spectral norm of W_h: below 1, so old inputs fade (and states stay bounded)


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


# --- the bottleneck: what can still be read back from one vector -------------------------------


@dataclass(frozen=True)
class ReadbackRow:
    length: int  # T, the source length
    first_from_final: float  # accuracy of recovering word 1 from h_T
    mean_from_final: float  # mean over positions of recovering word i from h_T
    mean_from_own: float  # mean over positions of recovering word i from h_i
    per_position_final: tuple[float, ...]  # [T] accuracy of word i from h_T


READABLE = 0.9  # the own-state read-out "stays readable" at every length while at least this


def own_state_verdict(rows: Sequence[ReadbackRow], readable: float = READABLE) -> str:
    """ "readable" when word i is read back from its own state h_i at least ``readable`` of the
    time at every length measured, else "crowded" (a small state holds even its newest word
    poorly)."""
    return "readable" if rows and min(r.mean_from_own for r in rows) >= readable else "crowded"


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
