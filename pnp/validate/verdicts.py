"""The gate's passing verdicts, kept between commands.

Every command passes a game's content through the static checks before it uses it
(:func:`pnp.validate.runner.require_clean`): 0.05 to 0.25 s of CPU a game, most of it laying
out every product to find template mistakes. The checks read nothing but the game's snapshot
(:mod:`pnp.content.sources`: its content folder and the templates, read once) and pnp's own
code and libraries, so content whose snapshot has the digest of content that passed passes
again: the verdict is keyed on the very bytes that were checked, whatever happens to the files
meanwhile.

Only a pass is kept, in ``verdicts/`` of the parse store's folder (see
:mod:`pnp.content.parsecache`; ``PNP_PARSE_CACHE=off`` turns both off), sealed with this
user's key on this machine (:mod:`pnp.trust`): a pass planted in a restored cache does not
verify, so the content is checked. Content that fails is checked every time, so the errors
shown are always those of the code running. A verdict that cannot be read or written is
checked instead: the store makes commands faster, never different.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pnp.content.parsecache import parse_cache_dir
from pnp.output import atomic_output, code_fingerprint
from pnp.trust import seal, unseal

_PASSED = b"check_static passed"


def verdict_key(snapshot_digest: str) -> str:
    """The digest of what the static checks of a game read: its snapshot and pnp's code."""
    text = f"check_static\0{code_fingerprint()}\0{snapshot_digest}"
    return hashlib.sha256(text.encode()).hexdigest()


def passed_before(key: str) -> bool:
    path = _path(key)
    if path is None:
        return False
    try:
        return unseal(_name(key), path.read_bytes()) == _PASSED
    except OSError:
        return False


def remember_passed(key: str) -> None:
    path = _path(key)
    if path is None:
        return
    try:
        with atomic_output(path) as temporary:
            temporary.write_bytes(seal(_name(key), _PASSED))
    except OSError:  # a read-only or full disk: the next command checks again
        return


def _name(key: str) -> str:
    return f"verdicts/{key}"


def _path(key: str) -> Path | None:
    root = parse_cache_dir()
    return None if root is None else root / "verdicts" / key
