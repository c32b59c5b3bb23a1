"""The learner (models/learner): its gradient is the loss's, it learns, and it is reproducible.

The whole model's backward is checked against central finite differences of its own loss in
float64, so every kernel's gradient and the glue between them (heads split and merged, residuals,
positions summed over the batch) are checked together.
"""

from __future__ import annotations

import numpy as np
import pytest

import transformer_walk as tw
from transformer_walk.core import get_backend
from transformer_walk.models.learner import LearnerConfig, init_params, param_shapes
from transformer_walk.models.learner.decoder import backward, forward

from conftest import BACKEND_NAMES

TINY = LearnerConfig(d_model=8, h=2, d_ff=16, layers=2, max_positions=6)


class CopyTask:
    """Sequences of random tokens whose second half repeats the first: only the repeat can be
    predicted, so only its positions carry a target."""

    vocab_size = 7

    def __init__(self, half: int = 3, batch_size: int = 8) -> None:
        self.half, self.batch_size = half, batch_size

    def batch(self, step: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng([seed, step])
        first = rng.integers(0, self.vocab_size, (self.batch_size, self.half))
        inputs = np.concatenate([first, first], axis=1)  # [B, half] → [B, 2·half]
        targets = np.full_like(inputs, -100)
        targets[:, self.half - 1 : -1] = inputs[:, self.half :]  # position i predicts token i + 1
        return inputs.astype(np.int64), targets.astype(np.int64)


def loss_of(backend: str, params: dict, config: LearnerConfig, inputs, targets) -> float:
    kernels = get_backend(backend)
    logits, _ = forward(kernels, params, config, inputs)
    return kernels.cross_entropy(logits, targets.reshape(-1))[0]


@pytest.mark.parametrize("ffn", [True, False])
@pytest.mark.parametrize("backend", ["numpy", "rust"])
def test_gradient_matches_finite_differences(backend: str, ffn: bool) -> None:
    config = LearnerConfig(d_model=8, h=2, d_ff=16, layers=2, max_positions=6, ffn=ffn)
    task = CopyTask(half=2, batch_size=3)
    params = {
        name: array.astype(np.float64) * 20  # larger than the init, so every path carries signal
        if not name.endswith("gamma")
        else array.astype(np.float64)
        for name, array in init_params(config, task.vocab_size, seed=1).items()
    }
    inputs, targets = task.batch(0, seed=2)
    kernels = get_backend(backend)
    logits, tape = forward(kernels, params, config, inputs)
    _, grad_logits = kernels.cross_entropy(logits, targets.reshape(-1))
    grads = backward(kernels, params, config, tape, grad_logits)
    assert set(grads) == set(params)
    rng = np.random.default_rng(3)
    h = 1e-6
    for name, array in params.items():
        assert grads[name].shape == array.shape, name
        for flat in rng.choice(array.size, size=min(3, array.size), replace=False):
            index = np.unravel_index(flat, array.shape)
            saved = array[index]
            array[index] = saved + h
            up = loss_of(backend, params, config, inputs, targets)
            array[index] = saved - h
            down = loss_of(backend, params, config, inputs, targets)
            array[index] = saved
            numeric = (up - down) / (2 * h)
            assert grads[name][index] == pytest.approx(numeric, rel=1e-4, abs=1e-8), name


def test_names_and_shapes_are_the_documented_ones() -> None:
    shapes = param_shapes(TINY, vocab_size=7)
    assert shapes["token_embedding"] == (7, 8)
    assert shapes["position_embedding"] == (6, 8)
    assert shapes["layers.1.attn.w_q"] == (8, 8)
    assert shapes["layers.0.ffn.w_1"] == (16, 8)
    assert shapes["layers.0.ffn.w_2"] == (8, 16)
    assert shapes["unembed.weight"] == (7, 8)
    attention_only = param_shapes(LearnerConfig(d_model=8, h=2, layers=1, ffn=False), 7)
    assert not any("ffn" in name or "ln_2" in name for name in attention_only)


#: The seeds of the learning runs. One run's final loss is chaotic in the last bits: nudging the
#: initial weights by 2**-22 (the size of a kernel summing in another order) took seed 0's from
#: 0.13 to 0.68 in 2 of 12 tries, and some seeds (4, 5) stay above 0.4 after 150 steps whatever
#: the rounding. So two runs of three must learn: the median, not a single seed, is asserted.
LEARNING_SEEDS = (0, 1, 2)


@pytest.mark.parametrize("backend", BACKEND_NAMES)
def test_it_learns_the_copy_task(backend: str) -> None:
    if backend == "python":  # pure-Python kernels: a short run, that it trains at all
        result = tw.train(CopyTask(), TINY, steps=3, seed=0, backend=backend, lr=3e-2)
        assert len(result.losses) == 3
        assert all(np.isfinite(result.losses))
        return
    finals = []
    for seed in LEARNING_SEEDS:
        result = tw.train(CopyTask(), TINY, steps=150, seed=seed, backend=backend, lr=3e-2)
        assert len(result.losses) == 150
        assert all(np.isfinite(result.losses))
        # A random guess among 7 tokens costs ln 7 ≈ 1.95; copying drives the loss far below.
        assert result.losses[0] == pytest.approx(np.log(7), abs=0.1), seed
        finals.append(float(np.mean(result.losses[-5:])))
    assert np.median(finals) < 0.2, f"final losses of seeds {LEARNING_SEEDS}: {finals}"


def test_backends_agree_step_by_step() -> None:
    runs = {
        name: tw.train(CopyTask(), TINY, steps=3, seed=4, backend=name).losses
        for name in ("python", "numpy", "rust")
    }
    np.testing.assert_allclose(runs["python"], runs["numpy"], rtol=1e-4)
    np.testing.assert_allclose(runs["rust"], runs["numpy"], rtol=1e-4)


def test_same_seed_same_losses_and_init_round_trips() -> None:
    first = tw.train(CopyTask(), TINY, steps=5, seed=7, backend="rust", checkpoint_every=2)
    again = tw.train(CopyTask(), TINY, steps=5, seed=7, backend="rust", checkpoint_every=2)
    assert first.losses == again.losses
    assert sorted(first.checkpoints) == [0, 2, 4, 5]
    for name, array in first.params.items():
        np.testing.assert_array_equal(first.checkpoints[5][name], array)
    start = first.checkpoints[0]
    resumed = tw.train(CopyTask(), TINY, steps=5, seed=7, backend="rust", init=start)
    assert resumed.losses == first.losses
    assert start["unembed.weight"] is not resumed.params["unembed.weight"]  # init is copied


def test_bad_settings_are_named() -> None:
    with pytest.raises(ValueError, match="does not divide d_model"):
        tw.train(CopyTask(), LearnerConfig(d_model=6, h=4), steps=1)
    with pytest.raises(ValueError, match="steps must be"):
        tw.train(CopyTask(), TINY, steps=-1)
    with pytest.raises(ValueError, match="max_positions"):
        tw.train(CopyTask(half=4), TINY, steps=1)
    with pytest.raises(ValueError, match="missing"):
        tw.train(CopyTask(), TINY, steps=1, init={"token_embedding": np.zeros((7, 8))})
    bad = init_params(TINY, 7, 0)
    bad["ln_f.gamma"] = np.ones(9, np.float32)
    with pytest.raises(ValueError, match=r"init\['ln_f.gamma'\] has shape"):
        tw.train(CopyTask(), TINY, steps=1, init=bad)
