"""Task a ("his" finds "tom"): the generated sentences, the learner's own sentence cut into the
task's words, the study's measurements against what they claim, and the study kept on disk."""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from transformer_walk.models.learner.params import LearnerConfig, init_params
from transformer_walk.models.learner.reading import read, token_losses
from transformer_walk.topics.claims import percent
from transformer_walk.topics.learning import name_head
from transformer_walk.topics.learning.name_head import (
    FAR,
    GUESS_LOSS,
    LOOKS_AT_NAME,
    NameHeadSettings,
    held_out,
    name_heads,
    other_heads,
    read_sentence,
    study,
    top_as_rest,
)
from transformer_walk.topics.learning.name_head_claims import (
    ONLY,
    WRONG,
    ablation_claim,
    above_guess_claim,
    far_claim,
    flat_start_claim,
    gender_claim,
    head_label,
    name_head_claim,
    on_name_level,
    sentence_claim,
    sentence_not_claim,
    wrong_possessive_claim,
)
from transformer_walk.topics.learning.pronouns import (
    IGNORE,
    LANGUAGES,
    PronounTask,
    name_in_place,
    names_seen,
    parse,
)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("control", [False, True])
def test_a_batch_scores_only_the_possessive(language: str, control: bool) -> None:
    task = PronounTask(language, control=control, batch_size=64)
    inputs, targets = task.batch(3, 5)
    assert inputs.shape == targets.shape and inputs.shape[0] == 64
    assert inputs.shape[1] <= task.max_length
    words = task.words
    agree = 0
    for row, sentence in enumerate(task.sentences(3, 5)):
        n = len(sentence.tokens)
        assert list(inputs[row, :n]) == [task.ids[w] for w in sentence.tokens]
        assert (inputs[row, n:] == 0).all()  # <pad>
        scored = np.flatnonzero(targets[row] != IGNORE)
        assert list(scored) == [sentence.query_position]
        possessive = sentence.tokens[sentence.possessive_position]
        assert targets[row, sentence.query_position] == task.ids[possessive]
        name = sentence.tokens[sentence.name_position]
        assert name in words.male + words.female
        male = name in words.male
        agree += possessive == (words.his if male else words.her)
    # The task: the possessive always agrees; the control: about half the time, by chance.
    assert agree == 64 if not control else 16 < agree < 48


def test_batches_are_seeded() -> None:
    task = PronounTask("en")
    first, again, other = task.batch(0, 1), task.batch(0, 1), task.batch(1, 1)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0], other[0])


def test_the_name_moves_and_the_distance_varies() -> None:
    sentences = PronounTask("zh", batch_size=200).sentences(0, 0)
    assert len({s.name_position for s in sentences}) == 4  # 0–3 opening words
    assert len({s.query_position - s.name_position for s in sentences}) >= 4


def test_bad_task_settings_raise() -> None:
    with pytest.raises(ValueError, match="language"):
        PronounTask("fr")
    with pytest.raises(ValueError, match="batch_size"):
        PronounTask("en", batch_size=0)


@pytest.mark.parametrize(
    ("language", "text", "tokens", "name", "query"),
    [
        ("en", "Tom loves his dog", ("tom", "loves", "his", "dog"), 0, 1),
        ("en", "At home, MARY finds her cat!", ("at", "home", "mary", "finds", "her", "cat"), 2, 3),
        ("zh", "小红在家里喜欢她的猫。", ("小红", "在", "家里", "喜欢", "她的", "猫"), 0, 3),
        ("zh", "汤姆 爱 他的 狗", ("汤姆", "爱", "他的", "狗"), 0, 1),
        # the task's own "，" is a word of it, kept as the model was trained on it
        (
            "zh",
            "小明看见房子旁边的猫，又找到他的狗！",
            ("小明", "看见", "房子", "旁边的", "猫", "，", "又", "找到", "他的", "狗"),
            0,
            7,
        ),
        # the nearest name before the first possessive
        (
            "en",
            "tom sees anna and loves her dog",
            ("tom", "sees", "anna", "and", "loves", "her", "dog"),
            2,
            4,
        ),
    ],
)
def test_a_learners_sentence_is_cut_into_the_tasks_words(
    language: str, text: str, tokens: tuple[str, ...], name: int, query: int
) -> None:
    parsed = parse(PronounTask(language), text)
    assert parsed.tokens == tokens
    assert parsed.sentence is not None
    assert (parsed.sentence.name_position, parsed.sentence.query_position) == (name, query)


@pytest.mark.parametrize(
    ("language", "text", "unknown"),
    [
        ("en", "the cat saw the cat", ("saw",)),
        ("en", "", ()),
        ("en", "tom", ()),
        ("en", "3.14 + 2,000!", ("3", "14", "2", "000")),
        ("en", "a" * 30, ("a" * 30,)),
        ("zh", "Tom loves his dog", ("Tom", "loves", "his", "dog")),
        ("zh", "我爱北京", ("我", "北京")),
        ("en", "his dog", ()),  # a possessive with no name before it
    ],
)
def test_a_sentence_without_name_and_possessive_has_none(
    language: str, text: str, unknown: tuple[str, ...]
) -> None:
    parsed = parse(PronounTask(language), text)
    assert parsed.sentence is None
    assert parsed.unknown == unknown


def test_a_long_text_is_cut_without_trouble() -> None:
    parsed = parse(PronounTask("en"), "tom loves his dog " * 120)  # 2,160 characters
    assert parsed.sentence is not None and len(parsed.tokens) == 480 and parsed.dropped == 0
    cut = parse(PronounTask("en"), "tom loves his dog " * 120, limit=32)
    assert len(cut.tokens) == 32 and cut.dropped == 448 and cut.sentence is not None


def test_the_chosen_heads_follow_their_rule() -> None:
    weights = np.array([[0.9, 0.1, 0.5, 0.2], [0.15, 0.12, 0.4, 0.05]])
    chosen = name_heads(weights, chance=0.2)
    assert chosen.tolist() == [[True, False, True, False], [False, False, True, False]]
    others = other_heads(weights, chance=0.2)  # the three least among the rest
    assert others.tolist() == [[False, True, False, False], [False, True, False, True]]
    assert not (chosen & others).any()


@cache
def trained(language: str) -> name_head.NameHeadStudy:
    return study(NameHeadSettings(language=language))


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_head_learns_to_find_the_name_and_the_control_does_not(language: str) -> None:
    s = trained(language)
    assert s.steps[0] == 0 and s.steps[-1] == s.settings.steps
    assert len(s.losses) == len(s.control_losses) == s.settings.steps
    layer, head = s.watched_head
    assert s.name_weight[-1, layer, head] >= LOOKS_AT_NAME * s.chance
    assert s.name_weight[0, layer, head] < LOOKS_AT_NAME * s.chance  # it started at chance
    assert s.control_name_weight[-1].max() < LOOKS_AT_NAME * s.chance
    assert s.eval_loss[-1] < 0.05 < GUESS_LOSS * 0.9 < s.control_eval_loss[-1]
    # switching off the heads that look at the name brings the loss back; as many others do not
    assert s.group_off > GUESS_LOSS / 2 > s.others_off
    assert math.isclose(s.base_loss, s.eval_loss[-1], rel_tol=1e-6)


def test_the_measurements_are_the_models_own() -> None:
    """The study's numbers, recomputed from its stored parameters by another path."""
    s = trained("en")
    task = PronounTask("en")
    held = held_out(task)
    config = s.settings.config
    reading = read(s.params, config, held.inputs, backend="numpy")
    rows = np.arange(len(held.sentences))
    weights = np.stack([a[rows, :, held.queries, held.names].mean(0) for a in reading.attention])
    np.testing.assert_allclose(weights, s.name_weight[-1], atol=1e-4)
    losses = token_losses(reading.logits, held.targets)
    assert math.isclose(float(np.nanmean(losses)), s.base_loss, rel_tol=1e-3, abs_tol=1e-5)
    one = np.ones((config.layers, config.h))
    layer, head = s.watched_head
    one[layer, head] = 0
    off = token_losses(read(s.params, config, held.inputs, head_mask=one).logits, held.targets)
    assert math.isclose(float(np.nanmean(off)), s.single_off[layer, head], rel_tol=1e-3)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_weight_by_gender_and_on_far_names_is_the_models_own(language: str) -> None:
    """The per-gender and far-name weights, recomputed sentence by sentence by another path."""
    s = trained(language)
    task = PronounTask(language)
    held = held_out(task)
    config = s.settings.config
    reading = read(s.params, config, held.inputs, backend="numpy")
    female = np.array(
        [sen.tokens[sen.name_position] in task.words.female for sen in held.sentences]
    )
    far = np.array([sen.query_position - sen.name_position >= FAR for sen in held.sentences])
    assert 0 < female.sum() < len(female) and 0 < far.sum() < len(far)
    for layer, attention in enumerate(reading.attention):  # [B, h, n, n]
        on_name = np.stack(
            [attention[b, :, sen.query_position, sen.name_position]
             for b, sen in enumerate(held.sentences)]
        )  # fmt: skip  # [B, h]
        np.testing.assert_allclose(s.gender_weight[0, layer], on_name[~female].mean(0), atol=1e-4)
        np.testing.assert_allclose(s.gender_weight[1, layer], on_name[female].mean(0), atol=1e-4)
        np.testing.assert_allclose(s.far_weight[layer], on_name[far].mean(0), atol=1e-4)
    assert s.far_count == far.sum()
    queries = np.array([sen.query_position for sen in held.sentences])
    assert math.isclose(s.far_chance, float(np.mean(1 / (queries[far] + 1))))
    # with the name heads off: the share where the right possessive beats the other
    mask = (~name_heads(s.name_weight[-1], s.chance)).astype(np.float32)
    logits = read(s.params, config, held.inputs, backend="numpy", head_mask=mask).logits
    his, her = task.ids[task.words.his], task.ids[task.words.her]
    right = [
        logits[b, sen.query_position, task.ids[sen.tokens[sen.possessive_position]]]
        > logits[
            b,
            sen.query_position,
            her if sen.tokens[sen.possessive_position] != task.words.her else his,
        ]
        for b, sen in enumerate(held.sentences)
    ]
    assert math.isclose(s.group_off_right, float(np.mean(right)))


def test_the_possessives_rows_keep_their_random_start() -> None:
    """No gradient reaches the embedding rows of his and her (they come after the query): only
    AdamW's weight decay shrinks them, by (1 − lr·decay) a step."""
    s = trained("en")
    task = PronounTask("en")
    rows = [task.ids[task.words.his], task.ids[task.words.her]]
    start = s.checkpoints[0]["token_embedding"][rows]
    end = s.params["token_embedding"][rows]
    shrink = (1 - s.settings.lr * s.settings.config.weight_decay) ** s.settings.steps
    assert 0.99 < shrink < 1  # "less than 1%"
    np.testing.assert_allclose(end, start * shrink, rtol=1e-4, atol=1e-7)
    name = task.ids[task.words.male[0]]  # a name's row does move
    assert not np.allclose(
        s.params["token_embedding"][name],
        s.checkpoints[0]["token_embedding"][name] * shrink,
        rtol=1e-2,
    )


def test_the_claims_the_review_asked_for() -> None:
    en, zh = trained("en"), trained("zh")
    # zh: the watched head looks at female names only and the model still answers his
    layer, head = zh.watched_head
    male, female = zh.gender_weight[:, layer, head]
    said = gender_claim(
        "H", float(male), float(female), zh.chance, list(zh.gender_loss), GUESS_LOSS
    )
    assert said is not None and said.message == ONLY["female"]
    # en: both genders, no claim
    layer, head = en.watched_head
    male, female = en.gender_weight[:, layer, head]
    assert (
        gender_claim("H", float(male), float(female), en.chance, list(en.gender_loss), GUESS_LOSS)
        is None
    )
    # the other way round, and not when the neglected gender's answers are poor
    assert gender_claim("H", 0.9, 0.1, 0.15, [0.001, 0.001], GUESS_LOSS).message == ONLY["male"]  # type: ignore[union-attr]
    assert gender_claim("H", 0.9, 0.1, 0.15, [0.001, 0.6], GUESS_LOSS) is None
    # far names: the watched head reaches them in both languages
    for s in (en, zh):
        layer, head = s.watched_head
        said = far_claim("H", float(s.far_weight[layer, head]), s.far_chance, s.far_count, FAR)
        assert said is not None and said.fields["count"] == s.far_count
    assert far_claim("H", 0.9, 0.1, 0, FAR) is None
    assert far_claim("H", 0.9, 0.1, 10, 1) is None  # the previous token: not "far"
    # the coin toss: zh's group-off loss is above it, en's is not
    assert above_guess_claim(zh.group_off, zh.group_off_right, GUESS_LOSS) is not None
    assert above_guess_claim(en.group_off, en.group_off_right, GUESS_LOSS) is None
    assert above_guess_claim(1.0, 0.9, GUESS_LOSS) is None  # mostly right: not "often wrong"
    # the others' count is its own, not the name heads'
    said = ablation_claim(["a", "b", "c"], 1, 0.003, 0.6, 0.003, GUESS_LOSS)
    assert said is not None and (said.fields["count"], said.fields["others_count"]) == (3, 1)
    # no control head above the level, with the largest given
    layer, head = en.watched_head
    said = name_head_claim(
        head_label(layer, head), en.steps, list(en.name_weight[:, layer, head]),
        list(en.control_name_weight[:, layer, head]), float(en.control_name_weight[-1].max()),
        en.chance,
    )  # fmt: skip
    assert said is not None and said.fields["control_max"] == percent(
        en.control_name_weight[-1].max()
    )
    assert name_head_claim("H", en.steps, [0.1, 0.9], [0.1, 0.1], 0.9, en.chance) is None


def test_your_sentence_claim_is_reachable_with_two_keys() -> None:
    # "tom loves his dog": the query sees 2 keys; 99.9% on the name was left unsaid when the
    # level was twice uniform (all of the weight)
    said = sentence_claim("L1·H2", "2 · loves", "1 · tom", 0.999, 0.5)
    assert said is not None and said.fields["chance"] == "50%"
    assert sentence_claim("L1·H2", "2 · loves", "1 · tom", 0.6, 0.5) is None
    for visible in (2, 5, 12):
        level = on_name_level(visible)
        assert sentence_claim("h", "q", "n", level + 1e-9, 1 / visible) is not None
        assert sentence_claim("h", "q", "n", level - 1e-6, 1 / visible) is None


def test_the_not_claim_speaks_exactly_where_the_sentence_claim_is_silent() -> None:
    for weight in (0.0, 0.3, 0.6, 0.66, 0.67, 0.999):
        said, not_said = (c("L1·H2", "2 · loves", "1 · tom", weight, 0.5) for c in (
            sentence_claim, sentence_not_claim))  # fmt: skip
        assert (said is None) != (not_said is None), weight
    said = sentence_not_claim("L1·H2", "2 · 爱", "1 · 汤姆", 0.48, 0.5)
    assert said is not None and said.fields["weight"] == "48%" and said.fields["times"] == "2"


def test_a_sure_row_top_is_below_1_when_another_key_has_weight() -> None:
    """Guards against "100%" printed beside "<0.1%": in float32, 1 − 3e-9 is exactly 1."""
    rows = np.array([[1.0, 3e-9, 0.0], [1.0, 0.0, 0.0], [0.25, 0.5, 0.25]], np.float32)
    assert rows[0].sum() == 1.0  # the float32 row itself cannot tell
    shown = top_as_rest(rows)
    assert shown.dtype == np.float64 and shown[0, 0] < 1.0
    assert percent(shown[0, 0]) == ">99.9%" and percent(shown[1, 0]) == "100%"
    assert np.array_equal(shown[:, 1:], rows[:, 1:].astype(np.float64))  # the others as they were
    assert np.allclose(shown, rows, atol=1e-7) and np.allclose(shown.sum(axis=1), 1.0)


def test_a_trained_reading_never_prints_100_percent_beside_a_weight() -> None:
    s, task = trained("en"), PronounTask("en")
    sentence = parse(task, "Tom loves his dog", 32).sentence
    assert sentence is not None
    reading = read_sentence(s.params, s.settings.config, task, sentence, "rust")
    rows = reading.matrices.reshape(-1, len(sentence.tokens))  # [L, h, n, n] → [L·h·n, n]
    for row in rows:
        if np.count_nonzero(row) > 1:
            assert "100%" not in [percent(float(w)) for w in row], row


def test_the_start_is_flat_and_only_at_step_0() -> None:
    s = trained("en")
    task = PronounTask("en")
    sentence = parse(task, "in the park tom loves his dog").sentence
    assert sentence is not None
    layer, head = s.watched_head
    rows = {
        step: read_sentence(s.checkpoints[step], s.settings.config, task, sentence, "rust").weights[
            layer, head, : sentence.query_position + 1
        ]
        for step in (0, s.steps[-1])
    }
    said = flat_start_claim(0, rows[0], 0.02)
    assert said is not None and said.fields["std"] == "0.02"
    assert flat_start_claim(s.steps[-1], rows[s.steps[-1]], 0.02) is None
    assert flat_start_claim(0, np.array([0.9, 0.1]), 0.02) is None


def test_reading_one_sentence_gives_its_query_row() -> None:
    s = trained("en")
    task = PronounTask("en")
    sentence = parse(task, "in the park tom loves his dog").sentence
    assert sentence is not None
    reading = read_sentence(s.params, s.settings.config, task, sentence, "rust")
    n = len(sentence.tokens)
    assert reading.weights.shape == (2, 4, n)
    np.testing.assert_allclose(reading.weights.sum(-1), 1.0, atol=1e-5)
    assert (reading.weights[..., sentence.query_position + 1 :] == 0).all()  # causal
    assert reading.his > 0.9 > reading.her


def test_the_study_is_kept_and_read_back(tmp_path: Path) -> None:
    s = trained("en")
    path = name_head.save(s, tmp_path, "rust")
    back = name_head.load(s.settings, tmp_path, "rust")
    assert back is not None and back.from_disk and not s.from_disk
    assert back.steps == s.steps and back.losses == s.losses and back.seconds == s.seconds
    np.testing.assert_array_equal(back.name_weight, s.name_weight)
    assert back.watched_head == s.watched_head and back.group_off == s.group_off
    for name in ("gender_weight", "gender_loss", "far_weight"):
        np.testing.assert_array_equal(getattr(back, name), getattr(s, name))
    assert (back.far_chance, back.far_count) == (s.far_chance, s.far_count)
    assert back.group_off_right == s.group_off_right
    for step in s.steps:
        for key, value in s.checkpoints[step].items():
            np.testing.assert_array_equal(back.checkpoints[step][key], value)
    # another backend, other settings: another file
    assert name_head.load(s.settings, tmp_path, "numpy") is None
    assert name_head.load(NameHeadSettings(seed=1), tmp_path, "rust") is None
    path.write_bytes(path.read_bytes()[:1000])  # damaged
    assert name_head.load(s.settings, tmp_path, "rust") is None


@pytest.mark.parametrize(
    ("settings", "match"),
    [
        (NameHeadSettings(steps=0), "steps"),
        (NameHeadSettings(steps=3000), "steps"),
        (NameHeadSettings(checkpoint_every=0), "checkpoint_every"),
        (NameHeadSettings(lr=0.0), "lr"),
        (NameHeadSettings(config=LearnerConfig(max_positions=8)), "max_positions"),
        (NameHeadSettings(language="fr"), "language"),
    ],
)
def test_bad_study_settings_raise(settings: NameHeadSettings, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        study(settings)


def test_reading_checks_its_inputs() -> None:
    config = LearnerConfig()
    params = init_params(config, 10, 0)
    with pytest.raises(TypeError, match="integer"):
        read(params, config, np.zeros((1, 3)))
    with pytest.raises(IndexError, match="12"):
        read(params, config, np.array([1, 12]))
    with pytest.raises(ValueError, match="head_mask"):
        read(params, config, np.array([1, 2]), head_mask=np.ones((3, 4)))
    with pytest.raises(ValueError, match="max_positions"):
        read(params, config, np.ones(40, dtype=np.int64))
    with pytest.raises(ValueError, match="targets"):
        token_losses(np.zeros((1, 3, 10)), np.zeros((1, 4), dtype=np.int64))


def test_the_tasks_own_sentences_have_one_name_in_its_place() -> None:
    for language in LANGUAGES:
        task = PronounTask(language, batch_size=200)
        for sentence in task.sentences(0, 7):
            assert names_seen(task, sentence) == (sentence.name_position,)
            assert name_in_place(task, sentence)


@pytest.mark.parametrize(
    ("language", "text", "count", "placed"),
    [
        ("en", "tom sees anna and loves her dog", 2, False),
        ("en", "Tom and Anna her dog", 2, False),
        ("en", "the dog loves anna her", 1, False),
        ("en", "at home tom loves his dog", 1, True),
        ("zh", "小明和安娜她的狗", 2, False),
        ("zh", "在家里小明爱他的狗", 1, True),
    ],
)
def test_sentences_unlike_the_tasks_are_told_apart(
    language: str, text: str, count: int, placed: bool
) -> None:
    task = PronounTask(language)
    sentence = parse(task, text).sentence
    assert sentence is not None
    assert len(names_seen(task, sentence)) == count
    assert name_in_place(task, sentence) is placed


@pytest.mark.parametrize(
    ("language", "against", "along"),
    [("en", "tom loves her dog", "tom loves his dog"), ("zh", "小明爱她的狗", "小明爱他的狗")],
)
def test_a_possessive_against_the_name_is_the_sentences_doing_not_the_models(
    language: str, against: str, along: str
) -> None:
    """The model prefers the possessive that agrees with the name: where the sentence has the
    other one, the sentence breaks the task's rule — the model is not "wrong". Where the model
    prefers the one that does not agree, it is."""
    s, task = trained(language), PronounTask(language)
    config = s.settings.config
    sentence = parse(task, against, config.max_positions).sentence
    assert sentence is not None
    reading = read_sentence(s.params, config, task, sentence, "rust")
    assert reading.his > reading.her  # the name is male: the model answers his
    said = wrong_possessive_claim(task, sentence, reading.his, reading.her)
    assert said is not None and said.message == WRONG["rule"]
    assert said.fields["name"] == f"1 · {sentence.tokens[0]}"
    assert wrong_possessive_claim(task, sentence, reading.her, reading.his) is None  # agrees
    # the sentence that follows the rule, with the model made to prefer the other possessive
    sentence = parse(task, along, config.max_positions).sentence
    assert sentence is not None
    said = wrong_possessive_claim(task, sentence, reading.her, reading.his)
    assert said is not None and said.message == WRONG["shaped"]
