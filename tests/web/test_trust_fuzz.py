"""A property-based fuzz of the HTTP API from its own OpenAPI schema: never a 5xx.

Schemathesis generates requests for every operation the schema lists, valid
and invalid, and sends them to a real server over HTTP. Half the generated
match ids are swapped for a real match of the fuzzing player, so the moves
reach the game itself and not only the 404.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ._support import Server
from .test_trust_support import new_match

schemathesis = pytest.importorskip("schemathesis")

EXAMPLES = 60
"""Examples per operation."""


@pytest.fixture(scope="module")
def fuzzed(db_url: str) -> Iterator[Server]:
    """A server in play mode with the rate limit raised (the fuzzer is a machine)."""
    srv = Server(db_url).start(test_mode=False, settings={"GINRUMMY_RATE_LIMIT": "100000/100000"})
    yield srv
    srv.stop()


def test_no_generated_request_gets_a_5xx(fuzzed: Server) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    url = fuzzed.url
    schema = schemathesis.openapi.from_url(url + "/api/openapi.json")
    real = [new_match(fuzzed.client, url)["id"] for _ in range(3)]
    cookies = dict(fuzzed.client.cookies)
    sent: list[int] = []
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(), pick=st.integers(0, 5))
        def probe(case: Any, pick: int) -> None:
            params = case.path_parameters or {}
            if "match_id" in params and pick < len(real):
                params["match_id"] = real[pick]
            response = case.call(base_url=url, cookies=cookies, timeout=30)
            sent.append(response.status_code)
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path} -> {response.status_code}")

        probe()
    print(f"\nschemathesis {schemathesis.__version__}: {len(sent)} requests sent,", end=" ")
    print(f"statuses {sorted(set(sent))}")
    assert not failures, failures
    assert len(sent) >= 5 * EXAMPLES
    assert any(200 <= s < 300 for s in sent) and any(400 <= s < 500 for s in sent)
