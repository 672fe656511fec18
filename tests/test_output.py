"""A build tidies its output folder: what a killed build or a renamed product left behind goes,
what pnp never wrote stays."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.output import MANIFEST, read_manifest, sha256_of


def build(content: Path, out: Path) -> str:
    """Build deadline-99 into the kit folder ``out`` (``--out`` names the root above it)."""
    assert out.name == "deadline-99"
    result = CliRunner().invoke(
        main, ["--content", str(content), "build", "deadline-99", "--out", str(out.parent)]
    )
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_the_next_build_removes_what_a_killed_build_left(
    content_copy: Path, tmp_path: Path
) -> None:
    out = tmp_path / "deadline-99"
    out.mkdir()
    leftovers = [
        out / ".deadline-99-rulebook-k3x9_abc.pdf",
        out / ".deadline-99-count-tracker-zz9qq1aa.pdf",
    ]
    for path in leftovers:
        path.write_bytes(b"%PDF-1.4 half written")
    mine = out / ".notes-abcdefgh.pdf"  # not a file of this game's kit
    mine.write_bytes(b"keep")
    build(content_copy, out)
    assert not any(path.exists() for path in leftovers)
    assert mine.exists()
    assert not [p.name for p in out.iterdir() if p.name.startswith(".deadline-99")]


def test_a_renamed_product_leaves_no_stale_pdf(content_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "deadline-99"
    build(content_copy, out)
    (out / "my-notes.pdf").write_bytes(b"%PDF-1.4 mine")
    old = out / "deadline-99-count-tracker.pdf"
    assert old.is_file()
    kit = content_copy / "deadline-99" / "kit.yaml"
    kit.write_text(
        kit.read_text(encoding="utf-8").replace("id: count-tracker", "id: count-dial"),
        encoding="utf-8",
    )
    output = build(content_copy, out)
    assert not old.exists()
    assert (out / "deadline-99-count-dial.pdf").is_file()
    assert "removed deadline-99-count-tracker.pdf" in output
    assert (out / "my-notes.pdf").exists()


def test_the_manifest_records_every_file_with_its_digest(tmp_path: Path) -> None:
    from tests.conftest import CONTENT

    out = tmp_path / "deadline-99"
    build(CONTENT, out)
    files = read_manifest(out)["files"]
    assert isinstance(files, dict)
    pdfs = sorted(p.name for p in out.glob("*.pdf"))
    assert sorted(files) == pdfs
    assert all(files[name] == sha256_of(out / name) for name in pdfs)
    assert (out / MANIFEST).is_file()
