"""The dark theme: the game page follows the system's scheme or the player's choice, remembered.

The cards keep their white faces in both themes, so a card reads the same on any
screen. ``GINRUMMY_THEME_SHOTS=DIR`` keeps a screenshot of the table in each theme
at each size for a person to look at.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ._support import JUNK, MELDED, Server, deck


@pytest.fixture
def server(sqlite_server: Server) -> Server:
    """This suite looks at the page, which is the same over either database."""
    return sqlite_server


pytestmark = pytest.mark.browser

SIZES = [(390, 844), (1280, 800)]
# No animation, unless the page has kept display options of its own (a reload keeps them).
NO_ANIMATION = """if (!localStorage.getItem('ginrummy.comfort'))
    localStorage.setItem('ginrummy.comfort', JSON.stringify({speed: 'off'}))"""
SHOTS = os.environ.get("GINRUMMY_THEME_SHOTS")
# The relative luminance (WCAG) of an element's computed background colour.
LUMINANCE = """s => {
    const el = document.querySelector(s);
    const [r, g, b] = getComputedStyle(el).backgroundColor.match(/[\\d.]+/g).map(Number);
    const lin = c => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}"""
FACE_FILL = """() => getComputedStyle(document.querySelector('#hand .card .face-bg')).fill"""


@pytest.fixture(params=SIZES, ids=["phone", "desktop"])
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    """A phone's or a desktop's window."""
    width, height = request.param
    return width, height


def open_tab(browser: Any, size: tuple[int, int], scheme: str) -> Page:
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, color_scheme=scheme
    )
    context.add_init_script(NO_ANIMATION)
    page: Page = context.new_page()
    page.set_default_timeout(10_000)
    return page


@pytest.fixture
def tabs(browser: Any) -> Iterator[list[Page]]:
    """The tabs a test opens, closed after it."""
    opened: list[Page] = []
    yield opened
    for page in opened:
        page.context.close()


def open_match(page: Page, server: Server) -> None:
    match_id: str = server.new_match([deck(MELDED, JUNK, "QD")])["id"]
    page.context.add_cookies(server.seat_cookies())
    page.goto(f"{server.url}/match/{match_id}")
    expect(page.locator("#hand .card")).to_have_count(10)


def test_the_table_follows_the_systems_scheme_and_cards_stay_white(
    browser: Any, server: Server, size: tuple[int, int], tabs: list[Page]
) -> None:
    seen: dict[str, float] = {}
    problems: list[str] = []
    for scheme in ("light", "dark"):
        page = open_tab(browser, size, scheme)
        tabs.append(page)
        page.on("pageerror", lambda e: problems.append(str(e)))
        open_match(page, server)
        page.click("#btn-take")
        expect(page.locator("#hand .card")).to_have_count(11)
        seen[scheme] = page.evaluate(LUMINANCE, "html")
        assert page.evaluate(FACE_FILL) == "rgb(255, 255, 255)", scheme
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SHOTS}/table-{scheme}-{size[0]}.png")
            page.click("#btn-knock")
            expect(page.locator("#dlg-result")).to_be_visible()
            page.screenshot(path=f"{SHOTS}/result-{scheme}-{size[0]}.png")
    assert not problems, problems
    # The page's ground is light in the light scheme and dark in the dark one.
    assert seen["light"] > 0.6, seen
    assert seen["dark"] < 0.05, seen


def test_the_players_choice_of_theme_wins_over_the_system_and_is_remembered(
    browser: Any, server: Server, size: tuple[int, int], tabs: list[Page]
) -> None:
    for system, chosen, bright in (("dark", "light", True), ("light", "dark", False)):
        page = open_tab(browser, size, system)
        tabs.append(page)
        page.goto(server.url + "/")
        expect(page.locator("#start-match")).to_be_enabled()
        page.click("#open-comfort")
        expect(page.locator("#opt-theme")).to_have_value("system")
        page.select_option("#opt-theme", chosen)
        page.keyboard.press("Escape")
        for _ in range(2):
            luminance = page.evaluate(LUMINANCE, "html")
            assert (luminance > 0.6) if bright else (luminance < 0.05), (system, chosen, luminance)
            expect(page.locator("html")).to_have_attribute("data-theme", chosen)
            page.reload()
            expect(page.locator("#start-match")).to_be_enabled()
        page.click("#open-comfort")
        expect(page.locator("#opt-theme")).to_have_value(chosen)
        # Back to the system's scheme.
        page.select_option("#opt-theme", "system")
        luminance = page.evaluate(LUMINANCE, "html")
        assert (luminance < 0.05) if bright else (luminance > 0.6), (system, luminance)
