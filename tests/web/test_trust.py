"""Trust, over HTTP against a real server: no hidden card leaks, deals check out, moves apply once.

The leak test plays whole hands with a player who makes random legal moves,
and after every response reads the server's truth from the database: the
computer's concealed cards and the stock. No response, header or error
before the hand's end may name one of those cards.
"""

from __future__ import annotations

import concurrent.futures
import json
import random
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ginrummy.fairness import fair_first_dealer, verify_deal
from ginrummy.web.security import SEAT_COOKIE

from ._support import JUNK, MELDED, Server, card_codes, deck
from .test_trust_support import (
    CARD,
    fairness_check,
    headers_text,
    hidden_now,
    move,
    new_match,
    step,
    stored,
)


@pytest.fixture(scope="module")
def live(db_url: str) -> Iterator[Server]:
    """A server in normal play mode (no test decks): every deal is a fair deal."""
    srv = Server(db_url).start(test_mode=False)
    yield srv
    srv.stop()


def _error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert message
    return message


def _in_play_cards(response: dict[str, Any]) -> set[str]:
    """Card tokens of a match response, less the score sheet (hands already over)."""
    return card_codes({k: v for k, v in response.items() if k != "sheet"})


def test_a_seat_token_that_happens_to_spell_a_card_is_not_taken_for_a_leak() -> None:
    # token_urlsafe(32) spells "-7C-" now and then; the leak scan reads past the token
    # but still fails on a seat cookie that is not a fresh 43-character token.
    token = "XETgkdds905IwiJgDJ7n" + "-7C-" + "Xs_zGNpafcfMUTOP8Tx"
    spelled = httpx.Response(200, headers={"set-cookie": f"{SEAT_COOKIE}={token}; Path=/"})
    assert len(token) == 43 and CARD.findall(spelled.headers["set-cookie"]) == ["7C"]
    assert CARD.findall(headers_text(spelled)) == []
    shown = httpx.Response(200, headers={"set-cookie": f"{SEAT_COOKIE}=7C-KD; Path=/"})
    with pytest.raises(AssertionError, match="not a fresh token"):
        headers_text(shown)
    named = httpx.Response(200, headers={"x-debug": "stock starts 7C"})
    assert CARD.findall(headers_text(named)) == ["7C"]


def test_no_response_before_a_hands_end_names_a_hidden_card(live: Server) -> None:
    rng = random.Random(7)
    client = live.client
    checked = hands = 0
    while hands < 3 or checked < 30:  # the deals are random: play until enough is seen
        m = new_match(client, live.url, {"match_to": 10})
        while m["status"] == "playing" and hands < 12:
            r = step(client, live.url, m, rng)
            assert r.status_code == 200, r.text
            m = r.json()
            hidden = hidden_now(live.db, m["id"])
            if m["table"]["phase"] == "over":
                hands += 1
                assert not hidden
                continue
            assert len(hidden) >= 10
            again = client.get(f"{live.url}/api/matches/{m['id']}")
            history = client.get(f"{live.url}/api/matches")
            proofs = client.get(f"{live.url}/api/matches/{m['id']}/proofs")
            stranger = httpx.get(f"{live.url}/api/matches/{m['id']}")
            for resp in (r, again, history, proofs, stranger):
                assert not set(CARD.findall(headers_text(resp))) & hidden
            for body in (m, again.json()):
                leaked = _in_play_cards(body) & hidden
                assert not leaked, f"hand {m['hand_number']}: the response shows {leaked}"
            assert not card_codes(history.json())
            current = proofs.json()["deals"][-1]
            assert current["hand"] == m["hand_number"]
            assert current["server_seed"] is None and current["deck"] is None
            assert not card_codes(stranger.json()) and stranger.status_code == 403
            # Throwing a card one does not hold is refused in the same words wherever the
            # card is (the computer's hand, the stock, the pile): the refusal tells nothing.
            held = set(m["table"]["hand"])
            elsewhere = (
                sorted(set(m["table"]["pile"]) - held)[:1] + sorted(hidden)[:: len(hidden) // 3]
            )
            said = set()
            for card in elsewhere:
                bad = {"version": m["version"], "action": "discard", "card": card}
                refused = client.post(f"{live.url}/api/matches/{m['id']}/actions", json=bad)
                assert refused.status_code in (409, 422), refused.text
                assert card_codes(refused.json()) <= {card}
                assert not set(CARD.findall(headers_text(refused))) & hidden
                said.add(refused.json()["error"]["message"].replace(card, "#"))
            if m["table"]["phase"] == "discard":
                assert len(said) == 1, said
            checked += 1
    assert hands >= 3 and checked >= 30, (hands, checked)


def test_a_finished_hand_reveals_a_deal_the_stdlib_check_confirms(live: Server) -> None:
    check = fairness_check()
    rng = random.Random(11)
    client = live.client
    m = new_match(client, live.url)
    committed = m["fairness"]["deal"]["commitment"]
    assert m["fairness"]["deal"]["server_seed"] is None
    while m["table"]["phase"] != "over":
        m = step(client, live.url, m, rng).json()
    number = m["hand_number"]
    proofs = httpx.get(f"{live.url}/api/matches/{m['id']}/proofs").json()
    deal = proofs["deals"][number - 1]
    assert deal["commitment"] == committed and deal["client_seed_by"] == "you"
    if m["last_result"]["kind"] != "dead":
        assert m["fairness"]["deal"] == deal  # shown at the table too
        assert set(m["table"]["opponent_hand"]) <= set(deal["deck"])
    else:
        assert m["fairness"]["deal"]["deck"] is None  # a dead hand shows no cards
    text = " ".join(deal["deck"])
    assert check(deal["commitment"], deal["server_seed"], deal["client_seed"], number, text)
    # The deck is the one played: the player's first ten cards are in it where dealt.
    _, match = stored(live.db, m["id"])
    assert [str(c) for c in match.hands[number - 1].deck] == deal["deck"]
    if m["status"] == "over":
        # That hand ended the match (random play can): no next deal to commit to.
        assert m["fairness"]["next_commitment"] is None
        return
    # The next hand is committed to before the browser sends its seed.
    assert m["fairness"]["next_commitment"] not in (None, committed)
    nxt = m["fairness"]["next_commitment"]
    dealt = client.post(
        f"{live.url}/api/matches/{m['id']}/next-hand",
        json={"version": m["version"], "client_seed": "my-own-seed"},
    ).json()
    assert dealt["fairness"]["deal"]["commitment"] == nxt
    assert dealt["fairness"]["deal"]["client_seed"] == "my-own-seed"


def test_the_first_dealer_is_drawn_from_the_committed_seeds(live: Server) -> None:
    """Neither side steers the cut: once both seeds are fixed, they choose the first dealer,
    and the proof shows it for anyone to check with the printed code."""
    check = fairness_check()
    rng = random.Random(17)
    dealers = set()
    for _ in range(6):
        m = new_match(live.client, live.url)
        first = m["fairness"]["deal"]
        assert first["committed"] is True and first["first_dealer"] == m["table"]["dealer"]
        dealers.add(first["first_dealer"])
        while m["hand_number"] == 1 and m["table"]["phase"] != "over":
            m = step(live.client, live.url, m, rng).json()
        proofs = httpx.get(f"{live.url}/api/matches/{m['id']}/proofs").json()
        deal = proofs["deals"][0]
        seeds = deal["server_seed"], deal["client_seed"]
        assert deal["first_dealer"] == fair_first_dealer(*seeds) == first["first_dealer"]
        _, match = stored(live.db, m["id"])
        assert match.hands[0].dealer == deal["first_dealer"]  # the hand was dealt so
        text = " ".join(deal["deck"])
        assert check(deal["commitment"], *seeds, 1, text, first_dealer=deal["first_dealer"])
        with pytest.raises(AssertionError, match="first dealer"):
            check(deal["commitment"], *seeds, 1, text, first_dealer=1 - deal["first_dealer"])
    # Six cuts miss one seat 1 time in 32: cut on (new matches only) until both have dealt.
    for _ in range(40):
        if dealers == {0, 1}:
            break
        m = new_match(live.client, live.url)
        assert m["fairness"]["deal"]["first_dealer"] == m["table"]["dealer"]
        dealers.add(m["table"]["dealer"])
    assert dealers == {0, 1}  # 46 fair cuts miss a seat 1 time in 2^45


def test_a_deal_with_no_commitment_first_says_so(live: Server) -> None:
    """A match started without asking for a commitment (a script) has its first deal marked
    uncommitted on the wire; the next hand's seed was shown first, so it is committed."""
    rng = random.Random(23)
    r = live.client.post(f"{live.url}/api/matches", json={"client_seed": "script-seed"})
    assert r.status_code == 201, r.text
    m = r.json()
    assert m["fairness"]["deal"]["committed"] is False
    assert m["fairness"]["deal"]["first_dealer"] == m["table"]["dealer"]
    while m["hand_number"] == 1 and m["status"] != "over":
        m = step(live.client, live.url, m, rng).json()
    proofs = httpx.get(f"{live.url}/api/matches/{m['id']}/proofs").json()["deals"]
    assert proofs[0]["committed"] is False
    if len(proofs) > 1:
        assert proofs[1]["committed"] is True and proofs[1]["first_dealer"] is None


def test_tampering_with_one_card_of_a_revealed_deal_is_detected(live: Server) -> None:
    check = fairness_check()
    rng = random.Random(3)
    m = new_match(live.client, live.url)
    while m["table"]["phase"] != "over":
        m = step(live.client, live.url, m, rng).json()
    deal = httpx.get(f"{live.url}/api/matches/{m['id']}/proofs").json()["deals"][0]
    cards = list(deal["deck"])
    cards[5], cards[40] = cards[40], cards[5]
    with pytest.raises(AssertionError, match="not the one the seeds give"):
        check(deal["commitment"], deal["server_seed"], deal["client_seed"], 1, " ".join(cards))
    with pytest.raises(AssertionError, match="commitment"):
        check("0" * 64, deal["server_seed"], deal["client_seed"], 1, " ".join(deal["deck"]))
    from ginrummy.cards import parse_cards

    problems = verify_deal(
        deal["commitment"],
        deal["server_seed"],
        deal["client_seed"],
        1,
        parse_cards(" ".join(cards)),
    )
    assert problems == ["the deck differs from the derived order at position 6"]


def test_a_commitment_deals_one_match_only_and_only_for_its_seat(live: Server) -> None:
    c = live.client.post(live.url + "/api/commitments").json()["commitment"]
    other = httpx.Client(timeout=30)
    body = {"commitment": c, "client_seed": "abc"}
    _error(other.post(live.url + "/api/matches", json=body), 409, "bad_commitment")
    assert live.client.post(live.url + "/api/matches", json=body).status_code == 201
    _error(live.client.post(live.url + "/api/matches", json=body), 409, "bad_commitment")


def test_the_same_action_sent_20_times_at_once_applies_once(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    path = f"{server.url}/api/matches/{m['id']}/actions"
    body = {"version": m["version"], "action": "take", "action_id": secrets.token_hex(8)}
    sent = time.time()
    with concurrent.futures.ThreadPoolExecutor(20) as pool:
        answers = list(pool.map(lambda _: server.client.post(path, json=body), range(20)))
    answered = time.time()
    assert [a.status_code for a in answers] == [200] * 20, [a.text for a in answers]
    assert len({a.text for a in answers}) == 1  # the first answer, word for word
    # Only the answer that made the move says when it committed (the server's clock).
    stamps = [float(a.headers["x-committed-at"]) for a in answers if "x-committed-at" in a.headers]
    assert len(stamps) == 1 and sent <= stamps[0] <= answered
    version, match = stored(server.db, m["id"])
    assert version == m["version"] + 1
    assert [str(a) for a in match.hand.actions] == ["take"]
    # Later, the same id still gives that answer, and changes nothing.
    again = server.client.post(path, json=body)
    assert again.text == answers[0].text and "x-committed-at" not in again.headers
    assert stored(server.db, m["id"])[0] == version
    # Without an id, copies made on the same version: one applies, the rest are stale.
    m = answers[0].json()
    plain = {"version": m["version"], "action": "discard", "card": "KC"}
    with concurrent.futures.ThreadPoolExecutor(20) as pool:
        codes = sorted(
            pool.map(lambda _: server.client.post(path, json=plain).status_code, range(20))
        )
    assert codes == [200] + [409] * 19
    assert stored(server.db, m["id"])[0] == version + 1


def test_two_players_matches_never_mix(server: Server) -> None:
    alice, bob = httpx.Client(timeout=30), httpx.Client(timeout=30)
    url = server.url

    def play(client: httpx.Client, seed: int) -> tuple[str, list[dict[str, Any]]]:
        rng = random.Random(seed)
        m = new_match(client, url)
        seen = [m]
        for _ in range(25):
            if m["status"] != "playing":
                break
            r = step(client, url, m, rng)
            assert r.status_code == 200, r.text
            m = r.json()
            seen.append(m)
        return m["id"], seen

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        fa, fb = pool.submit(play, alice, 1), pool.submit(play, bob, 2)
        (a_id, a_seen), (b_id, b_seen) = fa.result(), fb.result()
    assert a_id != b_id
    assert {m["id"] for m in a_seen} == {a_id} and {m["id"] for m in b_seen} == {b_id}
    assert alice.cookies.get(SEAT_COOKIE) != bob.cookies.get(SEAT_COOKIE)
    # Each history holds the player's own match only; neither may read or act in the other's.
    assert a_id in {h["id"] for h in alice.get(url + "/api/matches").json()}
    assert a_id not in {h["id"] for h in bob.get(url + "/api/matches").json()}
    b_last = b_seen[-1]
    # A finished match is open to anybody; one still in play is Alice's alone.
    if a_seen[-1]["status"] == "playing":
        _error(bob.get(f"{url}/api/matches/{a_id}"), 403, "not_your_seat")
    # Alice may not act in Bob's match (random play can end a match early:
    # then there is no move left to try, and the version must still stand).
    if b_last["status"] == "playing":
        body = move(b_last, random.Random(0)) or {"version": b_last["version"]}
        path = "actions" if "action" in body else "next-hand"
        _error(alice.post(f"{url}/api/matches/{b_id}/{path}", json=body), 403, "not_your_seat")
    assert stored(server.db, b_id)[0] == b_last["version"]


def test_the_seat_cookie_is_secret_httponly_and_samesite(live: Server) -> None:
    fresh = httpx.Client(timeout=30)
    r = fresh.post(live.url + "/api/commitments")
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SEAT_COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    token = fresh.cookies[SEAT_COOKIE]
    assert len(token) >= 43
    # A second request keeps the seat (no new cookie); a forged token is no seat.
    assert "set-cookie" not in fresh.get(live.url + "/api/matches").headers
    m = new_match(fresh, live.url)
    forged = httpx.Client(timeout=30, cookies={SEAT_COOKIE: token[:-2] + "xx"})
    _error(forged.get(f"{live.url}/api/matches/{m['id']}"), 403, "not_your_seat")
    # The database keeps only the token's hash.
    row_text = json.dumps(stored(live.db, m["id"])[1].settings.to_dict())
    from ginrummy.web.storage import MatchStore

    row = MatchStore.open(live.db).get(m["id"])
    assert row is not None and token not in row.owner and token not in row.meta
    assert row_text


def test_cross_site_writes_are_refused(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    path = f"{server.url}/api/matches/{m['id']}/actions"
    body = {"version": m["version"], "action": "take"}
    for headers in (
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "http://evil.example"},
        {"Origin": "http://127.0.0.1:1"},
    ):
        _error(server.client.post(path, json=body, headers=headers), 403, "cross_site")
    assert stored(server.db, m["id"])[0] == m["version"]
    ok = server.client.post(path, json=body, headers={"Sec-Fetch-Site": "same-origin"})
    assert ok.status_code == 200
    # Reading is not a state change: a link from another site still opens the page.
    page = httpx.get(server.url + "/", headers={"Sec-Fetch-Site": "cross-site"})
    assert page.status_code == 200


def test_too_many_requests_get_a_clear_429(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINRUMMY_RATE_LIMIT", "1/5")
    srv = Server(db_url).start()
    try:
        client = srv.client
        codes = [client.get(srv.url + "/api/matches").status_code for _ in range(8)]
        assert codes[:5] == [200] * 5 and codes[-1] == 429, codes
        r = client.get(srv.url + "/api/matches")
        assert "try again" in _error(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1
        # Another player is not slowed down by the first.
        assert httpx.get(srv.url + "/api/matches").status_code == 200
    finally:
        srv.stop()


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/api/matches", {"settings": {"match_to": 5}}, 422, "setting_not_whole"),
        ("/api/matches", {"settings": {"match_to": "lots"}}, 422, "bad_request"),
        ("/api/matches", {"settings": {"gin_bonus": -1}}, 422, "setting_not_whole"),
        ("/api/matches", {"settings": {"knocking": "sometimes"}}, 422, "bad_request"),
        ("/api/matches", {"commitment": "xyz", "client_seed": "a"}, 422, "bad_request"),
        ("/api/matches", {"commitment": "a" * 64, "client_seed": "a"}, 409, "bad_commitment"),
        ("/api/matches", {"client_seed": "has spaces"}, 422, "bad_request"),
        ("/api/matches", {"client_seed": "x" * 129}, 422, "bad_request"),
        ("/api/matches", [1, 2], 422, "bad_request"),
        ("/api/matches/nope/actions", {"version": 1, "action": "take"}, 404, "unknown_match"),
        ("/api/matches/nope/next-hand", {"version": 1}, 404, "unknown_match"),
        ("/api/matches/nope/proofs", None, 404, "unknown_match"),
    ],
)
def test_bad_input_gets_a_clear_4xx(
    live: Server, path: str, body: Any, status: int, code: str
) -> None:
    if body is None:
        r = live.client.get(live.url + path)
    else:
        r = live.client.post(live.url + path, json=body)
    _error(r, status, code)


def test_bad_moves_get_a_clear_4xx_and_change_nothing(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    url = f"{server.url}/api/matches/{m['id']}"
    v = m["version"]
    cases = [
        ({"version": v, "action": "discard", "card": "ZZ"}, 422, "bad_card"),
        ({"version": v, "action": "discard", "card": 7}, 422, "bad_request"),
        ({"version": "one", "action": "take"}, 422, "bad_request"),
        ({"version": v, "action": "take", "card": "QD"}, 422, "unexpected_card"),
        ({"version": v, "action": "take", "action_id": "no spaces!"}, 422, "bad_request"),
        ({"version": v, "action": "stock"}, 409, "upcard_first"),
        ({"version": v + 5, "action": "take"}, 409, "stale_version"),
    ]
    for body, status, code in cases:
        _error(server.client.post(url + "/actions", json=body), status, code)
    _error(server.client.post(url + "/next-hand", json={"version": v}), 409, "hand_in_play")
    raw = server.client.post(
        url + "/actions", content=b'{"version": ', headers={"content-type": "application/json"}
    )
    _error(raw, 422, "bad_request")
    assert stored(server.db, m["id"])[0] == v
