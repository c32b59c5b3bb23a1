"""The race's training step: one AdamW step of the learner (``models.learner``) on a fixed batch.

The model is ``LearnerConfig``'s default toy (d_model 64, 4 heads, d_ff 256, 2 layers, 32
positions) over a synthetic task of ``VOCAB`` symbols: random sequences, each position's target
the next symbol. A case's batch and initial weights are drawn once from its seed, so every lane
trains from the same ones; one call is ``train(task, CONFIG, steps=1, init=...)`` — the forward,
the cross-entropy, the backward and the AdamW update, as the trainer runs them — from fresh
copies of those weights, so every call times the same step.

The output compared between lanes is the step's loss. The updated weights are not: at the first
step AdamW moves every weight by about the learning rate in the direction of its gradient's sign,
so a gradient near zero that rounds to the other sign in another backend would move a weight
the other way, and the check would fail on rounding.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from transformer_walk.core.budget import (
    SCORE_MULTIPLY_ADDS,
    attention_multiply_adds,
    linear_multiply_adds,
    python_seconds,
)
from transformer_walk.models.learner import LearnerConfig, init_params, param_shapes, train

CONFIG = LearnerConfig()  # the toy the issue races: d_model 64, h 4, d_ff 256, 2 layers
VOCAB = 64  # symbols of the synthetic task
#: Arithmetic of one parameter's AdamW update (decay, two moment updates, the square root, the
#: division and the step), counted from torch's formula as the backends write it.
ADAMW_FLOPS = 13
#: Pure Python's ``adamw_step`` is a loop of float conversions and scalar operations, far slower
#: per parameter than a multiply-add of its products: its time per parameter expressed in
#: multiply-adds at ``core.budget``'s rate (docs/performance.md, "The app's own timings").
ADAMW_PYTHON_MULTIPLY_ADDS = 60


@dataclass(frozen=True)
class FixedBatch:
    """A ``Task`` whose every batch is the same one: each call trains on exactly this step."""

    inputs: np.ndarray  # [B, n] int64
    targets: np.ndarray  # [B, n] int64, the next symbol of each position
    vocab_size: int = VOCAB

    def batch(self, step: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        return self.inputs, self.targets


def parameter_count() -> int:
    return sum(int(np.prod(shape)) for shape in param_shapes(CONFIG, VOCAB).values())


def forward_multiply_adds(sizes: Mapping[str, int]) -> int:
    """The forward's products over [batch, n] ids: per layer Q, K, V, W^O, the FFN's two and
    attention (n² scores a head), then the output head; embeddings and norms are small."""
    c, rows = CONFIG, sizes["batch"] * sizes["n"]
    per_layer = (
        4 * linear_multiply_adds(rows, c.d_model, c.d_model)
        + linear_multiply_adds(rows, c.d_model, c.d_ff)
        + linear_multiply_adds(rows, c.d_ff, c.d_model)
        + attention_multiply_adds(sizes["batch"] * c.h, sizes["n"], sizes["n"], c.d_k, c.d_k)
    )
    return c.layers * per_layer + linear_multiply_adds(rows, c.d_model, VOCAB)


def step_flops(sizes: Mapping[str, int]) -> float:
    """FLOPs of one step: the backward computes two products for each of the forward's (the
    input's gradient and the weight's), so about 3 forwards of 2 FLOPs a multiply-add, then
    AdamW over every parameter."""
    return 2.0 * 3 * forward_multiply_adds(sizes) + ADAMW_FLOPS * parameter_count()


def python_step_seconds(sizes: Mapping[str, int]) -> float:
    """Pure Python's seconds for one step by ``core.budget``'s rate, before it has run one."""
    return python_seconds(
        3 * forward_multiply_adds(sizes) + ADAMW_PYTHON_MULTIPLY_ADDS * parameter_count()
    )


#: ``step_flops`` written out, for the report's and the page's "assuming time ∝ …".
SCALING = (
    f"6·(batch·n·({CONFIG.layers}·(4·{CONFIG.d_model}² + 2·{CONFIG.d_model}·{CONFIG.d_ff})"
    f" + {CONFIG.d_model}·{VOCAB}) + {CONFIG.layers}·batch·{CONFIG.h}·n²·"
    f"({2 * CONFIG.d_k} + {SCORE_MULTIPLY_ADDS})) + {ADAMW_FLOPS}·{parameter_count():,} (AdamW)"
)


def make_inputs(rng: np.random.Generator, sizes: Mapping[str, int], dtype: np.dtype) -> Any:
    """(task, initial weights): ``batch`` random sequences of ``n`` + 1 symbols, each position's
    target the next symbol, and seeded weights. The learner trains in float32 whatever ``dtype``
    the race's other ops take."""
    batch, n = sizes["batch"], sizes["n"]
    if n > CONFIG.max_positions:
        raise ValueError(f"n = {n} is more than the learner's {CONFIG.max_positions} positions")
    tokens = rng.integers(0, VOCAB, size=(batch, n + 1), dtype=np.int64)  # [B, n + 1]
    task = FixedBatch(inputs=tokens[:, :-1].copy(), targets=tokens[:, 1:].copy())  # [B, n] each
    init = init_params(CONFIG, VOCAB, seed=int(rng.integers(2**31)))
    return task, init


#: Steps of one call of ``run_losses``: the goal times training as the app runs it, step after
#: step, where one step after a pause would also time waking threads and refilling caches.
RUN_STEPS = 10


def run_losses(backend_name: str, args: Any) -> np.ndarray:
    """``RUN_STEPS`` training steps on ``backend_name`` from the case's weights: the losses."""
    task, init = args
    return np.asarray(train(task, CONFIG, steps=RUN_STEPS, backend=backend_name, init=init).losses)


def step_loss(backend_name: str, args: Any) -> np.ndarray:
    """One training step on ``backend_name`` from the case's weights: its loss, as a [1] array."""
    task, init = args
    return np.asarray(train(task, CONFIG, steps=1, backend=backend_name, init=init).losses)
