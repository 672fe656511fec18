"""Collections kept in a spreadsheet: a list of items may be written as the name of a CSV file
of the game's folder (``cards: cards.csv``), as Google Sheets, Squib and nanDECK users keep
card lists. The header row names the fields (a dotted name such as ``fields.cost`` fills a
nested value); each later row is one item. The rows become the same located nodes a YAML list
gives, so the schema types every cell and a bad cell is reported at ``file:row:column``.

The file's bytes come from the game's snapshot like every other file a command reads.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import io
import re
import types
import typing
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from pnp.content.sources import read_file
from pnp.content.yamlsource import MappingNode, Node, ScalarNode, SequenceNode
from pnp.errors import ContentError, Location, Problem

TABLE_SUFFIXES = (".csv", ".xlsx")
MAX_ROWS = 10_000
"""Most items one table may hold (the largest shipped collection has a few hundred)."""

_FOLDER: ContextVar[tuple[Path, str] | None] = ContextVar("table_folder", default=None)
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$")


@contextlib.contextmanager
def tables_in(folder: Path, display_folder: str) -> Iterator[None]:
    """Within the block, a table named in content is read from ``folder`` (the game's)."""
    token = _FOLDER.set((folder, display_folder))
    try:
        yield
    finally:
        _FOLDER.reset(token)


def is_table_name(node: Node) -> bool:
    return (
        isinstance(node, ScalarNode)
        and isinstance(node.value, str)
        and node.value.lower().endswith(TABLE_SUFFIXES)
    )


def table_items(node: ScalarNode, item_type: Any) -> SequenceNode:
    """The rows of the table ``node`` names, as a list of mappings typed for ``item_type``."""
    place = _FOLDER.get()
    name = str(node.value)
    if place is None or name.startswith("/") or ".." in Path(name).parts:
        raise ContentError(
            [Problem(node.where, f"table {name!r}: expected a file inside the game's folder")]
        )
    folder, display_folder = place
    display = f"{display_folder}/{name}"
    data = read_file(folder / name, display)
    xlsx = name.lower().endswith(".xlsx")
    rows = _xlsx_rows(data, display) if xlsx else _csv_rows(data, display)
    if not rows:
        raise ContentError([Problem(Location(display, 1), "empty table: expected a header row")])
    if len(rows) > MAX_ROWS + 1:
        raise ContentError(
            [Problem(Location(display, MAX_ROWS + 2), f"more than {MAX_ROWS:,} rows")]
        )
    header = [cell.strip() for cell in rows[0]]
    problems = [
        Problem(Location(display, 1, column), f"column {column} has no name")
        for column, cell in enumerate(header, 1)
        if not cell
    ]
    if problems:
        raise ContentError(problems)
    items: list[Node] = []
    for row_number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line between groups of cards
        if len(row) > len(header):
            raise ContentError(
                [
                    Problem(
                        Location(display, row_number, len(header) + 1),
                        f"{len(row)} cells, but the header names {len(header)} columns",
                    )
                ]
            )
        entries: dict[str, Any] = {}
        for column, (key, cell) in enumerate(zip(header, row, strict=False), 1):
            if cell == "":
                continue  # an empty cell leaves the field at its default
            path = key.split(".")
            kind = _field_type(item_type, path)
            value = _typed(cell, kind)
            _put(entries, path, (display, row_number, column), cell, value)
        items.append(_mapping(entries, (display, row_number, 1)))
    return SequenceNode(display, 2, 1, tuple(items))


def _csv_rows(data: bytes, display: str) -> list[list[str]]:
    try:
        text = data.decode("utf-8-sig")  # spreadsheets save a byte-order mark
    except UnicodeDecodeError as error:
        problem = Problem(Location(display), f"not UTF-8 text ({error.reason})")
        raise ContentError([problem]) from None
    return list(csv.reader(io.StringIO(text, newline="")))


def _xlsx_rows(data: bytes, display: str) -> list[list[str]]:
    """The first sheet's rows as the text each cell shows (a whole number without '.0'), at
    most MAX_ROWS + 2 of them: a workbook is a zip, read row by row, never all at once."""
    import zipfile

    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as error:
        problem = Problem(Location(display), f"not a readable workbook ({error})")
        raise ContentError([problem]) from None
    rows: list[list[str]] = []
    try:
        for values in book.worksheets[0].iter_rows(values_only=True):
            rows.append([_cell_text(value) for value in values])
            if len(rows) > MAX_ROWS + 1:
                break
    finally:
        book.close()
    for row in rows:
        while row and row[-1] == "":
            row.pop()  # a sheet's grid is as wide as its widest row
    return rows


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _field_type(item_type: Any, path: list[str]) -> Any:
    kind: Any = item_type
    for key in path:
        if dataclasses.is_dataclass(kind):
            kind = typing.get_type_hints(kind).get(key, Any)
        else:
            return Any
    return kind


def _typed(cell: str, kind: Any) -> object:
    """The cell as its field's type reads it; left as text when it does not parse, so the
    schema reports it at its cell."""
    options = typing.get_args(kind) if isinstance(kind, types.UnionType) else (kind,)
    text = cell.strip()
    for option in options:
        if option is int and _INT.match(text):
            return int(text)
        if option is float and (_INT.match(text) or _FLOAT.match(text)):
            return float(text)
        if option is bool and text.lower() in {"true", "false"}:
            return text.lower() == "true"
        if option is Any:
            if _INT.match(text):
                return int(text)
            return float(text) if _FLOAT.match(text) else cell
    return cell


def _put(
    entries: dict[str, Any], path: list[str], at: tuple[str, int, int], cell: str, value: object
) -> None:
    for key in path[:-1]:
        entries = entries.setdefault(key, {})
    entries[path[-1]] = (at, ScalarNode(*at, value=value, text=cell, quoted=False))


def _mapping(entries: dict[str, Any], at: tuple[str, int, int]) -> MappingNode:
    built: dict[str, tuple[ScalarNode, Node]] = {}
    for key, entry in entries.items():
        if isinstance(entry, dict):
            inner = _mapping(entry, at)
            built[key] = (ScalarNode(*at, value=key, text=key), inner)
        else:
            (path, line, column), node = entry
            built[key] = (ScalarNode(path, line, column, value=key, text=key), node)
    return MappingNode(*at, built)
