"""One-hot — the sentence's one-hot vectors (from the toy model's trace), their memory, their
orthogonality, and one_hot @ E against the lookup: checked equal and timed live."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts, links
from transformer_walk.app.caches import RACE_KEPT_S, lookup_race
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import one_hot as charts_one_hot
from transformer_walk.app.heavy_work import heavy_work
from transformer_walk.app.i18n import join_names, t
from transformer_walk.app.model_widgets import (
    tokenizer_or_reason,
    toy_backend,
    toy_trace_or_none,
)
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import difference_label, human_bytes, token_axis
from transformer_walk.app.views.latex import tex_words
from transformer_walk.app.widgets import (
    backend_within_budget,
    page_start,
    solved_and_hurts,
    token_index,
)
from transformer_walk.bench.lookup_race import (
    RACE_D,
    RACE_DEFAULT_VOCABULARY,
    RACE_VOCABULARY_SIZES,
    race_multiply_adds,
    race_tokens,
)
from transformer_walk.core import Backend, get_backend
from transformer_walk.models.minilm.wordpiece import word_pieces
from transformer_walk.models.toy import ToyConfig, Trace
from transformer_walk.topics.one_hot import (
    REALISTIC_VOCABULARIES,
    cosine_matrix,
    first_occurrences,
    max_off_diagonal,
    one_hot_bytes,
)

MAX_GRID_ROWS = 40
MAX_COSINE_TOKENS = 12
WORDS_KEY = "onehot_words"
VOCAB_KEY = "onehot_race_vocab"
DEFAULT_WORDS = ("cat", "dog", "computer")
INT64_BYTES = 8
VOCABULARY_LABELS = {"article": "one_hot.memory.article", "minilm": "one_hot.memory.minilm"}


def _intro() -> None:
    st.markdown(t("one_hot.intro"))
    st.latex(
        r"\boldsymbol{x}_i = (0,\ldots,0,\underbrace{1}_{\mathrm{id}_i},0,\ldots,0)"
        r" \in \mathbb{R}^{|V|}"
    )


def _abridged(row: np.ndarray) -> str:
    """[0 ×34, 1, 0 ×60]: the row as it is, with its runs of zeros counted."""
    ones = np.flatnonzero(row)
    if ones.size != 1:
        return "?"
    before, after = int(ones[0]), row.size - int(ones[0]) - 1
    return f"[0 ×{before}, 1, 0 ×{after}]"


def _sentence(trace: Trace) -> None:
    st.header(t("one_hot.sentence.title"), divider="gray")
    vocab = len(trace.vocab)
    st.markdown(t("one_hot.sentence.body", vocab=vocab, n=trace.n))
    shown = min(trace.n, MAX_GRID_ROWS)
    st.vega_lite_chart(
        chart_spec(
            charts_one_hot.one_hot_grid,
            token_axis(trace.tokens, 0, shown),  # "4 · the": the same word, two rows
            np.argmax(trace.one_hot[:shown], axis=1).tolist(),  # where the backend put the 1
            vocab,
            token_title=t("one_hot.chart.token"),
            column_title=t("one_hot.chart.column"),
        ),
        width="stretch",
    )
    if shown < trace.n:
        st.caption(t("one_hot.sentence.capped", shown=shown, n=trace.n))
    index, token_config = token_index(token_axis(trace.tokens), t("one_hot.col.token"))
    st.dataframe(
        pd.DataFrame(
            {
                t("one_hot.col.id"): np.argmax(trace.one_hot, axis=1).tolist(),
                t("one_hot.col.row"): [_abridged(row) for row in trace.one_hot],
                t("one_hot.col.ones"): np.count_nonzero(trace.one_hot, axis=1).tolist(),
            },
            index=index,
        ),
        column_config=token_config,
        width="stretch",
        height=min(38 + 35 * trace.n, 320),
    )


def _memory(trace: Trace) -> None:
    st.header(t("one_hot.memory.title"), divider="gray")
    st.markdown(t("one_hot.memory.body"))
    n = trace.n
    vocabularies = [("one_hot.memory.toy", len(trace.vocab))] + [
        (VOCABULARY_LABELS[name], size) for name, size in REALISTIC_VOCABULARIES
    ]
    st.dataframe(
        pd.DataFrame(
            {
                t("one_hot.memory.vocab"): [t(label) for label, _ in vocabularies],
                t("one_hot.memory.size"): [f"{size:,}" for _, size in vocabularies],
                t("one_hot.memory.numbers"): [f"{n * size:,}" for _, size in vocabularies],
                t("one_hot.memory.bytes"): [
                    human_bytes(one_hot_bytes(n, size)) for _, size in vocabularies
                ],
                t("one_hot.memory.useful"): [f"{1 / size:.4%}" for _, size in vocabularies],
            }
        ),
        hide_index=True,
        width="stretch",
    )
    tokenizer, _ = tokenizer_or_reason()
    if tokenizer is not None:  # MiniLM reads the text as its own n tokens, not the toy's
        own = word_pieces(tokenizer, trace.text).n
        minilm = dict(REALISTIC_VOCABULARIES)["minilm"]
        st.caption(
            t("one_hot.memory.same_n", n=n, own=own,
              size=human_bytes(one_hot_bytes(own, minilm)))
        )  # fmt: skip
    article_size = dict(REALISTIC_VOCABULARIES)["article"]
    article_bytes = one_hot_bytes(n, article_size)
    st.latex(
        (
            rf"n \times |V| \times 4\ {tex_words(t('one_hot.tex.bytes'))} = {n} \times "
            rf"{article_size:,} \times 4 = {article_bytes:,}\ "
        ).replace(",", "{,}")
        + tex_words(t("one_hot.tex.bytes"))
    )
    ids_bytes = n * INT64_BYTES
    st.markdown(
        t(
            "one_hot.memory.ids",
            ids=human_bytes(ids_bytes),
            ratio=f"{article_bytes / ids_bytes:,.0f}",
        )
    )


def _cosine_heatmap(cos: np.ndarray, words: list[str]) -> None:
    """The [m, m] cosines of one-hot vectors: 1 on the diagonal, 0 everywhere else."""
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            cos,
            words,
            words,
            row_title=t("one_hot.orth.chart_row"),
            col_title=t("one_hot.orth.chart_col"),
            value_title=t("one_hot.orth.chart_value"),
            fmt=".0f",
            domain=(0.0, 1.0),
            width=charts.HALF,
        ),
        width="content",
    )


def _orthogonality(trace: Trace, backend_label: str, module: Backend) -> None:
    st.header(t("one_hot.orth.title"), divider="gray")
    st.markdown(t("one_hot.orth.body"))
    st.latex(
        r"\operatorname{sim}(a, b) = \cos\theta = "
        r"\frac{\boldsymbol{x}_a^{\mathsf T}\boldsymbol{x}_b}"
        r"{\lVert\boldsymbol{x}_a\rVert\,\lVert\boldsymbol{x}_b\rVert}"
    )
    distinct = first_occurrences(trace.tokens)
    counts = pd.Series(trace.tokens).value_counts()
    repeated = [token for token in counts.index if counts[token] > 1]
    left, right = st.columns(2, gap="large")
    with left:
        if len(distinct) < 2:
            st.info(t("one_hot.orth.single"))
        else:
            cos = cosine_matrix(trace.one_hot[distinct])  # (m, m) over distinct tokens
            largest = max_off_diagonal(cos)
            shown = distinct[:MAX_COSINE_TOKENS]
            _cosine_heatmap(cos[: len(shown), : len(shown)], [trace.tokens[i] for i in shown])
            if len(shown) < len(distinct):
                st.caption(t("one_hot.orth.capped", shown=len(shown), m=len(distinct)))
            if np.array_equal(cos, np.eye(len(distinct))):
                st.success(
                    t(
                        "one_hot.orth.identity",
                        backend=backend_label,
                        m=len(distinct),
                        largest=f"{largest:g}",
                    ),
                    icon=":material/check_circle:",
                )
            else:
                st.error(t("one_hot.orth.not_identity", largest=f"{largest:g}"))
        if repeated:
            st.caption(
                t(
                    "one_hot.orth.repeated",
                    tokens=join_names([f"“{w}”" for w in repeated]),
                    count=len(repeated),
                )
            )
    with right:
        _compare_words(trace, module)
    st.markdown(t("one_hot.orth.verdict"))


def _compare_words(trace: Trace, module: Backend) -> None:
    vocabulary = list(trace.vocab.tokens)
    # Set through the session state, not `default=`: a word of an earlier sentence may have left
    # the vocabulary, and the widget must not be handed an option it no longer has.
    chosen = st.session_state.get(WORDS_KEY, list(DEFAULT_WORDS))
    st.session_state[WORDS_KEY] = [w for w in chosen if w in vocabulary]
    words = st.multiselect(
        t("one_hot.orth.words"),
        options=vocabulary,
        key=WORDS_KEY,
        help=t("one_hot.orth.words_help"),
        max_selections=MAX_COSINE_TOKENS,
    )
    if len(words) < 2:
        st.info(t("one_hot.orth.words_few"))
        return
    ids = trace.vocab.ids(words)  # (m,)
    x = module.one_hot(ids, len(trace.vocab), dtype=np.float64)  # (m, |V|) on the backend
    cos = cosine_matrix(x)  # (m, m)
    _cosine_heatmap(cos, words)
    norms = np.linalg.norm(x, axis=1)
    lines = []
    for j in range(1, min(len(words), 3)):
        dot = float(x[0] @ x[j])
        lines.append(
            f"sim({words[0]}, {words[j]}) = {dot:g} / ({norms[0]:g} × {norms[j]:g}) = "
            f"**{cos[0, j]:g}**"
        )
    st.markdown("  \n".join(lines))


def _lookup(trace: Trace, name: str, module: Backend) -> None:
    st.header(t("one_hot.lookup.title"), divider="gray")
    st.markdown(t("one_hot.lookup.body"))
    st.latex(
        r"\boldsymbol{x}_i^{\mathsf T} E = \sum_{v=1}^{|V|} x_{i,v}\, E_{v,:}"
        r" = E_{\mathrm{id}_i,:}"
    )
    via_matmul = trace.one_hot @ trace.embedding_table  # (n, d_model)
    diff = float(np.abs(via_matmul - trace.embeddings).max())
    label = t(f"backend.{name}")
    if diff == 0.0:
        st.success(
            t("one_hot.lookup.check", n=trace.n, backend=label, diff=f"{diff:g}"),
            icon=":material/check_circle:",
        )
    else:
        st.error(t("one_hot.lookup.mismatch", diff=difference_label(diff), backend=label))
    _race(trace, name)


def _race(trace: Trace, name: str) -> None:
    st.subheader(t("one_hot.race.title"))
    st.markdown(t("one_hot.race.body", d=RACE_D, minutes=RACE_KEPT_S // 60))
    # Every option must hold the sentence's ids (a long sentence grows the toy vocabulary).
    sizes = [s for s in RACE_VOCABULARY_SIZES if s >= len(trace.vocab)] or [len(trace.vocab)]
    default = RACE_DEFAULT_VOCABULARY if RACE_DEFAULT_VOCABULARY in sizes else sizes[-1]
    links.linked(VOCAB_KEY, default, sizes)
    if st.session_state.get(VOCAB_KEY) not in sizes:
        st.session_state[VOCAB_KEY] = default
    vocab_size = st.select_slider(
        t("one_hot.race.vocab"),
        options=sizes,
        key=VOCAB_KEY,
        format_func=lambda v: f"{v:,}",
        help=t("one_hot.race.vocab_help"),
    )
    ids = trace.ids.tolist()
    kept = race_tokens(len(ids), vocab_size)
    if kept < len(ids):
        full = human_bytes(one_hot_bytes(len(ids), vocab_size))
        vocab = f"{vocab_size:,}"
        st.caption(t("one_hot.race.capped", kept=kept, n=len(ids), vocab=vocab, size=full))
    race_name = backend_within_budget(name, race_multiply_adds(kept, vocab_size))
    with heavy_work(), st.spinner(t("one_hot.race.running")):
        result = lookup_race(tuple(ids[:kept]), vocab_size, race_name)

    route_one_hot, route_lookup = t("one_hot.race.route_one_hot"), t("one_hot.race.route_lookup")
    m1, m2, m3 = st.columns(3)
    m1.metric(t("one_hot.race.metric_one_hot"), _ms(result.one_hot_total_s))
    m2.metric(t("one_hot.race.metric_lookup"), _ms(result.lookup_s))
    m3.metric(t("one_hot.race.metric_speedup"), _times(result.speedup))
    frame = pd.DataFrame(
        {
            "route": [route_one_hot, route_one_hot, route_lookup],
            "part": [
                t("one_hot.race.part_build"),
                t("one_hot.race.part_matmul"),
                t("one_hot.race.part_lookup"),
            ],
            "ms": [result.one_hot_s * 1e3, result.matmul_s * 1e3, result.lookup_s * 1e3],
        }
    )
    frame["label"] = [_ms(v / 1e3) for v in frame["ms"]]
    frame["total"] = [
        _ms(result.one_hot_total_s if route == route_one_hot else result.lookup_s)
        for route in frame["route"]
    ]
    st.vega_lite_chart(
        chart_spec(
            charts_one_hot.race_bars,
            frame,
            route_title=t("one_hot.race.chart_route"),
            part_title=t("one_hot.race.chart_part"),
            time_title=t("one_hot.race.chart_time"),
        ),
        width="stretch",
    )
    st.markdown(
        t(
            "one_hot.race.work",
            n=result.n,
            vocab=f"{result.vocab_size:,}",
            d=result.d,
            madds=f"{result.multiply_adds:,}",
            copies=f"{result.copied_numbers:,}",
            diff=f"{result.max_abs_diff:g}",
        )
    )
    st.caption(t("one_hot.race.meta", backend=t(f"backend.{race_name}"), repeats=result.repeats))


def _times(ratio: float) -> str:
    """9,127× for large ratios, 3.36× for small ones: three significant digits at least."""
    return f"{ratio:,.0f}×" if ratio >= 100 else f"{ratio:.3g}×"


def _ms(seconds: float) -> str:
    """A duration in milliseconds with three significant digits at least: 0.00412 ms, 16.0 ms,
    1,350 ms (not the "1.35e+03 ms" of a plain three-digit format)."""
    ms = seconds * 1e3
    return f"{ms:,.0f} ms" if ms >= 100 else f"{ms:.3g} ms"


def render() -> None:
    name = page_start("one_hot.title")
    if name is None:
        return
    _intro()
    text, config = current_sentence(), ToyConfig()
    run_on = toy_backend(name, config, [text])
    trace = toy_trace_or_none(text, config, run_on)
    if trace is None:
        return
    module = get_backend(run_on)
    _sentence(trace)
    _memory(trace)
    _orthogonality(trace, t(f"backend.{run_on}"), module)
    _lookup(trace, run_on, module)
    st.markdown(t("one_hot.why"))
    solved_and_hurts(t("one_hot.solved"), t("one_hot.hurts"))


render()
