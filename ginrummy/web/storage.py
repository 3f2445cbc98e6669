"""Where matches live: rows in SQLite by default or in PostgreSQL.

Storage knows rows, not games: a stored match is its record
(:func:`ginrummy.records.match_to_dict`), the server-side data the referee
keeps beside it (opaque JSON text here), its two seats (each a person, held by
a seat token's hash, or a bot, with its name and seed, and each with its
score), the seat id of whoever started it (its *owner*) and a version number.
Every change is a compare-and-set on that version, so two tabs, two requests
or two server processes can never both apply a move made on the same state.

Each write is one transaction (on SQLite one that takes the write lock up
front, ``BEGIN IMMEDIATE``), so a crash at any point leaves every match at its
last committed version. Beside the matches are the server seeds committed to
before a match exists (:meth:`MatchStore.add_seed`) and the replies given to
actions, by action id (:meth:`MatchStore.reply`), so that a repeated request
gets the first answer instead of applying twice. Only the replies to a
match's last :data:`KEPT_REPLIES` versions are kept: a retry of anything
older is refused as stale by the version check anyway.

The schema is made and upgraded by the numbered steps of
:mod:`ginrummy.web.migrations` when the store opens. PostgreSQL connections
come from a :mod:`psycopg_pool` pool; SQLite keeps one connection per thread.

>>> store = MatchStore.open("sqlite:///:memory:")
>>> seats = (StoredSeat.for_person(0, "me"), StoredSeat.for_bot(1, "medium", 7))
>>> store.create(StoredMatch.new("m1", {"a": 1}, "{}", status="playing", seats=seats))
True
>>> store.get("m1").version, store.get("m1").scores
(1, (0, 0))
>>> store.update("m1", 1, {"a": 2}, "{}", status="playing", scores=(5, 0)) is not None
True
>>> store.update("m1", 1, {"a": 3}, "{}", status="playing", scores=(9, 0)) is None
True
>>> store.get("m1").scores
(5, 0)
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from ginrummy.web import migrations
from ginrummy.web.changes import Changes

__all__ = [
    "ABANDONED_AFTER",
    "DEFAULT_DB",
    "KEPT_REPLIES",
    "SEED_LIFETIME",
    "MatchStore",
    "StorageError",
    "StoredInvite",
    "StoredMatch",
    "StoredReview",
    "StoredSeat",
    "now",
]

DEFAULT_DB = "data/ginrummy.sqlite3"
"""The SQLite file used when no database is named (relative to the working directory)."""

SEED_LIFETIME = timedelta(hours=1)
"""How long a server seed committed to for a new match waits to be used."""

KEPT_REPLIES = 8
"""How many of a match's latest replies are kept for repeated action ids.

A repeat (a double click, a retried request) comes within a move or two of
the first; a reply to an older version could only be refused as stale.
"""

ABANDONED_AFTER = timedelta(days=7)
"""A match nobody moved in since it was dealt is deleted this long after its start.

Such a match holds nothing of value (no move was made, no score was kept), and
a script asking for new matches in a loop would otherwise fill the database.
The deletion runs when a seat asks for a commitment (the first step of every
new match), so it costs nothing on a move.
"""

BUCKETS_PRUNED_EVERY = 60.0
"""Seconds between two sweeps of the full rate-limit buckets by one process."""

CHANNEL = "ginrummy_moves"
"""The PostgreSQL channel each change of a match is announced on (payload: the match id,
a space and what changed: a version number, or ``seats``)."""

POOL_SIZE = 8
"""PostgreSQL connections per server process, at most (by default a process works on 4
requests at once and counts up to 4 others against the rate limits)."""


class StorageError(RuntimeError):
    """The database cannot be opened or used."""


def now() -> str:
    """The current time as an ISO 8601 UTC string (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _stamp(when: datetime) -> str:
    return when.isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class StoredSeat:
    """One seat's row: who sits there and their running total."""

    index: int
    kind: str
    """``person`` or ``bot``."""
    bot: str | None = None
    """For a bot: the name :func:`ginrummy.bots.make_bot` knows it by."""
    bot_seed: int | None = None
    holder: str = ""
    """For a person: the seat id (the SHA-256 of the seat token) that holds it."""
    name: str | None = None
    score: int = 0
    seen_at: str = ""
    """When a live stream of this seat last said it was open (empty: none is)."""
    reminded_at: str = ""
    """When the other player last reminded this seat that its time was up (empty: never)."""

    @classmethod
    def for_person(cls, index: int, holder: str, name: str | None = None) -> StoredSeat:
        """A seat held by the seat token whose hash is ``holder``."""
        return cls(index, "person", holder=holder, name=name)

    @classmethod
    def for_bot(cls, index: int, bot: str, seed: int) -> StoredSeat:
        """A seat played by the bot ``bot`` with this seed."""
        return cls(index, "bot", bot=bot, bot_seed=seed)


@dataclass(frozen=True, slots=True)
class StoredInvite:
    """An invite to take a match's open seat: its code is the link's secret."""

    code: str
    match_id: str
    seat: int
    owner: str
    """The seat id of whoever made it (the only one who may cancel it)."""
    state: str
    """``open``, ``taken`` or ``cancelled``."""
    created_at: str
    expires_at: str


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """One match's rows: the record, the referee's data, the seats and the bookkeeping."""

    id: str
    version: int
    status: str
    """``playing`` or ``over``."""
    owner: str
    """The seat id of whoever started the match (empty for matches from before seats)."""
    record: dict[str, Any]
    meta: str
    """The referee's server-side data, as JSON text (never sent to a player)."""
    created_at: str
    updated_at: str
    seats: tuple[StoredSeat, ...]
    clock: str = ""
    """The match's move clock: ``""`` (none), ``ask`` or ``timed``."""
    deadline: str = ""
    """When the seat to act runs out of time (ISO 8601 UTC; empty: no clock runs now)."""

    @property
    def scores(self) -> tuple[int, int]:
        """The running totals, by seat index."""
        return (self.seats[0].score, self.seats[1].score)

    @classmethod
    def new(
        cls,
        match_id: str,
        record: dict[str, Any],
        meta: str,
        *,
        status: str,
        seats: tuple[StoredSeat, ...],
        owner: str = "",
        scores: tuple[int, int] = (0, 0),
    ) -> StoredMatch:
        """A first version of a match, stamped now."""
        stamp = now()
        scored = tuple(replace(s, score=scores[s.index]) for s in seats)
        return cls(match_id, 1, status, owner, record, meta, stamp, stamp, scored)


class _Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def execute(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ...) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


_MATCH = (
    "m.id, m.version, m.status, m.owner, m.record, m.meta, m.created_at, m.updated_at, "
    "m.clock, m.deadline"
)
_SEAT = "s.seat, s.kind, s.bot, s.bot_seed, s.holder, s.name, s.score, s.seen_at, s.reminded_at"
_INVITE = "code, match_id, seat, owner, state, created_at, expires_at"


@dataclass(frozen=True, slots=True)
class _Sql:
    """Every statement, written once for a database's placeholder (``?`` or ``%s``)."""

    create_match: str
    create_seat: str
    use_seed: str
    get: str
    get_with_reply: str
    update: str
    score: str
    keep_reply: str
    prune_replies: str
    update_pg: str
    reply: str
    add_seed: str
    drop_seeds: str
    seed: str
    recent: str
    recent_seats: str
    drop_abandoned_seats: str
    drop_abandoned: str
    add_secret: str
    secret: str
    add_invite: str
    invite: str
    open_invite: str
    take_invite: str
    take_seat: str
    cancel_invite: str
    move_seat: str
    touch_seat: str
    delete_match: str
    delete_seats: str
    delete_replies: str
    delete_invites: str
    delete_reviews: str
    delete_hints: str
    review: str
    add_review: str
    reviews_of: str
    add_hint: str
    hints_of: str
    expired: str
    start_clock: str
    remind: str

    @classmethod
    def for_placeholder(cls, p: str) -> _Sql:
        update = (
            f"UPDATE ginrummy_matches SET version = {p}, status = {p}, record = {p}, meta = {p}, "
            f"updated_at = {p}, deadline = {p} WHERE id = {p} AND version = {p}"
        )
        score = (
            f"UPDATE ginrummy_seats SET score = CASE seat WHEN 0 THEN {p} ELSE {p} END "
            f"WHERE match_id = {p}"
        )
        seats_of = "FROM ginrummy_matches m JOIN ginrummy_seats s ON s.match_id = m.id"
        # A player's matches: those they started, and those they hold a seat in (a friend's).
        mine = (
            f"(m.owner = {p} OR m.id IN "
            f"(SELECT h.match_id FROM ginrummy_seats h WHERE h.holder = {p}))"
        )
        abandoned = (
            f"SELECT id FROM ginrummy_matches WHERE version = 1 AND status = 'playing' "
            f"AND updated_at < {p}"
        )
        return cls(
            create_match=(
                "INSERT INTO ginrummy_matches (id, version, status, owner, record, meta, "
                f"created_at, updated_at, clock, deadline) "
                f"VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p}, {p})"
            ),
            create_seat=(
                "INSERT INTO ginrummy_seats (match_id, seat, kind, bot, bot_seed, holder, name, "
                f"score) VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p})"
            ),
            use_seed=f"DELETE FROM ginrummy_seeds WHERE commitment = {p} AND seat = {p}",
            get=f"SELECT {_MATCH}, {_SEAT}, NULL {seats_of} WHERE m.id = {p} ORDER BY s.seat",
            get_with_reply=(
                f"SELECT {_MATCH}, {_SEAT}, r.body {seats_of} LEFT JOIN ginrummy_replies r "
                f"ON r.match_id = m.id AND r.action_id = {p} WHERE m.id = {p} ORDER BY s.seat"
            ),
            update=update,
            score=score,
            keep_reply=(
                "INSERT INTO ginrummy_replies (match_id, action_id, version, body, created_at) "
                f"VALUES ({p}, {p}, {p}, {p}, {p})"
            ),
            prune_replies=f"DELETE FROM ginrummy_replies WHERE match_id = {p} AND version <= {p}",
            # PostgreSQL: the whole move in one statement, one round trip: the seats, the
            # reply and the pruning happen only if the compare-and-set update did.
            update_pg=(
                f"WITH moved AS ({update} RETURNING id), "
                f"scored AS (UPDATE ginrummy_seats SET score = CASE seat WHEN 0 THEN {p} "
                f"ELSE {p} END WHERE match_id IN (SELECT id FROM moved)), "
                "kept AS (INSERT INTO ginrummy_replies (match_id, action_id, version, body, "
                f"created_at) SELECT id, {p}, {p}, {p}, {p} FROM moved WHERE {p}), "
                "pruned AS (DELETE FROM ginrummy_replies WHERE match_id IN "
                f"(SELECT id FROM moved) AND version <= {p}) "
                # The other seat's stream hears of the move when, and only if, it commits.
                "SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM "
                f"(SELECT pg_notify('{CHANNEL}', id || ' ' || {p}) FROM moved) AS told), "
                # The database's clock as the statement ends, its commit next (autocommit).
                "extract(epoch FROM clock_timestamp())::float8"
            ),
            reply=f"SELECT body FROM ginrummy_replies WHERE match_id = {p} AND action_id = {p}",
            add_seed=(
                "INSERT INTO ginrummy_seeds (commitment, server_seed, seat, created_at) "
                f"VALUES ({p}, {p}, {p}, {p})"
            ),
            drop_seeds=f"DELETE FROM ginrummy_seeds WHERE created_at < {p}",
            seed=f"SELECT server_seed FROM ginrummy_seeds WHERE commitment = {p} AND seat = {p}",
            recent=(
                f"SELECT {_MATCH} FROM ginrummy_matches m WHERE {mine} "
                f"ORDER BY m.updated_at DESC LIMIT {p}"
            ),
            recent_seats=f"SELECT s.match_id, {_SEAT} {seats_of} WHERE {mine} ORDER BY s.seat",
            drop_abandoned_seats=f"DELETE FROM ginrummy_seats WHERE match_id IN ({abandoned})",
            drop_abandoned=f"DELETE FROM ginrummy_matches WHERE id IN ({abandoned})",
            add_secret=(
                f"INSERT INTO ginrummy_secrets (name, value) VALUES ({p}, {p}) "
                "ON CONFLICT (name) DO NOTHING"
            ),
            secret=f"SELECT value FROM ginrummy_secrets WHERE name = {p}",
            add_invite=(
                f"INSERT INTO ginrummy_invites ({_INVITE}) "
                f"VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p})"
            ),
            invite=f"SELECT {_INVITE} FROM ginrummy_invites WHERE code = {p}",
            open_invite=(
                f"SELECT {_INVITE} FROM ginrummy_invites WHERE match_id = {p} AND state = 'open' "
                "ORDER BY created_at DESC LIMIT 1"
            ),
            take_invite=(
                f"UPDATE ginrummy_invites SET state = 'taken' WHERE code = {p} AND state = 'open' "
                f"AND expires_at > {p}"
            ),
            take_seat=(
                f"UPDATE ginrummy_seats SET holder = {p}, name = {p} WHERE match_id = {p} "
                f"AND seat = {p} AND holder = {p}"
            ),
            cancel_invite=(
                f"UPDATE ginrummy_invites SET state = 'cancelled' WHERE code = {p} "
                f"AND owner = {p} AND state = 'open'"
            ),
            move_seat=(
                f"UPDATE ginrummy_seats SET holder = {p}, seen_at = '' WHERE match_id = {p} "
                f"AND seat = {p} AND holder = {p} AND kind = 'person'"
            ),
            touch_seat=(
                f"UPDATE ginrummy_seats SET seen_at = {p} WHERE match_id = {p} AND seat = {p} "
                f"AND holder = {p}"
            ),
            # Only a match in play, and only for whoever holds one of its person seats.
            delete_match=(
                f"DELETE FROM ginrummy_matches WHERE id = {p} AND status = 'playing' AND EXISTS "
                "(SELECT 1 FROM ginrummy_seats s WHERE s.match_id = ginrummy_matches.id "
                f"AND s.kind = 'person' AND s.holder = {p})"
            ),
            delete_seats=f"DELETE FROM ginrummy_seats WHERE match_id = {p}",
            delete_replies=f"DELETE FROM ginrummy_replies WHERE match_id = {p}",
            delete_invites=f"DELETE FROM ginrummy_invites WHERE match_id = {p}",
            delete_reviews=f"DELETE FROM ginrummy_reviews WHERE match_id = {p}",
            delete_hints=f"DELETE FROM ginrummy_hints WHERE match_id = {p}",
            review=(
                f"SELECT body FROM ginrummy_reviews WHERE match_id = {p} AND hand = {p} "
                f"AND seat = {p}"
            ),
            add_review=(
                "INSERT INTO ginrummy_reviews (match_id, hand, seat, body, created_at) "
                f"VALUES ({p}, {p}, {p}, {p}, {p}) ON CONFLICT (match_id, hand, seat) DO NOTHING"
            ),
            reviews_of=(
                "SELECT r.match_id, r.hand, r.seat, r.body, r.created_at FROM ginrummy_reviews r "
                f"JOIN ginrummy_matches m ON m.id = r.match_id WHERE m.owner = {p} "
                "ORDER BY r.created_at"
            ),
            add_hint=(
                "INSERT INTO ginrummy_hints (match_id, hand, seat, count) "
                f"VALUES ({p}, {p}, {p}, 1) "
                "ON CONFLICT (match_id, hand, seat) DO UPDATE SET count = ginrummy_hints.count + 1"
            ),
            hints_of=(
                "SELECT h.match_id, h.hand, h.seat, h.count FROM ginrummy_hints h "
                f"JOIN ginrummy_matches m ON m.id = h.match_id WHERE m.owner = {p}"
            ),
            expired=(
                "SELECT id FROM ginrummy_matches WHERE clock = 'timed' AND deadline <> '' "
                f"AND deadline <= {p} AND status = 'playing' ORDER BY deadline LIMIT {p}"
            ),
            remind=(
                f"UPDATE ginrummy_seats SET reminded_at = {p} WHERE match_id = {p} AND seat = {p}"
            ),
            start_clock=(
                f"UPDATE ginrummy_matches SET deadline = {p} WHERE id = {p} AND clock <> '' "
                "AND deadline = ''"
            ),
        )


_SQLITE = _Sql.for_placeholder("?")
_POSTGRES = _Sql.for_placeholder("%s")


class MatchStore:
    """The data layer over SQLite or PostgreSQL."""

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self.is_postgres = url.startswith(("postgresql://", "postgres://"))
        self.dialect: migrations.Dialect = "postgresql" if self.is_postgres else "sqlite"
        self._sql = _POSTGRES if self.is_postgres else _SQLITE
        self._path: str | None = None
        self._memory: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._local = threading.local()
        self._pool: Any = None
        self._buckets_pruned = 0.0
        self._counter: _Counter | None = None
        self.changes = Changes()
        """Who waits to hear of each match's changes (:mod:`ginrummy.web.changes`)."""
        self._listener: _Listener | None = None
        if self.is_postgres:
            self._pool = _pg_pool(url, pool_size, self.describe())
        else:
            path = url.removeprefix("sqlite:///").removeprefix("sqlite://")
            if path == ":memory:":
                # One shared connection: each new in-memory connection is a new database.
                self._memory = sqlite3.connect(
                    ":memory:", check_same_thread=False, isolation_level=None
                )
            else:
                Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
                self._path = str(Path(path).expanduser())

    @classmethod
    def open(cls, url: str | None = None, *, pool_size: int = POOL_SIZE) -> MatchStore:
        """Open the database at ``url``, making or upgrading its schema.

        ``url`` is a ``postgresql://`` URL, a ``sqlite:///path`` URL or a plain
        file path; ``None`` means :data:`DEFAULT_DB`. ``pool_size``: PostgreSQL
        connections this process may hold at once.
        """
        store = cls(url or DEFAULT_DB, pool_size=pool_size)
        store.upgrade()
        return store

    def close(self) -> None:
        """Close the PostgreSQL pool (SQLite connections close with their threads)."""
        if self._listener is not None:
            self._listener.stop()
        if self._pool is not None:
            self._pool.close()

    def describe(self) -> str:
        """Where the matches are kept, for the startup message (no password)."""
        if self.is_postgres:
            tail = self.url.rsplit("@", 1)[-1]
            return f"PostgreSQL {tail}"
        return "SQLite in memory" if self._memory else f"SQLite {self._path}"

    @contextmanager
    def _cursor(self, write: bool = False) -> Iterator[_Cursor]:
        if self._pool is not None:
            with self._pg_cursor(write) as cur:
                yield cur
            return
        if self._memory is not None:
            with self._lock:
                cur = self._memory.cursor()
                cur.execute("BEGIN IMMEDIATE")
                try:
                    yield cur
                except BaseException:
                    self._memory.rollback()
                    raise
                self._memory.commit()
            return
        assert self._path is not None
        # One connection per thread, kept open (closing the last one checkpoints the
        # WAL, a few ms each time). Autocommit mode, and transactions begun by hand: a
        # write takes the lock up front (BEGIN IMMEDIATE), so it never fails half-way
        # on a lock upgrade. synchronous=NORMAL in WAL mode: a commit survives the
        # process being killed at any point (only a power cut may lose the last ones).
        lite: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if lite is None:
            lite = sqlite3.connect(self._path, timeout=30, isolation_level=None)
            lite.execute("PRAGMA busy_timeout = 30000")
            lite.execute("PRAGMA synchronous = NORMAL")
            self._local.conn = lite
        lcur = lite.cursor()
        if not write:
            yield lcur
            return
        # The threads of this process queue for the write lock here, handing it on at
        # once, rather than in SQLite's busy handler, which sleeps in steps of up to
        # 100 ms while another connection holds it.
        with self._lock:
            lcur.execute("BEGIN IMMEDIATE")
            try:
                yield lcur
            except BaseException:
                lite.rollback()
                raise
            lite.commit()

    @contextmanager
    def _pg_cursor(self, write: bool) -> Iterator[_Cursor]:
        import psycopg
        import psycopg_pool

        try:
            with self._pool.connection() as conn:
                if write:
                    with conn.transaction(), conn.cursor() as cur:
                        yield cur
                else:
                    # One statement, its own transaction: no BEGIN and COMMIT round trips.
                    with conn.cursor() as cur:
                        yield cur
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as e:
            raise StorageError(f"{self.describe()}: {e}") from None

    # --- the schema ------------------------------------------------------------------

    def upgrade(self) -> int:
        """Apply the migrations this database has not had yet; the version it is now at.

        All of them in one transaction: a failure leaves the database as it was.
        """
        with self._cursor(write=True) as cur:
            if self.is_postgres:
                # Servers starting together on one database would race to upgrade it.
                cur.execute("SELECT pg_advisory_xact_lock(7291001)")
            cur.execute("CREATE TABLE IF NOT EXISTS ginrummy_schema (version INTEGER NOT NULL)")
            cur.execute("SELECT max(version) FROM ginrummy_schema")
            row = cur.fetchone()
            at = 0 if row is None or row[0] is None else int(row[0])
            if at > migrations.latest(self.dialect):
                raise StorageError(
                    f"{self.describe()} is at schema version {at}, newer than this code "
                    f"({migrations.latest(self.dialect)}): upgrade the app"
                )
            for step in migrations.steps(self.dialect)[at:]:
                for statement in migrations.statements(step):
                    cur.execute(statement)
                at = step.number
            cur.execute("DELETE FROM ginrummy_schema")
            cur.execute(f"INSERT INTO ginrummy_schema (version) VALUES ({at})")
        if self._path is not None:
            conn = sqlite3.connect(self._path)
            try:
                conn.execute("PRAGMA journal_mode = WAL")
            finally:
                conn.close()
        return at

    def schema_version(self) -> int:
        """The migration step this database is at."""
        with self._cursor() as cur:
            cur.execute("SELECT max(version) FROM ginrummy_schema")
            row = cur.fetchone()
        return int(row[0])

    # --- matches ---------------------------------------------------------------------

    def create(
        self,
        match: StoredMatch,
        *,
        commitment: str | None = None,
        invite: StoredInvite | None = None,
    ) -> bool:
        """Store a new match; ``False`` if ``commitment``'s seed was already used.

        With a ``commitment``, the seed committed to (:meth:`add_seed`) is used
        up in the same transaction, so one commitment deals one match only. An
        ``invite`` to its open seat is stored with it.
        """
        sql = self._sql
        record = json.dumps(match.record)
        with self._cursor(write=True) as cur:
            if commitment is not None:
                cur.execute(sql.use_seed, (commitment, match.owner))
                if cur.rowcount != 1:
                    return False
            cur.execute(
                sql.create_match,
                (
                    match.id,
                    match.version,
                    match.status,
                    match.owner,
                    record,
                    match.meta,
                    match.created_at,
                    match.updated_at,
                    match.clock,
                    match.deadline,
                ),
            )
            for s in match.seats:
                cur.execute(
                    sql.create_seat,
                    (match.id, s.index, s.kind, s.bot, s.bot_seed, s.holder, s.name, s.score),
                )
            if invite is not None:
                cur.execute(sql.add_invite, _invite_values(invite))
        return True

    def get(self, match_id: str) -> StoredMatch | None:
        """The match with this id, or ``None``."""
        with self._cursor() as cur:
            cur.execute(self._sql.get, (match_id,))
            rows = cur.fetchall()
        return _match(rows) if rows else None

    def get_with_reply(
        self, match_id: str, action_id: str | None
    ) -> tuple[StoredMatch | None, str | None]:
        """The match and the answer already given to ``action_id`` on it, in one query."""
        if action_id is None:
            return self.get(match_id), None
        with self._cursor() as cur:
            cur.execute(self._sql.get_with_reply, (action_id, match_id))
            rows = cur.fetchall()
        if not rows:
            return None, None
        body = rows[0][-1]
        return _match(rows), None if body is None else str(body)

    def update(
        self,
        match_id: str,
        version: int,
        record: dict[str, Any],
        meta: str,
        *,
        status: str,
        scores: tuple[int, int],
        reply: tuple[str, str] | None = None,
        stamp: str | None = None,
        deadline: str = "",
    ) -> float | None:
        """Replace version ``version`` of a match by the next; ``None`` if it moved on, else
        when it committed (seconds since the epoch: on PostgreSQL the database's clock as
        the move's one statement ends, its commit following at once; on SQLite this
        process's, just before the commit).

        ``reply`` is (action id, the answer's JSON text), kept in the same
        transaction for :meth:`reply` to give again; replies to versions more
        than :data:`KEPT_REPLIES` back are dropped. ``stamp`` is the new
        ``updated_at`` (default: :func:`now`); ``deadline`` when the seat to act in the new
        version runs out of time (empty: no clock runs).
        """
        sql = self._sql
        when = stamp or now()
        new = version + 1
        # The JSON is written before the write lock is taken, to hold it briefly.
        values = (new, status, json.dumps(record), meta, when, deadline, match_id, version)
        oldest = new - KEPT_REPLIES
        if self._pool is not None:
            action_id, body = reply if reply is not None else ("", "")
            params = (
                *values,
                *scores,
                action_id,
                new,
                body,
                when,
                reply is not None,
                oldest,
                str(new),
            )
            with self._cursor() as cur:
                cur.execute(sql.update_pg, params)
                row = cur.fetchone()
                return float(row[2]) if row and row[0] == 1 else None
        with self._cursor(write=True) as cur:
            cur.execute(sql.update, values)
            if cur.rowcount != 1:
                return None
            cur.execute(sql.score, (*scores, match_id))
            if reply is not None:
                cur.execute(sql.keep_reply, (match_id, reply[0], new, reply[1], when))
            cur.execute(sql.prune_replies, (match_id, oldest))
            committed = time.time()
        self.changes.publish(match_id)
        return committed

    def delete(self, match_id: str, holder: str) -> bool:
        """Delete a match still in play, with its seats and kept replies, if ``holder`` holds
        one of its person seats; ``False`` (nothing deleted) otherwise.

        >>> store = MatchStore.open(":memory:")
        >>> seats = (StoredSeat.for_person(0, "me"), StoredSeat.for_bot(1, "easy", 7))
        >>> store.create(StoredMatch.new("m1", {}, "{}", status="playing", seats=seats))
        True
        >>> store.delete("m1", "someone else"), store.delete("m1", "me"), store.get("m1")
        (False, True, None)
        """
        sql = self._sql
        with self._cursor(write=True) as cur:
            cur.execute(sql.delete_match, (match_id, holder))
            if cur.rowcount != 1:
                return False
            cur.execute(sql.delete_seats, (match_id,))
            cur.execute(sql.delete_replies, (match_id,))
            cur.execute(sql.delete_invites, (match_id,))
            cur.execute(sql.delete_reviews, (match_id,))
            cur.execute(sql.delete_hints, (match_id,))
        # A friend's open stream hears of it and finds the match gone.
        self.changes.publish(match_id)
        return True

    def reply(self, match_id: str, action_id: str) -> str | None:
        """The answer already given to action ``action_id`` on this match, if any."""
        with self._cursor() as cur:
            cur.execute(self._sql.reply, (match_id, action_id))
            row = cur.fetchone()
        return None if row is None else str(row[0])

    def recent(self, owner: str, limit: int = 100) -> list[StoredMatch]:
        """The matches ``owner`` started or holds a seat in, the most recently played first."""
        with self._cursor() as cur:
            cur.execute(self._sql.recent, (owner, owner, limit))
            rows = cur.fetchall()
            cur.execute(self._sql.recent_seats, (owner, owner))
            seat_rows = cur.fetchall()
        seats: dict[str, list[StoredSeat]] = {}
        for r in seat_rows:
            seats.setdefault(str(r[0]), []).append(_seat(r[1:]))
        return [_match([r], tuple(seats.get(str(r[0]), ()))) for r in rows]

    # --- seeds and abandoned matches ---------------------------------------------------

    def add_seed(self, commitment: str, server_seed: str, seat: str) -> None:
        """Keep a server seed committed to for ``seat``'s next match.

        Stale seeds go, and so do matches abandoned before their first move
        (:data:`ABANDONED_AFTER`).
        """
        at = datetime.now(UTC)
        stale = _stamp(at - SEED_LIFETIME)
        abandoned = _stamp(at - ABANDONED_AFTER)
        sql = self._sql
        with self._cursor(write=True) as cur:
            cur.execute(sql.drop_seeds, (stale,))
            cur.execute(sql.drop_abandoned_seats, (abandoned,))
            cur.execute(sql.drop_abandoned, (abandoned,))
            cur.execute(sql.add_seed, (commitment, server_seed, seat, _stamp(at)))

    def secret(self, name: str) -> bytes:
        """A random 32-byte key kept under ``name``, made the first time it is asked for.

        Every process on the database and every restart gets the same key (the
        seat tokens' signing key, :mod:`ginrummy.web.limits`).
        """
        with self._cursor(write=True) as cur:
            cur.execute(self._sql.add_secret, (name, secrets.token_hex(32)))
            cur.execute(self._sql.secret, (name,))
            row = cur.fetchone()
        return bytes.fromhex(str(row[0]))

    def take_tokens(self, key: str, rate: float, burst: int, want: int = 1) -> tuple[int, float]:
        """Take up to ``want`` requests from ``key``'s token bucket: how many it gave (0 to
        ``want``, as many whole tokens as it held) and, if none, the seconds to wait for one.

        PostgreSQL only (:data:`_TAKE_TOKENS`): one statement, on the database's
        clock, so every process sharing the database shares the bucket. Now and
        then the buckets full again are dropped.
        """
        if self._pool is None:
            raise StorageError("rate-limit buckets are kept in the database on PostgreSQL only")
        values = {"key": key, "rate": rate, "burst": float(burst), "want": float(want)}
        with self._cursor() as cur:
            cur.execute(_TAKE_TOKENS, values)
            row = cur.fetchone()
            tokens, given, at = float(row[0]), int(row[1]), float(row[2])
            if at - self._buckets_pruned > BUCKETS_PRUNED_EVERY:
                self._buckets_pruned = at
                cur.execute("DELETE FROM ginrummy_buckets WHERE full_at < %s", (at,))
        return given, 0.0 if given else (1.0 - tokens) / rate

    async def open_counter(self) -> None:
        """On PostgreSQL, open a connection on the running event loop for the rate-limit
        buckets (:meth:`take_tokens_async`): counting a request then needs no hand-off to a
        thread and back. The app does it at start-up; without it (or should it break) the
        buckets are counted on threads through the pool (:meth:`take_tokens`)."""
        if self._pool is None or self._counter is not None:
            return
        import psycopg

        try:
            conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        except psycopg.Error:
            return
        self._counter = _Counter(asyncio.get_running_loop(), conn, asyncio.Lock())

    async def close_counter(self) -> None:
        """Close the event loop's bucket connection (at shutdown)."""
        counter, self._counter = self._counter, None
        if counter is not None and counter.loop is asyncio.get_running_loop():
            await counter.conn.close()

    async def take_tokens_async(
        self, key: str, rate: float, burst: int, want: int = 1
    ) -> tuple[int, float] | None:
        """:meth:`take_tokens` on the event loop's own connection (:meth:`open_counter`);
        ``None`` when this loop has none."""
        counter = self._counter
        if counter is None or counter.loop is not asyncio.get_running_loop():
            return None
        import psycopg

        values = {"key": key, "rate": rate, "burst": float(burst), "want": float(want)}
        # One statement at a time on the one connection; each is a fraction of a millisecond.
        async with counter.lock:
            try:
                cur = await counter.conn.execute(_TAKE_TOKENS, values)
                row = await cur.fetchone()
                assert row is not None
                tokens, given, at = float(row[0]), int(row[1]), float(row[2])
                if at - self._buckets_pruned > BUCKETS_PRUNED_EVERY:
                    self._buckets_pruned = at
                    await counter.conn.execute(
                        "DELETE FROM ginrummy_buckets WHERE full_at < %s", (at,)
                    )
            except psycopg.Error as e:
                if counter.conn.broken or counter.conn.closed:
                    self._counter = None  # the pool's threads count from now on
                raise StorageError(f"{self.describe()}: {e}") from None
        return given, 0.0 if given else (1.0 - tokens) / rate

    def seed(self, commitment: str, seat: str) -> str | None:
        """The server seed behind ``commitment``, if ``seat`` holds it unused."""
        with self._cursor() as cur:
            cur.execute(self._sql.seed, (commitment, seat))
            row = cur.fetchone()
        return None if row is None else str(row[0])

    # --- invites, seats and live streams ---------------------------------------------------

    def _told(self, cur: _Cursor, match_id: str, what: str) -> None:
        """Announce a change of ``match_id`` in the transaction that makes it (PostgreSQL)."""
        if self._pool is not None:
            cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{match_id} {what}"))

    def _after(self, match_id: str) -> None:
        """Announce a committed change of ``match_id`` in this process (SQLite)."""
        if self._pool is None:
            self.changes.publish(match_id)

    def add_invite(self, invite: StoredInvite) -> None:
        """Store an invite to a match that exists already."""
        with self._cursor(write=True) as cur:
            cur.execute(self._sql.add_invite, _invite_values(invite))

    def invite(self, code: str) -> StoredInvite | None:
        """The invite with this code, whatever its state."""
        with self._cursor() as cur:
            cur.execute(self._sql.invite, (code,))
            row = cur.fetchone()
        return None if row is None else _invite(row)

    def open_invite(self, match_id: str) -> StoredInvite | None:
        """The match's latest invite still open (perhaps expired), if any."""
        with self._cursor() as cur:
            cur.execute(self._sql.open_invite, (match_id,))
            row = cur.fetchone()
        return None if row is None else _invite(row)

    def take_invite(
        self, invite: StoredInvite, holder: str, name: str | None, at: str, deadline: str = ""
    ) -> bool:
        """Give the invite's seat to ``holder`` if the invite is still open at ``at``.

        One transaction: of several takers at once, exactly one gets the seat. A match
        with a move clock starts it then, to run out at ``deadline``.
        """
        sql = self._sql
        try:
            with self._cursor(write=True) as cur:
                cur.execute(sql.take_invite, (invite.code, at))
                if cur.rowcount != 1:
                    return False
                cur.execute(sql.take_seat, (holder, name, invite.match_id, invite.seat, OPEN_SEAT))
                if cur.rowcount != 1:
                    raise _Undo  # the seat is no longer open: leave the invite open too
                if deadline:
                    cur.execute(sql.start_clock, (deadline, invite.match_id))
                self._told(cur, invite.match_id, "seats")
        except _Undo:
            return False
        self._after(invite.match_id)
        return True

    def cancel_invite(self, code: str, owner: str) -> bool:
        """Cancel ``owner``'s invite while it is open; whether it was."""
        with self._cursor(write=True) as cur:
            cur.execute(self._sql.cancel_invite, (code, owner))
            return bool(cur.rowcount == 1)

    def move_seat(self, match_id: str, seat: int, holder: str, to: str) -> bool:
        """Give a person seat held by ``holder`` to ``to``; ``False`` if ``holder`` lost it."""
        with self._cursor(write=True) as cur:
            cur.execute(self._sql.move_seat, (to, match_id, seat, holder))
            if cur.rowcount != 1:
                return False
            self._told(cur, match_id, "seats")
        self._after(match_id)
        return True

    def touch_seat(
        self, match_id: str, seat: int, holder: str, seen_at: str, *, announce: bool
    ) -> None:
        """Note when a live stream of this seat was last open (``""``: it closed), while
        ``holder`` holds it; with ``announce`` wake the match's other streams to say so."""
        # A stream's heartbeat on PostgreSQL is one statement, its own transaction: no BEGIN
        # and COMMIT round trips (SQLite's writes queue for its lock all the same).
        with self._cursor(write=announce or self._pool is None) as cur:
            cur.execute(self._sql.touch_seat, (seen_at, match_id, seat, holder))
            if announce:
                self._told(cur, match_id, "seats")
        if announce:
            self._after(match_id)

    def remind(self, match_id: str, seat: int, at: str) -> None:
        """Note that ``seat`` was reminded at ``at`` that its time is up, and tell the
        match's streams (its player's page says so)."""
        with self._cursor(write=True) as cur:
            cur.execute(self._sql.remind, (at, match_id, seat))
            self._told(cur, match_id, "seats")
        self._after(match_id)

    def expired(self, at: str, limit: int = 50) -> list[str]:
        """The timed matches in play whose seat to act ran out of time by ``at``, the
        longest overdue first."""
        with self._cursor() as cur:
            cur.execute(self._sql.expired, (at, limit))
            rows = cur.fetchall()
        return [str(r[0]) for r in rows]

    def listen(self) -> None:
        """On PostgreSQL, start hearing every process's changes (once; a thread does it)."""
        with self._lock:
            if self._pool is not None and self._listener is None:
                self._listener = _Listener(self.url, self.changes)
                self._listener.start()

    # --- the coach: reviews and hints ---------------------------------------------------

    def review(self, match_id: str, hand: int, seat: int) -> str | None:
        """The stored review (JSON text) of hand ``hand`` for ``seat``, if it was made."""
        with self._cursor() as cur:
            cur.execute(self._sql.review, (match_id, hand, seat))
            row = cur.fetchone()
        return None if row is None else str(row[0])

    def add_review(self, match_id: str, hand: int, seat: int, body: str) -> None:
        """Keep a finished review; one made first by another process is kept instead."""
        with self._cursor(write=True) as cur:
            cur.execute(self._sql.add_review, (match_id, hand, seat, body, now()))

    def reviews_of(self, owner: str) -> list[StoredReview]:
        """The stored reviews of the matches ``owner`` started, the oldest first."""
        with self._cursor() as cur:
            cur.execute(self._sql.reviews_of, (owner,))
            rows = cur.fetchall()
        return [StoredReview(str(r[0]), int(r[1]), int(r[2]), str(r[3]), str(r[4])) for r in rows]

    def add_hint(self, match_id: str, hand: int, seat: int) -> None:
        """Count one hint given to ``seat`` in hand ``hand`` of a match."""
        with self._cursor(write=True) as cur:
            cur.execute(self._sql.add_hint, (match_id, hand, seat))

    def hints_of(self, owner: str) -> dict[tuple[str, int, int], int]:
        """The hints counted in the matches ``owner`` started: (match, hand, seat) -> count."""
        with self._cursor() as cur:
            cur.execute(self._sql.hints_of, (owner,))
            rows = cur.fetchall()
        return {(str(r[0]), int(r[1]), int(r[2])): int(r[3]) for r in rows}


OPEN_SEAT = "-"
"""The holder of a person seat waiting for the friend its invite is for (no seat id is
this short, so nobody holds it)."""


@dataclass(slots=True)
class _Counter:
    """An event loop's own connection for the rate-limit buckets."""

    loop: asyncio.AbstractEventLoop
    conn: Any
    lock: asyncio.Lock


class _Undo(Exception):
    """Roll a write back (it found the rows other than it expected)."""


class _Listener:
    """A thread holding one PostgreSQL connection that LISTENs on :data:`CHANNEL` and
    wakes this process's streams (see :mod:`ginrummy.web.changes`)."""

    def __init__(self, url: str, changes: Changes) -> None:
        self._url = url
        self._changes = changes
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ginrummy-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self._url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    # Changes made while no connection listened were not heard: look again.
                    self._changes.publish_all()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            self._changes.publish(note.payload.split(" ", 1)[0])
            except psycopg.Error:
                self._stop.wait(1.0)


def _invite_values(invite: StoredInvite) -> tuple[Any, ...]:
    return (
        invite.code,
        invite.match_id,
        invite.seat,
        invite.owner,
        invite.state,
        invite.created_at,
        invite.expires_at,
    )


def _invite(r: Sequence[Any]) -> StoredInvite:
    return StoredInvite(
        code=str(r[0]),
        match_id=str(r[1]),
        seat=int(r[2]),
        owner=str(r[3]),
        state=str(r[4]),
        created_at=str(r[5]),
        expires_at=str(r[6]),
    )


_FILLED = "least(%(burst)s, b.tokens + (excluded.at - b.at) * %(rate)s)"
_GIVEN = f"CASE WHEN {_FILLED} >= 1 THEN least(floor({_FILLED}), %(want)s) ELSE 0 END"
_TAKE_TOKENS = f"""
INSERT INTO ginrummy_buckets AS b (key, tokens, at, full_at, allowed, given)
SELECT %(key)s, %(burst)s - g.given, t.now, t.now + g.given / %(rate)s, true, g.given
FROM (SELECT extract(epoch FROM clock_timestamp())::float8 AS now) AS t,
     (SELECT least(%(want)s, %(burst)s) AS given) AS g
ON CONFLICT (key) DO UPDATE SET
    tokens = {_FILLED} - {_GIVEN},
    given = {_GIVEN},
    at = excluded.at,
    full_at = excluded.at + (%(burst)s - {_FILLED} + {_GIVEN}) / %(rate)s
RETURNING b.tokens, b.given, b.at
"""
"""A token bucket taken from in one statement: a new key starts full (``burst``) less what
it gives; an old one refills at ``rate`` a second since it was last used, up to ``burst``,
and gives as many whole tokens as it holds, up to ``want`` (none if it holds less than
one). ``full_at`` is when it will be full again (and may be dropped). ``allowed`` (what a
statement said before ``given`` did) is set only when a row is made, since it may not be
null; nothing reads it."""


@dataclass(frozen=True, slots=True)
class StoredReview:
    """A stored review: which hand of which match, for which seat, and its JSON text."""

    match_id: str
    hand: int
    seat: int
    body: str
    created_at: str


def _pg_pool(url: str, size: int, where: str) -> Any:
    try:
        from psycopg_pool import ConnectionPool
    except ImportError:  # pragma: no cover - depends on the install
        raise StorageError(
            "PostgreSQL needs psycopg and psycopg_pool: pip install 'psycopg[binary,pool]'"
        ) from None
    pool = ConnectionPool(
        url, min_size=1, max_size=size, kwargs={"autocommit": True}, open=False, name="ginrummy"
    )
    try:
        pool.open(wait=True, timeout=15)
    except Exception as e:
        pool.close()
        raise StorageError(f"cannot connect to {where}: {e}") from None
    return pool


def _seat(r: Sequence[Any]) -> StoredSeat:
    return StoredSeat(
        index=int(r[0]),
        kind=str(r[1]),
        bot=None if r[2] is None else str(r[2]),
        bot_seed=None if r[3] is None else int(r[3]),
        holder=str(r[4]),
        name=None if r[5] is None else str(r[5]),
        score=int(r[6]),
        seen_at=str(r[7] or ""),
        reminded_at=str(r[8] or ""),
    )


def _match(
    rows: Sequence[Sequence[Any]], seats: tuple[StoredSeat, ...] | None = None
) -> StoredMatch:
    """A match from its rows (one per seat, the match's columns first)."""
    r = rows[0]
    return StoredMatch(
        id=str(r[0]),
        version=int(r[1]),
        status=str(r[2]),
        owner=str(r[3]),
        record=json.loads(r[4]),
        meta=str(r[5]),
        created_at=str(r[6]),
        updated_at=str(r[7]),
        seats=seats if seats is not None else tuple(_seat(row[10:19]) for row in rows),
        clock=str(r[8] or ""),
        deadline=str(r[9] or ""),
    )
