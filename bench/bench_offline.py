"""Offline play measured in headless Chromium: start-up with the server stopped, the
download as sent, and Hard's decision time in the browser (docs/OFFLINE.md).

    .venv/bin/python bench/bench_offline.py [--restarts 5] [--matches 6]

Starts its own server (SQLite in a temporary folder), keeps the game for offline play
in a fresh browser profile, stops the server, then restarts the browser ``--restarts``
times, each time timing from opening the app to a dealt table that takes a click. Then
the worker deals ``--matches`` Hard-against-Hard matches and reports each decision's
time. The load average is printed with every figure: the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve(port: int, db: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ginrummy.cli", "serve", "--port", str(port), "--db", db],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(600):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def _load() -> float:
    return round(os.getloadavg()[0], 1)


def _module(page: Page, name: str) -> str:
    app = page.locator("script[type=module]").get_attribute("src") or ""
    return app[: -len("app.js")] + f"js/{name}"


def _sent(url: str) -> tuple[int, int]:
    """The bundle's size, and its size as the server sends it (gzip)."""
    bundle = httpx.get(url + "/offline/bundle.json").json()
    total = sent = 0
    with httpx.Client(base_url=url) as client:
        for f in bundle["files"]:
            r = client.get(f["url"], headers={"Accept-Encoding": "gzip"})
            total += len(r.content)
            sent += r.num_bytes_downloaded
    return total, sent


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    """Measure and print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--matches", type=int, default=6)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ginrummy-offline-bench-"))
    port = _port()
    url = f"http://127.0.0.1:{port}"
    server = _serve(port, f"sqlite:///{work / 'bench.sqlite3'}")
    out: dict[str, Any] = {"cores": os.cpu_count()}
    try:
        total, sent = _sent(url)
        out["bundle_bytes"], out["bundle_bytes_sent"] = total, sent
        with sync_playwright() as p:

            def launch() -> Any:
                return p.chromium.launch_persistent_context(
                    str(work / "profile"),
                    executable_path="/usr/bin/chromium",
                    headless=True,
                    args=ARGS,
                    viewport={"width": 1280, "height": 800},
                )

            ctx = launch()
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            page.goto(url + "/")
            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            started = time.monotonic()
            page.click("#offline-keep")
            page.wait_for_function(
                "() => document.getElementById('offline-status').textContent.startsWith('Ready')",
                timeout=600_000,
            )
            out["keep_seconds"] = round(time.monotonic() - started, 2)
            out["keep_load"] = _load()
            print(json.dumps(out), file=sys.stderr, flush=True)
            ctx.close()
            server.terminate()
            server.wait()
            starts: list[dict[str, float]] = []
            for _ in range(args.restarts):
                ctx = launch()
                ctx.add_init_script(
                    "localStorage.setItem('ginrummy.comfort', JSON.stringify({speed: 'off'}));"
                )
                page = ctx.pages[0] if ctx.pages else ctx.new_page()
                load = _load()
                t0 = time.monotonic()
                page.goto(url + "/")
                page.wait_for_function("() => !document.getElementById('start-match').disabled")
                form = time.monotonic() - t0
                page.click("#start-match")
                page.wait_for_selector("#hand .card", timeout=600_000)
                page.wait_for_function(
                    "async (url) => { const { state } = await import(url);"
                    " return Boolean(state.match) && !state.busy; }",
                    arg=_module(page, "state.js"),
                    timeout=600_000,
                )
                table = time.monotonic() - t0
                starts.append({"form": round(form, 2), "table": round(table, 2), "load": load})
                print(json.dumps(starts[-1]), file=sys.stderr, flush=True)
                last = page
                if len(starts) < args.restarts:
                    ctx.close()
            out["restarts"] = starts
            out["table_median"] = statistics.median(s["table"] for s in starts)
            seats = [{"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "hard"}]
            decisions = last.evaluate(
                """async ([url, seats, matches]) => {
                  const { referee } = await import(url);
                  const seed = () => Array.from(crypto.getRandomValues(new Uint8Array(32)),
                    (b) => b.toString(16).padStart(2, "0")).join("");
                  for (let i = 0; i < matches; i++) {
                    const id = "offline-bench" + i;
                    let a = await referee.ask({ op: "new", id, deal_seed: seed(), bot_seed: i,
                      body: { seats, settings: { match_to: 100 } } });
                    while (a.body.awaiting_deal) {
                      a = await referee.ask({ op: "next", id, version: a.body.version,
                        deal_seed: seed() });
                    }
                  }
                  return (await referee.ask({ op: "thinking" })).body.decisions;
                }""",
                [_module(last, "transport.js"), seats, args.matches],
            )
            times = [d["seconds"] * 1000 for d in decisions if d["bot"] == "hard"]
            out["hard_decisions"] = len(times)
            out["hard_ms_median"] = round(statistics.median(times), 2)
            out["hard_ms_p95"] = round(_percentile(times, 0.95), 1)
            out["hard_ms_max"] = round(max(times), 1)
            out["hard_load"] = _load()
            ctx.close()
    finally:
        if server.poll() is None:
            server.terminate()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
