"""The students' pages in Chromium: the trace stepped with and without JavaScript, axe-core on
every page, nothing wider than a phone, and screenshots to look at."""

import time

import pytest
from playwright.sync_api import Page, expect

from tests import servers
from tests.test_browser import assert_accessible, click_through

PAGES = {
    "learn": "/learn/",
    "learn-trace": "/learn/trace/.........?step=1000000",
    "learn-alphabeta": "/learn/alphabeta/X...O....?step=200",
    "learn-limited": "/learn/limited/X...O....?depth=2&evaluation=open-lines",
    "learn-backup": "/learn/practice/backup?position=XOX.OOX..",
    "learn-prune": "/learn/practice/prune?tree=((3,12,8),(2,4,6),(14,5,2))",
}


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_stepping_through_the_pseudocode(browser, live_server, javascript):
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server)
    page = context.new_page()
    page.goto("/learn/trace/XOXOX....")
    trace = page.locator("#trace")
    if javascript:  # arrow keys follow Next and Previous, and the page is swapped in without a reload
        page.evaluate("window.notReloaded = true")
        for key, step, line in [("ArrowRight", "2", "4"), ("ArrowRight", "3", "6"), ("ArrowLeft", "2", "4")]:
            page.keyboard.press(key)
            expect(trace).to_have_attribute("data-step", step)
            expect(page.locator("#code li.current")).to_have_attribute("data-line", line)
        assert page.evaluate("window.notReloaded") is True
        assert page.url.endswith("step=2#step")
    else:
        click_through(page.locator("a[rel=next]"))
        page.locator("#trace-title").click()
        page.keyboard.press("ArrowRight")
        time.sleep(0.5)
        expect(trace).to_have_attribute("data-step", "2")  # no script, no key stepping
    page.fill("#step-number", "4")
    click_through(page.locator("#jump-step button"))
    expect(trace).to_have_attribute("data-event", "test")
    expect(page.locator("#stack tbody tr")).to_have_count(2)
    page.fill("#call-number", "1")
    click_through(page.locator("#jump-call button"))
    expect(trace).to_have_attribute("data-step", "1")
    context.close()


@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_students_pages_fit_pass_axe_and_are_shot(page: Page, width, height):
    """Each page in turn, in one tab (a visit changes nothing)."""
    page.set_viewport_size({"width": width, "height": height})
    (servers.ROOT / "screenshots").mkdir(exist_ok=True)
    for name, url in PAGES.items():
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        assert_accessible(page)
        page.screenshot(path=servers.ROOT / "screenshots" / f"{name}-{width}x{height}.png", full_page=True)


def test_the_navigation_fits_a_phone(page: Page):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/learn/")
    nav = page.locator(".site-header .site-nav")
    assert nav.bounding_box()["height"] <= 90  # two lines of links at most
    expect(nav.locator("a[aria-current=page]")).to_have_text("For students")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_practice_graded_in_the_browser(page: Page):
    page.goto("/learn/practice/backup?tree=((3,12,8),(2,4,6),(14,5,2))")
    for path, value in {"root": "3", "0": "3", "1": "2", "2": "5"}.items():
        page.fill(f"input[name='v-{path}']", value)
    page.fill("input[name='v-2']", "14")
    click_through(page.locator("#drill-form button"))
    expect(page.locator("#drill-score")).to_have_attribute("data-right", "3")
    expect(page.locator("#why")).to_have_count(0)  # what is wrong, not yet the answer
    expect(page.locator("input[name='v-2']")).to_have_value("14")
    click_through(page.locator("#show-answers"))
    expect(page.locator("#why li")).to_have_text(
        "D is MIN: it takes the smallest of its children's values, MIN(14, 5, 2) = 2."
    )
    assert "check=1" in page.url and "v-2=14" in page.url  # the answers are in the address
    page.goto(page.url)  # so a shared link (or a reload) shows the same check
    expect(page.locator("#drill-score")).to_have_attribute("data-right", "3")
    assert_accessible(page)
    page.screenshot(path=servers.ROOT / "screenshots" / "learn-backup-graded-1280x800.png", full_page=True)


def test_pruning_graded_in_the_browser(page: Page):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/learn/practice/prune?tree=((3,12,8),(2,4,6),(14,5,2))")
    page.check("input[name='cut-11']")
    click_through(page.locator("#drill-form button"))
    expect(page.locator("#drill-score")).to_have_attribute("data-right", "11")
    expect(page.locator("input[name='cut-11']")).to_be_checked()
    click_through(page.locator("#show-answers"))
    expect(page.locator("li.decides")).to_have_attribute("data-path", "1")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert_accessible(page)
    page.screenshot(path=servers.ROOT / "screenshots" / "learn-prune-graded-360x740.png", full_page=True)


def test_the_alphabeta_stack_fits_without_scrolling_sideways(page: Page):
    """The page loaded once and measured at each size in turn: resizing lays it out again."""
    page.goto("/learn/alphabeta/.........?step=3000")  # ten calls deep, the last a won game
    (servers.ROOT / "screenshots").mkdir(exist_ok=True)
    for width, height in [(360, 740), (740, 360), (1280, 800)]:
        page.set_viewport_size({"width": width, "height": height})
        expect(page.locator("#stack tbody tr")).to_have_count(10)
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), width
        scroller = page.locator("#stack").locator("xpath=..")
        assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth"), width  # the table itself does not scroll
        expect(page.locator("#stack tr[aria-current] .frame-values")).to_contain_text("α = 1")
        shot = servers.ROOT / "screenshots" / f"learn-alphabeta-stack-{width}x{height}.png"
        page.screenshot(path=shot, full_page=True)


SLOW_FETCH = """const fetched = window.fetch;
window.fetch = (...args) => new Promise((done) => setTimeout(done, 200)).then(() => fetched(...args));"""


def test_quick_arrow_presses_all_count_and_a_held_key_stops_when_let_go(browser, live_server):
    context = browser.new_context(base_url=live_server)
    page = context.new_page()
    page.add_init_script(SLOW_FETCH)  # each step arrives a fifth of a second late, as from a busy server
    page.goto("/learn/trace/X.O.X.O..")
    trace = page.locator("#trace")
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    expect(trace).to_have_attribute("data-step", "11")
    page.keyboard.down("ArrowRight")
    for _ in range(10):  # the key held: its repeats, faster than the steps arrive
        page.keyboard.down("ArrowRight")
    page.keyboard.up("ArrowRight")
    expect(trace).to_have_attribute("data-step", "12")
    time.sleep(0.5)
    expect(trace).to_have_attribute("data-step", "12")  # nothing left queued once let go
    context.close()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_each_step_keeps_its_heading_next_the_step_text_and_the_current_line_in_view(browser, live_server, javascript):
    """Held sideways, then upright, in one tab: the trace loaded again at each size."""
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server)
    page = context.new_page()
    for width, height in [(740, 360), (360, 740)]:
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/learn/trace/X.O.X.O..?step=39")
        for step in ("40", "41"):
            click_through(page.locator("a[rel=next]"))
            expect(page.locator("#trace")).to_have_attribute("data-step", step)
            for seen in ("#trace-title", "a[rel=next]", "#step-text", "#code li.current"):
                box = page.locator(seen).bounding_box()
                assert box["y"] >= 0 and box["y"] + box["height"] <= height, (width, step, seen, box)
    context.close()
