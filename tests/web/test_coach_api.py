"""The coach over the API, on a real server and both databases: reviews, hints, statistics."""

from __future__ import annotations

import csv
import io
import time
from pathlib import Path
from typing import Any

import httpx

from ._support import JUNK, Server, card_codes, deck

GIN_AT_HAND = "AS 2S 3S 4D 5D 6D 9C 9D 9S KC"
"""Nine melded cards and the K♣: the upcard 4♠ would make gin at once."""


def _act(server: Server, m: dict[str, Any], action: str, card: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"version": m["version"], "action": action}
    if card is not None:
        body["card"] = card
    r = server.client.post(f"{server.url}/api/matches/{m['id']}/actions", json=body, timeout=30)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def passed_gin(server: Server, **settings: Any) -> dict[str, Any]:
    """A hand where the player passes an upcard that makes gin, then knocks at once."""
    m = server.new_match(
        [deck(GIN_AT_HAND, JUNK, "4S", "QH")], settings={"match_to": 10, **settings}
    )
    m = _act(server, m, "pass")
    # Whether the computer passed too or took the 4♠ and threw, the player draws next.
    assert m["table"]["phase"] == "draw" and m["table"]["to_act"] == 0
    m = _act(server, m, "stock")
    return _act(server, m, "knock")


def review_of(server: Server, match_id: str, hand: int = 1) -> dict[str, Any]:
    """Poll the review until it is done (each answer before says how far it got)."""
    url = f"{server.url}/api/matches/{match_id}/hands/{hand}/review"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        r = server.client.get(url, timeout=30)
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["status"] == "done":
            review: dict[str, Any] = body["review"]
            return review
        assert body["status"] == "running", body
        assert 0 <= body["done"] <= body["total"]
        time.sleep(0.2)
    raise AssertionError("the review did not finish in two minutes")


def test_passing_the_upcard_that_makes_gin_is_a_marked_mistake_and_the_review_is_kept(
    server: Server,
) -> None:
    m = passed_gin(server)
    assert m["table"]["phase"] == "over"
    review = review_of(server, m["id"])
    decisions = review["review"]["decisions"]
    first = decisions[0]
    assert first["player"] == 0 and first["action"] == "pass" and first["hard"] == "take"
    assert first["mistake"] and first["cost"] > 2 and first["interval"][0] > 0
    assert first["reason"] == {"code": "passed_meld", "card": "4S"}
    # Both hands at every step, and the end laid out.
    steps = review["steps"]
    assert steps[0]["action"] == "pass" and steps[-1]["action"] is None
    assert steps[-2]["player"] == 0 and steps[-2]["action"].startswith("knock")
    assert sorted(c for meld in steps[0]["hands"][1]["melds"] for c in meld) == []
    assert sorted(steps[0]["hands"][1]["deadwood"]) == sorted(JUNK.split())
    # Asked again, the stored review comes back at once, the same.
    r = server.client.get(f"{server.url}/api/matches/{m['id']}/hands/1/review", timeout=30)
    again = r.json()
    assert again["status"] == "done" and again["review"] == review


def test_a_review_of_a_hand_in_play_or_of_another_players_match_is_refused(
    server: Server,
) -> None:
    m = server.new_match([deck(GIN_AT_HAND, JUNK, "4S", "QH")])
    url = f"{server.url}/api/matches/{m['id']}/hands/1/review"
    r = server.client.get(url, timeout=30)
    assert r.status_code == 409 and r.json()["error"]["code"] == "hand_in_play"
    assert not card_codes(r.json()) - set(GIN_AT_HAND.split()) - {"4S"}
    r = server.client.get(f"{server.url}/api/matches/{m['id']}/hands/2/review", timeout=30)
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_hand"
    over = passed_gin(server)
    with httpx.Client(timeout=30) as stranger:
        r = stranger.get(f"{server.url}/api/matches/{over['id']}/hands/1/review")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat"


def test_a_hint_says_what_hard_would_do_and_is_counted_only_when_hints_are_on(
    server: Server,
) -> None:
    m = server.new_match([deck(GIN_AT_HAND, JUNK, "4S", "QH")], settings={"hints": True})
    assert m["settings"]["hints"] is True
    r = server.client.post(f"{server.url}/api/matches/{m['id']}/hint", timeout=30)
    assert r.status_code == 200, r.text
    assert r.json() == {
        "hand": 1,
        "kind": "upcard",
        "action": "take",
        "reason": {"code": "passed_meld", "card": "4S"},
    }
    off = server.new_match([deck(GIN_AT_HAND, JUNK, "4S", "QH")])
    assert off["settings"]["hints"] is False
    r = server.client.post(f"{server.url}/api/matches/{off['id']}/hint", timeout=30)
    assert r.status_code == 409 and r.json()["error"]["code"] == "hints_off"
    stats = server.client.get(f"{server.url}/api/statistics", timeout=30).json()
    assert stats["hints"] >= 1 and stats["hints_by_match"][m["id"]] == 1


def test_the_statistics_count_matches_results_reviews_and_export_csv(server: Server) -> None:
    with httpx.Client(timeout=30) as player:
        fresh = Server(server.db, port=server.port)
        fresh._client = player
        matches = [passed_gin(fresh), passed_gin(fresh)]
        review_of(fresh, matches[0]["id"])
        stats = player.get(f"{server.url}/api/statistics").json()
        assert stats["matches"] == 2 and stats["finished"] == 2 and stats["won"] == 2
        assert stats["hands"] == 2 and stats["points_per_hand"] > 0
        assert stats["win_share"]["share"] == 1 and 0 < stats["win_share"]["low"] < 1
        assert stats["rates"]["knock_for"] + stats["rates"]["gin_for"] == 1
        assert stats["knock_deadwood"] is not None and stats["knock_deadwood"] <= 10
        (reviewed,) = stats["reviewed"]
        assert reviewed["match"] == matches[0]["id"] and reviewed["mistakes"] >= 1
        text = player.get(f"{server.url}/api/statistics.csv").text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {r["match"] for r in rows} == {m["id"] for m in matches}
    assert sum(int(r["mistakes"]) for r in rows) == reviewed["mistakes"]


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (from /proc: Linux)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z" and int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_server_killed_with_sigkill_leaves_no_review_process_behind(db_url: str) -> None:
    server = Server(db_url).start()
    try:
        assert server.proc is not None
        review_of(server, passed_gin(server)["id"])
        workers = _children(server.proc.pid)
        assert len(workers) >= 2, workers  # the review's processes (and their tracker)
        server.proc.kill()
        server.proc.wait()
        deadline = time.monotonic() + 15
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [p for p in workers if _alive(p)]
    finally:
        server.stop()
