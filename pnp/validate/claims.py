"""Printed text against the engine: what a card, a reference card or a player aid says is
played out through the game's rules engine, and a located finding reports where they disagree
(VALIDATOR.md 16, Hearthstone's lesson: checked by play, not by reading).

A game plugs in with one function, ``Game.claims(model, templates_root)``, that lists its
:class:`Claim` objects. A claim ties one printed phrase to a probe:

- ``where``: where the words are printed, the content or template line a reader would fix;
- ``subject`` and ``says``: the component and its words, quoted in the finding;
- ``probe``: a function that builds a small position through the engine, applies actions and
  returns ``None`` when the engine does what the words say, or a sentence saying what the
  engine does instead (``"in a 4-player game the engine offers move:jab:1:1"``).

:func:`check_claims` runs every claim of a game (``pnp validate`` calls it for every game
with an engine) and reports each disagreement as ``path:line: game: SUBJECT prints 「SAYS」,
but WHAT THE ENGINE DOES``. A probe the engine refuses to play out (it raises) is reported the
same way, at the claim's line: content is untrusted, so a card that the engine cannot even
resolve is a finding, never a traceback.

Helpers for building claims: :func:`phrase_claims` ties every occurrence of known phrases in
free prose (a reference card's text, a glossary entry) to probes, and :func:`template_line`
locates a phrase a template prints.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pnp.errors import Location

if TYPE_CHECKING:
    from pnp.registry import Game
    from pnp.validate.checks import Findings

Probe = Callable[[], "str | None"]
"""Plays a printed claim out through the engine: None when the engine agrees, else what the
engine does instead, as a sentence a reader of the card understands."""


@dataclass(frozen=True)
class Claim:
    """One printed phrase and the probe that checks the engine does what it says."""

    where: Location = field(metadata={"doc": "where the phrase is printed (content or template)"})
    subject: str = field(metadata={"doc": "the component that prints it, e.g. \"card 'jab'\""})
    says: str = field(metadata={"doc": "the printed words, as a player reads them"})
    probe: Probe = field(metadata={"doc": "None if the engine agrees, else what it does"})


ClaimSource = Callable[[object, Path], Iterable[Claim]]
"""``Game.claims``: every claim of a game's content (its model), templates under the root."""


def check_claims(findings: Findings, plugin: Game | None, templates_root: Path) -> int:
    """Run every claim of the game's content through its engine; one error per printed phrase
    the engine disagrees with, at the phrase's location. Returns the number of claims run."""
    if plugin is None or plugin.claims is None:
        return 0
    try:
        claims = list(plugin.claims(findings.game.model, templates_root))
    except Exception as error:  # the engine refusing content is a finding, not a traceback
        findings.error(None, f"printed text could not be checked against the engine: {error}")
        return 0
    for claim in claims:
        try:
            differs = claim.probe()
        except Exception as error:  # any failure to play a claim out is reported, located
            differs = f"the engine cannot play it out ({type(error).__name__}: {error})"
        if differs is not None:
            findings.error(claim.where, f"{claim.subject} prints 「{claim.says}」, but {differs}")
    return len(claims)


def phrase_claims(
    texts: Iterable[tuple[str, str, Location]], probes: Mapping[str, Probe]
) -> list[Claim]:
    """A claim for every known phrase (a key of ``probes``) printed in one of ``texts``
    ((subject, text, where)): prose is free, so what it says is recognised by the phrases a
    game knows how to probe; a phrase no text prints is not checked."""
    return [
        Claim(where, subject, phrase, probe)
        for subject, text, where in texts
        for phrase, probe in probes.items()
        if phrase in text
    ]


def template_line(templates_root: Path, name: str, needle: str) -> Location:
    """The location of the first line of template ``name`` (``game/face.yaml``) holding
    ``needle``: where a phrase the template prints is written. The file alone when the
    needle is not found (a claim still names the template to look at)."""
    path = templates_root / name
    try:  # as the loader names content files: relative to the working folder where it can
        shown = str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        shown = str(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return Location(shown)
    line = next((number for number, text in enumerate(lines, 1) if needle in text), 0)
    return Location(shown, line)
