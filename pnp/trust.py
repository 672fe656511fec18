"""Sealing what pnp keeps between commands, so only this user on this machine can vouch for it.

pnp keeps work between commands: jinja's parses and compiled code, the checks' passes, the
glyphs converted from the font, and each output folder's record of what it wrote. All of them
live in folders that other parties can write: a CI cache is restored from shared storage, a
home folder may be shared, an output folder arrives in a zip. Read back as it is, a planted
entry would run code (compiled jinja is executed), pass content the checks refuse, draw wrong
glyphs, or make a build keep a foreign PDF or delete a file pnp never wrote.

So every entry is sealed: an HMAC-SHA256 of its name and bytes under a key that never leaves
this user's state folder (``$XDG_STATE_HOME/pnp`` or ``~/.local/state/pnp``, not the cache
folder that CI restores), readable by this user alone, and bound to this machine's id and
the user's id. An entry whose seal does not verify is treated as absent: made again, never
trusted. A key file that another user could have written (wrong owner, or writable by group
or others) is not used; the process then seals with a key of its own that dies with it (the
stores still work within the command, and no entry of another party is ever trusted).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

SEAL_PREFIX = b"pnp-seal-1\n"
"""What every sealed entry starts with (a format version, to change the scheme cleanly)."""
_MAC_BYTES = hashlib.sha256().digest_size
_SECRET_BYTES = 32


def state_dir() -> Path | None:
    """This user's state folder for pnp (never a cache folder), or None without a home."""
    return _state_dir(os.environ.get("XDG_STATE_HOME"), os.environ.get("HOME"))


@functools.cache
def _state_dir(xdg: str | None, home: str | None) -> Path | None:
    # Keyed on the variables it reads: a build of five kits unseals a thousand entries, and
    # looking the home folder up for each cost 0.15 s of CPU.
    try:
        root = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "state"
    except (RuntimeError, KeyError):
        return None
    return root / "pnp"


def _machine_id() -> bytes:
    for candidate in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            text = Path(candidate).read_bytes().strip()
        except OSError:
            continue
        if text:
            return text
    import platform

    return platform.node().encode("utf-8", "replace")


def _user_id() -> bytes:
    getuid = getattr(os, "getuid", None)
    return str(getuid() if getuid is not None else os.environ.get("USERNAME", "")).encode()


def _own_secret(path: Path) -> bytes | None:
    """The secret in ``path``, made if absent; None when the file is not this user's alone."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(handle, "wb") as stream:
                stream.write(secrets.token_bytes(_SECRET_BYTES))
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(handle, "rb") as stream:
            info = os.fstat(stream.fileno())
            data = stream.read(_SECRET_BYTES + 1)
    except OSError:
        return None
    getuid = getattr(os, "getuid", None)
    if not stat.S_ISREG(info.st_mode) or len(data) != _SECRET_BYTES:
        return None
    if getuid is not None and (info.st_uid != getuid() or info.st_mode & 0o077):
        return None
    return data


@functools.cache
def _key_for(folder: str | None) -> bytes:
    secret = _own_secret(Path(folder) / "seal-key") if folder is not None else None
    if secret is None:
        secret = secrets.token_bytes(_SECRET_BYTES)  # this process's alone
    return hmac.new(secret, b"pnp\0" + _machine_id() + b"\0" + _user_id(), "sha256").digest()


def local_key() -> bytes:
    """The key that seals this user's entries on this machine."""
    folder = state_dir()
    return _key_for(str(folder) if folder is not None else None)


def _mac(name: str, payload: bytes) -> bytes:
    message = name.encode("utf-8", "surrogatepass") + b"\0" + payload
    return hmac.new(local_key(), message, "sha256").digest()


def seal(name: str, payload: bytes) -> bytes:
    """``payload`` sealed under ``name`` (the entry's key: a sealed entry moved to another
    name does not verify)."""
    return SEAL_PREFIX + _mac(name, payload) + payload


def unseal(name: str, blob: bytes) -> bytes | None:
    """The payload of an entry sealed under ``name`` by this user on this machine; None for
    anything else (planted, moved, damaged or from elsewhere)."""
    if not blob.startswith(SEAL_PREFIX):
        return None
    start = len(SEAL_PREFIX)
    mac, payload = blob[start : start + _MAC_BYTES], blob[start + _MAC_BYTES :]
    if len(mac) != _MAC_BYTES or not hmac.compare_digest(mac, _mac(name, payload)):
        return None
    return payload


def seal_text(name: str, text: str) -> str:
    """A hex seal of a text (a JSON record that carries its seal beside its fields)."""
    return _mac(name, text.encode("utf-8", "surrogatepass")).hex()


def verify_text(name: str, text: str, seal_hex: object) -> bool:
    return isinstance(seal_hex, str) and hmac.compare_digest(seal_text(name, text), seal_hex)
