"""The switch a toy page offers between its random weights and the learner trained on the
possessive task (the Watch-it-learn page), and, when trained, the learner's attention for the
sidebar's sentence: the watched head's whole matrix, its row for the possessive's query, and
the claim the numbers allow. Renders ``topics.learning``; holds no math."""

from __future__ import annotations

import numpy as np
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import name_head_study, training_backend
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import attention_weights, heatmap
from transformer_walk.app.i18n import current_language, say, t, translated_radio
from transformer_walk.app.navigation import page_path
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import token_axis
from transformer_walk.topics.learning.name_head import NameHeadSettings, read_sentence
from transformer_walk.topics.learning.name_head_claims import head_label, sentence_claim
from transformer_walk.topics.learning.pronouns import PronounTask, language_of, parse

MODELS = ("random", "trained")
MODEL_NAMES = {"random": "trained_toy.random", "trained": "trained_toy.trained"}


def render_switch(key: str) -> None:
    """The radio (session key ``key``) and, with "trained" picked, the trained reading."""
    links.linked(key, MODELS[0], list(MODELS))
    names = {m: t(MODEL_NAMES[m]) for m in MODELS}  # built in the run: AppTest formats later
    choice = st.radio(
        t("trained_toy.switch"),
        MODELS,
        key=translated_radio(key),
        horizontal=True,
        format_func=names.__getitem__,
        help=t("trained_toy.switch_help"),
    )
    if choice == "trained":
        _trained_reading()


def _trained_reading() -> None:
    text = current_sentence()
    language = language_of(text) or current_language()
    task = PronounTask(language)
    study = name_head_study(
        NameHeadSettings(language=language), training_backend(),
        _progress=t("watch_it_learn.progress"),
    )  # fmt: skip
    config = study.settings.config
    parsed = parse(task, text, config.max_positions)
    st.page_link(page_path("watch_it_learn.py"), label=t("trained_toy.more"), icon="🎓")
    if parsed.sentence is None:
        st.info(t("trained_toy.unreadable", words=task.vocab_size - 1), icon=":material/info:")
        return
    sentence = parsed.sentence
    reading = read_sentence(study.params, config, task, sentence, training_backend())
    layer, head = study.watched_head
    watched = head_label(layer, head)
    labels = token_axis(sentence.tokens)
    st.markdown(t("trained_toy.reads", head=watched, sentence=" ".join(sentence.tokens)))
    st.vega_lite_chart(
        chart_spec(
            heatmap, reading.matrices[layer, head], labels, labels,
            row_title=t("trained_toy.query"), col_title=t("trained_toy.key"),
            value_title=t("trained_toy.weight"), domain=(0.0, 1.0),
        ),
    )  # fmt: skip
    query = labels[sentence.query_position]
    st.markdown(
        t(
            "trained_toy.where",
            query=query,
            possessive=labels[sentence.possessive_position],
        )
    )
    row = reading.weights[layer, head]
    shown = row[: sentence.query_position + 1]  # causal: keys ≤ query
    st.markdown(f"**{t('watch_it_learn.watch.row_title', head=watched, query=query)}**")
    st.vega_lite_chart(
        chart_spec(
            attention_weights,
            labels[: sentence.query_position + 1],
            shown,
            int(np.argmax(shown)),
            token_title=t("watch_it_learn.watch.axis_token"),
            weight_title=t("watch_it_learn.watch.axis_weight"),
            stacked=True,
        ),
        width="stretch",
    )
    said = say(
        sentence_claim(
            watched,
            query,
            labels[sentence.name_position],
            float(row[sentence.name_position]),
            1.0 / (sentence.query_position + 1),
        )
    )
    if said:
        st.markdown(said)
