"""axe-core finds nothing on any screen, at phone and desktop size.

axe-core is the npm package pinned in package-lock.json (``npm ci``); the test
injects its ``axe.min.js`` from node_modules into the page, so nothing is
fetched from anywhere but the app. Every screen a player reaches is checked:
home with its settings form, the table in the middle of a hand, the hand
result, the score sheet, history, the keyboard help, the display options and
the three learn pages; in the system's light scheme and in its dark one, which
the game page follows (the learn pages stay light), so colour contrast is
checked in both themes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ._support import JUNK, MELDED, Server, deck, watched_tab


@pytest.fixture
def server(sqlite_server: Server) -> Server:
    """This suite looks at the page, which is the same over either database."""
    return sqlite_server


pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SIZES = [(390, 844), (1280, 800)]
LEARN_PAGES = ["/rules", "/worked-hand", "/strategy"]


def axe_violations(page: Page) -> list[str]:
    """What axe-core finds on the page as it is now, one line per rule broken."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run npm ci")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map(v => ({id: v.id, impact: v.impact,
                        nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': '
                            + n.failureSummary.replace(/\\s+/g, ' '))}))"""
    )
    return [f"{v['id']} ({v['impact']}): {json.dumps(v['nodes'])}" for v in found]


def assert_clean(page: Page, screen: str) -> None:
    size = page.viewport_size
    found = axe_violations(page)
    assert not found, f"{screen} at {size and size['width']} px:\n" + "\n".join(found)


@pytest.fixture(
    params=[(size, scheme) for scheme in ("light", "dark") for size in SIZES],
    ids=["phone-light", "desktop-light", "phone-dark", "desktop-dark"],
)
def tab(request: pytest.FixtureRequest, browser: Any) -> Iterator[Page]:
    """A fresh tab in a light or dark system scheme that lets the test inject axe-core."""
    (width, height), scheme = request.param
    # The app's Content-Security-Policy forbids inline scripts, rightly; the injected
    # axe-core is one, so this tab alone bypasses the policy.
    yield from watched_tab(browser, width, height, color_scheme=scheme, bypass_csp=True)


def test_home_history_and_the_page_dialogs_have_no_axe_violation(tab: Page, server: Server) -> None:
    tab.goto(server.url + "/")
    expect(tab.locator("#settings-fields .setting").first).to_be_visible()
    expect(tab.locator("#start-match")).to_be_enabled()
    assert_clean(tab, "home")
    tab.locator("#house-rules summary").click()
    assert_clean(tab, "home with the house rules open")
    tab.click("#open-help")
    expect(tab.locator("#dlg-help")).to_be_visible()
    assert_clean(tab, "the keyboard help")
    tab.keyboard.press("Escape")
    tab.click("#open-comfort")
    expect(tab.locator("#dlg-comfort")).to_be_visible()
    assert_clean(tab, "the display options")
    tab.keyboard.press("Escape")
    tab.click("#nav-history")
    expect(tab.locator("#history-title")).to_be_visible()
    assert_clean(tab, "history")


def test_the_table_the_result_and_the_score_sheet_have_no_axe_violation(
    tab: Page, server: Server
) -> None:
    match_id: str = server.new_match([deck(MELDED, JUNK, "QD")])["id"]
    tab.context.add_cookies(server.seat_cookies())
    tab.goto(f"{server.url}/match/{match_id}")
    expect(tab.locator("#hand .card")).to_have_count(10)
    assert_clean(tab, "the table at the upcard")
    tab.click("#btn-take")
    expect(tab.locator("#hand .card")).to_have_count(11)
    tab.locator('#hand .card[data-code="9C"]').dispatch_event("click")
    expect(tab.locator("#hand .card.marked")).to_have_count(1)
    assert_clean(tab, "the table mid-hand, a card marked")
    tab.click("#btn-group")
    assert_clean(tab, "the table with the hand grouped")
    tab.click("#open-sheet")
    expect(tab.locator("#dlg-sheet")).to_be_visible()
    assert_clean(tab, "the score sheet mid-match")
    tab.keyboard.press("Escape")
    tab.click("#btn-knock")
    expect(tab.locator("#dlg-result")).to_be_visible()
    assert_clean(tab, "the hand result")
    tab.locator("#result-fair-mark").click()
    assert_clean(tab, "the hand result with the fair-deal proof open")
    tab.click("#result-sheet")
    expect(tab.locator("#dlg-sheet")).to_be_visible()
    assert_clean(tab, "the score sheet after a hand")


@pytest.mark.parametrize("path", LEARN_PAGES)
def test_the_learn_pages_have_no_axe_violation(tab: Page, server: Server, path: str) -> None:
    tab.goto(server.url + path)
    expect(tab.locator("body")).to_have_attribute("data-ready", "1")
    assert_clean(tab, path)
    if path == "/worked-hand":
        tab.keyboard.press("End")
        expect(tab.locator("#w-result .laid-meld").first).to_be_visible()
        assert_clean(tab, "the worked hand's last step")
