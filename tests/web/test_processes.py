"""Several server processes on one PostgreSQL database.

Real ``ginrummy serve`` processes (two of them, or one with ``--workers 2``)
share the test database, and a player's requests go to either: a move made in
one must be the one the other sees and builds on, never lost nor doubled; a
limit counted in one holds in the other; killing one with SIGKILL mid-play
loses no move it acknowledged, and the other goes on serving. Over SQLite,
more than one worker is refused at start-up.
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Coroutine, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from ginrummy.records import match_from_dict
from ginrummy.web.limits import SharedLimiter
from ginrummy.web.security import SEAT_COOKIE
from ginrummy.web.storage import MatchStore

from ._support import ROOT, Server, free_port

REQUIRE_ALL = os.environ.get("GINRUMMY_TEST_ALL") == "1"


@pytest.fixture(scope="module")
def pg() -> str:
    """The PostgreSQL test database (these tests are about sharing one)."""
    url = os.environ.get("GINRUMMY_TEST_PG")
    if not url:
        reason = "GINRUMMY_TEST_PG is not set: no PostgreSQL to test against"
        if REQUIRE_ALL:
            pytest.fail(f"{reason} (the test command runs every test)")
        pytest.skip(reason)
    return url


def _start_pair(pg: str, settings: Mapping[str, str] = {}) -> tuple[Server, Server]:
    return Server(pg).start(settings=settings), Server(pg).start(settings=settings)


@pytest.fixture(scope="module")
def pair(pg: str) -> Iterator[tuple[Server, Server]]:
    """Two server processes on the one database."""
    a, b = _start_pair(pg)
    yield a, b
    a.stop()
    b.stop()


def _player() -> httpx.Client:
    """A player's client; the seat cookie it is given goes to either server (same host)."""
    return httpx.Client(timeout=30)


def _random_move(m: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A random legal move for the seat the answer ``m`` was written for: (path, body)."""
    body: dict[str, Any] = {"version": m["version"], "action_id": secrets.token_hex(8)}
    if m["awaiting_deal"]:
        return "next-hand", body
    legal = m["table"]["legal"]
    if legal["take"] or legal["pass"]:
        body["action"] = rng.choice(["take", "pass"] if legal["take"] else ["pass"])
    elif legal["stock"] or legal["pile"]:
        body["action"] = "pile" if legal["pile"] and rng.random() < 0.3 else "stock"
    elif legal["big_gin"]:
        body["action"] = "big_gin"
    elif legal["knock"] and rng.random() < 0.7:
        body["action"] = "knock"
        body["card"] = legal["knock"][0]["card"]
    else:
        body["action"] = "discard"
        body["card"] = rng.choice(legal["discard"])
    return "actions", body


def _stored(pg: str, match_id: str) -> tuple[int, list[str]]:
    """The stored version of a match and seat 0's hand, from its record replayed."""
    store = MatchStore.open(pg, pool_size=1)
    try:
        row = store.get(match_id)
        assert row is not None, f"match {match_id} is not in the database"
        hand = sorted(str(c) for c in match_from_dict(row.record).view(0).hand)
        return row.version, hand
    finally:
        store.close()


def test_two_processes_play_one_match_in_turns_without_losing_or_doubling_a_move(
    pair: tuple[Server, Server], pg: str
) -> None:
    a, b = pair
    rng = random.Random(12)
    with _player() as player:
        r = player.post(a.url + "/api/matches", json={"settings": {"match_to": 1000}})
        assert r.status_code == 201, r.text
        m = r.json()
        servers = [a, b]
        for turn in range(36):
            here, there = servers[turn % 2], servers[(turn + 1) % 2]
            path, body = _random_move(m, rng)
            r = player.post(f"{here.url}/api/matches/{m['id']}/{path}", json=body)
            assert r.status_code == 200, r.text
            moved = r.json()
            assert moved["version"] == m["version"] + 1
            # The other process sees exactly this version, the same cards.
            seen = player.get(f"{there.url}/api/matches/{m['id']}").json()
            assert seen["version"] == moved["version"]
            assert sorted(seen["table"]["hand"]) == sorted(moved["table"]["hand"])
            # The same request again, to the other process: its first answer, applied once.
            again = player.post(f"{there.url}/api/matches/{m['id']}/{path}", json=body)
            assert again.status_code == 200 and again.json()["version"] == moved["version"]
            # A move made on the version before, sent to the process that kept that
            # version: refused as stale, nothing changed.
            stale = {**_random_move(m, rng)[1], "version": m["version"]}
            r = player.post(f"{there.url}/api/matches/{m['id']}/{path}", json=stale)
            assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
            m = moved
        version, hand = _stored(pg, m["id"])
        assert version == 1 + 36 == m["version"]
        assert hand == sorted(m["table"]["hand"])


def _at_once(
    cookies: dict[str, str], requests: list[tuple[str, dict[str, Any]]]
) -> list[httpx.Response]:
    """POST each (url, body) from its own thread, all let go at the same moment."""
    answers: list[httpx.Response] = []
    start = threading.Barrier(len(requests))

    def send(url: str, body: dict[str, Any]) -> None:
        with httpx.Client(timeout=30, cookies=cookies) as c:
            start.wait()
            answers.append(c.post(url, json=body))

    threads = [threading.Thread(target=send, args=r) for r in requests]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_the_same_version_moved_in_both_processes_at_once_is_applied_once(
    pair: tuple[Server, Server], pg: str
) -> None:
    a, b = pair
    rng = random.Random(5)
    with _player() as player:
        m = player.post(a.url + "/api/matches", json={"settings": {"match_to": 1000}}).json()
        cookies = {SEAT_COOKIE: player.cookies[SEAT_COOKIE]}
        for _ in range(8):
            path, first = _random_move(m, rng)
            second = {**first, "action_id": secrets.token_hex(8)}
            answers = _at_once(
                cookies,
                [
                    (f"{a.url}/api/matches/{m['id']}/{path}", first),
                    (f"{b.url}/api/matches/{m['id']}/{path}", second),
                ],
            )
            codes = sorted(r.status_code for r in answers)
            assert codes == [200, 409], [r.text for r in answers]
            refused = next(r for r in answers if r.status_code == 409)
            assert refused.json()["error"]["code"] == "stale_version"
            m = next(r for r in answers if r.status_code == 200).json()
        version, hand = _stored(pg, m["id"])
        assert version == m["version"] == 1 + 8
        assert hand == sorted(m["table"]["hand"])


def test_a_late_timed_seat_is_moved_once_by_two_processes_sweeping_and_asking_at_once(
    pair: tuple[Server, Server], pg: str
) -> None:
    a, b = pair
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "friend"}]
    clock = {"seconds": 60, "expiry": "timed"}
    with _player() as ann, _player() as bob:
        m = ann.post(a.url + "/api/matches", json={"seats": seats, "clock": clock}).json()
        code = m["invite"]["code"]
        r = bob.post(f"{b.url}/api/invites/{code}/join", json={"accept_clock": True})
        assert r.status_code == 200, r.text
        store = MatchStore.open(pg, pool_size=1)
        try:
            with store._cursor(write=True) as cur:  # the minute is over, as if waited
                cur.execute(
                    "UPDATE ginrummy_matches SET deadline = %s WHERE id = %s",
                    ("2000-01-01T00:00:00.000+00:00", m["id"]),
                )
            # Both processes' sweeps and four requests, two to each process, find it late.
            urls = [f"{u}/api/matches/{m['id']}" for u in (a.url, b.url, a.url, b.url)]
            with ThreadPoolExecutor(4) as pool:
                answers = list(pool.map(lambda u: ann.get(u), urls))
            assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
            assert {r.json()["version"] for r in answers} == {m["version"] + 1}
            time.sleep(2.5)  # each process's sweep has looked again meanwhile
            row = store.get(m["id"])
            assert row is not None and row.version == m["version"] + 1
            assert row.record["clock"]["auto"] == [[1, 1]], "one pass of the upcard, once"
            assert row.deadline > "2000", "the other seat's turn has its own deadline"
        finally:
            store.close()


def test_new_players_from_one_address_are_counted_by_both_processes(pg: str) -> None:
    # Each process alone would let 4 new players in from this address: 8 in all.
    a, b = _start_pair(pg, {"GINRUMMY_SEATS_PER_ADDRESS": "4/3600"})
    try:
        # An address of this run only (the servers trust 127.0.0.1 to say who the client
        # is, as they would trust a reverse proxy), so an earlier run's count is not ours.
        address = {"X-Forwarded-For": f"2001:db8::{secrets.token_hex(2)}:{secrets.token_hex(2)}"}
        codes = []
        for i in range(8):
            server = (a, b)[i % 2]
            r = httpx.post(server.url + "/api/commitments", headers=address, timeout=30)
            codes.append(r.status_code)
            if r.status_code == 429:
                assert r.json()["error"]["code"] == "rate_limited"
                assert "new players" in r.json()["error"]["message"]
        assert codes == [201] * 4 + [429] * 4
        # Another address is not held back.
        other = {"X-Forwarded-For": f"2001:db8::{secrets.token_hex(2)}:{secrets.token_hex(2)}"}
        assert httpx.post(b.url + "/api/commitments", headers=other).status_code == 201
    finally:
        a.stop()
        b.stop()


def test_a_seats_rate_limit_is_counted_by_both_processes(pg: str) -> None:
    # A burst of 6 requests, then one every 100 s: each process alone would allow 12.
    a, b = _start_pair(pg, {"GINRUMMY_RATE_LIMIT": "0.01/6"})
    try:
        with _player() as player:
            first = player.post(a.url + "/api/commitments")  # gives the seat
            assert first.status_code == 201
            codes = [player.get((b, a)[i % 2].url + "/api/matches").status_code for i in range(8)]
            assert codes == [200] * 6 + [429] * 2
        # Another player (seat) is not held back by this one's count.
        with _player() as other:
            assert other.post(b.url + "/api/commitments").status_code == 201
            assert other.get(a.url + "/api/matches").status_code == 200
    finally:
        a.stop()
        b.stop()


@dataclass
class _Mover:
    """A player in the crash test: its match, what it was last told, where it plays."""

    client: httpx.Client
    rng: random.Random
    servers: list[Server]
    match: dict[str, Any] = field(default_factory=dict)
    acknowledged: int = 0
    switched: int = 0
    failures: list[str] = field(default_factory=list)

    def send(self, method: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        """The request to the first server that answers (a dead one is left for good)."""
        while True:
            server = self.servers[0]
            try:
                return self.client.request(method, server.url + path, json=body)
            except httpx.TransportError:
                if len(self.servers) == 1:
                    raise
                # As a reverse proxy would: the same request (same action id) to the other.
                self.servers = self.servers[1:]
                self.switched += 1

    def play(self, moves: int) -> None:
        try:
            r = self.send("POST", "/api/matches", {"settings": {"match_to": 1000}})
            assert r.status_code == 201, r.text
            self.match = r.json()
            for _ in range(moves):
                path, body = _random_move(self.match, self.rng)
                r = self.send("POST", f"/api/matches/{self.match['id']}/{path}", body)
                assert r.status_code == 200, r.text
                self.match = r.json()
                self.acknowledged += 1
                time.sleep(self.rng.uniform(0.0, 0.05))
        except Exception as e:  # reported by the test, with the player's state
            self.failures.append(repr(e))


def test_killing_one_process_mid_play_loses_no_acknowledged_move(pg: str) -> None:
    a, b = _start_pair(pg)
    try:
        movers = [
            _Mover(_player(), random.Random(i), [a, b] if i % 2 else [b, a]) for i in range(10)
        ]
        # Each player's requests go to its first server until it dies, then to the other.
        threads = [threading.Thread(target=m.play, args=(40,)) for m in movers]
        for t in threads:
            t.start()
        # Mid-play: every player on the doomed process has made a few moves, none all 40.
        on_a = [m for m in movers if m.servers[0] is a]
        deadline = time.monotonic() + 60
        while min(m.acknowledged for m in on_a) < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert a.proc is not None
        a.proc.send_signal(signal.SIGKILL)
        a.proc.wait()
        for t in threads:
            t.join(timeout=60)
        assert not any(t.is_alive() for t in threads)
        assert [m.failures for m in movers] == [[] for _ in movers]
        # The players of the killed process went on playing on the other.
        assert sum(m.switched for m in movers) >= 1
        assert all(m.acknowledged == 40 for m in movers)
        for m in movers:
            version, hand = _stored(pg, m.match["id"])
            assert version == 1 + m.acknowledged == m.match["version"]
            assert hand == sorted(m.match["table"]["hand"])
            m.client.close()
    finally:
        a.stop()
        b.stop()


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _serve(*args: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "GINRUMMY_TEST_DECKS"}
    return subprocess.Popen(
        [sys.executable, "-m", "ginrummy.cli", "serve", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def _workers(pid: int) -> set[int]:
    """The uvicorn workers of the supervisor ``pid`` (its children running Python's
    multiprocessing ``spawn_main``, not the resource tracker)."""
    return {c for c in _children(pid) if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()}


def test_workers_serve_on_postgresql_replace_a_killed_one_and_stop_gracefully(pg: str) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = _serve("--workers", "2", "--port", str(port), "--db", pg)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            workers = _workers(proc.pid)
            time.sleep(0.2)
        assert len(workers) == 2
        with _player() as player:
            for _ in range(100):  # until both workers answer
                try:
                    if player.get(url + "/api/health").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.2)
            m = player.post(url + "/api/matches", json={"settings": {"match_to": 1000}}).json()
            # The supervisor may have replaced a worker it found slow to answer its health
            # check (a loaded machine): kill one that is there now.
            for _ in range(50):
                victim = min(_workers(proc.pid), default=0)
                try:
                    if victim:
                        os.kill(victim, signal.SIGKILL)
                        break
                except ProcessLookupError:
                    pass
                time.sleep(0.2)
            else:
                raise AssertionError("no worker to kill")
            # The other worker goes on serving (a new connection goes to a live one),
            # and the supervisor starts a worker in the dead one's place.
            rng = random.Random(3)
            for _ in range(10):
                path, body = _random_move(m, rng)
                with httpx.Client(timeout=30, cookies=player.cookies) as fresh:
                    r = fresh.post(f"{url}/api/matches/{m['id']}/{path}", json=body)
                assert r.status_code == 200, r.text
                m = r.json()
            while time.monotonic() < deadline and len(_workers(proc.pid)) < 2:
                time.sleep(0.2)
            replaced = _workers(proc.pid)
            assert len(replaced) == 2 and victim not in replaced
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        assert not any(Path(f"/proc/{w}").exists() for w in replaced)
        assert _stored(pg, m["id"])[0] == m["version"] == 1 + 10
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_more_than_one_worker_on_sqlite_is_refused_at_start(tmp_path: Path) -> None:
    proc = _serve("--workers", "2", "--port", str(free_port()), "--db", str(tmp_path / "g.db"))
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert b"--workers 2 needs PostgreSQL" in out
    assert b"Gin Rummy at" not in out
    assert not (tmp_path / "g.db").exists()


_T = TypeVar("_T")


def _run(work: Coroutine[Any, Any, _T]) -> _T:
    """Run a coroutine to its end on a thread of its own (this thread may hold the browser
    tests' event loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()


def test_a_limit_the_database_cannot_count_lets_the_request_through(pg: str) -> None:
    store = MatchStore.open(pg, pool_size=1)
    limiter = SharedLimiter(store, "test", rate=0.001, burst=1)
    key = secrets.token_hex(8)
    assert _run(limiter.take(key)) == 0.0
    assert _run(limiter.take(key)) > 900  # counted: the next in 1,000 s
    store.close()  # as if the database went away: the request goes on, to a 503
    assert _run(limiter.take(key)) == 0.0


def test_the_event_loops_own_counter_shares_the_buckets_and_gives_way_when_it_breaks(
    pg: str,
) -> None:
    store = MatchStore.open(pg, pool_size=2)
    limiter = SharedLimiter(store, "test", rate=0.001, burst=3)
    key = secrets.token_hex(8)

    async def play() -> list[float]:
        await store.open_counter()
        waits = [await limiter.take(key)]  # on the event loop's connection
        waits.append(await asyncio.to_thread(limiter.allow, key))  # on a pooled one
        waits.append(await limiter.take(key))
        waits.append(await limiter.take(key))  # the bucket is empty, whoever counts
        # The loop's connection dies (a database restart, a proxy's timeout):
        counter = store._counter  # the connection the test breaks
        assert counter is not None
        pid = counter.conn.info.backend_pid
        with store._cursor() as cur:
            cur.execute("SELECT pg_terminate_backend(%s)", (pid,))
        waits.append(await limiter.take(key))  # not counted: let through, as ever
        waits.append(await limiter.take(key))  # counted again, on the pool's threads
        await store.close_counter()
        return waits

    waits = _run(play())
    store.close()
    assert waits[:3] == [0.0, 0.0, 0.0]
    assert waits[3] > 900
    assert waits[4] == 0.0
    assert waits[5] > 900


def test_requests_taken_ahead_never_let_a_key_past_its_limit_across_processes(pg: str) -> None:
    # Two processes on one database, each taking four of a key's requests at a time.
    stores = [MatchStore.open(pg, pool_size=1), MatchStore.open(pg, pool_size=1)]
    limiters = [SharedLimiter(s, "lease", rate=0.001, burst=10, lease=4) for s in stores]
    key = secrets.token_hex(8)
    waits = [limiters[i % 2].allow(key) for i in range(14)]
    # The bucket held ten: ten requests in all pass, whichever process counts them,
    # and the rest are told to wait for the bucket to refill (1,000 s a request).
    assert sum(w == 0.0 for w in waits) == 10
    assert all(w > 900 for w in waits if w)
    assert all(w > 900 for w in waits[-3:])

    async def on_the_loop() -> list[float]:
        # The event loop's own connection counts out leases the same way.
        await stores[0].open_counter()
        other = secrets.token_hex(8)
        taken = [await limiters[0].take(other) for _ in range(5)]
        taken.append(await asyncio.to_thread(limiters[1].allow, other))
        taken += [await limiters[0].take(other) for _ in range(5)]
        await stores[0].close_counter()
        # The other process still holds one of the two it took.
        taken += [limiters[1].allow(other), limiters[1].allow(other)]
        return taken

    taken = _run(on_the_loop())
    # Nine pass: eight taken on the loop, one of the two the other process took.
    assert taken[:9] == [0.0] * 9
    assert taken[9] > 900 and taken[10] > 900  # the bucket is empty
    assert taken[11] == 0.0 and taken[12] > 900  # what the other process took, then none
    for store in stores:
        store.close()


def test_requests_taken_ahead_and_not_used_in_time_are_dropped(
    pg: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ginrummy.web.limits as limits

    monkeypatch.setattr(limits, "LEASE_SECONDS", 0.2)
    store = MatchStore.open(pg, pool_size=1)
    limiter = SharedLimiter(store, "lease", rate=0.001, burst=8, lease=4)
    key = secrets.token_hex(8)
    assert limiter.allow(key) == 0.0  # takes four, uses one
    time.sleep(0.3)  # the other three lapse: never more than the bucket gave
    assert [limiter.allow(key) for _ in range(4)] == [0.0] * 4  # the bucket's last four
    assert limiter.allow(key) > 900
    store.close()
