"""The learn pages: the rules, a worked hand and the strategy guide.

The three pages are static HTML under ``static/learn/``; this module serves
them at ``/rules``, ``/worked-hand`` and ``/strategy`` and gives the worked
hand its data at ``/api/learn/worked-hand``.

The worked hand is a real record, not a drawing: a fixed deck order
(:func:`worked_deck`) and the actions of :data:`WORKED_STEPS`, replayed by the
engine. Each step is sent as the same :class:`~ginrummy.web.schemas.MatchOut`
parts the game sends (the table from the learner's seat, and the score sheet
line once the hand is over), so the page draws it with the game's own card
code, and the numbers in each caption are filled in from the replay, so the
text cannot disagree with the rules either.

>>> hand = worked_hand()
>>> len(hand.steps), hand.steps[-1].result is not None
(9, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict

from ginrummy.cards import FULL_DECK, Card, format_cards, parse_card, parse_cards
from ginrummy.hand import (
    Action,
    Discard,
    DrawPile,
    DrawStock,
    Knock,
    PassUpcard,
    TakeUpcard,
)
from ginrummy.match import Match
from ginrummy.melds import best_arrangement
from ginrummy.web.present import event_out, sheet_entry_out, table_out
from ginrummy.web.schemas import CardCode, EventOut, SeatIndex, SeatOut, SheetEntryOut, TableOut

__all__ = [
    "LEARN_DIR",
    "WORKED_STEPS",
    "WorkedHandOut",
    "WorkedStep",
    "WorkedStepOut",
    "router",
    "worked_deck",
    "worked_hand",
]

LEARN_DIR = Path(__file__).parent / "static" / "learn"
"""The learn pages' HTML, CSS, JavaScript and measured figures."""

# --- the worked hand -------------------------------------------------------------

LEARNER_SEAT = 0
"""The learner's seat in the worked hand (the non-dealer)."""
OPPONENT_SEAT = 1
"""The other seat, played by the computer, which deals."""

WORKED_LEARNER = "3S 4S 5S 7H 8H TC TD AC 2D KC"
"""The learner's ten cards: a run, two pairs-in-waiting, two low cards and a king."""
WORKED_OPPONENT = "QS QH 5D 6D 7D TS 6S 2S 8C 4C"
"""The computer's ten cards: a pair of queens, a run, and loose cards."""
WORKED_UPCARD = "QD"
"""The card turned up at the deal."""
WORKED_STOCK = "JD 9H"
"""The top of the stock, top card first; the other cards follow in card order."""


def worked_deck() -> tuple[Card, ...]:
    """The deck order of the worked hand, dealt by the computer.

    Cards go one at a time to the learner (the non-dealer) first, then the
    upcard, then the stock from the top.

    >>> deck = worked_deck()
    >>> len(set(deck)), str(deck[20]), str(deck[21])
    (52, 'QD', 'JD')
    """
    you, them = parse_cards(WORKED_LEARNER), parse_cards(WORKED_OPPONENT)
    named = [*you, *them, *parse_cards(WORKED_UPCARD), *parse_cards(WORKED_STOCK)]
    order: list[Card] = []
    for a, b in zip(you, them, strict=True):
        order += [a, b]
    order += parse_cards(WORKED_UPCARD) + parse_cards(WORKED_STOCK)
    order += [c for c in FULL_DECK if c not in set(named)]
    return tuple(order)


@dataclass(frozen=True, slots=True)
class WorkedStep:
    """One step of the worked hand: the moves it makes and what it says about them.

    The caption may name figures of the replayed state in braces: ``{deadwood}``
    (the learner's deadwood count), ``{stock}`` (cards left in the stock),
    ``{knock}`` (the count the Knock button would leave), ``{limit}`` (the knock
    limit), ``{their_deadwood}`` (the computer's count before laying off),
    ``{defender}`` (its count after laying off), ``{knocker}`` and ``{points}``.
    """

    title: str
    actions: tuple[Action, ...]
    caption: str


def _c(token: str) -> Card:
    return parse_card(token)


WORKED_STEPS: tuple[WorkedStep, ...] = (
    WorkedStep(
        "The deal and the upcard",
        (),
        "The computer dealt, so you are offered the upcard first. Ten cards each; "
        "the Q♦ was turned up to start the pile and the other {stock} cards are the stock. "
        "You hold one run already (3♠ 4♠ 5♠); everything else is deadwood: {deadwood} points. "
        "The Q♦ goes with nothing you hold, and a queen counts 10 if it stays loose.",
    ),
    WorkedStep(
        "You pass the upcard",
        (PassUpcard(),),
        "You pass: a card that makes no meld and counts 10 is not worth your draw. "
        "Now the dealer may take the Q♦ or pass it too. (Had you both passed, you would "
        "draw first from the stock.)",
    ),
    WorkedStep(
        "The computer takes the Q♦ and throws the 10♠",
        (TakeUpcard(), Discard(_c("TS"))),
        "The computer takes the Q♦: it already held two queens, so it has a set. Taking the "
        "upcard was its draw, so it throws a card at once: the 10♠, its highest card that "
        "does nothing. You now know two things: it collects queens, and it does not want tens.",
    ),
    WorkedStep(
        "You take the 10♠ from the pile",
        (DrawPile(),),
        "The 10♠ is the third ten for your pair (10♣ 10♦): you take it from the pile "
        "instead of drawing blind. Your deadwood falls to {deadwood} even before you throw. "
        "The card you took from the pile may not go straight back: it is locked for this turn.",
    ),
    WorkedStep(
        "You throw the K♣",
        (Discard(_c("KC")),),
        "The K♣ goes with nothing and is worth 10: throw it. You keep the 7♥ 8♥ (the 6♥ and "
        "9♥ are both unseen, so either could still come) and the two low cards, which cost "
        "little. Deadwood {deadwood}. Throwing a king is safe early too: the computer "
        "would need a pair of kings or a Q♣ J♣ to want it.",
    ),
    WorkedStep(
        "The computer draws from the stock and throws the J♦",
        (DrawStock(), Discard(_c("JD"))),
        "A king is no use to the computer, so it draws from the stock (you don't see what) "
        "and throws the J♦. {stock} cards are left in the stock.",
    ),
    WorkedStep(
        "You draw the 9♥: you can knock",
        (DrawStock(),),
        "You draw the 9♥ from the stock: 7♥ 8♥ 9♥ is a run. With eleven cards you have "
        "three melds and two loose cards, the A♣ and the 2♦. Throw the 2♦ and only the ace "
        "is left: {knock} point, well under the knock limit of {limit}. The button reads "
        '"Knock with {knock}". You could wait for gin, but early in the hand a knock this '
        "low almost always wins, and every turn you wait gives the computer a turn too.",
    ),
    WorkedStep(
        "You knock: both hands are laid down",
        (Knock(_c("2D")),),
        "You knock, throwing the 2♦ face down, and lay out your three melds with the A♣ as "
        "your deadwood: {knocker}. The computer lays out its own melds (Q♦ Q♥ Q♠ and "
        "5♦ 6♦ 7♦), which leaves it {their_deadwood} in loose cards. Then it may lay off: "
        "its 2♠ and 6♠ fit at both ends of your 3♠ 4♠ 5♠, so they stop counting against it.",
    ),
    WorkedStep(
        "The score",
        (),
        "After laying off, the computer has {defender} left (the 8♣ and 4♣); you have "
        "{knocker}. The knocker's count is lower, so you win the difference: "
        "{defender} − {knocker} = {points} points. Had its count been {knocker} or less, "
        "that would have been an undercut and it would have scored instead.",
    ),
)
"""The worked hand, step by step: the computer deals, you knock on your third turn."""


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WorkedStepOut(_Out):
    """One step of the worked hand, as the page draws it."""

    number: int
    title: str
    caption: str
    moves: list[EventOut]
    """What happened in this step, as move-log lines."""
    table: TableOut
    """The table as the learner sees it, exactly as in a match."""
    result: SheetEntryOut | None
    """The score sheet's line, once the hand is over."""
    scores: tuple[int, int]
    """The score by seat."""
    opponent_hand: list[CardCode]
    """The other seat's cards (a lesson may show them; a match never does)."""
    opponent_deadwood: int
    """The other seat's own deadwood count before any lay-off."""


class WorkedHandOut(_Out):
    """The worked hand: its record and its steps."""

    seat: SeatIndex
    """The learner's seat, as a match's ``seat`` says whose view the tables are."""
    seats: list[SeatOut]
    """Who sits where: the learner, and the Hard computer whose moves these are."""
    dealer: SeatIndex
    deck: str
    """The deck order in the rules' notation, dealt by the dealer."""
    actions: list[str]
    """Every action in order, in the engine's notation (``discard KC``)."""
    steps: list[WorkedStepOut]


def _fill(caption: str, table: TableOut, result: SheetEntryOut | None, theirs: int) -> str:
    figures: dict[str, int] = {
        "deadwood": table.arrangement.points,
        "stock": table.stock_count,
        "limit": table.knock_limit,
        "their_deadwood": theirs,
    }
    if table.knock is not None:
        figures["knock"] = table.knock.leaves
    if result is not None:
        figures |= {
            "defender": result.defender_points,
            "knocker": result.knocker_points,
            "points": result.points,
        }
    return caption.format(**figures)


def worked_hand() -> WorkedHandOut:
    """Replay the worked hand with the engine and describe every step."""
    deck = worked_deck()
    match = Match.start(deck, first_dealer=OPPONENT_SEAT)
    steps: list[WorkedStepOut] = []
    actions: list[str] = []
    for number, step in enumerate(WORKED_STEPS, start=1):
        before = len(match.hand.events) if number > 1 else 0
        for action in step.actions:
            match.apply(action)
            actions.append(str(action))
        table = table_out(match.view(LEARNER_SEAT))
        theirs = best_arrangement(match.hand.cards_of(OPPONENT_SEAT)).deadwood_points
        result = sheet_entry_out(match.sheet[-1]) if match.hand.is_over else None
        caption = _fill(step.caption, table, result, theirs)
        steps.append(
            WorkedStepOut(
                number=number,
                title=step.title,
                caption=caption,
                moves=[event_out(1, e) for e in match.view(LEARNER_SEAT).events[before:]],
                table=table,
                result=result,
                scores=match.scores,
                opponent_hand=[str(c) for c in match.hand.cards_of(OPPONENT_SEAT)],
                opponent_deadwood=theirs,
            )
        )
    seats = [
        SeatOut(index=LEARNER_SEAT, kind="person", bot=None, name=None),
        SeatOut(index=OPPONENT_SEAT, kind="bot", bot="hard", name=None),
    ]
    return WorkedHandOut(
        seat=LEARNER_SEAT,
        seats=sorted(seats, key=lambda s: s.index),
        dealer=OPPONENT_SEAT,
        deck=format_cards(deck),
        actions=actions,
        steps=steps,
    )


# --- routes ------------------------------------------------------------------------

router = APIRouter()
"""The learn pages and the worked hand's data; :func:`ginrummy.web.app.create_app` includes it."""


@cache
def _worked_once() -> WorkedHandOut:
    return worked_hand()


@router.get("/api/learn/worked-hand", response_model=WorkedHandOut)
def worked_hand_data() -> WorkedHandOut:
    """The worked hand, step by step (replayed once, then kept)."""
    return _worked_once()


@router.get("/rules", include_in_schema=False)
def rules_page() -> FileResponse:
    """Every rule the app plays by; ``?match=ID`` shows that match's settings."""
    return FileResponse(LEARN_DIR / "rules.html")


@router.get("/worked-hand", include_in_schema=False)
def worked_hand_page() -> FileResponse:
    """A whole hand stepped through with Previous and Next."""
    return FileResponse(LEARN_DIR / "worked.html")


@router.get("/strategy", include_in_schema=False)
def strategy_page() -> FileResponse:
    """The habits the Hard computer plays by, with examples and measured figures."""
    return FileResponse(LEARN_DIR / "strategy.html")
