"""A played game as a small text file: the table, who sat where, the seed and every action.

The seed deals the first position (``rules.initial_state(random.Random(seed))``, as the
validator's games start), and the actions, chance outcomes included, in each one's notation
(``str(action)``), lead from it to every later position. So the file reproduces the game
exactly with no engine randomness at all: the web table saves and loads it (``pnp play``),
steps through it (``pnp play GAME --replay FILE``), and the validator writes one for a game
it wants a designer to watch (a capped game of the liveness check)::

    # pnp game record
    game: deadline-99
    table: normal 4p
    seats: human,strong,sensible,sensible
    seed: 7
    actions:
    3h
    draw:ks
    ...

Lines starting with ``#`` are comments. A file read back is untrusted: every fault is a
:class:`RecordError` naming the file and line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import PnpError

HEADER = "# pnp game record"
KEYS = ("game", "table", "seats", "seed")
MAX_RECORD_BYTES = 8_000_000
"""A record longer than this is refused unread (a capped game of 20,000 steps is ~200 kB)."""


class RecordError(PnpError):
    """A record file that cannot be read: the message says where and what was expected."""


@dataclass(frozen=True)
class GameRecordFile:
    """One game: enough to play it again step by step."""

    game: str
    """The game's slug."""
    table: str
    """The name of the table among the game's play tables (``normal 4p``)."""
    seats: tuple[str, ...]
    """Who played each seat: ``human`` or a policy's name."""
    seed: int
    """The seed of the first position."""
    actions: tuple[str, ...]
    """Every action in order, each as its notation."""
    note: str = ""
    """Why it was written (a comment line, for the reader)."""


def format_record(record: GameRecordFile) -> str:
    lines = [HEADER]
    lines.extend(f"# {line}" for line in record.note.splitlines() if line.strip())
    lines.extend(
        [
            f"game: {record.game}",
            f"table: {record.table}",
            f"seats: {','.join(record.seats)}",
            f"seed: {record.seed}",
            "actions:",
            *record.actions,
        ]
    )
    return "\n".join(lines) + "\n"


def write_record(path: Path, record: GameRecordFile) -> Path:
    """Write ``record`` to ``path`` (its folder made if needed) through a temporary name, so
    a reader never finds half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(format_record(record), encoding="utf-8")
    partial.replace(path)
    return path


def read_record(path: Path) -> GameRecordFile:
    """The record in ``path``; RecordError saying where it is wrong."""
    try:
        size = path.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"{path}: {size} bytes is too long for a game record")
        data = path.read_bytes()
    except OSError as error:
        raise RecordError(f"{path}: cannot read the game record: {error.strerror}") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"{path}: expected UTF-8 text, got byte {data[error.start]:#x}") from None
    return parse_record(text, str(path))


def parse_record(text: str, where: str = "<record>") -> GameRecordFile:
    """A record from its text; RecordError naming ``where`` and the line."""
    header: dict[str, tuple[int, str]] = {}
    actions: list[str] = []
    in_actions = False
    notes: list[str] = []
    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if not in_actions and line != HEADER:
                notes.append(line.lstrip("#").strip())
            continue
        if in_actions:
            actions.append(line)
            continue
        if line == "actions:":
            in_actions = True
            continue
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon or key not in KEYS:
            raise RecordError(
                f"{where}:{number}: expected 'KEY: value' with KEY one of {', '.join(KEYS)} "
                f"or 'actions:', got {line[:60]!r}"
            )
        if key in header:
            raise RecordError(
                f"{where}:{number}: {key!r} given twice (first on line {header[key][0]})"
            )
        header[key] = (number, value.strip())
    missing = [key for key in KEYS if key not in header]
    if missing:
        raise RecordError(f"{where}: expected {', '.join(repr(k) for k in missing)} in the header")
    if not in_actions:
        raise RecordError(f"{where}: expected an 'actions:' line before the actions")
    seed_line, seed_text = header["seed"]
    try:
        seed = int(seed_text)
    except ValueError:
        raise RecordError(
            f"{where}:{seed_line}: seed: expected an integer, got {seed_text!r}"
        ) from None
    seats_line, seats_text = header["seats"]
    seats = tuple(part.strip() for part in seats_text.split(","))
    if not all(seats):
        raise RecordError(
            f"{where}:{seats_line}: seats: expected names separated by commas, got {seats_text!r}"
        )
    return GameRecordFile(
        game=header["game"][1],
        table=header["table"][1],
        seats=seats,
        seed=seed,
        actions=tuple(actions),
        note="\n".join(notes),
    )


def action_line(text: str, index: int) -> int:
    """The line of ``text`` holding its ``index``-th action (0-based), for messages."""
    seen = -1
    in_actions = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if in_actions:
            seen += 1
            if seen == index:
                return number
        elif line == "actions:":
            in_actions = True
    return 0


def record_of(
    game: str,
    table: str,
    seats: Sequence[str],
    seed: int,
    actions: Sequence[object],
    note: str = "",
) -> GameRecordFile:
    """A record of actions given as engine objects (each written as ``str(action)``)."""
    return GameRecordFile(game, table, tuple(seats), seed, tuple(str(a) for a in actions), note)
