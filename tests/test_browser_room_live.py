"""A room's page while things happen around it, in Chromium against gunicorn: a seat taken
while a visitor types, the server gone, a spectator without JavaScript, and Back."""

import pytest
from playwright.sync_api import expect

from tests import servers
from tests.test_browser import SHOTS, assert_accessible, cell, click_through
from tests.test_browser_rooms import SIZES, invite, join, person

pytestmark = pytest.mark.browser


@pytest.fixture
def people(browser, live_server):
    opened = []

    def make(base: str = live_server, **options):
        opened.append(person(browser, base, **options))
        return opened[-1]

    yield make
    for page in opened:
        page.context.close()


def test_a_seat_taken_while_typing_keeps_the_form_and_says_by_whom(people):
    host, late = people(), people()
    link = invite(host)
    late.goto(link)
    late.locator("#join-name").press_sequentially("Cy")
    join(people(), link, "Dee")
    expect(late.locator("#join .seat-taken")).to_have_text(
        "Dee took the seat first. You can watch the game here, or play the AI and invite someone from there."
    )
    expect(late.locator("#join-name")).to_have_value("Cy")
    assert late.evaluate("document.activeElement.id") == "join-name"  # focus stayed where it was
    expect(late.locator("#watching")).to_have_text("You are watching Ann (X) and Dee (O).")
    expect(late.locator("footer nav")).to_have_count(1)
    assert_accessible(late)
    SHOTS.mkdir(exist_ok=True)
    for size in SIZES[:2]:
        late.set_viewport_size(size)
        late.screenshot(path=SHOTS / f"room-seat-taken-{size['width']}x{size['height']}.png")
    click_through(late.locator("#join button"))  # sent anyway: the server says the same
    expect(late.locator("#message")).to_have_text("Dee took the seat first. You can watch the game.")


def test_without_javascript_a_seat_taken_first_is_said_on_sending(people):
    host, late = people(), people(javascript=False)
    link = invite(host)
    late.goto(link)
    late.locator("#join-name").fill("Cy")
    join(people(), link, "Dee")
    click_through(late.locator("#join button"))
    expect(late.locator("#message")).to_have_text("Dee took the seat first. You can watch the game.")
    assert late.locator("meta[http-equiv=refresh]").count() == 1  # watching, it reloads to show the moves
    click_through(late.locator("#auto-refresh button"))  # the spectator's off switch too
    assert late.locator("meta[http-equiv=refresh]").count() == 0
    assert_accessible(late)


def test_a_refused_name_stays_in_the_field_with_the_reason_beside_it(people):
    host, guest = people(), people(javascript=False)
    guest.goto(invite(host, "Ann"))
    guest.locator("#join-name").fill("ann")
    click_through(guest.locator("#join button"))
    expect(guest.locator("#join-name")).to_have_value("ann")
    expect(guest.locator("#join-name-error")).to_contain_text("not your friend's")
    assert_accessible(guest)


def test_with_the_server_gone_the_page_says_reconnecting_and_sends_no_move(people, tmp_path):
    with servers.gunicorn({"TTT_INSTANCE_DIR": str(tmp_path)}, workers=1) as base:
        host, guest = people(base), people(base)
        join(guest, invite(host), "Bob")
        expect(host.locator("#status")).to_have_attribute("data-state", "playing")
        expect(host.locator("#connection")).to_be_hidden()
    expect(host.locator("#connection")).to_have_text("Reconnecting…", timeout=15_000)
    assert host.locator("#connection").get_attribute("role") == "status"
    address = host.url
    cell(host, 1, 1).click()
    said = "Reconnecting… The server cannot be reached: your move was not sent."
    expect(host.locator("#connection")).to_have_text(said)
    assert host.url == address and host.locator("#board").count() == 1  # no "This site can't be reached"
    assert_accessible(host)
    for size in SIZES[:2]:
        host.set_viewport_size(size)
        host.screenshot(path=SHOTS / f"room-reconnecting-{size['width']}x{size['height']}.png")


def test_a_spectator_without_javascript_sees_the_moves(people):
    host, guest = people(), people()
    link = invite(host)
    join(guest, link, "Bob")
    watcher = people(javascript=False)
    watcher.goto(link)
    assert watcher.locator("meta[http-equiv=refresh]").count() == 1
    click_through(cell(host, 1, 1))
    expect(watcher.locator("#board td[data-row='1'][data-col='1']")).to_have_attribute("data-mark", "X", timeout=10_000)


@pytest.mark.parametrize("javascript", [True, False])
def test_moves_in_a_room_and_back(people, javascript):
    host, guest = people(javascript=javascript), people()
    join(guest, invite(host), "Bob")
    start = host.evaluate("history.length")
    for row, col, page in [(1, 1, host), (0, 0, guest), (2, 2, host)]:
        expect(page.locator("#status")).to_have_attribute("data-state", "playing", timeout=10_000)
        click_through(cell(page, row, col))
    expect(host.locator("#board td[data-row='0'][data-col='0']")).to_have_attribute("data-mark", "O", timeout=10_000)
    grown = host.evaluate("history.length") - start
    assert grown == (0 if javascript else 2)  # with JavaScript, a move and the live updates replace the entry
