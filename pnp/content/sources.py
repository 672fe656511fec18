"""The bytes a command reads: a game's content folder and the templates, read once.

Every output of pnp must be a pure function of the bytes it read, and every cache must be keyed
on those same bytes. Reading files where they are needed breaks both: a file saved while a
build runs would be half old and half new in the kit, and a digest taken before or after the
build would vouch for bytes the build never used. So a command takes a :class:`Snapshot` —
every file of the game's content folder and of the templates folder, read once into memory —
and the YAML loader, the template loader and the image resolver read from it alone
(:func:`read_file` finds the snapshot pinned for the work at hand). Its :attr:`Snapshot.digest`
is what the build record, the export record and the checks' verdicts are keyed on.

What a snapshot holds, and so what pnp reads at all:

- regular files under the folder, symlinks included when they resolve inside it; a symlink
  that leads out of the folder is refused with a message that names the link, never its
  target (content arrives in pull requests: a link to ``/etc/passwd`` must not reach a CI log);
- no hidden files or folders (a name that starts with ``.``: editors' lock and swap files,
  ``.git``), and no ``__pycache__``;
- nothing that is not a regular file (a FIFO would block the read forever), and nothing larger
  than :data:`MAX_FILE_BYTES`; no more than :data:`MAX_FILES` files and :data:`MAX_TOTAL_BYTES`
  in all.

A refused file is part of the digest (by its name and the reason) and reading it raises a
located :class:`~pnp.errors.ContentError`; an unreferenced one harms nothing.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pnp.errors import ContentError, Location, Problem

MAX_FILE_BYTES = 20 * 1024 * 1024
"""Largest file read (a print-resolution card image is a few MB)."""
MAX_FILES = 5_000
"""Most files one folder may hold."""
MAX_TOTAL_BYTES = 256 * 1024 * 1024
"""Most bytes one folder may hold."""
_SKIPPED_FOLDERS = {"__pycache__"}


def is_hidden(relative: str) -> bool:
    """Whether a relative path names a hidden file or lies in a hidden folder (never read)."""
    return any(part.startswith(".") for part in PurePosixPath(relative).parts)


@dataclass(frozen=True)
class Tree:
    """Every readable file of one folder, as it was at one moment."""

    root: Path
    """The folder as the command named it (messages show paths under ``label``)."""
    label: str
    """How messages name the folder, e.g. ``content/deadline-99`` or ``templates``."""
    files: Mapping[str, bytes]
    """Relative POSIX path -> bytes."""
    refused: Mapping[str, str] = field(default_factory=dict)
    """Relative POSIX path -> why it is not read."""
    digest: str = ""

    @property
    def resolved(self) -> Path:
        return _resolved(self.root)

    def relative(self, path: Path) -> str | None:
        """``path``'s name inside this folder, or None when it lies elsewhere."""
        candidate = path if path.is_absolute() else Path.cwd() / path
        for base in (
            self.root if self.root.is_absolute() else Path.cwd() / self.root,
            self.resolved,
        ):
            try:
                return candidate.relative_to(base).as_posix()
            except ValueError:
                continue
        return None

    def read(self, relative: str) -> bytes:
        """The bytes of ``relative``; ContentError, located at the file, when it is refused or
        absent."""
        data = self.files.get(relative)
        if data is not None:
            return data
        where = Location(f"{self.label}/{relative}")
        reason = self.refused.get(relative)
        if reason is None:
            reason = (
                "hidden files (whose name starts with '.') are not read"
                if is_hidden(relative)
                else "no such file"
            )
        raise ContentError([Problem(where, reason)])

    def names(self, suffix: str = "", folder: str = "") -> list[str]:
        """The files directly in ``folder`` (the tree's root by default) ending in ``suffix``,
        refused ones included (reading them says why), sorted."""
        prefix = f"{folder}/" if folder else ""
        found = {
            name
            for name in (*self.files, *self.refused)
            if name.startswith(prefix) and "/" not in name[len(prefix) :]
        }
        return sorted(name for name in found if name.endswith(suffix))


@dataclass(frozen=True)
class Snapshot:
    """A game's content folder and the templates folder, read at one moment."""

    content: Tree
    templates: Tree

    @property
    def digest(self) -> str:
        """The digest of every byte the command may read of the game."""
        return hashlib.sha256(
            f"content {self.content.digest}\0templates {self.templates.digest}".encode()
        ).hexdigest()

    @contextlib.contextmanager
    def pinned(self) -> Iterator[Snapshot]:
        """Make the readers of this thread read from this snapshot within the block."""
        token = _PINNED.set(self)
        try:
            yield self
        finally:
            _PINNED.reset(token)


_PINNED: contextvars.ContextVar[Snapshot | None] = contextvars.ContextVar(
    "pnp_sources", default=None
)


def pinned_snapshot() -> Snapshot | None:
    """The snapshot the readers of this thread read from now, if any."""
    return _PINNED.get()


def display_root(content_root: Path) -> str:
    """The content folder as messages name it: relative to where the user stands, if inside."""
    try:
        return str(content_root.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(content_root)


def take_snapshot(content_folder: Path, templates_root: Path, *, label: str = "") -> Snapshot:
    """Read a game's content folder and the templates folder."""
    return Snapshot(
        content=read_tree(content_folder, label or _display(content_folder)),
        templates=read_tree(templates_root, "templates"),
    )


def read_tree(root: Path, label: str) -> Tree:
    """Every readable file under ``root`` (see the module's rules); an absent folder is an
    empty tree (its readers say what is missing)."""
    files: dict[str, bytes] = {}
    refused: dict[str, str] = {}
    base = _resolved(root)
    if base.is_dir():
        total = 0
        for relative, reason in _walk(base):
            if reason is not None:
                refused[relative] = reason
                continue
            if len(files) >= MAX_FILES:
                refused[relative] = f"more than {MAX_FILES:,} files in the folder: not read"
                continue
            data, reason = _read_regular(base / relative)
            if data is None:
                refused[relative] = reason or "cannot be read"
                continue
            total += len(data)
            if total > MAX_TOTAL_BYTES:
                refused[relative] = (
                    f"the folder holds more than {MAX_TOTAL_BYTES // (1024 * 1024)} MB: not read"
                )
                continue
            files[relative] = data
    return Tree(root, label, files, refused, tree_digest(files, refused))


def tree_digest(files: Mapping[str, bytes], refused: Mapping[str, str]) -> str:
    """The digest of a folder's files (by name and bytes) and of the ones refused (by reason)."""
    digest = hashlib.sha256()
    for name in sorted({*files, *refused}):
        data = files.get(name)
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        if data is None:
            digest.update(b"refused\0" + refused[name].encode() + b"\0")
        else:
            digest.update(f"{len(data)}\0".encode() + data)
    return digest.hexdigest()


def read_file(path: Path, display: str) -> bytes:
    """The bytes of ``path`` from the pinned snapshot when it holds the file's folder, else
    from disk under the same rules (a hidden file, a non-regular file or one that is too large
    is refused); ContentError located at ``display`` when it cannot be read."""
    snapshot = pinned_snapshot()
    if snapshot is not None:
        for tree in (snapshot.content, snapshot.templates):
            relative = tree.relative(path)
            if relative is not None and not relative.startswith(".."):
                try:
                    return tree.read(relative)
                except ContentError as error:
                    why = error.problems[0].message
                    raise ContentError([Problem(Location(display), why)]) from None
    if is_hidden(path.name):
        raise ContentError(
            [Problem(Location(display), "hidden files (whose name starts with '.') are not read")]
        )
    data, reason = _read_regular(path)
    if data is None:
        raise ContentError([Problem(Location(display), reason or "cannot be read")])
    return data


def _walk(base: Path) -> Iterator[tuple[str, str | None]]:
    """(relative path, reason it is refused or None) of every file under ``base``, following
    folder links that stay inside it (once each)."""
    seen: set[Path] = {base}
    pending = [(base, "")]
    while pending:
        folder, prefix = pending.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            relative = f"{prefix}{name}"
            if name.startswith(".") or name in _SKIPPED_FOLDERS:
                continue
            if entry.is_symlink():
                try:
                    target = Path(entry.path).resolve(strict=True)
                except (OSError, RuntimeError):
                    yield relative, "a symbolic link that leads nowhere: not read"
                    continue
                if not target.is_relative_to(base):
                    # Never quote the target: the message may land in a public CI log.
                    yield (
                        relative,
                        (
                            "a symbolic link that leads outside its folder: not read (copy the "
                            "file into the folder instead)"
                        ),
                    )
                    continue
                if target.is_dir():
                    if target not in seen:
                        seen.add(target)
                        pending.append((target, relative + "/"))
                    continue
                yield relative, None
                continue
            if entry.is_dir(follow_symlinks=False):
                pending.append((Path(entry.path), relative + "/"))
                continue
            yield relative, None


def _read_regular(path: Path) -> tuple[bytes | None, str | None]:
    """The bytes of a regular file no larger than MAX_FILE_BYTES, or (None, why not)."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None, "no such file"
    except OSError as error:
        return None, f"cannot be read: {error.strerror or error}"
    with os.fdopen(handle, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None, "not a regular file: not read"
        if info.st_size > MAX_FILE_BYTES:
            return None, (
                f"the file is {info.st_size / (1024 * 1024):.0f} MB; files may be at most "
                f"{MAX_FILE_BYTES // (1024 * 1024)} MB"
            )
        data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        return None, f"the file grew past {MAX_FILE_BYTES // (1024 * 1024)} MB while read"
    return data, None


_RESOLVED: dict[Path, Path] = {}


def _resolved(root: Path) -> Path:
    found = _RESOLVED.get(root)
    if found is None:
        try:
            found = root.resolve()
        except (OSError, RuntimeError):
            found = root.absolute()
        _RESOLVED[root] = found
    return found


def _display(folder: Path) -> str:
    try:
        return folder.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(folder)
