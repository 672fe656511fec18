"""An export made again from the same inputs is skipped before the content is loaded, as a
kit's no-op rebuild is; any change to the inputs or to what it wrote exports again."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.output import MANIFEST, write_manifest


def export(content: Path, out: Path, *formats: str) -> str:
    args = ["--content", str(content), "export", "deadline-99", "--out", str(out)]
    for fmt in formats:
        args += ["--format", fmt]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _times(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*.*")}


def test_an_unchanged_export_is_not_made_again(content_copy: Path, tmp_path: Path) -> None:
    export(content_copy, tmp_path, "png", "tts")
    folder = tmp_path / "deadline-99" / "export"
    before = _times(folder)
    again = export(content_copy, tmp_path, "png", "tts")
    assert "export png: up to date" in again and "export tts: up to date" in again
    assert _times(folder) == before


def test_a_content_edit_exports_again(content_copy: Path, tmp_path: Path) -> None:
    export(content_copy, tmp_path, "png")
    variants = content_copy / "deadline-99" / "variants.yaml"
    variants.write_text(variants.read_text(encoding="utf-8").replace("name: 天使", "name: 大天使"))
    assert "up to date" not in export(content_copy, tmp_path, "png")


def test_an_edited_or_missing_file_exports_again(content_copy: Path, tmp_path: Path) -> None:
    export(content_copy, tmp_path, "png", "tts")
    png = tmp_path / "deadline-99" / "export" / "png" / "default"
    (png / "deadline-99-playing-cards.zip").write_bytes(b"PK scribbled over")
    sheets = sorted((tmp_path / "deadline-99" / "export" / "tts" / "sheets").iterdir())
    sheets[0].unlink()
    again = export(content_copy, tmp_path, "png", "tts")
    assert "up to date" not in again
    assert sheets[0].is_file()


def test_a_record_naming_a_file_outside_its_folder_is_not_trusted(
    content_copy: Path, tmp_path: Path
) -> None:
    export(content_copy, tmp_path, "png")
    record_path = tmp_path / "deadline-99" / "export" / "png" / "default" / MANIFEST
    record = json.loads(record_path.read_text(encoding="utf-8"))
    outside = tmp_path / "outside.txt"
    outside.write_text("x", encoding="utf-8")
    from pnp.output import sha256_of

    record["files"]["../../../../outside.txt"] = sha256_of(outside)
    record_path.write_text(json.dumps(record), encoding="utf-8")
    assert "up to date" not in export(content_copy, tmp_path, "png")


def test_warnings_are_said_again_when_up_to_date(content_copy: Path, tmp_path: Path) -> None:
    export(content_copy, tmp_path, "png")
    record_path = tmp_path / "deadline-99" / "export" / "png" / "default" / MANIFEST
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["warnings"] == []
    record["warnings"] = ["playing-cards: a warning the last export gave"]
    del record["seal"]
    write_manifest(record_path.parent, record)  # as the last export would have sealed it
    result = CliRunner().invoke(
        main,
        [
            "--content",
            str(content_copy),
            "export",
            "deadline-99",
            "--format",
            "png",
            "--out",
            str(tmp_path),
        ],
    )
    assert "up to date" in result.stdout
    assert "warning: playing-cards: a warning the last export gave" in result.stderr
