"""How close decoding comes to the memory's limit.

A generated token multiplies one row by every matrix of the model, so each weight is read once
and used once: the step cannot take less than the bytes it reads over the speed at which the
machine streams memory it has not cached. ``share`` is the achieved fraction of that bound,
tokens a second × bytes a token ÷ bytes a second.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from transformer_walk.bench.timing import BLAS_SETTLE_S, SYSTEM_CLOCK, Clock

#: The streamed matrix: several times any L3 cache of the machines here (48 MB at most).
STREAM_BYTES = 256 << 20
STREAM_COLUMNS = 4096
FLOAT32_BYTES = 4


def streaming_read_gbs(
    rounds: int = 5, nbytes: int = STREAM_BYTES, clock: Clock = SYSTEM_CLOCK
) -> float:
    """GB/s (10⁹ bytes) at which this machine reads memory: NumPy's matrix-vector product
    (OpenBLAS's sgemv, on every core) over an ``nbytes`` float32 matrix, which reads each value
    once as a decoding step does; the best of ``rounds`` calls, each after a pause."""
    if rounds < 1 or nbytes < FLOAT32_BYTES * STREAM_COLUMNS:
        raise ValueError(
            f"rounds must be at least 1 and nbytes at least {FLOAT32_BYTES * STREAM_COLUMNS} "
            f"(one row of {STREAM_COLUMNS} float32 values), got {rounds} and {nbytes}"
        )
    rows = nbytes // (FLOAT32_BYTES * STREAM_COLUMNS)
    matrix = np.ones((rows, STREAM_COLUMNS), np.float32)  # written, so its pages are mapped
    vector = np.ones(STREAM_COLUMNS, np.float32)
    best = float("inf")
    for _ in range(rounds):
        clock.sleep(BLAS_SETTLE_S)
        start = clock.now()
        matrix @ vector
        best = min(best, clock.now() - start)
    return matrix.nbytes / best / 1e9


def decode_bytes(model: Any, positions: float) -> dict[str, float]:
    """Bytes one generated token of a SmolLM2-style decoder reads, by part: every matrix of the
    layers and the output layer once (as stored: 4-bit or 8-bit blocks), the norms' weights, one
    row of the embedding table, and the keys and values of ``positions`` cached positions
    (float32, as ``KVCache`` holds them)."""
    layers = sum(
        w.tensor.data.nbytes
        for layer in model.layers
        for w in (layer.attn.q, layer.attn.k, layer.attn.v, layer.attn.output,
                  layer.ffn.gate, layer.ffn.up, layer.ffn.down)
    )  # fmt: skip
    norms = model.norm.weight.nbytes + sum(
        layer.attn_norm.weight.nbytes + layer.ffn_norm.weight.nbytes for layer in model.layers
    )
    table = model.embedding.weight.tensor.data
    cache = model.config.kv_bytes_per_token(nbytes=FLOAT32_BYTES) * positions
    parts = {
        "layers": float(layers),
        "output_layer": float(model.head.tensor.data.nbytes),
        "norms": float(norms),
        "embedding_row": float(table.nbytes / table.shape[0]),
        "cache": float(cache),
    }
    return {**parts, "total": sum(parts.values())}


def share(tokens_per_s: float, bytes_per_token: float, stream_gbs: float) -> float:
    """The fraction of the memory bound a decoder reaches: its bytes a second over the machine's."""
    return tokens_per_s * bytes_per_token / (stream_gbs * 1e9)
