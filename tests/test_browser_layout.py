"""Layout details a player noticed, measured in Chromium at the three sizes: the join page's
sentence and menu, the space under the name rule, the review's pill, the sideways game page's
controls, and dark mode's winning cells."""

import colorsys

from playwright.sync_api import Browser, Page

from tests.test_browser import click_through
from tests.test_browser_rooms import SIZES, invite

WORDS_AFTER = """el => { const r = document.createRange(); r.selectNodeContents(el.nextSibling);
  return r.getClientRects()[0].top; }"""
LINE_CENTRES = """el => { const r = document.createRange(); r.selectNodeContents(el);
  return [...r.getClientRects()].map(q => q.left + q.width / 2); }"""


def opened(browser: Browser, base: str, size: dict, **options) -> Page:
    return browser.new_context(base_url=base, viewport=size, **options).new_page()


def box(page: Page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


def test_the_join_page_says_your_side_in_one_sentence_under_the_menu(browser, live_server):
    """One invitation, its join page loaded at each size in turn in one tab."""
    host = opened(browser, live_server, SIZES[0])
    link = invite(host, "Bartholomew")
    guest = opened(browser, live_server, SIZES[0])
    for size in SIZES:
        guest.set_viewport_size(size)
        guest.goto(link)
        mark = guest.locator("#join-side strong")
        words_after = mark.evaluate(WORDS_AFTER)
        assert abs(words_after - box(guest, "#join-side strong")["y"]) < 4, size  # "O; sides swap" on one line
        assert guest.locator("header nav").count() == 1 and guest.locator("footer nav").count() == 0
        assert box(guest, "header nav")["y"] < box(guest, "#join")["y"], size
        guest.keyboard.press("Tab")
        assert guest.evaluate("document.activeElement.textContent") == "Skip to the invitation"
        guest.keyboard.press("Enter")
        guest.keyboard.press("Tab")
        assert guest.evaluate("document.activeElement.textContent") == "Take the seat"
    guest.context.close()
    host.context.close()


def test_the_name_rule_keeps_clear_of_the_invite_button(browser, live_server):
    """The page loaded once, measured at each size in turn: resizing lays it out again."""
    page = opened(browser, live_server, SIZES[0])
    page.goto("/")
    for size in SIZES:
        page.set_viewport_size(size)
        rule, button = box(page, "#invite-name-rule"), box(page, "#invite button")
        assert button["y"] - (rule["y"] + rule["height"]) >= 8, size
    page.context.close()


def test_the_review_s_retry_pill_centres_its_words(browser, live_server):
    """The page loaded once, measured at each size in turn: resizing lays it out again."""
    page = opened(browser, live_server, SIZES[0])
    page.goto("/review/0-4-1-2-5-6?ai=impossible&you=X")
    for size in SIZES:
        page.set_viewport_size(size)
        pill = box(page, "#retry")
        centres = page.locator("#retry").evaluate(LINE_CENTRES)
        assert centres and all(abs(c - (pill["x"] + pill["width"] / 2)) < 3 for c in centres), (size, centres, pill)
    page.context.close()


def lose(page: Page) -> None:
    """X a1, b1, c2 against the impossible AI: O wins on a3."""
    page.goto("/")
    for field, value in (("mode", "ai"), ("side", "X"), ("difficulty", "impossible")):
        page.check(f"#new-game input[name={field}][value={value}]")
    click_through(page.locator("#new-game button[type=submit]"))
    for cell in (0, 1, 5):
        click_through(page.locator(f'#board td[data-row="{cell // 3}"][data-col="{cell % 3}"] a'))
    assert page.get_attribute("#status", "data-state") != "playing"


def test_sideways_a_finished_game_leaves_no_hole_under_its_controls(browser, live_server):
    page = opened(browser, live_server, SIZES[1], java_script_enabled=False)
    lose(page)
    bottoms = page.locator(".play > *").evaluate_all("els => els.map(e => e.getBoundingClientRect().bottom)")
    section = box(page, ".play")
    assert section["y"] + section["height"] - max(bottoms) < 16, (section, bottoms)
    page.context.close()


def hue(rgb: str) -> float:
    r, g, b = (int(v) / 255 for v in rgb.removeprefix("rgb(").removesuffix(")").split(",")[:3])
    return 360 * colorsys.rgb_to_hls(r, g, b)[0]


def contrast(one: str, two: str) -> float:
    def luminance(rgb: str) -> float:
        values = [int(v) / 255 for v in rgb.removeprefix("rgb(").removesuffix(")").split(",")[:3]]
        r, g, b = (v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in values)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(one), luminance(two)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_dark_mode_s_winning_cells_are_clear_and_readable(browser, live_server):
    page = opened(browser, live_server, SIZES[2], color_scheme="dark", java_script_enabled=False)
    lose(page)
    won = page.locator(".in-line").first.evaluate("c => getComputedStyle(c).backgroundColor")
    assert not 40 <= hue(won) <= 100, won  # not a muddy olive
    stroke = page.locator("#strike line").evaluate("l => getComputedStyle(l).stroke")
    mark = page.locator(".in-line .mark").first.evaluate("m => getComputedStyle(m).color")
    assert abs(hue(stroke) - hue(mark)) > 90, (stroke, mark)  # the line stands apart from the O's
    assert contrast(mark, won) >= 4.5, (mark, won)
    page.context.close()
