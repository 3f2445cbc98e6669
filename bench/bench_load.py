"""Load benchmark: many simulated players over HTTP against one ``ginrummy`` web server.

    .venv/bin/python bench/bench_load.py [--players 200] [--workers 2] [--db URL]
                                         [--moves 40] [--think 1.0]

Starts ``uvicorn`` with the app (``--workers`` processes) on 127.0.0.1 over the
database (an SQLite file in a temporary folder unless ``--db`` names one, e.g.
a ``postgresql://`` URL), then runs ``--players`` players at once, each in its
own seat (cookie jar): ask for a commitment, start a match against the Medium
computer, and make ``--moves`` random legal moves (dealing the next hands as
they come), pausing about ``--think`` seconds between moves as a person would.
Every move carries an action id.

It prints requests per second and the p50/p95/p99 latency of the moves
(actions and deals, which include the computer's answer), the errors, and
the lost moves: at the end every match's record is read from the database and
replayed by the engine, and its version and the player's hand must be what
the player's last answer said. This is a benchmark, not a test: nothing fails
on a slow machine. Figures and the commands used are in docs/LOAD.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ginrummy.records import match_from_dict  # noqa: E402
from ginrummy.web.storage import MatchStore  # noqa: E402


@dataclass
class Player:
    """One simulated player: its seat, its match and what it saw."""

    client: httpx.AsyncClient
    match: dict[str, Any] | None = None
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


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


async def _play(
    player: Player, url: str, moves: int, think: float, seed: int, ready: asyncio.Event
) -> None:
    rng = random.Random(seed)
    c = player.client
    await ready.wait()
    await asyncio.sleep(rng.uniform(0, think))  # players arrive spread out
    try:
        commitment = (await c.post(url + "/api/commitments")).json()["commitment"]
        r = await c.post(
            url + "/api/matches",
            json={
                "settings": {"match_to": 1000},
                "commitment": commitment,
                "client_seed": secrets.token_hex(16),
            },
        )
        if r.status_code != 201:
            player.errors.append(f"new match: {r.status_code} {r.text[:200]}")
            return
        player.match = r.json()
    except httpx.HTTPError as e:
        player.errors.append(f"new match: {e!r}")
        return
    while player.moves < moves and player.match["status"] == "playing":
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        path, body = _move(player.match, rng)
        start = time.perf_counter()
        try:
            r = await c.post(f"{url}/api/matches/{player.match['id']}/{path}", json=body)
        except httpx.HTTPError as e:
            player.errors.append(f"{path}: {e!r}")
            return
        player.latencies.append(time.perf_counter() - start)
        if r.status_code != 200:
            player.errors.append(f"{path}: {r.status_code} {r.text[:200]}")
            return
        player.match = r.json()
        player.moves += 1


def _lost(db: str, players: list[Player]) -> list[str]:
    """Matches whose stored record disagrees with what their player was last told."""
    store = MatchStore.open(db)
    lost = []
    for p in players:
        if p.match is None:
            continue
        row = store.get(p.match["id"])
        if row is None:
            lost.append(f"{p.match['id']}: missing")
            continue
        replayed = match_from_dict(row.record)
        hand = sorted(str(c) for c in replayed.view(0).hand)
        if row.version != p.match["version"] or row.version != 1 + p.moves:
            lost.append(f"{row.id}: version {row.version}, told {p.match['version']}")
        elif hand != sorted(p.match["table"]["hand"]):
            lost.append(f"{row.id}: the stored hand differs from the one shown")
    return lost


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _run(args: argparse.Namespace, url: str) -> tuple[list[Player], float]:
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    players = [Player(httpx.AsyncClient(timeout=60, limits=limits)) for _ in range(args.players)]
    ready = asyncio.Event()
    tasks = [
        asyncio.create_task(_play(p, url, args.moves, args.think, i, ready))
        for i, p in enumerate(players)
    ]
    start = time.perf_counter()
    ready.set()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    for p in players:
        await p.client.aclose()
    return players, elapsed


def _start_server(
    db: str, port: int, workers: int, http: str = "auto", loop: str = "auto"
) -> subprocess.Popen[bytes]:
    """``uvicorn`` with the app over ``db``, ``workers`` processes, not in test mode."""
    env = {**os.environ, "GINRUMMY_DB": db}
    env.pop("GINRUMMY_TEST_DECKS", None)
    # Every simulated player comes from 127.0.0.1: lift the cap on new seats per address
    # (it guards against one machine posing as many players, which is what this does).
    env.setdefault("GINRUMMY_SEATS_PER_ADDRESS", "100000/3600")
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        "ginrummy.web.server:app_from_env",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--log-level",
        "warning",
        "--no-access-log",
        "--http",
        http,
        "--loop",
        loop,
    ]
    return subprocess.Popen(command, cwd=ROOT, env=env)


def _wait_until_up(url: str, server: subprocess.Popen[bytes] | None) -> bool:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        if server is not None and server.poll() is not None:
            return False
        time.sleep(0.2)
    return False


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--moves", type=int, default=40, help="moves per player")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between moves")
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file)")
    parser.add_argument(
        "--http",
        choices=["auto", "h11", "httptools"],
        default="auto",
        help="uvicorn's HTTP parser (auto: httptools when installed)",
    )
    parser.add_argument(
        "--loop",
        choices=["auto", "asyncio", "uvloop"],
        default="auto",
        help="uvicorn's event loop (auto: uvloop when installed)",
    )
    parser.add_argument(
        "--url",
        default=None,
        help="play against this running server (over --db) instead of starting one",
    )
    args = parser.parse_args()
    if args.url and not args.db:
        parser.error("--url needs --db, the database that server keeps its matches in")
    tmp = tempfile.TemporaryDirectory()
    db = args.db or str(Path(tmp.name) / "load.sqlite3")
    MatchStore.open(db)  # create the tables before the workers start
    server: subprocess.Popen[bytes] | None = None
    url = args.url
    if url is None:
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        server = _start_server(db, port, args.workers, args.http, args.loop)
    try:
        if not _wait_until_up(url, server):
            print("the server did not start", file=sys.stderr)
            return 1
        cpu, client_start = os.times(), time.process_time()
        players, elapsed = asyncio.run(_run(args, url))
        client_cpu = time.process_time() - client_start
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    done = os.times()
    # The server's processes, once reaped, count as this process's children.
    server_cpu = done.children_user + done.children_system - cpu.children_user - cpu.children_system
    latencies = [x for p in players for x in p.latencies]
    errors = [e for p in players for e in p.errors]
    lost = _lost(db, players)
    requests = len(latencies) + 2 * sum(p.match is not None for p in players)
    kind = "PostgreSQL" if db.startswith("postgres") else "SQLite"
    print(
        f"{kind}, {args.workers} worker(s), {args.players} players x {args.moves} moves, "
        f"think {args.think}s, --http {args.http} --loop {args.loop}"
    )
    print(f"  matches started   {sum(p.match is not None for p in players)}")
    print(f"  moves             {len(latencies)} in {elapsed:.1f} s")
    print(f"  requests/second   {requests / elapsed:.1f}")
    if server is not None:
        print(f"  server CPU        {1000 * server_cpu / requests:.1f} ms a request")
    print(f"  client CPU        {client_cpu:.1f} s (the simulated players, same machine)")
    print(f"  load average      {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end")
    print(
        f"  move latency ms   p50 {1000 * _percentile(latencies, 0.50):.1f}  "
        f"p95 {1000 * _percentile(latencies, 0.95):.1f}  "
        f"p99 {1000 * _percentile(latencies, 0.99):.1f}  "
        f"mean {1000 * statistics.fmean(latencies) if latencies else float('nan'):.1f}"
    )
    print(f"  errors            {len(errors)}")
    for e in errors[:5]:
        print(f"    {e}")
    print(f"  lost moves        {len(lost)} (every match replayed from its stored record)")
    for e in lost[:5]:
        print(f"    {e}")
    tmp.cleanup()
    return 0 if not errors and not lost else 1


if __name__ == "__main__":
    raise SystemExit(main())
