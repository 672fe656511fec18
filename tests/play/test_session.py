"""A table's game: positions from the seed and the actions alone, refusals that change
nothing, undo, save and load, replay."""

from __future__ import annotations

import pytest

from pnp.engines.record import parse_record
from pnp.errors import PnpError
from pnp.play.session import PlayError, Replay, Seats, Session, parse_seats
from pnp.registry import game_for
from tests.play.conftest import policies, table

SEATS = Seats(("human", "human", "human"))


def _session(seed: int = 11, seats: Seats = SEATS) -> Session:
    return Session(
        game_for("deadline-99"),
        table("deadline-99", players=3),
        seats,
        seed,
        policies=policies("deadline-99", seats.names),
    )


def _run_chance(session: Session) -> None:
    while (job := session.automatic()) is not None:
        session.apply_automatic(job.version, job.choose(session.rules))


def _first_move(session: Session) -> str:
    seat = session.to_act()
    assert seat is not None
    return session.moves(seat)[0].action


def test_a_seat_plays_only_on_its_turn_and_only_a_legal_action() -> None:
    session = _session()
    before = (session.version, session.rules.notation(session.state))
    with pytest.raises(PlayError) as stale:
        session.act(0, session.version + 1, _first_move(session))
    assert stale.value.status == 409
    with pytest.raises(PlayError) as wrong_seat:
        session.act(1, session.version, _first_move(session))
    assert wrong_seat.value.status == 409 and "not Player 2's turn" in wrong_seat.value.message
    with pytest.raises(PlayError) as illegal:
        session.act(0, session.version, "ks@9")
    assert illegal.value.status == 422
    assert (session.version, session.rules.notation(session.state)) == before


def test_the_same_seed_and_moves_give_the_same_game_and_undo_cannot_fish_for_a_card() -> None:
    first, second = _session(), _session()
    for _ in range(6):
        for session in (first, second):
            session.act(session.to_act() or 0, session.version, _first_move(session))
            _run_chance(session)
    assert first.rules.notation(first.state) == second.rules.notation(second.state)
    played = first.rules.notation(first.state)
    first.undo(first.version)
    first.act(first.to_act() or 0, first.version, _first_move(first))
    _run_chance(first)
    # The draw after the move taken back comes out the same: chance depends on the step.
    assert first.rules.notation(first.state) == played


def test_a_saved_game_loads_back_and_a_broken_one_is_refused_where_it_breaks() -> None:
    session = _session()
    for _ in range(4):
        session.act(session.to_act() or 0, session.version, _first_move(session))
        _run_chance(session)
    saved = session.saved()
    position = session.rules.notation(session.state)
    record = parse_record(saved)
    assert record.game == "deadline-99" and record.seed == 11 and len(record.actions) >= 8

    other = _session(seed=99)
    other.load(saved)
    assert other.rules.notation(other.state) == position and other.seed == 11

    broken = saved.replace(record.actions[2], "zz", 1)
    version = other.version
    with pytest.raises(PlayError) as refused:
        other.load(broken, "game.pnpgame")
    line = saved.splitlines().index(record.actions[2]) + 1
    assert refused.value.status == 400
    assert refused.value.message.startswith(f"game.pnpgame:{line}: action 'zz' is not legal")
    assert other.version == version and other.rules.notation(other.state) == position
    with pytest.raises(PlayError, match=r"game.pnpgame:2: expected 'KEY: value'"):
        other.load("# pnp game record\nnonsense here\n", "game.pnpgame")


def test_ai_seats_and_chance_play_on_until_a_human_is_to_act() -> None:
    seats = Seats(("human", "sensible", "sensible"))
    session = _session(seats=seats)
    session.act(0, session.version, _first_move(session))
    _run_chance(session)
    assert session.over or session.to_act() == 0
    assert any(line.startswith(("4.", "5.", "6.")) for line in session.log(0))


def test_a_replay_steps_through_every_position_of_its_record() -> None:
    session = _session()
    for _ in range(3):
        session.act(session.to_act() or 0, session.version, _first_move(session))
        _run_chance(session)
    record = session.record()
    replay = Replay(game_for("deadline-99"), table("deadline-99", players=3), record, "r")
    assert replay.length == len(record.actions)
    replay.seek(replay.length)
    assert replay.snapshot()["scene"] == session.snapshot(None, may_act=False)["scene"]
    with pytest.raises(PlayError, match="step: expected 0"):
        replay.seek(replay.length + 1)


def test_seats_name_humans_and_policies() -> None:
    assert parse_seats("human,sensible", 4, ["random", "sensible"]).names == (
        "human",
        "sensible",
        "strong",
        "strong",
    )
    with pytest.raises(PnpError, match="unknown player 'clever'"):
        parse_seats("human,clever", 3, ["random"])
    with pytest.raises(PnpError, match="3 seats named for a table of 2"):
        parse_seats("human,human,human", 2, [])
