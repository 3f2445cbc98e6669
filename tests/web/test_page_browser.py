"""What a new player found wanting on the page (issue 16), checked at phone and desktop size."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ._support import (
    JUNK,
    MELDED,
    NO_ANIMATION,
    SECOND_HAND,
    SQLITE_ONLY,
    Server,
    deck,
    watched_tab,
)

pytestmark = [pytest.mark.browser, SQLITE_ONLY]

SIZES = [(390, 844), (1280, 800)]


@pytest.fixture(params=SIZES, ids=["phone", "desktop"])
def tab(request: pytest.FixtureRequest, browser: Any) -> Iterator[Page]:
    """A fresh tab at a phone's or a desktop's size; any script error fails the test."""
    width, height = request.param
    yield from watched_tab(browser, width, height)


def open_match(page: Page, server: Server, decks: list[str]) -> str:
    match_id: str = server.new_match(decks)["id"]
    page.context.add_cookies(server.seat_cookies())
    page.goto(f"{server.url}/match/{match_id}")
    expect(page.locator("#hand .card")).to_have_count(10)
    return match_id


def test_a_bad_setting_is_marked_at_its_field_in_words(tab: Page, server: Server) -> None:
    tab.goto(server.url + "/")
    field = tab.locator("#set-match_to")
    problem = tab.locator("#error-match_to")
    for typed, words in (
        ("5", "Match to must be from 10 to 1000, not 5."),
        ("55.5", "Match to must be a whole number from 10 to 1000."),
        ("", "Match to: enter a whole number from 10 to 1000."),
    ):
        field.fill(typed)
        tab.click("#start-match")
        # The field says what is wrong, has the focus and is on the screen: no dead button.
        expect(problem).to_have_text(words)
        expect(problem).to_be_in_viewport()
        expect(field).to_be_focused()
        expect(field).to_have_attribute("aria-invalid", "true")
        expect(tab.locator("#settings-error")).to_have_text(words)
        assert "/match/" not in tab.url
    field.fill("50")
    expect(field).not_to_have_attribute("aria-invalid", "true")
    expect(problem).to_be_hidden()
    tab.click("#start-match")
    expect(tab).to_have_url(re.compile(r"/match/"))
    expect(tab.locator("#score-target")).to_have_text("to 50")


def test_the_result_comes_first_and_the_fair_deal_is_one_tap_away(
    tab: Page, server: Server
) -> None:
    open_match(tab, server, [deck(MELDED, JUNK, "QD")])
    tab.click("#btn-take")
    tab.click("#btn-knock")
    dialog = tab.locator("#dlg-result")
    expect(dialog).to_be_visible()
    fair = tab.locator("#result-fair")
    # Below the hands and the score, closed: a short mark, not lines of hashes.
    expect(fair).not_to_have_attribute("open", "")
    expect(tab.locator("#result-fair-text")).to_be_hidden()
    hands = tab.locator("#result-hands").bounding_box()
    mark = fair.bounding_box()
    assert hands is not None and mark is not None and mark["y"] > hands["y"] + hands["height"]
    tab.locator("#result-fair-mark").click()
    expect(tab.locator("#result-fair-text")).to_be_visible()
    expect(tab.locator("#result-fair-text")).to_contain_text("SHA-256")


def test_the_knock_card_is_marked_and_the_count_after_the_throw_is_shown(
    tab: Page, server: Server
) -> None:
    open_match(tab, server, [deck(MELDED, JUNK, "QD")])
    tab.click("#btn-take")
    expect(tab.locator("#knock-label")).to_have_text("Knock with 10")
    # Eleven cards count 20; the throw the Knock button makes leaves 10, and says so.
    expect(tab.locator("#deadwood-count")).to_have_text("20")
    expect(tab.locator("#throw-hint")).to_have_text("· after the best throw 10")
    marked = tab.locator("#hand .card.knock-card")
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-code", "KC")
    badge = marked.evaluate("e => getComputedStyle(e, '::before').content")
    assert "knock" in badge
    # A marked card that cannot knock leaves the Knock button, and its mark, on the K♣.
    tab.locator('#hand .card[data-code="9C"]').dispatch_event("click")
    expect(tab.locator("#hand .card.marked")).to_have_attribute("data-code", "9C")
    expect(tab.locator("#hand .card.knock-card")).to_have_attribute("data-code", "KC")


def test_a_stale_move_says_so_plainly_and_plays_out_what_happened(
    tab: Page, server: Server
) -> None:
    match_id = open_match(tab, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    other = tab.context.new_page()
    other.goto(f"{server.url}/match/{match_id}")
    expect(other.locator("#hand .card")).to_have_count(10)
    tab.click("#btn-take")
    expect(tab.locator("#hand .card")).to_have_count(11)
    other.click("#btn-pass")
    error = other.locator("#error")
    expect(error).to_contain_text("The match had moved on")
    expect(error).not_to_contain_text("version")
    # The move made elsewhere is played out and heard, not jumped over.
    expect(other.locator("#live")).to_contain_text("You took the upcard, the queen of diamonds.")
    expect(other.locator("#hand .card")).to_have_count(11)
    other.close()


def test_cards_laid_off_onto_a_run_stand_in_their_place(tab: Page, server: Server) -> None:
    tab.goto(server.url + "/worked-hand")
    expect(tab.locator("body")).to_have_attribute("data-ready", "1")
    tab.keyboard.press("End")
    result = tab.locator("#w-result")
    expect(result.locator(".laid-off")).not_to_have_count(0)
    runs = result.evaluate(
        """box => [...box.querySelectorAll('.laid-meld')]
            .filter(g => g.querySelector('.laid-off'))
            .filter(g => g.querySelector('.group-label').textContent === 'Run')
            .map(g => [...g.querySelectorAll('.mini')].map(c => c.dataset.code))"""
    )
    assert runs, "the worked hand lays off onto a run"
    order = "A23456789TJQK"
    for run in runs:
        ranks = [order.index(code[0]) for code in run]
        assert ranks == sorted(ranks), run


def test_a_reload_keeps_the_grouping_and_the_marked_card(tab: Page, server: Server) -> None:
    open_match(tab, server, [deck(MELDED, JUNK, "QD")])
    tab.click("#btn-take")
    expect(tab.locator("#pile")).to_have_class(re.compile("throwable"))  # the take is shown
    tab.click("#btn-group")
    tab.locator('#hand .card[data-code="9C"]').dispatch_event("click")
    expect(tab.locator("#hand .card.marked")).to_have_attribute("data-code", "9C")
    tab.reload()
    expect(tab.locator("#hand .card")).to_have_count(11)
    expect(tab.locator("#hand")).to_have_class(re.compile(r"\bgrouped\b"))
    expect(tab.locator("#btn-group")).to_have_attribute("aria-pressed", "true")
    expect(tab.locator("#hand .card.marked")).to_have_attribute("data-code", "9C")


def test_after_next_hand_the_focus_is_in_the_hand(tab: Page, server: Server) -> None:
    open_match(tab, server, [deck(MELDED, JUNK, "QD"), SECOND_HAND])
    tab.click("#btn-take")
    tab.click("#btn-knock")
    expect(tab.locator("#dlg-result")).to_be_visible()
    tab.click("#result-next")
    expect(tab.locator("#hand-number")).to_have_text("Hand 2")
    focused = tab.evaluate("document.activeElement.closest('#hand .card') !== null")
    assert focused, tab.evaluate("document.activeElement.outerHTML.slice(0, 80)")


MISSED_TOUCHES = """s => {
    const el = document.querySelector(s);
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    // 21 px above and below the middle: a 44 px tall target.
    const probes = [[x, y - 21], [x, y + 21]].filter(([, py]) => py >= 0);
    return probes.filter(([px, py]) => {
        const hit = document.elementFromPoint(px, py);
        return !hit || !hit.closest(s);
    }).map(p => p.map(Math.round));
}"""
"""Where a finger on ``s`` misses it: probes 21 px above and below its middle."""

TARGETS = ["#nav-new", "#nav-history", "#nav-stats", "#nav-rules", "#open-comfort", "#open-help"]
TABLE_TARGETS = ["#open-pile"]


def test_small_controls_answer_a_finger_44_px_tall(tab: Page, server: Server) -> None:
    open_match(tab, server, [deck(MELDED, JUNK, "QD")])
    for selector in TARGETS + TABLE_TARGETS:
        missed = tab.evaluate(MISSED_TOUCHES, selector)
        assert not missed, f"{selector} misses a touch at {missed}"
    # The narrow ? answers a finger beside it too.
    box = tab.locator("#open-help").bounding_box()
    assert box is not None
    for dx in (-16, 16):
        x, y = box["x"] + box["width"] / 2 + dx, box["y"] + box["height"] / 2
        hit = tab.evaluate("([x, y]) => document.elementFromPoint(x, y)?.id", [x, y])
        assert hit == "open-help", (dx, hit)


def test_at_400_percent_zoom_the_pages_do_not_scroll_sideways(browser: Any, server: Server) -> None:
    # 400% zoom of a 1280 px window is a 320 px wide page.
    context = browser.new_context(viewport={"width": 320, "height": 256})
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        expect(page.locator("#settings-fields .setting").first).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
        page.goto(server.url + "/history")
        expect(page.locator("#history-title")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    finally:
        context.close()


def test_the_worked_hands_step_buttons_stay_at_hand_on_a_phone(tab: Page, server: Server) -> None:
    tab.goto(server.url + "/worked-hand")
    expect(tab.locator("body")).to_have_attribute("data-ready", "1")
    tab.mouse.wheel(0, 700)
    tab.wait_for_timeout(200)
    if tab.viewport_size and tab.viewport_size["width"] < 560:
        expect(tab.locator("#step-next")).to_be_in_viewport()
    tab.click("#step-next")
    expect(tab.locator("#step-count")).to_have_text(re.compile(r"^Step 2 of"))


def test_the_final_score_without_bonuses_is_one_line_and_links_read_as_the_pages(
    tab: Page, server: Server
) -> None:
    match_id: str = server.new_match([deck(MELDED, JUNK, "QD")], settings={"match_to": 10})["id"]
    tab.context.add_cookies(server.seat_cookies())
    tab.goto(f"{server.url}/match/{match_id}")
    tab.click("#btn-take")
    tab.click("#btn-knock")
    final = tab.locator("#dlg-final")
    expect(final).to_be_visible()
    rows = final.locator("tbody tr")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text("Total")
    tab.goto(server.url + "/")
    link = tab.locator(".learn-links a").first
    expect(link).to_be_visible()
    assert link.evaluate("e => getComputedStyle(e).color") != "rgb(0, 0, 238)"


def test_a_phone_held_sideways_shows_the_whole_table_without_scrolling(
    browser: Any, server: Server
) -> None:
    context = browser.new_context(
        viewport={"width": 844, "height": 390}, has_touch=True, is_mobile=True
    )
    context.add_init_script(NO_ANIMATION)
    page = context.new_page()
    try:
        open_match(page, server, [deck(MELDED, JUNK, "QD")])
        page.click("#btn-take")
        expect(page.locator("#hand .card")).to_have_count(11)
        assert page.evaluate("document.documentElement.scrollHeight - innerHeight") <= 0
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
        for sel in ("#score-you", "#score-them", "#open-sheet", "#opp-cards", "#stock", "#pile"):
            expect(page.locator(sel)).to_be_in_viewport(ratio=1)
        for sel in ("#btn-knock", "#prompt", "#deadwood"):
            expect(page.locator(sel)).to_be_in_viewport(ratio=1)
        cards = page.locator("#hand .card")
        for i in range(cards.count()):
            box = cards.nth(i).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 390.5, box
    finally:
        context.close()


QUEENS = "QS QH QC 2C 4C 6C 8C 7D 3D JH"
"""The other hand: three queens and loose cards (40 deadwood)."""


def test_after_a_hand_the_table_shows_the_other_hand_laid_down_and_the_knock_card(
    tab: Page, server: Server, tmp_path: Path
) -> None:
    open_match(tab, server, [deck(MELDED, QUEENS, "QD")])
    tab.click("#btn-take")
    expect(tab.locator("#knock-label")).to_have_text("Knock with 10")
    tab.click("#btn-knock")
    expect(tab.locator("#dlg-result")).to_be_visible()
    tab.click("#result-close")  # "Look at the table"
    expect(tab.locator("#dlg-result")).to_be_hidden()
    opp = tab.locator("#opp-cards")
    # Their hand as they laid it down: the set of queens apart, then the deadwood.
    melds = opp.locator(".laid-meld:not(.laid-deadwood)")
    expect(melds).to_have_count(1)
    expect(melds.locator(".group-label")).to_have_text("Set")
    codes = melds.locator(".mini").evaluate_all("cards => cards.map(c => c.dataset.code)")
    assert sorted(codes) == ["QC", "QH", "QS"]
    dead = opp.locator(".laid-deadwood")
    expect(dead.locator(".group-label")).to_contain_text("40")
    expect(dead.locator(".mini")).to_have_count(7)
    for card in opp.locator(".mini").all():
        expect(card).to_be_in_viewport()
    # The knock card lies on the pile (the upcard was taken: it is the only card there).
    expect(tab.locator("#pile")).to_have_attribute("aria-label", re.compile("king of clubs on top"))
    expect(tab.locator("#pile-count")).to_have_text("1")
    tab.screenshot(path=tmp_path / "table-after-the-hand.png")


def test_deal_is_two_key_presses_from_the_top_of_the_settings_page(
    tab: Page, server: Server
) -> None:
    tab.goto(server.url + "/")
    deal = tab.locator("#start-match")
    expect(deal).to_be_enabled()
    tab.keyboard.press("Tab")
    skip = tab.locator("#skip-deal")
    expect(skip).to_be_focused()
    expect(skip).to_have_text("Skip to Deal")
    expect(skip).to_be_in_viewport()
    tab.keyboard.press("Enter")
    expect(deal).to_be_focused()
    expect(deal).to_be_in_viewport()
    tab.keyboard.press("Enter")
    expect(tab).to_have_url(re.compile(r"/match/"))
    # On the table the skip link that leads to Deal is gone; the first stop skips to the game.
    tab.keyboard.press("Tab")
    expect(tab.locator("#skip-deal")).to_be_hidden()


BAR = """() => {
    const bar = document.querySelector('header.topbar');
    const brand = bar.querySelector('.brand');
    return {
        brand: [brand.textContent.trim(), brand.getAttribute('href'), !!brand.querySelector('svg')],
        links: [...bar.querySelectorAll('nav > a')]
            .map(a => [a.id, a.textContent.trim(), a.pathname]),
        languages: [...bar.querySelectorAll('.lang-switch a')]
            .map(a => [a.textContent.trim(), a.hreflang, a.lang]),
        height: Math.round(bar.getBoundingClientRect().height),
        colour: getComputedStyle(bar).backgroundColor,
    };
}"""


def test_the_learn_pages_top_bar_is_the_games_and_the_rules_line_is_whole(
    tab: Page, server: Server
) -> None:
    tab.goto(server.url + "/")
    expect(tab.locator("#start-match")).to_be_enabled()
    game = tab.evaluate(BAR)
    assert [link[0] for link in game["links"]] == [
        "nav-new",
        "nav-history",
        "nav-stats",
        "nav-rules",
    ]
    for path in ("/rules", "/worked-hand", "/strategy"):
        tab.goto(server.url + path)
        expect(tab.locator("body")).to_have_attribute("data-ready", "1")
        assert tab.evaluate(BAR) == game, path
    expect(tab.locator("#nav-rules")).not_to_have_attribute("aria-current", "page")
    tab.goto(server.url + "/rules")
    expect(tab.locator("#nav-rules")).to_have_attribute("aria-current", "page")
    for link in ("#nav-new", "#nav-history", "#nav-stats", "#nav-rules"):
        assert not tab.evaluate(MISSED_TOUCHES, link), f"{link} misses a touch"
    # In a match, the line with its rules is shown whole, however narrow the screen.
    open_match(tab, server, [deck(MELDED, JUNK, "QD")])
    line = tab.locator("#open-rules")
    expect(line).to_contain_text("To 100 · Standard knocking (10) · Medium")
    expect(line).to_be_in_viewport(ratio=1)
    assert line.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight")
    assert tab.evaluate("document.documentElement.scrollWidth <= innerWidth")
