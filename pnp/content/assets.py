"""Files content points at (images on faces) stay inside the game's content folder.

A content change must not be able to put any file of the build machine into a published PDF:
an asset path is relative, and it names a regular file under the game's folder — symlinks
included only when they resolve inside it — or it is refused with a message that says where
it was asked for. Assets are read from the pinned snapshot of the game's folder (see
:mod:`pnp.content.sources`), like every other file a build reads: the bytes a face shows are
the bytes its build record is keyed on.
"""

from __future__ import annotations

import hashlib
from pathlib import Path, PurePosixPath

from pnp.content.sources import MAX_FILE_BYTES, pinned_snapshot, read_file
from pnp.errors import ContentError, TemplateError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
"""Image files a face may show (what reportlab and pillow read)."""

MAX_ASSET_BYTES = MAX_FILE_BYTES
"""Largest asset file pnp reads (a print-resolution card image is a few MB)."""


def asset_name(name: str, where: str) -> str:
    """``name`` as a relative POSIX path inside the game's folder; TemplateError, located at
    ``where``, for an empty or absolute path, one that climbs out (``..``) or one that is not
    an image."""
    text = name.strip()
    if not text:
        raise TemplateError(f"{where}: image: empty path")
    pure = PurePosixPath(text.replace("\\", "/"))
    if pure.is_absolute() or (len(text) > 1 and text[1] == ":"):
        raise TemplateError(
            f"{where}: image {name!r}: absolute paths are not allowed; "
            "name a file inside the game's content folder"
        )
    if not text.lower().endswith(IMAGE_SUFFIXES):
        raise TemplateError(f"{where}: image {name!r}: expected a {', '.join(IMAGE_SUFFIXES)} file")
    parts = [part for part in pure.parts if part not in ("", ".")]
    if ".." in parts:
        raise TemplateError(f"{where}: image {name!r} lies outside the game's content folder")
    return "/".join(parts)


def read_asset(folder: Path, name: str, where: str) -> bytes:
    """The bytes of the image ``name`` inside ``folder`` (from the pinned snapshot when there
    is one); TemplateError located at ``where`` when it cannot be shown."""
    relative = asset_name(name, where)
    path = folder / relative
    if pinned_snapshot() is None:
        # Read from disk: the same confinement the snapshot applies.
        root = folder.resolve()
        try:
            inside = path.resolve().is_relative_to(root)
        except (OSError, RuntimeError):
            inside = False
        if not inside:
            raise TemplateError(f"{where}: image {name!r} lies outside the game's content folder")
    try:
        return read_file(path, relative)
    except ContentError as error:
        reason = error.problems[0].message
        if reason == "no such file":
            raise TemplateError(
                f"{where}: image {name!r} not found in the game's content folder"
            ) from None
        raise TemplateError(f"{where}: image {name!r}: {reason}") from None


def asset_digest(name: str) -> str:
    """The SHA-256 of the image ``name`` in the pinned snapshot's content folder; empty when
    no snapshot is pinned or it holds no such file (drawing it then says what is wrong).
    Layout keeps it in the image's shape, so a face whose picture changed is a new face."""
    snapshot = pinned_snapshot()
    if snapshot is None:
        return ""
    try:
        relative = asset_name(name, "")
    except TemplateError:
        return ""
    data = snapshot.content.files.get(relative)
    return hashlib.sha256(data).hexdigest() if data is not None else ""


ART_FOLDER = "art"
"""Where a designer puts their own pictures: ``art/<name>.png`` (or any image suffix) in a
game's content folder replaces the sprite or icon ``name`` wherever a face draws it in a box
of its own (a card's picture, an emblem, the mark on a back)."""


def designer_art(name: str) -> str:
    """The designer's own picture for the sprite or icon ``name``, as an asset name; empty
    when the game's folder (the pinned snapshot) has none."""
    snapshot = pinned_snapshot()
    if snapshot is None:
        return ""
    files = snapshot.content.files
    return next(
        (
            f"{ART_FOLDER}/{name}{suffix}"
            for suffix in IMAGE_SUFFIXES
            if f"{ART_FOLDER}/{name}{suffix}" in files
        ),
        "",
    )
