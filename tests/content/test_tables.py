"""A collection kept in a CSV file: typed by the schema, bad cells located at file:row:column,
and `pnp export --format csv` writes what it reads back as the same model."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from pnp.cli import main
from pnp.content.loader import load_game


def _new_game(tmp_path: Path) -> Path:
    content = tmp_path / "content"
    content.mkdir()
    (tmp_path / "templates").mkdir()
    assert CliRunner().invoke(main, ["--content", str(content), "new", "duel"]).exit_code == 0
    return content


def _cards_from(content: Path, table: str) -> None:
    items = content / "duel" / "items.yaml"
    text = re.sub(r"  cards:\n(?:    - .*\n)+", "  cards: cards.csv\n", items.read_text("utf-8"))
    items.write_text(text, encoding="utf-8")
    (content / "duel" / "cards.csv").write_text(table, encoding="utf-8")


def test_export_then_import_gives_the_same_model(tmp_path: Path) -> None:
    content = _new_game(tmp_path)
    before = load_game(content, "duel").model
    out = tmp_path / "out"
    result = CliRunner().invoke(
        main, ["--content", str(content), "export", "duel", "--format", "csv", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    exported = (out / "duel" / "export" / "csv" / "cards.csv").read_text(encoding="utf-8")
    assert exported.splitlines()[0] == "id,name,copies,text,kind,fields.cost"
    _cards_from(content, exported)
    shutil.copy(out / "duel" / "export" / "csv" / "tokens.csv", content / "duel" / "tokens.csv")
    items = content / "duel" / "items.yaml"
    items.write_text(
        re.sub(r"  tokens:\n(?:    - .*\n)+", "  tokens: tokens.csv\n", items.read_text("utf-8")),
        encoding="utf-8",
    )
    after = load_game(content, "duel").model
    assert after == before
    assert after.collections["cards"][0].fields == {"cost": 1}  # a number, as YAML gave it
    assert after.collections["tokens"][0].text == "1"  # text stays text: the schema says so


def test_a_bad_cell_is_reported_at_its_row_and_column(tmp_path: Path) -> None:
    content = _new_game(tmp_path)
    _cards_from(
        content,
        "\ufeffid,name,copies,text\n"  # the byte-order mark a spreadsheet saves
        "spark,火花,3,获得一点能量。\n"
        "\n"  # a blank line between groups
        "stone,磐石,many,本轮你不会失去分数。\n"
        "wave,浪潮,,每名对手弃一张牌。\n",  # an empty cell: the field's default
    )
    result = CliRunner().invoke(main, ["--content", str(content), "validate", "--static-only"])
    assert result.exit_code == 1
    assert "duel/cards.csv:4:3: duel: collections.cards[1].copies: expected an integer, got " in (
        result.output
    )
    (content / "duel" / "cards.csv").write_text(
        "id,name,copies,text\nspark,火花,3,获得一点能量。\nwave,浪潮,,每名对手弃一张牌。\n",
        encoding="utf-8",
    )
    model = load_game(content, "duel").model
    assert [(c.id, c.copies) for c in model.collections["cards"]] == [("spark", 3), ("wave", 1)]


def test_a_table_outside_the_game_folder_is_refused(tmp_path: Path) -> None:
    content = _new_game(tmp_path)
    _cards_from(content, "id,name\n")
    items = content / "duel" / "items.yaml"
    items.write_text(
        items.read_text("utf-8").replace("cards.csv", "../cards.csv"), encoding="utf-8"
    )
    result = CliRunner().invoke(main, ["--content", str(content), "validate", "--static-only"])
    assert result.exit_code == 1
    assert "table '../cards.csv': expected a file inside the game's folder" in result.output


def test_a_collection_may_be_an_excel_workbook(tmp_path: Path) -> None:
    from openpyxl import Workbook

    content = _new_game(tmp_path)
    before = load_game(content, "duel").model
    _cards_from(content, "")
    (content / "duel" / "cards.csv").unlink()
    items = content / "duel" / "items.yaml"
    items.write_text(items.read_text("utf-8").replace("cards.csv", "cards.xlsx"), encoding="utf-8")
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["id", "name", "copies", "text", "kind", "fields.cost"])
    for card in before.collections["cards"]:
        sheet.append([card.id, card.name, card.copies, card.text, card.kind, card.fields["cost"]])
    book.save(content / "duel" / "cards.xlsx")
    assert load_game(content, "duel").model == before
    sheet["C3"] = "two"
    book.save(content / "duel" / "cards.xlsx")
    result = CliRunner().invoke(main, ["--content", str(content), "validate", "--static-only"])
    assert "duel/cards.xlsx:3:3: duel: collections.cards[1].copies: expected an integer" in (
        result.output
    )
