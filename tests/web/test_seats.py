"""Seats over HTTP: who sits where is data, and each seat sees what its view shows.

A match has two seats, each a person or a bot. These tests play a match
between two bots, a match where the person holds seat 1, and check what the
hand-end view and a dead hand show of the other seat's stock draws.
"""

from __future__ import annotations

import random
from typing import Any

import httpx

from ginrummy.hand import StockDrawn
from ginrummy.records import match_from_dict
from ginrummy.web.storage import MatchStore

from ._support import ALSO_JUNK, JUNK, MELDED, Server, card_codes, deck

TWO_BOTS = [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "medium"}]
BOT_THEN_PERSON = [{"kind": "bot", "bot": "medium"}, {"kind": "person"}]


def _post(server: Server, path: str, body: dict[str, Any]) -> httpx.Response:
    return server.client.post(server.url + path, json=body, timeout=60)


def _stored(server: Server, match_id: str) -> Any:
    row = MatchStore.open(server.db).get(match_id)
    assert row is not None
    return row


def _random_move(m: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    legal = m["table"]["legal"]
    options: list[dict[str, Any]] = []
    if legal["take"]:
        options.append({"action": "take"})
    if legal["pass"]:
        options.append({"action": "pass"})
    if legal["stock"]:
        options.append({"action": "stock"})
    if legal["pile"]:
        options.append({"action": "pile"})
    options += [{"action": "discard", "card": c} for c in legal["discard"]]
    options += [{"action": "knock", "card": k["card"]} for k in legal["knock"]]
    if legal["big_gin"]:
        options.append({"action": "big_gin"})
    return {"version": m["version"], **rng.choice(options)}


def test_a_match_between_two_bots_plays_through(server: Server) -> None:
    r = _post(server, "/api/matches", {"settings": {"match_to": 200}, "seats": TWO_BOTS})
    assert r.status_code == 201, r.text
    m = r.json()
    assert m["seat"] is None
    assert [(s["kind"], s["bot"]) for s in m["seats"]] == [("bot", "easy"), ("bot", "medium")]
    url = f"/api/matches/{m['id']}"
    # A stranger may not watch it before it is over, nor anybody move in it.
    _refused(httpx.get(server.url + url), 403, "not_your_seat")
    r = _post(server, url + "/actions", {"version": m["version"], "action": "stock"})
    _refused(r, 403, "not_your_seat")
    hands = 0
    while True:
        # Every request plays the hand it deals out: it is over when the answer comes.
        assert m["table"]["phase"] == "over", m["table"]
        assert m["events"] and {e["who"] for e in m["events"]} <= {0, 1}
        hands += 1
        row = _stored(server, m["id"])
        assert row.scores == tuple(m["scores"]) and row.version == m["version"]
        if m["status"] == "over":
            break
        assert hands < 100, "two bots should reach 200 points well within 100 hands"
        r = _post(server, url + "/next-hand", {"version": m["version"]})
        assert r.status_code == 200, r.text
        m = r.json()
    assert m["final"]["winner"] in (0, 1) and max(m["scores"]) >= 200
    assert match_from_dict(_stored(server, m["id"]).record).is_over
    # Once over, anybody may look at it.
    assert httpx.get(server.url + url).json()["sheet"] == m["sheet"]


def test_a_match_where_the_person_holds_seat_1_plays_through(server: Server) -> None:
    rng = random.Random(1)
    r = _post(server, "/api/matches", {"settings": {"match_to": 10}, "seats": BOT_THEN_PERSON})
    assert r.status_code == 201, r.text
    m = r.json()
    assert m["seat"] == 1 and m["seats"][1]["kind"] == "person"
    moves = 0
    while m["status"] == "playing":
        assert moves < 2000
        row = _stored(server, m["id"])
        match = match_from_dict(row.record)
        if m["awaiting_deal"]:
            r = _post(server, f"/api/matches/{m['id']}/next-hand", {"version": m["version"]})
        else:
            # The person's own cards, and only they are to move.
            assert sorted(m["table"]["hand"]) == sorted(str(c) for c in match.view(1).hand)
            assert m["table"]["to_act"] == 1
            hidden = {str(c) for c in match.hand.cards_of(0)} - set(m["table"]["pile"])
            hidden -= set(m["table"]["opponent_pile_cards"])
            assert not card_codes({k: v for k, v in m.items() if k != "sheet"}) & hidden
            body = _random_move(m, rng)
            r = _post(server, f"/api/matches/{m['id']}/actions", body)
        assert r.status_code == 200, r.text
        m = r.json()
        moves += 1
    assert m["final"]["winner"] in (0, 1)
    assert tuple(m["scores"]) == _stored(server, m["id"]).scores


def _their_draws(m: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in m["table"]["log"] if e["who"] == 1 and e["kind"] == "stock"]


def test_the_hand_end_view_shows_the_other_seats_stock_draws(server: Server) -> None:
    # The player passes, then draws and throws the card drawn until the computer has
    # drawn from the stock, and knocks (three melds and the K♣: a knock is always there).
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    while m["table"]["phase"] != "over":
        t = m["table"]
        if t["phase"] == "upcard":
            body: dict[str, Any] = {"action": "pass"}
        elif t["phase"] == "draw":
            body = {"action": "stock"}
        elif t["legal"]["knock"] and _their_draws(m):
            body = {"action": "knock"}
        else:
            body = {"action": "discard", "card": t["drawn"]}
        r = _post(server, f"/api/matches/{m['id']}/actions", {"version": m["version"], **body})
        assert r.status_code == 200, r.text
        m = r.json()
        if m["table"]["phase"] != "over":
            # While the hand is in play the computer's stock draws are face down.
            assert all(e["card"] is None for e in _their_draws(m))
    assert m["last_result"]["kind"] in ("knock", "gin", "undercut")
    shown = _their_draws(m)
    assert shown and all(e["card"] is not None for e in shown)
    # They are the cards the engine logged.
    hand = match_from_dict(_stored(server, m["id"]).record).hand
    logged = [str(e.card) for e in hand.events if isinstance(e, StockDrawn) and e.player == 1]
    assert [e["card"] for e in shown] == logged


def test_a_dead_hand_shows_none_of_the_other_seats_draws(server: Server) -> None:
    # Gin only, two hands with no meld, and a stock order that keeps the Medium computer
    # short of gin while the player throws each card drawn: the stock runs down.
    stock = "8S 6H 5D 9H 9C 4S 6S QD TS 8H JD 9D 5H TD AC AH 7S AS KC AD 5S 9S 3H 4H JS QS"
    m = server.new_match(
        [deck(ALSO_JUNK, JUNK, "KS", stock=stock)],
        settings={"knocking": "gin_only"},
        seats=[{"kind": "person"}, {"kind": "bot", "bot": "medium"}],
    )
    while m["table"]["phase"] != "over":
        t = m["table"]
        if t["phase"] == "upcard":
            body = {"action": "pass"}
        elif t["phase"] == "draw":
            body = {"action": "stock"}
        else:
            body = {"action": "discard", "card": t["drawn"]}
        r = _post(server, f"/api/matches/{m['id']}/actions", {"version": m["version"], **body})
        assert r.status_code == 200, r.text
        m = r.json()
    assert m["last_result"]["kind"] == "dead"
    theirs = [e for e in m["table"]["log"] if e["who"] == 1 and e["kind"] == "stock"]
    assert len(theirs) > 5 and all(e["card"] is None for e in theirs)
    assert m["table"]["opponent_hand"] is None


def _refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code


def test_seats_are_checked(server: Server) -> None:
    two = [{"kind": "person"}, {"kind": "person"}]
    _refused(_post(server, "/api/matches", {"seats": two}), 422, "bad_seats")
    one = [{"kind": "person"}]
    _refused(_post(server, "/api/matches", {"seats": one}), 422, "bad_request")
    odd = [{"kind": "person"}, {"kind": "bot", "bot": "genius"}]
    _refused(_post(server, "/api/matches", {"seats": odd}), 422, "bad_request")
