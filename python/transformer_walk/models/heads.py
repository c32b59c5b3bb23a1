"""Multi-head attention's two reshapes, shared by the toy model and MiniLM.

MultiHead(Q, K, V) = Concat(head_1, …, head_h) W^O: head i reads columns i·d_k … (i+1)·d_k of
Q, K and V (d_k = d_model / h), so splitting into heads is a reshape and merging them back
(the Concat) is its inverse. Leading (batch) dimensions pass through untouched.
"""

from __future__ import annotations

import numpy as np


def split_heads(x: np.ndarray, h: int) -> np.ndarray:
    """x [..., n, d_model] → [..., h, n, d_k]: one [n, d_k] matrix per head."""
    *lead, n, d_model = x.shape
    x = x.reshape(*lead, n, h, d_model // h)  # (..., n, d_model) → (..., n, h, d_k)
    # A view, not a copy: each head's rows are d_model (or, for a column block of a fused Q·K·V
    # product, 3·d_model) apart, and rust_core's attention reads them where they are.
    return x.swapaxes(-3, -2)  # → (..., h, n, d_k)


def merge_heads(x: np.ndarray) -> np.ndarray:
    """Concat(head_1, …, head_h): x [..., h, n, d_k] → [..., n, d_model], heads side by side."""
    *lead, h, n, d_k = x.shape
    x = x.swapaxes(-3, -2)  # (..., h, n, d_k) → (..., n, h, d_k)
    return np.ascontiguousarray(x.reshape(*lead, n, h * d_k))  # → (..., n, d_model)
