"""What every game's content holds besides its own concepts: the box, the kit's products, the
edition's decisions, the rulebook, the balance promises and the physical state."""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.model.common import Balance, Decision, GameInfo, Physical, Product, doc
from pnp.model.icons import Icon, Sprite
from pnp.model.rulebook import Rulebook
from pnp.model.tuning import Tuning


@dataclass(frozen=True, kw_only=True)
class GameContent:
    """The root of a game's content; a game's model adds its own concepts to it."""

    info: GameInfo = field(metadata=doc("title, players, play time"))
    products: tuple[Product, ...] = field(metadata=doc("the files of the printed kit"))
    decisions: tuple[Decision, ...] = field(default=(), metadata=doc("open points decided"))
    rulebook: Rulebook | None = field(default=None, metadata=doc("the rules, as structured text"))
    balance: Balance | None = field(
        default=None,
        metadata=doc("what the design promises about fairness and difficulty, checked in play"),
    )
    tuning: Tuning | None = field(
        default=None,
        metadata=doc(
            "which numbers pnp tune may change to keep the balance promises, and which not"
        ),
    )
    physical: Physical = field(
        default=Physical(),
        metadata=doc("what players bring, and which component shows each piece of public state"),
    )
    sprites: tuple[Sprite, ...] = field(
        default=(), metadata=doc("the game's pixel art, drawn by sprite boxes")
    )
    icons: tuple[Icon, ...] = field(
        default=(),
        metadata=doc(
            "the game's own vector icons, placed in any text as [[name]]; with the shared set"
        ),
    )
