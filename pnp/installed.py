"""What is installed beside pnp (distributions, their versions and the entry points they
announce), read from the distributions' folders on ``sys.path``.

``importlib.metadata`` answers the same questions, but importing it and reading every
distribution's metadata took about 60 ms, half of a no-op ``pnp build``: every command asks
which games are announced and which library versions a build depends on. The folders say it
for a few directory listings: ``name-version.dist-info`` carries the version in its name,
and its ``entry_points.txt`` the entry points. The first distribution of a name on the path
is the one Python imports, and the only one read, as importlib.metadata does.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

_FOLDER = re.compile(r"(?P<name>[^-]+)(?:-(?P<version>[^-]+?))?\.(?:dist|egg)-info")
_REFERENCE = re.compile(r"(?P<module>[\w.]+)\s*(?::\s*(?P<attribute>[\w.]+)\s*)?(?:\[.*\]\s*)?")


@dataclass(frozen=True)
class EntryPoint:
    """One ``name = module:attribute`` line of a distribution's ``entry_points.txt``."""

    name: str
    value: str
    group: str

    def load(self) -> Any:
        """The object the entry point names, its module imported."""
        match = _REFERENCE.fullmatch(self.value)
        if match is None:
            raise ValueError(f"not a module:attribute reference: {self.value!r}")
        found: Any = importlib.import_module(match["module"])
        for attribute in filter(None, (match["attribute"] or "").split(".")):
            found = getattr(found, attribute)
        return found


@cache
def distribution_folders() -> tuple[Path, ...]:
    """The metadata folder of every installed distribution, the first of each name on
    ``sys.path``."""
    seen: set[str] = set()
    folders: list[Path] = []
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as listing:
                names = sorted(item.name for item in listing)
        except OSError:
            continue
        for name in names:
            match = _FOLDER.fullmatch(name)
            if match is None:
                continue
            key = re.sub(r"[-_.]+", "_", match["name"]).lower()
            if key not in seen:
                seen.add(key)
                folders.append(Path(entry or ".", name))
    return tuple(folders)


def versions() -> list[str]:
    """``name-version`` of every installed distribution, sorted."""
    return sorted(_name_and_version(folder) for folder in distribution_folders())


def _name_and_version(folder: Path) -> str:
    stem = folder.name.rsplit(".", 1)[0]
    if "-" in stem:
        return stem
    # A folder without the version in its name (a source tree's egg-info): its metadata says.
    for metadata in ("METADATA", "PKG-INFO"):
        try:
            with (folder / metadata).open(encoding="utf-8") as lines:
                for line in lines:
                    if line.startswith("Version:"):
                        return f"{stem}-{line.removeprefix('Version:').strip()}"
                    if not line.strip():
                        break
        except OSError:
            continue
    return stem


def entry_points(group: str, name: str | None = None) -> list[EntryPoint]:
    """The entry points of ``group`` (those called ``name`` only, when given) that installed
    distributions announce, in ``sys.path`` order."""
    found: list[EntryPoint] = []
    for folder in distribution_folders():
        try:
            text = (folder / "entry_points.txt").read_text(encoding="utf-8")
        except OSError:
            continue
        section = None
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1].strip()
                continue
            key, equals, value = line.partition("=")
            if section == group and equals and (name is None or key.strip() == name):
                found.append(EntryPoint(key.strip(), value.strip(), group))
    return found
