"""The `pnp` command as a user and CI meet it: exit codes, message format, no tracebacks."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.paths import REPOSITORY

PROBLEM_LINE = re.compile(r"^(?P<path>\S+?):(?P<line>\d+)(?::\d+)?: deadline-99: .+$")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def break_game_file(content: Path) -> None:
    path = content / "deadline-99" / "game.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("hand_size: 5", "hand_sise: 5"), encoding="utf-8"
    )


def test_list_shows_games_and_components_with_counts() -> None:
    code, out, _ = run("list")
    assert code == 0
    assert "deadline-99" in out and "死线99" in out
    assert re.search(r"playing-cards\s+96\s+游戏牌", out)
    assert re.search(r"identity-cards\s+12\s+阵营身份牌", out)


def test_validate_passes_on_the_shipped_content() -> None:
    # The command's exit and summary, in process; the full `pnp validate` of the shipped
    # content, simulated play included, is tests/cli/test_validate.py's.
    code, _, err = run("validate", "deadline-99", "--static-only")
    assert code == 0, err
    assert "ok: 1 game(s) valid." in err


def test_validate_names_the_balance_runs_player_only_with_balance() -> None:
    code, _, err = run("validate", "arena-tales", "--policy", "strong")
    assert code == 2
    assert "--policy names the player of the balance run: add --balance" in err
    code, _, err = run("validate", "arena-tales", "--balance", "--policy", "clever")
    assert code == 2
    assert "has no policy 'clever' (choose from random, passive, sensible, strong)" in err
    assert "Traceback" not in err


def test_validate_prints_one_located_line_per_problem_and_exits_1(content_copy: Path) -> None:
    break_game_file(content_copy)
    code, out, err = run("--content", str(content_copy), "validate", "deadline-99")
    assert code == 1
    lines = out.strip().splitlines()
    assert lines and all(PROBLEM_LINE.match(line) for line in lines), lines
    assert any("game.yaml" in line and "did you mean 'hand_size'" in line for line in lines)
    assert "Traceback" not in out + err


def test_validate_json_for_ci(content_copy: Path) -> None:
    break_game_file(content_copy)
    code, out, _ = run(
        "--content", str(content_copy), "validate", "deadline-99", "--format", "json"
    )
    assert code == 1
    payload = json.loads(out)
    assert payload["ok"] is False
    problem = next(p for p in payload["problems"] if "hand_sise" in p["message"])
    assert problem["path"].endswith("deadline-99/game.yaml") and problem["line"] > 0
    assert problem["game"] == "deadline-99"


def test_build_writes_the_kit_where_asked(tmp_path: Path) -> None:
    code, out, err = run("build", "deadline-99", "--out", str(tmp_path), "--paper", "letter")
    assert code == 0, err
    kit = tmp_path / "deadline-99"
    assert (kit / "deadline-99-playing-cards.pdf").is_file()
    assert (kit / "deadline-99-rulebook.pdf").is_file()
    assert (kit / "deadline-99-rulebook-booklet.pdf").is_file()
    assert "deadline-99: 9 files" in out  # the products, rulebooks, read-me, calibration


def test_rulebook_builds_the_rulebook_alone(tmp_path: Path) -> None:
    code, out, err = run("rulebook", "deadline-99", "--out", str(tmp_path))
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "deadline-99").glob("*.pdf")) == [
        "deadline-99-rulebook-booklet.pdf",
        "deadline-99-rulebook.pdf",
    ]
    pages = int(re.search(r"rulebook (\d+) pages", out)[1])  # type: ignore[index]
    # Saddle stitch: four pages to a folded sheet, blanks padding the last one.
    assert f"booklet {-(-pages // 4)} sheets" in out


def test_build_on_broken_content_writes_nothing_and_says_where(
    content_copy: Path, tmp_path: Path
) -> None:
    path = content_copy / "deadline-99" / "cards.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "  - {id: x, label: [\n", encoding="utf-8")
    out_dir = tmp_path / "out"
    code, out, err = run(
        "--content", str(content_copy), "build", "deadline-99", "--out", str(out_dir)
    )
    assert code == 1
    assert re.search(r"cards\.yaml:\d+:\d+: deadline-99: yaml syntax error", err)
    assert "Traceback" not in out + err
    assert not out_dir.exists() or not any(out_dir.rglob("*.pdf"))


def test_an_unknown_game_is_named_with_a_suggestion() -> None:
    code, _, err = run("build", "deadline99")
    assert code == 2
    assert "no game 'deadline99'" in err and "did you mean 'deadline-99'?" in err


def test_simulate_reports_every_mode() -> None:
    code, out, err = run(
        "simulate", "deadline-99", "--players", "5", "--games", "40", "--seed", "1"
    )
    assert code == 0, err
    for mode in ("normal ", "normal+angel-death", "camp "):
        line = next(line for line in out.splitlines() if line.strip().startswith(mode))
        assert "5 players" in line and "cap hits 0" in line
        seats = re.search(r"wins by seat ((?:[\d.]+% ?){5})", line)
        assert seats, line


def test_simulate_refuses_an_unsupported_player_count() -> None:
    code, _, err = run("simulate", "deadline-99", "--players", "2", "--games", "5")
    assert code == 2
    assert "supports 3-12 players" in err


def test_simulate_duel_measures_the_strong_player_on_the_tables_named() -> None:
    code, out, err = run(
        "simulate",
        "deadline-99",
        "--duel",
        "--duel-tables",
        "normal-3p,camp-4p",
        "--duel-games",
        "3",
        "--workers",
        "1",
    )
    assert code == 0, err
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "strong vs sensible normal-3p",
        "strong vs sensible camp-4p",
    ]
    assert all("sign test p =" in line and "[" in line for line in lines)


def test_simulate_duel_names_the_tables_when_one_is_unknown() -> None:
    code, _, err = run("simulate", "deadline-99", "--duel", "--duel-tables", "normal-2p")
    assert code == 2
    assert "no table 'normal-2p'" in err and "normal-3p" in err


def test_every_command_checks_content_before_using_it(content_copy: Path, tmp_path: Path) -> None:
    # A card the engine and printer would both take, but which breaks the deck the post fixes:
    # the static checks catch it, so no command goes on to build or play broken content.
    path = content_copy / "deadline-99" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("hand_size: 5", "hand_size: 0"), encoding="utf-8")
    out_dir = tmp_path / "out"
    for command in (
        ["build", "deadline-99", "--out", str(out_dir)],
        ["rulebook", "deadline-99", "--out", str(out_dir)],
        ["simulate", "deadline-99", "--games", "3"],
        ["export", "deadline-99", "--format", "tts", "--out", str(out_dir)],
        # The png export checks while its workers make the images: still nothing written.
        ["export", "deadline-99", "--format", "png", "--out", str(out_dir)],
    ):
        code, out, err = run("--content", str(content_copy), *command)
        assert code == 1, (command, out, err)
        assert re.search(r"game\.yaml:\d+(:\d+)?: deadline-99: .*hand", err), (command, err)
        assert "Traceback" not in out + err
    assert not out_dir.exists() or not any(out_dir.rglob("*.*"))


def refused_png_export(content: Path, out_dir: Path) -> str:
    """A png export of Deadline 99 from broken content: exit 1, no traceback, nothing
    written. Its error output."""
    code, out, err = run(
        "--content", str(content), "export", "deadline-99", "--format", "png",
        "--out", str(out_dir),
    )  # fmt: skip
    assert code == 1, (out, err)
    assert "Traceback" not in out + err
    assert not out_dir.exists() or not any(out_dir.rglob("*.*"))
    return err


def test_an_export_stopped_by_a_broken_template_says_what_the_checks_say(
    content_copy: Path, tmp_path: Path
) -> None:
    # The png export lays its cards out before the checks have run: a template naming a
    # field no card has stops that layout, and the error is the checks' own, located.
    templates = content_copy.parent / "templates"
    shutil.copytree(REPOSITORY / "templates", templates)
    card = templates / "deadline-99" / "identity-card.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("item.name", "item.nmae"), "utf-8")
    err = refused_png_export(content_copy, tmp_path / "out")
    assert re.search(r"identity-card\.yaml:12: .*nmae", err), err


def test_a_png_export_refused_by_the_checks_while_its_workers_draw_writes_nothing(
    content_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnp.export.faces import Rasteriser

    rulebook = content_copy / "deadline-99" / "rulebook.yaml"
    text = rulebook.read_text(encoding="utf-8")
    mistake = text.replace("本版使用专门设计的牌面：", "本版使用专门设计的牌面：{{ game.nope }}", 1)
    assert mistake != text
    rulebook.write_text(mistake, encoding="utf-8")
    started: list[int] = []
    original = Rasteriser._pngs_forked

    def spy(self: Rasteriser, *args: Any) -> Any:
        started.append(args[-1])
        return original(self, *args)

    monkeypatch.setattr(Rasteriser, "_pngs_forked", spy)
    monkeypatch.setenv("PNP_WORKERS", "2")
    err = refused_png_export(content_copy, tmp_path / "out")
    assert re.search(r"rulebook\.yaml:\d+:\d+: deadline-99: .*nope", err), err
    assert started == [2]  # two workers were making the images when the checks refused


def test_an_unexpected_exception_is_an_internal_error_with_its_own_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pnp.content.loader

    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(pnp.content.loader, "load_yaml", explode)
    monkeypatch.setattr(pnp.content.loader, "_LOADED", {})  # read the files again
    code, out, err = run("list")
    assert code == 3
    assert "internal error: RuntimeError: boom" in err and "a bug in pnp" in err
    assert "Traceback" not in out + err


def test_a_missing_content_folder_is_a_usage_error_not_an_empty_pass(tmp_path: Path) -> None:
    code, _, err = run("--content", str(tmp_path / "nowhere"), "validate")
    assert code == 2
    assert "does not exist" in err


def test_a_content_folder_without_games_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = run("--content", str(tmp_path), "validate")
    assert code == 2
    assert "no games in content folder" in err


def test_content_is_accepted_after_the_command_and_from_the_environment(
    content_copy: Path,
) -> None:
    break_game_file(content_copy)
    code, out, _ = run("validate", "deadline-99", "--content", str(content_copy))
    assert code == 1 and "hand_sise" in out
    result = CliRunner(env={"PNP_CONTENT": str(content_copy)}).invoke(
        main, ["validate", "deadline-99"]
    )
    assert result.exit_code == 1 and "hand_sise" in result.stdout


def test_validate_github_format_annotates_the_file_and_line(content_copy: Path) -> None:
    break_game_file(content_copy)
    code, out, _ = run(
        "--content", str(content_copy), "validate", "deadline-99", "--format", "github"
    )
    assert code == 1
    line = next(line for line in out.splitlines() if "hand_sise" in line)
    match = re.match(
        r"::error file=(?P<file>[^,]+),line=(?P<line>\d+)(,col=\d+)?,title=[^:]+::", line
    )
    assert match, line
    assert match["file"].endswith("deadline-99/game.yaml")
    text = (content_copy / "deadline-99" / "game.yaml").read_text(encoding="utf-8")
    assert "hand_sise" in text.splitlines()[int(match["line"]) - 1]


def test_validate_json_is_the_same_document_for_the_same_content_and_seed() -> None:
    # CI may cache or diff it: no figure of how fast the run went belongs in it. (Two games
    # a table leave content unexercised, an error: the document is what is compared. Games
    # validated side by side give the same reports as one by one: tests/validate/test_runner.)
    games = ["maquis"]
    first = run("validate", *games, "--games", "2", "--seed", "7", "--format", "json")
    second = run("validate", *games, "--games", "2", "--seed", "7", "--format", "json")
    assert first[0] in (0, 1) and first[1] == second[1]
    assert set(json.loads(first[1])["reports"]) == set(games)


def test_quiet_validate_prints_only_the_problems(content_copy: Path) -> None:
    break_game_file(content_copy)
    code, out, err = run("-q", "--content", str(content_copy), "validate", "deadline-99")
    assert code == 1
    assert out.strip() and all(PROBLEM_LINE.match(line) for line in out.strip().splitlines())
    assert err == ""  # no summaries, no closing count: only errors and warnings
    code, _, err = run("-q", "validate", "dragon-hoard", "--static-only")
    assert (code, err) == (0, "")


def test_validate_json_names_its_format_version() -> None:
    code, out, _ = run("validate", "deadline-99", "--static-only", "--format", "json")
    assert code == 0
    assert json.loads(out)["format_version"] == 1


def test_out_names_the_root_for_one_game_and_many(tmp_path: Path) -> None:
    code, _, err = run("build", "deadline-99", "--only", "count-tracker", "--out", str(tmp_path))
    assert code == 0, err
    assert (tmp_path / "deadline-99" / "deadline-99-count-tracker.pdf").is_file()
    assert not list(tmp_path.glob("*.pdf"))


def test_bad_option_values_are_refused_before_any_work() -> None:
    for args in (
        ["build", "deadline-99", "--bleed", "-1"],
        ["validate", "--games", "0"],
        ["export", "deadline-99", "--format", "png", "--profile", "nowhere"],
    ):
        code, _, err = run(*args)
        assert code == 2, (args, err)
        assert "Invalid value" in err


def test_python_dash_m_pnp_is_the_same_command() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "pnp", "list"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "deadline-99" in done.stdout


def test_the_quick_exit_keeps_exit_codes_output_and_exit_handlers() -> None:
    # `pnp` skips tearing the interpreter down (cli.run): what a caller sees must not change.
    import subprocess
    import sys

    script = (
        "import atexit, sys; from pnp import cli; "
        "atexit.register(lambda: print('exit handler ran')); "
        "sys.argv = ['pnp', *sys.argv[1:]]; cli.run()"
    )
    listed = subprocess.run(
        [sys.executable, "-c", script, "list"], capture_output=True, text=True, check=False
    )
    assert listed.returncode == 0, listed.stderr
    assert "deadline-99" in listed.stdout and listed.stdout.endswith("exit handler ran\n")
    unknown = subprocess.run(
        [sys.executable, "-m", "pnp", "build", "deadline-98"],
        capture_output=True,
        text=True,
        check=False,
    )
    code, _, err = run("build", "deadline-98")
    assert (unknown.returncode, unknown.stderr) == (code, err) and code != 0
    assert "deadline-99" in unknown.stderr  # the suggestion, through the quick exit


def test_output_cut_short_by_its_reader_is_a_quiet_stop() -> None:
    # `pnp list | head -1`: the rest of the output has nowhere to go, which is not a pnp bug.
    import subprocess
    import sys

    with subprocess.Popen(
        [sys.executable, "-m", "pnp", "list"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as listing:
        assert listing.stdout is not None and listing.stderr is not None
        first = listing.stdout.readline()
        listing.stdout.close()  # the reader goes away while pnp still loads the other games
        err = listing.stderr.read()
    assert first.startswith("arena-tales")
    assert listing.returncode == 1 and "internal error" not in err, err


def test_preview_writes_one_card_as_png(tmp_path: Path) -> None:
    from PIL import Image

    code, out, err = run("preview", "deadline-99", "angel", "--out", str(tmp_path), "--dpi", "100")
    assert code == 0, err
    front = tmp_path / "deadline-99" / "preview" / "variant-cards-angel-front.png"
    assert front.is_file() and str(front) in out
    # 63x88 mm at 100 dpi, no bleed.
    assert Image.open(front).size == (248, 346)


def test_preview_of_an_unknown_item_suggests_the_nearest(tmp_path: Path) -> None:
    code, _, err = run("preview", "deadline-99", "angle", "--out", str(tmp_path))
    assert code == 2 and "did you mean 'angel'" in err
    assert not (tmp_path / "deadline-99").exists()


def test_quiet_prints_nothing_but_problems(tmp_path: Path) -> None:
    code, out, err = run(
        "-q", "build", "deadline-99", "--only", "count-tracker", "--out", str(tmp_path)
    )
    assert code == 0, err
    assert out == ""


def test_a_game_whose_package_is_broken_fails_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    import pnp.registry as registry

    loaded = dict(registry.games())
    loaded.pop("maquis")
    monkeypatch.setattr(registry, "_GAMES", loaded)
    monkeypatch.setitem(
        registry._BROKEN, "maquis", "game 'maquis': entry point failed to load: ImportError: x"
    )
    # Beside a sound game, the broken one is the only problem (a static validate of all five
    # games laid out every face of every game to show the same).
    code, out, err = run("validate", "maquis", "deadline-99", "--static-only")
    assert code == 1 and err.strip() == "1 problem.", out + err
    [line] = [line for line in out.splitlines() if "maquis" in line]
    assert line.startswith("content/maquis: maquis: game 'maquis': entry point failed to load")
    code, _, err = run("validate", "deadline-99", "--static-only")
    assert code == 0, err


def test_schema_writes_one_json_schema_per_game(tmp_path: Path) -> None:
    code, out, err = run("schema", "deadline-99", "maquis", "--out", str(tmp_path))
    assert code == 0, err
    for slug in ("deadline-99", "maquis"):
        path = tmp_path / "schemas" / f"{slug}.schema.json"
        assert str(path) in out
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert schema["additionalProperties"] is False
    code, _, err = run("schema", "deadlin-99", "--out", str(tmp_path))
    assert code == 2 and "did you mean 'deadline-99'" in err


@pytest.mark.long
def test_games_built_side_by_side_are_the_games_built_one_by_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outputs = []
    for workers in ("1", "2"):
        monkeypatch.setenv("PNP_WORKERS", workers)
        code, out, err = run("build", "deadline-99", "maquis", "--out", str(tmp_path / workers))
        assert code == 0, err
        # Each game's lines, in the order asked, whichever process finished first.
        assert [line.split(":")[0] for line in out.splitlines()] == ["deadline-99", "maquis"]
        outputs.append(tmp_path / workers)
    one, two = (sorted(p.relative_to(root) for p in root.rglob("*.pdf")) for root in outputs)
    assert one == two and len(one) > 10
    for name in one:
        assert (outputs[0] / name).read_bytes() == (outputs[1] / name).read_bytes(), name


def test_finding_one_game_imports_only_its_package() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from pnp.registry import find_game; find_game('maquis'); "
        "print(sorted(m for m in sys.modules if m.startswith('pnp.games.') and m.count('.') == 2))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['pnp.games.maquis']"


def test_version_is_printed_from_the_repository_root() -> None:
    # The distribution is pnp-kit; asking metadata for "pnp" failed with a traceback.
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "pnp", "--version"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"pnp, version \d+\.\d+\.\d+\S*\n", result.stdout)
    assert "Traceback" not in result.stderr


def test_an_output_folder_that_cannot_be_written_is_a_fault_of_the_machine(
    tmp_path: Path,
) -> None:
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    code, out, err = run("build", "deadline-99", "--out", str(tmp_path / "a-file" / "out"))
    assert code == 2, out + err
    assert "cannot use" in err and "a-file" in err and "fault of this machine" in err
    assert "internal error" not in err and "Traceback" not in out + err


def test_a_full_disk_is_a_fault_of_the_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import os

    def full(source: object, target: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(target))

    monkeypatch.setattr(os, "replace", full)
    code, out, err = run("build", "deadline-99", "--out", str(tmp_path / "out"))
    assert code == 2, out + err
    assert "No space left on device" in err and "internal error" not in err


def test_a_font_cache_that_cannot_be_written_is_worked_around_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pnp.render import fonts

    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(tmp_path / "a-file" / "fonts"))
    # One card, not a rulebook: every glyph it draws is converted again without the cache.
    out_folder = tmp_path / "out"
    code, out, err = run("preview", "deadline-99", "angel", "--out", str(out_folder))
    assert code == 0, out + err
    assert "font cache" in err and "cannot be written" in err
    assert (out_folder / "deadline-99" / "preview" / "variant-cards-angel-front.png").is_file()
