"""A room's page while things happen around it, in Chromium against gunicorn: a seat taken
while a visitor types, a spectator without JavaScript, and Back."""

import http.server
import socketserver
import threading
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.test_browser import SHOTS, assert_accessible, cell, click_through
from tests.test_browser_rooms import SIZES, invite, join, person


@pytest.fixture
def people(browser, live_server):
    opened = []

    def make(base: str = live_server, **options):
        opened.append(person(browser, base, **options))
        return opened[-1]

    yield make
    for page in opened:
        page.context.close()


def assert_accessible_without_scripts(page) -> None:
    """axe on a page whose context runs no script (axe cannot run there): its HTML as it is,
    served at its address to a page that runs scripts, with the site's stylesheets."""
    html, address = page.content(), page.url
    copy = page.context.browser.new_page()
    copy.route(address, lambda route: route.fulfill(body=html, content_type="text/html; charset=utf-8"))
    copy.goto(address)
    assert_accessible(copy)
    copy.context.close()


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
    expect(late.locator("header nav")).to_have_count(1)
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
    assert_accessible_without_scripts(late)


def test_a_refused_name_stays_in_the_field_with_the_reason_beside_it(people):
    host, guest = people(), people(javascript=False)
    guest.goto(invite(host, "Ann"))
    guest.locator("#join-name").fill("ann")
    click_through(guest.locator("#join button"))
    expect(guest.locator("#join-name")).to_have_value("ann")
    expect(guest.locator("#join-name-error")).to_contain_text("not your friend's")
    assert_accessible_without_scripts(guest)


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
    for row, col, page in [(1, 1, host), (0, 0, guest), (2, 2, host), (0, 2, guest), (0, 1, host)]:
        expect(page.locator("#status")).to_have_attribute("data-state", "playing", timeout=10_000)
        click_through(cell(page, row, col))
    expect(host.locator("#board td[data-row='0'][data-col='2']")).to_have_attribute("data-mark", "O", timeout=10_000)
    grown = host.evaluate("history.length") - start
    # With JavaScript, a move and the live updates replace the entry. Without it, each of the
    # host's 3 moves adds one (Chromium makes only a link to the very same address a replace,
    # and a move must say its cell); the page's own reloads while it waits add none.
    assert grown == (0 if javascript else 3)
    if javascript:
        host.go_back()
        assert urlsplit(host.url).path == "/"  # one Back leaves the room for the page before it


class SameAddress(http.server.BaseHTTPRequestHandler):
    """A page at /p with each way a move could be sent without JavaScript; every request but
    GET /p answers See Other to /p, as a room's move does."""

    PAGE = b"""<!doctype html><title>p</title><a id="link" href="/move?cell=4">a move's link</a>
    <form id="post-here" method="post" action="/p"><button>a move's form, to this address</button></form>
    <a id="same" href="/p">a link to this very address</a>"""

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        if self.path != "/p":
            return self.do_POST()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(self.PAGE)))
        self.end_headers()
        self.wfile.write(self.PAGE)

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(303)
        self.send_header("Location", "/p")
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.mark.parametrize(("way", "added"), [("#link", 3), ("#post-here button", 3), ("#same", 0)])
def test_without_javascript_chromium_adds_an_entry_for_each_move_however_it_is_sent(browser, way, added):
    """Why a room's moves without JavaScript add history entries: Chromium turns only a link to
    the very address of the page into a replace, and a move must carry its cell; a POST to the
    page's own address answered by See Other to it adds an entry all the same."""
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), SameAddress)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page = browser.new_context(java_script_enabled=False).new_page()
    try:
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/p")
        start = page.evaluate("history.length")
        for _ in range(3):
            click_through(page.locator(way))
        assert page.evaluate("history.length") - start == added
    finally:
        page.context.close()
        server.shutdown()
        server.server_close()
