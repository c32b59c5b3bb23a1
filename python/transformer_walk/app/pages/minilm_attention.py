"""MiniLM attention: what a trained 6-layer, 12-head encoder attends to in the sidebar's sentence.

Renders ``MiniLM.run(text).attentions`` [6, 12, n, n] (``caches``) and what
``topics.minilm_heads`` derives from it (rows without [CLS]/[SEP], heads ranked for a query → target
pair, each beside what position alone predicts, one head tried on the control sentences
``head_views.POSSESSIVES``, each run through the same cache, and one head switched off beside a
control head, two more runs ``caches.minilm_heads_off``). Holds no math.
"""

from __future__ import annotations

import unicodedata

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts, links
from transformer_walk.app.caches import minilm_heads_off
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import minilm as charts_minilm
from transformer_walk.app.i18n import join_names, join_sentences, say, t
from transformer_walk.app.model_widgets import run_with_spinner, use_model
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views import attention as attention_views
from transformer_walk.app.views.labels import token_labels
from transformer_walk.app.widgets import (
    forget_picks_of_another_sentence,
    page_start,
    pick,
    solved_and_hurts,
    table_height,
    token_window,
)
from transformer_walk.models.minilm import CONFIG, EncoderOutput
from transformer_walk.topics import minilm_heads as head_views
from transformer_walk.topics import minilm_tokens
from transformer_walk.topics.claims import percent, token_label

HIDE_KEY = "mla_hide_specials"
WINDOW_KEY = "mla_window"
LAYER_KEY = "mla_layer"
HEAD_KEY = "mla_head"
VIEW_QUERY_KEY = "mla_view_query"
QUERY_KEY = "mla_query"
TARGET_KEYS = ("mla_target_a", "mla_target_b")
CONTROL_HEAD_KEY = "mla_control_head"
OFF_HEAD_KEY = "mla_off_head"  # the head switched off
PICKS_FOR_KEY = "mla_picks_for"  # the tokens the picks were made for
MAX_GRID = 40  # tokens per side of the 6 × 12 grid (and of the enlarged head and head view)
TOP_HEADS = 5
#: Beyond this many keys the ranking's heat maps stand upright: keys down the rows, heads across,
#: so each key keeps a readable label in a half column.
UPRIGHT_KEYS = 12
UPRIGHT_CELL = 18  # px: 40 keys make a 720-px column
# Message ids by verdict (head_views.POSITION_VERDICTS, head_views.CONTROL_VERDICTS) and place
# (head_views.relative_place), written out so that the id check finds them.
VERDICT_LABELS = {
    "previous": "minilm_attention.verdict.previous",
    "next": "minilm_attention.verdict.next",
    "same": "minilm_attention.verdict.same",
    "first": "minilm_attention.verdict.first",
    "first_word": "minilm_attention.verdict.first_word",
    "last": "minilm_attention.verdict.last",
    "above": "minilm_attention.verdict.above",
    "not_above": "minilm_attention.verdict.not_above",
}
VERDICT_SAYS = {
    "previous": "minilm_attention.rank.says.previous",
    "next": "minilm_attention.rank.says.next",
    "same": "minilm_attention.rank.says.same",
    "first": "minilm_attention.rank.says.first",
    "first_word": "minilm_attention.rank.says.first_word",
    "last": "minilm_attention.rank.says.last",
    "above": "minilm_attention.rank.says.above",
    "not_above": "minilm_attention.rank.says.not_above",
}
PLACES = {
    "first": "minilm_attention.place.first",
    "last": "minilm_attention.place.last",
    "same": "minilm_attention.place.same",
    "back": "minilm_attention.place.back",
    "ahead": "minilm_attention.place.ahead",
}
BASES = {"mean": "minilm_attention.basis.mean", "even": "minilm_attention.basis.even"}
OFF_SAYS = {  # head_views.ABLATION_VERDICTS
    "more": "minilm_attention.off.verdict.more",
    "less": "minilm_attention.off.verdict.less",
    "similar": "minilm_attention.off.verdict.similar",
    "neither": "minilm_attention.off.verdict.neither",
}


def _forget_picks_of_another_sentence(out: EncoderOutput) -> None:
    """A new sentence starts from its own defaults: its "his" (or another pronoun), its "tom"
    and "dog" (or the tokens that query attends to most), and the head where the query attends
    most to the first (the layer and head a link leaves out)."""
    picked = (WINDOW_KEY, VIEW_QUERY_KEY, QUERY_KEY, *TARGET_KEYS, CONTROL_HEAD_KEY, OFF_HEAD_KEY)
    fresh = forget_picks_of_another_sentence(out.tokens, picked, PICKS_FOR_KEY)
    query = minilm_tokens.pronoun_query(out.tokens)
    target = head_views.ranking_targets(out.attentions, out.tokens, query)[0].position
    best = head_views.rank_heads(out.attentions, query, target, top=1)[0]
    # (widget keys are also dropped when the learner visits another page)
    if fresh or LAYER_KEY not in st.session_state or HEAD_KEY not in st.session_state:
        st.session_state[LAYER_KEY] = best.layer + 1
        st.session_state[HEAD_KEY] = best.head + 1
    links.linked(LAYER_KEY, best.layer + 1, range(1, CONFIG.n_layers + 1))
    links.linked(HEAD_KEY, best.head + 1, range(1, CONFIG.h + 1))


def _view(out: EncoderOutput, hide: bool) -> tuple[np.ndarray, list[int]]:
    """The weights shown, [L, h, m, m], and the sentence positions of their m tokens."""
    if not hide:
        return out.attentions, list(range(out.n))
    weights, keep = head_views.without_specials(out.attentions, out.tokens)
    share = head_views.special_share(out.attentions, out.tokens)  # (L, h)
    st.info(
        t("minilm_attention.hidden_note", share=percent(share.mean()), top=percent(share.max())),
        icon=":material/visibility_off:",
    )
    return weights, keep


def _overview(out: EncoderOutput) -> None:
    st.markdown(t("minilm_attention.intro"))
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(t("minilm_attention.metric.n"), str(out.n))
    m2.metric(t("minilm_attention.metric.layers"), str(CONFIG.n_layers))
    m3.metric("h", str(CONFIG.h))
    m4.metric("d_k", str(CONFIG.d_k))
    st.caption(t("minilm_attention.tokens", tokens=" · ".join(out.tokens[: 2 * MAX_GRID])))


def _grid(
    weights: np.ndarray, labels: list[str], rows: tuple[int, int], out: EncoderOutput
) -> None:
    st.header(t("minilm_attention.grid.title"), divider="gray")
    st.markdown(t("minilm_attention.grid.body"))
    sinks = head_views.sink_heads(out.attentions, out.tokens)  # on the model's own weights
    heads = out.attentions.shape[0] * out.attentions.shape[1]
    st.markdown(
        t("minilm_attention.grid.sinks", cls=sinks["[CLS]"], sep=sinks["[SEP]"], heads=heads)
    )
    start, stop = rows
    st.vega_lite_chart(
        chart_spec(
            charts_minilm.head_grid,
            weights[:, :, start:stop, start:stop],
            labels[start:stop],
            layer_title=t("minilm_attention.axis.layer"),
            head_title=t("minilm_attention.axis.head"),
            query_title=t("minilm_attention.axis.query"),
            key_title=t("minilm_attention.axis.key"),
            value_title=t("minilm_attention.axis.weight"),
            selected=(st.session_state[LAYER_KEY] - 1, st.session_state[HEAD_KEY] - 1),
        ),
        width="content",
    )


def _enlarged(
    weights: np.ndarray, labels: list[str], rows: tuple[int, int], *, hidden: bool
) -> None:
    st.header(t("minilm_attention.one.title"), divider="gray")
    left, right = st.columns(2)
    layer = left.selectbox(
        t("minilm_attention.axis.layer"), options=list(range(1, CONFIG.n_layers + 1)), key=LAYER_KEY
    )
    head = right.selectbox(
        t("minilm_attention.axis.head"), options=list(range(1, CONFIG.h + 1)), key=HEAD_KEY
    )
    start, stop = rows
    matrix = weights[layer - 1, head - 1, start:stop, start:stop]  # (m, m)
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            matrix,
            labels[start:stop],
            labels[start:stop],
            row_title=t("minilm_attention.axis.query"),
            col_title=t("minilm_attention.axis.key"),
            value_title=t("minilm_attention.axis.weight"),
            domain=(0.0, 1.0),
        ),
        width="content",
    )
    sums = weights[layer - 1, head - 1].sum(axis=-1)  # (m,): each row over all its m keys
    st.caption(
        t(
            "minilm_attention.one.rows_hidden" if hidden else "minilm_attention.one.rows",
            layer=layer,
            head=head,
            n=len(sums),
            low=f"{sums.min():.4f}",
            high=f"{sums.max():.4f}",
        )
    )


def _head_view(
    out: EncoderOutput, weights: np.ndarray, positions: list[int], rows: tuple[int, int]
) -> None:
    st.header(t("minilm_attention.view.title"), divider="gray")
    st.markdown(t("minilm_attention.view.body"))
    layer, head = st.session_state[LAYER_KEY], st.session_state[HEAD_KEY]
    start, stop = rows
    shown = positions[start:stop]
    options = token_labels(out.tokens, shown)
    default = minilm_tokens.pronoun_query(out.tokens)
    query = pick(
        t("minilm_attention.view.query"),
        VIEW_QUERY_KEY,
        options,
        default if default in options else shown[0],
    )
    i = positions.index(query)
    row = weights[layer - 1, head - 1, i, start:stop]  # (m,)
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.vega_lite_chart(
            chart_spec(
                charts_minilm.head_view,
                [out.tokens[p] for p in shown],
                row,
                shown.index(query),
                weight_title=t("minilm_attention.axis.weight"),
                query_title=t("minilm_attention.axis.query"),
                key_title=t("minilm_attention.axis.key"),
            ),
            width="content",
        )
    with right:
        st.metric(
            t("minilm_attention.view.top", layer=layer, head=head, token=options[query]),
            f"{row.max():.3f}",
        )
        if (top := say(attention_views.top_weight(row, out.tokens, shown))) is not None:
            st.markdown(top)  # every key tied with it, by position
        st.dataframe(
            pd.DataFrame(
                {
                    t("minilm_attention.axis.key"): list(options.values()),
                    t("minilm_attention.axis.weight"): row,
                }
            ),
            column_config={
                t("minilm_attention.axis.weight"): st.column_config.ProgressColumn(
                    format="%.3f", min_value=0.0, max_value=1.0
                )
            },
            hide_index=True,
            height=min(420, 38 + 35 * len(shown)),
        )


def _ranking_pickers(out: EncoderOutput, positions: list[int]) -> tuple[int, list[int]]:
    """The query and the two targets (sentence positions), with a caption when a target starts
    on the tokens the query attends to most because the example's word is missing."""
    options = token_labels(out.tokens, positions)
    default_query = minilm_tokens.pronoun_query(out.tokens)
    cols = st.columns(3)
    with cols[0]:
        query = pick(
            t("minilm_attention.rank.query"),
            QUERY_KEY,
            options,
            default_query if default_query in options else positions[0],
        )
    defaults = head_views.ranking_targets(out.attentions, out.tokens, query)
    targets: list[int] = []
    for col, key, default, label in zip(
        cols[1:],
        TARGET_KEYS,
        defaults,
        (t("minilm_attention.rank.target_a"), t("minilm_attention.rank.target_b")),
        strict=True,
    ):
        with col:
            start = default.position if default.position in options else positions[0]
            targets.append(pick(label, key, options, start))
    attended = [
        (word, d.position)
        for word, d in zip(minilm_tokens.DEFAULT_TARGETS, defaults, strict=True)
        if d.source == "attended"
    ]
    if attended:
        every = token_labels(out.tokens)  # "7 · daughter": by position, as the pickers
        st.caption(
            t(
                "minilm_attention.rank.defaults_attended",
                missing=join_names([f"“{word}”" for word, _ in attended]),
                picked=join_names([f"“{every[p]}”" for _, p in attended]),
                query=every[query],
                heads=out.attentions.shape[0] * out.attentions.shape[1],
                count=len(attended),
            )
        )
    return query, targets


def _says(
    check: head_views.PositionCheck, head: str, query: str, target: str, i: int, j: int
) -> str:
    """The sentence under a ranking table: what the best head's weight is beside what position
    alone predicts, worded by ``check.verdict``."""
    place, k = head_views.relative_place(i, j, check.habits.keys)
    basis = t(
        BASES[check.predicted.basis],
        place=t(PLACES[place], k=k),
        pairs=check.predicted.pairs,
    )
    return t(
        VERDICT_SAYS[check.verdict],
        head=head,
        query=query,
        target=target,
        weight=f"{check.weight:.3f}",
        predicted=f"{check.predicted.value:.3f}",
        basis=basis,
        share=f"{check.pattern_share:.2f}",
        uniform=f"{check.habits.uniform:.3f}",
        ratio=f"{head_views.ABOVE_RATIO:g}",
    )


def _ranked_keys_chart(
    rows_of_heads: np.ndarray, heads: list[str], keys: list[str], *, width: int
) -> charts.Spec:
    """The query's row in each ranked head: heads down the rows and keys across, or — past
    ``UPRIGHT_KEYS`` keys — keys down the rows and heads across, so every key label reads."""
    upright = len(keys) > UPRIGHT_KEYS
    head_title, key_title = t("minilm_attention.axis.head"), t("minilm_attention.axis.key")
    return chart_spec(
        charts.heatmap,
        rows_of_heads.T if upright else rows_of_heads,
        keys if upright else heads,
        heads if upright else keys,
        row_title=key_title if upright else head_title,
        col_title=head_title if upright else key_title,
        value_title=t("minilm_attention.axis.weight"),
        domain=(0.0, 1.0),
        width=width,
        max_cell=UPRIGHT_CELL if upright else charts.grid.MAX_CELL,
    )


def _ranking(
    out: EncoderOutput, weights: np.ndarray, positions: list[int], rows: tuple[int, int]
) -> tuple[head_views.RankedHead, int, int]:
    """The heads ranked for two (query, target) pairs, each beside what position alone predicts.
    Returns the best head of the first pair (the one the controls below test) and that pair's
    query and target (sentence positions)."""
    st.header(t("minilm_attention.rank.title"), divider="gray")
    st.markdown(t("minilm_attention.rank.body"))
    query, targets = _ranking_pickers(out, positions)
    i = positions.index(query)
    words = head_views.view_words(out.tokens, positions)
    start, stop = rows
    shown = positions[start:stop]
    key_labels = list(token_labels(out.tokens, shown).values())
    n_heads = weights.shape[0] * weights.shape[1]
    firsts: list[head_views.RankedHead] = []
    # One target after the other at full width: the ranking table has six columns, and in half
    # a page its verdict column was cut off.
    for target, column in zip(targets, [st.container(), st.container()], strict=True):
        j = positions.index(target)
        ranked = head_views.rank_heads(weights, i, j, top=TOP_HEADS)
        checks = head_views.check_heads(weights, i, j, words)
        mine = [checks[r.layer][r.head] for r in ranked]
        best = ranked[0]
        firsts.append(best)
        names = token_labels(out.tokens, [query, target])  # "9 · his": a word can occur twice
        q_token, j_token = names[query], names[target]
        with column:
            st.subheader(t("minilm_attention.rank.pair", query=q_token, target=j_token))
            st.metric(
                t("minilm_attention.rank.best", query=q_token, target=j_token),
                t(
                    "minilm_attention.rank.best_value",
                    layer=best.layer + 1,
                    head=best.head + 1,
                    weight=f"{best.weight:.3f}",
                ),
            )
            weight_col, predicted_col = (
                t("minilm_attention.rank.col.weight"),
                t("minilm_attention.rank.col.predicted"),
            )
            st.dataframe(
                pd.DataFrame(
                    {
                        t("minilm_attention.rank.col.head"): [r.label for r in ranked],
                        weight_col: [r.weight for r in ranked],
                        predicted_col: [c.predicted.value for c in mine],
                        # the rule in the label: "not above" beside 0.489 vs 0.349 read as false
                        t("minilm_attention.rank.col.verdict"): [
                            t(VERDICT_LABELS[c.verdict], ratio=f"{head_views.ABOVE_RATIO:g}")
                            for c in mine
                        ],
                        # numbered as the pickers: a repeated word (我 … 我) stays two keys
                        t("minilm_attention.rank.col.top"): [
                            token_label(positions[r.top_key] + 1, out.tokens[positions[r.top_key]])
                            for r in ranked
                        ],
                    },
                    index=pd.Index(
                        range(1, len(ranked) + 1), name=t("minilm_attention.rank.col.rank")
                    ),
                ),
                column_config={
                    weight_col: st.column_config.NumberColumn(format="%.3f"),
                    predicted_col: st.column_config.NumberColumn(format="%.3f"),
                },
            )
            st.markdown(_says(mine[0], best.label, q_token, j_token, i, j))
            flat = [c for row in checks for c in row]
            st.caption(
                t(
                    "minilm_attention.rank.count",
                    heads=n_heads,
                    above=sum(c.verdict == "above" for c in flat),
                    patterns=sum(c.verdict not in ("above", "not_above") for c in flat),
                    half=sum(c.weight > 0.5 for c in flat),
                    query=q_token,
                    target=j_token,
                )
            )
            st.vega_lite_chart(
                _ranked_keys_chart(
                    head_views.head_rows(weights, i, ranked)[:, start:stop],
                    [r.label for r in ranked],
                    key_labels,
                    width=charts.FULL,
                ),
                width="content",
            )
    baseline = head_views.uniform_weight(len(positions))
    scale = t("minilm_attention.rank.baseline", m=len(positions), uniform=f"{baseline:.3f}")
    keys_shown = (
        t("minilm_attention.rank.shown_all", m=len(positions))
        if len(shown) == len(positions)
        else t("minilm_attention.rank.shown_window", first=start + 1, last=stop, m=len(positions))
    )
    st.caption(join_sentences([scale, keys_shown]))
    _habits(weights, i, targets, positions, words, out.tokens)
    return firsts[0], query, targets[0]


def _habits(
    weights: np.ndarray,
    i: int,
    targets: list[int],
    positions: list[int],
    words: list[int],
    tokens: list[str],
) -> None:
    """How the ranked heads of both pairs spend weight by position alone, in one table."""
    with st.expander(t("minilm_attention.habits.title")):
        st.markdown(t("minilm_attention.habits.body", share=f"{head_views.PATTERN_SHARE:g}"))
        heads: dict[tuple[int, int], str] = {}  # in ranking order, each head once
        for target in targets:
            for r in head_views.rank_heads(weights, i, positions.index(target), top=TOP_HEADS):
                heads.setdefault((r.layer, r.head), r.label)
        habits = [head_views.position_habits(weights[layer, head], words) for layer, head in heads]
        columns = {
            t("minilm_attention.rank.col.head"): list(heads.values()),
            t("minilm_attention.habits.previous"): [h.previous for h in habits],
            t("minilm_attention.habits.next"): [h.next for h in habits],
            t("minilm_attention.habits.same"): [h.same for h in habits],
            t("minilm_attention.habits.first", token=tokens[positions[0]]): [
                h.first for h in habits
            ],
            t(
                "minilm_attention.habits.first_word",
                token=tokens[positions[words[0]]] if words else "",
            ): [h.first_word for h in habits],
            t("minilm_attention.habits.last", token=tokens[positions[-1]]): [
                h.last for h in habits
            ],
            t("minilm_attention.habits.uniform"): [h.uniform for h in habits],
        }
        st.dataframe(
            pd.DataFrame(columns),
            column_config={
                c: st.column_config.NumberColumn(format="%.3f") for c in list(columns)[1:]
            },
            hide_index=True,
        )


def _controls(out: EncoderOutput, hide: bool, backend: str, best: head_views.RankedHead) -> None:
    """One head tried on the sentences of ``head_views.POSSESSIVES``: its weight from each pronoun
    to its owner beside what position alone predicts, and how many sentences it passes."""
    st.subheader(t("minilm_attention.ctrl.title"))
    st.markdown(t("minilm_attention.ctrl.body", total=len(head_views.POSSESSIVES)))
    n_layers, h = out.attentions.shape[:2]
    options = {layer * h + head: f"L{layer + 1}·H{head + 1}" for layer in range(n_layers)
               for head in range(h)}  # fmt: skip
    chosen = pick(
        t("minilm_attention.ctrl.head"), CONTROL_HEAD_KEY, options, best.layer * h + best.head
    )
    layer, head = divmod(chosen, h)
    texts, checks, tops, firsts = [], [], [], []
    own = [r.text for r in head_views.POSSESSIVES if head_views.same_sentence(r.text, out.text)]
    for relation in head_views.POSSESSIVES:
        if relation.text in own:  # the head was picked on it: it would pass by construction
            continue
        run = run_with_spinner(relation.text, backend)
        found = head_views.relation_positions(run.tokens, relation)
        if found is None:  # (tests hold every control sentence to its two words)
            continue
        weights, keep = (
            head_views.without_specials(run.attentions, run.tokens)
            if hide
            else (run.attentions, list(range(run.n)))
        )
        pronoun, owner = keep.index(found[0]), keep.index(found[1])
        words = head_views.view_words(run.tokens, keep)
        check = head_views.check_relation(weights[layer, head], pronoun, owner, words)
        firsts.append(words[0] if words else 0)
        texts.append((relation.text, f"{relation.pronoun} → {relation.owner}"))
        checks.append(check)
        top = keep[check.top_word]
        tops.append(token_labels(run.tokens, [top])[top])  # "2 · the": a word can occur twice
    if not checks:
        return
    sentence_col, pair_col = (
        t("minilm_attention.ctrl.col.sentence"),
        t("minilm_attention.ctrl.col.pair"),
    )
    weight_col, predicted_col = (
        t("minilm_attention.ctrl.col.weight"),
        t("minilm_attention.ctrl.col.predicted"),
    )
    verdict_col, top_col = (
        t("minilm_attention.rank.col.verdict"),
        t("minilm_attention.ctrl.col.top"),
    )
    rows = pd.DataFrame(
        {
            sentence_col: [text for text, _ in texts],
            pair_col: [pair for _, pair in texts],
            weight_col: [f"{c.check.weight:.3f}" for c in checks],
            predicted_col: [f"{c.check.predicted.value:.3f}" for c in checks],
            verdict_col: [
                t(VERDICT_LABELS[c.check.verdict], ratio=f"{head_views.ABOVE_RATIO:g}")
                for c in checks
            ],
            top_col: tops,
        }
    )
    helps = {
        weight_col: t("minilm_attention.ctrl.help.weight"),
        predicted_col: t("minilm_attention.ctrl.help.predicted"),
        top_col: t("minilm_attention.ctrl.help.top"),
    }
    # Every row and every column in view: 23 sentences scrolled inside a 10-row box, and the
    # last column ran past the page's edge. Short headers (the long meaning in each help), each
    # column as wide as its longest cell.
    st.dataframe(
        rows,
        column_config={
            name: st.column_config.TextColumn(
                width=_fit([name, *rows[name]]),
                help=helps.get(name),
                alignment="right" if name in (weight_col, predicted_col) else None,
            )
            for name in rows.columns
        },
        hide_index=True,
        height=table_height(len(rows)),
    )
    label = options[chosen]
    said = [
        say(head_views.controls_summary(label, checks)),
        say(head_views.controls_claim(label, checks)),
        say(head_views.habit_claim(label, checks, firsts)),
    ]
    st.markdown(join_sentences([s for s in said if s]))
    if own:
        st.caption(t("minilm_attention.ctrl.own_left_out", sentence=own[0]))


def _fit(cells: list[str]) -> int:
    """Pixels a table column needs to show its longest cell (or header) whole: about 6.5 px a
    Latin character and 13 px a wide one (measured on the page: 54 letters take about 320 px),
    with room for the cell's padding and sort icon."""

    def width(text: str) -> float:
        return sum(13.0 if unicodedata.east_asian_width(ch) in "WF" else 6.5 for ch in text)

    return int(max(width(str(cell)) for cell in cells)) + 30


def _head_off(
    out: EncoderOutput,
    weights: np.ndarray,
    positions: list[int],
    backend: str,
    first: tuple[head_views.RankedHead, int, int],
) -> None:
    """One head switched off, and a control head of its layer (``head_views.control_head``) in a run
    of its own: how far the query's last hidden state and the sentence embedding move."""
    best, query, target = first
    st.header(t("minilm_attention.off.title"), divider="gray")
    n_layers, h = weights.shape[:2]
    names = token_labels(out.tokens, [query, target])  # "4 · his": a word can occur twice
    q_token, j_token = names[query], names[target]
    st.markdown(t("minilm_attention.off.body", others=h - 1, query=q_token, target=j_token))
    options = {layer * h + head: f"L{layer + 1}·H{head + 1}" for layer in range(n_layers)
               for head in range(h)}  # fmt: skip
    chosen = pick(t("minilm_attention.off.head"), OFF_HEAD_KEY, options, best.layer * h + best.head)
    layer, head = divmod(chosen, h)
    i, j = positions.index(query), positions.index(target)
    control = head_views.control_head(weights, layer, i, j, head)
    words = minilm_tokens.content_positions(out.tokens)
    last = out.hidden_states[-1]  # (n, d_model), every head on
    effects = []
    with st.spinner(t("model_widgets.minilm.computing")):
        for switched in (head, control):
            off_last, off_sentence = minilm_heads_off(out.text, backend, ((layer, switched),))
            effects.append(
                head_views.ablation_effect(
                    last, off_last, out.sentence_embedding, off_sentence, query, words
                )
            )
    labels = [options[layer * h + head], options[layer * h + control]]
    query_col, change_col = (
        t("minilm_attention.off.col.query", query=q_token),
        t("minilm_attention.off.col.change", query=q_token),
    )
    weight_col, sentence_col = (
        t("minilm_attention.off.col.weight", query=q_token, target=j_token),
        t("minilm_attention.off.col.sentence"),
    )
    cosine_format = f"%.{head_views.ABLATION_DECIMALS}f"
    st.dataframe(
        pd.DataFrame(
            {
                t("minilm_attention.off.col.run"): [
                    t("minilm_attention.off.row.all"),
                    t("minilm_attention.off.row.off", head=labels[0]),
                    t("minilm_attention.off.row.control", head=labels[1]),
                ],
                # the run with every head on has no head switched off: "—", not "None"
                weight_col: [
                    "—",
                    *(f"{weights[layer, k, i, j]:.3f}" for k in (head, control)),
                ],
                query_col: [1.0, *(e.query_cosine for e in effects)],
                change_col: [0.0, *(e.query_change for e in effects)],
                sentence_col: [1.0, *(e.sentence_cosine for e in effects)],
                t("minilm_attention.off.col.nearest", query=q_token): [
                    token_labels(out.tokens, [p])[p]  # "3 · 我": a word can occur twice
                    for p in (
                        head_views.nearest_token(last, query, words),
                        *(e.nearest for e in effects),
                    )
                ],
            }
        ),
        column_config={
            weight_col: st.column_config.TextColumn(alignment="right"),
            query_col: st.column_config.NumberColumn(format=cosine_format),
            change_col: st.column_config.NumberColumn(format=cosine_format),
            sentence_col: st.column_config.NumberColumn(format=cosine_format),
        },
        hide_index=True,
    )
    st.caption(t("minilm_attention.off.caption", query=q_token))
    off, ctl = effects
    verdict = head_views.ablation_verdict(off.query_change, ctl.query_change)
    digits = head_views.ABLATION_DECIMALS
    st.markdown(
        t(
            OFF_SAYS[verdict],
            head=labels[0],
            control=labels[1],
            query=q_token,
            change=f"{off.query_change:.{digits}f}",
            control_change=f"{ctl.query_change:.{digits}f}",
            ratio=f"{head_views.ABLATION_RATIO:g}",
            floor=f"{head_views.ABLATION_FLOOR:g}",
        )
    )


def _how_we_know() -> None:
    with st.expander(t("minilm_attention.know.title"), icon=":material/fact_check:"):
        st.markdown(
            t(
                "minilm_attention.know.body",
                share=f"{head_views.PATTERN_SHARE:g}",
                ratio=f"{head_views.ABOVE_RATIO:g}",
                total=len(head_views.POSSESSIVES),
                heads=CONFIG.n_layers * CONFIG.h,
                off_ratio=f"{head_views.ABLATION_RATIO:g}",
                floor=f"{head_views.ABLATION_FLOOR:g}",
            )
        )


def render() -> None:
    name = page_start("minilm_attention.title", caption="model_widgets.minilm.computed_with")
    if name is None:
        return
    backend = use_model(name)
    if backend is None:
        return
    out = run_with_spinner(current_sentence(), backend)
    if not minilm_tokens.has_content(out.tokens):
        st.info(t("common.empty_text"), icon=":material/edit_note:")
        return
    _forget_picks_of_another_sentence(out)
    _overview(out)
    hide = st.toggle(t("minilm_attention.hide"), key=HIDE_KEY, help=t("minilm_attention.hide_help"))
    weights, positions = _view(out, hide)
    labels = list(token_labels(out.tokens, positions).values())  # "3 · his", as the pickers
    rows = token_window(
        len(positions),
        MAX_GRID,
        WINDOW_KEY,
        help_id="minilm_attention.window_help",
        note="minilm_attention.window_note",
    )
    _grid(weights, labels, rows, out)
    _enlarged(weights, labels, rows, hidden=hide)
    _head_view(out, weights, positions, rows)
    first = _ranking(out, weights, positions, rows)
    _controls(out, hide, backend, first[0])
    _head_off(out, weights, positions, backend, first)
    _how_we_know()
    st.warning(t("minilm_attention.caveat"), icon=":material/psychology_alt:")
    solved_and_hurts(t("minilm_attention.solved"), t("minilm_attention.hurts"))


render()
