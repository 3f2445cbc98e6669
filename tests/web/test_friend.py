"""Play a friend, over HTTP against a real server (SQLite and PostgreSQL).

Invites: the first to open the link takes the seat, a third is told the table
is full, an invite expires and can be cancelled. Resume links move a seat to
another device once. Each seat's live stream carries that seat's view at each
version, catches up from Last-Event-ID, and says who is connected. Every bad
request gets a clear error with a stable code and changes nothing. The leak
test plays whole hands between two people and checks every response and every
stream message against the cards hidden from that seat at that moment.
"""

from __future__ import annotations

import concurrent.futures
import random
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ginrummy.settings import Settings
from ginrummy.web import friends, game, live
from ginrummy.web.game import DeckSource
from ginrummy.web.storage import MatchStore

from ._support import Server, card_codes
from .conftest import _db_url
from .friend_support import Player, Stream, friend_match, hidden_from, store_of
from .test_trust_support import CARD, headers_text, move


@pytest.fixture(scope="module")
def srv(db_url: str) -> Iterator[Server]:
    """A server in play mode (fair deals, no test decks)."""
    server = Server(db_url).start(test_mode=False)
    yield server
    server.stop()


def _error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    assert body["error"]["message"]
    assert not card_codes(body), body
    return body


def _execute(db: str, statement: str, *params: Any) -> None:
    """Change the database behind the server's back (to make an invite old)."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(statement.replace("?", "%s"), params)
    else:
        with sqlite3.connect(db) as conn:
            conn.execute(statement, params)


def _unchanged(db: str, m: dict[str, Any]) -> tuple[int, tuple[Any, ...]]:
    row = store_of(db).get(m["id"])
    assert row is not None
    return row.version, row.seats


def test_the_first_to_open_the_link_takes_the_seat_and_a_third_sees_a_full_table(
    srv: Server,
) -> None:
    ann, bob, cat = Player(srv.url), Player(srv.url), Player(srv.url)
    m = friend_match(ann)
    assert m["seat"] == 0 and m["seats"][1]["open"] and m["seats"][0]["name"] == "Ann"
    invite = m["invite"]
    assert invite["url"] == f"/join/{invite['code']}" and invite["seat"] == 1
    assert m["resume"].startswith(f"/resume/{m['id']}/0/")

    offered = bob.get(f"/api/invites/{invite['code']}")
    assert offered.status_code == 200, offered.text
    info = offered.json()
    assert (info["state"], info["host"], info["match"]) == ("open", "Ann", m["id"])
    assert not card_codes(info)

    qr = bob.get(invite["qr"])
    assert qr.headers["content-type"].startswith("image/svg+xml")
    assert qr.text.startswith("<svg") and "<path" in qr.text

    joined = bob.post(f"/api/invites/{invite['code']}/join", {"name": "  Bob  "})
    assert joined.status_code == 200, joined.text
    b = joined.json()
    assert b["seat"] == 1 and b["seats"][1]["name"] == "Bob" and not b["seats"][1]["open"]
    assert b["invite"] is None and b["resume"].startswith(f"/resume/{m['id']}/1/")
    assert set(b["table"]["hand"]).isdisjoint(m["table"]["hand"])

    # Asking again is harmless: the seat is Bob's already.
    again = bob.post(f"/api/invites/{invite['code']}/join", {"name": "Bob"})
    assert again.status_code == 200 and again.json()["seat"] == 1
    assert bob.get(f"/api/invites/{invite['code']}").json()["state"] == "yours"

    # A third visitor: the table is full, and they see nothing of the match.
    before = _unchanged(srv.db, m)
    for r in (
        cat.get(f"/api/invites/{invite['code']}"),
        cat.post(f"/api/invites/{invite['code']}/join", {"name": "Cat"}),
    ):
        _error(r, 409, "table_full")
    _error(cat.get(f"/api/matches/{m['id']}"), 403, "not_your_seat")
    assert _unchanged(srv.db, m) == before
    # The host no longer sees the invite.
    assert ann.get(f"/api/matches/{m['id']}").json()["invite"] is None
    # Each finds the match in their history, from their own seat.
    for player, seat in ((ann, 0), (bob, 1)):
        line = next(x for x in player.get("/api/matches").json() if x["id"] == m["id"])
        assert line["seat"] == seat and [s["name"] for s in line["seats"]] == ["Ann", "Bob"]
    assert all(x["id"] != m["id"] for x in cat.get("/api/matches").json())


def test_of_many_takers_at_once_exactly_one_gets_the_seat(srv: Server) -> None:
    m = friend_match(Player(srv.url))
    takers = [Player(srv.url) for _ in range(8)]
    for p in takers:  # each gets its seat cookie first
        assert p.get("/api/matches").status_code == 200
    code = m["invite"]["code"]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda p: p.post(f"/api/invites/{code}/join", {}), takers))
    assert sorted(r.status_code for r in answers) == [200] + [409] * 7
    for r in answers:
        if r.status_code == 409:
            _error(r, 409, "table_full")


def test_players_may_name_themselves_in_nepali(srv: Server) -> None:
    # Devanagari's vowel signs are marks, not letters: a name is made of both.
    sita, ram = Player(srv.url), Player(srv.url)
    m = friend_match(sita, name="सीता")
    joined = ram.post(f"/api/invites/{m['invite']['code']}/join", {"name": "राम श्रेष्ठ"})
    assert joined.status_code == 200, joined.text
    assert [s["name"] for s in joined.json()["seats"]] == ["सीता", "राम श्रेष्ठ"]


def test_a_bad_invite_gets_a_clear_error_and_changes_nothing(srv: Server) -> None:
    ann, bob = Player(srv.url), Player(srv.url)
    m = friend_match(ann)
    code = m["invite"]["code"]
    before = _unchanged(srv.db, m)

    _error(bob.get("/api/invites/no-such-invite"), 404, "unknown_invite")
    _error(bob.post("/api/invites/no-such-invite/join", {}), 404, "unknown_invite")
    _error(ann.post(f"/api/invites/{code}/join", {}), 409, "own_invite")
    _error(bob.post(f"/api/invites/{code}/join", {"name": "x" * 21}), 422, "bad_name")
    _error(bob.post(f"/api/invites/{code}/join", {"name": "<b>"}), 422, "bad_name")
    zero_width_space = "\u0930\u093e\u092e\u200b"  # not a joiner: invisible, refused
    _error(bob.post(f"/api/invites/{code}/join", {"name": zero_width_space}), 422, "bad_name")
    _error(bob.delete(f"/api/invites/{code}"), 403, "not_your_seat")
    assert _unchanged(srv.db, m) == before

    # Expired: 24 hours after it was made (made old here behind the server's back).
    _execute(srv.db, "UPDATE ginrummy_invites SET expires_at = ? WHERE code = ?", "2000", code)
    _error(bob.get(f"/api/invites/{code}"), 410, "invite_expired")
    _error(bob.post(f"/api/invites/{code}/join", {}), 410, "invite_expired")
    assert _unchanged(srv.db, m) == before

    # Cancelled by its maker.
    other = friend_match(ann)
    other_code = other["invite"]["code"]
    assert ann.delete(f"/api/invites/{other_code}").json() == {"state": "cancelled"}
    _error(bob.get(f"/api/invites/{other_code}"), 410, "invite_cancelled")
    _error(bob.post(f"/api/invites/{other_code}/join", {}), 410, "invite_cancelled")
    _error(ann.delete(f"/api/invites/{other_code}"), 410, "invite_cancelled")
    assert ann.get(f"/api/matches/{other['id']}").json()["invite"] is None
    _error(bob.get(f"/api/matches/{other['id']}"), 403, "not_your_seat")

    # Its maker makes a new link: the old one stays dead, the new one works, once.
    _error(bob.post(f"/api/matches/{other['id']}/invite"), 403, "not_your_seat")
    renewed = ann.post(f"/api/matches/{other['id']}/invite")
    assert renewed.status_code == 200, renewed.text
    fresh = renewed.json()["invite"]["code"]
    assert fresh != other_code
    _error(bob.post(f"/api/invites/{other_code}/join", {}), 410, "invite_cancelled")
    assert bob.post(f"/api/invites/{fresh}/join", {}).json()["seat"] == 1
    _error(ann.post(f"/api/matches/{other['id']}/invite"), 409, "table_full")


def test_a_clock_the_server_does_not_offer_is_refused_and_nothing_is_made(srv: Server) -> None:
    ann = Player(srv.url)
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "friend"}]
    body = _error(
        ann.post("/api/matches", {"seats": seats, "clock": {"seconds": 45}}), 422, "bad_clock"
    )
    assert body["error"]["params"] == {"seconds": 45, "choices": "30, 60, 120, 300"}
    assert ann.get("/api/matches").json() == []
    m = friend_match(ann, clock={"seconds": 120})
    assert m["clock"]["seconds"] == 120 and m["clock"]["expiry"] == "ask"


def test_a_resume_link_moves_the_seat_once_and_a_forged_one_does_nothing(srv: Server) -> None:
    ann, bob, phone, thief = (Player(srv.url) for _ in range(4))
    m = friend_match(ann)
    b = bob.post(f"/api/invites/{m['invite']['code']}/join", {"name": "Bob"}).json()
    _, match_id, seat, token = b["resume"].rsplit("/", 3)
    assert (match_id, seat) == (m["id"], "1")
    before = _unchanged(srv.db, m)

    forged = {"match": m["id"], "seat": 1, "token": secrets.token_hex(16)}
    _error(thief.post("/api/seats/resume", forged), 403, "bad_seat_link")
    # A NUL or a non-ASCII letter in the link is refused before it reaches the database.
    for bad in ({"match": m["id"] + "\x00", "token": token}, {"match": m["id"], "token": "é"}):
        _error(thief.post("/api/seats/resume", {"seat": 1, **bad}), 422, "bad_request")
    wrong_seat = {"match": m["id"], "seat": 0, "token": token}
    _error(thief.post("/api/seats/resume", wrong_seat), 403, "bad_seat_link")
    # Ann may not take Bob's seat too with his link.
    _error(
        ann.post("/api/seats/resume", {"match": m["id"], "seat": 1, "token": token}),
        403,
        "bad_seat_link",
    )
    assert _unchanged(srv.db, m) == before

    moved = phone.post("/api/seats/resume", {"match": m["id"], "seat": 1, "token": token})
    assert moved.status_code == 200, moved.text
    p = moved.json()
    assert p["seat"] == 1 and p["table"]["hand"] == b["table"]["hand"]
    assert p["resume"] != b["resume"]
    # The old device lost the seat; the link is used up.
    _error(bob.get(f"/api/matches/{m['id']}"), 403, "not_your_seat")
    used = {"match": m["id"], "seat": 1, "token": token}
    _error(thief.post("/api/seats/resume", used), 403, "bad_seat_link")
    _error(bob.post("/api/seats/resume", used), 403, "bad_seat_link")


def test_a_move_out_of_turn_or_a_stream_of_anothers_match_is_refused(srv: Server) -> None:
    ann, bob, cat = Player(srv.url), Player(srv.url), Player(srv.url)
    m = friend_match(ann)
    b = bob.post(f"/api/invites/{m['invite']['code']}/join", {}).json()
    to_act = m["table"]["to_act"]
    waiting, waiting_view = (bob, b) if to_act == 0 else (ann, m)
    before = _unchanged(srv.db, m)
    body = {"version": waiting_view["version"], "action": "pass"}
    _error(waiting.post(f"/api/matches/{m['id']}/actions", body), 409, "not_your_turn")
    assert _unchanged(srv.db, m) == before

    stranger = cat.stream(m["id"])
    assert stranger.status == 403 and b"not_your_seat" in stranger.body
    unknown = cat.stream("no-such-match")
    assert unknown.status == 404 and b"unknown_match" in unknown.body
    r = ann.get(f"/api/matches/{m['id']}/stream", headers={"Last-Event-ID": "x1"})
    _error(r, 422, "bad_request")


def _play_on(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A random legal move that keeps the hand in play (never a knock or big gin): the
    deal is a real, random one, and a test of six moves must not see the hand end."""
    legal = {**view["table"]["legal"], "knock": [], "big_gin": False}
    return move({**view, "table": {**view["table"], "legal": legal}}, rng)


def test_each_seat_hears_the_others_move_and_catches_up_after_a_reconnect(srv: Server) -> None:
    ann, bob = Player(srv.url), Player(srv.url)
    m = friend_match(ann)
    a_stream = ann.stream(m["id"])
    first = a_stream.wait_version(1)
    assert first["seat"] == 0 and first["table"]["hand"] == m["table"]["hand"]
    b = bob.post(f"/api/invites/{m['invite']['code']}/join", {"name": "Bob"}).json()
    # Ann's stream says Bob came (no new version: the seat's holder is not the match's state).
    a_stream.wait_for(lambda s: any(p["names"][1] == "Bob" for p in s.presences()))
    b_stream = bob.stream(m["id"], last=b["version"])
    b_stream.wait_for(lambda s: bool(s.presences()))
    assert not b_stream.matches()  # it had that version already
    a_stream.wait_for(lambda s: s.presences()[-1]["connected"] == [True, True])

    views = {0: m, 1: b}
    rng = random.Random(3)
    for _ in range(4):
        seat = views[0]["table"]["to_act"]
        mover = ann if seat == 0 else bob
        body = _play_on(views[seat], rng)
        assert body is not None
        r = mover.post(f"/api/matches/{m['id']}/actions", body)
        assert r.status_code == 200, r.text
        views[seat] = r.json()
        heard = (b_stream if seat == 0 else a_stream).wait_version(views[seat]["version"])
        views[1 - seat] = heard
        assert heard["seat"] == 1 - seat and heard["version"] == views[seat]["version"]
        # The listener is shown the move to animate, from its own side.
        assert heard["events"] and heard["events"][-1]["who"] == seat
        views[seat] = (a_stream if seat == 0 else b_stream).wait_version(views[seat]["version"])

    # Bob's connection drops; Ann moves twice; Bob reconnects from the last version seen.
    seen = b_stream.matches()[-1]["version"]
    b_stream.close()
    a_stream.wait_for(lambda s: s.presences()[-1]["connected"] == [True, False])
    for _ in range(2):
        seat = views[0]["table"]["to_act"]
        mover = ann if seat == 0 else bob
        body = _play_on(mover.get(f"/api/matches/{m['id']}").json(), rng)
        assert body is not None
        r = mover.post(f"/api/matches/{m['id']}/actions", body)
        assert r.status_code == 200, r.text
        views[0] = a_stream.wait_version(r.json()["version"])
    again = bob.stream(m["id"], last=seen)
    caught = again.wait_version(views[0]["version"])
    assert caught["seat"] == 1 and caught["version"] == views[0]["version"]
    ids = [int(x.id) for x in again.messages if x.event == "match" and x.id is not None]
    assert ids == sorted(set(ids)) and ids[0] > seen
    a_stream.close()
    again.close()


def _checked(stream: Stream, seat: int, hidden: dict[int, set[str]], upto: int) -> int:
    """Check every message of a seat's stream against what was hidden at its version."""
    stream.wait_version(upto)
    count = 0
    for msg in list(stream.messages):
        assert not set(CARD.findall(msg.id or "")), msg
        if msg.event == "presence":
            assert not card_codes(msg.json())
            continue
        body = msg.json()
        assert msg.id == str(body["version"]) and body["seat"] == seat
        shown = card_codes({k: v for k, v in body.items() if k != "sheet"})
        leaked = shown & hidden[body["version"]]
        assert not leaked, f"seat {seat}, version {body['version']}: the stream shows {leaked}"
        count += 1
    return count


def test_no_stream_message_or_response_names_a_card_hidden_from_its_seat(srv: Server) -> None:
    rng = random.Random(12)
    ann, bob = Player(srv.url), Player(srv.url)
    m = friend_match(ann)
    b = bob.post(f"/api/invites/{m['invite']['code']}/join", {}).json()
    streams = {0: ann.stream(m["id"]), 1: bob.stream(m["id"])}
    players = {0: ann, 1: bob}
    views = {0: m, 1: b}
    # What each seat may not know, by version: read from the database after each change.
    hidden: dict[int, dict[int, set[str]]] = {0: {}, 1: {}}
    for seat in (0, 1):
        version, cards = hidden_from(srv.db, m["id"], seat)
        hidden[seat][version] = cards
    # The answers that made the match and took the seat, each from its seat.
    for seat, answer in ((0, m), (1, b)):
        shown = card_codes({k: v for k, v in answer.items() if k != "sheet"})
        assert not shown & hidden[seat][answer["version"]], seat
    hands = moves = 0
    while views[0]["status"] == "playing" and hands < 1 and moves < 150:
        view = views[0]
        seat = view["table"]["to_act"] if not view["awaiting_deal"] else rng.choice((0, 1))
        body = move(views[seat], rng)
        if body is None:
            deal = {"version": views[seat]["version"], "client_seed": secrets.token_hex(8)}
            r = players[seat].post(f"/api/matches/{m['id']}/next-hand", deal)
        else:
            r = players[seat].post(f"/api/matches/{m['id']}/actions", body)
        assert r.status_code == 200, r.text
        moves += 1
        answer = r.json()
        for s in (0, 1):
            version, cards = hidden_from(srv.db, m["id"], s)
            assert version == answer["version"]
            hidden[s][version] = cards
        shown = card_codes({k: v for k, v in answer.items() if k != "sheet"})
        assert not shown & hidden[seat][answer["version"]], "the mover's answer leaks"
        assert not set(CARD.findall(headers_text(r))) & hidden[seat][answer["version"]]
        # Every other response either seat may ask for, at this moment.
        # What the other seat may ask for at this moment (a reload).
        other = 1 - seat
        again = players[other].get(f"/api/matches/{m['id']}").json()
        shown = card_codes({k: v for k, v in again.items() if k != "sheet"})
        assert not shown & hidden[other][answer["version"]], other
        for s in (0, 1):
            views[s] = streams[s].wait_version(answer["version"])
        if answer["table"]["phase"] == "over":
            hands += 1
    checked = sum(_checked(streams[s], s, hidden[s], views[0]["version"]) for s in (0, 1))
    assert hands >= 1 and checked >= 2 * moves, (hands, moves, checked)
    for stream in streams.values():
        stream.close()


def test_a_move_made_through_one_process_reaches_a_stream_served_by_another(
    tmp_path: Path,
) -> None:
    # PostgreSQL only: one SQLite database is served by one process.
    db = _db_url("postgres", tmp_path)
    srv = Server(db).start(test_mode=False)
    second = Server(db).start(test_mode=False)
    try:
        ann, bob = Player(srv.url), Player(srv.url)
        m = friend_match(ann)
        bob.post(f"/api/invites/{m['invite']['code']}/join", {"name": "Bob"})
        # Bob's stream comes from the second process; Ann plays through the first.
        bob_there = Player(second.url, bob.client)
        stream = bob_there.stream(m["id"])
        stream.wait_version(1)
        ann_stream = ann.stream(m["id"])
        ann_stream.wait_for(
            lambda s: bool(s.presences()) and s.presences()[-1]["connected"] == [True, True]
        )
        view = ann.get(f"/api/matches/{m['id']}").json()
        mover, seat = (ann, 0) if view["table"]["to_act"] == 0 else (bob, 1)
        body = move(mover.get(f"/api/matches/{m['id']}").json(), random.Random(5))
        assert body is not None
        r = mover.post(f"/api/matches/{m['id']}/actions", body)
        assert r.status_code == 200, r.text
        heard = stream.wait_version(r.json()["version"], timeout=10)
        assert heard["seat"] == 1 and heard["events"][-1]["who"] == seat
        stream.close()
        ann_stream.wait_for(lambda s: s.presences()[-1]["connected"] == [True, False])
        ann_stream.close()
    finally:
        second.stop()
        srv.stop()


def test_a_streams_heartbeat_rides_on_its_read_and_marks_its_seat_there(db_url: str) -> None:
    store = MatchStore.open(db_url)
    ann, bob = "a" * 64, "b" * 64
    seats = [game.new_seat("person", None, 0, "Ann"), game.new_seat("friend", None, 1)]
    made = game.create(store, Settings(), seats, DeckSource(), owner=ann)
    game.commit_new(store, made, "{}", None)
    assert made.invite is not None
    friends.join(store, made.invite.code, bob, "Bob")
    shown = game.watch(store, made.id, bob)
    # A read alone leaves Bob's seat as it was; a read with the heartbeat marks it there.
    read, data = live._read(store, shown, bob, shown.version)
    assert not read.seats[1].connected and data is None
    read, data = live._read(store, shown, bob, shown.version, beat=True)
    assert read.seats[1].connected and not read.seats[0].connected and data is None
    store.close()
