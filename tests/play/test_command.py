"""`pnp play` as a user runs it: wrong options and broken records get a located message and
exit 2 before anything listens; a table serves its page and faces on the printed link."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.cli.play import choose_table
from pnp.paths import REPOSITORY
from pnp.registry import game_for
from pnp.validate.play import game_tables
from tests.play.conftest import loaded


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", *args, "--no-browser"])
    return result.exit_code, result.output + (result.stderr if result.stderr_bytes else "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("deadline-99", "--players", "1"), "--players: 1 is not a player count of this game"),
        (("deadline-99", "--table", "nope"), "--table: no table 'nope' (tables: 'normal-3p'"),
        (("deadline-99", "--seats", "human,genius"), "--seats: unknown player 'genius'"),
        (("maquis", "--seats", "human,human"), "--seats: 2 seats named for a table of 1"),
        (("dragon-hord",), "did you mean 'dragon-hoard'?"),
    ],
)
def test_wrong_options_say_what_was_expected(args: tuple[str, ...], message: str) -> None:
    code, output = _run(*args)
    assert code == 2 and message in output and "Traceback" not in output


def test_a_broken_record_is_refused_at_its_line(tmp_path: Path) -> None:
    record = tmp_path / "game.pnpgame"
    record.write_text(
        "# pnp game record\ngame: maquis\ntable: normal\nseats: human\nseed: x\nactions:\n"
    )
    code, output = _run("maquis", "--replay", str(record))
    assert code == 2 and f"{record}:5: seed: expected an integer, got 'x'" in output
    record.write_text(
        "game: maquis\ntable: normal\nseats: human\nseed: 1\nactions:\nplace:nowhere\n"
    )
    code, output = _run("maquis", "--replay", str(record))
    assert code == 2 and f"{record}:6: action 'place:nowhere' is not legal" in output
    code, output = _run("deadline-99", "--replay", str(record))
    assert code == 2 and "a record of 'maquis', not of 'deadline-99'" in output
    code, output = _run("maquis", "--replay", str(tmp_path / "missing.pnpgame"))
    assert code == 2 and "cannot read the game record" in output


def test_a_table_serves_its_page_on_the_printed_link() -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pnp",
            "play",
            "deadline-99",
            "--players",
            "3",
            "--seed",
            "4",
            "--no-browser",
            "--port",
            "0",
            "--seats",
            "human,sensible,sensible",
        ],
        cwd=REPOSITORY,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            lines.append(line)
            if "Ctrl-C" in line or not line:
                break
        assert lines[0].startswith("deadline-99 · table normal-3p · seed 4"), lines
        link = next(line.split(": ", 1)[1].strip() for line in lines if "/t/" in line)
        assert link.startswith("http://127.0.0.1:")
        page = urllib.request.urlopen(link, timeout=10).read().decode()
        assert '<script src="/static/table.js">' in page
        token = link.rsplit("/", 1)[1]
        base = link.split("/t/")[0]
        state = json.load(urllib.request.urlopen(f"{base}/api/{token}/state", timeout=10))
        assert state["seat"] == 0 and len(state["moves"]) >= 5
        face = state["scene"]["areas"][-1]["cards"][0]["face"]
        png = urllib.request.urlopen(f"{base}/face/{face}.png", timeout=30).read()
        assert png.startswith(b"\x89PNG")
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_table_not_named_is_the_posts_own_rules() -> None:
    maquis = game_tables(game_for("maquis"), loaded("maquis").model)
    assert maquis[0].name == "very-easy"  # levels are listed easiest first
    assert choose_table(maquis, None, None, where="--table").name == "normal"
    assert choose_table(maquis, "hard", None, where="--table").name == "hard"
    d99 = game_tables(game_for("deadline-99"), loaded("deadline-99").model)
    assert choose_table(d99, None, 4, where="--table").rules.num_players == 4
