"""The learn pages: the rules, a worked hand and the strategy guide.

The three pages are Jinja2 templates under ``templates/learn/``, one for
every language (their words are gettext messages: :mod:`ginrummy.web.i18n`);
their scripts, styles and measured figures are under ``static/learn/``. This
module serves them at ``/rules``, ``/worked-hand`` and ``/strategy`` in the
reader's language (a Nepali reader is sent to ``/ne/rules``), at
``/ne/rules`` and so on in Nepali whoever asks, and gives the worked hand its
data at ``/api/learn/worked-hand``.

The worked hand is a real record, not a drawing: a fixed deck order
(:func:`worked_deck`) and the actions of :data:`WORKED_STEPS`, replayed by the
engine. Each step is sent as the same :class:`~ginrummy.web.schemas.MatchOut`
parts the game sends (the table from the learner's seat, and the score sheet
line once the hand is over), so the page draws it with the game's own card
code, and the numbers in each caption are the replay's own (the step sends
them as ``figures``; the page puts them into its words), so the text cannot
disagree with the rules either.

>>> hand = worked_hand()
>>> len(hand.steps), hand.steps[-1].result is not None
(9, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
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
from ginrummy.web import i18n
from ginrummy.web.i18n import (
    COOKIE,
    DEFAULT,
    LANGUAGES,
    Language,
    choose,
    environment,
    remember,
)
from ginrummy.web.present import event_out, sheet_entry_out, table_out
from ginrummy.web.schemas import CardCode, EventOut, SeatIndex, SeatOut, SheetEntryOut, TableOut

__all__ = [
    "LEARN_DIR",
    "WORKED_STEPS",
    "WorkedHandOut",
    "WorkedStep",
    "WorkedStepOut",
    "render_page",
    "router",
    "worked_deck",
    "worked_hand",
]

LEARN_DIR = Path(__file__).parent / "static" / "learn"
"""The learn pages' CSS, JavaScript and measured figures."""

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
    """One step of the worked hand: the moves it makes and the name of its words.

    Its title and caption are the page's catalogue entries
    ``learn.worked.step.<key>.title`` and ``.caption`` (in every language). The
    caption may name figures of the replayed state in braces: ``{deadwood}``
    (the learner's deadwood count), ``{stock}`` (cards left in the stock),
    ``{knock}`` (the count the Knock button would leave), ``{limit}`` (the knock
    limit), ``{their_deadwood}`` (the computer's count before laying off),
    ``{defender}`` (its count after laying off), ``{knocker}`` and ``{points}``.
    """

    key: str
    actions: tuple[Action, ...]


def _c(token: str) -> Card:
    return parse_card(token)


WORKED_STEPS: tuple[WorkedStep, ...] = (
    WorkedStep("deal", ()),
    WorkedStep("pass", (PassUpcard(),)),
    WorkedStep("they_take", (TakeUpcard(), Discard(_c("TS")))),
    WorkedStep("take_ten", (DrawPile(),)),
    WorkedStep("throw_king", (Discard(_c("KC")),)),
    WorkedStep("they_draw", (DrawStock(), Discard(_c("JD")))),
    WorkedStep("draw_nine", (DrawStock(),)),
    WorkedStep("knock", (Knock(_c("2D")),)),
    WorkedStep("score", ()),
)
"""The worked hand, step by step: the computer deals, you knock on your third turn."""


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WorkedStepOut(_Out):
    """One step of the worked hand, as the page draws it."""

    number: int
    key: str
    """The step's words in the page's catalogue: ``learn.worked.step.<key>.title``, ``.caption``."""
    figures: dict[str, int]
    """The numbers its caption names, from the replay."""
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


def _figures(table: TableOut, result: SheetEntryOut | None, theirs: int) -> dict[str, int]:
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
    return figures


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
        steps.append(
            WorkedStepOut(
                number=number,
                key=step.key,
                figures=_figures(table, result, theirs),
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


_PAGES: dict[str, tuple[str, str]] = {
    "/rules": ("rules", "learn/rules.html"),
    "/worked-hand": ("worked", "learn/worked.html"),
    "/strategy": ("strategy", "learn/strategy.html"),
}
"""A learn page's English path: its name and its template."""


def render_page(path: str, lang: Language, query: str = "") -> str:
    """A learn page (by its English path, ``/rules``) rendered in a language.

    >>> '<html lang="ne">' in render_page("/rules", "ne")
    True
    """
    page, template = _PAGES[path]

    def url(english: str, language: Language = lang) -> str:
        return english if language == DEFAULT else f"/{language}{english}"

    return (
        environment(lang)
        .get_template(template)
        .render(
            lang=lang,
            languages=LANGUAGES,
            page=page,
            page_path=path + (f"?{query}" if query else ""),
            url=url,
            page_url=lambda other: url(path, other),
            num=lambda n: i18n.number(n, lang),
        )
    )


def _learn_page(path: str) -> Callable[[Request], Response]:
    def english(request: Request) -> Response:
        lang = choose(request)
        if lang != DEFAULT:
            # A reader of another language gets this page in theirs, at its own address.
            query = request.url.query
            return RedirectResponse(f"/{lang}{path}" + (f"?{query}" if query else ""), 307)
        return HTMLResponse(render_page(path, lang, request.url.query), headers=_VARY)

    english.__doc__ = f"The learn page {path} in the reader's language."
    return english


def _translated_page(path: str, lang: Language) -> Callable[[Request], Response]:
    def translated(request: Request) -> Response:
        response = HTMLResponse(render_page(path, lang, request.url.query), headers=_VARY)
        if COOKIE not in request.cookies:
            # A shared link in this language is a first visit's choice too.
            remember(response, lang)
        return response

    translated.__doc__ = f"The learn page {path} in the language {lang}."
    return translated


_VARY = {"vary": "Cookie, Accept-Language"}

for _path in _PAGES:
    router.add_api_route(_path, _learn_page(_path), methods=["GET"], include_in_schema=False)
    for _lang in LANGUAGES:
        if _lang != DEFAULT:
            router.add_api_route(
                f"/{_lang}{_path}",
                _translated_page(_path, _lang),
                methods=["GET"],
                include_in_schema=False,
            )
