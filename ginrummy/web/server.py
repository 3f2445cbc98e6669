"""``ginrummy serve``: run the web app on uvicorn, in one process or several.

    ginrummy serve [--host 127.0.0.1] [--port 8000] [--db URL] [--workers N]

Every setting is checked before anything starts (:mod:`ginrummy.web.config`):
a bad one, a database that cannot be opened or a port already taken stops the
command with a message and a non-zero exit status, and "Gin Rummy at ..." is
printed only once the port is held. The database is an SQLite file
(``data/ginrummy.sqlite3`` under the working directory) unless ``--db`` or
``GINRUMMY_DB`` names another file or a ``postgresql://`` URL.
``GINRUMMY_TEST_DECKS=SEED`` turns on test mode (deck orders fixed by the seed
or by the request); it is off unless set, and never meant for real play. The
other settings are listed in docs/WEB.md.

``--workers N`` (``GINRUMMY_WORKERS``) serves from N processes sharing the
port (uvicorn's supervisor, which starts a new process when one dies). Any
process may answer any request: a match lives in the database, each move is
a compare-and-set on its version, and the rate limits are buckets in the
database too (:mod:`ginrummy.web.limits`). That needs PostgreSQL: SQLite is
one process's database, and more than one worker on it is refused at
start-up. On SIGTERM or SIGINT each process stops taking connections and
gives the requests in flight ``GINRUMMY_SHUTDOWN_TIMEOUT`` seconds to end. An
idle connection stays open ``GINRUMMY_KEEP_ALIVE`` seconds, longer than a
proxy keeps its own, so it never reuses one the process is just closing.
Several machines behind a reverse proxy: docs/DEPLOY.md.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI

from ginrummy.web.config import ConfigError, ServerConfig, load_config
from ginrummy.web.game import DeckSource
from ginrummy.web.storage import DEFAULT_DB, MatchStore, StorageError

__all__ = ["app_from_env", "main"]

APP_FACTORY = "ginrummy.web.server:app_from_env"
"""What each worker process imports to build its app (from the ``GINRUMMY_*`` variables)."""


def app_from_env() -> FastAPI:
    """The app as configured by the ``GINRUMMY_*`` variables (refused if one is bad).

    This is the factory uvicorn calls (``uvicorn --factory
    ginrummy.web.server:app_from_env``), and each worker of ``--workers``.
    """
    config = load_config()
    return _app(config, MatchStore.open(config.db, pool_size=config.pool_size))


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


def _uvicorn_options(config: ServerConfig) -> dict[str, Any]:
    """What every process's uvicorn is told, whether it serves alone or as a worker.

    uvicorn picks its C parser and loop (``httptools``, ``uvloop``: installed with
    the ``web`` extra, about a tenth less CPU a request, docs/LOAD.md) when they are
    there, and its pure-Python ones where they are not (``uvloop`` on Windows).
    """
    return {
        "log_level": "warning",
        "proxy_headers": True,
        "forwarded_allow_ips": list(config.forwarded_allow_ips),
        "timeout_graceful_shutdown": config.shutdown_timeout,
        "timeout_keep_alive": config.keep_alive,
    }


def _pass_to_workers(config: ServerConfig) -> None:
    """Put the settings the flags gave into the environment each worker reads."""
    os.environ["GINRUMMY_DB"] = config.db
    os.environ["GINRUMMY_HOST"] = config.host
    os.environ["GINRUMMY_PORT"] = str(config.port)
    os.environ["GINRUMMY_ALLOWED_HOSTS"] = ",".join(config.allowed_hosts)
    os.environ["GINRUMMY_WORKERS"] = str(config.workers)


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
    parser.add_argument(
        "--workers",
        help="server processes ($GINRUMMY_WORKERS, else 1); more than 1 needs PostgreSQL",
    )
    args = parser.parse_args(list(argv))
    try:
        config = _allowed_hosts(
            load_config(host=args.host, port=args.port, db=args.db, workers=args.workers)
        )
    except ConfigError as e:
        return _fail(f"a setting is wrong, nothing was started:\n{e}")
    if config.workers > 1 and not config.is_postgres:
        return _fail(
            f"--workers {config.workers} needs PostgreSQL (--db postgresql://...): an SQLite "
            "database is served by one process, which keeps the rate limits in its memory; "
            "use --workers 1 with SQLite"
        )
    try:
        # The schema is brought up to date here, once, before any worker starts.
        store = MatchStore.open(config.db, pool_size=config.pool_size)
    except (StorageError, OSError) as e:
        return _fail(str(e))
    except Exception as e:  # the database driver's own errors
        return _fail(f"cannot open the database: {e}")
    try:
        sock = _listen(config.host, config.port)
    except OSError as e:
        store.close()
        return _fail(f"cannot listen on {config.host} port {config.port}: {e.strerror or e}")
    import uvicorn

    if config.test_decks is not None:
        seed = config.test_decks
        print(f"ginrummy serve: TEST MODE, deck orders fixed by seed {seed!r}", file=sys.stderr)
    shown = f"[{config.host}]" if ":" in config.host else config.host
    processes = f", {config.workers} processes" if config.workers > 1 else ""
    if config.workers > 1:
        store.close()  # each worker opens its own pool
        _pass_to_workers(config)
        from uvicorn.supervisors import Multiprocess

        options = uvicorn.Config(
            APP_FACTORY, factory=True, workers=config.workers, **_uvicorn_options(config)
        )
        _announce(config, shown, store.describe(), processes)
        Multiprocess(options, sockets=[sock]).run()
        return 0
    app = _app(config, store)
    _announce(config, shown, store.describe(), processes)
    server = uvicorn.Server(uvicorn.Config(app, **_uvicorn_options(config)))
    try:
        server.run(sockets=[sock])
    finally:
        store.close()
    return 0


def _announce(config: ServerConfig, shown: str, where: str, processes: str) -> None:
    print(
        f"Gin Rummy at http://{shown}:{config.port}/ (matches kept in {where}{processes})",
        file=sys.stderr,
    )
    if config.host in ("0.0.0.0", "::"):
        hosts = ", ".join(config.allowed_hosts)
        print(f"ginrummy serve: answering to {hosts} (GINRUMMY_ALLOWED_HOSTS)", file=sys.stderr)
