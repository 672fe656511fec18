"""What a build owns in its output folder, so the next build can tidy up after it.

A build records the files it wrote in ``.pnp-build.json`` beside them. The next build into the
same folder removes what the last one wrote and this one did not (a renamed or dropped
product), and the hidden temporary files a killed build left (``.<name>-<random>.pdf``, see
:func:`atomic_output`). Files pnp never wrote are never touched, so ``--out`` may point
at a folder that holds other things.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

MANIFEST = ".pnp-build.json"
"""The record of a build, inside its output folder."""

_TEMPORARY = re.compile(r"^\.(?P<stem>.+)-[a-z0-9_]{8}(?P<suffix>\.[a-z0-9]+)$")
"""The name atomic_output gives a file while it is written (mkstemp's 8 random characters)."""


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[Path]:
    """A temporary path next to `path`, renamed over it only if the block succeeds."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{path.stem}-", suffix=path.suffix, dir=path.parent
    )
    os.close(handle)
    try:
        yield Path(temporary)
        # mkstemp makes the file private; a kit is for sharing, so honour the umask instead.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def read_manifest(folder: Path) -> dict[str, object]:
    """The last build's record in ``folder``; empty when there is none or it is unreadable."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def owned_files(folder: Path) -> set[str]:
    """Names of the files the last build in ``folder`` wrote."""
    files = read_manifest(folder).get("files", {})
    return {name for name in files if isinstance(name, str)} if isinstance(files, dict) else set()


def remove_leftovers(folder: Path, prefix: str) -> list[str]:
    """Remove the temporary files an interrupted build left for files whose names start with
    ``prefix`` (a game's slug and a hyphen); the names removed."""
    if not folder.is_dir():
        return []
    removed = []
    for entry in sorted(folder.iterdir()):
        match = _TEMPORARY.match(entry.name)
        if match and match.group("stem").startswith(prefix) and entry.is_file():
            with contextlib.suppress(FileNotFoundError):
                entry.unlink()
                removed.append(entry.name)
    return removed


def remove_stale(folder: Path, written: Iterable[str]) -> list[str]:
    """Remove the files the last build wrote that this one did not; the names removed."""
    keep = set(written)
    removed = []
    for name in sorted(owned_files(folder) - keep):
        path = folder / name
        # Only plain names: a manifest is content of the folder, not a licence to reach out.
        if "/" in name or "\\" in name or name.startswith(".") or not path.is_file():
            continue
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed.append(name)
    return removed


def write_manifest(folder: Path, record: dict[str, object]) -> None:
    """Write the build's record atomically (a killed build leaves the old one whole)."""
    folder.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".pnp-build-", suffix=".tmp", dir=folder)
    with os.fdopen(handle, "w", encoding="utf-8") as stream:
        json.dump(record, stream, ensure_ascii=False, indent=1, sort_keys=True)
    os.replace(temporary, folder / MANIFEST)


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
