"""Seq2seq and its bottleneck: two GRU encoder–decoders trained on this page to reverse strings,
one with a fixed context vector, one with additive (Bahdanau) attention.

Renders ``transformer_walk.topics.gru_seq2seq`` (training cached per seed in
``app.caches.gru_comparison``, under a progress bar): accuracy against length for both, the two
models' answers for the learner's own string, the attention model's learned alignment and the
contexts each decoder step read; then the untrained read-back probe of
``transformer_walk.topics.seq2seq``. Every sentence about a number comes from a verdict of
``gru_seq2seq``. Holds no math.

Beside the GRUs, a small Transformer (``topics.learning.reversal``, cached in
``app.caches.reversal_run``) on the same batches: a third line on the curve, a third answer to
the learner's string, and the time per training step of all three against the length. Its
sentences are claims of ``topics.learning.reversal_claims``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts, links
from transformer_walk.app.caches import gru_comparison, reversal_run
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import seq2seq as charts_seq2seq
from transformer_walk.app.i18n import join_sentences, say, t
from transformer_walk.app.widgets import page_start, solved_and_hurts
from transformer_walk.topics.claims import percent
from transformer_walk.topics.gru_seq2seq import (
    HOLDS,
    LOSS_WINDOW,
    MOSTLY_SEEN,
    Comparison,
    GruConfig,
    SymbolError,
    Translation,
    alignment_counts,
    alignment_verdict,
    context_spread,
    final_loss,
    learning_verdict,
    length_note,
    own_verdict,
    parse_symbols,
    seen_share,
    spell,
    summarize,
    translate,
)
from transformer_walk.topics.learning import reversal_claims as claims
from transformer_walk.topics.learning.reversal import (
    Answer,
    ReversalConfig,
    TrainedReversal,
    answer,
    longest_readable,
    parameter_count,
)
from transformer_walk.topics.learning.reversal_store import ReversalRun
from transformer_walk.topics.learning.step_times import REPEATS
from transformer_walk.topics.seq2seq import ReadbackRow, own_state_verdict, readback

SEED_KEY = "s2s_seed"
SYMBOLS_KEY = "s2s_symbols"
DIM_KEY = "s2s_dim"
SEEDS = [0, 1, 2, 3, 4]
DEFAULT_SYMBOLS = "badcafe"
OWN_MAX_LEN = 20  # letters the learner's string may have (the curve goes to eval_max_len)
OWN_MAX_CHARS = 60  # what the text field takes: room for separators between 20 letters
DIM_OPTIONS = [4, 8, 16, 32]
READBACK_VOCAB = 16

SHORT_KEYS = {
    "even": "seq2seq.curve.short.even",
    "attention": "seq2seq.curve.short.attention",
    "fixed": "seq2seq.curve.short.fixed",
}
LONG_KEYS = {
    "even": "seq2seq.curve.long.even",
    "attention": "seq2seq.curve.long.attention",
    "fixed": "seq2seq.curve.long.fixed",
}
FAR_KEYS = {
    "both_fall": "seq2seq.curve.far.both_fall",
    "attention_holds": "seq2seq.curve.far.attention_holds",
    "fixed_holds": "seq2seq.curve.far.fixed_holds",
    "both_hold": "seq2seq.curve.far.both_hold",
}
OWN_KEYS = {
    "both": "seq2seq.own.verdict.both",
    "attention": "seq2seq.own.verdict.attention",
    "fixed": "seq2seq.own.verdict.fixed",
    "neither": "seq2seq.own.verdict.neither",
}
NOTE_KEYS = {
    "within": "seq2seq.own.curve.within",
    "beyond": "seq2seq.own.curve.beyond",
    "unmeasured": "seq2seq.own.curve.unmeasured",
}
ALIGN_KEYS = {
    "on_letter": "seq2seq.own.align.on_letter",
    "on_or_after": "seq2seq.own.align.on_or_after",
    "mostly": "seq2seq.own.align.mostly",
    "scattered": "seq2seq.own.align.scattered",
}
SYMBOL_ERROR_KEYS = {
    "empty": "seq2seq.own.empty",
    "bad": "seq2seq.own.bad",
    "long": "seq2seq.own.long",
}


def alphabet_label(alphabet: str) -> str:
    """ "a–h" for a run of consecutive letters, else the letters spaced out."""
    run = all(ord(b) - ord(a) == 1 for a, b in zip(alphabet, alphabet[1:], strict=False))
    return f"{alphabet[0]}–{alphabet[-1]}" if run and len(alphabet) > 2 else " ".join(alphabet)


@st.cache_data(show_spinner=False, max_entries=8)
def readback_rows(d: int) -> list[ReadbackRow]:
    return readback(d=d, vocab_size=READBACK_VOCAB)


def _intro(config: GruConfig) -> None:
    st.markdown(t("seq2seq.intro"))
    st.latex(
        r"\boldsymbol{h}_i = \mathrm{RNN}(\boldsymbol{x}_i, \boldsymbol{h}_{i-1}),\qquad"
        r"\boldsymbol{c} = \boldsymbol{h}_T,\qquad "
        r"P(y_t \mid y_{<t}, x_{1:T}) = g(y_{t-1}, \boldsymbol{s}_{t-1}, \boldsymbol{c})"
    )
    st.markdown(t("seq2seq.intro.problem"))
    st.info(
        t("seq2seq.own_example", alphabet=alphabet_label(config.alphabet)), icon=":material/abc:"
    )


def _training() -> Comparison:
    st.header(t("seq2seq.train.title"), divider="gray")
    st.markdown(t("seq2seq.train.body"))
    st.latex(
        r"\begin{aligned}"
        r"\boldsymbol z &= \sigma(W_z\boldsymbol x + U_z\boldsymbol h), &"
        r"\boldsymbol r &= \sigma(W_r\boldsymbol x + U_r\boldsymbol h),\\"
        r"\tilde{\boldsymbol h} &= \tanh\big(W\boldsymbol x"
        r" + U(\boldsymbol r\odot\boldsymbol h)\big), &"
        r"\boldsymbol h' &= (1-\boldsymbol z)\odot\boldsymbol h + \boldsymbol z\odot"
        r"\tilde{\boldsymbol h}"
        r"\end{aligned}"
    )
    st.latex(
        r"\boldsymbol s_t = \mathrm{GRU}\big([\,\mathrm{emb}(y_{t-1});\ \boldsymbol c_t\,],\ "
        r"\boldsymbol s_{t-1}\big),\qquad P(y_t) = \mathrm{softmax}\big(W_o[\boldsymbol s_t;\ "
        r"\boldsymbol c_t] + \boldsymbol b_o\big)"
    )
    left, right = st.columns(2)
    with left:
        st.markdown(t("seq2seq.train.fixed"))
        st.latex(r"\boldsymbol c_t = \boldsymbol h_T")
    with right:
        st.markdown(t("seq2seq.train.attention"))
        st.latex(
            r"\begin{aligned}"
            r"e_{t,i} &= \boldsymbol v^{\mathsf T}"
            r"\tanh(W_s\boldsymbol s_{t-1} + W_h\boldsymbol h_i)\\"
            r"\alpha_{t,i} &= \exp e_{t,i} \big/ \textstyle\sum_j \exp e_{t,j}\\"
            r"\boldsymbol c_t &= \textstyle\sum_i \alpha_{t,i}\boldsymbol h_i"
            r"\end{aligned}"
        )
    links.linked(SEED_KEY, SEEDS[0], SEEDS)
    column, _ = st.columns([1, 2])
    seed = column.select_slider(
        t("seq2seq.train.seed"), options=SEEDS, value=SEEDS[0], key=SEED_KEY,
        help=t("seq2seq.train.seed_help"),
    )  # fmt: skip
    config = GruConfig(seed=int(seed))
    st.markdown(
        t(
            "seq2seq.train.setup", embed=config.embed, hidden=config.hidden, attn=config.attn,
            steps=f"{config.steps:,}", batch=config.batch, train_max=config.train_max_len,
        )
    )  # fmt: skip
    comparison = gru_comparison(
        config,
        _progress=t("seq2seq.train.progress"),
        _names=(t("seq2seq.variant.fixed"), t("seq2seq.variant.attention")),
    )
    fixed, attention = comparison.fixed, comparison.attention
    st.caption(
        t(
            "seq2seq.train.done_disk" if comparison.from_disk else "seq2seq.train.done",
            fixed_s=f"{fixed.seconds:.1f}",
            attention_s=f"{attention.seconds:.1f}",
            fixed_loss=f"{final_loss(fixed):.3f}",
            attention_loss=f"{final_loss(attention):.3f}",
        )
    )
    return comparison


def _param_count(params: dict[str, np.ndarray]) -> str:
    return f"{sum(int(a.size) for a in params.values()):,}"


def _transformer(comparison: Comparison) -> ReversalRun:
    """The Transformer trained on the GRUs' batches (cached on disk as they are)."""
    config = ReversalConfig(gru=comparison.config)
    learner = config.learner
    st.markdown(
        t(
            "seq2seq_transformer.train.body", layers=learner.layers, d_model=learner.d_model,
            h=learner.h, params=f"{parameter_count(config):,}",
            gru_params=_param_count(comparison.fixed.params),
            attention_params=_param_count(comparison.attention.params),
            steps=f"{config.gru.steps:,}", lr=f"{config.lr:g}",
        )
    )  # fmt: skip
    run = reversal_run(
        config,
        _progress=t("seq2seq_transformer.train.progress"),
        _timing=t("seq2seq_transformer.train.timing"),
    )
    st.caption(
        t(
            "seq2seq_transformer.train.done_disk" if run.from_disk
            else "seq2seq_transformer.train.done",
            seconds=f"{run.model.seconds:.1f}", loss=f"{run.model.final_loss():.3f}",
        )
    )  # fmt: skip
    return run


def _curve(comparison: Comparison, transformer: TrainedReversal) -> None:
    config = comparison.config
    st.header(t("seq2seq.curve.title"), divider="gray")
    st.markdown(t("seq2seq.curve.body", n=config.eval_per_length, train_max=config.train_max_len))
    names = {
        "fixed": t("seq2seq.curve.series.fixed"),
        "attention": t("seq2seq.curve.series.attention"),
        "transformer": t("seq2seq_transformer.series"),
    }
    scores = {v: comparison.model(v).scores for v in ("fixed", "attention")}
    scores["transformer"] = transformer.scores
    frame = pd.DataFrame(
        [
            {"T": s.length, "series": names[v], "accuracy": s.token_accuracy,
             "whole": s.sequence_accuracy}
            for v, by_length in scores.items()
            for s in by_length
        ]
    )  # fmt: skip
    chance = 1 / len(config.alphabet)
    st.vega_lite_chart(
        chart_spec(
            charts_seq2seq.accuracy_by_length,
            frame,
            chance,
            config.train_max_len,
            series_order=list(names.values()),
            length_title=t("seq2seq.curve.axis_length"),
            accuracy_title=t("seq2seq.curve.axis_accuracy"),
            whole_title=t("seq2seq.curve.axis_whole"),
            series_title=t("seq2seq.curve.axis_series"),
            chance_label=t("seq2seq.curve.chance", chance=f"{chance:.1%}"),
            trained_label=t("seq2seq.curve.trained", train_max=config.train_max_len),
        ),
        width="stretch",
    )
    st.markdown(curve_text(comparison))
    st.markdown(transformer_text(comparison, transformer))
    with st.expander(t("seq2seq.curve.table")):
        st.dataframe(curve_table(comparison, transformer), hide_index=True)


def transformer_text(comparison: Comparison, transformer: TrainedReversal) -> str:
    """The Transformer's sentences under the curve: at the longest training length against the
    GRUs, its training loss, and one letter past training (each a claim of reversal_claims)."""
    config = comparison.config
    long = config.train_max_len
    said = [
        claims.within_training(
            long, transformer.accuracy(long), comparison.attention.accuracy(long),
            comparison.fixed.accuracy(long),
        ),
        claims.training_state(transformer.final_loss(), LOSS_WINDOW),
    ]  # fmt: skip
    if long < config.eval_max_len:
        said.append(
            claims.past_training(
                long, transformer.accuracy(long), transformer.accuracy(long + 1),
                comparison.attention.accuracy(long + 1), 1 / len(config.alphabet),
            )
        )  # fmt: skip
    return join_sentences([text for c in said if (text := say(c)) is not None])


def curve_table(comparison: Comparison, transformer: TrainedReversal) -> pd.DataFrame:
    """Every evaluated length: each model's share of letters and of whole strings right, to a
    tenth of a point (so that 89.9%, below the 90% a sentence speaks of, does not read 90%)."""
    fixed, attention = comparison.fixed.scores, comparison.attention.scores
    return pd.DataFrame(
        {
            t("seq2seq.curve.col.length"): [s.length for s in fixed],
            t("seq2seq.curve.col.fixed_letters"): [f"{s.token_accuracy:.1%}" for s in fixed],
            t("seq2seq.curve.col.fixed_whole"): [f"{s.sequence_accuracy:.1%}" for s in fixed],
            t("seq2seq.curve.col.attention_letters"): [
                f"{s.token_accuracy:.1%}" for s in attention
            ],
            t("seq2seq.curve.col.attention_whole"): [
                f"{s.sequence_accuracy:.1%}" for s in attention
            ],
            t("seq2seq_transformer.col.letters"): [
                f"{s.token_accuracy:.1%}" for s in transformer.scores
            ],
            t("seq2seq_transformer.col.whole"): [
                f"{s.sequence_accuracy:.1%}" for s in transformer.scores
            ],
        }
    )


def curve_text(comparison: Comparison) -> str:
    """The sentences under the curve, each chosen by a verdict of ``summarize``."""
    s = summarize(comparison)
    chance = f"{1 / len(comparison.config.alphabet):.1%}"

    def at(key: str, length: int, **more: object) -> str:
        return t(key, length=length, fixed=percent(s.fixed[length]),
                 attention=percent(s.attention[length]), **more)  # fmt: skip

    holds = percent(HOLDS)
    drops = [
        t("seq2seq.curve.drop.fixed.never", holds=holds)
        if s.fixed_drop is None
        else t("seq2seq.curve.drop.fixed.at", holds=holds, length=s.fixed_drop),
        t("seq2seq.curve.drop.attention.never", holds=holds)
        if s.attention_drop is None
        else t("seq2seq.curve.drop.attention.at", holds=holds, length=s.attention_drop),
    ]
    config = comparison.config
    seen = seen_share(s.short, config)
    memory = (
        [
            t(
                "seq2seq.curve.seen",
                length=s.short,
                share=f"{seen:.1%}" if seen < 0.999 else t("seq2seq.curve.seen_all"),
                strings=f"{len(config.alphabet) ** s.short:,}",
            )
        ]  # fmt: skip
        if seen > MOSTLY_SEEN
        else []
    )
    fixed_loss, attention_loss = final_loss(comparison.fixed), final_loss(comparison.attention)
    learning = t(
        f"seq2seq.curve.{learning_verdict(fixed_loss, attention_loss)}",
        window=LOSS_WINDOW, fixed_loss=f"{fixed_loss:.3f}", attention_loss=f"{attention_loss:.3f}",
    )  # fmt: skip
    return join_sentences(
        [
            at(SHORT_KEYS[s.short_verdict], s.short),
            *memory,
            at(LONG_KEYS[s.long_verdict], s.long),
            learning,
            *drops,
            at(FAR_KEYS[s.far_verdict], s.far, chance=chance),
        ]
    )


def _own(comparison: Comparison, transformer: TrainedReversal) -> None:
    config = comparison.config
    st.header(t("seq2seq.own.title"), divider="gray")
    alphabet = alphabet_label(config.alphabet)
    text = st.text_input(
        t("seq2seq.own.input", alphabet=alphabet), value=DEFAULT_SYMBOLS, key=SYMBOLS_KEY,
        max_chars=OWN_MAX_CHARS, help=t("seq2seq.own.input_help", limit=OWN_MAX_LEN),
    )  # fmt: skip
    try:
        source = parse_symbols(text, config.alphabet, OWN_MAX_LEN)
    except SymbolError as error:
        st.info(
            t(SYMBOL_ERROR_KEYS[error.kind], alphabet=alphabet, bad=error.bad,
              length=error.length, limit=error.limit),
            icon=":material/edit_note:",
        )  # fmt: skip
        return
    fixed = translate(comparison.fixed, source)
    attention = translate(comparison.attention, source)
    tf = answer(transformer, source)
    _answers(comparison, fixed, attention, tf)
    _own_transformer(transformer, source, tf)
    _alignment(config, attention)
    _contexts(config, fixed, attention)


def _written(config: GruConfig, tr: Translation | Answer) -> str:
    output = spell(tr.output, config.alphabet) or "∅"
    return output if tr.stopped else t("seq2seq.own.no_end", output=output)


def _answers(
    comparison: Comparison, fixed: Translation, attention: Translation, tf: Answer | None
) -> None:
    config = comparison.config
    n = len(fixed.source)
    rows: list[tuple[str, str, int | None]] = [
        (t("seq2seq.own.expected"), spell(fixed.expected, config.alphabet), n),
        (t("seq2seq.variant.fixed"), _written(config, fixed), fixed.letters_right),
        (t("seq2seq.variant.attention"), _written(config, attention), attention.letters_right),
        (t("seq2seq_transformer.name"),
         _written(config, tf) if tf is not None else t("seq2seq_transformer.own.unread"),
         tf.letters_right if tf is not None else None),
    ]  # fmt: skip
    st.dataframe(
        pd.DataFrame(
            {
                t("seq2seq.own.col.model"): [name for name, _, _ in rows],
                t("seq2seq.own.col.output"): [output for _, output, _ in rows],
                t("seq2seq.own.col.right"): [
                    "—" if right is None else f"{right} / {n}" for _, _, right in rows
                ],
            }
        ),
        hide_index=True,
    )
    verdict = t(
        OWN_KEYS[own_verdict(fixed, attention)],
        source=spell(fixed.source, config.alphabet),
        length=n,
        fixed_right=fixed.letters_right,
        attention_right=attention.letters_right,
    )
    note = length_note(n, config)
    measured = {}
    if note != "unmeasured":
        measured = {
            "fixed": percent(comparison.fixed.accuracy(n)),
            "attention": percent(comparison.attention.accuracy(n)),
        }
    where = t(
        NOTE_KEYS[note], length=n, train_max=config.train_max_len, eval_max=config.eval_max_len,
        **measured,
    )  # fmt: skip
    st.markdown(join_sentences([verdict, where]))


def _own_transformer(
    transformer: TrainedReversal, source: tuple[int, ...], tf: Answer | None
) -> None:
    """The Transformer's verdict on the learner's string, and how many passes its answer took."""
    said = claims.own_answer(
        len(source), None if tf is None else tf.letters_right, tf is not None and tf.correct,
        longest_readable(transformer.config),
    )  # fmt: skip
    sentences = [text] if (text := say(said)) is not None else []
    if tf is not None:
        sentences.append(t("seq2seq_transformer.own.passes", passes=tf.passes))
    st.markdown(join_sentences(sentences))


def _alignment(config: GruConfig, attention: Translation) -> None:
    weights = attention.weights
    assert weights is not None  # the attention model always reports its weights
    st.markdown(t("seq2seq.own.align.body"))
    source_axis = [f"{i + 1} · {config.alphabet[x]}" for i, x in enumerate(attention.source)]
    step_letters = [config.alphabet[y] for y in attention.output] + (
        [t("seq2seq.own.end")] if attention.stopped else []
    )
    step_axis = [f"{k + 1} · {letter}" for k, letter in enumerate(step_letters)]
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            weights,
            step_axis,
            source_axis,
            row_title=t("seq2seq.own.axis.step"),
            col_title=t("seq2seq.own.axis.source"),
            value_title="α",
            domain=(0.0, 1.0),
        ),
        width="content",
    )
    counts = alignment_counts(weights, len(attention.output))
    if counts.rows == 0:
        st.markdown(t("seq2seq.own.align.none"))
    else:
        st.markdown(
            join_sentences(
                [
                    t("seq2seq.own.align.counts", rows=counts.rows, on=counts.on_letter,
                      after=counts.after_letter, elsewhere=counts.elsewhere),
                    t(ALIGN_KEYS[alignment_verdict(counts)]),
                ]
            )
        )  # fmt: skip
    st.info(t("seq2seq.own.align.caveat"), icon=":material/info:")


CONTEXT_CELL = 28  # px: a context map's rows readable, up to 15 of them in 420 px


def _contexts(config: GruConfig, fixed: Translation, attention: Translation) -> None:
    st.subheader(t("seq2seq.fixed.title"))
    st.markdown(t("seq2seq.fixed.body"))
    dims = [str(j + 1) for j in range(config.hidden)]
    span = float(max(np.abs(fixed.contexts).max(), np.abs(attention.contexts).max(), 1e-9))
    # One above the other at full width: side by side, 16 dimensions left 13-px rows.
    for tr, title, latex in (
        (fixed, t("seq2seq.fixed.fixed"), r"\boldsymbol{c} = \boldsymbol{h}_T"),
        (attention, t("seq2seq.fixed.attention"),
         r"\boldsymbol{c}_t = \sum_i \alpha_{t,i}\,\boldsymbol{h}_i"),
    ):  # fmt: skip
        letters = [config.alphabet[y] for y in tr.output] + (
            [t("seq2seq.own.end")] if tr.stopped else []
        )
        st.markdown(f"**{title}**")
        st.latex(latex)
        st.vega_lite_chart(
            chart_spec(
                charts.heatmap,
                tr.contexts,
                [f"{k + 1} · {letter}" for k, letter in enumerate(letters)],
                dims,
                row_title=t("seq2seq.own.axis.step"),
                col_title=t("seq2seq.axis.dim"),
                value_title=t("seq2seq.axis.value"),
                domain=(-span, span),
                max_cell=CONTEXT_CELL,
            ),
            width="content",
        )
    st.markdown(
        t("seq2seq.fixed.compare", steps=len(attention.contexts),
          spread=f"{context_spread(attention.contexts):.3f}")
    )  # fmt: skip


def _bottleneck() -> None:
    st.header(t("seq2seq.neck.title"), divider="gray")
    st.markdown(t("seq2seq.neck.body", vocab=READBACK_VOCAB))
    links.linked(DIM_KEY, 16, DIM_OPTIONS)
    column, _ = st.columns([1, 2])
    d = column.select_slider(t("seq2seq.dim"), options=DIM_OPTIONS, value=16, key=DIM_KEY)
    with st.spinner(t("seq2seq.neck.running")):
        rows = readback_rows(d)
    first = t("seq2seq.neck.series.first")
    mean = t("seq2seq.neck.series.mean")
    own = t("seq2seq.neck.series.own")
    frame = pd.DataFrame(
        [
            {"T": r.length, "series": name, "accuracy": value}
            for r in rows
            for name, value in (
                (first, r.first_from_final),
                (mean, r.mean_from_final),
                (own, r.mean_from_own),
            )
        ]
    )
    chance = 1 / READBACK_VOCAB
    st.vega_lite_chart(
        chart_spec(
            charts_seq2seq.readback,
            frame,
            chance,
            series_order=[first, mean, own],
            length_title=t("seq2seq.neck.axis_length"),
            accuracy_title=t("seq2seq.neck.axis_accuracy"),
            series_title=t("seq2seq.neck.axis_series"),
            chance_label=t("seq2seq.neck.chance", chance=f"{chance:.1%}"),
        ),
        width="stretch",
    )
    by_length = {r.length: r for r in rows}
    short, long = by_length[2], by_length[max(by_length)]
    st.markdown(
        t(
            "seq2seq.neck.summary",
            d=d,
            short=percent(short.first_from_final),
            long_T=long.length,
            long=percent(long.first_from_final),
            mean=percent(long.mean_from_final),
            own=percent(long.mean_from_own),
            chance=f"{chance:.1%}",
        )
    )
    lowest = min(r.mean_from_own for r in rows)
    floor = math.floor(lowest * 100) / 100  # "at least": 98.5% is written 98%, never 99%
    st.markdown(t(f"seq2seq.neck.own.{own_state_verdict(rows)}", lowest=f"{floor:.0%}", d=d))


def _parallel(comparison: Comparison, run: ReversalRun) -> None:
    """Time per training step of the three models, against the length and on average; and the
    caveat that writing stays sequential."""
    config = comparison.config
    st.header(t("seq2seq_transformer.time.title"), divider="gray")
    st.markdown(t("seq2seq_transformer.time.body", batch=config.batch, repeats=REPEATS))
    names = {
        "fixed": t("seq2seq.curve.series.fixed"),
        "attention": t("seq2seq.curve.series.attention"),
        "transformer": t("seq2seq_transformer.series"),
    }
    times = run.times
    frame = pd.DataFrame(
        [
            {"T": T, "series": names[m], "ms": 1e3 * seconds[k]}
            for m, seconds in times.seconds.items()
            for k, T in enumerate(times.lengths)
        ]
    )
    st.vega_lite_chart(
        chart_spec(
            charts_seq2seq.step_times,
            frame,
            series_order=list(names.values()),
            length_title=t("seq2seq.curve.axis_length"),
            time_title=t("seq2seq_transformer.time.axis_time"),
            series_title=t("seq2seq.curve.axis_series"),
        ),
        width="stretch",
    )
    growth = say(claims.step_growth(times.lengths, times.seconds))
    mean = say(
        claims.mean_step(
            comparison.fixed.seconds / max(1, config.steps),
            comparison.attention.seconds / max(1, config.steps),
            run.model.step_seconds,
        )
    )
    st.markdown(join_sentences([x for x in (growth, mean) if x is not None]))
    layers = run.model.config.learner.layers
    gru_row = t("seq2seq_transformer.time.in_a_row.gru")
    st.dataframe(
        pd.DataFrame(
            {
                t("seq2seq_transformer.time.col.model"): [
                    t("seq2seq.variant.fixed"), t("seq2seq.variant.attention"),
                    t("seq2seq_transformer.name"),
                ],
                t("seq2seq_transformer.time.col.in_a_row"): [
                    gru_row, gru_row,
                    t("seq2seq_transformer.time.in_a_row.transformer", layers=layers),
                ],
                t("seq2seq_transformer.time.col.step"): [
                    claims.ms(comparison.fixed.seconds / max(1, config.steps)),
                    claims.ms(comparison.attention.seconds / max(1, config.steps)),
                    claims.ms(run.model.step_seconds),
                ],
            }
        ),
        hide_index=True,
    )  # fmt: skip
    st.info(t("seq2seq_transformer.time.caveat"), icon=":material/info:")


def render() -> None:
    page_start("seq2seq.title", caption="seq2seq.computed", uses_backend=False)
    _intro(GruConfig())
    comparison = _training()
    run = _transformer(comparison)
    _curve(comparison, run.model)
    _own(comparison, run.model)
    _parallel(comparison, run)
    _bottleneck()
    with st.expander(t("seq2seq.know.title"), icon=":material/fact_check:"):
        st.markdown(t("seq2seq.know.body"))
    solved_and_hurts(t("seq2seq.solved"), t("seq2seq.hurts"))


render()
