"""word2vec: the gradient is right, training lowers the loss, the shipped corpus gives clusters."""

from __future__ import annotations

import math

import numpy as np
import pytest

from transformer_walk.core import get_backend
from transformer_walk.topics import corpus
from transformer_walk.topics.word2vec import (
    Word2VecParams,
    build_vocab,
    cosine_matrix,
    lean,
    nearest,
    pair_loss,
    pca_2d,
    skipgram_pairs,
    train,
)


@pytest.fixture(scope="module")
def trained():
    return train(corpus.sentences(), Word2VecParams(dim=16, epochs=5))


def test_vocab_and_pairs() -> None:
    vocab, counts = build_vocab([["a", "b", "a"], ["c"]])
    assert vocab == ("a", "b", "c") and counts.tolist() == [2, 1, 1]
    index = {w: i for i, w in enumerate(vocab)}
    centres, contexts = skipgram_pairs([["a", "b", "c"]], index, window=2)
    pairs = sorted(zip(centres.tolist(), contexts.tolist(), strict=True))
    # every ordered pair at distance 1 or 2
    assert pairs == sorted([(0, 1), (1, 0), (1, 2), (2, 1), (0, 2), (2, 0)])
    empty = skipgram_pairs([["a"]], index, window=2)
    assert len(empty[0]) == 0


@pytest.mark.parametrize("backend_name", ["python", "numpy", "rust"])
def test_the_update_is_minus_lr_times_the_true_gradient(backend_name: str) -> None:
    """Finite differences of the loss against the step each backend's skipgram_sgd takes,
    including a word that is both a context and a negative, and a centre that occurs twice
    (their updates must add up)."""
    rng = np.random.default_rng(0)
    E, U = rng.standard_normal((5, 3)), rng.standard_normal((5, 3))
    c, o = np.array([0, 1, 0]), np.array([2, 3, 4])
    neg = np.array([[3, 4], [2, 2], [1, 3]])
    lr = 1e-3
    numeric_E, numeric_U = np.zeros_like(E), np.zeros_like(U)
    h = 1e-6
    for table, grad in ((E, numeric_E), (U, numeric_U)):
        for idx in np.ndindex(table.shape):
            old = table[idx]
            table[idx] = old + h
            up = pair_loss(E, U, c, o, neg)
            table[idx] = old - h
            down = pair_loss(E, U, c, o, neg)
            table[idx] = old
            grad[idx] = (up - down) / (2 * h)
    pairs = np.column_stack([c, o, neg])  # (3, 4): one batch of all three rows
    sgd = get_backend(backend_name).skipgram_sgd
    E2, U2, losses = sgd(E, U, pairs, np.array([lr]), len(pairs))
    assert losses[0] == pytest.approx(pair_loss(E, U, c, o, neg))
    np.testing.assert_allclose((E - E2) / lr, numeric_E, atol=1e-6)
    np.testing.assert_allclose((U - U2) / lr, numeric_U, atol=1e-6)


def test_loss_starts_at_one_plus_k_ln2() -> None:
    params = Word2VecParams(dim=4, window=1, negatives=3, epochs=1, seed=3)
    result = train([["a", "b", "c"]], params)
    assert result.losses[0] == pytest.approx(4 * math.log(2))  # U = 0: every score is 0
    assert result.losses[1] == pytest.approx(4 * math.log(2), rel=1e-3)  # first batch, scores ≈ 0


def test_training_lowers_the_loss_and_is_seeded(trained) -> None:
    losses = trained.losses
    assert losses[0] == pytest.approx(6 * math.log(2))  # k = 5
    assert losses[-1] < 0.6 * losses[0]
    assert all(b <= a + 1e-9 for a, b in zip(losses[1:], losses[2:], strict=False))
    again = train(corpus.sentences(), Word2VecParams(dim=16, epochs=5))
    np.testing.assert_array_equal(again.embeddings, trained.embeddings)
    other = train(corpus.sentences(), Word2VecParams(dim=16, epochs=5, seed=1))
    assert not np.allclose(other.embeddings, trained.embeddings)


def test_on_epoch_reports_every_epoch() -> None:
    seen = []
    train(
        corpus.sentences()[:200],
        Word2VecParams(epochs=3),
        on_epoch=lambda e, loss: seen.append((e, loss)),
    )
    assert [e for e, _ in seen] == [1, 2, 3]


def test_zero_epochs_keeps_the_random_start() -> None:
    result = train(corpus.sentences()[:100], Word2VecParams(epochs=0))
    np.testing.assert_array_equal(result.initial, result.embeddings)
    assert len(result.losses) == 1


def test_learned_vectors_cluster_by_kind(trained) -> None:
    E, vocab = trained.embeddings, trained.vocab

    def cos(a: str, b: str) -> float:
        return float(cosine_matrix(E[[vocab.index(a)]], E[[vocab.index(b)]])[0, 0])

    assert cos("dog", "cat") > cos("dog", "bread") + 0.3
    assert cos("river", "lake") > cos("river", "cash") + 0.3
    animals = {"cat", "horse", "rabbit", "cow", "goat"}
    assert len(animals & {w for w, _ in nearest(E, vocab, "dog", 5)}) >= 4
    # before training the neighbours are not animals (random vectors)
    assert len(animals & {w for w, _ in nearest(trained.initial, vocab, "dog", 5)}) <= 2


def test_cosine_and_nearest() -> None:
    a = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0], [0.0, 0.0]])
    sims = cosine_matrix(a)
    assert sims[0, 1] == pytest.approx(0.0)
    assert sims[0, 2] == pytest.approx(1 / math.sqrt(2))
    assert sims[3].tolist() == [0.0] * 4  # a zero row gives 0, not NaN
    found = nearest(a, ["x", "y", "z", "o"], "x", 2)
    assert [w for w, _ in found] == ["z", "y"]


def test_pca_finds_the_main_axis() -> None:
    rng = np.random.default_rng(0)
    t = rng.standard_normal(200)
    x = np.stack([3 * t, 3 * t, 0.1 * rng.standard_normal(200)], axis=1)  # (200, 3) along [1,1,0]
    coords, share = pca_2d(x)
    assert coords.shape == (200, 2)
    assert share[0] > 0.99
    assert abs(np.corrcoef(coords[:, 0], t)[0, 1]) > 0.999
    one_d, share_1d = pca_2d(x[:, :1])  # d = 1 still gives two columns
    assert one_d.shape == (200, 2) and share_1d.shape == (2,)


def test_bad_params_raise() -> None:
    with pytest.raises(ValueError):
        train([["a", "b"]], Word2VecParams(dim=0))
    with pytest.raises(ValueError):
        train([], Word2VecParams())


def test_lean_names_the_closer_side_or_between() -> None:
    assert lean(0.5, 0.72) == "second" and lean(0.72, 0.5) == "first"
    assert lean(0.5, 0.59) == "between" and lean(0.61, 0.5) == "first"  # a margin of 0.1
    assert lean(0.5, 0.6, margin=0.2) == "between"


def test_the_noise_table_holds_each_word_in_proportion_to_count_to_the_three_quarters() -> None:
    from transformer_walk.topics.word2vec import noise_table

    counts = np.array([1000, 100, 10, 1])
    table = noise_table(counts, size=1 << 16)
    p = counts**0.75 / (counts**0.75).sum()
    share = np.bincount(table, minlength=4) / len(table)
    np.testing.assert_allclose(share, p, atol=1.5 / len(table))  # one cell at each boundary
    assert table.min() == 0 and table.max() == 3  # the rarest word is still drawn
    assert np.all(np.diff(table) >= 0)  # cells in word order: an inverse CDF


def test_the_backends_train_the_same_vectors() -> None:
    """rust_core (the default) and NumPy run the same steps; only the order of sums differs."""
    sentences, params = corpus.sentences()[:150], Word2VecParams(dim=8, epochs=3)
    rust, numpy = train(sentences, params), train(sentences, params, backend="numpy")
    np.testing.assert_allclose(rust.embeddings, numpy.embeddings, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(rust.losses, numpy.losses, rtol=1e-12)


def test_float32_steps_stay_close_to_float64() -> None:
    rng = np.random.default_rng(2)
    E, U = rng.standard_normal((7, 5)), 0.3 * rng.standard_normal((7, 5))
    pairs, rates = rng.integers(0, 7, (41, 5)), np.linspace(0.1, 0.01, 6)
    exact = get_backend("python").skipgram_sgd(E, U, pairs, rates, 8)
    for name in ("numpy", "rust"):
        f32 = get_backend(name).skipgram_sgd(
            E.astype(np.float32), U.astype(np.float32), pairs, rates.astype(np.float32), 8
        )
        for got, want in zip(f32, exact, strict=True):
            assert got.dtype == np.float32
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


# --- the Chinese corpus and the claims about senses -----------------------------------------------


@pytest.fixture(scope="module")
def trained_zh():
    return train(corpus.sentences("zh"), Word2VecParams(dim=16, epochs=8))


def test_the_chinese_corpus_gives_clusters_of_characters(trained_zh) -> None:
    animals = [w for w, _ in nearest(trained_zh.embeddings, trained_zh.vocab, "狗", 4)]
    assert all(corpus.category(w, "zh") == "animal" for w in animals), animals
    waters = [w for w, _ in nearest(trained_zh.embeddings, trained_zh.vocab, "河", 3)]
    assert all(corpus.category(w, "zh") == "water" for w in waters), waters


def test_the_chinese_twin_reads_each_character_from_its_cosines(trained_zh) -> None:
    from transformer_walk.topics.word2vec import char_lean, sense_cosines

    readings = {}
    for char in ("银", "行", "岸"):
        found = sense_cosines(trained_zh, char, "zh")
        assert found is not None
        water, money = found
        said = char_lean(water, money, 8)
        assert said is not None and said.fields == {
            "water": f"{np.mean(water):.3f}",
            "money": f"{np.mean(money):.3f}",
        }
        readings[char] = said.message
    # 银 only in 银行, 岸 only by the water; 行 mostly in 银行 (步行 is rarer in the corpus)
    assert (
        readings["银"] == "embeddings.zh.lean.money"
        and readings["岸"] == "embeddings.zh.lean.water"
    )
    untrained = sense_cosines(
        train(corpus.sentences("zh"), Word2VecParams(dim=16, epochs=0)), "岸", "zh"
    )
    assert untrained is not None
    assert char_lean(*untrained, 0).message == "embeddings.zh.lean.untrained"  # type: ignore[union-attr]


def test_no_lean_and_no_after_training_at_zero_epochs() -> None:
    from transformer_walk.topics.word2vec import after_training, bank_lean, neighbour_kinds

    said = bank_lean([0.9, 0.8], [0.1, 0.2], 0)  # a clear gap, but nothing was trained
    assert said is not None and said.message == "embeddings.static.lean.untrained"
    assert bank_lean([0.9, 0.8], [0.1, 0.2], 3).message == "embeddings.static.lean.first"  # type: ignore[union-attr]
    assert bank_lean([0.5, 0.5], [0.45, 0.45], 3).message == "embeddings.static.lean.between"  # type: ignore[union-attr]
    assert after_training(0).message == "embeddings.after.untrained"  # type: ignore[union-attr]
    assert after_training(4).fields == {"epochs": 4}  # type: ignore[union-attr]
    kinds = neighbour_kinds("dog", "animal", ["animal", "food"], ["animal", "animal"], 0)
    assert kinds is not None and kinds.message == "embeddings.nn.summary_untrained"
    assert kinds.fields == {"word": "dog", "before": 1, "after": 2, "k": 2}


def test_the_closest_pair_names_every_pair_tied_at_three_decimals() -> None:
    from transformer_walk.topics.word2vec import closest_pair

    sims = np.array([[1.0, 0.5, 0.9], [0.5, 1.0, 0.2], [0.9, 0.2, 1.0]])
    said = closest_pair(sims, ["a", "b", "c"])
    assert said is not None and said.message == "embeddings.cos.closest"
    assert said.fields == {"a": "a", "b": "c", "cos": "0.900"}
    sims[1, 2] = sims[2, 1] = 0.90004  # shows as 0.900 too
    tie = closest_pair(sims, ["a", "b", "c"])
    assert tie is not None and tie.message == "embeddings.cos.closest_tie"
    assert tie.fields == {"pairs": ["a–c", "b–c"], "cos": "0.900", "count": 2}
    assert closest_pair(sims[:1, :1], ["a"]) is None
