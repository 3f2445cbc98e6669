"""Storage keeps what a retry can need and no more, on SQLite and PostgreSQL."""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from ginrummy.web.storage import (
    ABANDONED_AFTER,
    KEPT_REPLIES,
    MatchStore,
    StoredMatch,
    StoredSeat,
)

SEATS = (StoredSeat.for_person(0, "p" * 64), StoredSeat.for_bot(1, "medium", 7))


def _new(store: MatchStore, *, age: timedelta = timedelta(0)) -> StoredMatch:
    match = StoredMatch.new(
        secrets.token_urlsafe(9), {"hands": []}, "{}", status="playing", seats=SEATS
    )
    stamp = (datetime.now(UTC) - age).isoformat(timespec="milliseconds")
    match = replace(match, created_at=stamp, updated_at=stamp)
    assert store.create(match)
    return match


def test_only_the_last_replies_of_a_match_are_kept(db_url: str) -> None:
    store = MatchStore.open(db_url)
    match = _new(store)
    ids = [f"action-{i:04d}" for i in range(1, 13)]
    for version, action_id in enumerate(ids, start=1):
        reply = (action_id, f'{{"version": {version + 1}}}')
        committed = store.update(
            match.id,
            version,
            {"hands": []},
            "{}",
            status="playing",
            scores=(version, 0),
            reply=reply,
        )
        assert committed is not None
    kept = [i for i in ids if store.reply(match.id, i) is not None]
    assert kept == ids[-KEPT_REPLIES:]
    assert store.reply(match.id, ids[-1]) == '{"version": 13}'
    row = store.get(match.id)
    assert row is not None and row.version == 13 and row.scores == (12, 0)
    store.close()


def test_matches_nobody_moved_in_go_after_a_week_and_no_others(db_url: str) -> None:
    store = MatchStore.open(db_url)
    old = ABANDONED_AFTER + timedelta(hours=1)
    abandoned = _new(store, age=old)
    played = _new(store, age=old)
    assert (
        store.update(
            played.id,
            1,
            {"hands": []},
            "{}",
            status="playing",
            scores=(0, 0),
            stamp=played.updated_at,
        )
        is not None
    )
    fresh = _new(store, age=ABANDONED_AFTER - timedelta(hours=1))
    store.add_seed(secrets.token_hex(32), secrets.token_hex(32), "p" * 64)
    assert store.get(abandoned.id) is None
    assert store.get(played.id) is not None and store.get(fresh.id) is not None
    store.close()
