"""`pnp play`: a game's table in the browser, served by pnp on this machine."""

from __future__ import annotations

import ipaddress
import secrets
import socket
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pnp.cli.app import Context, content_option, fail, main, report_content_error
from pnp.errors import ContentError, PnpError

if TYPE_CHECKING:
    from pnp.engines.base import Table


@main.command()
@content_option
@click.argument("game")
@click.option("--players", type=click.IntRange(min=1), default=None, help="Players at the table.")
@click.option(
    "--table",
    "table_name",
    default=None,
    help="Which of the game's tables (a mode or level, e.g. 'camp 5p' or 'hard'); "
    "default: the first one for --players.",
)
@click.option(
    "--seats",
    default=None,
    help="Who plays each seat, comma-separated: human, strong (strong:N), random or one of "
    "the game's policies (default: human, the others strong).",
)
@click.option("--seed", type=int, default=None, help="Seed of the deal and every chance step.")
@click.option("--port", type=click.IntRange(0, 65535), default=8099, show_default=True)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; 0.0.0.0 lets other machines of the LAN join by seat link.",
)
@click.option("--no-browser", is_flag=True, help="Only print the links.")
@click.option(
    "--replay",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Step through a recorded game (a saved game, or one the validator wrote).",
)
@click.option(
    "--ai-delay",
    type=click.FloatRange(min=0),
    default=0.8,
    show_default=True,
    help="Seconds before each AI move, so it can be followed.",
)
@click.pass_obj
def play(
    obj: Context,
    game: str,
    players: int | None,
    table_name: str | None,
    seats: str | None,
    seed: int | None,
    port: int,
    host: str,
    no_browser: bool,
    replay: Path | None,
    ai_delay: float,
) -> None:
    """Play GAME in the browser: the kit's faces, the engine's rules, AI opponents."""
    from pnp.engines.record import read_record
    from pnp.play.faces import FaceStore
    from pnp.play.server import Access, TableServer, new_token, serve
    from pnp.play.session import Replay, Session, parse_seats
    from pnp.registry import game_for
    from pnp.validate.play import game_tables, make_policy, policy_names

    try:
        loaded = obj.checked(game)
        found = game_for(game)
        tables = game_tables(found, loaded.model)
        if found.rules is None or not tables:
            fail(f"{game}: no rules engine, so no table to play (the kit still builds)")
        table_obj: Session | Replay
        if replay is not None:
            record = read_record(replay)
            if record.game != game:
                fail(f"{replay}: a record of {record.game!r}, not of {game!r}")
            table = choose_table(tables, record.table, None, where=f"{replay}: table")
            if len(record.seats) != table.rules.num_players:
                fail(
                    f"{replay}: seats: {len(record.seats)} named for a table of "
                    f"{table.rules.num_players}"
                )
            table_obj = Replay(
                found, table, record, str(replay), replay.read_text(encoding="utf-8")
            )
            accesses = {
                token: Access(token, frozenset(), label="replay") for token in [new_token()]
            }
            ai_rules = None
        else:
            table = choose_table(tables, table_name, players, where="--table")
            chosen = parse_seats(seats, table.rules.num_players, policy_names(found))
            policies = {
                seat: make_policy(found, name)
                for seat, name in enumerate(chosen.names)
                if name != "human"
            }
            seed = seed if seed is not None else secrets.randbelow(1_000_000)
            table_obj = Session(found, table, chosen, seed, policies=policies)
            accesses = _links(chosen.humans(), _is_loopback(host))
            # The AI thinks on rules of its own: no engine memo is shared across threads.
            ai_rules = choose_table(
                game_tables(found, loaded.model), table.name, None, where=""
            ).rules
        faces = FaceStore(loaded, obj.templates_root)
    except ContentError as error:
        report_content_error(error)
        return
    except PnpError as error:
        fail(f"error: {error}")
        return

    server = TableServer(table_obj, faces, accesses, ai_rules=ai_rules, ai_delay=ai_delay)

    def ready(bound: int) -> None:
        shown = socket.gethostname() if host in ("0.0.0.0", "::") else host
        shown = f"[{shown}]" if ":" in shown else shown
        base = f"http://{shown}:{bound}"
        if isinstance(table_obj, Session):
            click.echo(f"{game} · table {table_obj.table.name} · seed {table_obj.seed}")
        else:
            click.echo(
                f"{game} · replay of table {table_obj.table.name} · {table_obj.length} steps"
            )
        first = None
        for access in accesses.values():
            url = f"{base}/t/{access.token}"
            first = first or url
            click.echo(f"  {access.label}: {url}")
        click.echo("Ctrl-C stops the table.")
        if first and not no_browser:
            webbrowser.open(first)

    try:
        serve(server, host, port, ready)
    except OSError as error:
        fail(
            f"error: cannot listen on {host}:{port}: {error.strerror or error} "
            "(another --port or --host?)"
        )


def choose_table(
    tables: list[Table], name: str | None, players: int | None, *, where: str
) -> Table:
    """The table named ``name``, else the standard table (the post's own rules) among those for
    ``players`` (every table when not given), else the first of them."""
    names = ", ".join(repr(t.name) for t in tables)
    if name is not None:
        for table in tables:
            if table.name == name:
                if players is not None and table.rules.num_players != players:
                    raise PnpError(
                        f"{where}: table {name!r} seats {table.rules.num_players}, "
                        f"not --players {players}"
                    )
                return table
        raise PnpError(f"{where}: no table {name!r} (tables: {names})")
    seated = [t for t in tables if players is None or t.rules.num_players == players]
    if seated:
        return next((t for t in seated if t.standard), seated[0])
    counts = sorted({t.rules.num_players for t in tables})
    raise PnpError(
        f"--players: {players} is not a player count of this game (it plays with "
        f"{', '.join(map(str, counts))})"
    )


def _links(humans: tuple[int, ...], loopback: bool) -> dict[str, Any]:
    """A link per human seat; with several humans on this machine, one hot-seat link more
    that plays them all (with a hand-over screen between seats); with none, a link that
    watches the machines play."""
    from pnp.play.server import Access, new_token

    links: list[Access] = []
    if not humans:
        links.append(Access(new_token(), frozenset(), label="watch"))
    elif len(humans) == 1:
        links.append(Access(new_token(), frozenset(humans), local=True, label="your seat"))
    else:
        if loopback:
            links.append(
                Access(new_token(), frozenset(humans), local=True, label="hot-seat (every human)")
            )
        for seat in humans:
            links.append(Access(new_token(), frozenset({seat}), label=f"Player {seat + 1}"))
    return {access.token: access for access in links}


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
