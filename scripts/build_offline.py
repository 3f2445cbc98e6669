"""Build what the page downloads for offline play into ginrummy/web/offline/ (gitignored).

- ``pyodide-<version>/``: Pyodide's runtime, copied from the pinned npm package
  (``npm ci`` puts it in node_modules/pyodide): the loader, the WebAssembly, the
  standard library and the lock file. Nothing comes from a CDN.
- ``ginrummy-<hash>.zip``: the engine, the bots and the offline referee, zipped from
  the sources of this checkout (never a copy kept by hand), with fixed timestamps so
  the same sources give the same file and the same name.
- ``bundle.json``: what to fetch, with sizes, for the page's download and the worker.

Run by scripts/install.sh and scripts/test.sh; ``python scripts/build_offline.py``.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ginrummy"
OUT = PACKAGE / "web" / "offline"
PYODIDE = ROOT / "node_modules" / "pyodide"
RUNTIME = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
ENGINE = (
    "__init__.py",
    "_tables.py",
    "cards.py",
    "errors.py",
    "fairness.py",
    "hand.py",
    "match.py",
    "melds.py",
    "offline.py",
    "records.py",
    "settings.py",
)
"""The engine's modules and the offline referee; the bots come whole. Not the web app,
the coach, the arena or the CLI (the import-linter contracts keep the referee off them)."""


def engine_zip() -> bytes:
    """The engine, bots and referee as a zip whose bytes depend on their sources alone."""
    files = [PACKAGE / name for name in ENGINE]
    files += sorted((PACKAGE / "bots").glob("*.py"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for path in files:
            info = zipfile.ZipInfo(
                path.relative_to(ROOT).as_posix(), date_time=(2020, 1, 1, 0, 0, 0)
            )
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, path.read_bytes())
    return buf.getvalue()


def _entry(url: str, data: bytes) -> dict[str, object]:
    """A file of the bundle: its address, size, and size as the server sends it (gzip,
    at the level of the app's gzip layer), for the page's offer."""
    return {"url": url, "bytes": len(data), "gzip_bytes": len(gzip.compress(data, 9))}


def main() -> int:
    """Write the bundle; say why not when Pyodide is not installed."""
    version_file = PYODIDE / "package.json"
    if not version_file.exists():
        print(
            "offline play: node_modules/pyodide is missing (run `npm ci`); the app runs, "
            "but cannot be kept for offline play",
            file=sys.stderr,
        )
        return 1
    version = json.loads(version_file.read_text())["version"]
    if OUT.exists():
        shutil.rmtree(OUT)
    runtime = OUT / f"pyodide-{version}"
    runtime.mkdir(parents=True)
    files: list[dict[str, object]] = []
    for name in RUNTIME:
        shutil.copyfile(PYODIDE / name, runtime / name)
        files.append(_entry(f"/offline/pyodide-{version}/{name}", (runtime / name).read_bytes()))
    data = engine_zip()
    digest = hashlib.sha256(data).hexdigest()[:12]
    engine = f"ginrummy-{digest}.zip"
    (OUT / engine).write_bytes(data)
    files.append(_entry(f"/offline/{engine}", data))
    bundle = {
        "pyodide": version,
        "index": f"/offline/pyodide-{version}/",
        "engine": f"/offline/{engine}",
        "files": files,
        "version": hashlib.sha256(json.dumps(files).encode()).hexdigest()[:12],
        "gzip_bytes": sum(int(str(f["gzip_bytes"])) for f in files),
    }
    (OUT / "bundle.json").write_text(json.dumps(bundle, indent=1) + "\n")
    total = sum(int(str(f["bytes"])) for f in files)
    where = OUT.relative_to(ROOT)
    print(f"offline play: Pyodide {version} and {engine} in {where} ({total / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
