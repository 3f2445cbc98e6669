"""The ``ginrummy`` command: ``serve`` the web app, ``arena``, ``demo`` a match, ``review`` one.

Each subcommand lives in its own module and parses its own options, so the
engine never imports the web app or the bots.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

__all__ = ["main"]

USAGE = """usage: ginrummy COMMAND [OPTIONS]

commands:
  serve   start the web app (http://127.0.0.1:8000 by default)
  arena   play bots against each other and report their strength
  demo    play a match between two bots in the terminal and print the score sheet
  review  review a recorded hand or match: each decision against Hard's, its cost and why

Run `ginrummy COMMAND --help` for a command's options."""


def _command(name: str) -> Callable[[Sequence[str]], int] | None:
    if name == "serve":
        from ginrummy.web.server import main as serve

        return serve
    if name == "arena":
        from ginrummy.arena import main as arena

        return arena
    if name == "demo":
        from ginrummy.demo import main as demo

        return demo
    if name == "review":
        from ginrummy.coach.cli import main as review

        return review
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command named by the first argument."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    command = _command(args[0])
    if command is None:
        print(f"ginrummy: unknown command {args[0]!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    return command(args[1:])


if __name__ == "__main__":
    raise SystemExit(main())
