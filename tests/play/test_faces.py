"""The faces a table shows are the kit's own: every face a game's scenes name is one the kit
prints, every track a scene marks is printed on its product, and a face comes back as a PNG
of the face's proportions."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from pnp.engines.view import Board, TrackMark, faces_of
from pnp.registry import Game, with_engine
from pnp.validate.play import game_tables
from tests.play.conftest import faces, loaded


def _positions(rules: Any, seed: int, steps: int = 120) -> list[tuple[Any, list[Any]]]:
    rng = random.Random(seed)
    state = rules.initial_state(rng)
    played: list[Any] = []
    found = [(state, [])]
    for _ in range(steps):
        if rules.is_terminal(state):
            break
        actions = rules.legal_actions(state)
        action = (
            rules.sample_chance(state, rng)
            if rules.is_chance(state)
            else actions[int(rng.random() * len(actions))]
        )
        state = rules.apply(state, action)
        played.append(action)
        found.append((state, list(played)))
    return found


@pytest.mark.parametrize("game", with_engine(), ids=lambda game: game.slug)
def test_every_face_and_track_a_scene_shows_is_printed_by_the_kit(game: Game) -> None:
    assert game.view is not None, f"{game.slug} names no view"
    store = faces(game.slug)
    printed = set(store.refs())
    table = game_tables(game, loaded(game.slug).model)[0]
    view = game.view(table.rules)
    for state, played in _positions(table.rules, seed=2)[::10]:
        for seat in (None, *range(table.rules.num_players)):
            scene = view.scene(state, seat, played)
            missing = faces_of(scene) - printed
            assert not missing, f"{game.slug}: faces the kit does not print: {sorted(missing)}"
            for area in scene.areas:
                if isinstance(area, TrackMark):
                    assert (area.product, area.track) in store.tracks
                if isinstance(area, Board) and area.face is not None:
                    for piece in area.pieces:
                        if piece.anchor:
                            assert store.anchor(area.face, piece.anchor) is not None


def test_a_face_is_a_png_of_the_printed_proportions() -> None:
    store = faces("deadline-99")
    ref = next(ref for ref in store.refs() if ref.product == "playing-cards")
    image = Image.open(io.BytesIO(store.png(ref)))
    width_mm, height_mm = store.size_mm(ref)
    assert image.format == "PNG"
    assert abs(image.width / image.height - width_mm / height_mm) < 0.01
    assert image.height == round(height_mm / 25.4 * 150)
