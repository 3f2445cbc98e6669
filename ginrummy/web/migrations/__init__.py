"""The database schema's history: numbered SQL files, one folder per database kind.

``sqlite/0002_seats.sql`` and ``postgresql/0002_seats.sql`` are the same step
written for each database (they differ where the JSON functions do). The
table ``ginrummy_schema`` holds the number of the last step applied;
:func:`upgrade` applies the steps after it, in order, in one transaction, so a
database is either at the old version or at the new one, never half-way. A
database made before this table existed is at step 0: step 1 (``CREATE TABLE
IF NOT EXISTS``, the schema as it stood then) finds its tables in place.

>>> [s.number for s in steps("sqlite")]
[1, 2, 3, 4, 5, 6, 7, 8]
>>> steps("sqlite")[1].name
'seats'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

__all__ = ["Dialect", "Step", "latest", "statements", "steps"]

Dialect = Literal["sqlite", "postgresql"]
"""The databases the app runs on."""

_HERE = Path(__file__).parent


@dataclass(frozen=True, slots=True)
class Step:
    """One migration: its number, its name and its SQL."""

    number: int
    name: str
    sql: str


@cache
def steps(dialect: Dialect) -> tuple[Step, ...]:
    """Every migration for ``dialect``, in the order they apply."""
    found = []
    for path in sorted((_HERE / dialect).glob("[0-9][0-9][0-9][0-9]_*.sql")):
        number, name = path.stem.split("_", 1)
        found.append(Step(int(number), name, path.read_text()))
    numbers = [s.number for s in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"the {dialect} migrations are not numbered 1, 2, ...: {numbers}")
    return tuple(found)


def latest(dialect: Dialect) -> int:
    """The schema version the code expects."""
    return len(steps(dialect))


def statements(step: Step) -> list[str]:
    """A step's SQL, one statement each (SQLite's driver runs one at a time).

    Statements end with ``;`` at the end of a line; ``--`` lines are comments.
    """
    lines = [line for line in step.sql.splitlines() if not line.lstrip().startswith("--")]
    text = "\n".join(lines)
    parts = (s.strip().rstrip(";").strip() for s in text.split(";\n"))
    return [s for s in parts if s]
