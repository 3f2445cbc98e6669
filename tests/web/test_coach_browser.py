"""The coach in the page: a hand's review, stepped through by keys, and the statistics.

The hand: the player passes an upcard that would have made gin at once (a
marked mistake, whatever the computer does next), draws and knocks. The
suite looks at the page, the same over either database, so it runs over
SQLite only (the API suite checks the stored reviews over both).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ._support import JUNK, Server, deck, watched_tab
from .test_axe_browser import assert_clean
from .test_coach_api import GIN_AT_HAND, passed_gin

pytestmark = pytest.mark.browser


@pytest.fixture
def server(sqlite_server: Server) -> Server:
    """This suite looks at the page, which is the same over either database."""
    return sqlite_server


@pytest.fixture(params=[(390, 844), (1280, 800)], ids=["phone", "desktop"])
def tab(request: pytest.FixtureRequest, browser: Any) -> Iterator[Page]:
    """A fresh tab (axe-core may be injected: it bypasses the page's script policy)."""
    width, height = request.param
    yield from watched_tab(browser, width, height, timeout=20_000, bypass_csp=True)


def test_a_player_reviews_the_hand_they_just_played_and_steps_to_the_mistake(
    tab: Page, server: Server
) -> None:
    match_id = server.new_match([deck(GIN_AT_HAND, JUNK, "4S", "QH")], settings={"hints": True})[
        "id"
    ]
    tab.context.add_cookies(server.seat_cookies())
    tab.goto(f"{server.url}/match/{match_id}")
    # The match has hints: H asks what Hard would do, and why.
    expect(tab.locator("#rules-summary")).to_contain_text("hints on")
    expect(tab.locator("#btn-hint")).to_be_visible()
    tab.keyboard.press("h")
    expect(tab.locator("#hint-text")).to_have_text(
        "Hint: take the upcard 4♠. Why: 4♠ makes a meld."
    )
    tab.click("#btn-pass")
    expect(tab.locator("#prompt")).to_contain_text("Draw from the stock")
    tab.click("#stock")
    tab.click("#btn-knock")
    expect(tab.locator("#dlg-result")).to_be_visible()
    tab.click("#result-review")

    expect(tab).to_have_url(f"{server.url}/review/{match_id}/1")
    expect(tab.locator("#review-body")).to_be_visible(timeout=120_000)
    step = tab.locator("#review-step")
    expect(step).to_have_text(re.compile(r"^Step 1 of \d+$"))
    # Pass, the computer's answer to the upcard (and its throw, if it took it), the
    # draw, the knock and the end.
    n = int(step.inner_text().rsplit(" ", 1)[1])
    assert n in (5, 6)
    panel = tab.locator("#review-panel")
    # The first step is the mistake: both hands face up, the cost, its interval, the reason.
    expect(panel).to_contain_text("pass on the upcard 4♠")
    expect(panel).to_contain_text("Hard would: take the upcard 4♠")
    expect(panel.locator(".chip.mistake")).to_have_text("Mistake")
    expect(panel).to_contain_text("passed 4♠, a card that made a meld")
    expect(panel.locator(".review-cost")).to_contain_text("95% interval")
    expect(tab.locator("#review-table .mini")).to_have_count(21)  # two hands and the pile
    assert_clean(tab, "the review at a mistake")

    tab.keyboard.press("End")
    expect(step).to_have_text(f"Step {n} of {n}")
    expect(panel).to_contain_text("You knocked and won")
    tab.keyboard.press("ArrowLeft")
    expect(step).to_have_text(f"Step {n - 1} of {n}")
    expect(panel).to_contain_text("knock, throwing the")
    tab.keyboard.press("Home")
    expect(step).to_have_text(f"Step 1 of {n}")
    tab.keyboard.press("ArrowRight")
    expect(step).to_have_text(f"Step 2 of {n}")
    expect(panel).to_contain_text("Computer")
    tab.click("#review-next-mistake")
    expect(step).to_have_text(f"Step 1 of {n}")


def test_the_statistics_page_draws_its_charts_after_a_few_matches(
    tab: Page, server: Server
) -> None:
    player = Server(server.db, port=server.port)
    matches = [passed_gin(player) for _ in range(2)]
    tab.context.add_cookies(player.seat_cookies())
    # A review opened from History is stored, and its mistakes are charted.
    tab.goto(f"{server.url}/history")
    tab.get_by_role("link", name="Review hand 1").first.click()
    expect(tab.locator("#review-body")).to_be_visible(timeout=120_000)
    tab.click("#nav-stats")
    expect(tab.locator("#stats-title")).to_be_visible()
    expect(tab.locator("svg.chart")).to_have_count(4)
    expect(tab.locator(".stat-figures")).to_contain_text("2 (2 finished)")
    expect(tab.locator(".stats-table")).to_contain_text("Medium")
    assert_clean(tab, "the statistics")
    csv = tab.request.get(f"{server.url}/api/statistics.csv").text()
    assert all(m["id"] in csv for m in matches)
