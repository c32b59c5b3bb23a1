"""The Seq2seq page's reversal task for the learner (a decoder-only Transformer), set up like the
two GRU encoder–decoders of ``topics.gru_seq2seq`` so that the three can be compared.

One example is one sequence: the source letters, a mark, the reversed source, the mark again

    x_1 … x_T  |  y_1 … y_T  |        (y = x reversed, | the mark)

read left to right by a causal model that predicts each next symbol. The loss counts only the
answer: the T letters after the first mark and the closing mark; predicting the source itself is
not asked (it is random). The mark is the GRUs' one too: their decoder starts from it and ends
with it, so the vocabulary (the letters, then the mark) and what is scored are the same.

Fairness. The batches are the GRUs' own: the same seeded stream (``gru_seq2seq.train`` draws a
length T uniform in 1 … ``train_max_len``, then ``batch`` strings of that length; so does
``batch`` here), and evaluation uses the same held-out strings, greedy decoding and scores as
``gru_seq2seq.evaluate``. The differences, written on the page: the Transformer computes in
float32 on the Rust kernels with AdamW (the GRUs in float64 NumPy with Adam and clipping), and it
has learned positions, so a position beyond 2·``train_max_len`` + 1 has a vector that training
never moved: it is not expected to carry the reversal past the training lengths.

Parallel and sequential. A training step of the Transformer reads every position of a batch at
once (teacher forcing: the true answer is in its input, the causal mask hides the future); a GRU
computes its states one position after another, so its step has 2T + 1 dependent updates. Writing
an answer is sequential for both: each greedy step needs the symbol written before it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from transformer_walk.models.learner import LearnerConfig, train
from transformer_walk.models.learner.decoder import Params
from transformer_walk.models.learner.params import param_shapes
from transformer_walk.models.learner.reading import read
from transformer_walk.topics.gru_seq2seq import LOSS_WINDOW, GruConfig, LengthScore

IGNORE = -100  # the trainer's "no loss here"

#: The learner the page trains: the project's toy (d_model 64, 4 heads, 2 layers), its FFN
#: narrowed to 128 so that 1,000 steps stay well inside 20 s on two cores. Positions are sized
#: for the longest evaluated string (2·14 + 2 = 30).
LEARNER = LearnerConfig(d_model=64, h=4, d_ff=128, layers=2, max_positions=30)


@dataclass(frozen=True)
class ReversalConfig:
    """The GRUs' config (alphabet, lengths, batches, steps, seed, evaluation) and the learner's."""

    gru: GruConfig = field(default_factory=GruConfig)
    learner: LearnerConfig = LEARNER
    lr: float = 3e-3
    backend: str = "rust"

    def __post_init__(self) -> None:
        self.learner.validate()
        if self.learner.max_positions < sequence_length(self.gru.eval_max_len):
            raise ValueError(
                f"max_positions = {self.learner.max_positions} is too small for strings of "
                f"{self.gru.eval_max_len} letters (need {sequence_length(self.gru.eval_max_len)})"
            )


def sequence_length(length: int) -> int:
    """Symbols in one whole example of ``length`` letters: source, mark, answer, mark."""
    return 2 * length + 2


@cache
def _sources(gru: GruConfig, seed: int, steps: int) -> tuple[np.ndarray, ...]:
    """The first ``steps`` training batches of sources, drawn exactly as ``gru_seq2seq.train``
    draws them (same generator, same order), so the three models see the same strings."""
    rng = np.random.default_rng([seed, 1])
    out = []
    for _ in range(steps):
        T = int(rng.integers(1, gru.train_max_len + 1))
        out.append(rng.integers(0, len(gru.alphabet), size=(gru.batch, T)))
    return tuple(out)


def example(src: np.ndarray, mark: int) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and targets (both [B, 2T + 1] int64) for sources ``src`` [B, T]: the sequence
    x, mark, y, mark shifted by one, the targets IGNORE on the source and on the first mark."""
    src = np.asarray(src, dtype=np.int64)
    B, T = src.shape
    marks = np.full((B, 1), mark, dtype=np.int64)
    whole = np.concatenate([src, marks, src[:, ::-1], marks], axis=1)  # [B, 2T + 2]
    targets = whole[:, 1:].copy()
    targets[:, :T] = IGNORE  # positions 0 … T − 1 would predict x_2 … x_T and the mark
    return whole[:, :-1], targets


@dataclass(frozen=True)
class ReversalTask:
    """A ``transformer_walk.train`` task: batch s is the GRUs' batch s, as one sequence each."""

    gru: GruConfig
    steps: int  # how many batches the run will ask for (they are drawn in order, once)

    @property
    def vocab_size(self) -> int:
        return self.gru.vocab

    def sources(self, step: int, seed: int) -> np.ndarray:
        if not 0 <= step < self.steps:
            raise IndexError(f"step {step} is outside 0 … {self.steps - 1}")
        return _sources(self.gru, seed, self.steps)[step]

    def batch(self, step: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        return example(self.sources(step, seed), self.gru.boundary)


# --- greedy decoding and evaluation ------------------------------------------------------------


def greedy(params: Params, config: ReversalConfig, src: np.ndarray, steps: int) -> np.ndarray:
    """``steps`` symbols written greedily after each source [B, T] and the mark, one at a time:
    every step runs the model over all that is written so far (no key/value cache) and appends
    the most likely next symbol. → [B, steps] int64."""
    src = np.asarray(src, dtype=np.int64)
    mark = np.full((src.shape[0], 1), config.gru.boundary, dtype=np.int64)
    seq = np.concatenate([src, mark], axis=1)
    for _ in range(steps):
        logits = read(params, config.learner, seq, backend=config.backend).logits  # [B, n, V]
        nxt = np.argmax(logits[:, -1], axis=1)[:, None]
        seq = np.concatenate([seq, nxt], axis=1)
    return seq[:, src.shape[1] + 1 :]


def evaluate(params: Params, config: ReversalConfig) -> tuple[LengthScore, ...]:
    """``gru_seq2seq.evaluate`` for the Transformer: the same held-out strings (same generator),
    T letters and the end mark decoded greedily, the same token and sequence accuracy."""
    gru = config.gru
    rng = np.random.default_rng([gru.seed, 2])
    K, end = len(gru.alphabet), gru.boundary
    scores = []
    for T in range(1, gru.eval_max_len + 1):
        src = rng.integers(0, K, size=(gru.eval_per_length, T))
        out = greedy(params, config, src, T + 1)
        right = out[:, :T] == src[:, ::-1]
        whole = right.all(axis=1) & (out[:, T] == end)
        scores.append(LengthScore(T, float(right.mean()), float(whole.mean())))
    return tuple(scores)


# --- training -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrainedReversal:
    config: ReversalConfig
    params: Params = field(repr=False)
    losses: tuple[float, ...]
    scores: tuple[LengthScore, ...]
    seconds: float  # wall time of the training steps (evaluation aside)
    from_disk: bool = False

    def score(self, length: int) -> LengthScore:
        return self.scores[length - 1]

    def accuracy(self, length: int) -> float:
        return self.score(length).token_accuracy

    @property
    def step_seconds(self) -> float:
        return self.seconds / max(1, len(self.losses))

    def final_loss(self, window: int = LOSS_WINDOW) -> float:
        """The mean training loss of the last ``window`` steps (nan before any step), as
        ``gru_seq2seq.final_loss`` reads the GRUs'."""
        tail = self.losses[-window:]
        return float(np.mean(tail)) if tail else float("nan")


def parameter_count(config: ReversalConfig) -> int:
    """The learner's number of parameters (known before it is trained)."""
    shapes = param_shapes(config.learner, config.gru.vocab).values()
    return sum(int(np.prod(shape)) for shape in shapes)


#: ``on_step(step, steps, loss)``, every ``PROGRESS_EVERY`` steps and after the last.
StepCallback = Callable[[int, int, float], None]
PROGRESS_EVERY = 25


def train_reversal(config: ReversalConfig, on_step: StepCallback | None = None) -> TrainedReversal:
    """The learner trained for the GRUs' number of steps on their batches, then evaluated."""
    steps = config.gru.steps
    task = ReversalTask(config.gru, steps)

    def report(step: int, loss: float) -> None:
        if on_step is not None and (step % PROGRESS_EVERY == 0 or step == steps):
            on_step(step, steps, loss)

    if steps:
        task.sources(0, config.gru.seed)  # draws every batch now: the clock times steps only
    start = time.perf_counter()
    result = train(
        task, config.learner, steps=steps, seed=config.gru.seed, backend=config.backend,
        lr=config.lr, callback=report,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    scores = evaluate(result.params, config)
    return TrainedReversal(config, result.params, tuple(result.losses), scores, seconds)


# --- the learner's own string -------------------------------------------------------------------


def longest_readable(config: ReversalConfig) -> int:
    """The most letters whose whole answer fits the position table: T letters, the mark and T
    letters written before the end mark is predicted, 2T + 1 ≤ max_positions."""
    return (config.learner.max_positions - 1) // 2


@dataclass(frozen=True)
class Answer:
    """The Transformer's greedy answer to one string: the letters written before the end mark
    (at most 2T + 2 steps, fewer where the position table ends) and whether the mark came."""

    source: tuple[int, ...]
    output: tuple[int, ...]
    stopped: bool
    passes: int  # forward passes run: one per symbol written

    @property
    def expected(self) -> tuple[int, ...]:
        return self.source[::-1]

    @property
    def correct(self) -> bool:
        return self.stopped and self.output == self.expected

    @property
    def letters_right(self) -> int:
        return sum(a == b for a, b in zip(self.output, self.expected, strict=False))


def answer(model: TrainedReversal, source: tuple[int, ...]) -> Answer | None:
    """Greedy-decode one string, stopping at the end mark; None when it is longer than
    ``longest_readable`` (its answer would run past the learned positions)."""
    config = model.config
    T = len(source)
    if T == 0:
        raise ValueError("the source sequence is empty")
    if T > longest_readable(config):
        return None
    end = config.gru.boundary
    # the GRUs may write up to 2T + 2 symbols; here input T + k may not pass the position table
    steps = min(2 * T + 2, config.learner.max_positions - T)
    src = np.asarray(source, dtype=np.int64)[None, :]
    mark = np.full((1, 1), end, dtype=np.int64)
    seq = np.concatenate([src, mark], axis=1)
    written: list[int] = []
    for _ in range(steps):  # one pass per symbol, stopping at the mark (greedy() cannot stop)
        logits = read(model.params, config.learner, seq, backend=config.backend).logits
        symbol = int(np.argmax(logits[0, -1]))
        written.append(symbol)
        if symbol == end:
            break
        seq = np.concatenate([seq, [[symbol]]], axis=1)
    stopped = written[-1] == end
    return Answer(tuple(source), tuple(written[:-1] if stopped else written), stopped, len(written))
