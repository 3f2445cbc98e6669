"""The server's settings, every one checked before the server starts.

Each setting comes from a ``GINRUMMY_*`` environment variable or from a
command-line flag of ``ginrummy serve`` (the flag wins). A bad value is
refused at start-up with a message naming the setting, never found later at
the first request. The settings and their defaults are listed in docs/WEB.md.

>>> ServerConfig(rate_limit="5/10").rate_limit
Rate(rate=5.0, burst=10)
>>> ServerConfig(db="postgresq://u:secret@db/ginrummy")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for ServerConfig
db
  Value error, unknown database scheme 'postgresq://': use postgresql://..., ...
>>> ServerConfig(allowed_hosts="example.org, *.example.org").allowed_hosts
('example.org', '*.example.org')
"""

from __future__ import annotations

import ipaddress
import math
import re
from typing import Annotated, Any, NamedTuple

from pydantic import BeforeValidator, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from ginrummy.web.storage import DEFAULT_DB

__all__ = [
    "DEFAULT_DB",
    "ConfigError",
    "Rate",
    "ServerConfig",
    "config_error_message",
    "load_config",
]

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_KNOWN_SCHEMES = ("postgresql", "postgres", "sqlite")


class ConfigError(ValueError):
    """A setting that cannot be used; the message names it and says what is wrong."""


class Rate(NamedTuple):
    """A token bucket's size: ``burst`` at once, then ``rate`` a second."""

    rate: float
    burst: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """Read ``RATE/BURST`` (requests a second, then how many at once), e.g. ``20/60``.

        >>> Rate.parse("0.5/3")
        Rate(rate=0.5, burst=3)
        """
        try:
            r, b = text.split("/", 1)
            rate, burst = float(r), int(b)
        except ValueError:
            raise ValueError(f"write RATE/BURST, e.g. 20/60, not {text!r}") from None
        if not (math.isfinite(rate) and rate > 0 and burst >= 1):
            raise ValueError(f"the rate must be above 0 and the burst at least 1, not {text!r}")
        return cls(rate, burst)

    @classmethod
    def per_window(cls, text: str) -> Rate:
        """Read ``COUNT/SECONDS`` (at most COUNT in any SECONDS), e.g. ``60/3600``.

        >>> Rate.per_window("60/3600")
        Rate(rate=0.016666666666666666, burst=60)
        """
        try:
            c, s = text.split("/", 1)
            count, seconds = int(c), float(s)
        except ValueError:
            raise ValueError(f"write COUNT/SECONDS, e.g. 60/3600, not {text!r}") from None
        if not (math.isfinite(seconds) and seconds > 0 and count >= 1):
            raise ValueError(f"the count must be at least 1 and the seconds above 0: {text!r}")
        return cls(count / seconds, count)


def _rate(value: Any) -> Any:
    return Rate.parse(value) if isinstance(value, str) else value


def _window(value: Any) -> Any:
    return Rate.per_window(value) if isinstance(value, str) else value


def _hosts(value: Any) -> Any:
    if isinstance(value, str):
        return tuple(h.strip().lower() for h in value.split(",") if h.strip())
    return value


class ServerConfig(BaseSettings):
    """Every setting of ``ginrummy serve``, from ``GINRUMMY_*`` variables or flags."""

    model_config = SettingsConfigDict(env_prefix="GINRUMMY_", extra="forbid", frozen=True)

    db: str = DEFAULT_DB
    """An SQLite file path, a ``sqlite:///path`` URL or a ``postgresql://`` URL."""
    host: str = Field(default="127.0.0.1", min_length=1)
    """The address to listen on."""
    port: int = Field(default=8000, ge=1, le=65535)
    """The TCP port to listen on."""
    threads: int = Field(default=4, ge=1, le=256)
    """Requests one process works on at once (see :data:`ginrummy.web.app.THREADS`)."""
    review_samples: int = Field(default=8, ge=2, le=64)
    """Sampled deals per decision in a hand's review (see docs/COACH.md)."""
    review_jobs: int = Field(default=2, ge=1, le=64)
    """Processes a review's play-outs run in (1: on the review's own thread)."""
    test_decks: str | None = None
    """Test mode: deck orders fixed by this seed (never for real play)."""
    rate_limit: Annotated[Rate, NoDecode, BeforeValidator(_rate)] = Rate(20.0, 60)
    """Requests a second per seat, and the burst (``RATE/BURST``)."""
    new_seat_limit: Annotated[Rate, NoDecode, BeforeValidator(_rate)] = Rate(50.0, 400)
    """Requests a second per client address for requests that bring no seat."""
    seats_per_address: Annotated[Rate, NoDecode, BeforeValidator(_window)] = Rate(60 / 3600, 60)
    """New seats one client address may be given (``COUNT/SECONDS``; default 60 an hour)."""
    max_body: int = Field(default=64 * 1024, ge=1024, le=16 * 1024 * 1024)
    """The largest request body accepted, in bytes; a larger one gets 413."""
    allowed_hosts: Annotated[tuple[str, ...], NoDecode, BeforeValidator(_hosts)] = (
        "localhost",
        "127.0.0.1",
        "[::1]",
    )
    """Host names the server answers to (``*.example.org`` for subdomains, ``*`` for any)."""
    workers: int = Field(default=1, ge=1, le=64)
    """Server processes (uvicorn workers); above 1 needs PostgreSQL."""
    pool_size: int = Field(default=8, ge=1, le=200)
    """PostgreSQL connections per process, at most."""
    forwarded_allow_ips: Annotated[tuple[str, ...], NoDecode, BeforeValidator(_hosts)] = (
        "127.0.0.1",
    )
    """Proxies trusted to say who the client is (``X-Forwarded-For``, ``-Proto``):
    addresses or networks, ``*`` for any."""
    shutdown_timeout: float = Field(default=10.0, ge=0.0, le=3600.0)
    """Seconds a stopping process gives the requests in flight (and open streams)."""
    keep_alive: int = Field(default=75, ge=1, le=3600)
    """Seconds an idle HTTP connection stays open for the client's next request.

    Longer than a reverse proxy keeps its idle connections to the process (nginx: 60 s),
    so the proxy is never the one to send a request down a connection the process is
    closing at that moment."""

    @field_validator("db")
    @classmethod
    def _known_scheme(cls, value: str) -> str:
        match = _SCHEME.match(value)
        if match and match.group(1).lower() not in _KNOWN_SCHEMES:
            raise ValueError(
                f"unknown database scheme {match.group(1) + '://'!r}: use postgresql://..., "
                "sqlite:///path or a plain file path"
            )
        if not value.strip():
            raise ValueError("name a database: a file path or a postgresql:// URL")
        return value

    @field_validator("test_decks")
    @classmethod
    def _empty_is_off(cls, value: str | None) -> str | None:
        return value or None

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _networks(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for item in value:
            if item != "*":
                try:
                    ipaddress.ip_network(item, strict=False)
                except ValueError:
                    raise ValueError(f"{item!r} is no address or network (or *)") from None
        return value

    @property
    def is_postgres(self) -> bool:
        """Whether the database is PostgreSQL (several processes may share it)."""
        return self.db.lower().startswith(("postgresql://", "postgres://"))

    @field_validator("allowed_hosts")
    @classmethod
    def _some_host(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if not value:
            raise ValueError("name at least one host (or * for any)")
        return value


def config_error_message(error: ValidationError) -> str:
    """One line per bad setting, naming its variable, without echoing a password.

    >>> try:
    ...     ServerConfig(port=70000)
    ... except ValidationError as e:
    ...     print(config_error_message(e))
    GINRUMMY_PORT (--port): Input should be less than or equal to 65535
    """
    lines = []
    for err in error.errors():
        name = ".".join(str(p) for p in err.get("loc", ()))
        message = str(err.get("msg", "not valid")).removeprefix("Value error, ")
        flag = _FLAGS.get(name)
        where = f"GINRUMMY_{name.upper()}" + (f" ({flag})" if flag else "")
        lines.append(f"{where}: {message}")
    return "\n".join(lines)


_FLAGS = {"db": "--db", "host": "--host", "port": "--port", "workers": "--workers"}


def load_config(**flags: Any) -> ServerConfig:
    """The settings from the environment, with the flags given (not ``None``) on top.

    Raises :class:`ConfigError` with one line per bad setting.
    """
    given = {k: v for k, v in flags.items() if v is not None}
    try:
        return ServerConfig(**given)
    except ValidationError as e:
        raise ConfigError(config_error_message(e)) from None
