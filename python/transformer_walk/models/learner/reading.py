"""Reading a trained learner: its logits, attention weights and per-token losses for some inputs,
with heads switched off if asked — what the pages show and the tasks' claims are computed from."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transformer_walk.core import get_backend
from transformer_walk.models.learner.decoder import Params, forward
from transformer_walk.models.learner.params import LearnerConfig, checked_params


@dataclass(frozen=True)
class Reading:
    logits: np.ndarray  # [B, n, V]
    attention: tuple[np.ndarray, ...]  # per layer [B, h, n, n] (causal: zero above the diagonal)


def read(
    params: Params,
    config: LearnerConfig,
    inputs: np.ndarray,
    *,
    backend: str = "rust",
    head_mask: np.ndarray | None = None,
) -> Reading:
    """The learner's forward on ``inputs`` [B, n] (or [n]) with every attention matrix kept.
    ``head_mask`` [layers, h]: 0 switches a head off (its output is zero before W^O)."""
    inputs = np.asarray(inputs)
    if inputs.ndim == 1:
        inputs = inputs[None, :]  # [n] → [1, n]
    if inputs.dtype.kind not in "iu":
        raise TypeError(f"inputs must be integer token ids, got dtype {inputs.dtype}")
    vocab_size = params["token_embedding"].shape[0]
    params = checked_params(params, config, vocab_size)
    if inputs.size and (inputs.min() < 0 or inputs.max() >= vocab_size):
        bad = int(inputs.min() if inputs.min() < 0 else inputs.max())
        raise IndexError(f"token id {bad} is outside the vocabulary of {vocab_size}")
    logits, tape = forward(
        get_backend(backend), params, config, inputs, keep_attention=True, head_mask=head_mask
    )
    return Reading(
        logits=logits.reshape(*inputs.shape, vocab_size),  # [B·n, V] → [B, n, V]
        attention=tuple(tape.attention),
    )


def token_losses(logits: np.ndarray, targets: np.ndarray, ignore_index: int = -100) -> np.ndarray:
    """−log p(target) at every position of ``logits`` [B, n, V] (float64), NaN where the target is
    ``ignore_index``."""
    logits = np.asarray(logits, dtype=np.float64)
    targets = np.asarray(targets)
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets have shape {targets.shape}; expected {logits.shape[:-1]}")
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    counted = targets != ignore_index
    picked = np.take_along_axis(log_probs, np.where(counted, targets, 0)[..., None], axis=-1)
    return np.where(counted, -picked[..., 0], np.nan)
