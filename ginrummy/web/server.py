"""``ginrummy serve``: run the web app on uvicorn.

    ginrummy serve [--host 127.0.0.1] [--port 8000] [--db URL]

The database is an SQLite file (``data/ginrummy.sqlite3`` under the working
directory) unless ``--db`` or the ``GINRUMMY_DB`` environment variable names
another file or a ``postgresql://`` URL. ``GINRUMMY_TEST_DECKS=SEED`` turns on
test mode (deck orders fixed by the seed or by the request); it is off unless
set, and never meant for real play. ``GINRUMMY_THREADS`` sets how many
requests a process works on at once (default :data:`ginrummy.web.app.THREADS`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from fastapi import FastAPI

from ginrummy.web.game import DeckSource
from ginrummy.web.storage import DEFAULT_DB, MatchStore, StorageError

__all__ = ["app_from_env", "main"]


def app_from_env() -> FastAPI:
    """The app as configured by ``GINRUMMY_DB``, ``GINRUMMY_TEST_DECKS`` and ``GINRUMMY_THREADS``.

    This is the factory uvicorn calls (``uvicorn --factory
    ginrummy.web.server:app_from_env``); :func:`main` sets the variables.
    """
    from ginrummy.web.app import create_app

    store = MatchStore.open(os.environ.get("GINRUMMY_DB") or DEFAULT_DB)
    seed = os.environ.get("GINRUMMY_TEST_DECKS") or None
    return create_app(store, DeckSource(test_seed=seed), threads=_threads())


def _threads() -> int:
    from ginrummy.web.app import THREADS

    text = os.environ.get("GINRUMMY_THREADS") or ""
    return int(text) if text.isdigit() and int(text) > 0 else THREADS


def main(argv: Sequence[str]) -> int:
    """Parse the options and serve until interrupted."""
    parser = argparse.ArgumentParser(
        prog="ginrummy serve", description="Play Gin Rummy against the computer in a browser."
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    parser.add_argument(
        "--db",
        default=os.environ.get("GINRUMMY_DB") or DEFAULT_DB,
        help=f"an SQLite file or a postgresql:// URL (default: $GINRUMMY_DB or {DEFAULT_DB})",
    )
    args = parser.parse_args(list(argv))
    try:
        store = MatchStore.open(args.db)
    except (StorageError, OSError) as e:
        print(f"ginrummy serve: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # the database driver's own errors
        print(f"ginrummy serve: cannot open the database {args.db!r}: {e}", file=sys.stderr)
        return 1
    import uvicorn

    from ginrummy.web.app import create_app

    seed = os.environ.get("GINRUMMY_TEST_DECKS") or None
    if seed is not None:
        print(f"ginrummy serve: TEST MODE, deck orders fixed by seed {seed!r}", file=sys.stderr)
    app = create_app(store, DeckSource(test_seed=seed), threads=_threads())
    print(
        f"Gin Rummy at http://{args.host}:{args.port}/ (matches kept in {store.describe()})",
        file=sys.stderr,
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
