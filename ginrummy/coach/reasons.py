"""Why a decision cost points, or why the computer made it: a small fixed set of codes.

A :class:`Reason` is a code and its parameters, never words: the web page words
it in the reader's language, and :func:`describe` words it in English for the
``ginrummy review`` command. The same code serves both sides of a review: for a
mistake it says what went wrong; for the other player's decision it says what
the decision avoided or achieved.

>>> reason = Reason.of(ReasonCode.UNDERCUT_RISK, percent=40)
>>> reason.to_dict()
{'code': 'undercut_risk', 'percent': 40}
>>> describe(reason, mistake=True)
'knocked into an undercut risk of 40%'
>>> describe(reason, mistake=False)
'played on: a knock would be undercut 40% of the time'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["Reason", "ReasonCode", "describe"]


class ReasonCode(StrEnum):
    """The reasons a review gives (their parameters in brackets)."""

    COLLECTS = "collects"
    """(card, percent) A throw the other player picks up (a mistake), or a card kept from them."""
    DEAD_PAIR = "dead_pair"
    """(cards) A pair kept whose other cards are gone, or broken because they are."""
    PASSED_MELD = "passed_meld"
    """(card) A pile card or upcard passed that made a meld, or taken because it does."""
    NO_MELD = "no_meld"
    """(card) A pile card or upcard taken that makes no meld, or passed because it makes none."""
    UNDERCUT_RISK = "undercut_risk"
    """(percent) A knock undercut that often, or a knock not made for that risk."""
    KNOCK_WINS = "knock_wins"
    """(percent) Played on when a knock wins that often, or knocked because it does."""
    LAYOFF_SPOTS = "layoff_spots"
    """(spots, needed) Melds laid out with more lay-off spots than needed, or with the fewest."""
    MORE_DEADWOOD = "more_deadwood"
    """(points) A throw that keeps more deadwood than needed, or one that keeps the least."""
    OVERALL = "overall"
    """(points) No single reason: the playouts as a whole favour the other choice."""


@dataclass(frozen=True, slots=True)
class Reason:
    """A reason code with its parameters (cards as text, shares as whole percents)."""

    code: ReasonCode
    params: tuple[tuple[str, int | str], ...] = ()

    @classmethod
    def of(cls, code: ReasonCode, **params: int | str) -> Reason:
        """A reason from keyword parameters: ``Reason.of(ReasonCode.COLLECTS, card="7H")``."""
        return cls(code, tuple(params.items()))

    def param(self, name: str) -> int | str:
        """One parameter by name (``KeyError`` if the code has no such parameter)."""
        for key, value in self.params:
            if key == name:
                return value
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """The wire shape: ``{"code": ..., **params}``."""
        return {"code": self.code.value, **dict(self.params)}


_MISTAKE = {
    ReasonCode.COLLECTS: "threw {card}, a card the other player collects ({percent}% of the deals)",
    ReasonCode.DEAD_PAIR: "kept the pair {cards} whose other cards are gone",
    ReasonCode.PASSED_MELD: "passed {card}, a card that made a meld",
    ReasonCode.NO_MELD: "took {card}, a card that makes no meld",
    ReasonCode.UNDERCUT_RISK: "knocked into an undercut risk of {percent}%",
    ReasonCode.KNOCK_WINS: "played on when a knock wins {percent}% of the time",
    ReasonCode.LAYOFF_SPOTS: (
        "laid out the knock with more lay-off spots than needed ({spots} where {needed} would do)"
    ),
    ReasonCode.MORE_DEADWOOD: "kept {points} more deadwood than needed",
    ReasonCode.OVERALL: "no single reason: played out, the other choice scores {points} more",
}

_EXPLAIN = {
    ReasonCode.COLLECTS: "kept {card}: the other player collects it ({percent}% of the deals)",
    ReasonCode.DEAD_PAIR: "broke the pair {cards}: its other cards are gone",
    ReasonCode.PASSED_MELD: "took {card}: it makes a meld",
    ReasonCode.NO_MELD: "let {card} go: it makes no meld",
    ReasonCode.UNDERCUT_RISK: "played on: a knock would be undercut {percent}% of the time",
    ReasonCode.KNOCK_WINS: "knocked: the knock wins {percent}% of the time",
    ReasonCode.LAYOFF_SPOTS: "laid out the melds with the fewest lay-off spots ({needed})",
    ReasonCode.MORE_DEADWOOD: "kept the least deadwood",
    ReasonCode.OVERALL: "weighed it all: live cards, deadwood and safe throws",
}


def describe(reason: Reason, *, mistake: bool) -> str:
    """The reason in English, as a mistake's or as the other player's reason.

    >>> describe(Reason.of(ReasonCode.PASSED_MELD, card="7H"), mistake=False)
    'took 7H: it makes a meld'
    """
    table = _MISTAKE if mistake else _EXPLAIN
    return table[reason.code].format(**dict(reason.params))
