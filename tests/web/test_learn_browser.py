"""The learn pages in a real headless Chromium against a real server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from ginrummy.hand import Hand
from ginrummy.melds import best_arrangement
from ginrummy.web.learn import LEARNER_SEAT, OPPONENT_SEAT, WORKED_STEPS, worked_deck

from ._support import JUNK, MELDED, ROOT, Server, deck, watched_tab

EN: dict[str, str] = json.loads(
    (ROOT / "ginrummy" / "web" / "static" / "i18n" / "en.json").read_text(encoding="utf-8")
)
"""The page's English words (the worked hand's titles are there)."""


@pytest.fixture
def server(sqlite_server: Server) -> Server:
    """This suite looks at the page, which is the same over either database."""
    return sqlite_server


pytestmark = pytest.mark.browser

GLOSSARY = ["run", "set", "deadwood", "knock", "gin", "lay-off", "undercut", "upcard", "dead-hand"]
"""The terms the issue names; each has an anchor #glossary-<term> on the rules page."""


@pytest.fixture
def tab(browser: Any, server: Server) -> Iterator[Page]:
    """A fresh tab at desktop size; fails the test on any script, CSP or network problem."""
    yield from watched_tab(browser, console_errors=True, only_from=server.url)


def ready(page: Page) -> None:
    """Wait until the page's script has drawn everything it loads."""
    expect(page.locator("body")).to_have_attribute("data-ready", "1")


@pytest.mark.parametrize("path", ["/rules", "/worked-hand", "/strategy"])
@pytest.mark.parametrize("width", [360, 1280])
def test_each_page_renders_cleanly(tab: Page, server: Server, path: str, width: int) -> None:
    tab.set_viewport_size({"width": width, "height": 800})
    tab.goto(server.url + path)
    ready(tab)
    expect(tab.locator("h1")).to_be_visible()
    # Example hands and the table are drawn as cards with the suit symbols present.
    expect(tab.locator(".mini, .card").first).to_be_visible()
    assert tab.locator("#suit-S").count() == 1
    # Readable on a narrow phone: nothing wider than the screen.
    overflow = tab.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{path} is {overflow}px wider than a {width}px screen"


def expected_steps() -> list[dict[str, int]]:
    """The engine's own figures after each step of the worked hand."""
    hand = Hand.deal(worked_deck(), dealer=OPPONENT_SEAT)
    figures = []
    for step in WORKED_STEPS:
        for action in step.actions:
            hand.apply(action)
        figures.append(
            {
                "deadwood": best_arrangement(hand.cards_of(LEARNER_SEAT)).deadwood_points,
                "stock": hand.stock_count,
                "pile": len(hand.pile),
                "cards": len(hand.cards_of(LEARNER_SEAT)),
            }
        )
    result = hand.result
    assert result is not None
    figures[-1]["points"] = result.points
    return figures


def check_step(page: Page, n: int, figures: dict[str, int], total: int) -> None:
    expect(page.locator("#step-count")).to_have_text(f"Step {n} of {total}")
    title = EN[f"learn.worked.step.{WORKED_STEPS[n - 1].key}.title"]
    expect(page.locator("#step-title")).to_have_text(title)
    expect(page.locator("#w-deadwood-count")).to_have_text(str(figures["deadwood"]))
    expect(page.locator("#w-stock-count")).to_have_text(str(figures["stock"]))
    expect(page.locator("#w-pile-count")).to_have_text(str(figures["pile"]))
    expect(page.locator("#w-hand .card")).to_have_count(figures["cards"])


def test_the_worked_hand_steps_by_buttons_and_keys(tab: Page, server: Server) -> None:
    figures = expected_steps()
    total = len(figures)
    tab.goto(server.url + "/worked-hand")
    ready(tab)
    check_step(tab, 1, figures[0], total)
    expect(tab.locator("#step-prev")).to_be_disabled()
    # Forward with the button through every step, checking the engine's numbers.
    for n in range(2, total + 1):
        tab.click("#step-next")
        check_step(tab, n, figures[n - 1], total)
    expect(tab.locator("#step-next")).to_be_disabled()
    # The last step: both hands laid down, the lay-offs and the score.
    result = tab.locator("#w-result")
    expect(result).to_be_visible()
    expect(result.locator(".laid-off")).not_to_have_count(0)
    expect(tab.locator("#w-totals")).to_have_text(f"You {figures[-1]['points']} · Computer 0")
    expect(tab.locator("#step-caption")).to_contain_text(f"= {figures[-1]['points']} points")
    # Back with the arrow keys, and forward again.
    tab.keyboard.press("ArrowLeft")
    check_step(tab, total - 1, figures[-2], total)
    tab.keyboard.press("Home")
    check_step(tab, 1, figures[0], total)
    tab.keyboard.press("ArrowRight")
    tab.keyboard.press("ArrowRight")
    check_step(tab, 3, figures[2], total)
    tab.click("#step-prev")
    check_step(tab, 2, figures[1], total)
    # The step is in the address, so a reload stays on it.
    tab.reload()
    ready(tab)
    check_step(tab, 2, figures[1], total)


def test_the_worked_hand_shows_the_knock_button_and_can_show_the_computers_cards(
    tab: Page, server: Server
) -> None:
    knock_step = next(i for i, s in enumerate(WORKED_STEPS) if s.key == "draw_nine") + 1
    tab.goto(f"{server.url}/worked-hand#step-{knock_step}")
    ready(tab)
    expect(tab.locator("#w-knock")).to_contain_text("Knock with 1")
    expect(tab.locator("#w-opp-cards .back")).to_have_count(10)
    tab.check("#show-computer")
    expect(tab.locator("#w-opp-cards .back")).to_have_count(0)
    expect(tab.locator("#w-opp-cards .card-svg")).to_have_count(10)


def test_the_glossary_anchors_resolve(tab: Page, server: Server) -> None:
    for term in GLOSSARY:
        tab.goto(f"{server.url}/rules#glossary-{term}")
        ready(tab)
        target = tab.locator(f"#glossary-{term}")
        expect(target).to_be_visible()
        expect(target).to_be_in_viewport()
    # Every glossary link on the match page and the learn pages lands on a term.
    linked: set[str] = set()
    for path in ("/", "/worked-hand", "/strategy", "/rules"):
        tab.goto(server.url + path)
        hrefs = tab.eval_on_selector_all(
            "a[href*='#glossary-']", "links => links.map(a => a.getAttribute('href'))"
        )
        linked |= {h.split("#", 1)[1] for h in hrefs}
    assert {f"glossary-{t}" for t in GLOSSARY} <= linked
    tab.goto(server.url + "/rules")
    for anchor in sorted(linked):
        assert tab.locator(f"[id='{anchor}']").count() == 1, anchor


def test_the_rules_page_shows_oklahoma_when_opened_from_an_oklahoma_match(
    tab: Page, server: Server
) -> None:
    match = server.new_match(
        [deck(MELDED, JUNK, "8H")], settings={"knocking": "oklahoma", "undercut_bonus": 15}
    )
    tab.context.add_cookies(server.seat_cookies())  # the seat of the player who started it
    tab.goto(f"{server.url}/match/{match['id']}")
    expect(tab.locator("#hand .card")).to_have_count(10)
    tab.click("#open-rules")
    link = tab.locator("#rules-full-link")
    expect(link).to_have_attribute("href", f"/rules?match={match['id']}")
    link.click()
    ready(tab)
    box = tab.locator("#match-rules")
    expect(box).to_be_visible()
    expect(box).to_contain_text("Knocking: Oklahoma")
    oklahoma = tab.locator("li[data-when='knocking=oklahoma']")
    expect(oklahoma).to_have_class(re.compile(r"\bactive-rule\b"))
    expect(oklahoma).to_contain_text("This match")
    expect(tab.locator("li[data-when='knocking=standard']")).not_to_contain_text("This match")
    # The match's own bonus appears where the rules name the undercut bonus.
    expect(tab.locator("#scoring-table [data-setting='undercut_bonus']")).to_have_text("15")
    expect(tab.locator("a", has_text="Back to the match")).to_have_attribute(
        "href", f"/match/{match['id']}"
    )


def test_the_rules_page_without_a_match_shows_the_standard_rules(tab: Page, server: Server) -> None:
    tab.goto(server.url + "/rules")
    ready(tab)
    expect(tab.locator("#match-rules")).to_be_hidden()
    expect(tab.locator(".this-match:visible")).to_have_count(0)
    # Settings in the address work too, house rules included.
    tab.goto(server.url + "/rules?knocking=gin_only&ace_high=true")
    ready(tab)
    expect(tab.locator("li[data-when='knocking=gin_only']")).to_contain_text("This match")
    ace = tab.locator("[data-when='ace_high=true']")
    expect(ace).to_contain_text("This match")
    expect(ace.locator(".default-note")).to_be_hidden()
    expect(tab.locator("[data-when='big_gin=true'] .default-note").first).to_be_visible()


def test_the_strategy_page_shows_the_measured_figures(tab: Page, server: Server) -> None:
    data = httpx.get(server.url + "/static/learn/knock-stage.json", timeout=10).json()
    tab.goto(server.url + "/strategy")
    ready(tab)
    hands = f"{data['hands']:,}"
    expect(tab.locator("#knock-table-caption")).to_contain_text(f"{hands} simulated hands")
    rows = tab.locator("#knock-table-body tr")
    expect(rows).to_have_count(len(data["stages"]))
    for i, stage in enumerate(data["stages"]):
        cell = next(c for c in stage["cells"] if c["count"] == 8)
        shown = f"{round(cell['win_rate'] * 100)}%" if cell["knocks"] else "–"
        expect(rows.nth(i).locator("td[data-count='8']")).to_have_text(shown)
    expect(tab.locator("#knock-8-sentence")).to_contain_text("a knock with 8 won")


def test_the_first_visit_offers_the_worked_hand_once(tab: Page, server: Server) -> None:
    tab.goto(server.url + "/")
    offer = tab.locator("#learn-offer")
    expect(offer).to_be_visible()
    tab.click("#learn-offer-dismiss")
    expect(offer).to_be_hidden()
    tab.reload()
    expect(tab.locator("#settings-fields")).not_to_be_empty()
    expect(offer).to_be_hidden()
    # Following the offer remembers it too, as does any visit to the worked hand.
    tab.evaluate("localStorage.removeItem('ginrummy.learn.offered')")
    tab.reload()
    expect(offer).to_be_visible()
    tab.click("#learn-offer-go")
    ready(tab)
    expect(tab.locator("h1")).to_have_text("A worked hand")
    tab.goto(server.url + "/")
    expect(tab.locator("#settings-fields")).not_to_be_empty()
    expect(offer).to_be_hidden()


def test_the_match_page_links_to_all_three(tab: Page, server: Server) -> None:
    match = server.new_match([deck(MELDED, JUNK, "QD")])
    tab.context.add_cookies(server.seat_cookies())
    tab.goto(f"{server.url}/match/{match['id']}")
    expect(tab.locator("#hand .card")).to_have_count(10)
    expect(tab.locator("#nav-rules")).to_have_attribute("href", f"/rules?match={match['id']}")
    tab.click("#open-help")
    help_box = tab.locator("#dlg-help")
    for href in ("/rules", "/worked-hand", "/strategy"):
        expect(help_box.locator(f"a[href='{href}']")).to_have_count(1)
    help_box.locator("a[href='/rules#glossary-deadwood']").click()
    ready(tab)
    expect(tab.locator("#glossary-deadwood")).to_be_in_viewport()
