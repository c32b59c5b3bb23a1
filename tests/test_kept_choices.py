"""The sidebar's choices hold whatever run the server receives: driven through Streamlit's
browserless client (the agent API, ``POST /_stcore/agent/interact``) on conftest's real server.

A browser resends every widget's value with each rerun; a rerun interrupted by the next one, or a
client that sends only what changed (the agent API does), arrives without the radios' values, and
Streamlit then drops their keys unless the widgets keep them (``sidebar.KEEP_FOR``). Without that,
the next page came up English and pure Python: a session on /tokens?lang=zh, a sentence written,
then N-grams opened, and every page after it was English.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

import pytest

from transformer_walk.app.i18n import LANGUAGES, translate

pytestmark = [
    # The browser tests' server and worker (conftest's app_server), not a server of its own.
    pytest.mark.xdist_group("browser"),
]

TIMEOUT_S = 120
CJK = re.compile(r"[\u4e00-\u9fff]")


def interact(server: str, body: dict[str, Any]) -> dict[str, Any]:
    """One agent API call: answered when the session's script run has finished."""
    request = urllib.request.Request(
        f"{server}/_stcore/agent/interact",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            answer: dict[str, Any] = json.loads(response.read())
    except urllib.error.HTTPError as error:  # the body says which field it refused, and why
        raise AssertionError(f"{error}: {error.read()[:1000]!r}") from None
    return answer


def _nodes(tree: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(tree, dict):
        if "type" in tree:
            found.append(tree)
        for value in tree.values():
            found += _nodes(value)
    elif isinstance(tree, list):
        for value in tree:
            found += _nodes(value)
    return found


def shown(answer: dict[str, Any], key: str) -> Any:
    """The value the widget ``key`` shows in the answer's tree (its label, for a radio)."""
    values = [node.get("value") for node in _nodes(answer["tree"]) if node.get("key") == key]
    assert values, f"no widget {key!r} in the answer"
    return values[0]


def title(answer: dict[str, Any]) -> str:
    return str(next(n["props"]["body"] for n in _nodes(answer["tree"]) if n["type"] == "title"))


@pytest.fixture(scope="module")
def server(app_server) -> str:  # noqa: ANN001 - conftest's soak.Server
    return str(app_server.url)


def test_a_sentence_written_alone_keeps_chinese_across_pages(server: str) -> None:
    first = interact(server, {"page": "tokens", "query_params": {"lang": ["zh"]}})
    session = first["session_id"]
    assert shown(first, "lang") == LANGUAGES["zh"]
    written = interact(server, {"session_id": session, "widget_state": {"sentence": "I saw a bat"}})
    assert shown(written, "lang") == LANGUAGES["zh"]
    for page in ("n-grams", "self-attention"):
        answer = interact(server, {"session_id": session, "page": page})
        assert shown(answer, "lang") == LANGUAGES["zh"], page
        assert CJK.search(title(answer)), (page, title(answer))
        assert shown(answer, "sentence") == "I saw a bat", page


def test_the_backend_and_the_sentence_hold_when_only_the_language_is_sent(server: str) -> None:
    session = interact(server, {"page": "tokens"})["session_id"]
    for written in (
        {"backend": translate("backend.numpy", "en")},
        {"sentence": "the cat saw the cat"},
        {"lang": LANGUAGES["zh"]},
    ):
        interact(server, {"session_id": session, "widget_state": written})
    answer = interact(server, {"session_id": session, "page": "positions"})
    assert shown(answer, "lang") == LANGUAGES["zh"]
    assert shown(answer, "backend") == translate("backend.numpy", "zh")
    assert shown(answer, "sentence") == "the cat saw the cat"
