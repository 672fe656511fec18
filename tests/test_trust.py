"""What pnp keeps between commands is sealed by this user on this machine: a planted or moved
entry is never trusted."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pnp import trust


@pytest.fixture(autouse=True)
def own_state(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    state = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    return state


def test_an_entry_sealed_here_opens_under_its_own_name_only() -> None:
    blob = trust.seal("parses/x", b"payload")
    assert trust.unseal("parses/x", blob) == b"payload"
    assert trust.unseal("parses/y", blob) is None  # moved to another name
    assert trust.unseal("parses/x", blob[:-1] + b"P") is None  # altered
    assert trust.unseal("parses/x", b"payload") is None  # never sealed


def test_an_entry_sealed_with_another_key_does_not_open(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "another-home"))
    blob = trust.seal("verdicts/k", b"pass")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert trust.unseal("verdicts/k", blob) is None


def test_the_key_is_this_users_alone(own_state: Path) -> None:
    trust.local_key()
    key_file = own_state / "pnp" / "seal-key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key_file.stat().st_uid == os.getuid()


def test_a_key_file_others_could_write_is_not_used(
    own_state: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A key another user could have written (or read) could seal anything: pnp then seals
    with a key of this process's own, so nothing kept earlier or elsewhere is trusted."""
    folder = tmp_path / "shared-state"
    (folder / "pnp").mkdir(parents=True)
    planted = folder / "pnp" / "seal-key"
    planted.write_bytes(b"k" * 32)
    planted.chmod(0o666)
    monkeypatch.setenv("XDG_STATE_HOME", str(folder))
    blob_with_planted_key = _seal_with_secret(b"k" * 32, "verdicts/k", b"pass")
    assert trust.unseal("verdicts/k", blob_with_planted_key) is None


def _seal_with_secret(secret: bytes, name: str, payload: bytes) -> bytes:
    import hashlib
    import hmac

    key = hmac.new(
        secret, b"pnp\0" + trust._machine_id() + b"\0" + trust._user_id(), "sha256"
    ).digest()
    mac = hmac.new(key, name.encode() + b"\0" + payload, hashlib.sha256).digest()
    return trust.SEAL_PREFIX + mac + payload
