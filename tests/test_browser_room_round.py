"""A room on a 360x740 phone through a round, with and without JavaScript: every link and
button is a tap target of 24x24 px at least, and the line under the score speaks of a round
that is over as over."""

from playwright.sync_api import Error, Page, expect

from tests.test_browser import SHOTS, assert_accessible, cell, click_through
from tests.test_browser_rooms import SIZES, invite, join, people  # noqa: F401 (a fixture)

TARGETS = "a[href], button, input:not([type=hidden]), select, summary"
SMALL = """targets => targets.filter(t => t.getClientRects().length).map(t => {
  const box = t.getBoundingClientRect();
  return [t.id || t.textContent.trim().slice(0, 30), Math.round(box.width), Math.round(box.height)];
}).filter(([, width, height]) => width < 24 || height < 24)"""


def small_targets(page: Page) -> list:
    """The links and buttons on the page (or under the fold) smaller than 24x24 px. A waiting
    page without JavaScript reloads itself; a look that a reload cuts short is taken again."""
    for _ in range(3):
        try:
            return page.eval_on_selector_all(TARGETS, SMALL)
        except Error as error:
            if "context was destroyed" not in error.message:
                raise
            page.wait_for_load_state()
    raise AssertionError("the page kept reloading while its tap targets were measured")


def test_tap_targets_and_the_round_line_through_a_round(people):  # noqa: F811
    host, guest = people(), people(javascript=False)
    link = invite(host)
    guest.goto(link)
    seen = {"invite": small_targets(host), "join": small_targets(guest)}
    join(guest, link, "Bob")
    expect(host.locator("#room-round")).to_have_text("Round 1. You play X, and open. Sides swap at each new game.")
    seen |= {"your turn": small_targets(host), "waiting, no JavaScript": small_targets(guest)}
    for row, col, page in [(0, 0, host), (1, 0, guest), (0, 1, host), (1, 1, guest), (0, 2, host)]:
        expect(page.locator("#status")).to_have_attribute("data-state", "playing", timeout=10_000)
        click_through(cell(page, row, col))
    expect(host.locator("#status")).to_have_text("You won!")
    expect(host.locator("#room-round")).to_have_text("Round 1 is over. You played X; in the next round you play O.")
    expect(guest.locator("#room-round")).to_have_text(
        "Round 1 is over. You played O; in the next round you play X, and open.", timeout=10_000
    )
    seen |= {"won": small_targets(host), "lost, no JavaScript": small_targets(guest)}
    watcher = people(javascript=False)
    watcher.goto(link)
    expect(watcher.locator("#room-round")).to_have_text("Round 1 is over. Sides swap at each new game.")
    seen["watching, no JavaScript"] = small_targets(watcher)
    click_through(watcher.locator("#auto-refresh button"))  # a reload during a screenshot hangs it
    expect(watcher.locator("#auto-refresh button")).to_have_attribute("aria-pressed", "false")
    SHOTS.mkdir(exist_ok=True)
    watcher.screenshot(path=SHOTS / "room-watching-nojs-360x740.png", full_page=True)
    click_through(guest.locator("#rematch button"))
    expect(host.locator("#decline button")).to_be_visible()
    seen["offered a rematch"] = small_targets(host)
    assert_accessible(host)
    for size in SIZES:
        host.set_viewport_size(size)
        host.screenshot(path=SHOTS / f"room-round-over-{size['width']}x{size['height']}.png", full_page=True)
    click_through(host.locator("#rematch button"))
    expect(host.locator("#room-round")).to_have_text("Round 2. You play O. Sides swap at each new game.")
    assert {state: small for state, small in seen.items() if small} == {}
