"""Rulebook content against the model: every variable exists, no number of the rules is typed
into prose, and every term the cards use is explained."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

from pnp.content.icons import SHARED_FILE, icon_map, icons_in, unknown_icon
from pnp.content.loader import LoadedGame
from pnp.errors import Location, TemplateError
from pnp.model.rulebook import BlockKind
from pnp.registry import find_game
from pnp.rulebook.text import context_for, glossary_entries, prose_of, render, walk_sections
from pnp.validate.checks import Findings, suggest

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
    icons = icon_map(game.model)
    for prose in prose_of(rulebook):
        if not prose.source:
            continue
        try:
            rendered.append(render(prose.source, context, prose.where, prose.field))
        except TemplateError as error:
            message = str(error).split(": ", 2)[-1]
            findings.error(prose.where, f"rulebook {prose.field}: {message}")
            continue
        for name in icons_in(rendered[-1], icons)[1]:
            findings.error(prose.where, f"rulebook {prose.field}: {unknown_icon(name, icons)}")
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
    for entry in glossary_entries(rulebook, game.model):
        if entry.icon and entry.icon not in icons:
            findings.error(
                entry.where, f"glossary {entry.term!r}: icon: {unknown_icon(entry.icon, icons)}"
            )
    check_icon_terms(findings, rulebook)
    check_figures(findings, rulebook)
    text = "\n".join(rendered)
    for term, where in terms:
        if term not in text:
            findings.error(
                where,
                f"rulebook: the term {term!r} appears on cards but the rulebook never explains it",
            )


def check_icon_terms(findings: Findings, rulebook: Any) -> None:
    """Every term one of the game's own icons stands for has a glossary row: a player who
    meets the icon on a face looks it up there (the row shows the icon beside the term). The
    shared set's icons stand for everyday words (回合, 牌) and need none."""
    model = findings.game.model
    explained = {entry.term for entry in glossary_entries(rulebook, model)}
    for icon in getattr(model, "icons", ()):
        shared = icon.where.path.endswith(f"templates/{SHARED_FILE}")
        if icon.term and not shared and icon.term not in explained:
            findings.error(
                icon.where,
                f"icon {icon.name!r}: the glossary has no row for its term {icon.term!r}; "
                "add one to the rulebook's glossary (term and meaning), so a player who meets "
                "the icon can look it up",
            )


def check_figures(findings: Findings, rulebook: Any) -> None:
    """Every figure draws an item that exists, from a product that exists."""
    products = {product.id: product for product in getattr(findings.game.model, "products", ())}
    for section, _ in walk_sections(rulebook.sections):
        for block in section.blocks:
            if block.kind is not BlockKind.FIGURE:
                continue
            if block.position:
                _check_position(findings, block)
                continue
            product = products.get(block.product)
            if product is None:
                findings.error(
                    block.where,
                    f"rulebook figure: product {block.product!r} does not exist"
                    f"{suggest(block.product, products)}",
                )
                continue
            items = getattr(findings.game.model, product.items, None)
            ids = [getattr(item, "id", "") for item in items] if isinstance(items, tuple) else []
            if block.item not in ids:
                findings.error(
                    block.where,
                    f"rulebook figure: product {block.product!r} has no item {block.item!r}"
                    f"{suggest(block.item, ids)}",
                )


def _check_position(findings: Findings, block: Any) -> None:
    """A figure's position is one the game's engine names, and its view can draw."""
    plugin = find_game(findings.game.slug)
    if plugin is None or plugin.rulebook_positions is None or plugin.view is None:
        findings.error(
            block.where,
            f"rulebook figure: position {block.position!r}: this game's engine draws no positions",
        )
        return
    from pnp.rulebook.scenes import positions_of  # the drawing stack, only for figures

    positions = positions_of(findings.game)
    if block.position not in positions:
        findings.error(
            block.where,
            f"rulebook figure: no position {block.position!r}"
            f"{suggest(block.position, list(positions))}; positions: {', '.join(positions)}",
        )
