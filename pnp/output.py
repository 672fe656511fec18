"""What a build owns in its output folder, so the next build can tidy up after it.

A build records the files it wrote in ``.pnp-build.json`` beside them. The next build into the
same folder removes what the last one wrote and this one did not (a renamed or dropped
product), and the hidden temporary files a killed build left (``.<name>-<random>.pdf``, see
:func:`atomic_output`). Files pnp never wrote are never touched, so ``--out`` may point
at a folder that holds other things.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pnp import installed

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


GENERATED_FOLDERS = ("export", "preview", "report")
"""Folders of a kit's folder that only pnp writes into (pnp export, preview, simulate --report)."""


def clean_folder(folder: Path, prefix: str) -> list[str]:
    """Remove what pnp wrote in a kit's folder: the files its last build recorded, those an
    interrupted build left, its generated sub-folders and the record itself; the names removed.
    Files pnp never wrote stay."""
    if not folder.is_dir():
        return []
    removed = remove_leftovers(folder, prefix)
    removed += remove_stale(folder, ())
    for name in GENERATED_FOLDERS:
        if (folder / name).is_dir() and not (folder / name).is_symlink():
            shutil.rmtree(folder / name)
            removed.append(name + "/")
    if (folder / MANIFEST).is_file():
        (folder / MANIFEST).unlink()
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


# -- the build cache -----------------------------------------------------------------------
#
# A build is a pure function of its inputs: the game's content folder, the templates, pnp's own
# code, the installed libraries (reportlab, the font package…) and the build options. Their
# digest is recorded in the manifest; a build whose inputs hash the same, into a folder whose
# files are still the ones recorded, has nothing to do. When inputs did change, each product's
# digest is the digest of what it will draw (its laid-out faces, options and fonts), so a
# one-card edit re-renders that card's product and leaves the others alone.

_CODE_ROOT = Path(__file__).resolve().parent


def _digest_tree(digest: Any, root: Path, label: str) -> None:
    if not root.is_dir():
        digest.update(f"{label}: none\n".encode())
        return
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = path.relative_to(root).as_posix()
        if relative.startswith(".") or "/." in relative or "__pycache__" in relative:
            continue
        digest.update(f"{label}/{relative}\0{path.stat().st_size}\0".encode())
        digest.update(path.read_bytes())


@functools.cache
def code_fingerprint() -> str:
    """pnp's own source and the versions of every installed distribution (reportlab, the
    font package, …): any of them changing may change the bytes of a PDF."""
    digest = hashlib.sha256()
    _digest_tree(digest, _CODE_ROOT, "pnp")
    digest.update("\n".join(installed.versions()).encode())
    for name in ("PNP_CJK_FONT", "PNP_CJK_FONT_BOLD", "PNP_FONT_CACHE"):
        digest.update(f"{name}={os.environ.get(name, '')}\n".encode())
    return digest.hexdigest()


def input_digest(content_folder: Path, templates_root: Path, options: object) -> str:
    """The digest of everything one game's build reads."""
    digest = hashlib.sha256()
    digest.update(code_fingerprint().encode())
    digest.update(repr(options).encode())
    _digest_tree(digest, content_folder, "content")
    _digest_tree(digest, templates_root, "templates")
    return digest.hexdigest()


def files_unchanged(folder: Path, record: dict[str, object]) -> bool:
    """Every file the recorded build wrote is still there with the bytes it wrote."""
    files = record.get("files")
    if not isinstance(files, dict) or not files:
        return False
    for name, sha in files.items():
        if not _inside(str(name)):
            return False
        path = folder / str(name)
        if not path.is_file() or sha256_of(path) != sha:
            return False
    return True


def _inside(name: str) -> bool:
    """A recorded name that stays in its folder: relative, with "/" between its parts, none of
    them "..". A record is a file in the output folder, not a licence to read elsewhere."""
    parts = name.split("/")
    return (
        bool(name)
        and "\\" not in name
        and ":" not in name
        and all(part not in ("", ".", "..") for part in parts)
    )


def kit_up_to_date(
    content_folder: Path, out_dir: Path, templates_root: Path, options: object
) -> bool:
    """Whether the kit in `out_dir` was built from exactly these inputs and is untouched since:
    checked before the content is even loaded, so a no-op rebuild costs a few hashes."""
    record = read_manifest(out_dir)
    return record.get("inputs") == input_digest(
        content_folder, templates_root, options
    ) and files_unchanged(out_dir, record)
