"""minilm_views: renormalisation without [CLS]/[SEP], head ranking, word pieces, cosines, the PCA
shared by all layers — on small hand-made arrays whose answers are known."""

from __future__ import annotations

import numpy as np
import pytest

from transformer_walk.app.views import minilm as views

TOKENS = ["[CLS]", "tom", "loves", "his", "dog", "[SEP]"]


def random_attention(
    rng: np.random.Generator, layers: int = 2, h: int = 3, n: int = 6
) -> np.ndarray:
    return rng.dirichlet(np.ones(n), size=(layers, h, n))  # rows sum to 1: (L, h, n, n)


def test_without_specials_drops_them_and_rows_sum_to_one_again() -> None:
    w = random_attention(np.random.default_rng(0))
    kept, positions = views.without_specials(w, TOKENS)
    assert positions == [1, 2, 3, 4]
    assert kept.shape == (2, 3, 4, 4)
    np.testing.assert_allclose(kept.sum(-1), 1.0, atol=1e-12)
    # The ratios between kept weights are the model's: row his (3), keys tom (1) and dog (4).
    np.testing.assert_allclose(kept[1, 2, 2, 0] / kept[1, 2, 2, 3], w[1, 2, 3, 1] / w[1, 2, 3, 4])
    # By hand for one row.
    row = w[0, 0, 3, [1, 2, 3, 4]]
    np.testing.assert_allclose(kept[0, 0, 2], row / row.sum())


def test_without_specials_of_a_text_with_nothing_else() -> None:
    w = np.full((1, 1, 2, 2), 0.5)
    kept, positions = views.without_specials(w, ["[CLS]", "[SEP]"])
    assert positions == [] and kept.shape == (1, 1, 0, 0)
    assert not views.has_content(["[CLS]", "[SEP]"])


def test_special_share_is_the_mean_weight_content_rows_give_specials() -> None:
    w = random_attention(np.random.default_rng(1))
    share = views.special_share(w, TOKENS)
    expected = w[:, :, 1:5][..., [0, 5]].sum(-1).mean(-1)
    np.testing.assert_allclose(share, expected)


def test_rank_heads_orders_all_heads_by_the_query_to_target_weight() -> None:
    w = random_attention(np.random.default_rng(2), layers=6, h=12)
    w[4, 7, 3] = [0.0, 0.9, 0.02, 0.03, 0.05, 0.0]  # one head where his → tom wins clearly
    ranked = views.rank_heads(w, 3, 1)
    assert len(ranked) == 72
    assert (ranked[0].layer, ranked[0].head, ranked[0].label) == (4, 7, "L5·H8")
    assert ranked[0].weight == pytest.approx(0.9) and ranked[0].top_key == 1
    weights = [r.weight for r in ranked]
    assert weights == sorted(weights, reverse=True)
    assert weights == sorted(w[:, :, 3, 1].ravel().tolist(), reverse=True)
    top = views.rank_heads(w, 3, 4, top=5)
    assert len(top) == 5 and top[0].weight == pytest.approx(w[:, :, 3, 4].max())
    rows = views.head_rows(w, 3, top)
    np.testing.assert_array_equal(rows[0], w[top[0].layer, top[0].head, 3])


def test_defaults_follow_the_running_example_and_fall_back() -> None:
    assert views.default_query(TOKENS) == 3
    assert views.default_target(TOKENS, 3, "tom") == 1
    assert views.default_target(TOKENS, 3, "dog") == 4
    other = ["[CLS]", "a", "b", "[SEP]"]
    assert views.default_query(other) == 2  # the last content token
    assert views.default_target(other, 2, "tom") == 1
    assert views.default_target(["[CLS]", "a", "[SEP]"], 1, "tom") == 1  # nothing else
    # Two pickers on a sentence without "tom" and "dog" start on two different tokens.
    when = ["[CLS]", "when", "the", "sea", "[SEP]"]
    first = views.default_target(when, 3, "tom")
    assert (first, views.default_target(when, 3, "dog", taken=[first])) == (1, 2)
    assert views.default_target(["[CLS]", "a", "b", "[SEP]"], 2, "dog", taken=[1]) == 1
    assert views.default_query(["[CLS]", "[SEP]"]) == 0


def test_find_word_prefers_a_whole_word_and_handles_chinese() -> None:
    text = "Embankment by the river Bank."
    assert views.find_word(text, "bank") == (24, 28)
    assert views.find_word("我爱我的狗", "狗") == (4, 5)
    assert views.find_word("no such", "bank") is None
    assert views.find_word("anything", "  ") is None


def test_word_pieces_overlap_the_span() -> None:
    offsets = [(0, 0), (0, 2), (2, 5), (6, 9), (0, 0)]  # [CLS] un ##bel ... [SEP]
    assert views.word_pieces(offsets, (0, 5)) == [1, 2]
    assert views.word_pieces(offsets, (6, 9)) == [3]
    assert views.word_pieces(offsets, (10, 12)) == []


def test_word_in_context_and_drift() -> None:
    rng = np.random.default_rng(3)
    n, d = 5, 4
    word = rng.normal(size=(n, d))
    hidden = rng.normal(size=(3, n, d))
    offsets = [(0, 0), (0, 2), (3, 7), (8, 12), (0, 0)]
    a = views.word_in_context("ab bank xxxx", "bank", offsets, word, hidden[0], hidden)
    assert a is not None and a.pieces == [2]
    np.testing.assert_array_equal(a.word, word[2])
    np.testing.assert_array_equal(a.hidden, hidden[:, 2])
    b = views.word_in_context("ab cccc bank", "bank", offsets, word, hidden[0], hidden)
    assert b is not None and b.pieces == [3]
    d_ab = views.drift(a, a)
    assert d_ab.word == pytest.approx(1.0) and np.allclose(d_ab.layers, 1.0)
    d_ab = views.drift(a, b)
    expected = [
        hidden[k, 2] @ hidden[k, 3] / np.linalg.norm(hidden[k, 2]) / np.linalg.norm(hidden[k, 3])
        for k in range(3)
    ]
    np.testing.assert_allclose(d_ab.layers, expected)
    assert views.word_in_context("nothing", "bank", offsets, word, hidden[0], hidden) is None


def test_cosines_and_nearest_rows() -> None:
    table = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0], [-3.0, 0.0]], dtype=np.float32)
    np.testing.assert_allclose(views.cosine(table[0], table[2]), 1 / np.sqrt(2))
    m = views.cosine_matrix(table)
    np.testing.assert_allclose(np.diag(m), 1.0)
    assert m[0, 3] == pytest.approx(-1.0)
    ids, sims = views.nearest_rows(table, np.array([2.0, 0.1]), 2)
    assert ids.tolist() == [0, 2] and sims[0] > sims[1]


def test_pca_by_layer_is_one_projection_for_all_layers() -> None:
    rng = np.random.default_rng(4)
    hidden = rng.normal(size=(7, 5, 16))
    hidden[:, :, 0] *= 20  # one dominant direction
    p = views.pca_by_layer(hidden)
    assert p.coords.shape == (7, 5, 2)
    assert 0 < p.share <= 1
    # The first axis is (up to sign and centring) the dominant coordinate.
    flat = hidden.reshape(35, 16)
    corr = np.corrcoef(p.coords.reshape(35, 2)[:, 0], flat[:, 0])[0, 1]
    assert abs(corr) > 0.99
    # Data that is exactly 2-D keeps all its variance.
    flat2 = np.zeros((7, 5, 16))
    flat2[..., :2] = rng.normal(size=(7, 5, 2))
    assert views.pca_by_layer(flat2).share == pytest.approx(1.0)


def test_distances_and_rank_by_layer() -> None:
    hidden = np.zeros((2, 4, 2))
    hidden[0] = [[1, 0], [0, 1], [1, 0.1], [-1, 0]]  # layer 0: token 2 nearest to token 0
    hidden[1] = [[1, 0], [1, 0.05], [0, 1], [-1, 0]]  # layer 1: token 1 nearest
    dist = views.distances_by_layer(hidden, 0, 1)
    np.testing.assert_allclose(dist.cosine, [0.0, 1 / np.sqrt(1 + 0.05**2)])
    np.testing.assert_allclose(dist.euclidean, [np.sqrt(2), 0.05])
    assert dist.closest_layer == 1
    assert views.rank_among_tokens(hidden, 0, 1, [1, 2, 3]).tolist() == [2, 1]


def test_sink_heads_counts_the_heads_parked_on_each_special_token() -> None:
    tokens = ["[CLS]", "tom", "dog", "[SEP]"]
    weights = np.full((2, 3, 4, 4), 0.25)  # (L, h, n, n): uniform rows
    weights[0, 0] = [1.0, 0.0, 0.0, 0.0]  # every query on [CLS]
    weights[1, 2] = [0.0, 0.2, 0.2, 0.6]  # 0.6 on [SEP]
    weights[1, 1] = [0.5, 0.5, 0.0, 0.0]  # exactly half: not more than half
    assert views.sink_heads(weights, tokens) == {"[CLS]": 1, "[SEP]": 1}


@pytest.mark.parametrize(
    ("cosines", "ranks", "verdict"),
    [
        ([0.1, 0.3, 0.5], [3, 2, 1], "closer"),  # rose, and ends the nearest
        ([0.1, 0.3, 0.5], [1, 3, 3], "all_closer"),  # rose, but others rose more
        ([0.5, 0.4, 0.2], [1, 1, 1], "not_closer"),
        ([0.3, 0.6, 0.3], [2, 1, 1], "not_closer"),  # back where it started: no rise
    ],
)
def test_the_drift_verdict_takes_the_rank_as_its_control(
    cosines: list[float], ranks: list[int], verdict: str
) -> None:
    assert views.drift_verdict(cosines, ranks) == verdict
