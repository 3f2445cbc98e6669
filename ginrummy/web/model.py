"""The web app's own values: the seats, the referee's data beside a match, a loaded match.

These are shared by the referee (:mod:`ginrummy.web.game`), which makes them,
and the presenter (:mod:`ginrummy.web.present`), which reads them; neither
knows the other. A match has two seats, each a person (held by a seat token)
or a bot (a :func:`ginrummy.bots.make_bot` name and a seed): "you against the
computer" is one configuration of seats, not a constant.

>>> data = MatchData(seed="ab12", next_seed="00" * 32, first_dealer=1)
>>> MatchData.from_json(data.to_json()) == data
True
>>> MatchData.from_json('{"seed": "x", "deals": [{"fixed": true}]}').deals[0].fixed
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Literal

from ginrummy.cards import Card
from ginrummy.hand import Action, Discard, DrawStock, Event, PassUpcard, Phase, PlayerView
from ginrummy.match import Match
from ginrummy.melds import knock_options
from ginrummy.settings import Settings

__all__ = [
    "BOT_LEVELS",
    "CLOCK_CHOICES",
    "Clock",
    "Deal",
    "Invite",
    "LoadedMatch",
    "MatchData",
    "MatchSummary",
    "Seat",
    "SeatKind",
    "clock_move",
    "default_knock_card",
    "throw_options",
]

BOT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
"""The bots a player may seat (names :func:`ginrummy.bots.make_bot` knows)."""


CLOCK_CHOICES: tuple[int, ...] = (30, 60, 120, 300)
"""The move clocks a friend match may have, in seconds a turn (a server in test mode also
takes any whole number of seconds from 1 to 600, for tests)."""


@dataclass(frozen=True, slots=True)
class Clock:
    """A friend match's move clock: ``seconds`` for each turn, and what happens when they
    run out (``ask``: the late player is told and the other may remind them, nobody is
    moved; ``timed``: both agreed that the server then moves for the late seat, see
    :func:`clock_moves`). Kept in the match's record as ``"clock"``, with ``auto``: the
    actions the clock made, as (hand number, action number), both from 1.

    >>> Clock.from_record({"clock": Clock(60, "timed", ((1, 3),)).to_record()})
    Clock(seconds=60, expiry='timed', auto=((1, 3),))
    >>> Clock.from_record({}) is None
    True
    """

    seconds: int
    expiry: Literal["ask", "timed"] = "ask"
    auto: tuple[tuple[int, int], ...] = ()

    @property
    def is_timed(self) -> bool:
        """Whether the server moves for a seat whose time ran out."""
        return self.expiry == "timed"

    def to_record(self) -> dict[str, Any]:
        """The clock as the match record keeps it."""
        out: dict[str, Any] = {"seconds": self.seconds, "expiry": self.expiry}
        if self.auto:
            out["auto"] = [list(a) for a in self.auto]
        return out

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Clock | None:
        """The clock a match record names, if any."""
        raw = record.get("clock")
        if not isinstance(raw, dict):
            return None
        expiry: Literal["ask", "timed"] = "timed" if raw.get("expiry") == "timed" else "ask"
        auto = tuple((int(a[0]), int(a[1])) for a in raw.get("auto", []))
        return cls(int(raw["seconds"]), expiry, auto)


def clock_move(view: PlayerView) -> Action | None:
    """The move the clock makes for a seat whose time ran out in a timed match, from that
    seat's view (``None``: it is not that seat's turn in a hand in play).

    Never a knock, never a take: pass the upcard; draw from the stock; throw the card
    just drawn from the stock, or, after a take from the pile, the card that leaves the
    least deadwood (the highest of equals).
    """
    if not view.is_my_turn:
        return None
    if view.phase is Phase.UPCARD:
        return PassUpcard()
    if view.phase is Phase.DRAW:
        return DrawStock()
    if view.phase is not Phase.DISCARD:
        return None
    if view.drawn is not None and view.drawn != view.locked_card:
        return Discard(view.drawn)
    options = throw_options(view)
    least = min(options.values())
    return Discard(
        max((c for c, d in options.items() if d == least), key=lambda c: (c.points, int(c)))
    )


class SeatKind(StrEnum):
    """Who plays a seat."""

    PERSON = "person"
    BOT = "bot"


@dataclass(frozen=True, slots=True)
class Seat:
    """One of a match's two seats."""

    index: int
    kind: SeatKind
    bot: str | None = None
    """For a bot: its :data:`BOT_LEVELS` name."""
    bot_seed: int | None = None
    holder: str = ""
    """For a person: the seat id (hash of the seat token) that holds it; empty: open to
    anyone (matches from before seat tokens)."""
    name: str | None = None
    """The display name its player chose (none: they chose none, or a bot)."""
    open: bool = False
    """A person seat waiting for the friend an invite is for: nobody holds it yet."""
    connected: bool = False
    """Whether its player has a live stream of the match open (as last read)."""
    reminded_at: str = ""
    """When the other player last reminded it that its time was up (empty: never)."""

    @property
    def is_bot(self) -> bool:
        """Whether the server plays this seat."""
        return self.kind is SeatKind.BOT

    def is_held_by(self, holder: str) -> bool:
        """Whether the seat id ``holder`` may play this seat."""
        return self.kind is SeatKind.PERSON and self.holder in ("", holder)


@dataclass(frozen=True, slots=True)
class Deal:
    """How one hand was dealt (:mod:`ginrummy.fairness`); the seed is the server's secret
    until the hand is over."""

    fixed: bool = False
    """A deck planned by a test (test mode only): nothing to prove."""
    commitment: str | None = None
    server_seed: str | None = None
    client_seed: str | None = None
    client_seed_by: Literal["you", "server"] | None = None
    committed: bool = False
    """Whether the commitment was shown before the client seed was taken (a match
    started without asking ``POST /api/commitments`` first has its first deal
    uncommitted; every later deal is committed at the end of the hand before)."""
    first_dealer: int | None = None
    """A match's first deal: the seat the two seeds chose to deal
    (:func:`ginrummy.fairness.fair_first_dealer`). ``None`` on every later deal, and on
    first deals stored before the first dealer came from the seeds."""


@dataclass(frozen=True, slots=True)
class MatchData:
    """What the referee keeps beside a match's record, server-side only.

    Written and read by :meth:`to_json` and :meth:`from_json` alone.
    """

    seed: str
    """A per-match salt for test-mode seeds."""
    deals: tuple[Deal, ...] = ()
    """Each dealt hand's deal, in order."""
    next_seed: str | None = None
    """The server seed of the next hand, committed to (its SHA-256 shown) before use."""
    test_decks: tuple[str, ...] = ()
    """Test mode: the deck orders planned for the first hands."""
    first_dealer: int | None = None
    """Test mode: the seat that deals first, instead of the cut."""
    moved: int = 0
    """How many events the last change added to the hand on the table (what a live
    stream shows the other seat animate)."""

    def to_json(self) -> str:
        """The data as JSON text (what storage keeps)."""
        out: dict[str, Any] = {"seed": self.seed, "deals": [_deal_json(d) for d in self.deals]}
        if self.next_seed is not None:
            out["next_seed"] = self.next_seed
        if self.test_decks:
            out["test_decks"] = list(self.test_decks)
        if self.first_dealer is not None:
            out["first_dealer"] = self.first_dealer
        if self.moved:
            out["moved"] = self.moved
        return json.dumps(out)

    @classmethod
    def from_json(cls, text: str) -> MatchData:
        """The data :meth:`to_json` wrote (or the app wrote before it had this type)."""
        raw = json.loads(text)
        first = raw.get("first_dealer")
        return cls(
            seed=str(raw.get("seed", "")),
            deals=tuple(
                Deal(
                    fixed=bool(d.get("fixed", False)),
                    commitment=d.get("commitment"),
                    server_seed=d.get("server_seed"),
                    client_seed=d.get("client_seed"),
                    client_seed_by=d.get("client_seed_by"),
                    # Stored before the flag: a later hand's seed was always shown first.
                    committed=not d.get("fixed", False) and bool(d.get("committed", i > 0)),
                    first_dealer=d.get("first_dealer"),
                )
                for i, d in enumerate(raw.get("deals", []))
            ),
            next_seed=raw.get("next_seed"),
            test_decks=tuple(str(d) for d in raw.get("test_decks", [])),
            first_dealer=None if first is None else int(first),
            moved=int(raw.get("moved", 0)),
        )


_DEAL_FIELDS = tuple(f.name for f in fields(Deal) if f.name != "fixed")


def _deal_json(deal: Deal) -> dict[str, Any]:
    # Its fields are plain values: read them as they are (asdict copies each deeply).
    if deal.fixed:
        return {"fixed": True}
    return {name: getattr(deal, name) for name in _DEAL_FIELDS}


@dataclass(frozen=True, slots=True)
class Invite:
    """An open invite to a match's open seat, as its maker may see it."""

    code: str
    """The link's secret: ``/join/<code>``."""
    seat: int
    expires_at: str


@dataclass(slots=True)
class LoadedMatch:
    """A match as the referee loaded (and perhaps moved) it, for one requester."""

    id: str
    version: int
    match: Match
    data: MatchData
    seats: tuple[Seat, Seat]
    owner: str
    created_at: str
    updated_at: str
    seat: int | None = None
    """The seat the requester holds (the one to act, if they hold both); ``None`` for
    someone who holds no seat (the owner of a bot-against-bot match, or anybody once
    the match is over)."""
    events: list[tuple[int, Event]] = field(default_factory=list)
    """What this request did: (hand number, event), in order."""
    invite: Invite | None = None
    """The open invite to this match, when the requester made it."""
    resume: str | None = None
    """The requester's seat's resume link token (a match between two people only)."""
    clock: Clock | None = None
    """The match's move clock, if it has one."""
    deadline: str = ""
    """When the seat to act runs out of time (ISO 8601 UTC; empty: no clock runs)."""
    turn_of: int | None = None
    """The seat that was to act when the match was read (a turn keeps its deadline)."""

    @property
    def status(self) -> Literal["playing", "over"]:
        """``over`` once a seat reached the target, else ``playing``."""
        return "over" if self.match.is_over else "playing"

    @property
    def perspective(self) -> int:
        """The seat whose view is shown: the requester's, else seat 0.

        Someone with no seat is shown seat 0's view only when no hand is in play
        for them to learn from (a match over, or a bot-against-bot match, whose
        hands are played out within each request), where it hides nothing.
        """
        return 0 if self.seat is None else self.seat


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A history line: a stored match without its cards (no replay needed)."""

    id: str
    status: str
    scores: tuple[int, int]
    hands: int
    """The hands played to their end (the hand in progress is not one)."""
    settings: Settings
    seats: tuple[Seat, Seat]
    created_at: str
    updated_at: str
    seat: int | None = None
    """The seat the requester holds in it (``None``: none, e.g. two bots they started)."""


def default_knock_card(view: PlayerView, options: dict[Card, int] | None = None) -> Card | None:
    """The card the Knock button throws when none is marked: the one that leaves least.

    Among throws that leave the same count, the highest card goes (it would
    only have counted against the knocker). ``options`` are the view's
    :func:`throw_options`, when already worked out.
    """
    if options is None:
        options = throw_options(view)
    able = [(d, c) for c, d in options.items() if d <= view.knock_limit]
    if not able:
        return None
    least = min(d for d, _ in able)
    return max((c for d, c in able if d == least), key=lambda c: (c.points, int(c)))


def throw_options(view: PlayerView) -> dict[Card, int]:
    """For the seat to discard: each card it may throw and the deadwood the rest would leave.

    Empty unless it is this seat's turn to discard; the card just taken from
    the pile is left out (it may not be thrown this turn).
    """
    if not view.is_my_turn or view.phase is not Phase.DISCARD:
        return {}
    options = knock_options(view.hand, ace_high=view.settings.ace_high)
    return {c: d for c, d in options.items() if c != view.locked_card}
