"""A server killed with SIGKILL mid-match, several times: every match is intact and playable.

Several players play at once while the server process is killed at random
moments. After each restart every match must load, replay from its record,
stand at the last move its player saw answered (or the one after, if the
kill came after the commit but before the answer), and play on.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from typing import Any

import httpx
import pytest

from ._support import Server
from .test_trust_support import new_match, step, stored

PLAYERS = 4
KILLS = 3


def _play(
    server: list[Server],
    client: httpx.Client,
    m: dict[str, Any],
    seen: dict[str, int],
    stop: threading.Event,
    seed: int,
) -> None:
    rng = random.Random(seed)
    while not stop.is_set() and m["status"] == "playing":
        try:
            r = step(client, server[0].url, m, rng)
        except httpx.HTTPError:
            time.sleep(0.05)  # the server is down: wait for it
            continue
        if r.status_code == 200:
            m = r.json()
            seen[m["id"]] = m["version"]
        else:
            time.sleep(0.05)
            try:
                fresh = client.get(f"{server[0].url}/api/matches/{m['id']}")
            except httpx.HTTPError:
                continue
            if fresh.status_code == 200:
                m = fresh.json()


def test_sigkill_mid_match_loses_nothing_and_play_goes_on(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GINRUMMY_RATE_LIMIT", "1000/1000")  # the players are machines
    rng = random.Random(2024)
    current = [Server(db_url).start(test_mode=False)]
    clients = [httpx.Client(timeout=10) for _ in range(PLAYERS)]
    matches = [new_match(c, current[0].url, {"match_to": 500}) for c in clients]
    seen = {m["id"]: m["version"] for m in matches}
    start = sum(seen.values())
    try:
        for kill in range(KILLS):
            stop = threading.Event()
            threads = [
                threading.Thread(
                    target=_play, args=(current, c, m, seen, stop, kill * 10 + i), daemon=True
                )
                for i, (c, m) in enumerate(zip(clients, matches, strict=True))
            ]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(0.3, 1.2))
            proc = current[0].proc
            assert proc is not None
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            current[0].proc = None
            stop.set()
            for t in threads:
                t.join(timeout=30)
            current[0] = Server(db_url).start(test_mode=False)
            for i, c in enumerate(clients):
                match_id = matches[i]["id"]
                version, replayed = stored(db_url, match_id)
                # Nothing answered was lost; at most the one move in flight was kept.
                assert seen[match_id] <= version <= seen[match_id] + 1, (seen[match_id], version)
                r = c.get(f"{current[0].url}/api/matches/{match_id}")
                assert r.status_code == 200, r.text
                matches[i] = r.json()
                assert matches[i]["version"] == version
                assert matches[i]["hand_number"] == len(replayed.hands)
                seen[match_id] = version
        assert sum(seen.values()) - start >= KILLS * PLAYERS  # kills came mid-play
        # Every match plays on after the last restart, and the moves made count.
        total_moves = 0
        for c, m in zip(clients, matches, strict=True):
            before = m["version"]
            for _ in range(5):
                if m["status"] != "playing":
                    break
                r = step(c, current[0].url, m, rng)
                assert r.status_code == 200, r.text
                m = r.json()
            _, replayed = stored(db_url, m["id"])
            total_moves += sum(len(h.actions) for h in replayed.hands)
            assert m["version"] > before or m["status"] == "over"
        assert total_moves > PLAYERS * 5
    finally:
        current[0].stop()
