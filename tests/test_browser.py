"""End to end in Debian's Chromium, driven by Playwright, against the real app under gunicorn."""

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Locator, Page, expect

from tests import servers

SHOTS = servers.ROOT / "screenshots"
WIDTHS = [320, 360, 414, 768, 1024, 1440]
CELL_LINKS = "#board a"


def cells(page: Page) -> str:
    return "".join(page.eval_on_selector_all("#board td", "tds => tds.map(td => td.dataset.mark || '.')"))


def state(page: Page) -> str:
    return page.get_attribute("#status", "data-state")


def assert_accessible(page: Page, allowed: tuple[str, ...] = ()) -> None:
    """No axe-core violations, but for the rules in `allowed`."""
    results = Axe().run(page)
    found = [v["id"] for v in results.response["violations"] if v["id"] not in allowed]
    assert not found, results.generate_report()


def click_through(link: Locator) -> None:
    """Click a link or button that loads a new page, and wait until that page has loaded.

    A click returns once the navigation commits, when the new document may not even have a root
    element yet; reading the page then fails at random. A move on the game's page, with
    JavaScript, swaps the new page in and then sets its address: a navigation too.
    """
    with link.page.expect_navigation():
        link.click()


def play_by_clicking(page: Page) -> None:
    while state(page) == "playing":
        click_through(page.locator(CELL_LINKS).first)


def test_a_full_game_by_clicking(page: Page):
    page.goto("/")
    assert_accessible(page)
    expect(page).to_have_title(re.compile("Your turn"))
    page.locator("#new-game input[name=difficulty][value=impossible]").check()
    click_through(page.locator("#new-game button[type=submit]"))
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    assert cells(page)[4] == "X" and cells(page).count("O") == 1
    play_by_clicking(page)
    assert page.get_attribute("#status", "data-winner") in ("O", "")
    expect(page).to_have_title(re.compile("AI played [a-c][1-3] and won|draw"))
    assert page.locator(CELL_LINKS).count() == 0
    assert_accessible(page)


def test_a_game_by_keyboard_only(page: Page):
    page.goto("/")
    while state(page) == "playing":
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.closest('#board') !== null"):
                break
        else:
            pytest.fail("Tab never reached a cell")
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none", "focus must be visible"
        with page.expect_navigation():
            page.keyboard.press("Enter")
    assert state(page) == "over"


def test_cell_links_have_names_and_marks_are_announced(page: Page):
    page.goto("/")
    expect(page.get_by_role("link", name="Row 2, column 3, empty: place X")).to_be_visible()
    click_through(page.get_by_role("link", name="Row 2, column 2, empty: place X"))
    expect(page.locator("#board")).to_contain_text("Row 2, column 2: X")
    assert page.get_attribute("#status", "aria-live") == "polite"


@pytest.mark.parametrize("side", ["X", "O"])
def test_new_game_with_each_option(page: Page, side):
    """Each difficulty in turn, a new game each, from the page the last one left."""
    page.goto("/")
    for difficulty in ["easy", "medium", "impossible"]:
        page.locator(f"#new-game input[name=side][value={side}]").check()
        page.locator(f"#new-game input[name=difficulty][value={difficulty}]").check()
        click_through(page.locator("#new-game button[type=submit]"))
        assert cells(page).count("X") == (1 if side == "O" else 0), difficulty
        expect(page.locator(f"#new-game input[name=side][value={side}]")).to_be_checked()
        expect(page.locator(f"#new-game input[name=difficulty][value={difficulty}]")).to_be_checked()
        expect(page.locator("#score-title")).to_contain_text(difficulty.capitalize())


def test_undo(page: Page):
    page.goto("/")
    click_through(page.locator("#board td[data-row='0'][data-col='0'] a"))
    assert cells(page).count(".") == 7
    click_through(page.locator("#undo button"))
    assert cells(page) == "." * 9
    expect(page.locator("#undo button")).to_be_disabled()


def test_teach_mode(page: Page):
    page.goto("/")
    click_through(page.locator("#teach button"))
    expect(page.locator("#teach button")).to_have_attribute("aria-pressed", "true")
    values = page.eval_on_selector_all("#board td[data-value]", "tds => tds.map(td => td.dataset.value)")
    assert values == ["draw"] * 9
    click_through(page.locator("#board td[data-row='0'][data-col='1'] a"))
    expect(page.locator("#ai-says")).to_be_visible()
    assert_accessible(page)
    click_through(page.locator("#teach button"))
    assert page.locator("#board td[data-value]").count() == 0


def test_friend_mode(page: Page):
    page.goto("/")
    page.locator("#new-game input[name=mode][value=friend]").check()
    click_through(page.locator("#new-game button[type=submit]"))
    for row, col in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        click_through(page.locator(f"#board td[data-row='{row}'][data-col='{col}'] a"))
    expect(page.locator("#status")).to_have_text("X wins!")
    assert page.locator("#board td.in-line").count() == 3
    expect(page.locator("#score")).to_have_attribute("data-wins", "1")


def test_a_full_game_with_javascript_disabled(browser, live_server):
    context = browser.new_context(java_script_enabled=False, base_url=live_server)
    page = context.new_page()
    page.goto("/")
    play_by_clicking(page)
    assert state(page) == "over"
    click_through(page.locator("#new-game button[type=submit]"))
    assert cells(page) == "." * 9
    context.close()


def test_the_layout_holds_at_every_width(page: Page):
    """One game's page at each width in turn: resizing the window lays the page out again."""
    page.set_viewport_size({"width": WIDTHS[0], "height": 800})
    page.goto("/")
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        box = page.locator("#board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, box)
        for cell in page.locator("#board td").all():
            assert cell.bounding_box()["width"] >= 44, width  # a comfortable touch target


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_colour_schemes_pass_axe(page: Page, scheme):
    page.emulate_media(color_scheme=scheme)
    page.goto("/")
    click_through(page.locator("#teach button"))
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    assert_accessible(page)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (background == "rgb(246, 247, 251)") == (scheme == "light")


@pytest.mark.parametrize(("scheme", "width"), [("light", 1280), ("dark", 320)])
def test_a_finished_game_reviewed_step_by_step(page: Page, scheme, width):
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": width, "height": 800})
    page.goto("/")
    play_by_clicking(page)
    played = len(cells(page).replace(".", ""))
    click_through(page.locator("#review"))
    expect(page.locator("#review-moves li")).to_have_count(played)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert_accessible(page)
    page.locator("#review-moves li a").first.click()  # steps are swapped in, without a reload
    expect(page.locator("#review-title")).to_have_attribute("data-ply", "1")
    assert cells(page).count(".") == 8
    page.locator("#next").click()
    expect(page.locator("#review-title")).to_have_attribute("data-ply", "2")
    assert cells(page).count(".") == 7
    assert page.locator("#board td[data-value]").count() == 7  # the values of the moves to come
    assert_accessible(page)
    click_through(page.locator("#play-from-here"))
    click_through(page.locator("#start-ai button.primary"))
    assert cells(page).count(".") <= 7 and state(page) == "playing"


@pytest.mark.parametrize(("scheme", "width"), [("light", 1280), ("dark", 320)])
def test_exploring_the_search_tree_from_the_game(page: Page, scheme, width):
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": width, "height": 800})
    page.goto("/")
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    click_through(page.locator("#explore"))
    expect(page.locator("#search-costs")).to_have_attribute("data-plain", re.compile(r"^\d+$"))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert_accessible(page)
    click_through(page.locator("#moves a").first)
    assert cells(page).count(".") == 6
    assert_accessible(page)


def test_practice_by_keyboard(page: Page):
    page.goto("/practice/?position=XX.OO....")
    assert_accessible(page)
    for cell, outcome in {"c1": "1", "c2": "0", "a3": "-1", "b3": "-1", "c3": "-1"}.items():
        page.locator(f"input[name='cell-{cell}'][value='{outcome}']").check()
    page.locator("#practice button").focus()
    with page.expect_event("load"):
        page.keyboard.press("Enter")
    expect(page.locator("#practice-score")).to_have_attribute("data-right", "5")
    assert_accessible(page)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_practice_answers_in_xs_terms_with_o_to_move(browser, live_server, javascript):
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server)
    page = context.new_page()
    page.goto("/practice/?position=XO..X....")  # O to move: every move but c3 lets X win next
    for cell in ("c1", "a2", "c2", "a3", "b3"):
        page.locator(f"fieldset:has(legend:text-is('O at {cell} ')) label", has_text="X wins (1)").click()
    page.locator("fieldset:has(legend:text-is('O at c3 ')) label", has_text="draw (0)").click()
    click_through(page.locator("#practice button"))
    expect(page.locator("#practice-score")).to_have_attribute("data-right", "5")  # c3 loses too: X wins in 2
    expect(page.locator("#practice-graded li[data-cell='c3']")).to_contain_text(
        "leads to utility 1: X wins in 2 of its moves (you said draw)"
    )
    context.close()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_ai_that_holds_out_longest_says_so(browser, live_server, javascript):
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server)
    page = context.new_page()
    page.goto("/?ai=impossible&from=0-1-4&you=X")
    click_through(page.get_by_role("button", name="You play X, the AI moves"))
    click_through(page.locator("#teach button"))
    expect(page.locator("#ai-says")).to_have_text(
        "Every move loses here; I hold out longest with c3. You can force a win in 2 of your moves."
    )
    context.close()


def test_motion_only_where_allowed(page: Page):
    page.goto("/")
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    last = "#board td.last .mark"
    assert page.eval_on_selector(last, "e => getComputedStyle(e).animationName") == "pop"
    page.emulate_media(reduced_motion="reduce")
    page.reload()
    assert page.eval_on_selector(last, "e => getComputedStyle(e).animationName") == "none"


def test_favicon_is_served(page: Page):
    page.goto("/")
    href = page.get_attribute("link[rel=icon]", "href")
    response = page.request.get(href)
    assert response.ok and "svg" in response.headers["content-type"]


def cell(page: Page, row: int, col: int) -> Locator:
    return page.locator(f"#board td[data-row='{row}'][data-col='{col}'] a")


def friends_game(page: Page, **names: str) -> None:
    page.locator("#new-game input[name=mode][value=friend]").check()
    for field, name in names.items():
        page.locator(f"#new-game input[name={field}]").fill(name)
    click_through(page.locator("#new-game button[type=submit]"))


def document_top(page: Page, selector: str) -> float:
    return page.eval_on_selector(selector, "e => e.getBoundingClientRect().top + window.scrollY")


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_the_ais_move_is_named_and_its_cell_keeps_a_marker(page: Page, scheme, motion):
    page.emulate_media(color_scheme=scheme, reduced_motion=motion)
    page.goto("/")
    click_through(cell(page, 1, 1))
    expect(page.locator("#status")).to_have_text(re.compile(r"^The AI played [a-c][1-3]\. Your turn\.$"))
    expect(page).to_have_title(re.compile(r"^The AI played [a-c][1-3]\. Your turn\."))
    ring = page.eval_on_selector("#board td.last", "e => getComputedStyle(e).boxShadow")
    assert ring != "none" and "inset" in ring
    assert page.get_attribute("#board td.last", "data-mark") == "O"


def test_options_say_they_apply_to_the_next_game_and_friend_mode_hides_the_ais(page: Page):
    page.goto("/")
    expect(page.locator("#new-game input[name=difficulty][value=medium]")).to_be_checked()
    page.locator("#new-game input[name=difficulty][value=easy]").check()
    click_through(cell(page, 1, 1))
    expect(page.locator("#next-game-note")).to_contain_text("Medium. These choices apply to the next game")
    expect(page.locator("#score-title")).to_contain_text("Medium")
    expect(page.locator("#new-game input[name=name_x]")).to_be_hidden()
    page.locator("#new-game input[name=mode][value=friend]").check()
    expect(page.locator("#new-game input[name=difficulty][value=easy]")).to_be_hidden()
    expect(page.locator("#new-game input[name=side][value=O]")).to_be_hidden()
    expect(page.locator("#new-game input[name=name_x]")).to_be_visible()
    assert_accessible(page)


def test_two_named_friends(page: Page):
    page.goto("/")
    friends_game(page, name_x="Ann", name_o="Bob")
    expect(page.locator("#status")).to_have_text("Ann (X) to move.")
    click_through(cell(page, 1, 1))
    expect(page.locator("#status")).to_have_text("Ann (X) played b2. Bob (O) to move.")
    expect(page.locator("#score dt").first).to_have_text("Ann wins")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_clear_ending_with_play_again_in_view_on_a_phone(page: Page, scheme):
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/")
    friends_game(page)
    turn_line = page.eval_on_selector("#banner", "e => getComputedStyle(e).backgroundColor")
    for row, col in [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)]:
        click_through(cell(page, row, col))
    expect(page.locator("#status")).to_have_text("X wins!")
    banner = page.eval_on_selector("#banner", "e => getComputedStyle(e).backgroundColor")
    assert banner != turn_line
    expect(page.locator("#strike line")).to_be_attached()
    assert page.locator("#strike").bounding_box()["width"] > 200
    assert_accessible(page)
    page.evaluate("window.scrollTo(0, 0)")
    button = page.locator("#play-again button.primary")
    expect(button).to_be_in_viewport(ratio=1)
    assert button.bounding_box()["y"] + button.bounding_box()["height"] <= 740
    click_through(button)
    assert cells(page) == "." * 9
    expect(page.locator("#new-game input[name=mode][value=friend]")).to_be_checked()


def test_play_again_as_the_other_side(page: Page):
    page.goto("/")
    play_by_clicking(page)
    click_through(page.locator("#play-again button[name=swap]"))
    assert cells(page).count("X") == 1 and cells(page).count("O") == 0
    expect(page.locator("#new-game input[name=side][value=O]")).to_be_checked()


@pytest.mark.parametrize("viewport", [(740, 360), (640, 360), (360, 740)], ids=["landscape", "zoom-200", "phone"])
def test_short_screens_keep_the_board_in_view_and_one_tab_reaches_it(page: Page, viewport):
    width, height = viewport
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/")
    click_through(cell(page, 0, 0))
    while state(page) == "playing":
        assert page.url.endswith("#board")
        board, status = page.locator("#board").bounding_box(), page.locator("#status").bounding_box()
        assert status["y"] >= 0 and board["y"] + board["height"] <= height, (status, board)
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('#board') !== null")
        with page.expect_navigation():
            page.keyboard.press("Enter")
    again = page.locator("#play-again button.primary").bounding_box()
    assert again["y"] + again["height"] <= height


@pytest.mark.parametrize("width", [360, 1280])
def test_messages_and_comments_never_move_the_board(page: Page, width):
    page.set_viewport_size({"width": width, "height": 800})
    page.goto("/")
    tops = {"start": document_top(page, "#board")}
    click_through(page.locator("#teach button"))
    stale = cell(page, 0, 0).get_attribute("href")
    click_through(cell(page, 0, 0))
    expect(page.locator("#ai-says")).to_be_visible()
    tops["comment"] = document_top(page, "#board")
    page.goto(stale)
    expect(page.locator("#message")).to_be_visible()
    tops["message"] = document_top(page, "#board")
    play_by_clicking(page)
    tops["over"] = document_top(page, "#board")
    assert len(set(tops.values())) == 1, tops


def test_back_shows_the_earlier_boards_and_says_it_does_not_undo(page: Page):
    page.goto("/")
    click_through(cell(page, 1, 1))
    after_one = cells(page)
    click_through(page.locator(CELL_LINKS).first)
    now = cells(page)
    page.go_back()  # with JavaScript, the earlier board is fetched and swapped in
    expect(page.locator("#status")).to_contain_text("does not undo")
    assert cells(page) == after_one and page.locator(CELL_LINKS).count() == 0
    assert_accessible(page)
    click_through(page.locator("#return"))
    assert cells(page) == now and state(page) == "playing"


def test_resetting_the_scores_asks_first(page: Page):
    page.goto("/")
    play_by_clicking(page)
    counted = page.get_attribute("#score", "data-losses"), page.get_attribute("#score", "data-draws")
    click_through(page.locator("#reset-score"))
    expect(page.get_by_role("heading", name="Reset all scores?")).to_be_visible()
    assert_accessible(page)
    click_through(page.locator("#keep-score"))
    assert (page.get_attribute("#score", "data-losses"), page.get_attribute("#score", "data-draws")) == counted
    click_through(page.locator("#reset-score"))
    click_through(page.locator("#reset-score-confirm button"))
    assert page.get_attribute("#score", "data-losses") == page.get_attribute("#score", "data-draws") == "0"


def test_the_404_page_in_our_words(page: Page):
    page.goto("/no/such/page")
    expect(page.locator("#error-description")).to_contain_text("There is no page at this address")
    assert_accessible(page)


def shot(page: Page, name: str) -> None:
    """A screenshot to look at, of a page that fits its window's width (no sideways scrolling)."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, width)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def test_screenshots_of_the_key_states(browser, live_server):
    """Each key state, in each colour scheme at a desktop's and a phone's width: it fits the width,
    it is the state named, and its picture is saved to look at."""
    SHOTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        for width in (1280, 360):
            context = browser.new_context(
                base_url=live_server,
                color_scheme=scheme,
                reduced_motion="reduce",  # marks drawn in full, not caught mid-animation
                viewport={"width": width, "height": 900},
            )
            page = context.new_page()
            page.goto("/")
            assert cells(page) == "." * 9
            shot(page, f"start-{scheme}-{width}")
            click_through(page.locator("#teach button"))
            click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
            expect(page.locator("#ai-says")).to_be_visible()
            shot(page, f"teach-{scheme}-{width}")
            click_through(page.locator(CELL_LINKS).first)
            page.go_back()
            page.locator("#status[data-state=past]").wait_for()
            shot(page, f"back-{scheme}-{width}")
            click_through(page.locator("#return"))
            play_by_clicking(page)
            assert state(page) == "over"
            shot(page, f"over-{scheme}-{width}")
            friends_game(page, name_x="Ann", name_o="Bob")
            for row, col in [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)]:
                click_through(cell(page, row, col))
            expect(page.locator("#status")).to_have_text("Ann (X) wins!")
            shot(page, f"friends-won-{scheme}-{width}")
            click_through(page.locator("#reset-score"))
            expect(page.get_by_role("heading", name="Reset all scores?")).to_be_visible()
            shot(page, f"reset-{scheme}-{width}")
            context.close()
