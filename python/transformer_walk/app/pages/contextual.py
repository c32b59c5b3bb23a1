"""Contextual meaning: one word, two sentences — identical input vectors, hidden states that drift
apart layer by layer, read against a calibration of labelled same-sense / different-sense pairs
(``topics.senses``); sentence embeddings compared; one token's path through the layers.

Renders MiniLM's outputs (``caches``) and what ``views.minilm_vectors`` and ``topics.senses``
derive from them (cosines, distances, one PCA over every layer, AUC per layer, the verdicts the
calibration allows). Holds no math.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts
from transformer_walk.app.caches import minilm_embed, sense_calibration
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import HIGHLIGHT
from transformer_walk.app.charts import minilm as charts_minilm
from transformer_walk.app.i18n import say, t
from transformer_walk.app.model_widgets import run_with_spinner, use_model
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views import minilm_vectors as vector_views
from transformer_walk.app.views.labels import token_labels
from transformer_walk.app.views.latex import tex_words
from transformer_walk.app.widgets import (
    forget_picks_of_another_sentence,
    page_start,
    pick,
    solved_and_hurts,
)
from transformer_walk.models.minilm import EncoderOutput
from transformer_walk.topics import minilm_heads as head_views
from transformer_walk.topics import minilm_tokens, senses
from transformer_walk.topics.claims import percent

PAIR_KEYS = ("ctx_a", "ctx_b")
WORD_KEY = "ctx_word"
SENTENCES_KEY = "ctx_sentences"
TRACK_KEY = "ctx_track"
TOWARD_KEY = "ctx_toward"
PICKS_FOR_KEY = "ctx_picks_for"
DEFAULT_PAIR = ("I sat on the river bank.", "I deposited cash at the bank.")
DEFAULT_WORD = "bank"
DEFAULT_SENTENCES = (
    "I sat on the river bank.",
    "I deposited cash at the bank.",
    "The boat drifted towards the muddy shore.",
    "She withdrew money from her savings account.",
    "Tom loves his dog.",
)
MAX_SENTENCES = 12
#: The learner's pair in the highlight colour; same-sense pairs in blues, different-sense in greys.
CALIBRATION_COLOURS = (HIGHLIGHT, "#9ecae1", "#1f77b4", "#555555", "#b0b0b0")
LANGUAGE_NAMES = {
    "en": "contextual.cal.lang.en",
    "zh": "contextual.cal.lang.zh",
}  # calibrations by language


def _intro() -> None:
    st.markdown(t("contextual.intro"))
    st.latex(
        tex_words(t("contextual.tex.embedding"))
        + r" \neq "
        + tex_words(t("contextual.tex.contextual"))
    )


def _word_in(out: EncoderOutput, word: str) -> vector_views.WordInContext | None:
    return vector_views.word_in_context(
        out.text, word, out.offsets, out.embeddings.word, out.embeddings.out, out.hidden_states
    )


def _pair(backend: str) -> None:
    st.header(t("contextual.pair.title"), divider="gray")
    st.markdown(t("contextual.pair.body"))
    for key, default in zip(PAIR_KEYS, DEFAULT_PAIR, strict=True):
        st.session_state.setdefault(key, default)
    st.session_state.setdefault(WORD_KEY, DEFAULT_WORD)
    first, second, third = st.columns([5, 5, 2])
    a_text = first.text_input(t("contextual.pair.a"), key=PAIR_KEYS[0], max_chars=500)
    b_text = second.text_input(t("contextual.pair.b"), key=PAIR_KEYS[1], max_chars=500)
    word = third.text_input(t("contextual.pair.word"), key=WORD_KEY, max_chars=40)
    if not word.strip() or not a_text.strip() or not b_text.strip():
        st.info(t("contextual.pair.empty"), icon=":material/edit_note:")
        return
    a_out, b_out = run_with_spinner(a_text, backend), run_with_spinner(b_text, backend)
    a, b = _word_in(a_out, word), _word_in(b_out, word)
    missing = [text for text, found in ((a_text, a), (b_text, b)) if found is None]
    if missing or a is None or b is None:
        st.warning(
            t("contextual.pair.not_found", word=word.strip(), text=" / ".join(missing)),
            icon=":material/search_off:",
        )
        return
    st.caption(
        t(
            "contextual.pair.pieces",
            word=word.strip(),
            a=t("contextual.sim.word_sep").join(f"{a_out.tokens[p]} (#{p + 1})" for p in a.pieces),
            b=t("contextual.sim.word_sep").join(f"{b_out.tokens[p]} (#{p + 1})" for p in b.pieces),
        )
    )
    d = vector_views.drift(a, b)
    st.latex(
        r"\cos(\boldsymbol{u}, \boldsymbol{v}) = "
        r"\frac{\boldsymbol{u}\cdot\boldsymbol{v}}{\lVert\boldsymbol{u}\rVert\,\lVert\boldsymbol{v}\rVert}"
    )
    m1, m2, m3 = st.columns(3)
    m1.metric(t("contextual.metric.word"), f"{d.word:.3f}")
    m2.metric(
        t("contextual.metric.embedded"),
        f"{d.embedded:.3f}",
        help=t("contextual.metric.embedded_help"),
    )
    m3.metric(
        t("contextual.metric.last"), f"{d.layers[-1]:.3f}", delta=f"{d.layers[-1] - d.word:.3f}"
    )
    same_ids = [a_out.ids[p] for p in a.pieces] == [b_out.ids[p] for p in b.pieces]
    st.markdown(t("contextual.pair.same_rows") if same_ids else t("contextual.pair.other_rows"))
    if a.pieces == b.pieces:
        st.caption(t("contextual.pair.same_position", position=a.pieces[0] + 1))  # from 1, as above
    path = {"word": word.strip(), "first": f"{d.layers[0]:.3f}", "last": f"{d.layers[-1]:.3f}"}
    dip = vector_views.lowest_between(d.layers)
    if dip is None:
        st.markdown(t("contextual.pair.path", **path))
    else:
        st.markdown(t("contextual.pair.path_dip", **path, lowest=f"{d.layers[dip]:.3f}", at=dip))
    _against_calibration(word, d.layers)


def _calibration() -> dict[str, senses.Calibration]:
    with st.spinner(t("contextual.cal.computing", n=len(senses.sense_sentences()))):
        return sense_calibration()


def _against_calibration(word: str, cosines: np.ndarray) -> None:
    """The learner's pair beside the labelled pairs of its language, layer by layer, and the
    verdict the calibration allows (``senses.sense_claim``)."""
    st.subheader(t("contextual.cal.pair_title"))
    calibrations = _calibration()
    lang = senses.language_of(word)
    cal = calibrations[lang]
    st.markdown(
        t(
            {"en": "contextual.cal.pair_body.en", "zh": "contextual.cal.pair_body.zh"}[lang],
            n_same=len(cal.same),
            n_different=len(cal.different),
            words=cal.words,
        )
    )
    lines = {
        t("contextual.cal.series.yours"): cosines,
        t("contextual.cal.series.same_min"): cal.same.min(axis=0),
        t("contextual.cal.series.same_median"): np.median(cal.same, axis=0),
        t("contextual.cal.series.different_median"): np.median(cal.different, axis=0),
        t("contextual.cal.series.different_max"): cal.different.max(axis=0),
    }
    frame = pd.concat(
        [
            pd.DataFrame({"layer": range(len(v)), "value": v, "series": name})
            for name, v in lines.items()
        ]
    )
    st.vega_lite_chart(
        chart_spec(
            charts_minilm.per_layer_lines,
            frame,
            layer_title=t("contextual.axis.layer"),
            value_title=t("contextual.axis.cosine", word=word.strip()),
            series_title=t("contextual.axis.series"),
            series_order=list(lines),
            colours=CALIBRATION_COLOURS,
        ),
        width="stretch",
    )
    # Below the chart, at full width: beside it, the five columns were cut.
    table = pd.DataFrame({t("contextual.axis.layer"): range(len(cosines)), **lines})
    st.dataframe(
        table.set_index(t("contextual.axis.layer")),
        column_config={column: st.column_config.NumberColumn(format="%.3f") for column in lines},
    )
    said = say(senses.sense_claim(word, cosines, cal))
    if said is not None:
        st.markdown(said)
    _separation(calibrations)


def _separation(calibrations: dict[str, senses.Calibration]) -> None:
    """How well MiniLM's layers separate senses, per language: AUC by layer (a chart) and what
    the best layer allows (``senses.separation_claim``)."""
    st.subheader(t("contextual.cal.sep_title"))
    st.markdown(t("contextual.cal.sep_body"))
    names = {lang: t(LANGUAGE_NAMES[lang]) for lang in calibrations}
    frame = pd.concat(
        [
            pd.DataFrame({"layer": range(cal.layers), "value": cal.auc(), "series": names[lang]})
            for lang, cal in calibrations.items()
        ]
    )
    st.vega_lite_chart(
        chart_spec(
            charts_minilm.per_layer_lines,
            frame,
            layer_title=t("contextual.axis.layer"),
            value_title=t("contextual.cal.axis.auc"),
            series_title=t("contextual.cal.axis.language"),
            series_order=list(names.values()),
            domain=(0.0, 1.0),
        ),
        width="stretch",
    )
    table = pd.DataFrame(
        {t("contextual.axis.layer"): range(next(iter(calibrations.values())).layers)}
    )
    for lang, cal in calibrations.items():
        table[t("contextual.cal.col.auc", language=names[lang])] = cal.auc()
        table[t("contextual.cal.col.accuracy", language=names[lang])] = cal.accuracy()
    st.dataframe(
        table.set_index(t("contextual.axis.layer")),
        column_config={
            column: st.column_config.NumberColumn(format="%.2f")
            for column in table.columns
            if column != t("contextual.axis.layer")
        },
    )
    said = [say(senses.separation_claim(cal)) for cal in calibrations.values()]
    for sentence in said:
        if sentence is not None:
            st.markdown(sentence)
    st.caption(t("contextual.cal.source", sentences=len(senses.sense_sentences())))


def _listed(words: list[str]) -> str:
    return t("contextual.sim.word_sep").join(f"“{w}”" for w in words)


def _similarity(backend: str) -> None:
    st.header(t("contextual.sim.title"), divider="gray")
    st.markdown(t("contextual.sim.body"))
    st.session_state.setdefault(SENTENCES_KEY, "\n".join(DEFAULT_SENTENCES))
    raw = st.text_area(t("contextual.sim.input"), key=SENTENCES_KEY, height=150, max_chars=4000)
    sentences = [line.strip() for line in raw.splitlines() if line.strip()]
    if len(sentences) > MAX_SENTENCES:
        st.caption(t("contextual.sim.capped", shown=MAX_SENTENCES, n=len(sentences)))
        sentences = sentences[:MAX_SENTENCES]
    if len(sentences) < 2:
        st.info(t("contextual.sim.too_few"), icon=":material/edit_note:")
        return
    with st.spinner(t("contextual.sim.computing", n=len(sentences))):
        embeddings = minilm_embed(tuple(sentences), backend)  # (m, 384)
    sims = vector_views.cosine_matrix(embeddings)  # (m, m)
    labels = [f"{i + 1}. {s if len(s) <= 40 else s[:39] + '…'}" for i, s in enumerate(sentences)]
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            sims,
            labels,
            [str(i + 1) for i in range(len(sentences))],
            row_title=t("contextual.sim.sentence"),
            col_title=t("contextual.sim.sentence"),
            value_title="cos",
            domain=(-1.0, 1.0),
            width=charts.FULL * 3 // 5,  # the left of columns [3, 2]
        ),
        width="content",
    )
    i, j = vector_views.closest_pair(sims)
    closest = {"a": sentences[i], "b": sentences[j], "cos": f"{sims[i, j]:.3f}"}
    st.markdown(
        t(
            f"contextual.sim.closest.{vector_views.overlap_kind(sentences[i], sentences[j])}",
            **closest,
            words=_listed(vector_views.shared_words(sentences[i], sentences[j])),
            jaccard=f"{vector_views.word_overlap(sentences[i], sentences[j]):.2f}",
        )
    )
    pull = vector_views.overlap_pull(sims, sentences)
    if pull is not None:
        a, b, c = (sentences[x] for x in (pull.i, pull.j, pull.k))
        with_c = vector_views.shared_words(a, c)
        st.markdown(
            t(
                "contextual.sim.pull" if with_c else "contextual.sim.pull_none",
                a=a,
                b=b,
                c=c,
                cos_b=f"{sims[pull.i, pull.j]:.3f}",
                cos_c=f"{sims[pull.i, pull.k]:.3f}",
                words_b=_listed(vector_views.shared_words(a, b)),
                words_c=_listed(with_c),
                jaccard_b=f"{vector_views.word_overlap(a, b):.2f}",
                jaccard_c=f"{vector_views.word_overlap(a, c):.2f}",
            )
        )
    st.caption(t("contextual.sim.note"))


def _track(backend: str) -> None:
    st.header(t("contextual.track.title"), divider="gray")
    st.markdown(t("contextual.track.body"))
    out = run_with_spinner(current_sentence(), backend)
    content = minilm_tokens.content_positions(out.tokens)
    if len(content) < 2:
        st.info(t("contextual.track.too_short"), icon=":material/edit_note:")
        return
    forget_picks_of_another_sentence(out.tokens, (TRACK_KEY, TOWARD_KEY), PICKS_FOR_KEY)
    options = token_labels(out.tokens, content)
    left, right = st.columns(2)
    with left:
        i = pick(
            t("contextual.track.token"),
            TRACK_KEY,
            options,
            minilm_tokens.pronoun_query(out.tokens),
            linked=True,
        )
    with right:
        others = {p: label for p, label in options.items() if p != i}
        default, by_attention = minilm_tokens.default_toward(out.tokens, out.attentions, i)
        by_attention = by_attention and default in others  # not the query's own fallback
        default = default if default in others else next(iter(others))
        j = pick(t("contextual.track.toward"), TOWARD_KEY, others, default)
    if by_attention and j == default:
        weight = head_views.mean_weight(out.attentions, i, j)
        st.caption(
            t(
                "contextual.track.by_attention",
                preferred=minilm_tokens.DEFAULT_TARGETS[0],
                a=options[i],
                b=options[j],
                weight=f"{weight:.3f}",
                layers=out.attentions.shape[0],
                heads=out.attentions.shape[1],
            )
        )
    hidden = out.hidden_states[:, content]  # (L + 1, m, d): [CLS]/[SEP] left out of the picture
    projection = vector_views.pca_by_layer(hidden)
    names = list(token_labels(out.tokens, content).values())  # "18 · his", as the pickers
    coords = projection.coords  # (L + 1, m, 2)
    frame = pd.DataFrame(
        {
            "x": coords[..., 0].ravel(),
            "y": coords[..., 1].ravel(),
            "layer": np.repeat(np.arange(coords.shape[0]), coords.shape[1]),
            "token": names * coords.shape[0],
        }
    )
    a, b = content.index(i), content.index(j)
    st.vega_lite_chart(
        chart_spec(
            charts_minilm.token_paths,
            frame,
            layer_title=t("contextual.axis.layer"),
            token_title=t("contextual.track.token_axis"),
            highlight=[names[a], names[b]],
        ),
        width="stretch",
    )
    st.caption(t("contextual.track.variance", share=percent(projection.share), m=len(content)))
    dist = vector_views.distances_by_layer(out.hidden_states, i, j)
    ranks = vector_views.rank_among_tokens(out.hidden_states, i, j, content)
    table = pd.DataFrame(
        {
            t("contextual.axis.layer"): range(len(dist.cosine)),
            t("contextual.track.col.cos"): dist.cosine,
            t("contextual.track.col.dist"): dist.euclidean,
            t("contextual.track.col.rank"): [f"{r} / {len(content) - 1}" for r in ranks],
        }
    ).set_index(t("contextual.axis.layer"))
    st.dataframe(
        table,
        column_config={
            t("contextual.track.col.cos"): st.column_config.NumberColumn(format="%.3f"),
            t("contextual.track.col.dist"): st.column_config.NumberColumn(format="%.2f"),
        },
    )
    ti, tj = options[i], options[j]  # "3 · 行": a word can occur twice
    verdict = vector_views.drift_verdict(list(dist.cosine), [int(r) for r in ranks])
    st.markdown(
        t(
            f"contextual.track.{verdict}",
            a=ti,
            b=tj,
            first=f"{dist.cosine[0]:.3f}",
            last=f"{dist.cosine[-1]:.3f}",
            best=f"{dist.cosine.max():.3f}",
            at=dist.closest_layer,
            rank=ranks[-1],
            rank0=ranks[0],
            m=len(content) - 1,
        )
    )
    tide = vector_views.mean_cosine_to_others(out.hidden_states, i, content)  # (L + 1,)
    st.markdown(
        t(
            f"contextual.track.{vector_views.alike_verdict(float(tide[0]), float(tide[-1]))}",
            a=ti,
            o_first=f"{tide[0]:.3f}",
            o_last=f"{tide[-1]:.3f}",
        )
    )
    st.info(t("contextual.track.caveat", a=ti, b=tj), icon=":material/psychology_alt:")


def render() -> None:
    name = page_start("contextual.title", caption="model_widgets.minilm.computed_with")
    if name is None:
        return
    _intro()
    backend = use_model(name)
    if backend is None:
        return
    _pair(backend)
    _similarity(backend)
    _track(backend)
    with st.expander(t("contextual.know.title"), icon=":material/fact_check:"):
        st.markdown(t("contextual.know.body"))
    solved_and_hurts(t("contextual.solved"), t("contextual.hurts"))


render()
