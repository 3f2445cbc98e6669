"""Offline play: a match against the computer refereed on the player's own device.

The page runs this module under Pyodide, in a Web Worker, when the player
plays without the server. It holds a match between a person and a bot (or two
bots) and answers every request in exactly the shapes the server's API sends
(``docs/WEB.md``: a match, a history line, the settings form, an error), so
the page's screens cannot tell the two apart. It uses the engine and the bots
alone: no web framework, no storage (the worker keeps :meth:`OfflineMatch.to_dict`
in IndexedDB), no clock but the one a caller passes.

Deals come from seeds the device draws (``crypto.getRandomValues``): each
hand's deck is :func:`~ginrummy.fairness.fair_deck` of that hand's seed, and
the first dealer is drawn from the first seed. Nobody else is dealt to, so no
commitment is made and none is claimed: a match's ``fairness`` says so
(``committed`` false, no commitment, no seeds shown).

>>> seed = "ab" * 32
>>> m = OfflineMatch.start("offline-x", {}, [{"kind": "person"}, {"kind": "bot", "bot": "hard"}],
...                        deal_seed=seed, bot_seed=7, stamp="2026-01-01T00:00:00.000+00:00")
>>> view = m.view()
>>> view["seat"], view["seats"][1]["bot"], len(view["table"]["hand"]) in (10, 11)
(0, 'hard', True)
>>> OfflineMatch.from_dict(m.to_dict()).view()["table"] == view["table"]
True
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from ginrummy.cards import Card
from ginrummy.errors import EngineError
from ginrummy.fairness import fair_deck, fair_first_dealer
from ginrummy.hand import (
    Action,
    BigGinDeclared,
    Dealt,
    DeclareBigGin,
    Discard,
    Discarded,
    DrawPile,
    DrawStock,
    Event,
    Knock,
    Knocked,
    PassUpcard,
    PileDrawn,
    PlayerView,
    StockDrawn,
    TakeUpcard,
    UpcardPassed,
    UpcardTaken,
    parse_action,
)
from ginrummy.match import FinalScore, Match, ScoreEntry
from ginrummy.melds import Arrangement, all_best_arrangements, best_arrangement, knock_options
from ginrummy.records import match_from_dict, match_to_dict
from ginrummy.settings import MATCH_TARGETS, NUMBER_RANGES, Settings

if TYPE_CHECKING:
    from ginrummy.bots import Bot

__all__ = [
    "BOT_LEVELS",
    "BROWSER_ROLLOUT_SAMPLES",
    "CLIENT_SEED",
    "OFFLINE_PREFIX",
    "OfflineError",
    "OfflineMatch",
    "OfflineSeat",
    "device_bot",
    "settings_form",
    "warm_up",
]

OFFLINE_PREFIX = "offline-"
"""Every offline match's id starts so: the page tells its matches from the server's by it."""
BOT_LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
"""The bots a player may seat, as on the server."""
BROWSER_ROLLOUT_SAMPLES = 24
"""Hard on the device plays its close throws out on this many dealt hands (twice as many
in its wider play-outs), half the server's Hard
(:attr:`~ginrummy.bots.hard.HardConfig.rollout_samples`): in the browser the server's 48
took a decision's p95 from 40 ms to 70 ms on an idle desktop core and past the offline
app's 100 ms beside other work (docs/OFFLINE.md), for about a point of win share against
players who knock at once (docs/strength/ROUNDS.md)."""
CLIENT_SEED = "offline"
"""The second input of :func:`~ginrummy.fairness.fair_deck` for offline deals (the device
draws the only secret, the hand's seed)."""
STORE_FORMAT = "ginrummy-offline-match"
"""The ``format`` of :meth:`OfflineMatch.to_dict` (what the worker keeps in IndexedDB)."""

Json = dict[str, Any]


class OfflineError(ValueError):
    """A request the match refuses, with the status and error body the server would send."""

    def __init__(self, status: int, code: str, message: str, **params: int | str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.params: dict[str, int | str] = dict(params)

    @classmethod
    def from_engine(cls, error: EngineError) -> OfflineError:
        """The engine's refusal, as the server answers it (409, the engine's code)."""
        return cls(409, error.code, str(error), **error.params)

    def body(self) -> Json:
        """The ``{"error": {"code", "message", "params"}}`` answer."""
        return {"error": {"code": self.code, "message": str(self), "params": self.params}}


@dataclass(frozen=True, slots=True)
class OfflineSeat:
    """One seat: the person on this device, or a bot of a level with its seed."""

    index: int
    kind: str
    bot: str | None = None
    bot_seed: int = 0

    @classmethod
    def from_request(cls, index: int, data: Mapping[str, Any], bot_seed: int) -> OfflineSeat:
        """A seat as a new match asks for it (``{"kind": "bot", "bot": "hard"}``)."""
        kind = data.get("kind")
        if kind == "person":
            return cls(index, "person")
        if kind != "bot":
            raise OfflineError(422, "bad_request", f"seat {index}: kind is 'person' or 'bot'")
        level = data.get("bot") or "medium"
        if level not in BOT_LEVELS:
            raise OfflineError(422, "bad_request", f"no bot is called {level!r}", bot=str(level))
        return cls(index, "bot", str(level), bot_seed)

    def out(self) -> Json:
        """The seat as ``SeatOut``."""
        # No stream and no invite on the device: never an open seat, never "connected".
        return {
            "index": self.index,
            "kind": self.kind,
            "bot": self.bot,
            "name": None,
            "open": False,
            "connected": False,
        }


@dataclass(slots=True)
class OfflineMatch:
    """A match held on the device: its record, seats and the seed of each hand's deal."""

    id: str
    match: Match
    seats: tuple[OfflineSeat, OfflineSeat]
    seeds: list[str]
    version: int
    created_at: str
    updated_at: str
    events: list[tuple[int, Event]] = field(default_factory=list)
    """What the last request did: (hand number, event), in order."""
    thinking: list[tuple[str, float]] = field(default_factory=list)
    """Each bot decision since this was made or loaded: (level, seconds it took)."""

    # -- making and changing --

    @classmethod
    def start(
        cls,
        match_id: str,
        settings: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        *,
        deal_seed: str,
        bot_seed: int,
        stamp: str,
    ) -> OfflineMatch:
        """A new match dealt from ``deal_seed`` (64 hex digits); the bots move if they are to.

        ``settings`` and ``seats`` are as ``POST /api/matches`` takes them;
        every bot seat is seeded with ``bot_seed``.
        """
        if not match_id.startswith(OFFLINE_PREFIX):
            raise OfflineError(422, "bad_request", f"an offline match's id starts {OFFLINE_PREFIX}")
        if len(seats) != 2:
            raise OfflineError(422, "bad_request", "a match has two seats")
        placed = tuple(OfflineSeat.from_request(i, s, bot_seed) for i, s in enumerate(seats))
        if sum(s.kind == "person" for s in placed) > 1:
            raise OfflineError(422, "bad_seats", "at most one seat is a person's")
        try:
            rules = Settings.from_dict(settings)
            deck = fair_deck(deal_seed, CLIENT_SEED, 1)
            first = fair_first_dealer(deal_seed, CLIENT_SEED)
        except EngineError as e:
            raise OfflineError(422, e.code, str(e), **e.params) from None
        match = Match.start(deck, first_dealer=first, settings=rules)
        made = cls(match_id, match, (placed[0], placed[1]), [deal_seed], 1, stamp, stamp)
        made.events.extend((1, e) for e in match.hand.events)
        made._play_bots()
        return made

    def act(self, version: int, move: Mapping[str, Any], *, stamp: str) -> None:
        """Apply the person's move (``{"action", "card", "melds"}``) made on ``version``,
        then the bots' answers."""
        self._check(version)
        seat = self.seat
        if seat is None:
            raise OfflineError(403, "not_your_seat", "nobody plays a seat of this match here")
        match = self.match
        before = len(match.hand.events)
        try:
            action = _action(move, match, seat)
            match.apply(action, seat)
        except EngineError as e:
            raise OfflineError.from_engine(e) from None
        self._moved(stamp)
        self.events.extend((len(match.hands), e) for e in match.hand.events[before:])
        self._play_bots()

    def next_hand(self, version: int, deal_seed: str, *, stamp: str) -> None:
        """Deal the next hand from ``deal_seed`` (and let the bots move)."""
        self._check(version)
        match = self.match
        try:
            deck = fair_deck(deal_seed, CLIENT_SEED, len(match.hands) + 1)
            match.next_hand(deck)
        except EngineError as e:
            raise OfflineError.from_engine(e) from None
        self.seeds.append(deal_seed)
        self._moved(stamp)
        self.events.extend((len(match.hands), e) for e in match.hand.events)
        self._play_bots()

    def _check(self, version: int) -> None:
        self.events = []
        if version != self.version:
            raise OfflineError(
                409,
                "stale_version",
                f"that move was made on version {version} of the match, but it is at "
                f"version {self.version} now: nothing was changed",
                version=version,
                current=self.version,
            )

    def _moved(self, stamp: str) -> None:
        self.version += 1
        self.updated_at = stamp

    def _play_bots(self) -> None:
        """Let the bot seats move while one of them is to act (as the server's referee)."""
        match = self.match
        while not match.is_over and not match.hand.is_over:
            seat = self.seats[match.to_act or 0]
            if seat.bot is None:
                return
            bot = device_bot(seat.bot, seat.bot_seed)
            before = len(match.hand.events)
            started = time.perf_counter()
            action = bot.choose(match.view(seat.index))
            self.thinking.append((seat.bot, time.perf_counter() - started))
            match.apply(action, seat.index)
            self.events.extend((len(match.hands), e) for e in match.hand.events[before:])

    # -- reading --

    @property
    def seat(self) -> int | None:
        """The person's seat (``None`` in a match between two bots)."""
        return next((s.index for s in self.seats if s.kind == "person"), None)

    @property
    def status(self) -> str:
        """``over`` once a seat reached the target, else ``playing``."""
        return "over" if self.match.is_over else "playing"

    def view(self) -> Json:
        """The match as the server's ``MatchOut`` shows it to the person's seat."""
        match = self.match
        seat = self.seat
        view = match.view(0 if seat is None else seat)
        number = len(match.hands)
        done = sum(1 for n, _ in self.events if n == number)
        mine = view.events[len(view.events) - done :] if done else ()
        sheet = [_sheet_entry(e) for e in match.sheet]
        final = match.final_score()
        return {
            "id": self.id,
            "version": self.version,
            "status": self.status,
            "seat": seat,
            "seats": [s.out() for s in self.seats],
            "settings": _settings(match.settings),
            "hand_number": number,
            "scores": list(match.scores),
            "awaiting_deal": match.awaiting_deal,
            "table": table_view(view),
            "last_result": sheet[-1] if match.hand.is_over and sheet else None,
            "sheet": sheet,
            "final": None if final is None else _final(final),
            "events": [_event(number, e) for e in mine],
            "fairness": {"deal": self._deal(number), "next_commitment": None},
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "invite": None,
            "resume": None,
            "clock": None,  # no move clock against the computer
        }

    def _deal(self, number: int) -> Json:
        # Dealt on this device: no commitment, no seeds shown (nothing is claimed).
        return {
            "hand": number,
            "fixed": False,
            "committed": False,
            "first_dealer": self.match.first_dealer if number == 1 else None,
            "commitment": None,
            "client_seed": None,
            "client_seed_by": None,
            "server_seed": None,
            "deck": None,
        }

    def summary(self) -> Json:
        """The match as a history line (``MatchSummaryOut``)."""
        match = self.match
        return {
            "id": self.id,
            "status": self.status,
            "scores": list(match.scores),
            "hands": sum(1 for h in match.hands if h.is_over),
            "winner": match.winner,
            "settings": _settings(match.settings),
            "seats": [s.out() for s in self.seats],
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "seat": self.seat,
        }

    def record(self) -> Json:
        """The record to download (``docs/RECORDS.md``), as the server's: the hands that are
        over, and who sat where."""
        if not self.match.hand.is_over and len(self.match.hands) == 1:
            raise OfflineError(409, "nothing_finished", "no hand of this match is over yet")
        players = [
            {"kind": "bot", "bot": s.bot} if s.bot else {"kind": "person"} for s in self.seats
        ]
        return match_to_dict(self.match, finished_only=True, players=players)

    # -- keeping --

    def to_dict(self) -> Json:
        """Everything needed to carry on later, as JSON values (the hand in play included:
        it stays on the device that dealt it)."""
        return {
            "format": STORE_FORMAT,
            "id": self.id,
            "version": self.version,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "status": self.status,
            "seats": [dataclasses.asdict(s) for s in self.seats],
            "seeds": list(self.seeds),
            "record": match_to_dict(self.match),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OfflineMatch:
        """A match :meth:`to_dict` wrote (its record replayed through the engine)."""
        if data.get("format") != STORE_FORMAT:
            raise OfflineError(422, "bad_request", "this is not a kept offline match")
        seats = [OfflineSeat(**s) for s in data["seats"]]
        return cls(
            str(data["id"]),
            match_from_dict(data["record"]),
            (seats[0], seats[1]),
            [str(s) for s in data["seeds"]],
            int(data["version"]),
            str(data["created_at"]),
            str(data["updated_at"]),
        )


def _action(move: Mapping[str, Any], match: Match, seat: int) -> Action:
    kind = move.get("action")
    if not isinstance(kind, str):
        raise OfflineError(422, "bad_request", "say which action: take, pass, stock, pile, ...")
    card = move.get("card")
    melds = move.get("melds")
    if kind == "knock" and card is None and melds is None:
        return match.default_knock(seat)
    return parse_action(kind, card, melds)


# --- the server's shapes, from the engine's values ------------------------------------
# These follow ginrummy.web.present field for field; tests/test_offline.py compares the
# two on whole matches, so neither can drift alone.


def _codes(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def _meld(cards: Sequence[Card]) -> Json:
    is_set = len({c.rank for c in cards}) == 1
    return {"kind": "set" if is_set else "run", "cards": _codes(cards)}


_KINDS: dict[type, str] = {
    Dealt: "dealt",
    UpcardTaken: "take",
    UpcardPassed: "pass",
    StockDrawn: "stock",
    PileDrawn: "pile",
    Discarded: "discard",
    Knocked: "knock",
    BigGinDeclared: "big_gin",
}


def _event(hand_number: int, event: Event) -> Json:
    if isinstance(event, Dealt):
        return {
            "hand": hand_number,
            "who": event.dealer,
            "kind": "dealt",
            "card": str(event.upcard),
            "deadwood": None,
        }
    card = getattr(event, "card", None)
    deadwood = event.deadwood if isinstance(event, Knocked) else None
    if isinstance(event, BigGinDeclared):
        deadwood = 0
    return {
        "hand": hand_number,
        "who": event.player,
        "kind": _KINDS[type(event)],
        "card": None if card is None else str(card),
        "deadwood": deadwood,
    }


def _arrangement(laid: Arrangement) -> Json:
    return {
        "melds": [_meld(m) for m in laid.melds],
        "deadwood": _codes(laid.deadwood),
        "points": laid.deadwood_points,
    }


def _throw_options(view: PlayerView) -> dict[Card, int]:
    if not view.is_my_turn or view.phase.value != "discard":
        return {}
    options = knock_options(view.hand, ace_high=view.settings.ace_high)
    return {c: d for c, d in options.items() if c != view.locked_card}


def _default_knock_card(view: PlayerView, options: dict[Card, int]) -> Card | None:
    able = [(d, c) for c, d in options.items() if d <= view.knock_limit]
    if not able:
        return None
    least = min(d for d, _ in able)
    return max((c for d, c in able if d == least), key=lambda c: (c.points, int(c)))


def table_view(view: PlayerView) -> Json:
    """The hand on the table as ``view``'s seat sees it (the server's ``TableOut``)."""
    ace_high = view.settings.ace_high
    options = _throw_options(view)
    best = _default_knock_card(view, options)
    knock = None
    if best is not None:
        knock = {"card": str(best), "leaves": options[best], "gin": options[best] == 0}
    layouts: list[Json] = []
    for action in view.legal_actions:
        if isinstance(action, Knock):
            kept = [c for c in view.hand if c != action.card]
            choices = all_best_arrangements(kept, ace_high=ace_high)
            if len(choices) > 1:
                layouts.append(
                    {"card": str(action.card), "layouts": [_arrangement(a) for a in choices]}
                )
    actions = view.legal_actions
    revealed = view.opponent_hand
    return {
        "phase": view.phase.value,
        "to_act": view.to_act,
        "dealer": view.dealer,
        "hand": _codes(view.hand),
        "drawn": None if view.drawn is None else str(view.drawn),
        "locked": None if view.locked_card is None else str(view.locked_card),
        "pile": _codes(view.pile),
        "first_upcard": str(view.first_upcard),
        "stock_count": view.stock_count,
        "opponent_count": view.opponent_card_count,
        "opponent_pile_cards": _codes(view.opponent_pile_cards),
        "opponent_hand": None if revealed is None else _codes(revealed),
        "knock_limit": view.knock_limit,
        "arrangement": _arrangement(best_arrangement(view.hand, ace_high=ace_high)),
        "throws": [{"card": str(c), "leaves": d} for c, d in sorted(options.items())],
        "knock": knock,
        "knock_layouts": layouts,
        "legal": {
            "take": TakeUpcard() in actions,
            "pass": PassUpcard() in actions,
            "stock": DrawStock() in actions,
            "pile": DrawPile() in actions,
            "discard": [str(a.card) for a in actions if isinstance(a, Discard)],
            "knock": [
                {"card": str(a.card), "leaves": options[a.card]}
                for a in actions
                if isinstance(a, Knock)
            ],
            "big_gin": any(isinstance(a, DeclareBigGin) for a in actions),
        },
        "log": [_event(view.hand_number, e) for e in view.events],
    }


def _sheet_entry(entry: ScoreEntry) -> Json:
    return {
        "number": entry.number,
        "dealer": entry.dealer,
        "kind": entry.kind.value,
        "winner": entry.winner,
        "points": entry.points,
        "knocker": entry.knocker,
        "knocker_melds": [_meld(m) for m in entry.knocker_melds],
        "knocker_deadwood": _codes(entry.knocker_deadwood),
        "knocker_points": entry.knocker_points,
        "defender_melds": [_meld(m) for m in entry.defender_melds],
        "lay_offs": [{"card": str(lo.card), "meld": lo.meld_index} for lo in entry.lay_offs],
        "defender_deadwood": _codes(entry.defender_deadwood),
        "defender_points": entry.defender_points,
        "multiplier": entry.multiplier,
        "totals": list(entry.totals),
    }


def _final(final: FinalScore) -> Json:
    return {
        "winner": final.winner,
        "running": list(final.running),
        "game_bonus": list(final.game_bonus),
        "line_bonus": list(final.line_bonus),
        "shutout_bonus": list(final.shutout_bonus),
        "totals": list(final.totals),
    }


_RULES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Settings))
_HOUSE_RULES = frozenset(
    {"big_gin", "big_gin_bonus", "ace_high", "game_bonus", "line_bonus", "shutout", "spades_double"}
)


def _settings(settings: Settings) -> Json:
    values = settings.to_dict()
    return {name: values[name] for name in _RULES}


def _option(name: str, default: Any) -> Json:
    out: Json = {
        "name": name,
        "kind": "number",
        "default": default,
        "choices": [],
        "presets": [],
        "minimum": None,
        "maximum": None,
        "house_rule": name in _HOUSE_RULES,
    }
    if isinstance(default, bool):
        out["kind"] = "switch"
    elif isinstance(default, StrEnum):
        out.update(kind="choice", default=default.value, choices=[m.value for m in type(default)])
    else:
        out["minimum"], out["maximum"] = NUMBER_RANGES[name]
        if name == "match_to":
            out["presets"] = list(MATCH_TARGETS)
    return out


def settings_form() -> Json:
    """What the new-match form offers, as ``GET /api/settings`` answers it."""
    defaults = Settings()
    return {
        "settings": [_option(n, getattr(defaults, n)) for n in _RULES],
        "bots": list(BOT_LEVELS),
    }


# --- the worker's one entry point ----------------------------------------------------------


class Referee:
    """The matches a worker holds, answering the page's requests as the server's API would.

    :meth:`handle` takes ``{"op": ..., ...}`` and returns ``{"status", "body", "keep",
    "summary"}``: the HTTP status and JSON body the server would send, the match to keep
    in IndexedDB and its history line (both ``None``: nothing changed). A match the
    worker no longer holds (a reload) comes back in the request as ``kept`` (what
    ``keep`` said last). ``{"op": "thinking"}`` answers how long each bot decision took.
    """

    def __init__(self) -> None:
        self.matches: dict[str, OfflineMatch] = {}

    def handle(self, request: Mapping[str, Any]) -> Json:
        """One request: ``settings``, ``new``, ``get``, ``act``, ``next``, ``summary``,
        ``record``."""
        try:
            return self._handle(request)
        except OfflineError as e:
            return {"status": e.status, "body": e.body(), "keep": None, "summary": None}

    def _handle(self, request: Mapping[str, Any]) -> Json:
        op = request.get("op")
        if op == "settings":
            return _answer(settings_form())
        if op == "thinking":
            times = [(level, ms) for m in self.matches.values() for level, ms in m.thinking]
            return _answer({"decisions": [{"bot": b, "seconds": s} for b, s in times]})
        stamp = str(request.get("stamp", ""))
        if op == "new":
            body = request.get("body") or {}
            made = OfflineMatch.start(
                str(request["id"]),
                body.get("settings") or {},
                body.get("seats") or [{"kind": "person"}, {"kind": "bot", "bot": "medium"}],
                deal_seed=str(request["deal_seed"]),
                bot_seed=int(request["bot_seed"]),
                stamp=stamp,
            )
            self.matches[made.id] = made
            return _answer(made.view(), made)
        held = self._held(request)
        if op == "get":
            held.events = []
            return _answer(held.view())
        if op == "summary":
            return _answer(held.summary())
        if op == "record":
            return _answer(held.record())
        version = request.get("version")
        if not isinstance(version, int):
            raise OfflineError(422, "bad_request", "say which version the move was made on")
        if op == "act":
            held.act(version, request.get("move") or {}, stamp=stamp)
        elif op == "next":
            held.next_hand(version, str(request["deal_seed"]), stamp=stamp)
        else:
            raise OfflineError(422, "bad_request", f"no request is called {op!r}")
        return _answer(held.view(), held)

    def _held(self, request: Mapping[str, Any]) -> OfflineMatch:
        match_id = str(request.get("id", ""))
        held = self.matches.get(match_id)
        kept = request.get("kept")
        if kept is not None and (held is None or held.version != kept.get("version")):
            held = self.matches[match_id] = OfflineMatch.from_dict(kept)
        if held is None:
            raise OfflineError(
                404, "unknown_match", f"there is no match {match_id!r}", match=match_id
            )
        return held


def device_bot(level: str, seed: int) -> Bot:
    """The bot of ``level`` as the device plays it: the server's, but Hard with
    :data:`BROWSER_ROLLOUT_SAMPLES` play-outs.

    >>> device_bot("hard", 1).config.rollout_samples
    24
    """
    from ginrummy.bots import make_bot
    from ginrummy.bots.hard import HardBot, HardConfig

    if level == "hard":
        return HardBot(seed, HardConfig(rollout_samples=BROWSER_ROLLOUT_SAMPLES))
    return make_bot(level, seed=seed)


def warm_up() -> None:
    """Play a hand between two bots of each level through the referee, and forget it.

    The worker runs this before it keeps its memory snapshot (``offline-worker.js``), so
    every module a match needs is imported, and compiled, in that snapshot: a player's
    first deal does not wait for Python to compile the bots. Nothing of it shows in a
    match: each deal and decision comes from that match's own seeds (the browser test
    compares the worker's records with native ones for the same seeds).
    """
    referee = Referee()
    for level in BOT_LEVELS:
        match_id = f"{OFFLINE_PREFIX}warm-up-{level}"
        made = referee.handle(
            {
                "op": "new",
                "id": match_id,
                "deal_seed": "0" * 64,
                "bot_seed": 0,
                "stamp": "",
                "body": {"seats": [{"kind": "bot", "bot": level}] * 2},
            }
        )
        # As after a reload: the match comes back from what the worker kept.
        kept = {"id": match_id, "kept": made["keep"]}
        referee.matches.clear()
        referee.handle({"op": "record", **kept})
        referee.handle({"op": "get", **kept})


def _answer(body: Json, keep: OfflineMatch | None = None) -> Json:
    if keep is None:
        return {"status": 200, "body": body, "keep": None, "summary": None}
    return {"status": 200, "body": body, "keep": keep.to_dict(), "summary": keep.summary()}
