"""content/<game>/*.yaml -> the game's typed model, with every problem located."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.content.schema import convert, merge_files
from pnp.content.yamlsource import load_yaml
from pnp.errors import ContentError, Location, PnpError, Problem, UnknownGameError
from pnp.model.generic import GenericGame
from pnp.paths import discover_games
from pnp.registry import find_game


@dataclass(frozen=True)
class LoadedGame:
    """A game's model together with where it came from."""

    slug: str
    model: Any
    folder: Path  # the game's content folder
    display_folder: str  # how messages name that folder, e.g. content/deadline-99
    files: tuple[str, ...]  # display paths of the YAML files read


def _display_root(content_root: Path) -> str:
    try:
        return str(content_root.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(content_root)


def load_game(content_root: Path, slug: str) -> LoadedGame:
    """Load one game; raises ContentError carrying every problem found."""
    folder = content_root / slug
    if not folder.is_dir():
        known = discover_games(content_root)
        near = difflib.get_close_matches(slug, known, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        listing = ", ".join(known) or "none"
        raise UnknownGameError(f"no game {slug!r} in {content_root}{hint}; games: {listing}")
    display_folder = f"{_display_root(content_root)}/{slug}"
    try:
        registered = find_game(slug)
    except PnpError as error:  # its package is announced but broken: this game alone fails
        raise ContentError([Problem(Location(display_folder), str(error), game=slug)]) from None
    # No package claims the folder: a data-only game (pnp new), read into the generic model.
    model_type = registered.model if registered is not None else GenericGame
    paths = sorted(folder.glob("*.yaml"))
    if not paths:
        raise ContentError([Problem(Location(display_folder), "no *.yaml files", game=slug)])
    problems: list[Problem] = []
    nodes = []
    files = []
    for path in paths:
        display = f"{display_folder}/{path.name}"
        files.append(display)
        try:
            nodes.append(load_yaml(path, display))
        except ContentError as error:
            problems.extend(error.problems)
    if problems:
        raise ContentError(_with_game(problems, slug))
    try:
        merged = merge_files(nodes)
        model: Any = convert(merged, model_type)
    except ContentError as error:
        problems = _with_game(error.problems, slug)
        if registered is None:
            problems.append(
                Problem(
                    Location(display_folder),
                    f"no game package is registered for {slug!r}, so its content was read as a "
                    "data-only game (see 'pnp new'); a game with its own model is announced "
                    "through a 'pnp.games' entry point",
                    game=slug,
                )
            )
        raise ContentError(problems) from None
    return LoadedGame(
        slug=slug, model=model, folder=folder, display_folder=display_folder, files=tuple(files)
    )


def _with_game(problems: Any, slug: str) -> list[Problem]:
    return [
        p if p.game else Problem(p.location, p.message, game=slug, severity=p.severity)
        for p in problems
    ]
