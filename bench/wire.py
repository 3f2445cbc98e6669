"""A small HTTP/1.1 client for the load benchmark: one kept-alive connection, cookies.

The simulated players share the machine with the server they measure, so they
must cost it little: ``httpx`` spent about 10 ms of CPU a move on its players
(its connection pool, header models and cookie jar), more than the server itself.
This client does only what the benchmark needs, on asyncio's streams: requests
with a JSON body on one kept-alive connection (opened again when it breaks or is
closed), the cookies the server sets, gzip answers (``Accept-Encoding: gzip``, as a
browser sends), ``Content-Length`` and chunked bodies, and a streamed response read
line by line for Server-Sent Events.

A broken or timed-out connection raises :class:`TransportError` (the benchmark
sends the request again, with the same action id).
"""

from __future__ import annotations

import asyncio
import json as jsonlib
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

__all__ = ["Client", "HTTPError", "Response", "StreamResponse", "TransportError"]


class HTTPError(Exception):
    """A request that got no answer."""


class TransportError(HTTPError):
    """The connection broke, was refused or timed out: the request may be sent again."""


class Response:
    """An answer: its status, headers (names in lower case; not ``Set-Cookie``) and body."""

    def __init__(
        self, status_code: int, content: bytes, headers: dict[str, str] | None = None
    ) -> None:
        self.status_code = status_code
        self.content = content
        self.headers = headers or {}

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return jsonlib.loads(self.content)


class StreamResponse:
    """A streamed answer, read line by line."""

    def __init__(self, status_code: int, lines: AsyncIterator[str]) -> None:
        self.status_code = status_code
        self._lines = lines

    def aiter_lines(self) -> AsyncIterator[str]:
        return self._lines


_Conn = tuple[asyncio.StreamReader, asyncio.StreamWriter]


class Client:
    """One player's connection to ``base`` (``http://host:port``) and its cookies."""

    def __init__(self, base: str, timeout: float = 60.0) -> None:
        parts = urlsplit(base)
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 80
        self._host_header = f"{self._host}:{self._port}"
        self._timeout = timeout
        self._kept: _Conn | None = None
        self.cookies: dict[str, str] = {}

    async def _open(self) -> _Conn:
        try:
            return await asyncio.wait_for(
                asyncio.open_connection(self._host, self._port, limit=1 << 20), self._timeout
            )
        except (OSError, TimeoutError) as e:
            raise TransportError(f"connect: {e!r}") from None

    def _head(self, method: str, path: str, headers: dict[str, str], length: int | None) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self._host_header}"]
        lines.append("Accept-Encoding: gzip")
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if length is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {length}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def _read_head(self, reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
        head = await reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in header_lines:
            if not line:
                continue
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                pair = value.split(";", 1)[0]
                key, _, val = pair.partition("=")
                self.cookies[key.strip()] = val.strip()
            else:
                headers[name] = value
        return status, headers

    @staticmethod
    async def _chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                return
            chunk = await reader.readexactly(size + 2)
            yield chunk[:-2]

    async def _body(self, reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = b"".join([c async for c in self._chunks(reader)])
        else:
            body = await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("content-encoding") == "gzip":
            body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        return body

    async def request(self, method: str, url: str, json: dict[str, Any] | None = None) -> Response:
        """Send a request on the kept connection (opened if need be) and read its answer."""
        path = urlsplit(url)._replace(scheme="", netloc="").geturl() or "/"
        body = b"" if json is None else jsonlib.dumps(json).encode()
        conn, self._kept = self._kept, None
        if conn is not None and conn[0].at_eof():
            conn[1].close()  # the server closed it while it was idle (its keep-alive time)
            conn = None
        if conn is None:
            conn = await self._open()
        reader, writer = conn
        try:
            writer.write(self._head(method, path, {}, len(body) if json is not None else None))
            writer.write(body)

            async def answer() -> tuple[int, dict[str, str], bytes]:
                status, headers = await self._read_head(reader)
                return status, headers, await self._body(reader, headers)

            status, headers, content = await asyncio.wait_for(answer(), self._timeout)
        except (OSError, EOFError, TimeoutError, asyncio.IncompleteReadError, ValueError) as e:
            writer.close()
            raise TransportError(f"{method} {path}: {e!r}") from None
        if headers.get("connection", "").lower() == "close":
            writer.close()
        else:
            self._kept = conn
        return Response(status, content, headers)

    @asynccontextmanager
    async def stream(
        self, method: str, url: str, headers: dict[str, str]
    ) -> AsyncIterator[StreamResponse]:
        """A request on a connection of its own, its answer's body read line by line."""
        path = urlsplit(url)._replace(scheme="", netloc="").geturl() or "/"
        reader, writer = await self._open()
        try:
            try:
                writer.write(self._head(method, path, headers, None))
                status, head = await asyncio.wait_for(self._read_head(reader), self._timeout)
            except (OSError, EOFError, TimeoutError, asyncio.IncompleteReadError, ValueError) as e:
                raise TransportError(f"{method} {path}: {e!r}") from None
            chunked = head.get("transfer-encoding", "").lower() == "chunked"
            yield StreamResponse(status, self._stream_lines(reader, chunked))
        finally:
            writer.close()

    async def _stream_lines(
        self, reader: asyncio.StreamReader, chunked: bool
    ) -> AsyncIterator[str]:
        pending = b""
        try:
            if chunked:
                async for chunk in self._chunks(reader):
                    pending += chunk
                    *lines, pending = pending.split(b"\n")
                    for line in lines:
                        yield line.rstrip(b"\r").decode("utf-8")
            else:
                while line := await reader.readline():
                    yield line.rstrip(b"\r\n").decode("utf-8")
        except (OSError, EOFError, asyncio.IncompleteReadError, ValueError) as e:
            raise TransportError(f"stream: {e!r}") from None

    async def aclose(self) -> None:
        """Close the kept connection."""
        if self._kept is not None:
            self._kept[1].close()
            self._kept = None
