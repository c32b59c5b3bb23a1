"""Soak the real app: several browser sessions at once, for a while, counting every error.

    python scripts/soak.py                              # 5 sessions for 60 s
    python scripts/soak.py --sessions 6 --seconds 300   # longer, by hand
    python scripts/soak.py --actions 6 --seconds 600    # 6 actions a session, 600 s at most
    python scripts/soak.py --url http://127.0.0.1:8501  # against a server already running

Starts ``streamlit run app.py`` headless on a free local port (unless ``--url``), warms every page
up once (with a long sentence), then lets N concurrent sessions (Playwright contexts in one
headless Chromium) wander the road until time is up (or each has done ``--actions`` actions):
open random pages in both languages, type
random sentences into the sidebar (normal, empty, CJK, emoji, long), switch language and backend,
and poke the page's own widgets, each time waiting for the script run to finish. Counted as
errors: a Streamlit exception box, a page error or console error in the browser, an HTTP failure,
a page that never finishes rendering, a dead or unhealthy server. The server's resident memory
(its process and children, from /proc) is read after the warm-up and at the end. Uses the system
Chromium (``--chromium``, default /usr/bin/chromium); it never downloads a browser. Exits 1 when
any error was counted.

Only what it starts is stopped: the server's own process group, and the browser through
Playwright. ``tests/test_soak.py`` runs it with a fixed seed and a fixed number of actions per
session, on the browser walk's server after the walk (which stands in for the warm-up), so that
how much it checks does not depend on how busy the machine is; its time limit is only a guard
against a hang.
``-v`` adds page load times and the memory readings taken every 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import importlib.util
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# From a checkout without the package installed, the source; otherwise the installed package (the
# tests load this file, and must test the wheel, not the tree beside it).
if importlib.util.find_spec("transformer_walk") is None:
    sys.path.insert(0, str(ROOT / "python"))

from transformer_walk.app.i18n import LANGUAGES, MESSAGES, translate  # noqa: E402
from transformer_walk.app.navigation import ROAD  # noqa: E402
from transformer_walk.app.sidebar import MAX_SENTENCE_CHARS  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
RENDER_TIMEOUT_MS = 60_000  # a page whose script has not finished by then counts as an error
HEALTH_TIMEOUT_S = 20.0  # busy is fine (2 CPUs, 6 browsers); silent this long is hung
ACTION_TIMEOUT_MS = 10_000  # finding / using one widget; a miss is skipped, not an error
RUNNING = '[data-testid="stApp"][data-test-script-state="running"]'
NOT_RUNNING = '[data-testid="stApp"][data-test-script-state="notRunning"]'
EXCEPTION = '[data-testid="stException"]'
PROBES = ("_stcore/health", "_stcore/host-config")  # what the client asks the server on load

# The pages of the road: (url path, title message id); "/" forwards to the first.
PAGES: list[tuple[str, str]] = [
    (url, title) for _group_id, pages in ROAD for _file, url, title, _icon in pages
]

# Sentences typed into the sidebar: ordinary, empty, blank, CJK, mixed, emoji, odd characters,
# one word repeated, long (up to and over the sidebar's 2000-character cap).
SENTENCES: list[str] = [
    "The cat sat on the mat.",
    "Tom loves his dog.",
    "",
    "   ",
    "猫坐在垫子上。",
    "我爱自然语言处理，也爱 transformers。",
    "Attention is all you need 注意力就是一切",
    "🙂🐈‍⬛🚀 emoji only? 👍🏽",
    "a",
    "!!! ??? ... --- ***",
    "tab\tand\nnewline and  double  space",
    "<script>alert(1)</script> & \"quotes\" 'and' `backticks` $x$ **bold**",
    "Zero\u200bwidth joiner\u200d and RTL \u202eevil\u202c text",
    "word " * 60,
    ("The quick brown fox jumps over the lazy dog. " * 20).strip(),
    "狐" * 700,
    ("Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 40)[:2000],
    "Transformers read every word at once. " * 70,  # over the cap: the box drops it whole
]
# The longest that get through, typed on every page in the warm-up.
HEAVY = sorted((s for s in SENTENCES if len(s) <= MAX_SENTENCE_CHARS), key=len)[-4:]

# Widgets in the page body a session may poke, by kind; buttons skip the Speed page's race
# (it runs benchmarks, which is not what a soak is for).
WIDGETS: dict[str, str] = {
    "button": '[data-testid="stButton"] button',
    "form_submit": '[data-testid="stFormSubmitButton"] button',
    "radio": '[data-testid="stRadio"] label',
    "checkbox": '[data-testid="stCheckbox"] label',
    "slider": '[data-testid="stSlider"] [role="slider"]',
    "select": '[data-testid="stSelectbox"] [data-baseweb="select"]',
    "multiselect": '[data-testid="stMultiSelect"] [data-baseweb="select"]',
    "number": '[data-testid="stNumberInput"] input',
    "text": '[data-testid="stTextInput"] input',
    "expander": '[data-testid="stExpander"] summary',
    "tab": 'button[role="tab"]',
}


def heading_id(title_id: str) -> str:
    """The id of the page's own title (the navigation may use a shorter label)."""
    own = title_id.split(".")[0] + ".title"
    return own if own in MESSAGES else title_id


# --- the server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def healthy(url: str, timeout: float = 5.0) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=timeout) as reply:
            return reply.read() == b"ok"
    except OSError:
        return False


@dataclasses.dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server and anything it started: its own process group (it leads it)."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    else:  # the leader is gone; make sure no child of it lingers in its group
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)


@contextlib.contextmanager
def serve_app(
    app: Path = ROOT / "app.py",
    startup_timeout: float = 60.0,
    *,
    agent_api: bool = False,
    agent_sessions: int = 400,
    port: int | None = None,
    address: str = "127.0.0.1",
    env: dict[str, str] | None = None,
) -> Iterator[Server]:
    """Run ``streamlit run <app>`` headless on ``port`` (a free one by default) until the block
    ends; with ``agent_api``, also Streamlit's browserless client API (``POST
    /_stcore/agent/interact``), holding up to ``agent_sessions`` of its sessions at once
    (Streamlit's default, 100, refuses the 101st student of a class); ``env`` adds to the
    server's environment."""
    port = free_port() if port is None else port
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        log = Path(tmp) / "streamlit.log"
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "streamlit",
                    "run",
                    str(app),
                    "--server.headless=true",
                    f"--server.port={port}",
                    f"--server.address={address}",
                    "--browser.gatherUsageStats=false",
                    "--server.fileWatcherType=none",
                    f"--server.enableAgentApi={str(agent_api).lower()}",
                    f"--server.agentMaxSessions={agent_sessions}",
                ],
                cwd=ROOT,
                env={**os.environ, **(env or {})},
                stdout=sink,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, so stop() reaches its children
            )
        server = Server(url, process, log)
        try:
            deadline = time.monotonic() + startup_timeout
            while not healthy(url, timeout=1):
                if process.poll() is not None:
                    raise RuntimeError(f"streamlit exited early:\n{server.log_tail()}")
                if time.monotonic() > deadline:
                    raise RuntimeError(f"streamlit did not serve within {startup_timeout:.0f} s")
                time.sleep(0.2)
            yield server
        finally:
            stop(process)


# --- memory -----------------------------------------------------------------------------------


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])  # the name in (...) may hold spaces
        tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants, in kB (VmRSS from /proc)."""
    tree = _children()
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        todo.extend(tree.get(current, []))
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
                    break
        except OSError:
            pass  # exited meanwhile
    return total


# --- the sessions -----------------------------------------------------------------------------


@dataclasses.dataclass
class Report:
    sessions: int
    seconds: float  # the time limit
    seed: int
    actions_per_session: int | None = None  # None: as many as fit in the time
    page_loads: int = 0  # in the soak proper
    warm_up_loads: int = 0
    tried: int = 0  # actions the sessions set out to do, done or not
    actions: int = 0
    skipped: int = 0  # widget pokes that found nothing to poke, or lost a race with a rerun
    external_failures: int = 0  # requests to other hosts that failed (no internet): not counted
    errors: list[str] = dataclasses.field(default_factory=list)
    rss_start_kb: int = 0
    rss_end_kb: int = 0
    rss_peak_kb: int = 0
    server_alive: bool = True
    warm_up_seconds: float = 0.0
    health_max_s: float = 0.0  # slowest answer to /_stcore/health during the soak
    rss_samples: list[tuple[float, int]] = dataclasses.field(default_factory=list)  # (s, kB)
    load_seconds: dict[str, list[float]] = dataclasses.field(default_factory=dict)  # by page
    runtime: float = 0.0

    @property
    def growth_mb(self) -> float:
        return (self.rss_end_kb - self.rss_start_kb) / 1024

    def summary(self) -> str:
        return (
            f"soak: sessions={self.sessions} seconds={self.seconds:.0f} seed={self.seed} "
            f"actions_per_session={self.actions_per_session} "
            f"warm_up_loads={self.warm_up_loads} page_loads={self.page_loads} "
            f"tried={self.tried} actions={self.actions} skipped={self.skipped} "
            f"errors={len(self.errors)} rss_start={self.rss_start_kb / 1024:.0f}MB "
            f"rss_end={self.rss_end_kb / 1024:.0f}MB rss_peak={self.rss_peak_kb / 1024:.0f}MB "
            f"growth={self.growth_mb:+.0f}MB alive={self.server_alive} "
            f"health_max={self.health_max_s:.1f}s "
            f"warm_up={self.warm_up_seconds:.0f}s runtime={self.runtime:.0f}s"
        )


class Session:
    """One browser tab wandering the app (its own Streamlit session); records what it did last,
    for error reports."""

    def __init__(self, number: int, context, url: str, report: Report, rng: random.Random):  # noqa: ANN001
        self.number = number
        self.context = context
        self.url = url
        self.report = report
        self.rng = rng
        self.where = "(not started)"
        self.last = "(nothing yet)"
        self.language = "en"

    def error(self, kind: str, detail: str) -> None:
        detail = " ".join(detail.split())[:400]
        self.report.errors.append(
            f"[session {self.number}] {kind} on {self.where} after {self.last}: {detail}"
        )

    def watch(self, page) -> None:  # noqa: ANN001
        page.on("pageerror", lambda exc: self.error("page error", str(exc)))
        page.on("console", self._console)
        page.on("response", self._response)
        page.on("requestfailed", self._request_failed)

    def _console(self, message) -> None:  # noqa: ANN001
        # "Failed to load resource" repeats a failed request, which _response and
        # _request_failed already judge (with the exceptions below).
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.error("console error", message.text)

    def _response(self, response) -> None:  # noqa: ANN001
        if response.status < 400 or not response.url.startswith(self.url):
            return
        path = response.url.removeprefix(self.url).split("?")[0]
        if response.status == 404 and path.endswith(PROBES) and path.lstrip("/") not in PROBES:
            # On /<page> Streamlit's client first looks for the server under that path (in case
            # the app is mounted there), gets 404, and falls back to "/": by design, not a fault.
            return
        self.error("HTTP", f"{response.status} {response.url}")

    def _request_failed(self, request) -> None:  # noqa: ANN001
        failure = request.failure or ""
        if "ERR_ABORTED" in failure:  # a request cut short by our own navigation away
            return
        if not request.url.startswith(self.url):  # e.g. Google's icon font with no internet
            self.report.external_failures += 1
            return
        self.error("request failed", f"{failure} {request.url}")

    async def settle(self, page, *, started: bool = False) -> bool:  # noqa: ANN001
        """Wait for the script run to finish; record an error if it never does or it raised."""
        from playwright.async_api import Error as PlaywrightError

        if not started:  # give the rerun a moment to start, so we do not see the old page idle
            with contextlib.suppress(PlaywrightError):
                await page.wait_for_selector(RUNNING, timeout=400)
        try:
            await page.wait_for_selector(NOT_RUNNING, timeout=RENDER_TIMEOUT_MS)
        except PlaywrightError as exc:
            state = "?"
            with contextlib.suppress(PlaywrightError):
                app = page.locator('[data-testid="stApp"]')
                script = await app.get_attribute("data-test-script-state", timeout=1000)
                link = await app.get_attribute("data-test-connection-state", timeout=1000)
                state = f"script {script}, connection {link}"
            self.error("render timeout", f"{str(exc).splitlines()[0]} ({state})")
            return False
        boxes = page.locator(EXCEPTION)
        if await boxes.count():
            with contextlib.suppress(PlaywrightError):
                self.error("exception", await boxes.first.inner_text(timeout=ACTION_TIMEOUT_MS))
            return False
        return True

    async def goto(self, page, url_path: str, title_id: str, language: str) -> None:  # noqa: ANN001
        from playwright.async_api import Error as PlaywrightError

        self.language = language
        self.where = f"/{url_path}?lang={language}"
        self.last = "opening it"
        self.report.page_loads += 1
        title = translate(heading_id(title_id), language)
        started = time.monotonic()
        try:
            await page.goto(f"{self.url}/{url_path}?lang={language}", timeout=RENDER_TIMEOUT_MS)
            heading = page.locator('[data-testid="stMain"] h1').filter(has_text=title).first
            await heading.wait_for(timeout=RENDER_TIMEOUT_MS)
        except PlaywrightError as exc:
            self.error("page did not load", str(exc).splitlines()[0])
            return
        if await self.settle(page, started=True):
            elapsed = time.monotonic() - started
            self.report.load_seconds.setdefault(url_path or "/", []).append(elapsed)

    async def type_sentence(self, page, sentence: str | None = None) -> None:  # noqa: ANN001
        if sentence is None:
            sentence = self.rng.choice(SENTENCES)
        self.last = (
            f"typing {sentence[:40]!r}{'…' if len(sentence) > 40 else ''} ({len(sentence)} chars)"
        )
        box = page.locator('[data-testid="stSidebar"] textarea').first
        await box.fill(sentence, timeout=ACTION_TIMEOUT_MS)
        await box.press("Control+Enter", timeout=ACTION_TIMEOUT_MS)
        await self.settle(page)

    async def sidebar_radio(self, page) -> None:  # noqa: ANN001
        options = page.locator('[data-testid="stSidebar"] [data-testid="stRadio"] label')
        count = await options.count()
        if not count:
            self.report.skipped += 1
            return
        option = options.nth(self.rng.randrange(count))
        label = (await option.inner_text(timeout=ACTION_TIMEOUT_MS)).strip().split("\n")[0]
        self.last = f"picking {label!r} in the sidebar"
        if label in LANGUAGES.values():
            self.language = next(code for code, name in LANGUAGES.items() if name == label)
        await option.click(timeout=ACTION_TIMEOUT_MS)
        await self.settle(page)

    async def sidebar_link(self, page) -> None:  # noqa: ANN001
        links = page.locator('[data-testid="stSidebarNav"] a')
        count = await links.count()
        if not count:
            self.report.skipped += 1
            return
        link = links.nth(self.rng.randrange(count))
        href = await link.get_attribute("href", timeout=ACTION_TIMEOUT_MS) or "?"
        self.last = f"following the menu to {href.removeprefix(self.url)}"
        await link.click(timeout=ACTION_TIMEOUT_MS)
        self.where = href.removeprefix(self.url) + f" (lang {self.language}, via menu)"
        self.report.page_loads += 1
        await self.settle(page)

    async def open_from_menu(self, page, url_path: str, title_id: str) -> None:  # noqa: ANN001
        """Click the sidebar's link to ``url_path`` and wait for that page's title and run."""
        from playwright.async_api import Error as PlaywrightError

        self.last = f"following the menu to /{url_path}"
        self.where = f"/{url_path} (lang {self.language}, via menu)"
        self.report.page_loads += 1
        title = translate(heading_id(title_id), self.language)
        try:
            # As long as a page load may take: a busy browser (a long sentence's charts still
            # drawing) takes the click only once its main thread is free.
            await page.locator(f'[data-testid="stSidebarNav"] a[href$="/{url_path}"]').click(
                timeout=RENDER_TIMEOUT_MS
            )
            heading = page.locator('[data-testid="stMain"] h1').filter(has_text=title).first
            await heading.wait_for(timeout=RENDER_TIMEOUT_MS)
        except PlaywrightError as exc:
            self.error("page did not open from the menu", str(exc).splitlines()[0])
            return
        await self.settle(page, started=True)

    async def poke(self, page) -> None:  # noqa: ANN001
        """Use one random widget in the page body."""
        main = page.locator('[data-testid="stMain"]')
        kinds = list(WIDGETS)
        self.rng.shuffle(kinds)
        for kind in kinds:
            if kind == "button" and self.where.startswith("/speed"):
                continue
            found = main.locator(WIDGETS[kind])
            count = await found.count()
            if count:
                await self._poke(page, kind, found.nth(self.rng.randrange(count)))
                return
        self.report.skipped += 1

    async def _poke(self, page, kind: str, widget) -> None:  # noqa: ANN001
        rng = self.rng
        self.last = f"a {kind}"
        with contextlib.suppress(Exception):
            label = (await widget.inner_text(timeout=1000)).strip().splitlines()
            if label:
                self.last = f"the {kind} {label[0][:40]!r}"
        if kind == "slider":
            await widget.focus(timeout=ACTION_TIMEOUT_MS)
            key = rng.choice(["ArrowRight", "ArrowLeft", "Home", "End", "PageUp", "PageDown"])
            self.last += f" ({key})"
            await widget.press(key, timeout=ACTION_TIMEOUT_MS)
        elif kind in ("select", "multiselect"):
            await widget.click(timeout=ACTION_TIMEOUT_MS)
            options = page.locator('[role="option"]')
            await options.first.wait_for(timeout=ACTION_TIMEOUT_MS)
            count = await options.count()
            option = options.nth(rng.randrange(count))
            self.last += f" → {(await option.inner_text(timeout=ACTION_TIMEOUT_MS))[:40]!r}"
            await option.click(timeout=ACTION_TIMEOUT_MS)
            if kind == "multiselect":
                await page.keyboard.press("Escape")
        elif kind == "number":
            value = rng.choice(["0", "1", "2", "7", "-1", "999999", "3.5", ""])
            self.last += f" ← {value!r}"
            await widget.fill(value, timeout=ACTION_TIMEOUT_MS)
            await widget.press("Enter", timeout=ACTION_TIMEOUT_MS)
        elif kind == "text":
            value = rng.choice(SENTENCES)
            self.last += f" ← {value[:40]!r} ({len(value)} chars)"
            await widget.fill(value, timeout=ACTION_TIMEOUT_MS)
            await widget.press("Enter", timeout=ACTION_TIMEOUT_MS)
        else:
            await widget.click(timeout=ACTION_TIMEOUT_MS)
        await self.settle(page)

    async def run(self, deadline: float, actions: int | None = None) -> None:
        """Act until ``deadline``, or until ``actions`` actions (done or skipped) when given."""
        from playwright.async_api import Error as PlaywrightError

        page = await self.context.new_page()
        try:
            self.watch(page)
            first = True
            tried = 0
            while time.monotonic() < deadline and (actions is None or tried < actions):
                tried += 1
                self.report.tried += 1
                roll = self.rng.random()
                try:
                    if first or roll < 0.25:
                        url_path, title_id = self.rng.choice(PAGES)
                        await self.goto(page, url_path, title_id, self.rng.choice(list(LANGUAGES)))
                        first = False
                    elif roll < 0.45:
                        await self.type_sentence(page)
                    elif roll < 0.52:
                        await self.sidebar_link(page)
                    elif roll < 0.60:
                        await self.sidebar_radio(page)
                    else:
                        await self.poke(page)
                    self.report.actions += 1
                except PlaywrightError:
                    # The widget moved or vanished under a rerun: skip it. If that hid a broken
                    # page, the next settle() sees the exception box or the endless run.
                    self.report.skipped += 1
                    await self.settle(page)
        finally:
            await page.close()


async def _warm_up(context, url: str, report: Report, sessions: int) -> None:  # noqa: ANN001
    """Every page once with one of the longest sentences, shared among the sessions, so imports,
    model weights, caches and the memory a long sentence takes are in before the first memory
    reading. Each session opens its first page in its language, types its long sentence once,
    and reaches its other pages through the sidebar, as a reader would: the sentence stays, and
    no page pays a fresh load. Errors here count too."""

    from playwright.async_api import Error as PlaywrightError

    async def visit(number: int) -> None:
        page = await context.new_page()
        try:
            session = Session(number, context, url, report, random.Random(number))
            session.watch(page)
            mine = [PAGES[i] for i in range(number, len(PAGES), sessions)]
            if not mine:
                return
            url_path, title_id = mine[0]
            await session.goto(page, url_path, title_id, list(LANGUAGES)[number % len(LANGUAGES)])
            try:
                await session.type_sentence(page, HEAVY[number % len(HEAVY)])
            except PlaywrightError:  # the box was busy: skip it, as the soak does
                report.skipped += 1
                await session.settle(page)
            for url_path, title_id in mine[1:]:
                await session.open_from_menu(page, url_path, title_id)
        finally:
            await page.close()

    await asyncio.gather(*(visit(number) for number in range(sessions)))


async def _soak(
    url: str,
    pid: int | None,
    report: Report,
    chromium: str,
    warm_up: bool,
    health_check: float,
) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, headless=True)
        # One browser profile for every session, each in its own tab (so its own Streamlit
        # session): a profile per session loaded and compiled the app's scripts once per
        # session, work that tells nothing about the server.
        context = await browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            if warm_up:
                started = time.monotonic()
                await _warm_up(context, url, report, report.sessions)
                report.warm_up_seconds = time.monotonic() - started
                report.warm_up_loads, report.page_loads = report.page_loads, 0
            soak_started = time.monotonic()
            if pid is not None:
                report.rss_start_kb = report.rss_peak_kb = rss_kb(pid)
                report.rss_samples.append((0.0, report.rss_start_kb))
            deadline = soak_started + report.seconds
            sessions = [
                Session(n, context, url, report, random.Random(report.seed * 1000 + n))
                for n in range(1, report.sessions + 1)
            ]
            tasks = [
                asyncio.ensure_future(s.run(deadline, report.actions_per_session)) for s in sessions
            ]

            async def monitor() -> None:
                while not all(task.done() for task in tasks):
                    await asyncio.sleep(health_check)
                    if pid is not None:
                        rss = rss_kb(pid)
                        report.rss_peak_kb = max(report.rss_peak_kb, rss)
                        report.rss_samples.append((time.monotonic() - soak_started, rss))
                    asked = time.monotonic()
                    ok = await asyncio.to_thread(healthy, url, HEALTH_TIMEOUT_S)
                    report.health_max_s = max(report.health_max_s, time.monotonic() - asked)
                    if not ok:
                        report.errors.append(
                            f"server failed its health check (or took over {HEALTH_TIMEOUT_S} s)"
                            f" {time.monotonic() - soak_started:.0f} s into the soak"
                        )

            await asyncio.gather(*tasks, monitor())
        finally:
            await browser.close()


def run(
    url: str,
    *,
    pid: int | None = None,
    sessions: int = 5,
    seconds: float = 60.0,
    seed: int = 7,
    actions: int | None = None,
    chromium: str = CHROMIUM,
    warm_up: bool = True,
    process: subprocess.Popen[bytes] | None = None,
) -> Report:
    """Soak the app at ``url``; ``pid`` is the server's, for the memory readings. With
    ``actions``, each session stops after that many actions, ``seconds`` being a limit."""
    report = Report(sessions=sessions, seconds=seconds, seed=seed, actions_per_session=actions)
    started = time.monotonic()
    asyncio.run(_soak(url, pid, report, chromium, warm_up, health_check=5.0))
    if pid is not None:
        # Read once the sessions are over and their runs done: mid-run, a long sentence's arrays
        # add hundreds of MB for a moment, which says nothing about leaks.
        time.sleep(2.0)  # let the server drop the closed sessions
        report.rss_end_kb = rss_kb(pid)
        report.rss_peak_kb = max(report.rss_peak_kb, report.rss_end_kb)
    report.server_alive = (process is None or process.poll() is None) and healthy(url)
    if not report.server_alive:
        report.errors.append("server not alive and healthy at the end")
    report.runtime = time.monotonic() - started
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--actions", type=int, help="per session; --seconds is then a limit")
    parser.add_argument("--chromium", default=CHROMIUM)
    parser.add_argument("--url", help="soak a server already running (no memory readings)")
    parser.add_argument("--app", type=Path, default=ROOT / "app.py", help="the script to serve")
    parser.add_argument("--no-warm-up", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true", help="page load times, RSS series")
    args = parser.parse_args()
    options = dict(
        sessions=args.sessions,
        seconds=args.seconds,
        seed=args.seed,
        actions=args.actions,
        chromium=args.chromium,
        warm_up=not args.no_warm_up,
    )
    if args.url:
        report = run(args.url.rstrip("/"), **options)
    else:
        with serve_app(args.app.resolve()) as server:
            report = run(server.url, pid=server.process.pid, process=server.process, **options)
            if report.errors:
                print(server.log_tail(), file=sys.stderr)
    if args.verbose:
        for path, times in sorted(report.load_seconds.items(), key=lambda kv: -max(kv[1])):
            print(
                f"load {path:22s} n={len(times):3d} mean={sum(times) / len(times):5.1f}s "
                f"max={max(times):5.1f}s"
            )
        print("rss (s, MB):", " ".join(f"{s:.0f}:{kb / 1024:.0f}" for s, kb in report.rss_samples))
    for error, times in collections.Counter(report.errors).most_common():
        print(f"{times:4d} × {error}")
    print(report.summary())
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main())
