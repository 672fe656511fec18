"""`pnp export --format csv`: every collection of a game as a CSV table, one row an item, in
the shape `pnp.content.tables` reads back (a dotted header such as ``fields.cost`` for a
nested value), so a designer can move a card list into a spreadsheet and back."""

from __future__ import annotations

import csv
import dataclasses
import enum
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.export.files import write_text
from pnp.export.png import ExportReport


class _NotFlat(Exception):
    """A field holds a list: a table's cell cannot."""


def collections_of(model: Any) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The model's top-level collections by name: its fields that hold items, and a data-only
    game's named collections."""
    for field in dataclasses.fields(model):
        value = getattr(model, field.name)
        if isinstance(value, dict):
            for name, items in value.items():
                if _items(items):
                    yield str(name), items
        elif _items(value):
            yield field.name, value


def _items(value: Any) -> bool:
    return isinstance(value, tuple) and bool(value) and dataclasses.is_dataclass(value[0])


def _cells(value: Any, prefix: str, row: dict[str, str]) -> None:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            if field.name != "where" and field.init:
                _cells(getattr(value, field.name), f"{prefix}{field.name}.", row)
    elif isinstance(value, dict):
        for key, inner in value.items():
            _cells(inner, f"{prefix}{key}.", row)
    elif isinstance(value, tuple | list):
        raise _NotFlat(prefix[:-1])
    else:
        row[prefix[:-1]] = _text(value)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


def table_text(items: tuple[Any, ...]) -> str:
    """One collection as CSV text (columns in the order the items first show them)."""
    rows: list[dict[str, str]] = []
    for item in items:
        row: dict[str, str] = {}
        _cells(item, "", row)
        rows.append(row)
    header = list(dict.fromkeys(key for row in rows for key in row))
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([row.get(key, "") for key in header])
    return buffer.getvalue()


def export_csv(game: LoadedGame, out_dir: Path) -> ExportReport:
    """Write ``<collection>.csv`` for every collection of the game into ``out_dir``."""
    report = ExportReport(game.slug, out_dir)
    for name, items in collections_of(game.model):
        try:
            text = table_text(items)
        except _NotFlat as error:
            report.warnings.append(
                f"collection {name!r} not written: its field {error.args[0]!r} holds a list, "
                "which a table's cell cannot"
            )
            continue
        path = out_dir / f"{name}.csv"
        write_text(path, text)
        report.files.append(path)
    return report
