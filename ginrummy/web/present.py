"""From the engine's values to the wire's: a match as one seat sees it, in codes and numbers.

One rule decides what a seat may see: :meth:`ginrummy.match.Match.view`.
Everything a match answer holds about the hand is built from that view (its
hand, counts, pile, legal actions, result and its own censored events), never
from the hand itself; the only other thing read is a finished hand's deck, for
its deal proof. Players are named by seat index; no sentence is made here (the
page words every code from its catalogue). This module knows neither storage
nor the referee: it reads the values of :mod:`ginrummy.web.model`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from enum import StrEnum
from functools import lru_cache
from typing import Any, Literal

from ginrummy.cards import Card
from ginrummy.fairness import commitment
from ginrummy.hand import (
    BigGinDeclared,
    Dealt,
    DeclareBigGin,
    Discard,
    Discarded,
    DrawPile,
    DrawStock,
    Event,
    Hand,
    Knock,
    Knocked,
    PassUpcard,
    PileDrawn,
    PlayerView,
    ResultKind,
    StockDrawn,
    TakeUpcard,
    UpcardPassed,
    UpcardTaken,
)
from ginrummy.match import FinalScore, Match, ScoreEntry
from ginrummy.melds import Arrangement, all_best_arrangements, best_arrangement
from ginrummy.settings import MATCH_TARGETS, NUMBER_RANGES, Settings
from ginrummy.web.model import (
    BOT_LEVELS,
    Clock,
    Deal,
    Invite,
    LoadedMatch,
    MatchData,
    MatchSummary,
    Seat,
    default_knock_card,
    throw_options,
)
from ginrummy.web.schemas import (
    ArrangementOut,
    ClockOut,
    DealProofOut,
    EventKind,
    EventOut,
    FairnessOut,
    FinalOut,
    InviteInfoOut,
    InviteOut,
    KnockLayoutsOut,
    KnockOut,
    LayOffOut,
    LegalOut,
    MatchOut,
    MatchSummaryOut,
    MeldOut,
    ProofsOut,
    SeatOut,
    SettingOptionOut,
    SettingsFormOut,
    SettingsOut,
    SheetEntryOut,
    TableOut,
    ThrowOut,
)

__all__ = [
    "HOUSE_RULES",
    "RULES",
    "SETTINGS_FORM",
    "clock_out",
    "event_out",
    "invite_info_out",
    "invite_out",
    "match_out",
    "proofs_out",
    "summary_out",
    "table_out",
]


def _codes(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _meld(cards: Sequence[Card]) -> MeldOut:
    is_set = len({c.rank for c in cards}) == 1
    return MeldOut(kind="set" if is_set else "run", cards=_codes(cards))


# --- events --------------------------------------------------------------------

_KINDS: dict[type, EventKind] = {
    Dealt: "dealt",
    UpcardTaken: "take",
    UpcardPassed: "pass",
    StockDrawn: "stock",
    PileDrawn: "pile",
    Discarded: "discard",
    Knocked: "knock",
    BigGinDeclared: "big_gin",
}


WRITTEN_PARTS = 4096
"""How many move-log entries, score-sheet lines (and settings) each process keeps written,
to put in the next answers as they are: an entry is a function of its hand number and
event alone, a line of its hand's end, and the answers share them (nobody changes a
written part)."""


def event_out(hand_number: int, event: Event) -> EventOut:
    """One event of a seat's view as a move-log entry: who (a seat), what, which card.

    The card is whatever the view's event holds: the engine's view has already
    hidden the other seat's stock draws while they must stay hidden (an event with the
    card and one without are different events, written apart). Written once per process
    (:data:`WRITTEN_PARTS`); read it, never change it.
    """
    return _event_out(hand_number, event)


@lru_cache(maxsize=WRITTEN_PARTS)
def _event_out(hand_number: int, event: Event) -> EventOut:
    if isinstance(event, Dealt):
        return EventOut(hand=hand_number, who=event.dealer, kind="dealt", card=str(event.upcard))
    card = getattr(event, "card", None)
    deadwood = event.deadwood if isinstance(event, Knocked) else None
    if isinstance(event, BigGinDeclared):
        deadwood = 0
    return EventOut(
        hand=hand_number,
        who=event.player,
        kind=_KINDS[type(event)],
        card=None if card is None else str(card),
        deadwood=deadwood,
    )


# --- the table -------------------------------------------------------------------


def _arrangement(laid: Arrangement) -> ArrangementOut:
    return ArrangementOut(
        melds=[_meld(m) for m in laid.melds],
        deadwood=_codes(laid.deadwood),
        points=laid.deadwood_points,
    )


def _legal(view: PlayerView, options: dict[Card, int]) -> LegalOut:
    actions = view.legal_actions
    return LegalOut(
        take=TakeUpcard() in actions,
        pass_=PassUpcard() in actions,
        stock=DrawStock() in actions,
        pile=DrawPile() in actions,
        discard=[str(a.card) for a in actions if isinstance(a, Discard)],
        knock=[
            ThrowOut(card=str(a.card), leaves=options[a.card])
            for a in actions
            if isinstance(a, Knock)
        ],
        big_gin=any(isinstance(a, DeclareBigGin) for a in actions),
    )


def table_out(view: PlayerView) -> TableOut:
    """The hand on the table as ``view``'s seat sees it (its log: the view's own events)."""
    ace_high = view.settings.ace_high
    options = throw_options(view)
    knock: KnockOut | None = None
    best = default_knock_card(view, options)
    if best is not None:
        knock = KnockOut(card=str(best), leaves=options[best], gin=options[best] == 0)
    layouts: list[KnockLayoutsOut] = []
    for action in view.legal_actions:
        if isinstance(action, Knock):
            # The knocker may choose among equally good layouts (they matter for lay-offs).
            kept = [c for c in view.hand if c != action.card]
            choices = all_best_arrangements(kept, ace_high=ace_high)
            if len(choices) > 1:
                layouts.append(
                    KnockLayoutsOut(
                        card=str(action.card), layouts=[_arrangement(a) for a in choices]
                    )
                )
    revealed = view.opponent_hand
    return TableOut(
        phase=view.phase.value,
        to_act=view.to_act,
        dealer=view.dealer,
        hand=_codes(view.hand),
        drawn=None if view.drawn is None else str(view.drawn),
        locked=None if view.locked_card is None else str(view.locked_card),
        pile=_codes(view.pile),
        first_upcard=str(view.first_upcard),
        stock_count=view.stock_count,
        opponent_count=view.opponent_card_count,
        opponent_pile_cards=_codes(view.opponent_pile_cards),
        opponent_hand=None if revealed is None else _codes(revealed),
        knock_limit=view.knock_limit,
        arrangement=_arrangement(best_arrangement(view.hand, ace_high=ace_high)),
        throws=[ThrowOut(card=str(c), leaves=d) for c, d in sorted(options.items())],
        knock=knock,
        knock_layouts=layouts,
        legal=_legal(view, options),
        log=[_event_out(view.hand_number, e) for e in view.events],
    )


# --- the score sheet ---------------------------------------------------------------


def sheet_entry_out(entry: ScoreEntry) -> SheetEntryOut:
    """One hand on the score sheet (a hand that is over: both hands as laid down).

    A line never changes once its hand is over, and every answer of the match sends the
    whole sheet: each line is written once per process (:data:`WRITTEN_PARTS`), like the
    move log's entries; read it, never change it.
    """
    return _sheet_entry_out(entry)


@lru_cache(maxsize=WRITTEN_PARTS)
def _sheet_entry_out(entry: ScoreEntry) -> SheetEntryOut:
    return SheetEntryOut(
        number=entry.number,
        dealer=entry.dealer,
        kind=entry.kind.value,
        winner=entry.winner,
        points=entry.points,
        knocker=entry.knocker,
        knocker_melds=[_meld(m) for m in entry.knocker_melds],
        knocker_deadwood=_codes(entry.knocker_deadwood),
        knocker_points=entry.knocker_points,
        defender_melds=[_meld(m) for m in entry.defender_melds],
        lay_offs=[LayOffOut(card=str(lo.card), meld=lo.meld_index) for lo in entry.lay_offs],
        defender_deadwood=_codes(entry.defender_deadwood),
        defender_points=entry.defender_points,
        multiplier=entry.multiplier,
        totals=entry.totals,
    )


def _final(final: FinalScore) -> FinalOut:
    return FinalOut(
        winner=final.winner,
        running=final.running,
        game_bonus=final.game_bonus,
        line_bonus=final.line_bonus,
        shutout_bonus=final.shutout_bonus,
        totals=final.totals,
    )


@lru_cache(maxsize=WRITTEN_PARTS)
def _settings_out(settings: Settings) -> SettingsOut:
    """The settings as the answers show them, written once per process for each settings."""
    values = settings.to_dict()
    return SettingsOut.model_validate({name: values[name] for name in RULES})


def _seat_out(seat: Seat) -> SeatOut:
    return SeatOut(
        index=seat.index,
        kind=seat.kind.value,
        bot=seat.bot,
        name=seat.name,
        open=seat.open,
        connected=seat.connected,
    )


def invite_out(invite: Invite) -> InviteOut:
    """An open invite, for its maker: the link to share and its QR code's address."""
    return InviteOut(
        code=invite.code,
        url=f"/join/{invite.code}",
        qr=f"/api/invites/{invite.code}/qr.svg",
        seat=invite.seat,
        expires_at=invite.expires_at,
    )


# --- deals ---------------------------------------------------------------------------


def _deal_proof(data: MatchData, number: int, hand: Hand, reveal: bool) -> DealProofOut:
    deal = data.deals[number - 1] if number <= len(data.deals) else Deal()
    return DealProofOut(
        hand=number,
        fixed=deal.fixed,
        committed=deal.committed,
        first_dealer=deal.first_dealer,
        commitment=deal.commitment,
        client_seed=deal.client_seed,
        client_seed_by=deal.client_seed_by,
        server_seed=deal.server_seed if reveal else None,
        deck=_codes(hand.deck) if reveal else None,
    )


def _next_commitment(loaded: LoadedMatch) -> str | None:
    seed = loaded.data.next_seed
    return commitment(seed) if loaded.match.awaiting_deal and seed else None


def fairness_out(loaded: LoadedMatch) -> FairnessOut:
    """The deal of the hand on the table (revealed after a knock or gin), and the next one's.

    After a dead hand the table shows no cards, so neither the seed nor the
    deck is here; :func:`proofs_out` has them.
    """
    hand = loaded.match.hand
    shown = hand.result is not None and hand.result.kind is not ResultKind.DEAD
    return FairnessOut(
        deal=_deal_proof(loaded.data, len(loaded.match.hands), hand, shown),
        next_commitment=_next_commitment(loaded),
    )


def proofs_out(loaded: LoadedMatch) -> ProofsOut:
    """Every hand's deal: seed and deck for the hands that are over, the commitment for all."""
    return ProofsOut(
        id=loaded.id,
        deals=[
            _deal_proof(loaded.data, i, h, h.is_over) for i, h in enumerate(loaded.match.hands, 1)
        ],
        next_commitment=_next_commitment(loaded),
    )


# --- a whole match -------------------------------------------------------------------


def match_out(loaded: LoadedMatch) -> MatchOut:
    """The whole answer for a match, from its requester's seat: table, sheet, this
    request's events (as that seat's view shows them)."""
    match = loaded.match
    view = match.view(loaded.perspective)
    number = len(match.hands)
    # What this request did in the hand on the table: the last events of the view's own.
    done = sum(1 for n, _ in loaded.events if n == number)
    mine = view.events[len(view.events) - done :] if done else ()
    sheet = [sheet_entry_out(e) for e in match.sheet]
    final = match.final_score()
    return MatchOut(
        id=loaded.id,
        version=loaded.version,
        status=loaded.status,
        seat=loaded.seat,
        seats=[_seat_out(s) for s in loaded.seats],
        settings=_settings_out(match.settings),
        hand_number=number,
        scores=match.scores,
        awaiting_deal=match.awaiting_deal,
        table=table_out(view),
        last_result=sheet[-1] if match.hand.is_over and sheet else None,
        sheet=sheet,
        final=None if final is None else _final(final),
        events=[_event_out(number, e) for e in mine],
        fairness=fairness_out(loaded),
        created_at=loaded.created_at,
        updated_at=loaded.updated_at,
        invite=None if loaded.invite is None else invite_out(loaded.invite),
        resume=(
            None
            if loaded.resume is None or loaded.seat is None
            else f"/resume/{loaded.id}/{loaded.seat}/{loaded.resume}"
        ),
        clock=None if loaded.clock is None else clock_out(loaded.clock, loaded.deadline, match),
    )


def clock_out(clock: Clock, deadline: str, match: Match) -> ClockOut:
    """A move clock as it stands now: whose time runs and how much is left."""
    seat: int | None = None
    left: int | None = None
    if deadline:
        seat = match.to_act
        at = datetime.fromisoformat(deadline)
        left = max(0, int((at - datetime.now(UTC)).total_seconds() * 1000))
    hand = match.hand
    last = (len(match.hands), len(hand.actions))
    return ClockOut(
        seconds=clock.seconds,
        expiry=clock.expiry,
        seat=seat,
        deadline=deadline or None,
        left_ms=left,
        auto=bool(clock.auto) and clock.auto[-1] == last,
        auto_moves=len(clock.auto),
    )


def invite_info_out(
    code: str, seat: int, expires_at: str, loaded: LoadedMatch, *, is_yours: bool
) -> InviteInfoOut:
    """An invite as its link shows it: who sent it and the settings, no card."""
    host = next((s.name for s in loaded.seats if s.index != seat), None)
    return InviteInfoOut(
        code=code,
        match=loaded.id,
        seat=seat,
        state="yours" if is_yours else "open",
        expires_at=expires_at,
        host=host,
        clock=None if loaded.clock is None else clock_out(loaded.clock, "", loaded.match),
        settings=_settings_out(loaded.match.settings),
    )


def summary_out(summary: MatchSummary) -> MatchSummaryOut:
    """A history line."""
    winner: int | None = None
    if summary.status == "over":
        winner = 0 if summary.scores[0] > summary.scores[1] else 1
    status: Literal["playing", "over"] = "over" if summary.status == "over" else "playing"
    return MatchSummaryOut(
        id=summary.id,
        status=status,
        scores=summary.scores,
        hands=summary.hands,
        winner=winner,
        settings=_settings_out(summary.settings),
        seats=[_seat_out(s) for s in summary.seats],
        created_at=summary.created_at,
        updated_at=summary.updated_at,
        seat=summary.seat,
    )


# --- the settings form ---------------------------------------------------------------

RULES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Settings))
"""The rule settings, in :class:`~ginrummy.settings.Settings`' order (a bot's level is a
seat's, not a rule)."""

HOUSE_RULES = frozenset(
    {"big_gin", "big_gin_bonus", "ace_high", "game_bonus", "line_bonus", "shutout", "spades_double"}
)
"""The settings the form lists under house rules."""

_DEFAULTS = Settings()


def _option(name: str) -> SettingOptionOut:
    """A setting as the form offers it, read off :class:`Settings`: kind, default, range."""
    default = getattr(_DEFAULTS, name)
    extra: dict[str, Any] = {}
    if isinstance(default, bool):
        kind: Literal["number", "choice", "switch"] = "switch"
    elif isinstance(default, StrEnum):
        kind = "choice"
        extra["choices"] = [m.value for m in type(default)]
        default = default.value
    else:
        kind = "number"
        extra["minimum"], extra["maximum"] = NUMBER_RANGES[name]
        if name == "match_to":
            extra["presets"] = list(MATCH_TARGETS)
    return SettingOptionOut(
        name=name, kind=kind, default=default, house_rule=name in HOUSE_RULES, **extra
    )


SETTINGS_FORM = SettingsFormOut(settings=[_option(n) for n in RULES], bots=list(BOT_LEVELS))
"""Every setting and house rule as the new-match form offers them, and the bot levels."""
