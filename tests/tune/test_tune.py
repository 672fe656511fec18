"""`pnp tune` on the issue's unfair edit: every red Arena Tales damage card at cost 0 and
damage 6. The tuner must bring 赤焰 back inside its band by changing red cards only, write the
change in place (comments and layout kept), and never touch a number content marks fixed."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.content.loader import load_game
from pnp.registry import find_game
from pnp.validate.play import Figure, Verdict, game_tables, judge_promises, play_in_stages
from tests.conftest import CONTENT, TEMPLATES

RED_DAMAGE = "colour: red, type: damage"


def unfair_copy(root: Path) -> Path:
    """The content and templates copied under ``root``, with the issue's red-card edit."""
    content = root / "content"
    shutil.copytree(CONTENT / "arena-tales", content / "arena-tales")
    shutil.copytree(TEMPLATES, root / "templates")
    cards = content / "arena-tales" / "cards.yaml"
    lines = []
    for line in cards.read_text(encoding="utf-8").splitlines(keepends=True):
        if RED_DAMAGE in line:
            line = re.sub(r"cost: \d+", "cost: 0", line)
            line = re.sub(r"damage: \d+", "damage: 6", line)
        lines.append(line)
    cards.write_text("".join(lines), encoding="utf-8")
    return content


def chiyan(content: Path, games: int, seed: int) -> Figure:
    """赤焰's figure on the 2-player table, on ``games`` fresh games of the sensible policy."""
    loaded = load_game(content, "arena-tales")
    game = find_game("arena-tales")
    assert game is not None
    tables = [table for table in game_tables(game, loaded.model) if table.name == "2p"]
    with loaded.reading():
        runs = play_in_stages(
            game, tables, "sensible", [games], seed=seed, go_on=lambda runs: set(), workers=1
        )
    figures, _ = judge_promises(loaded.model.balance, runs, {"2p": 2})
    (found,) = [figure for figure in figures if figure.what.endswith("character chiyan wins")]
    return found


@pytest.mark.long
def test_tune_brings_the_unfair_red_edit_back_by_changing_red_cards_only(tmp_path: Path) -> None:
    content = unfair_copy(tmp_path)
    cards = content / "arena-tales" / "cards.yaml"
    before = cards.read_text(encoding="utf-8").splitlines()
    settings_before = (content / "arena-tales" / "game.yaml").read_bytes()
    unfair = chiyan(content, 40, seed=11)

    result = CliRunner().invoke(
        main,
        [
            *("--content", str(content), "tune", "arena-tales", "--tables", "2p"),
            *("--games", "24", "--seed", "3", "--candidates", "7", "--confirm", "none"),
            *("--workers", "1", "--write"),
        ],
    )

    assert result.exit_code == 0, result.output
    assert "every promise kept" in result.output
    # The tuner's own games: 赤焰 wins far more than the band allows, then inside it.
    row = re.search(r"character chiyan wins: (\d+)% \[.*\] -> (\d+)% ", result.output)
    assert row is not None, result.output
    assert int(row[1]) > 60 and 40 <= int(row[2]) <= 60
    after = cards.read_text(encoding="utf-8").splitlines()
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    assert changed, "the proposal changes nothing"
    for old, new in changed:
        # Only a red damage card's cost or damage moved, written in place: the rest of the
        # line is as it was.
        assert RED_DAMAGE in old
        assert re.sub(r"(cost|damage): \d+", "", old) == re.sub(r"(cost|damage): \d+", "", new)
    assert [line for line in after if line.lstrip().startswith("#")] == [
        line for line in before if line.lstrip().startswith("#")
    ]
    assert (content / "arena-tales" / "game.yaml").read_bytes() == settings_before
    # Games the search never played (the same seeds for both): 赤焰 wins far less often, and
    # is not outside its band beyond doubt.
    tuned = chiyan(content, 40, seed=11)
    assert tuned.rate is not None and unfair.rate is not None
    assert tuned.verdict is not Verdict.BROKEN, tuned.detail
    assert tuned.rate.value <= unfair.rate.value - 0.2, (unfair.detail, tuned.detail)


@pytest.fixture
def overlapping(tmp_path: Path) -> Path:
    """The copy with a tunable entry that takes in the fixed starting life."""
    content = unfair_copy(tmp_path)
    tuning = content / "arena-tales" / "tuning.yaml"
    text = tuning.read_text(encoding="utf-8")
    text = text.replace(
        "  fixed:\n",
        "    - {at: settings, field: life, min: 10, max: 24}\n  fixed:\n",
    )
    tuning.write_text(text, encoding="utf-8")
    return content


def test_tune_refuses_a_tunable_entry_over_a_fixed_number(overlapping: Path) -> None:
    cards = (overlapping / "arena-tales" / "cards.yaml").read_bytes()
    result = CliRunner().invoke(
        main,
        ["--content", str(overlapping), "tune", "arena-tales", "--write", "--candidates", "3"],
    )
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    line = next(
        number
        for number, text in enumerate(
            (overlapping / "arena-tales" / "tuning.yaml").read_text().splitlines(), 1
        )
        if "field: life" in text
    )
    assert f"arena-tales/tuning.yaml:{line}:" in result.output
    assert "settings.life is fixed by tuning.fixed" in result.output
    assert (overlapping / "arena-tales" / "cards.yaml").read_bytes() == cards


def test_a_sequential_judge_stops_a_broken_candidate_early_and_judges_the_rest_as_before(
    tmp_path: Path,
) -> None:
    from pnp.tune.search import Judge, prepare

    content = unfair_copy(tmp_path)
    loaded = load_game(content, "arena-tales")
    game = find_game("arena-tales")
    assert game is not None
    balance = loaded.model.balance

    def judge(games: int, sequential: bool) -> Judge:
        return Judge(
            loaded, game, balance, policy="sensible", games=games, seed=3, tables=["4p"],
            workers=1, sequential=sequential,
        )  # fmt: skip

    numbers, _, _ = prepare(loaded)
    today = {number: number.value for number in numbers}
    shipped_numbers, _, _ = prepare(load_game(CONTENT, "arena-tales"))
    shipped = {number.label: number.value for number in shipped_numbers}
    # The red cards back as shipped: 赤焰 inside its band again.
    fair = {number: shipped[number.label] for number in numbers}
    # A pink card one cheaper: 赤焰 as far out as today.
    pink = next(n for n in numbers if "peach-palm" in n.label and n.label.endswith("cost"))
    unfair = {**today, pink: pink.value - 1}

    sequential = judge(50, sequential=True)
    before = sequential(today)
    # Today's content plays every game: its figures are the targets and the "before".
    assert before.games == 50 and before.targets and not before.kept
    stopped = sequential(unfair)
    assert stopped.games == 25 and not stopped.kept
    # What it was judged on is the first 25 games of the full run, judged as a run of 25.
    short = judge(25, sequential=False)
    short(today)
    assert stopped.figures == short(unfair).figures
    # A candidate no look shows broken plays every game and is judged as without looks.
    kept = sequential(fair)
    plain = judge(50, sequential=False)
    plain(today)
    assert kept.games == 50 and kept.kept
    assert kept.figures == plain(fair).figures
