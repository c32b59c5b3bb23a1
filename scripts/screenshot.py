"""Screenshots of the app's pages for the README, taken in headless Chromium.

    python scripts/screenshot.py                        # → docs/screenshot.png
    python scripts/screenshot.py --out /tmp/page.png --height 4000 --lang zh
    python scripts/screenshot.py --page minilm-attention --chart 0 --out docs/minilm_attention.png
    python scripts/screenshot.py --page next-token --click "generate 20" --out docs/next_token.png

Starts ``streamlit run app.py`` on a free port, opens a page, saves the screenshot and stops the
server. Without ``--page`` it shows "Attention by hand" after making a guess and revealing the
weights (so the chart and z_his are on the page); ``--page URL_PATH`` opens that page of the road
as it first renders, and ``--chart N`` keeps only its N-th chart (0 = the first). Uses the system
Chromium (``--chromium``, default /usr/bin/chromium); it never downloads a browser.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def serve_app() -> Iterator[str]:
    """Run the app on a free local port until the block ends; yield its URL."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            str(ROOT / "app.py"),
            "--server.headless=true",
            f"--server.port={port}",
            "--server.address=127.0.0.1",
            "--browser.gatherUsageStats=false",
            "--server.fileWatcherType=none",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as reply:
                    if reply.read() == b"ok":
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("streamlit did not start") from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def _reveal_attention_by_hand(page, url: str, lang: str) -> None:  # noqa: ANN001 - Playwright
    """Open "Attention by hand", guess Tom and reveal the weights."""
    reveal = {"en": "Reveal the weights", "zh": "揭晓权重"}[lang]
    step3 = {"en": "Step 3", "zh": "第 3 步"}[lang]
    page.goto(f"{url}/attention-by-hand?lang={lang}")  # no longer the default page
    page.get_by_role("button").filter(has_text=reveal).wait_for(timeout=60_000)
    page.get_by_role("radiogroup").filter(has_text="loves").get_by_text("Tom", exact=True).click()
    page.get_by_role("button").filter(has_text=reveal).click()
    page.get_by_text(step3).first.wait_for(timeout=60_000)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=1500, help="viewport height in pixels")
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--scroll", type=int, default=0, help="scroll the page down this far")
    parser.add_argument(
        "--page",
        help="URL path of the page to shoot (e.g. minilm-attention); default: the "
        "Attention by hand page with its weights revealed",
    )
    parser.add_argument(
        "--chart", type=int, help="save only the page's N-th chart (0-based) instead of the view"
    )
    parser.add_argument(
        "--sentence", help="type this sentence into the sidebar first (default: the app's own)"
    )
    parser.add_argument(
        "--click",
        help="press the button with this label once the page has drawn (e.g. the "
        "Next-token page's 'generate 20'), and shoot the page it leaves",
    )
    args = parser.parse_args(argv)

    with serve_app() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, headless=True)
        page = browser.new_page(
            viewport={"width": args.width, "height": args.height}, device_scale_factor=1
        )
        if args.page:
            joiner = "&" if "?" in args.page else "?"  # a page given with its own settings
            page.goto(f"{url}/{args.page}{joiner}lang={args.lang}")
        else:
            _reveal_attention_by_hand(page, url, args.lang)
        if args.sentence is not None:
            box = page.locator('[data-testid="stSidebar"] textarea').first
            box.fill(args.sentence)
            box.press("Control+Enter")
            page.wait_for_timeout(500)
        page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(
            timeout=60_000
        )
        page.locator('[data-testid="stVegaLiteChart"]').first.wait_for(timeout=60_000)
        if args.click:
            page.get_by_role("button", name=args.click, exact=True).click()
            page.wait_for_timeout(500)  # the rerun starts
            page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(
                timeout=60_000
            )
        if args.chart is not None:
            chart = page.locator('[data-testid="stVegaLiteChart"]').nth(args.chart)
            chart.scroll_into_view_if_needed()
            page.wait_for_timeout(1500)  # let the chart finish drawing
            args.out.parent.mkdir(parents=True, exist_ok=True)
            chart.screenshot(path=str(args.out))
            browser.close()
            print(f"wrote {args.out}")
            return 0
        if args.scroll:
            page.mouse.move(args.width * 0.6, args.height / 2)
            page.mouse.wheel(0, args.scroll)
        page.wait_for_timeout(1500)  # let KaTeX and the chart finish drawing
        args.out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(args.out))
        browser.close()
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
