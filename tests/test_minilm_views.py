"""topics.minilm_tokens, topics.minilm_heads and views.minilm_vectors: renormalisation without
[CLS]/[SEP], head ranking, word pieces, cosines, the PCA shared by all layers — on small
hand-made arrays whose answers are known."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from transformer_walk.app.views import minilm_vectors as vector_views
from transformer_walk.topics import minilm_heads as head_views
from transformer_walk.topics import minilm_tokens

TOKENS = ["[CLS]", "tom", "loves", "his", "dog", "[SEP]"]


def random_attention(
    rng: np.random.Generator, layers: int = 2, h: int = 3, n: int = 6
) -> np.ndarray:
    return rng.dirichlet(np.ones(n), size=(layers, h, n))  # rows sum to 1: (L, h, n, n)


def test_without_specials_drops_them_and_rows_sum_to_one_again() -> None:
    w = random_attention(np.random.default_rng(0))
    kept, positions = head_views.without_specials(w, TOKENS)
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
    kept, positions = head_views.without_specials(w, ["[CLS]", "[SEP]"])
    assert positions == [] and kept.shape == (1, 1, 0, 0)
    assert not minilm_tokens.has_content(["[CLS]", "[SEP]"])


def test_special_share_is_the_mean_weight_content_rows_give_specials() -> None:
    w = random_attention(np.random.default_rng(1))
    share = head_views.special_share(w, TOKENS)
    expected = w[:, :, 1:5][..., [0, 5]].sum(-1).mean(-1)
    np.testing.assert_allclose(share, expected)


def test_rank_heads_orders_all_heads_by_the_query_to_target_weight() -> None:
    w = random_attention(np.random.default_rng(2), layers=6, h=12)
    w[4, 7, 3] = [0.0, 0.9, 0.02, 0.03, 0.05, 0.0]  # one head where his → tom wins clearly
    ranked = head_views.rank_heads(w, 3, 1)
    assert len(ranked) == 72
    assert (ranked[0].layer, ranked[0].head, ranked[0].label) == (4, 7, "L5·H8")
    assert ranked[0].weight == pytest.approx(0.9) and ranked[0].top_key == 1
    weights = [r.weight for r in ranked]
    assert weights == sorted(weights, reverse=True)
    assert weights == sorted(w[:, :, 3, 1].ravel().tolist(), reverse=True)
    top = head_views.rank_heads(w, 3, 4, top=5)
    assert len(top) == 5 and top[0].weight == pytest.approx(w[:, :, 3, 4].max())
    rows = head_views.head_rows(w, 3, top)
    np.testing.assert_array_equal(rows[0], w[top[0].layer, top[0].head, 3])


def test_defaults_follow_the_running_example_and_fall_back() -> None:
    assert minilm_tokens.default_query(TOKENS) == 3
    assert minilm_tokens.default_target(TOKENS, 3, "tom") == 1
    assert minilm_tokens.default_target(TOKENS, 3, "dog") == 4
    other = ["[CLS]", "a", "b", "[SEP]"]
    assert minilm_tokens.default_query(other) == 2  # the last content token
    assert minilm_tokens.default_target(other, 2, "tom") == 1
    assert minilm_tokens.default_target(["[CLS]", "a", "[SEP]"], 1, "tom") == 1  # nothing else
    # Two pickers on a sentence without "tom" and "dog" start on two different tokens.
    when = ["[CLS]", "when", "the", "sea", "[SEP]"]
    first = minilm_tokens.default_target(when, 3, "tom")
    assert (first, minilm_tokens.default_target(when, 3, "dog", taken=[first])) == (1, 2)
    assert minilm_tokens.default_target(["[CLS]", "a", "b", "[SEP]"], 2, "dog", taken=[1]) == 1
    assert minilm_tokens.default_query(["[CLS]", "[SEP]"]) == 0


def test_find_word_prefers_a_whole_word_and_handles_chinese() -> None:
    text = "Embankment by the river Bank."
    assert vector_views.find_word(text, "bank") == (24, 28)
    assert vector_views.find_word("我爱我的狗", "狗") == (4, 5)
    assert vector_views.find_word("no such", "bank") is None
    assert vector_views.find_word("anything", "  ") is None


def test_word_pieces_overlap_the_span() -> None:
    offsets = [(0, 0), (0, 2), (2, 5), (6, 9), (0, 0)]  # [CLS] un ##bel ... [SEP]
    assert vector_views.word_pieces(offsets, (0, 5)) == [1, 2]
    assert vector_views.word_pieces(offsets, (6, 9)) == [3]
    assert vector_views.word_pieces(offsets, (10, 12)) == []


def test_word_in_context_and_drift() -> None:
    rng = np.random.default_rng(3)
    n, d = 5, 4
    word = rng.normal(size=(n, d))
    hidden = rng.normal(size=(3, n, d))
    offsets = [(0, 0), (0, 2), (3, 7), (8, 12), (0, 0)]
    a = vector_views.word_in_context("ab bank xxxx", "bank", offsets, word, hidden[0], hidden)
    assert a is not None and a.pieces == [2]
    np.testing.assert_array_equal(a.word, word[2])
    np.testing.assert_array_equal(a.hidden, hidden[:, 2])
    b = vector_views.word_in_context("ab cccc bank", "bank", offsets, word, hidden[0], hidden)
    assert b is not None and b.pieces == [3]
    d_ab = vector_views.drift(a, a)
    assert d_ab.word == pytest.approx(1.0) and np.allclose(d_ab.layers, 1.0)
    d_ab = vector_views.drift(a, b)
    expected = [
        hidden[k, 2] @ hidden[k, 3] / np.linalg.norm(hidden[k, 2]) / np.linalg.norm(hidden[k, 3])
        for k in range(3)
    ]
    np.testing.assert_allclose(d_ab.layers, expected)
    assert vector_views.word_in_context("nothing", "bank", offsets, word, hidden[0], hidden) is None


def test_cosines_and_nearest_rows() -> None:
    table = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0], [-3.0, 0.0]], dtype=np.float32)
    np.testing.assert_allclose(vector_views.cosine(table[0], table[2]), 1 / np.sqrt(2))
    m = vector_views.cosine_matrix(table)
    np.testing.assert_allclose(np.diag(m), 1.0)
    assert m[0, 3] == pytest.approx(-1.0)
    ids, sims = vector_views.nearest_rows(table, np.array([2.0, 0.1]), 2)
    assert ids.tolist() == [0, 2] and sims[0] > sims[1]


def test_pca_by_layer_is_one_projection_for_all_layers() -> None:
    rng = np.random.default_rng(4)
    hidden = rng.normal(size=(7, 5, 16))
    hidden[:, :, 0] *= 20  # one dominant direction
    p = vector_views.pca_by_layer(hidden)
    assert p.coords.shape == (7, 5, 2)
    assert 0 < p.share <= 1
    # The first axis is (up to sign and centring) the dominant coordinate.
    flat = hidden.reshape(35, 16)
    corr = np.corrcoef(p.coords.reshape(35, 2)[:, 0], flat[:, 0])[0, 1]
    assert abs(corr) > 0.99
    # Data that is exactly 2-D keeps all its variance.
    flat2 = np.zeros((7, 5, 16))
    flat2[..., :2] = rng.normal(size=(7, 5, 2))
    assert vector_views.pca_by_layer(flat2).share == pytest.approx(1.0)


def test_distances_and_rank_by_layer() -> None:
    hidden = np.zeros((2, 4, 2))
    hidden[0] = [[1, 0], [0, 1], [1, 0.1], [-1, 0]]  # layer 0: token 2 nearest to token 0
    hidden[1] = [[1, 0], [1, 0.05], [0, 1], [-1, 0]]  # layer 1: token 1 nearest
    dist = vector_views.distances_by_layer(hidden, 0, 1)
    np.testing.assert_allclose(dist.cosine, [0.0, 1 / np.sqrt(1 + 0.05**2)])
    np.testing.assert_allclose(dist.euclidean, [np.sqrt(2), 0.05])
    assert dist.closest_layer == 1
    assert vector_views.rank_among_tokens(hidden, 0, 1, [1, 2, 3]).tolist() == [2, 1]


def test_sink_heads_counts_the_heads_parked_on_each_special_token() -> None:
    tokens = ["[CLS]", "tom", "dog", "[SEP]"]
    weights = np.full((2, 3, 4, 4), 0.25)  # (L, h, n, n): uniform rows
    weights[0, 0] = [1.0, 0.0, 0.0, 0.0]  # every query on [CLS]
    weights[1, 2] = [0.0, 0.2, 0.2, 0.6]  # 0.6 on [SEP]
    weights[1, 1] = [0.5, 0.5, 0.0, 0.0]  # exactly half: not more than half
    assert head_views.sink_heads(weights, tokens) == {"[CLS]": 1, "[SEP]": 1}


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
    assert vector_views.drift_verdict(cosines, ranks) == verdict


# --- the default targets -------------------------------------------------------------------------


def test_word_like_tokens_have_a_letter_or_digit_and_are_not_markers() -> None:
    assert (
        minilm_tokens.word_like("dog")
        and minilm_tokens.word_like("##ing")
        and minilm_tokens.word_like("女")
    )
    assert minilm_tokens.word_like("3")
    assert not any(map(minilm_tokens.word_like, ["[CLS]", "[SEP]", "[UNK]", ",", ".", "🐟"]))


def test_most_attended_averages_every_head_and_skips_the_query_and_markers() -> None:
    tokens = ["[CLS]", "when", "the", ",", "sea", "his", "[UNK]", "[SEP]"]
    a = np.zeros((2, 2, 8, 8))  # (L, h, n, n); only the query's row matters
    a[..., 5, :] = [0.3, 0.05, 0.05, 0.2, 0.1, 0.1, 0.15, 0.05]
    a[0, 0, 5, 2] = 0.45  # "the" wins in one head only, 0.15 averaged over the four
    a[1, 1, 5, 4] = 0.3  # "sea" 0.1 + 0.2 / 4 = 0.15 averaged too: a tie, sentence order
    # [CLS], "," and [UNK] outweigh every word, and the query gives itself 0.1: none counts.
    assert minilm_tokens.most_attended(a, tokens, 5, 3) == [2, 4, 1]
    assert minilm_tokens.most_attended(a, tokens, 5, 10) == [2, 4, 1]  # all there is
    assert minilm_tokens.most_attended(a, tokens, 5, 0) == []


def test_ranking_targets_take_the_example_words_else_the_most_attended() -> None:
    a = np.full((1, 1, 6, 6), 1 / 6)
    assert head_views.ranking_targets(a, TOKENS, 3) == [
        head_views.Target(1, "example"),
        head_views.Target(4, "example"),
    ]
    tokens = ["[CLS]", "when", "the", "sea", "his", "daughter", "ran", "[SEP]"]
    a = np.zeros((1, 1, 8, 8))
    a[0, 0, 4] = [0.4, 0.02, 0.03, 0.15, 0.0, 0.3, 0.1, 0.0]
    assert head_views.ranking_targets(a, tokens, 4) == [
        head_views.Target(5, "attended"),  # daughter, then sea: not "when", "the"
        head_views.Target(3, "attended"),
    ]
    # One example word present: it keeps its picker, the other takes the most attended token.
    tokens[3] = "dog"
    assert head_views.ranking_targets(a, tokens, 4) == [
        head_views.Target(5, "attended"),
        head_views.Target(3, "example"),
    ]
    # The query is "tom" itself: "tom" cannot be its own target.
    assert (
        head_views.ranking_targets(np.full((1, 1, 6, 6), 1 / 6), TOKENS, 1)[0].source == "attended"
    )


def test_ranking_targets_fall_back_to_order_without_word_like_tokens() -> None:
    tokens = ["[CLS]", "🐶", "!", "?", "[SEP]"]
    targets = head_views.ranking_targets(np.full((1, 1, 5, 5), 0.2), tokens, 3)
    assert targets == [head_views.Target(1, "order"), head_views.Target(2, "order")]
    one = head_views.ranking_targets(np.full((1, 1, 3, 3), 1 / 3), ["[CLS]", "dog", "[SEP]"], 1)
    assert [t.position for t in one] == [1, 1]  # nothing else: the query itself


def test_view_words_are_the_indices_of_everything_but_cls_and_sep() -> None:
    assert head_views.view_words(TOKENS, range(6)) == [1, 2, 3, 4]
    assert head_views.view_words(TOKENS, [1, 2, 3, 4]) == [0, 1, 2, 3]  # a view without them


# --- position alone ------------------------------------------------------------------------------


def test_position_habits_average_the_word_rows() -> None:
    head = np.array(
        [
            [1.0, 0.0, 0.0, 0.0],
            [0.5, 0.3, 0.2, 0.0],
            [0.1, 0.6, 0.2, 0.1],
            [0.2, 0.1, 0.4, 0.3],
        ]
    )
    habits = head_views.position_habits(head)
    assert habits.previous == pytest.approx((0.5 + 0.6 + 0.4) / 3)  # rows 1..3 only
    assert habits.same == pytest.approx((1.0 + 0.3 + 0.2 + 0.3) / 4)
    assert habits.first == pytest.approx((1.0 + 0.5 + 0.1 + 0.2) / 4)
    assert habits.last == pytest.approx(0.4 / 4)
    assert habits.keys == 4 and habits.uniform == 0.25
    words = head_views.position_habits(head, [1, 2])
    # row 1's previous token is row 0, not a word here ([CLS]): only row 2 → 1 counts
    assert (words.previous, words.first) == (pytest.approx(0.6), pytest.approx(0.3))
    # the query under test is left out of the habits that would predict it
    assert head_views.position_habits(head, [1, 2, 3], leave_out=2).previous == pytest.approx(0.4)
    assert head_views.position_habits(head, []).previous == 0.0


def test_relative_place_names_the_ends_first() -> None:
    assert head_views.relative_place(3, 1, 6) == ("back", 2)
    assert head_views.relative_place(3, 4, 6) == ("ahead", 1)
    assert head_views.relative_place(3, 3, 6) == ("same", 0)
    assert head_views.relative_place(3, 0, 6) == ("first", 0)
    assert head_views.relative_place(3, 5, 6) == ("last", 0)
    assert head_views.relative_place(0, 0, 6) == ("first", 0)


def test_position_prediction_is_the_other_words_mean_at_the_same_place() -> None:
    rng = np.random.default_rng(5)
    head = rng.dirichlet(np.ones(6), size=6)  # (m, m)
    words = [1, 2, 3, 4]
    # his (3) → tom (1), two back: the other words two back from a word are dog (4) → loves (2);
    # loves (2) → [CLS] is not a word pair, and his itself is left out.
    p = head_views.position_prediction(head, 3, 1, words)
    assert (p.value, p.pairs, p.basis) == (pytest.approx(head[4, 2]), 1, "mean")
    # Without ``words`` every row and key counts: loves → [CLS], dog → loves, [SEP] → his.
    everything = head_views.position_prediction(head, 3, 1)
    assert everything.value == pytest.approx((head[2, 0] + head[4, 2] + head[5, 3]) / 3)
    # One ahead: tom → loves, loves → his (his → dog is the query's own).
    ahead = head_views.position_prediction(head, 3, 4, words)
    assert ahead.value == pytest.approx((head[1, 2] + head[2, 3]) / 2)
    # The first and the last key: the same key, from every other word.
    first = head_views.position_prediction(head, 3, 0, words)
    assert first.value == pytest.approx(np.mean(head[[1, 2, 4], 0])) and first.pairs == 3
    last = head_views.position_prediction(head, 3, 5, words)
    assert last.value == pytest.approx(np.mean(head[[1, 2, 4], 5]))
    # Itself: the other words' diagonal.
    same = head_views.position_prediction(head, 3, 3, words)
    assert same.value == pytest.approx(np.mean(head[[1, 2, 4], [1, 2, 4]]))
    # Nobody else is three back from a word but dog (4) → tom (1), and dog is the query: even.
    none = head_views.position_prediction(head, 4, 1, words)
    assert (none.value, none.pairs, none.basis) == (pytest.approx(1 / 6), 0, "even")


HABITS = head_views.PositionHabits(previous=0.2, same=0.2, first=0.2, last=0.2, keys=6)  # 1/6


@pytest.mark.parametrize(
    ("habits", "query", "target", "verdict"),
    [
        (replace(HABITS, previous=0.51), 3, 2, "previous"),
        (replace(HABITS, previous=0.5), 3, 2, "not_above"),  # exactly half: no pattern
        (replace(HABITS, previous=0.9), 3, 1, "not_above"),  # not the token just before
        (replace(HABITS, same=0.51), 3, 3, "same"),
        (replace(HABITS, same=0.5), 3, 3, "not_above"),
        (replace(HABITS, first=0.51), 3, 0, "first"),
        (replace(HABITS, first=0.5), 3, 0, "not_above"),
        (replace(HABITS, first=0.9), 3, 1, "not_above"),
        (replace(HABITS, last=0.51), 3, 5, "last"),
        (replace(HABITS, last=0.5), 3, 5, "not_above"),
    ],
)
def test_a_position_pattern_explains_a_weight_above_half_only(
    habits: head_views.PositionHabits, query: int, target: int, verdict: str
) -> None:
    # 0.7 would be above a prediction of 0.1 (twice 0.1 and 1/6): only a pattern stops that...
    weight, predicted = (0.7, 0.1) if verdict != "not_above" else (0.3, 0.15)
    assert head_views.position_verdict(weight, habits, query, target, predicted) == verdict
    # ... and with a pattern even a huge weight is position, never "above".
    if verdict != "not_above":
        assert head_views.position_verdict(0.99, habits, query, target, 0.01) == verdict


@pytest.mark.parametrize(
    ("weight", "predicted", "verdict"),
    [
        (0.41, 0.2, "above"),  # more than twice the prediction, more than 1/6
        (0.40, 0.2, "not_above"),  # exactly twice: a tie is not above
        (0.39, 0.2, "not_above"),
        (0.17, 0.05, "above"),  # more than twice 0.05 and just over 1/6
        (1 / 6, 0.05, "not_above"),  # an even share exactly
        (0.16, 0.05, "not_above"),  # over twice the prediction, under an even share
        (0.9, 0.5, "not_above"),  # large, but position predicts most of it
    ],
)
def test_above_needs_twice_the_prediction_and_more_than_an_even_share(
    weight: float, predicted: float, verdict: str
) -> None:
    assert head_views.position_verdict(weight, HABITS, 3, 1, predicted) == verdict


def test_check_heads_holds_every_head_to_its_own_habits() -> None:
    w = random_attention(np.random.default_rng(6), layers=2, h=3)
    w[1, 2] = np.eye(6, k=-1) * 0.9 + 0.1 / 6  # a previous-token head
    w[1, 2, 0] = 1 / 6
    w[0, 1, 3] = [0.02, 0.9, 0.02, 0.02, 0.02, 0.02]  # his → tom, nobody else two back
    checks = head_views.check_heads(w, 3, 2, [1, 2, 3, 4])
    assert len(checks) == 2 and len(checks[0]) == 3
    assert checks[1][2].verdict == "previous" and checks[1][2].habits.previous > 0.9
    assert checks[1][2].pattern_share == checks[1][2].habits.previous
    tom = head_views.check_heads(w, 3, 1, [1, 2, 3, 4])[0][1]
    assert tom.weight == pytest.approx(0.9) and tom.predicted.value == pytest.approx(w[0, 1, 4, 2])
    assert tom.verdict == ("above" if 0.9 > 2 * w[0, 1, 4, 2] else "not_above")
    assert tom.pattern_share == 0.0
    for row in checks:
        for c in row:
            assert c.verdict in head_views.POSITION_VERDICTS


# --- the same relation in other sentences --------------------------------------------------------


def test_relation_positions_find_the_pronoun_and_its_owner_before_it() -> None:
    tom = head_views.Relation("Tom loves his dog", "his", "tom")
    assert head_views.relation_positions(TOKENS, tom) == (3, 1)
    assert head_views.relation_positions(["[CLS]", "his", "tom", "[SEP]"], tom) is None  # after
    assert head_views.relation_positions(["[CLS]", "tom", "[SEP]"], tom) is None
    twice = ["[CLS]", "tom", "and", "tom", "his", "dog", "[SEP]"]
    assert head_views.relation_positions(twice, tom) == (4, 3)


def test_check_relation_passes_when_above_and_the_owner_is_the_top_word() -> None:
    head = np.full((6, 6), 0.02)
    np.fill_diagonal(head, 0.9)  # every word looks at itself: position predicts ~0.02 elsewhere
    head[3] = [0.1, 0.5, 0.1, 0.2, 0.05, 0.05]  # his: tom on top among the words
    passed = head_views.check_relation(head, 3, 1, [1, 2, 3, 4])
    assert passed.top_word == 1 and passed.owner_on_top and passed.check.verdict == "above"
    assert passed.links
    head[3] = [0.1, 0.3, 0.4, 0.1, 0.05, 0.05]  # loves beats tom: above, but not on top
    beaten = head_views.check_relation(head, 3, 1, [1, 2, 3, 4])
    assert beaten.check.verdict == "above" and beaten.top_word == 2 and not beaten.links
    head[3] = [0.1, 0.35, 0.35, 0.1, 0.05, 0.05]  # a tie goes to the earlier word: tom
    assert head_views.check_relation(head, 3, 1, [1, 2, 3, 4]).top_word == 1


def test_the_control_sentences_vary_the_distance_and_the_first_word() -> None:
    distances = set()
    for relation in head_views.POSSESSIVES:
        words = relation.text.lower().split()
        distances.add(words.index(relation.pronoun) - words.index(relation.owner))
    assert len(head_views.POSSESSIVES) >= 20  # five could not carry "most" or "all"
    assert len({r.text for r in head_views.POSSESSIVES}) == len(head_views.POSSESSIVES)
    assert len(distances) >= 5  # a head keyed to one distance cannot pass them all
    firsts = [r.text.lower().split()[0] == r.owner for r in head_views.POSSESSIVES]
    assert any(firsts) and not all(firsts)


@pytest.mark.parametrize(
    ("above", "total", "verdict"),
    [(5, 5, "all"), (4, 5, "most"), (3, 5, "most"), (2, 4, "some"), (2, 5, "some"),
     (1, 5, "some"), (0, 5, "none"), (1, 1, "all"), (0, 1, "none"), (1, 2, "some")],
)  # fmt: skip
def test_controls_verdict_counts_the_sentences_a_head_passes(
    above: int, total: int, verdict: str
) -> None:
    assert head_views.controls_verdict(above, total) == verdict


@pytest.mark.parametrize(("above", "total"), [(0, 0), (6, 5), (-1, 5)])
def test_controls_verdict_rejects_impossible_counts(above: int, total: int) -> None:
    with pytest.raises(ValueError, match="sentences"):
        head_views.controls_verdict(above, total)


# --- one head switched off ---------------------------------------------------------------------


def test_the_control_head_is_the_middle_of_its_layer_by_the_pair_weight() -> None:
    w = np.zeros((2, 5, 3, 3))
    w[1, :, 2, 0] = [0.9, 0.1, 0.5, 0.3, 0.3]  # layer 1: his (2) → tom (0) in heads 0 … 4
    # Without head 0: 2 (0.5), then 3 and 4 tie at 0.3 (head order), then 1 (0.1); of four, the
    # upper middle one is the second.
    assert head_views.control_head(w, 1, 2, 0, switched_off=0) == 3
    # Without head 2: 0 (0.9), 3, 4, 1 → 3; without head 3: 0, 2, 4, 1 → 2.
    assert head_views.control_head(w, 1, 2, 0, switched_off=2) == 3
    assert head_views.control_head(w, 1, 2, 0, switched_off=3) == 2
    # Of an odd number of others, the median itself: 12 heads, 11 others, the 6th.
    w12 = np.zeros((1, 12, 2, 2))
    w12[0, :, 1, 0] = np.arange(12) / 12  # head k gives k/12: ranked 11, 10, …, 0
    assert head_views.control_head(w12, 0, 1, 0, switched_off=11) == 5
    assert head_views.control_head(w12, 0, 1, 0, switched_off=0) == 6
    with pytest.raises(ValueError, match="no head besides 0"):
        head_views.control_head(np.zeros((1, 1, 2, 2)), 0, 1, 0, switched_off=0)


def test_the_effect_of_a_head_off_in_cosines_and_the_nearest_token() -> None:
    on = np.array([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0], [1.0, 1.0]])  # (n, d): query is row 3
    off = on.copy()
    off[3] = [0.0, 1.0]  # the query turned 45°: now nearest row 2, not row 1
    sentence = np.array([0.6, 0.8])
    effect = head_views.ablation_effect(on, off, sentence, sentence, 3, [1, 2, 3])
    assert effect.query_cosine == pytest.approx(np.sqrt(0.5))
    assert effect.query_change == round(1 - round(np.sqrt(0.5), 4), 4) == 0.2929
    assert effect.sentence_cosine == pytest.approx(1.0) and effect.sentence_change == 0.0
    assert effect.nearest == 2 and head_views.nearest_token(on, 3, [1, 2, 3]) == 1
    # Ties go to the earlier token; no other candidate leaves the query itself.
    assert head_views.nearest_token(np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]]), 0, [2, 1]) == 2
    assert head_views.nearest_token(on, 3, [3]) == 3
    same = head_views.ablation_effect(on, on, sentence, sentence, 0, [1, 2])
    assert same.query_change == 0.0 and same.nearest == 1


def test_the_shown_change_is_taken_from_the_shown_cosine() -> None:
    assert head_views.shown_change(0.98714673) == 0.0129  # shown as 0.9871
    assert head_views.shown_change(0.99994) == 0.0001 and head_views.shown_change(0.999996) == 0.0
    assert head_views.shown_change(1.0000001) == 0.0


@pytest.mark.parametrize(
    ("change", "control", "verdict"),
    [
        (0.0129, 0.0005, "more"),  # "Tom loves his dog", L4·H8 against L4·H9
        (0.0061, 0.001, "more"),  # just over 6 times
        (0.006, 0.001, "similar"),  # exactly 6 times is not more
        (0.0102, 0.0017, "similar"),  # also where 6 × 0.0017 is 0.010199999999999999
        (0.0017, 0.0102, "similar"),
        (0.0033, 0.0028, "similar"),
        (0.001, 0.006, "similar"),  # exactly 6 times the other way is not less
        (0.001, 0.0061, "less"),
        (0.0005, 0.0125, "less"),
        (0.002, 0.0, "more"),  # a control that did not move at all
        (0.0009, 0.0001, "neither"),  # 9 times, but both under the floor
        (0.0009, 0.0009, "neither"),
        (0.0, 0.0, "neither"),
        (0.001, 0.0001, "more"),  # at the floor counts: 10 times
        (0.0001, 0.001, "less"),
        (0.001, 0.0009, "similar"),
    ],
)
def test_the_head_off_verdict_on_both_sides_of_the_ratio_and_the_floor(
    change: float, control: float, verdict: str
) -> None:
    assert head_views.ablation_verdict(change, control) == verdict


def test_the_head_off_verdict_with_other_thresholds_and_bad_ones() -> None:
    assert head_views.ablation_verdict(0.003, 0.001, ratio=2.0) == "more"
    assert head_views.ablation_verdict(0.002, 0.001, ratio=2.0) == "similar"
    assert head_views.ablation_verdict(0.002, 0.001, ratio=1.0) == "more"
    assert head_views.ablation_verdict(0.001, 0.001, ratio=1.0) == "similar"  # a tie is never more
    assert head_views.ablation_verdict(0.004, 0.0001, floor=0.005) == "neither"
    assert head_views.ablation_verdict(0.0002, 0.0001, floor=0.0) == "similar"
    assert head_views.ablation_verdict(0.0, 0.0, floor=0.0) == "similar"
    assert set(head_views.ABLATION_VERDICTS) == {"more", "less", "similar", "neither"}
    for bad in ({"ratio": 0.5}, {"floor": -0.001}):
        with pytest.raises(ValueError, match="ratio >= 1 and floor >= 0"):
            head_views.ablation_verdict(0.01, 0.001, **bad)
    with pytest.raises(ValueError, match=">= 0"):
        head_views.ablation_verdict(-0.001, 0.001)


def test_the_attention_page_asks_from_a_pronoun_when_there_is_one() -> None:
    assert minilm_tokens.pronoun_query(TOKENS) == 3  # his
    mary = ["[CLS]", "tom", "says", "mary", "loves", "her", "cat", "[SEP]"]
    assert minilm_tokens.pronoun_query(mary) == 5
    both = ["[CLS]", "her", "dog", "and", "his", "cat", "[SEP]"]
    assert minilm_tokens.pronoun_query(both) == 4  # "his" first, wherever it is
    twice = ["[CLS]", "her", "dog", "and", "their", "cat", "[SEP]"]
    assert minilm_tokens.pronoun_query(twice) == 4  # the last pronoun
    assert minilm_tokens.pronoun_query(["[CLS]", "a", "b", "[SEP]"]) == 2  # default_query's choice


# --- "toward" without "tom": the token the query attends to most ------------------------------


LONG = ["[CLS]", "when", "the", "fisherman", ",", "his", "daughter", "[UNK]", "[SEP]"]


def attention_to(weights_of_query: list[float], n_layers: int = 2, h: int = 3) -> np.ndarray:
    """[L, h, n, n] uniform rows, except query 5's row, which is ``weights_of_query`` in the
    first head of every layer and uniform elsewhere."""
    n = len(weights_of_query)
    w = np.full((n_layers, h, n, n), 1.0 / n)
    w[:, 0, 5] = weights_of_query
    return w


def test_most_attended_skips_specials_unknowns_punctuation_and_the_query() -> None:
    # [CLS], ",", "his" (the query) and [UNK] get more than "daughter"; "daughter" wins.
    w = attention_to([0.4, 0.02, 0.02, 0.05, 0.15, 0.12, 0.08, 0.1, 0.06])
    assert minilm_tokens.most_attended(w, LONG, 5, 1) == [6]
    # The average is over layers and heads: a head that says otherwise is outvoted, not ignored.
    w[1, 2, 5] = [0.0, 0.0, 0.0, 0.9, 0.0, 0.0, 0.1, 0.0, 0.0]
    mean = w[:, :, 5].mean(axis=(0, 1))
    assert mean[3] > mean[6] and minilm_tokens.most_attended(w, LONG, 5, 1) == [3]
    assert head_views.mean_weight(w, 5, 3) == pytest.approx(mean[3])


def test_most_attended_ties_go_to_the_earlier_token_and_no_candidate_gives_none() -> None:
    w = attention_to([0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05])
    assert minilm_tokens.most_attended(w, LONG, 5, 1) == [
        1
    ]  # "when", "the", "fisherman", "daughter" tie
    tokens = ["[CLS]", "!", "?", "[UNK]", "—", "x", "[SEP]"]
    w = np.full((1, 1, 7, 7), 1 / 7)
    assert minilm_tokens.most_attended(w, tokens, 5, 1) == []  # nothing with a letter but the query
    assert minilm_tokens.default_toward(tokens, w, 5) == (5, True)  # ... so "toward" starts on it


def test_the_toward_default_is_tom_if_there_else_the_most_attended() -> None:
    w = np.full((2, 3, 6, 6), 1 / 6)
    w[:, :, 3, 4] = 0.5  # his → dog
    w[:, :, 1, 3] = 0.5  # tom → his
    assert minilm_tokens.default_toward(TOKENS, w, 3) == (1, False)  # "tom", whatever the attention
    assert minilm_tokens.default_toward(TOKENS, w, 1) == (3, True)  # the query is "tom" itself
    assert minilm_tokens.default_toward(TOKENS, w, 3, preferred="cat") == (4, True)
    w = attention_to([0.4, 0.02, 0.02, 0.05, 0.15, 0.12, 0.08, 0.1, 0.06])
    assert minilm_tokens.default_toward(LONG, w, 5) == (6, True)  # "daughter", not "when"


# --- a tested pair against a same-sense control pair -------------------------------------------


@pytest.mark.parametrize(
    ("cosines", "layer"),
    [
        ([1.0, 0.8, 0.9], 1),  # a dip in between: worth naming
        ([1.0, 0.896, 0.865, 0.84, 0.852, 0.883, 0.756], None),  # lowest is the last (the default)
        ([0.7, 0.8, 0.9], None),  # lowest is the first
        ([1.0, 0.7, 0.8, 0.7], None),  # the lowest value is also the last one quoted
        ([1.0, 0.7, 0.7, 0.8], 1),  # a tie in between: the earlier layer
        ([1.0, 0.7564, 0.7561], None),  # shown, both are 0.756: it would repeat the last
        ([0.9, 0.9, 0.9], None),  # flat
    ],
)
def test_the_lowest_layer_is_named_only_when_it_is_not_first_or_last(
    cosines: list[float], layer: int | None
) -> None:
    assert vector_views.lowest_between(cosines) == layer
    assert vector_views.lowest_between(np.asarray(cosines)) == layer


# --- words two sentences share ------------------------------------------------------------------

RIVER, CASH, SHORE = (
    "I sat on the river bank.",
    "I deposited cash at the bank.",
    "The boat drifted towards the muddy shore.",
)


def test_shared_words_and_their_overlap() -> None:
    assert vector_views.words(RIVER) == {"i", "sat", "on", "the", "river", "bank"}
    assert vector_views.shared_words(RIVER, CASH) == ["I", "the", "bank"]  # as written in the first
    assert vector_views.shared_words(SHORE, RIVER) == ["The"]  # compared lower-cased
    assert vector_views.word_overlap(RIVER, CASH) == pytest.approx(3 / 9)
    assert vector_views.word_overlap(RIVER, SHORE) == pytest.approx(1 / 11)
    assert vector_views.shared_words("Tom loves his dog.", "She withdrew money.") == []
    assert vector_views.word_overlap("", "...") == 0.0
    # Each Han character is a word; emoji, punctuation and underscores are not; digits are.
    assert vector_views.words("我爱我的狗 🐶, snake_case 3 cats") == {
        "我", "爱", "的", "狗", "snake", "case", "3", "cats",
    }  # fmt: skip
    assert vector_views.shared_words("我爱我的狗", "我的猫") == ["我", "的"]


@pytest.mark.parametrize(
    ("a", "b", "kind"),
    [
        (CASH, "She withdrew money from her savings account.", "none"),
        (RIVER, SHORE, "little"),  # "the" alone: 1/11 = 0.09, under OVERLAP_LEAD = 0.15
        (RIVER, CASH, "shared"),  # I, the, bank: 3/9 = 0.33
        ("a b c", "a x y z", "shared"),  # 1/6 ≈ 0.167: just over
        ("a b c d", "a w x y z", "little"),  # 1/9 ≈ 0.111: just under
    ],
)
def test_the_overlap_kind_on_both_sides_of_the_threshold(a: str, b: str, kind: str) -> None:
    assert vector_views.OVERLAP_LEAD == 0.15
    assert vector_views.overlap_kind(a, b) == kind
    assert kind in vector_views.OVERLAP_KINDS


def test_the_overlap_kind_at_the_threshold() -> None:
    assert vector_views.word_overlap("a b", "a c") == pytest.approx(1 / 3)
    assert vector_views.overlap_kind("a b", "a c", min_overlap=1 / 3) == "shared"  # a tie counts
    assert vector_views.overlap_kind("a b", "a c", min_overlap=0.34) == "little"
    assert vector_views.overlap_kind("a b", "c d", min_overlap=0.0) == "none"


def similarity(*rows: list[float]) -> np.ndarray:
    return np.array(rows)


DEFAULT_SIMS = similarity(
    [1.0, 0.454, 0.28, 0.204, 0.026],
    [0.454, 1.0, 0.195, 0.539, 0.016],
    [0.28, 0.195, 1.0, 0.127, 0.015],
    [0.204, 0.539, 0.127, 1.0, 0.039],
    [0.026, 0.016, 0.015, 0.039, 1.0],
)  # MiniLM's cosines of the page's default sentences
DEFAULT_SENTENCES = [
    RIVER,
    CASH,
    SHORE,
    "She withdrew money from her savings account.",
    "Tom loves his dog.",
]


def test_the_closest_pair_ignores_the_diagonal_and_breaks_ties_in_row_order() -> None:
    assert vector_views.closest_pair(DEFAULT_SIMS) == (1, 3)
    assert vector_views.closest_pair(np.ones((3, 3))) == (0, 1)
    with pytest.raises(ValueError, match="at least 2"):
        vector_views.closest_pair(np.ones((1, 1)))


def test_the_overlap_pull_finds_the_river_bank_sentence_nearer_the_cash_one() -> None:
    # river: nearest cash (3 of 9 words shared), then shore (1 of 11). The others' nearest
    # neighbours share no more words than their runners-up do.
    assert vector_views.overlap_pull(DEFAULT_SIMS, DEFAULT_SENTENCES) == vector_views.OverlapPull(
        0, 1, 2
    )
    # Push the cash sentence down the river row: the shore one is nearest now, and shares only
    # "the" (1/11) where the runner-up, the savings one, shares nothing: a lead of 0.09, under
    # OVERLAP_LEAD, is not named.
    sims = DEFAULT_SIMS.copy()
    sims[0, 1] = sims[1, 0] = 0.2
    assert vector_views.overlap_pull(sims, DEFAULT_SENTENCES) is None
    assert vector_views.overlap_pull(
        sims, DEFAULT_SENTENCES, min_lead=0.05
    ) == vector_views.OverlapPull(0, 2, 3)
    # The savings sentence (no word shared) nearest to the river one, the shore one ("the")
    # second: the order goes against the overlap, whatever the lead asked for.
    sims[0, 1] = sims[1, 0] = 0.0
    sims[0, 3] = sims[3, 0] = 0.3
    assert vector_views.overlap_pull(sims, DEFAULT_SENTENCES, min_lead=0.0) is None
    # Equal overlap with the nearest and the runner-up (shore's row: 1 of 11 with both): no pull.
    assert (
        vector_views.overlap_pull(DEFAULT_SIMS[2:4, 2:4], DEFAULT_SENTENCES[2:4]) is None
    )  # 2 only
    three = [SHORE, RIVER, CASH]
    sims = similarity([1.0, 0.3, 0.2], [0.3, 1.0, 0.1], [0.2, 0.1, 1.0])
    assert (
        vector_views.overlap_pull(sims, three) is None
    )  # shore: 1 of 11 with each; others: 0 vs 1
    with pytest.raises(ValueError, match="expected"):
        vector_views.overlap_pull(DEFAULT_SIMS, DEFAULT_SENTENCES[:3])


def test_the_overlap_pull_keeps_the_largest_lead() -> None:
    sentences = ["a b c", "a b c d", "x y", "a x"]
    # 0: nearest 1 (3/4 of the words), then 3 (1/4): lead 0.5. 1: nearest 0 (3/4), then 3 (1/5):
    # lead 0.55. 2: nearest 3 (1/3), then 0 (0): lead 1/3. 3: nearest 2 (1/3), then 0 (1/4).
    sims = similarity(
        [1.0, 0.9, 0.1, 0.5],
        [0.9, 1.0, 0.1, 0.2],
        [0.1, 0.1, 1.0, 0.8],
        [0.5, 0.2, 0.8, 1.0],
    )
    assert vector_views.overlap_pull(sims, sentences) == vector_views.OverlapPull(1, 0, 3)
    lead = vector_views.word_overlap("a b c d", "a b c") - vector_views.word_overlap(
        "a b c d", "a x"
    )
    assert lead == pytest.approx(0.55)
    assert vector_views.overlap_pull(sims, sentences, min_lead=lead) == vector_views.OverlapPull(
        1, 0, 3
    )  # tie
    assert vector_views.overlap_pull(sims, sentences, min_lead=lead + 1e-9) is None


def test_next_token_and_first_word_habits_are_position_patterns() -> None:
    m = 6
    nxt = np.eye(m, k=1) * 0.8 + 0.2 / m  # every row gives the token after it 0.8
    nxt[-1, -1] += 0.8  # (the last row has no next token)
    habits = head_views.position_habits(nxt, [1, 2, 3, 4])
    assert habits.next == pytest.approx(0.8 + 0.2 / m)
    check = head_views.check_position(nxt, 3, 4, [1, 2, 3, 4])
    assert check.verdict == "next" and check.pattern_share == habits.next
    first = np.full((m, m), 0.1)
    first[:, 1] = 0.5 + 1e-9  # every word gives the first word (position 1, after [CLS]) > 0.5
    words = [1, 2, 3, 4]
    assert head_views.position_habits(first, words).first_word_at == 1
    assert head_views.check_position(first, 3, 1, words).verdict == "first_word"
    first[:, 1] = 0.5  # exactly half: no pattern
    assert head_views.check_position(first, 3, 1, words).verdict != "first_word"


def test_the_own_sentence_and_a_top_word_habit_are_recognised() -> None:
    assert head_views.same_sentence("Tom loves his dog", "tom loves his dog.")
    assert head_views.same_sentence(" Tom loves his dog!! ", "Tom loves his dog")
    assert not head_views.same_sentence("Tom loves his dog", "Tom loves his cat")
    check = head_views.check_position(np.full((5, 5), 0.2), 3, 1)

    def rel(pronoun: int, top: int) -> head_views.RelationCheck:
        return head_views.RelationCheck(pronoun=pronoun, owner=1, check=check, top_word=top)

    assert head_views.top_word_habit([rel(3, 4), rel(5, 6)], [1, 1]) == ("offset", 1)
    assert head_views.top_word_habit([rel(3, 1), rel(5, 3)], [1, 1]) == ("offset", -2)
    assert head_views.top_word_habit([rel(3, 1), rel(6, 1)], [1, 1]) == ("first_word", 0)
    assert head_views.top_word_habit([rel(3, 1), rel(6, 2)], [1, 1]) == ("none", 0)
    assert head_views.top_word_habit([], []) == ("none", 0)


def test_the_tide_every_pair_rides_on() -> None:
    h = np.zeros((2, 3, 2))
    h[0] = [[1, 0], [0, 1], [-1, 0]]  # token 0: cos 0 to token 1, −1 to token 2
    h[1] = [[1, 0], [1, 1], [1, 0]]  # later: cos 0.707 and 1
    tide = vector_views.mean_cosine_to_others(h, 0, [0, 1, 2])
    np.testing.assert_allclose(tide, [-0.5, (2**-0.5 + 1) / 2])
    assert vector_views.alike_verdict(float(tide[0]), float(tide[1])) == "alike"
    assert vector_views.alike_verdict(0.3, 0.3) == "not_alike"  # no rise is not growing alike
    assert vector_views.mean_cosine_to_others(h, 0, [0]).tolist() == [0.0, 0.0]


def test_the_first_query_is_a_pronoun_or_a_word_never_an_unk() -> None:
    animal = ["[CLS]", "the", "animal", "didn", "'", "t", "cross", "because", "it", "was",
              "tired", "[SEP]"]  # fmt: skip
    assert minilm_tokens.pronoun_query(animal) == 8  # "it", not the last word "tired"
    wo = ["[CLS]", "我", "[UNK]", "我", "的", "[UNK]", "[SEP]"]  # 我爱我的狗: 爱 and 狗 unknown
    assert minilm_tokens.default_query(wo) == 4  # 的, not the [UNK] every unknown character shares
    assert minilm_tokens.default_query(["[CLS]", "[UNK]", "[SEP]"]) == 1  # nothing better left


def _relation_check(row: list[float]) -> head_views.RelationCheck:
    """A check of pronoun 3 → owner 1 in a 5-key head: every other row spread evenly (position
    predicts 0.2 for the owner), the pronoun's row as given."""
    head = np.full((5, 5), 0.2)
    head[3] = row
    return head_views.check_relation(head, 3, 1, [0, 1, 2, 3, 4])


def test_the_control_claims_count_from_the_raw_numbers() -> None:
    links = _relation_check([0.1, 0.7, 0.1, 0.05, 0.05])  # above 2 × 0.2, owner on top
    above_only = _relation_check([0.0, 0.45, 0.5, 0.05, 0.0])  # above, but 2 is the top word
    neither = _relation_check([0.2, 0.2, 0.2, 0.2, 0.2])
    assert links.links and above_only.check.verdict == "above" and not above_only.links
    checks = [links, above_only, neither]
    summary = head_views.controls_summary("L1·H1", checks)
    assert summary is not None and dict(summary.fields) == {
        "head": "L1·H1", "above": 2, "links": 1, "total": 3
    }  # fmt: skip
    said = head_views.controls_claim("L1·H1", checks)
    assert said is not None and said.message == "minilm_attention.ctrl.verdict.some"
    assert (
        head_views.controls_claim("L1·H1", [links, links]).message
        == "minilm_attention.ctrl.verdict.all"
    )  # type: ignore[union-attr]
    assert head_views.controls_summary("L1·H1", []) is None
    # A predicate re-checks the counts: a claim made for other checks fails.
    from transformer_walk.topics.claims import CLAIMS

    _, holds = CLAIMS["transformer_walk.topics.minilm_heads.controls_claim"]
    assert holds(said, "L1·H1", checks) and not holds(said, "L1·H1", [links, links])


def test_the_habit_claim_names_a_fixed_offset_or_the_first_word() -> None:
    before = _relation_check([0.0, 0.45, 0.5, 0.05, 0.0])  # top word 2, one before pronoun 3
    said = head_views.habit_claim("L1·H1", [before, before], [1, 1])
    assert said is not None and said.message == "minilm_attention.ctrl.habit.offset_before"
    assert said.fields == {"head": "L1·H1", "k": 1}
    first = _relation_check([0.1, 0.7, 0.1, 0.05, 0.05])  # top word 1: also the first word
    mixed = head_views.habit_claim("L1·H1", [first, before], [1, 2])  # 2 is that one's first
    assert mixed is not None and mixed.message == "minilm_attention.ctrl.habit.first_word"
    assert head_views.habit_claim("L1·H1", [first, before], [1, 1]) is None
