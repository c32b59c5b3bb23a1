"""A class on several Streamlit replicas behind HAProxy (Debian's ``haproxy`` package).

    python scripts/serve.py --replicas 2                        # 2 replicas here, balancer :8501
    python scripts/serve.py --replicas-file deploy/replicas.txt # replicas started elsewhere
    make serve REPLICAS=2 PORT=8501

With ``--replicas N`` it starts N replicas of the app on this machine (ports PORT + 10 + k, each
named rk in its environment, ``TW_REPLICA``) and balances them; with ``--replicas-file`` it
balances the replicas the file lists (``name address:port`` a line: started on their machines
with ``TW_REPLICA=<name> make run HOST=0.0.0.0 PORT=<port>``). The balancer's configuration is
deploy/haproxy.cfg with its two placeholders filled: WebSockets pass through on /_stcore/stream,
replicas are checked on /_stcore/health every second, and a student stays on one replica by
cookie (students of one school share an address). Runs until Ctrl-C, then stops what it started.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
if importlib.util.find_spec("transformer_walk") is None:
    sys.path.insert(0, str(ROOT / "python"))

import prewarm  # noqa: E402  (scripts/prewarm.py)
import soak  # noqa: E402  (scripts/soak.py: starting and stopping one server)

TEMPLATE = ROOT / "deploy" / "haproxy.cfg"
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
#: The replica a student was pinned to, as the balancer tells the replica (deploy/haproxy.cfg).
PINNED_HEADER = "X-TW-Pinned"


def read_replicas(path: Path) -> list[tuple[str, str]]:
    """(name, "address:port") of every replica the file lists; ValueError naming a bad line."""
    replicas = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2 or ":" not in words[1] or not words[1].rsplit(":", 1)[1].isdigit():
            raise ValueError(f"{path}:{number}: expected `name address:port`, got {line!r}")
        replicas.append((words[0], words[1]))
    if not replicas:
        raise ValueError(f"{path} lists no replica")
    if len({name for name, _ in replicas}) < len(replicas):
        raise ValueError(f"{path}: two replicas share a name")
    return replicas


def haproxy_config(bind: str, replicas: list[tuple[str, str]]) -> str:
    """deploy/haproxy.cfg with its placeholders filled: the address to listen on, one server
    line per replica (its cookie value is its name)."""
    servers = "\n".join(f"    server {name} {address} cookie {name}" for name, address in replicas)
    text = TEMPLATE.read_text(encoding="utf-8")
    return text.replace("{{BIND}}", bind).replace("{{SERVERS}}", servers)


def _healthy_through(url: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.read() == b"ok":
                    return True
        time.sleep(0.2)
    return False


@contextlib.contextmanager
def balancer(port: int, replicas: list[tuple[str, str]], host: str = "127.0.0.1") -> Iterator[str]:
    """HAProxy on ``host:port`` in front of ``replicas`` until the block ends; yields its URL."""
    with tempfile.TemporaryDirectory(prefix="tw-haproxy-") as tmp:
        config = Path(tmp) / "haproxy.cfg"
        config.write_text(haproxy_config(f"{host}:{port}", replicas), encoding="utf-8")
        check = subprocess.run([HAPROXY, "-c", "-q", "-f", str(config)], capture_output=True)
        if check.returncode != 0:
            raise RuntimeError(f"haproxy refused its configuration: {check.stderr.decode()}")
        log = Path(tmp) / "haproxy.log"
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [HAPROXY, "-db", "-f", str(config)],
                stdout=sink,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        url = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}"
        try:
            if not _healthy_through(url, 30):
                raise RuntimeError(f"no replica answered through haproxy:\n{log.read_text()}")
            yield url
        finally:
            soak.stop(process)


@contextlib.contextmanager
def serve_class(
    replicas: int, port: int, *, agent_api: bool = False, host: str = "127.0.0.1"
) -> Iterator[tuple[str, dict[str, soak.Server]]]:
    """``replicas`` local replicas (named r1 … rN, on ports port + 11 …) behind the balancer on
    ``port``; yields (the balancer's URL, {name: replica})."""
    if replicas < 1:
        raise ValueError(f"replicas must be at least 1, got {replicas}")
    with contextlib.ExitStack() as stack:
        started = {}
        for k in range(1, replicas + 1):
            name = f"r{k}"
            started[name] = stack.enter_context(
                soak.serve_app(agent_api=agent_api, port=port + 10 + k, env={"TW_REPLICA": name})
            )
            prewarm.prewarm(started[name].url)  # before the balancer sends it a student
        addresses = [(name, server.url.removeprefix("http://")) for name, server in started.items()]
        url = stack.enter_context(balancer(port, addresses, host))
        yield url, started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--replicas", type=int, help="start this many replicas here")
    which.add_argument("--replicas-file", type=Path, help="balance the replicas this file lists")
    parser.add_argument("--port", type=int, default=8501, help="the balancer's port")
    parser.add_argument("--host", default="0.0.0.0", help="the balancer's address")
    parser.add_argument("--agent-api", action="store_true", help="for scripts/classroom.py")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        if args.replicas is not None:
            url, _ = stack.enter_context(
                serve_class(args.replicas, args.port, agent_api=args.agent_api, host=args.host)
            )
        else:
            url = stack.enter_context(
                balancer(args.port, read_replicas(args.replicas_file), args.host)
            )
        print(f"serving the class at {url} (Ctrl-C stops it)", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
    return 0


if __name__ == "__main__":
    sys.exit(main())
