"""Rooms in Debian's Chromium, against the real app under gunicorn: with JavaScript a page
follows the room's event stream and never reloads; without it, a waiting player's page
reloads itself and a page with a form never does."""

import os
import signal
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import servers
from tests.test_browser import SHOTS, assert_accessible, cell, click_through

PHONE = {"width": 360, "height": 740}
SIZES = [PHONE, {"width": 740, "height": 360}, {"width": 1280, "height": 800}]
NAVIGATIONS = "performance.getEntriesByType('navigation').length"  # 1 for a page never reloaded


def person(browser: Browser, base: str, javascript: bool = True, viewport=None, **options) -> Page:
    context = browser.new_context(base_url=base, java_script_enabled=javascript, viewport=viewport or PHONE, **options)
    return context.new_page()


def invite(host: Page, name: str = "Ann") -> str:
    """The host makes a room; its link."""
    host.goto("/")
    host.locator("#invite input[name=name]").fill(name)
    click_through(host.locator("#invite button"))
    return host.locator("#room-link").input_value()


def join(guest: Page, link: str, name: str) -> None:
    guest.goto(link)
    guest.locator("#join-name").fill(name)
    click_through(guest.locator("#join button"))


def mark_page(page: Page) -> None:
    """Leave a marker on `window`: it survives only if the page is never reloaded."""
    page.evaluate("window.stillHere = true")


def never_reloaded(page: Page) -> bool:
    return page.evaluate("window.stillHere === true") and page.evaluate(NAVIGATIONS) == 1


@pytest.fixture
def people(browser, live_server):
    opened: list[Page] = []

    def make(**options) -> Page:
        opened.append(person(browser, live_server, **options))
        return opened[-1]

    yield make
    for page in opened:
        page.context.close()


def test_the_guest_types_slowly_and_moves_arrive_without_a_reload(people):
    host, guest = people(), people()
    link = invite(host)
    guest.goto(link)
    assert guest.locator("meta[http-equiv=refresh]").count() == 0
    expect(guest.locator("#join button")).to_be_in_viewport(ratio=1)  # above the fold at 360x740
    for key in ("Tab", "Enter", "Tab"):  # the skip link to the invitation, then past the name field
        guest.keyboard.press(key)
    assert guest.evaluate("document.activeElement.textContent") == "Take the seat"
    assert_accessible(guest)
    mark_page(guest)
    guest.locator("#join-name").press_sequentially("Benjamin", delay=650)  # about 5 s
    expect(guest.locator("#join-name")).to_have_value("Benjamin")
    assert never_reloaded(guest)
    host.locator("#room-link").focus()
    host.locator("#room-link").select_text()
    mark_page(host)
    click_through(guest.locator("#join button"))
    expect(host.locator("#status")).to_have_text("Your turn: place X.")  # the guest's arrival, live
    assert never_reloaded(host)
    assert host.evaluate("document.activeElement.id") == "room-link"
    assert host.evaluate("document.activeElement.selectionEnd - document.activeElement.selectionStart") == len(link)
    mark_page(guest)
    click_through(cell(host, 1, 1))
    expect(guest.locator("#board td[data-row='1'][data-col='1']")).to_have_attribute("data-mark", "X")
    expect(guest.locator("#status")).to_have_text("Ann played b2. Your turn: place O.")
    assert never_reloaded(guest) and guest.title().startswith("Ann played b2.")
    for page in (host, guest):
        assert page.locator("meta[http-equiv=refresh]").count() == 0
        assert_accessible(page)  # no rule left out: no page refreshes itself where the stream runs


def test_copy_puts_the_link_on_the_clipboard(people):
    host = people(permissions=["clipboard-read", "clipboard-write"])
    link = invite(host)
    copy = host.locator("#share button.copy")
    expect(copy).to_be_visible()
    copy.click()
    expect(host.locator("#share .copied")).to_have_text("Copied.")
    assert host.evaluate("navigator.clipboard.readText()") == link
    assert_accessible(host)


def test_an_invitation_on_a_small_phone_puts_the_link_first(people):
    host = people(viewport={"width": 320, "height": 740}, color_scheme="dark")
    invite(host)
    assert host.evaluate("document.documentElement.scrollWidth") <= 320
    share, board = host.locator("#share").bounding_box(), host.locator("#board").bounding_box()
    assert share["y"] + share["height"] <= board["y"]
    expect(host.locator("#share svg")).to_be_in_viewport()
    assert_accessible(host)


def test_without_javascript_the_guest_joins_and_plays_and_only_waiting_pages_reload(people):
    host, guest = people(), people(javascript=False)
    link = invite(host)
    joining = guest.goto(link)
    expect(guest.locator("button.copy")).to_have_count(0)
    guest.locator("#join-name").fill("Bob")
    # The join form never reloads: without JavaScript only a refresh, in the page or in its
    # headers, could reload it, and it has neither.
    assert guest.locator("meta[http-equiv=refresh]").count() == 0 and "refresh" not in joining.headers
    expect(guest.locator("#join-name")).to_have_value("Bob")
    click_through(guest.locator("#join button"))
    expect(guest.locator("#status")).to_have_text("Waiting for Ann to move.")
    assert guest.locator("meta[http-equiv=refresh]").count() == 1  # JavaScript off: the one exception
    click_through(guest.locator("#auto-refresh button"))  # and its off switch
    expect(guest.locator("#auto-refresh button")).to_have_attribute("aria-pressed", "false")
    assert guest.locator("meta[http-equiv=refresh]").count() == 0
    click_through(guest.locator("#auto-refresh button"))
    moves = [(host, 1, 1), (guest, 0, 0), (host, 0, 2), (guest, 2, 0), (host, 1, 0), (guest, 1, 2)]
    moves += [(host, 0, 1), (guest, 2, 1), (host, 2, 2)]
    for player, row, col in moves:
        expect(player.locator("#status")).to_have_attribute("data-state", "playing", timeout=10_000)
        click_through(cell(player, row, col))
    for player in (host, guest):
        expect(player.locator("#status")).to_have_attribute("data-result", "draw", timeout=10_000)
        expect(player.locator("#room-score")).to_have_attribute("data-draws", "1")
        expect(player.locator("#review")).to_have_attribute("href", "/review/4-0-2-6-3-5-1-7-8?o=Bob&x=Ann")
    click_through(guest.locator("#rematch button"))
    expect(guest.locator("#offer")).to_have_text("You offered a rematch. Waiting for Ann to answer.")
    expect(host.locator("#offer")).to_have_text("Bob offers a rematch, sides swapped.")
    assert host.locator("#board td[data-mark]").count() == 9  # the finished board stays
    assert_accessible(host)
    click_through(host.locator("#rematch button"))
    expect(guest.locator("#status")).to_have_text("Your turn: place X.", timeout=10_000)
    expect(host.locator("#status")).to_have_text("Waiting for Bob to move.")


def test_resign_and_leave_ask_first_and_the_other_player_keeps_the_room(people):
    host, guest = people(), people()
    join(guest, invite(host), "Bob")
    click_through(host.locator("#resign"))
    expect(host.locator("#confirm-title")).to_have_text("Resign this game?")
    assert_accessible(host)
    click_through(host.locator("#back-to-room"))
    click_through(host.locator("#leave"))
    expect(host.locator("#confirm-title")).to_have_text("Leave the room?")
    assert_accessible(host)
    click_through(host.locator("#leave-confirm button"))
    expect(guest.locator("#status")).to_have_text("Ann left. Send the link to someone else to play in the free seat.")
    expect(guest.locator("#share-title")).to_have_text("Invite someone to the free seat")
    expect(guest.locator("#share svg")).to_be_visible()  # the QR code, to invite someone else
    assert_accessible(guest)
    host.go_back()  # to the page that asked "Leave the room?": it now says there is nothing to leave
    expect(host.locator("#no-seat-title")).to_have_text("You have no seat in this room")
    assert_accessible(host)


def test_a_spectator_is_told_whom_they_watch(people):
    host, guest = people(), people()
    link = invite(host)
    join(guest, link, "Ben")
    watcher = people(viewport={"width": 1280, "height": 800})
    watcher.goto(link)
    expect(watcher.locator("#watching")).to_have_text("You are watching Ann (X) and Ben (O).")
    mark_page(watcher)
    click_through(cell(host, 1, 1))
    expect(watcher.locator("#status")).to_have_text("Ann (X) played b2. Ben (O) to move.")
    assert never_reloaded(watcher)
    assert watcher.locator("#live-join a, #live-status a").count() == 0  # no "Play the AI" above the game
    assert_accessible(watcher)


def test_pages_come_back_by_themselves_after_a_worker_dies(people, live_server):
    host, guest = people(), people()
    join(guest, invite(host), "Bob")
    mark_page(guest)
    for pid in servers.worker_pids(live_server):
        os.kill(pid, signal.SIGKILL)  # every stream drops; the master starts new workers
    deadline = time.monotonic() + 20
    while True:
        try:
            click_through(cell(host, 1, 1))
            break
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)
            host.reload()
    expect(guest.locator("#board td[data-row='1'][data-col='1']")).to_have_attribute("data-mark", "X", timeout=15_000)
    assert never_reloaded(guest)


def test_screenshots_of_a_room(people):
    SHOTS.mkdir(exist_ok=True)
    host, guest = people(), people()
    link = invite(host)
    guest.goto(link)
    for size in SIZES:
        for name, page in (("room-invite", host), ("room-join", guest)):
            page.set_viewport_size(size)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], (name, size)
            page.screenshot(path=SHOTS / f"{name}-{size['width']}x{size['height']}.png")
    join(guest, link, "Benjamin")
    for row, col, page in [(1, 1, host), (0, 0, guest), (0, 2, host), (2, 0, guest), (1, 0, host), (1, 2, guest)]:
        expect(page.locator("#status")).to_have_attribute("data-state", "playing")
        click_through(cell(page, row, col))
    for row, col, page in [(0, 1, host), (2, 1, guest)]:
        expect(page.locator("#status")).to_have_attribute("data-state", "playing")
        click_through(cell(page, row, col))
    expect(host.locator("#status")).to_have_attribute("data-state", "playing")
    click_through(cell(host, 2, 2))
    click_through(host.locator("#rematch button"))
    expect(guest.locator("#offer")).to_be_visible()
    for size in SIZES:
        for name, page in (("room-offered", host), ("room-offer", guest)):
            page.set_viewport_size(size)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], (name, size)
            page.screenshot(path=SHOTS / f"{name}-{size['width']}x{size['height']}.png")
