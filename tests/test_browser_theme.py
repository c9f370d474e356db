"""The colour switch in Chromium, with and without JavaScript: dark or light whatever the
system says, kept from page to page, axe clean (contrast) in both; screenshots in dark."""

from playwright.sync_api import BrowserContext, Page

from tests.test_browser import SHOTS, assert_accessible, click_through

DARK_BG, LIGHT_BG = "rgb(18, 22, 33)", "rgb(246, 247, 251)"  # --bg in static/style.css


def background(page: Page) -> str:
    return page.locator("body").evaluate("b => getComputedStyle(b).backgroundColor")


def asked(context: BrowserContext) -> str:
    """The colour scheme the browser's theme stylesheet asks for ("" for the system's), read
    with the browser's cookies: without JavaScript, Playwright cannot read the page's colours."""
    css = context.request.get("/theme.css").text()
    return next((theme for theme in ("light", "dark") if f"color-scheme: {theme}" in css), "")


def choose(page: Page, theme: str) -> None:
    click_through(page.locator(f"#theme button[value={theme}]"))


def test_the_switch_overrides_the_system_and_is_kept(browser, live_server):
    context = browser.new_context(base_url=live_server, color_scheme="light")
    page = context.new_page()
    page.goto("/explore/")
    assert background(page) == LIGHT_BG
    choose(page, "dark")
    assert page.url == f"{live_server}/explore/" and background(page) == DARK_BG
    assert_accessible(page)
    page.goto("/")
    assert background(page) == DARK_BG
    page.emulate_media(color_scheme="dark")
    choose(page, "light")
    assert background(page) == LIGHT_BG
    assert_accessible(page)
    choose(page, "system")
    assert background(page) == DARK_BG  # the system's, dark
    context.close()


def test_the_switch_without_javascript_is_a_form(browser, live_server):
    context = browser.new_context(java_script_enabled=False, base_url=live_server)
    page = context.new_page()
    page.goto("/explore/")
    for theme in ("dark", "light", "system"):
        choose(page, theme)
        assert page.url == f"{live_server}/explore/"
        assert asked(context) == ("" if theme == "system" else theme)
    context.close()


def test_dark_chosen_in_a_light_system_passes_axe(browser, live_server):
    """Chosen on a phone, then the game's page loaded again at a desktop's size."""
    context = browser.new_context(
        base_url=live_server, color_scheme="light", reduced_motion="reduce", viewport={"width": 360, "height": 740}
    )
    page = context.new_page()
    page.goto("/")
    choose(page, "dark")
    click_through(page.locator("#board td[data-row='1'][data-col='1'] a"))
    SHOTS.mkdir(exist_ok=True)
    for width, height in [(360, 740), (1280, 800)]:
        if page.viewport_size["width"] != width:
            page.set_viewport_size({"width": width, "height": height})
            page.reload()
        assert background(page) == DARK_BG, width
        assert_accessible(page)
        page.screenshot(path=SHOTS / f"dark-chosen-{width}x{height}.png")
        page.screenshot(path=SHOTS / f"dark-chosen-{width}x{height}-full.png", full_page=True)
    context.close()
