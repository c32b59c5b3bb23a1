"""What a MiniLM forward records: the input's construction, each layer's intermediates, the output.

The pages render these; they never recompute the math. Shapes use n tokens, h heads,
d_k = d_model / h and d_ff (for all-MiniLM-L6-v2: h = 12, d_model = 384, d_k = 32, d_ff = 1536).
The field names are the toy model's (``BlockTrace``), so a page can show either model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from transformer_walk.models.minilm.modules import BertLayer


@dataclass
class EmbeddingTrace:
    """How the first hidden state x⁰ is built (any leading batch dimensions before n)."""

    word: np.ndarray  # [n, d_model] rows ids of embeddings.word_embeddings: context-free
    position: np.ndarray  # [n, d_model] rows 0..n-1 of embeddings.position_embeddings
    token_type: np.ndarray  # [n, d_model] row 0 of embeddings.token_type_embeddings, repeated
    sum: np.ndarray  # [n, d_model] word + position + token_type
    out: np.ndarray  # [n, d_model] LN(sum) = x⁰ = hidden_states[0]


@dataclass
class LayerTrace:
    """Everything one encoder layer computed, in order (``run(text, trace=True)`` only)."""

    params: BertLayer  # this layer's weights (references, not copies)
    x_in: np.ndarray  # [n, d_model] x, the layer's input
    Q: np.ndarray  # [n, d_model] x W^Q + b^Q
    K: np.ndarray  # [n, d_model] x W^K + b^K
    V: np.ndarray  # [n, d_model] x W^V + b^V
    q_heads: np.ndarray  # [h, n, d_k]
    k_heads: np.ndarray  # [h, n, d_k]
    v_heads: np.ndarray  # [h, n, d_k]
    scores: np.ndarray  # [h, n, n] q kᵀ / √d_k, before the mask and the softmax
    weights: np.ndarray  # [h, n, n] softmax rows = attentions[layer]
    head_out: np.ndarray  # [h, n, d_k] weights · v
    concat: np.ndarray  # [n, d_model] Concat(head_1, …, head_h)
    attn_out: np.ndarray  # [n, d_model] concat W^O + b^O
    resid1: np.ndarray  # [n, d_model] x_in + attn_out
    norm1: np.ndarray  # [n, d_model] LN(resid1): the FFN's input
    ffn_pre: np.ndarray  # [n, d_ff] norm1 W_1 + b_1
    ffn_hidden: np.ndarray  # [n, d_ff] GELU(ffn_pre)
    ffn_out: np.ndarray  # [n, d_model] ffn_hidden W_2 + b_2
    resid2: np.ndarray  # [n, d_model] norm1 + ffn_out
    out: np.ndarray  # [n, d_model] LN(resid2) = hidden_states[layer + 1]


@dataclass
class ForwardResult:
    """What ``MiniLM.forward`` returns, for any leading (batch) dimensions."""

    hidden_states: list[np.ndarray]  # L + 1 arrays [..., n, d_model]: x⁰, then each layer's
    attentions: list[np.ndarray]  # L arrays [..., h, n, n]; empty unless asked for
    embeddings: EmbeddingTrace
    layers: list[LayerTrace] | None  # only when asked for


@dataclass
class EncoderOutput:
    """One text through MiniLM. ``hidden_states``, ``attentions`` and ``embeddings`` are always
    recorded; ``layers`` (Q/K/V per head, scores, FFN activations …: about 0.4 MB per layer for
    10 tokens, 43 MB per layer for 512) only with ``run(text, trace=True)``, otherwise None."""

    text: str
    backend: str
    tokens: list[str]  # WordPiece tokens, [CLS] first and [SEP] last
    ids: np.ndarray  # [n] int64
    offsets: list[tuple[int, int]]  # character span of each token in text ((0, 0) for specials)
    hidden_states: np.ndarray  # [L + 1, n, d_model]: x⁰ (embedding output), then each layer
    attentions: np.ndarray  # [L, h, n, n] softmax weights; rows sum to 1
    sentence_embedding: np.ndarray  # [d_model] mean of hidden_states[-1] over tokens, L2-normed
    embeddings: EmbeddingTrace
    truncated: bool = False  # True when the text had more tokens than the model has positions
    n_original: int = 0  # the text's token count before truncation ([CLS] and [SEP] included)
    layers: list[LayerTrace] | None = None
    #: The (layer, head) pairs switched off (``run(text, ablate=...)``), 0-based; () for none.
    ablated: tuple[tuple[int, int], ...] = ()

    @property
    def n(self) -> int:
        return len(self.tokens)
