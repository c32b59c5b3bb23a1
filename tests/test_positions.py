"""positions.py: the PE formula entry by entry, permutations, the shuffle experiment's
equivariance (without positions) and its breaking (with them), cosine matrices."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_walk.models.toy import ToyConfig, ToyTransformer, positional_encoding
from transformer_walk.topics import positions as pos


@pytest.mark.parametrize("d_model", [4, 8, 7, 64])
def test_pe_value_matches_the_model_matrix_entry_by_entry(d_model: int) -> None:
    pe = positional_encoding(12, d_model)
    for p in range(12):
        for c in range(d_model):
            assert pos.pe_value(p, c, d_model) == pytest.approx(pe[p, c], abs=1e-12)


def test_pe_angle_by_hand() -> None:
    # pos 3, column 2 (2i = 2), d_model 8: 3 / 10000^(2/8) = 3 / 10
    assert pos.pe_angle(3, 2, 8) == pytest.approx(0.3)
    assert pos.pe_angle(3, 3, 8) == pytest.approx(0.3)  # 2i + 1 shares the angle
    assert pos.pe_value(3, 3, 8) == pytest.approx(math.cos(0.3))
    assert pos.wavelength(0, 8) == pytest.approx(2 * math.pi)
    assert pos.wavelength(6, 8) == pytest.approx(2 * math.pi * 10000**0.75)


@pytest.mark.parametrize("n", [2, 3, 5, 40])
def test_seeded_permutation_is_a_real_shuffle(n: int) -> None:
    for seed in range(30):
        perm = pos.seeded_permutation(n, seed)
        assert sorted(perm.tolist()) == list(range(n))
        assert not np.array_equal(perm, np.arange(n))
    assert np.array_equal(pos.seeded_permutation(n, 7), pos.seeded_permutation(n, 7))
    assert pos.seeded_permutation(1, 0).tolist() == [0]


def test_permutation_matrix_reorders_rows() -> None:
    x = np.arange(12.0).reshape(4, 3)
    perm = np.array([2, 0, 3, 1])
    np.testing.assert_array_equal(pos.permutation_matrix(perm) @ x, x[perm])


@pytest.mark.parametrize(
    "text", ["Tom loves his dog", "我爱我的狗", "tom's 🐶 ❤️ a_b 3.5 !", "e\u0301t\u00e9 dog"]
)
def test_shuffled_text_tokenizes_back_to_the_shuffled_tokens(text: str) -> None:
    from transformer_walk.models.toy import tokenize

    tokens = tokenize(text)
    perm = pos.seeded_permutation(len(tokens), 3)
    assert tokenize(pos.shuffled_text(tokens, perm)) == [tokens[p] for p in perm]


def _experiment(text: str, positions: bool, seed: int = 1, **config: object) -> pos.ShuffleResult:
    from transformer_walk.models.toy import tokenize

    model = ToyTransformer(ToyConfig(positions=positions, **config), "numpy")
    tokens = tokenize(text)
    perm = pos.seeded_permutation(len(tokens), seed)
    return pos.compare_shuffle(model.run(text), model.run(pos.shuffled_text(tokens, perm)), perm)


@pytest.mark.parametrize("n_layers", [1, 3])
@pytest.mark.parametrize("norm", ["post", "pre"])
def test_without_positions_the_outputs_are_the_same_rows_permuted(n_layers: int, norm: str) -> None:
    result = _experiment(
        "the dog sees the cat and the cat sees tom", False, n_layers=n_layers, norm=norm
    )
    assert result.max_difference < 1e-12
    assert result.row_differences().shape == (10,)
    # ... and not trivially: the outputs themselves did move rows.
    assert np.max(np.abs(result.out_shuffled - result.out)) > 0.1


def test_with_positions_the_outputs_change() -> None:
    result = _experiment("Tom loves his dog", True)
    assert result.max_difference > 0.05
    assert np.all(result.row_differences() > 1e-6)


def test_compare_shuffle_rejects_a_trace_of_other_tokens() -> None:
    model = ToyTransformer(ToyConfig(), "numpy")
    with pytest.raises(ValueError):
        pos.compare_shuffle(model.run("a b c"), model.run("a b c"), np.array([1, 0, 2]))


def test_cosine_matrix_and_distance_profile() -> None:
    rows = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [0.0, 0.0]])
    c = pos.cosine_matrix(rows)
    np.testing.assert_allclose(np.diag(c)[:3], 1.0)
    assert c[0, 1] == pytest.approx(0.0)
    assert c[0, 2] == pytest.approx(1 / math.sqrt(2))
    assert np.all(c[3] == 0.0)  # a zero row has no direction
    m = np.array([[1.0, 0.5, 0.1], [0.5, 1.0, 0.3], [0.1, 0.3, 1.0]])
    np.testing.assert_allclose(pos.mean_cosine_by_distance(m), [1.0, 0.4, 0.1])


def test_sinusoidal_neighbours_are_more_alike_than_far_positions() -> None:
    profile = pos.mean_cosine_by_distance(pos.sinusoidal_cosines(64, 384))
    assert profile[0] == pytest.approx(1.0)
    assert profile[1] > profile[10] > profile[60]


def _result(out: np.ndarray, out_shuffled: np.ndarray, perm: list[int]) -> pos.ShuffleResult:
    p = np.array(perm)
    return pos.ShuffleResult(p, out, out_shuffled, pos.permutation_matrix(p) @ out)


def test_the_verdict_on_a_shuffle_follows_the_numbers() -> None:
    """The green "rounding error" box only when the difference is rounding error: a layer that
    is not equivariant, or a shuffle that changes nothing, is said as it is."""
    from transformer_walk.app.views import positions as views

    out = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    same = _result(out, out[[2, 0, 1]] + 1e-13, [2, 0, 1])
    changed = _result(out, out[[2, 0, 1]] + 0.25, [2, 0, 1])
    assert same.within_rounding and not changed.within_rounding
    ok = views.shuffle_verdict(same, changed)
    assert ok is not None and ok.message == "positions.shuffle.equivariant"
    assert ok.fields == {"off": "1.0e-13", "on": "0.250"}
    broken = views.shuffle_verdict(changed, changed)
    assert broken is not None and broken.message == "positions.shuffle.not_equivariant"
    assert broken.fields["off"] == "2.5e-01"
    nothing = views.shuffle_verdict(same, same)
    assert nothing is not None and nothing.message == "positions.shuffle.both_rounding"


def test_a_note_tracks_tokens_by_their_old_place_not_their_word() -> None:
    from transformer_walk.app.views import positions as views

    tokens = ["the", "cat", "saw", "the", "cat"]
    diffs = np.array([0.5, 0.423, 0.2, 0.1, 0.3])
    # place 1 holds the cat from place 4: the same word, but it moved
    moved = views.kept_place_note(np.array([2, 4, 0, 1, 3]), tokens, diffs)
    assert moved is not None and moved.message == "positions.shuffle.copy_moved"
    assert moved.fields == {"token": "1 · cat", "source": "4 · cat", "diff": "0.423"}
    stayed = views.kept_place_note(np.array([4, 2, 1, 3, 0]), tokens, diffs)
    assert stayed is not None and stayed.message == "positions.shuffle.stayed"
    assert stayed.fields == {"token": "3 · the", "diff": "0.100"}
    still = views.kept_place_note(np.array([4, 2, 1, 3, 0]), tokens, np.zeros(5))
    assert still is not None and still.message == "positions.shuffle.stayed_same"
    none = views.kept_place_note(np.array([1, 2, 3, 4, 0]), ["a", "b", "c", "d", "e"], diffs)
    assert none is not None and none.message == "positions.shuffle.note_none"
