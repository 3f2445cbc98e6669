"""A database made by the code before versioned migrations upgrades in place, losing nothing.

The fixtures (``fixtures/README.md``) were made by the code at commit 44681f2:
five matches (over, mid-hand, awaiting a deal, never moved in, from before seat
tokens) on SQLite and on PostgreSQL. Opened by today's code, every match must
load, keep its version, its scores and its computer's level (now its bot
seat's), and play on.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from ginrummy.records import match_from_dict
from ginrummy.web import game, migrations
from ginrummy.web.game import DeckSource, Refused
from ginrummy.web.present import match_out, proofs_out
from ginrummy.web.storage import MatchStore

FIXTURES = Path(__file__).parent / "fixtures"
OWNER = "5eed" * 16
"""The seat id that started the fixtures' matches (all but one, from before seats)."""
SCHEMA = "ginrummy_upgrade_test"


@dataclass(frozen=True)
class Old:
    """A match as the old schema held it."""

    version: int
    status: str
    scores: tuple[int, int]
    difficulty: str
    bot_seed: int
    owner: str


def _old_rows(rows: list[Any]) -> dict[str, Old]:
    return {
        str(r[0]): Old(
            int(r[1]),
            str(r[2]),
            (int(r[3]), int(r[4])),
            json.loads(r[5])["settings"]["difficulty"],
            int(json.loads(r[6])["bot_seed"]),
            str(r[7]),
        )
        for r in rows
    }


_OLD_QUERY = (
    "SELECT id, version, status, score_you, score_computer, record, meta, seat "
    "FROM ginrummy_matches"
)


def _sqlite(tmp_path: Path) -> tuple[str, dict[str, Old]]:
    path = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "v0.sqlite3", path)
    with sqlite3.connect(path) as conn:
        old = _old_rows(conn.execute(_OLD_QUERY).fetchall())
        # A row as the version between kept it: the level in the server-side data.
        some = next(i for i, o in old.items() if o.difficulty == "medium")
        conn.execute(
            "UPDATE ginrummy_matches SET meta = json_set(meta, '$.bot', 'easy') WHERE id = ?",
            (some,),
        )
    old[some] = replace(old[some], difficulty="easy")
    return str(path), old


def _postgres(url: str) -> tuple[str, dict[str, Old]]:
    import psycopg

    sql = (FIXTURES / "v0.postgresql.sql").read_text()
    sql = sql.replace("SELECT pg_catalog.set_config('search_path', '', false);", "")
    sql = sql.replace("public.", f"{SCHEMA}.")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
        conn.execute(f"CREATE SCHEMA {SCHEMA}")
        conn.execute(sql.encode())
        old = _old_rows(
            conn.execute(_OLD_QUERY.replace("ginrummy_", f"{SCHEMA}.ginrummy_")).fetchall()
        )
        some = next(i for i, o in old.items() if o.difficulty == "medium")
        conn.execute(
            f"UPDATE {SCHEMA}.ginrummy_matches SET meta = (meta::jsonb || %s::jsonb)::text "
            "WHERE id = %s",
            ('{"bot": "easy"}', some),
        )
    old[some] = replace(old[some], difficulty="easy")
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}options=-csearch_path%3D{SCHEMA}", old


@pytest.fixture
def old_db(db_url: str, tmp_path: Path) -> tuple[str, dict[str, Old]]:
    """A copy of the old database, and what its matches held before the upgrade."""
    if db_url.startswith("postgresql"):
        return _postgres(db_url)
    return _sqlite(tmp_path)


def test_a_database_from_before_migrations_upgrades_in_place(
    old_db: tuple[str, dict[str, Old]],
) -> None:
    url, before = old_db
    assert len(before) == 5 and {o.status for o in before.values()} == {"over", "playing"}
    store = MatchStore.open(url)
    assert store.schema_version() == migrations.latest(store.dialect)
    for match_id, old in before.items():
        row = store.get(match_id)
        assert row is not None
        assert (row.version, row.status, row.scores, row.owner) == (
            old.version,
            old.status,
            old.scores,
            old.owner,
        )
        person, bot = row.seats
        assert (person.kind, person.holder) == ("person", old.owner)
        assert (bot.kind, bot.bot, bot.bot_seed) == ("bot", old.difficulty, old.bot_seed)
        assert not {"bot_seed", "bot"} & set(json.loads(row.meta))
        loaded = game.load(store, match_id, OWNER)
        assert loaded.match.scores == old.scores and loaded.seat == 0
        out = match_out(loaded)
        assert out.scores == old.scores and out.seats[1].bot == old.difficulty
        # The first dealer stays as the record has it; the first deal, stored before deals
        # said whether a commitment came first, claims none and names no first dealer.
        assert loaded.match.hands[0].dealer == row.record["first_dealer"]
        first = proofs_out(loaded).deals[0]
        assert (first.committed, first.first_dealer) == (False, None)
        if old.status == "over":
            with pytest.raises(Refused):
                game.act(store, match_id, row.version, OWNER, None)
            continue
        # It plays on: one more move (or the next deal) is stored as the next version.
        if loaded.match.awaiting_deal:
            moved = game.deal_next(store, match_id, row.version, OWNER, DeckSource())
        else:
            action = loaded.match.view(0).legal_actions[0]
            moved = game.act(store, match_id, row.version, OWNER, action, action_id="retry-me-1")
        game.commit(store, moved, match_out(moved).model_dump_json(), "retry-me-1")
        after = store.get(match_id)
        assert after is not None and after.version == old.version + 1
        assert match_from_dict(after.record) == moved.match
        assert after.scores == moved.match.scores
    # Opening it again applies nothing more.
    again = MatchStore.open(url)
    assert again.schema_version() == migrations.latest(again.dialect)
    assert {r.id for r in again.recent(OWNER)} == set(before) - {
        i for i, o in before.items() if o.owner == ""
    }
    store.close()
    again.close()


def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    MatchStore.open(str(path))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE ginrummy_schema SET version = 999")
    with pytest.raises(RuntimeError, match="newer than this code"):
        MatchStore.open(str(path))
