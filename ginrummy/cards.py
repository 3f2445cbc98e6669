"""Cards, card notation and the 52-bit card set.

A card is a small int subclass (0 to 51): ``suit * 13 + rank`` with ranks
ace = 0 to king = 12 and suits clubs, diamonds, hearts, spades. That keeps the
hot paths (deadwood, lay-offs, bots) on plain integer arithmetic, while a card
still prints as ``AS`` and has a ``repr`` that can be pasted back as code.

>>> parse_cards("AS 10d, 7♣")
[Card.parse('AS'), Card.parse('TD'), Card.parse('7C')]
>>> hand = CardSet(parse_cards("AS 2S 3S"))
>>> Card.parse("2S") in hand, len(hand)
(True, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import Final

from ginrummy.errors import EngineError

__all__ = [
    "CARD_POINTS",
    "FULL_DECK",
    "RANKS",
    "RANK_NAMES",
    "RANK_POINTS",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "Card",
    "CardParseError",
    "CardSet",
    "cards_of_mask",
    "format_cards",
    "mask_of",
    "parse_card",
    "parse_cards",
]

Rank = int
"""0 for the ace up to 12 for the king."""
Suit = int
"""0 clubs, 1 diamonds, 2 hearts, 3 spades."""
Bitmask = int
"""A set of cards as a 52-bit integer: bit ``card`` is set when ``card`` is in it."""

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_NAMES: Final = (
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_POINTS: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""The deadwood value of each rank: ace 1, two to ten face value, court cards 10."""
CARD_POINTS: Final[tuple[int, ...]] = tuple(RANK_POINTS[c % 13] for c in range(52))
"""The deadwood value of each card index 0 to 51: the one points table."""


class CardParseError(EngineError):
    """A card token that is not in the text notation of the rules (code ``bad_card``)."""


class Card(int):
    """One card: an int from 0 to 51 that prints in the rules' notation.

    >>> Card.parse("TD")
    Card.parse('TD')
    >>> c = Card.parse("q♥"); (c.rank, c.suit, c.points, str(c), c.name)
    (11, 2, 10, 'QH', 'queen of hearts')
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < 52:
            raise ValueError(f"a card is a number from 0 to 51, not {value}")
        return _CARDS[value]

    @classmethod
    def from_rank_suit(cls, rank: Rank, suit: Suit) -> Card:
        """The card of ``rank`` (0 = ace .. 12 = king) in ``suit`` (0 = clubs .. 3 = spades)."""
        if not (0 <= rank < 13 and 0 <= suit < 4):
            raise ValueError(f"no card has rank {rank} and suit {suit}")
        return _CARDS[suit * 13 + rank]

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one card: ``AS``, ``TD``, ``10d``, ``7♣`` (case and ``10`` accepted)."""
        return parse_card(token)

    @property
    def rank(self) -> Rank:
        """0 for the ace up to 12 for the king."""
        return int(self) % 13

    @property
    def suit(self) -> Suit:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) // 13

    @property
    def points(self) -> int:
        """Deadwood value: ace 1, two to ten face value, court cards 10."""
        return CARD_POINTS[self]

    @property
    def bit(self) -> Bitmask:
        """This card as a one-card bitmask."""
        return 1 << int(self)

    @property
    def name(self) -> str:
        """The spoken name, e.g. ``seven of clubs``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @property
    def symbol(self) -> str:
        """Rank and suit symbol, e.g. ``7♣`` (``10`` for tens)."""
        rank = "10" if self.rank == 9 else RANKS[self.rank]
        return rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return _CODES[self]

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_CODES: Final = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
"""Each card's code (``AC`` to ``KS``), by index: a move's answer and record write some
hundreds of them."""
_CARDS: Final[list[Card]] = [int.__new__(Card, i) for i in range(52)]
FULL_DECK: Final[tuple[Card, ...]] = tuple(_CARDS)
"""The 52 cards in index order: clubs ace to king, then diamonds, hearts, spades."""

_RANK_TOKENS: Final = {r: i for i, r in enumerate(RANKS)} | {"10": 9}
# The variant-selector forms of the suit symbols (e.g. "♥️") read the same.
_SUIT_TOKENS: Final = (
    {s: i for i, s in enumerate(SUITS)}
    | {s: i for i, s in enumerate(SUIT_SYMBOLS)}
    | {s + "\ufe0f": i for i, s in enumerate(SUIT_SYMBOLS)}
)


def parse_card(token: str) -> Card:
    """Read one card token; a bad token raises :class:`CardParseError` naming it.

    >>> parse_card("10♠")
    Card.parse('TS')
    >>> parse_card("1S")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ginrummy.cards.CardParseError: '1S' is not a card: write rank A 2-9 T J Q K (or 10) ...
    """
    text = token.strip().upper()
    if text[:2] == "10":
        rank_text, suit_text = "10", text[2:]
    else:
        rank_text, suit_text = text[:1], text[1:]
    rank = _RANK_TOKENS.get(rank_text)
    suit = _SUIT_TOKENS.get(suit_text)
    if rank is None or suit is None:
        raise CardParseError("bad_card", token=token)
    return _CARDS[suit * 13 + rank]


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by whitespace or commas, in the order written.

    >>> parse_cards("ah, 2h 3H")
    [Card.parse('AH'), Card.parse('2H'), Card.parse('3H')]
    """
    return [parse_card(t) for t in text.replace(",", " ").split()]


def format_cards(cards: Iterable[int]) -> str:
    """Cards in the rules' notation, separated by spaces."""
    return " ".join([_CODES[c] for c in cards])


def mask_of(cards: CardSet | Iterable[int]) -> Bitmask:
    """The bitmask of a CardSet or of any iterable of distinct cards: the one way.

    A card out of range or named twice is a :class:`ValueError` naming it.

    >>> mask_of(parse_cards("AC 2C")), mask_of(CardSet.parse("AC 2C"))
    (3, 3)
    """
    if isinstance(cards, CardSet):
        return cards.mask
    if not isinstance(cards, list | tuple):
        cards = list(cards)
    mask = 0
    try:
        for c in cards:
            mask |= 1 << c
    except (TypeError, ValueError):
        mask = -1
    if mask >= 0 and not mask >> 52 and mask.bit_count() == len(cards):
        return mask
    # Something is wrong: find the first bad card and name it.
    mask = 0
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
            raise ValueError(f"a card is a number from 0 to 51, not {c!r}")
        bit = 1 << c
        if mask & bit:
            raise ValueError(f"card {_CARDS[c]} appears twice")
        mask |= bit
    return mask


@cache
def _suit_cards(bits: int, shift: int) -> tuple[Card, ...]:
    return tuple(_CARDS[shift + rank] for rank in range(13) if bits >> rank & 1)


def cards_of_mask(mask: Bitmask) -> tuple[Card, ...]:
    """The cards of a bitmask in card order (clubs to spades, ace to king).

    >>> [str(c) for c in cards_of_mask(CardSet.parse("KS AC 2C").mask)]
    ['AC', '2C', 'KS']
    """
    # Each suit's tuple is cached: at most 4 x 8192 of them.
    out: tuple[Card, ...] = ()
    for shift in (0, 13, 26, 39):
        bits = mask >> shift & 0x1FFF
        if bits:
            out += _suit_cards(bits, shift)
    return out


class CardSet:
    """An immutable set of cards held as a 52-bit integer.

    >>> s = CardSet(parse_cards("AS 2S 3S"))
    >>> s
    CardSet.parse('AS 2S 3S')
    >>> s | CardSet.parse("4S"), len(s - CardSet.parse("AS")), Card.parse("3S") in s
    (CardSet.parse('AS 2S 3S 4S'), 2, True)
    >>> s.mask == CardSet.from_mask(s.mask).mask
    True
    """

    __slots__ = ("mask",)
    mask: Bitmask

    def __init__(self, cards: Iterable[int] = ()) -> None:
        object.__setattr__(self, "mask", mask_of(cards))

    @classmethod
    def from_mask(cls, mask: Bitmask) -> CardSet:
        """The set whose bits are ``mask``."""
        if mask < 0 or mask >> 52:
            raise ValueError("a card set mask has only the low 52 bits")
        result = object.__new__(cls)
        object.__setattr__(result, "mask", mask)
        return result

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """The set of the cards written in ``text``."""
        return cls(parse_cards(text))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __iter__(self) -> Iterator[Card]:
        mask = self.mask
        while mask:
            low = mask & -mask
            yield _CARDS[low.bit_length() - 1]
            mask ^= low

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet.from_mask(self.mask ^ other.mask)

    def __le__(self, other: CardSet) -> bool:
        return self.mask & ~other.mask == 0

    def __lt__(self, other: CardSet) -> bool:
        return self <= other and self.mask != other.mask

    def __ge__(self, other: CardSet) -> bool:
        return other <= self

    def __gt__(self, other: CardSet) -> bool:
        return other < self

    def add(self, card: int) -> CardSet:
        """A new set with ``card`` added."""
        return CardSet.from_mask(self.mask | 1 << card)

    def remove(self, card: int) -> CardSet:
        """A new set without ``card``; a card not in the set is an error."""
        if not self.mask >> card & 1:
            raise KeyError(f"{_CARDS[card]} is not in {self}")
        return CardSet.from_mask(self.mask & ~(1 << card))

    @property
    def points(self) -> int:
        """The summed deadwood value of the cards."""
        return sum(CARD_POINTS[c] for c in self)

    def __str__(self) -> str:
        return format_cards(self)

    def __repr__(self) -> str:
        return f"CardSet.parse('{self}')"
