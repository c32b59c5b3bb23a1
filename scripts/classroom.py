"""A class on one server: N simulated students at once, through Streamlit's browserless client.

    python scripts/classroom.py                                  # 60 students for 180 s
    python scripts/classroom.py --students 5 --seconds 20        # the test's size
    python scripts/classroom.py --url http://127.0.0.1:8501      # a server already running
    make classroom STUDENTS=60 SECONDS=180

Each student is one real Streamlit session driven through the agent API (``POST
/_stcore/agent/interact``, on with ``--server.enableAgentApi true``; off in the default config):
every call is one script run of that session, answered when the run has finished, so its latency
is what a student waits for. A student arrives within the first ``--arrive`` seconds and opens a
random page of the road in English or Chinese; then, after a think time drawn around 8 s, does one
of: type a sentence into the sidebar, move one of the page's own widgets to another legal value,
or open another page. No new action starts after ``--seconds``; actions under way finish.

Without ``--url`` the class gets a server of its own, opened page by page first
(scripts/prewarm.py) as ``make run`` and ``make serve`` open theirs, and allowed a session per
student and renewal (Streamlit's agent API holds 100 by default).

Reported: p50, p95 and max latency per kind of action (the first opens apart from the later
ones), the errors (an exception on the page, an HTTP failure, a run that did not finish within
``--timeout``), and the server's resident memory (its process and children) at the start, its
peak and the end. Exits 1 when any error was counted. Seeded: the same seed gives the same
students making the same choices (the timings, and so the interleaving, are the machine's).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import dataclasses
import http.client
import http.cookiejar
import importlib.util
import json
import random
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
# From a checkout without the package installed, the source; otherwise the installed package.
if importlib.util.find_spec("transformer_walk") is None:
    sys.path.insert(0, str(ROOT / "python"))

import prewarm  # noqa: E402  (scripts/prewarm.py: every page once, before the class)
import soak  # noqa: E402  (scripts/soak.py: the server, its memory)

from transformer_walk.app.i18n import translate  # noqa: E402
from transformer_walk.app.navigation import ROAD  # noqa: E402

#: Every page of the road, by its address.
PAGES = [url for _group, pages in ROAD for _file, url, _title, _icon in pages]
#: The sidebar's own widgets: a student's "move a widget" picks one of the page's, not these.
SIDEBAR = {"sentence", "lang", "backend"}
#: What students type: the running example, repeated words, one token, Chinese, digits and
#: punctuation, an emoji, a long word, a longer sentence.
SENTENCES = [
    "Tom loves his dog",
    "the cat saw the cat",
    "a",
    "我爱我的狗，它也爱我",
    "银行在河边",
    "3.14 + 2 = 5.14?!",
    "I love my dog 🐶",
    "Pneumonoultramicroscopicsilicovolcanoconiosis is a word",
    "The animal didn't cross the street because it was too tired",
    "She sat on the river bank and watched the bank's lights across the water",
]
#: The balancer's affinity cookie (deploy/haproxy.cfg), and how the message of a page that
#: reopened on another replica starts, in either language.
PIN_COOKIE = "TWREPLICA"
MOVED = tuple(translate("sidebar.moved", lang)[:12] for lang in ("en", "zh"))
THINK_SHAPE, THINK_SCALE = 4.0, 2.0  # gamma-distributed think time: mean 8 s, rarely under 2 s


@dataclasses.dataclass
class Tally:
    """What the class did, shared by the students' threads (under ``lock``)."""

    latencies: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    errors: list[str] = dataclasses.field(default_factory=list)
    #: (student, replica it was pinned to, seconds from the failed call to a working page on
    #: another replica, whether that page said so) for every session renewed after its server
    #: went away.
    renewals: list[tuple[int, str, float, bool]] = dataclasses.field(default_factory=list)
    skipped: int = 0  # "move a widget" on a page without any widget of its own
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)

    def record(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latencies.setdefault(kind, []).append(seconds)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


def interact(
    opener: urllib.request.OpenerDirector, url: str, body: dict[str, Any], timeout: float
) -> dict[str, Any]:
    """One agent API call through ``opener`` (which keeps the student's cookies, as a browser
    does: a balancer pins a student to a replica by cookie); its answer, or OSError /
    ValueError."""
    request = urllib.request.Request(
        f"{url}/_stcore/agent/interact",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with opener.open(request, timeout=timeout) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def _lost_session(error: Exception) -> bool:
    """Whether a failed call means the student's server is gone: the connection dropped, the
    balancer had no replica for a moment, or a live replica does not know the session."""
    if isinstance(error, urllib.error.HTTPError):
        return error.code in (404, 502, 503, 504)
    return isinstance(error, (ConnectionError, urllib.error.URLError, http.client.HTTPException))


def nodes(tree: Any) -> Iterator[dict[str, Any]]:
    """Every element of an answer's tree."""
    if isinstance(tree, dict):
        if "type" in tree:
            yield tree
        for value in tree.values():
            yield from nodes(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from nodes(value)


def exceptions(answer: dict[str, Any]) -> list[str]:
    """What the page raised: the exception boxes in the tree, or the answer's "error" status
    (the app raised) when the tree shows none; nothing for a page that ran cleanly."""
    found = [n for n in nodes(answer.get("tree")) if n["type"] == "exception"]
    messages = [str(n.get("props", {}).get("message", n))[:300] for n in found]
    if answer.get("status") == "error" and not messages:
        messages = ["the app raised (status: error)"]
    return messages


def submit_key(tree: Any, form: str) -> str | None:
    """The key of form ``form``'s submit button in an answer's tree (None when it has none)."""
    for node in nodes(tree):
        if node["type"] == "form" and node.get("key") == form:
            buttons = [n for n in nodes(node) if n["type"] == "form_submit_button"]
            return str(buttons[0]["key"]) if buttons else None
    return None


def _number(text: object) -> float:
    return float(str(text))


def other_value(widget: dict[str, Any], rng: random.Random) -> Any | None:
    """A legal value for ``widget`` other than the one it shows (None when it has no other, or is
    of a kind a student does not move here)."""
    props, value, kind = widget.get("props", {}), widget.get("value"), widget["type"]
    if props.get("disabled") in (True, "True"):
        return None
    if kind in ("selectbox", "radio", "select_slider"):
        options = [str(o) for o in ast.literal_eval(str(props.get("options", "[]")))]
        others = [o for o in options if o != value]
        return rng.choice(others) if others else None
    if kind in ("toggle", "checkbox"):
        return not bool(value)
    if kind in ("slider", "number_input") and not isinstance(value, list):
        low, high = props.get("min_value"), props.get("max_value")
        if low in (None, "None") or high in (None, "None"):
            return None
        step = _number(props.get("step", 1) or 1)
        count = int(round((_number(high) - _number(low)) / step))
        picks = [k for k in range(count + 1) if _number(low) + k * step != value]
        if not picks:
            return None
        chosen = _number(low) + rng.choice(picks) * step
        integer = widget.get("value_schema", {}).get("type") == "integer"
        return int(round(chosen)) if integer else round(chosen, 10)
    return None


#: Tries to open the page again after the student's server went away, a pause apart: the
#: balancer marks a dead replica down after two failed health checks (about 0.5 s apart), and
#: until then a reconnection can still be sent to it.
RENEWAL_TRIES, RENEWAL_PAUSE_S = 4, 0.5


class Student(threading.Thread):
    """One session: arrives, opens a page, then thinks and acts until the class ends."""

    def __init__(self, number: int, url: str, args: argparse.Namespace, tally: Tally) -> None:
        super().__init__(name=f"student-{number}", daemon=True)
        self.number, self.url, self.args, self.tally = number, url, args, tally
        self.rng = random.Random(args.seed * 1000 + number)
        self.session: str | None = None
        self.answer: dict[str, Any] = {}
        self.where = "(not started)"
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def replica(self) -> str:
        """The replica the balancer pinned this student to ("" without a balancer)."""
        return next((c.value or "" for c in self.cookies if c.name == PIN_COOKIE), "")

    def _renew(self, kind: str, pinned: str, error: Exception) -> None:
        """The student's server went away: open the same page again as a new session, as a
        browser reconnecting does, and check that the page says it moved. ``pinned``: the
        replica the student was on before the failed call (whose answer, from whichever replica
        the balancer sent it to, may have re-pinned the cookie; the browser's reconnection still
        carries the old one, so it is put back)."""
        failed, page = time.monotonic(), self.where
        for cookie in self.cookies:
            if cookie.name == PIN_COOKIE and pinned:
                cookie.value = pinned
        self.session = None
        for attempt in range(RENEWAL_TRIES):
            try:
                answer = interact(self.opener, self.url, {"page": page}, self.args.timeout)
                break
            except (OSError, ValueError) as again:
                # the balancer may still send it to the dying replica, as a browser's first
                # reconnection can meet it; a browser tries again, and so does the student
                if attempt == RENEWAL_TRIES - 1:
                    self.tally.error(
                        f"student {self.number} {kind} on {page}: {error}; renewal: {again}"
                    )
                    return
                time.sleep(RENEWAL_PAUSE_S)
        if "error" in answer:
            self.tally.error(f"student {self.number} renewal on {page}: {answer['error']}")
            return
        self.session, self.answer = answer.get("session_id"), answer
        bodies = [str(n.get("props", {}).get("body", "")) for n in nodes(answer["tree"])]
        said = any(body.startswith(MOVED) for body in bodies)
        with self.tally.lock:
            self.tally.renewals.append((self.number, pinned, time.monotonic() - failed, said))

    def _call(self, kind: str, body: dict[str, Any]) -> None:
        if self.session is not None:
            body = {"session_id": self.session, **body}
        started, pinned = time.monotonic(), self.replica()
        try:
            answer = interact(self.opener, self.url, body, self.args.timeout)
            # A run longer than the server's agentWaitTimeout answers "wait_timed_out" (202) and
            # keeps going: the same session's id alone collects it, as a browser keeps waiting.
            while answer.get("error", {}).get("code") == "wait_timed_out":
                if time.monotonic() - started > self.args.timeout:
                    raise TimeoutError(f"no answer within {self.args.timeout:.0f} s")
                answer = interact(
                    self.opener, self.url, {"session_id": answer["session_id"]}, self.args.timeout
                )
        except (OSError, ValueError, http.client.HTTPException) as error:
            if self.session is not None and _lost_session(error):
                self._renew(kind, pinned, error)
                return
            detail = error.read()[:300] if isinstance(error, urllib.error.HTTPError) else b""
            self.tally.error(f"student {self.number} {kind} on {self.where}: {error} {detail!r}")
            return
        if "error" in answer:
            self.tally.error(f"student {self.number} {kind} on {self.where}: {answer['error']}")
            return
        self.tally.record(kind, time.monotonic() - started)
        self.session, self.answer = answer.get("session_id", self.session), answer
        self.where = str(answer.get("page", {}).get("url_path", self.where))
        for message in exceptions(answer):
            self.tally.error(f"student {self.number} {kind} on {self.where}: {message}")

    def open_page(self, kind: str) -> None:
        page = self.rng.choice(PAGES)
        body: dict[str, Any] = {"page": page}
        if self.session is None:  # the language comes with the link, as a teacher shares it
            body["query_params"] = {"lang": [self.rng.choice(["en", "zh"])]}
        self.where = page
        self._call(kind, body)

    def move_widget(self) -> None:
        widgets = {
            n["key"]: n
            for n in nodes(self.answer.get("tree"))
            if "key" in n and n["key"] not in SIDEBAR and "value" in n
        }
        moves = [(key, other_value(w, self.rng)) for key, w in sorted(widgets.items())]
        moves = [(key, value) for key, value in moves if value is not None]
        if not moves:
            with self.tally.lock:
                self.tally.skipped += 1
            return
        key, value = self.rng.choice(moves)
        body: dict[str, Any] = {"widget_state": {key: value}}
        if form := widgets[key].get("form_id"):  # a form's field counts when the form is sent
            body["trigger"] = {"key": submit_key(self.answer.get("tree"), form)}
        self._call("widget", body)

    def run(self) -> None:
        start = self.args.started + self.rng.uniform(0, self.args.arrive)
        time.sleep(max(0.0, start - time.monotonic()))
        self.open_page("first open")
        end = self.args.started + self.args.seconds
        while True:
            wake = time.monotonic() + self.rng.gammavariate(THINK_SHAPE, THINK_SCALE)
            if wake >= end:
                return
            time.sleep(wake - time.monotonic())
            action = self.rng.choices(["type", "widget", "page"], weights=[1, 2, 1])[0]
            if action == "type":
                self._call("type", {"widget_state": {"sentence": self.rng.choice(SENTENCES)}})
            elif action == "widget":
                self.move_widget()
            else:
                self.open_page("open")


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def report(tally: Tally, memory: list[int], args: argparse.Namespace, elapsed: float) -> str:
    kinds = ["first open", "open", "type", "widget"]
    lines = [
        f"classroom: {args.students} students, {args.seconds:.0f} s, seed {args.seed}, "
        f"arriving within {args.arrive:.0f} s ({elapsed:.0f} s in all)",
        f"{'action':<11} {'count':>6} {'p50':>7} {'p95':>7} {'max':>7}",
    ]
    every: list[float] = []
    for kind in [k for k in kinds if k in tally.latencies]:
        values = tally.latencies[kind]
        every += values if kind != "first open" else []
        lines.append(
            f"{kind:<11} {len(values):>6} {statistics.median(values):>6.2f}s "
            f"{percentile(values, 0.95):>6.2f}s {max(values):>6.2f}s"
        )
    if every:
        lines.append(
            f"{'after open':<11} {len(every):>6} {statistics.median(every):>6.2f}s "
            f"{percentile(every, 0.95):>6.2f}s {max(every):>6.2f}s"
        )
    lines.append(f"skipped (no widget of its own): {tally.skipped}")
    if tally.renewals:
        slowest = max(seconds for _, _, seconds, _ in tally.renewals)
        told = sum(said for *_, said in tally.renewals)
        pinned = sorted({replica for _, replica, _, _ in tally.renewals})
        lines.append(
            f"renewed sessions: {len(tally.renewals)} (pinned to {', '.join(pinned) or '-'}), "
            f"the slowest {slowest:.2f} s after its failed call, {told} told so on the page"
        )
    if memory:
        lines.append(
            f"server memory: {memory[0] / 1024:.0f} MB at the start, peak "
            f"{max(memory) / 1024:.0f} MB, {memory[-1] / 1024:.0f} MB at the end"
        )
    lines.append(f"errors: {len(tally.errors)}")
    lines += [f"  {e}" for e in tally.errors[:20]]
    return "\n".join(lines)


@contextlib.contextmanager
def server(args: argparse.Namespace) -> Iterator[tuple[str, int | None]]:
    """(url, server pid or None): the given one, or a server of our own with the agent API on."""
    if args.url:
        yield args.url.rstrip("/"), None
        return
    with soak.serve_app(agent_api=True, agent_sessions=2 * args.students + 100) as running:
        prewarm.prewarm(running.url)  # as `make run` and `make serve` do before a class
        yield running.url, running.process.pid


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=180.0, help="no new action after this")
    parser.add_argument("--arrive", type=float, default=10.0, help="arrivals spread over this")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120.0, help="one run, at the most")
    parser.add_argument("--url", help="a server already running, with the agent API on")
    args = parser.parse_args(argv)
    if args.students < 1 or args.seconds <= 0 or args.arrive < 0:
        parser.error("--students must be at least 1, --seconds positive, --arrive not negative")
    return args


def run(args: argparse.Namespace) -> tuple[Tally, str]:
    """The class: what it did, and the report printed for it."""
    tally, memory = Tally(), []
    with server(args) as (url, pid):
        done = threading.Event()

        def sample() -> None:
            while pid is not None and not done.wait(1.0):
                memory.append(soak.rss_kb(pid))

        sampler = threading.Thread(target=sample, daemon=True)
        if pid is not None:
            memory.append(soak.rss_kb(pid))
        sampler.start()
        args.started = time.monotonic()
        students = [Student(i, url, args, tally) for i in range(args.students)]
        for student in students:
            student.start()
        for student in students:
            student.join(args.seconds + args.arrive + args.timeout + 30)
            if student.is_alive():
                tally.error(f"{student.name} still waiting on {student.where} after the class")
        elapsed = time.monotonic() - args.started
        done.set()
        if pid is not None:
            memory.append(soak.rss_kb(pid))
    return tally, report(tally, memory, args, elapsed)


def main(argv: list[str] | None = None) -> int:
    tally, text = run(parse(argv))
    print(text)
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
