"""A move on the game's page in Chromium, with JavaScript (static/play.js: the player's mark at
once, the AI's after a beat, one request) and without; and where a move leaves the page
scrolled, measured at 1280x800, 740x360 and 360x740."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.test_browser import SHOTS, cells, click_through

SIZES = [(1280, 800), (740, 360), (360, 740)]
BEAT_MS = 400  # static/play.js

# When each mark first shows, in the page's own clock: a mutation observer on the whole body,
# as <main> is swapped whole.
WATCH_MARKS = """() => {
  window.seen = {};
  const look = () => {
    for (const mark of ["X", "O"]) {
      const shown = document.querySelector(`#board td[data-mark=${mark}]`);
      if (shown && !(mark in window.seen)) window.seen[mark] = performance.now();
    }
  };
  new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
  window.addEventListener("click", () => { window.clicked = performance.now(); }, { capture: true });
}"""


def page_requests(page: Page) -> list[str]:
    """The requests the page starts, a redirect's second leg not counted, static files left out."""
    started = []
    page.on("request", lambda r: r.redirected_from is None and "/static/" not in r.url and started.append(r.url))
    return started


def main_html(page: Page) -> str:
    html = page.locator("main").evaluate("m => m.outerHTML")
    return re.sub(r' tabindex="-1"', "", html)  # the status the script focuses


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_your_mark_at_once_the_ais_after_a_beat_from_one_request(page: Page, motion):
    page.emulate_media(reduced_motion=motion)
    page.goto("/")
    page.evaluate(WATCH_MARKS)
    started = page_requests(page)
    before = page.evaluate("history.length")
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    expect(page.locator("#board td[data-mark=O]")).to_have_count(1)
    seen = page.evaluate("window.seen")
    clicked = page.evaluate("window.clicked")
    arrived = page.evaluate("performance.getEntriesByType('resource').find(e => e.name.includes('/move?')).responseEnd")
    assert seen["X"] < seen["O"]
    assert seen["X"] - clicked < BEAT_MS  # drawn before the answer is awaited
    if motion == "reduce":
        assert seen["O"] - arrived < BEAT_MS  # shown as soon as it came, no beat
    else:
        assert seen["O"] - clicked >= BEAT_MS
    assert len(started) == 1 and "/move?" in started[0]
    assert re.search(r"/\?g=\w+&n=2#board$", page.url)
    assert page.evaluate("history.length") == before + 1  # as a followed link adds one
    swapped = main_html(page)
    page.reload()
    assert main_html(page) == swapped  # the same page as without the script


def test_a_move_with_javascript_keeps_what_a_plain_link_does(browser, live_server):
    pages = {}
    for javascript in (True, False):
        context = browser.new_context(java_script_enabled=javascript, base_url=live_server)
        page = context.new_page()
        page.goto("/")
        click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
        pages[javascript] = (re.sub(r"g=\w+", "g=", page.url), cells(page).count("X"), cells(page).count("O"))
        click_through(page.locator("#board a").first)
        assert cells(page).count(".") == 5
        context.close()
    assert pages[True] == pages[False] == (f"{live_server}/?g=&n=2#board", 1, 1)


def test_a_stale_move_with_javascript_says_so_as_the_plain_link_does(page: Page):
    page.goto("/")
    stale = page.locator("#board td[data-row='0'][data-col='0'] a").get_attribute("href")
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    page.evaluate(f"document.querySelector('#board a').setAttribute('href', {stale!r})")
    click_through(page.locator("#board a").first)
    expect(page.locator("#message")).to_contain_text("out of date")
    assert cells(page).count(".") == 7


@pytest.mark.parametrize("javascript", [True, False])
def test_a_move_keeps_the_site_navigation_and_the_board_in_view(browser, live_server, javascript):
    """At each size in turn, in one tab: a new game there (the form), then its moves."""
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server)
    page = context.new_page()
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/")
        if cells(page) != "." * 9:  # the game of the size before: a new one, and its page loaded as at first
            click_through(page.locator("#new-game button[type=submit]"))
            page.goto("/")
        assert cells(page) == "." * 9
        for row, col in ((1, 1), (0, 0)):
            link = page.locator(f"#board td[data-row='{row}'][data-col='{col}'] a")
            if link.count():
                click_through(link)
            nav, board = page.locator("header .site-nav").bounding_box(), page.locator("#board").bounding_box()
            assert nav["y"] >= 0 and board["y"] + board["height"] <= height, (width, nav, board)
        if javascript:
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=SHOTS / f"move-{width}x{height}.png")
    context.close()


def test_while_a_move_is_on_its_way_the_status_says_it_was_placed(page: Page):
    """The line under the board no longer says "Your turn" once the mark is drawn: it says the
    move sent, until the page with the AI's reply replaces it. (The move is held on its way.)"""
    held = []
    page.route(re.compile(r".*/move\?.*"), lambda route: held.append(route))
    page.goto("/")
    expect(page.locator("#status")).to_contain_text("Your turn")
    page.locator("#board td[data-row='1'][data-col='1'] a").click()
    expect(page.locator("#status")).to_have_text("You placed X on b2.")
    held[0].continue_()
    expect(page.locator("#board td[data-mark=O]")).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("The AI played")


def test_without_javascript_the_status_after_a_move_is_the_new_pages(browser, live_server):
    context = browser.new_context(java_script_enabled=False, base_url=live_server)
    page = context.new_page()
    page.goto("/")
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    expect(page.locator("#status")).to_contain_text("The AI played")
    context.close()


@pytest.mark.parametrize("javascript", [True, False])
def test_the_footer_is_the_new_pages_after_a_move(browser, live_server, javascript):
    """Once a game is over its empty cells are no longer links, and the footer stops saying so;
    the colours' form returns to the page's new address. With JavaScript the new page's footer
    is swapped in with its <main>."""
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server)
    page = context.new_page()
    page.goto("/")
    page.check("input[name=mode][value=friend]")
    click_through(page.locator("#new-game button[type=submit]").first)
    for row, col in ((0, 0), (1, 0), (0, 1), (1, 1)):
        click_through(page.locator(f"#board td[data-row='{row}'][data-col='{col}'] a"))
    expect(page.locator("footer")).to_contain_text("Every empty cell is a link")
    click_through(page.locator("#board td[data-row='0'][data-col='2'] a"))
    expect(page.locator("#status")).to_have_attribute("data-state", "over")
    expect(page.locator("footer")).not_to_contain_text("Every empty cell is a link")
    back = page.locator("footer input[name=back]").get_attribute("value")
    assert page.url.split("#")[0].endswith(back)
    context.close()


def test_teach_hints_of_the_position_before_a_move_go_while_it_is_on_its_way(page: Page):
    """Teach mode's hints speak of the board they are drawn on: once your mark is drawn, the
    other cells' hints (of the position before it) go, until the new page brings its own."""
    held = []
    page.goto("/")
    click_through(page.locator("#teach button"))
    expect(page.locator("#board td[data-value]")).to_have_count(9)
    page.route(re.compile(r".*/move\?.*"), lambda route: held.append(route))
    page.locator("#board td[data-row='0'][data-col='0'] a").click()
    expect(page.locator("#status")).to_have_text("You placed X on a1.")
    expect(page.locator("#board .hint")).to_have_count(0)
    expect(page.locator("#board td[data-value]")).to_have_count(0)
    held[0].continue_()
    expect(page.locator("#board td[data-mark=O]")).to_have_count(1)
    expect(page.locator("#board td[data-value]")).to_have_count(7)
    expect(page.locator("#board .hint")).to_have_count(7)


def test_without_javascript_teach_hints_come_with_the_new_page(browser, live_server):
    context = browser.new_context(java_script_enabled=False, base_url=live_server)
    page = context.new_page()
    page.goto("/")
    click_through(page.locator("#teach button"))
    click_through(page.locator("#board td[data-row='0'][data-col='0'] a"))
    expect(page.locator("#board td[data-mark=O]")).to_have_count(1)
    expect(page.locator("#board td[data-value]")).to_have_count(7)
    expect(page.locator("#board .hint")).to_have_count(7)
    context.close()
