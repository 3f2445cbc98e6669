"""A match's settings: the defaults and ranges of the rules, as one value.

>>> Settings().knock_limit_for(None)
10
>>> Settings(match_to=5)
Traceback (most recent call last):
...
ginrummy.settings.SettingsError: match_to must be a whole number from 10 to 1000, not 5
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from ginrummy.cards import Card
from ginrummy.errors import EngineError, Param

__all__ = [
    "LEGACY_DIFFICULTIES",
    "KnockMode",
    "Settings",
    "SettingsError",
    "ShutoutRule",
    "legacy_difficulty",
]


class SettingsError(EngineError):
    """A setting out of its range, of the wrong type, or unknown (codes ``setting_*``)."""


class KnockMode(StrEnum):
    """How a hand may end early (the "Knocking" setting)."""

    STANDARD = "standard"
    """Knock with 10 or less."""
    OKLAHOMA = "oklahoma"
    """Knock limit is the first upcard's value; an ace upcard means gin only."""
    GIN_ONLY = "gin_only"
    """No knocking; only gin ends a hand early."""


class ShutoutRule(StrEnum):
    """The shutout house rule: what the winner gets when the loser never scored."""

    OFF = "off"
    DOUBLE = "double"
    """The winner's final total is doubled."""
    PLUS_100 = "plus_100"
    """The winner's final total gets 100 more."""


MATCH_TARGETS = (50, 100, 150, 250)
"""The match targets offered as presets; any whole number from 10 to 1000 is allowed."""


NUMBER_RANGES: dict[str, tuple[int, int]] = {
    "match_to": (10, 1000),
    "undercut_bonus": (0, 100),
    "gin_bonus": (0, 100),
    "big_gin_bonus": (0, 100),
}
"""The whole-number settings and the least and most each may be."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting and house rule of a match, validated on construction.

    The defaults are what a new match uses.
    """

    match_to: int = 100
    """Points that win the match (10 to 1000)."""
    knocking: KnockMode = KnockMode.STANDARD
    """Standard (10), Oklahoma (the first upcard's value) or gin only."""
    undercut_bonus: int = 25
    """Bonus to a defender who undercuts (0 to 100)."""
    gin_bonus: int = 25
    """Bonus for going gin (0 to 100)."""
    big_gin_bonus: int = 31
    """Bonus for big gin, when that house rule is on (0 to 100)."""
    big_gin: bool = False
    """House rule: eleven melded cards after a draw may be declared without a discard."""
    ace_high: bool = False
    """House rule: Q-K-A is a run too (never K-A-2); the ace still counts 1."""
    game_bonus: bool = False
    """House rule: 100 to the match winner at the end."""
    line_bonus: bool = False
    """House rule: 25 per hand won, to each player, at the end."""
    shutout: ShutoutRule = ShutoutRule.OFF
    """House rule: when the loser never scored, double the winner's total or add 100."""
    spades_double: bool = False
    """House rule: a hand whose first upcard is a spade scores double."""
    hints: bool = False
    """Not a rule of play: a person may ask what Hard would do (each hint is counted)."""

    def __post_init__(self) -> None:
        for name, (low, high) in NUMBER_RANGES.items():
            _whole(self, name, low, high)
        for name, enum in (
            ("knocking", KnockMode),
            ("shutout", ShutoutRule),
        ):
            value = getattr(self, name)
            try:
                object.__setattr__(self, name, enum(value))
            except ValueError:
                choices = ", ".join(m.value for m in enum)
                raise SettingsError(
                    "setting_not_choice", name=name, choices=choices, value=_shown(value)
                ) from None
        for name in ("big_gin", "ace_high", "game_bonus", "line_bonus", "spades_double", "hints"):
            if not isinstance(getattr(self, name), bool):
                raise SettingsError(
                    "setting_not_bool", name=name, value=_shown(getattr(self, name))
                )

    def knock_limit_for(self, upcard: Card | None) -> int:
        """The most deadwood a knock may leave, given the hand's first upcard.

        In Gin only, and in Oklahoma under an ace, that is 0: only gin.
        """
        if self.knocking is KnockMode.STANDARD:
            return 10
        if self.knocking is KnockMode.GIN_ONLY or upcard is None:
            return 0
        return 0 if upcard.rank == 0 else upcard.points

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain JSON values."""
        # Every field is a plain value or an enum: read each as it is (asdict copies deeply).
        values = ((f.name, getattr(self, f.name)) for f in fields(self))
        return {k: (v.value if isinstance(v, StrEnum) else v) for k, v in values}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """Settings from JSON values; unknown names and bad values are errors.

        An old ``difficulty`` (from before it moved to the bot's seat) is read
        past: see :func:`legacy_difficulty` to carry it to the seat.

        >>> Settings.from_dict({"match_to": 50, "difficulty": "hard"}) == Settings(match_to=50)
        True
        """
        if not isinstance(data, Mapping):
            raise SettingsError("settings_not_object")
        known = {f.name for f in fields(cls)}
        data = {k: v for k, v in data.items() if k not in _LEGACY_NAMES}
        unknown = sorted(set(data) - known)
        if unknown:
            raise SettingsError("setting_unknown", name=unknown[0], known=", ".join(sorted(known)))
        return cls(**dict(data))


LEGACY_DIFFICULTIES = ("easy", "medium", "hard")
"""The values an old settings dict's ``difficulty`` may hold (now a bot seat's level)."""

_LEGACY_NAMES = frozenset({"difficulty"})
"""Settings that older records and databases hold, which are no longer rules."""


def legacy_difficulty(data: Mapping[str, Any]) -> str | None:
    """The computer's level in an old settings dict, or ``None`` when it has none.

    Difficulty is a bot seat's, not a rule; records and databases written
    before it moved hold it in their settings. This reads it so a migration
    can put it on the bot's seat (``make_bot(level)``). A value that was never
    allowed raises :class:`SettingsError` (``setting_not_choice``).

    >>> legacy_difficulty({"match_to": 100, "difficulty": "hard"})
    'hard'
    >>> legacy_difficulty(Settings().to_dict()) is None
    True
    """
    if not isinstance(data, Mapping):
        raise SettingsError("settings_not_object")
    value = data.get("difficulty")
    if value is None:
        return None
    if value not in LEGACY_DIFFICULTIES:
        raise SettingsError(
            "setting_not_choice",
            name="difficulty",
            choices=", ".join(LEGACY_DIFFICULTIES),
            value=_shown(value),
        )
    return str(value)


def _whole(settings: Settings, name: str, low: int, high: int) -> None:
    value = getattr(settings, name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SettingsError("setting_not_whole", name=name, low=low, high=high, value=_shown(value))


def _shown(value: object) -> Param:
    """A refused value as a param: a whole number as it is, anything else as Python writes it."""
    return value if type(value) is int else repr(value)
