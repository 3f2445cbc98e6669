"""The installable app: the service worker's script, and the files kept for offline play.

``GET /sw.js`` is ``static/sw.js`` with its build line filled in: the static files'
version (:func:`ginrummy.web.middleware.static_version`) and the app shell to
precache under it (every static file at its ``/static/<version>/`` address, and the
page itself). Any change to a static file changes the script, so the browser
installs the new worker beside the old one and the page offers to reload.

``/offline/`` serves what ``scripts/build_offline.py`` put in ``web/offline/``
(gitignored): Pyodide from the pinned npm package and the engine zipped from
these sources. Their names carry their versions, so they are cached for a year;
``bundle.json`` says which they are. Without the build, ``/offline/bundle.json``
is a 404 and the page says offline play is not available from this server.
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

__all__ = ["LESSONS", "OFFLINE_DIR", "OFFLINE_IMMUTABLE", "mount_offline", "router", "shell"]

OFFLINE_DIR = Path(__file__).parent / "offline"
"""What ``scripts/build_offline.py`` builds (Pyodide and the engine's zip)."""
OFFLINE_IMMUTABLE = ("/offline/pyodide-", "/offline/ginrummy-")
"""The offline files whose names carry their versions: cached for a year as they are."""
_BUILD_LINE = 'const BUILD = { version: "dev", shell: [] };'

router = APIRouter(include_in_schema=False)
"""The service worker's script."""


LESSONS = ("/rules", "/worked-hand", "/strategy", "/api/learn/worked-hand")
"""The learn pages and the worked hand's steps (the same for everybody): kept too, so
the lessons open offline."""


def shell(static_dir: Path, version: str) -> list[str]:
    """The app shell: the page, the lessons and every static file at its versioned address."""
    files = sorted(
        p.relative_to(static_dir).as_posix()
        for p in static_dir.rglob("*")
        if p.is_file() and p.name != "sw.js"
    )
    return ["/", *LESSONS, *(f"/static/{version}/{name}" for name in files)]


@router.get("/sw.js")
def service_worker(request: Request) -> Response:
    """The service worker, for the whole site (``/``), never cached by HTTP."""
    static_dir: Path = request.app.state.static_dir
    version: str = request.app.state.static_version
    source = (static_dir / "sw.js").read_text()
    build = json.dumps({"version": version, "shell": shell(static_dir, version)})
    script = source.replace(_BUILD_LINE, f"const BUILD = {build};", 1)
    return Response(script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


def mount_offline(app: FastAPI, directory: Path = OFFLINE_DIR) -> None:
    """Serve the offline bundle under ``/offline/`` if it was built."""
    if (directory / "bundle.json").is_file():
        app.mount("/offline", StaticFiles(directory=directory), name="offline")
