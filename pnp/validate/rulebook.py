"""Rulebook content against the model: every variable exists, no number of the rules is typed
into prose, and every term the cards use is explained."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.errors import Location, TemplateError
from pnp.rulebook.text import context_for, prose_of, render
from pnp.validate.checks import Findings

_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
# An Arabic number standing on its own (not part of an id like "7-heart" or a word like "A5").
_LITERAL = re.compile(r"(?<![\w.-])(\d+(?:\.\d+)?)(?![\w.-])")


def numeric_fields(value: Any, path: str = "game") -> Iterator[tuple[str, int]]:
    """Every whole-number field of the model with its path, for 'did you mean' hints."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            if field.name != "where":
                yield from numeric_fields(getattr(value, field.name), f"{path}.{field.name}")
    elif isinstance(value, bool):
        return
    elif isinstance(value, int):
        yield path, value


def check_rulebook(findings: Findings, terms: list[tuple[str, Location]]) -> None:
    game: LoadedGame = findings.game
    rulebook = getattr(game.model, "rulebook", None)
    if rulebook is None:
        return
    context = context_for(game)
    fields = list(numeric_fields(game.model))
    rendered: list[str] = []
    for prose in prose_of(rulebook):
        if not prose.source:
            continue
        try:
            rendered.append(render(prose.source, context, prose.where, prose.field))
        except TemplateError as error:
            message = str(error).split(": ", 2)[-1]
            findings.error(prose.where, f"rulebook {prose.field}: {message}")
            continue
        if prose.in_example:
            continue  # an example's numbers illustrate; they are not rules
        for match in _LITERAL.finditer(_JINJA.sub(" ", prose.source)):
            number = match.group(1)
            same = [path for path, value in fields if str(value) == number]
            hint = f" (e.g. {{{{ {same[0]} }}}})" if same else ""
            findings.error(
                prose.where,
                f"rulebook {prose.field}: literal number {number} in "
                f"the rules; take it from content{hint}",
            )
    text = "\n".join(rendered)
    for term, where in terms:
        if term not in text:
            findings.error(
                where,
                f"rulebook: the term {term!r} appears on cards but the rulebook never explains it",
            )
