"""Next token: SmolLM2-135M scores every token of its vocabulary for coming next; temperature,
top-k and top-p reshape those scores (``views.next_token.distribution``, the model's own
sampling rule), buttons append tokens one at a time, a causal head grows with them, the loss
along the prompt gives its perplexity, and the prefill and decode speeds and the key/value cache
are measured and computed. Holds no math: the cached logits come from ``caches``, what is derived
from them from ``views.next_token``.
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import smollm2_attention, smollm2_on, smollm2_scoring
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import next_token as charts
from transformer_walk.app.heavy_work import heavy_work
from transformer_walk.app.i18n import say, t
from transformer_walk.app.model_widgets import smollm2_model
from transformer_walk.app.sidebar import MAX_SENTENCE_CHARS
from transformer_walk.app.views import next_token as views
from transformer_walk.app.views.byte_text import piece_labels, text_html
from transformer_walk.app.views.labels import human_bytes, token_axis
from transformer_walk.app.widgets import (
    backend_within_budget,
    page_start,
    solved_and_hurts,
    table_height,
)
from transformer_walk.models.smollm2 import PYTHON_QUANTIZED_SLOWDOWN, SmolLM2

PROMPT_KEY, CHAT_KEY = "nt_prompt", "nt_chat"
DEFAULT_PROMPT = "Tom loves his"
TEMPERATURE_KEY, TOP_K_KEY, TOP_P_KEY = "nt_temperature", "nt_top_k", "nt_top_p"
LAYER_KEY, HEAD_KEY, STEP_KEY = "nt_layer", "nt_head", "nt_step"
STATE_KEY = "nt_generated"  # {"for": (prompt ids, backend), "steps": [...], "prefill", "decode"}
SHOWN_CANDIDATES = 10
GENERATE_COUNT = 20
MAX_NEW_TOKENS = 100  # the page's bound on a continuation (the context is the model's)


def _state(prompt_ids: tuple[int, ...], backend: str) -> dict[str, Any]:
    """The continuation kept for this prompt (a new prompt or backend starts empty)."""
    state = st.session_state.get(STATE_KEY)
    if state is None or state["for"] != (prompt_ids, backend):
        state = {
            "for": (prompt_ids, backend),
            "steps": [],
            "prefill": None,
            "decode": None,
            "stopped": False,
        }
        st.session_state[STATE_KEY] = state
    return state


def _step_record(step: Any) -> dict[str, Any]:
    """What the page keeps of a ``Step`` (plain values; session state outlives the model)."""
    return {
        "id": step.id, "p": step.probability, "sample_p": step.sample_probability,
        "top_ids": [int(i) for i in step.top_ids], "top_probs": [float(p) for p in step.top_probs],
        "top_sample": [float(p) for p in step.top_sample_probs], "seconds": step.seconds,
    }  # fmt: skip


@heavy_work()
def _generate(
    model: SmolLM2, state: dict[str, Any], count: int, sampler: dict[str, Any], shown: Any
) -> None:
    """Append up to ``count`` tokens to the kept continuation, redrawing ``shown`` (an
    st.empty) after each; a run of more than one token keeps its decode timing."""
    prompt_ids = state["for"][0]
    ids = [*prompt_ids, *(s["id"] for s in state["steps"])]
    room = min(MAX_NEW_TOKENS - len(state["steps"]), model.config.context_length - len(ids))
    count = min(count, room)
    if count <= 0 or state["stopped"]:
        return
    seconds: list[float] = []
    progress = st.progress(0.0, text=t("next_token.streaming", i=1, count=count))
    for step in model.stream(ids, count, candidates=SHOWN_CANDIDATES, **sampler):
        state["steps"].append(_step_record(step))
        seconds.append(step.seconds)
        progress.progress((step.index + 1) / count, text=t("next_token.streaming", i=step.index + 1,
                                                           count=count))  # fmt: skip
        _draw_text(model, state, shown)
        if step.id in model.tokenizer.end_ids:
            state["stopped"] = True
    progress.empty()
    if len(seconds) > 1:
        # One call times both, the same way: step 0 reads the whole text in one pass (and picks
        # the first new token), every later step is one token's forward over the cache.
        state["prefill"] = (len(ids), seconds[0])
        state["decode"] = (len(seconds) - 1, sum(seconds[1:]))


def _draw_text(model: SmolLM2, state: dict[str, Any], shown: Any) -> None:
    """The prompt and, highlighted, what was generated, literally (the model's text is not
    Markdown), as one element of the st.empty ``shown`` (a container there left the previous
    draw's text behind it)."""
    prompt = _bytes(model, state["for"][0])
    new = _bytes(model, [s["id"] for s in state["steps"]])
    none = (
        "" if state["steps"] else f'<p class="tw-note">{html.escape(t("next_token.text.none"))}</p>'
    )
    shown.html(text_html(prompt, new) + none)


def _bytes(model: SmolLM2, ids: Any) -> bytes:
    return b"".join(model.tokenizer.token_bytes(int(i)) for i in ids)


def _labels(model: SmolLM2, ids: Any, before: Any = ()) -> list[str]:
    """Each token of ``ids`` as it reads after the tokens ``before`` (a part of a character as
    its bytes and the character, ``byte_text.piece_labels``)."""
    tail = _bytes(model, list(before)[-4:])  # a character has at most four bytes
    return piece_labels([model.tokenizer.token_bytes(int(i)) for i in ids], before=tail)


def _sampler_controls() -> dict[str, Any]:
    links.linked(TEMPERATURE_KEY, 1.0, links.Span(0.0, 3.0, 0.05))
    left, mid, right = st.columns(3)
    with left:
        temperature = st.slider(t("next_token.temperature"), 0.0, 3.0, 1.0, 0.05,
                                key=TEMPERATURE_KEY,
                                help=t("next_token.temperature_help"))  # fmt: skip
    with mid:
        top_k = st.slider(
            t("next_token.top_k"), 0, 100, 0, 1, key=TOP_K_KEY, help=t("next_token.top_k_help")
        )
    with right:
        top_p = st.slider(t("next_token.top_p"), 0.05, 1.0, 1.0, 0.05, key=TOP_P_KEY,
                          help=t("next_token.top_p_help"))  # fmt: skip
    return {"temperature": float(temperature), "top_k": int(top_k) or None,
            "top_p": None if top_p >= 1.0 else float(top_p)}  # fmt: skip


def _candidates(
    model: SmolLM2, ids: list[int], last_logits: np.ndarray, sampler: dict[str, Any]
) -> None:
    st.subheader(t("next_token.candidates.title"))
    probs = views.distribution(last_logits, **sampler)
    top = views.top_candidates(last_logits, probs, SHOWN_CANDIDATES)
    labels = [_labels(model, [c.id], before=ids)[0] for c in top]
    chart = chart_spec(
        charts.candidate_bars, labels, [c.probability for c in top], 0,
        token_title=t("next_token.axis.token"), prob_title=t("next_token.axis.prob"),
    )  # fmt: skip
    st.vega_lite_chart(chart, width="stretch")
    if sampler["temperature"] == 0:
        st.caption(t("next_token.greedy_note"))
    st.markdown(t(
        "next_token.shape_reading", t=f"{sampler['temperature']:g}", best=labels[0],
        p=f"{top[0].probability:.1%}", kept=f"{np.count_nonzero(probs):,}",
        vocab=f"{model.config.vocab_size:,}",
    ))  # fmt: skip
    st.metric(t("next_token.metric.entropy"), f"{views.entropy_bits(probs):.2f}")


def _steps_viewer(model: SmolLM2, state: dict[str, Any]) -> None:
    steps = state["steps"]
    if not steps:
        return
    st.subheader(t("next_token.steps.title"))
    ids = [*state["for"][0], *(s["id"] for s in steps)]
    start = len(state["for"][0])
    picked = _labels(model, ids[start:], before=ids[:start])
    options = {
        i: t("next_token.steps.label", i=i + 1, piece=picked[i], p=f"{s['p']:.3f}")
        for i, s in enumerate(steps)
    }
    if st.session_state.get(STEP_KEY) not in options:
        st.session_state[STEP_KEY] = len(steps) - 1
    chosen = st.selectbox(t("next_token.steps.pick"), list(options),
                          format_func=options.__getitem__, key=STEP_KEY)  # fmt: skip
    step = steps[chosen]
    frame = pd.DataFrame({
        t("next_token.col.token"): [
            _labels(model, [i], before=ids[: start + chosen])[0] for i in step["top_ids"]
        ],
        t("next_token.col.model_p"): step["top_probs"],
        t("next_token.col.sample_p"): step["top_sample"],
        t("next_token.col.picked"): ["✔" if i == step["id"] else "" for i in step["top_ids"]],
    })  # fmt: skip
    probability = st.column_config.NumberColumn(format="%.4f")  # one precision for both columns
    st.dataframe(
        frame,
        hide_index=True,
        height=table_height(len(frame)),
        column_config={
            t("next_token.col.model_p"): probability,
            t("next_token.col.sample_p"): probability,
        },
    )


def _attention(model: SmolLM2, ids: list[int], backend: str) -> None:
    st.subheader(t("next_token.attn.title"))
    st.markdown(t("next_token.attn.body"))
    left, right = st.columns(2)
    with left:
        layer = st.slider(t("next_token.attn.layer"), 1, model.config.n_layers, 1, key=LAYER_KEY)
    with right:
        head = st.slider(t("next_token.attn.head"), 1, model.config.h, 1, key=HEAD_KEY)
    shown = ids[: views.ATTENTION_TOKENS]
    if len(ids) > len(shown):
        st.caption(t("next_token.attn.capped", n=len(ids), shown=len(shown)))
    weights = smollm2_attention(tuple(shown), backend)[layer - 1, head - 1]  # (m, m)
    labels = token_axis(_labels(model, shown))
    spec = chart_spec(
        charts.causal_heatmap, views.masked_attention(weights), labels,
        query_title=t("next_token.axis.query"), key_title=t("next_token.axis.key"),
        value_title=t("next_token.axis.weight"),
    )  # fmt: skip
    st.vega_lite_chart(spec, width="content")


def _loss(model: SmolLM2, prompt_ids: tuple[int, ...], losses: np.ndarray) -> None:
    st.subheader(t("next_token.loss.title"))
    st.markdown(t("next_token.loss.body"))
    ppl = views.perplexity(losses)
    key, fields = views.perplexity_reading(ppl, model.config.vocab_size)
    if ppl is not None:
        labels = token_axis(_labels(model, prompt_ids))[1:]  # the first token is not predicted
        st.vega_lite_chart(
            chart_spec(charts.loss_bars, labels, losses, token_title=t("next_token.axis.predicted"),
                             loss_title=t("next_token.axis.loss")),
            width="stretch",
        )  # fmt: skip
        left, right = st.columns(2)
        left.metric(t("next_token.metric.loss"), f"{float(np.mean(losses)):.3f}")
        right.metric(t("next_token.metric.ppl"), f"{ppl:,.1f}")
    st.markdown(t(key, **fields))
    if ppl is not None:
        labels = token_axis(_labels(model, prompt_ids))[1:]
        if (one := say(views.one_token_loss(losses, labels))) is not None:
            st.markdown(one)


def _speed_and_cache(model: SmolLM2, state: dict[str, Any], n_total: int) -> None:
    st.subheader(t("next_token.speed.title"))
    st.markdown(t("next_token.speed.body"))
    read, decoded = state.get("prefill"), state["decode"]
    prefill = None if read is None else views.tokens_per_second(*read)
    decode = None if decoded is None else views.tokens_per_second(*decoded)
    names, rates = [], []
    if prefill is not None and read is not None:
        names.append(t("next_token.speed.prefill", n=read[0]))
        rates.append(prefill)
    if decode is not None and decoded is not None:
        names.append(t("next_token.speed.decode", n=decoded[0]))
        rates.append(decode)
    if rates:
        bars = chart_spec(charts.speed_bars, names, rates, rate_title=t("next_token.axis.rate"))
        st.vega_lite_chart(bars, width="stretch")
    key, fields = views.speed_reading(prefill, decode)
    st.markdown(t(key, **fields))

    st.subheader(t("next_token.cache.title"))
    cfg = model.config
    size = views.cache_size(cfg, n_total)
    st.markdown(t("next_token.cache.body", layers=cfg.n_layers, h_kv=cfg.h_kv, d_head=cfg.d_head,
                  per_token=human_bytes(size.per_token)))  # fmt: skip
    left, right = st.columns(2)
    left.metric(t("next_token.metric.cache_token"), human_bytes(size.per_token))
    right.metric(t("next_token.metric.cache_total", n=n_total), human_bytes(size.total))
    st.markdown(t(
        "next_token.cache.gqa", h=cfg.h, h_kv=cfg.h_kv, total=human_bytes(size.total),
        total_full=human_bytes(size.total_full), saving=f"{size.saving:.0%}",
    ))  # fmt: skip


def render() -> None:
    selected = page_start("next_token.title")
    st.markdown(t("next_token.intro"))
    if selected is None:
        return
    links.linked(PROMPT_KEY, DEFAULT_PROMPT, links.Text(MAX_SENTENCE_CHARS))
    prompt = st.text_area(t("next_token.prompt"), DEFAULT_PROMPT, max_chars=MAX_SENTENCE_CHARS,
                          key=PROMPT_KEY, help=t("next_token.prompt_help"), height=90)  # fmt: skip
    loaded = smollm2_model()
    if loaded is None:
        return
    chat = st.toggle(t("next_token.chat"), key=CHAT_KEY, help=t("next_token.chat_help"),
                     disabled=loaded.tokenizer.chat_template is None)  # fmt: skip
    if chat and prompt.strip() and loaded.tokenizer.chat_template is not None:
        prompt = loaded.tokenizer.chat(prompt)
    prompt_ids = tuple(loaded.tokenize(prompt))
    if not prompt_ids:
        st.info(t("next_token.empty"), icon=":material/edit_note:")
        return
    cfg = loaded.config
    work = int(cfg.multiply_adds(len(prompt_ids)) * PYTHON_QUANTIZED_SLOWDOWN)
    backend = backend_within_budget(selected, work)
    model = smollm2_on(backend)
    state = _state(prompt_ids, backend)
    ids = [*prompt_ids, *(s["id"] for s in state["steps"])]
    if len(ids) > cfg.context_length:
        st.warning(t("next_token.too_long", n=len(ids), context=cfg.context_length))
        return
    pieces = _labels(model, prompt_ids)
    st.caption(t("next_token.tokens", n=len(pieces), tokens=" · ".join(pieces)))
    left, right = st.columns(2)
    left.metric(t("next_token.metric.n"), len(prompt_ids))
    right.metric(t("next_token.metric.vocab"), f"{cfg.vocab_size:,}")

    sampler = _sampler_controls()
    buttons = st.columns(4)
    asked = {
        "next": buttons[0].button(t("next_token.next"), key="nt_next"),
        "sample": buttons[1].button(t("next_token.sample"), key="nt_sample"),
        "generate": buttons[2].button(
            t("next_token.generate", count=GENERATE_COUNT), key="nt_generate"
        ),
    }
    if buttons[3].button(t("next_token.reset"), key="nt_reset"):
        state.update(steps=[], prefill=None, decode=None, stopped=False)
    st.caption(t("next_token.buttons_help", count=GENERATE_COUNT, most=MAX_NEW_TOKENS))
    st.subheader(t("next_token.text.title"))
    shown = st.empty()
    _draw_text(model, state, shown)
    if asked["next"]:
        _generate(model, state, 1, {"temperature": 0.0}, shown)
    elif asked["sample"]:
        _generate(model, state, 1, sampler, shown)
    elif asked["generate"]:
        _generate(model, state, GENERATE_COUNT, sampler, shown)
    if state["stopped"]:
        st.info(t("next_token.stopped"), icon=":material/stop_circle:")
    elif len(state["steps"]) >= MAX_NEW_TOKENS:
        st.info(t("next_token.full", most=MAX_NEW_TOKENS), icon=":material/block:")
    ids = [*prompt_ids, *(s["id"] for s in state["steps"])]

    with st.spinner(t("next_token.scoring")):
        last_logits, _, _ = smollm2_scoring(tuple(ids), backend)
        _, prompt_losses, _ = smollm2_scoring(prompt_ids, backend)
    _candidates(model, ids, last_logits, sampler)
    _steps_viewer(model, state)
    _attention(model, ids, backend)
    _loss(model, prompt_ids, prompt_losses)
    _speed_and_cache(model, state, len(ids))
    solved_and_hurts(t("next_token.solved"), t("next_token.hurts"))


render()
