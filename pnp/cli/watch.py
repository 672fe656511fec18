"""`pnp build --watch`: rebuild a game whenever one of its files is saved."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import click

from pnp.cli.app import Context
from pnp.errors import ContentError, PnpError

WATCH_INTERVAL_SECONDS = 0.3
"""How often --watch looks at the files. A content tree is tens of files, so polling their
sizes and times costs nothing and needs no file-watcher library or OS support."""


def _snapshot(folders: list[Path]) -> dict[Path, tuple[int, int]]:
    found: dict[Path, tuple[int, int]] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            if path.is_file() and not path.name.startswith("."):
                stat = path.stat()
                found[path] = (stat.st_size, stat.st_mtime_ns)
    return found


def watch_games(
    obj: Context,
    slugs: list[str],
    rebuild: Callable[[str], None],
    *,
    rounds: int | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Call ``rebuild(slug)`` each time one of the game's content files, or a template,
    changes; until interrupted (or for `rounds` polls, or until ``stop`` is set). A content
    mistake is reported and the watch goes on."""
    folders = {slug: obj.content_root / slug for slug in slugs}
    seen = {slug: _snapshot([folder, obj.templates_root]) for slug, folder in folders.items()}
    obj.say(f"watching {', '.join(slugs)} (Ctrl-C to stop)")
    polls = 0
    try:
        while (rounds is None or polls < rounds) and not (stop is not None and stop.is_set()):
            time.sleep(WATCH_INTERVAL_SECONDS)
            polls += 1
            for slug, folder in folders.items():
                now = _snapshot([folder, obj.templates_root])
                if now == seen[slug]:
                    continue
                seen[slug] = now
                try:
                    rebuild(slug)
                except ContentError as error:
                    for problem in error.problems:
                        click.echo(str(problem), err=True)
                except PnpError as error:
                    click.echo(f"{slug}: error: {error}", err=True)
    except KeyboardInterrupt:
        obj.say("stopped watching")
