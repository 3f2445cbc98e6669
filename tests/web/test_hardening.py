"""What a hostile client or a wrong setting meets, over HTTP against a real server.

Made-up seat tokens, huge or malformed bodies, strange hosts, a broken
database, bad settings at start-up, and what the server promises in return:
a clear refusal in the one JSON error shape, compression, and static files
that are cached for long yet never served stale.
"""

from __future__ import annotations

import contextlib
import gzip
import http.client
import json
import os
import re
import secrets
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ginrummy.settings import NUMBER_RANGES
from ginrummy.web.middleware import static_version
from ginrummy.web.security import SEAT_COOKIE, seat_id

from ._support import JUNK, MELDED, ROOT, Server, deck
from .test_trust_support import new_match, stored

STATIC = ROOT / "ginrummy" / "web" / "static"


def _error(r: httpx.Response, status: int, code: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert message
    return message


@pytest.fixture
def strict_seats(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server giving each client address 5 new seats an hour (the test's players share one)."""
    monkeypatch.setenv("GINRUMMY_SEATS_PER_ADDRESS", "5/3600")
    srv = Server(db_url).start()
    yield srv
    srv.stop()


def _sql(db: str, statement: str, params: tuple[Any, ...]) -> None:
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as pg:
            pg.execute(statement.replace("?", "%s"), params)
    else:
        lite = sqlite3.connect(db)
        try:
            with lite:
                lite.execute(statement, params)
        finally:
            lite.close()


# --- 16: seats ----------------------------------------------------------------


def test_made_up_seat_tokens_are_no_seats_and_new_seats_run_out_per_address(
    strict_seats: Server,
) -> None:
    srv = strict_seats
    player = srv.client
    m = srv.new_match([deck(MELDED, JUNK, "QD")])  # the real player holds seat 1 of 5
    token = player.cookies[SEAT_COOKIE]
    forged = [
        "A" * 43,  # the old unsigned shape, no match behind it
        token.split(".")[0] + "." + "B" * 22,  # a real random part, a made-up signature
        *(os.urandom(8).hex().ljust(43, "x") for _ in range(8)),
    ]
    answers = []
    for fake in forged:
        client = httpx.Client(timeout=30, cookies={SEAT_COOKIE: fake})
        r = client.post(srv.url + "/api/commitments")
        answers.append(r.status_code)
        if r.status_code == 201:
            # Not taken as a seat: the server hands out a seat of its own.
            assert r.cookies[SEAT_COOKIE] != fake
        # A made-up token never reads the player's hand in play.
        if r.status_code != 429:
            _error(client.get(f"{srv.url}/api/matches/{m['id']}"), 403, "not_your_seat")
    assert answers[:4] == [201] * 4, answers  # the address's other 4 new seats
    assert set(answers[4:]) == {429}, answers
    r = httpx.Client(timeout=30, cookies={SEAT_COOKIE: forged[0]}).post(
        srv.url + "/api/commitments"
    )
    assert "new players" in _error(r, 429, "rate_limited")
    assert int(r.headers["retry-after"]) >= 1
    # The real player, from the same address, plays on untouched.
    r = player.post(
        f"{srv.url}/api/matches/{m['id']}/actions", json={"version": m["version"], "action": "take"}
    )
    assert r.status_code == 200, r.text
    assert player.post(srv.url + "/api/commitments").status_code == 201
    # What is the same for everybody needs no seat: asking for it is no new player.
    for _ in range(10):
        for path in ("/api/settings", "/api/health", "/api/learn/worked-hand"):
            r = httpx.get(srv.url + path)
            assert r.status_code == 200 and "set-cookie" not in r.headers, path
    # Anything else without a seat is a new player, and this address has had its five.
    _error(httpx.get(srv.url + "/api/matches"), 429, "rate_limited")


def test_a_seat_from_before_signed_tokens_keeps_its_match(server: Server) -> None:
    old_token = secrets.token_urlsafe(32)  # the shape seats had before tokens were signed
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    _sql(
        server.db,
        "UPDATE ginrummy_matches SET owner = ? WHERE id = ?",
        (seat_id(old_token), m["id"]),
    )
    _sql(
        server.db,
        "UPDATE ginrummy_seats SET holder = ? WHERE match_id = ? AND kind = 'person'",
        (seat_id(old_token), m["id"]),
    )
    old = httpx.Client(timeout=30, cookies={SEAT_COOKIE: old_token})
    r = old.get(f"{server.url}/api/matches/{m['id']}")
    assert r.status_code == 200 and "set-cookie" not in r.headers, r.text
    assert [s["id"] for s in old.get(server.url + "/api/matches").json()] == [m["id"]]


# --- 17: body size ---------------------------------------------------------------


def _raw(url: str, request: bytes, then: bytes = b"") -> tuple[int, bytes, float]:
    """Send ``request`` (and ``then``) on a socket; the status, body and seconds to answer."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        start = time.monotonic()
        sock.sendall(request)
        if then:
            # The server may close before reading it all: that is the point.
            with contextlib.suppress(OSError):
                sock.sendall(then)
        data = b""
        while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        took = time.monotonic() - start
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body, took


def _length(data: bytes) -> int:
    found = re.search(rb"content-length: *(\d+)", data.split(b"\r\n\r\n", 1)[0], re.I)
    return int(found.group(1)) if found else 0


def test_a_body_over_the_limit_is_refused_before_it_is_read(server: Server) -> None:
    path = "/api/matches"
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    # Ten gigabytes announced, nothing sent: the answer comes at once.
    status, body, took = _raw(server.url, (head + "Content-Length: 10000000000\r\n\r\n").encode())
    assert status == 413 and took < 2, (status, took)
    error = json.loads(body)["error"]
    assert error["code"] == "body_too_large" and "65536 bytes" in error["message"]
    # A chunked body with no length is cut off as soon as it passes the limit.
    chunk = b"%x\r\n%s\r\n" % (8192, b" " * 8192)
    status, body, _ = _raw(
        server.url, (head + "Transfer-Encoding: chunked\r\n\r\n").encode(), chunk * 12
    )
    assert status == 413 and json.loads(body)["error"]["code"] == "body_too_large"
    # Under the limit, a body is read as usual.
    r = httpx.post(server.url + path, json={"client_seed": "x" * 200})
    _error(r, 422, "bad_request")
    assert "client_seed" in r.json()["error"]["message"]


# --- 20: settings at start-up ------------------------------------------------------


def _serve(tmp: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("GINRUMMY_")}
    environ |= {"PYTHONPATH": str(ROOT), **env}
    return subprocess.run(
        [sys.executable, "-m", "ginrummy.cli", "serve", "--db", str(tmp / "x.sqlite3"), *args],
        cwd=tmp,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("args", "env", "named"),
    [
        ((), {"GINRUMMY_RATE_LIMIT": "fast"}, "GINRUMMY_RATE_LIMIT"),
        ((), {"GINRUMMY_RATE_LIMIT": "0/10"}, "GINRUMMY_RATE_LIMIT"),
        ((), {"GINRUMMY_SEATS_PER_ADDRESS": "many"}, "GINRUMMY_SEATS_PER_ADDRESS"),
        ((), {"GINRUMMY_THREADS": "lots"}, "GINRUMMY_THREADS"),
        ((), {"GINRUMMY_MAX_BODY": "12"}, "GINRUMMY_MAX_BODY"),
        ((), {"GINRUMMY_KEEP_ALIVE": "0"}, "GINRUMMY_KEEP_ALIVE"),
        (("--port", "70000"), {}, "--port"),
        (("--port", "eighty"), {}, "--port"),
        (("--db", "postgresq://gin:hunter2@db.internal/gin"), {}, "--db"),
    ],
)
def test_a_bad_setting_stops_the_server_before_it_starts(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str], named: str
) -> None:
    done = _serve(tmp_path, *args, **env)
    assert done.returncode != 0
    assert named in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "Gin Rummy at" not in done.stderr, done.stderr
    assert "hunter2" not in done.stderr
    # A mistyped scheme is no file path: nothing was created for it.
    assert sorted(p.name for p in tmp_path.iterdir()) == [], list(tmp_path.iterdir())


def test_a_taken_port_is_said_before_anything_is_promised(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done = _serve(tmp_path, "--port", str(taken.getsockname()[1]))
    assert done.returncode != 0
    assert "cannot listen" in done.stderr and "Gin Rummy at" not in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


# --- 21: the error contract ------------------------------------------------------------


def test_malformed_bodies_get_a_422_saying_what_was_wrong(server: Server) -> None:
    m = server.new_match([deck(MELDED, JUNK, "QD")])
    url = f"{server.url}/api/matches/{m['id']}/actions"
    v = m["version"]
    json_type = {"content-type": "application/json"}
    cases: list[tuple[bytes, str]] = [
        (b'{"version": 1, "action": "take", "card": "\xff"}', "not UTF-8"),
        (b"[" * 5000 + b"]" * 5000, "deep"),
        (b'{"version": 1, "action": "take", "x": ' + b"[" * 17 + b"1" + b"]" * 17 + b"}", "deep"),
        (b'{"version": %d, "action": "take", "action": "pass"}' % v, "'action' appears twice"),
        (b'{"version": "%d", "action": "take"}' % v, "version"),
        (b'{"version": true, "action": "take"}', "version"),
        (b'{"version": %d.0, "action": "take"}' % v, "version"),
        (b'{"action": "take"}', "version: Field required"),
        (b"", "object"),
        (b"[]", "object"),
    ]
    for body, says in cases:
        r = server.client.post(url, content=body, headers=json_type)
        assert says in _error(r, 422, "bad_request"), (body[:60], r.text)
    for card in ("qd", "Q♦", "10D", " QD"):
        throw = {"version": v, "action": "discard", "card": card}
        r = server.client.post(url, json=throw)
        assert "in capitals" in _error(r, 422, "bad_card")
    assert stored(server.db, m["id"])[0] == v  # nothing was applied
    # Settings are strict too: a number in quotes is no number.
    r = server.client.post(server.url + "/api/matches", json={"settings": {"match_to": "100"}})
    assert "match_to" in _error(r, 422, "bad_request")


def test_methods_get_allow_and_head_works(server: Server) -> None:
    r = httpx.post(server.url + "/")
    _error(r, 405, "method_not_allowed")
    assert r.headers["allow"] == "GET, HEAD"
    r = httpx.delete(server.url + "/api/commitments")
    assert _error(r, 405, "method_not_allowed") and r.headers["allow"] == "POST"
    for page in ("/", "/rules", "/static/style.css", "/api/health"):
        get, head = httpx.get(server.url + page), httpx.head(server.url + page)
        assert head.status_code == get.status_code == 200, page
        assert head.content == b"" and head.headers["content-type"] == get.headers["content-type"]


def test_the_openapi_schema_is_as_strict_as_the_server(server: Server) -> None:
    schema = httpx.get(server.url + "/api/openapi.json").json()
    parts = schema["components"]["schemas"]
    for name, (low, high) in NUMBER_RANGES.items():
        prop = parts["SettingsIn"]["properties"][name]
        assert (prop["minimum"], prop["maximum"]) == (low, high), name
    action = parts["ActionIn"]
    rules = {json.dumps(rule["if"]): rule["then"] for rule in action["allOf"]}
    assert rules[json.dumps({"properties": {"action": {"not": {"const": "knock"}}}})] == {
        "properties": {"melds": {"type": "null"}}
    }
    card = action["properties"]["card"]["anyOf"][0]
    assert re.fullmatch(card["pattern"].strip("^$"), "QD") and not re.fullmatch(
        card["pattern"].strip("^$"), "qd"
    )
    # What the server answers to a bad body is what the schema says it answers.
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            answers = operation["responses"]
            assert {"429", "503", "400"} <= set(answers), (path, method)
            if method == "post":
                for status in ("413", "422"):
                    ref = answers[status]["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorOut"), (path, status)


# --- 22: the API documentation page --------------------------------------------------


def test_the_api_docs_come_from_this_server_with_no_inline_script(server: Server) -> None:
    page = httpx.get(server.url + "/api/docs")
    assert page.status_code == 200
    assert "unsafe-inline" not in page.headers["content-security-policy"]
    html = page.text
    assert "://" not in html  # no other server named
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert scripts and all('src="/' in attrs and not body.strip() for attrs, body in scripts)
    for link in re.findall(r'(?:src|href)="(/[^"]+)"', html):
        r = httpx.get(server.url + link)
        assert r.status_code == 200 and len(r.content) > 100, link


@pytest.mark.browser
def test_the_api_docs_render_under_the_apps_own_policy(browser: Any, server: Server) -> None:
    context = browser.new_context()
    page = context.new_page()
    problems: list[str] = []
    elsewhere: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on(
        "request",
        lambda r: elsewhere.append(r.url) if not r.url.startswith(server.url) else None,
    )
    page.goto(server.url + "/api/docs")
    page.wait_for_selector(".opblock", timeout=20000)
    operations = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/matches/{match_id}/actions" in t for t in operations), operations
    assert problems == [] and elsewhere == [], (problems, elsewhere)
    context.close()


# --- 23: database errors and hosts ----------------------------------------------------


@pytest.fixture
def own_sqlite(tmp_path: Path) -> Iterator[Server]:
    """A server on an SQLite file of its own (the test breaks it)."""
    srv = Server(str(tmp_path / "broken.sqlite3")).start()
    yield srv
    srv.stop()


def test_a_database_error_is_logged_and_answered_with_a_plain_503(own_sqlite: Server) -> None:
    srv = own_sqlite
    m = srv.new_match([deck(MELDED, JUNK, "QD")])
    _sql(srv.db, "ALTER TABLE ginrummy_matches RENAME TO gone", ())
    for r in (
        srv.client.get(srv.url + "/api/matches"),
        srv.client.get(f"{srv.url}/api/matches/{m['id']}"),
    ):
        message = _error(r, 503, "unavailable")
        assert "try again" in message
        assert "ginrummy_matches" not in r.text and "sqlite" not in r.text.lower()
        assert srv.db not in r.text and int(r.headers["retry-after"]) >= 1
    assert srv.log is not None
    assert "no such table: ginrummy_matches" in srv.log.read_text()


def test_an_unknown_host_is_refused(server: Server) -> None:
    r = httpx.get(server.url + "/", headers={"Host": "evil.example"})
    assert "GINRUMMY_ALLOWED_HOSTS" in _error(r, 400, "bad_host")
    r = httpx.get(server.url + "/api/health", headers={"Host": "localhost:8000"})
    assert r.status_code == 200


def test_allowed_hosts_are_configurable(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GINRUMMY_ALLOWED_HOSTS", "127.0.0.1, *.example.org")
    srv = Server(db_url).start()
    try:
        assert httpx.get(srv.url + "/", headers={"Host": "gin.example.org"}).status_code == 200
        _error(httpx.get(srv.url + "/", headers={"Host": "localhost"}), 400, "bad_host")
    finally:
        srv.stop()


def test_an_idle_connection_stays_open_as_long_as_set(tmp_path: Path) -> None:
    """A client (or a proxy) may come back on its connection after a pause: the server
    keeps it GINRUMMY_KEEP_ALIVE seconds, longer than uvicorn's own 5, then closes it."""
    srv = Server(str(tmp_path / "keep.sqlite3")).start(settings={"GINRUMMY_KEEP_ALIVE": "7"})
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
    try:
        conn.request("GET", "/api/health")
        assert conn.getresponse().read() and conn.sock is not None
        kept = conn.sock
        time.sleep(6)  # past uvicorn's default and past httpx's own idle timeout
        conn.request("GET", "/api/health")
        second = conn.getresponse()
        # The whole answer is read: what the socket gives next is the server's close.
        assert second.status == 200 and second.read()
        answered = time.monotonic()
        assert conn.sock is kept, "the second request went down the same connection"
        assert kept.recv(1) == b"", "an idle connection is closed once its time is up"
        idle = time.monotonic() - answered
        assert 6.5 <= idle <= 20, idle
    finally:
        conn.close()
        srv.stop()


# --- 24: compression and caching -------------------------------------------------------


def test_pages_scripts_and_json_are_gzipped(server: Server) -> None:
    for path in ("/", "/static/app.js", "/static/style.css", "/api/settings", "/rules"):
        r = httpx.get(server.url + path, headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip", path
        plain = httpx.get(server.url + path, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert r.content == plain.content  # httpx undoes the gzip
        raw = httpx.Client().send(
            httpx.Request("GET", server.url + path, headers={"Accept-Encoding": "gzip"}),
            stream=True,
        )
        zipped = b"".join(raw.iter_raw())
        assert gzip.decompress(zipped) == plain.content
        assert len(zipped) * 2 < len(plain.content), (path, len(zipped), len(plain.content))


def test_static_files_are_versioned_and_cached_for_a_year(server: Server) -> None:
    version = static_version(STATIC)
    for page in ("/", "/history", "/rules", "/worked-hand", "/strategy", "/api/docs"):
        html = httpx.get(server.url + page).text
        links = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
        assert links, page
        for link in links:
            assert link.startswith(f"/static/{version}/"), (page, link)
            r = httpx.get(server.url + link)
            assert r.status_code == 200, link
            assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert r.content == (STATIC / link.split("/", 3)[3]).read_bytes()
    # The page itself is checked every time; a version not current is not served.
    assert httpx.get(server.url + "/").headers["cache-control"] == "no-cache"
    assert httpx.get(server.url + "/static/0123456789ab/app.js").status_code == 404


def test_the_version_changes_with_any_static_file(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "a.js").write_text("export const a = 1;\n")
    (tmp_path / "index.html").write_text("<script type=module src=/static/js/a.js></script>")
    first = static_version(tmp_path)
    assert static_version(tmp_path) == first
    (tmp_path / "js" / "a.js").write_text("export const a = 2;\n")
    second = static_version(tmp_path)
    (tmp_path / "js" / "b.js").write_text("")
    assert len({first, second, static_version(tmp_path)}) == 3


@pytest.mark.browser
def test_the_page_loads_every_file_from_its_versioned_folder(browser: Any, server: Server) -> None:
    version = static_version(STATIC)
    context = browser.new_context()
    page = context.new_page()
    loaded: list[tuple[str, int]] = []
    page.on("response", lambda r: loaded.append((r.url, r.status)))
    page.goto(server.url + "/")
    page.wait_for_load_state("networkidle")
    static = [(u, s) for u, s in loaded if "/static/" in u]
    assert static and all(s < 400 for _, s in loaded), loaded
    # Scripts and modules they import (relative paths) all come from the versioned folder.
    scripts = [u for u, _ in static if u.endswith(".js")]
    assert scripts and all(f"/static/{version}/" in u for u in scripts), scripts
    context.close()


def test_a_new_player_still_gets_a_seat_and_plays(server: Server) -> None:
    client = httpx.Client(timeout=30)
    m = new_match(client, server.url)
    token = client.cookies[SEAT_COOKIE]
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{22}", token)
    assert client.get(f"{server.url}/api/matches/{m['id']}").status_code == 200
