"""Inside the decoder: what each of SmolLM2's layers would predict for the sidebar's sentence,
read through the model's own final norm and output layer (``SmolLM2.lens``, cached in
``caches.smollm2_lens``), with the claims of ``topics.decoder_lens``. Holds no math.
"""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from transformer_walk.app import links
from transformer_walk.app.caches import smollm2_attribution, smollm2_lens
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import HALF, heatmap
from transformer_walk.app.charts import inside_decoder as charts
from transformer_walk.app.i18n import markdown_literal, say, t
from transformer_walk.app.model_widgets import smollm2_model, smollm2_sentence
from transformer_walk.app.views.byte_text import piece_labels
from transformer_walk.app.views.labels import token_labels
from transformer_walk.app.widgets import (
    backend_within_budget,
    keep_valid_choice,
    page_start,
    solved_and_hurts,
    table_height,
)
from transformer_walk.models.smollm2 import (
    PYTHON_QUANTIZED_SLOWDOWN,
    LogitLens,
    SmolLM2,
)
from transformer_walk.topics import decoder_attribution as attribution
from transformer_walk.topics import decoder_lens as lens_claims
from transformer_walk.topics.claims import percent

POSITION_KEY = "id_position"
SHOWN = 3  # the top tokens each layer's row of the table names
#: Tokens the page reads: the attribution keeps a trace of every layer (about 1 MB a token).
MAX_TOKENS = 64
TOP_HEADS = 3  # the heads switched off together
CONTROL_DRAWS = 5  # sets of control heads, each as many heads of the same layers
HEAD_CELL = 26  # px: the heads' grid, 30 rows


def _piece(model: SmolLM2, token: int) -> str:
    """A candidate token's text as the pages show a piece (spaces marked, bytes spelled)."""
    return piece_labels([model.tokenizer.token_bytes(int(token))])[0]


def _probability(lens: LogitLens, layer: int, p: float) -> str:
    """A probability of ``layer``'s reading as the page prints it. A top token's can be exactly
    1.0 in float64 while the next is still above 0 (1 − 1e-30 is 1.0): it is then printed as
    the bound below 1, not "100%"."""
    runner_up = float(lens.top_probs[layer, 0, 1]) if lens.top_probs.shape[-1] > 1 else 0.0
    return percent(math.nextafter(1.0, 0.0) if p >= 1.0 and runner_up > 0.0 else p, 1)


def _text(model: SmolLM2) -> tuple[str, dict[int, str]] | None:
    """The sidebar's sentence cut to what the lens reads, and its token labels; None (after
    saying why) when there is no sentence."""
    text = smollm2_sentence(model, MAX_TOKENS, "inside_decoder.too_long")
    if text is None:
        return None
    ids = model.tokenize(text)
    pieces = piece_labels([model.tokenizer.token_bytes(int(i)) for i in ids])
    return text, token_labels(pieces)


def _lens(model: SmolLM2, selected: str) -> None:
    found = _text(model)
    if found is None:
        return
    text, labels = found
    n, cfg = len(labels), model.config
    links.linked(POSITION_KEY, n - 1, range(n))
    keep_valid_choice(POSITION_KEY, range(n), n - 1)
    position = st.selectbox(
        t("inside_decoder.position"), range(n), key=POSITION_KEY,
        format_func=labels.__getitem__, help=t("inside_decoder.position_help"),
    )  # fmt: skip
    # the forward, then the layers' 31 rows through the output layer
    work = cfg.multiply_adds(n) + (cfg.n_layers + 1) * cfg.d_model * cfg.vocab_size
    backend = backend_within_budget(selected, int(PYTHON_QUANTIZED_SLOWDOWN * work))
    with st.spinner(t("inside_decoder.computing")):
        lens = smollm2_lens(text, position, SHOWN, backend)
    query = labels[position]
    choice = _piece(model, int(lens.chosen[0]))
    places = [int(r) + 1 for r in lens.chosen_rank[:, 0]]  # 1 = the top
    vocab = cfg.vocab_size

    st.subheader(t("inside_decoder.choice.title"))
    st.markdown(
        t(
            "inside_decoder.choice.body", query=markdown_literal(query),
            choice=markdown_literal(choice),
            prob=_probability(lens, cfg.n_layers, float(lens.chosen_prob[-1, 0])),
            vocab=f"{vocab:,}",
        )
    )  # fmt: skip
    chart = chart_spec(
        charts.places_by_layer, places, lens_claims.chance_place(vocab), vocab,
        layer_title=t("inside_decoder.axis.layer"), place_title=t("inside_decoder.axis.place"),
        choice_name=t("inside_decoder.series.choice"),
        chance_name=t("inside_decoder.series.chance"),
    )  # fmt: skip
    st.vega_lite_chart(chart, width="stretch")
    own = lens_claims.own_token_claim(int(lens.top_ids[0, 0, 0]), int(lens.ids[position]), query)
    for said in (say(lens_claims.choice_claim(places, query, f"“{choice}”", vocab)), say(own)):
        if said:
            st.markdown(said)
    _table(model, lens, places, f"“{choice}”")
    st.caption(t("inside_decoder.caveat"))
    _attribution(model, text, position, int(lens.chosen[0]), choice, backend)


def _attribution(
    model: SmolLM2, text: str, position: int, token: int, choice: str, backend: str
) -> None:
    """The chosen token's logit split over heads and MLPs, and its top heads switched off
    beside control heads of the same layers. ``choice`` is the token's piece, unquoted."""
    cfg = model.config
    st.subheader(t("inside_decoder.attr.title", choice=markdown_literal(choice)))
    st.markdown(t("inside_decoder.attr.body"))
    with st.spinner(t("inside_decoder.attr.computing")):
        found, check = smollm2_attribution(text, position, token, TOP_HEADS, CONTROL_DRAWS, backend)
    if (said := say(attribution.sum_claim(found))) is not None:
        st.markdown(said)
    left, right = st.columns(2)
    with left:
        st.markdown(f"**{t('inside_decoder.attr.heads')}**")
        st.vega_lite_chart(
            chart_spec(
                heatmap, found.heads, [f"L{i + 1}" for i in range(cfg.n_layers)],
                [f"H{j + 1}" for j in range(cfg.h)], row_title=t("inside_decoder.axis.block"),
                col_title=t("inside_decoder.axis.head"),
                value_title=t("inside_decoder.axis.term"), fmt="+.2f", width=HALF,
                max_cell=HEAD_CELL,
            ),
            width="content",
        )  # fmt: skip
    with right:
        st.markdown(f"**{t('inside_decoder.attr.mlps')}**")
        st.vega_lite_chart(
            chart_spec(
                charts.terms_by_layer, found.mlps, layer_title=t("inside_decoder.axis.block"),
                term_title=t("inside_decoder.axis.term"),
            ),
            width="stretch",
        )  # fmt: skip
    labels = [f"L{layer + 1}·H{head + 1}" for layer, head in check.heads]
    said = say(
        attribution.ablation_claim(labels, f"“{choice}”", check.change, check.control_changes)
    )
    if said is not None:
        st.markdown(said)


def _table(model: SmolLM2, lens: LogitLens, places: list[int], choice: str) -> None:
    """Layer by layer: the top ``SHOWN`` tokens with their probabilities, and the choice's place
    and probability."""
    st.subheader(t("inside_decoder.table.title", k=SHOWN))
    layers = range(len(places))

    def cell(layer: int, rank: int) -> str:
        # The token in quotes, as the page names its choice: a bare "," or "." beside its
        # percentage read as punctuation of the cell, and "," and "，" as the same token.
        token, prob = int(lens.top_ids[layer, 0, rank]), float(lens.top_probs[layer, 0, rank])
        return f"“{_piece(model, token)}”  {_probability(lens, layer, prob)}"

    columns: dict[str, list[object]] = {t("inside_decoder.col.layer"): list(layers)}
    for rank in range(SHOWN):
        columns[t("inside_decoder.col.rank", rank=rank + 1)] = [cell(i, rank) for i in layers]
    columns[t("inside_decoder.col.place", choice=choice)] = [f"{p:,}" for p in places]
    columns[t("inside_decoder.col.prob", choice=choice)] = [
        _probability(lens, layer, float(p)) for layer, p in enumerate(lens.chosen_prob[:, 0])
    ]
    st.dataframe(
        pd.DataFrame(columns), hide_index=True, width="stretch", height=table_height(len(places))
    )


def render() -> None:
    selected = page_start("inside_decoder.title")
    st.markdown(t("inside_decoder.intro"))
    model = smollm2_model()
    if selected is not None and model is not None:
        _lens(model, selected)
    solved_and_hurts(t("inside_decoder.solved"), t("inside_decoder.hurts"))


render()
