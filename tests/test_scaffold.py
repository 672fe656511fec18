"""`pnp new`: a data-only game that validates and builds with no Python written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from tests.conftest import CONTENT


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_new_game_builds_a_kit_beside_the_others(tmp_path: Path) -> None:
    content, templates = tmp_path / "content", tmp_path / "templates"
    shutil.copytree(CONTENT / "deadline-99", content / "deadline-99")
    templates.mkdir()
    shutil.copytree(CONTENT.parent / "templates" / "deadline-99", templates / "deadline-99")
    code, _, err = run("--content", str(content), "new", "star-race", "--title", "星辰竞速")
    assert code == 0, err
    assert (content / "star-race" / "kit.yaml").is_file()
    assert (templates / "star-race" / "card.yaml").is_file()
    # The draft has no engine: it is checked statically and the other game is not held back.
    code, _, err = run("--content", str(content), "validate", "--static-only")
    assert code == 0, err
    assert "ok: 2 game(s) valid." in err
    code, _, err = run("--content", str(content), "build", "star-race", "--out", str(tmp_path))
    assert code == 0, err
    kit = tmp_path / "star-race"
    assert sorted(p.name for p in kit.glob("*.pdf")) == [
        "star-race-00-read-me-first.pdf",
        "star-race-01-duplex-calibration.pdf",
        "star-race-board.pdf",
        "star-race-cards.pdf",
        "star-race-rulebook-booklet.pdf",
        "star-race-rulebook.pdf",
        "star-race-tokens.pdf",
    ]


def test_a_new_game_s_cards_show_its_content(tmp_path: Path) -> None:
    from pypdf import PdfReader

    content = tmp_path / "content"
    content.mkdir()
    (tmp_path / "templates").mkdir()
    assert run("--content", str(content), "new", "duel")[0] == 0
    items = content / "duel" / "items.yaml"
    items.write_text(items.read_text(encoding="utf-8").replace("火花", "流星"), encoding="utf-8")
    code, _, err = run("--content", str(content), "build", "duel", "--out", str(tmp_path))
    assert code == 0, err
    text = "".join(p.extract_text() for p in PdfReader(tmp_path / "duel" / "duel-cards.pdf").pages)
    assert "流星" in text and "火花" not in text


def test_new_never_overwrites_and_wants_a_slug(tmp_path: Path) -> None:
    content = tmp_path / "content"
    content.mkdir()
    (tmp_path / "templates").mkdir()
    assert run("--content", str(content), "new", "duel")[0] == 0
    code, _, err = run("--content", str(content), "new", "duel")
    assert code == 2 and "already exists" in err
    code, _, err = run("--content", str(content), "new", "Duel Game")
    assert code == 2 and "expected lowercase letters" in err


def test_a_data_only_game_with_a_typo_says_where_and_what_it_was_read_as(
    tmp_path: Path,
) -> None:
    content = tmp_path / "content"
    content.mkdir()
    (tmp_path / "templates").mkdir()
    assert run("--content", str(content), "new", "duel")[0] == 0
    game = content / "duel" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("settings:", "setings:"))
    code, out, _ = run("--content", str(content), "validate", "duel")
    assert code == 1
    assert "game.yaml:7" in out and "setings" in out
    assert "read as a data-only game" in out


def test_an_installed_pnp_starts_a_game_in_the_designers_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip puts pnp in site-packages, with no content/ or templates/ beside it: `pnp new` in an
    empty folder writes ./content and ./templates there, and every command finds them."""
    from pnp import paths

    site = tmp_path / "site-packages"
    (site / "pnp").mkdir(parents=True)
    monkeypatch.setattr(paths, "REPOSITORY", site)
    folder = tmp_path / "my-designs"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.delenv("PNP_CONTENT", raising=False)
    code, _, err = run("validate")
    assert code == 2 and "pnp new" in err  # nothing to check yet: says how to start
    code, out, err = run("new", "star-race", "--title", "星辰竞速")
    assert code == 0, err
    assert "wrote content/star-race/kit.yaml" in out
    assert "wrote templates/star-race/card.yaml" in out
    assert "next: pnp build star-race" in out
    assert not any(site.rglob("*.yaml"))
    code, _, err = run("validate", "--static-only")
    assert code == 0, err
    code, _, err = run("build", "star-race")
    assert code == 0, err
    assert (folder / "output" / "star-race" / "star-race-cards.pdf").is_file()


def _new_game(tmp_path: Path, slug: str = "duel") -> Path:
    content = tmp_path / "content"
    content.mkdir()
    (tmp_path / "templates").mkdir()
    assert run("--content", str(content), "new", slug)[0] == 0
    return content


def test_a_duplicate_id_in_a_data_only_collection_fails_validate(tmp_path: Path) -> None:
    content = _new_game(tmp_path)
    items = content / "duel" / "items.yaml"
    text = items.read_text(encoding="utf-8")
    items.write_text(text.replace("{id: stone,", "{id: spark,"), encoding="utf-8")
    line = next(n for n, ln in enumerate(text.splitlines(), 1) if "{id: stone," in ln)
    first = next(n for n, ln in enumerate(text.splitlines(), 1) if "{id: spark," in ln)
    code, out, err = run("--content", str(content), "validate", "--static-only")
    assert code == 1
    assert f"items.yaml:{line}:7: duel: collections.cards: duplicate id 'spark' (first " in (
        out + err
    )
    assert f"items.yaml:{first}:7)" in out + err


def test_the_cover_counts_the_cards_the_sheet_prints(tmp_path: Path) -> None:
    from pypdf import PdfReader

    content = _new_game(tmp_path)
    items = content / "duel" / "items.yaml"
    items.write_text(
        items.read_text(encoding="utf-8").replace("copies: 3,", "copies: 0,"), encoding="utf-8"
    )
    code, _, err = run("--content", str(content), "build", "duel", "--out", str(tmp_path))
    assert code == 0, err
    kit = tmp_path / "duel"
    sheet = "".join(p.extract_text() for p in PdfReader(kit / "duel-cards.pdf").pages)
    printed = sum(sheet.count(name) for name in ("火花", "浪潮", "磐石"))
    cover = "".join(p.extract_text() for p in PdfReader(kit / "duel-00-read-me-first.pdf").pages)
    assert printed == 4
    assert "行动牌\n4 张" in cover or "行动牌 4 张" in cover, cover


def test_schema_covers_a_data_only_game_and_the_templates(tmp_path: Path) -> None:
    import json

    import jsonschema
    import yaml

    content = _new_game(tmp_path)
    code, out, err = run("--content", str(content), "schema", "--out", str(tmp_path))
    assert code == 0, err
    schemas = tmp_path / "schemas"
    assert f"wrote {schemas / 'duel.schema.json'}" in out
    validator = jsonschema.Draft202012Validator(
        json.loads((schemas / "duel.schema.json").read_text(encoding="utf-8"))
    )
    for path in sorted((content / "duel").glob("*.yaml")):
        assert validator.is_valid(yaml.safe_load(path.read_text(encoding="utf-8"))), path
    items = yaml.safe_load((content / "duel" / "items.yaml").read_text(encoding="utf-8"))
    items["collections"]["cards"][0]["copise"] = 3
    assert not validator.is_valid(items)
    assert (schemas / "templates.schema.json").is_file()
    assert "### `text`" in (schemas / "templates.md").read_text(encoding="utf-8")


def test_mistakes_of_different_kinds_are_reported_in_one_run(tmp_path: Path) -> None:
    content = _new_game(tmp_path)
    items = content / "duel" / "items.yaml"
    items.write_text(
        items.read_text(encoding="utf-8").replace("{id: stone,", "{id: spark,"), encoding="utf-8"
    )
    card = tmp_path / "templates" / "duel" / "card.yaml"
    text = card.read_text(encoding="utf-8")
    assert "type: text," in text
    card.write_text(text.replace("type: text,", "type: text, colour: red,", 1), encoding="utf-8")
    code, out, err = run("--content", str(content), "validate", "--static-only")
    assert code == 1
    assert "duplicate id 'spark'" in out + err
    assert "text box has unknown key 'colour' (did you mean 'color'?)" in out + err
