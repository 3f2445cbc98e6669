"""What a player sees and does, in a real headless Chromium against a real server."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from ginrummy.records import load_match

from ._support import (
    ALSO_JUNK,
    JUNK,
    MELDED,
    NO_ANIMATION,
    SECOND_HAND,
    SQLITE_ONLY,
    Server,
    deck,
    watched_tab,
)

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)  # the whole suite may share two cores with a busy server


@pytest.fixture
def page(browser: Any) -> Iterator[Page]:
    """A fresh browser tab (no saved state).

    The test fails on any script error, CSP violation or request to anywhere
    but the local server.
    """
    # Nothing from elsewhere: no fonts, scripts or images but the local servers'.
    yield from watched_tab(browser, console_errors=True, only_from="http://127.0.0.1:")


def card(page: Page, code: str) -> Locator:
    """The player's card ``code`` on the table."""
    return page.locator(f'#hand .card[data-code="{code}"]')


def expect_knock(page: Page, label: str) -> None:
    """The Knock button is showing and reads exactly ``label``."""
    expect(page.locator("#btn-knock")).to_be_visible()
    expect(page.locator("#knock-label")).to_have_text(label)


def open_match(page: Page, server: Server, decks: list[str], **kw: Any) -> str:
    """Start a match from these decks and open its table; returns its id."""
    match_id: str = server.new_match(decks, **kw)["id"]
    page.context.add_cookies(server.seat_cookies())  # the seat of the player who started it
    page.goto(f"{server.url}/match/{match_id}")
    expect(page.locator("#hand .card")).to_have_count(10)
    return match_id


def test_a_whole_hand_played_by_clicks(page: Page, server: Server) -> None:
    open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD"), SECOND_HAND])
    expect(page.locator("#prompt")).to_contain_text("Take the Q♦")
    expect(page.locator("#deadwood-count")).to_have_text("10")
    page.click("#btn-take")
    expect(page.locator("#hand .card")).to_have_count(11)
    expect(card(page, "QD")).to_have_class(re.compile(r"\bdrawn\b"))
    expect_knock(page, "Knock with 10")
    # Throw the K♣: click it, then the pile.
    card(page, "KC").click()
    expect(card(page, "KC")).to_have_attribute("aria-pressed", "true")
    page.click("#pile")
    # The computer draws and throws; its moves are in the log.
    expect(page.locator("#prompt")).to_contain_text("Draw from the stock")
    expect(page.locator("#log")).to_contain_text("You threw the K♣")
    expect(page.locator("#log li.theirs")).not_to_have_count(0)
    expect(page.locator("#log")).to_contain_text(re.compile(r"Computer (drew|took)"))
    expect(page.locator("#opp-count")).to_have_text("10 cards")
    page.click("#stock")
    expect(page.locator("#hand .card")).to_have_count(11)
    expect_knock(page, "Knock with 1")
    expect(page.locator("#knock-sub")).to_have_text("throws the Q♦")
    page.click("#btn-knock")
    # The sheet: both hands as laid down, the counts, the points, the score.
    dialog = page.locator("#dlg-result")
    expect(dialog).to_be_visible()
    expect(page.locator("#result-title")).to_contain_text("You win the hand")
    expect(dialog).to_contain_text("You knocked — 1")
    expect(dialog.locator(".side-theirs")).to_contain_text("Computer")
    expect(dialog.locator(".side-mine .laid-meld")).to_have_count(4)
    points = int(re.findall(r"(\d+) points?", page.locator("#result-title").inner_text())[0])
    expect(page.locator("#score-you")).to_have_text(str(points))
    expect(page.locator("#result-score")).to_contain_text(f"You {points} — Computer 0")
    page.click("#result-next")
    expect(page.locator("#hand-number")).to_have_text("Hand 2")
    expect(dialog).to_be_hidden()
    expect(card(page, "QH")).to_have_count(1)  # the second deal, as scripted


@SQLITE_ONLY
def test_knocking_with_a_marked_card_throws_that_card(page: Page, server: Server) -> None:
    open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    page.click("#btn-take")
    expect(page.locator("#hand .card")).to_have_count(11)
    card(page, "KC").dblclick()  # a double-click throws
    expect(page.locator("#prompt")).to_contain_text("Draw from the stock")
    page.click("#stock")
    drawn = page.locator("#hand .card.drawn")
    expect(drawn).to_have_count(1)
    code = drawn.get_attribute("data-code")
    assert code in ("AC", "AD")
    expect_knock(page, "Knock with 1")
    drawn.click()  # mark the ace: keeping the Q♦ leaves 10
    expect_knock(page, "Knock with 10")
    expect(page.locator("#throw-hint")).to_contain_text("leaves 10")
    page.click("#btn-knock")
    expect(page.locator("#dlg-result")).to_be_visible()
    expect(page.locator("#dlg-result")).to_contain_text("You knocked — 10")
    deadwood = page.locator("#dlg-result .side-mine .laid-deadwood .mini")
    expect(deadwood).to_have_count(1)
    expect(deadwood).to_have_attribute("aria-label", "queen of diamonds")


@SQLITE_ONLY
def test_no_knock_button_when_no_throw_can_knock(page: Page, server: Server) -> None:
    open_match(page, server, [deck(ALSO_JUNK, JUNK, "9H")])
    page.click("#btn-take")
    expect(page.locator("#hand .card")).to_have_count(11)
    expect(page.locator("#prompt")).to_contain_text("Throw a card")
    expect(page.locator("#btn-knock")).to_be_hidden()


@SQLITE_ONLY
def test_the_knock_button_reads_gin_when_a_throw_leaves_nothing(page: Page, server: Server) -> None:
    open_match(page, server, [deck("AS 2S 3S 4H 5H 6H 7H 9C 9D 9S", JUNK, "8H")])
    expect(page.locator("#btn-knock")).to_be_hidden()
    page.click("#btn-take")
    expect_knock(page, "Gin")
    expect(page.locator("#knock-label")).to_have_text("Gin")
    page.click("#btn-knock")
    expect(page.locator("#dlg-result")).to_contain_text("You went gin")
    expect(page.locator("#result-summary")).to_contain_text("You went gin")


def test_a_reload_in_the_middle_of_a_hand_carries_on(page: Page, server: Server) -> None:
    match_id = open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    page.click("#btn-take")
    expect(page.locator("#hand .card")).to_have_count(11)
    # Drag the K♣ to the far left: the player's own order.
    box = page.locator("#hand .card").first.bounding_box()
    assert box is not None
    card(page, "KC").drag_to(page.locator("#hand .card").first, target_position={"x": 2, "y": 40})
    expect(page.locator("#hand .card").first).to_have_attribute("data-code", "KC")
    page.reload()
    expect(page.locator("#hand .card")).to_have_count(11)
    expect(page.locator("#hand .card").first).to_have_attribute("data-code", "KC")
    expect(card(page, "QD")).to_have_class(re.compile(r"\bdrawn\b"))
    expect_knock(page, "Knock with 10")
    assert page.url.endswith(f"/match/{match_id}")
    card(page, "KC").dblclick()
    expect(page.locator("#prompt")).to_contain_text("Draw from the stock")
    expect(page.locator("#hand .card")).to_have_count(10)


def test_a_server_restart_in_the_middle_of_a_match_carries_on(
    page: Page, db_url: str, tmp_path: Path
) -> None:
    first = Server(db_url).start()
    try:
        match_id = open_match(page, first, [deck(MELDED, JUNK, "QD", stock="AC AD")])
        page.click("#btn-take")
        expect(page.locator("#hand .card")).to_have_count(11)
        card(page, "KC").dblclick()
        expect(page.locator("#prompt")).to_contain_text("Draw from the stock")
        log_before = page.locator("#log li").all_inner_texts()
        pile_before = page.locator("#pile-count").inner_text()
    finally:
        first.stop()
    second = Server(db_url).start()
    try:
        page.goto(f"{second.url}/match/{match_id}")
        expect(page.locator("#hand .card")).to_have_count(10)
        expect(page.locator("#prompt")).to_contain_text("Draw from the stock")
        assert page.locator("#log li").all_inner_texts() == log_before
        assert page.locator("#pile-count").inner_text() == pile_before
        page.click("#stock")
        expect_knock(page, "Knock with 1")
        page.click("#btn-knock")
        expect(page.locator("#dlg-result")).to_be_visible()
    finally:
        second.stop()


def test_settings_chosen_on_the_page_reach_the_game(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.get_by_role("button", name="Match to 50").click()
    page.get_by_role("radio", name="Oklahoma").check()
    page.get_by_text("House rules").click()
    page.locator("#set-spades_double").check()
    page.click("#start-match")
    expect(page).to_have_url(re.compile(r"/match/"))
    expect(page.locator("#hand .card")).to_have_count(10)
    match_id = page.url.rsplit("/", 1)[-1]
    m = page.request.get(f"{server.url}/api/matches/{match_id}").json()  # with the seat
    assert m["settings"]["knocking"] == "oklahoma" and m["settings"]["match_to"] == 50
    assert m["settings"]["spades_double"] is True
    upcard = m["table"]["first_upcard"]
    # An ace upcard means gin only (limit 0), so look the rank up, do not `or` it.
    courts = {"A": 0, "T": 10, "J": 10, "Q": 10, "K": 10}
    limit = courts[upcard[0]] if upcard[0] in courts else int(upcard[0])
    expected = "Gin only this hand" if limit == 0 else f"Knock at {limit} or less"
    expect(page.locator("#knock-limit")).to_have_text(expected)
    expect(page.locator("#score-target")).to_have_text("to 50")
    expect(page.locator("#rules-summary")).to_contain_text("Oklahoma knocking")
    expect(page.locator("#rules-summary")).to_contain_text("spades double")
    page.click("#open-rules")
    expect(page.locator("#dlg-rules")).to_contain_text("Oklahoma")


@SQLITE_ONLY
def test_gin_only_shows_no_knock_button(page: Page, server: Server) -> None:
    open_match(
        page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")], settings={"knocking": "gin_only"}
    )
    expect(page.locator("#knock-limit")).to_have_text("Gin only this hand")
    page.click("#btn-take")
    expect(page.locator("#hand .card")).to_have_count(11)
    expect(page.locator("#prompt")).to_contain_text("Throw")
    expect(page.locator("#btn-knock")).to_be_hidden()


@SQLITE_ONLY
def test_a_turn_played_with_the_keyboard_only(page: Page, server: Server) -> None:
    open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    page.keyboard.press("?")
    expect(page.locator("#dlg-help")).to_be_visible()
    expect(page.locator("#dlg-help")).to_contain_text("knock")
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-help")).to_be_hidden()
    page.keyboard.press("t")  # take the upcard
    expect(page.locator("#hand .card")).to_have_count(11)
    page.keyboard.press("ArrowLeft")  # into the hand (from the card just drawn)
    for _ in range(12):
        if page.evaluate("document.activeElement.dataset.code") == "KC":
            break
        page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.code") == "KC"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "K, king of clubs"
    page.keyboard.press("Space")  # mark it
    expect(card(page, "KC")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("d")  # throw it
    expect(page.locator("#prompt")).to_contain_text("Draw from the stock")
    expect(page.locator("#live")).to_contain_text("Computer")
    page.keyboard.press("s")  # draw from the stock
    expect(page.locator("#hand .card")).to_have_count(11)
    page.keyboard.press("k")  # knock
    expect(page.locator("#dlg-result")).to_be_visible()
    page.keyboard.press("Enter")  # next hand
    expect(page.locator("#hand-number")).to_have_text("Hand 2")


@SQLITE_ONLY
def test_cards_are_named_buttons_and_moves_are_announced(page: Page, server: Server) -> None:
    open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    expect(page.get_by_role("button", name="K, king of clubs")).to_be_visible()
    expect(
        page.get_by_role("button", name=re.compile("^Discard pile, Q, queen of diamonds"))
    ).to_be_visible()
    page.click("#btn-take")
    expect(
        page.get_by_role("button", name=re.compile("^Q, queen of diamonds, just drawn"))
    ).to_be_visible()
    expect(page.locator("#hand .card")).to_have_count(11)
    # The pile takes a throw once the page has shown the take (a loaded machine is slow).
    expect(page.locator("#pile")).to_have_class(re.compile("throwable"))
    card(page, "KC").dblclick()
    expect(page.locator("#live")).to_contain_text(re.compile(r"Computer (drew|took) .*\."))
    expect(page.locator("#live")).to_contain_text(re.compile(r"Computer threw the \w+ of \w+"))


@SQLITE_ONLY
@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740)])
def test_the_table_fits_a_phone(
    browser: Any, server: Server, tmp_path: Path, width: int, height: int
) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=2
    )
    context.add_init_script(NO_ANIMATION)
    page = context.new_page()
    try:
        open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
        page.click("#btn-take")
        expect(page.locator("#hand .card")).to_have_count(11)
        card(page, "KC").click(position={"x": 10, "y": 30})  # the strip that shows
        expect(card(page, "KC")).to_have_attribute("aria-pressed", "true")
        _assert_nothing_cut_off(page, width, height)
        shots = os.environ.get("GINRUMMY_SCREENSHOTS")
        if width == 390:
            page.screenshot(path=str(Path(shots or tmp_path) / "table-phone.png"))
        page.click("#btn-group")
        expect(page.locator("#hand .meld-group")).to_have_count(4)
        expect(page.locator("#hand .deadwood-group")).to_contain_text("Deadwood 20")
        _assert_nothing_cut_off(page, width, height)
    finally:
        context.close()


def _assert_nothing_cut_off(page: Page, width: int, height: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    selectors = [
        "#hand .card",
        "#stock",
        "#pile",
        "#btn-knock",
        "#btn-group",
        "#deadwood",
        "#score-you",
        "#score-them",
        "#open-sheet",
        "#opp-cards",
        "#open-help",
        "#prompt",
    ]
    for sel in selectors:
        for i in range(page.locator(sel).count()):
            box = page.locator(sel).nth(i).bounding_box()
            assert box is not None, (sel, page.locator("#prompt").inner_text())
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (sel, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (sel, box)


@SQLITE_ONLY
def test_the_table_at_desktop_width(page: Page, server: Server, tmp_path: Path) -> None:
    shots = Path(os.environ.get("GINRUMMY_SCREENSHOTS") or tmp_path)
    open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    page.click("#btn-take")
    expect(page.locator("#hand .card")).to_have_count(11)
    card(page, "KC").dblclick()
    expect(page.locator("#prompt")).to_contain_text("Draw from the stock")
    page.click("#stock")
    expect_knock(page, "Knock with 1")
    page.mouse.move(0, 0)
    _assert_nothing_cut_off(page, 1280, 800)
    # The move log sits beside the piles, not under them.
    log = page.locator(".log-panel").bounding_box()
    piles = page.locator(".piles").bounding_box()
    assert log is not None and piles is not None
    assert log["x"] > piles["x"] + piles["width"] and log["y"] < piles["y"] + piles["height"]
    page.screenshot(path=str(shots / "table.png"))
    page.click("#btn-knock")
    expect(page.locator("#dlg-result")).to_be_visible()
    page.screenshot(path=str(shots / "hand-over.png"))


def _knock_first_hand(page: Page) -> None:
    """Take the Q♦, throw the K♣, draw, and knock with 1 (the MELDED deal)."""
    page.click("#btn-take")
    expect(page.locator("#hand .card")).to_have_count(11)
    card(page, "KC").dblclick()
    expect(page.locator("#prompt")).to_contain_text("Draw from the stock")
    page.click("#stock")
    expect(page.locator("#knock-label")).to_have_text("Knock with 1")
    page.click("#btn-knock")


@SQLITE_ONLY
def test_the_match_end_screen_shows_the_totals_and_plays_again(page: Page, server: Server) -> None:
    settings = {"match_to": 10, "game_bonus": True}
    first = open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")], settings=settings)
    _knock_first_hand(page)
    final = page.locator("#dlg-final")
    expect(final).to_be_visible()
    expect(page.locator("#dlg-result")).to_be_hidden()
    expect(page.locator("#final-title")).to_have_text("You win the match!")
    running = int(page.locator("#score-you").inner_text())
    assert running >= 10
    rows = final.locator("tbody tr")
    expect(rows.filter(has_text="Running score")).to_contain_text(f"{running}")
    expect(rows.filter(has_text="Game bonus")).to_contain_text("100")
    expect(rows.filter(has_text="Total")).to_contain_text(f"{running + 100}")
    expect(page.locator("#prompt")).to_have_text("The match is over.")
    # The hand that ended the match is one button away: both hands, its deal, its review.
    page.click("#final-last")
    result = page.locator("#dlg-result")
    expect(result).to_be_visible()
    expect(result.locator("#result-title")).to_contain_text("You win the hand")
    expect(page.locator("#result-fair-mark")).not_to_be_empty()
    expect(page.locator("#result-review")).to_have_attribute("href", re.compile(r"/review/.+/1$"))
    expect(page.locator("#result-next")).to_be_hidden()
    page.click("#result-close")
    expect(result).to_be_hidden()
    expect(final).to_be_visible()
    page.click("#final-again")
    expect(page).not_to_have_url(re.compile(first))
    expect(page.locator("#hand .card")).to_have_count(10)
    expect(page.locator("#score-target")).to_have_text("to 10")
    expect(page.locator("#score-you")).to_have_text("0")
    expect(page.locator("#rules-summary")).to_contain_text("game bonus")


def test_history_shows_score_sheets_and_resumes_an_unfinished_match(
    page: Page, server: Server
) -> None:
    over = open_match(
        page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")], settings={"match_to": 10}
    )
    _knock_first_hand(page)
    expect(page.locator("#dlg-final")).to_be_visible()
    unfinished = open_match(page, server, [deck(ALSO_JUNK, JUNK, "9H")])
    page.click("#btn-take")
    expect(page.locator("#hand .card")).to_have_count(11)
    page.click("#nav-history")
    expect(page).to_have_url(re.compile("/history$"))
    done = page.locator(".history-item", has=page.locator(f'a[href="/match/{over}"]'))
    items = page.locator(".history-item")
    expect(items.first).to_be_visible()
    won = items.filter(has_text="You won").first
    expect(won).to_be_visible()
    won.get_by_text("Score sheet").click()
    expect(won.locator("table.sheet tr.sheet-line")).to_have_count(1)
    expect(won.locator("table.sheet")).to_contain_text("You knocked with 1")
    won.get_by_role("button", name="Show the hands").click()
    expect(won.locator(".sheet-hands .side-mine .laid-meld")).to_have_count(4)
    with page.expect_download() as download:
        won.get_by_role("link", name="Download record").click()
    record = load_match(Path(download.value.path()).read_text())
    assert record.is_over and [e.winner for e in record.sheet] == [0]
    assert done.count() == 0  # a finished match has no Resume link
    # Only hands played to their end count: the one in progress is not played yet.
    expect(won).to_contain_text(" · 1 hand · ")
    playing = page.locator(".history-item", has=page.locator(f'a[href="/match/{unfinished}"]'))
    expect(playing).to_contain_text(" · 0 hands · ")
    page.goto(server.url + "/")
    expect(page.locator("#resume-text")).to_contain_text("You 0, computer 0, in the first hand")
    page.click("#nav-history")
    resume = page.locator(f'.history-item a[href="/match/{unfinished}"]')
    expect(resume).to_have_text("Resume")
    resume.click()
    expect(page).to_have_url(re.compile(f"/match/{unfinished}$"))
    expect(page.locator("#hand .card")).to_have_count(11)
    expect(page.locator("#prompt")).to_contain_text("Throw")


def _play_by_api_until(server: Server, match_id: str, stock_left: int) -> None:
    """Pass the upcard, then draw from the stock and throw the card drawn, over the API,
    until it is the player's turn to draw with ``stock_left`` cards in the stock."""
    url = f"{server.url}/api/matches/{match_id}"
    m = server.client.get(url).json()
    while True:
        t = m["table"]
        assert t["phase"] != "over", f"the hand ended early: {m['last_result']}"
        assert t["to_act"] == 0
        if t["phase"] == "draw" and t["stock_count"] == stock_left:
            return
        if t["phase"] == "upcard":
            body = {"action": "pass"}
        elif t["phase"] == "draw":
            body = {"action": "stock"}
        else:
            body = {"action": "discard", "card": t["drawn"]}
        r = server.client.post(f"{url}/actions", json={"version": m["version"], **body})
        assert r.status_code == 200, r.text
        m = r.json()


@SQLITE_ONLY
def test_a_dead_hand_shows_no_cards_and_the_same_player_deals_again(
    page: Page, server: Server
) -> None:
    """Gin only and two hands with no meld: the stock runs down to two cards."""
    # A stock order that leaves the Medium computer short of gin whatever its seed
    # while the player throws each card drawn (checked against the bot over 200
    # seeds): the player's last draw leaves three cards, the computer's leaves two.
    stock = "8S 6H 5D 9H 9C 4S 6S QD TS 8H JD 9D 5H TD AC AH 7S AS KC AD 5S 9S 3H 4H JS QS"
    decks = [deck(ALSO_JUNK, JUNK, "KS", stock=stock), deck(MELDED, JUNK, "QD")]
    settings = {"knocking": "gin_only"}
    match_id = open_match(page, server, decks, settings=settings)
    _play_by_api_until(server, match_id, stock_left=4)
    page.reload()
    expect(page.locator("#stock-count")).to_have_text("4")
    page.click("#stock")
    expect(page.locator("#hand .card")).to_have_count(11)
    drawn = page.locator("#hand .card.drawn")
    expect(drawn).to_have_count(1)
    drawn.dblclick()  # the computer draws the card that leaves two, throws: a dead hand
    dialog = page.locator("#dlg-result")
    expect(dialog).to_be_visible()
    expect(page.locator("#result-title")).to_contain_text("Dead hand")
    expect(dialog).to_contain_text("The computer deals the next hand again")
    expect(dialog.locator(".laid-meld, .laid-deadwood .mini")).to_have_count(0)
    expect(page.locator("#score-you")).to_have_text("0")
    expect(page.locator("#score-them")).to_have_text("0")
    # The computer's cards stay hidden: the page never got them.
    m = page.request.get(f"{server.url}/api/matches/{match_id}").json()
    assert m["last_result"]["kind"] == "dead"
    assert not m["table"].get("opponent_hand")
    page.click("#result-next")
    # The computer deals again, so the player is offered the upcard first.
    expect(page.locator("#hand-number")).to_have_text("Hand 2")
    expect(page.locator("#prompt")).to_contain_text("Take the Q♦")
    expect(page.locator("#hand .card")).to_have_count(10)
    for code in MELDED.split():
        expect(card(page, code)).to_have_count(1)
    page.click("#open-sheet")
    expect(page.locator("#dlg-sheet table.sheet")).to_contain_text("Dead hand")


@SQLITE_ONLY
def test_drawing_and_throwing_by_dragging(page: Page, server: Server) -> None:
    open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    page.locator("#pile").drag_to(page.locator("#hand"))  # take the upcard by dragging it
    expect(page.locator("#hand .card")).to_have_count(11)
    expect(card(page, "QD")).to_have_class(re.compile(r"\bdrawn\b"))
    card(page, "KC").drag_to(page.locator("#pile"))  # throw by dragging onto the pile
    expect(page.locator("#prompt")).to_contain_text("Draw from the stock")
    expect(page.locator("#log")).to_contain_text("You threw the K♣")
    page.locator("#stock").drag_to(page.locator("#hand"))  # draw from the stock by dragging
    expect(page.locator("#hand .card")).to_have_count(11)
    expect(page.locator("#hand .card.drawn")).to_have_count(1)


@SQLITE_ONLY
def test_lay_offs_are_shown_on_the_melds_they_went_to(page: Page, server: Server) -> None:
    computer = "2C 4C 6C 8C TC JH KH 3D 9H KD"  # the 9♥ goes onto the player's 9s
    open_match(page, server, [deck(MELDED, computer, "QD", stock="AC AD")])
    page.click("#btn-take")
    expect(page.locator("#hand .card")).to_have_count(11)
    card(page, "KC").dblclick()
    expect(page.locator("#prompt")).to_contain_text("Draw from the stock")
    page.click("#stock")
    expect_knock(page, "Knock with 1")
    page.click("#btn-knock")
    dialog = page.locator("#dlg-result")
    expect(dialog).to_be_visible()
    nines = dialog.locator(".side-mine .laid-meld", has=page.get_by_label("nine of clubs"))
    expect(nines.locator(".mini.laid-off")).to_have_attribute(
        "aria-label", "nine of hearts, laid off"
    )
    expect(nines).to_contain_text("+ laid off")
    expect(dialog.locator(".side-theirs")).to_contain_text("Laid off onto the knocker's melds: 9♥")
    expect(dialog.locator(".side-theirs .laid-deadwood")).not_to_contain_text("9♥")


@SQLITE_ONLY
def test_display_options_are_kept_in_the_browser(page: Page, server: Server) -> None:
    open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    club = card(page, "9C").locator("svg")
    black = club.evaluate("e => getComputedStyle(e).color")
    before = card(page, "9C").bounding_box()
    assert before is not None
    page.click("#open-comfort")
    page.check("#opt-four-colour")
    page.check("#opt-large")
    page.keyboard.press("Escape")
    green = club.evaluate("e => getComputedStyle(e).color")
    assert green != black and green == "rgb(19, 128, 59)"
    after = card(page, "9C").bounding_box()
    assert after is not None and after["width"] > before["width"]
    page.reload()
    expect(page.locator("#hand .card")).to_have_count(10)
    assert card(page, "9C").locator("svg").evaluate("e => getComputedStyle(e).color") == green
    expect(page.locator("body")).to_have_class(re.compile(r"\blarge-cards\b"))


def test_a_second_tab_stays_in_step_and_a_stale_click_changes_nothing(
    page: Page, server: Server
) -> None:
    match_id = open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    other = page.context.new_page()
    other.goto(f"{server.url}/match/{match_id}")
    expect(other.locator("#hand .card")).to_have_count(10)
    page.click("#btn-take")  # the first tab takes the upcard...
    expect(page.locator("#hand .card")).to_have_count(11)
    other.click("#btn-pass")  # ...and the second, still showing the offer, passes
    expect(other.locator("#error")).to_contain_text("nothing was changed")
    expect(other.locator("#hand .card")).to_have_count(11)  # it now shows the match as it is
    expect(other.locator("#prompt")).to_contain_text("Throw")
    other.close()
    card(page, "KC").dblclick()
    expect(page.locator("#prompt")).to_contain_text("Draw from the stock")


@SQLITE_ONLY
def test_big_gin_when_the_house_rule_is_on(page: Page, server: Server) -> None:
    open_match(
        page,
        server,
        [deck("AS 2S 3S 4H 5H 6H 7H 9C 9D 9S", JUNK, "8H")],
        settings={"big_gin": True, "match_to": 250},
    )
    page.click("#btn-take")
    expect(page.locator("#btn-big-gin")).to_be_visible()
    expect_knock(page, "Gin")
    page.keyboard.press("b")
    expect(page.locator("#dlg-result")).to_contain_text("You declared big gin")
    points = int(re.findall(r"(\d+) points", page.locator("#result-title").inner_text())[0])
    expect(page.locator("#score-you")).to_have_text(str(points))
    assert points > 31


@SQLITE_ONLY
def test_sorting_the_hand_by_rank_and_back_by_suit(page: Page, server: Server) -> None:
    open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    codes = page.locator("#hand .card")
    by_suit = ["9C", "KC", "4H", "5H", "6H", "AS", "2S", "3S", "9S", "9D"]
    assert [codes.nth(i).get_attribute("data-code") for i in range(10)] == by_suit
    page.click("#btn-sort")
    expect(codes.first).to_have_attribute("data-code", "AS")
    by_rank = ["AS", "2S", "3S", "4H", "5H", "6H", "9C", "9S", "9D", "KC"]
    assert [codes.nth(i).get_attribute("data-code") for i in range(10)] == by_rank
    page.reload()  # the choice is kept
    expect(codes.first).to_have_attribute("data-code", "AS")
    page.keyboard.press("o")
    expect(codes.first).to_have_attribute("data-code", "9C")


@SQLITE_ONLY
def test_the_knocker_picks_how_to_lay_down(page: Page, server: Server) -> None:
    two_ways = "3C 3D 3H 2H 4H 9S TS JS QS KC"
    open_match(page, server, [deck(two_ways, "AC 5C 7C JC QC QH 2D 6D 8D TD", "KS")])
    page.click("#btn-take")
    expect(page.locator("#hand .card")).to_have_count(11)
    expect_knock(page, "Knock with 6")  # only the K♣ can go
    layouts = page.locator("#knock-layouts")
    expect(layouts).to_be_visible()
    expect(layouts.get_by_role("radio")).to_have_count(2)
    expect(layouts.get_by_role("radio").first).to_be_checked()  # the engine's own choice
    card(page, "9S").click()  # marking a card that cannot knock changes nothing
    expect_knock(page, "Knock with 6")
    layouts.get_by_role("radio", name=re.compile(r"2♥ 3♥ 4♥")).check()
    page.click("#btn-knock")
    result = page.locator("#dlg-result")
    expect(result).to_be_visible()
    knocker = result.locator(".side-mine")
    expect(knocker.locator(".laid-meld", has_text="Run").first).to_be_visible()
    expect(knocker.locator(".laid-deadwood .mini")).to_have_count(2)
    expect(knocker.locator(".laid-deadwood")).to_contain_text("Deadwood 6")
    expect(knocker.locator('.laid-deadwood [aria-label="three of clubs"]')).to_have_count(1)


def test_a_tab_catches_up_when_it_is_shown_again(page: Page, server: Server) -> None:
    match_id = open_match(page, server, [deck(MELDED, JUNK, "QD", stock="AC AD")])
    other = page.context.new_page()
    other.goto(f"{server.url}/match/{match_id}")
    expect(other.locator("#hand .card")).to_have_count(10)
    other.click("#btn-take")  # played in the other tab
    expect(other.locator("#hand .card")).to_have_count(11)
    other.close()
    page.bring_to_front()
    page.evaluate("window.dispatchEvent(new Event('focus'))")
    expect(page.locator("#hand .card")).to_have_count(11)
    expect(page.locator("#log")).to_contain_text("You took the upcard Q♦")


@SQLITE_ONLY
def test_reduced_motion_starts_with_animation_off(browser: Any, server: Server) -> None:
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.click("#open-comfort")
        expect(page.locator("#opt-speed")).to_have_value("off")
        expect(page.locator("body")).to_have_class(re.compile(r"\bno-motion\b"))
    finally:
        context.close()
    context = browser.new_context(reduced_motion="no-preference")
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.click("#open-comfort")
        expect(page.locator("#opt-speed")).to_have_value("normal")
    finally:
        context.close()
