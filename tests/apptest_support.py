"""Shared Streamlit AppTest setup for the page tests: open one page of the app, check it ran clean.

Import it as ``from apptest_support import open_page, no_exception``; ``tests/`` is on
``sys.path`` under pytest's default (rootdir-based, "prepend") import mode, as for ``conftest``.

AppTest notes (streamlit 1.67):
- ``AppTest.from_file("app.py")`` runs the router; ``switch_page`` takes a page *file* path. Pages
  live inside the package, so we pass the absolute path ``navigation.page_path(...)``.
- ``run()`` must come once before ``switch_page``: before the first run Streamlit knows pages only
  by file name, not as ``st.navigation`` registers them. ``switch_page`` itself does not rerun.
- Session state set before the first ``run()`` (keys "lang", "sentence", "backend") is what the
  sidebar widgets start from, as if the user had chosen it, and it survives the page switch. A
  backend that is not available here is replaced by the sidebar's default.
- A data editor cannot be edited with ``set_value``; its edit state (``edited_rows`` …) is assigned
  on ``at.session_state`` before ``run()``, which is what the browser would send.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from transformer_walk.app.navigation import page_path

#: The app's entry point, the router every page is reached through.
APP = Path(__file__).resolve().parents[1] / "app.py"

#: Seconds per ``run()``: generous, the Speed run in test_app.py is sized to take a few.
TIMEOUT = 60


def open_page(
    page_file: str,
    language: str = "en",
    sentence: str | None = None,
    backend: str | None = None,
    timeout: float = TIMEOUT,
    *,
    assert_no_exception: bool = False,
) -> AppTest:
    """The app opened on ``page_file`` (a file name under the package's pages, e.g. "qkv.py").

    ``language`` is always set in session state; ``sentence`` and ``backend`` only when given, so
    ``None`` leaves the app's defaults. The router runs once, then the page is switched to and run;
    ``timeout`` is AppTest's default per run. With ``assert_no_exception`` the opened page must
    have raised nothing (see :func:`no_exception`); otherwise checking is left to the caller.
    """
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    at.session_state["lang"] = language
    if sentence is not None:
        at.session_state["sentence"] = sentence
    if backend is not None:
        at.session_state["backend"] = backend
    at.run().switch_page(str(page_path(page_file))).run()
    if assert_no_exception:
        no_exception(at)
    return at


def no_exception(at: AppTest) -> None:
    """Assert the last run raised nothing, listing the exceptions' messages if it did."""
    assert not at.exception, [e.value for e in at.exception]
