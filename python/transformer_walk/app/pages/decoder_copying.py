"""Copying in SmolLM2: the heads that read a repeated stretch off its first copy, found by their
prefix-matching scores on repeated random tokens, switched off beside control heads, then watched
on the sidebar's sentence said twice (``topics.decoder_induction``, cached in ``caches``). Holds
no math.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import smollm2_attention, smollm2_copy_off, smollm2_copying_heads
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import HALF, heatmap
from transformer_walk.app.charts import decoder_copying as charts
from transformer_walk.app.charts import learning as charts_learning
from transformer_walk.app.i18n import join_names, say, t
from transformer_walk.app.model_widgets import smollm2_model
from transformer_walk.app.navigation import page_path
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.byte_text import piece_labels
from transformer_walk.app.views.labels import token_labels
from transformer_walk.app.widgets import backend_within_budget, page_start, solved_and_hurts
from transformer_walk.models.smollm2 import PYTHON_QUANTIZED_SLOWDOWN, SmolLM2
from transformer_walk.topics import decoder_induction as induction
from transformer_walk.topics.claims import percent
from transformer_walk.topics.decoder_attribution import Head
from transformer_walk.topics.decoder_induction import CopyingHeads, CopyLosses
from transformer_walk.topics.learning.name_head_claims import head_label

COUNT_KEY = "copying_heads_off"
#: Tokens of the sidebar's sentence (with its line break) said twice: 2 · 32 = 64 positions.
MAX_TOKENS = 32
SHOWN_HEADS = 8  # rows of the table of the highest scores
HEAD_CELL = 26  # px: the scores' grid, 30 rows


def _labels(heads: list[Head]) -> str:
    """ "L19·H7, L18·H5 and L18·H4", as the claims name heads (in the page's language)."""
    return join_names([head_label(*head) for head in heads])


def _forwards_work(model: SmolLM2, n: int, forwards: int) -> int:
    """The pure-Python-rate work of ``forwards`` forwards of n tokens (``core.budget``'s units)."""
    return int(PYTHON_QUANTIZED_SLOWDOWN * forwards * model.config.multiply_adds(n))


def _random(model: SmolLM2, selected: str) -> tuple[CopyingHeads, str]:
    """The random sequences, the copy losses and every head's score; returns them and the
    backend that computed them."""
    length = induction.LENGTH
    st.subheader(t("decoder_copying.random.title"))
    st.markdown(
        t("decoder_copying.random.body", draws=induction.DRAWS, length=length, n=2 * length)
    )
    forwards = 2 * induction.DRAWS + (2 + induction.CONTROL_DRAWS) * induction.HELD_OUT
    backend = backend_within_budget(selected, _forwards_work(model, 2 * length, forwards))
    with st.spinner(t("decoder_copying.computing")):
        found = smollm2_copying_heads(backend)
    if (said := say(induction.loss_claim(found.loss_first, found.loss_second))) is not None:
        st.markdown(said)
    return found, backend


def _scores(model: SmolLM2, found: CopyingHeads) -> None:
    st.subheader(t("decoder_copying.scores.title"))
    st.markdown(t("decoder_copying.scores.body", chance=percent(found.chance, 1)))
    cfg = model.config
    left, right = st.columns(2)
    with left:
        st.vega_lite_chart(
            chart_spec(
                heatmap, found.scores, [f"L{i + 1}" for i in range(cfg.n_layers)],
                [f"H{j + 1}" for j in range(cfg.h)], row_title=t("decoder_copying.axis.layer"),
                col_title=t("decoder_copying.axis.head"),
                value_title=t("decoder_copying.axis.score"), fmt=".0%", domain=(0.0, 1.0),
                width=HALF, max_cell=HEAD_CELL,
                texts=[percent(float(v)) for v in found.scores.ravel()],
            ),
            width="content",
        )  # fmt: skip
    with right:
        top = found.strongest(SHOWN_HEADS)
        st.dataframe(
            pd.DataFrame(
                {
                    t("decoder_copying.table.head"): [head_label(*h) for h in top],
                    t("decoder_copying.table.score"): [
                        percent(float(found.scores[h])) for h in top
                    ],
                    t("decoder_copying.table.control"): [
                        percent(float(found.control_scores[h]), 1) for h in top
                    ],
                }
            ),
            hide_index=True,
            width="stretch",
        )
    said = say(induction.heads_claim(found.scores, found.control_scores, found.chance))
    if said is not None:
        st.markdown(said)


def _loss_rows(losses: CopyLosses, heads: str) -> pd.DataFrame:
    rows = [(t("decoder_copying.off.intact"), losses.intact_loss, "none")]
    rows.append((t("decoder_copying.off.top", heads=heads), losses.off_loss, "group"))
    for i, (control, loss) in enumerate(zip(losses.controls, losses.control_losses, strict=True)):
        label = t("decoder_copying.off.control", i=i + 1, heads=_labels(control))
        rows.append((label, loss, "others"))
    return pd.DataFrame([{"label": n, "loss": v, "kind": k} for n, v, k in rows])


def _switch_off(model: SmolLM2, found: CopyingHeads, backend: str) -> list[Head]:
    """The strongest heads switched off on held-out sequences, beside controls drawn from the
    heads that do not copy; returns them."""
    st.subheader(t("decoder_copying.off.title"))
    links.linked(COUNT_KEY, induction.TOP, range(1, induction.MAX_TOP + 1))
    count = st.slider(
        t("decoder_copying.off.count"), 1, induction.MAX_TOP, induction.TOP, key=COUNT_KEY
    )
    heads = found.strongest(count)
    st.markdown(
        t("decoder_copying.off.body", held=induction.HELD_OUT, k=count,
          draws=induction.CONTROL_DRAWS)
    )  # fmt: skip
    with st.spinner(t("decoder_copying.off.computing")):
        losses = smollm2_copy_off(None, tuple(heads), tuple(found.copying()), backend)
    choices = model.config.vocab_size - len(model.tokenizer.special_ids)
    st.vega_lite_chart(
        chart_spec(
            charts_learning.ablation_bars, _loss_rows(losses, _labels(heads)), math.log(choices),
            loss_title=t("decoder_copying.off.axis"),
            guess_label=t("decoder_copying.off.guess", count=f"{choices:,}"),
        ),
        width="stretch",
    )  # fmt: skip
    said = induction.off_claim(
        [head_label(*h) for h in heads], losses.intact_loss, losses.off_loss,
        losses.control_losses,
    )  # fmt: skip
    if (text := say(said)) is not None:
        st.markdown(text)
    return heads


def _cell_texts(weights: np.ndarray) -> list[str]:
    """Each weight of [n, n] as the page prints a share, blank right of the diagonal: a token
    cannot look at later ones (the causal mask), so a 0 there is not a measured weight."""
    n = len(weights)
    return [percent(float(weights[i, j])) if j <= i else "" for i in range(n) for j in range(n)]


def _unit(model: SmolLM2) -> list[int] | None:
    """The sidebar's sentence and a line break as ids (at most ``MAX_TOKENS``), or None after
    saying why there is nothing to repeat."""
    text = current_sentence()
    if not text.strip():
        st.info(t("common.empty_text"), icon=":material/edit_note:")
        return None
    ids = model.tokenize(text + "\n")
    if len(ids) > MAX_TOKENS:
        st.info(
            t("decoder_copying.sentence.too_long", n=len(ids), kept=MAX_TOKENS - 1),
            icon=":material/content_cut:",
        )
        ids = model.tokenize(text)[: MAX_TOKENS - 1] + model.tokenize("\n")
    return ids


def _sentence(model: SmolLM2, found: CopyingHeads, heads: list[Head], selected: str) -> None:
    st.subheader(t("decoder_copying.sentence.title"))
    unit = _unit(model)
    if unit is None:
        return
    n = len(unit)
    ids = induction.twice(unit)  # (2n,)
    forwards = 3 + induction.CONTROL_DRAWS
    backend = backend_within_budget(selected, _forwards_work(model, 2 * n, forwards))
    strongest = heads[0]
    st.markdown(
        t("decoder_copying.sentence.body", n=n, head=head_label(*strongest), k=len(heads),
          draws=induction.CONTROL_DRAWS)
    )  # fmt: skip
    pieces = piece_labels([model.tokenizer.token_bytes(int(i)) for i in ids])
    labels = list(token_labels(pieces).values())
    with st.spinner(t("decoder_copying.sentence.computing")):
        weights = smollm2_attention(tuple(int(i) for i in ids), backend)[strongest]  # (2n, 2n)
        losses = smollm2_copy_off(tuple(unit), tuple(heads), tuple(found.copying()), backend)
    st.vega_lite_chart(
        chart_spec(
            heatmap, weights, labels, labels, row_title=t("decoder_copying.axis.query"),
            col_title=t("decoder_copying.axis.key"), value_title=t("decoder_copying.axis.weight"),
            fmt=".0%", domain=(0.0, 1.0), texts=_cell_texts(weights),
        ),
        width="content",
    )  # fmt: skip
    series = {
        t("decoder_copying.series.intact"): np.exp(-losses.intact[0]),
        t("decoder_copying.series.off", heads=_labels(heads)): np.exp(-losses.off[0]),
        t("decoder_copying.series.control"): np.exp(-losses.control_off[:, 0]).mean(axis=0),
    }  # each [n − 1]: the probability of each token of the second copy after its first
    st.vega_lite_chart(
        chart_spec(
            charts.copy_probabilities, labels[n + 1 :], series,
            token_title=t("decoder_copying.axis.token"), prob_title=t("decoder_copying.axis.prob"),
        ),
        width="stretch",
    )  # fmt: skip
    if n == 2:  # the sentence is one token and its line break: one token scored
        st.caption(t("decoder_copying.sentence.few", k=n - 1))
    said = induction.off_claim(
        [head_label(*h) for h in heads], losses.intact_loss, losses.off_loss,
        losses.control_losses,
    )  # fmt: skip
    for claim_ in (induction.sink_claim(weights, labels[0]), said):
        if (text := say(claim_)) is not None:
            st.markdown(text)
    st.caption(t("decoder_copying.caveat"))


def render() -> None:
    selected = page_start("decoder_copying.title")
    st.markdown(t("decoder_copying.intro"))
    st.page_link(page_path("head_that_copies.py"), label=t("decoder_copying.link"), icon="🎓")
    model = smollm2_model()
    if selected is not None and model is not None:
        found, backend = _random(model, selected)
        _scores(model, found)
        heads = _switch_off(model, found, backend)
        _sentence(model, found, heads, selected)
    solved_and_hurts(t("decoder_copying.solved"), t("decoder_copying.hurts"))


render()
