"""The home page does not jump as it loads, and every page says what it is to a search engine."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ._support import JUNK, MELDED, Server, deck, watched_tab


@pytest.fixture
def server(sqlite_server: Server) -> Server:
    """This suite looks at the page, which is the same over either database."""
    return sqlite_server


pytestmark = pytest.mark.browser

SIZES = [(390, 844), (1280, 800)]
PAGES = ["/", "/history", "/rules", "/worked-hand", "/strategy"]
# Cumulative Layout Shift as Lighthouse and Chrome's Web Vitals count it: the layout-shift
# entries not caused by the player's own input, added up. Good is under 0.1.
LAYOUT_SHIFT = """() => new Promise(done => {
    let total = 0;
    new PerformanceObserver(list => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value;
    }).observe({type: 'layout-shift', buffered: true});
    setTimeout(() => done(total), 1000);
})"""


@pytest.fixture(params=SIZES, ids=["phone", "desktop"])
def tab(request: pytest.FixtureRequest, browser: Any) -> Iterator[Page]:
    """A fresh tab at a phone's or a desktop's size; any script error fails the test."""
    width, height = request.param
    yield from watched_tab(browser, width, height, animation=True)


def home_shift(page: Page, url: str) -> float:
    page.goto(url)
    expect(page.locator("#start-match")).to_be_enabled()
    expect(page.locator("#settings-fields .setting").first).to_be_visible()
    shift: float = page.evaluate(LAYOUT_SHIFT)
    return shift


def test_the_home_page_does_not_move_as_it_loads(tab: Page, server: Server) -> None:
    shift = home_shift(tab, server.url + "/")
    assert shift < 0.1, f"cumulative layout shift {shift:.3f}"


def test_the_home_page_with_a_match_to_resume_does_not_move_as_it_loads(
    tab: Page, server: Server
) -> None:
    server.new_match([deck(MELDED, JUNK, "QD")])
    tab.context.add_cookies(server.seat_cookies())
    shift = home_shift(tab, server.url + "/")
    expect(tab.locator("#resume-box")).to_be_visible()
    assert shift < 0.1, f"cumulative layout shift {shift:.3f}"


def test_every_page_has_a_meta_description(tab: Page, server: Server) -> None:
    for path in PAGES:
        tab.goto(server.url + path)
        description = tab.locator('head meta[name="description"]')
        expect(description).to_have_count(1)
        words = description.get_attribute("content") or ""
        assert 50 <= len(words) <= 160, (path, words)
