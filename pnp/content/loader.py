"""content/<game>/*.yaml -> the game's typed model, with every problem located."""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.content.icons import with_shared_icons
from pnp.content.schema import convert, merge_files
from pnp.content.sources import Snapshot, display_root, take_snapshot
from pnp.content.tables import tables_in
from pnp.content.yamlsource import load_yaml
from pnp.errors import ContentError, Location, PnpError, Problem, UnknownGameError
from pnp.model.generic import GenericGame
from pnp.paths import discover_games, templates_root_for
from pnp.registry import find_game


@dataclass(frozen=True)
class LoadedGame:
    """A game's model together with where it came from."""

    slug: str
    model: Any
    folder: Path  # the game's content folder
    display_folder: str  # how messages name that folder, e.g. content/deadline-99
    files: tuple[str, ...]  # display paths of the YAML files read
    sources: Snapshot | None = None
    """The bytes the game was loaded from, and all its templates and images may read: every
    later stage reads from here (pinned, see pnp.content.sources), and every record of the
    game's outputs is keyed on its digest."""

    def reading(self) -> contextlib.AbstractContextManager[object]:
        """Within the block, templates and images are read from the bytes the game was
        loaded with (nothing to pin for a game made without a snapshot, as tests do)."""
        return self.sources.pinned() if self.sources is not None else contextlib.nullcontext()

    @property
    def digest(self) -> str:
        """The digest of every byte the game's outputs may depend on (content, templates)."""
        if self.sources is None:
            raise ValueError(f"game {self.slug!r} was not loaded from a snapshot")
        return self.sources.digest


def load_game(
    content_root: Path,
    slug: str,
    *,
    templates_root: Path | None = None,
    sources: Snapshot | None = None,
) -> LoadedGame:
    """Load one game from ``sources`` (read now when not given: the game's folder and
    ``templates_root``, by default the templates beside the content tree); raises
    ContentError carrying every problem found."""
    folder = content_root / slug
    if not folder.is_dir():
        known = discover_games(content_root)
        near = difflib.get_close_matches(slug, known, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        listing = ", ".join(known) or "none"
        raise UnknownGameError(f"no game {slug!r} in {content_root}{hint}; games: {listing}")
    display_folder = f"{display_root(content_root)}/{slug}"
    try:
        registered = find_game(slug)
    except PnpError as error:  # its package is announced but broken: this game alone fails
        raise ContentError([Problem(Location(display_folder), str(error), game=slug)]) from None
    # No package claims the folder: a data-only game (pnp new), read into the generic model.
    model_type = registered.model if registered is not None else GenericGame
    if sources is None:
        templates = templates_root or templates_root_for(content_root)
        sources = take_snapshot(folder, templates, label=display_folder)
    # The model is a function of the bytes read and the model type: a second reading of the
    # same bytes (a watch that saw no change, a table page reloaded, the validator after the
    # build) is handed the model the first made, whose frozen values then keep the faces laid
    # out for them (see pnp.layout.template.layout_face).
    key = (str(folder), display_folder, sources.digest, model_type)
    known_game = _LOADED.get(key)
    if known_game is not None:
        return dataclasses.replace(known_game, sources=sources)
    loaded = _load(folder, slug, display_folder, sources, model_type, registered is None)
    if len(_LOADED) >= _KEEP_LOADED:
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[key] = loaded
    return loaded


_LOADED: dict[tuple[str, str, str, type], LoadedGame] = {}
_KEEP_LOADED = 32
"""Games a process keeps loaded, oldest dropped first: a long `pnp watch` or `pnp play`
reads each saved version of the content once."""


def _load(
    folder: Path,
    slug: str,
    display_folder: str,
    sources: Snapshot,
    model_type: type,
    data_only: bool,
) -> LoadedGame:
    names = sources.content.names(".yaml")
    if not names:
        raise ContentError([Problem(Location(display_folder), "no *.yaml files", game=slug)])
    problems: list[Problem] = []
    nodes = []
    files = []
    with sources.pinned():
        for name in names:
            display = f"{display_folder}/{name}"
            files.append(display)
            try:
                nodes.append(load_yaml(folder / name, display))
            except ContentError as error:
                problems.extend(error.problems)
    if problems:
        raise ContentError(_with_game(problems, slug))
    try:
        merged = merge_files(nodes)
        # A collection written as a table's name reads the table from the same snapshot.
        with sources.pinned(), tables_in(folder, display_folder):
            model: Any = convert(merged, model_type)
            model = with_shared_icons(model, sources)
    except ContentError as error:
        problems = _with_game(error.problems, slug)
        if data_only:
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
        slug=slug,
        model=model,
        folder=folder,
        display_folder=display_folder,
        files=tuple(files),
        sources=sources,
    )


def _with_game(problems: Any, slug: str) -> list[Problem]:
    return [
        p if p.game else Problem(p.location, p.message, game=slug, severity=p.severity)
        for p in problems
    ]
