"""Shared Streamlit AppTest setup for the page tests: open one page of the app, check it ran clean.

Import it as ``from apptest_support import open_page, no_exception``; ``tests/`` is on
``sys.path`` under pytest's default (rootdir-based, "prepend") import mode, as for ``conftest``.

AppTest notes (streamlit 1.67):
- ``AppTest.from_file("app.py")`` runs the router; ``switch_page`` takes a page *file* path. Pages
  live inside the package, so we pass the absolute path ``navigation.page_path(...)``.
- ``switch_page`` works only after a first ``run()``: before it, Streamlit knows pages by file
  name, not by the url paths ``st.navigation`` registers. That first run would render the default
  page (Tokens) for nothing, before every page opened; so ``open_page`` asks for the page's
  script hash (its url path's, as a browser at that URL does) on the very first run instead,
  through AppTest's ``_page_hash`` (private; ``open_page`` checks the page that ran is the one
  asked for, so a change in Streamlit fails loudly). ``switch_page`` itself does not rerun.
- Session state set before the first ``run()`` (keys "lang", "sentence", "backend") is what the
  sidebar widgets start from, as if the user had chosen it, and it survives the page switch. A
  backend that is not available here is replaced by the sidebar's default.
- Each AppTest scans every installed package for custom components on its first ``run()``
  (0.3–0.7 s here, reading all their metadata); a server does that once per process. So every
  AppTest opened here shares one scan (``_components``, through the private
  ``_bidi_component_manager``): a page's measured time is the page's, and the suite is faster.
- A data editor cannot be edited with ``set_value``; its edit state (``edited_rows`` …) is assigned
  on ``at.session_state`` before ``run()``, which is what the browser would send.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from transformer_walk.app.i18n import translate
from transformer_walk.app.navigation import ROAD

#: The app's entry point, the router every page is reached through.
APP = Path(__file__).resolve().parents[1] / "app.py"

#: The widgets that hold a value (text fields and buttons aside), as AppTest names their kinds.
VALUE_WIDGETS = (
    "slider",
    "select_slider",
    "number_input",
    "selectbox",
    "radio",
    "multiselect",
    "toggle",
    "checkbox",
)

#: Seconds per ``run()``: generous, the Speed run in test_app.py is sized to take a few.
TIMEOUT = 60


@cache
def _components() -> BidiComponentManager:
    """The custom components found once for the whole process, as a server finds them."""
    manager = BidiComponentManager()
    manager.discover_and_register_components(start_file_watching=False)
    return manager


def open_page(
    page_file: str,
    language: str = "en",
    sentence: str | None = None,
    backend: str | None = None,
    timeout: float = TIMEOUT,
    *,
    state: dict[str, object] | None = None,
    assert_no_exception: bool = False,
) -> AppTest:
    """The app opened on ``page_file`` (a file name under the package's pages, e.g. "qkv.py").

    ``language`` is always set in session state; ``sentence`` and ``backend`` only when given, so
    ``None`` leaves the app's defaults; ``state`` sets more keys (a widget's starting value). The
    app runs once, on that page; ``timeout`` is AppTest's default per run. With
    ``assert_no_exception`` the opened page must have raised nothing (see :func:`no_exception`);
    otherwise checking is left to the caller.
    """
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    at._bidi_component_manager = _components()
    at.session_state["lang"] = language
    if sentence is not None:
        at.session_state["sentence"] = sentence
    if backend is not None:
        at.session_state["backend"] = backend
    for key, value in (state or {}).items():
        at.session_state[key] = value
    wanted = page_hash(page_file)
    at._page_hash = wanted
    at.run()
    assert at._finished_page_script_hash == wanted, f"AppTest did not open {page_file}"
    if assert_no_exception:
        no_exception(at)
    return at


def open_address(address: str, timeout: float = TIMEOUT) -> AppTest:
    """The app opened as a browser opens ``address`` (a link such as the share box's,
    "http://localhost:8501/q-k-v?h=4"): a new session, nothing set beforehand, whose first run
    gets the address's query as ``st.query_params`` and the address as ``st.context.url``, on
    the page its path names (the start of the road for "/")."""
    parts = urlsplit(address)
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    at._bidi_component_manager = _components()
    at.context = {"url": urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))}
    at.query_params.update(parse_qsl(parts.query, keep_blank_values=True))
    path = parts.path.strip("/")
    if path:
        at._page_hash = calc_hash(path)
    at.run()
    if path:
        assert at._finished_page_script_hash == calc_hash(path), f"AppTest did not open /{path}"
    return at


def page_hash(page_file: str) -> str:
    """The script hash ``st.navigation`` gives a page of the road: that of its url path."""
    urls = {file: url for _group, pages in ROAD for file, url, *_ in pages}
    return calc_hash(urls[page_file])


def no_exception(at: AppTest) -> None:
    """Assert the last run raised nothing, listing the exceptions' messages if it did."""
    assert not at.exception, [e.value for e in at.exception]


def pick_backend(at: AppTest, name: str) -> str:
    """Pick backend ``name`` in the sidebar and rerun; the run must raise nothing. Returns the
    backend's English label, which the pages name it by (the tests' ``app_backend`` fixture gives
    each available name in turn)."""
    at.radio(key="backend").set_value(name).run()
    no_exception(at)
    return translate(f"backend.{name}", "en")


def send_labels(widget: Any, labels: str | list[str]) -> Any:
    """Make ``widget`` send ``labels`` on the next run, exactly what the browser sends for a choice
    (the option's label, or a list of them). AppTest's ``set_value`` wants the option itself and
    formats it with the page's ``format_func``, which the tree does not tell us how to invert."""
    state = WidgetState()
    state.id = widget.id
    if isinstance(labels, list):
        state.string_array_value.data[:] = labels
    else:
        state.string_value = labels
    sent = type(f"Sent{type(widget).__name__}", (type(widget),), {})
    sent._widget_state = property(lambda _self: state)  # type: ignore[attr-defined]
    widget.__class__ = sent
    return widget


# --- Attention by hand: its score editor and its reveal button ------------------------------------

#: The key of Attention by hand's score editor.
ABH_EDITOR_KEY = "abh_editor"


def edit_scores(at: AppTest, rows: dict[int, dict[str, object]]) -> AppTest:
    """Edit Attention by hand's table as the browser does, ``{row: {column: value}}``: AppTest
    has no data editor, so the edit goes into the session state the widget reads."""
    at.session_state[ABH_EDITOR_KEY] = {"edited_rows": rows, "added_rows": [], "deleted_rows": []}
    return at.run()


def reveal(at: AppTest, language: str = "en", guess: int | None = 0) -> AppTest:
    """Make a guess on Attention by hand (none with ``guess`` None) and press its reveal button."""
    if guess is not None:
        at.radio(key="abh_guess_token").set_value(guess)
    label = translate("attention_by_hand.predict.reveal", language)
    next(b for b in at.button if b.label == label).click()
    return at.run()


def wrong_possessive_text(language: str, text: str) -> str:
    """The wrong-possessive claim, as a page in ``language`` shows it, for the trained toy's
    reading of ``text`` at its last step (AssertionError when the model answers it right)."""
    from transformer_walk.app.caches import name_head_study, training_backend
    from transformer_walk.app.i18n import say
    from transformer_walk.topics.learning.name_head import NameHeadSettings, read_sentence
    from transformer_walk.topics.learning.name_head_claims import wrong_possessive_claim
    from transformer_walk.topics.learning.pronouns import PronounTask, parse

    task = PronounTask(language)
    s = name_head_study(NameHeadSettings(language=language), training_backend())
    sentence = parse(task, text, s.settings.config.max_positions).sentence
    assert sentence is not None
    reading = read_sentence(s.params, s.settings.config, task, sentence, training_backend())
    said = wrong_possessive_claim(task, sentence, reading.his, reading.her)
    assert said is not None, (text, reading.his, reading.her)
    shown = say(said, language=language)  # as the page writes it, escaped for markdown
    assert shown is not None
    return shown
