"""OpenSpiel's simple gin rummy bot as an external arena bot (docs/BOT_PROTOCOL.md).

Needs the optional bench dependency ``open-spiel``. Use it as::

    ginrummy arena hard "cmd:.venv/bin/python bench/openspiel_bot.py" --matches 200

At each decision the whole hand is rebuilt in OpenSpiel's engine from what
this player has seen: its own cards and draws are the real ones; the other
hand is filled with cards this player has never seen, chosen so that every
card the other player threw was in their hand when they threw it. The
OpenSpiel bot reads only its own player's information, so the filler never
reaches its decision.

Where OpenSpiel's rules differ and the bot's choice is not legal here (it
may throw back the card it just took from the pile), the bot throws instead
the legal card that leaves the least deadwood, highest card first.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pyspiel

from ginrummy.cards import Card, parse_card
from ginrummy.melds import deadwood

DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = 52, 53, 54, 55
_OS_SUIT = {0: 1, 1: 2, 2: 3, 3: 0}  # ours clubs, diamonds, hearts, spades -> theirs s c d h
_OUR_SUIT = {v: k for k, v in _OS_SUIT.items()}


def to_os(card: Card) -> int:
    """Our card as OpenSpiel's card id."""
    return _OS_SUIT[card.suit] * 13 + card.rank


def from_os(card: int) -> Card:
    """OpenSpiel's card id as our card."""
    return Card.from_rank_suit(card % 13, _OUR_SUIT[card // 13])


class Player:
    """One seat: the messages of the current hand, and OpenSpiel's bot."""

    def __init__(self) -> None:
        self.me = 0
        self.params: dict[str, Any] = {}
        self.deal: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []

    def start(self, message: dict[str, Any]) -> None:
        self.me = message["player"]
        settings = message["settings"]
        self.params = {
            "gin_bonus": settings.get("gin_bonus", 25),
            "undercut_bonus": settings.get("undercut_bonus", 25),
            "oklahoma": settings.get("knocking") == "oklahoma",
        }

    def new_hand(self, message: dict[str, Any]) -> None:
        self.deal = message
        self.events = []

    def _state(self) -> tuple[Any, int]:
        game = pyspiel.load_game("gin_rummy", self.params)
        state = game.new_initial_state()
        dealer = self.deal["dealer"]
        # OpenSpiel's player 0 is the first to be offered the upcard: our non-dealer.
        os_me = 0 if self.me != dealer else 1
        mine = [parse_card(c) for c in self.deal["cards"]]
        upcard = parse_card(self.deal["upcard"])
        seen = set(mine) | {upcard}
        for e in self.events:
            if e.get("card"):
                seen.add(parse_card(e["card"]))
        fillers = [from_os(i) for i in range(52) if from_os(i) not in seen]
        # The cards the other player threw that they had not taken from the pile.
        taken: set[Card] = set()
        needed: list[Card] = []
        for e in self.events:
            if e["player"] == self.me:
                continue
            if e["type"] in ("take", "pile"):
                taken.add(parse_card(e["card"]))
            elif e["type"] == "discard":
                card = parse_card(e["card"])
                if card not in taken:
                    needed.append(card)
        theirs = needed[:10]
        while len(theirs) < 10:
            theirs.append(fillers.pop())
        later = needed[10:]
        hands = (mine, theirs) if os_me == 0 else (theirs, mine)
        for card in (*hands[0], *hands[1], upcard):
            state.apply_action(to_os(card))
        for e in self.events:
            kind = e["type"]
            if kind == "pass":
                state.apply_action(PASS)
            elif kind in ("take", "pile"):
                state.apply_action(DRAW_UPCARD)
            elif kind == "stock":
                state.apply_action(DRAW_STOCK)
                if e["player"] == self.me:
                    card = parse_card(e["card"])
                else:
                    card = later.pop(0) if later else fillers.pop()
                state.apply_action(to_os(card))
            elif kind == "discard":
                state.apply_action(to_os(parse_card(e["card"])))
        return state, os_me

    def decide(self, message: dict[str, Any]) -> str:
        legal: list[str] = message["legal"]
        state, os_me = self._state()
        bot = pyspiel.make_simple_gin_rummy_bot(state.get_game().get_parameters(), os_me)
        action = bot.step(state)
        if message["phase"] in ("upcard", "draw"):
            if action == DRAW_UPCARD:
                return "take" if "take" in legal else "pile"
            return "pass" if "pass" in legal else "stock"
        if action == KNOCK:
            state.apply_action(KNOCK)
            card = from_os(bot.step(state))
            if f"knock {card}" in legal:
                return f"knock {card}"
            return self._fallback(message, knock=True)
        if 0 <= action < 52 and f"discard {from_os(action)}" in legal:
            return f"discard {from_os(action)}"
        return self._fallback(message, knock=False)

    def _fallback(self, message: dict[str, Any], knock: bool) -> str:
        hand = [parse_card(c) for c in message["hand"]]
        verb = "knock" if knock else "discard"
        options = [a for a in message["legal"] if a.startswith(verb + " ")]
        if not options:
            options = [a for a in message["legal"] if a.startswith("discard ")]

        def left(action: str) -> tuple[int, int]:
            card = parse_card(action.split()[1])
            return deadwood([c for c in hand if c != card]), -card.points

        choice: str = min(options, key=left)
        return choice


def main() -> int:
    """Answer the arena until it says ``quit`` or closes the input."""
    player = Player()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "match":
            player.start(message)
        elif kind == "deal":
            player.new_hand(message)
        elif kind == "decide":
            sys.stdout.write(json.dumps({"action": player.decide(message)}) + "\n")
            sys.stdout.flush()
        elif kind == "quit":
            break
        elif kind != "result" and "player" in message:
            player.events.append(message)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
