"""benchmarks/cluster_estimate.py: the replay of a balance run's looks on a cluster, whose
figure the notes report for issue 32's cluster goal."""

from __future__ import annotations

from pathlib import Path

from benchmarks.cluster_estimate import (
    Group,
    makespan,
    played_games,
    side_by_side,
    stage_jobs,
)


def test_a_look_ends_with_its_longest_chunk_not_at_its_cpu_divided_by_the_cpus() -> None:
    assert makespan([1.0] * 8, cpus=2) == 4.0
    # One long game holds the look: 13 CPU-s over 4 CPUs is 3.25 s divided, 10 s replayed.
    assert makespan([10.0, 1.0, 1.0, 1.0], cpus=4) == 10.0
    # Ray's chunks: 4 a CPU, so 64 games on 2 CPUs go 8 to a task.
    assert makespan([1.0] * 64, cpus=2) == 32.0


def test_each_look_plays_only_the_tables_still_open_up_to_its_size() -> None:
    group = Group("coin", "strong", cap=100, played={"a": 25, "b": 100}, tables={})
    stages = stage_jobs(group)
    assert [len(jobs) for jobs in stages] == [50, 25, 50]  # looks at 25, 50, 100
    assert stages[0][:4] == ["a", "b", "a", "b"]  # the tables rounded, as play_in_stages does
    assert set(stages[1]) == {"b"}


def test_the_games_played_are_read_from_the_runs_lines(tmp_path: Path) -> None:
    err = tmp_path / "run.err"
    err.write_text(
        "maquis: balance normal (strong, 300 games): won 73% [68%–78%]\n"
        "deadline-99: balance camp-4p (sensible, 100 games of at most 2000, every promise ...\n"
        "maquis:   by mission:train: dealt 47%\n",
        encoding="utf-8",
    )
    assert played_games(err) == {
        "maquis": {"normal": ("strong", 300)},
        "deadline-99": {"camp-4p": ("sensible", 100)},
    }


def test_games_side_by_side_fill_each_others_waits() -> None:
    # Game 0's first look waits 10 s for one long game; game 1's two looks fit in that wait.
    games = [[[10.0, 1.0], [1.0]], [[5.0], [5.0]]]
    assert side_by_side(games, cpus=2) == 11.0
    one_after_another = sum(makespan(look, cpus=2) for game in games for look in game)
    assert one_after_another == 21.0
    # One CPU: the work itself, whatever the order.
    assert side_by_side(games, cpus=1) == 22.0
