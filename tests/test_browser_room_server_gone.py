"""A room's page while its server is gone and when it comes back, in Chromium, against a
gunicorn of this test's own (the shared one stays up for the other tests)."""

import contextlib

import pytest
from playwright.sync_api import expect

from tests import servers
from tests.test_browser import SHOTS, assert_accessible, cell, click_through
from tests.test_browser_rooms import invite, join, person

DOWN = "Reconnecting…"
MOVE_NOT_SENT = "Reconnecting… The server cannot be reached: your move was not sent."
BACK = "Connected again: the room is live."


class Restartable:
    """A gunicorn that stops and starts again on the same port, with the same rooms."""

    def __init__(self, gunicorn, env: dict[str, str]) -> None:
        self.gunicorn, self.env, self.port = gunicorn, env, servers.free_port()
        self.running = contextlib.ExitStack()

    def start(self) -> str:
        return self.running.enter_context(self.gunicorn(self.env, workers=1, port=self.port))

    def stop(self) -> None:
        self.running.close()


@pytest.fixture
def server(tmp_path, gunicorn):
    limits = {"TTT_NEW_SESSION_LIMIT": "1000 per minute", "TTT_NEW_ROOM_LIMIT": "1000 per minute"}
    # Idle keep-alive connections held its stop up for gunicorn.conf's 5 s (6 s measured): an
    # operator's shorter keep-alive, through gunicorn's documented GUNICORN_CMD_ARGS
    limits["GUNICORN_CMD_ARGS"] = "--keep-alive 1"
    restartable = Restartable(gunicorn, servers.app_env(tmp_path, **limits))
    yield restartable
    restartable.stop()


@pytest.mark.long
def test_the_page_says_reconnecting_while_the_server_is_gone_and_sends_no_move(browser, server):
    base = server.start()
    host, guest = person(browser, base), person(browser, base)
    join(guest, invite(host), "Bob")
    expect(host.locator("#status")).to_have_text("Your turn: place X.")
    room = host.url
    server.stop()
    expect(host.locator("#connection")).to_have_text(DOWN, timeout=15_000)
    expect(guest.locator("#connection")).to_have_text(DOWN, timeout=15_000)
    cell(host, 1, 1).click()
    expect(host.locator("#connection")).to_have_text(MOVE_NOT_SENT)
    assert host.url == room  # not the browser's "This site can't be reached"
    expect(host.locator("#board td[data-mark=X]")).to_have_count(0)
    assert_accessible(host)
    SHOTS.mkdir(exist_ok=True)
    host.screenshot(path=SHOTS / "room-reconnecting-360x740.png")
    server.start()
    for page in (host, guest):
        expect(page.locator("#connection")).to_have_text(BACK, timeout=15_000)
    click_through(cell(host, 1, 1))
    expect(guest.locator("#board td[data-row='1'][data-col='1']")).to_have_attribute("data-mark", "X")
    expect(guest.locator("#status")).to_have_text("Ann played b2. Your turn: place O.")
    for page in (host, guest):
        page.context.close()
