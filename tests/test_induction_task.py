"""Task b, a head that copies: the repeated-segment batches, the two attention scores on attention
matrices built by hand, the jump finder, and one run of the recipe checked for the mechanism."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.topics.learning import induction as ind


def test_batches_have_the_repeat_and_targets_only_inside_the_second_copy() -> None:
    task = ind.RepeatTask()
    inputs, targets = task.batch(3, seed=5)
    assert inputs.shape == targets.shape == (ind.BATCH_SIZE, ind.LENGTH)
    assert inputs.dtype == targets.dtype == np.int64
    assert (inputs[:, 0] == ind.BOS).all() and (inputs[:, 1:] >= 1).all()
    assert (inputs < ind.VOCAB_SIZE).all()
    for e in task.examples(200, np.random.default_rng(1)):
        first, second, size = e.first, e.second, e.length
        assert ind.MIN_SEGMENT <= size <= ind.MAX_SEGMENT
        assert 1 <= first and first + size <= second and second + size <= ind.LENGTH
        assert (e.tokens[second : second + size] == e.tokens[first : first + size]).all()
        t = e.targets()
        inside = np.arange(second, second + size - 1)  # the last copied token's successor is random
        assert (t[inside] == e.tokens[inside + 1]).all()
        assert (np.delete(t, inside) == ind.IGNORE).all()


def test_batches_are_seeded_and_the_layout_varies() -> None:
    task = ind.RepeatTask()
    a, b = task.batch(7, seed=0), task.batch(7, seed=0)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert not (task.batch(8, seed=0)[0] == a[0]).all()
    assert not (task.batch(7, seed=1)[0] == a[0]).all()
    examples = task.examples(500, np.random.default_rng(2))
    # No fixed offset can find the answer: lengths, places and gaps all take many values.
    assert {e.length for e in examples} == set(range(ind.MIN_SEGMENT, ind.MAX_SEGMENT + 1))
    assert len({e.second - e.first for e in examples}) > 15
    assert len({e.first for e in examples}) > 10


def test_the_control_has_the_layout_but_no_repeat() -> None:
    control = ind.RepeatTask(repeat=False).examples(200, np.random.default_rng(3))
    copied = [
        (e.tokens[e.second : e.second + e.length] == e.tokens[e.first : e.first + e.length]).all()
        for e in control
    ]
    assert sum(copied) == 0


def _uniform(batch: int, heads: int, n: int) -> np.ndarray:
    causal = np.tril(np.ones((n, n)))
    return np.broadcast_to(causal / causal.sum(axis=1, keepdims=True), (batch, heads, n, n)).copy()


def test_scores_are_one_for_the_pattern_and_chance_for_uniform_attention() -> None:
    examples = ind.RepeatTask().examples(16, np.random.default_rng(4))
    n = ind.LENGTH
    attention = _uniform(len(examples), 2, n)
    for row, e in enumerate(examples):  # head 0: a perfect induction head
        for i in range(e.length - 1):
            attention[row, 0, e.second + i] = 0.0
            attention[row, 0, e.second + i, e.first + i + 1] = 1.0
    score = ind.prefix_matching(attention, examples)
    assert score[0] == pytest.approx(1.0)
    assert score[1] == pytest.approx(ind.prefix_matching_chance(examples))

    previous = _uniform(3, 2, n)
    previous[:, 0, 1:] = np.eye(n)[:-1]  # head 0: every position looks at the one before it
    score = ind.previous_token(previous)
    assert score[0] == pytest.approx(1.0)
    assert score[1] == pytest.approx(ind.previous_token_chance(n))
    assert ind.previous_token_chance(n) == pytest.approx(np.mean(1 / np.arange(2, n + 1)))


def test_the_jump_is_the_steepest_drop_of_the_smoothed_loss() -> None:
    rng = np.random.default_rng(0)
    losses = np.where(np.arange(1, 801) <= 300, 4.0, 0.5) + rng.normal(0, 0.2, 800)
    assert abs(ind.jump_step(losses) - 300) <= 3
    with pytest.raises(ValueError, match="too few"):
        ind.jump_step(losses[:40])


def test_bad_settings_are_named() -> None:
    with pytest.raises(ValueError, match="cannot hold"):
        ind.RepeatTask(max_segment=16)
    with pytest.raises(ValueError, match="min_segment"):
        ind.RepeatTask(min_segment=8, max_segment=6)
    with pytest.raises(ValueError, match="steps"):
        ind.study(steps=ind.MAX_STEPS + 1)
    with pytest.raises(ValueError, match="checkpoint"):
        ind.study(steps=1000, checkpoint_every=1)
    with pytest.raises(ValueError, match="held_out"):
        ind.study(held_out=0)


@pytest.fixture(scope="module")
def run() -> ind.InductionStudy:
    return ind.study()  # the recipe: about 5–10 s of training and 2 s of reading on two cores


def test_the_recipe_forms_a_previous_token_head_and_an_induction_head(
    run: ind.InductionStudy,
) -> None:
    layer, head = run.induction_head
    assert layer == 1
    matching = run.prefix_matching[:, layer, head]
    chance = run.prefix_matching_chance
    assert matching[0] < 2 * chance and matching[-1] > 0.5  # from chance to most of its weight
    # On sequences without a repeat the same positions get little weight: it matches content.
    assert run.prefix_matching_control[-1, layer, head] < 3 * chance
    assert run.prefix_matching[-1, 0].max() < 3 * chance  # layer 0 alone cannot do it
    assert run.previous_token_head[0] == 0
    assert run.previous_token[-1][run.previous_token_head] > 4 * run.previous_token_chance
    # The loss jumps, and the score rises at the same time.
    assert run.second_copy_loss[0] > 3.5 and run.second_copy_loss[-1] < 1.0
    assert abs(run.jump_step - run.score_rise_step) <= 4 * ind.CHECKPOINT_EVERY
    assert run.first_copy_loss[-1] > run.first_copy_loss[0]  # nothing to copy there
    assert set(run.checkpoint_params) == set(run.checkpoint_steps)
    assert len(run.losses) == run.steps == ind.STEPS


def test_switching_the_circuit_off_returns_the_loss(run: ind.InductionStudy) -> None:
    a = run.ablations
    # The previous-token head off: the loss goes back up; its neighbour off: it barely moves.
    assert a.previous_token_head_off > 0.9 * a.untrained
    assert a.other_lower_heads_off < a.intact + 0.5
    # Both layer-1 heads are induction heads: one off costs a little, the layer off all of it.
    assert a.head_off > a.intact + 0.05
    assert a.layer_off > 0.9 * a.untrained
    assert a.other_heads_off < a.layer_off / 2
