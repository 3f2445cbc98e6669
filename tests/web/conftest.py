"""Fixtures for the web tests: a real server per database, and a headless Chromium.

The server fixture runs over SQLite always and over PostgreSQL when
``GINRUMMY_TEST_PG`` holds a database URL, so every test that takes it runs
once per database. A developer without PostgreSQL or Chromium sees those
tests skipped; under the test command (``GINRUMMY_TEST_ALL=1``) a missing one
is a failure, so a broken install can never pass for a green run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from ._support import Server

BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
CHROMIUM = "/usr/bin/chromium"
REQUIRE_ALL = os.environ.get("GINRUMMY_TEST_ALL") == "1"


def _missing(reason: str) -> NoReturn:
    if REQUIRE_ALL:
        pytest.fail(f"{reason} (the test command runs every test)")
    pytest.skip(reason)


def _db_url(kind: str, tmp: Path) -> str:
    if kind == "sqlite":
        return str(tmp / "ginrummy.sqlite3")
    url = os.environ.get("GINRUMMY_TEST_PG")
    if not url:
        _missing("GINRUMMY_TEST_PG is not set: no PostgreSQL to test against")
    return url


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A database URL: an SQLite file, then the PostgreSQL test database."""
    return _db_url(str(request.param), tmp_path_factory.mktemp("db"))


@pytest.fixture(scope="session")
def server(db_url: str) -> Iterator[Server]:
    """A test-mode server over the database, shared by the tests of one database."""
    srv = Server(db_url).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright, started once for the whole run (its sync API holds an event loop in
    this thread: a second one started beside it would fail)."""
    if not Path(CHROMIUM).exists():
        _missing(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright."""
    b = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=BROWSER_ARGS)
    yield b
    b.close()


@pytest.fixture(scope="session")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A test-mode server over SQLite only.

    For browser suites about what the page looks like (layout, theme, axe, the
    learn pages): the page is the same over either database, and the storage is
    tested over both by the API and the play-through suites.
    """
    srv = Server(_db_url("sqlite", tmp_path_factory.mktemp("db"))).start()
    yield srv
    srv.stop()
