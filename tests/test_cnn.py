"""The 1-D CNN of the RNN/CNN page: windows, receptive field, layers to link, §31's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.topics import cnn


def _brute_layers(distance: int, k: int) -> int:
    layers = 0
    while cnn.receptive_field(k, layers) < distance + 1:
        layers += 1
    return layers


def test_receptive_field_is_one_plus_l_times_k_minus_one() -> None:
    assert [cnn.receptive_field(3, L) for L in range(4)] == [1, 3, 5, 7]
    assert cnn.receptive_field(5, 2) == 9
    assert cnn.receptive_field(2, 10) == 11


@pytest.mark.parametrize("k", [2, 3, 4, 7])
@pytest.mark.parametrize("i, j", [(0, 0), (0, 1), (0, 3), (5, 1), (0, 99), (17, 3)])
def test_layers_to_link_is_the_fewest_layers_whose_field_spans_both(k: int, i: int, j: int) -> None:
    layers = cnn.layers_to_link(i, j, k)
    assert layers == _brute_layers(abs(i - j), k)
    assert cnn.layers_to_link(j, i, k) == layers
    if layers:
        assert cnn.receptive_field(k, layers - 1) < abs(i - j) + 1 <= cnn.receptive_field(k, layers)


def test_tom_and_dog_need_two_layers_of_window_three() -> None:
    assert cnn.layers_to_link(0, 3, 3) == 2  # "Tom loves his dog": 3 apart, 2 more per layer


def test_window_one_never_links() -> None:
    assert cnn.layers_to_link(0, 2, 1) is None
    assert cnn.layers_to_link(2, 2, 1) == 0


@pytest.mark.parametrize("n, k, expected", [(1, 3, 0), (2, 2, 1), (4, 3, 2), (9, 3, 2), (10, 3, 3),
                                            (200, 2, 8), (200, 7, 3)])  # fmt: skip
def test_dilated_layers(n: int, k: int, expected: int) -> None:
    layers = cnn.dilated_layers(n, k)
    assert layers == expected
    assert k**layers >= n and (layers == 0 or k ** (layers - 1) < n)


def test_windows_and_conv_compute_every_window_at_once() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 4))
    w = cnn.init_conv(4, 6, 3, seed=0)
    assert [list(r) for r in cnn.windows(5, 3)] == [[0, 1, 2], [1, 2, 3], [2, 3, 4]]
    out = cnn.conv1d(x, w)
    assert out.shape == (3, 6)
    for i in range(3):
        window = np.concatenate([x[i], x[i + 1], x[i + 2]])  # [x_i; x_{i+1}; x_{i+2}]
        np.testing.assert_allclose(out[i], np.tanh(window @ w.W + w.b), atol=1e-12)


def test_a_window_only_sees_its_own_tokens() -> None:
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, 3))
    w = cnn.init_conv(3, 3, 2, seed=0)
    changed = x.copy()
    changed[5] += 1.0
    a, b = cnn.conv1d(x, w), cnn.conv1d(changed, w)
    np.testing.assert_array_equal(a[:4], b[:4])  # windows 0..3 end before token 5
    assert np.abs(a[4] - b[4]).max() > 0


def test_a_sentence_shorter_than_the_window_has_no_windows() -> None:
    w = cnn.init_conv(3, 2, 4, seed=0)
    assert cnn.windows(3, 4) == []
    assert cnn.conv1d(np.ones((3, 3)), w).shape == (0, 2)


def test_coverage_grows_by_k_minus_one_and_stops_at_the_end() -> None:
    assert [list(r) for r in cnn.coverage(1, 3, 2, 6)] == [[1], [1, 2, 3], [1, 2, 3, 4, 5]]
    assert list(cnn.coverage(4, 3, 2, 6)[2]) == [4, 5]


def test_comparison_for_tom_loves_his_dog() -> None:
    c = cnn.compare(4, 3, 512, 0, 3)
    assert c.sequential == {"rnn": 4, "cnn": 1, "attention": 1}
    assert c.max_path == {"rnn": 3, "cnn": 2, "attention": 1}
    assert c.path_ij == {"rnn": 3, "cnn": 2, "attention": 1}
    assert c.cost == {"rnn": 4 * 512**2, "cnn": 3 * 4 * 512**2, "attention": 16 * 512}
    assert c.cnn_dilated_path == 2


def test_comparison_for_one_token_has_no_paths() -> None:
    c = cnn.compare(1, 3, 8, 0, 0)
    assert c.max_path == {"rnn": 0, "cnn": 0, "attention": 0}
    assert c.path_ij["attention"] == 0
