"""What a build owns in its output folder, so the next build can tidy up after it.

A build records the files it wrote in ``.pnp-build.json`` beside them. The next build into the
same folder removes what the last one wrote and this one did not (a renamed or dropped
product), and the hidden temporary files a killed build left (``.<name>-<random>.pdf``, see
:func:`atomic_output`). Files pnp never wrote are never touched, so ``--out`` may point
at a folder that holds other things.

The record is input too: an output folder may have been shared, unzipped or tampered with.
It is sealed with this user's key on this machine (:mod:`pnp.trust`) and read only when its
seal verifies; even then a file it lists is removed only while it still holds the bytes pnp
wrote. An unverified record is no record: the next build renders everything and removes
nothing. Builds into one folder take turns (:func:`folder_lock`), so one never removes the
temporary files of another that is still writing.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pnp import installed
from pnp.errors import OutputError
from pnp.trust import seal_text, verify_text

log = logging.getLogger(__name__)

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


_SEAL = "seal"
_RECORD = "build-record"


def _canonical(record: dict[str, object]) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def read_manifest(folder: Path) -> dict[str, object]:
    """The last build's record in ``folder``; empty when there is none, it is unreadable, or
    this user's pnp on this machine did not write it (its seal does not verify)."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    mark = data.pop(_SEAL, None)
    return data if verify_text(_RECORD, _canonical(data), mark) else {}


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold ``folder`` for one writer: a second build into it waits for the first to finish.
    An advisory lock on a file named by the folder's resolved path in this user's lock folder
    (so a build that fails before writing leaves nothing behind in the output); where the
    system has no such locks, nothing is held."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    handle = os.open(lock_path(folder), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log.info("waiting for another pnp writing into %s", folder)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def lock_path(folder: Path) -> Path:
    """The file builds into ``folder`` take turns on: one per folder (two checkouts building
    into one folder share it), in a folder of this user's own under the system's temporary
    folder."""
    name = hashlib.sha256(str(folder.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
    uid = os.getuid() if hasattr(os, "getuid") else 0
    locks = Path(tempfile.gettempdir()) / f"pnp-locks-{uid}"
    locks.mkdir(mode=0o700, exist_ok=True)
    info = locks.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
        raise OutputError(
            f"{locks} is not a folder of this user's: pnp keeps its build locks there; "
            "remove it or set TMPDIR to another folder"
        )
    return locks / f"{name[:32]}.lock"


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
    """Remove the files the last build wrote that this one did not, and that still hold the
    bytes it wrote (a file since replaced is someone's own); the names removed."""
    keep = set(written)
    files = read_manifest(folder).get("files", {})
    if not isinstance(files, dict):
        return []
    removed = []
    for name in sorted(set(files) - keep):
        path = folder / name
        # Only plain names: a manifest is content of the folder, not a licence to reach out.
        if "/" in name or "\\" in name or name.startswith(".") or not path.is_file():
            continue
        if path.is_symlink() or sha256_of(path) != files[name]:
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
    """Write the build's record, sealed, atomically (a killed build leaves the old one
    whole)."""
    folder.mkdir(parents=True, exist_ok=True)
    sealed = {**record, _SEAL: seal_text(_RECORD, _canonical(record))}
    with atomic_output(folder / MANIFEST) as temporary:
        temporary.write_text(
            json.dumps(sealed, ensure_ascii=False, indent=1, sort_keys=True), encoding="utf-8"
        )


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


def code_fingerprint() -> str:
    """pnp's own source, the versions of every installed distribution (reportlab, the font
    package, …) and the variables that choose the font: any of them changing may change the
    bytes of a PDF. The variables are read at each call (a long-lived process, such as a test
    run or a server, may change them); the code only once."""
    digest = hashlib.sha256(_installed_code().encode())
    for name in ("PNP_CJK_FONT", "PNP_CJK_FONT_BOLD", "PNP_FONT_CACHE"):
        digest.update(f"{name}={os.environ.get(name, '')}\n".encode())
    return digest.hexdigest()


@functools.cache
def _installed_code() -> str:
    digest = hashlib.sha256()
    _digest_tree(digest, _CODE_ROOT, "pnp")
    digest.update("\n".join(installed.versions()).encode())
    return digest.hexdigest()


def input_digest(snapshot_digest: str, options: object) -> str:
    """The digest of everything one game's build reads: the bytes of its snapshot (content
    and templates, see pnp.content.sources), pnp's code and libraries, and the options."""
    digest = hashlib.sha256()
    digest.update(code_fingerprint().encode())
    digest.update(b"\0" + repr(options).encode())
    digest.update(b"\0" + snapshot_digest.encode())
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


def kit_up_to_date(snapshot_digest: str, out_dir: Path, options: object) -> bool:
    """Whether the kit in `out_dir` was built from exactly these bytes and options and is
    untouched since: checked before the content is even parsed, so a no-op rebuild costs a
    few hashes."""
    record = read_manifest(out_dir)
    return record.get("inputs") == input_digest(snapshot_digest, options) and files_unchanged(
        out_dir, record
    )
