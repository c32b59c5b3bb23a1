"""The real app in headless Chromium: every page renders with no exception, in both languages.

Runs against conftest's ``app_server`` (``streamlit run app.py`` on a free port, against whatever
``transformer_walk`` this Python imports — the installed package), drives Debian's chromium
through Playwright; the server is always stopped. Skipped, with the reason, where Playwright or
Chromium is missing; browsers are never downloaded.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from transformer_walk.app.i18n import LANGUAGES, MESSAGES, translate
from transformer_walk.app.navigation import ROAD
from transformer_walk.core.status import default_backend
from transformer_walk.models.toy import DEFAULT_SENTENCE

playwright_sync = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
#: A page renders in seconds; the slowest, Copying in SmolLM2, takes about 20 s cold alone and
#: longer while the other worker's AppTests share the two cores under `make test`: a page gets
#: two minutes before it counts as stuck.
RENDER_TIMEOUT_MS = 120_000
pytestmark = [
    pytest.mark.browser,
    # One worker runs the whole module under `make test`'s xdist (and then the soak), so one
    # server serves it.
    pytest.mark.xdist_group("browser"),
    pytest.mark.skipif(
        not Path(CHROMIUM).is_file(), reason=f"chromium not found (looked for {CHROMIUM})"
    ),
]


@pytest.fixture(scope="module")
def server(app_server) -> str:  # noqa: ANN001 - conftest's soak.Server
    """The URL of the real server (conftest's ``app_server``, which the soak reuses after)."""
    return app_server.url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def context(browser):  # noqa: ANN001, ANN201 - Playwright types
    """One browser profile for the module, so its HTTP cache keeps the app's scripts: a fresh
    profile per test spent about 40% of the module's time loading and parsing them again."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    yield context
    context.close()


@pytest.fixture
def page(context):  # noqa: ANN001, ANN201 - Playwright types
    """A new tab per test: each ``goto`` opens a new Streamlit session, as a new visitor's."""
    tab = context.new_page()
    yield tab
    tab.close()


def settle(page, text: str) -> None:  # noqa: ANN001
    """Wait until ``text`` shows and the script has finished running, then check for errors."""
    page.get_by_text(text, exact=False).first.wait_for(timeout=RENDER_TIMEOUT_MS)
    page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(
        timeout=RENDER_TIMEOUT_MS
    )
    assert page.locator('[data-testid="stException"]').count() == 0, page.locator(
        '[data-testid="stException"]'
    ).first.inner_text()


def _heading_id(title_id: str) -> str:
    """The id of the page's own title: ``<prefix>.title`` where the navigation uses a shorter
    label (Speed's "Speed race" in the menu, its full title on the page)."""
    own = title_id.split(".")[0] + ".title"
    return own if own in MESSAGES else title_id


#: (url path, heading id) of every page of the road, in the sidebar's order.
ROAD_PAGES = [
    (url, _heading_id(title)) for _group_id, pages in ROAD for _file, url, title, _icon in pages
]


#: A 40-token sentence (by the toy tokenizer) mixing English, Chinese and an emoji: long enough
#: that matrices reach their windows and axes crowd.
LONG_MIXED = (
    "When the old fisherman came back to the harbour after three long days at sea, his daughter "
    "女儿 ran down the wooden pier 🐟 and told him that the bank had called about the loan once "
    "again."
)
#: Where each page's full-length screenshot goes, when asked for (CI asks, and keeps the folder
#: as an artefact): a quarter of the walk's time, and no check of their own.
SHOTS = Path(os.environ["TW_SCREENSHOTS"]) if os.environ.get("TW_SCREENSHOTS") else None
#: In-page checks: literal "**", "Page not found", a display formula cut off, charts wider than
#: their column or overlapping.
LAYOUT_CHECK = (Path(__file__).parent / "layout_check.js").read_text(encoding="utf-8")


def _full_length_screenshot(page, path: Path) -> None:  # noqa: ANN001
    """The whole page: Streamlit scrolls its main block, not the document, so Playwright's
    ``full_page`` would stop at the window; the window is made as tall as the page instead."""
    viewport = page.viewport_size
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": viewport["width"], "height": min(max(height, 600), 16_000)})
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.screenshot(path=path, type="jpeg", quality=75)  # half the time of a PNG, still legible
    page.set_viewport_size(viewport)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_of_the_road_renders(server: str, page, language: str) -> None:  # noqa: ANN001
    """Walks the road twice, with the default sentence and with a 40-token mixed one, opening every
    page of the sidebar in order by its address (a page, the language and the sentence, as a
    shared link opens them). Each page shows its own title with no exception, no literal ``**``
    (bold that CJK punctuation broke), no "Page not found", no formula cut off at its top or
    bottom, no chart wider than its column and no two charts overlapping; each gets a
    full-length screenshot in ``SHOTS`` when that is set. Guards also against a page missing from
    the sidebar (hidden behind "View more"). Clicking from page to page is
    ``test_the_sidebar_keeps_its_choices_when_the_next_page_is_clicked_mid_run``."""
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(f"{server}/?lang={language}")
    main = page.locator('[data-testid="stMain"]')
    main.locator("h1").first.wait_for(timeout=RENDER_TIMEOUT_MS)
    # .streamlit/config.toml's toolbarMode: a learner's local app has nothing to deploy.
    assert page.get_by_role("button", name="Deploy").count() == 0
    nav = page.locator('[data-testid="stSidebarNav"]')
    for url, _heading in ROAD_PAGES:
        assert nav.locator(f'a[href$="/{url}"]').count() == 1, (language, url, "not listed")
    problems: list[str] = []
    for which, sentence in (("default", None), ("long", LONG_MIXED)):
        query = urlencode({"lang": language} | ({} if sentence is None else {"sentence": sentence}))
        for index, (url, heading) in enumerate(ROAD_PAGES):
            page.goto(f"{server}/{url}?{query}")
            title = translate(heading, language)
            main.locator("h1").filter(has_text=title).first.wait_for(timeout=RENDER_TIMEOUT_MS)
            settle(page, title)
            problems += [f"{language} {which} /{url}: {p}" for p in page.evaluate(LAYOUT_CHECK)]
            if SHOTS is not None:
                shot = SHOTS / f"{language}-{which}-{index + 1:02d}-{url}.jpg"
                _full_length_screenshot(page, shot)
    assert not problems, "\n".join(problems)


#: Seconds between clicking N-gram and clicking One-Hot: each lands while N-gram's run is still
#: arriving, at a different point of it.
CLICK_GAPS_S = (0.15, 0.3, 0.6)


def test_the_sidebar_keeps_its_choices_when_the_next_page_is_clicked_mid_run(  # noqa: ANN001
    server: str, page
) -> None:
    """Guards against the next page coming up in English, on pure Python, with an empty sentence
    when the learner clicks it while the last page's run is still arriving: the browser sent its
    re-created widgets' first options (``sidebar.KEEP_FOR``). Each visit is a new session in
    Chinese on rust_core that clicks N-gram, then One-Hot a moment later."""
    main = page.locator('[data-testid="stMain"]')
    nav = page.locator('[data-testid="stSidebarNav"]')
    box = page.locator('[data-testid="stSidebar"] textarea').first
    zh_title, en_title = (translate("one_hot.title", language) for language in ("zh", "en"))
    choices = [LANGUAGES["zh"], translate(f"backend.{default_backend()}", "zh")]
    for gap in CLICK_GAPS_S * 2:
        page.goto(f"{server}/?lang=zh")
        main.locator("h1").first.wait_for(timeout=RENDER_TIMEOUT_MS)
        nav.locator('a[href$="/n-grams"]').click(timeout=RENDER_TIMEOUT_MS)
        page.wait_for_timeout(gap * 1000)
        nav.locator('a[href$="/one-hot"]').click(timeout=RENDER_TIMEOUT_MS)
        # Either language's title: a lost choice fails here at once, not after a timeout.
        heading = (
            main.locator("h1")
            .filter(has_text=zh_title)
            .or_(main.locator("h1").filter(has_text=en_title))
        )
        settle(page, heading.first.inner_text(timeout=RENDER_TIMEOUT_MS))
        assert zh_title in main.locator("h1").first.inner_text(), gap
        assert _checked_radio_labels(page)[:2] == choices, gap
        assert box.input_value() == DEFAULT_SENTENCE, gap


def test_every_path_opens_its_page_with_no_dialog(server: str, page) -> None:  # noqa: ANN001
    """Guards against "/tokens" (the first page, which "/" also opens) showing a "Page not
    found" dialog: Streamlit serves its default page only at "/". Each road page's own path
    opens it; "/" forwards to the first page's path."""
    page.goto(server + "/")
    page.wait_for_url(f"**/{ROAD_PAGES[0][0]}*", timeout=RENDER_TIMEOUT_MS)
    for url, heading in (ROAD_PAGES[0], ROAD_PAGES[-1]):
        page.goto(f"{server}/{url}")
        settle(page, translate(heading, "en"))
        assert page.locator('[role="dialog"]').count() == 0, url
        assert page.get_by_text("Page not found").count() == 0, url


def test_attention_by_hand_in_english(server: str, page) -> None:  # noqa: ANN001
    page.goto(server + "/attention-by-hand")
    settle(page, "Attention by hand")
    settle(page, "Predict, then reveal")
    page.get_by_role("radiogroup").filter(has_text="loves").get_by_text("Tom", exact=True).click()
    page.get_by_role("button", name="Reveal the weights").click()
    settle(page, "Step 3 · The weights blend the values")
    for label, value in (("z_his[1]", "0.853"), ("z_his[2]", "0.292")):
        metric = page.locator('[data-testid="stMetric"]').filter(has_text=label)
        metric.wait_for(timeout=RENDER_TIMEOUT_MS)
        assert value in metric.inner_text()
    settle(page, "Right: Tom wins.")


def test_attention_by_hand_in_chinese_and_back(server: str, page) -> None:  # noqa: ANN001
    page.goto(server + "/attention-by-hand?lang=zh")
    settle(page, "手算注意力")
    settle(page, "先预测，再揭晓")
    assert page.get_by_text("第 1 步").count() >= 1
    page.locator('[data-testid="stSidebar"]').get_by_text("English", exact=True).click()
    settle(page, "Predict, then reveal")


def _checked_radio_labels(page) -> list[str]:  # noqa: ANN001
    """The label shown as picked in each radio group on the page, "" where none is."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stRadio"]')].map(group => {
            const input = group.querySelector('input[type="radio"]:checked');
            return input ? input.closest('label').innerText.trim() : '';
        })"""
    )


@pytest.mark.parametrize(
    ("url", "title", "choice"),
    [("block", "block.title", "block.norm.pre"), ("speed", "speed.title", "speed.op.attention")],
)
def test_radios_keep_their_choice_shown_across_a_language_switch(  # noqa: ANN001
    server: str, page, url: str, title: str, choice: str
) -> None:
    """Guards against a radio showing nothing picked after the language changes: Streamlit's radio
    remembers its choice in the browser by label text, and these labels are translated (the
    page's own radio, the sidebar's backend)."""
    page.goto(f"{server}/{url}")
    settle(page, translate(title, "en"))
    page.get_by_role("radiogroup").get_by_text(translate(choice, "en"), exact=True).click()
    settle(page, translate(title, "en"))
    page.locator('[data-testid="stSidebar"]').get_by_text("简体中文", exact=True).click()
    settle(page, translate(title, "zh"))
    labels = _checked_radio_labels(page)
    assert labels[0] == "简体中文", labels
    assert all(labels), labels
    assert any(translate(choice, "zh") in label for label in labels), labels


def test_speed_page_runs(server: str, page) -> None:  # noqa: ANN001
    page.goto(server + "/speed")
    settle(page, "Speed: pure Python vs NumPy vs Rust")
    page.get_by_role("button", name="Run the race").click()
    settle(page, "Median time per call")
    settle(page, "Time against size (log–log)")


def test_speed_page_in_chinese(server: str, page) -> None:  # noqa: ANN001
    page.goto(server + "/speed?lang=zh")
    settle(page, "速度：纯 Python、NumPy 与 Rust 同台比拼")
    page.get_by_role("button").filter(has_text="开始比赛").wait_for(timeout=RENDER_TIMEOUT_MS)
    settle(page, "这个运算还没有测量结果")


def test_the_sidebar_holds_through_interrupted_reruns(server: str, page) -> None:  # noqa: ANN001
    """Guards against the sidebar's radios going back to English and pure Python when reruns
    interrupt each other: Multi-head in Chinese on NumPy, its h slider moved twice in a row, then
    two sentences typed while the page may still be running. (tests/test_kept_choices.py drives
    the same loss without timing, through the agent API.)"""
    page.goto(f"{server}/multi-head?lang=zh")
    settle(page, translate("multi_head.title", "zh"))
    sidebar = page.locator('[data-testid="stSidebar"]')
    numpy = translate("backend.numpy", "zh")
    sidebar.get_by_role("radiogroup").get_by_text(numpy, exact=True).click()
    settle(page, translate("multi_head.title", "zh"))
    thumb = page.locator('[data-testid="stSlider"]').filter(has_text="h").last.get_by_role("slider")
    thumb.press("ArrowRight")
    thumb.press("ArrowRight")  # the second move interrupts the first's rerun
    box = sidebar.locator("textarea").first
    for sentence in ("the cat saw the cat", "我爱我的狗，它也爱我"):
        box.fill(sentence)
        box.press("Control+Enter")
    settle(page, translate("multi_head.title", "zh"))
    labels = _checked_radio_labels(page)
    assert labels[:2] == ["简体中文", numpy], labels
    assert box.input_value() == "我爱我的狗，它也爱我"


def test_pipelines_stop_box_names_the_open_stop_after_the_sentence_changes(  # noqa: ANN001
    server: str, page
) -> None:
    """Guards against the Stop box keeping the label it had for the last sentence (``[n] = [4]``)
    while the stop below is opened for the new one (``[n] = [8]``)."""
    page.goto(f"{server}/pipeline")
    settle(page, translate("pipeline.title", "en"))
    stop = page.locator(f'input[aria-label="{translate("pipeline.open", "en")}"]')
    stop.click()
    page.get_by_role("option").filter(has_text=translate("pipeline.node.ids", "en")).click()
    settle(page, translate("pipeline.title", "en"))
    assert stop.input_value().endswith("[n] = [4]"), stop.input_value()
    box = page.locator('[data-testid="stSidebar"] textarea').first
    box.fill("the cat saw the cat on the mat")
    box.press("Control+Enter")
    settle(page, translate("pipeline.title", "en"))
    page.get_by_text("[n] = [8]").first.wait_for(timeout=RENDER_TIMEOUT_MS)  # the stop opened
    # The box takes the resent value once the browser has applied the run's messages.
    page.wait_for_function(
        """() => document.querySelector('input[aria-label="Stop"]').value.endsWith('[n] = [8]')""",
        timeout=RENDER_TIMEOUT_MS,
    )
    assert stop.input_value().endswith("[n] = [8]"), stop.input_value()


def test_a_chinese_page_hints_in_chinese_while_the_sentence_is_edited(  # noqa: ANN001
    server: str, page
) -> None:
    """Guards against Streamlit's own English "Press Ctrl+Enter to apply" under the sidebar's
    sentence on a Chinese page: the hint is replaced while the text is unapplied, and the
    character count beside it (alone once applied) is left as it is."""
    page.goto(f"{server}/tokens?lang=zh")
    settle(page, translate("tokens.title", "zh"))
    box = page.locator('[data-testid="stSidebar"] textarea').first
    box.click()
    box.press("End")
    box.type(" 你好")
    spans = page.locator('[data-testid="stSidebar"] [data-testid="InputInstructions"] > span')
    spans.nth(1).wait_for(timeout=RENDER_TIMEOUT_MS)
    after = spans.first.evaluate("el => getComputedStyle(el, '::after').content")
    assert after == f'"{translate("input.ctrl_enter", "zh")}"'
    assert spans.nth(1).inner_text() == f"{len(box.input_value())}/2000"
    box.press("Control+Enter")
    page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for(
        timeout=RENDER_TIMEOUT_MS
    )
    box.click()
    assert spans.count() == 1  # the count alone
    assert spans.first.evaluate("el => getComputedStyle(el, '::after').content") == "none"
