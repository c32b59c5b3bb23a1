"""The KV cache, step by step: SmolLM2 continues the sidebar's sentence greedily, and a slider
walks through the prefill and each decoding step: one layer's and head's cached keys and values
as they grow, the newest query's weights over them, the bytes and the work
(``topics.decoder_cache``, cached in ``caches.smollm2_cache_walk``). Holds no math.
"""

from __future__ import annotations

import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import smollm2_cache_walk
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import attention_weights, heatmap
from transformer_walk.app.i18n import current_language, join_names, markdown_literal, say, t
from transformer_walk.app.model_widgets import smollm2_model, smollm2_sentence
from transformer_walk.app.views.byte_text import piece_labels
from transformer_walk.app.views.labels import human_bytes, token_labels
from transformer_walk.app.widgets import (
    backend_within_budget,
    keep_valid_choice,
    page_start,
    solved_and_hurts,
)
from transformer_walk.models.smollm2 import PYTHON_QUANTIZED_SLOWDOWN, SmolLM2
from transformer_walk.topics import decoder_cache as cache
from transformer_walk.topics.claims import percent
from transformer_walk.topics.decoder_cache import CacheWalk

STEP_KEY, LAYER_KEY, HEAD_KEY = "cache_step", "cache_layer", "cache_head"
#: Prompt tokens the page keeps: the heatmaps draw one row per cached position.
MAX_TOKENS = 24
DIM_EVERY = 8  # the key and value heatmaps label every 8th of the d_head columns


def _prompt(model: SmolLM2) -> list[int] | None:
    """The sidebar's sentence as ids (at most ``MAX_TOKENS``), or None after saying why there is
    nothing to continue."""
    text = smollm2_sentence(model, MAX_TOKENS, "decoder_cache.too_long")
    return None if text is None else model.tokenize(text)[:MAX_TOKENS]


def _piece(model: SmolLM2, token: int) -> str:
    """A token's text as the pages show a piece: “␣dog”."""
    return f"“{piece_labels([model.tokenizer.token_bytes(token)])[0]}”"


def _quoted(model: SmolLM2, token: int) -> str:
    """``_piece`` for a Markdown sentence."""
    return markdown_literal(_piece(model, token))


def _step_text(model: SmolLM2, found: CacheWalk, step: int, pieces: list[str]) -> str:
    s = found.steps[step]
    text = pieces[s.start]  # the token as its row shows it
    chosen = _quoted(model, s.chosen)
    layers = model.config.n_layers
    if step == 0 and len(s.ids) == 1:
        return t("decoder_cache.prefill.body_one", layers=layers, chosen=chosen)
    if step == 0:
        return t("decoder_cache.prefill.body", n=len(s.ids), layers=layers, chosen=chosen)
    return t(
        "decoder_cache.decode.body", i=step, token=markdown_literal(f"“{text}”"),
        position=s.start + 1, length=s.length, chosen=chosen,
    )  # fmt: skip


def _cached_rows(model: SmolLM2, found: CacheWalk, step: int, labels: list[str]) -> None:
    """The chosen layer's and head's cached keys and values after ``step``, side by side."""
    cfg = model.config
    n = cfg.n_layers
    links.linked(LAYER_KEY, 0, range(n))
    links.linked(HEAD_KEY, 0, range(cfg.h))
    left, right = st.columns(2)
    layer = left.selectbox(t("decoder_cache.layer"), range(n), key=LAYER_KEY,
                           format_func=lambda i: str(i + 1))  # fmt: skip
    head = right.selectbox(t("decoder_cache.head"), range(cfg.h), key=HEAD_KEY,
                           format_func=lambda j: str(j + 1))  # fmt: skip
    kv = head // cfg.group
    shared = [str(j + 1) for j in range(kv * cfg.group, (kv + 1) * cfg.group) if j != head]
    st.markdown(t("decoder_cache.group", h=cfg.h, h_kv=cfg.h_kv, head=head + 1, kv=kv + 1,
                  shared=join_names(shared)))  # fmt: skip
    s = found.steps[step]
    rows = labels[: s.length]
    dims = [str(j + 1) if j % DIM_EVERY == 0 else "" for j in range(cfg.d_head)]
    dim_title = t("decoder_cache.axis.dim", d=cfg.d_head)
    for title, numbers in (
        ("decoder_cache.keys", found.keys),
        ("decoder_cache.values", found.values),
    ):
        st.markdown(f"**{t(title, layer=layer + 1, kv=kv + 1)}**")
        st.vega_lite_chart(
            chart_spec(
                heatmap, numbers[layer, kv, : s.length], rows, dims,  # (length, d_head)
                row_title=t("decoder_cache.axis.position"), col_title=dim_title,
                value_title=t("decoder_cache.axis.number"),
            ),
            width="content",
        )  # fmt: skip
    if step == 0 and s.length == 1:
        st.caption(t("decoder_cache.rows.prefill_one"))
    elif step == 0:
        st.caption(t("decoder_cache.rows.prefill", n=s.length))
    else:
        st.caption(t("decoder_cache.rows.decode", row=rows[-1], past=s.start))
    title = "decoder_cache.query.title_prefill" if step == 0 else "decoder_cache.query.title"
    st.markdown(f"**{t(title, layer=layer + 1, head=head + 1)}**")
    weights = s.weights[layer, head]  # (length,)
    stacked = (
        current_language() == "zh"
    )  # upright two-line labels: a turned Chinese word reads sideways
    st.vega_lite_chart(
        chart_spec(
            attention_weights, rows, weights, int(weights.argmax()),
            token_title=t("decoder_cache.axis.key"), weight_title=t("decoder_cache.axis.weight"),
            fmt=".0%", texts=[percent(float(w)) for w in weights], stacked=stacked,
        ),
        width="stretch",
    )  # fmt: skip
    if s.length == 1:
        st.caption(t("decoder_cache.query.one"))
    st.caption(t("decoder_cache.weights_caveat"))


def _cost(model: SmolLM2, found: CacheWalk, step: int) -> None:
    st.subheader(t("decoder_cache.cost.title"))
    s = found.steps[step]
    per = cache.cache_bytes(model)
    columns = st.columns(4)
    columns[0].metric(t("decoder_cache.metric.per_token"), human_bytes(per.per_token))
    columns[1].metric(t("decoder_cache.metric.now"), human_bytes(s.cache_bytes))
    columns[2].metric(t("decoder_cache.metric.step"), cache.millions(s.multiply_adds))
    columns[3].metric(
        t("decoder_cache.metric.recompute"), cache.millions(s.recompute_multiply_adds)
    )
    for said in (
        cache.bytes_claim(per, s.cache_bytes, s.length),
        cache.work_claim(model.config, s.start, s.length),
    ):
        if (text := say(said)) is not None:
            st.markdown(text)


def _walk(model: SmolLM2, selected: str) -> None:
    prompt = _prompt(model)
    if prompt is None:
        return
    cfg = model.config
    new = cache.NEW_TOKENS
    work = sum(cfg.multiply_adds(len(prompt) + i, scored=1) for i in range(new + 2))  # a bound
    backend = backend_within_budget(selected, int(PYTHON_QUANTIZED_SLOWDOWN * work))
    with st.spinner(t("decoder_cache.computing")):
        found = smollm2_cache_walk(tuple(prompt), new, backend)
    every = [int(i) for i in found.ids]
    pieces = piece_labels([model.tokenizer.token_bytes(i) for i in every])
    labels = list(token_labels(pieces).values())
    steps = range(len(found.steps))
    links.linked(STEP_KEY, 0, steps)
    keep_valid_choice(STEP_KEY, steps, 0)

    def step_name(i: int) -> str:
        if i == 0 and len(prompt) == 1:
            return t("decoder_cache.step.prefill_one")
        if i == 0:
            return t("decoder_cache.step.prefill", n=len(prompt))
        return t("decoder_cache.step.decode", i=i, token=f"“{pieces[found.steps[i].start]}”")

    names = {i: step_name(i) for i in steps}  # built in the run: format_func may be called later
    step = st.select_slider(
        t("decoder_cache.step"), steps, key=STEP_KEY, format_func=names.__getitem__
    )
    st.markdown(_step_text(model, found, step, pieces))
    _cached_rows(model, found, step, labels)
    _cost(model, found, step)
    st.subheader(t("decoder_cache.check.title"))
    if (said := say(cache.same_claim(found.last_logits, found.recomputed_logits))) is not None:
        st.markdown(said)
    else:  # the claim holds unless the cache is wrong: show the numbers, not a verdict
        st.error(
            t(
                "decoder_cache.check.failed",
                gap=f"{cache.gap(found.last_logits, found.recomputed_logits):.4f}",
                cached=_piece(model, int(found.last_logits.argmax())),
                recomputed=_piece(model, int(found.recomputed_logits.argmax())),
            )
        )


def render() -> None:
    selected = page_start("decoder_cache.title")
    st.markdown(t("decoder_cache.intro", new=cache.NEW_TOKENS))
    model = smollm2_model()
    if selected is not None and model is not None:
        _walk(model, selected)
    solved_and_hurts(t("decoder_cache.solved"), t("decoder_cache.hurts"))


render()
