"""Writing export files: atomically (never half-written) and deterministically."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pnp.output import atomic_output

# The earliest time a zip can hold: fixed, so the same content zips to the same bytes.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)


def write_bytes(path: Path, data: bytes) -> None:
    with atomic_output(path) as temporary:
        temporary.write_bytes(data)


def write_text(path: Path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def write_json(path: Path, payload: Any) -> None:
    write_text(path, json_text(payload))


def json_text(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"


def write_zip(path: Path, entries: Mapping[str, bytes]) -> None:
    """A zip of `entries` in name order with fixed timestamps and permissions.

    PNGs are stored as they are (deflating them again gains nothing); text is deflated.
    """
    with atomic_output(path) as temporary, zipfile.ZipFile(temporary, "w") as archive:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.create_system = 3  # Unix, whatever machine wrote it
            info.external_attr = 0o644 << 16
            info.compress_type = (
                zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED
            )
            archive.writestr(info, entries[name])
