"""The bot interface: a bot sees one player's view and returns one legal action.

A bot is handed a :class:`~ginrummy.hand.PlayerView` and nothing else, so it
cannot reach the other hand or the stock order: the view does not hold them.
Bots decide from the view alone (its event log is the whole public history of
the hand) and a seed, so the same view and seed always give the same action.
"""

from __future__ import annotations

from typing import Protocol

from ginrummy.hand import Action, PlayerView

__all__ = ["Bot"]


class Bot(Protocol):
    """Something that plays Gin Rummy from a player's view."""

    name: str

    def choose(self, view: PlayerView) -> Action:
        """One of ``view.legal_actions``."""
        ...
