"""The MiniLM code honours its config: a tiny random BERT (2 layers, 4 heads, d_model 16, ε 0.25,
its own vocabulary and 12 positions) written to a temporary directory, loaded with load_minilm and
checked against an independent NumPy forward written here from the formulas, in float64 with the
checkpoint's key names. The module classes chained by hand give MiniLM.forward; config.json files
this code cannot run, or that do not match the weights, are refused.

Needs no model package: every file is made here.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file
from scipy.special import erf
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

from transformer_walk.core import get_backend
from transformer_walk.models.minilm import (
    CONFIG_FILE,
    TOKENIZER_FILE,
    WEIGHTS_FILE,
    MiniLM,
    TruncationWarning,
    WeightsError,
    load_minilm,
)

from conftest import HAVE_RUST

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "tom", "loves", "his", "dog", "cat", "a", "the"]
VOCAB += ["sat", "on", "mat", "##s", "."]
TINY = {  # as Hugging Face writes it; every size differs from all-MiniLM-L6-v2's
    "model_type": "bert",
    "hidden_act": "gelu",
    "position_embedding_type": "absolute",
    "vocab_size": len(VOCAB),  # 16
    "max_position_embeddings": 12,
    "type_vocab_size": 2,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "hidden_size": 16,
    "intermediate_size": 24,
    "layer_norm_eps": 0.25,  # large, so that a forward ignoring it is far off
}
TEXT = "Tom loves his dog."

HAVE_AWW_RUST = HAVE_RUST and hasattr(get_backend("rust"), "attention_with_weights")
BACKENDS = [
    "python",
    "numpy",
    pytest.param(
        "rust",
        marks=pytest.mark.skipif(
            not HAVE_AWW_RUST, reason="rust_core without attention_with_weights: rebuild it"
        ),
    ),
]


def random_tensors(cfg: dict, seed: int = 0) -> dict[str, np.ndarray]:
    """Every tensor a BertModel of ``cfg`` has, random float32 (LayerNorm γ near 1)."""
    rng = np.random.default_rng(seed)
    d, f = cfg["hidden_size"], cfg["intermediate_size"]

    def normal(*shape: int, std: float = 0.5) -> np.ndarray:
        return (rng.standard_normal(shape) * std).astype(np.float32)

    t = {
        "embeddings.word_embeddings.weight": normal(cfg["vocab_size"], d),
        "embeddings.position_embeddings.weight": normal(cfg["max_position_embeddings"], d),
        "embeddings.token_type_embeddings.weight": normal(cfg["type_vocab_size"], d),
    }
    norms = ["embeddings.LayerNorm"]
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        for name, (out, inp) in {
            "attention.self.query": (d, d),
            "attention.self.key": (d, d),
            "attention.self.value": (d, d),
            "attention.output.dense": (d, d),
            "intermediate.dense": (f, d),
            "output.dense": (d, f),
        }.items():
            t[p + name + ".weight"] = normal(out, inp, std=1 / math.sqrt(inp))
            t[p + name + ".bias"] = normal(out, std=0.1)
        norms += [p + "attention.output.LayerNorm", p + "output.LayerNorm"]
    for name in norms:
        t[name + ".weight"] = 1 + normal(d, std=0.1)
        t[name + ".bias"] = normal(d, std=0.1)
    return t


def tiny_tokenizer() -> Tokenizer:
    """BERT's uncased WordPiece over VOCAB, framing every text with [CLS] … [SEP]."""
    ids = {token: i for i, token in enumerate(VOCAB)}
    tokenizer = Tokenizer(models.WordPiece(ids, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", ids["[CLS]"]), ("[SEP]", ids["[SEP]"])]
    )
    return tokenizer


def write_model(directory: Path, cfg: dict, tensors: dict[str, np.ndarray]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / CONFIG_FILE).write_text(json.dumps(cfg), encoding="utf-8")
    save_file(tensors, str(directory / WEIGHTS_FILE))
    tiny_tokenizer().save(str(directory / TOKENIZER_FILE))
    return directory


def reference_forward(t: dict[str, np.ndarray], cfg: dict, ids: np.ndarray) -> dict:
    """BertModel's forward for one unpadded text, in float64, straight from the formulas."""
    t = {k: v.astype(np.float64) for k, v in t.items()}
    h, eps, n = cfg["num_attention_heads"], cfg["layer_norm_eps"], len(ids)
    d_k = cfg["hidden_size"] // h

    def ln(x: np.ndarray, p: str) -> np.ndarray:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + eps) * t[p + ".weight"] + t[p + ".bias"]

    def dense(x: np.ndarray, p: str) -> np.ndarray:
        return x @ t[p + ".weight"].T + t[p + ".bias"]

    def heads(x: np.ndarray) -> np.ndarray:
        return x.reshape(n, h, d_k).transpose(1, 0, 2)  # (n, d_model) → (h, n, d_k)

    x = ln(
        t["embeddings.word_embeddings.weight"][ids]
        + t["embeddings.position_embeddings.weight"][:n]
        + t["embeddings.token_type_embeddings.weight"][0],
        "embeddings.LayerNorm",
    )
    hidden, weights = [x], []
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q, k, v = (heads(dense(x, p + f"attention.self.{m}")) for m in ("query", "key", "value"))
        s = q @ k.transpose(0, 2, 1) / math.sqrt(d_k)  # (h, n, n)
        w = np.exp(s - s.max(-1, keepdims=True))
        w /= w.sum(-1, keepdims=True)
        concat = (w @ v).transpose(1, 0, 2).reshape(n, h * d_k)  # (h, n, d_k) → (n, d_model)
        a = ln(x + dense(concat, p + "attention.output.dense"), p + "attention.output.LayerNorm")
        g = dense(a, p + "intermediate.dense")
        g = 0.5 * g * (1 + erf(g / math.sqrt(2)))
        x = ln(a + dense(g, p + "output.dense"), p + "output.LayerNorm")
        hidden.append(x)
        weights.append(w)
    mean = x.mean(0)
    return {
        "hidden_states": np.stack(hidden),
        "attentions": np.stack(weights),
        "sentence_embedding": mean / np.linalg.norm(mean),
    }


@pytest.fixture(scope="module")
def tensors() -> dict[str, np.ndarray]:
    return random_tensors(TINY)


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory, tensors) -> Path:
    return write_model(tmp_path_factory.mktemp("tiny"), TINY, tensors)


@pytest.fixture(scope="module")
def tiny(tiny_dir: Path) -> MiniLM:
    return load_minilm(tiny_dir, backend="numpy")


# --- the config is honoured ---------------------------------------------------------------------


def test_the_config_is_read(tiny):
    cfg = tiny.config
    assert (cfg.n_layers, cfg.h, cfg.d_model, cfg.d_k, cfg.d_ff) == (2, 4, 16, 4, 24)
    assert (cfg.vocab_size, cfg.max_positions, cfg.type_vocab_size, cfg.eps) == (16, 12, 2, 0.25)
    assert len(tiny.encoder.layer) == 2
    assert all(layer.attention.self_attention.h == 4 for layer in tiny.encoder.layer)
    assert tiny.embeddings.LayerNorm.eps == 0.25


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_matches_an_independent_forward(tiny, tensors, backend):
    out = tiny.with_backend(backend).run(TEXT)
    assert out.tokens == ["[CLS]", "tom", "loves", "his", "dog", ".", "[SEP]"]
    want = reference_forward(tensors, TINY, out.ids)
    assert out.hidden_states.shape == (3, 7, 16) and out.attentions.shape == (2, 4, 7, 7)
    np.testing.assert_allclose(out.hidden_states, want["hidden_states"], rtol=0, atol=2e-5)
    np.testing.assert_allclose(out.attentions, want["attentions"], rtol=0, atol=2e-6)
    np.testing.assert_allclose(out.sentence_embedding, want["sentence_embedding"], atol=2e-6)


@pytest.mark.parametrize(
    "changes",
    [
        pytest.param({"layer_norm_eps": 1e-12}, id="eps"),
        pytest.param({"num_attention_heads": 2}, id="heads"),
    ],
)
def test_the_reference_tells_the_configs_apart(tiny, tensors, changes):
    # The comparison above can fail: the same weights under another ε or head count (neither
    # visible in any tensor's shape) give numbers far outside its tolerance.
    out = tiny.run(TEXT)
    other = reference_forward(tensors, dict(TINY, **changes), out.ids)
    assert np.abs(out.hidden_states[1:] - other["hidden_states"][1:]).max() > 1e-2


def test_positions_from_the_config_bound_the_input(tiny):
    # 12 positions: a longer text is cut to [CLS] + 10 pieces + [SEP], with the warning; embed
    # cuts at min(256, 12) silently; ids longer than the table are a clear error, not an
    # IndexError from the lookup.
    text = " ".join(["dog"] * 20)
    with pytest.warns(TruncationWarning, match="22 tokens but MiniLM has 12 positions"):
        out = tiny.run(text)
    assert out.n == 12 and out.n_original == 22 and out.tokens[-1] == "[SEP]"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(tiny.embed([text])[0], out.sentence_embedding, atol=1e-6)
    with pytest.raises(ValueError, match="13 tokens but the model has 12 positions"):
        tiny.forward(np.full(13, 7))


def test_embed_of_a_padded_batch_equals_run(tiny):
    texts = [TEXT, "a cat sat on the mat", "dogs", ""]
    want = np.stack([tiny.run(t).sentence_embedding for t in texts])
    np.testing.assert_allclose(tiny.embed(texts, batch_size=3), want, rtol=0, atol=1e-6)


# --- the modules are the forward ----------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_modules_chained_by_hand_are_the_forward(tiny, backend):
    model = tiny.with_backend(backend)
    be = model.backend
    ids = model.run(TEXT).ids[None, :]  # (1, n)
    want = model.forward(ids).hidden_states
    x = model.embeddings.forward(be, ids)
    np.testing.assert_array_equal(x, want[0])
    for layer, expected in zip(model.encoder.layer, want[1:], strict=True):
        concat = layer.attention.self_attention.forward(be, x)
        a = layer.attention.self_output.forward(be, concat, x)
        x = layer.output.forward(be, layer.intermediate.forward(be, a), a)
        np.testing.assert_array_equal(x, expected)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_trace_is_what_the_modules_compute(tiny, tensors, backend):
    model = tiny.with_backend(backend)
    out = model.run(TEXT, trace=True)
    assert out.layers is not None and len(out.layers) == 2
    np.testing.assert_array_equal(out.embeddings.out, out.hidden_states[0])
    for i, (layer, t) in enumerate(zip(model.encoder.layer, out.layers, strict=True)):
        assert t.params is layer
        np.testing.assert_array_equal(t.x_in, out.hidden_states[i])
        np.testing.assert_array_equal(t.out, out.hidden_states[i + 1])
        np.testing.assert_array_equal(t.weights, out.attentions[i])
        assert t.q_heads.shape == (4, 7, 4) and t.ffn_hidden.shape == (7, 24)
        np.testing.assert_array_equal(t.q_heads[2], t.Q[:, 8:12])  # head 2 = columns 8 … 11
        np.testing.assert_array_equal(t.concat[:, 8:12], t.head_out[2])
        # The scores the trace shows are the ones the weights are the softmax of.
        s = t.scores - t.scores.max(-1, keepdims=True)
        np.testing.assert_allclose(
            t.weights, np.exp(s) / np.exp(s).sum(-1, keepdims=True), atol=1e-6
        )
        w = tensors[f"encoder.layer.{i}.attention.self.query.weight"].astype(np.float64)
        np.testing.assert_allclose(
            t.Q, t.x_in @ w.T + tensors[f"encoder.layer.{i}.attention.self.query.bias"], atol=1e-5
        )
        np.testing.assert_allclose(t.head_out, t.weights @ t.v_heads, atol=1e-6)
        np.testing.assert_allclose(t.resid2, t.norm1 + t.ffn_out, atol=1e-6)


# --- configs that cannot be run, or do not fit the weights --------------------------------------


@pytest.mark.parametrize(
    ("changes", "explanation"),
    [
        pytest.param(
            {"num_attention_heads": 3},
            "num_attention_heads = 3 does not divide hidden_size = 16",
            id="heads",
        ),
        pytest.param({"hidden_act": "gelu_new"}, "hidden_act = 'gelu_new'", id="activation"),
        pytest.param(
            {"num_hidden_layers": 0}, r"num_hidden_layers = 0 \(expected a whole", id="zero"
        ),
        pytest.param({"hidden_size": True}, "hidden_size = True", id="bool"),
        pytest.param({"layer_norm_eps": float("nan")}, "layer_norm_eps = nan", id="nan-eps"),
        pytest.param({"layer_norm_eps": -1e-5}, "layer_norm_eps = -1e-05", id="negative-eps"),
    ],
)
def test_a_config_this_code_cannot_run(tmp_path, tensors, changes, explanation):
    directory = write_model(tmp_path, dict(TINY, **changes), tensors)
    with pytest.raises(WeightsError, match=explanation) as error:
        load_minilm(directory, backend="numpy")
    assert str(error.value).startswith(str(directory / CONFIG_FILE))


@pytest.mark.parametrize(
    ("changes", "explanation"),
    [
        pytest.param({"num_hidden_layers": 3}, "no tensor 'encoder.layer.2.attention", id="layers"),
        pytest.param(
            {"intermediate_size": 32},
            r"'encoder.layer.0.intermediate.dense.weight' has shape \(24, 16\), "
            r"expected \(32, 16\)",
            id="d_ff",
        ),
        pytest.param(
            {"max_position_embeddings": 512},
            r"'embeddings.position_embeddings.weight' has shape \(12, 16\), expected \(512, 16\)",
            id="positions",
        ),
    ],
)
def test_a_config_that_does_not_fit_the_weights(tmp_path, tensors, changes, explanation):
    # The shape checks are derived from the config, so a config describing another model than
    # the weights is caught, naming the weights file.
    directory = write_model(tmp_path, dict(TINY, **changes), tensors)
    with pytest.raises(WeightsError, match=explanation) as error:
        load_minilm(directory, backend="numpy")
    assert str(error.value).startswith(str(directory / WEIGHTS_FILE))


def test_a_tokenizer_beyond_the_configs_vocabulary(tmp_path, tensors):
    # 16 tokens in the tokenizer but a 10-row embedding table: ids 10 … 15 would fall outside.
    cfg = dict(TINY, vocab_size=10)
    t = dict(tensors)
    t["embeddings.word_embeddings.weight"] = t["embeddings.word_embeddings.weight"][:10]
    directory = write_model(tmp_path, cfg, t)
    with pytest.raises(
        WeightsError, match="token ids up to 15 but the model's embedding table has 10"
    ):
        load_minilm(directory, backend="numpy")
