"""Load benchmark: many simulated players over HTTP against ``ginrummy serve``.

    .venv/bin/python bench/bench_load.py [--players 200] [--moves 40] [--think 1.0]
                                         [--db URL] [--workers N] [--kill-after S]
    .venv/bin/python bench/bench_load.py --friends [--players 200] [--think 2.0]
                                         [--reconnect-after S] [--db URL] ...

Starts ``ginrummy serve --workers N`` on 127.0.0.1 over the database (an
SQLite file in a temporary folder unless ``--db`` names one, e.g. a
``postgresql://`` URL; ``--workers`` is 2 on PostgreSQL and 1 on SQLite, which
refuses more), then plays.

**Against the computer** (the default): ``--players`` players at once, each in
its own seat (cookie jar): ask for a commitment, start a match against the
Medium computer, and make ``--moves`` random legal moves (dealing the next
hands as they come), pausing about ``--think`` seconds between moves as a
person would. Every move carries an action id; a request whose connection
breaks (a killed process) is sent again with the same action id, as the
page does, and counts as *retried*, not as an error.

**Between friends** (``--friends``): ``--players`` matches between two
people, each player in its own seat with a live stream open
(``/api/matches/{id}/stream``): the first starts a match with a friend seat,
the second joins by the invite, and from then on each moves when its stream
(or its own answer) says it is to act, after thinking about ``--think``
seconds, until ``--moves`` moves were made in the match. Measured: the time
from a move's **commit** to the other seat's stream bringing that version (the
answer to the move says when it committed, ``X-Committed-At``: on PostgreSQL the
database's clock as the move's statement ends, just before its commit; the same
machine's clock as the players' receipt times), and the two bounds on it taken
without the server's word: from the move being sent (an upper bound) and from
the mover's answer (a lower one); events **lost** (a version the other seat
made that never came, by 2 minutes after the match's last move) and
**duplicated** (one version twice on one seat's stream). ``--reconnect-after
S``: at S seconds every stream is closed by its client and opened again with
``Last-Event-ID``.

``--kill-after S`` sends SIGKILL to one of the server's worker processes S
seconds in: its connections break (players resend, streams reconnect), the
other worker goes on serving, and uvicorn's supervisor starts a new one.

It prints the latencies (p50/p95/p99), the errors, and the lost moves: at the
end every match's record is read from the database and replayed by the
engine, and its version and the players' hands must be what their last
answers said. Also the server's CPU time per request (its processes, once
reaped) and, on PostgreSQL, the database's (its backends serving this
database), the players' CPU time (same machine) and the load average. This
is a benchmark, not a test: nothing fails on a slow machine. Figures and the
commands used are in docs/LOAD.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from wire import Client, HTTPError, Response, StreamResponse, TransportError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ginrummy.records import match_from_dict  # noqa: E402
from ginrummy.web.storage import MatchStore  # noqa: E402

RETRIES = 5
"""Times a request whose connection broke is sent again (same action id)."""
EVENT_TIMEOUT = 10.0
"""Seconds a seat waits for the other's move on its stream before reading the match (the
event still counts as come if it arrives later)."""
LAST_EVENT_WAIT = 120.0
"""Seconds the streams stay open after a match's last move for it to reach the other seat:
an event not come by then is counted lost."""


@dataclass
class Player:
    """One simulated player: its seat, its match and what it saw."""

    client: Client
    seat: int = 0
    match: dict[str, Any] | None = None
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    retried: int = 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _move(m: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """The next request (path suffix, body) for a player making random legal moves."""
    if m["awaiting_deal"]:
        deal = {"version": m["version"], "client_seed": secrets.token_hex(16)}
        return "next-hand", {**deal, "action_id": secrets.token_hex(8)}
    legal = m["table"]["legal"]
    body: dict[str, Any] = {"version": m["version"], "action_id": secrets.token_hex(8)}
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


async def _send(
    player: Player, method: str, url: str, body: dict[str, Any] | None = None
) -> Response:
    """The request, sent again (same body, same action id) if its connection breaks."""
    for attempt in range(RETRIES + 1):
        try:
            return await player.client.request(method, url, json=body)
        except TransportError:
            if attempt == RETRIES:
                raise
            player.retried += 1
            await asyncio.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


async def _play(
    player: Player, url: str, moves: int, think: float, seed: int, ready: asyncio.Event
) -> None:
    rng = random.Random(seed)
    await ready.wait()
    await asyncio.sleep(rng.uniform(0, think))  # players arrive spread out
    try:
        commitment = (await _send(player, "POST", url + "/api/commitments")).json()["commitment"]
        r = await _send(
            player,
            "POST",
            url + "/api/matches",
            {
                "settings": {"match_to": 1000},
                "commitment": commitment,
                "client_seed": secrets.token_hex(16),
            },
        )
        if r.status_code != 201:
            player.errors.append(f"new match: {r.status_code} {r.text[:200]}")
            return
        player.match = r.json()
    except HTTPError as e:
        player.errors.append(f"new match: {e!r}")
        return
    while player.moves < moves and player.match["status"] == "playing":
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        path, body = _move(player.match, rng)
        start = time.perf_counter()
        try:
            r = await _send(player, "POST", f"{url}/api/matches/{player.match['id']}/{path}", body)
        except HTTPError as e:
            player.errors.append(f"{path}: {e!r}")
            return
        player.latencies.append(time.perf_counter() - start)
        if r.status_code != 200:
            player.errors.append(f"{path}: {r.status_code} {r.text[:200]}")
            return
        player.match = r.json()
        player.moves += 1


def _lost(db: str, players: list[Player]) -> list[str]:
    """Matches whose stored record disagrees with what their players were last told."""
    store = MatchStore.open(db, pool_size=1)
    lost = []
    for p in players:
        if p.match is None:
            continue
        row = store.get(p.match["id"])
        if row is None:
            lost.append(f"{p.match['id']}: missing")
            continue
        replayed = match_from_dict(row.record)
        hand = sorted(str(c) for c in replayed.view(p.seat).hand)
        if row.version < p.match["version"]:
            lost.append(f"{row.id}: version {row.version}, told {p.match['version']}")
        elif row.version == p.match["version"] and hand != sorted(p.match["table"]["hand"]):
            lost.append(f"{row.id}: the stored hand differs from the one shown")
    store.close()
    return lost


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(values: list[float]) -> str:
    return (
        f"p50 {1000 * _percentile(values, 0.50):.1f}  "
        f"p95 {1000 * _percentile(values, 0.95):.1f}  "
        f"p99 {1000 * _percentile(values, 0.99):.1f}  "
        f"mean {1000 * statistics.fmean(values) if values else float('nan'):.1f}"
    )


async def _run_computer(args: argparse.Namespace, url: str, kill: Callable[[], None]) -> Any:
    players = [Player(Client(url, timeout=60)) for _ in range(args.players)]
    ready = asyncio.Event()
    tasks = [
        asyncio.create_task(_play(p, url, args.moves, args.think, i, ready))
        for i, p in enumerate(players)
    ]
    start = time.perf_counter()
    ready.set()
    await _with_timers(asyncio.gather(*tasks), [(args.kill_after, kill)])
    elapsed = time.perf_counter() - start
    for p in players:
        await p.client.aclose()
    return players, elapsed


async def _with_timers(work: Awaitable[Any], timers: list[tuple[float | None, Any]]) -> None:
    """Await ``work``, calling each timer's function (sync or async) at its time if given."""

    async def at(delay: float, call: Any) -> None:
        await asyncio.sleep(delay)
        result = call()
        if asyncio.iscoroutine(result):
            await result

    pending = [asyncio.create_task(at(d, c)) for d, c in timers if d is not None]
    try:
        await work
    finally:
        for t in pending:
            t.cancel()


# --- between friends ------------------------------------------------------------------


@dataclass
class Seat:
    """One friend in a friend match: its requests, its stream and what each told it."""

    player: Player
    index: int
    rng: random.Random
    url: str = ""
    last_id: int = 0
    seen: dict[int, int] = field(default_factory=dict)
    """Version -> how many times this seat's stream brought it."""
    arrived: dict[int, float] = field(default_factory=dict)
    """Version -> when it first came on the stream (perf_counter)."""
    arrived_at: dict[int, float] = field(default_factory=dict)
    """Version -> when it first came on the stream (the wall clock, as the server's stamps)."""
    newest: asyncio.Event = field(default_factory=asyncio.Event)
    reconnects: int = 0
    stream_task: asyncio.Task[None] | None = None
    stop: bool = False
    reconnect_now: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class FriendMatch:
    """Two seats and the moves they made: version -> (mover, sent at, answered at), and
    version -> when it committed (the server's stamp; wall clock)."""

    host: Seat
    guest: Seat
    made: dict[int, tuple[int, float, float]] = field(default_factory=dict)
    committed: dict[int, float] = field(default_factory=dict)
    moves: int = 0
    done: bool = False
    match_id: str = ""


async def _stream(seat: Seat, match_id: str) -> None:
    """Follow the seat's stream, reconnecting with Last-Event-ID whenever it ends or breaks."""
    url = f"{seat.url}/api/matches/{match_id}/stream"
    while not seat.stop:
        headers = {"Accept": "text/event-stream"}
        if seat.last_id:
            headers["Last-Event-ID"] = str(seat.last_id)
        try:
            async with seat.player.client.stream("GET", url, headers=headers) as r:
                if r.status_code != 200:
                    seat.player.errors.append(f"stream: {r.status_code}")
                    await asyncio.sleep(1.0)
                    continue
                await _read_events(seat, r)
        except TransportError:
            pass  # the process serving it died: open it again (on a live one)
        if seat.stop:
            return
        seat.reconnect_now.clear()
        seat.reconnects += 1
        await asyncio.sleep(0.05)


async def _read_events(seat: Seat, r: StreamResponse) -> None:
    """Read Server-Sent Events off the stream, noting each ``match`` event."""
    event, event_id, data = "message", None, list[str]()
    async for line in _lines(r, seat):
        if line == "":
            if event == "match" and event_id is not None and data:
                _got(seat, int(event_id), json.loads("\n".join(data)))
            event, event_id, data = "message", None, []
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                event = value
            elif name == "id":
                event_id = value
            elif name == "data":
                data.append(value)


async def _lines(r: StreamResponse, seat: Seat) -> AsyncIterator[str]:
    """The stream's lines, ending early when the seat is told to reconnect."""
    lines = r.aiter_lines()
    told = asyncio.ensure_future(seat.reconnect_now.wait())
    try:
        while True:
            next_line = asyncio.ensure_future(anext(lines))
            # A read left pending when the stream is dropped ends in an error nobody awaits.
            next_line.add_done_callback(lambda f: f.cancelled() or f.exception())
            done, _ = await asyncio.wait({next_line, told}, return_when=asyncio.FIRST_COMPLETED)
            if next_line not in done:
                next_line.cancel()
                return
            try:
                yield next_line.result()
            except StopAsyncIteration:
                return
    finally:
        told.cancel()


def _got(seat: Seat, version: int, match: dict[str, Any]) -> None:
    seat.seen[version] = seat.seen.get(version, 0) + 1
    if version not in seat.arrived:
        seat.arrived[version] = time.perf_counter()
        seat.arrived_at[version] = time.time()
    if version >= seat.last_id:
        seat.last_id = version
        if seat.player.match is None or version > seat.player.match["version"]:
            seat.player.match = match
        seat.newest.set()


def _to_act(seat: Seat) -> bool:
    m = seat.player.match
    if m is None or m["status"] != "playing":
        return False
    if m["awaiting_deal"]:
        return seat.index == 0  # the host deals every next hand
    return bool(m["table"]["to_act"] == seat.index)


async def _friend_seat(fm: FriendMatch, seat: Seat, moves: int, think: float) -> None:
    """Move whenever this seat is to act, until the match has had ``moves`` moves."""
    p = seat.player
    while not fm.done:
        if not _to_act(seat):
            seat.newest.clear()
            if _to_act(seat) or fm.done:
                continue
            try:
                await asyncio.wait_for(seat.newest.wait(), EVENT_TIMEOUT)
            except TimeoutError:
                if fm.done:
                    return
                # Nothing came: read the match (a lost event is counted at the end).
                with contextlib.suppress(HTTPError):
                    r = await _send(p, "GET", f"{seat.url}/api/matches/{fm.match_id}")
                    if p.match is None or (
                        r.status_code == 200 and r.json()["version"] > p.match["version"]
                    ):
                        p.match = r.json()
            continue
        await asyncio.sleep(seat.rng.uniform(0.5 * think, 1.5 * think))
        if fm.done:
            return
        assert p.match is not None
        path, body = _move(p.match, seat.rng)
        sent = time.perf_counter()
        try:
            r = await _send(p, "POST", f"{seat.url}/api/matches/{p.match['id']}/{path}", body)
        except HTTPError as e:
            p.errors.append(f"{path}: {e!r}")
            fm.done = True
            return
        answered = time.perf_counter()
        if r.status_code != 200:
            p.errors.append(f"{path}: {r.status_code} {r.text[:200]}")
            fm.done = True
            return
        p.latencies.append(answered - sent)
        answer = r.json()
        fm.made[answer["version"]] = (seat.index, sent, answered)
        if "x-committed-at" in r.headers:  # not on a repeat's answer (a resent request)
            fm.committed[answer["version"]] = float(r.headers["x-committed-at"])
        if answer["version"] > p.match["version"]:
            p.match = answer
        p.moves += 1
        fm.moves += 1
        if fm.moves >= moves or answer["status"] != "playing":
            fm.done = True
    return


async def _start_friend_match(fm: FriendMatch, url: str, ready: asyncio.Event) -> bool:
    host, guest = fm.host, fm.guest
    await ready.wait()
    await asyncio.sleep(host.rng.uniform(0, 2.0))
    try:
        r = await _send(
            host.player,
            "POST",
            url + "/api/matches",
            {
                "settings": {"match_to": 1000},
                "seats": [{"kind": "person", "name": "Ann"}, {"kind": "friend"}],
            },
        )
        if r.status_code != 201:
            host.player.errors.append(f"new match: {r.status_code} {r.text[:200]}")
            return False
        host.player.match = r.json()
        code = host.player.match["invite"]["code"]
        r = await _send(guest.player, "POST", f"{url}/api/invites/{code}/join", {"name": "Bob"})
        if r.status_code != 200:
            guest.player.errors.append(f"join: {r.status_code} {r.text[:200]}")
            return False
        guest.player.match = r.json()
    except HTTPError as e:
        host.player.errors.append(f"start: {e!r}")
        return False
    fm.match_id = host.player.match["id"]
    return True


async def _friend_match(fm: FriendMatch, url: str, args: argparse.Namespace, ready: Any) -> None:
    if not await _start_friend_match(fm, url, ready):
        fm.done = True
        return
    for seat in (fm.host, fm.guest):
        seat.stream_task = asyncio.create_task(_stream(seat, fm.match_id))
    await asyncio.gather(
        _friend_seat(fm, fm.host, args.moves, args.think),
        _friend_seat(fm, fm.guest, args.moves, args.think),
    )
    # Let the last move reach the other seat before the streams close: as long as any
    # event may take (an event that came late mid-match counts as come, so must this).
    last = max(fm.made, default=0)
    deadline = time.perf_counter() + LAST_EVENT_WAIT
    while time.perf_counter() < deadline and min(fm.host.last_id, fm.guest.last_id) < last:
        await asyncio.sleep(0.05)
    for seat in (fm.host, fm.guest):
        seat.stop = True
        if seat.stream_task is not None:
            seat.stream_task.cancel()
            with contextlib.suppress(BaseException):
                await seat.stream_task


def _reconnect_all(matches: list[FriendMatch]) -> None:
    for fm in matches:
        for seat in (fm.host, fm.guest):
            seat.reconnect_now.set()


async def _run_friends(args: argparse.Namespace, url: str, kill: Callable[[], None]) -> Any:
    matches = []
    for i in range(args.players):
        seats = [
            Seat(Player(Client(url, timeout=60), seat=s), s, rng, url)
            for s, rng in ((0, random.Random(2 * i)), (1, random.Random(2 * i + 1)))
        ]
        matches.append(FriendMatch(seats[0], seats[1]))
    ready = asyncio.Event()
    tasks = [asyncio.create_task(_friend_match(fm, url, args, ready)) for fm in matches]
    start = time.perf_counter()
    ready.set()
    await _with_timers(
        asyncio.gather(*tasks),
        [(args.kill_after, kill), (args.reconnect_after, lambda: _reconnect_all(matches))],
    )
    elapsed = time.perf_counter() - start
    for fm in matches:
        await fm.host.player.client.aclose()
        await fm.guest.player.client.aclose()
    return matches, elapsed


def _friend_figures(matches: list[FriendMatch]) -> dict[str, Any]:
    """Commit-to-event delays, and the events lost and duplicated, over every match."""
    from_commit: list[float] = []
    from_send: list[float] = []
    from_answer: list[float] = []
    lost: list[str] = []
    duplicated: list[str] = []
    for fm in matches:
        seats = (fm.host, fm.guest)
        for version, (mover, sent, answered) in sorted(fm.made.items()):
            other = seats[1 - mover]
            came = [t for v, t in other.arrived.items() if v >= version]
            if not came:
                lost.append(f"{fm.match_id} v{version} to seat {other.index}")
                continue
            at = min(came)
            from_send.append(at - sent)
            from_answer.append(max(0.0, at - answered))
            if version in fm.committed:
                wall = min(t for v, t in other.arrived_at.items() if v >= version)
                from_commit.append(wall - fm.committed[version])
        for seat in seats:
            duplicated += [
                f"{fm.match_id} v{v} x{n} on seat {seat.index}"
                for v, n in seat.seen.items()
                if n > 1
            ]
    return {
        "from_commit": from_commit,
        "from_send": from_send,
        "from_answer": from_answer,
        "lost": lost,
        "duplicated": duplicated,
    }


# --- the server -----------------------------------------------------------------------


def _start_server(db: str, port: int, workers: int) -> subprocess.Popen[bytes]:
    """``ginrummy serve`` over ``db`` with ``workers`` processes, not in test mode."""
    env = {**os.environ, "GINRUMMY_DB": db}
    env.pop("GINRUMMY_TEST_DECKS", None)
    # Every simulated player comes from 127.0.0.1: lift the caps on new seats and on
    # seatless requests per address (they guard against one machine posing as many
    # players, which is what this does). The limits are still counted.
    env.setdefault("GINRUMMY_SEATS_PER_ADDRESS", "1000000/3600")
    env.setdefault("GINRUMMY_NEW_SEAT_LIMIT", "100000/100000")
    command = [
        sys.executable,
        "-m",
        "ginrummy.cli",
        "serve",
        "--port",
        str(port),
        "--workers",
        str(workers),
    ]
    return subprocess.Popen(command, cwd=ROOT, env=env)


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return sorted(found)


def _workers(pid: int) -> list[int]:
    """The worker processes of ``ginrummy serve --workers`` (not the resource tracker)."""
    out = []
    for c in _children(pid):
        with contextlib.suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes():
                out.append(c)
    return out


def _wait_until_up(url: str, server: subprocess.Popen[bytes] | None, workers: int) -> bool:
    deadline = time.monotonic() + 180  # a crowded machine starts Python slowly
    while time.monotonic() < deadline:
        try:
            up = httpx.get(url + "/api/health", timeout=1).status_code == 200
            if up and (server is None or workers == 1 or len(_workers(server.pid)) >= workers):
                time.sleep(1.0)  # the other workers finish starting
                return True
        except httpx.HTTPError:
            pass
        if server is not None and server.poll() is not None:
            return False
        time.sleep(0.2)
    return False


def _cpu(pids: list[int]) -> float:
    """CPU seconds (user and system) used so far by these processes."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _pg_backends_cpu(db: str) -> float:
    """CPU seconds used so far by the PostgreSQL backends connected to this database."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        ).fetchall()
    return _cpu([pid for (pid,) in rows])


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200, help="players (--friends: matches)")
    parser.add_argument("--workers", type=int, default=None, help="2 on PostgreSQL, else 1")
    parser.add_argument("--moves", type=int, default=40, help="moves per player (per match)")
    parser.add_argument("--think", type=float, default=None, help="seconds (1.0; --friends 2.0)")
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    parser.add_argument("--friends", action="store_true", help="matches between two people")
    parser.add_argument("--kill-after", type=float, default=None, help="SIGKILL a worker at S s")
    parser.add_argument(
        "--reconnect-after", type=float, default=None, help="--friends: reopen every stream at S s"
    )
    parser.add_argument(
        "--url",
        default=None,
        help="play against this running server (over --db) instead of starting one",
    )
    args = parser.parse_args()
    if args.url and not args.db:
        parser.error("--url needs --db, the database that server keeps its matches in")
    if args.url and args.kill_after is not None:
        parser.error("--kill-after needs the server this benchmark starts")
    args.think = args.think if args.think is not None else (2.0 if args.friends else 1.0)
    tmp = tempfile.TemporaryDirectory()
    db = args.db or str(Path(tmp.name) / "load.sqlite3")
    is_pg = db.startswith("postgres")
    args.workers = args.workers or (2 if is_pg else 1)
    MatchStore.open(db, pool_size=1).close()  # the tables, before the server starts
    server: subprocess.Popen[bytes] | None = None
    url = args.url
    if url is None:
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        server = _start_server(db, port, args.workers)
    killed: list[int] = []

    def kill() -> None:
        assert server is not None
        workers = _workers(server.pid)
        if workers:
            os.kill(workers[0], signal.SIGKILL)
            killed.append(workers[0])
            print(f"  (killed worker {workers[0]} of {workers})", flush=True)

    try:
        if not _wait_until_up(url, server, args.workers):
            print("the server did not start", file=sys.stderr)
            return 1
        cpu, client_start = os.times(), time.process_time()
        # What the server's processes used to start is not the load's.
        started_cpu = _cpu([server.pid, *_children(server.pid)]) if server is not None else 0.0
        db_cpu = _pg_backends_cpu(db) if is_pg else 0.0
        load_before = os.getloadavg()
        run = _run_friends if args.friends else _run_computer
        result, elapsed = asyncio.run(run(args, url, kill))
        client_cpu = time.process_time() - client_start
        db_cpu = _pg_backends_cpu(db) - db_cpu if is_pg else 0.0
        workers_after = _workers(server.pid) if server is not None else []
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    done = os.times()
    # The server's processes, once reaped, count as this process's children.
    server_cpu = (
        done.children_user + done.children_system - cpu.children_user - cpu.children_system
    ) - started_cpu
    if args.friends:
        players = [p for fm in result for p in (fm.host.player, fm.guest.player)]
    else:
        players = result
    latencies = [x for p in players for x in p.latencies]
    errors = [e for p in players for e in p.errors]
    retried = sum(p.retried for p in players)
    lost = _lost(db, players)
    started = sum(p.match is not None for p in players)
    requests = len(latencies) + (started if args.friends else 2 * started)
    kind = "PostgreSQL" if is_pg else "SQLite"
    what = "friend matches" if args.friends else "players"
    print(
        f"{kind}, {args.workers} worker(s), {args.players} {what} x {args.moves} moves, "
        f"think {args.think}s"
        + (f", SIGKILL of a worker at {args.kill_after}s" if args.kill_after else "")
        + (f", every stream reopened at {args.reconnect_after}s" if args.reconnect_after else "")
    )
    print(f"  matches started   {started if not args.friends else started // 2}")
    print(
        f"  moves             {len(latencies)} in {elapsed:.1f} s "
        f"({len(latencies) / elapsed:.1f} a second)"
    )
    print(f"  requests/second   {requests / elapsed:.1f}")
    if server is not None:
        print(f"  server CPU        {1000 * server_cpu / requests:.2f} ms a request")
    if is_pg:
        print(f"  database CPU      {1000 * db_cpu / requests:.2f} ms a request (its backends)")
    print(f"  client CPU        {client_cpu:.1f} s (the simulated players, same machine)")
    print(
        f"  load average      {' '.join(f'{x:.1f}' for x in load_before)} before, "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end"
    )
    print(f"  move latency ms   {_ms(latencies)}")
    if args.friends:
        figures = _friend_figures(result)
        reconnects = sum(s.reconnects for fm in result for s in (fm.host, fm.guest))
        print(
            f"  commit -> other seat's event ms        {_ms(figures['from_commit'])} "
            f"({len(figures['from_commit'])} moves with their commit time)"
        )
        print(f"  move sent -> other seat's event ms     {_ms(figures['from_send'])}")
        print(f"  mover's answer -> other's event ms     {_ms(figures['from_answer'])}")
        print(f"  stream reconnects {reconnects}")
        print(f"  events lost       {len(figures['lost'])}")
        for e in figures["lost"][:5]:
            print(f"    {e}")
        print(f"  events duplicated {len(figures['duplicated'])}")
        for e in figures["duplicated"][:5]:
            print(f"    {e}")
        errors += figures["lost"] + figures["duplicated"]
    if killed:
        print(f"  killed worker     {killed[0]}; workers at the end {workers_after}")
    print(f"  retried requests  {retried} (connection broken, sent again with the same action id)")
    print(f"  errors            {len([e for p in players for e in p.errors])}")
    for e in [e for p in players for e in p.errors][:5]:
        print(f"    {e}")
    print(f"  lost moves        {len(lost)} (every match replayed from its stored record)")
    for e in lost[:5]:
        print(f"    {e}")
    tmp.cleanup()
    return 0 if not errors and not lost else 1


if __name__ == "__main__":
    raise SystemExit(main())
