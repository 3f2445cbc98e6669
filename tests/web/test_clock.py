"""The move clock of a friend match, over HTTP against a real server (SQLite and PostgreSQL).

A clock is off unless the match's maker asks for one. It starts when the friend
takes the seat; each turn gets its own deadline, which the player's own draw does not
renew. When time runs out in an ``ask`` match nobody is moved, whatever the wait; in
a ``timed`` match (which the friend agreed to when taking the seat) the server makes
the late seat's turn for it: pass the upcard, or draw from the stock and throw the card
drawn; never a knock. However many requests touch the late match at once, it is moved
once.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from ._support import Server
from .friend_support import Player, friend_match, store_of
from .test_friend import _error, _execute


@pytest.fixture(scope="module")
def srv(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server in test mode (a clock of a second or two is allowed) that lets a test ask
    faster than anybody clicks.

    Over SQLite it has a database file of its own: SQLite is one process's database, and
    another test server's clock sweep on a shared file would move a late seat without
    this process's streams hearing of it (PostgreSQL tells every process)."""
    if "://" not in db_url:
        db_url = str(tmp_path_factory.mktemp("clock") / "ginrummy.sqlite3")
    server = Server(db_url).start()
    yield server
    server.stop()


def _seated(srv: Server, clock: dict[str, Any]) -> tuple[Player, Player, dict[str, Any]]:
    """Ann's friend match with this clock, Bob in seat 1: (Ann, Bob, the match from Ann)."""
    ann, bob = Player(srv.url), Player(srv.url)
    m = friend_match(ann, clock=clock)
    assert m["clock"]["seat"] is None, "no clock runs while the friend's seat is open"
    body = {"name": "Bob", "accept_clock": clock.get("expiry") == "timed"}
    r = bob.post(f"/api/invites/{m['invite']['code']}/join", body)
    assert r.status_code == 200, r.text
    return ann, bob, ann.get(f"/api/matches/{m['id']}").json()


def _players(ann: Player, bob: Player, m: dict[str, Any]) -> dict[int, Player]:
    return {m["seat"]: ann, 1 - m["seat"]: bob}


def _left(m: dict[str, Any]) -> float:
    """Seconds left on the clock as the answer says."""
    return float(m["clock"]["left_ms"]) / 1000


def _overdue(srv: Server, match_id: str) -> None:
    """Make the seat to act's time run out now (as a long wait would)."""
    past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat(timespec="milliseconds")
    _execute(srv.db, "UPDATE ginrummy_matches SET deadline = ? WHERE id = ?", past, match_id)


def test_the_clock_starts_with_the_friend_and_gives_each_turn_its_own_deadline(
    srv: Server,
) -> None:
    ann, bob, m = _seated(srv, {"seconds": 60})
    assert m["clock"]["seconds"] == 60 and m["clock"]["expiry"] == "ask"
    to_act = m["table"]["to_act"]
    assert m["clock"]["seat"] == to_act and 55 < _left(m) <= 60
    players = _players(ann, bob, m)
    stream = players[1 - to_act].stream(m["id"])
    try:
        # Pass the upcard: the other seat's turn, with a fresh minute.
        mover = players[to_act]
        seen = mover.get(f"/api/matches/{m['id']}").json()
        r = mover.post(
            f"/api/matches/{m['id']}/actions", {"version": seen["version"], "action": "pass"}
        )
        assert r.status_code == 200, r.text
        after = r.json()
        assert after["clock"]["seat"] == 1 - to_act
        assert after["clock"]["deadline"] > seen["clock"]["deadline"]
        # The other seat's stream says whose clock runs now, and until when.
        event = stream.wait_version(after["version"])
        assert event["clock"]["seat"] == 1 - to_act
        assert event["clock"]["deadline"] == after["clock"]["deadline"]
    finally:
        stream.close()
    # The dealer takes the upcard: the draw is part of the turn, its deadline stays.
    dealer = players[1 - to_act]
    r = dealer.post(
        f"/api/matches/{m['id']}/actions", {"version": after["version"], "action": "take"}
    )
    assert r.status_code == 200, r.text
    took = r.json()
    assert took["clock"]["seat"] == 1 - to_act
    assert took["clock"]["deadline"] == after["clock"]["deadline"]
    throw = took["table"]["legal"]["discard"][0]
    r = dealer.post(
        f"/api/matches/{m['id']}/actions",
        {"version": took["version"], "action": "discard", "card": throw},
    )
    assert r.status_code == 200, r.text
    assert r.json()["clock"]["seat"] == to_act
    # The non-dealer's minute is not up: nobody to remind.
    _error(players[1 - to_act].post(f"/api/matches/{m['id']}/remind"), 409, "not_late")


def test_an_expired_ask_clock_never_moves_the_late_player(srv: Server) -> None:
    ann, bob, m = _seated(srv, {"seconds": 1, "expiry": "ask"})
    to_act = m["table"]["to_act"]
    time.sleep(3.5)  # the server's own sweep has looked three times meanwhile
    for player in (ann, bob):
        now = player.get(f"/api/matches/{m['id']}").json()
        assert now["version"] == m["version"], "nobody was moved"
        assert now["clock"]["seat"] == to_act and now["clock"]["left_ms"] == 0
        assert not now["clock"]["auto"] and now["clock"]["auto_moves"] == 0
    # The other player may remind the late one, whose stream says so; nobody is moved.
    players = _players(ann, bob, m)
    stream = players[to_act].stream(m["id"])
    try:
        r = players[1 - to_act].post(f"/api/matches/{m['id']}/remind")
        assert r.status_code == 204, r.text
        stream.wait_for(lambda s: any(p["reminded"][to_act] for p in s.presences()))
        assert not any(p["reminded"][1 - to_act] for p in stream.presences())
    finally:
        stream.close()
    # The late player has nobody to remind: it is their own move.
    _error(players[to_act].post(f"/api/matches/{m['id']}/remind"), 409, "not_late")
    # The late player is only late: their move is taken as ever.
    late = players[to_act]
    r = late.post(f"/api/matches/{m['id']}/actions", {"version": m["version"], "action": "pass"})
    assert r.status_code == 200, r.text
    assert r.json()["clock"]["seat"] == 1 - to_act and _left(r.json()) > 0


def test_an_expired_timed_clock_moves_the_late_seat_once_however_many_ask(srv: Server) -> None:
    ann, bob, m = _seated(srv, {"seconds": 60, "expiry": "timed"})
    assert m["clock"]["expiry"] == "timed"
    players = _players(ann, bob, m)
    late = m["table"]["to_act"]
    _overdue(srv, m["id"])

    # Both players' pages ask at once, twice each: the late seat passes the upcard, once.
    def look(p: Player) -> dict[str, Any]:
        r = p.get(f"/api/matches/{m['id']}")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        seen = list(pool.map(look, [ann, bob, ann, bob]))
    row = store_of(srv.db).get(m["id"])
    assert row is not None and row.version == m["version"] + 1
    assert row.record["clock"]["auto"] == [[1, 1]]
    for answer in seen:
        assert answer["version"] == m["version"] + 1
        assert answer["clock"]["auto"] and answer["clock"]["seat"] == 1 - late
        assert 55 < _left(answer) <= 60, "the other seat's turn has its own minute"
    log = seen[0]["table"]["log"]
    assert (log[-1]["kind"], log[-1]["who"]) == ("pass", late)
    # A move the late player sent on the old version is stale: the clock moved first.
    r = players[late].post(
        f"/api/matches/{m['id']}/actions", {"version": m["version"], "action": "take"}
    )
    _error(r, 409, "stale_version")

    # The dealer passes too; the late seat must draw, and is late again: the clock draws
    # from the stock and throws the card drawn, never anything else.
    v = seen[0]["version"]
    r = players[1 - late].post(f"/api/matches/{m['id']}/actions", {"version": v, "action": "pass"})
    assert r.status_code == 200, r.text
    before = players[late].get(f"/api/matches/{m['id']}").json()
    assert before["table"]["phase"] == "draw" and before["clock"]["seat"] == late
    _overdue(srv, m["id"])
    after = players[late].get(f"/api/matches/{m['id']}").json()
    assert after["version"] == before["version"] + 1
    assert sorted(after["table"]["hand"]) == sorted(before["table"]["hand"])
    mine = [e for e in after["table"]["log"] if e["who"] == late][-2:]
    assert [e["kind"] for e in mine] == ["stock", "discard"]
    assert mine[0]["card"] == mine[1]["card"] == after["table"]["pile"][-1]
    assert after["clock"]["seat"] == 1 - late and after["clock"]["auto_moves"] == 3
    row = store_of(srv.db).get(m["id"])
    assert row is not None and row.record["clock"]["auto"] == [[1, 1], [1, 3], [1, 4]]


def test_the_servers_own_sweep_moves_a_late_timed_seat_and_the_stream_says_so(
    srv: Server,
) -> None:
    ann, bob, m = _seated(srv, {"seconds": 2, "expiry": "timed"})
    late = m["table"]["to_act"]
    waiting = _players(ann, bob, m)[1 - late]
    stream = waiting.stream(m["id"])
    try:
        # Nobody asks anything: the server's sweep moves within a second of the deadline.
        event = stream.wait_version(m["version"] + 1, timeout=10)
    finally:
        stream.close()
    assert event["clock"]["auto"] and event["clock"]["seat"] == 1 - late
    assert [(e["kind"], e["who"]) for e in event["events"]] == [("pass", late)]


def test_a_timed_match_is_joined_only_by_someone_who_agrees_to_its_clock(srv: Server) -> None:
    ann, bob = Player(srv.url), Player(srv.url)
    m = friend_match(ann, clock={"seconds": 30, "expiry": "timed"})
    code = m["invite"]["code"]
    info = bob.get(f"/api/invites/{code}").json()
    assert info["clock"]["seconds"] == 30 and info["clock"]["expiry"] == "timed"
    body = _error(bob.post(f"/api/invites/{code}/join", {"name": "Bob"}), 409, "clock_not_accepted")
    assert body["error"]["params"] == {"seconds": 30}
    row = store_of(srv.db).get(m["id"])
    assert row is not None and row.seats[1].holder == "-", "the seat stays open"
    r = bob.post(f"/api/invites/{code}/join", {"name": "Bob", "accept_clock": True})
    assert r.status_code == 200, r.text
    assert r.json()["clock"]["seat"] is not None


def test_a_bad_clock_is_refused_with_its_code_and_nothing_is_made(srv: Server) -> None:
    ann = Player(srv.url)
    before = len(ann.get("/api/matches").json())
    friend = [{"kind": "person", "name": "Ann"}, {"kind": "friend"}]
    for clock, param in (
        ({"seconds": 0}, "seconds"),
        ({"seconds": 3600}, "seconds"),
        ({"seconds": 60, "expiry": "sudden_death"}, "expiry"),
    ):
        r = ann.post("/api/matches", {"seats": friend, "clock": clock})
        body = _error(r, 422, "bad_clock")
        assert param in body["error"]["params"]
    # A clock needs a friend across the table: the computer does not wait.
    r = ann.post("/api/matches", {"clock": {"seconds": 60}})
    _error(r, 422, "bad_clock")
    assert len(ann.get("/api/matches").json()) == before
