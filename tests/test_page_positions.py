"""The Positions page through AppTest: both languages, the sentence, the shuffle button, the token
and d_model pickers; numbers checked against the toy model and the PE formula computed here."""

from __future__ import annotations

import math
from functools import partial

import numpy as np
import pyarrow as pa
import pytest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.models.toy import ToyConfig, ToyTransformer, tokenize
from transformer_walk.topics import positions as pos
from transformer_walk.topics.claims import token_label

import apptest_support
from apptest_support import no_exception

open_page = partial(apptest_support.open_page, "positions.py")


def shuffle_gap(text: str, seed: int, positions: bool) -> float:
    """max |out(shuffled) − out[perm]|, from two plain runs of the toy model."""
    model = ToyTransformer(ToyConfig(positions=positions), "numpy")
    tokens = tokenize(text)
    perm = pos.seeded_permutation(len(tokens), seed)
    out = model.run(text).output
    out_shuffled = model.run(" ".join(tokens[p] for p in perm)).output
    return float(np.max(np.abs(out_shuffled - out[perm])))


def metrics(at, language: str = "en") -> tuple[float, float]:  # noqa: ANN001 - AppTest
    by_label = {m.label: m.value for m in at.metric}
    return (
        float(by_label[translate("positions.shuffle.without", language)]),
        float(by_label[translate("positions.shuffle.with", language)]),
    )


def latex(at) -> list[str]:  # noqa: ANN001
    return [x.value for x in at.latex]


@pytest.mark.parametrize("language", LANGUAGES)
def test_default_sentence_numbers(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("positions.title", language)
    # The PE table is the formula's numbers for positions 0..3 of d_model 8.
    table = at.dataframe[0].value
    assert table.shape == (4, 8)
    expected = np.zeros((4, 8))
    for p in range(4):
        for i in range(4):
            angle = p / 10000 ** (2 * i / 8)
            expected[p, 2 * i], expected[p, 2 * i + 1] = math.sin(angle), math.cos(angle)
    np.testing.assert_allclose(table.to_numpy(), expected, atol=1e-12)
    # The worked entry for "his" (position 2), column 2: sin(2 / 10000^(2/8)) = sin(0.2).
    assert any(rf"= {math.sin(0.2):.4f}" in x and r"10000^{2/8}" in x for x in latex(at))
    # E + PE = x for that token.
    rows = at.dataframe[1].value.to_numpy()
    np.testing.assert_allclose(rows[0] + rows[1], rows[2], atol=1e-12)
    # The shuffle: no positions → rounding error; positions → the change computed here.
    off, on = metrics(at, language)
    assert off < 1e-12
    assert on == pytest.approx(shuffle_gap("Tom loves his dog", 1, True), rel=0.06)
    assert shuffle_gap("Tom loves his dog", 1, False) < 1e-12
    assert len(at.get("vega_lite_chart")) >= 3  # PE map, row differences, sinusoidal cosines
    # The rows are numbered from 0, as pos is, and the text says so with the sentence's token.
    body = translate("positions.numbers.body", language, n=4, d_model=8, first="tom")
    assert body in [m.value for m in at.markdown] and "0 · tom" in body


def test_shuffle_again_draws_a_new_order_and_new_numbers() -> None:
    at = open_page()
    tokens = tokenize("Tom loves his dog")
    perm = pos.seeded_permutation(4, 2)
    at.button[0].click().run()
    no_exception(at)
    assert at.session_state["pos_shuffle_seed"] == 2
    listed = " ".join(f"`{tokens[p]}`" for p in perm)
    assert any(listed in m.value for m in at.markdown)
    off, on = metrics(at)
    assert off < 1e-12
    assert on == pytest.approx(shuffle_gap("Tom loves his dog", 2, True), rel=0.06)


def test_a_new_sentence_another_token_and_another_d_model() -> None:
    at = open_page()
    at.session_state["sentence"] = "the dog sees the cat"
    at.run()
    no_exception(at)
    assert at.dataframe[0].value.shape == (5, 8)
    off, on = metrics(at)
    assert off < 1e-12
    assert on == pytest.approx(shuffle_gap("the dog sees the cat", 1, True), rel=0.06)
    at.selectbox(key="pos_token").set_value(4).run()
    no_exception(at)
    value = math.sin(4 / 10000 ** (2 / 8))
    assert any(rf"\sin({4 / 10:.4f}) = {value:.4f}" in x for x in latex(at))
    at.select_slider(key="pos_pe_d_model").set_value(16).run()
    no_exception(at)
    slow = 2 * math.pi * 10000 ** (14 / 16)
    caption = translate("positions.pe.waves", "en", fast="6.28", slow=f"{slow:,.0f}", d_model=16)
    assert any(c.value == caption for c in at.caption)


def test_minilm_learned_positions_when_installed() -> None:
    try:
        from transformer_walk.models.minilm import load_minilm

        table = load_minilm(backend="numpy").embeddings.position_embeddings
    except Exception:  # noqa: BLE001 - any missing piece: the page shows its message instead
        at = open_page()
        no_exception(at)
        pytest.skip("MiniLM is not installed here")
    at = open_page()
    at.slider(key="pos_learned_positions").set_value(32).run()
    no_exception(at)
    rows = table[:32] / np.linalg.norm(table[:32], axis=1, keepdims=True)
    cos = rows @ rows.T
    neighbours = float(np.mean(np.diagonal(cos, offset=1)))
    far = float(cos[0, 31])
    assert any(
        f"{neighbours:.3f} learned" in c.value and f"are at {far:.3f}" in c.value
        for c in at.caption
    ), [c.value for c in at.caption]


def test_empty_text_gives_the_friendly_message() -> None:
    at = open_page("en", sentence="")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)
    assert not at.metric


def test_one_token_cannot_be_shuffled() -> None:
    at = open_page(sentence="dog")
    no_exception(at)
    assert any(i.value == translate("positions.shuffle.too_short", "en") for i in at.info)
    assert not at.metric


@pytest.mark.parametrize(
    "sentence",
    ["我爱我的狗", "Tom 🐶 loves his 🐶!", " ".join(("Tom loves his dog " * 50).split()[:200])],
)
def test_cjk_emoji_and_two_hundred_words(sentence: str) -> None:
    at = open_page(sentence=sentence)
    no_exception(at)
    off, on = metrics(at)
    assert off < 1e-12
    assert on == pytest.approx(shuffle_gap(sentence, 1, True), rel=0.06)


def test_each_backend(app_backend: str) -> None:
    at = open_page(backend=app_backend)
    no_exception(at)
    label = translate(f"backend.{app_backend}", "en")
    assert any(f"**{label}**" in c.value for c in at.caption)
    off, on = metrics(at)
    assert off < 1e-12
    assert on == pytest.approx(shuffle_gap("Tom loves his dog", 1, True), rel=0.06)


def note_for(text: str, seed: int, language: str = "en") -> tuple[str, str | None]:
    """The note the page should show under the bars, worked out here from the permutation by
    original positions: (message id, the sentence), with the differences of two plain runs."""
    model = ToyTransformer(ToyConfig(), "numpy")
    tokens = tokenize(text)
    perm = pos.seeded_permutation(len(tokens), seed)
    out = model.run(text).output
    moved = model.run(" ".join(tokens[p] for p in perm)).output
    diffs = np.max(np.abs(moved - out[perm]), axis=1)
    stayed = [k for k, p in enumerate(perm) if int(p) == k]
    copies = [k for k, p in enumerate(perm) if tokens[int(p)] == tokens[k]]
    if stayed:
        k = stayed[0]
        return "positions.shuffle.stayed", translate(
            "positions.shuffle.stayed", language, token=f"{k} · {tokens[k]}", diff=f"{diffs[k]:.3f}"
        )
    if copies:
        k = copies[0]
        return "positions.shuffle.copy_moved", translate(
            "positions.shuffle.copy_moved", language, token=f"{k} · {tokens[k]}",
            source=f"{perm[k]} · {tokens[k]}", diff=f"{diffs[k]:.3f}",
        )  # fmt: skip
    return "positions.shuffle.note_none", translate("positions.shuffle.note_none", language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_three_shuffles_of_a_repeated_word_track_tokens_by_their_old_place(language: str) -> None:
    """ "the cat saw the cat", shuffled three times in a row: the fourth order puts the "cat" of
    place 4 at place 1, where the other "cat" stood. It moved: the page must not say it stayed
    (it used to, comparing it with the other copy), and every note is the one worked out here."""
    text = "the cat saw the cat"
    at = open_page(language, sentence=text)
    kinds = set()
    for seed in (1, 2, 3, 4):
        if seed > 1:
            at.button[0].click().run()
        no_exception(at)
        assert at.session_state["pos_shuffle_seed"] == seed
        kind, note = note_for(text, seed, language)
        kinds.add(kind)
        captions = [c.value for c in at.caption]
        assert note in captions, (seed, captions)
        perm = pos.seeded_permutation(5, seed)
        for k, p in enumerate(perm):  # no "kept its place" for a token that moved
            if int(p) != k:
                word = tokenize(text)[k]
                assert not any(c.startswith(f"“{k} · {word}” kept") for c in captions)
    assert kinds == {
        "positions.shuffle.note_none",
        "positions.shuffle.copy_moved",
        "positions.shuffle.stayed",
    }
    # seed 4: [2 4 0 1 3] — place 1 holds the cat that stood at place 4
    assert pos.seeded_permutation(5, 4).tolist() == [2, 4, 0, 1, 3]


def test_the_bars_name_each_token_with_the_place_it_came_from() -> None:
    at = open_page(sentence="the cat saw the cat", state={"pos_shuffle_seed": 4})
    no_exception(at)
    rows = [
        str(value)
        for chart in at.get("vega_lite_chart")
        for named in chart.proto.datasets
        for column in pa.ipc.open_stream(named.data.data).read_all().to_pylist()
        for value in column.values()
    ]
    for k, p in enumerate([2, 4, 0, 1, 3]):
        word = tokenize("the cat saw the cat")[p]
        label = translate("positions.shuffle.row_label", "en", label=token_label(k, word), source=p)
        assert f"{k}:{label}" in rows, label  # the bars' keys: "place:label"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rounding_box_says_what_the_numbers_show(language: str) -> None:
    at = open_page(language, backend="numpy")
    no_exception(at)
    off, on = shuffle_gap("Tom loves his dog", 1, False), shuffle_gap("Tom loves his dog", 1, True)
    message = translate("positions.shuffle.equivariant", language, off=f"{off:.1e}", on=f"{on:.3f}")
    assert message in [s.value for s in at.success]
    assert not any("1e-16" in s.value for s in at.success)  # no canned size: the one measured
