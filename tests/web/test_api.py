"""The JSON API against a real server: the referee refuses what it should, leaks nothing."""

from __future__ import annotations

import concurrent.futures
from typing import Any

import httpx
import pytest

from ginrummy.records import match_from_dict
from ginrummy.web.storage import MatchStore

from ._support import JUNK, MELDED, SECOND_HAND, Server, card_codes, deck


def _post(server: Server, path: str, body: dict[str, Any]) -> httpx.Response:
    return server.client.post(server.url + path, json=body, timeout=30)


def _act(
    server: Server, match: dict[str, Any], action: str, card: str | None = None
) -> httpx.Response:
    body: dict[str, Any] = {"version": match["version"], "action": action}
    if card is not None:
        body["card"] = card
    return _post(server, f"/api/matches/{match['id']}/actions", body)


def _error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    message: str = body["error"]["message"]
    assert message
    return message


def test_a_match_starts_at_the_upcard_offer_with_the_players_cards(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    t = m["table"]
    assert sorted(t["hand"]) == sorted(MELDED.split())
    assert t["phase"] == "upcard" and t["to_act"] == 0
    assert t["pile"] == ["QD"]
    assert t["stock_count"] == 31 and t["opponent_count"] == 10
    assert t["legal"]["take"] and t["legal"]["pass"]
    assert t["arrangement"]["points"] == 10


def test_an_illegal_action_is_refused_with_the_reason(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    message = _error(_act(server, m, "discard", "KC"), 409, "upcard_first")
    assert "upcard" in message
    # Nothing changed: the same version still takes the upcard.
    assert _act(server, m, "take").status_code == 200


def test_throwing_the_card_just_taken_from_the_pile_is_refused(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    m = _act(server, m, "take").json()
    message = _error(_act(server, m, "discard", "QD"), 409, "card_just_taken")
    assert "pile" in message


def test_a_stale_version_is_refused_and_changes_nothing(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    after = _act(server, m, "take").json()
    assert after["version"] == m["version"] + 1
    # The same click again (made on the old version) is refused...
    _error(_act(server, m, "take"), 409, "stale_version")
    _error(_act(server, m, "pass"), 409, "stale_version")
    # ...and the match is where the first click left it.
    now = server.client.get(f"{server.url}/api/matches/{m['id']}").json()
    assert now["version"] == after["version"]
    assert now["table"] == after["table"]


def test_a_bad_card_name_is_refused_naming_it(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    m = _act(server, m, "take").json()
    message = _error(_act(server, m, "discard", "1X"), 422, "bad_card")
    assert "'1X'" in message
    _error(_act(server, m, "discard"), 422, "missing_card")


def test_an_unknown_match_is_a_404(server: Server) -> None:
    r = httpx.get(server.url + "/api/matches/no-such-match")
    _error(r, 404, "unknown_match")
    r = _post(server, "/api/matches/no-such-match/actions", {"version": 1, "action": "take"})
    _error(r, 404, "unknown_match")


def test_malformed_requests_get_a_clear_4xx_not_a_500(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    url = f"{server.url}/api/matches/{m['id']}/actions"
    _error(httpx.post(url, json={"version": 1, "action": "fold"}), 422, "bad_request")
    _error(httpx.post(url, json={"action": "take"}), 422, "bad_request")
    _error(
        httpx.post(url, content=b"{not json", headers={"content-type": "application/json"}),
        422,
        "bad_request",
    )
    r = _post(server, "/api/matches", {"settings": {"match_to": 5}})
    assert "match_to" in _error(r, 422, "setting_not_whole")
    assert r.json()["error"]["params"] == {"name": "match_to", "low": 10, "high": 1000, "value": 5}
    r = _post(server, "/api/matches", {"settings": {"jokers": True}})
    assert "jokers" in _error(r, 422, "bad_request")
    _error(httpx.get(server.url + "/api/nothing-here"), 404, "not_found")


def test_a_request_from_another_site_is_refused(server: Server) -> None:
    r = httpx.post(server.url + "/api/matches", json={}, headers={"Origin": "http://evil.example"})
    _error(r, 403, "cross_site")
    r = httpx.post(server.url + "/api/matches", json={}, headers={"Sec-Fetch-Site": "cross-site"})
    _error(r, 403, "cross_site")


def _hidden_cards(db: str, match_id: str) -> set[str]:
    """What the player may not know: the computer's concealed cards and the stock."""
    row = MatchStore.open(db).get(match_id)
    assert row is not None
    match = match_from_dict(row.record)
    hand = match.hand
    view = match.view(1)
    shown = set(view.pile) | set(match.view(0).opponent_pile_cards)
    concealed = {str(c) for c in hand.cards_of(1) if c not in shown}
    stock = {str(c) for c in hand.deck[52 - hand.stock_count :]}
    return concealed | stock


def test_no_response_during_a_hand_holds_the_other_hand_or_the_stock(server: Server) -> None:
    m = server.new_match([deck(JUNK, MELDED, "QD")])
    responses = [m]
    m = _act(server, m, "pass").json()
    responses.append(m)
    for _ in range(4):
        t = m["table"]
        if t["phase"] == "over" or m["status"] == "over":
            break
        if t["phase"] == "upcard":
            m = _act(server, m, "pass").json()
        elif t["phase"] == "draw":
            m = _act(server, m, "stock").json()
        else:
            m = _act(server, m, "discard", t["legal"]["discard"][-1]).json()
        responses.append(m)
        responses.append(server.client.get(f"{server.url}/api/matches/{m['id']}").json())
        responses.append(server.client.get(f"{server.url}/api/matches").json())
        if m["table"]["phase"] != "over":
            hidden = _hidden_cards(server.db, m["id"])
            assert len(hidden) >= 10
            for response in responses[-3:]:
                leaked = card_codes(response) & hidden
                assert not leaked, f"the response shows {leaked}"
            assert "deck" not in str(responses[-1]) and "record" not in str(responses[-1])


def test_the_computer_answers_in_the_same_response(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    m = _act(server, m, "take").json()
    m = _act(server, m, "discard", "KC").json()
    kinds = [(e["who"], e["kind"]) for e in m["events"]]
    assert kinds[0] == (0, "discard")
    assert kinds[-1][0] == 1 and kinds[-1][1] in ("discard", "knock")
    assert (1, "stock") in kinds or (1, "pile") in kinds
    assert m["table"]["to_act"] == 0 and m["table"]["phase"] == "draw"
    # The computer's stock draw is reported face down.
    for e in m["events"]:
        if e["who"] == 1 and e["kind"] == "stock":
            assert e["card"] is None


def test_knocking_ends_the_hand_and_scores_it(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD", stock="AC AD"), SECOND_HAND])
    m = _act(server, m, "take").json()
    assert m["table"]["knock"] == {"card": "KC", "leaves": 10, "gin": False}
    m = _act(server, m, "discard", "KC").json()
    m = _act(server, m, "stock").json()
    assert m["table"]["knock"]["leaves"] == 1 and m["table"]["knock"]["card"] == "QD"
    m = _act(server, m, "knock").json()  # no card: the one that leaves least
    result = m["last_result"]
    assert result["kind"] == "knock" and result["winner"] == 0
    assert result["knocker_points"] == 1
    assert result["points"] == result["defender_points"] - 1
    assert m["scores"] == [result["points"], 0]
    assert m["awaiting_deal"] is True
    assert len(m["table"]["opponent_hand"]) == 10
    m2 = _post(server, f"/api/matches/{m['id']}/next-hand", {"version": m["version"]}).json()
    assert m2["hand_number"] == 2 and m2["table"]["phase"] in ("upcard", "draw")
    assert len(m2["sheet"]) == 1


def test_two_servers_on_one_database_apply_a_move_once(server: Server) -> None:
    """Two processes (as behind a load balancer) get the same move at once: one wins."""
    other = Server(server.db).start()
    try:
        m = server.new_match([deck(MELDED, JUNK, "QD")])
        body = {"version": m["version"], "action": "take"}
        path = f"/api/matches/{m['id']}/actions"
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            futures = [
                pool.submit(server.client.post, s.url + path, json=body, timeout=30)
                for s in (server, other, server, other)
            ]
            codes = sorted(f.result().status_code for f in futures)
        assert codes == [200, 409, 409, 409]
        a = server.client.get(f"{server.url}/api/matches/{m['id']}").json()
        b = server.client.get(f"{other.url}/api/matches/{m['id']}").json()
        assert a["version"] == b["version"] == m["version"] + 1
        assert a["table"] == b["table"]
        assert len(a["table"]["hand"]) == 11
    finally:
        other.stop()


def test_history_lists_the_match_with_its_score(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")], settings={"match_to": 50})
    rows = server.client.get(server.url + "/api/matches").json()
    row = next(r for r in rows if r["id"] == m["id"])
    # The hand in progress is not a hand played.
    assert row["status"] == "playing" and row["scores"] == [0, 0] and row["hands"] == 0
    assert row["settings"]["match_to"] == 50
    assert row["seats"] == m["seats"] and row["winner"] is None


def test_history_counts_a_hand_once_it_is_over(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD", stock="AC AD"), deck(JUNK, MELDED, "9H")])
    for action, card in (("take", None), ("discard", "KC"), ("stock", None), ("knock", None)):
        m = _act(server, m, action, card).json()

    def hands() -> int:
        rows = server.client.get(server.url + "/api/matches").json()
        return int(next(r for r in rows if r["id"] == m["id"])["hands"])

    assert m["awaiting_deal"] and hands() == 1
    _post(server, f"/api/matches/{m['id']}/next-hand", {"version": m["version"]})
    assert hands() == 1  # the second hand is dealt, not played


def test_a_test_modes_fixed_deal_says_it_was_not_dealt_under_a_commitment(
    server: Server,
) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD"), SECOND_HAND])
    proof = m["fairness"]["deal"]
    assert proof["fixed"] is True and proof["committed"] is False
    assert proof["commitment"] is None and proof["server_seed"] is None


def test_the_seat_holder_deletes_an_unfinished_match_and_no_one_else_can(
    server: Server,
) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    url = f"{server.url}/api/matches/{m['id']}"
    with httpx.Client(timeout=30) as stranger:  # another browser: another seat token
        stranger.get(server.url + "/api/matches")
        _error(stranger.delete(url), 403, "not_your_seat")
    assert server.client.get(url).status_code == 200  # nothing was deleted
    r = server.client.delete(url)
    assert r.status_code == 204 and r.content == b""
    _error(server.client.get(url), 404, "unknown_match")
    assert m["id"] not in {s["id"] for s in server.client.get(server.url + "/api/matches").json()}
    _error(server.client.delete(url), 404, "unknown_match")
    _error(_act(server, m, "take"), 404, "unknown_match")


def test_a_finished_match_stays_in_the_history(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")], settings={"match_to": 10})
    m = _act(server, m, "take").json()
    m = _act(server, m, "knock", "KC").json()
    assert m["status"] == "over"
    url = f"{server.url}/api/matches/{m['id']}"
    assert "finished" in _error(server.client.delete(url), 409, "match_over")
    assert server.client.get(url).json()["status"] == "over"


def test_deck_orders_cannot_be_fixed_outside_test_mode(db_url: str) -> None:
    srv = Server(db_url).start(test_mode=False)
    try:
        r = _post(srv, "/api/matches", {"test_decks": [deck(MELDED, JUNK, "QD")]})
        _error(r, 403, "test_mode_off")
        seats = [{"kind": "person"}, {"kind": "bot", "bot": "easy"}]
        r = _post(srv, "/api/matches", {"seats": seats})
        assert r.status_code == 201
        assert r.json()["seats"][1] == {
            "index": 1,
            "kind": "bot",
            "bot": "easy",
            "name": None,
            "open": False,
            "connected": False,
        }
    finally:
        srv.stop()


@pytest.mark.parametrize("page", ["/", "/history", "/match/anything", "/static/app.js"])
def test_pages_carry_a_strict_content_security_policy(server: Server, page: str) -> None:
    r = httpx.get(server.url + page)
    assert r.status_code == 200
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp


TWO_WAYS = "3C 3D 3H 2H 4H 9S TS JS QS KC"
"""Taking the K♠ and throwing the K♣ leaves 6 either way: the 3s as a set (2♥ 4♥
loose) or 2♥ 3♥ 4♥ as a run (3♣ 3♦ loose)."""
NO_MELDS = "AC 5C 7C JC QC QH 2D 6D 8D TD"


def test_the_knocker_chooses_among_equally_good_layouts(server: Server) -> None:
    m = server.new_match([deck(TWO_WAYS, NO_MELDS, "KS")])
    m = _act(server, m, "take").json()
    choice = next(k for k in m["table"]["knock_layouts"] if k["card"] == "KC")
    layouts = choice["layouts"]
    assert len(layouts) == 2 and {lay["points"] for lay in layouts} == {6}
    run = next(lay for lay in layouts if ["2H", "3H", "4H"] in [x["cards"] for x in lay["melds"]])
    # Melds that are not a least-deadwood layout are refused.
    bad = {
        "version": m["version"],
        "action": "knock",
        "card": "KC",
        "melds": [["3C", "3D", "3H"], ["9S", "TS", "JS"]],
    }
    message = _error(_post(server, f"/api/matches/{m['id']}/actions", bad), 409, "melds_not_best")
    assert "least-deadwood" in message
    body = {
        "version": m["version"],
        "action": "knock",
        "card": "KC",
        "melds": [x["cards"] for x in run["melds"]],
    }
    r = _post(server, f"/api/matches/{m['id']}/actions", body)
    assert r.status_code == 200, r.text
    result = r.json()["last_result"]
    assert ["2H", "3H", "4H"] in [x["cards"] for x in result["knocker_melds"]]
    assert sorted(result["knocker_deadwood"]) == ["3C", "3D"]


def test_melds_are_only_for_a_knock_with_a_named_card(server: Server) -> None:
    m = server.new_match([deck(TWO_WAYS, NO_MELDS, "KS")])
    m = _act(server, m, "take").json()
    url = f"/api/matches/{m['id']}/actions"
    melds = [["3C", "3D", "3H"]]
    _error(
        _post(
            server,
            url,
            {"version": m["version"], "action": "discard", "card": "KC", "melds": melds},
        ),
        422,
        "unexpected_melds",
    )
    _error(
        _post(server, url, {"version": m["version"], "action": "knock", "melds": melds}),
        422,
        "missing_card",
    )
    _error(
        _post(
            server,
            url,
            {"version": m["version"], "action": "knock", "card": "KC", "melds": [["3C", "ZZ"]]},
        ),
        422,
        "bad_card",
    )


def test_the_record_download_holds_finished_hands_only(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD", stock="AC AD")])
    url = f"{server.url}/api/matches/{m['id']}/record"
    _error(server.client.get(url), 409, "nothing_finished")
    for action, card in (("take", None), ("discard", "KC"), ("stock", None), ("knock", None)):
        m = _act(server, m, action, card).json()
    r = server.client.get(url)
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    finished = match_from_dict(r.json())
    assert [e.points for e in finished.sheet] == [m["last_result"]["points"]]
    assert r.json()["players"] == [{"kind": "person"}, {"kind": "bot", "bot": "medium"}]
    # Once the next hand is dealt, its deck (the stock's order) stays out of the record.
    _post(server, f"/api/matches/{m['id']}/next-hand", {"version": m["version"]})
    r = server.client.get(url)
    assert len(r.json()["hands"]) == 1
    assert match_from_dict(r.json()) == finished
    # Like the match itself, a record of a match in play is its player's alone.
    stranger = httpx.Client(timeout=30)
    _error(stranger.get(url), 403, "not_your_seat")
