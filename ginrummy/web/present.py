"""From the engine's values to the wire's: the player's view, told from the player's seat.

Everything here reads :meth:`ginrummy.match.Match.view` for the player's seat
(never the other seat's view or the hand itself), so what a response holds is
what that player may see at the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

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
from ginrummy.melds import Arrangement, best_arrangement
from ginrummy.settings import MATCH_TARGETS, NUMBER_RANGES, KnockMode, Settings, ShutoutRule
from ginrummy.web.game import COMPUTER, YOU, LoadedMatch, bot_level, default_knock_card
from ginrummy.web.schemas import (
    ArrangementOut,
    DealProofOut,
    EventKind,
    EventOut,
    FairnessOut,
    FinalOut,
    KnockLayoutsOut,
    KnockOut,
    LayOffOut,
    LegalOut,
    MatchOut,
    MatchSummaryOut,
    MeldOut,
    ProofsOut,
    SettingOptionOut,
    SettingsOut,
    SheetEntryOut,
    TableOut,
    ThrowOut,
    Who,
)
from ginrummy.web.storage import StoredMatch

__all__ = [
    "SETTING_OPTIONS",
    "event_out",
    "fairness_out",
    "match_out",
    "proofs_out",
    "settings_summary",
    "summary_out",
]


def _who(player: int | None) -> Who | None:
    if player is None:
        return None
    return "you" if player == YOU else "computer"


def _seat(player: int) -> Who:
    return "you" if player == YOU else "computer"


def _codes(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _meld(cards: Sequence[Card], ace_high: bool) -> MeldOut:
    is_set = len({c.rank for c in cards}) == 1
    return MeldOut(kind="set" if is_set else "run", cards=_codes(cards))


# --- events --------------------------------------------------------------------


def event_out(hand_number: int, event: Event) -> EventOut:
    """One event as a line of the move log, from the player's seat.

    The computer's stock draws never carry their card.
    """

    def line(
        player: int,
        kind: EventKind,
        card: Card | None,
        text: str,
        spoken: str,
        deadwood: int | None = None,
    ) -> EventOut:
        return EventOut(
            hand=hand_number,
            who=_seat(player),
            kind=kind,
            card=None if card is None else str(card),
            deadwood=deadwood,
            text=text,
            spoken=spoken,
        )

    if isinstance(event, Dealt):
        up, dealt = event.upcard, f"dealt hand {hand_number}; the upcard is"
        return line(event.dealer, "dealt", up, f"{dealt} {up.symbol}", f"{dealt} the {up.name}")
    if isinstance(event, UpcardTaken):
        c = event.card
        return line(
            event.player, "take", c, f"took the upcard {c.symbol}", f"took the upcard, the {c.name}"
        )
    if isinstance(event, UpcardPassed):
        said = "passed on the upcard"
        return line(event.player, "pass", None, said, said)
    if isinstance(event, StockDrawn):
        if event.player == COMPUTER or event.card is None:
            said = "drew from the stock"
            return line(event.player, "stock", None, said, said)
        c = event.card
        return line(
            event.player,
            "stock",
            c,
            f"drew the {c.symbol} from the stock",
            f"drew the {c.name} from the stock",
        )
    if isinstance(event, PileDrawn):
        c = event.card
        return line(
            event.player,
            "pile",
            c,
            f"took the {c.symbol} from the pile",
            f"took the {c.name} from the pile",
        )
    if isinstance(event, Discarded):
        c = event.card
        return line(event.player, "discard", c, f"threw the {c.symbol}", f"threw the {c.name}")
    if isinstance(event, Knocked):
        c = event.card
        said = "went gin" if event.deadwood == 0 else f"knocked with {event.deadwood}"
        return line(
            event.player,
            "knock",
            c,
            f"{said}, throwing the {c.symbol}",
            f"{said}, throwing the {c.name}",
            deadwood=event.deadwood,
        )
    assert isinstance(event, BigGinDeclared)
    said = "declared big gin"
    return line(event.player, "big_gin", None, said, said, deadwood=0)


# --- the table -------------------------------------------------------------------


def _arrangement(laid: Arrangement, ace_high: bool) -> ArrangementOut:
    return ArrangementOut(
        melds=[_meld(m, ace_high) for m in laid.melds],
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


def _table(match: Match) -> TableOut:
    view = match.view(YOU)
    ace_high = view.settings.ace_high
    laid = best_arrangement(view.hand, ace_high=ace_high)
    options = match.hand.knock_options() if view.is_my_turn else {}
    throws = [ThrowOut(card=str(c), leaves=d) for c, d in sorted(options.items())]
    knock: KnockOut | None = None
    best = default_knock_card(match) if view.is_my_turn else None
    if best is not None:
        knock = KnockOut(card=str(best), leaves=options[best], gin=options[best] == 0)
    layouts: list[KnockLayoutsOut] = []
    for action in view.legal_actions:
        if isinstance(action, Knock):
            # The knocker may choose among equally good layouts (they matter for lay-offs).
            choices = match.hand.knock_arrangements(action.card)
            if len(choices) > 1:
                layouts.append(
                    KnockLayoutsOut(
                        card=str(action.card), layouts=[_arrangement(a, ace_high) for a in choices]
                    )
                )
    revealed = view.opponent_hand
    return TableOut(
        phase=view.phase.value,
        to_act=_who(view.to_act),
        dealer=_seat(view.dealer),
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
        arrangement=_arrangement(laid, ace_high),
        throws=throws,
        knock=knock,
        knock_layouts=layouts,
        legal=_legal(view, options),
        log=[event_out(view.hand_number, e) for e in view.events],
    )


# --- the score sheet ---------------------------------------------------------------

_KIND_WORDS = {
    ResultKind.KNOCK: "knock",
    ResultKind.GIN: "gin",
    ResultKind.BIG_GIN: "big gin",
    ResultKind.UNDERCUT: "undercut",
    ResultKind.DEAD: "dead hand",
}


def _summary(entry: ScoreEntry) -> str:
    if entry.kind is ResultKind.DEAD:
        return "Dead hand: two cards left in the stock, nobody scores."
    knocker = "You" if entry.knocker == YOU else "The computer"
    defender = "the computer" if entry.knocker == YOU else "you"
    winner = "You score" if entry.winner == YOU else "The computer scores"
    double = " (doubled: the first upcard was a spade)" if entry.multiplier > 1 else ""
    if entry.kind is ResultKind.GIN:
        said = f"{knocker} went gin; {defender} had {entry.defender_points}."
    elif entry.kind is ResultKind.BIG_GIN:
        said = f"{knocker} declared big gin; {defender} had {entry.defender_points}."
    elif entry.kind is ResultKind.UNDERCUT:
        said = (
            f"{knocker} knocked with {entry.knocker_points}; {defender} had "
            f"{entry.defender_points}: undercut!"
        )
    else:
        said = (
            f"{knocker} knocked with {entry.knocker_points}; "
            f"{defender} had {entry.defender_points}."
        )
    return f"{said} {winner} {entry.points}{double}."


def _sheet_entry(entry: ScoreEntry, ace_high: bool) -> SheetEntryOut:
    return SheetEntryOut(
        number=entry.number,
        dealer=_seat(entry.dealer),
        kind=entry.kind.value,
        winner=_who(entry.winner),
        points=entry.points,
        knocker=_who(entry.knocker),
        knocker_melds=[_meld(m, ace_high) for m in entry.knocker_melds],
        knocker_deadwood=_codes(entry.knocker_deadwood),
        knocker_points=entry.knocker_points,
        defender_melds=[_meld(m, ace_high) for m in entry.defender_melds],
        lay_offs=[LayOffOut(card=str(lo.card), meld=lo.meld_index) for lo in entry.lay_offs],
        defender_deadwood=_codes(entry.defender_deadwood),
        defender_points=entry.defender_points,
        multiplier=entry.multiplier,
        totals=entry.totals,
        summary=_summary(entry),
    )


def _final(final: FinalScore) -> FinalOut:
    winner = _seat(final.winner)
    return FinalOut(
        winner=winner,
        running=final.running,
        game_bonus=final.game_bonus,
        line_bonus=final.line_bonus,
        shutout_bonus=final.shutout_bonus,
        totals=final.totals,
    )


def _settings_out(settings: Settings, level: str) -> SettingsOut:
    return SettingsOut.model_validate({**settings.to_dict(), "difficulty": level})


def settings_summary(settings: Settings, level: str = "medium") -> str:
    """The settings in one line, e.g. ``To 100 · Standard knocking (10) · Medium``."""
    knocking = {
        KnockMode.STANDARD: "Standard knocking (10)",
        KnockMode.OKLAHOMA: "Oklahoma knocking",
        KnockMode.GIN_ONLY: "Gin only",
    }[settings.knocking]
    parts = [f"To {settings.match_to}", knocking, level.capitalize()]
    if settings.undercut_bonus != 25:
        parts.append(f"undercut {settings.undercut_bonus}")
    if settings.gin_bonus != 25:
        parts.append(f"gin {settings.gin_bonus}")
    house = [
        label
        for on, label in (
            (settings.big_gin, f"big gin ({settings.big_gin_bonus})"),
            (settings.ace_high, "ace high or low"),
            (settings.game_bonus, "game bonus"),
            (settings.line_bonus, "line bonus"),
            (settings.shutout is ShutoutRule.DOUBLE, "shutout doubles"),
            (settings.shutout is ShutoutRule.PLUS_100, "shutout +100"),
            (settings.spades_double, "spades double"),
        )
        if on
    ]
    parts.extend(house)
    return " · ".join(parts)


def _deal_proof(meta: dict[str, Any], number: int, hand: Hand, reveal: bool) -> DealProofOut:
    deals = meta.get("deals") or []
    info: dict[str, Any] = deals[number - 1] if number <= len(deals) else {}
    fixed = bool(info.get("fixed"))
    return DealProofOut(
        hand=number,
        fixed=fixed,
        commitment=info.get("commitment"),
        client_seed=info.get("client_seed"),
        client_seed_by=info.get("client_seed_by"),
        server_seed=info.get("server_seed") if reveal else None,
        deck=_codes(hand.deck) if reveal else None,
    )


def fairness_out(loaded: LoadedMatch) -> FairnessOut:
    """The deal of the hand on the table (revealed after a knock or gin), and the next one's.

    After a dead hand the table shows no cards, so neither the seed nor the
    deck is here; :func:`proofs_out` has them.
    """
    match = loaded.match
    hand = match.hand
    shown = hand.result is not None and hand.result.kind is not ResultKind.DEAD
    next_seed = loaded.meta.get("next_seed")
    return FairnessOut(
        deal=_deal_proof(loaded.meta, len(match.hands), hand, shown),
        next_commitment=commitment(next_seed) if match.awaiting_deal and next_seed else None,
    )


def proofs_out(loaded: LoadedMatch) -> ProofsOut:
    """Every hand's deal: seed and deck for the hands that are over, the commitment for all."""
    match = loaded.match
    next_seed = loaded.meta.get("next_seed")
    return ProofsOut(
        id=loaded.id,
        deals=[
            _deal_proof(loaded.meta, i, h, h.is_over) for i, h in enumerate(match.hands, 1)
        ],
        next_commitment=commitment(next_seed) if match.awaiting_deal and next_seed else None,
    )


def match_out(loaded: LoadedMatch) -> MatchOut:
    """The whole response for a match: table, sheet, and what this request did."""
    match = loaded.match
    ace_high = match.settings.ace_high
    sheet = [_sheet_entry(e, ace_high) for e in match.sheet]
    last = sheet[-1] if match.hand.is_over and sheet else None
    final = match.final_score()
    return MatchOut(
        id=loaded.id,
        version=loaded.version,
        status="over" if loaded.match.is_over else "playing",
        settings=_settings_out(match.settings, bot_level(loaded.meta, {})),
        settings_summary=settings_summary(match.settings, bot_level(loaded.meta, {})),
        hand_number=len(match.hands),
        scores=match.scores,
        awaiting_deal=match.awaiting_deal,
        table=_table(match),
        last_result=last,
        sheet=sheet,
        final=None if final is None else _final(final),
        events=[event_out(n, e) for n, e in loaded.events],
        fairness=fairness_out(loaded),
        created_at=loaded.created_at,
        updated_at=loaded.updated_at,
    )


def summary_out(row: StoredMatch) -> MatchSummaryOut:
    """A history line from a stored row (no replay needed)."""
    settings = Settings.from_dict(row.record.get("settings", {}))
    winner: Who | None = None
    if row.status == "over":
        winner = "you" if row.scores[0] > row.scores[1] else "computer"
    return MatchSummaryOut(
        id=row.id,
        status="over" if row.status == "over" else "playing",
        scores=row.scores,
        hands=len(row.record.get("hands", [])),
        winner=winner,
        settings_summary=settings_summary(settings, bot_level(row.meta, row.record)),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


# --- the settings form ---------------------------------------------------------------

_DEFAULTS = {**Settings().to_dict(), "difficulty": "medium"}


def _option(name: str, **text: Any) -> SettingOptionOut:
    """A setting as the form shows it: default, range and presets come from the engine's."""
    extra: dict[str, Any] = {"default": _DEFAULTS[name]}
    if name in NUMBER_RANGES:
        extra["minimum"], extra["maximum"] = NUMBER_RANGES[name]
    if name == "match_to":
        extra["presets"] = list(MATCH_TARGETS)
    return SettingOptionOut(name=name, **text, **extra)


SETTING_OPTIONS: tuple[SettingOptionOut, ...] = (
    _option(
        "match_to",
        label="Match to",
        help="The first player to reach this many points wins the match.",
        kind="number",
    ),
    _option(
        "knocking",
        label="Knocking",
        help="How low your deadwood must be to knock: 10 in Standard, the first upcard's "
        "value in Oklahoma (an ace means gin only), never in Gin only.",
        kind="choice",
        choices=[("standard", "Standard (10)"), ("oklahoma", "Oklahoma"), ("gin_only", "Gin only")],
    ),
    _option(
        "undercut_bonus",
        label="Undercut bonus",
        help="Extra points to a defender whose count is at or under the knocker's.",
        kind="number",
    ),
    _option(
        "gin_bonus",
        label="Gin bonus",
        help="Extra points for going gin (no deadwood at all).",
        kind="number",
    ),
    _option(
        "difficulty",
        label="Difficulty",
        help="Easy holds out for gin, Medium knocks when it can, Hard reads the pile and "
        "knocks like the strategy books.",
        kind="choice",
        choices=[("easy", "Easy"), ("medium", "Medium"), ("hard", "Hard")],
    ),
    _option(
        "big_gin",
        label="Big gin",
        help="Eleven cards all in melds after a draw may be laid down without a discard, "
        "for the big-gin bonus.",
        kind="switch",
        house_rule=True,
    ),
    _option(
        "big_gin_bonus",
        label="Big gin bonus",
        help="Extra points for big gin, when that house rule is on.",
        kind="number",
        house_rule=True,
    ),
    _option(
        "ace_high",
        label="Ace high or low",
        help="Q-K-A counts as a run too (never K-A-2); the ace still counts 1.",
        kind="switch",
        house_rule=True,
    ),
    _option(
        "game_bonus",
        label="Game bonus",
        help="The match winner gets 100 more at the end.",
        kind="switch",
        house_rule=True,
    ),
    _option(
        "line_bonus",
        label="Line bonus",
        help="At the end, each player gets 25 for every hand they won.",
        kind="switch",
        house_rule=True,
    ),
    _option(
        "shutout",
        label="Shutout",
        help="When the loser never scored, the winner's total is doubled or gets 100 more.",
        kind="choice",
        choices=[("off", "Off"), ("double", "Double"), ("plus_100", "Add 100")],
        house_rule=True,
    ),
    _option(
        "spades_double",
        label="Oklahoma spades double",
        help="A hand whose first upcard is a spade scores double.",
        kind="switch",
        house_rule=True,
    ),
)
"""Every setting and house rule, with one sentence on what it changes."""
