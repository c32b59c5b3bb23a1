"""SmolLM2Config from GGUF metadata: read, not assumed; every wrong key named. No model file needed
(the metadata here is written by hand, as SmolLM2's file has it)."""

from __future__ import annotations

from typing import Any

import pytest

from transformer_walk.models.smollm2 import SMOLLM2_135M, SmolLM2Config
from transformer_walk.models.smollm2.config import ConfigError

#: The sizes SmolLM2-135M-Instruct's GGUF file carries (``llama.*``), as ``gguf`` reads them.
METADATA: dict[str, Any] = {
    "general.architecture": "llama",
    "llama.block_count": 30,
    "llama.context_length": 8192,
    "llama.embedding_length": 576,
    "llama.feed_forward_length": 1536,
    "llama.attention.head_count": 9,
    "llama.attention.head_count_kv": 3,
    "llama.rope.freq_base": 100000.0,
    "llama.attention.layer_norm_rms_epsilon": 9.999999747378752e-06,  # 1e-5 stored as float32
    "llama.vocab_size": 49152,
    "llama.rope.dimension_count": 64,
}


def config(**changes: Any) -> SmolLM2Config:
    metadata = {**METADATA, **changes}
    return SmolLM2Config.from_metadata(
        {k: v for k, v in metadata.items() if v is not None}, vocab_size=49152
    )


def test_smollm2_metadata_gives_its_sizes() -> None:
    cfg = config()
    assert cfg == SmolLM2Config(**{**SMOLLM2_135M.__dict__, "eps": cfg.eps})
    assert cfg.eps == pytest.approx(1e-5, rel=1e-6)
    assert (cfg.d_head, cfg.group, cfg.d_kv) == (64, 3, 192)
    shapes = cfg.tensor_shapes()
    assert len(shapes) == 2 + 9 * 30  # token_embd, output_norm; nine tensors a layer
    assert shapes["token_embd.weight"] == (49152, 576)
    assert shapes["blk.29.attn_k.weight"] == (192, 576)
    assert shapes["blk.0.ffn_down.weight"] == (576, 1536)
    assert "output.weight" not in shapes  # tied to the embedding


def test_sizes_come_from_the_metadata() -> None:
    """Another (smaller) Llama: every size follows the file, nothing is SmolLM2's."""
    cfg = config(**{
        "llama.block_count": 2, "llama.embedding_length": 64, "llama.feed_forward_length": 96,
        "llama.attention.head_count": 4, "llama.attention.head_count_kv": 2,
        "llama.rope.dimension_count": 16, "llama.context_length": 128,
        "llama.rope.freq_base": 10000.0,
    })  # fmt: skip
    assert (cfg.n_layers, cfg.d_model, cfg.d_ff, cfg.h, cfg.h_kv) == (2, 64, 96, 4, 2)
    assert (cfg.d_head, cfg.group, cfg.context_length, cfg.rope_base) == (16, 2, 128, 10000.0)
    assert cfg.tensor_shapes()["blk.1.attn_v.weight"] == (32, 64)


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"general.architecture": "gpt2"}, "general.architecture = 'gpt2'"),
        ({"llama.block_count": None}, "llama.block_count = None"),
        ({"llama.block_count": 0}, "llama.block_count = 0"),
        ({"llama.block_count": True}, "llama.block_count = True"),
        ({"llama.attention.head_count": 2.5}, "llama.attention.head_count = 2.5"),
        ({"llama.rope.freq_base": float("nan")}, "llama.rope.freq_base = nan"),
        ({"llama.attention.layer_norm_rms_epsilon": -1.0}, "layer_norm_rms_epsilon = -1.0"),
        ({"llama.vocab_size": 32000}, "llama.vocab_size = 32000 but tokenizer.ggml.tokens"),
        ({"llama.rope.scaling.type": "linear"}, "llama.rope.scaling.type = 'linear'"),
        ({"llama.attention.head_count": 7}, "head_count = 7 does not divide"),
        ({"llama.attention.head_count_kv": 2}, "head_count_kv = 2 does not divide"),
        ({"llama.rope.dimension_count": 32}, "rope.dimension_count = 32 but d_head = 64"),
        (
            {"llama.embedding_length": 9 * 63, "llama.rope.dimension_count": 63},
            "d_head = 63 is odd",
        ),
    ],
)
def test_wrong_metadata_is_named(changes: dict[str, Any], named: str) -> None:
    with pytest.raises(ConfigError, match=named.replace("(", r"\(").replace(".", r"\.")):
        config(**changes)


def test_every_wrong_key_is_named_at_once() -> None:
    with pytest.raises(ConfigError) as info:
        config(**{"llama.block_count": -3, "llama.rope.freq_base": 0.0})
    assert "llama.block_count = -3" in str(info.value)
    assert "llama.rope.freq_base = 0.0" in str(info.value)


def test_work_estimate_counts_the_cache() -> None:
    """A token after 100 cached ones costs more than the first (its attention reads 101 keys),
    and far less than scoring 101 tokens afresh."""
    cfg = config()
    one, later, fresh = cfg.multiply_adds(1), cfg.multiply_adds(1, past=100), cfg.multiply_adds(101)
    assert one < later < fresh / 50
    # ~1.3·10⁸ for one token: 30 layers of 3.5 M multiply-adds, and the 28 M of the head.
    assert 1.2e8 < one < 1.4e8


def test_work_estimate_scores_only_what_is_asked() -> None:
    """Generation scores the last position only: the head (576 · 49152 multiply-adds a position)
    is counted once, not n times; a whole prompt counts its last position twice (alone as well,
    as SmolLM2.forward scores it), a lone token once."""
    cfg = config()
    head = cfg.d_model * cfg.vocab_size
    assert cfg.multiply_adds(10) - cfg.multiply_adds(10, scored=1) == 10 * head
    assert cfg.multiply_adds(1, past=5, scored=1) == cfg.multiply_adds(1, past=5)
