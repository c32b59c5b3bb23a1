"""The Inside-the-decoder page through AppTest: the logit lens of the sidebar's sentence in both
languages, its numbers checked against a lens taken here; a Chinese sentence, one token, a text
past the lens's limit, an empty one; and the claims' numbers against the lens's."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from transformer_walk.app.i18n import LANGUAGES, translate
from transformer_walk.app.views.byte_text import piece_labels
from transformer_walk.models.smollm2 import LENS_MAX_TOKENS
from transformer_walk.topics import decoder_attribution, decoder_lens

import apptest_support
from apptest_support import no_exception
from smollm2_support import RUST_SKIP, model_skip_reason, shared_model

REASON = model_skip_reason()
#: rust_core where it is built: the page switches heads off in six more forwards, which take
#: the NumPy backend about a second each, and the suite runs beside the browser walk.
BACKEND = "numpy" if RUST_SKIP is not None else "rust"
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
MAX_TOKENS = 64  # pages/inside_decoder.py
open_page = partial(apptest_support.open_page, "inside_decoder.py", backend=BACKEND, timeout=180)


def texts(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lens_of_the_default_sentence_in_both_languages(language: str) -> None:
    at = open_page(language, sentence="Tom loves his")
    no_exception(at)
    assert at.title[0].value == translate("inside_decoder.title", language)
    lens = shared_model(BACKEND).lens("Tom loves his", k=3, positions=[2])
    table = at.dataframe[0].value
    assert len(table) == 31 and table.iloc[:, 0].tolist() == list(range(31))
    places = [int(r) + 1 for r in lens.chosen_rank[:, 0]]
    assert table.iloc[:, 4].tolist() == [f"{p:,}" for p in places]
    assert table.iloc[-1, 4] == "1"
    # each layer's top token named in quotes before its probability; at the last layer that is
    # the model's choice
    model = shared_model(BACKEND)
    assert all(cell.startswith("“") and "”  " in cell for cell in table.iloc[:, 1])
    chosen = piece_labels([model.tokenizer.token_bytes(int(lens.chosen[0]))])[0]
    assert table.iloc[-1, 1].startswith(f"“{chosen}”  ")
    # the claim's layers and places are the lens's
    said = decoder_lens.choice_claim(places, "3 · ␣his", "x", 49152)
    assert said is not None
    body = texts(at)
    assert f"{places[0]:,}" in body and f"{places[15]:,}" in body
    assert translate("inside_decoder.caveat", language) in [c.value for c in at.caption]
    # the attribution of the same token: its sum and the ablation check, as computed here
    found = decoder_attribution.attribute(
        model, model.run("Tom loves his", trace=True), 2, int(lens.chosen[0])
    )
    assert decoder_attribution.signed(float(found.mlps.sum())) in body
    assert f"{found.logit:.2f}" in body
    check = decoder_attribution.check_heads(
        model, "Tom loves his", 2, int(lens.chosen[0]), found.top_heads(3), 5
    )
    assert decoder_attribution.signed(check.change) in body
    assert MAX_TOKENS <= LENS_MAX_TOKENS


def test_another_position_is_read_when_picked() -> None:
    at = open_page("en", sentence="Tom loves his")
    at.selectbox(key="id_position").set_value(0).run()
    no_exception(at)
    lens = shared_model(BACKEND).lens("Tom loves his", k=3, positions=[0])
    places = [int(r) + 1 for r in lens.chosen_rank[:, 0]]
    assert at.dataframe[0].value.iloc[:, 4].tolist() == [f"{p:,}" for p in places]


@pytest.mark.parametrize(
    "sentence", ["汤姆爱他的狗", "x", "the cat saw the cat", "Tom, 42, loves his 3 dogs!"]
)
def test_the_learners_sentences_open(sentence: str) -> None:
    at = open_page("zh", sentence=sentence)
    no_exception(at)
    table = at.dataframe[0].value
    assert len(table) == 31
    # a top probability that is 1.0 in float64 beside a runner-up above 0 is not "100%"
    # (汤姆爱他的狗's layer 0 reads one token at 1 − 1e-30 or so)
    assert not any("100.0%" in str(cell) for cell in table.to_numpy().ravel())


def test_a_long_text_is_cut_to_what_the_lens_reads() -> None:
    at = open_page("en", sentence="tom loves his dog and " * 60)
    no_exception(at)
    assert any(f"this page reads the first {MAX_TOKENS}" in i.value for i in at.info)


def test_an_empty_sentence_is_said_not_computed() -> None:
    at = open_page("en", sentence="")
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)
    assert not at.dataframe
    at = open_page("en", sentence=" \t\n ")  # a token to SmolLM2, but no sentence
    no_exception(at)
    assert any(i.value == translate("common.empty_text", "en") for i in at.info)
    assert not at.dataframe


def test_the_choice_claim_counts_layers_from_the_last_time_it_was_not_on_top() -> None:
    said = decoder_lens.choice_claim([40, 1, 7, 1, 1], "3 · his", "“ wife”", 100)
    assert said is not None and said.message == "inside_decoder.claim.choice_early"
    assert said.fields["first"] == 3 and said.fields["ahead"] == 1
    assert said.fields["chance"] == "50"  # (100 + 1) / 2 = 50.5, rounded half to even
    back = decoder_lens.choice_claim([40, 1, 7, 1, 1, 9, 1], "q", "c", 100)
    assert back is not None and back.message == "inside_decoder.claim.choice_back"
    assert back.fields["earlier"] == 3 and back.fields["before_last"] == 5
    last = decoder_lens.choice_claim([40, 3, 7, 2, 9, 1], "q", "c", 100)
    assert last is not None and last.message == "inside_decoder.claim.choice_last"
    assert decoder_lens.choice_claim([1, 1, 2], "q", "c", 100) is None  # not the model's choice
    assert decoder_lens.own_token_claim(5, 5, "1 · Tom") is not None
    assert decoder_lens.own_token_claim(5, 6, "1 · Tom") is None
    assert np.isclose(decoder_lens.chance_place(49152), 24576.5)
