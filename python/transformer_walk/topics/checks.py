"""The live experiments behind the "Check yourself" page: one small function per question.

Each function runs the toy model (``model.ToyTransformer``, on the backend asked for) or the real
tokenizer and returns the numbers that settle the question, as a small frozen dataclass. The page
only renders them. Work is bounded: the sentence is cut to ``MAX_TOKENS`` tokens, and the one large
experiment (d_model = 512, n = 600) follows ``core.budget``'s rule — NumPy when pure Python would
take too long — and tells the caller through ``backend`` in the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from transformer_walk.core.budget import attention_multiply_adds, backend_for
from transformer_walk.models.toy import (
    BASE_WORDS,
    DEFAULT_SENTENCE,
    BlockWeights,
    ToyConfig,
    ToyTransformer,
    tokenize,
)
from transformer_walk.topics.attention_picks import default_pair, default_query
from transformer_walk.topics.claims import token_label

if TYPE_CHECKING:
    from tokenizers import Tokenizer

    from transformer_walk.models.smollm2 import SmolLM2

MAX_TOKENS = 16  # tokens of the sidebar's sentence the experiments use (pure Python stays quick)
LONG_D_MODEL, LONG_H = 512, 8  # the original base model's width and heads
LONG_LENGTHS = (10, 600)  # a short input and one longer than 512 tokens
SEEDS = (0, 1, 2, 3, 4)  # differently initialised toy models for the "is it truth?" question
RARE_WORD_SENTENCE = "Tom loves his dachshund"  # a rare word that WordPiece cuts into pieces


def check_text(text: str) -> tuple[str, bool]:
    """The text the experiments run on: the sentence's first MAX_TOKENS tokens joined by spaces
    (tokenising that again gives the same tokens), or the default sentence when the text has fewer
    than two tokens (order and symmetry need a pair). The flag says whether the default was used."""
    tokens = tokenize(text)
    if len(tokens) < 2:
        return DEFAULT_SENTENCE, True
    return " ".join(tokens[:MAX_TOKENS]), False


def max_abs_diff(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b)), initial=0.0))


# --- 1. n counts tokens, not words -------------------------------------------------------------


def _named(tokens: list[str], position: int) -> str:
    """A token by position and text, "3 · cat", as the pages name tokens."""
    return token_label(position + 1, tokens[position])


@dataclass(frozen=True)
class TokenCount:
    text: str
    words: int  # chunks between spaces
    toy_tokens: int  # the toy model's word-level tokens (punctuation and CJK characters split)
    pieces: list[str] | None  # WordPiece tokens with [CLS]/[SEP]; None without the tokenizer

    @property
    def wordpiece_n(self) -> int | None:
        return None if self.pieces is None else len(self.pieces)


def token_count(text: str, tokenizer: Tokenizer | None = None) -> TokenCount:
    """Words against tokens for ``text``; ``tokenizer`` is MiniLM's WordPiece (or None)."""
    from transformer_walk.models.minilm.wordpiece import count_words, word_pieces

    pieces = word_pieces(tokenizer, text).tokens if tokenizer is not None else None
    return TokenCount(text, count_words(text), len(tokenize(text)), pieces)


# --- 2. d_model = 512 is a width, not a length limit -------------------------------------------


@dataclass(frozen=True)
class LengthRun:
    n: int
    x_shape: tuple[int, int]  # [n, d_model] the block's input
    weights_shape: tuple[int, int, int]  # [h, n, n]
    out_shape: tuple[int, int]  # [n, d_model]
    max_row_sum_error: float  # |Σ_j a_ij − 1|, largest over heads and rows
    finite: bool  # every output number is finite


@dataclass(frozen=True)
class LengthCheck:
    d_model: int
    h: int
    backend: str  # the backend that really ran (NumPy stands in for pure Python)
    runs: list[LengthRun]


def filler_text(n: int) -> str:
    """``n`` word tokens, the toy vocabulary's words in turn (generated, not typed)."""
    return " ".join(BASE_WORDS[i % len(BASE_WORDS)] for i in range(n))


def long_input_multiply_adds(lengths: tuple[int, ...]) -> int:
    """What ``long_input`` asks of its backend: for each length n, the block's
    ``attention_weights`` and ``attention`` over LONG_H heads of d_k = 64 (the one-hot rows and
    the lookup are a few per cent more, left out)."""
    d_k = LONG_D_MODEL // LONG_H
    return sum(
        attention_multiply_adds(LONG_H, n, n, d_k) + attention_multiply_adds(LONG_H, n, n, d_k, d_k)
        for n in lengths
    )


def long_input(backend: str, lengths: tuple[int, ...] = LONG_LENGTHS) -> LengthCheck:
    """One toy block with d_model = 512, h = 8 run on inputs of each length in ``lengths``."""
    used = backend_for(backend, long_input_multiply_adds(lengths))
    model = ToyTransformer(ToyConfig(d_model=LONG_D_MODEL, h=LONG_H, d_ff=4 * LONG_D_MODEL), used)
    runs = []
    for n in lengths:
        trace = model.run(filler_text(n))
        block = trace.blocks[0]
        runs.append(
            LengthRun(
                n=trace.n,
                x_shape=tuple(block.x_in.shape),
                weights_shape=tuple(block.weights.shape),
                out_shape=tuple(trace.output.shape),
                max_row_sum_error=max_abs_diff(block.weights.sum(-1), 1.0),
                finite=bool(np.isfinite(trace.output).all()),
            )
        )
    return LengthCheck(LONG_D_MODEL, LONG_H, used, runs)


# --- 3. W^Q, W^K, W^V are fixed; Q, K, V are not -------------------------------------------------


@dataclass(frozen=True)
class ActivationCheck:
    texts: tuple[str, str]
    token: str  # the first token, shared by both texts
    w_q_difference: float  # the second block's W^Q in the two runs: 0, the same parameters
    q_difference: float  # that token's query in the second block: differs with the context
    q_first: np.ndarray  # [d_model] the query in the first text
    q_second: np.ndarray  # [d_model] … in the second


#: What follows the sentence's first token in the other context: a whole clause, in the script
#: of that token (the toy reads a Chinese character a token).
OTHER_CONTINUATION = "saw a big red car in the park"
OTHER_CONTINUATION_ZH = "看见公园里停着一辆红色的大汽车"
_CJK = re.compile(r"[\u3400-\u9fff]")


def other_context(tokens: list[str]) -> str:
    """The same first token followed by another clause: "tom saw a big red car in the park",
    "我看见公园里停着一辆红色的大汽车" (reversed if the sentence already is that clause)."""
    chinese = bool(_CJK.match(tokens[0]))
    rest = OTHER_CONTINUATION_ZH if chinese else OTHER_CONTINUATION
    words = list(rest) if chinese else rest.split()
    if words == tokens[1:]:  # the sentence already is this continuation
        words = words[::-1]
    return ("" if chinese else " ").join([tokens[0], *words])


def activations_change(text: str, backend: str) -> ActivationCheck:
    """Two blocks, two sentences that start with the same token. The second block's W^Q is the
    same object in both runs, but its input is already contextual, so the query differs."""
    first, _ = check_text(text)
    tokens = tokenize(first)
    second = other_context(tokens)
    model = ToyTransformer(ToyConfig(n_layers=2), backend)
    a, b = model.run(first), model.run(second)
    return ActivationCheck(
        texts=(first, second),
        token=tokens[0],
        w_q_difference=max_abs_diff(a.blocks[1].params.W_Q, b.blocks[1].params.W_Q),
        q_difference=max_abs_diff(a.blocks[1].Q[0], b.blocks[1].Q[0]),
        q_first=a.blocks[1].Q[0],
        q_second=b.blocks[1].Q[0],
    )


# --- 4. the dot product matches whatever the learned projections make it match -------------------


@dataclass(frozen=True)
class ProjectionCheck:
    tokens: list[str]
    query: int  # index of the query token
    weights_by_seed: np.ndarray  # [len(seeds), n] the query's weights in head 1, one model a row
    seeds: tuple[int, ...]

    @property
    def top_keys(self) -> list[str]:
        """Each seed's most-weighted key, "3 · cat" (by position: a word can occur twice)."""
        return [_named(self.tokens, int(row.argmax())) for row in self.weights_by_seed]


def weights_by_seed(text: str, backend: str, seeds: tuple[int, ...] = SEEDS) -> ProjectionCheck:
    """The same sentence through toy models whose W^Q, W^K (and everything else) come from
    different seeds: what the query attends to follows the projections, not the words."""
    used, _ = check_text(text)
    rows, tokens = [], []
    for seed in seeds:
        trace = ToyTransformer(ToyConfig(seed=seed), backend).run(used)
        tokens = trace.tokens
        rows.append(trace.blocks[0].weights[0, default_query(tokens)])  # head 1, the query's row
    return ProjectionCheck(tokens, default_query(tokens), np.stack(rows), seeds)


@dataclass(frozen=True)
class MatchCheck:
    tokens: list[str]
    query: int
    raw: np.ndarray  # [n] softmax(x_i · x_j / √d_model): the embeddings compared as they are
    projected: np.ndarray  # [n] head 1 of the toy block: softmax(q_i · k_j / √d_k)

    @property
    def raw_top(self) -> str:
        return _named(self.tokens, int(self.raw.argmax()))

    @property
    def projected_top(self) -> str:
        return _named(self.tokens, int(self.projected.argmax()))


def raw_vs_projected(text: str, backend: str) -> MatchCheck:
    """The same dot product twice: on the block's input as it is (W^Q = W^K = I), and after the
    toy model's projections W^Q, W^K. The unprojected product tends to favour the token itself
    (x · x = |x|²); what matches after projection is whatever W^Q and W^K make match."""
    from transformer_walk.core import get_backend

    used, _ = check_text(text)
    trace = ToyTransformer(ToyConfig(), backend).run(used)
    i, x = default_query(trace.tokens), trace.x0  # x: (n, d_model)
    raw = get_backend(backend).attention_weights(x[None], x[None])[0]  # (1, n, n) → (n, n)
    return MatchCheck(trace.tokens, i, np.asarray(raw)[i], trace.blocks[0].weights[0, i])


# --- 5. V does not decide the weights ------------------------------------------------------------


@dataclass(frozen=True)
class ValueCheck:
    tokens: list[str]
    weights_difference: float  # largest change of any weight when W^V is re-seeded: 0
    output_difference: float  # largest change of the heads' output: not 0
    weights: np.ndarray  # [n, n] head 1 before
    weights_new_v: np.ndarray  # [n, n] head 1 with the new W^V


def reseeded_values(weights: BlockWeights, seed: int = 12345) -> BlockWeights:
    """The same block with only W^V replaced by a fresh draw of the same size and scale."""
    rng = np.random.default_rng(seed)
    rows, cols = weights.W_V.shape
    return replace(weights, W_V=rng.standard_normal((rows, cols)) / np.sqrt(rows))


def values_and_weights(text: str, backend: str) -> ValueCheck:
    """Run the toy block twice, the second time with W^V re-seeded (so V changes) and nothing
    else touched."""
    used, _ = check_text(text)
    model = ToyTransformer(ToyConfig(), backend)
    before = model.run(used)
    model.weights = [reseeded_values(model.weights[0])]  # this model only: a new W^V
    after = model.run(used)
    b, a = before.blocks[0], after.blocks[0]
    return ValueCheck(
        tokens=before.tokens,
        weights_difference=max_abs_diff(b.weights, a.weights),
        output_difference=max_abs_diff(b.head_out, a.head_out),
        weights=b.weights[0],
        weights_new_v=a.weights[0],
    )


# --- 6. multi-head: each head its own projections ----------------------------------------------


@dataclass(frozen=True)
class HeadCheck:
    tokens: list[str]
    query: int
    h: int
    d_k: int
    rows: np.ndarray  # [h, n] the query's weights in each head
    column_blocks_differ: bool  # the heads' column blocks of W^Q are different matrices

    @property
    def top_keys(self) -> list[str]:
        return [_named(self.tokens, int(r.argmax())) for r in self.rows]


def heads_differ(text: str, backend: str, h: int = 4) -> HeadCheck:
    """d_model = 8 split into ``h`` heads: each head reads its own d_k columns of W^Q, W^K, W^V."""
    used, _ = check_text(text)
    trace = ToyTransformer(ToyConfig(h=h), backend).run(used)
    block, d_k = trace.blocks[0], trace.config.d_k
    w_q = block.params.W_Q
    blocks = [w_q[:, i * d_k : (i + 1) * d_k] for i in range(h)]  # h × [d_model, d_k]
    differ = all(max_abs_diff(blocks[i], blocks[j]) > 0 for i in range(h) for j in range(i + 1, h))
    i = default_query(trace.tokens)
    return HeadCheck(trace.tokens, i, h, d_k, block.weights[:, i, :], differ)


# --- 8. generation is sequential -----------------------------------------------------------------


@dataclass(frozen=True)
class GenerationCheck:
    tokens: list[str]
    parallel_passes: int  # training: one causal pass covers every position
    sequential_passes: int  # generation: one pass per new token
    max_difference: float  # each prefix's last output vs the full pass's row: 0 up to rounding


def causal_prefixes(text: str, backend: str) -> GenerationCheck:
    """With a causal mask, position t sees only tokens 1..t, so one pass over the whole sentence
    gives every position's output at once (training) — but producing token t+1 needs the output at
    t first, so generating the sentence takes one pass per token."""
    used, _ = check_text(text)
    model = ToyTransformer(ToyConfig(causal=True), backend)
    full = model.run(used)
    tokens = full.tokens
    gap = 0.0
    for t in range(1, len(tokens) + 1):
        prefix = model.run(" ".join(tokens[:t]))
        gap = max(gap, max_abs_diff(prefix.output[t - 1], full.output[t - 1]))
    return GenerationCheck(tokens, 1, len(tokens), gap)


@dataclass(frozen=True)
class PrefillDecode:
    """The real decoder on the same count of tokens both ways: read at once, written one by one."""

    n: int  # prompt tokens read in the prefill, and tokens then generated one at a time
    prefill_seconds: float  # one forward over all n prompt positions
    decode_seconds: float  # n one-position forwards over the cache, each after the last

    @property
    def ratio(self) -> float:
        return self.decode_seconds / self.prefill_seconds if self.prefill_seconds else 0.0

    @property
    def verdict(self) -> str:
        """ "slower" when writing n tokens took longer than reading n, else "not_slower"."""
        return "slower" if self.decode_seconds > self.prefill_seconds else "not_slower"


#: Tokens of the real prefill-versus-decode race: small, so that the check costs about a second.
REAL_TOKENS = 16


def prefill_vs_decode(model: SmolLM2, text: str, most: int = REAL_TOKENS) -> PrefillDecode:
    """SmolLM2 reads the first ``most`` tokens of ``text`` (the check's text, the default
    sentence when it has none) in one pass, then generates as many new tokens greedily, each a
    one-token forward that needs the one before. The first step's time is the prefill itself;
    both are timed warm, in one call, after an untimed one."""
    if most < 1:
        raise ValueError(f"most must be at least 1, got {most}")
    used, _ = check_text(text)
    ids = model.tokenize(used)[:most]
    # One untimed pass first: the first call after loading also pays for first touches of the
    # weights and the buffers, which would make reading look slower than writing.
    model.generate(ids, 2, stop_at_end=False)
    gen = model.generate(ids, len(ids) + 1, stop_at_end=False)
    decode = float(sum(gen.token_seconds[1:]))  # steps 1 … n: one position each
    return PrefillDecode(len(ids), float(gen.prefill_seconds), decode)


# --- 9. attention is directed --------------------------------------------------------------------


@dataclass(frozen=True)
class SymmetryCheck:
    tokens: list[str]
    pair: tuple[int, int]  # (i, j) shown: his → tom when both are there
    a_ij: float
    a_ji: float
    max_asymmetry: float  # max |a_ij − a_ji| over head 1
    weights: np.ndarray  # [n, n] head 1


def symmetry(text: str, backend: str) -> SymmetryCheck:
    used, _ = check_text(text)
    trace = ToyTransformer(ToyConfig(), backend).run(used)
    a, tokens = trace.blocks[0].weights[0], trace.tokens
    i, j = default_pair(tokens, a)
    return SymmetryCheck(tokens, (i, j), float(a[i, j]), float(a[j, i]), max_abs_diff(a, a.T), a)


# --- 10. order needs positions -------------------------------------------------------------------


@dataclass(frozen=True)
class OrderCheck:
    tokens: list[str]
    shuffled: list[str]
    permutation: list[int]  # shuffled[k] = tokens[permutation[k]]
    without_positions: float  # max |out(shuffled) − out(tokens)[perm]|: 0 up to rounding
    with_positions: float  # the same with sinusoidal positions: not 0


def permutation_for(n: int) -> list[int]:
    """A fixed shuffle: the order reversed (an odd n keeps its middle token in place, which is
    fine — equivariance is about every row, moved or not)."""
    return list(range(n))[::-1]


def order_check(text: str, backend: str) -> OrderCheck:
    used, _ = check_text(text)
    tokens = tokenize(used)
    perm = permutation_for(len(tokens))
    shuffled = [tokens[p] for p in perm]
    gaps = []
    for positions in (False, True):
        model = ToyTransformer(ToyConfig(positions=positions), backend)
        out = model.run(used).output  # (n, d_model)
        out_shuffled = model.run(" ".join(shuffled)).output  # (n, d_model)
        gaps.append(max_abs_diff(out_shuffled, out[perm]))
    return OrderCheck(tokens, shuffled, perm, gaps[0], gaps[1])
