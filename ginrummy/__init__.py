"""Gin Rummy: an exact rules engine, computer opponents and a web app.

The engine (this package's top level) does no I/O and keeps no global random
state; the bots live in :mod:`ginrummy.bots` and the web app in
:mod:`ginrummy.web`, both built on it.

>>> from ginrummy import CardSet, deadwood, knock_options
>>> hand = CardSet.parse("AS 2S 3S 7H 7D 7C KD KC KH 9C 4S")
>>> deadwood(hand - CardSet.parse("9C"))
0
>>> min(knock_options(hand).values())
0
"""

from ginrummy.cards import Card, CardParseError, CardSet, format_cards, parse_card, parse_cards
from ginrummy.errors import REFUSALS, EngineError
from ginrummy.hand import (
    Action,
    ActionName,
    ActionParseError,
    DeclareBigGin,
    Discard,
    DrawPile,
    DrawStock,
    Hand,
    HandResult,
    IllegalActionError,
    Knock,
    PassUpcard,
    Phase,
    PlayerView,
    ResultKind,
    TakeUpcard,
    action_name,
    event_kind,
    parse_action,
    shuffled_deck,
)
from ginrummy.match import FinalScore, Match, ScoreEntry
from ginrummy.melds import (
    Arrangement,
    LayOff,
    LayOffResult,
    LayOffSpot,
    all_best_arrangements,
    best_arrangement,
    best_layoff,
    deadwood,
    deadwood_after_discard,
    knock_options,
    lay_off_spots,
)
from ginrummy.records import (
    RecordError,
    Replayed,
    dump_hand,
    dump_match,
    load_hand,
    load_match,
    replay_match,
)
from ginrummy.settings import (
    KnockMode,
    Settings,
    SettingsError,
    ShutoutRule,
    legacy_difficulty,
)

__all__ = [
    "REFUSALS",
    "Action",
    "ActionName",
    "ActionParseError",
    "Arrangement",
    "Card",
    "CardParseError",
    "CardSet",
    "DeclareBigGin",
    "Discard",
    "DrawPile",
    "DrawStock",
    "EngineError",
    "FinalScore",
    "Hand",
    "HandResult",
    "IllegalActionError",
    "Knock",
    "KnockMode",
    "LayOff",
    "LayOffResult",
    "LayOffSpot",
    "Match",
    "PassUpcard",
    "Phase",
    "PlayerView",
    "RecordError",
    "Replayed",
    "ResultKind",
    "ScoreEntry",
    "Settings",
    "SettingsError",
    "ShutoutRule",
    "TakeUpcard",
    "action_name",
    "all_best_arrangements",
    "best_arrangement",
    "best_layoff",
    "deadwood",
    "deadwood_after_discard",
    "dump_hand",
    "dump_match",
    "event_kind",
    "format_cards",
    "knock_options",
    "lay_off_spots",
    "legacy_difficulty",
    "load_hand",
    "load_match",
    "parse_action",
    "parse_card",
    "parse_cards",
    "replay_match",
    "shuffled_deck",
]
