"""Watch it learn: the learner trained on the possessive task (and its control) on this server,
the loss falling, one head's attention from the possessive's query moving to the name checkpoint
by checkpoint, the learner's own sentence read at any step, and heads switched off.

Renders ``transformer_walk.topics.learning.name_head`` (trained once per settings, kept on disk,
``app.caches.name_head_study``); every sentence about a number comes from
``topics.learning.name_head_claims``. Holds no math.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import name_head_study, training_backend
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import HALF, attention_weights, heatmap
from transformer_walk.app.charts import learning as charts_learning
from transformer_walk.app.charts.embeddings import word_map
from transformer_walk.app.i18n import (
    current_language,
    join_names,
    join_sentences,
    say,
    t,
    translated_radio,
)
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.trained_toy import CUT_KEYS, percent_cells
from transformer_walk.app.widgets import page_start
from transformer_walk.models.learner.params import INIT_STD, param_shapes
from transformer_walk.topics.claims import percent, token_label
from transformer_walk.topics.learning import inside
from transformer_walk.topics.learning.name_head import (
    EVAL_SENTENCES,
    FAR,
    GUESS_LOSS,
    NameHeadSettings,
    NameHeadStudy,
    name_heads,
    other_heads,
    read_sentence,
)
from transformer_walk.topics.learning.name_head_claims import (
    ablation_claim,
    above_guess_claim,
    far_claim,
    flat_start_claim,
    gender_claim,
    head_label,
    name_head_claim,
    names_apart_claim,
    names_first_claim,
    sentence_claim,
    sentence_not_claim,
    single_head_claim,
    wrong_possessive_claim,
)
from transformer_walk.topics.learning.pronouns import (
    LANGUAGES,
    PronounTask,
    Sentence,
    language_of,
    parse,
)

DATA_KEY = translated_radio("learn_data")
SEED_KEY = "learn_seed"
STEP_KEY = "learn_step"
SEEDS = [0, 1, 2, 3]
EXAMPLES = 4
#: The name of each language's data, written out so that the message id check finds them.
DATA_NAMES = {"en": "watch_it_learn.data.en", "zh": "watch_it_learn.data.zh"}
HINTS = {"en": "Anna sees the cat and loves her dog", "zh": "安娜看见猫，又爱她的狗"}


def label(position: int, word: str) -> str:
    """ "3 · his": a token by position (from 1) and text, so a repeated word stays two tokens."""
    return token_label(position + 1, word)


def default_data() -> str:
    """The data the learner's sentence is written in, else the page's language."""
    return language_of(current_sentence()) or current_language()


def _settings() -> NameHeadSettings:
    links.linked(DATA_KEY, default_data(), list(LANGUAGES))
    links.linked(SEED_KEY, SEEDS[0], SEEDS)
    if st.session_state.get(DATA_KEY) not in LANGUAGES:
        st.session_state[DATA_KEY] = default_data()
    left, right = st.columns(2)
    names = {code: t(DATA_NAMES[code]) for code in LANGUAGES}  # built in the run
    language = left.radio(
        t("watch_it_learn.data"),
        LANGUAGES,
        key=DATA_KEY,
        horizontal=True,
        format_func=names.__getitem__,
    )
    seed = right.select_slider(
        t("watch_it_learn.seed"), options=SEEDS, key=SEED_KEY, help=t("watch_it_learn.seed_help")
    )
    return NameHeadSettings(language=str(language), seed=int(seed))


def _model_line(study: NameHeadStudy, backend: str) -> None:
    config = study.settings.config
    task = PronounTask(study.settings.language)
    count = sum(int(np.prod(s)) for s in param_shapes(config, task.vocab_size).values())
    timing = "watch_it_learn.timing.disk" if study.from_disk else "watch_it_learn.timing.now"
    model = t(
        "watch_it_learn.model",
        layers=config.layers,
        h=config.h,
        d_model=config.d_model,
        d_k=config.d_k,
        d_ff=config.d_ff,
        params=f"{count:,}",
        steps=study.settings.steps,
        batch=task.batch_size,
        lr=study.settings.lr,
        backend=t(f"backend.{backend}"),
    )
    st.caption(join_sentences([model, t(timing, seconds=f"{study.seconds:.1f}")]))


def _task(task: PronounTask) -> None:
    st.header(t("watch_it_learn.task.title"), divider="gray")
    st.markdown(t("watch_it_learn.task.body", words=task.vocab_size - 1))
    rows = []
    for s in PronounTask(task.language, batch_size=EXAMPLES).sentences(0, 7):
        rows.append(
            {
                t("watch_it_learn.task.col.sentence"): " ".join(s.tokens),
                t("watch_it_learn.task.col.name"): label(
                    s.name_position, s.tokens[s.name_position]
                ),
                t("watch_it_learn.task.col.query"): label(
                    s.query_position, s.tokens[s.query_position]
                ),
                t("watch_it_learn.task.col.answer"): s.tokens[s.possessive_position],
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True)


def _loss(study: NameHeadStudy) -> int:
    """The loss curves under the checkpoint slider; returns the checkpoint picked."""
    st.header(t("watch_it_learn.loss.title"), divider="gray")
    st.markdown(t("watch_it_learn.loss.body", guess=f"{GUESS_LOSS:.3f}"))
    links.linked(STEP_KEY, study.steps[-1], list(study.steps))
    if st.session_state.get(STEP_KEY) not in study.steps:
        st.session_state[STEP_KEY] = study.steps[-1]
    step = int(
        st.select_slider(t("watch_it_learn.watch.step"), options=list(study.steps), key=STEP_KEY)
    )
    names = [
        t("watch_it_learn.loss.guess"),
        t("watch_it_learn.series.task"),
        t("watch_it_learn.series.control"),
    ]
    guess = [GUESS_LOSS] * len(study.losses)
    curves = (guess, study.losses, study.control_losses)
    frame = pd.DataFrame(
        [
            {"step": i + 1, "loss": max(loss, 1e-6), "series": name}
            for name, losses in zip(names, curves, strict=True)
            for i, loss in enumerate(losses)
        ]
    )
    st.vega_lite_chart(
        chart_spec(
            charts_learning.loss_curves,
            frame,
            step,
            series_order=names,
            step_title=t("watch_it_learn.loss.axis_step"),
            loss_title=t("watch_it_learn.loss.axis_loss_log"),
            series_title=t("watch_it_learn.loss.series"),
        ),
        width="stretch",
    )
    return step


def _shown_sentence(task: PronounTask, limit: int) -> tuple[Sentence, str, bool]:
    """The learner's sentence when the task's vocabulary holds a name → possessive in its first
    ``limit`` words (and a note of the words left out), else a generated one (and why); and
    whether it is the generated one."""
    parsed = parse(task, current_sentence(), limit)
    if parsed.sentence is not None:
        notes = [t("watch_it_learn.watch.yours")]
        if parsed.unknown:
            notes.append(
                t(
                    "watch_it_learn.watch.dropped",
                    words=task.vocab_size - 1,
                    unknown=join_names(list(parsed.unknown), most=8),
                )
            )
        if parsed.dropped:
            notes.append(t(CUT_KEYS[task.language], limit=limit, dropped=parsed.dropped))
        return parsed.sentence, join_sentences(notes), False
    example = PronounTask(task.language, batch_size=1).sentences(0, 3)[0]
    if not parsed.tokens and not parsed.unknown:  # nothing that reads as a word at all
        return example, t("watch_it_learn.watch.no_words"), True
    other = next(code for code in LANGUAGES if code != task.language)
    if parse(PronounTask(other), current_sentence()).sentence is not None:
        return example, t("watch_it_learn.watch.other_data", data=t(DATA_NAMES[other])), True
    return example, t("watch_it_learn.watch.example", hint=HINTS[task.language]), True


def _watch(study: NameHeadStudy, task: PronounTask, step: int) -> None:
    layer, head = study.watched_head
    watched = head_label(layer, head)
    config = study.settings.config
    sentence, note, generated = _shown_sentence(task, config.max_positions)
    reading = read_sentence(study.checkpoints[step], config, task, sentence, training_backend())
    tokens = [label(i, w) for i, w in enumerate(sentence.tokens)]
    query = tokens[sentence.query_position]
    name = tokens[sentence.name_position]
    if generated:  # the learner's own sentence is not what the model reads: say why, visibly
        st.info(note, icon=":material/info:")
    else:
        st.caption(note)
    st.markdown(t("watch_it_learn.watch.sentence", step=step, sentence=" ".join(sentence.tokens)))
    row = reading.weights[layer, head, : sentence.query_position + 1]  # causal: keys ≤ query
    st.markdown(f"**{t('watch_it_learn.watch.row_title', head=watched, query=query)}**")
    st.vega_lite_chart(
        chart_spec(
            attention_weights,
            tokens[: sentence.query_position + 1],
            row,
            int(np.argmax(row)),
            token_title=t("watch_it_learn.watch.axis_token"),
            weight_title=t("watch_it_learn.watch.axis_weight"),
            stacked=True,
            fmt=".0%",
            texts=percent_cells(row),  # as the claim below writes them
        ),
        width="stretch",
    )
    st.markdown(
        t(
            "watch_it_learn.watch.probs",
            query=query,
            his=task.words.his,
            her=task.words.her,
            p_his=percent(reading.his, 1),
            p_her=percent(reading.her, 1),
        )
    )
    if (wrong := say(wrong_possessive_claim(task, sentence, reading.his, reading.her))) is not None:
        st.warning(wrong, icon=":material/error:")
    chance_here = 1.0 / (sentence.query_position + 1)
    on_name = (watched, query, name, float(row[sentence.name_position]), chance_here)
    for said in (say(sentence_claim(*on_name)), say(sentence_not_claim(*on_name))):
        if said:
            st.markdown(said)
    if said := say(flat_start_claim(step, row, INIT_STD)):
        st.markdown(said)


def _weights(study: NameHeadStudy, step: int) -> None:
    layer, head = study.watched_head
    idle = study.idle_head
    watched, idle_name = head_label(layer, head), head_label(*idle)
    st.subheader(t("watch_it_learn.weight.title"))
    st.markdown(t("watch_it_learn.weight.body", count=EVAL_SENTENCES, idle=idle_name))
    series = [
        (t("watch_it_learn.weight.chance"), np.full(len(study.steps), study.chance)),
        (t("watch_it_learn.weight.watched", head=watched), study.name_weight[:, layer, head]),
        (
            t("watch_it_learn.weight.control", head=watched),
            study.control_name_weight[:, layer, head],
        ),
    ]
    if idle != (layer, head):
        series.append(
            (t("watch_it_learn.weight.idle", head=idle_name), study.name_weight[:, *idle])
        )
    frame = pd.DataFrame(
        [
            {"step": s, "weight": float(w), "series": name}
            for name, values in series
            for s, w in zip(study.steps, values, strict=True)
        ]
    )
    st.vega_lite_chart(
        chart_spec(
            charts_learning.weight_over_steps,
            frame,
            step,
            series_order=[name for name, _ in series],
            step_title=t("watch_it_learn.loss.axis_step"),
            weight_title=t("watch_it_learn.weight.axis"),
            series_title=t("watch_it_learn.loss.series"),
        ),
        width="stretch",
    )
    said = say(
        name_head_claim(
            watched,
            study.steps,
            [float(w) for w in study.name_weight[:, layer, head]],
            [float(w) for w in study.control_name_weight[:, layer, head]],
            float(study.control_name_weight[-1].max()),
            study.chance,
        )
    )
    if said:
        st.markdown(said)
    _gender_and_distance(study)
    index = study.steps.index(step)
    config = study.settings.config
    st.markdown(f"**{t('watch_it_learn.grid.title', step=step)}**")
    st.vega_lite_chart(
        chart_spec(
            heatmap,
            study.name_weight[index],
            [str(i + 1) for i in range(config.layers)],
            [str(h + 1) for h in range(config.h)],
            row_title=t("watch_it_learn.grid.layer"),
            col_title=t("watch_it_learn.grid.head"),
            value_title=t("watch_it_learn.weight.axis"),
            fmt=".0%",
            domain=(0.0, 1.0),
            width=320,
            # as the sentences above write them: ".0%" alone printed 99.8% as "100%"
            texts=percent_cells(study.name_weight[index]),
        ),
        width="content",
    )


def _gender_and_distance(study: NameHeadStudy) -> None:
    """The watched head's final weight on the name by the name's gender, and on names far from the
    query, each beside the claim the numbers allow."""
    layer, head = study.watched_head
    watched = head_label(layer, head)
    male, female = (float(w) for w in study.gender_weight[:, layer, head])
    losses = [float(x) for x in study.gender_loss]
    if said := say(gender_claim(watched, male, female, study.chance, losses, GUESS_LOSS)):
        st.markdown(said)  # it gives both numbers
    else:
        st.markdown(
            t(
                "watch_it_learn.weight.by_gender",
                head=watched,
                male=percent(male),
                female=percent(female),
                chance=percent(study.chance),
            )
        )
    far = float(study.far_weight[layer, head])
    if said := say(far_claim(watched, far, study.far_chance, study.far_count, FAR)):
        st.markdown(said)
    else:
        st.markdown(
            t(
                "watch_it_learn.weight.far",
                head=watched,
                far=FAR,
                count=study.far_count,
                weight=percent(far),
                chance=percent(study.far_chance),
            )
        )


ROLE_NAMES = {
    "male": "watch_it_learn.role.male", "female": "watch_it_learn.role.female",
    "verb": "watch_it_learn.role.verb", "noun": "watch_it_learn.role.noun",
    "place": "watch_it_learn.role.place", "possessive": "watch_it_learn.role.possessive",
    "other": "watch_it_learn.role.other",
}  # fmt: skip
#: Words per group in the score matrix: it stays legible in a half column.
SCORE_WORDS = 4


def _inside(study: NameHeadStudy, task: PronounTask) -> None:
    st.header(t("watch_it_learn.inside.title"), divider="gray")
    st.markdown(t("watch_it_learn.inside.body"))
    role_of = inside.roles(task)
    order = [t(ROLE_NAMES[r]) for r in inside.ROLES]
    first, last = study.steps[0], study.steps[-1]
    columns = st.columns(2)
    for column, step in zip(columns, (first, last), strict=True):
        mapped = inside.embedding_map(study.checkpoints[step], task)
        frame = pd.DataFrame(
            {
                "x": mapped.coords[:, 0],
                "y": mapped.coords[:, 1],
                "word": list(mapped.words),
                "category": [t(ROLE_NAMES[role_of[w]]) for w in mapped.words],
            }
        )
        title = t("watch_it_learn.inside.map", step=step, explained=percent(mapped.explained))
        column.vega_lite_chart(
            chart_spec(
                word_map, frame, title=title, category_title=t("watch_it_learn.inside.role"),
                category_order=order,
            ),
            width="stretch",
        )  # fmt: skip
    split = [
        inside.separation(study.checkpoints[s], task, *pick(task))
        for pick in (inside.gender_split, inside.control_split)
        for s in (first, last)
    ]
    if said := say(names_apart_claim(*split)):
        st.markdown(said)
    _scores(study, task)


def _scores(study: NameHeadStudy, task: PronounTask) -> None:
    layer, head = study.watched_head
    watched = head_label(layer, head)
    st.subheader(t("watch_it_learn.scores.title", head=watched))
    if layer != 0:
        st.caption(t("watch_it_learn.scores.later_layer", head=watched, layer=layer + 1))
        return
    st.markdown(t("watch_it_learn.scores.body"))
    w = task.words
    queries = list(w.verbs[:SCORE_WORDS])
    names = list(w.male[: SCORE_WORDS // 2] + w.female[: SCORE_WORDS // 2])
    nouns = list(w.nouns[:SCORE_WORDS])
    config = study.settings.config
    matrices = {
        s: inside.word_scores(study.checkpoints[s], config, task, head, queries, names + nouns)
        for s in (study.steps[0], study.steps[-1])
    }
    extent = max(float(np.abs(m).max()) for m in matrices.values()) or 1.0
    for column, (step, matrix) in zip(st.columns(2), matrices.items(), strict=True):
        column.markdown(f"**{t('watch_it_learn.scores.step', step=step)}**")
        column.vega_lite_chart(
            chart_spec(
                heatmap, matrix, queries, names + nouns,
                row_title=t("watch_it_learn.scores.query"),
                col_title=t("watch_it_learn.scores.key"),
                value_title=t("watch_it_learn.scores.value"), fmt=".1f",
                domain=(-extent, extent), width=HALF,
            ),
            width="content",
        )  # fmt: skip
    last = matrices[study.steps[-1]]
    if said := say(names_first_claim(watched, last[:, : len(names)], last[:, len(names) :])):
        st.markdown(said)


def _switch_off(study: NameHeadStudy) -> None:
    st.header(t("watch_it_learn.off.title"), divider="gray")
    st.markdown(t("watch_it_learn.off.body"))
    final = study.name_weight[-1]
    group = [head_label(*map(int, i)) for i in np.argwhere(name_heads(final, study.chance))]
    others = int(other_heads(final, study.chance).sum())
    others_count = others
    rows = [{"label": t("watch_it_learn.off.none"), "loss": study.base_loss, "kind": "none"}]
    rows += [
        {
            "label": t("watch_it_learn.off.one", head=head_label(lay, h)),
            "loss": float(v),
            "kind": "one",
        }
        for (lay, h), v in np.ndenumerate(study.single_off)
    ]
    if group:
        rows.append(
            {
                "label": t("watch_it_learn.off.group", count=len(group)),
                "loss": study.group_off,
                "kind": "group",
            }
        )
        rows.append(
            {
                "label": t("watch_it_learn.off.others", count=others),
                "loss": study.others_off,
                "kind": "others",
            }
        )
    st.vega_lite_chart(
        chart_spec(
            charts_learning.ablation_bars,
            pd.DataFrame(rows),
            GUESS_LOSS,
            loss_title=t("watch_it_learn.off.axis"),
            guess_label=t("watch_it_learn.loss.guess"),
        ),
        width="stretch",
    )
    claims = [
        say(single_head_claim(study.single_off, GUESS_LOSS)),
        say(
            ablation_claim(
                group, others_count, study.base_loss, study.group_off, study.others_off, GUESS_LOSS
            )
        ),
        say(above_guess_claim(study.group_off, study.group_off_right, GUESS_LOSS)) if group else "",
    ]
    for said in claims:
        if said:
            st.markdown(said)
    st.info(t("watch_it_learn.caveat"), icon=":material/info:")


def render() -> None:
    page_start("watch_it_learn.title", caption=None, uses_backend=False)
    st.markdown(t("watch_it_learn.intro"))
    settings = _settings()
    task = PronounTask(settings.language)
    backend = training_backend()
    study = name_head_study(settings, backend, _progress=t("watch_it_learn.progress"))
    _model_line(study, backend)
    _task(task)
    step = _loss(study)
    st.header(t("watch_it_learn.watch.title"), divider="gray")
    layer, head = study.watched_head
    st.markdown(t("watch_it_learn.watch.body", head=head_label(layer, head)))
    _watch(study, task, step)
    _weights(study, step)
    _inside(study, task)
    _switch_off(study)


render()
