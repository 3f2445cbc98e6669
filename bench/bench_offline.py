"""Offline play measured in headless Chromium: start-up with the server stopped, the
download as sent, and Hard's decision time in the browser (docs/OFFLINE.md).

    .venv/bin/python bench/bench_offline.py [--restarts 5] [--matches 6] [--deals SEED]
        [--against hard|medium|easy]

Builds the bundle, starts its own server (SQLite in a temporary folder), keeps the game
for offline play in a fresh browser profile, stops the server, then restarts the
browser ``--restarts`` times, each time timing from opening the app to a dealt table
that takes a click, stage by stage (the page's clock; the worker's own marks), with the
CPU seconds the browser spent. Then the worker deals ``--matches`` matches of Hard
against ``--against`` (Hard by default) and reports the time of each of Hard's
decisions. The load average is printed with every figure: the machine may be shared.
"""

from __future__ import annotations

import argparse
import hashlib
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
MAX_HANDS = 80
"""Fixed deals made for each match (a match to 100 between two Hards takes far fewer)."""
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


def _browser_cpu(profile: Path) -> float:
    """CPU seconds used so far by the browser running on ``profile`` and its children
    (Linux /proc): the work of a start, which the load average does not change."""
    stats: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = raw[raw.rindex(")") + 2 :].split()
        ticks = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        stats[int(entry.name)] = (int(fields[1]), ticks)
        if f"--user-data-dir={profile}".encode() in cmdline and b"--type=" not in cmdline:
            root = int(entry.name)
    tree = {root}
    grew = True
    while grew:
        more = {pid for pid, (parent, _) in stats.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(stats[pid][1] for pid in tree)


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


def _worker_marks(page: Page) -> dict[str, float]:
    """The offline worker's marks (offline-worker.js), as epoch milliseconds."""
    for worker in page.workers:
        if "offline-worker" in worker.url:
            marks: dict[str, float] = worker.evaluate(
                "() => Object.fromEntries(performance.getEntriesByType('mark')"
                ".map((m) => [m.name, performance.timeOrigin + m.startTime]))"
            )
            marks["offline:worker"] = worker.evaluate("() => performance.timeOrigin")
            return marks
    return {}


WATCH = """(() => {
  // Times, on the page's own clock, when the form can be used and when the dealt table
  // takes a click (the match shown and not being played out), checked every frame.
  const t = (window.__bench = {});
  window.addEventListener("pointerdown", () => { t.click ??= performance.now(); }, true);
  const tick = async () => {
    const deal = document.getElementById("start-match");
    if (!t.form && deal && !deal.disabled) t.form = performance.now();
    if (t.form && document.querySelector("#hand .card")) {
      const app = document.querySelector("script[type=module]").src;
      const { state } = await import(app.slice(0, -"app.js".length) + "js/state.js");
      if (state.match && !state.busy) t.table = performance.now();
    }
    if (!t.table) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();"""


def _open_and_deal(page: Page, url: str, profile: Path) -> dict[str, float]:
    """Open the app (server stopped), press Deal as soon as the form is drawn, wait for a
    dealt table that takes a click. Seconds from the navigation's start, per stage, and
    the CPU seconds the browser spent meanwhile."""
    load = _load()
    cpu = _browser_cpu(profile)
    page.goto(url + "/")
    page.wait_for_function("() => window.__bench.form")
    page.click("#start-match")
    page.wait_for_function("() => window.__bench.table", timeout=600_000)
    cpu = _browser_cpu(profile) - cpu
    seen = page.evaluate(
        "() => { const n = performance.getEntriesByType('navigation')[0];"
        " return { ...window.__bench, origin: performance.timeOrigin,"
        " response: n.responseEnd, dom: n.domContentLoadedEventEnd }; }"
    )
    origin = seen["origin"]
    marks = _worker_marks(page)

    def at(name: str) -> float:
        return round((marks[name] - origin) / 1000, 2) if name in marks else -1.0

    return {
        "load": load,
        "page_from_cache": round(seen["response"] / 1000, 2),
        "dom_ready": round(seen["dom"] / 1000, 2),
        "form": round(seen["form"] / 1000, 2),
        "deal_pressed": round(seen["click"] / 1000, 2),
        "worker_made": at("offline:worker"),
        "loader_imported": at("offline:loader"),
        "pyodide_loaded": at("offline:pyodide"),
        "engine_written": at("offline:engine"),
        "referee_ready": at("offline:ready"),
        "first_asked": at("offline:asked"),
        "first_answered": at("offline:answered"),
        "first_stored": at("offline:stored"),
        "table": round(seen["table"] / 1000, 2),
        "browser_cpu": round(cpu, 2),
    }


def _hard_decisions(page: Page, matches: int, deals: int | None, against: str) -> dict[str, Any]:
    """Matches of Hard against ``against`` dealt in the worker: each Hard decision's
    time (the deals random, or fixed by ``deals`` so that two builds meet the same ones)."""
    seats = [{"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": against}]
    fixed = None
    if deals is not None:
        fixed = [
            [hashlib.sha256(f"{deals}-{i}-{k}".encode()).hexdigest() for k in range(MAX_HANDS)]
            for i in range(matches)
        ]
    decisions = page.evaluate(
        """async ([url, seats, matches, fixed]) => {
          const { referee } = await import(url);
          const random = () => Array.from(crypto.getRandomValues(new Uint8Array(32)),
            (b) => b.toString(16).padStart(2, "0")).join("");
          for (let i = 0; i < matches; i++) {
            const id = "offline-bench" + i;
            let hand = 0;
            const seed = () => (fixed ? fixed[i][hand++] : random());
            let a = await referee.ask({ op: "new", id, deal_seed: seed(), bot_seed: i,
              body: { seats, settings: { match_to: 100 } } });
            while (a.body.awaiting_deal) {
              a = await referee.ask({ op: "next", id, version: a.body.version,
                deal_seed: seed() });
            }
          }
          return (await referee.ask({ op: "thinking" })).body.decisions;
        }""",
        [_module(page, "transport.js"), seats, matches, fixed],
    )
    times = [d["seconds"] * 1000 for d in decisions if d["bot"] == "hard"]
    return {
        "hard_decisions": len(times),
        "hard_ms_median": round(statistics.median(times), 2),
        "hard_ms_p95": round(_percentile(times, 0.95), 1),
        "hard_ms_max": round(max(times), 1),
        "hard_load": _load(),
    }


def main() -> int:
    """Measure and print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument(
        "--deals",
        type=int,
        metavar="SEED",
        help="fix the matches' deals by this seed (to compare two builds on the same deals)",
    )
    parser.add_argument(
        "--against",
        choices=("easy", "medium", "hard"),
        default="hard",
        help="Hard's opponent in the timed matches (Medium knocks as soon as it can)",
    )
    args = parser.parse_args()
    # The bundle is built from these sources (the engine's zip is what the worker runs).
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_offline.py")], check=True)
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
                ctx.add_init_script(WATCH)
                page = ctx.pages[0] if ctx.pages else ctx.new_page()
                starts.append(_open_and_deal(page, url, work / "profile"))
                print(json.dumps(starts[-1]), file=sys.stderr, flush=True)
                last = page
                if len(starts) < args.restarts:
                    ctx.close()
            out["restarts"] = starts
            for key in starts[0]:
                out[f"{key}_median"] = statistics.median(s[key] for s in starts)
            if args.matches:
                out.update(_hard_decisions(last, args.matches, args.deals, args.against))
            ctx.close()
    finally:
        if server.poll() is None:
            server.terminate()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
