"""A head that copies: the attention-only learner trained on random tokens with a repeated
stretch (task b), the loss on the second copy dropping in a jump, the prefix-matching and
previous-token scores of every head checkpoint by checkpoint, the two heads' attention at any
step, and heads switched off.

Renders ``transformer_walk.topics.learning.induction`` (trained once per server, kept on disk,
``app.caches.induction_study``); every sentence about a number comes from
``topics.learning.induction_claims``. Holds no math.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import induction_study, training_backend
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import heatmap
from transformer_walk.app.charts import learning as charts_learning
from transformer_walk.app.i18n import say, t
from transformer_walk.app.navigation import page_path
from transformer_walk.app.widgets import page_start
from transformer_walk.models.learner.params import param_shapes
from transformer_walk.models.learner.reading import read
from transformer_walk.topics.learning import induction
from transformer_walk.topics.learning.induction import Example, InductionStudy, RepeatTask
from transformer_walk.topics.learning.induction_claims import (
    first_copy_claim,
    induction_off_claim,
    jump_claim,
    prefix_claim,
    previous_claim,
    previous_off_claim,
)
from transformer_walk.topics.learning.name_head_claims import head_label

STEP_KEY = "copy_step"
#: The held-out sequence the page draws: the first of the held-out stream of the recipe's seed.
SHOWN_SEED = 3


def _shown_example() -> Example:
    return RepeatTask().example(np.random.default_rng([induction.SEED, SHOWN_SEED]))


def _model_line(study: InductionStudy, backend: str) -> None:
    config = study.config
    count = sum(int(np.prod(s)) for s in param_shapes(config, induction.VOCAB_SIZE).values())
    st.caption(
        t(
            "head_that_copies.model", layers=config.layers, h=config.h, d_model=config.d_model,
            d_k=config.d_k, vocab=induction.VOCAB_SIZE, params=f"{count:,}", steps=study.steps,
            batch=induction.BATCH_SIZE, lr=study.lr, backend=t(f"backend.{backend}"),
            seconds=f"{study.seconds:.1f}",
            disk=t("head_that_copies.from_disk") if study.from_disk else "",
        )
    )  # fmt: skip


def _sequence_markdown(example: Example) -> str:
    """The sequence's token ids, the first copy on a blue ground and the second on an orange one
    (Streamlit's coloured backgrounds), positions in the tooltip-free text as "3·17"."""
    first = range(example.first, example.first + example.length)
    second = range(example.second, example.second + example.length)
    words = []
    for position, token in enumerate(example.tokens):
        word = "BOS" if position == 0 else str(int(token))
        if position in first:
            word = f":blue-background[**{word}**]"
        elif position in second:
            word = f":orange-background[**{word}**]"
        words.append(word)
    return " ".join(words)


def _task(example: Example) -> None:
    st.header(t("head_that_copies.task.title"), divider="gray")
    st.markdown(
        t(
            "head_that_copies.task.body", n=induction.LENGTH, vocab=induction.VOCAB_SIZE - 1,
            min_seg=induction.MIN_SEGMENT, max_seg=induction.MAX_SEGMENT,
        )
    )  # fmt: skip
    st.markdown(_sequence_markdown(example))
    st.caption(
        f":blue-background[{t('head_that_copies.task.first')}] · "
        f":orange-background[{t('head_that_copies.task.second')}]"
    )


def _loss(study: InductionStudy) -> int:
    """The losses under the checkpoint slider; returns the checkpoint picked."""
    st.header(t("head_that_copies.loss.title"), divider="gray")
    choices = induction.VOCAB_SIZE - 1
    st.markdown(
        t("head_that_copies.loss.body", count=induction.HELD_OUT, choices=choices,
          guess=f"{math.log(choices):.2f}")
    )  # fmt: skip
    steps = list(study.checkpoint_steps)
    links.linked(STEP_KEY, steps[-1], steps)
    if st.session_state.get(STEP_KEY) not in steps:
        st.session_state[STEP_KEY] = steps[-1]
    step = int(st.select_slider(t("head_that_copies.step"), options=steps, key=STEP_KEY))
    names = [
        t("head_that_copies.loss.guess", choices=choices),
        t("head_that_copies.loss.second"),
        t("head_that_copies.loss.first"),
    ]
    curves = (
        [math.log(choices)] * len(steps),
        [float(x) for x in study.second_copy_loss],
        [float(x) for x in study.first_copy_loss],
    )
    frame = pd.DataFrame(
        [
            {"step": s, "loss": float(value), "series": name}
            for name, values in zip(names, curves, strict=True)
            for s, value in zip(steps, values, strict=True)
        ]
    )
    st.vega_lite_chart(
        chart_spec(
            charts_learning.loss_curves, frame, step, series_order=names,
            step_title=t("head_that_copies.loss.axis_step"),
            loss_title=t("head_that_copies.loss.axis_loss"),
            series_title=t("head_that_copies.curve"),
        ),
        width="stretch",
    )  # fmt: skip
    layer, head = study.induction_head
    said = [
        jump_claim(
            head_label(layer, head), study.jump_step, study.score_rise_step,
            float(study.second_copy_loss[0]), float(study.second_copy_loss[-1]),
        ),
        first_copy_claim(float(study.first_copy_loss[0]), float(study.first_copy_loss[-1])),
    ]  # fmt: skip
    for claim_ in said:
        if text := say(claim_):
            st.markdown(text)
    return step


def _score_chart(
    study: InductionStudy,
    step: int,
    series: list[tuple[str, np.ndarray]],
    uniform: float,
    title: str,
) -> None:
    names = [t("head_that_copies.scores.uniform"), *(name for name, _ in series)]
    values = [np.full(len(study.checkpoint_steps), uniform), *(v for _, v in series)]
    frame = pd.DataFrame(
        [
            {"step": s, "weight": float(w), "series": name}
            for name, ws in zip(names, values, strict=True)
            for s, w in zip(study.checkpoint_steps, ws, strict=True)
        ]
    )
    st.vega_lite_chart(
        chart_spec(
            charts_learning.weight_over_steps, frame, step, series_order=names,
            step_title=t("head_that_copies.loss.axis_step"), weight_title=title,
            series_title=t("head_that_copies.curve"),
        ),
        width="stretch",
    )  # fmt: skip


def _scores(study: InductionStudy, step: int) -> None:
    st.header(t("head_that_copies.scores.title"), divider="gray")
    st.markdown(t("head_that_copies.scores.body"))
    layer, head = study.induction_head
    prev_layer, prev_head = study.previous_token_head
    previous_name = head_label(prev_layer, prev_head)
    upper = [
        (head_label(layer, h), study.prefix_matching[:, layer, h]) for h in range(study.config.h)
    ]
    upper += [  # each head's control: the claim below speaks of every head that matches
        (t("head_that_copies.scores.no_repeat", head=head_label(layer, h)),
         study.prefix_matching_control[:, layer, h])
        for h in range(study.config.h)
    ]  # fmt: skip
    left, right = st.columns(2)
    with left:
        _score_chart(
            study, step, upper, study.prefix_matching_chance,
            t("head_that_copies.scores.prefix_axis"),
        )  # fmt: skip
    lower = [
        (head_label(prev_layer, h), study.previous_token[:, prev_layer, h])
        for h in range(study.config.h)
    ]
    with right:
        _score_chart(
            study, step, lower, study.previous_token_chance,
            t("head_that_copies.scores.previous_axis"),
        )  # fmt: skip
    said = [
        prefix_claim(
            study.prefix_matching[-1], study.prefix_matching_control[-1],
            study.prefix_matching_chance,
        ),
        previous_claim(
            previous_name, float(study.previous_token[-1, prev_layer, prev_head]),
            study.previous_token_chance,
        ),
    ]  # fmt: skip
    for claim_ in said:
        if text := say(claim_):
            st.markdown(text)


def _matrices(study: InductionStudy, example: Example, step: int) -> None:
    st.subheader(t("head_that_copies.matrix.title", step=step))
    st.markdown(t("head_that_copies.matrix.body"))
    reading = read(
        study.checkpoint_params[step], study.config, example.tokens, backend=training_backend()
    )
    labels = [
        f"{i + 1}·{'BOS' if i == 0 else int(token)}" for i, token in enumerate(example.tokens)
    ]
    for key, (layer, head) in (
        ("head_that_copies.matrix.induction", study.induction_head),
        ("head_that_copies.matrix.previous", study.previous_token_head),
    ):
        st.markdown(f"**{t(key, head=head_label(layer, head))}**")
        st.vega_lite_chart(
            chart_spec(
                heatmap, reading.attention[layer][0, head], labels, labels,
                row_title=t("head_that_copies.matrix.query"),
                col_title=t("head_that_copies.matrix.key"),
                value_title=t("head_that_copies.matrix.weight"), fmt=".1f", domain=(0.0, 1.0),
            ),
            width="content",
        )  # fmt: skip


def _switch_off(study: InductionStudy) -> None:
    st.header(t("head_that_copies.off.title"), divider="gray")
    st.markdown(t("head_that_copies.off.body"))
    a = study.ablations
    layer, head = study.induction_head
    prev_layer, prev_head = study.previous_token_head
    other = next(h for h, _ in a.each_other_head_off)
    other_loss = dict(a.each_other_head_off)[other]
    prev_other = next(h for h in range(study.config.h) if h != prev_head)

    def one(lay: int, h: int) -> str:
        return t("head_that_copies.off.one", head=head_label(lay, h))

    rows = [
        (t("head_that_copies.off.intact"), a.intact, "none"),
        (one(layer, head), a.head_off, "group"),
        (one(layer, other), other_loss, "others"),
        (t("head_that_copies.off.layer", layer=layer + 1), a.layer_off, "group"),
        (one(prev_layer, prev_head), a.previous_token_head_off, "group"),
        (one(prev_layer, prev_other), a.other_lower_heads_off, "others"),
        (t("head_that_copies.off.untrained"), a.untrained, "one"),
    ]
    frame = pd.DataFrame([{"label": n, "loss": v, "kind": k} for n, v, k in rows])
    choices = induction.VOCAB_SIZE - 1
    st.vega_lite_chart(
        chart_spec(
            charts_learning.ablation_bars, frame, math.log(choices),
            loss_title=t("head_that_copies.off.axis"),
            guess_label=t("head_that_copies.loss.guess", choices=choices),
        ),
        width="stretch",
    )  # fmt: skip
    said = [
        previous_off_claim(
            head_label(prev_layer, prev_head), head_label(prev_layer, prev_other),
            a.previous_token_head_off, a.other_lower_heads_off, a.intact, a.untrained,
        ),
        induction_off_claim(
            head_label(layer, head), head_label(layer, other), a.head_off, other_loss,
            a.layer_off, a.intact, a.untrained,
        ),
    ]  # fmt: skip
    for claim_ in said:
        if text := say(claim_):
            st.markdown(text)
    st.info(t("head_that_copies.caveat"), icon=":material/info:")
    st.page_link(page_path("decoder_copying.py"), label=t("head_that_copies.real"), icon="🔎")


def render() -> None:
    page_start("head_that_copies.title", caption=None, uses_backend=False)
    st.markdown(t("head_that_copies.intro"))
    backend = training_backend()
    try:
        study = induction_study(backend, _progress=t("head_that_copies.progress"))
    except RuntimeError:
        st.error(t("head_that_copies.failed"))
        return
    _model_line(study, backend)
    example = _shown_example()
    _task(example)
    step = _loss(study)
    _scores(study, step)
    _matrices(study, example, step)
    _switch_off(study)


render()
