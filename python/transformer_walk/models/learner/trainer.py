"""``train``: fit the learner to a task with cross-entropy and AdamW, all on one backend.

Deterministic: the parameters start from ``init`` or from ``seed``, and batch s is
``task.batch(s, seed)``, so the same seed, task and backend give the same losses on a machine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from transformer_walk.core import get_backend
from transformer_walk.models.learner.decoder import Params, backward, forward
from transformer_walk.models.learner.params import LearnerConfig, checked_params, init_params


class Task(Protocol):
    """What the trainer needs from a task: its vocabulary's size and seeded batches."""

    @property
    def vocab_size(self) -> int: ...

    def batch(self, step: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        """(inputs [B, n] int64, targets [B, n] int64 with -100 where no loss is taken)."""
        ...


@dataclass
class TrainResult:
    params: Params  # after the last step
    losses: list[float]  # one per step
    checkpoints: dict[int, Params] = field(default_factory=dict)  # step → params (0: the start)


def _copy(params: Params) -> Params:
    return {name: array.copy() for name, array in params.items()}


def _flat(params: Params) -> np.ndarray:
    """Every parameter copied into one float32 buffer, in ``params``' order: [Σ sizes]."""
    return np.concatenate([array.reshape(-1) for array in params.values()], dtype=np.float32)


def _views(flat: np.ndarray, like: Params) -> Params:
    """Each of ``like``'s names as a view of its slice of ``flat``, in order: [size] → [shape]."""
    views, at = {}, 0
    for name, array in like.items():
        views[name] = flat[at : at + array.size].reshape(array.shape)
        at += array.size
    return views


def train(
    task: Task,
    config: LearnerConfig,
    *,
    steps: int,
    seed: int = 0,
    backend: str = "rust",
    init: Params | None = None,
    lr: float = 3e-3,
    checkpoint_every: int | None = None,
    callback: Callable[[int, float], None] | None = None,
) -> TrainResult:
    """``steps`` AdamW steps on ``task``; ``callback(step, loss)`` after each (1-based) step.

    ``checkpoint_every = k`` keeps the parameters at step 0, every k-th step and the last step.
    """
    config.validate()
    if steps < 0:
        raise ValueError(f"steps must be >= 0, got {steps!r}")
    if checkpoint_every is not None and checkpoint_every < 1:
        raise ValueError(f"checkpoint_every must be at least 1, got {checkpoint_every!r}")
    kernels = get_backend(backend)
    vocab_size = task.vocab_size
    start = (
        init_params(config, vocab_size, seed)
        if init is None
        else checked_params(init, config, vocab_size)
    )
    # Every parameter, its gradient and its two moments live in one flat buffer each, so that
    # AdamW (elementwise, one weight decay for all) updates them all in one call.
    flat = _flat(start)
    params = _views(flat, start)
    grad_flat, exp_avg, exp_avg_sq = (np.zeros_like(flat) for _ in range(3))
    grads_in_flat = _views(grad_flat, start)
    result = TrainResult(params=params, losses=[])
    if checkpoint_every is not None:
        result.checkpoints[0] = _copy(params)
    for step in range(1, steps + 1):
        inputs, targets = task.batch(step - 1, seed)
        logits, tape = forward(kernels, params, config, inputs)
        loss, grad_logits = kernels.cross_entropy(logits, targets.reshape(-1))  # [B, n] → [B·n]
        grads = backward(kernels, params, config, tape, grad_logits)
        for name, view in grads_in_flat.items():
            view[...] = grads[name]
        kernels.adamw_step(
            flat,
            grad_flat,
            exp_avg,
            exp_avg_sq,
            step=step,
            lr=lr,
            weight_decay=config.weight_decay,
        )
        result.losses.append(loss)
        if checkpoint_every is not None and (step % checkpoint_every == 0 or step == steps):
            result.checkpoints[step] = _copy(params)
        if callback is not None:
            callback(step, loss)
    return result
