"""Players, round 5 (#44), in Debian's Chromium against the real app under gunicorn, with
JavaScript on and off: a declined rematch, reviews in other scripts on a phone, the verdict
in the first screen, the New game panel, Back after a game, the name field's check, the retry
page on a desktop, a room move drawn at once, the chosen colours, a score after someone left."""

import http.server
import socketserver
import threading

import pytest
from playwright.sync_api import Browser, Page, expect

from tests import judge
from tests.test_browser import SHOTS, cell, click_through
from tests.test_browser_rooms import PHONE, SIZES, invite, join, people  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

JS = pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
X_WINS = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]  # X takes the top row


def marks(page: Page) -> str:
    return "".join(page.eval_on_selector_all("#board td", "tds => tds.map(td => td.dataset.mark || '.')"))


def seen(page: Page, javascript: bool) -> Page:
    if not javascript:
        page.reload()
    return page


def play_round(host: Page, guest: Page, javascript: bool) -> None:
    for n, (row, col) in enumerate(X_WINS):
        mover = host if n % 2 == 0 else guest
        seen(mover, javascript)
        expect(mover.locator("#status")).to_have_attribute("data-state", "playing", timeout=10_000)
        click_through(cell(mover, row, col))
    expect(host.locator("#status")).to_have_text("You won!")


@JS
def test_a_declined_rematch_is_gone_and_a_new_offer_waits_for_a_yes(people, javascript):  # noqa: F811
    host, guest = people(javascript=javascript), people(javascript=javascript)
    link = invite(host, "Ann")
    join(guest, link, "Bo")
    play_round(host, guest, javascript)
    click_through(host.locator("#rematch button"))
    expect(seen(guest, javascript).locator("#decline button")).to_be_visible(timeout=10_000)
    click_through(guest.locator("#decline button"))
    expect(seen(host, javascript).locator("#offer")).to_have_text("Bo declined the rematch.", timeout=10_000)
    expect(host.locator("#rematch button")).to_have_text("Offer Bo a rematch (sides swap)")  # (#44 item 11)
    expect(guest.locator("#rematch button")).to_have_text("Offer Ann a rematch (sides swap)")
    click_through(guest.locator("#rematch button"))  # Bo offers now: it waits for Ann
    expect(guest.locator("#offer")).to_have_text("You offered a rematch. Waiting for Ann to answer.")
    expect(guest.locator("#status")).to_have_attribute("data-round", "1")
    expect(seen(host, javascript).locator("#offer")).to_have_text("Bo offers a rematch, sides swapped.", timeout=10_000)
    expect(host.locator("#status")).to_have_attribute("data-round", "1")
    assert marks(host) == "XXXOO...."  # round 1's board, still
    click_through(host.locator("#rematch button"))  # Ann's yes
    expect(host.locator("#status")).to_have_attribute("data-round", "2")
    expect(seen(guest, javascript).locator("#status")).to_have_attribute("data-round", "2", timeout=10_000)


NAMES = [
    "/review/4-1-0-8-2-6-5-3-7?o=Анна&x=Zoë",
    "/review/4-1-0-8-2-6-5-3-7?x=李雷&o=Ολυμπία",
    "/review/0-1-2-4-7-3-5-8-6?x=Александра&o=欧阳娜娜",
]


@JS
def test_reviews_with_names_in_other_scripts_fit_a_phone_and_show_the_link_as_read(browser, live_server, javascript):
    context = browser.new_context(base_url=live_server, viewport=PHONE, java_script_enabled=javascript)
    page = context.new_page()
    for url in NAMES:
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (url, width)
        shown = page.locator("#share-link").inner_text()
        assert "%" not in shown and url.split("?")[0] in shown  # as a person reads it (an IRI)
        for name in url.split("?")[1].replace("&", "=").split("=")[1::2]:
            assert name in shown
        box = page.locator("#share-link").bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"]  # wrapped inside the page
    SHOTS.mkdir(exist_ok=True)
    page.goto(NAMES[1])
    page.screenshot(path=SHOTS / f"review-cjk-greek-360x740-{'js' if javascript else 'nojs'}.png", full_page=True)
    context.close()


LOST_TO_AI = "/review/0-1-2-4-7-3-5-8-6?ai=medium&you=O"  # #44: you blundered at b1, the AI slipped back
VERDICTS = [LOST_TO_AI, "/review/1-4-7-0-8-2-6?ai=easy&you=X", "/review/0-4-8?x=Ann&o=Dee&resigned=O", NAMES[1]]


@JS
def test_the_verdict_is_in_the_first_screen_at_every_size(browser, live_server, javascript):
    context = browser.new_context(base_url=live_server, java_script_enabled=javascript)
    page = context.new_page()
    for size in SIZES:
        page.set_viewport_size(size)
        for url in VERDICTS:
            page.goto(url)
            box = page.locator("#summary").bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (url, size, box)
            assert page.evaluate("window.scrollY") == 0
            expect(page.locator("#summary [id=brief-result]")).to_be_visible()
    context.close()


def test_screenshots_of_the_reviews_the_issue_names(browser, live_server):
    """Looked at by hand: a game lost to the AI, a resigned room game, names in Cyrillic and Chinese;
    each fits the width of the window at every size, its verdict in view."""
    SHOTS.mkdir(exist_ok=True)
    context = browser.new_context(base_url=live_server)
    page = context.new_page()
    shots = {"lost-to-ai": LOST_TO_AI, "resigned-room": VERDICTS[2], "cyrillic-chinese": NAMES[2]}
    for name, url in shots.items():
        page.goto(url)
        for size in SIZES:
            page.set_viewport_size(size)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], (name, size)
            expect(page.locator("#brief-result")).to_be_in_viewport()
            page.screenshot(path=SHOTS / f"review-{name}-{size['width']}x{size['height']}.png")
    context.close()


@JS
def test_the_new_game_panel_says_a_game_is_lost_only_in_teach_mode(browser, live_server, javascript):
    context = browser.new_context(base_url=live_server, java_script_enabled=javascript)
    page = context.new_page()
    page.goto("/")
    page.locator("#new-game input[name=difficulty][value=impossible]").check()
    click_through(page.locator("#new-game button[type=submit]"))
    for mine in range(1, 4):  # best moves until one of yours can lose (by the judge), then that one
        position = marks(page)
        losing = [c for c, after in judge.children(position).items() if judge.value(after)[0] == -1]
        chosen = losing[0] if losing and mine > 1 else (1 if mine == 1 else judge.optimal_moves(position)[0])
        click_through(cell(page, *divmod(chosen, 3)))
        page.wait_for_function(f"document.querySelectorAll('#board td[data-mark=O]').length === {mine}")
        if losing and mine > 1:
            break
    expect(page.locator("#status")).to_have_attribute("data-state", "playing")
    assert judge.value(marks(page))[0] == -1  # lost with best play, by the judge
    expect(page.locator("#resign-note")).to_have_count(0)
    expect(page.locator("#new-game")).not_to_contain_text("AI wins")
    expect(page.locator("#leave-rule")).to_contain_text("if the AI can force a win")
    click_through(page.locator("#teach button"))
    expect(page.locator("#resign-note")).to_contain_text("With best play the AI wins this game from here")
    context.close()


def entries(page: Page) -> list[str]:
    """The tab's session history, read through the DevTools protocol (no script on the page)."""
    history = page.context.new_cdp_session(page).send("Page.getNavigationHistory")
    return [entry["url"] for entry in history["entries"]]


def test_back_after_a_game_without_javascript_takes_one_press_per_move(browser, live_server):
    """Measured: every move adds a history entry (it is a link to /move, which redirects to
    the board). What HTML allows instead is measured below: nothing that carries a move."""
    context = browser.new_context(base_url=live_server, java_script_enabled=False)
    page = context.new_page()
    page.goto("/")
    before = len(entries(page))
    for row, col in [(1, 1), (0, 1), (2, 0), (1, 0)]:
        if page.locator("#status[data-state=playing]").count() and cell(page, row, col).count():
            click_through(cell(page, row, col))
    moves = marks(page).count("X")
    assert len(entries(page)) - before == moves  # one entry per move of yours: Back once per move
    context.close()


EXPERIMENT = """<!doctype html><title>t</title>
<a id="link" href="/move">a link to /move, 303 to /game</a>
<form id="post-same" method="post" action="/game"><button>POST to /game, 303 to /game</button></form>
<form id="post-move" method="post" action="/move"><button>POST to /move, 303 to /game</button></form>
<form id="post-200" method="post" action="/game"><input type="hidden" name="ok" value="1">
  <button>POST to /game, 200</button></form>
<form id="get-same" method="get" action="/game"><input type="hidden" name="cell" value="4">
  <button>GET form</button></form>
<a id="same" href="/game">a link to /game itself</a>
<a id="no-content" href="/nothing">a link answered 204</a>"""


class Experiment(http.server.BaseHTTPRequestHandler):
    """A page of every way HTML can send something, and a server that answers as the app
    would: 303 See Other back to the page, 200, or 204 No Content."""

    def log_message(self, *args) -> None:
        pass

    def answer(self, status: int, location: str = "") -> None:
        body = EXPERIMENT.encode() if status == 200 else b""
        self.send_response(status)
        if location:
            self.send_header("Location", location)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self.answer({"/move": 303, "/nothing": 204}.get(self.path, 200), "/game" if self.path == "/move" else "")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        self.answer(200 if b"ok=1" in self.rfile.read(length) else 303, "/game")


@pytest.fixture
def experiment():
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Experiment)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_what_html_allows_for_back_without_javascript(browser: Browser, experiment):
    """Chromium, no script, four sends from /game each way: how many history entries they add.
    Only a link to the page's own address (which carries no move) and a 204 (which shows no
    new board) add none; a POST answered 303 to the same address adds one each, like a link,
    and so does a GET form sent again to the address it is at."""
    added = {}
    for how in ["link", "post-same", "post-move", "post-200", "get-same", "same", "no-content"]:
        context = browser.new_context(java_script_enabled=False)
        page = context.new_page()
        page.goto(f"{experiment}/game")
        before = len(entries(page))
        target = page.locator(f"#{how} button" if page.locator(f"#{how} button").count() else f"#{how}")
        for _ in range(4):
            if how == "no-content":
                with page.expect_response(f"{experiment}/nothing"):  # answered, and nothing shown
                    target.click()
            else:
                click_through(target)
        added[how] = len(entries(page)) - before
        context.close()
    assert added == {
        "link": 4,
        "post-same": 4,
        "post-move": 4,
        "post-200": 4,
        "get-same": 4,
        "same": 0,
        "no-content": 0,
    }


@JS
def test_a_names_check_says_the_characters_allowed(browser, live_server, javascript):
    context = browser.new_context(base_url=live_server, java_script_enabled=javascript)
    page = context.new_page()
    page.goto("/")
    field = page.locator("#invite input[name=name]")
    field.fill("Ann<3")
    assert field.evaluate("input => input.validity.patternMismatch")  # Chromium's check refuses it...
    rule = "A name: up to 12 letters of any script, digits, spaces, and . ' -."
    assert field.get_attribute("title") == rule  # ...and its bubble says the title under its own words
    page.locator("#new-game input[name=mode][value=friend]").check()
    for name in ("name_x", "name_o"):
        assert page.locator(f"#new-game input[name={name}]").get_attribute("title") == rule
    context.close()


@JS
def test_the_retry_page_uses_the_width_of_a_desktop(browser, live_server, javascript):
    context = browser.new_context(base_url=live_server, java_script_enabled=javascript, viewport=SIZES[2])
    page = context.new_page()
    page.goto("/review/0-1-2-4-7-3-5-8-6/retry/1?ai=medium&you=O")
    board, task = page.locator("#board").bounding_box(), page.locator("#retry-task").bounding_box()
    assert task["x"] >= board["x"] + board["width"]  # beside the board, not under it
    assert task["x"] + task["width"] > SIZES[2]["width"] / 2  # the right half is used
    assert task["y"] < board["y"] + board["height"]
    page.screenshot(path=SHOTS / f"retry-1280x800-{'js' if javascript else 'nojs'}.png")
    page.set_viewport_size(PHONE)
    board, task = page.locator("#board").bounding_box(), page.locator("#retry-task").bounding_box()
    assert task["y"] + task["height"] <= board["y"]  # on a phone, the task above the board, as before
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()


WATCH_THE_CELL = """() => {
  const td = document.querySelector("#board td[data-row='1'][data-col='1']");
  const now = () => String(performance.timeOrigin + performance.now());
  window.addEventListener("click", () => { sessionStorage.clickedAt ||= now(); }, true);
  new MutationObserver(() => { if (td.dataset.mark === "X") sessionStorage.drawnAt ||= now(); })
    .observe(td, { attributes: true });
}"""
WHEN = """() => {
  const navigation = performance.getEntriesByType("navigation")[0];
  const answered = performance.timeOrigin + navigation.responseStart;
  return [Number(sessionStorage.clickedAt), Number(sessionStorage.drawnAt), answered];
}"""


@JS
def test_in_a_room_your_own_mark_is_drawn_at_once(people, javascript):  # noqa: F811
    host, guest = people(javascript=javascript), people(javascript=javascript)
    link = invite(host, "Ann")
    join(guest, link, "Bo")
    seen(host, javascript)
    expect(host.locator("#status")).to_have_attribute("data-state", "playing", timeout=10_000)
    if javascript:  # when the mark appears, in the page before the move's answer: kept across the navigation
        host.evaluate(WATCH_THE_CELL)
    click_through(cell(host, 1, 1))
    expect(host.locator("#board td[data-row='1'][data-col='1']")).to_have_attribute("data-mark", "X")
    if javascript:
        clicked, drawn, answered = host.evaluate(WHEN)
        assert drawn - clicked < 50 and drawn < answered, (clicked, drawn, answered)  # drawn before the answer came
    expect(host.locator("#status")).to_contain_text("Waiting for Bo")


@JS
def test_the_chosen_colours_are_said_to_screen_readers(browser, live_server, javascript):
    context = browser.new_context(base_url=live_server, java_script_enabled=javascript)
    page = context.new_page()
    page.goto("/review/0-4-8")
    click_through(page.locator("#theme button[value=dark]"))
    if javascript:
        expect(page.locator("#theme button[value=dark]")).to_have_attribute("aria-pressed", "true")
        for other in ("system", "light"):
            expect(page.locator(f"#theme button[value={other}]")).to_have_attribute("aria-pressed", "false")
        expect(page.get_by_role("button", name="Dark", pressed=True)).to_have_count(1)
    snapshot = page.locator("#theme").aria_snapshot()
    assert "Dark, chosen" in snapshot.replace(" ,", ","), snapshot  # the check's alternative text
    assert "Light, chosen" not in snapshot.replace(" ,", ",")
    context.close()


@JS
def test_after_a_player_left_the_score_no_longer_names_them(people, javascript):  # noqa: F811
    dan, cy = people(javascript=javascript), people(javascript=javascript)
    link = invite(dan, "Dan")
    join(cy, link, "Cy")
    # Cy wins a round: Dan plays X and opens
    for n, (row, col) in enumerate([(1, 1), (0, 0), (2, 2), (0, 1), (2, 0), (0, 2)]):
        mover = dan if n % 2 == 0 else cy
        seen(mover, javascript)
        expect(mover.locator("#status")).to_have_attribute("data-state", "playing", timeout=10_000)
        click_through(cell(mover, row, col))
    expect(cy.locator("#status")).to_have_text("You won!")
    expect(seen(dan, javascript).locator("#room-score")).to_contain_text("Cy", timeout=10_000)
    click_through(cy.locator("#leave"))
    click_through(cy.locator("#leave-confirm button"))
    score = seen(dan, javascript).locator("#room-score")
    expect(score).not_to_contain_text("Cy", timeout=10_000)
    expect(score).to_contain_text("Free seat")
    expect(score).to_have_attribute("data-guest", "0")


@JS
def test_a_resigned_room_games_review_says_it_was_resigned(people, javascript):  # noqa: F811
    ann, bo = people(javascript=javascript), people(javascript=javascript)
    link = invite(ann, "Ann")
    join(bo, link, "Bo")
    seen(ann, javascript)
    expect(ann.locator("#status")).to_have_attribute("data-state", "playing", timeout=10_000)
    click_through(cell(ann, 1, 1))
    expect(seen(bo, javascript).locator("#resign")).to_be_visible(timeout=10_000)
    click_through(bo.locator("#resign"))
    click_through(bo.locator("#resign-confirm button"))
    click_through(bo.locator("#review"))
    said = "Bo resigned or left after 1 move: Ann won."
    expect(bo.locator("#brief-result")).to_have_text(said)
    assert said in bo.title() and "nfinished" not in bo.content()
    expect(bo.locator("#turning-point")).to_have_text(
        "No move changed the result with best play before Bo resigned or left."
    )
