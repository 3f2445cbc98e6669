"""One hand of Gin Rummy as a state machine.

The hand is dealt from an explicit deck order (chance is an input: the engine
never shuffles by itself). At every point it lists the legal actions; an
illegal action raises :class:`IllegalActionError` and leaves the state as it
was; each player can ask for a :class:`PlayerView` that holds only what that
player may see.

>>> from ginrummy.hand import Hand, TakeUpcard, PassUpcard, DrawStock, Discard
>>> hand = Hand.from_seed(7, dealer=0)
>>> hand.to_act, hand.phase
(1, <Phase.UPCARD: 'upcard'>)
>>> _ = hand.apply(PassUpcard()); _ = hand.apply(PassUpcard())
>>> hand.legal_actions()
(DrawStock(),)
>>> _ = hand.apply(DrawStock())
>>> len(hand.view(1).hand), len(hand.view(0).hand)
(11, 10)

Where rule books differ the engine makes these choices (docs/RULES.md has them all):

- The knock card is thrown face down: it does not go on the pile (it is
  ``HandResult.knock_card``), and it is never counted.
- A knock that leaves no deadwood is always gin, whatever the knock limit.
- Gin and big gin: the defender lays out own melds only (no lay-offs), and a
  defender with no deadwood still loses (gin cannot be undercut).
- Big gin, when that house rule is on, may follow any draw, including taking
  the upcard and the draw that leaves two cards in the stock, and whatever
  the knock limit (Oklahoma under an ace, gin only).
- Once a hand is won both hands are shown, and so are the stock draws in the
  event log (each card drawn is then in a hand or on the pile anyway). After a
  dead hand nothing more is shown.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TypeAlias

from ginrummy.cards import (
    FULL_DECK,
    Card,
    CardParseError,
    cards_of_mask,
    format_cards,
    mask_of,
    parse_card,
)
from ginrummy.errors import EngineError
from ginrummy.melds import (
    Arrangement,
    LayOff,
    Meld,
    all_best_arrangements,
    best_arrangement,
    best_layoff,
    deadwood_after_discard_mask,
    deadwood_mask,
    knock_options_mask,
)
from ginrummy.settings import Settings

__all__ = [
    "Action",
    "ActionName",
    "ActionParseError",
    "BigGinDeclared",
    "DealError",
    "Dealt",
    "DeclareBigGin",
    "Discard",
    "Discarded",
    "DrawPile",
    "DrawStock",
    "EarlierHand",
    "Event",
    "Hand",
    "HandResult",
    "IllegalActionError",
    "Knock",
    "Knocked",
    "PassUpcard",
    "Phase",
    "PileDrawn",
    "PlayerView",
    "ResultKind",
    "StockDrawn",
    "TakeUpcard",
    "UpcardPassed",
    "UpcardTaken",
    "action_name",
    "event_kind",
    "parse_action",
    "shuffled_deck",
]

HAND_SIZE = 10
DEAD_AT = 2
"""A plain discard that leaves this many cards in the stock makes the hand dead."""


class IllegalActionError(EngineError):
    """An action the rules do not allow now; ``code`` and the message say why."""


class ActionParseError(EngineError):
    """Text that is not an action in the record notation (codes ``action_*``)."""


class DealError(EngineError):
    """A deck order or dealer that cannot start a hand (``bad_deck``, ``bad_dealer``)."""


class Phase(StrEnum):
    """Where the hand is."""

    UPCARD = "upcard"
    """The player to act may take the upcard or pass."""
    DRAW = "draw"
    """The player to act draws from the stock or the pile."""
    DISCARD = "discard"
    """The player to act, holding eleven cards, discards or knocks."""
    OVER = "over"
    """The hand has ended (knock, gin, big gin, or dead)."""


# --- actions ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TakeUpcard:
    """Take the upcard during the upcard offer (that is the player's draw)."""

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class PassUpcard:
    """Pass on the upcard during the upcard offer."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stock."""

    def __str__(self) -> str:
        return "stock"


@dataclass(frozen=True, slots=True)
class DrawPile:
    """Draw the top card of the discard pile."""

    def __str__(self) -> str:
        return "pile"


@dataclass(frozen=True, slots=True)
class Discard:
    """Throw ``card`` onto the pile and end the turn."""

    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Knock:
    """Throw ``card`` face down and lay the other ten cards down.

    ``melds`` picks one of the least-deadwood arrangements of the ten cards
    kept (the knocker's choice, which matters for lay-offs); ``None`` takes
    the engine's preferred one. Knocking with no deadwood is gin.
    """

    card: Card
    melds: tuple[Meld, ...] | None = None

    def __str__(self) -> str:
        if self.melds is None:
            return f"knock {self.card}"
        return f"knock {self.card} " + " ".join(f"[{format_cards(m)}]" for m in self.melds)


@dataclass(frozen=True, slots=True)
class DeclareBigGin:
    """House rule: lay down eleven melded cards without a discard."""

    melds: tuple[Meld, ...] | None = None

    def __str__(self) -> str:
        if self.melds is None:
            return "big_gin"
        return "big_gin " + " ".join(f"[{format_cards(m)}]" for m in self.melds)


Action: TypeAlias = TakeUpcard | PassUpcard | DrawStock | DrawPile | Discard | Knock | DeclareBigGin
"""Everything a player can do."""

_ACTION_TYPES = (TakeUpcard, PassUpcard, DrawStock, DrawPile, Discard, Knock, DeclareBigGin)


class ActionName(StrEnum):
    """The name of each kind of action: one vocabulary for records, the HTTP API,
    the arena protocol and the event log (:func:`event_kind`).

    >>> [n.value for n in ActionName]
    ['take', 'pass', 'stock', 'pile', 'discard', 'knock', 'big_gin']
    """

    TAKE = "take"
    """:class:`TakeUpcard`"""
    PASS = "pass"
    """:class:`PassUpcard`"""
    STOCK = "stock"
    """:class:`DrawStock`"""
    PILE = "pile"
    """:class:`DrawPile`"""
    DISCARD = "discard"
    """:class:`Discard` (names a card)"""
    KNOCK = "knock"
    """:class:`Knock` (names a card, may name melds)"""
    BIG_GIN = "big_gin"
    """:class:`DeclareBigGin` (may name melds)"""


_NAMES: dict[type, ActionName] = {
    TakeUpcard: ActionName.TAKE,
    PassUpcard: ActionName.PASS,
    DrawStock: ActionName.STOCK,
    DrawPile: ActionName.PILE,
    Discard: ActionName.DISCARD,
    Knock: ActionName.KNOCK,
    DeclareBigGin: ActionName.BIG_GIN,
}

_SIMPLE_ACTIONS: dict[str, Action] = {
    "take": TakeUpcard(),
    "pass": PassUpcard(),
    "stock": DrawStock(),
    "pile": DrawPile(),
}

_OLD_NAMES = {"big-gin": ActionName.BIG_GIN}
"""Names older records wrote (read, never written)."""

# Actions are frozen values: legal_actions hands out these shared ones.
_UPCARD_CHOICES: tuple[Action, ...] = (TakeUpcard(), PassUpcard())
_STOCK_ONLY: tuple[Action, ...] = (DrawStock(),)
_DRAW_CHOICES: tuple[Action, ...] = (DrawStock(), DrawPile())
_DISCARDS = tuple(Discard(card) for card in FULL_DECK)
_KNOCKS = tuple(Knock(card) for card in FULL_DECK)


def action_name(action: Action) -> ActionName:
    """The vocabulary name of an action.

    >>> action_name(Knock(Card.parse("7C")))
    <ActionName.KNOCK: 'knock'>
    """
    return _NAMES[type(action)]


def _card_of(token: object, text: str) -> Card:
    if isinstance(token, Card):
        return token
    if not isinstance(token, str):
        raise ActionParseError("action_card", text=text, token=repr(token))
    try:
        return parse_card(token)
    except CardParseError:
        raise ActionParseError("action_card", text=text, token=token) from None


def _melds_of(melds: Iterable[str | Iterable[object]], text: str) -> tuple[Meld, ...]:
    out = []
    for meld in melds:
        tokens = meld.replace(",", " ").split() if isinstance(meld, str) else list(meld)
        out.append(tuple(_card_of(t, text) for t in tokens))
    return tuple(out)


def _parse_melds(text: str, whole: str) -> tuple[Meld, ...]:
    melds = []
    rest = text.strip()
    while rest:
        if not rest.startswith("[") or "]" not in rest:
            raise ActionParseError("action_melds", text=rest)
        inner, rest = rest[1:].split("]", 1)
        melds.append(inner)
        rest = rest.strip()
    return _melds_of(melds, whole)


def parse_action(
    text: str,
    card: Card | str | None = None,
    melds: Iterable[str | Iterable[Card | str]] | None = None,
) -> Action:
    """An action from its name and card, in one text or apart.

    The text is written as :func:`str` writes an action (the record notation):
    a name of :class:`ActionName`, then the card for ``discard`` and
    ``knock``, then any melds in brackets. Or give the bare name and pass the
    card and melds apart, as the HTTP API and the arena protocol carry them.
    Older records' ``big-gin`` reads as ``big_gin``. A bad text raises
    :class:`ActionParseError` with a code.

    >>> parse_action("discard 7c")
    Discard(card=Card.parse('7C'))
    >>> parse_action("knock", card="3H", melds=[["AS", "2S", "3S"]]) == parse_action(
    ...     "knock 3h [as 2s 3s]")
    True
    >>> str(parse_action("big-gin"))
    'big_gin'
    >>> parse_action("discard")
    Traceback (most recent call last):
    ...
    ginrummy.hand.ActionParseError: the action 'discard' names a card, e.g. discard 7C
    """
    words = text.strip().split(None, 1)
    if not words:
        raise ActionParseError("action_empty")
    word = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    try:
        name = ActionName(_OLD_NAMES.get(word, word))
    except ValueError:
        raise ActionParseError("action_unknown", text=text) from None
    if name in (ActionName.DISCARD, ActionName.KNOCK):
        if card is None:
            if not rest or rest.startswith("["):
                raise ActionParseError("action_needs_card", name=name.value)
            token, _, rest = rest.partition(" ")
            card = token
        elif rest and not rest.startswith("["):
            raise ActionParseError("action_unknown", text=text)
        chosen = _card_of(card, text)
        if name is ActionName.DISCARD:
            if melds is not None or rest.startswith("["):
                raise ActionParseError("action_takes_no_melds", name=name.value)
            if rest:
                raise ActionParseError("action_unknown", text=text)
            return _DISCARDS[chosen]
        laid = _parse_melds(rest, text) if rest.strip() else None
        if melds is not None:
            if laid is not None:
                raise ActionParseError("action_unknown", text=text)
            laid = _melds_of(melds, text)
        return _KNOCKS[chosen] if laid is None else Knock(chosen, laid)
    if card is not None:
        raise ActionParseError("action_takes_no_card", name=name.value)
    if name is ActionName.BIG_GIN:
        laid = _parse_melds(rest, text) if rest.strip() else None
        if melds is not None:
            if laid is not None:
                raise ActionParseError("action_unknown", text=text)
            laid = _melds_of(melds, text)
        return DeclareBigGin(laid)
    if melds is not None or rest.startswith("["):
        raise ActionParseError("action_takes_no_melds", name=name.value)
    if rest:
        raise ActionParseError("action_unknown", text=text)
    return _SIMPLE_ACTIONS[name.value]


# --- events ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt:
    """Ten cards each were dealt and the upcard turned."""

    dealer: int
    upcard: Card


@dataclass(frozen=True, slots=True)
class UpcardTaken:
    """``player`` took the upcard in the upcard offer."""

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class UpcardPassed:
    """``player`` passed on the upcard."""

    player: int


@dataclass(frozen=True, slots=True)
class StockDrawn:
    """``player`` drew from the stock; ``card`` is ``None`` in the other player's view."""

    player: int
    card: Card | None


_HIDDEN_DRAWS = (StockDrawn(0, None), StockDrawn(1, None))
"""Each player's stock draw as the other player sees it (shared by every view)."""


@dataclass(frozen=True, slots=True)
class PileDrawn:
    """``player`` took ``card`` from the top of the pile."""

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class Discarded:
    """``player`` threw ``card`` onto the pile."""

    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class Knocked:
    """``player`` knocked, throwing ``card`` face down, with ``deadwood`` left."""

    player: int
    card: Card
    deadwood: int


@dataclass(frozen=True, slots=True)
class BigGinDeclared:
    """``player`` laid down eleven melded cards."""

    player: int


Event: TypeAlias = (
    Dealt
    | UpcardTaken
    | UpcardPassed
    | StockDrawn
    | PileDrawn
    | Discarded
    | Knocked
    | BigGinDeclared
)
"""Something that happened, in the hand's public log."""

_EVENT_KINDS: dict[type, ActionName] = {
    UpcardTaken: ActionName.TAKE,
    UpcardPassed: ActionName.PASS,
    StockDrawn: ActionName.STOCK,
    PileDrawn: ActionName.PILE,
    Discarded: ActionName.DISCARD,
    Knocked: ActionName.KNOCK,
    BigGinDeclared: ActionName.BIG_GIN,
}


def event_kind(event: Event) -> ActionName | None:
    """The action an event records, by its vocabulary name (``None`` for the deal).

    >>> event_kind(UpcardPassed(1)), event_kind(Dealt(0, Card.parse("7C")))
    (<ActionName.PASS: 'pass'>, None)
    """
    return _EVENT_KINDS.get(type(event))


# --- results ---------------------------------------------------------------


class ResultKind(StrEnum):
    """How a hand ended."""

    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    DEAD = "dead"


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what it scored, with both hands as laid down.

    For a dead hand nothing is revealed: the meld and card fields are empty.
    For big gin ``knocker`` is the declarer, ``knocker_melds`` hold all eleven
    cards, ``knock_card`` is ``None`` and there is no knocker deadwood. After
    gin and big gin ``lay_offs`` is empty (nothing is laid off against gin).
    ``lay_offs`` name the knocker's meld by its index in ``knocker_melds``.
    ``points`` already include the Oklahoma spades double (``multiplier``);
    only ``winner`` scores them.
    """

    kind: ResultKind
    winner: int | None
    points: int
    knocker: int | None = None
    knock_card: Card | None = None
    knocker_melds: tuple[Meld, ...] = ()
    knocker_deadwood: tuple[Card, ...] = ()
    knocker_points: int = 0
    defender_melds: tuple[Meld, ...] = ()
    lay_offs: tuple[LayOff, ...] = ()
    defender_deadwood: tuple[Card, ...] = ()
    defender_points: int = 0
    multiplier: int = 1

    @property
    def defender(self) -> int | None:
        """The player who did not knock (``None`` for a dead hand)."""
        return None if self.knocker is None else 1 - self.knocker


@dataclass(frozen=True, slots=True)
class EarlierHand:
    """A finished hand of the match as one player saw it end.

    ``result`` is what the score sheet shows (both hands as laid down, or
    nothing after a dead hand), ``events`` the hand's log as that player's
    view had it at the end (after a knock or gin every draw shows its card),
    and ``knock_limit`` the hand's.
    """

    result: HandResult
    events: tuple[Event, ...]
    knock_limit: int

    @property
    def turns(self) -> tuple[int, int]:
        """How many turns each player had (draws, the upcard taken included)."""
        turns = [0, 0]
        for e in self.events:
            if isinstance(e, UpcardTaken | StockDrawn | PileDrawn):
                turns[e.player] += 1
        return turns[0], turns[1]


# --- views -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerView:
    """All one player may see of a hand, and nothing more.

    ``opponent_pile_cards`` are the cards the other player took from the pile
    and still holds (they are face up in that player's hand, as at a real
    table). ``events`` is the public log; the other player's stock draws show
    no card until the hand ends (and after a dead hand, never). ``earlier`` are
    the match's finished hands before this one, as this player saw them end
    (empty for a lone hand).
    """

    player: int
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    drawn: Card | None
    pile: tuple[Card, ...]
    first_upcard: Card
    stock_count: int
    opponent_card_count: int
    opponent_pile_cards: tuple[Card, ...]
    locked_card: Card | None
    knock_limit: int
    events: tuple[Event, ...]
    legal_actions: tuple[Action, ...]
    settings: Settings
    result: HandResult | None
    opponent_hand: tuple[Card, ...] | None = None
    scores: tuple[int, int] = (0, 0)
    hand_number: int = 1
    earlier: tuple[EarlierHand, ...] = ()

    @property
    def is_my_turn(self) -> bool:
        """Whether this player is the one to act."""
        return self.to_act == self.player

    @property
    def top_of_pile(self) -> Card | None:
        """The card that could be drawn from the pile, if any."""
        return self.pile[-1] if self.pile else None


def shuffled_deck(rng: random.Random) -> tuple[Card, ...]:
    """A deck order drawn from ``rng`` (pass ``random.SystemRandom()`` for play)."""
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return tuple(deck)


# --- the hand --------------------------------------------------------------


@dataclass(slots=True)
class _Seat:
    cards: int = 0
    from_pile: int = 0
    """Cards this seat took from the pile (still held or not)."""


@dataclass(eq=False, slots=True)
class Hand:
    """One hand, from the deal to its result.

    The deck order is dealt one card at a time starting with the non-dealer
    (``deck[0]`` to the non-dealer, ``deck[1]`` to the dealer, ...); ``deck[20]``
    is the upcard; ``deck[21]`` is the top of the stock.
    """

    settings: Settings
    dealer: int
    deck: tuple[Card, ...]
    phase: Phase = Phase.UPCARD
    to_act: int | None = None
    actions: list[Action] = field(default_factory=list)
    """Every action applied, in order: with the deck, the hand's whole record."""
    events: list[Event] = field(default_factory=list)
    result: HandResult | None = None
    _seats: tuple[_Seat, _Seat] = field(default_factory=lambda: (_Seat(), _Seat()))
    _pile: list[Card] = field(default_factory=list)
    _stock_next: int = 21
    _upcard_passes: int = 0
    _forced_stock: bool = False
    _locked: Card | None = None
    _drawn: Card | None = None
    _options: tuple[int, dict[Card, int]] = field(default=(-1, {}), init=False, repr=False)
    """The last knock options counted, after the held cards (ace rule at bit 52)."""

    @classmethod
    def deal(cls, deck: Sequence[int], *, dealer: int, settings: Settings | None = None) -> Hand:
        """A hand dealt from an explicit deck order of all 52 cards."""
        # Checked before indexing: FULL_DECK[-1] would quietly read as KS.
        if any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52 for c in deck):
            raise DealError("bad_deck")
        cards = tuple(FULL_DECK[c] for c in deck)
        if len(cards) != 52 or len(set(cards)) != 52:
            raise DealError("bad_deck")
        if type(dealer) is not int or dealer not in (0, 1):
            raise DealError("bad_dealer", dealer=_shown(dealer))
        hand = cls(settings=settings or Settings(), dealer=dealer, deck=cards)
        non_dealer = 1 - dealer
        for i in range(2 * HAND_SIZE):
            seat = hand._seats[non_dealer if i % 2 == 0 else dealer]
            seat.cards |= 1 << cards[i]
        hand._pile.append(cards[20])
        hand.to_act = non_dealer
        hand.events.append(Dealt(dealer, cards[20]))
        return hand

    @classmethod
    def from_seed(cls, seed: int | str, *, dealer: int, settings: Settings | None = None) -> Hand:
        """A hand dealt from the deck order that ``random.Random(seed)`` shuffles."""
        return cls.deal(shuffled_deck(random.Random(seed)), dealer=dealer, settings=settings)

    # -- reading the state --

    @property
    def non_dealer(self) -> int:
        """The player who is not dealing (first to be offered the upcard)."""
        return 1 - self.dealer

    @property
    def first_upcard(self) -> Card:
        """The card turned up at the deal (it sets Oklahoma's knock limit)."""
        return self.deck[20]

    @property
    def knock_limit(self) -> int:
        """The most deadwood a knock may leave in this hand (0: gin only)."""
        return self.settings.knock_limit_for(self.first_upcard)

    @property
    def stock_count(self) -> int:
        """Cards left in the stock."""
        return 52 - self._stock_next

    @property
    def pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first."""
        return tuple(self._pile)

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return self.phase is Phase.OVER

    def cards_of(self, player: int) -> tuple[Card, ...]:
        """The cards ``player`` holds (for the referee: never send this to the other player)."""
        return _cards(self._seats[player].cards)

    # -- actions --

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the player to act may take now, in a fixed order."""
        phase = self.phase
        if phase is Phase.DISCARD:
            assert self.to_act is not None
            held = self._seats[self.to_act].cards
            locked = self._locked
            throwable = [c for c in _cards(held) if c != locked]
            actions: list[Action] = [_DISCARDS[c] for c in throwable]
            limit = self.knock_limit
            # The best discard of all eleven bounds every allowed one: most
            # turns it already rules out a knock, and the options go uncounted.
            if deadwood_after_discard_mask(held, self.settings.ace_high) <= limit:
                options = self._knock_options(held)
                actions += [_KNOCKS[c] for c in throwable if options[c] <= limit]
            if self._can_big_gin(held):
                actions.append(DeclareBigGin())
            return tuple(actions)
        if phase is Phase.DRAW:
            if self._forced_stock or not self._pile:
                return _STOCK_ONLY
            return _DRAW_CHOICES
        if phase is Phase.UPCARD:
            return _UPCARD_CHOICES
        return ()

    def knock_options(self) -> dict[Card, int]:
        """For the player to discard: each card they may throw and the deadwood left.

        The card taken from the pile this turn is left out (it may not be thrown).
        """
        if self.phase is not Phase.DISCARD or self.to_act is None:
            return {}
        options = self._knock_options(self._seats[self.to_act].cards)
        return {c: d for c, d in options.items() if c != self._locked}

    def knock_arrangements(self, card: int) -> list[Arrangement]:
        """The least-deadwood arrangements the knocker may choose from after throwing ``card``."""
        if self.phase is not Phase.DISCARD or self.to_act is None:
            return []
        held = self._seats[self.to_act].cards
        if not held >> card & 1:
            return []
        return all_best_arrangements(_cards(held & ~(1 << card)), ace_high=self.settings.ace_high)

    def verify(self, action: Action, player: int | None = None) -> None:
        """Raise :class:`IllegalActionError` saying why ``action`` is not legal now.

        This is the one place a move is judged: :meth:`can` and :meth:`apply`
        ask it, and so does every player (bots, the arena, the web app). The
        error's ``code`` names the rule (see :data:`ginrummy.errors.REFUSALS`).
        """
        if self.phase is Phase.OVER:
            raise IllegalActionError("hand_over")
        if player is not None and player != self.to_act:
            self._verify_turn(player)
        if not isinstance(action, _ACTION_TYPES):
            raise IllegalActionError("not_an_action", action=repr(action))
        phase = self.phase
        if isinstance(action, (TakeUpcard, PassUpcard)):
            if phase is not Phase.UPCARD:
                raise IllegalActionError("upcard_offer_over")
            return
        if phase is Phase.UPCARD:
            raise IllegalActionError("upcard_first")
        if isinstance(action, (DrawStock, DrawPile)):
            if phase is not Phase.DRAW:
                raise IllegalActionError("drawn_already")
            if isinstance(action, DrawPile):
                if self._forced_stock:
                    raise IllegalActionError("stock_first")
                if not self._pile:
                    raise IllegalActionError("pile_empty")
            return
        if phase is Phase.DRAW:
            raise IllegalActionError("draw_first")
        assert self.to_act is not None
        held = self._seats[self.to_act].cards
        if isinstance(action, DeclareBigGin):
            if not self.settings.big_gin:
                raise IllegalActionError("big_gin_off")
            if not self._can_big_gin(held):
                raise IllegalActionError("big_gin_unmelded")
            if action.melds is not None:
                self._check_melds(held, action.melds)
            return
        card = action.card
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
            raise IllegalActionError("not_a_card", card=repr(card))
        if not held >> card & 1:
            raise IllegalActionError("card_not_held", card=str(FULL_DECK[card]))
        if card == self._locked:
            raise IllegalActionError("card_just_taken", card=str(FULL_DECK[card]))
        if isinstance(action, Knock):
            left = self._knock_options(held)[card]
            limit = self.knock_limit
            if left > limit:
                shown = str(FULL_DECK[card])
                if limit == 0:
                    raise IllegalActionError("knock_card_gin_only", card=shown, deadwood=left)
                raise IllegalActionError(
                    "knock_card_too_high", card=shown, deadwood=left, limit=limit
                )
            if action.melds is not None:
                self._check_melds(held & ~(1 << card), action.melds)

    def _verify_turn(self, player: int | None) -> None:
        if self.phase is Phase.OVER:
            raise IllegalActionError("hand_over")
        assert self.to_act is not None
        if player is not None and player != self.to_act:
            raise IllegalActionError("not_your_turn", to_act=self.to_act, player=_shown(player))

    def default_knock(self, player: int | None = None) -> Knock:
        """The knock made when no card is named: throw the card that leaves least deadwood.

        Among throws that leave the same count the highest card goes (it would
        only have counted against the knocker). When no knock is allowed this
        raises :class:`IllegalActionError`: ``knock_too_high`` or ``gin_only``
        with the best throw's deadwood, or the turn's own refusal
        (``upcard_first``, ``draw_first``, ``hand_over``, ``not_your_turn``).

        >>> hand = Hand.from_seed(7, dealer=0)
        >>> hand.default_knock()
        Traceback (most recent call last):
        ...
        ginrummy.hand.IllegalActionError: first take the upcard or pass
        """
        self._verify_turn(player)
        if self.phase is Phase.UPCARD:
            raise IllegalActionError("upcard_first")
        if self.phase is Phase.DRAW:
            raise IllegalActionError("draw_first")
        options = self.knock_options()
        least = min(options.values())
        limit = self.knock_limit
        if least > limit:
            if limit == 0:
                raise IllegalActionError("gin_only", deadwood=least)
            raise IllegalActionError("knock_too_high", deadwood=least, limit=limit)
        card = max((c for c, d in options.items() if d == least), key=lambda c: (c.points, c))
        return _KNOCKS[card]

    def default_knock_card(self) -> Card | None:
        """The card :meth:`default_knock` would throw, or ``None`` when no knock is allowed."""
        try:
            return self.default_knock().card
        except IllegalActionError:
            return None

    def can(self, action: Action, player: int | None = None) -> bool:
        """Whether ``action`` is legal now."""
        try:
            self.verify(action, player)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action, player: int | None = None) -> list[Event]:
        """Apply a legal action and return the events it caused.

        An illegal action raises :class:`IllegalActionError` and changes nothing.
        """
        self.verify(action, player)
        assert self.to_act is not None
        actor = self.to_act
        seat = self._seats[actor]
        new: list[Event] = []
        if isinstance(action, TakeUpcard):
            card = self._pile.pop()
            seat.cards |= 1 << card
            seat.from_pile |= 1 << card
            self._locked = card
            self._drawn = card
            self.phase = Phase.DISCARD
            new.append(UpcardTaken(actor, card))
        elif isinstance(action, PassUpcard):
            new.append(UpcardPassed(actor))
            self._upcard_passes += 1
            if self._upcard_passes == 1:
                self.to_act = self.dealer
            else:
                self.to_act = self.non_dealer
                self.phase = Phase.DRAW
                self._forced_stock = True
        elif isinstance(action, DrawStock):
            card = self.deck[self._stock_next]
            self._stock_next += 1
            seat.cards |= 1 << card
            self._locked = None
            self._drawn = card
            self._forced_stock = False
            self.phase = Phase.DISCARD
            new.append(StockDrawn(actor, card))
        elif isinstance(action, DrawPile):
            card = self._pile.pop()
            seat.cards |= 1 << card
            seat.from_pile |= 1 << card
            self._locked = card
            self._drawn = card
            self.phase = Phase.DISCARD
            new.append(PileDrawn(actor, card))
        elif isinstance(action, Discard):
            seat.cards &= ~(1 << action.card)
            self._pile.append(action.card)
            self._locked = None
            self._drawn = None
            new.append(Discarded(actor, action.card))
            if self.stock_count <= DEAD_AT:
                self._end(HandResult(kind=ResultKind.DEAD, winner=None, points=0))
            else:
                self.to_act = 1 - actor
                self.phase = Phase.DRAW
        elif isinstance(action, Knock):
            seat.cards &= ~(1 << action.card)
            self._locked = None
            self._drawn = None
            arrangement = self._chosen(seat.cards, action.melds)
            new.append(Knocked(actor, action.card, arrangement.deadwood_points))
            self._end(self._score_knock(actor, action.card, arrangement))
        else:
            arrangement = self._chosen(seat.cards, action.melds)
            self._locked = None
            self._drawn = None
            new.append(BigGinDeclared(actor))
            self._end(self._score_big_gin(actor, arrangement))
        self.actions.append(action)
        self.events.extend(new)
        return new

    # -- views --

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see: own hand, the pile, counts, public events.

        Never the other hand or the stock order while the hand is in play; after
        a knock or gin both hands and every draw; after a dead hand, nothing more.
        """
        if player not in (0, 1):
            raise ValueError(f"a player is 0 or 1, not {player!r}")
        other = self._seats[1 - player]
        revealed = self.result is not None and self.result.kind is not ResultKind.DEAD
        if revealed:
            events = tuple(self.events)
        else:
            hidden = _HIDDEN_DRAWS[1 - player]
            events = tuple(
                [
                    hidden if isinstance(e, StockDrawn) and e.player != player else e
                    for e in self.events
                ]
            )
        mine = self.to_act == player
        return PlayerView(
            player=player,
            dealer=self.dealer,
            phase=self.phase,
            to_act=self.to_act,
            hand=self.cards_of(player),
            drawn=self._drawn if mine else None,
            pile=self.pile,
            first_upcard=self.first_upcard,
            stock_count=self.stock_count,
            opponent_card_count=other.cards.bit_count(),
            opponent_pile_cards=_cards(other.cards & other.from_pile),
            locked_card=self._locked if mine else None,
            knock_limit=self.knock_limit,
            events=events,
            legal_actions=self.legal_actions() if mine else (),
            settings=self.settings,
            result=self.result,
            opponent_hand=_cards(other.cards) if revealed else None,
        )

    def summary(self, player: int) -> EarlierHand:
        """The finished hand as ``player`` saw it end (for the next hands' views)."""
        if self.result is None:
            raise IllegalActionError("hand_in_play")
        return EarlierHand(self.result, self.view(player).events, self.knock_limit)

    def clone(self) -> Hand:
        """An independent copy (for search: apply moves to it freely)."""
        return replace(
            self,
            actions=list(self.actions),
            events=list(self.events),
            _seats=(replace(self._seats[0]), replace(self._seats[1])),
            _pile=list(self._pile),
        )

    def state_key(self) -> tuple[object, ...]:
        """Everything that makes two hands the same game at the same point."""
        return (
            self.settings,
            self.dealer,
            self.deck,
            tuple(self.actions),
            self.phase,
            self.to_act,
            self.result,
            tuple((s.cards, s.from_pile) for s in self._seats),
            tuple(self._pile),
            self._stock_next,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self.state_key() == other.state_key()

    def __hash__(self) -> int:
        return hash((self.deck, tuple(self.actions)))

    @classmethod
    def replay(
        cls,
        deck: Sequence[int],
        actions: Iterable[Action],
        *,
        dealer: int,
        settings: Settings | None = None,
    ) -> Hand:
        """Deal ``deck`` and apply ``actions`` in order (each must be legal)."""
        hand = cls.deal(deck, dealer=dealer, settings=settings)
        for i, action in enumerate(actions):
            try:
                hand.apply(action)
            except IllegalActionError as e:
                e.add_note(f"action {i + 1} ({action})")
                raise
        return hand

    # -- internals --

    def _knock_options(self, held: int) -> dict[Card, int]:
        # Kept for the turn: legal_actions and verify ask for the same cards.
        # Read only: callers copy before they change anything.
        ace_high = self.settings.ace_high
        key = held | ace_high << 52
        kept = self._options  # one read: another thread may replace it
        if kept[0] == key:
            return kept[1]
        if held.bit_count() != HAND_SIZE + 1:
            raise ValueError(f"knock options are for 11 cards, not {held.bit_count()}")
        options = knock_options_mask(held, ace_high)
        self._options = (key, options)
        return options

    def _can_big_gin(self, held: int) -> bool:
        return (
            self.settings.big_gin
            and held.bit_count() == HAND_SIZE + 1
            and deadwood_mask(held, self.settings.ace_high) == 0
        )

    def _check_melds(self, cards: int, melds: tuple[Meld, ...]) -> None:
        try:
            wanted = sorted(mask_of(m) for m in melds)
        except (TypeError, ValueError):
            raise IllegalActionError("melds_bad_cards") from None
        for option in all_best_arrangements(_cards(cards), ace_high=self.settings.ace_high):
            if sorted(option.meld_masks) == wanted:
                return
        raise IllegalActionError("melds_not_best")

    def _chosen(self, cards: int, melds: tuple[Meld, ...] | None) -> Arrangement:
        options = all_best_arrangements(_cards(cards), ace_high=self.settings.ace_high)
        if melds is None:
            return options[0]
        wanted = sorted(mask_of(m) for m in melds)
        return next(a for a in options if sorted(a.meld_masks) == wanted)

    def _multiplier(self) -> int:
        return 2 if self.settings.spades_double and self.first_upcard.suit == 3 else 1

    def _score_knock(self, knocker: int, card: Card, laid: Arrangement) -> HandResult:
        defender = 1 - knocker
        defender_cards = _cards(self._seats[defender].cards)
        ace_high = self.settings.ace_high
        mult = self._multiplier()
        knocker_points = laid.deadwood_points
        if knocker_points == 0:
            # Gin: the defender only lays out own melds (no lay-offs) and gin
            # cannot be undercut, even by a defender with no deadwood either.
            own = best_arrangement(defender_cards, ace_high=ace_high)
            return HandResult(
                kind=ResultKind.GIN,
                winner=knocker,
                points=(own.deadwood_points + self.settings.gin_bonus) * mult,
                knocker=knocker,
                knock_card=card,
                knocker_melds=laid.melds,
                knocker_deadwood=laid.deadwood,
                knocker_points=0,
                defender_melds=own.melds,
                defender_deadwood=own.deadwood,
                defender_points=own.deadwood_points,
                multiplier=mult,
            )
        answer = best_layoff(laid.melds, defender_cards, ace_high=ace_high)
        defender_points = answer.deadwood_points
        if defender_points > knocker_points:
            kind, winner = ResultKind.KNOCK, knocker
            points = defender_points - knocker_points
        else:
            # A tie is an undercut too: it is worth exactly the bonus.
            kind, winner = ResultKind.UNDERCUT, defender
            points = knocker_points - defender_points + self.settings.undercut_bonus
        return HandResult(
            kind=kind,
            winner=winner,
            points=points * mult,
            knocker=knocker,
            knock_card=card,
            knocker_melds=laid.melds,
            knocker_deadwood=laid.deadwood,
            knocker_points=knocker_points,
            defender_melds=answer.melds,
            lay_offs=answer.lay_offs,
            defender_deadwood=answer.deadwood,
            defender_points=defender_points,
            multiplier=mult,
        )

    def _score_big_gin(self, declarer: int, laid: Arrangement) -> HandResult:
        # Like gin: no lay-offs, no undercut; the eleven cards are all melded.
        own = best_arrangement(
            _cards(self._seats[1 - declarer].cards), ace_high=self.settings.ace_high
        )
        mult = self._multiplier()
        return HandResult(
            kind=ResultKind.BIG_GIN,
            winner=declarer,
            points=(own.deadwood_points + self.settings.big_gin_bonus) * mult,
            knocker=declarer,
            knock_card=None,
            knocker_melds=laid.melds,
            knocker_deadwood=(),
            knocker_points=0,
            defender_melds=own.melds,
            defender_deadwood=own.deadwood,
            defender_points=own.deadwood_points,
            multiplier=mult,
        )

    def _end(self, result: HandResult) -> None:
        self.result = result
        self.phase = Phase.OVER
        self.to_act = None


_cards = cards_of_mask


def _shown(value: object) -> int | str:
    return value if type(value) is int else repr(value)
