"""The gate's passing verdicts, kept between commands.

Every command passes a game's content through the static checks before it uses it
(:func:`pnp.validate.runner.require_clean`): 0.05 to 0.25 s of CPU a game, most of it laying
out every product to find template mistakes. An export of cards lays out its cards only, so
for it the rest of that work is the check alone. The checks read nothing but what the build
cache digests (:func:`pnp.output.input_digest`: the game's content folder, the templates,
pnp's own code, the installed libraries and the variables that choose the fonts), so content
with the digest of content that passed passes again.

Only a pass is kept: an empty file named by the digest, in ``verdicts/`` of the parse store's
folder (see :mod:`pnp.content.parsecache`; ``PNP_PARSE_CACHE=off`` turns both off). Content
that fails is checked every time, so the errors shown are always those of the code running.
A verdict that cannot be read or written is checked instead: the store makes commands
faster, never different.
"""

from __future__ import annotations

from pathlib import Path

from pnp.content.parsecache import parse_cache_dir
from pnp.output import atomic_output, input_digest

_CHECKS = "check_static"  # what the digest is of, beside the inputs


def verdict_key(content_folder: Path, templates_root: Path) -> str:
    """The digest of everything the static checks of the game in ``content_folder`` read.
    Taken before the content is loaded, so the content checked is no older than the key."""
    return input_digest(content_folder, templates_root, _CHECKS)


def passed_before(key: str) -> bool:
    path = _path(key)
    return path is not None and path.is_file()


def remember_passed(key: str) -> None:
    path = _path(key)
    if path is None:
        return
    try:
        with atomic_output(path):
            pass  # the file's name is the verdict; it is empty
    except OSError:  # a read-only or full disk: the next command checks again
        return


def _path(key: str) -> Path | None:
    root = parse_cache_dir()
    return None if root is None else root / "verdicts" / key
