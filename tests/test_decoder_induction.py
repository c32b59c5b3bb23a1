"""Heads that copy in SmolLM2 (``topics.decoder_induction``): the prefix-matching score reads the
right cells, is high for the strongest head on repeated random tokens and near chance on text
whose second half is fresh, the losses are the model's own, and switching the strongest heads off
hurts the second copy more than switching off control heads of the same layers."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.models.learner.reading import token_losses
from transformer_walk.topics import decoder_induction as induction
from transformer_walk.topics.decoder_attribution import control_heads

from smollm2_support import MODEL_SKIP, RUST_SKIP, shared_model

needs_model = pytest.mark.skipif(MODEL_SKIP is not None, reason=str(MODEL_SKIP))
BACKEND = "numpy" if RUST_SKIP is not None else "rust"


def _causal_uniform(n: int) -> np.ndarray:
    """[n, n]: each row spreads its weight evenly over positions 0 … i."""
    return np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]


def test_the_score_reads_the_token_after_the_earlier_occurrence() -> None:
    length = 5
    n = 2 * length
    weights = np.zeros((2, 3, n, n))  # (L, h, n, n)
    for j in range(length - 1):
        weights[1, 2, length + j, j + 1] = 1.0  # an ideal induction head
        weights[0, 0, length + j, length + j - 1] = 1.0  # a previous-token head
    weights[0, 1] = _causal_uniform(n)
    scores = induction.prefix_matching(weights, length)
    assert scores.shape == (2, 3)
    assert scores[1, 2] == 1.0 and scores[0, 0] == 0.0
    assert scores[0, 1] == pytest.approx(induction.chance_score(length), rel=1e-12)


def test_chance_is_the_mean_of_one_over_the_keys_seen() -> None:
    assert induction.chance_score(2) == pytest.approx(1 / 3)
    assert induction.chance_score(3) == pytest.approx((1 / 4 + 1 / 5) / 2)


def test_the_copy_losses_count_each_copy_after_its_first_token() -> None:
    rng = np.random.default_rng(0)
    length, vocab = 4, 7
    ids = np.array([1, 2, 3, 4, 1, 2, 3, 4])
    logits = rng.normal(size=(2 * length, vocab))
    every = token_losses(logits[None], np.append(ids[1:], -100)[None])[0]  # (2T,): row i → i + 1
    assert np.array_equal(induction.first_copy_losses(logits, ids, length), every[: length - 1])
    second = induction.second_copy_losses(logits, ids, length)
    assert np.array_equal(second, every[length : 2 * length - 1])


def test_a_head_resting_on_the_first_token_is_said_so_only_past_half() -> None:
    weights = _causal_uniform(4)  # rows 1 … 3 put 1/2, 1/3, 1/4 on position 0: 36% on average
    assert induction.sink_claim(weights, "1 · a") is None
    weights[1:, :] = 0.0
    weights[1:, 0] = 0.9
    weights[1:, 1] = 0.1
    said = induction.sink_claim(weights, "1 · a")
    assert said is not None and said.fields == {"share": "90%", "first": "1 · a"}
    assert induction.sink_claim(weights[:1, :1], "1 · a") is None  # one token: no later rows


def test_the_change_is_the_printed_losses_difference() -> None:
    said = induction.off_claim(["L1·H1"], 1.204, 1.026, [1.1, 1.5])
    assert said is not None and said.fields["change"] == "−0.17"  # 1.03 − 1.20, not −0.178
    same = induction.off_claim(["L1·H1"], 1.001, 1.004, [0.5, 2.0])
    assert same is not None and same.message == "decoder_copying.claim.off.unchanged"


def test_twice_repeats_the_ids() -> None:
    assert induction.twice([3, 1, 2]).tolist() == [3, 1, 2, 3, 1, 2]


@pytest.fixture(scope="module")
def model():  # noqa: ANN201 - SmolLM2
    if MODEL_SKIP is not None:
        pytest.skip(MODEL_SKIP)
    return shared_model(BACKEND)


@pytest.fixture(scope="module")
def found(model):  # noqa: ANN001, ANN201 - CopyingHeads
    return induction.find_heads(model)


@needs_model
def test_random_tokens_are_ordinary_and_never_twice(model) -> None:  # noqa: ANN001
    repeated, unrepeated = induction.sequences(model, 25, 3, seed=7)
    assert repeated.shape == unrepeated.shape == (3, 50)
    assert np.array_equal(repeated[:, :25], repeated[:, 25:])
    assert np.array_equal(repeated[:, :25], unrepeated[:, :25])
    special = set(model.tokenizer.special_ids)
    for row in unrepeated:
        assert len(set(row.tolist())) == 50 and not special & set(row.tolist())


@needs_model
def test_the_strongest_head_copies_and_is_near_chance_without_a_repeat(found) -> None:  # noqa: ANN001
    top = found.strongest(1)[0]
    assert found.scores.shape == (30, 9)
    assert found.scores[top] > 0.5  # most of its weight on the token to copy
    assert found.control_scores[top] < 2 * found.chance  # nothing to copy: near chance
    assert found.control_scores.max() < 0.25  # no head finds that cell without a repeat
    assert found.loss_second < found.loss_first / 2


@needs_model
def test_the_scores_are_read_from_the_models_attention(model, found) -> None:  # noqa: ANN001
    repeated, _ = induction.sequences(model, induction.LENGTH, induction.DRAWS, induction.SEED)
    first = model.forward(repeated[0], keep=("weights",))
    weights = np.stack([r["weights"] for r in first.records])  # L × (h, n, n) → (L, h, n, n)
    one = induction.prefix_matching(weights, induction.LENGTH)
    assert np.abs(one - found.scores).max() < 0.5  # one sequence of the four averaged
    layer, head = found.strongest(1)[0]
    queries = np.arange(induction.LENGTH, 2 * induction.LENGTH - 1)
    by_hand = np.mean([weights[layer, head, q, q - induction.LENGTH + 1] for q in queries])
    assert one[layer, head] == pytest.approx(by_hand, rel=1e-6)


@needs_model
def test_switching_the_copying_heads_off_hurts_more_than_controls(model, found) -> None:  # noqa: ANN001
    heads = found.strongest(induction.TOP)
    avoid = found.copying()
    losses = induction.switch_off(model, induction.held_out(model, draws=2), heads, avoid, draws=3)
    assert losses.intact.shape == losses.off.shape == (2, induction.LENGTH - 1)
    assert losses.control_off.shape == (3, 2, induction.LENGTH - 1)
    assert losses.off_loss > max(losses.control_losses) > losses.intact_loss - 0.5
    for control in losses.controls:  # as many heads, of the same layers, none of the chosen
        assert sorted(layer for layer, _ in control) == sorted(layer for layer, _ in heads)
        assert not set(control) & set(avoid)  # no control is a copying head
    assert set(heads) <= set(avoid)


@needs_model
def test_every_count_the_page_offers_has_controls_that_do_not_copy(found) -> None:  # noqa: ANN001
    rng = np.random.default_rng(0)
    for count in range(1, induction.MAX_TOP + 1):
        heads = found.strongest(count)
        for control in control_heads(heads, 9, induction.CONTROL_DRAWS, rng, found.copying()):
            assert len(control) == count and not set(control) & set(found.copying())


@needs_model
def test_nothing_switched_off_is_the_plain_forward(model) -> None:  # noqa: ANN001
    ids = induction.twice(model.tokenize("the cat saw the cat\n"))
    plain = model.forward(ids, keep=("weights",))  # the same kernels as a recorded run
    weights, logits = induction._forward(model, ids, ())
    assert np.array_equal(plain.logits, logits)
    assert np.array_equal(np.stack([r["weights"] for r in plain.records]), weights)
