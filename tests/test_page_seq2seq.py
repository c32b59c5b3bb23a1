"""The Seq2seq page through AppTest: the trained models' curve and its sentences, the learner's own
string (answers, alignment, a friendly message for a bad one) and the untrained read-back probe.

The models are trained once per test session: the page's ``st.cache_resource`` lives in this
process, so the first page opened trains them (a few seconds) and ``gru_comparison`` called here
afterwards returns the same objects."""

from __future__ import annotations

import re
from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.caches import gru_comparison, reversal_run
from transformer_walk.app.i18n import LANGUAGES, join_sentences, translate
from transformer_walk.topics.gru_seq2seq import (
    Comparison,
    GruConfig,
    alignment_counts,
    parse_symbols,
    spell,
)
from transformer_walk.topics.gru_seq2seq import translate as decode
from transformer_walk.topics.learning import reversal_claims as claims
from transformer_walk.topics.learning.reversal import ReversalConfig, answer
from transformer_walk.topics.learning.reversal_store import ReversalRun
from transformer_walk.topics.seq2seq import readback

import apptest_support

open_page = partial(apptest_support.open_page, "seq2seq.py", assert_no_exception=True)
SYMBOLS = "s2s_symbols"


def comparison() -> Comparison:
    return gru_comparison(GruConfig())


def transformer_run() -> ReversalRun:
    return reversal_run(ReversalConfig())


def ms(seconds: float) -> str:
    """The page's milliseconds, written again."""
    value = seconds * 1e3
    return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"


def pct(x: float) -> str:
    """The page's rule, written again: whole percent unless that would round to 0 or 100, then
    one decimal, then a bound."""
    for digits in range(2):
        text = f"{x:.{digits}%}"
        if (float(text[:-1]) < 100 or x >= 1) and (float(text[:-1]) > 0 or x <= 0):
            return text
    return ">99.9%" if x > 0.5 else "<0.1%"


def test_a_share_is_not_rounded_to_a_perfect_score() -> None:
    assert [pct(x) for x in (0.5412, 0.995, 1.0, 0.0, 0.004, 0.9999)] == [
        "54%", "99.5%", "100%", "0%", "0.4%", ">99.9%",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("transformer", "verdict"),
    [
        (7.3, "close_below"),
        (9.0, "between"),
        (12.0, "close_above"),
        (6.0, "slower"),
        (14.0, "faster"),
    ],  # fmt: skip
)
def test_a_growth_within_the_margin_is_not_called_slower_or_faster(
    transformer: float, verdict: str
) -> None:
    # measured on the shared 2-core machine: ×7.3 against the GRUs' ×7.6 and ×11.5 was called
    # "only ×7.3 ... done in fewer, larger calls", a claim the 4% difference cannot carry
    lengths = (1, 14)
    seconds = {
        "fixed": (1e-3, 7.6e-3),
        "attention": (1e-3, 11.5e-3),
        "transformer": (1e-3, transformer * 1e-3),
    }
    said = claims.step_growth(lengths, seconds)
    assert said is not None
    assert said.message == f"seq2seq_transformer.time.growth.{verdict}"


def markdown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_renders_the_trained_models_in_both_languages(language: str) -> None:
    at = open_page(language)
    assert at.title[0].value == translate("seq2seq.title", language)
    headers = [h.value for h in at.header]
    for key in (
        "seq2seq.train.title",
        "seq2seq.curve.title",
        "seq2seq.own.title",
        "seq2seq.neck.title",
    ):
        assert translate(key, language) in headers
    # the accuracy curve, the alignment, the two context matrices, the step times, the read-back
    assert len(at.get("vega_lite_chart")) == 6
    c = comparison()
    key = "seq2seq.train.done_disk" if c.from_disk else "seq2seq.train.done"
    done = translate(
        key, language, fixed_s=f"{c.fixed.seconds:.1f}",
        attention_s=f"{c.attention.seconds:.1f}", fixed_loss=f"{np.mean(c.fixed.losses[-50:]):.3f}",
        attention_loss=f"{np.mean(c.attention.losses[-50:]):.3f}",
    )  # fmt: skip
    assert done in [x.value for x in at.caption]


def test_a_new_server_reads_the_models_back_from_disk() -> None:
    """The page of a server that did not train them says so, with the same numbers."""
    trained = comparison()
    gru_comparison.clear()  # what a restart does to the in-memory cache
    at = open_page("en")
    stored = comparison()
    assert stored.from_disk and stored.fixed.scores == trained.fixed.scores
    captions = [x.value for x in at.caption]
    assert any(x.startswith("Read back from the disk cache") for x in captions)
    assert f"{trained.attention.seconds:.1f} s (attention)" in " ".join(captions)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_curve_sentences_are_the_measured_accuracies(language: str) -> None:
    """Each sentence under the curve, rebuilt from the trained models' scores; and, read back from
    the English text, the numbers are those accuracies."""
    at = open_page(language)
    c = comparison()
    acc = {v: {T: c.model(v).accuracy(T) for T in range(1, 15)} for v in ("fixed", "attention")}
    # The verdicts the default models earn (tests/test_gru_seq2seq.py holds the property): even
    # at length 3, attention ahead at 8, both below 90% at 14.
    assert abs(acc["attention"][3] - acc["fixed"][3]) < 0.05
    assert acc["attention"][8] - acc["fixed"][8] >= 0.05
    assert max(acc["fixed"][14], acc["attention"][14]) < 0.9
    drop_fixed = next(T for T in range(1, 15) if acc["fixed"][T] < 0.9)
    drop_attention = next(T for T in range(1, 15) if acc["attention"][T] < 0.9)

    def at_length(key: str, T: int, **more: str) -> str:
        return translate(key, language, length=T, fixed=pct(acc["fixed"][T]),
                         attention=pct(acc["attention"][T]), **more)  # fmt: skip

    expected = join_sentences(
        [
            at_length("seq2seq.curve.short.even", 3),
            # length 3: 512 strings, about 8,000 drawn in training: all of them seen
            translate(
                "seq2seq.curve.seen",
                language,
                length=3,
                share=translate("seq2seq.curve.seen_all", language),  # 512 strings, ~8,000 draws
                strings=512,
            ),  # fmt: skip
            at_length("seq2seq.curve.long.attention", 8),
            translate(
                "seq2seq.curve.still_learning",
                language,
                window=50,
                fixed_loss=f"{np.mean(c.fixed.losses[-50:]):.3f}",
                attention_loss=f"{np.mean(c.attention.losses[-50:]):.3f}",
            ),  # fmt: skip
            translate("seq2seq.curve.drop.fixed.at", language, holds="90%", length=drop_fixed),
            translate(
                "seq2seq.curve.drop.attention.at", language, holds="90%", length=drop_attention
            ),
            at_length("seq2seq.curve.far.both_fall", 14, chance="12.5%"),
        ],
        language,
    )
    assert expected in markdown(at)
    if language == "en":  # the numbers, read back from the text
        long = (
            r"At length 8, the longest in training, the GRU with attention gets (\d+)% "
            r".*? fixed context (\d+)%"
        )
        m = re.search(long, expected)
        assert m and (m[1], m[2]) == (
            f"{acc['attention'][8]:.0%}"[:-1],
            f"{acc['fixed'][8]:.0%}"[:-1],
        )
        assert f"The fixed context first falls below 90% at length {drop_fixed}." in expected
    table = at.dataframe[0].value
    assert list(table.iloc[:, 0]) == list(range(1, 15))
    assert list(table.iloc[:, 1]) == [f"{acc['fixed'][T]:.1%}" for T in range(1, 15)]
    assert list(table.iloc[:, 3]) == [f"{acc['attention'][T]:.1%}" for T in range(1, 15)]


@pytest.mark.parametrize(("language", "text"), [("en", "badcafe"), ("zh", "h g f e d c b a h g")])
def test_your_own_string_shows_both_answers_and_the_alignment(language: str, text: str) -> None:
    at = open_page(language, state={SYMBOLS: text})
    c = comparison()
    alphabet = c.config.alphabet
    source = parse_symbols(text, alphabet, 20)
    fixed, attention = decode(c.fixed, source), decode(c.attention, source)
    answers = at.dataframe[1].value
    outputs = list(answers.iloc[:, 1])
    assert outputs[0] == spell(source[::-1], alphabet)
    for shown, tr in zip(outputs[1:3], (fixed, attention), strict=True):
        assert shown.startswith(spell(tr.output, alphabet) or "∅")
    assert list(answers.iloc[:, 2])[:3] == [
        f"{len(source)} / {len(source)}",
        f"{fixed.letters_right} / {len(source)}",
        f"{attention.letters_right} / {len(source)}",
    ]
    assert attention.weights is not None
    counts = alignment_counts(attention.weights, len(attention.output))
    sentence = translate(
        "seq2seq.own.align.counts", language, rows=counts.rows, on=counts.on_letter,
        after=counts.after_letter, elsewhere=counts.elsewhere,
    )  # fmt: skip
    assert any(m.startswith(sentence) for m in markdown(at))
    n = len(source)
    note = "seq2seq.own.curve.within" if n <= 8 else "seq2seq.own.curve.beyond"
    where = translate(
        note, language, length=n, train_max=8, eval_max=14,
        fixed=pct(c.fixed.accuracy(n)), attention=pct(c.attention.accuracy(n)),
    )  # fmt: skip
    assert any(m.endswith(where) for m in markdown(at))


def test_the_default_string_is_reversed_by_attention_only() -> None:
    at = open_page()
    c = comparison()
    fixed = decode(c.fixed, parse_symbols("badcafe", c.config.alphabet, 20))
    assert not fixed.correct  # the default models: see test_gru_seq2seq for attention's side
    verdict = translate(
        "seq2seq.own.verdict.attention", "en", source="badcafe", length=7,
        fixed_right=fixed.letters_right,
    )  # fmt: skip
    assert any(m.startswith(verdict) for m in markdown(at))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("text", "key", "fields"),
    [
        ("abz!", "seq2seq.own.bad", {"bad": "z!"}),
        ("", "seq2seq.own.empty", {}),
        ("   , ", "seq2seq.own.empty", {}),
        ("a" * 25, "seq2seq.own.long", {"length": 25, "limit": 20}),
    ],
)
def test_a_bad_string_gets_a_friendly_message(
    language: str, text: str, key: str, fields: dict[str, object]
) -> None:
    at = open_page(language)
    at.text_input(key=SYMBOLS).set_value(text).run()
    apptest_support.no_exception(at)
    message = translate(key, language, alphabet="a–h", **fields)
    assert message in [i.value for i in at.info]
    assert len(at.get("vega_lite_chart")) == 3  # the accuracy, step-time and read-back charts stay
    at.text_input(key=SYMBOLS).set_value("abc").run()  # and a good string brings the rest back
    apptest_support.no_exception(at)
    assert len(at.get("vega_lite_chart")) == 6


def test_the_bottleneck_summary_is_the_measured_read_back() -> None:
    at = open_page()
    at.select_slider(key="s2s_dim").set_value(8).run()
    apptest_support.no_exception(at)
    rows = {r.length: r for r in readback(d=8, vocab_size=16)}
    longest = max(rows)
    summary = translate(
        "seq2seq.neck.summary", "en", d=8, short=pct(rows[2].first_from_final), long_T=longest,
        long=pct(rows[longest].first_from_final), mean=pct(rows[longest].mean_from_final),
        own=pct(rows[longest].mean_from_own), chance="6.2%",  # 1/16, as the accuracy chart says it
    )  # fmt: skip
    assert summary in markdown(at)
    assert rows[longest].first_from_final < rows[2].first_from_final
    # whether each word stays readable from its own state is read off the numbers, at any d
    for d in (32, 4):
        at.select_slider(key="s2s_dim").set_value(d).run()
        measured = readback(d=d, vocab_size=16)
        lowest = min(r.mean_from_own for r in measured)
        verdict = "readable" if lowest >= 0.9 else "crowded"
        floor = int(lowest * 100) / 100
        own = translate(f"seq2seq.neck.own.{verdict}", "en", lowest=f"{floor:.0%}", d=d)
        assert own in markdown(at)


def test_the_fixed_context_is_the_same_at_every_step() -> None:
    at = open_page(state={SYMBOLS: "abcdefg"})
    text = next(m for m in markdown(at) if m.startswith("Across the "))
    spread = float(re.search(r"differ by up to ([\d.]+)", text).group(1))
    assert spread > 0.1


@pytest.mark.parametrize("sentence", ["", "我爱我的狗", "🐶 ❤️ 🐱"])
def test_the_page_does_not_depend_on_the_sidebar_sentence(sentence: str) -> None:
    at = open_page(sentence=sentence)
    assert len(at.get("vega_lite_chart")) == 6
    assert translate("seq2seq.own_example", "en", alphabet="a–h") in [i.value for i in at.info]


# --- the Transformer beside the GRUs -----------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_transformer_is_trained_drawn_and_tabled(language: str) -> None:
    at = open_page(language)
    run = transformer_run()
    model = run.model
    assert model.config.gru == GruConfig() and len(model.losses) == GruConfig().steps
    key = "seq2seq_transformer.train.done_disk" if run.from_disk else (
        "seq2seq_transformer.train.done")  # fmt: skip
    done = translate(key, language, seconds=f"{model.seconds:.1f}",
                     loss=f"{np.mean(model.losses[-50:]):.3f}")  # fmt: skip
    assert done in [x.value for x in at.caption]
    table = at.dataframe[0].value
    assert list(table.iloc[:, 5]) == [f"{model.accuracy(T):.1%}" for T in range(1, 15)]
    assert list(table.iloc[:, 6]) == [f"{s.sequence_accuracy:.1%}" for s in model.scores]
    assert translate("seq2seq_transformer.time.title", language) in [h.value for h in at.header]
    # the sentence at the longest training length, from the measured accuracies
    c = comparison()
    tf, attention = model.accuracy(8), c.attention.accuracy(8)
    verdict = "ahead" if tf - attention >= 0.05 else "behind" if attention - tf >= 0.05 else "even"
    within = translate(
        f"seq2seq_transformer.curve.within.{verdict}", language, length=8, transformer=pct(tf),
        attention=pct(attention), fixed=pct(c.fixed.accuracy(8)),
    )  # fmt: skip
    assert any(m.startswith(within) for m in markdown(at))
    caveat = translate("seq2seq_transformer.time.caveat", language)
    assert caveat in [i.value for i in at.info]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_step_times_shown_are_the_measured_ones(language: str) -> None:
    at = open_page(language)
    run = transformer_run()
    c = comparison()
    per_step = [c.fixed.seconds / 1000, c.attention.seconds / 1000, run.model.step_seconds]
    table = next(d.value for d in at.dataframe if len(d.value) == 3 and d.value.shape[1] == 3)
    assert list(table.iloc[:, 2]) == [ms(x) for x in per_step]
    times = run.times
    assert times.lengths == tuple(range(1, 15))
    short, long = times.lengths[0], times.lengths[-1]
    ratios = {m: s[-1] / s[0] for m, s in times.seconds.items()}
    assert all(min(s) > 0 for s in times.seconds.values())
    growth = claims.step_growth(times.lengths, times.seconds)
    mean = claims.mean_step(*per_step)
    assert growth is not None and mean is not None
    text = join_sentences(
        [translate(x.message, language, **x.fields) for x in (growth, mean)], language
    )
    assert text in markdown(at)
    for m in ("fixed", "attention", "transformer"):  # the fields are the measured times
        assert growth.fields[f"{m}_ratio"] == f"×{ratios[m]:.1f}"
        assert growth.fields[f"{m}_short"] == ms(times.seconds[m][0])
        assert growth.fields[f"{m}_long"] == ms(times.seconds[m][-1])
    assert (growth.fields["short"], growth.fields["long"]) == (short, long)
    assert mean.fields["transformer"] == ms(run.model.step_seconds)


@pytest.mark.parametrize(("language", "text"), [("en", "badcafe"), ("zh", "a b c d e f g h a b")])
def test_the_transformer_answers_your_string(language: str, text: str) -> None:
    at = open_page(language, state={SYMBOLS: text})
    model = transformer_run().model
    source = parse_symbols(text, "abcdefgh", 20)
    a = answer(model, source)
    assert a is not None
    answers = at.dataframe[1].value
    shown = list(answers.iloc[:, 1])[3]
    assert shown.startswith(spell(a.output, "abcdefgh") or "∅")
    assert list(answers.iloc[:, 2])[3] == f"{a.letters_right} / {len(source)}"
    if a.correct:
        said = translate("seq2seq_transformer.own.exact", language, length=len(source))
    else:
        said = translate("seq2seq_transformer.own.partial", language, length=len(source),
                         right=a.letters_right)  # fmt: skip
    passes = translate("seq2seq_transformer.own.passes", language, passes=a.passes)
    assert join_sentences([said, passes], language) in markdown(at)


def test_a_string_too_long_for_the_transformer_is_said_so() -> None:
    at = open_page(state={SYMBOLS: "abcdefghabcdefgh"})  # 16 letters: the GRUs read it
    answers = at.dataframe[1].value
    assert list(answers.iloc[:, 2])[3] == "—"
    said = translate("seq2seq_transformer.own.too_long", "en", length=16, limit=14)
    assert said in markdown(at)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_curve_sentences_name_the_two_grus_they_compare(language: str) -> None:
    """The chart holds three models (two GRUs and a Transformer): a sentence that compares only
    the GRUs says "the two GRUs", not "the two"."""
    from transformer_walk.app.pages.seq2seq import FAR_KEYS, LONG_KEYS, SHORT_KEYS

    fields = {"length": 3, "fixed": "1%", "attention": "2%", "chance": "3%"}
    keys = [*SHORT_KEYS.values(), *LONG_KEYS.values(), FAR_KEYS["both_fall"], FAR_KEYS["both_hold"]]
    keys += ["seq2seq.curve.seen", "seq2seq.curve.both_trained"]
    for key in keys:
        text = translate(key, language, **fields, share="9%", strings=512, window=1,
                         fixed_loss="0", attention_loss="0")  # fmt: skip
        assert "GRU" in text, (key, text)
    assert "the two are even" not in translate("seq2seq.curve.short.even", "en", **fields)
