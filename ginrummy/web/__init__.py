"""The web app: play Gin Rummy against the computer in a browser.

``ginrummy serve`` runs it (:mod:`ginrummy.web.server`); :func:`create_app`
builds the ASGI app over a :class:`MatchStore`. The server is the referee:
the page gets only its player's view and the legal actions.
"""

from ginrummy.web.storage import MatchStore

__all__ = ["MatchStore"]
