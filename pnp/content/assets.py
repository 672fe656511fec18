"""Files content points at (images on faces) stay inside the game's content folder.

A content change must not be able to put any file of the build machine into a published PDF:
an asset path is relative, and it resolves — symlinks included — to a regular file under the
game's folder, or it is refused with a message that says where it was asked for.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from pnp.errors import TemplateError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
"""Image files a face may show (what reportlab and pillow read)."""

MAX_ASSET_BYTES = 20 * 1024 * 1024
"""Largest asset file pnp reads (a print-resolution card image is a few MB)."""


def resolve_asset(folder: Path, name: str, where: str) -> Path:
    """The file ``name`` names inside ``folder``; TemplateError, located at ``where``, for a
    path that is absolute, climbs out of the folder (``..`` or a symlink), does not exist,
    is not an image or is too large."""
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
    root = folder.resolve()
    target = (root / pure).resolve()
    if not target.is_relative_to(root):
        raise TemplateError(f"{where}: image {name!r} lies outside the game's content folder")
    if not target.is_file():
        raise TemplateError(f"{where}: image {name!r} not found in the game's content folder")
    size = target.stat().st_size
    if size > MAX_ASSET_BYTES:
        raise TemplateError(
            f"{where}: image {name!r} is {size / 1e6:.0f} MB (at most "
            f"{MAX_ASSET_BYTES / 1e6:.0f} MB)"
        )
    return target
