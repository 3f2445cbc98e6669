"""Where matches live: one table, in SQLite by default or in PostgreSQL.

A stored match is its record (:func:`ginrummy.records.match_to_dict`: the
settings, who dealt, each dealt hand's deck and the actions), a little
server-side data (the computer's seed, test deck orders) and a version
number. Every change is a compare-and-set on that version, so two tabs, two
requests or two server processes can never both apply a move made on the same
state: the second one finds the version moved on and is refused.

Each write is one transaction (on SQLite one that takes the write lock up
front, ``BEGIN IMMEDIATE``), so a crash at any point leaves every match at its
last committed version. Beside the matches are the server seeds committed to
before a match exists (:meth:`MatchStore.add_seed`) and the replies already
given to actions, by action id (:meth:`MatchStore.reply`), so that a repeated
request gets the first answer instead of applying twice.

>>> store = MatchStore.open("sqlite:///:memory:")
>>> store.create(StoredMatch.new("m1", {"a": 1}, {}, status="playing", scores=(0, 0)))
True
>>> store.get("m1").version
1
>>> store.update("m1", 1, {"a": 2}, {}, status="playing", scores=(5, 0))
True
>>> store.update("m1", 1, {"a": 3}, {}, status="playing", scores=(9, 0))
False
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

__all__ = ["DEFAULT_DB", "SEED_LIFETIME", "MatchStore", "StorageError", "StoredMatch", "now"]

DEFAULT_DB = "data/ginrummy.sqlite3"
"""The SQLite file used when no database is named (relative to the working directory)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS ginrummy_matches (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    status TEXT NOT NULL,
    score_you INTEGER NOT NULL,
    score_computer INTEGER NOT NULL,
    record TEXT NOT NULL,
    meta TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
)
"""
_INDEX = "CREATE INDEX IF NOT EXISTS ginrummy_matches_updated ON ginrummy_matches (updated_at)"
_SEAT_INDEX = (
    "CREATE INDEX IF NOT EXISTS ginrummy_matches_seat ON ginrummy_matches (seat, updated_at)"
)
_SEEDS = """
CREATE TABLE IF NOT EXISTS ginrummy_seeds (
    commitment TEXT PRIMARY KEY,
    server_seed TEXT NOT NULL,
    seat TEXT NOT NULL,
    created_at TEXT NOT NULL
)
"""
_REPLIES = """
CREATE TABLE IF NOT EXISTS ginrummy_replies (
    match_id TEXT NOT NULL,
    action_id TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (match_id, action_id)
)
"""
_COLUMNS = (
    "id, version, status, score_you, score_computer, record, meta, created_at, updated_at, seat"
)
_MATCH_COLUMNS = ", ".join(f"m.{c.strip()}" for c in _COLUMNS.split(","))
_UPDATE = (
    "UPDATE ginrummy_matches SET version = ?, status = ?, score_you = ?, score_computer = ?, "
    "record = ?, meta = ?, updated_at = ? WHERE id = ? AND version = ?"
)
_KEEP = (
    "INSERT INTO ginrummy_replies (match_id, action_id, body, created_at) "
    "SELECT id, ?, ?, ? FROM moved"
)
SEED_LIFETIME = timedelta(hours=1)
"""How long a server seed committed to for a new match waits to be used."""


class StorageError(RuntimeError):
    """The database cannot be opened or used."""


def now() -> str:
    """The current time as an ISO 8601 UTC string (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """One row: a match record and its bookkeeping."""

    id: str
    version: int
    status: str
    """``playing`` or ``over``."""
    scores: tuple[int, int]
    """The running totals (the player's, the computer's), for listings."""
    record: dict[str, Any]
    meta: dict[str, Any]
    created_at: str
    updated_at: str
    seat: str = ""
    """The seat id (the SHA-256 of the seat token) of the player who started it."""

    @classmethod
    def new(
        cls,
        match_id: str,
        record: dict[str, Any],
        meta: dict[str, Any],
        *,
        status: str,
        scores: tuple[int, int],
        seat: str = "",
    ) -> StoredMatch:
        """A first version of a match, stamped now."""
        stamp = now()
        return cls(match_id, 1, status, scores, record, meta, stamp, stamp, seat)


class _Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class MatchStore:
    """The data layer: the same SQL on SQLite (``?``) and PostgreSQL (``%s``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_postgres = url.startswith(("postgresql://", "postgres://"))
        self._path: str | None = None
        self._memory: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self._local = threading.local()
        if not self.is_postgres:
            path = url.removeprefix("sqlite:///").removeprefix("sqlite://")
            if path == ":memory:":
                # One shared connection: each new in-memory connection is a new database.
                self._memory = sqlite3.connect(":memory:", check_same_thread=False)
            else:
                Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
                self._path = str(Path(path).expanduser())

    @classmethod
    def open(cls, url: str | None = None) -> MatchStore:
        """Open (and create if need be) the database at ``url``.

        ``url`` is a ``postgresql://`` URL, a ``sqlite:///path`` URL or a plain
        file path; ``None`` means :data:`DEFAULT_DB`.
        """
        store = cls(url or DEFAULT_DB)
        store.create_schema()
        return store

    def describe(self) -> str:
        """Where the matches are kept, for the startup message (no password)."""
        if self.is_postgres:
            tail = self.url.rsplit("@", 1)[-1]
            return f"PostgreSQL {tail}"
        return "SQLite in memory" if self._memory else f"SQLite {self._path}"

    @contextmanager
    def _cursor(self, write: bool = False) -> Iterator[_Cursor]:
        if self.is_postgres:
            try:
                import psycopg
            except ImportError:  # pragma: no cover - depends on the install
                raise StorageError(
                    "PostgreSQL needs the psycopg package: pip install 'psycopg[binary]'"
                ) from None
            # One connection per thread, kept open (a new one costs several ms); each
            # use is one transaction. A broken connection is dropped and made anew.
            conn = getattr(self._local, "pg", None)
            if conn is None or conn.closed or conn.broken:
                try:
                    conn = psycopg.connect(self.url, autocommit=True)
                except psycopg.Error as e:
                    raise StorageError(f"cannot connect to {self.describe()}: {e}") from None
                self._local.pg = conn
            try:
                if write:
                    with conn.transaction(), conn.cursor() as cur:
                        yield _PgCursor(cur)
                else:
                    # One statement, its own transaction: no BEGIN and COMMIT round trips.
                    with conn.cursor() as cur:
                        yield _PgCursor(cur)
            except psycopg.OperationalError as e:
                self._local.pg = None
                raise StorageError(f"{self.describe()}: {e}") from None
            return
        if self._memory is not None:
            with self._lock, self._memory:
                yield self._memory.cursor()
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

    def create_schema(self) -> None:
        """Create the table if it is not there."""
        with self._cursor(write=True) as cur:
            if self.is_postgres:
                # Servers starting together on one database would race to create the table.
                cur.execute("SELECT pg_advisory_xact_lock(7291001)")
            cur.execute(_SCHEMA)
            cur.execute(_INDEX)
            cur.execute(_SEEDS)
            cur.execute(_REPLIES)
            if self.is_postgres:
                cur.execute(
                    "ALTER TABLE ginrummy_matches ADD COLUMN IF NOT EXISTS "
                    "seat TEXT NOT NULL DEFAULT ''"
                )
            else:
                cur.execute("PRAGMA table_info(ginrummy_matches)")
                if "seat" not in {str(r[1]) for r in cur.fetchall()}:
                    cur.execute(
                        "ALTER TABLE ginrummy_matches ADD COLUMN seat TEXT NOT NULL DEFAULT ''"
                    )
            cur.execute(_SEAT_INDEX)
        if self._path is not None:
            conn = sqlite3.connect(self._path)
            try:
                conn.execute("PRAGMA journal_mode = WAL")
            finally:
                conn.close()

    def create(self, match: StoredMatch, *, commitment: str | None = None) -> bool:
        """Store a new match; ``False`` if ``commitment``'s seed was already used.

        With a ``commitment``, the seed committed to (:meth:`add_seed`) is used
        up in the same transaction, so one commitment deals one match only.
        """
        with self._cursor(write=True) as cur:
            if commitment is not None:
                cur.execute(
                    "DELETE FROM ginrummy_seeds WHERE commitment = ? AND seat = ?",
                    (commitment, match.seat),
                )
                if cur.rowcount != 1:
                    return False
            cur.execute(
                f"INSERT INTO ginrummy_matches ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    match.id,
                    match.version,
                    match.status,
                    match.scores[0],
                    match.scores[1],
                    json.dumps(match.record),
                    json.dumps(match.meta),
                    match.created_at,
                    match.updated_at,
                    match.seat,
                ),
            )
        return True

    def get(self, match_id: str) -> StoredMatch | None:
        """The match with this id, or ``None``."""
        with self._cursor() as cur:
            cur.execute(f"SELECT {_COLUMNS} FROM ginrummy_matches WHERE id = ?", (match_id,))
            row = cur.fetchone()
        return None if row is None else _row(row)

    def get_with_reply(
        self, match_id: str, action_id: str | None
    ) -> tuple[StoredMatch | None, str | None]:
        """The match and the answer already given to ``action_id`` on it, in one query."""
        if action_id is None:
            return self.get(match_id), None
        with self._cursor() as cur:
            cur.execute(
                f"SELECT {_MATCH_COLUMNS}, r.body FROM ginrummy_matches m "
                "LEFT JOIN ginrummy_replies r ON r.match_id = m.id AND r.action_id = ? "
                "WHERE m.id = ?",
                (action_id, match_id),
            )
            row = cur.fetchone()
        if row is None:
            return None, None
        return _row(row), None if row[-1] is None else str(row[-1])

    def update(
        self,
        match_id: str,
        version: int,
        record: dict[str, Any],
        meta: dict[str, Any],
        *,
        status: str,
        scores: tuple[int, int],
        reply: tuple[str, str] | None = None,
        stamp: str | None = None,
    ) -> bool:
        """Replace version ``version`` of a match by the next; ``False`` if it moved on.

        ``reply`` is (action id, the answer's JSON text), kept in the same
        transaction for :meth:`reply` to give again. ``stamp`` is the new
        ``updated_at`` (default: :func:`now`).
        """
        when = stamp or now()
        # The JSON is written before the write lock is taken, to hold it briefly.
        values = (
            version + 1,
            status,
            scores[0],
            scores[1],
            json.dumps(record),
            json.dumps(meta),
            when,
            match_id,
            version,
        )
        if self.is_postgres:
            # One statement, so one round trip and its own transaction: the reply is
            # inserted only if the compare-and-set update happened.
            sql = _UPDATE if reply is None else f"WITH moved AS ({_UPDATE} RETURNING id) {_KEEP}"
            extra = () if reply is None else (reply[0], reply[1], when)
            with self._cursor() as cur:
                cur.execute(sql, (*values, *extra))
                return cur.rowcount == 1
        with self._cursor(write=True) as cur:
            cur.execute(_UPDATE, values)
            if cur.rowcount != 1:
                return False
            if reply is not None:
                cur.execute(
                    "INSERT INTO ginrummy_replies (match_id, action_id, body, created_at) "
                    "VALUES (?, ?, ?, ?)",
                    (match_id, reply[0], reply[1], when),
                )
            return True

    def reply(self, match_id: str, action_id: str) -> str | None:
        """The answer already given to action ``action_id`` on this match, if any."""
        with self._cursor() as cur:
            cur.execute(
                "SELECT body FROM ginrummy_replies WHERE match_id = ? AND action_id = ?",
                (match_id, action_id),
            )
            row = cur.fetchone()
        return None if row is None else str(row[0])

    def add_seed(self, commitment: str, server_seed: str, seat: str) -> None:
        """Keep a server seed committed to for ``seat``'s next match (and drop stale ones)."""
        stamp = now()
        stale = (datetime.now(UTC) - SEED_LIFETIME).isoformat(timespec="milliseconds")
        with self._cursor(write=True) as cur:
            cur.execute("DELETE FROM ginrummy_seeds WHERE created_at < ?", (stale,))
            cur.execute(
                "INSERT INTO ginrummy_seeds (commitment, server_seed, seat, created_at) "
                "VALUES (?, ?, ?, ?)",
                (commitment, server_seed, seat, stamp),
            )

    def seed(self, commitment: str, seat: str) -> str | None:
        """The server seed behind ``commitment``, if ``seat`` holds it unused."""
        with self._cursor() as cur:
            cur.execute(
                "SELECT server_seed FROM ginrummy_seeds WHERE commitment = ? AND seat = ?",
                (commitment, seat),
            )
            row = cur.fetchone()
        return None if row is None else str(row[0])

    def recent(self, limit: int = 100, *, seat: str | None = None) -> list[StoredMatch]:
        """The matches most recently played first (only ``seat``'s, when given)."""
        with self._cursor() as cur:
            if seat is None:
                cur.execute(
                    f"SELECT {_COLUMNS} FROM ginrummy_matches ORDER BY updated_at DESC LIMIT ?",
                    (limit,),
                )
            else:
                cur.execute(
                    f"SELECT {_COLUMNS} FROM ginrummy_matches WHERE seat = ? "
                    "ORDER BY updated_at DESC LIMIT ?",
                    (seat, limit),
                )
            rows = cur.fetchall()
        return [_row(r) for r in rows]

    def secret(self, name: str) -> bytes:
        """A random 32-byte key kept under ``name``, made the first time it is asked for.

        Every process on the database and every restart gets the same key (the
        seat tokens' signing key, :mod:`ginrummy.web.limits`).
        """
        with self._cursor(write=True) as cur:
            if self.is_postgres:
                cur.execute("SELECT pg_advisory_xact_lock(7291001)")
            cur.execute(
                "CREATE TABLE IF NOT EXISTS ginrummy_secrets "
                "(name TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
            cur.execute(
                "INSERT INTO ginrummy_secrets (name, value) VALUES (?, ?) "
                "ON CONFLICT (name) DO NOTHING",
                (name, secrets.token_hex(32)),
            )
            cur.execute("SELECT value FROM ginrummy_secrets WHERE name = ?", (name,))
            row = cur.fetchone()
        return bytes.fromhex(str(row[0]))


class _PgCursor:
    """A psycopg cursor that takes the ``?`` placeholders the SQLite side uses."""

    def __init__(self, cur: Any) -> None:
        self._cur = cur

    @property
    def rowcount(self) -> int:
        return int(self._cur.rowcount)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cur.execute(sql.replace("?", "%s"), params)

    def fetchone(self) -> Any:
        return self._cur.fetchone()

    def fetchall(self) -> list[Any]:
        return list(self._cur.fetchall())


def _row(row: Sequence[Any]) -> StoredMatch:
    return StoredMatch(
        id=str(row[0]),
        version=int(row[1]),
        status=str(row[2]),
        scores=(int(row[3]), int(row[4])),
        record=json.loads(row[5]),
        meta=json.loads(row[6]),
        created_at=str(row[7]),
        updated_at=str(row[8]),
        seat=str(row[9]),
    )
