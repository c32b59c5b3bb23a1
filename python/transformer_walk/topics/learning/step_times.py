"""How long one training step takes against the string's length, for the two GRU encoder–decoders
and the Transformer of the reversal task: parallel against sequential, measured.

A step here is the forward and backward pass over one batch of strings of T letters (teacher
forcing, as in training; the optimiser's update, the same whatever T is, is left out). A GRU
computes its 2T + 1 states one after another (T in the encoder, T + 1 in the decoder), forward and
back; the Transformer computes all 2T + 1 positions of a layer in one call of each kernel. The
numbers are ``time.perf_counter`` around each pass: the fastest of a few, after one warm-up (a
slower one waited for other programs on a shared machine; none of them ran faster than it can).
Parameters are the untrained ones (timing does not depend on their values) and the strings random.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from transformer_walk.core import get_backend
from transformer_walk.models.learner.decoder import backward, forward
from transformer_walk.models.learner.params import init_params
from transformer_walk.topics import gru_seq2seq
from transformer_walk.topics.learning.reversal import ReversalConfig, example

MODELS: tuple[str, ...] = ("fixed", "attention", "transformer")
#: Timed passes per model and length (after one warm-up): the fastest is kept.
REPEATS = 5


@dataclass(frozen=True)
class StepTimes:
    """``seconds[model][k]``: the seconds of one step at ``lengths[k]`` letters."""

    lengths: tuple[int, ...]
    seconds: dict[str, tuple[float, ...]]

    def at(self, model: str, length: int) -> float:
        return self.seconds[model][self.lengths.index(length)]


def sequential_updates(model: str, length: int) -> int:
    """Updates of one forward pass that must wait for the one before: a GRU's 2T + 1 states; a
    Transformer's layers, whatever T is (each reads all positions at once)."""
    return 2 * length + 1 if model in gru_seq2seq.VARIANTS else 0


def _fastest_seconds(run: Callable[[], object], repeats: int) -> float:
    run()  # warm-up: first-call costs (allocations, caches) are not a step's
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(
    config: ReversalConfig, lengths: tuple[int, ...] | None = None, repeats: int = REPEATS
) -> StepTimes:
    """Time a step of each model at each length (default 1 … ``eval_max_len``) on batches of
    ``gru.batch`` strings."""
    gru = config.gru
    lengths = lengths or tuple(range(1, gru.eval_max_len + 1))
    rng = np.random.default_rng([gru.seed, 3])
    kernels = get_backend(config.backend)
    learner = init_params(config.learner, gru.vocab, gru.seed)
    grus = {v: gru_seq2seq.init_params(gru, v) for v in gru_seq2seq.VARIANTS}
    seconds: dict[str, list[float]] = {m: [] for m in MODELS}
    for T in lengths:
        src = rng.integers(0, len(gru.alphabet), size=(gru.batch, T))
        for variant, params in grus.items():

            def gru_step(p: gru_seq2seq.Params = params, src: np.ndarray = src) -> None:
                gru_seq2seq.loss_and_grads(p, src, gru.boundary)

            seconds[variant].append(_fastest_seconds(gru_step, repeats))
        inputs, targets = example(src, gru.boundary)

        def transformer_step(inputs: np.ndarray = inputs, targets: np.ndarray = targets) -> None:
            logits, tape = forward(kernels, learner, config.learner, inputs)
            _, grad = kernels.cross_entropy(logits, targets.reshape(-1))
            backward(kernels, learner, config.learner, tape, grad)

        seconds["transformer"].append(_fastest_seconds(transformer_step, repeats))
    return StepTimes(tuple(lengths), {m: tuple(s) for m, s in seconds.items()})
