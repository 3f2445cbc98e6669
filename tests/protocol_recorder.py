"""An external bot for the protocol tests: it never takes a pile card, throws
its first legal card, and writes every message it receives to ``DIR/<its process id>.jsonl``.

Run as ``python tests/protocol_recorder.py DIR``; the tests read the files.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


def main() -> int:
    """Answer every ``decide`` (pass, stock, or the first legal throw), logging each message."""
    log = Path(sys.argv[1]) / f"{os.getpid()}.jsonl"
    with log.open("a", encoding="utf-8") as out:
        for line in sys.stdin:
            out.write(line if line.endswith("\n") else line + "\n")
            out.flush()
            message = json.loads(line)
            if message["type"] == "decide":
                legal = message["legal"]
                action = next((a for a in ("pass", "stock") if a in legal), legal[0])
                sys.stdout.write(json.dumps({"action": action}) + "\n")
                sys.stdout.flush()
            elif message["type"] == "quit":
                break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
