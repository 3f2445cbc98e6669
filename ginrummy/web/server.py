"""``ginrummy serve``: run the web app on uvicorn.

    ginrummy serve [--host 127.0.0.1] [--port 8000] [--db URL]

Every setting is checked before anything starts (:mod:`ginrummy.web.config`):
a bad one, a database that cannot be opened or a port already taken stops the
command with a message and a non-zero exit status, and "Gin Rummy at ..." is
printed only once the port is held. The database is an SQLite file
(``data/ginrummy.sqlite3`` under the working directory) unless ``--db`` or
``GINRUMMY_DB`` names another file or a ``postgresql://`` URL.
``GINRUMMY_TEST_DECKS=SEED`` turns on test mode (deck orders fixed by the seed
or by the request); it is off unless set, and never meant for real play. The
other settings are listed in docs/WEB.md.
"""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Sequence

from fastapi import FastAPI

from ginrummy.web.config import ConfigError, ServerConfig, load_config
from ginrummy.web.game import DeckSource
from ginrummy.web.storage import DEFAULT_DB, MatchStore, StorageError

__all__ = ["app_from_env", "main"]


def app_from_env() -> FastAPI:
    """The app as configured by the ``GINRUMMY_*`` variables (refused if one is bad).

    This is the factory uvicorn calls (``uvicorn --factory
    ginrummy.web.server:app_from_env``).
    """
    config = load_config()
    return _app(config, MatchStore.open(config.db))


def _app(config: ServerConfig, store: MatchStore) -> FastAPI:
    from ginrummy.web.app import create_app

    decks = DeckSource(test_seed=config.test_decks)
    return create_app(store, decks, threads=config.threads, config=config)


def _allowed_hosts(config: ServerConfig) -> ServerConfig:
    """The settings, with the address listened on among the allowed hosts if it is one."""
    host = config.host.lower()
    if host in ("0.0.0.0", "::", "") or host in config.allowed_hosts:
        return config
    name = f"[{host}]" if ":" in host else host
    return config.model_copy(update={"allowed_hosts": (*config.allowed_hosts, name)})


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening (``OSError`` if it cannot be)."""
    family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _fail(message: str) -> int:
    print(f"ginrummy serve: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str]) -> int:
    """Parse and check the options, hold the port, and serve until interrupted."""
    parser = argparse.ArgumentParser(
        prog="ginrummy serve", description="Play Gin Rummy against the computer in a browser."
    )
    parser.add_argument("--host", help="address to listen on ($GINRUMMY_HOST, else 127.0.0.1)")
    parser.add_argument("--port", help="port to listen on ($GINRUMMY_PORT, else 8000)")
    parser.add_argument(
        "--db",
        help=f"an SQLite file or a postgresql:// URL ($GINRUMMY_DB, else {DEFAULT_DB})",
    )
    args = parser.parse_args(list(argv))
    try:
        config = _allowed_hosts(load_config(host=args.host, port=args.port, db=args.db))
    except ConfigError as e:
        return _fail(f"a setting is wrong, nothing was started:\n{e}")
    try:
        store = MatchStore.open(config.db)
    except (StorageError, OSError) as e:
        return _fail(str(e))
    except Exception as e:  # the database driver's own errors
        return _fail(f"cannot open the database: {e}")
    try:
        sock = _listen(config.host, config.port)
    except OSError as e:
        return _fail(f"cannot listen on {config.host} port {config.port}: {e.strerror or e}")
    import uvicorn

    if config.test_decks is not None:
        seed = config.test_decks
        print(f"ginrummy serve: TEST MODE, deck orders fixed by seed {seed!r}", file=sys.stderr)
    app = _app(config, store)
    shown = f"[{config.host}]" if ":" in config.host else config.host
    print(
        f"Gin Rummy at http://{shown}:{config.port}/ (matches kept in {store.describe()})",
        file=sys.stderr,
    )
    if config.host in ("0.0.0.0", "::"):
        hosts = ", ".join(config.allowed_hosts)
        print(f"ginrummy serve: answering to {hosts} (GINRUMMY_ALLOWED_HOSTS)", file=sys.stderr)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[sock])
    return 0
