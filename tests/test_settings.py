"""Settings: the defaults and the ranges of RULES.md, and clear errors outside them."""

from __future__ import annotations

from typing import Any

import pytest

from ginrummy.cards import Card
from ginrummy.settings import Difficulty, KnockMode, Settings, SettingsError, ShutoutRule


def test_defaults_are_what_a_new_match_uses() -> None:
    s = Settings()
    assert (s.match_to, s.knocking, s.undercut_bonus, s.gin_bonus, s.difficulty) == (
        100,
        KnockMode.STANDARD,
        25,
        25,
        Difficulty.MEDIUM,
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


@pytest.mark.parametrize("name", ["undercut_bonus", "gin_bonus", "big_gin_bonus"])
def test_bonuses_from_0_to_100(name: str) -> None:
    for ok in (0, 25, 100):
        assert getattr(Settings.from_dict({name: ok}), name) == ok
    for bad in (-1, 101, 2.5, False):
        with pytest.raises(SettingsError, match=f"{name} must be a whole number from 0 to 100"):
            Settings.from_dict({name: bad})


@pytest.mark.parametrize(
    ("name", "enum"),
    [("knocking", KnockMode), ("difficulty", Difficulty), ("shutout", ShutoutRule)],
)
def test_choices_accept_their_names_and_reject_others(name: str, enum: Any) -> None:
    for member in enum:
        assert getattr(Settings.from_dict({name: member.value}), name) is member
    with pytest.raises(SettingsError) as info:
        Settings.from_dict({name: "sometimes"})
    message = str(info.value)
    assert message.startswith(f"{name} must be one of ")
    assert all(m.value in message for m in enum) and "'sometimes'" in message


@pytest.mark.parametrize(
    "name", ["big_gin", "ace_high", "game_bonus", "line_bonus", "spades_double"]
)
def test_house_rules_are_true_or_false(name: str) -> None:
    assert getattr(Settings.from_dict({name: True}), name) is True
    for bad in (1, "yes", None):
        with pytest.raises(SettingsError, match=f"{name} must be true or false"):
            Settings.from_dict({name: bad})


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
        difficulty=Difficulty.HARD,
    )
    data = s.to_dict()
    assert data["knocking"] == "oklahoma" and type(data["knocking"]) is str
    assert Settings.from_dict(data) == s
    assert Settings.from_dict({}) == Settings()


def test_from_dict_rejects_unknown_names_and_non_objects() -> None:
    with pytest.raises(SettingsError, match="unknown setting 'match_too'"):
        Settings.from_dict({"match_too": 100})
    with pytest.raises(SettingsError, match="an object"):
        Settings.from_dict([("match_to", 100)])  # type: ignore[arg-type]


def test_knock_limit_by_knocking_setting() -> None:
    seven, queen, ace = Card.parse("7H"), Card.parse("QS"), Card.parse("AD")
    assert Settings().knock_limit_for(seven) == 10
    oklahoma = Settings(knocking=KnockMode.OKLAHOMA)
    assert [oklahoma.knock_limit_for(c) for c in (seven, queen, ace)] == [7, 10, 0]
    assert Settings(knocking=KnockMode.GIN_ONLY).knock_limit_for(seven) == 0
