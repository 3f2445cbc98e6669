"""A reference external bot for ``ginrummy arena`` (see docs/BOT_PROTOCOL.md).

It reads one JSON message per line on stdin and, for each ``decide`` message,
writes one line ``{"action": ...}`` on stdout. It notes the other player's
throws from the event messages (a fuller bot would track every card the same
way) and plays a little better than at random: it takes a pile card that pairs
with its hand, knocks when it may, and otherwise throws one of its highest
cards, preferring ranks the other player threw.

Run it in the arena::

    ginrummy arena medium "cmd:python examples/random_bot.py" --matches 20

It uses only the Python standard library, so it can be copied anywhere.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

RANKS = "A23456789TJQK"


def points(card: str) -> int:
    """Deadwood value of a card written like ``7C`` or ``TD``."""
    return min(10, RANKS.index(card[0]) + 1)


def pairs_with(card: str, hand: list[str]) -> bool:
    """Whether ``card`` shares a rank or sits next to a card of its suit in ``hand``."""
    rank, suit = RANKS.index(card[0]), card[1]
    for other in hand:
        other_rank = RANKS.index(other[0])
        if other_rank == rank or (other[1] == suit and abs(other_rank - rank) == 1):
            return True
    return False


def decide(message: dict[str, Any], rng: random.Random, their_throws: list[str]) -> str:
    """The action for a ``decide`` message, in the record notation."""
    legal: list[str] = message["legal"]
    hand: list[str] = message["hand"]
    top = message.get("pile_top")
    if message["phase"] in ("upcard", "draw"):
        wants = top is not None and pairs_with(top, hand)
        for take in ("take", "pile"):
            if wants and take in legal:
                return take
        return "pass" if "pass" in legal else "stock"
    if "big_gin" in legal:
        return "big_gin"
    knocks = [a for a in legal if a.startswith("knock ")]
    if knocks:
        return knocks[0]
    throws = [a for a in legal if a.startswith("discard ")]
    # High cards first; among them, ranks the other player threw are safer.
    thrown_ranks = {c[0] for c in their_throws}
    throws.sort(key=lambda a: (-points(a.split()[1]), a.split()[1][0] not in thrown_ranks))
    return rng.choice(throws[:2])


def main() -> int:
    """Answer the arena until it says ``quit`` or closes the input."""
    rng = random.Random(0)
    me = 0
    their_throws: list[str] = []
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "match":
            rng = random.Random(message.get("seed", 0))
            me = message["player"]
        elif kind == "deal":
            their_throws = []
        elif kind == "discard" and message["player"] != me:
            their_throws.append(message["card"])
        elif kind == "decide":
            sys.stdout.write(json.dumps({"action": decide(message, rng, their_throws)}) + "\n")
            sys.stdout.flush()
        elif kind == "quit":
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
