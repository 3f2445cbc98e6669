"""Helpers for the friend-match tests (no tests here): players, live streams, the truth.

A :class:`Player` is one browser: its own cookie jar, so its own seat token. A
:class:`Stream` reads a seat's Server-Sent Events in a thread, keeping every
message as it came.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from ginrummy.records import match_from_dict
from ginrummy.web.storage import MatchStore


@dataclass
class Player:
    """One person with a browser: a client of the server with its own seat cookie."""

    url: str
    client: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=30))

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.client.get(self.url + path, **kw)

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.client.post(self.url + path, json=body if body is not None else {})

    def delete(self, path: str) -> httpx.Response:
        return self.client.delete(self.url + path)

    def stream(self, match_id: str, last: int | None = None) -> Stream:
        return Stream(self.url + f"/api/matches/{match_id}/stream", self.client.cookies, last)


def friend_match(host: Player, name: str = "Ann", **extra: Any) -> dict[str, Any]:
    """A new friend match ``host`` starts: seat 0 theirs, seat 1 open for the invite."""
    body = {"seats": [{"kind": "person", "name": name}, {"kind": "friend"}], **extra}
    r = host.post("/api/matches", body)
    assert r.status_code == 201, r.text
    m: dict[str, Any] = r.json()
    return m


@dataclass
class Message:
    """One Server-Sent Event."""

    event: str
    id: str | None
    data: str

    def json(self) -> Any:
        return json.loads(self.data)


class Stream:
    """A seat's live stream, read in a thread from the moment it is made."""

    def __init__(self, url: str, cookies: httpx.Cookies, last: int | None = None) -> None:
        self.messages: list[Message] = []
        self.status: int | None = None
        self.body = b""
        self._client = httpx.Client(cookies=cookies, timeout=httpx.Timeout(30, read=120))
        self._headers = {"Accept": "text/event-stream"}
        if last is not None:
            self._headers["Last-Event-ID"] = str(last)
        self._url = url
        self._socket: socket.socket | None = None
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._started.wait(30), "the stream did not answer"

    def _run(self) -> None:
        try:
            with self._client.stream("GET", self._url, headers=self._headers) as r:
                self._socket = r.extensions["network_stream"].get_extra_info("socket")
                self.status = r.status_code
                if r.status_code != 200:
                    self.body = r.read()
                    self._started.set()
                    return
                self._started.set()
                fields: dict[str, str] = {}
                for line in r.iter_lines():
                    if line == "":
                        if "data" in fields:
                            self.messages.append(
                                Message(
                                    fields.get("event", "message"), fields.get("id"), fields["data"]
                                )
                            )
                        fields = {}
                    elif not line.startswith(":"):
                        key, _, value = line.partition(":")
                        value = value.removeprefix(" ")
                        fields[key] = fields[key] + "\n" + value if key in fields else value
        except (httpx.HTTPError, RuntimeError):
            pass  # closed by the test, or the server went away
        finally:
            self._started.set()

    def matches(self) -> list[dict[str, Any]]:
        """The ``match`` events so far, parsed."""
        return [m.json() for m in list(self.messages) if m.event == "match"]

    def presences(self) -> list[dict[str, Any]]:
        """The ``presence`` events so far, parsed."""
        return [m.json() for m in list(self.messages) if m.event == "presence"]

    def wait_for(self, check: Callable[[Stream], bool], timeout: float = 15.0) -> None:
        """Wait until ``check`` holds of the stream (fail after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check(self):
                return
            time.sleep(0.02)
        raise AssertionError(f"the stream did not get there: {self.messages[-5:]}")

    def wait_version(self, version: int, timeout: float = 15.0) -> dict[str, Any]:
        """The ``match`` event of ``version`` (waiting for it)."""
        self.wait_for(lambda s: any(m["version"] >= version for m in s.matches()), timeout)
        return next(m for m in self.matches() if m["version"] >= version)

    def close(self) -> None:
        """Drop the connection at once, as a closed tab or a lost network does."""
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.shutdown(socket.SHUT_RDWR)
        self._thread.join(10)
        self._client.close()


_STORES: dict[str, MatchStore] = {}


def store_of(db: str) -> MatchStore:
    """One store per database for the tests' reads (a PostgreSQL pool each)."""
    if db not in _STORES:
        _STORES[db] = MatchStore.open(db)
    return _STORES[db]


def hidden_from(db: str, match_id: str, seat: int) -> tuple[int, set[str]]:
    """The stored version and what ``seat`` may not know at it: the other seat's concealed
    cards and the stock (nothing once the hand is over)."""
    row = store_of(db).get(match_id)
    assert row is not None
    match = match_from_dict(row.record)
    hand = match.hand
    if hand.is_over:
        return row.version, set()
    face_up = set(match.view(seat).opponent_pile_cards)
    concealed = {str(c) for c in hand.cards_of(1 - seat) if c not in face_up}
    stock = {str(c) for c in hand.deck[52 - hand.stock_count :]}
    return row.version, concealed | stock
