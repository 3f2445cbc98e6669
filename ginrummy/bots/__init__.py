"""The computer opponents, chosen by name.

>>> from ginrummy.bots import make_bot, BOT_NAMES
>>> from ginrummy.hand import Hand
>>> hand = Hand.from_seed(3, dealer=0)
>>> bot = make_bot("medium", seed=123)
>>> bot.choose(hand.view(1)) in hand.legal_actions()
True
>>> BOT_NAMES
('easy', 'medium', 'hard', 'simple', 'camper', 'camper-lite', 'openspiel')

A bot decides from the view alone and its seed, so a fresh bot per decision
gives the same action as one kept for a whole match.
"""

from __future__ import annotations

from collections.abc import Callable

from ginrummy.bots._reading import card_weights
from ginrummy.bots.base import Bot
from ginrummy.bots.basic import EasyBot, MediumBot

__all__ = ["BOT_NAMES", "Bot", "UnknownBotError", "card_weights", "make_bot"]

BOT_NAMES: tuple[str, ...] = (
    "easy",
    "medium",
    "hard",
    "simple",
    "camper",
    "camper-lite",
    "openspiel",
)
"""The bots :func:`make_bot` knows: the three levels, then the yardsticks."""


class UnknownBotError(ValueError):
    """A bot name that :func:`make_bot` does not know."""


def _factories() -> dict[str, Callable[[int], Bot]]:
    from ginrummy.bots.camper import CamperBot
    from ginrummy.bots.camper_lite import CamperLiteBot
    from ginrummy.bots.hard import HardBot
    from ginrummy.bots.openspiel import OpenSpielBot
    from ginrummy.bots.simple import SimpleBot

    return {
        "easy": EasyBot,
        "medium": MediumBot,
        "hard": HardBot,
        "simple": SimpleBot,
        "camper": CamperBot,
        "camper-lite": CamperLiteBot,
        "openspiel": OpenSpielBot,
    }


def make_bot(name: str, *, seed: int) -> Bot:
    """The bot called ``name`` (one of :data:`BOT_NAMES`, any case), seeded with ``seed``."""
    factory = _factories().get(name.strip().lower())
    if factory is None:
        raise UnknownBotError(f"no bot is called {name!r}; the bots are {', '.join(BOT_NAMES)}")
    return factory(seed)
