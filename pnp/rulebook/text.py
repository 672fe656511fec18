"""The rulebook's words: every prose field rendered against the model and engine examples."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.content.prose import render_prose
from pnp.errors import Location
from pnp.model.rulebook import Block, BlockKind, GlossaryEntry, Rulebook, Section
from pnp.registry import find_game

_EXAMPLES: dict[int, tuple[object, dict[str, Any]]] = {}
"""The examples of the last few models, by identity (each entry holds its model, so the
identity is not reused while it is kept)."""
_EXAMPLES_KEPT = 8


def examples_for(game: LoadedGame) -> dict[str, Any]:
    """Worked examples computed by the game's engine (`rulebook_examples(model)`), if any.

    Computed once per model: validating a game renders the rulebook's prose twice (its own
    check and the preflight of player documents), and the examples play the engine."""
    plugin = find_game(game.slug)
    if plugin is None or plugin.rulebook_examples is None:
        return {}
    model = game.model
    kept = _EXAMPLES.get(id(model))
    if kept is not None and kept[0] is model:
        return kept[1]
    examples = plugin.rulebook_examples(model)
    if len(_EXAMPLES) >= _EXAMPLES_KEPT:
        del _EXAMPLES[next(iter(_EXAMPLES))]
    _EXAMPLES[id(model)] = (model, examples)
    return examples


def context_for(game: LoadedGame) -> dict[str, Any]:
    return {"game": game.model, "examples": examples_for(game)}


@dataclass(frozen=True)
class Prose:
    """One piece of rulebook text: where it is written, its source and whether it is an example."""

    where: Location
    field: str
    source: str
    in_example: bool


def walk_sections(sections: tuple[Section, ...], depth: int = 0) -> Iterator[tuple[Section, int]]:
    for section in sections:
        yield section, depth
        yield from walk_sections(section.sections, depth + 1)


def prose_of(rulebook: Rulebook) -> Iterator[Prose]:
    """Every jinja text of a rulebook, so the validator can render and inspect each one."""
    yield Prose(rulebook.where, "title", rulebook.title, False)
    yield Prose(rulebook.where, "subtitle", rulebook.subtitle, False)
    for entry in rulebook.glossary:
        yield Prose(entry.where, f"glossary[{entry.term}].meaning", entry.meaning, False)
    for section, _ in walk_sections(rulebook.sections):
        yield Prose(section.where, f"{section.id}.title", section.title, False)
        for index, block in enumerate(section.blocks):
            yield from _block_prose(block, f"{section.id}.blocks[{index}]")


def _block_prose(block: Block, label: str) -> Iterator[Prose]:
    example = block.kind is BlockKind.EXAMPLE
    for name in ("text", "title"):
        value = getattr(block, name)
        if value:
            yield Prose(block.where, f"{label}.{name}", value, example)
    for number, item in enumerate(block.items):
        yield Prose(block.where, f"{label}.items[{number}]", item, example)
    for row_number, row in enumerate(block.rows):
        for cell_number, cell in enumerate(row):
            yield Prose(block.where, f"{label}.rows[{row_number}][{cell_number}]", cell, example)


_CJK = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
# YAML folds a long line into several with a space between them; Chinese wants none.
_SPACE_BETWEEN_CJK = re.compile(f"(?<=[{_CJK}])[ \t]+(?=[{_CJK}])")


def render(text: str, context: dict[str, Any], where: Location, label: str = "") -> str:
    place = f"{where}: {label}" if label else str(where)
    return _SPACE_BETWEEN_CJK.sub("", render_prose(text, context, place).strip())


def lines_of(block: Block, context: dict[str, Any]) -> list[str]:
    """The entries of a list or steps block: its items, or the non-empty lines of its text."""
    if block.items:
        return [render(item, context, block.where) for item in block.items]
    rendered = render(block.text, context, block.where)
    return [line.strip() for line in rendered.splitlines() if line.strip()]


def glossary_entries(rulebook: Rulebook, model: Any) -> tuple[GlossaryEntry, ...]:
    """The rulebook's own glossary; without one, the game's keyword glossary (entries with a
    `name` and a `text`, as the cards print them), so no meaning is written twice, after the
    rows of the model's `icon_glossary` (icons the faces print that are no keyword: a player
    meets them first, on every card)."""
    if rulebook.glossary:
        return rulebook.glossary
    return tuple(
        GlossaryEntry(entry.name, entry.text, icon=getattr(entry, "icon", ""), where=entry.where)
        for entry in (*getattr(model, "icon_glossary", ()), *getattr(model, "glossary", ()))
        if hasattr(entry, "name") and hasattr(entry, "text")
    )
