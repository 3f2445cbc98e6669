"""The installable app over HTTP: the service worker's script, the manifest, the offline
bundle, and the one script allowed to compile WebAssembly."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import httpx

from ._support import ROOT, Server

YEAR = "max-age=31536000"


def _build_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_offline", ROOT / "scripts/build_offline.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_offline"] = module
    spec.loader.exec_module(module)
    return module


def _build(script: str) -> dict[str, object]:
    found = re.search(r"^const BUILD = (\{.*\});$", script, re.M)
    assert found, "the service worker has no build line"
    build: dict[str, object] = json.loads(found.group(1))
    return build


def test_the_service_worker_precaches_this_versions_shell(sqlite_server: Server) -> None:
    page = httpx.get(sqlite_server.url + "/")
    version = re.search(r'src="/static/([0-9a-f]{12})/app.js"', page.text)
    assert version, "the page's script has no versioned address"
    sw = httpx.get(sqlite_server.url + "/sw.js")
    assert sw.status_code == 200
    assert sw.headers["content-type"].startswith("text/javascript")
    assert sw.headers["cache-control"] == "no-cache"  # an update is seen at once
    build = _build(sw.text)
    assert build["version"] == version.group(1)
    shell = build["shell"]
    assert isinstance(shell, list) and "/" in shell and "/worked-hand" in shell
    prefix = f"/static/{version.group(1)}/"
    assert f"{prefix}app.js" in shell and f"{prefix}js/offline-worker.js" in shell
    assert f"{prefix}i18n/en.json" in shell and f"{prefix}manifest.webmanifest" in shell
    with httpx.Client(base_url=sqlite_server.url) as client:
        for path in shell:
            r = client.get(path)
            assert r.status_code == 200, path
            if path.startswith("/static/"):
                assert YEAR in r.headers["cache-control"], path


def test_the_manifest_names_the_app_and_its_icons(sqlite_server: Server) -> None:
    page = httpx.get(sqlite_server.url + "/").text
    link = re.search(
        r'<link rel="manifest" href="(/static/[0-9a-f]{12}/manifest.webmanifest)">', page
    )
    assert link
    r = httpx.get(sqlite_server.url + link.group(1))
    assert r.headers["content-type"].startswith("application/manifest+json")
    manifest = r.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    base = link.group(1).rsplit("/", 1)[0]
    purposes = set()
    for icon in manifest["icons"]:
        got = httpx.get(f"{sqlite_server.url}{base}/{icon['src']}")
        assert got.status_code == 200 and got.headers["content-type"] == "image/svg+xml"
        assert "<svg" in got.text
        purposes.add(icon["purpose"])
    assert purposes == {"any", "maskable"}


def test_only_the_offline_worker_may_compile_webassembly(sqlite_server: Server) -> None:
    page = httpx.get(sqlite_server.url + "/")
    strict = page.headers["content-security-policy"]
    assert "script-src 'self';" in strict and "wasm" not in strict
    version = re.search(r"/static/([0-9a-f]{12})/app.js", page.text)
    assert version
    for path in (
        "/static/js/offline-worker.js",
        f"/static/{version.group(1)}/js/offline-worker.js",
    ):
        worker = httpx.get(sqlite_server.url + path)
        policy = worker.headers["content-security-policy"]
        assert "script-src 'self' 'wasm-unsafe-eval';" in policy
        assert policy.replace(" 'wasm-unsafe-eval'", "") == strict
    for path in ("/static/app.js", "/static/js/transport.js", "/sw.js", "/offline/bundle.json"):
        assert "wasm" not in httpx.get(sqlite_server.url + path).headers["content-security-policy"]
    assert "unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "")


def test_the_offline_bundle_is_pyodide_and_the_engine_from_these_sources(
    sqlite_server: Server,
) -> None:
    bundle = httpx.get(sqlite_server.url + "/offline/bundle.json")
    assert bundle.status_code == 200, "run scripts/build_offline.py (install.sh does)"
    data = bundle.json()
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert data["pyodide"] == lock["packages"]["node_modules/pyodide"]["version"]
    engine = httpx.get(sqlite_server.url + data["engine"])
    assert engine.content == _build_script().engine_zip(), "the bundle is stale: rebuild it"
    sent = 0
    with httpx.Client(base_url=sqlite_server.url) as client:
        for f in data["files"]:
            r = client.get(f["url"], headers={"Accept-Encoding": "gzip"})
            assert r.status_code == 200 and len(r.content) == f["bytes"], f["url"]
            assert YEAR in r.headers["cache-control"], f["url"]
            sent += r.num_bytes_downloaded
            if f["url"].endswith(".wasm"):
                assert r.headers["content-encoding"] == "gzip"
                assert r.headers["content-type"] == "application/wasm"
    total = sum(f["bytes"] for f in data["files"])
    print(f"offline bundle: {total / 1e6:.1f} MB, {sent / 1e6:.1f} MB as sent (gzip)")
    assert sent < total * 0.75  # the WebAssembly is sent compressed
    assert abs(data["gzip_bytes"] - sent) < 0.05 * sent  # the size the page offers is true


def test_the_engine_zip_holds_no_web_code() -> None:
    import io
    import zipfile

    names = zipfile.ZipFile(io.BytesIO(_build_script().engine_zip())).namelist()
    assert "ginrummy/offline.py" in names and "ginrummy/bots/hard.py" in names
    assert not [n for n in names if n.startswith(("ginrummy/web", "ginrummy/coach"))]
    assert Path(ROOT / "ginrummy/offline.py").read_bytes() == zipfile.ZipFile(
        io.BytesIO(_build_script().engine_zip())
    ).read("ginrummy/offline.py")
