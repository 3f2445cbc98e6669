"""The matches a server process keeps between moves never outrank the database.

Each process keeps the match it saved last, to skip replaying the record on
the next move. These tests play in process against an SQLite file, with two
stores standing for two server processes, and check after every move that
the answer and the kept match are exactly what replaying the stored record
gives, whoever moved last and whatever happened to the row in between.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from pathlib import Path

import pytest

from ginrummy.records import match_from_dict
from ginrummy.settings import Settings
from ginrummy.web import game
from ginrummy.web.game import DeckSource, StaleVersionError
from ginrummy.web.model import LoadedMatch, Seat, SeatKind
from ginrummy.web.present import match_out
from ginrummy.web.storage import MatchStore

SEAT = "a" * 64
ANSWERS: dict[tuple[str, int], str] = {}
"""The answer each saved version was sent with."""


def render(loaded: LoadedMatch) -> str:
    """The answer as the app writes it."""
    return match_out(loaded).model_dump_json(by_alias=True)


def fresh_answer(store: MatchStore, match_id: str) -> dict[str, object]:
    """The answer rebuilt from the database alone (a replay), without this move's events."""
    data: dict[str, object] = json.loads(render(game.load(store, match_id, SEAT)))
    data.pop("events")
    return data


def step(store: MatchStore, loaded: LoadedMatch, rng: random.Random) -> LoadedMatch:
    """One random legal move (or the next deal) through ``store``, as the app makes it."""
    replayed = match_from_dict(store.get(loaded.id).record)  # type: ignore[union-attr]
    action_id = f"{rng.getrandbits(64):016x}"
    if replayed.awaiting_deal:
        moved = game.deal_next(
            store, loaded.id, loaded.version, SEAT, DeckSource(), action_id=action_id
        )
    else:
        action = rng.choice(replayed.view(0).legal_actions)
        moved = game.act(store, loaded.id, loaded.version, SEAT, action, action_id=action_id)
    answer = render(moved)
    game.commit(store, moved, answer, action_id)
    ANSWERS[moved.id, moved.version] = answer
    return moved


def check(store: MatchStore, loaded: LoadedMatch) -> None:
    """The answer and the kept match are the stored match, replayed."""
    row = store.get(loaded.id)
    assert row is not None
    assert row.version == loaded.version and row.updated_at == loaded.updated_at
    assert loaded.match == match_from_dict(row.record)
    sent = json.loads(ANSWERS[loaded.id, loaded.version])
    sent.pop("events")
    assert sent == fresh_answer(store, loaded.id)


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A new SQLite file."""
    return str(tmp_path / "kept.sqlite3")


def new_match(store: MatchStore) -> LoadedMatch:
    """A Medium match to 1000, so it is never over within a test."""
    seats = (Seat(0, SeatKind.PERSON), Seat(1, SeatKind.BOT, "medium", 5))
    loaded = game.create(store, Settings(match_to=1000), seats, DeckSource(), owner=SEAT)
    answer = render(loaded)
    game.commit_new(store, loaded, answer, None)
    ANSWERS[loaded.id, loaded.version] = answer
    return loaded


def test_every_answer_is_the_stored_match_replayed(db: str) -> None:
    store = MatchStore.open(db)
    rng = random.Random(7)
    loaded = new_match(store)
    check(store, loaded)
    for _ in range(120):
        if loaded.status == "over":  # to 1000: hardly ever, but the deals are random
            break
        loaded = step(store, loaded, rng)
        check(store, loaded)
    assert len(loaded.match.hands) >= 2, "the moves should cross a deal"


def test_a_move_made_by_another_process_is_never_overwritten(db: str) -> None:
    one, two = MatchStore.open(db), MatchStore.open(db)
    rng = random.Random(11)
    loaded = new_match(one)
    for turn in range(60):
        if loaded.status == "over":
            break
        # The player's requests land on either process, as behind a load balancer.
        store = one if rng.random() < 0.5 else two
        before = store.get(loaded.id)
        assert before is not None
        loaded = step(store, loaded, rng)
        check(store, loaded)
        assert loaded.version == before.version + 1, f"move {turn}"


def test_a_row_changed_behind_the_servers_back_is_replayed(db: str) -> None:
    store = MatchStore.open(db)
    rng = random.Random(5)
    loaded = new_match(store)
    for _ in range(4):
        loaded = step(store, loaded, rng)
    # Another match's record is written into this row, version kept (a restore from
    # another copy, an edit by hand): the match kept in memory is not this row's.
    other = store.get(new_match(store).id)
    assert other is not None
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE ginrummy_matches SET record = ?, meta = ?, updated_at = ? WHERE id = ?",
            (json.dumps(other.record), other.meta, "2000-01-01", loaded.id),
        )
    loaded = step(store, game.load(store, loaded.id, SEAT), rng)
    check(store, loaded)
    # The move was made on the other match: its first deal is this match's now. (Its
    # current hand may be a new one: the other match's first hand can be over before
    # anyone moves, the computer knocking at once, and then the move is the next deal.)
    assert loaded.match.hands[0].deck == match_from_dict(other.record).hands[0].deck


def test_a_stale_move_changes_nothing_and_play_goes_on(db: str) -> None:
    store = MatchStore.open(db)
    rng = random.Random(3)
    loaded = new_match(store)
    loaded = step(store, loaded, rng)
    old = dataclasses.replace(loaded, version=loaded.version - 1)
    with pytest.raises(StaleVersionError):
        step(store, old, rng)
    row = store.get(loaded.id)
    assert row is not None and row.version == loaded.version
    loaded = step(store, loaded, rng)
    check(store, loaded)
