"""A progress bar on stderr for long runs of games (``pnp simulate``): only on a terminal, so
logs and pipes get no control characters, and never with ``-q``."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import TextIO

from pnp.engines.batch import reporting_progress

BAR_WIDTH = 30
REDRAW_SECONDS = 0.1
"""Shortest time between two drawings: thousands of games would otherwise flood the terminal."""


class ProgressBar:
    """Draws ``label [#####-----] done/total games`` in place; each batch (a table, a duel)
    starts a new bar, numbered."""

    def __init__(self, label: str, stream: TextIO) -> None:
        self.label = label
        self.stream = stream
        self.batch = 0
        self.last_done = 0
        self.drawn_at = 0.0
        self.width = 0

    def __call__(self, done: int, total: int) -> None:
        if done <= self.last_done or not self.batch:
            self.batch += 1
        self.last_done = done
        now = time.monotonic()
        if done < total and now - self.drawn_at < REDRAW_SECONDS:
            return
        self.drawn_at = now
        filled = BAR_WIDTH * done // max(1, total)
        line = (
            f"{self.label} (batch {self.batch}) [{'#' * filled}{'-' * (BAR_WIDTH - filled)}] "
            f"{done}/{total} games"
        )
        self.stream.write("\r" + line.ljust(self.width))
        self.width = len(line)
        if done >= total:
            self.clear()  # whatever prints next starts on a clean line
        self.stream.flush()

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


@contextlib.contextmanager
def progress_bar(label: str, stream: TextIO, *, quiet: bool) -> Iterator[None]:
    """Within the block, games played show a bar on ``stream`` when it is a terminal and
    ``quiet`` is off."""
    if quiet or not stream.isatty():
        yield
        return
    bar = ProgressBar(label, stream)
    try:
        with reporting_progress(bar):
            yield
    finally:
        bar.clear()
