"""Records: hands and matches as JSON, loaded back by replaying them, and checked on load."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import LOSER_1, deal, gin_match, play

from ginrummy.cards import FULL_DECK, format_cards
from ginrummy.hand import Action, Event, Hand, shuffled_deck
from ginrummy.match import Match
from ginrummy.records import (
    RecordError,
    dump_hand,
    dump_match,
    hand_from_dict,
    hand_to_dict,
    load_hand,
    load_match,
    match_from_dict,
    match_to_dict,
    replay_match,
)
from ginrummy.settings import KnockMode, Settings

KNOCKER_TWO_WAYS = "9C AD 2D 2H 3H 9H AS 2S 3S KC"
DEFENDER_WITH_4S = "4S 5C 6C 7C 8D TH JD QS KH 6H"


def knocked_hand(melds: str = "") -> Hand:
    """Player 1 takes the 9S upcard and knocks with KC (8 deadwood), melds as chosen."""
    hand = deal(
        hands={1: KNOCKER_TWO_WAYS, 0: DEFENDER_WITH_4S},
        upcard="9S",
        settings=Settings(knocking=KnockMode.OKLAHOMA, gin_bonus=30),
    )
    play(hand, "take", f"knock KC {melds}".strip())
    return hand


def test_hand_record_holds_settings_dealer_deck_actions_and_result() -> None:
    hand = knocked_hand()
    data = json.loads(dump_hand(hand))
    assert data["format"] == "ginrummy-hand" and data["version"] == 1
    assert data["settings"]["knocking"] == "oklahoma" and data["settings"]["gin_bonus"] == 30
    assert data["dealer"] == 0
    assert data["deck"] == format_cards(hand.deck) and len(data["deck"].split()) == 52
    assert data["actions"] == ["take", "knock KC"]
    assert hand.result is not None
    assert data["result"] == {"kind": "knock", "winner": 1, "points": hand.result.points}


def test_finished_hand_round_trips() -> None:
    hand = knocked_hand()
    again = load_hand(dump_hand(hand))
    assert again == hand and again.result == hand.result


def test_mid_hand_round_trips_and_play_goes_on() -> None:
    hand = deal(hands={1: KNOCKER_TWO_WAYS, 0: DEFENDER_WITH_4S}, upcard="9S")
    play(hand, "pass", "pass", "stock")
    data = hand_to_dict(hand)
    assert "result" not in data
    again = hand_from_dict(data)
    assert again == hand
    play(hand, "discard KC")
    play(again, "discard KC")
    assert again == hand


def test_knockers_chosen_melds_survive_the_record() -> None:
    hand = knocked_hand("[2D 2H 2S] [9C 9H 9S]")
    text = dump_hand(hand)
    assert '"knock KC [2D 2H 2S] [9C 9H 9S]"' in text
    again = load_hand(text)
    assert again.result == hand.result
    assert again.result is not None and again.result.lay_offs == ()
    # The other choice gives a different result, so the record really carries it.
    assert knocked_hand("[9C 9H 9S] [AS 2S 3S]").result != hand.result


def test_match_record_round_trips_finished_and_awaiting_deal() -> None:
    match = gin_match([0, 1, 0], loser=LOSER_1)
    data = json.loads(dump_match(match))
    assert data["format"] == "ginrummy-match" and data["first_dealer"] == 0
    assert [h["dealer"] for h in data["hands"]] == [0, 1, 0]
    again = load_match(dump_match(match))
    assert again == match
    assert again.sheet == match.sheet and again.awaiting_deal
    over = gin_match([1, 1, 1, 1], loser=LOSER_1)
    assert over.is_over
    again = load_match(dump_match(over))
    assert again == over and again.final_score() == over.final_score()


def test_match_record_mid_hand_round_trips() -> None:
    match = Match.start(FULL_DECK, first_dealer=1)
    play(match, "pass", "take")
    assert load_match(dump_match(match)) == match


def test_loading_replays_through_the_engine() -> None:
    # Replaying a loaded record by hand gives the same state again.
    hand = knocked_hand("[9C 9H 9S] [AS 2S 3S]")
    record = load_hand(dump_hand(hand))
    replayed = Hand.replay(record.deck, record.actions, dealer=record.dealer,
                           settings=record.settings)  # fmt: skip
    assert replayed == hand


# --- validation on load -------------------------------------------------------------


def hand_data(**changes: Any) -> dict[str, Any]:
    data = hand_to_dict(knocked_hand())
    data.update(changes)
    return data


def load_refusal(data: Any) -> RecordError:
    with pytest.raises(RecordError) as info:
        if isinstance(data, str):
            load_hand(data)
        else:
            hand_from_dict(data)
    return info.value


def load_error(data: Any) -> str:
    return str(load_refusal(data))


def test_not_json_is_an_error() -> None:
    refusal = load_refusal("{not json")
    assert str(refusal).startswith("not JSON")
    assert refusal.code == "record_not_json"
    assert (refusal.params["line"], refusal.params["column"]) == (1, 2)


@pytest.mark.parametrize(
    ("changes", "message", "code", "params"),
    [
        (
            {"format": "chess"},
            "not a ginrummy-hand record (format is 'chess')",
            "record_format",
            {"expected": "ginrummy-hand", "found": "'chess'"},
        ),
        ({"version": 2}, "record version 2 is not 1", "record_version", {"found": 2}),
        ({"version": True}, "record version True is not 1", "record_version", {"found": "True"}),
        (
            {"settings": {"match_to": 5}},
            "settings: match_to must be a whole number",
            "record_settings",
            {"reason": "setting_not_whole", "name": "match_to", "value": 5},
        ),
        (
            {"settings": {"colour": "red"}},
            "settings: unknown setting 'colour'",
            "record_settings",
            {"reason": "setting_unknown", "name": "colour"},
        ),
        ({"dealer": 2}, "hand 1: dealer must be 0 or 1", "record_dealer", {"hand": 1}),
        ({"dealer": True}, "hand 1: dealer must be 0 or 1", "record_dealer", {"hand": 1}),
        (
            {"deck": 7},
            "hand 1: deck is a string of 52 cards and actions a list",
            "record_fields",
            {"hand": 1},
        ),
        (
            {"actions": "take"},
            "hand 1: deck is a string of 52 cards and actions a list",
            "record_fields",
            {"hand": 1},
        ),
        (
            {"actions": ["take", 3]},
            "hand 1, action 2: an action is a string",
            "record_action_not_text",
            {"hand": 1, "index": 2},
        ),
        (
            {"actions": ["take", "throw KC"]},
            "hand 1, action 2 ('throw KC'): 'throw KC' is not",
            "record_action",
            {"hand": 1, "index": 2, "action": "throw KC", "reason": "action_unknown"},
        ),
        (
            {"actions": ["take", "knock 2S"]},
            "hand 1, action 2 ('knock 2S'): throwing 2S leaves",
            "record_action",
            {"index": 2, "reason": "knock_card_too_high", "card": "2S", "limit": 9},
        ),
        (
            {"actions": ["take", "knock KC [AS 2S 3S]"]},
            "not a least-deadwood arrangement",
            "record_action",
            {"index": 2, "reason": "melds_not_best"},
        ),
        (
            {"actions": ["take", "knock KC [AS AS 2S]"]},
            "hand 1, action 2",
            "record_action",
            {"index": 2, "reason": "melds_bad_cards"},
        ),
        (
            {"actions": ["stock"]},
            "hand 1, action 1 ('stock'): first take the upcard or pass",
            "record_action",
            {"index": 1, "reason": "upcard_first"},
        ),
        (
            {"result": {"kind": "gin", "winner": 1, "points": 99}},
            "the replay gives",
            "record_result",
            {"hand": 1},
        ),
    ],
)
def test_bad_hand_records_are_rejected_with_a_code_and_a_message_saying_where(
    changes: dict[str, Any], message: str, code: str, params: dict[str, object]
) -> None:
    refusal = load_refusal(hand_data(**changes))
    assert message in str(refusal)
    assert refusal.code == code
    assert {k: refusal.params.get(k) for k in params} == params


def test_deck_errors_name_the_bad_card() -> None:
    deck = hand_data()["deck"].split()
    bad_token = load_refusal(hand_data(deck=" ".join(["ZZ", *deck[1:]])))
    assert "'ZZ'" in str(bad_token)
    assert (bad_token.code, bad_token.params["reason"], bad_token.params["token"]) == (
        "record_deck",
        "bad_card",
        "ZZ",
    )
    short = load_refusal(hand_data(deck=" ".join(deck[:-1])))
    assert (short.code, short.params["reason"]) == ("record_deck", "bad_deck")
    assert "52 cards exactly once" in load_error(hand_data(deck=" ".join(deck[:-1])))
    assert "52 cards exactly once" in load_error(hand_data(deck=" ".join([deck[1], *deck[1:]])))


def test_a_record_that_is_not_an_object_is_rejected() -> None:
    assert load_error([1, 2]) == "a record is a JSON object"
    assert load_refusal([1, 2]).code == "record_not_object"


def match_data() -> dict[str, Any]:
    return match_to_dict(gin_match([0, 1], loser=LOSER_1))


def match_error(data: Any) -> str:
    with pytest.raises(RecordError) as info:
        match_from_dict(data)
    return f"{info.value.code}: {info.value}"


def test_match_record_validation() -> None:
    data = match_data()
    assert "record_first_dealer: first_dealer must be 0 or 1" in match_error(
        {**data, "first_dealer": False}
    )
    assert "record_no_hands: a match record has a list of at least one hand" in match_error(
        {**data, "hands": []}
    )
    assert "record_hand_not_object: hand 2" in match_error({**data, "hands": [data["hands"][0], 7]})
    wrong_dealer = {**data, "hands": [data["hands"][0], {**data["hands"][1], "dealer": 0}]}
    assert "record_wrong_dealer: hand 2: dealer should be 1 by the rules" in match_error(
        wrong_dealer
    )
    unfinished = match_to_dict(Match.start(FULL_DECK, first_dealer=0))["hands"][0]
    two_open = {**data, "hands": [unfinished, data["hands"][1]]}
    assert "record_after_end: hand 2: the match was over or the last hand unfinished" in (
        match_error(two_open)
    )
    over = match_to_dict(gin_match([1, 1, 1, 1], loser=LOSER_1))
    extra = {**over, "hands": [*over["hands"], over["hands"][0]]}
    assert "hand 5: the match was over" in match_error(extra)
    assert "not a ginrummy-match record" in match_error(hand_to_dict(knocked_hand()))


# --- records written before codes, seats and the one vocabulary -----------------------

OLD_MATCH = Path(__file__).resolve().parent / "records" / "match-before-codes.json"
"""A match record written by the engine as it was before (``big-gin``, a difficulty)."""


def test_a_record_written_before_still_loads_and_is_written_in_todays_names() -> None:
    text = OLD_MATCH.read_text(encoding="utf-8")
    assert '"big-gin"' in text and '"difficulty": "hard"' in text
    match = load_match(text)
    assert match.sheet[0].kind.value == "big_gin" and match.scores == (0, 111)
    assert match.settings == Settings(big_gin=True, match_to=200)
    again = json.loads(dump_match(match))
    assert again["hands"][0]["actions"][-1] == "big_gin"
    assert "difficulty" not in again["settings"] and "players" not in again
    assert load_match(json.dumps(again)) == match


def test_loading_a_record_applies_each_action_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Several hands of random legal play, the last one unfinished.
    rng = random.Random(117)
    match = gin_match([0, 1], loser=LOSER_1, settings=Settings(match_to=500))
    for _ in range(117):
        if match.awaiting_deal:
            match.next_hand(shuffled_deck(rng))
        match.apply(rng.choice(match.legal_actions()))
    data = match_to_dict(match)
    recorded = sum(len(h["actions"]) for h in data["hands"])
    calls = 0
    apply = Hand.apply

    def counting(self: Hand, action: Action, player: int | None = None) -> list[Event]:
        nonlocal calls
        calls += 1
        return apply(self, action, player)

    monkeypatch.setattr(Hand, "apply", counting)
    replayed = replay_match(data)
    assert recorded == 117 + 6 and calls == recorded
    assert replayed.match == match
    # Each hand's events, in order, with the hand's number.
    assert replayed.events == tuple(
        (n, e) for n, hand in enumerate(match.hands, 1) for e in hand.events
    )
    assert replayed.events[-1][0] == len(match.hands) > 2


def test_players_are_written_when_given_and_read_back_as_they_were() -> None:
    match = gin_match([0], loser=LOSER_1)
    players: list[dict[str, object]] = [
        {"kind": "person", "name": "Asha"},
        {"kind": "bot", "bot": "hard", "seed": 9},
    ]
    data = json.loads(json.dumps(match_to_dict(match, players=players)))
    assert data["players"] == players
    replayed = replay_match(data)
    assert replayed.players == (players[0], players[1]) and replayed.match == match
    assert replay_match(match_to_dict(match)).players is None
    for bad in ([players[0]], "two", [1, 2], {"0": players[0]}):
        with pytest.raises(RecordError) as info:
            replay_match({**data, "players": bad})
        assert info.value.code == "record_players"
