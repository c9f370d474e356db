"""In Chromium, with JavaScript on and off: the path through /learn/ walked to its end, the
explorer's two links into it, and the trace's current call kept in view on a phone by the
Previous and Next beside the stack."""

import pytest
from playwright.sync_api import expect

from tests import servers
from tests.test_browser import assert_accessible, click_through

pytestmark = pytest.mark.browser
JS = pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
SHOTS = servers.ROOT / "screenshots"


def context_for(browser, live_server, javascript: bool, width: int = 1280, height: int = 800):
    return browser.new_context(
        java_script_enabled=javascript, base_url=live_server, viewport={"width": width, "height": height}
    )


@JS
def test_the_path_walked_from_start_to_end(browser, live_server, javascript):
    context = context_for(browser, live_server, javascript, 360, 740)
    page = context.new_page()
    page.goto("/learn/")
    expect(page.locator("#progress")).to_have_attribute("data-done", "0")
    click_through(page.locator("#continue"))
    expect(page.locator("#learn-step")).to_have_attribute("data-step", "1")
    page.fill("#tree-positions", "11")
    page.fill("#tree-leaves", "5")
    click_through(page.locator("#tree-form button"))
    expect(page.locator("#tree-answers li[data-right=true]")).to_have_count(2)
    if javascript:  # axe-core runs as a script
        assert_accessible(page)
    for number in range(1, 7):
        expect(page.locator("#learn-step")).to_have_attribute("data-step", str(number))
        expect(page.locator("#exercise")).to_be_visible()
        if number == 3:
            page.screenshot(path=SHOTS / f"learn-step-3-360x740-{'js' if javascript else 'no-js'}.png", full_page=True)
        click_through(page.locator("#next-step button"))
    assert page.url.endswith("/learn/#path")
    expect(page.locator("#progress")).to_have_attribute("data-done", "6")
    expect(page.locator("#path li[data-done=true]")).to_have_count(6)
    page.goto("/learn/step/2")  # a visit changes nothing
    page.goto("/learn/")
    expect(page.locator("#progress")).to_have_attribute("data-done", "6")
    click_through(page.locator("#restart button"))
    expect(page.locator("#progress")).to_have_attribute("data-done", "0")
    context.close()


@JS
def test_the_explorers_links_open_the_trace_and_the_depth_limited_search(browser, live_server, javascript):
    context = context_for(browser, live_server, javascript)
    page = context.new_page()
    page.goto("/explore/XO..X....")
    click_through(page.locator("#to-pseudocode-trace"))
    expect(page.locator("#trace")).to_have_attribute("data-step", "1")
    assert page.url.endswith("/learn/trace/XO..X....")
    page.go_back()
    click_through(page.locator("#to-depth-limited"))
    expect(page.locator("#limited-board")).to_have_value("XO..X....")
    page.goto("/explore/")
    click_through(page.locator("#to-pseudocode-trace"))
    assert page.url.endswith("/learn/trace/X.O.X.O..")  # the empty board's trace starts at a short game
    context.close()


def in_view(page, selector: str, height: int) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@JS
@pytest.mark.parametrize("start", ["/learn/alphabeta/X.O.X.O..?step=10", "/learn/alphabeta/.........?step=2990"])
def test_on_a_phone_the_current_call_stays_in_view_beside_previous_and_next(browser, live_server, javascript, start):
    """27 steps, through the stack's own Next: its current row (v, α, β) and the links beside
    it are in view on every one, however deep the stack (ten calls on the empty board)."""
    context = context_for(browser, live_server, javascript, 360, 740)
    page = context.new_page()
    page.goto(start + "#now")
    first = int(page.locator("#trace").get_attribute("data-step"))
    for n in range(first + 1, first + 28):
        link = page.locator("#next-by-stack")
        if javascript:
            link.click()
        else:
            click_through(link)
        expect(page.locator("#trace")).to_have_attribute("data-step", str(n))
        for seen in ("#stack tr[aria-current]", "#next-by-stack", "#prev-by-stack"):
            assert in_view(page, seen, 740), (n, seen, page.locator(seen).bounding_box())
        if n == 30 and "X.O.X.O.." in start:
            page.screenshot(path=SHOTS / f"learn-alphabeta-30-stack-360x740-{'js' if javascript else 'no-js'}.png")
    context.close()


def test_on_a_phone_the_arrow_keys_step_where_the_student_reads(browser, live_server):
    """After the stack's own Next, the arrow keys follow the links beside the stack: the
    current call stays in view (the top links would bring the code back instead)."""
    context = context_for(browser, live_server, True, 360, 740)
    page = context.new_page()
    page.goto("/learn/trace/X.O.X.O..?step=20#now")
    page.locator("#next-by-stack").click()
    expect(page.locator("#trace")).to_have_attribute("data-step", "21")  # loaded, its keys bound, before any key
    for key, step in [("ArrowRight", 22), ("ArrowRight", 23), ("ArrowLeft", 22), ("ArrowRight", 23)]:
        page.keyboard.press(key)
        expect(page.locator("#trace")).to_have_attribute("data-step", str(step))
        row = "#stack tr[aria-current]"
        assert in_view(page, row, 740), (step, page.locator(row).bounding_box())
    context.close()


def test_the_path_fits_passes_axe_and_is_shot(browser, live_server):
    """One student (one step done, shown on every page), each page at each size in turn."""
    context = context_for(browser, live_server, True, 360, 740)
    page = context.new_page()
    page.goto("/learn/step/1")
    click_through(page.locator("#next-step button"))  # one step done, shown on every page
    for width, height in [(360, 740), (740, 360), (1280, 800)]:
        page.set_viewport_size({"width": width, "height": height})
        for name, url in [("learn-path", "/learn/"), *((f"learn-step-{n}", f"/learn/step/{n}") for n in range(1, 7))]:
            page.goto(url)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, name
            assert_accessible(page)
            page.screenshot(path=SHOTS / f"{name}-{width}x{height}.png", full_page=True)
        expect(page.locator("#learn-step .path-where")).to_contain_text("step 6 of 6")
        page.goto("/learn/")
        expect(page.locator("#path li[data-step='1']")).to_have_attribute("data-done", "true")
    context.close()


@JS
def test_step_one_counts_a_position_of_the_students_own_and_says_beside_the_box_what_it_cannot(
    browser, live_server, javascript
):
    """A phone: a board with too many empty cells is refused beside the box, in view, with the
    way back; an empty box is step 1's own exercise; a board it takes becomes the exercise."""
    context = context_for(browser, live_server, javascript, 360, 740)
    page = context.new_page()
    page.goto("/learn/step/1")
    page.fill("#tree-position-text", "X........")
    click_through(page.locator("#tree-position button"))
    error = page.locator("#tree-position-error")
    expect(error).to_contain_text("X........ has 8 empty cells")
    expect(error).to_contain_text("2 to 4 empty cells")
    expect(error).to_be_in_viewport()
    expect(page.locator("#tree-position-text")).to_have_value("X........")
    if javascript:
        assert_accessible(page)
    page.screenshot(path=SHOTS / f"learn-step-1-refused-360x740-{'js' if javascript else 'no-js'}.png")
    click_through(page.locator("#tree-own-exercise"))
    expect(error).to_have_count(0)
    click_through(page.locator("#tree-position button"))  # the box left empty
    expect(error).to_have_count(0)
    expect(page.locator("#tree-form input[name=position]")).to_have_value("..XOOXOX.")
    page.fill("#tree-position-text", "XO..XOXO.")
    click_through(page.locator("#tree-position button"))
    expect(page.locator("#tree-form input[name=position]")).to_have_value("XO..XOXO.")
    expect(page.locator("#exercise")).to_contain_text("In XO..XOXO. (X to move)")
    context.close()
