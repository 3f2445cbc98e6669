"""The page's finishing touches: deleting an unfinished match from the history, sounds
and their mute switch, the deal animation and the win celebration (off with reduced
motion), at phone and desktop size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ._support import JUNK, MELDED, Server, deck
from .test_axe_browser import assert_clean

pytestmark = pytest.mark.browser

SIZES = [(390, 844), (1280, 800)]


@pytest.fixture(params=SIZES, ids=["phone-light", "desktop-dark"])
def tab(request: pytest.FixtureRequest, browser: Any) -> Iterator[Page]:
    """A fresh tab at a phone's size in light colours or a desktop's in dark; any script
    error fails the test. It may inject axe-core (see test_axe_browser)."""
    width, height = request.param
    context = browser.new_context(
        viewport={"width": width, "height": height},
        color_scheme="light" if width < 600 else "dark",
        bypass_csp=True,
    )
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.set_default_timeout(10_000)
    yield page
    context.close()
    assert not problems, problems


def _line(page: Page, match_id: str) -> Any:
    return page.locator(".history-item", has=page.locator(f'a[href="/match/{match_id}"]'))


def test_an_unfinished_match_is_deleted_from_the_history_after_a_confirmation(
    tab: Page, sqlite_server: Server
) -> None:
    server = sqlite_server
    kept = server.new_match([deck(MELDED, JUNK, "QD")])["id"]
    gone = server.new_match([deck(MELDED, JUNK, "QD")])["id"]
    tab.context.add_cookies(server.seat_cookies())
    tab.goto(server.url + "/history")
    line = _line(tab, gone)
    delete = line.get_by_role("button", name="Delete")
    expect(delete).to_be_in_viewport()
    # Asked first; "Keep it" keeps it.
    delete.click()
    dialog = tab.locator("#dlg-delete")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Delete this match?")
    assert_clean(tab, "the delete confirmation")
    dialog.get_by_role("button", name="Keep it").click()
    expect(dialog).to_be_hidden()
    expect(delete).to_be_focused()
    assert server.client.get(f"{server.url}/api/matches/{gone}").status_code == 200
    delete.click()
    dialog.get_by_role("button", name="Delete").click()
    expect(line).to_have_count(0)
    expect(tab.locator("#live")).to_have_text("The match was deleted.")
    assert server.client.get(f"{server.url}/api/matches/{gone}").status_code == 404
    expect(_line(tab, kept)).to_have_count(1)
    tab.reload()
    expect(_line(tab, kept)).to_have_count(1)
    expect(_line(tab, gone)).to_have_count(0)
