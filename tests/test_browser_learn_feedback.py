"""In Chromium, with JavaScript on and off: what a new student found confusing on the /learn/
path, walked as they walked it. Step 1 lets them try again; a value box takes +1 and −1 and
refuses text by name; a drill from the path leads on to Next; the prune drill's boxes stay
beside their nodes on a phone; a trace's step past the end and the student's answer in the
explorer. Screenshots under screenshots/ (tests/servers.py's ROOT)."""

import pytest
from playwright.sync_api import expect

from tests import servers
from tests.judge import calls, is_over
from tests.test_browser import assert_accessible, click_through

pytestmark = pytest.mark.browser
JS = pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
SHOTS = servers.ROOT / "screenshots"
MINUS = "\N{MINUS SIGN}"


def context_for(browser, live_server, javascript: bool, width: int = 360, height: int = 740):
    return browser.new_context(
        java_script_enabled=javascript, base_url=live_server, viewport={"width": width, "height": height}
    )


def named(javascript: bool) -> str:
    return "js" if javascript else "no-js"


@JS
def test_step_one_says_what_is_wrong_then_lets_them_try_again_and_shows_the_answer_when_asked(
    browser, live_server, javascript
):
    below = calls("..XOOXOX.")
    nodes, leaves = len(below), sum(is_over(p) for p in below)
    page = context_for(browser, live_server, javascript).new_page()
    page.goto("/learn/step/1")
    page.fill("#tree-positions", str(nodes + 1))
    page.fill("#tree-leaves", f"+{leaves}")
    click_through(page.locator("#tree-form button"))
    expect(page.locator("#tree-answers li[data-name=positions]")).to_have_attribute("data-right", "false")
    expect(page.locator("#tree-answers li[data-name=positions]")).to_contain_text(f"{nodes + 1} is too many")
    expect(page.locator("#tree-answers li[data-name=positions]")).not_to_contain_text(f" {nodes}")
    expect(page.locator("#tree-answers li[data-name=leaves]")).to_have_attribute("data-right", "true")
    expect(page.locator("#tree-answers")).to_be_in_viewport()  # the form leads back to the exercise
    if javascript:
        assert_accessible(page)
    page.screenshot(path=SHOTS / f"learn-step-1-try-again-360x740-{named(javascript)}.png", full_page=True)
    page.fill("#tree-positions", str(nodes))  # again, the answers kept in the form
    click_through(page.locator("#tree-form button"))
    expect(page.locator("#tree-answers li[data-right=true]")).to_have_count(2)
    click_through(page.locator("#tree-in-explorer"))
    expect(page.locator("#tree-title")).to_have_text("The tree, two moves deep")
    page.goto(f"/learn/step/1?check=1&positions={nodes - 1}&leaves=0")
    click_through(page.locator("#show-answers"))
    expect(page.locator("#tree-answers li[data-name=positions]")).to_have_attribute("data-truth", str(nodes))
    page.context.close()


TREE = "((3,12,8),(2,4,6),(14,5,2))"


@JS
def test_a_value_box_takes_plus_and_minus_and_text_is_refused_by_name(browser, live_server, javascript):
    page = context_for(browser, live_server, javascript).new_page()
    page.goto(f"/learn/practice/backup?tree={TREE}")
    for box, value in {"root": "+3", "0": "3", "1": f"{MINUS}2", "2": "two"}.items():
        page.fill(f"input[name='v-{box}']", value)
    click_through(page.locator("#drill-form button"))  # no pattern: the browser refuses nothing
    expect(page.locator("#drill-refused")).to_contain_text("Nothing was checked yet: 1 box below holds no whole number")
    expect(page.locator("#v-2-error")).to_have_text(
        f"“two” is not a whole number: type digits with a sign or none, like 1, +1, {MINUS}1 or -1."
    )
    expect(page.locator("input[name='v-root']")).to_have_value("+3")
    if javascript:
        assert_accessible(page)
    page.screenshot(path=SHOTS / f"learn-backup-refused-360x740-{named(javascript)}.png", full_page=True)
    page.fill("input[name='v-2']", "-2")
    click_through(page.locator("#drill-form button"))
    expect(page.locator("#drill-score")).to_have_attribute("data-right", "2")  # C is 2, not −2
    expect(page.locator("#why")).to_have_count(0)  # marked wrong, the right value not yet shown
    expect(page.locator("input[name='v-2']")).to_have_value("-2")
    if javascript:
        assert_accessible(page)
    page.fill("input[name='v-2']", "2")
    click_through(page.locator("#drill-form button"))  # Check again
    expect(page.locator("#drill-score")).to_have_attribute("data-right", "3")
    page.context.close()


@JS
def test_a_drills_answers_are_shown_only_when_asked(browser, live_server, javascript):
    page = context_for(browser, live_server, javascript).new_page()
    page.goto(f"/learn/practice/prune?tree={TREE}&check=1&cut-0=on")
    expect(page.locator("#why")).to_have_count(0)
    expect(page.locator("input[name='cut-0']")).to_be_checked()
    click_through(page.locator("#show-answers"))
    expect(page.locator("#why li")).to_have_count(3)  # B ticked, C's last two left unticked
    expect(page.locator("li.tree-node[data-path='0'] > .node-line .edge-text")).to_contain_text("searched (not pruned)")
    if javascript:
        assert_accessible(page)
    page.screenshot(path=SHOTS / f"learn-prune-shown-360x740-{named(javascript)}.png", full_page=True)
    page.context.close()


@JS
def test_a_drill_from_the_path_leads_on_to_the_next_step(browser, live_server, javascript):
    page = context_for(browser, live_server, javascript).new_page()
    page.goto("/learn/step/2")
    click_through(page.locator("#exercise-link"))
    assert "from=path" in page.url
    for box in page.locator("#drill-form input[name^='v-']").all():
        box.fill("0")
    click_through(page.locator("#drill-form button"))
    expect(page.locator("#drill-score")).to_be_visible()
    click_through(page.locator("#drill-next button"))
    expect(page.locator("#learn-step")).to_have_attribute("data-step", "3")
    page.goto("/learn/")
    expect(page.locator("#path li[data-step='2']")).to_have_attribute("data-done", "true")
    page.context.close()


def beside(page, path: str) -> None:
    """The box of the branch to `path` sits left of its node, on the node's first line."""
    box = page.locator(f"li.tree-node[data-path='{path}'] > .node-line > .edge input").bounding_box()
    head = page.locator(f"li.tree-node[data-path='{path}'] > .node-line > .node-head").bounding_box()
    assert box["x"] + box["width"] <= head["x"], (path, box, head)
    assert head["y"] <= box["y"] + box["height"] / 2 <= head["y"] + head["height"], (path, box, head)


@JS
@pytest.mark.parametrize("graded", [False, True], ids=["asked", "graded"])
def test_the_prune_drills_boxes_stay_beside_their_nodes_on_a_phone(browser, live_server, javascript, graded):
    page = context_for(browser, live_server, javascript).new_page()
    position = ".OXX..OXO"  # 15 branches, three levels: the deepest nodes are the narrowest
    page.goto(f"/learn/practice/prune?position={position}" + ("&check=1&cut-0=on&cut-10=on" if graded else ""))
    paths = page.eval_on_selector_all("li.tree-node[data-path]", "all => all.map(li => li.dataset.path)")
    assert len([p for p in paths if p]) == 15
    for path in paths:
        if path:
            beside(page, path)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    if javascript:
        assert_accessible(page)
    page.screenshot(
        path=SHOTS / f"learn-prune-{'graded' if graded else 'asked'}-360x740-{named(javascript)}.png", full_page=True
    )
    page.context.close()


@JS
def test_a_step_past_the_end_of_a_trace_leads_to_its_last_step(browser, live_server, javascript):
    page = context_for(browser, live_server, javascript).new_page()
    response = page.goto("/learn/trace/X.O.X.O..?step=9999")
    assert response.status == 404
    expect(page.locator("#lost-links a")).to_have_count(3)
    if javascript:
        assert_accessible(page)
    click_through(page.locator("#lost-links a").first)
    expect(page.locator("#trace")).to_have_attribute("data-step", "675")
    expect(page.locator("#next-step")).to_have_count(0)
    page.context.close()


@JS
def test_the_students_answer_is_named_in_the_first_screen(browser, live_server, javascript):
    """At each size in turn, in one tab, the page loaded again at each."""
    page = context_for(browser, live_server, javascript).new_page()
    for width, height in [(360, 740), (740, 360), (1280, 800)]:
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/explore/XX.OO....?student=2,0")
        legend = page.locator("#student-legend")
        expect(legend).to_contain_text("Ringed: your minimax's answer, (2, 0) a3, not optimal")
        if height > width:  # a phone held upright: the legend in the first screen, above the board
            expect(legend).to_be_in_viewport()
            assert legend.bounding_box()["y"] + legend.bounding_box()["height"] <= height
        if javascript:
            assert_accessible(page)
        page.screenshot(path=SHOTS / f"explore-student-{width}x{height}-{named(javascript)}.png")
    page.context.close()


@JS
def test_step_ones_labels_stay_on_the_line_of_their_boxes_on_a_phone(browser, live_server, javascript):
    page = context_for(browser, live_server, javascript, 360, 740).new_page()
    page.goto("/learn/step/1")
    for box in ("tree-positions", "tree-leaves"):
        label = page.locator(f"label[for='{box}']").bounding_box()
        field = page.locator(f"#{box}").bounding_box()
        assert field["y"] <= label["y"] + label["height"] / 2 <= field["y"] + field["height"], (box, label, field)
        assert label["x"] + label["width"] <= field["x"], (box, label, field)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.context.close()
