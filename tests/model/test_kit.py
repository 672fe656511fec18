"""The kit's physical vocabulary: what content may say of a card, token or board, said once for
every game, and each game's own concepts built on it."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnp.content.jsonschema import game_schema
from pnp.content.loader import load_game
from pnp.content.schema import convert
from pnp.content.yamlsource import Node, load_yaml
from pnp.errors import ContentError
from pnp.games.dragon_hoard.model import Treasure
from pnp.model import kit
from pnp.model.game import GameContent
from pnp.registry import games


def _node(tmp_path: Path, text: str) -> Node:
    path = tmp_path / "kit.yaml"
    path.write_text(text, encoding="utf-8")
    return load_yaml(path, "kit.yaml")


def _messages(node: Node, target: type) -> list[str]:
    with pytest.raises(ContentError) as caught:
        convert(node, target)
    return [str(problem) for problem in caught.value.problems]


def test_a_marker_reads_its_symbol_and_colour_and_is_printed_once(tmp_path: Path) -> None:
    marker = convert(
        _node(tmp_path, "{id: hp, name: 血量, symbol: ♥, colour: '#c0262d'}"), kit.Marker
    )
    assert (marker.id, marker.name, marker.symbol, marker.colour) == ("hp", "血量", "♥", "#c0262d")
    # No `copies`: the kit prints one.
    assert marker.copies == 1


def test_a_component_needs_an_id_and_a_name(tmp_path: Path) -> None:
    assert _messages(_node(tmp_path, "{copies: 2}"), kit.Board) == [
        "kit.yaml:1:1: missing required key 'id' (stable slug, unique among its kind)",
        "kit.yaml:1:1: missing required key 'name' (the name printed on it)",
    ]


def test_a_game_concept_adds_its_own_keys_to_the_vocabulary(tmp_path: Path) -> None:
    # Dragon Hoard's treasure is a token: id, name, copies, symbol and colour come from the
    # vocabulary, its points from the game.
    node = _node(tmp_path, "{id: gem, name: 宝石, copies: 3, colour: '#3070c0'}")
    assert _messages(node, Treasure) == [
        "kit.yaml:1:1: missing required key 'value' (points at scoring)"
    ]
    treasure = convert(_node(tmp_path, "{id: gem, name: 宝石, copies: 3, value: 2}"), Treasure)
    assert isinstance(treasure, kit.Token) and (treasure.copies, treasure.value) == (3, 2)


def test_an_old_token_key_names_the_vocabulary_keys(content_copy: Path) -> None:
    # Maquis' tokens said `label` and `hex`; the vocabulary says `symbol` and `colour`.
    tokens = content_copy / "maquis" / "tokens.yaml"
    text = tokens.read_text(encoding="utf-8")
    tokens.write_text(text.replace("symbol: 抗, colour:", "label: 抗, hex:"), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_game(content_copy, "maquis")
    known = "(known keys: id, name, copies, symbol, colour, kind)"
    assert [(p.location.line, p.message) for p in caught.value.problems] == [
        (3, f"tokens[0]: unknown key 'label' {known}"),
        (3, f"tokens[0]: unknown key 'hex' {known}"),
    ]
    assert all(p.location.path.endswith("maquis/tokens.yaml") for p in caught.value.problems)


def _content_types(root: type) -> Iterator[type]:
    """Every dataclass the content of a game is read into, the root first."""
    seen: set[type] = set()
    pending = [root]
    while pending:
        cls = pending.pop()
        if cls in seen:
            continue
        seen.add(cls)
        yield cls
        hints = typing.get_type_hints(cls)
        for each in dataclasses.fields(cls):
            stack = [hints[each.name]]
            while stack:
                hint = stack.pop()
                stack.extend(typing.get_args(hint))
                if isinstance(hint, type) and dataclasses.is_dataclass(hint):
                    pending.append(hint)


@pytest.mark.parametrize("slug", sorted(games()))
def test_every_game_says_copies_and_the_root_keys_through_the_shared_types(slug: str) -> None:
    model = games()[slug].model
    assert issubclass(model, GameContent)
    for cls in _content_types(model):
        names = {each.name for each in dataclasses.fields(cls)}
        if "copies" in names:
            assert issubclass(cls, kit.Component), f"{cls.__qualname__} declares copies itself"


@pytest.mark.parametrize("slug", sorted(games()))
def test_the_schema_documents_the_vocabulary_once_for_every_game(slug: str) -> None:
    definitions = game_schema(slug)["$defs"]
    with_copies = [d for d in definitions.values() if "copies" in d.get("properties", {})]
    assert with_copies
    for definition in with_copies:
        assert definition["properties"]["copies"]["description"] == (
            "how many the kit prints (integer, optional)"
        )
