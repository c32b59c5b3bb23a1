"""Open every page of the road once, in each language, on a server that has just started, so the
first students of a class find its models read and its default computations done.

    python scripts/prewarm.py --url http://127.0.0.1:8501             # a server already up
    python scripts/prewarm.py --url http://127.0.0.1:8501 --wait 120  # wait for it first

A page's default state (the running sentence, every widget at its default) is computed by
running the page: this client does what a browser does, over the same WebSocket
(``/_stcore/stream``) and protocol, one session, one page after the other, and waits for each
run to finish. Everything a page keeps in the server-wide caches (models, traces, trained
models, chart specs) is then there for every session after it. Needs no agent API, so it warms
the servers a class actually uses (``make run``, ``make serve``).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
if importlib.util.find_spec("transformer_walk") is None:
    sys.path.insert(0, str(ROOT / "python"))

import soak  # noqa: E402  (scripts/soak.py: the server's health)
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from transformer_walk.app.i18n import LANGUAGES  # noqa: E402
from transformer_walk.app.navigation import ROAD  # noqa: E402

PAGES = [url for _group, pages in ROAD for _file, url, _title, _icon in pages]


def stream_url(url: str) -> str:
    """The WebSocket address of the server at ``url`` (http://host:port)."""
    parts = urlsplit(url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}/_stcore/stream"


def open_page(ws, page: str, language: str, timeout: float) -> tuple[float, list[str]]:  # noqa: ANN001
    """Run ``page`` in ``language`` in the session of ``ws``; (seconds, the run's exceptions).
    Raises RuntimeError when the server ran another page than the one asked for."""
    message = BackMsg()
    message.rerun_script.page_name = page
    message.rerun_script.query_string = f"lang={language}"
    started = time.perf_counter()
    ws.send(message.SerializeToString())
    errors: list[str] = []
    ran = None
    while True:
        answer = ForwardMsg()
        answer.ParseFromString(ws.recv(timeout=timeout))
        kind = answer.WhichOneof("type")
        if kind == "navigation":
            current = answer.navigation.page_script_hash
            ran = next((p.url_pathname for p in answer.navigation.app_pages
                        if p.page_script_hash == current), None)  # fmt: skip
        elif kind == "delta" and answer.delta.new_element.WhichOneof("type") == "exception":
            exception = answer.delta.new_element.exception
            errors.append(f"{exception.type}: {exception.message}"[:300])
        elif kind == "script_finished":
            break
    if ran != page:
        raise RuntimeError(f"asked for page {page!r}, the server ran {ran!r}")
    return time.perf_counter() - started, errors


def prewarm(url: str, *, timeout: float = 300.0) -> list[tuple[str, str, float, list[str]]]:
    """Every page in every language once, in one session: (page, language, seconds, errors)."""
    done = []
    with connect(stream_url(url), subprotocols=["streamlit"], max_size=None) as ws:  # type: ignore[list-item]
        for language in LANGUAGES:
            for page in PAGES:
                seconds, errors = open_page(ws, page, language, timeout)
                done.append((page, language, seconds, errors))
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8501")
    parser.add_argument("--wait", type=float, default=0.0, help="seconds to wait for the server")
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.wait
    while not soak.healthy(args.url, timeout=1):
        if time.monotonic() > deadline:
            print(f"prewarm: no server answers at {args.url}", file=sys.stderr)
            return 1
        time.sleep(0.5)
    started = time.monotonic()
    done = prewarm(args.url)
    failed = [(page, language, errors) for page, language, _s, errors in done if errors]
    slowest = max(done, key=lambda row: row[2])
    print(
        f"prewarm: {len(done)} pages opened at {args.url} in {time.monotonic() - started:.1f} s "
        f"(the slowest {slowest[0]} in {slowest[1]}, {slowest[2]:.1f} s); "
        f"{len(failed)} with an exception"
    )
    for page, language, errors in failed:
        print(f"  {page} ({language}): {errors[0]}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
