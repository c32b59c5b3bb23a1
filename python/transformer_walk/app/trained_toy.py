"""The switch a toy page offers between its random weights and the learner trained on the
possessive task (the Watch-it-learn page), and, when trained, the learner's reading of the
sidebar's sentence. Renders ``topics.learning``; holds no math.

The pieces each toy page shares: :func:`render_switch` draws the radio and, with "trained"
picked, reads the sentence with the trained learner (:func:`trained_reading`: the study, the
sentence cut into the task's words, or a friendly message when it holds no name → possessive),
then hands the reading to the page's own view. The Self-attention page shows the watched head
(:func:`watched_head`, the default view); the Multi-head page shows every head.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import name_head_study, training_backend
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import attention_weights, heatmap
from transformer_walk.app.i18n import (
    current_language,
    join_names,
    join_sentences,
    markdown_literal,
    say,
    t,
    translated_radio,
)
from transformer_walk.app.navigation import page_path
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import token_axis
from transformer_walk.topics.claims import percent
from transformer_walk.topics.learning.name_head import (
    NameHeadSettings,
    NameHeadStudy,
    SentenceReading,
    read_sentence,
)
from transformer_walk.topics.learning.name_head_claims import (
    head_label,
    sentence_claim,
    sentence_not_claim,
    wrong_possessive_claim,
)
from transformer_walk.topics.learning.pronouns import (
    Parsed,
    PronounTask,
    Sentence,
    language_of,
    parse,
)

MODELS = ("random", "trained")
MODEL_NAMES = {"random": "trained_toy.random", "trained": "trained_toy.trained"}
NAMED_UNKNOWN = 8  # words outside the vocabulary a note names before "…"
#: px: the cell a trained head's share fits in at the cells' 12-px font, the widest being
#: ">99.9%" (43 px); in a 44-px cell it did not, and the grid then printed no number at all.
PERCENT_CELL = 48
#: The note on words past the model's positions, by the task's language: only the Chinese task's
#: says that a Chinese token is a whole word (written out for the message id check).
CUT_KEYS = {"en": "watch_it_learn.watch.cut.en", "zh": "watch_it_learn.watch.cut.zh"}


@dataclass(frozen=True)
class TrainedReading:
    """The learner's sentence as the trained toy read it."""

    study: NameHeadStudy
    task: PronounTask
    sentence: Sentence
    reading: SentenceReading
    labels: list[str]  # "3 · his": every token by position and text

    @property
    def query(self) -> str:
        """The label of the word before the possessive, where the possessive is predicted."""
        return self.labels[self.sentence.query_position]

    @property
    def name(self) -> str:
        return self.labels[self.sentence.name_position]

    @property
    def possessive(self) -> str:
        return self.labels[self.sentence.possessive_position]

    @property
    def visible(self) -> int:
        """How many keys the query may see: itself and the tokens before it (causal)."""
        return self.sentence.query_position + 1

    @property
    def chance(self) -> float:
        """The weight on each key of a head that spreads evenly over the visible ones."""
        return 1.0 / self.visible


def model_switch(key: str) -> bool:
    """The radio (session key ``key``, linked to the address); whether "trained" is picked."""
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
    return choice == "trained"


def render_switch(key: str, show: Callable[[TrainedReading], None] | None = None) -> None:
    """The switch and, with "trained" picked, the sentence read by the trained toy, drawn by
    ``show`` (the watched head's matrix and row by default)."""
    if model_switch(key) and (found := trained_reading()) is not None:
        (show or watched_head)(found)


def sentence_task() -> PronounTask:
    """The task whose words the sidebar's sentence is read in: the language it is written in,
    else the page's."""
    return PronounTask(language_of(current_sentence()) or current_language())


def trained_reading() -> TrainedReading | None:
    """The sidebar's sentence read by the learner trained on the possessive task (trained on
    first use, with a progress bar), below a link to how it was trained and a note of the words
    it left out; None, after a friendly message, when the task's words hold no name followed by
    a possessive."""
    text = current_sentence()
    task = sentence_task()
    study = name_head_study(
        NameHeadSettings(language=task.language), training_backend(),
        _progress=t("watch_it_learn.progress"),
    )  # fmt: skip
    config = study.settings.config
    parsed = parse(task, text, config.max_positions)
    st.page_link(page_path("watch_it_learn.py"), label=t("trained_toy.more"), icon="🎓")
    if parsed.sentence is None:
        st.info(t("trained_toy.unreadable", words=task.vocab_size - 1), icon=":material/info:")
        return None
    if (note := _left_out(parsed, task, config.max_positions)) is not None:
        st.caption(note)  # the heatmaps' tokens are not the sidebar's: say which are missing
    sentence = parsed.sentence
    reading = read_sentence(study.params, config, task, sentence, training_backend())
    return TrainedReading(study, task, sentence, reading, token_axis(sentence.tokens))


def _left_out(parsed: Parsed, task: PronounTask, limit: int) -> str | None:
    """What the trained toy did not read of the sentence: words outside its vocabulary, words
    past its longest input; None when it read every word."""
    notes = []
    if parsed.unknown:
        words = [markdown_literal(word) for word in parsed.unknown]  # "a_b" is a \w+ word
        unknown = join_names(words, most=NAMED_UNKNOWN)
        notes.append(t("watch_it_learn.watch.dropped", words=task.vocab_size - 1, unknown=unknown))
    if parsed.dropped:
        notes.append(t(CUT_KEYS[task.language], limit=limit, dropped=parsed.dropped))
    return join_sentences(notes) or None


def possessive_lines(found: TrainedReading) -> None:
    """The model's probabilities of the two possessives at the query and, when it prefers the
    one the sentence does not have, the claim that says so (and whether the task ever trained
    on a sentence like it)."""
    words = found.task.words
    st.markdown(
        t(
            "watch_it_learn.watch.probs",
            query=found.query,
            his=words.his,
            her=words.her,
            p_his=percent(found.reading.his, 1),
            p_her=percent(found.reading.her, 1),
        )
    )
    wrong = wrong_possessive_claim(found.task, found.sentence, found.reading.his, found.reading.her)
    if (said := say(wrong)) is not None:
        st.warning(said, icon=":material/error:")


def percent_cells(weights: np.ndarray) -> list[str]:
    """Trained weights (a head's matrix or row), row-major, as the sentences beside them write
    them ("99.7%", where ".0%" alone would print "100%")."""
    return [percent(float(w)) for w in np.ravel(weights)]


def watched_head(found: TrainedReading) -> None:
    """The Self-attention page's view: the watched head's whole matrix, its row for the
    possessive's query as bars, and the claim the numbers allow."""
    sentence, reading, labels = found.sentence, found.reading, found.labels
    layer, head = found.study.watched_head
    watched = head_label(layer, head)
    st.markdown(t("trained_toy.reads", head=watched, sentence=" ".join(sentence.tokens)))
    st.vega_lite_chart(
        chart_spec(
            heatmap, reading.matrices[layer, head], labels, labels,
            row_title=t("trained_toy.query"), col_title=t("trained_toy.key"),
            value_title=t("trained_toy.weight"), fmt=".0%", domain=(0.0, 1.0),
            texts=percent_cells(reading.matrices[layer, head]), max_cell=PERCENT_CELL,
        ),
        width="content",
    )  # fmt: skip
    st.markdown(t("trained_toy.where", query=found.query, possessive=found.possessive))
    row = reading.weights[layer, head]
    shown = row[: found.visible]  # causal: keys ≤ query
    st.markdown(f"**{t('watch_it_learn.watch.row_title', head=watched, query=found.query)}**")
    st.vega_lite_chart(
        chart_spec(
            attention_weights,
            labels[: found.visible],
            shown,
            int(np.argmax(shown)),
            token_title=t("watch_it_learn.watch.axis_token"),
            weight_title=t("watch_it_learn.watch.axis_weight"),
            stacked=True,
            fmt=".0%",
            texts=percent_cells(shown),  # as the claim below writes them
        ),
        width="stretch",
    )
    on_name = (watched, found.query, found.name, float(row[sentence.name_position]), found.chance)
    for said in (say(sentence_claim(*on_name)), say(sentence_not_claim(*on_name))):
        if said:
            st.markdown(said)
    possessive_lines(found)
