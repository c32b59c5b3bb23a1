"""Prewarming a server (scripts/prewarm.py): every page of the road, in each language, opened
once over Streamlit's own WebSocket, as a browser opens it, before the first student."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from transformer_walk.app.i18n import LANGUAGES
from transformer_walk.app.navigation import ROAD

from conftest import soak

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("scripts_prewarm", SCRIPTS / "prewarm.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["scripts_prewarm"] = module
    spec.loader.exec_module(module)
    return module


prewarm = _load()


def test_the_stream_is_found_beside_the_app() -> None:
    assert prewarm.stream_url("http://127.0.0.1:8501") == "ws://127.0.0.1:8501/_stcore/stream"
    assert prewarm.stream_url("https://school.example/walk/") == (
        "wss://school.example/walk/_stcore/stream"
    )


@pytest.mark.soak
@pytest.mark.xdist_group("browser")  # the browser tests' server and worker
def test_every_page_opens_in_both_languages_without_an_exception(app_server: soak.Server) -> None:
    done = prewarm.prewarm(app_server.url)
    pages = [url for _group, items in ROAD for _file, url, _title, _icon in items]
    assert [(page, language) for page, language, _s, _e in done] == [
        (page, language) for language in LANGUAGES for page in pages
    ]
    assert [(page, language, errors) for page, language, _s, errors in done if errors] == []


@pytest.mark.soak
@pytest.mark.xdist_group("browser")
def test_a_page_the_server_does_not_have_is_an_error(app_server: soak.Server) -> None:
    from websockets.sync.client import connect

    with (
        connect(prewarm.stream_url(app_server.url), subprotocols=["streamlit"]) as ws,
        pytest.raises(RuntimeError, match="asked for page 'no-such-page'"),
    ):
        prewarm.open_page(ws, "no-such-page", "en", timeout=120)
