"""Two people play a match by link, live, in two real Chromium contexts (one a phone).

The host's tab shows the invite; the friend's phone opens the link, takes the
seat, and from then on each side sees the other's moves as they are made,
through its own stream: no reload, no polling. Each side reloads mid-hand and
the server process is killed (SIGKILL) and started again mid-match: both
streams come back by themselves and the match (to 10, so one knock ends it)
is played to its end.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from ._support import ALSO_JUNK, MELDED, Server, deck

pytestmark = pytest.mark.browser
expect.set_options(timeout=20_000)  # two tabs and a server may share two cores with others

NO_ANIMATION = """
const saved = JSON.parse(localStorage.getItem('ginrummy.comfort') || '{}');
if (!('speed' in saved)) localStorage.setItem('ginrummy.comfort', JSON.stringify({speed: 'off'}));
"""

# The host (seat 0, Ann) has no meld; the friend (seat 1, Bob, the dealer) has three
# and the K♣. The stock's top cards are drawn in this order, one each in turn.
HAND = deck(ALSO_JUNK, MELDED, "QD", stock="TS JS 8H 7S")
# What a browser logs while the server is down: its own network errors (a connection
# refused, reset or never made, a stream cut mid-chunk: which ones depends on the moment
# of the kill), the streams' requests failing, a 503 while it starts. An HTTP error the
# server answered (a 4xx, a 500) is not among them.
RESTART_NOISE = ("net::ERR_", "/stream", "503")


class Tab:
    """One person's browser: a context of its own (its own seat cookie) and a tab."""

    def __init__(self, browser: Browser, **context: Any) -> None:
        self.context = browser.new_context(**context)
        self.context.add_init_script(NO_ANIMATION)
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.problems: list[str] = []
        self.page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        # While the server is down the stream's requests fail: that is the point.
        if message.type == "error" and not any(n in message.text for n in RESTART_NOISE):
            self.problems.append(f"console error: {message.text}")

    def close(self) -> None:
        self.context.close()
        assert not self.problems, self.problems


@pytest.fixture
def own_server(db_url: str) -> Iterator[Server]:
    """A server of this test's own: it is stopped and started again mid-match."""
    srv = Server(db_url).start()
    yield srv
    srv.stop()


def test_the_invite_button_makes_a_friend_match_with_a_link_and_a_qr_code(
    browser: Browser, sqlite_server: Server
) -> None:
    tab = Tab(browser, viewport={"width": 1280, "height": 800})
    page = tab.page
    page.goto(sqlite_server.url + "/")
    page.fill("#friend-name", "Ann")
    page.click("#start-friend")
    expect(page.locator("#invite-box")).to_be_visible()
    expect(page.locator("#invite-link")).to_have_value(re.compile(r"/join/[A-Za-z0-9_-]+$"))
    expect(page.locator("#invite-qr")).to_have_attribute("src", re.compile(r"qr\.svg$"))
    # The picture loads after its address is set: wait for it (a busy machine is slow).
    page.wait_for_function("() => document.querySelector('#invite-qr').naturalWidth > 0")
    expect(page.locator("#friend-status")).to_have_text("Nobody has opened the invite yet.")
    expect(page.locator("#prompt")).to_contain_text(
        re.compile("Waiting for your friend|Take the|Draw")
    )
    first = page.locator("#invite-link").input_value()
    page.click("#invite-cancel")
    expect(page.locator("#invite-box")).to_be_hidden()
    expect(page.locator("#friend-status")).to_have_text("The invite is cancelled.")
    page.click("#invite-renew")
    expect(page.locator("#invite-box")).to_be_visible()
    expect(page.locator("#invite-renew")).to_be_hidden()
    expect(page.locator("#invite-link")).not_to_have_value(first)
    tab.close()


def test_two_people_play_a_match_live_through_reloads_and_a_server_crash(
    browser: Browser, own_server: Server
) -> None:
    srv = own_server
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "friend"}]
    settings = {"match_to": 10}
    match_id = srv.new_match([HAND], first_dealer=1, seats=seats, settings=settings)["id"]
    ann = Tab(browser, viewport={"width": 1280, "height": 800})
    bob = Tab(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    a, b = ann.page, bob.page
    ann.context.add_cookies(srv.seat_cookies())
    a.goto(f"{srv.url}/match/{match_id}")
    expect(a.locator("#hand .card")).to_have_count(10)
    link = a.locator("#invite-link").input_value()

    # Bob opens the link on his phone and takes the seat.
    b.goto(link)
    expect(b.locator("#join-text")).to_contain_text("Ann invites you")
    b.fill("#join-name", "Bob")
    b.click("#join-go")
    expect(b.locator("#hand .card")).to_have_count(10)
    expect(b).to_have_url(f"{srv.url}/match/{match_id}")
    expect(b.locator("#prompt")).to_have_text("Waiting for Ann to move.")
    expect(b.locator("#friend-status")).to_have_text("Ann is here.")
    # Ann's page learns it live: the invite goes, Bob's name comes.
    expect(a.locator("#friend-status")).to_have_text("Bob is here.")
    expect(a.locator("#invite-box")).to_be_hidden()
    expect(a.locator(".score.them .who")).to_have_text("Bob")

    # The upcard: both pass, each seeing the other's pass as it happens.
    expect(a.locator("#prompt")).to_contain_text("Take the Q♦")
    a.click("#btn-pass")
    expect(a.locator("#prompt")).to_have_text("Waiting for Bob to move.")
    expect(b.locator("#btn-pass")).to_be_visible()
    expect(b.locator("#log")).to_contain_text("Ann passed on the upcard")
    b.click("#btn-pass")
    expect(a.locator("#prompt")).to_contain_text("Draw from the stock")

    # Ann draws and throws; Bob's table shows it live.
    a.click("#stock")
    expect(a.locator("#hand .card")).to_have_count(11)
    expect(b.locator("#opp-count")).to_have_text("11 cards")
    a.locator('#hand .card[data-code="QH"]').dblclick()
    expect(b.locator("#log")).to_contain_text("Ann threw the Q♥")
    expect(b.locator("#opp-count")).to_have_text("10 cards")

    # Ann reloads mid-hand: her hand and the table are as they were.
    a.reload()
    expect(a.locator("#hand .card")).to_have_count(10)
    expect(a.locator('#hand .card[data-code="TS"]')).to_have_count(1)
    expect(a.locator("#friend-status")).to_have_text("Bob is here.")

    # Bob draws and throws the card drawn; Ann sees it live. Then Bob reloads.
    b.click("#stock")
    expect(b.locator("#hand .card")).to_have_count(11)
    b.locator('#hand .card[data-code="JS"]').dblclick(position={"x": 6, "y": 30})  # overlapped
    expect(a.locator("#log")).to_contain_text("Bob threw the J♠")
    b.reload()
    expect(b.locator("#hand .card")).to_have_count(10)
    expect(b.locator("#prompt")).to_have_text("Waiting for Ann to move.")

    # The server process is killed mid-match and started again: both streams come back.
    srv.kill()
    expect(a.locator("#friend-status")).to_have_text("Reconnecting to the table…")
    srv.start()
    expect(a.locator("#friend-status")).to_have_text("Bob is here.")
    expect(b.locator("#friend-status")).to_have_text("Ann is here.")
    a.click("#stock")
    expect(a.locator("#hand .card")).to_have_count(11)
    a.locator('#hand .card[data-code="8H"]').dblclick()
    expect(b.locator("#log")).to_contain_text("Ann threw the 8♥")

    # Bob draws and knocks: his points pass 10 and the match is over on both sides.
    expect(b.locator("#prompt")).to_contain_text("Draw")
    b.click("#stock")
    expect(b.locator("#btn-knock")).to_be_visible()
    b.click("#btn-knock")
    expect(b.locator("#dlg-final")).to_be_visible()
    expect(a.locator("#dlg-final")).to_be_visible()
    expect(b.locator("#final-title")).to_have_text("You win the match!")
    expect(a.locator("#final-title")).to_have_text("Bob wins the match")
    expect(a.locator("#prompt")).to_have_text("The match is over.")
    expect(b.locator("#prompt")).to_have_text("The match is over.")
    # The hand that ended it is one button away, the same on both sides.
    a.click("#final-last")
    expect(a.locator("#result-title")).to_contain_text("Bob")
    points = int(re.findall(r"(\d+) points?", a.locator("#result-title").inner_text())[0])
    assert points >= 10
    expect(b.locator("#score-you")).to_have_text(str(points))
    expect(a.locator("#score-them")).to_have_text(str(points))
    ann.close()
    bob.close()


def test_a_timed_clock_agreed_to_counts_down_on_both_tables_and_plays_a_late_turn(
    browser: Browser, sqlite_server: Server, tmp_path: Path
) -> None:
    srv = sqlite_server
    shots = Path(os.environ.get("GINRUMMY_SCREENSHOTS") or tmp_path)
    ann = Tab(browser, viewport={"width": 1280, "height": 800})
    bob = Tab(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    a, b = ann.page, bob.page
    a.goto(srv.url + "/")
    a.fill("#friend-name", "Ann")
    expect(a.locator("#friend-expiry")).to_be_hidden()  # off by default
    a.select_option("#friend-clock", "30")
    a.select_option("#friend-expiry", "timed")
    expect(a.locator("#friend-clock-help")).to_contain_text("It never knocks.")
    a.click("#start-friend")
    expect(a.locator("#rules-summary")).to_contain_text("timed, 30 s a turn")
    expect(a.locator("#clock-line")).to_be_hidden()  # no clock runs before the friend sits

    b.goto(a.locator("#invite-link").input_value())
    expect(b.locator("#join-clock")).to_contain_text("Timed match: 30 s a turn.")
    b.fill("#join-name", "Bob")
    b.click("#join-go")
    expect(b.locator("#join-error")).to_have_text(
        "This is a timed match: agree to its clock to take the seat."
    )
    b.check("#join-agree")
    b.click("#join-go")
    expect(b.locator("#hand .card")).to_have_count(10)

    # Both tables show whose clock runs, counting down from half a minute.
    mine, theirs = (
        re.compile(r"^Your move: 0:[0-3]\d$"),
        re.compile(r"^(Ann|Bob) to move: 0:[0-3]\d$"),
    )
    expect(a.locator("#clock-text")).to_have_text(re.compile(f"{mine.pattern}|{theirs.pattern}"))
    late, waiting = (a, b) if mine.match(a.locator("#clock-text").inner_text()) else (b, a)
    expect(waiting.locator("#clock-text")).to_have_text(theirs)
    shown = late.locator("#clock-text").inner_text()
    expect(late.locator("#clock-text")).not_to_have_text(shown)  # it counts down
    a.screenshot(path=str(shots / "friend-clock-desktop.png"))
    b.screenshot(path=str(shots / "friend-clock-phone.png"))

    # The late seat's half minute is over (as if waited): the server passes for it, and
    # both tables say so, on screen and to a screen reader; the other seat's clock runs.
    past = "2000-01-01T00:00:00.000+00:00"
    with sqlite3.connect(srv.db) as conn:
        match_id = a.url.rsplit("/", 1)[-1]
        conn.execute("UPDATE ginrummy_matches SET deadline = ? WHERE id = ?", (past, match_id))
    expect(late.locator("#clock-note")).to_have_text(
        "Your time ran out: the server played your turn."
    )
    expect(waiting.locator("#clock-note")).to_contain_text("time ran out: the server played")
    expect(waiting.locator("#live")).to_contain_text("time ran out")
    expect(waiting.locator("#clock-text")).to_have_text(mine)
    expect(late.locator("#log")).to_contain_text("You passed on the upcard")
    ann.close()
    bob.close()


@pytest.mark.parametrize(
    ("width", "height", "scheme"),
    [(390, 844, "light"), (1280, 800, "dark")],
    ids=["phone", "desktop"],
)
def test_the_friend_screens_have_no_axe_violation(
    browser: Browser, sqlite_server: Server, width: int, height: int, scheme: str
) -> None:
    from .test_axe_browser import assert_clean

    srv = sqlite_server
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "friend"}]
    match_id = srv.new_match([HAND], first_dealer=1, seats=seats)["id"]
    size = {"viewport": {"width": width, "height": height}, "color_scheme": scheme}
    # The injected axe-core is an inline script: these tabs alone bypass the policy.
    ann = Tab(browser, bypass_csp=True, **size)
    bob = Tab(browser, bypass_csp=True, **size)
    ann.context.add_cookies(srv.seat_cookies())
    ann.page.goto(f"{srv.url}/match/{match_id}")
    expect(ann.page.locator("#invite-qr")).to_be_visible()
    assert_clean(ann.page, "the table with its invite open")
    bob.page.goto(ann.page.locator("#invite-link").input_value())
    expect(bob.page.locator("#join-form")).to_be_visible()
    assert_clean(bob.page, "the invite link's page")
    bob.page.click("#join-go")
    expect(bob.page.locator("#hand .card")).to_have_count(10)
    bob.page.locator("#seat-link summary").click()
    expect(bob.page.locator("#seat-link-url")).to_be_visible()
    assert_clean(bob.page, "a friend match's table, the seat link open")
    expect(ann.page.locator("#friend-status")).to_have_text("Player 2 is here.")
    assert_clean(ann.page, "a friend match's table, the friend here")
    ann.close()
    bob.close()
