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


def _times(out: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in out.glob("*.pdf")}


def _build_args(content: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        main,
        ["--content", str(content), "-v", "build", "deadline-99", "--out", str(out.parent), *extra],
    )
    return result.exit_code, result.stdout, result.stderr


def test_a_build_of_unchanged_inputs_writes_nothing(content_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "deadline-99"
    build(content_copy, out)
    before = _times(out)
    code, stdout, _ = _build_args(content_copy, out)
    assert code == 0 and "deadline-99: up to date" in stdout
    assert _times(out) == before


def test_a_one_card_edit_renders_that_product_and_what_lists_it_only(
    content_copy: Path, tmp_path: Path
) -> None:
    out = tmp_path / "deadline-99"
    build(content_copy, out)
    before = _times(out)
    variants = content_copy / "deadline-99" / "variants.yaml"
    variants.write_text(variants.read_text(encoding="utf-8").replace("name: 天使", "name: 大天使"))
    code, stdout, _ = _build_args(content_copy, out)
    assert code == 0, stdout
    after = _times(out)
    changed = {name for name in after if after[name] != before[name]}
    # The card's own sheet, the cover that lists every file, and the rulebook (which quotes
    # content and shows the cards) are redrawn; every other sheet is kept as it was.
    assert changed == {
        "deadline-99-variant-cards.pdf",
        "deadline-99-00-read-me-first.pdf",
        "deadline-99-rulebook.pdf",
        "deadline-99-rulebook-booklet.pdf",
    }
    assert "kept deadline-99-playing-cards.pdf (unchanged)" in stdout
    # The cache changes what is written, never the bytes: a forced full build agrees.
    fresh = tmp_path / "fresh" / "deadline-99"
    code, _, err = _build_args(content_copy, fresh, "--force")
    assert code == 0, err
    for name in after:
        assert sha256_of(out / name) == sha256_of(fresh / name), name


def test_a_file_changed_by_hand_is_rendered_again(content_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "deadline-99"
    build(content_copy, out)
    tracker = out / "deadline-99-count-tracker.pdf"
    good = sha256_of(tracker)
    tracker.write_bytes(b"%PDF-1.4 scribbled over")
    code, stdout, _ = _build_args(content_copy, out)
    assert code == 0 and "wrote deadline-99-count-tracker.pdf" in stdout
    assert sha256_of(tracker) == good


def test_only_builds_the_named_product_and_leaves_the_rest(
    content_copy: Path, tmp_path: Path
) -> None:
    out = tmp_path / "deadline-99"
    code, _, err = _build_args(content_copy, out, "--only", "count-tracker")
    assert code == 0, err
    assert sorted(p.name for p in out.glob("*.pdf")) == ["deadline-99-count-tracker.pdf"]
    assert "deadline-99-count-tracker.pdf" in read_manifest(out)["files"]  # type: ignore[operator]
    code, _, err = _build_args(content_copy, out, "--only", "count-trackr")
    assert code != 0 and "did you mean 'count-tracker'" in err


def test_watch_rebuilds_a_game_when_its_content_is_saved(
    content_copy: Path, tmp_path: Path
) -> None:
    import threading
    import time

    from pnp.cli.app import Context
    from pnp.cli.build import build_one
    from pnp.cli.watch import watch_games
    from pnp.options import BuildOptions

    out = tmp_path / "deadline-99"
    build(content_copy, out)
    before = _times(out)
    context = Context(content_copy, verbosity=0)

    def rebuild(slug: str) -> None:
        build_one(
            context, slug, tmp_path / slug, BuildOptions(), only=(), force=False, exports=False
        )

    watcher = threading.Thread(
        target=watch_games, args=(context, ["deadline-99"], rebuild), kwargs={"rounds": 40}
    )
    watcher.start()
    time.sleep(0.5)
    variants = content_copy / "deadline-99" / "variants.yaml"
    variants.write_text(variants.read_text(encoding="utf-8").replace("name: 天使", "name: 大天使"))
    watcher.join(timeout=120)
    assert not watcher.is_alive()
    after = _times(out)
    assert after["deadline-99-variant-cards.pdf"] != before["deadline-99-variant-cards.pdf"]
    assert after["deadline-99-playing-cards.pdf"] == before["deadline-99-playing-cards.pdf"]


def test_clean_removes_what_pnp_wrote_and_keeps_the_rest(
    content_copy: Path, tmp_path: Path
) -> None:
    out = tmp_path / "deadline-99"
    build(content_copy, out)
    (out / "export" / "png").mkdir(parents=True)
    (out / "export" / "png" / "old.zip").write_bytes(b"old")
    (out / "my-notes.txt").write_text("mine")
    code, _, err = _build_args(content_copy, out, "--clean")
    assert code == 0, err
    assert not (out / "export").exists()
    assert (out / "my-notes.txt").read_text() == "mine"
    assert (out / "deadline-99-playing-cards.pdf").is_file()
