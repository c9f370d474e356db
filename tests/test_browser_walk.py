"""The walk around a game in Chromium: play on from a position, the review and its
stepping (with and without JavaScript), your games, retries, the site's navigation and the
coordinates, measured at 360x740, 740x360 and 1280x800 and checked by axe-core."""

import pytest
from playwright.sync_api import Page, expect

from tests.test_browser import SHOTS, assert_accessible, cells, click_through
from tests.test_names import BAD, GOOD

SIZES = [(360, 740), (740, 360), (1280, 800)]
GAME = "0-1-4-2-8"  # X a1, O b1 (a mistake), X b2, O c1, X c3 wins


def box(page: Page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def in_first_screen(page: Page, selector: str) -> bool:
    found, height = box(page, selector), page.viewport_size["height"]
    return found["y"] >= 0 and found["y"] + found["height"] <= height


def test_the_review_steps_with_the_board_in_place(page: Page):
    """At each size in turn, in one page, loaded again at each."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/review/{GAME}?ply=0")
        assert in_first_screen(page, "#next") and in_first_screen(page, "#board")
        top = box(page, "#board")["y"]
        for ply in range(1, 6):
            page.locator("#next").click()  # with JavaScript, no reload: the next step is swapped in
            expect(page.locator("#review-title")).to_have_attribute("data-ply", str(ply))
            assert box(page, "#board")["y"] == top, ply  # the verdict's length never moves the board
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        SHOTS.mkdir(exist_ok=True)
        page.goto(f"/review/{GAME}")
        page.screenshot(path=SHOTS / f"review-{width}x{height}.png")
        page.goto(f"/review/{GAME}/retry/1?try=2")
        page.screenshot(path=SHOTS / f"retry-{width}x{height}.png")


@pytest.mark.parametrize("javascript", [True, False])
def test_stepping_a_review_with_and_without_javascript(browser, live_server, javascript):
    context = browser.new_context(
        java_script_enabled=javascript, base_url=live_server, viewport={"width": 360, "height": 740}
    )
    page = context.new_page()
    page.goto("/games/")
    page.goto(f"/review/{GAME}")
    expect(page.locator("#review-title")).to_have_attribute("data-ply", "2")  # opens on the turning point
    if javascript:
        entries = page.evaluate("history.length")
        page.evaluate("window.stayed = true")  # lost on a reload
        page.keyboard.press("ArrowRight")
        expect(page.locator("#review-title")).to_have_attribute("data-ply", "3")
        page.locator("#previous").click()
        expect(page.locator("#review-title")).to_have_attribute("data-ply", "2")
        page.locator("#show-better").click()
        expect(page.locator("#board td.played-here")).to_have_count(1)
        assert cells(page) == "X........" and page.url.endswith("show=better")
        page.locator("#show-played").click()
        expect(page.locator("#board td.played-here")).to_have_count(0)
        assert cells(page) == "XO......."
        page.locator("#review-moves a").last.click()
        expect(page.locator("#review-title")).to_have_attribute("data-ply", "5")
        assert page.evaluate("window.stayed === true") and page.url.endswith("?ply=5")
        assert page.title().startswith("Review, move 5")
        assert page.evaluate("history.length") == entries  # each step replaced the entry
        assert_accessible(page)
        page.go_back()  # one Back leaves the review
        expect(page.locator("#games-title")).to_be_visible()
    else:
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(300)
        expect(page.locator("#review-title")).to_have_attribute("data-ply", "2")  # no script, no keys
        click_through(page.locator("#next"))
        expect(page.locator("#review-title")).to_have_attribute("data-ply", "3")
        click_through(page.locator("#previous"))
        click_through(page.locator("#show-better"))
        expect(page.locator("#board td.played-here")).to_have_count(1)
        click_through(page.locator("#review-moves a").last)
        expect(page.locator("#review-title")).to_have_attribute("data-ply", "5")
    context.close()


def test_a_finished_game_its_review_your_games_and_a_retry(page: Page):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/")
    page.locator("#new-game input[name=mode][value=friend]").check()
    click_through(page.locator("#new-game button[type=submit]"))
    for row, col in [(0, 0), (0, 1), (1, 1), (0, 2), (2, 2)]:
        click_through(page.locator(f"#board td[data-row='{row}'][data-col='{col}'] a"))
    assert in_first_screen(page, "#review") and in_first_screen(page, "#play-again button.primary")
    assert_accessible(page)
    click_through(page.locator("#play-again button.primary"))  # the next game: the last one stays reachable
    click_through(page.locator("nav.site-nav a", has_text="Your games"))
    expect(page.locator("#games li")).to_have_count(1)
    assert_accessible(page)
    click_through(page.locator("#games a").first)
    expect(page.locator("#review-title")).to_have_attribute("data-ply", "2")
    click_through(page.locator("#retry"))
    assert cells(page) == "X........"
    click_through(page.locator("#board td[data-row='2'][data-col='2'] a"))  # c3: loses
    expect(page.locator("#retry-result")).to_have_attribute("data-correct", "false")
    assert_accessible(page)
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))  # b2: holds the draw
    expect(page.locator("#retry-result")).to_have_attribute("data-correct", "true")
    assert page.locator("#board a").count() == 0


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_play_on_from_a_position_draws_it_and_asks_who_plays(page: Page, width, height):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"/review/{GAME}?ply=3")
    click_through(page.locator("#play-from-here"))
    assert cells(page) == "XO..X...." and page.locator("#board a").count() == 0
    assert in_first_screen(page, "#status")
    page.locator("#start-ai button.primary").scroll_into_view_if_needed()
    assert_accessible(page)
    page.screenshot(path=SHOTS / f"play-on-{width}x{height}.png")
    click_through(page.locator("#start-ai button.primary"))  # you play O, to move
    assert cells(page) == "XO..X...." and page.locator("#board a").count() == 6


def test_two_long_names_keep_to_two_lines_and_in_view(page: Page):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/")
    page.locator("#new-game input[name=mode][value=friend]").check()
    page.locator("#new-game input[name=name_x]").fill("Alexandra")
    page.locator("#new-game input[name=name_o]").fill("Bartholomew")
    click_through(page.locator("#new-game button[type=submit]"))
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    expect(page.locator("#status")).to_have_text("Alexandra (X) played b2. Bartholomew (O) to move.")
    lines = page.evaluate("[...document.querySelectorAll('#status .status-line')].map(s => s.getClientRects().length)")
    assert lines == [1, 1]
    assert box(page, "#status")["y"] >= 0 and in_first_screen(page, "#board")


def test_a_form_error_is_said_beside_the_form_and_keeps_the_names(page: Page):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/")
    page.locator("#new-game input[name=mode][value=friend]").check()
    page.locator("#new-game input[name=name_x]").fill("Ann")
    page.locator("#new-game input[name=name_o]").fill("ann")  # the browser lets it by; the server says no
    click_through(page.locator("#new-game button[type=submit]"))
    expect(page.locator("#new-game #new-game-error")).to_be_visible()
    expect(page.locator("#new-game input[name=name_x]")).to_have_value("Ann")
    expect(page.locator("#new-game input[name=name_o]")).to_have_value("ann")
    expect(page.locator("#new-game input[name=name_o]")).to_be_focused()
    assert page.locator("#message").count() == 0 and in_first_screen(page, "#new-game-error")
    assert_accessible(page)


@pytest.mark.parametrize("at", ["/", "/practice/?position=X...O....", "/explore/XO..X....", f"/review/{GAME}"])
def test_every_board_shows_its_coordinates_over_its_cells(page: Page, at):
    """At each size in turn, the page loaded once: a page is laid out again when its window is resized."""
    page.goto(at)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        for n, letter in enumerate("abc"):
            label, cell = box(page, f".coords-cols span:nth-child({n + 1})"), box(page, f"#board td[data-col='{n}']")
            assert page.locator(f".coords-cols span:nth-child({n + 1})").inner_text() == letter
            assert abs((label["x"] + label["width"] / 2) - (cell["x"] + cell["width"] / 2)) < 2, (width, label, cell)
            label, cell = box(page, f".coords-rows span:nth-child({n + 1})"), box(page, f"#board td[data-row='{n}']")
            assert abs((label["y"] + label["height"] / 2) - (cell["y"] + cell["height"] / 2)) < 2, (width, label, cell)
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_teach_mode_on_a_phone_held_sideways(page: Page):
    page.set_viewport_size({"width": 740, "height": 360})
    page.goto("/")
    click_through(page.locator("#teach button"))
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    for selector in ("#status", "#board", "#ai-says", "#undo button"):
        assert in_first_screen(page, selector), selector
    overflowing = page.evaluate(
        "[...document.querySelectorAll('#board td')].filter(td => td.scrollHeight > td.clientHeight + 1).length"
    )
    assert overflowing == 0
    assert_accessible(page)
    page.screenshot(path=SHOTS / "teach-740x360.png")


def test_the_site_navigation_is_on_every_page(page: Page):
    page.set_viewport_size({"width": 360, "height": 740})
    for at in ["/", "/games/", "/practice/", "/explore/", "/explore/bugs", f"/review/{GAME}"]:
        page.goto(at)
        nav = page.locator("header nav.site-nav a")
        expect(nav).to_have_text(["Play", "Your games", "Explore", "Who wins?", "For students"])
        assert in_first_screen(page, "header nav.site-nav"), at


def test_the_review_of_a_lost_game_speaks_of_you(page: Page):
    """At each size in turn, in one page, loaded again at each."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/review/0-1-2-3-5-4-6-7?ai=easy&you=X")  # the AI's mistake first, then yours; the AI wins
        expect(page.locator("#review-title")).to_contain_text("you (X) played")
        expect(page.locator("#verdict")).to_contain_text(": you played")
        assert in_first_screen(page, "#board") and in_first_screen(page, "#review-title")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        expect(page.locator("#turning-point")).to_contain_text("Your turning point")
        expect(page.locator("#review-summary li").first).to_contain_text("You (X)")
        assert_accessible(page)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SHOTS / f"review-lost-{width}x{height}.png", full_page=True)
        page.locator("#review-moves a").nth(1).click()  # the AI's deliberate mistake
        expect(page.locator("#verdict")).to_contain_text("on purpose")
        assert_accessible(page)


def test_the_score_is_in_the_first_screen_while_you_play(page: Page):
    """One game, its page (scrolled to #board) measured at each size in turn, reloaded at each."""
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    page.goto("/")
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    SHOTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        if page.viewport_size != {"width": width, "height": height}:
            page.set_viewport_size({"width": width, "height": height})
            page.reload()  # as the move's page opens at this size: scrolled to #board
        line = page.locator("#score-line")
        expect(line).to_have_text("Score, Medium: Wins 0 · Losses 0 · Draws 0")
        expect(page.locator("#score")).to_be_hidden()  # the counts are said once, here
        assert in_first_screen(page, "#score-line") and in_first_screen(page, "#board"), (width, height)
        assert box(page, "#score-line")["height"] < 2 * 24, width  # one line (two at most where it is narrow)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert_accessible(page)
        page.screenshot(path=SHOTS / f"score-in-view-{width}x{height}.png")


def test_the_browser_checks_a_name_by_the_servers_rule(page: Page):
    """The characters: the length is maxlength's, and spaces at the ends are trimmed by the server."""
    page.goto("/")
    for name in GOOD + [n for n in BAD if len(n) <= 12 and n == n.strip()]:
        check_name(page, name, name in GOOD)


def check_name(page: Page, name: str, allowed: bool) -> None:
    page.locator("#new-game input[name=mode][value=friend]").check()
    field = page.locator("#new-game input[name=name_x]")
    field.fill(name)
    assert field.evaluate("e => e.validity.valid") == allowed
    for selector in ("#new-game input[name=name_o]", "#invite input[name=name]"):
        other = page.locator(selector)
        other.fill(name)
        assert other.evaluate("e => e.validity.valid") == allowed, selector


def test_the_value_strips_targets_are_big_enough_and_labelled(page: Page):
    """At each size in turn, in one page, loaded again at each."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto("/review/4-0-2-6-3-5-1-7-8?ply=0")  # nine moves: the widest strip
        targets = page.locator("#value-strip rect.strip-target")
        expect(targets).to_have_count(10)
        for n in range(10):
            found = targets.nth(n).bounding_box()
            assert found["width"] >= 24 and found["height"] >= 24, (n, found)
        labels = page.locator("#value-strip .strip-label").all_text_contents()
        assert labels == ["X wins", "draw", "O wins"]
        assert page.locator("#value-strip .strip-ply").all_text_contents() == [str(n) for n in range(10)]
        size = page.eval_on_selector("#value-strip .strip-label", "e => e.getBoundingClientRect().height")
        assert size >= 12  # the labels' letters, as drawn
        targets.nth(4).click(position={"x": 12, "y": 4})  # the column's top, far from the dot
        expect(page.locator("#review-title")).to_have_attribute("data-ply", "4")
        assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("javascript", [True, False])
def test_the_reviews_share_box_copies_its_text_with_javascript(browser, live_server, javascript):
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server)
    if javascript:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page = context.new_page()
    page.goto("/review/0-1-4-2-8?o=Bob&x=Ann")
    button = page.locator("#copy-share")
    if javascript:
        expect(button).to_be_visible()
        button.click()
        expect(page.locator("#share-title ~ .share-row .copied")).to_have_text("Copied.")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == page.locator("#share-text").inner_text() + " " + page.locator("#share-link").inner_text()
        assert copied.startswith("Tic-tac-toe, every move judged: Ann won in 3 of their moves (5 in all).")
        assert_accessible(page)
    else:
        expect(button).to_be_hidden()  # no script, no button that cannot work: the text and link are there
        expect(page.locator("#share-link")).to_be_visible()
    context.close()
