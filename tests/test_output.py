"""A build tidies its output folder: what a killed build or a renamed product left behind goes,
what pnp never wrote stays."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.output import MANIFEST, read_manifest, sha256_of


def build(content: Path, out: Path, *extra: str) -> str:
    """Build deadline-99 into the kit folder ``out`` (``--out`` names the root above it)."""
    assert out.name == "deadline-99"
    result = CliRunner().invoke(
        main,
        ["--content", str(content), "build", "deadline-99", "--out", str(out.parent), *extra],
    )
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="session")
def built_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """deadline-99's kit folder as `pnp build` makes it from the repository's content, built
    once by each test process: a kit is up to date for the fonts as this process named them
    (a process that first met another font cache names its fonts otherwise, which changes
    the bytes), so each process builds its own."""
    from tests.conftest import CONTENT

    out = tmp_path_factory.mktemp("built-once") / "deadline-99"
    build(CONTENT, out)
    return out


def built(kit: Path, out: Path) -> None:
    """Give ``out`` the kit a build of unchanged content writes (a copy of `built_once`): each
    test then edits and builds again. The record of the build names the bytes it read, not
    where they were, so the kit is as up to date for a copy of the content as for the
    content itself."""
    import shutil

    shutil.copytree(kit, out)


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


def test_a_renamed_product_leaves_no_stale_pdf(
    content_copy: Path, tmp_path: Path, built_once: Path
) -> None:
    out = tmp_path / "deadline-99"
    built(built_once, out)
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


def test_the_manifest_records_every_file_with_its_digest(built_once: Path) -> None:
    out = built_once
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


def test_a_build_of_unchanged_inputs_writes_nothing(
    content_copy: Path, tmp_path: Path, built_once: Path
) -> None:
    out = tmp_path / "deadline-99"
    built(built_once, out)
    before = _times(out)
    code, stdout, _ = _build_args(content_copy, out)
    assert code == 0 and "deadline-99: up to date" in stdout
    assert _times(out) == before


def test_a_one_card_edit_renders_that_product_and_what_lists_it_only(
    content_copy: Path, tmp_path: Path, built_once: Path
) -> None:
    out = tmp_path / "deadline-99"
    built(built_once, out)
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


def test_a_file_changed_by_hand_is_rendered_again(
    content_copy: Path, tmp_path: Path, built_once: Path
) -> None:
    out = tmp_path / "deadline-99"
    built(built_once, out)
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
    content_copy: Path, tmp_path: Path, built_once: Path
) -> None:
    import threading
    import time

    from pnp.cli.app import Context
    from pnp.cli.build import build_one
    from pnp.cli.watch import watch_games
    from pnp.options import BuildOptions

    out = tmp_path / "deadline-99"
    built(built_once, out)
    before = _times(out)
    context = Context(content_copy, verbosity=0)

    rebuilt = threading.Event()

    def rebuild(slug: str) -> None:
        build_one(
            context, slug, tmp_path / slug, BuildOptions(), only=(), force=False, exports=False
        )
        rebuilt.set()  # the watch stops once it has rebuilt, or after its 40 polls

    watcher = threading.Thread(
        target=watch_games,
        args=(context, ["deadline-99"], rebuild),
        kwargs={"rounds": 40, "stop": rebuilt},
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
    content_copy: Path, tmp_path: Path, built_once: Path
) -> None:
    out = tmp_path / "deadline-99"
    built(built_once, out)
    (out / "export" / "png").mkdir(parents=True)
    (out / "export" / "png" / "old.zip").write_bytes(b"old")
    (out / "my-notes.txt").write_text("mine")
    code, _, err = _build_args(content_copy, out, "--clean")
    assert code == 0, err
    assert not (out / "export").exists()
    assert (out / "my-notes.txt").read_text() == "mine"
    assert (out / "deadline-99-playing-cards.pdf").is_file()


# -- issue 27: every output is a pure function of the bytes it read ---------------------------


def _kit_with_templates(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of deadline-99's content with a templates folder of its own beside it."""
    import shutil

    from tests.conftest import CONTENT, TEMPLATES

    content, templates = tmp_path / "content", tmp_path / "templates"
    shutil.copytree(CONTENT / "deadline-99", content / "deadline-99")
    shutil.copytree(TEMPLATES / "deadline-99", templates / "deadline-99")
    return content, templates


def _png(path: Path, colour: str) -> None:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 8), colour).save(path)


def test_replaced_art_is_drawn_by_the_next_build(tmp_path: Path) -> None:
    content, templates = _kit_with_templates(tmp_path)
    face = templates / "deadline-99" / "variant-card.yaml"
    face.write_text(
        face.read_text(encoding="utf-8")
        + "  - {type: image, x: 1mm, y: 1mm, w: 5mm, h: 5mm, src: art/mark.png}\n",
        encoding="utf-8",
    )
    art = content / "deadline-99" / "art" / "mark.png"
    _png(art, "red")
    out = tmp_path / "out" / "deadline-99"
    only = ("--only", "variant-cards")  # the sheet that draws the picture
    build(content, out, *only)
    sheet = out / "deadline-99-variant-cards.pdf"
    red = sha256_of(sheet)
    _png(art, "blue")  # the same path, new bytes
    code, stdout, err = _build_args(content, out, *only)
    assert code == 0, err
    assert "wrote deadline-99-variant-cards.pdf" in stdout
    assert sha256_of(sheet) != red
    fresh = tmp_path / "fresh" / "deadline-99"
    assert _build_args(content, fresh, "--force", *only)[0] == 0
    assert sha256_of(sheet) == sha256_of(fresh / sheet.name)


@pytest.mark.long
def test_watch_sees_every_template_edit(tmp_path: Path) -> None:
    import threading
    import time

    from pnp.cli.app import Context
    from pnp.cli.build import build_one
    from pnp.cli.watch import watch_games
    from pnp.options import BuildOptions

    content, templates = _kit_with_templates(tmp_path)
    out = tmp_path / "out" / "deadline-99"
    build(content, out, "--only", "count-tracker")  # the sheet the edits are made to
    context = Context(content, verbosity=0)
    assert context.templates_root == templates

    def rebuild(slug: str) -> None:
        build_one(
            context, slug, out, BuildOptions(), only=("count-tracker",), force=False, exports=False
        )

    stop = threading.Event()
    watcher = threading.Thread(
        target=watch_games, args=(context, ["deadline-99"], rebuild), kwargs={"stop": stop}
    )
    watcher.start()
    face = templates / "deadline-99" / "count-tracker.yaml"
    original = face.read_text(encoding="utf-8")
    sheet = out / "deadline-99-count-tracker.pdf"
    seen = [sha256_of(sheet)]
    time.sleep(1)  # the watch has looked at the files once
    try:
        for fill in ("pale", "red"):  # the second edit is the one a cache by path missed
            background = f"{{type: background, fill: {fill}}}"
            edited = original.replace("{type: background, fill: paper}", background)
            face.write_text(edited, encoding="utf-8")
            deadline = time.monotonic() + 60
            while sha256_of(sheet) == seen[-1] and time.monotonic() < deadline:
                time.sleep(0.1)
            seen.append(sha256_of(sheet))
    finally:
        stop.set()
        watcher.join(timeout=60)
    assert len(set(seen)) == 3, "an edit of the template did not reach the kit"
    fresh = tmp_path / "fresh" / "deadline-99"
    assert _build_args(content, fresh, "--force")[0] == 0
    assert sha256_of(fresh / sheet.name) == seen[-1]


def test_hidden_files_are_neither_read_nor_a_reason_to_rebuild(
    content_copy: Path, tmp_path: Path, built_once: Path
) -> None:
    out = tmp_path / "deadline-99"
    built(built_once, out)
    lock = content_copy / "deadline-99" / ".#cards.yaml"  # an editor's lock file
    lock.write_text("players: [broken\n", encoding="utf-8")
    code, stdout, err = _build_args(content_copy, out)
    assert code == 0, err
    assert "up to date" in stdout
    result = CliRunner().invoke(
        main, ["--content", str(content_copy), "validate", "deadline-99", "--static-only"]
    )
    assert result.exit_code == 0, result.stdout + result.stderr


def test_a_file_saved_while_a_build_runs_is_built_by_the_next_build(
    content_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build reads its files once: the kit is of those bytes, its record says so, and an
    edit saved meanwhile makes the next build rebuild (never "up to date" on a stale kit)."""
    from pnp.cli import app

    out = tmp_path / "deadline-99"
    variants = content_copy / "deadline-99" / "variants.yaml"
    text = variants.read_text(encoding="utf-8")
    checked = app.Context.checked

    def saved_meanwhile(
        self: app.Context, slug: str, sources: object = None, **options: float
    ) -> object:
        # The files were read; the designer saves an edit as the build goes on.
        variants.write_text(text.replace("name: 天使", "name: 大天使"), encoding="utf-8")
        return checked(self, slug, sources, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(app.Context, "checked", saved_meanwhile)
    build(content_copy, out)
    monkeypatch.setattr(app.Context, "checked", checked)
    code, stdout, err = _build_args(content_copy, out)
    assert code == 0, err
    assert "up to date" not in stdout
    assert "wrote deadline-99-variant-cards.pdf" in stdout
    code, stdout, _ = _build_args(content_copy, out)
    assert "up to date" in stdout


@pytest.mark.long
def test_a_second_build_waits_for_the_first_and_leaves_its_files_alone(
    content_copy: Path, tmp_path: Path
) -> None:
    """A build removes the temporary files a killed build left: never those of a build that
    is still writing into the same folder (which then failed with a bug report)."""
    import subprocess
    import sys
    import time

    from pnp.output import folder_lock

    kit = tmp_path / "out" / "deadline-99"
    kit.mkdir(parents=True)
    command = [
        sys.executable, "-m", "pnp", "-q", "--content", str(content_copy),
        "build", "deadline-99", "--out", str(kit.parent),
    ]  # fmt: skip
    with folder_lock(kit):  # another build is writing
        being_written = kit / ".deadline-99-count-tracker-abcd1234.pdf"
        being_written.write_bytes(b"%PDF-1.4 half way")
        second = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        time.sleep(3)
        assert second.poll() is None  # waiting its turn
        assert being_written.exists()
        being_written.unlink()  # the first build renames it into place as it finishes
    assert second.wait(timeout=300) == 0, second.stderr.read() if second.stderr else ""
    code, stdout, _ = _build_args(content_copy, kit)
    assert code == 0 and "up to date" in stdout


@pytest.mark.long
def test_builds_side_by_side_into_one_folder_all_succeed(
    content_copy: Path, tmp_path: Path
) -> None:
    import subprocess
    import sys

    # One product each: the builds meet at the same folder, lock and record as whole kits
    # do, at a third of the cost.
    out = tmp_path / "out"
    command = [
        sys.executable, "-m", "pnp", "-q", "--content", str(content_copy),
        "build", "deadline-99", "--out", str(out), "--force", "--only", "count-tracker",
    ]  # fmt: skip
    for _ in range(2):  # into an empty folder, then over the kit they wrote
        runs = [subprocess.Popen(command, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        results = [(run.wait(timeout=300), run.stderr.read() if run.stderr else "") for run in runs]
        assert [code for code, _ in results] == [0, 0], results
    kit = out / "deadline-99"
    assert [p.name for p in kit.iterdir() if not p.name.startswith(".pnp")] == [
        "deadline-99-count-tracker.pdf"
    ]
    code, stdout, _ = _build_args(content_copy, kit, "--only", "count-tracker")
    assert code == 0 and "0 rendered" in stdout and "kept deadline-99-count-tracker.pdf" in stdout


def test_a_tampered_record_is_not_trusted(
    content_copy: Path, tmp_path: Path, built_once: Path
) -> None:
    """The record lies in the output folder, which others can write: a foreign PDF whose hash
    was written into it is rendered over, and a file it lists that pnp never wrote stays."""
    import json

    out = tmp_path / "deadline-99"
    built(built_once, out)
    tracker = out / "deadline-99-count-tracker.pdf"
    good = sha256_of(tracker)
    tracker.write_bytes(b"%PDF-1.4 not the kit's")
    notes = out / "my-notes.txt"
    notes.write_text("mine", encoding="utf-8")
    record = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    record["files"]["deadline-99-count-tracker.pdf"] = sha256_of(tracker)
    record["files"]["my-notes.txt"] = sha256_of(notes)
    (out / MANIFEST).write_text(json.dumps(record), encoding="utf-8")
    code, stdout, err = _build_args(content_copy, out)
    assert code == 0, err
    assert "up to date" not in stdout
    assert sha256_of(tracker) == good
    assert notes.read_text(encoding="utf-8") == "mine"


def test_a_listed_file_that_is_no_longer_pnps_is_kept(
    content_copy: Path, tmp_path: Path, built_once: Path
) -> None:
    out = tmp_path / "deadline-99"
    built(built_once, out)
    tracker = out / "deadline-99-count-tracker.pdf"
    tracker.write_bytes(b"%PDF-1.4 a player's own edit")
    kit = content_copy / "deadline-99" / "kit.yaml"
    kit.write_text(
        kit.read_text(encoding="utf-8").replace("id: count-tracker", "id: count-dial"),
        encoding="utf-8",
    )
    code, _, err = _build_args(content_copy, out)
    assert code == 0, err
    assert tracker.read_bytes() == b"%PDF-1.4 a player's own edit"
