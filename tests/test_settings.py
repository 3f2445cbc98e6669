"""Settings: the defaults and the ranges of RULES.md, and clear errors outside them."""

from __future__ import annotations

from typing import Any

import pytest

from ginrummy.cards import Card
from ginrummy.records import load_match, match_to_dict
from ginrummy.settings import (
    KnockMode,
    Settings,
    SettingsError,
    ShutoutRule,
    legacy_difficulty,
)


def test_defaults_are_what_a_new_match_uses() -> None:
    s = Settings()
    assert (s.match_to, s.knocking, s.undercut_bonus, s.gin_bonus) == (
        100,
        KnockMode.STANDARD,
        25,
        25,
    )
    assert s.big_gin_bonus == 31
    assert not (s.big_gin or s.ace_high or s.game_bonus or s.line_bonus or s.spades_double)
    assert s.shutout is ShutoutRule.OFF


@pytest.mark.parametrize("value", [10, 50, 100, 150, 250, 777, 1000])
def test_match_to_any_whole_number_from_10_to_1000(value: int) -> None:
    assert Settings(match_to=value).match_to == value


@pytest.mark.parametrize("value", [9, 0, -100, 1001, 10_000, 100.0, "100", True, None])
def test_match_to_outside_range_or_not_whole_is_an_error(value: Any) -> None:
    with pytest.raises(SettingsError) as info:
        Settings(match_to=value)
    assert str(info.value) == f"match_to must be a whole number from 10 to 1000, not {value!r}"
    assert info.value.code == "setting_not_whole"
    assert dict(info.value.params) == {
        "name": "match_to",
        "low": 10,
        "high": 1000,
        "value": value if type(value) is int else repr(value),
    }


@pytest.mark.parametrize("name", ["undercut_bonus", "gin_bonus", "big_gin_bonus"])
def test_bonuses_from_0_to_100(name: str) -> None:
    for ok in (0, 25, 100):
        assert getattr(Settings.from_dict({name: ok}), name) == ok
    for bad in (-1, 101, 2.5, False):
        with pytest.raises(SettingsError, match=f"{name} must be a whole number from 0 to 100"):
            Settings.from_dict({name: bad})


@pytest.mark.parametrize(
    ("name", "enum"),
    [("knocking", KnockMode), ("shutout", ShutoutRule)],
)
def test_choices_accept_their_names_and_reject_others(name: str, enum: Any) -> None:
    for member in enum:
        assert getattr(Settings.from_dict({name: member.value}), name) is member
    with pytest.raises(SettingsError) as info:
        Settings.from_dict({name: "sometimes"})
    message = str(info.value)
    assert message.startswith(f"{name} must be one of ")
    assert all(m.value in message for m in enum) and "'sometimes'" in message
    assert info.value.code == "setting_not_choice"
    assert info.value.params["name"] == name and info.value.params["value"] == "'sometimes'"
    assert info.value.params["choices"] == ", ".join(m.value for m in enum)


@pytest.mark.parametrize(
    "name", ["big_gin", "ace_high", "game_bonus", "line_bonus", "spades_double"]
)
def test_house_rules_are_true_or_false(name: str) -> None:
    assert getattr(Settings.from_dict({name: True}), name) is True
    for bad in (1, "yes", None):
        with pytest.raises(SettingsError, match=f"{name} must be true or false") as info:
            Settings.from_dict({name: bad})
        assert info.value.code == "setting_not_bool"
        shown = bad if type(bad) is int else repr(bad)
        assert dict(info.value.params) == {"name": name, "value": shown}


def test_settings_are_a_frozen_value() -> None:
    s = Settings()
    with pytest.raises(AttributeError):
        s.match_to = 50  # type: ignore[misc]
    assert Settings(gin_bonus=30) == Settings(gin_bonus=30) != Settings()


def test_to_dict_and_from_dict_round_trip_as_plain_json_values() -> None:
    s = Settings(
        match_to=250,
        knocking=KnockMode.OKLAHOMA,
        shutout=ShutoutRule.PLUS_100,
        big_gin=True,
    )
    data = s.to_dict()
    assert data["knocking"] == "oklahoma" and type(data["knocking"]) is str
    assert Settings.from_dict(data) == s
    assert Settings.from_dict({}) == Settings()


def test_from_dict_rejects_unknown_names_and_non_objects() -> None:
    with pytest.raises(SettingsError, match="unknown setting 'match_too'") as info:
        Settings.from_dict({"match_too": 100})
    assert info.value.code == "setting_unknown"
    assert info.value.params["name"] == "match_too"
    assert "knocking" in str(info.value.params["known"]).split(", ")
    with pytest.raises(SettingsError, match="an object") as info:
        Settings.from_dict([("match_to", 100)])  # type: ignore[arg-type]
    assert (info.value.code, dict(info.value.params)) == ("settings_not_object", {})


# --- difficulty: a bot seat's, no longer a rule -------------------------------------


def test_difficulty_is_not_a_setting() -> None:
    assert "difficulty" not in Settings().to_dict()
    with pytest.raises(TypeError):
        Settings(difficulty="hard")  # type: ignore[call-arg]


def test_old_settings_with_a_difficulty_still_load_and_the_level_can_be_read_out() -> None:
    old = {**Settings(match_to=250).to_dict(), "difficulty": "hard"}
    assert Settings.from_dict(old) == Settings(match_to=250)
    assert legacy_difficulty(old) == "hard"
    assert legacy_difficulty(Settings().to_dict()) is None


def test_a_legacy_difficulty_that_was_never_allowed_is_refused_with_a_code() -> None:
    with pytest.raises(SettingsError) as info:
        legacy_difficulty({"difficulty": "brutal"})
    assert info.value.code == "setting_not_choice"
    assert dict(info.value.params) == {
        "name": "difficulty",
        "choices": "easy, medium, hard",
        "value": "'brutal'",
    }


def test_a_match_record_written_with_a_difficulty_loads() -> None:
    import json
    import random

    from ginrummy.hand import PassUpcard
    from ginrummy.match import Match

    match = Match.new(Settings(match_to=50), rng=random.Random(5))
    match.apply(PassUpcard())
    data = match_to_dict(match)
    data["settings"]["difficulty"] = "easy"
    assert load_match(json.dumps(data)) == match
    assert legacy_difficulty(data["settings"]) == "easy"


def test_knock_limit_by_knocking_setting() -> None:
    seven, queen, ace = Card.parse("7H"), Card.parse("QS"), Card.parse("AD")
    assert Settings().knock_limit_for(seven) == 10
    oklahoma = Settings(knocking=KnockMode.OKLAHOMA)
    assert [oklahoma.knock_limit_for(c) for c in (seven, queen, ace)] == [7, 10, 0]
    assert Settings(knocking=KnockMode.GIN_ONLY).knock_limit_for(seven) == 0
