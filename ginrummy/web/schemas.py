"""What goes over the wire: input and output schemas, apart from the engine's types.

Outputs are built field by field from a player's view (see
:mod:`ginrummy.web.present`), and every route declares its response model, so
nothing the engine holds (the other hand, the stock order, the deck) can leak
by being forgotten in a conversion. Cards travel in the rules' notation
(``7C``, ``TD``); the page draws and names them.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from ginrummy.cards import RANKS, SUITS
from ginrummy.settings import NUMBER_RANGES

__all__ = [
    "CARD_PATTERN",
    "ActionIn",
    "ArrangementOut",
    "CommitmentOut",
    "DealProofOut",
    "ErrorBody",
    "ErrorOut",
    "EventOut",
    "FairnessOut",
    "FinalOut",
    "HintOut",
    "KnockLayoutsOut",
    "KnockOut",
    "LayOffOut",
    "LegalOut",
    "MatchOut",
    "MatchSummaryOut",
    "MeldOut",
    "NewMatchIn",
    "ProofsOut",
    "ReviewStatusOut",
    "SeatIn",
    "SeatOut",
    "SettingOptionOut",
    "SettingsFormOut",
    "SettingsIn",
    "SettingsOut",
    "SheetEntryOut",
    "StatisticsOut",
    "TableOut",
    "ThrowOut",
    "VersionIn",
]

SeatIndex = Annotated[int, Field(ge=0, le=1)]
"""A seat of the match: 0 or 1. Players are named by seat on the wire, never by role."""
CARD_PATTERN = f"^[{RANKS}][{SUITS}]$"
"""The rules' notation on the wire, exactly: no lower case, no ``10``, no suit symbol."""
CardCode = Annotated[str, Field(json_schema_extra={"pattern": CARD_PATTERN})]
"""A card in the rules' notation, rank then suit: ``AS``, ``TD``, ``7C``.

The route checks the pattern itself, to answer ``bad_card`` naming the token."""
ClientSeed = Annotated[str, Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_-]+$")]
"""The browser's own random contribution to a deal: letters, digits, ``-`` and ``_``."""
Commitment = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
"""A SHA-256 in lowercase hex."""
ActionId = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
"""The client's id for one request: the same id again gets the first answer."""


class _In(BaseModel):
    # Strict: "3" or true is no version, 1 is no switch; what was wrong is said, not guessed.
    model_config = ConfigDict(extra="forbid", strict=True)


def _number(name: str, default: int) -> int:
    """A whole-number setting with its range in the schema (the engine checks it too)."""
    low, high = NUMBER_RANGES[name]
    found: int = Field(default=default, json_schema_extra={"minimum": low, "maximum": high})
    return found


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- inputs ------------------------------------------------------------------


class SettingsIn(_In):
    """The settings a player picks before a match (checked again by the engine)."""

    match_to: int = _number("match_to", 100)
    knocking: Literal["standard", "oklahoma", "gin_only"] = "standard"
    undercut_bonus: int = _number("undercut_bonus", 25)
    gin_bonus: int = _number("gin_bonus", 25)
    big_gin_bonus: int = _number("big_gin_bonus", 31)
    big_gin: bool = False
    ace_high: bool = False
    game_bonus: bool = False
    line_bonus: bool = False
    shutout: Literal["off", "double", "plus_100"] = "off"
    spades_double: bool = False
    hints: bool = False


_NAME_SIGNS = frozenset(" .'-_\u200c\u200d")
"""What a display name may hold besides letters, marks and digits: space, ``.'-_``, and the
zero-width (non-)joiners some scripts (Devanagari among them) write words with."""


def is_display_name(name: str) -> bool:
    """Whether ``name`` is a display name: 1 to 20 characters, starting with a letter or a
    digit of any script, then letters, their marks (Devanagari's vowel signs), digits,
    spaces and ``.'-_``.

    >>> [is_display_name(n) for n in ("Ann", "राम", "सीता", "O'Neil-2", "", "<b>", "_x")]
    [True, True, True, True, False, False, False]
    """
    if not 1 <= len(name) <= 20 or unicodedata.category(name[0])[0] not in "LN":
        return False
    return all(unicodedata.category(c)[0] in "LMN" or c in _NAME_SIGNS for c in name[1:])


class SeatIn(_In):
    """Who plays a seat: a person (the requester), a friend (invited by a link) or a bot."""

    kind: Literal["person", "bot", "friend"]
    bot: Literal["easy", "medium", "hard"] | None = None
    """For a bot: its level (none: medium)."""
    name: str | None = None
    """For the requester's person seat: the display name they chose."""


class JoinIn(_In):
    """Take an invite's seat, with the display name chosen."""

    name: str | None = None
    accept_clock: bool = False
    """Agreed to a timed match's clock (the server moves for a seat whose time runs out):
    a timed match is joined only with it."""


class ClockIn(_In):
    """A friend match's move clock: seconds a turn, and what happens when they run out."""

    seconds: int
    """30, 60, 120 or 300 (a server in test mode takes 1 to 600)."""
    expiry: str = "ask"
    """``ask``: the late player is told, nobody is moved; ``timed``: the server moves for
    the late seat (draw from the stock and throw the card drawn, or pass the upcard)."""


class ResumeIn(_In):
    """Move a seat to this device with its resume link."""

    match: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")
    seat: SeatIndex
    token: str = Field(min_length=1, max_length=64, pattern=r"^[0-9a-f]+$")
    """The link's secret: lowercase hexadecimal."""


def _default_seats() -> list[SeatIn]:
    return [SeatIn(kind="person"), SeatIn(kind="bot", bot="medium")]


class NewMatchIn(_In):
    """Start a match. The deck fields are refused unless the server runs in test mode."""

    settings: SettingsIn = Field(default_factory=SettingsIn)
    seats: list[SeatIn] = Field(default_factory=_default_seats, min_length=2, max_length=2)
    """Seat 0 and seat 1; at most one person (the requester). Two bots play each hand out
    within the request that deals it."""
    test_decks: list[str] | None = None
    """Test mode only: the deck orders of the first hands, 52 cards each."""
    first_dealer: SeatIndex | None = None
    """Test mode only: the seat that deals the first hand."""
    commitment: Commitment | None = None
    """The commitment the server gave (``POST /api/commitments``) before this request."""
    client_seed: ClientSeed | None = None
    """The browser's seed for the first deal (none: the server makes one up)."""
    clock: ClockIn | None = None
    """A move clock, for a match against a friend (none: no clock, the default)."""


_NO_CARD: list[JsonValue] = ["take", "pass", "stock", "pile", "big_gin"]


class ActionIn(_In):
    """One move, made on ``version`` of the match."""

    model_config = ConfigDict(
        json_schema_extra={
            "allOf": [
                {  # only a throw or a knock names a card
                    "if": {"properties": {"action": {"enum": _NO_CARD}}},
                    "then": {"properties": {"card": {"type": "null"}}},
                },
                {  # only a knock lays down melds
                    "if": {"properties": {"action": {"not": {"const": "knock"}}}},
                    "then": {"properties": {"melds": {"type": "null"}}},
                },
            ]
        }
    )

    version: int
    action: Literal["take", "pass", "stock", "pile", "discard", "knock", "big_gin"]
    card: CardCode | None = None
    """The card to throw (``discard``) or to knock with (``knock``; none: the best)."""
    melds: list[list[CardCode]] | None = Field(default=None, max_length=4)
    """``knock`` only: the melds to lay down, one of the least-deadwood layouts
    (``knock_layouts``); none: the engine's own choice."""
    action_id: ActionId | None = None
    """Sent again (a retry, a double click), the first answer comes back; nothing is redone."""


class VersionIn(_In):
    """A request made on ``version`` of the match (dealing the next hand)."""

    version: int
    client_seed: ClientSeed | None = None
    """The browser's seed for this deal, sent after it saw the commitment."""
    action_id: ActionId | None = None
    """As for an action: the same id again gets the first answer."""


# --- outputs -----------------------------------------------------------------


ParamValue = int | str
"""A parameter of an error: a number or a name (a card, a setting)."""


class ErrorBody(_Out):
    """What went wrong: a stable code the page turns into words, with its parameters."""

    code: str
    message: str
    """In English, for developers and logs; the page shows its own words for ``code``."""
    params: dict[str, ParamValue] = {}


class ErrorOut(_Out):
    """The one shape of every error response."""

    error: ErrorBody


class SettingsOut(_Out):
    """A match's settings."""

    match_to: int
    knocking: str
    undercut_bonus: int
    gin_bonus: int
    big_gin_bonus: int
    big_gin: bool
    ace_high: bool
    game_bonus: bool
    line_bonus: bool
    shutout: str
    spades_double: bool
    hints: bool


class SettingOptionOut(_Out):
    """One setting as the settings form shows it."""

    name: str
    kind: Literal["number", "choice", "switch"]
    default: int | str | bool
    choices: list[str] = []
    """For a choice: the values."""
    presets: list[int] = []
    """For a number: the usual values."""
    minimum: int | None = None
    maximum: int | None = None
    house_rule: bool = False


class SettingsFormOut(_Out):
    """What the new-match form offers: every setting, and the bot levels a seat may have."""

    settings: list[SettingOptionOut]
    bots: list[str]


class SeatOut(_Out):
    """One seat of a match, as everyone may know it."""

    index: SeatIndex
    kind: Literal["person", "bot"]
    bot: str | None
    name: str | None
    open: bool = False
    """A friend's seat nobody took yet (its invite is open, expired or cancelled)."""
    connected: bool = False
    """Its player has the match's live stream open."""


class InviteOut(_Out):
    """The open invite of a friend match, shown to its maker."""

    code: str
    url: str
    """The path to share: ``/join/<code>``."""
    qr: str
    """The path of the link's QR code, an SVG image."""
    seat: SeatIndex
    expires_at: str


class ClockOut(_Out):
    """A friend match's move clock, as it stands when the answer is written."""

    seconds: int
    expiry: Literal["ask", "timed"]
    seat: SeatIndex | None
    """The seat whose time runs (none: no clock runs now, e.g. between hands)."""
    deadline: str | None
    """When that seat runs out of time (ISO 8601 UTC)."""
    left_ms: int | None
    """Milliseconds left when the answer was written (0: time is up), for a countdown
    that does not depend on the reader's clock."""
    auto: bool = False
    """The last change was the clock's move for a late seat (a timed match)."""
    auto_moves: int = 0
    """How many actions the clock has made in this match."""


class InviteInfoOut(_Out):
    """What someone opening an invite link may know before taking the seat."""

    code: str
    match: str
    seat: SeatIndex
    state: Literal["open", "yours"]
    """``yours``: the requester took this seat already."""
    expires_at: str
    host: str | None
    clock: ClockOut | None = None
    """The match's move clock, which whoever takes the seat plays under."""
    """The display name of the player who sent it."""
    settings: SettingsOut


class CancelledOut(_Out):
    """An invite cancelled."""

    state: Literal["cancelled"]


class MeldOut(_Out):
    """Cards that score together."""

    kind: Literal["run", "set"]
    cards: list[CardCode]


class ArrangementOut(_Out):
    """A hand laid out as its least-deadwood melds and the loose cards."""

    melds: list[MeldOut]
    deadwood: list[CardCode]
    points: int


class ThrowOut(_Out):
    """A card the player may throw and the deadwood the other ten would leave."""

    card: CardCode
    leaves: int


class KnockOut(_Out):
    """What the Knock button does when pressed with no card marked."""

    card: CardCode
    leaves: int
    gin: bool


class KnockLayoutsOut(_Out):
    """The ways to lay the other ten cards down after knocking with ``card``."""

    card: CardCode
    layouts: list[ArrangementOut]


class LegalOut(_Out):
    """What the player may do now."""

    take: bool
    pass_: bool = Field(serialization_alias="pass")
    stock: bool
    pile: bool
    discard: list[CardCode]
    knock: list[ThrowOut]
    big_gin: bool


EventKind = Literal["dealt", "take", "pass", "stock", "pile", "discard", "knock", "big_gin"]
"""What an event of the move log is."""


class EventOut(_Out):
    """Something that happened, as the requester's seat sees it."""

    hand: int
    who: SeatIndex
    """The seat that did it (for ``dealt``: the dealer)."""
    kind: EventKind
    card: CardCode | None
    """The card concerned; ``None`` for the other seat's stock draws while the hand is in
    play (and after a dead hand)."""
    deadwood: int | None = None


class TableOut(_Out):
    """The hand being played (or just ended) as the player sees it."""

    phase: Literal["upcard", "draw", "discard", "over"]
    to_act: SeatIndex | None
    dealer: SeatIndex
    hand: list[CardCode]
    drawn: CardCode | None
    """The card just drawn, while it is still the player's turn."""
    locked: CardCode | None
    """The card just taken from the pile, which may not be thrown this turn."""
    pile: list[CardCode]
    first_upcard: CardCode
    stock_count: int
    opponent_count: int
    opponent_pile_cards: list[CardCode]
    opponent_hand: list[CardCode] | None
    """Only once the hand is over by a knock or gin."""
    knock_limit: int
    arrangement: ArrangementOut
    throws: list[ThrowOut]
    knock: KnockOut | None
    knock_layouts: list[KnockLayoutsOut] = []
    """For each throw that can knock and leaves a choice of equally good melds, the
    choice (the first is the one a knock with no melds named lays down)."""
    legal: LegalOut
    log: list[EventOut]


class LayOffOut(_Out):
    """A defender's card laid off onto the knocker's meld number ``meld`` (0-based)."""

    card: CardCode
    meld: int


class SheetEntryOut(_Out):
    """One hand on the score sheet, both hands as laid down."""

    number: int
    dealer: SeatIndex
    kind: Literal["knock", "gin", "big_gin", "undercut", "dead"]
    winner: SeatIndex | None
    points: int
    knocker: SeatIndex | None
    knocker_melds: list[MeldOut]
    knocker_deadwood: list[CardCode]
    knocker_points: int
    defender_melds: list[MeldOut]
    lay_offs: list[LayOffOut]
    defender_deadwood: list[CardCode]
    defender_points: int
    multiplier: int
    totals: tuple[int, int]
    """The running totals after this hand, by seat."""


class FinalOut(_Out):
    """The end of the match, with every end bonus (each a pair by seat)."""

    winner: SeatIndex
    running: tuple[int, int]
    game_bonus: tuple[int, int]
    line_bonus: tuple[int, int]
    shutout_bonus: tuple[int, int]
    totals: tuple[int, int]


class CommitmentOut(_Out):
    """A server seed committed to for the player's next new match: its SHA-256."""

    commitment: str


class DealProofOut(_Out):
    """How one hand was dealt; the server seed and deck only once the hand is over.

    Check: ``sha256(bytes.fromhex(server_seed)) == commitment``,
    ``fair_deck(server_seed, client_seed, hand) == deck`` and, for the first hand,
    ``fair_first_dealer(server_seed, client_seed) == first_dealer`` (``docs/FAIRNESS.md``).
    """

    hand: int
    fixed: bool
    """A deck fixed by a test (test mode only): nothing to prove."""
    committed: bool
    """Whether the commitment was shown before the client seed was sent. ``false``: the
    match was started without asking for a commitment first (``POST /api/commitments``),
    so the server seed was drawn after the client seed was known: the deck and first
    dealer still follow from the seeds, but the server could have chosen its seed."""
    first_dealer: SeatIndex | None
    """The first hand's dealer, drawn from the two seeds; ``null`` on later hands (and on
    matches stored before it was drawn so)."""
    commitment: str | None
    client_seed: str | None
    client_seed_by: Literal["you", "server"] | None
    """Who chose the client seed: your browser, or the server when none was sent."""
    server_seed: str | None
    deck: list[CardCode] | None


class FairnessOut(_Out):
    """The deal of the hand on the table, and the commitment for the next one."""

    deal: DealProofOut
    """After a knock or gin, with the seed and deck; after a dead hand those are only
    on the proofs page (the table shows no cards)."""
    next_commitment: str | None
    """While the next hand waits to be dealt: the SHA-256 of its server seed."""


class ProofsOut(_Out):
    """Every hand's deal of a match; anyone may ask (nothing of a hand in play is in it)."""

    id: str
    deals: list[DealProofOut]
    next_commitment: str | None


class MatchOut(_Out):
    """A match as the player sees it, and what the last request did."""

    id: str
    version: int
    status: Literal["playing", "over"]
    seat: SeatIndex | None
    """The seat the requester holds (``None``: they hold none, and see seat 0's side of
    hands that are over)."""
    seats: list[SeatOut]
    settings: SettingsOut
    hand_number: int
    scores: tuple[int, int]
    """Running totals, by seat."""
    awaiting_deal: bool
    table: TableOut
    last_result: SheetEntryOut | None
    """The result of the hand on the table, once it is over."""
    sheet: list[SheetEntryOut]
    final: FinalOut | None
    events: list[EventOut]
    """What this request did, in order, for the page to animate."""
    fairness: FairnessOut
    invite: InviteOut | None = None
    """The open invite to the friend's seat, for the player who made it."""
    resume: str | None = None
    """The requester's resume link (``/resume/<match>/<seat>/<token>``): it moves their seat
    to another device. Only in a match between two people."""
    clock: ClockOut | None = None
    """The move clock of a friend match that has one."""
    created_at: str
    updated_at: str


class MatchSummaryOut(_Out):
    """A line of the history page."""

    id: str
    status: Literal["playing", "over"]
    scores: tuple[int, int]
    hands: int
    """The hands played to their end (the hand in progress is not one)."""
    winner: SeatIndex | None
    settings: SettingsOut
    seats: list[SeatOut]
    created_at: str
    updated_at: str
    seat: SeatIndex | None = None
    """The seat the requester holds in it (``None``: none, e.g. a match between two bots)."""


# --- the coach -----------------------------------------------------------------

ReasonOut = dict[str, int | str]
"""A reason: ``{"code": ..., **params}`` (docs/COACH.md lists the codes and params)."""


class OptionOut(_Out):
    """A candidate action of a reviewed decision and its mean points over the samples."""

    action: str
    points: float | None


class DecisionOut(_Out):
    """One decision of a reviewed hand (the reviewed player's, or the other's with its reason)."""

    number: int
    """The action's number in the hand (1-based)."""
    player: SeatIndex
    kind: Literal["upcard", "draw", "discard", "knock", "layout"]
    action: str
    hard: str | None
    best: str | None
    cost: float | None
    interval: tuple[float | None, float | None] | None
    """The cost's 95% interval."""
    samples: int
    mistake: bool
    reason: ReasonOut | None
    options: list[OptionOut]


class HandResultOut(_Out):
    """How a reviewed hand ended."""

    kind: Literal["knock", "gin", "big_gin", "undercut", "dead"]
    winner: SeatIndex | None
    points: int


class HandReviewOut(_Out):
    """The coach's review of one hand for one player."""

    hand: int
    player: SeatIndex
    dealer: SeatIndex
    result: HandResultOut
    samples: int
    seed: int
    threshold: float
    opponent: str
    wide: bool
    mistakes: int
    points_lost: float
    decisions: list[DecisionOut]


class LaidHandOut(_Out):
    """A hand as melds and deadwood, with its deadwood count."""

    melds: list[list[str]]
    deadwood: list[str]
    points: int


class StepOut(_Out):
    """One point of a finished hand, both hands face up: before action ``number``, or the end."""

    number: int | None
    player: SeatIndex | None
    action: str | None
    hands: tuple[LaidHandOut, LaidHandOut]
    pile: list[str]
    stock: int
    phase: str


class ReviewOut(_Out):
    """A finished review as the page shows it."""

    match: str
    seat: SeatIndex
    hands_in_match: int
    review: HandReviewOut
    steps: list[StepOut]


class ReviewStatusOut(_Out):
    """Where a hand's review is: running (how far), done (the review) or failed."""

    status: Literal["running", "done", "failed"]
    done: int = 0
    total: int = 0
    message: str | None = None
    review: ReviewOut | None = None


class HintOut(_Out):
    """Hard's choice for the requester's decision now, with its one-line reason."""

    hand: int
    kind: Literal["upcard", "draw", "discard", "knock", "layout"]
    action: str
    reason: ReasonOut


class ShareOut(_Out):
    """A share with its 95% Wilson interval."""

    share: float
    low: float
    high: float


class GroupOut(_Out):
    """Matches against one opponent under one knocking rule."""

    opponent: str
    knocking: str
    matches: int
    hands: int
    won: int


class ReviewedHandOut(_Out):
    """One stored review, as the statistics count it."""

    match: str
    hand: int
    decisions: int
    mistakes: int
    points_lost: float
    at: str


class MatchLineOut(_Out):
    """One match in the statistics (scores: the requester's first)."""

    id: str
    status: str
    won: bool
    opponent: str
    knocking: str
    match_to: int
    hands: int
    scores: tuple[int, int]
    updated_at: str


class StatisticsOut(_Out):
    """The statistics of the requester's matches on this device."""

    matches: int
    finished: int
    won: int
    win_share: ShareOut
    hands: int
    points_per_hand: float
    rates: dict[str, float]
    """Per hand played: ``gin_for``, ``gin_against``, ``knock_for``, ... and ``dead``."""
    counts: dict[str, int]
    knock_deadwood: float | None
    """The requester's average deadwood when knocking (undercut or not)."""
    knocks: int
    by_opponent: list[GroupOut]
    reviewed: list[ReviewedHandOut]
    hints: int
    hints_by_match: dict[str, int]
    threshold: float
    history: list[MatchLineOut]
