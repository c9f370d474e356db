"""The explorer in Chromium: minimax's values, the trees and the trace, with and without
JavaScript, on a phone and a desktop, checked by axe-core."""

import time

import pytest
from playwright.sync_api import Page, expect

from tests import servers
from tests.test_browser import assert_accessible, click_through

SIZES = [(360, 740), (740, 360), (1280, 800)]


@pytest.mark.parametrize("position", [".........", "XO.XO....", "XOXOX...."])
def test_explorer_pages_fit_and_pass_axe(page: Page, position):
    """In light on a phone, then dark on a desktop, in one tab, the page loaded again for each."""
    for scheme, width, height in [("light", 360, 740), ("dark", 1280, 800)]:
        page.emulate_media(color_scheme=scheme)
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/explore/{position}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert_accessible(page)
        jump = page.locator("nav.jump")
        assert jump.bounding_box()["y"] + jump.bounding_box()["height"] <= height, width  # the way to the list and tree
        page.locator("nav.jump a", has_text="The tree").click()  # a jump within the page
        page.wait_for_function("location.hash === '#tree-title'")
        assert -1 < page.locator("#tree-title").bounding_box()["y"] < height, width


def test_from_the_game_into_the_tree_and_back(page: Page):
    page.goto("/")
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    click_through(page.locator("#explore"))
    click_through(page.locator("#board td a").first)  # an empty cell opens its child
    assert page.url.endswith("?back=game")
    click_through(page.locator("#tree a.node").first)
    click_through(page.locator("#parents a").first)
    click_through(page.locator("#back-to-game"))
    assert page.locator("#board td[data-mark='X']").count() == 1


@pytest.mark.parametrize("javascript", [True, False])
def test_stepping_through_the_trace(browser, live_server, javascript):
    phone = {"width": 360, "height": 740}
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server, viewport=phone)
    page = context.new_page()
    page.goto("/explore/XOXOX..../trace/1")
    if javascript:  # the arrow keys follow the Next and Previous links
        for key, step in [("ArrowRight", "2"), ("ArrowRight", "3"), ("ArrowLeft", "2"), ("ArrowRight", "3")]:
            with page.expect_event("load"):
                page.keyboard.press(key)
            expect(page.locator("#trace")).to_have_attribute("data-step", step)
    else:
        click_through(page.locator("a[rel=next]"))
        page.locator("#trace-title").click()
        page.keyboard.press("ArrowRight")
        time.sleep(0.5)
        expect(page.locator("#trace")).to_have_attribute("data-step", "2")  # no script, no key stepping
        click_through(page.locator("a[rel=next]"))
        expect(page.locator("#trace")).to_have_attribute("data-step", "3")
        assert page.url.endswith("/trace/3#step")  # scrolled to the step: on a phone it is below the fold
        for seen in ("#trace-title", "a[rel=next]", "#stack li[aria-current]"):  # the heading and the step in view
            box = page.locator(seen).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= phone["height"], (seen, box)
    expect(page.locator("#stack li")).to_have_count(3)
    if javascript:  # axe-core runs as a script in the page
        assert_accessible(page)
    context.close()


def test_screenshots_of_the_explorer(browser, live_server):
    """Each picture shows its page whole across and what it is taken for in view."""
    pages = {
        "explore-empty": ("/explore/", "Explore: X to move, draw with best play", "#board"),
        "explore-five": ("/explore/XO.XO....", "Explore: X to move, X wins with best play", "#board"),
        "trace": ("/explore/XOXOX..../trace/5", "Trace of minimax, step 5 of 64", "#trace-title"),
    }
    (servers.ROOT / "screenshots").mkdir(exist_ok=True)
    page = browser.new_page(base_url=live_server)  # one tab, each page loaded at each size
    for name, (url, title, shown) in pages.items():
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            assert_shown(page, url, 200, title, shown)
            if name == "trace":
                expect(page.locator("#trace")).to_have_attribute("data-step", "5")
            page.screenshot(path=servers.ROOT / "screenshots" / f"{name}-{width}x{height}.png")
    page.close()


def assert_shown(page: Page, url: str, status: int, title: str, shown: str) -> None:
    """`url` answers `status` with a page titled `title` that fits the width of the window, and
    the element `shown` (what its picture is taken for) is in the window."""
    response = page.goto(url)
    assert response.status == status, url
    assert page.title() == f"{title} · Tic-tac-toe"
    viewport = page.viewport_size
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], url
    expect(page.locator(shown)).to_be_visible()
    box = page.locator(shown).bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (url, shown, box)
    assert -1 < box["y"] < viewport["height"], (url, shown, box)  # a page scrolled to it: a fraction above


BOTH_WON = "Both X and O have three in a row: a game ends when the first line is made, so none reaches both."
TREE_POSITIONS = ["XO.O...X.", "XO.XO...."]  # alpha-beta visits 197 and 60 positions from them


@pytest.mark.parametrize("position", TREE_POSITIONS)
def test_the_alpha_beta_tree_folds_into_far_less_than_its_whole(page: Page, position):
    """At each width in turn, in one tab, the page loaded again (folded) for each."""
    for width, height in [(360, 740), (1280, 800)]:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/explore/{position}")
        tree = page.locator("#alphabeta")
        folded = tree.bounding_box()["height"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.eval_on_selector_all("#alphabeta details", "all => all.forEach(d => { d.open = true; })")
        unfolded = tree.bounding_box()["height"]  # the whole tree, the yardstick in this run
        print(f"{position} at {width}px: folded {folded:.0f} px, all open {unfolded:.0f} px")
        assert folded < unfolded / 3, (width, folded, unfolded)
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # open, it still fits


@pytest.mark.parametrize("javascript", [True, False])
def test_paste_a_board_and_see_a_students_answer(browser, live_server, javascript):
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server)
    page = context.new_page()
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/explore/")
    page.fill("#paste-board", "xx.......")
    click_through(page.locator("#paste button"))
    expect(page.locator("#paste-error")).to_have_text(
        "X has two more marks than O (two X and no O), but they take turns: X is at most one ahead."
    )
    expect(page.locator("#paste-board")).to_have_value("xx.......")
    if javascript:
        assert_accessible(page)
    page.fill("#paste-board", "[[X, X, EMPTY], [O, O, EMPTY], [EMPTY, EMPTY, EMPTY]]")
    click_through(page.locator("#paste button"))
    assert page.url.endswith("/explore/XX.OO....")
    page.goto("/explore/XX.OO....?student=2,0")
    expect(page.locator("#student")).to_have_attribute("data-optimal", "false")
    expect(page.locator("#board td.student")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    if javascript:
        assert_accessible(page)
    context.close()


def test_screenshots_of_the_new_tree_and_the_paste_form(browser, live_server):
    pages = {
        "explore-ab-tree": ("/explore/XO.O...X.#alphabeta-title", 200, "Explore: X to move, X wins with best play"),
        "explore-paste": ("/explore/paste?board=XXXOOO...", 400, "Explore: paste a board"),
        "explore-student": ("/explore/XX.OO....?student=2,0", 200, "Explore: X to move, X wins with best play"),
    }
    shown = {
        "explore-ab-tree": "#alphabeta-title",
        "explore-paste": "#paste-error",
        "explore-student": "#board td.student",
    }
    (servers.ROOT / "screenshots").mkdir(exist_ok=True)
    page = browser.new_page(base_url=live_server)  # one tab, each page loaded at each size
    for width, height in [(360, 740), (1280, 800)]:  # (the same address twice running would only scroll)
        for name, (url, status, title) in pages.items():
            page.set_viewport_size({"width": width, "height": height})
            assert_shown(page, url, status, title, shown[name])
            if name == "explore-paste":
                expect(page.locator("#paste-error")).to_have_text(BOTH_WON)
                expect(page.locator("#paste-board")).to_have_value("XXXOOO...")
            elif name == "explore-student":
                expect(page.locator("#student")).to_have_attribute("data-optimal", "false")
                expect(page.locator("#board td.student")).to_have_count(1)
            page.screenshot(path=servers.ROOT / "screenshots" / f"{name}-{width}x{height}.png")
            if name == "explore-ab-tree":  # explore-student's axe, at these sizes with JavaScript, is
                assert_accessible(page)  # test_browser_learn_feedback's test_the_students_answer_is_named...
    page.close()


@pytest.mark.parametrize("javascript", [True, False])
def test_the_bugs_code_lines_wrap_on_a_phone(browser, live_server, javascript):
    context = browser.new_context(
        java_script_enabled=javascript, base_url=live_server, viewport={"width": 360, "height": 740}
    )
    page = context.new_page()
    page.goto("/explore/bugs")
    for block in page.locator(".bug pre").all():
        assert block.evaluate(
            "e => e.scrollWidth <= e.clientWidth"
        )  # nothing cut off, such as "# even when it is O's turn"
    comment = page.get_by_text("# even when it is O's turn", exact=False)
    assert comment.bounding_box()["x"] + comment.bounding_box()["width"] <= 360
    context.close()
