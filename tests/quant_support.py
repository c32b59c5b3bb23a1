"""x rounded to 16 bits per block of 32, as quantized_linear rounds its input, written out by hand
for the tests of every backend (test_quantized, test_smollm2)."""

from __future__ import annotations

import numpy as np


def rounded_by_hand(x: np.ndarray) -> np.ndarray:
    """x̂ of the contract, block by block in float32 scalars: d = max|x| / 32767,
    x̂ = d · round(x / d) ties to even (0 where d = 0); NaN for a block holding NaN or ±inf."""
    flat = x.reshape(-1, 32)  # (..., in) → (blocks, 32)
    out = np.zeros_like(flat)
    for b, block in enumerate(flat):
        if not np.isfinite(block).all():
            out[b] = np.nan
            continue
        d = np.float32(max(abs(float(v)) for v in block)) / np.float32(32767)
        if d > 0:
            for j, v in enumerate(block):
                out[b, j] = d * np.float32(round(float(min(max(v / d, -32767), 32767))))
    return out.reshape(x.shape)
