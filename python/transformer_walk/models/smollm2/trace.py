"""What SmolLM2 records: a forward's intermediates (``run``) and a generation's steps.

The pages render these; they never recompute the math. Shapes use n tokens, h = 9 query heads,
h_kv = 3 key/value heads, d_head = 64, d_model = 576, d_ff = 1536 and V = 49,152 (SmolLM2-135M).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from transformer_walk.models.smollm2.modules import DecoderLayer


@dataclass
class LayerTrace:
    """Everything one decoder layer computed, in order (``run(text, trace=True)`` only)."""

    params: DecoderLayer  # this layer's weights (references, not copies)
    x_in: np.ndarray  # [n, d_model] the residual stream entering the layer
    norm1: np.ndarray  # [n, d_model] RMSNorm(x_in): attention's input
    q: np.ndarray  # [h, n, d_head] norm1 W^Q, split into heads, before RoPE
    k: np.ndarray  # [h_kv, n, d_head] norm1 W^K, before RoPE
    v: np.ndarray  # [h_kv, n, d_head] norm1 W^V (values are not turned)
    q_rot: np.ndarray  # [h, n, d_head] RoPE(q): each pair turned by its position
    k_rot: np.ndarray  # [h_kv, n, d_head] RoPE(k)
    weights: np.ndarray  # [h, n, n] softmax rows (causal) = attentions[layer]
    head_out: np.ndarray  # [h, n, d_head] weights · v of the head's kv group
    concat: np.ndarray  # [n, h·d_head] Concat(head_1, …, head_h)
    attn_out: np.ndarray  # [n, d_model] concat W^O
    resid1: np.ndarray  # [n, d_model] x_in + attn_out
    norm2: np.ndarray  # [n, d_model] RMSNorm(resid1): the FFN's input
    gate: np.ndarray  # [n, d_ff] norm2 W_gate
    up: np.ndarray  # [n, d_ff] norm2 W_up
    gate_act: np.ndarray  # [n, d_ff] SiLU(gate): the gate's values, 0 only where gate is 0
    ffn_hidden: np.ndarray  # [n, d_ff] SiLU(gate) ⊙ up
    ffn_out: np.ndarray  # [n, d_model] ffn_hidden W_down (not added if its MLP is switched off)
    out: np.ndarray  # [n, d_model] resid1 + ffn_out = hidden_states[layer + 1]


@dataclass
class ForwardResult:
    """What ``SmolLM2.forward`` returns for n new tokens."""

    hidden_states: list[np.ndarray]  # L + 1 arrays [n, d_model]: x⁰ = E[ids], then each layer's
    normed: np.ndarray  # [n, d_model] RMSNorm(x^L): what the output head reads
    logits: np.ndarray  # [n, V] float32
    records: list[dict[str, np.ndarray]]  # per layer what was asked for; empty otherwise


@dataclass
class DecoderOutput:
    """One text through SmolLM2, every position at once (teacher forcing).

    ``hidden_states[l]`` is the residual stream after l layers, unnormalised (Hugging Face's
    last hidden state is the normalised one: here that is ``normed``)."""

    text: str
    backend: str
    tokens: list[str]  # each token's text (" loves"); a token holding part of a character shows �
    ids: np.ndarray  # [n] int64: the same ids as llama.cpp's tokenize(text, add_bos=False)
    offsets: list[tuple[int, int]]  # character span of each token in text
    hidden_states: np.ndarray  # [L + 1, n, d_model]: E[ids], then each layer's output
    attentions: np.ndarray  # [L, h, n, n] causal softmax weights: row i is 0 right of column i
    normed: np.ndarray  # [n, d_model] RMSNorm(hidden_states[-1])
    logits: np.ndarray  # [n, V]: row i scores the token after position i
    layers: list[LayerTrace] | None = None  # only with run(text, trace=True)

    @property
    def n(self) -> int:
        return len(self.tokens)


@dataclass
class Step:
    """One generated token and the choice it came from.

    The candidates are the ``len(top_ids)`` best-scored tokens, best first, with the model's own
    probabilities (softmax of the logits) and those of the distribution actually sampled from
    (after the temperature, top-k and top-p; 0 for a token they cut, 1 for the greedy pick)."""

    index: int  # 0 for the first new token
    position: int  # the token's position in the whole sequence (the prompt's length for index 0)
    id: int
    piece: str  # the token's own text (a part of a character shows �)
    text: str  # what it adds to the generated text (a character split over tokens comes whole)
    probability: float  # the model's probability of this token
    sample_probability: float  # its probability in the sampled distribution
    top_ids: np.ndarray  # [k] int64 the best-scored tokens, best first
    top_pieces: list[str]  # [k] their texts
    top_logits: np.ndarray  # [k] float32
    top_probs: np.ndarray  # [k] float64 the model's probabilities (softmax at temperature 1)
    top_sample_probs: np.ndarray  # [k] float64 their probabilities in the sampled distribution
    seconds: float  # the forward pass this token's logits came from (the prefill, for index 0),
    # plus its sampling


@dataclass
class Generation:
    """What ``generate`` returns: the new tokens, their text and how long each took."""

    prompt_ids: np.ndarray  # [n] int64
    ids: np.ndarray  # [k] int64 the new tokens (a final stop token among them)
    text: str  # the new tokens' text, without a final stop token such as <|im_end|>
    steps: list[Step]
    prefill_seconds: float  # the prompt's forward, all n positions in one pass (0 if k = 0)
    finish_reason: str  # "length" (max_new_tokens), "stop" (an end token), "context" (full)
    token_seconds: list[float] = field(default_factory=list)  # [k] each step's seconds

    @property
    def prefill_tokens_per_second(self) -> float:
        """Prompt tokens scored a second in the prefill (0 when nothing was computed)."""
        return len(self.prompt_ids) / self.prefill_seconds if self.prefill_seconds else 0.0

    @property
    def decode_tokens_per_second(self) -> float:
        """New tokens a second after the first (each a one-token forward over the cache); 0
        with fewer than two steps."""
        rest = sum(self.token_seconds[1:])
        return (len(self.token_seconds) - 1) / rest if rest else 0.0
