"""Offline play: the device's referee answers in the server's shapes and plays the same game."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from web._support import page_move

from ginrummy.bots import make_bot
from ginrummy.bots.hard import HardBot, HardConfig
from ginrummy.errors import REFUSALS
from ginrummy.fairness import fair_deck, fair_first_dealer
from ginrummy.match import Match
from ginrummy.offline import (
    BROWSER_ROLLOUT_SAMPLES,
    CLIENT_SEED,
    OfflineMatch,
    Referee,
    settings_form,
)
from ginrummy.records import load_match, match_to_dict
from ginrummy.settings import Settings
from ginrummy.web.model import Deal, LoadedMatch, MatchData, MatchSummary, Seat, SeatKind
from ginrummy.web.present import SETTINGS_FORM, match_out, summary_out

STAMP = "2026-11-30T12:00:00.000+00:00"
HARD = [{"kind": "person"}, {"kind": "bot", "bot": "hard"}]


def _seed(rng: random.Random) -> str:
    return rng.randbytes(32).hex()


def _as_server(m: OfflineMatch) -> LoadedMatch:
    """The same match as the server's referee holds it, for its presenter."""
    seats = tuple(Seat(s.index, SeatKind(s.kind), s.bot, s.bot_seed, holder="me") for s in m.seats)
    deals = tuple(
        Deal(committed=False, first_dealer=m.match.first_dealer if i == 0 else None)
        for i in range(len(m.match.hands))
    )
    loaded = LoadedMatch(
        m.id,
        m.version,
        m.match,
        MatchData(seed="x", deals=deals),
        (seats[0], seats[1]),
        "me",
        m.created_at,
        m.updated_at,
        seat=m.seat,
    )
    loaded.events = list(m.events)
    return loaded


def _same_as_server(m: OfflineMatch) -> dict[str, Any]:
    """The offline answer, checked against the server presenter's for the same match: the
    same in every field but the deal's proof, which offline claims none of (same shape)."""
    ours = m.view()
    theirs = json.loads(match_out(_as_server(m)).model_dump_json(by_alias=True))
    assert ours["fairness"]["deal"].keys() == theirs["fairness"]["deal"].keys()
    assert {k: v for k, v in ours.items() if k != "fairness"} == {
        k: v for k, v in theirs.items() if k != "fairness"
    }
    return ours


def _play_out(m: OfflineMatch, rng: random.Random, views: list[dict[str, Any]]) -> None:
    """Play the person's seat with the Easy bot's choices until the match is over."""
    person = make_bot("easy", seed=rng.randrange(1 << 30))
    while not m.match.is_over:
        views.append(_same_as_server(m))
        if m.match.awaiting_deal:
            m.next_hand(m.version, _seed(rng), stamp=STAMP)
        else:
            view = m.match.view(m.seat or 0)
            m.act(m.version, page_move(person.choose(view)), stamp=STAMP)
    views.append(_same_as_server(m))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_answer_is_the_servers_shape_and_content(level: str) -> None:
    rng = random.Random(level)
    m = OfflineMatch.start(
        "offline-a",
        {"match_to": 50},
        [{"kind": "person"}, {"kind": "bot", "bot": level}],
        deal_seed=_seed(rng),
        bot_seed=11,
        stamp=STAMP,
    )
    views: list[dict[str, Any]] = []
    _play_out(m, rng, views)
    assert len(views) > 10
    summary = MatchSummary(
        m.id,
        m.status,
        m.match.scores,
        len(m.match.hands),
        m.match.settings,
        _as_server(m).seats,
        m.created_at,
        m.updated_at,
        seat=m.seat,
    )
    assert m.summary() == json.loads(summary_out(summary).model_dump_json(by_alias=True))


def test_the_settings_form_is_the_servers() -> None:
    assert settings_form() == json.loads(SETTINGS_FORM.model_dump_json(by_alias=True))


def test_offline_deals_claim_no_commitment() -> None:
    m = OfflineMatch.start("offline-b", {}, HARD, deal_seed="cd" * 32, bot_seed=1, stamp=STAMP)
    deal = m.view()["fairness"]["deal"]
    assert deal["committed"] is False
    assert deal["commitment"] is None and deal["server_seed"] is None
    assert m.view()["fairness"]["next_commitment"] is None


def test_the_deck_is_the_seeds() -> None:
    seed = "5a" * 32
    m = OfflineMatch.start("offline-c", {}, HARD, deal_seed=seed, bot_seed=3, stamp=STAMP)
    assert m.match.hands[0].deck == fair_deck(seed, "offline", 1)


def test_the_same_seeds_give_the_same_match() -> None:
    def play(seed: int) -> dict[str, Any]:
        rng = random.Random(seed)
        m = OfflineMatch.start(
            "offline-d",
            {"match_to": 30},
            [{"kind": "bot", "bot": "hard"}, {"kind": "bot"}],
            deal_seed=_seed(rng),
            bot_seed=5,
            stamp=STAMP,
        )
        while not m.match.is_over:
            m.next_hand(m.version, _seed(rng), stamp=STAMP)
        return m.to_dict()

    assert play(4) == play(4)
    assert play(4) != play(5)


def test_hard_on_the_device_is_the_servers_with_fewer_play_outs() -> None:
    """Two Hards offline play, move for move, what Hard with the browser's play-outs
    plays natively on the same deals; the server's Hard plays the match otherwise."""
    rng = random.Random(1)  # deals on which the two Hards' play-outs part ways
    seeds = [_seed(rng) for _ in range(30)]
    settings = {"match_to": 30}
    device = OfflineMatch.start(
        "offline-h",
        settings,
        [{"kind": "bot", "bot": "hard"}] * 2,
        deal_seed=seeds[0],
        bot_seed=9,
        stamp=STAMP,
    )
    while not device.match.is_over:
        device.next_hand(device.version, seeds[len(device.match.hands)], stamp=STAMP)

    def native(config: HardConfig) -> dict[str, Any]:
        match = Match.start(
            fair_deck(seeds[0], CLIENT_SEED, 1),
            first_dealer=fair_first_dealer(seeds[0], CLIENT_SEED),
            settings=Settings.from_dict(settings),
        )
        while not match.is_over:
            if match.awaiting_deal:
                number = len(match.hands) + 1
                match.next_hand(fair_deck(seeds[number - 1], CLIENT_SEED, number))
                continue
            seat = match.to_act or 0
            match.apply(HardBot(9, config).choose(match.view(seat)), seat)
        return match_to_dict(match)

    assert HardConfig().rollout_samples > BROWSER_ROLLOUT_SAMPLES
    played = match_to_dict(device.match)
    assert played == native(HardConfig(rollout_samples=BROWSER_ROLLOUT_SAMPLES))
    assert played != native(HardConfig())


def test_a_kept_match_carries_on_where_it_stood() -> None:
    rng = random.Random(9)
    referee = Referee()
    made = referee.handle(
        {
            "op": "new",
            "id": "offline-e",
            "body": {"seats": HARD},
            "deal_seed": _seed(rng),
            "bot_seed": 2,
            "stamp": STAMP,
        }
    )
    assert made["status"] == 200
    kept = made["keep"]
    # A reload: a new worker knows only what IndexedDB kept.
    fresh = Referee()
    got = fresh.handle({"op": "get", "id": "offline-e", "kept": kept})
    assert got["body"]["table"] == made["body"]["table"]
    legal = got["body"]["table"]["legal"]
    move = {"action": "stock"} if legal["stock"] else {"action": "pass"}
    if not (legal["stock"] or legal["pass"]):
        move = {"action": "discard", "card": legal["discard"][0]}
    moved = fresh.handle(
        {
            "op": "act",
            "id": "offline-e",
            "kept": kept,
            "version": kept["version"],
            "move": move,
            "stamp": STAMP,
        }
    )
    assert moved["status"] == 200 and moved["body"]["version"] == kept["version"] + 1


def test_refusals_are_the_servers_codes() -> None:
    referee = Referee()
    made = referee.handle(
        {
            "op": "new",
            "id": "offline-f",
            "body": {"seats": HARD},
            "deal_seed": "11" * 32,
            "bot_seed": 2,
            "stamp": STAMP,
        }
    )
    version = made["body"]["version"]
    stale = referee.handle(
        {
            "op": "act",
            "id": "offline-f",
            "version": version + 5,
            "move": {"action": "stock"},
            "stamp": STAMP,
        }
    )
    assert stale["status"] == 409
    assert stale["body"]["error"]["code"] == "stale_version"
    assert stale["body"]["error"]["params"] == {"version": version + 5, "current": version}
    big = referee.handle(
        {
            "op": "act",
            "id": "offline-f",
            "version": version,
            "move": {"action": "big_gin"},
            "stamp": STAMP,
        }
    )
    assert big["status"] == 409 and big["keep"] is None
    assert big["body"]["error"]["code"] in REFUSALS
    missing = referee.handle({"op": "get", "id": "offline-nope"})
    assert missing["status"] == 404 and missing["body"]["error"]["code"] == "unknown_match"
    early = referee.handle({"op": "record", "id": "offline-f"})
    assert early["body"]["error"]["code"] == "nothing_finished"


def test_the_downloaded_record_loads_with_the_records_module() -> None:
    rng = random.Random(12)
    m = OfflineMatch.start(
        "offline-g", {"match_to": 40}, HARD, deal_seed=_seed(rng), bot_seed=8, stamp=STAMP
    )
    _play_out(m, rng, [])
    record = m.record()
    assert record["players"] == [{"kind": "person"}, {"kind": "bot", "bot": "hard"}]
    loaded = load_match(json.dumps(record))
    assert isinstance(loaded, Match)
    assert loaded.scores == m.match.scores
    assert match_to_dict(loaded) == match_to_dict(m.match)
    assert Settings.from_dict(record["settings"]).match_to == 40
