"""Embeddings: the matrix E, the lookup, what similarity means, and how E is learned (word2vec).

Renders ``transformer_walk.topics.word2vec`` trained on ``transformer_walk.topics.corpus``; the
lookup of the sentence's rows is the sidebar backend's ``embedding_lookup``. Holds no math.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from transformer_walk.app import charts, links, navigation
from transformer_walk.app.caches import minilm_neighbours
from transformer_walk.app.chart_specs import chart_spec
from transformer_walk.app.charts import embeddings as charts_embeddings
from transformer_walk.app.heavy_work import heavy_work
from transformer_walk.app.i18n import join_names, join_sentences, say, t
from transformer_walk.app.model_widgets import minilm_model
from transformer_walk.app.sidebar import current_sentence
from transformer_walk.app.views.labels import token_axis
from transformer_walk.app.widgets import keep_valid_choice, page_start, solved_and_hurts
from transformer_walk.core import Backend, get_backend
from transformer_walk.topics import corpus
from transformer_walk.topics.claims import percent
from transformer_walk.topics.corpus import Language
from transformer_walk.topics.word2vec import (
    SENSE_WORDS,
    Word2VecParams,
    Word2VecResult,
    after_training,
    bank_lean,
    char_lean,
    closest_pair,
    cosine_matrix,
    nearest,
    neighbour_kinds,
    pca_2d,
    sense_cosines,
    train,
)

DIM_KEY = "emb_dim"
EPOCHS_KEY = "emb_epochs"
WINDOW_KEY = "emb_window"
WORD_KEY = "emb_word"
FUNCTION_WORDS_KEY = "emb_function_words"
REAL_WORD_KEY = "emb_real_word"
REAL_NEIGHBOURS = 10
# Up to 32: the corpus has 119 words, and at 64 the products of a step are just large enough for
# OpenBLAS to split over threads, which on 2 busy cores made the largest training 29 s (7 s on one
# thread) and timed an AppTest run out; at 32 it is 5-7 s either way.
DIM_OPTIONS = [2, 4, 8, 16, 32]
MAX_ROWS = 30  # rows of the lookup heatmap
MAX_COSINE = 16  # distinct words in the cosine matrix
NEIGHBOURS = 6
BANK_SENTENCES = ("Tom sat on the river bank", "Anna took cash from the bank")
WATER_WORDS, MONEY_WORDS = SENSE_WORDS["en"]  # bank's two senses
# The Chinese twin: 行 is written in 银行 (bank) and in 步行 (on foot), looked up in both; 银 of
# 银行 and 岸 of 河岸 are the two senses of English "bank" as two different Chinese words.
ZH_SENTENCES = ("他去银行存钱", "他沿着河边步行")
ZH_SHARED = "行"
ZH_CHARS = {
    "银": "embeddings.static.zh.char.yin",
    "行": "embeddings.static.zh.char.hang",
    "岸": "embeddings.static.zh.char.an",
}
DEFAULT_WORD: dict[Language, str] = {"en": "dog", "zh": "狗"}


@st.cache_data(show_spinner=False, max_entries=16)
def trained(
    params: Word2VecParams, language: Language = "en", _progress_label: str = ""
) -> Word2VecResult:
    """word2vec on the English or the Chinese corpus, cached by corpus and hyper-parameters (the
    label is not part of the key); 16 entries at most, each a few tenths of a second to train.

    The progress bar is created *inside* the cached function on purpose: Streamlit records the
    elements a cached function makes and replays them on a cache hit, and an element made here
    can be replayed (one made outside could not). It is emptied at the end, so a replay shows
    nothing."""
    bar = st.progress(0.0, text=_progress_label.format(epoch=0, epochs=params.epochs, loss="—"))

    def report(epoch: int, loss: float) -> None:
        text = _progress_label.format(epoch=epoch, epochs=params.epochs, loss=f"{loss:.3f}")
        bar.progress(epoch / max(1, params.epochs), text=text)

    result = train(corpus.sentences(language), params, on_epoch=report)
    bar.empty()
    return result


def _category_names() -> dict[str, str]:
    return {
        "person": t("embeddings.cat.person"),
        "animal": t("embeddings.cat.animal"),
        "food": t("embeddings.cat.food"),
        "water": t("embeddings.cat.water"),
        "place": t("embeddings.cat.place"),
        "money": t("embeddings.cat.money"),
        "bank": t("embeddings.cat.bank"),
        "two_senses": t("embeddings.cat.two_senses"),
        "time": t("embeddings.cat.time"),
        "adjective": t("embeddings.cat.adjective"),
        "verb": t("embeddings.cat.verb"),
        corpus.FUNCTION_CATEGORY: t("embeddings.cat.function"),
    }


def _matrix_intro() -> None:
    st.markdown(t("embeddings.intro"))
    st.latex(
        r"E \in \mathbb{R}^{V \times d}, \qquad \boldsymbol{e}_i = \boldsymbol{x}_i^{\mathsf T} E"
    )
    st.markdown(t("embeddings.intro.lookup"))


def _training_controls() -> Word2VecParams:
    st.header(t("embeddings.train.title"), divider="gray")
    st.markdown(t("embeddings.train.body"))
    st.latex(
        r"\mathcal{L} = -\log \sigma(\boldsymbol{u}_o^{\mathsf T}\boldsymbol{e}_c)"
        r" - \sum_{j=1}^{k} \log \sigma(-\boldsymbol{u}_{j}^{\mathsf T}\boldsymbol{e}_c),"
        r"\qquad E \leftarrow E - \eta\,\frac{\partial \mathcal{L}}{\partial E}"
    )
    links.linked(DIM_KEY, 16, DIM_OPTIONS)
    links.linked(EPOCHS_KEY, 8, range(21))
    links.linked(WINDOW_KEY, 2, range(1, 5))
    c1, c2, c3 = st.columns(3)
    dim = c1.select_slider(t("embeddings.train.dim"), options=DIM_OPTIONS, value=16, key=DIM_KEY)
    epochs = c2.slider(
        t("embeddings.train.epochs"),
        0,
        20,
        8,
        key=EPOCHS_KEY,
        help=t("embeddings.train.epochs_help"),
    )
    window = c3.slider(
        t("embeddings.train.window"),
        1,
        4,
        2,
        key=WINDOW_KEY,
        help=t("embeddings.train.window_help"),
    )
    return Word2VecParams(dim=dim, epochs=epochs, window=window)


def _training_results(result: Word2VecResult) -> None:
    p = result.params
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.vega_lite_chart(
            chart_spec(
                charts_embeddings.loss_curve,
                result.losses,
                epoch_title=t("embeddings.train.epoch"),
                loss_title=t("embeddings.train.loss"),
            ),
            width="stretch",
        )
    with right:
        m1, m2 = st.columns(2)
        m1.metric(t("embeddings.metric.loss_before"), f"{result.losses[0]:.3f}")
        m2.metric(
            t("embeddings.metric.loss_after"),
            f"{result.losses[-1]:.3f}",
            delta=f"{result.losses[-1] - result.losses[0]:.3f}",
            delta_color="inverse",
        )
        st.markdown(
            t(
                "embeddings.train.facts",
                pairs=f"{result.n_pairs:,}",
                k=p.negatives,
                start=f"{result.losses[0]:.3f}",
                V=len(result.vocab),
                d=p.dim,
                params=f"{len(result.vocab) * p.dim:,}",
            )
        )
    if p.epochs == 0:
        st.info(t("embeddings.train.untrained"), icon=":material/hourglass_empty:")


def _lookup(result: Word2VecResult, backend_name: str, backend: Backend, words: list[str]) -> None:
    st.header(t("embeddings.lookup.title"), divider="gray")
    if not words:
        st.info(t("embeddings.empty"), icon=":material/edit_note:")
        return
    known = [w for w in words if result.index(w) is not None]
    unknown = sorted({w for w in words if result.index(w) is None})
    if unknown:
        st.info(t("embeddings.lookup.unknown", words=join_names(unknown)), icon=":material/help:")
    if not known:
        return
    ids = np.array([result.index(w) for w in known], dtype=np.int64)
    rows = np.asarray(backend.embedding_lookup(result.embeddings, ids))  # (n, d)
    st.markdown(
        t(
            "embeddings.lookup.body",
            backend=t(f"backend.{backend_name}"),
            n=len(known),
            d=rows.shape[1],
            vocab=len(result.vocab),
        )
    )
    ids_text = ", ".join(f"{w}→{i}" for w, i in zip(known[:MAX_ROWS], ids[:MAX_ROWS], strict=True))
    st.code(f"ids = [{ids_text}{', …' if len(known) > MAX_ROWS else ''}]", language=None)
    shown = rows[:MAX_ROWS]
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            shown,
            token_axis(known, 0, len(shown)),
            [str(j + 1) for j in range(shown.shape[1])],
            row_title=t("embeddings.lookup.rows"),
            col_title=t("embeddings.lookup.cols"),
            value_title=t("embeddings.lookup.value"),
        ),
        width="content",
    )
    if len(known) > MAX_ROWS:
        st.caption(t("embeddings.lookup.capped", shown=MAX_ROWS, n=len(known)))
    same = np.array_equal(rows, result.embeddings[ids])
    st.caption(t("embeddings.lookup.check") if same else t("embeddings.lookup.mismatch"))
    _cosines(result, known)


def _cosines(result: Word2VecResult, known: list[str]) -> None:
    st.subheader(t("embeddings.cos.title"))
    st.latex(
        r"\cos(\boldsymbol{e}_i,\boldsymbol{e}_j) = "
        r"\frac{\boldsymbol{e}_i\cdot\boldsymbol{e}_j}{\lVert\boldsymbol{e}_i\rVert\,\lVert\boldsymbol{e}_j\rVert}"
    )
    distinct = list(dict.fromkeys(known))[:MAX_COSINE]
    if len(distinct) < 2:
        st.info(t("embeddings.cos.one_word"))
        return
    table = result.embeddings[[result.vocab.index(w) for w in distinct]]  # (m, d); known words
    sims = cosine_matrix(table)  # (m, m)
    st.vega_lite_chart(
        chart_spec(
            charts.heatmap,
            sims,
            distinct,
            distinct,
            row_title=t("embeddings.cos.word"),
            col_title=t("embeddings.cos.word"),
            value_title="cos",
            domain=(-1.0, 1.0),
        ),
        width="content",
    )
    closest = say(closest_pair(sims, distinct))
    if closest:
        st.markdown(closest)


def _neighbours(result: Word2VecResult, sentence: list[str], language: Language) -> None:
    st.header(t("embeddings.nn.title"), divider="gray")
    st.markdown(t("embeddings.nn.body"))
    options = list(result.vocab)
    words = [w for w in sentence if w in options]
    # "dog" (狗) for the running example; else the sentence's first content word ("the" has no
    # kind to cluster with), its first word, or "dog" when none is in the corpus.
    content = [w for w in words if corpus.category(w, language) != corpus.FUNCTION_CATEGORY]
    dog = DEFAULT_WORD[language]
    default = dog if dog in words or not words else (content or words)[0]
    keep_valid_choice(WORD_KEY, options, default)
    word = st.selectbox(t("embeddings.nn.word"), options=options, key=WORD_KEY)
    before = nearest(result.initial, result.vocab, word, NEIGHBOURS)
    after = nearest(result.embeddings, result.vocab, word, NEIGHBOURS)
    names = _category_names()
    left, right = st.columns(2)
    epochs = result.params.epochs
    for col, title, found in (
        (left, t("embeddings.nn.before"), before),
        (right, say(after_training(epochs)), after),
    ):
        with col:
            st.markdown(f"**{title}**")
            st.dataframe(
                pd.DataFrame(
                    {
                        t("embeddings.nn.col.word"): [w for w, _ in found],
                        "cos": [round(c, 3) for _, c in found],
                        t("embeddings.nn.col.kind"): [
                            names[corpus.category(w, language)] for w, _ in found
                        ],
                    }
                ),
                hide_index=True,
                width="stretch",
                column_config={"cos": st.column_config.NumberColumn(format="%.3f")},
            )
    kind = corpus.category(word, language)
    counted = say(
        neighbour_kinds(
            word,
            kind,
            [corpus.category(w, language) for w, _ in before],
            [corpus.category(w, language) for w, _ in after],
            epochs,
        )
    )
    st.markdown(
        join_sentences([t("embeddings.nn.kind", word=word, kind=names[kind]), counted or ""])
    )


def _maps(
    result: Word2VecResult, names: dict[str, str], sentence: list[str], language: Language
) -> None:
    st.header(t("embeddings.map.title"), divider="gray")
    st.markdown(t("embeddings.map.body"))
    with_function = st.toggle(
        t(
            "embeddings.map.function_words"
            if language == "en"
            else "embeddings.map.function_words_zh"
        ),
        key=FUNCTION_WORDS_KEY,
    )
    keep = [
        i for i, w in enumerate(result.vocab)
        if with_function or corpus.category(w, language) != corpus.FUNCTION_CATEGORY
    ]  # fmt: skip
    words = [result.vocab[i] for i in keep]
    mine = [w for w in sentence if w in words]
    shown = list(dict.fromkeys(mine))
    st.caption(
        t("embeddings.map.mine", words=join_names(shown))
        if shown
        else t("embeddings.map.mine_none")
    )
    order = list(names.values())
    cols = st.columns(2)
    for col, table, title in (
        (cols[0], result.initial, t("embeddings.map.before")),
        (
            cols[1],
            result.embeddings,
            say(after_training(result.params.epochs), markdown=False) or "",
        ),
    ):
        coords, share = pca_2d(table[keep])  # (m, 2)
        frame = pd.DataFrame(
            {
                "x": coords[:, 0],
                "y": coords[:, 1],
                "word": words,
                "category": [names[corpus.category(w, language)] for w in words],
            }
        )
        with col:
            st.vega_lite_chart(
                chart_spec(
                    charts_embeddings.word_map,
                    frame,
                    title=title,
                    category_title=t("embeddings.map.category"),
                    category_order=order,
                    highlight=mine,
                ),
                width="stretch",
            )
            st.caption(t("embeddings.map.variance", share=percent(share.sum())))


def _static(result: Word2VecResult, backend: Backend, language: Language) -> None:
    st.header(t("embeddings.static.title"), divider="gray")
    if language == "zh":
        _static_zh(result, backend)
        return
    st.markdown(t("embeddings.static.body"))
    bank = result.index("bank")
    if bank is None:  # cannot happen with the shipped corpus; keeps the page safe if it changes
        return
    diff = _same_row(result, backend, BANK_SENTENCES, "bank")
    st.markdown(
        t("embeddings.static.same", a=BANK_SENTENCES[0], b=BANK_SENTENCES[1], diff=f"{diff:g}")
    )
    found = sense_cosines(result, "bank", "en")
    if found is not None:
        water, money = found
        for col, word, value in zip(
            st.columns(4), WATER_WORDS + MONEY_WORDS, water + money, strict=True
        ):
            col.metric(f"cos(bank, {word})", f"{value:.3f}")
        reading = say(bank_lean(water, money, result.params.epochs))
        if reading:
            st.markdown(reading)
    st.info(t("embeddings.static.pointer"), icon=":material/arrow_forward:")


def _same_row(
    result: Word2VecResult, backend: Backend, sentences: tuple[str, ...], word: str
) -> float:
    """The largest difference between ``word``'s rows looked up in each of ``sentences`` (all
    their words are in the corpus)."""
    rows = []
    for sentence in sentences:
        words = corpus.words(sentence)
        ids = np.array([result.index(w) for w in words], dtype=np.int64)
        vectors = np.asarray(backend.embedding_lookup(result.embeddings, ids))  # (n, d)
        rows.append(vectors[words.index(word)])
    return float(max(np.abs(rows[0] - row).max() for row in rows[1:]))


def _static_zh(result: Word2VecResult, backend: Backend) -> None:
    """The Chinese twin: the two senses are two words (银行 / 河岸), so they have separate rows;
    the one-row-for-two-senses problem comes back with 行 (银行 / 步行)."""
    st.markdown(t("embeddings.static.zh.body"))
    if any(result.index(w) is None for w in corpus.words("".join(ZH_SENTENCES))):
        return  # cannot happen with the shipped corpus; keeps the page safe if it changes
    diff = _same_row(result, backend, ZH_SENTENCES, ZH_SHARED)
    st.markdown(
        t("embeddings.static.zh.same", a=ZH_SENTENCES[0], b=ZH_SENTENCES[1], diff=f"{diff:g}")
    )
    water_words, money_words = SENSE_WORDS["zh"]
    rows = []
    for char, label in ZH_CHARS.items():
        found = sense_cosines(result, char, "zh")
        if found is None:
            continue
        water, money = found
        rows.append(
            {
                t("embeddings.static.zh.col.char"): t(label),
                **{f"cos(·, {w})": round(c, 3) for w, c in zip(water_words, water, strict=True)},
                **{f"cos(·, {w})": round(c, 3) for w, c in zip(money_words, money, strict=True)},
                t("embeddings.static.zh.col.reading"): say(
                    char_lean(water, money, result.params.epochs), markdown=False
                ),
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.info(t("embeddings.static.zh.pointer"), icon=":material/arrow_forward:")


def _real_table(backend: str) -> None:
    """Nearest neighbours in all-MiniLM-L6-v2's own input table (static rows, no context). The
    one row is looked up on the sidebar's backend: even pure Python copies only that row."""
    st.header(t("embeddings.real.title"), divider="gray")
    st.markdown(t("embeddings.real.body"))
    model = minilm_model()
    if model is None:
        return
    vocab = model.vocab
    st.session_state.setdefault(REAL_WORD_KEY, "dog")
    word = st.text_input(t("embeddings.real.word"), key=REAL_WORD_KEY, max_chars=40).strip()
    pieces = model.tokenizer.encode(word, add_special_tokens=False).tokens if word else []
    if not pieces:
        st.info(t("embeddings.real.empty"), icon=":material/edit_note:")
        return
    piece = word.lower() if word.lower() in vocab else pieces[0]
    if piece != word.lower():
        st.caption(t("embeddings.real.pieces", word=word, pieces=" · ".join(pieces), piece=piece))
    token_id = vocab[piece]
    with st.spinner(t("embeddings.real.computing")):
        ids, sims = minilm_neighbours(token_id, backend, REAL_NEIGHBOURS)
    by_id = {i: token for token, i in vocab.items()}
    st.markdown(
        t(
            "embeddings.real.lookup",
            piece=piece,
            id=token_id,
            backend=t(f"backend.{backend}"),
            V=f"{len(vocab):,}",
            d=model.config.d_model,
        )
    )
    st.dataframe(
        pd.DataFrame(
            {
                t("embeddings.real.col.token"): [by_id[int(i)] for i in ids],
                "id": [int(i) for i in ids],
                "cos": [float(c) for c in sims],
            },
            index=pd.Index(range(1, len(ids) + 1), name="#"),
        ),
        column_config={"cos": st.column_config.NumberColumn(format="%.3f")},
    )
    st.info(t("embeddings.real.static"), icon=":material/lock:")
    st.page_link(
        navigation.page_path("contextual.py"),
        label=t("embeddings.real.link"),
        icon=":material/arrow_forward:",
    )


def render() -> None:
    name = page_start("embeddings.title", caption="embeddings.computed_with")
    if name is None:
        return
    module = get_backend(name)
    _matrix_intro()
    params = _training_controls()
    words = corpus.words(current_sentence())
    language = corpus.language_of(words)
    chosen = say(corpus.corpus_choice(words))
    if chosen:
        st.info(chosen, icon=":material/translate:")
    with heavy_work():
        result = trained(params, language, _progress_label=t("embeddings.train.progress"))
    _training_results(result)
    _lookup(result, name, module, words)
    _neighbours(result, words, language)
    _maps(result, _category_names(), words, language)
    _static(result, module, language)
    _real_table(name)
    solved_and_hurts(t("embeddings.solved"), t("embeddings.hurts"))


render()
