"""A Deadline 99 model built in Python for the rules tests (the content loader is tested on its
own), so a rule scenario does not move when content is edited."""

from __future__ import annotations

from functools import cache

import pytest

from pnp.games.deadline_99.model import (
    Camp,
    CampMode,
    CampSetup,
    Colour,
    Deadline99,
    DeckRule,
    Effect,
    EffectKind,
    Identity,
    Rank,
    Role,
    Settings,
    Suit,
    VariantCard,
)
from pnp.model.common import GameInfo, PlayerRange

# The camp-mode deal per player count: (ministers per camp, free agents), kings always both.
_CAMP_DEALS = {4: (1, 0), 5: (1, 1), 6: (2, 0), 7: (2, 1), 8: (3, 0), 9: (3, 1), 10: (4, 0)}
_CAMP_DEALS |= {11: (4, 1), 12: (4, 2)}


@cache
def make_deadline_99_model() -> Deadline99:
    """The real game's values (the ones content/deadline-99 holds)."""

    def rank(id: str, label: str, kind: EffectKind, amount: int = 0, draw: int = 1) -> Rank:
        return Rank(id, label, label, Effect(kind, amount, draw))

    add = [rank(str(v), str(v), EffectKind.ADD, v) for v in (3, 4, 5, 6, 9)]
    ranks = (
        *add,
        rank("7", "7", EffectKind.SWAP_HANDS, draw=0),
        rank("8", "8", EffectKind.REVERSE),
        rank("10", "10", EffectKind.ADD_OR_SUBTRACT, 10),
        rank("j", "J", EffectKind.STEAL_RANDOM, draw=0),
        rank("q", "Q", EffectKind.ADD_OR_SUBTRACT, 20),
        rank("k", "K", EffectKind.SET_TO_CAP),
        rank("a", "A", EffectKind.CHOOSE_NEXT),
    )
    suits = (
        Suit("spade", "黑桃", "♠", Colour.BLACK),
        Suit("heart", "红心", "♥", Colour.RED),
        Suit("club", "梅花", "♣", Colour.BLACK),
        Suit("diamond", "方块", "♦", Colour.RED),
    )

    def identity(id: str, name: str, camp: Camp, role: Role, copies: int, joker: str) -> Identity:
        return Identity(
            id=id, name=name, camp=camp, role=role, copies=copies, text="", stands_for=joker
        )

    identities = (
        identity("red-king", "红方国王", Camp.RED, Role.KING, 1, "big joker"),
        identity("black-king", "黑方国王", Camp.BLACK, Role.KING, 1, "small joker"),
        identity("red-minister", "红方大臣", Camp.RED, Role.MINISTER, 4, "red 2"),
        identity("black-minister", "黑方大臣", Camp.BLACK, Role.MINISTER, 4, "black 2"),
        identity("free-agent", "自由人", Camp.FREE, Role.AGENT, 2, ""),
    )
    setups = tuple(
        CampSetup(
            players,
            {
                "red-king": 1,
                "black-king": 1,
                "red-minister": ministers,
                "black-minister": ministers,
            }
            | ({"free-agent": free} if free else {}),
        )
        for players, (ministers, free) in _CAMP_DEALS.items()
    )
    return Deadline99(
        info=GameInfo("deadline-99", "死线99", players=PlayerRange(3, 12)),
        settings=Settings(hand_size=5, count_start=0, count_cap=99, count_floor=0),
        suits=suits,
        ranks=ranks,
        deck_rules=(DeckRule(PlayerRange(3, 8), 2), DeckRule(PlayerRange(9, 12), 4)),
        kit_decks=2,
        camp_mode=CampMode(PlayerRange(4, 12), identities, setups),
        variant_cards=(
            VariantCard(
                id="angel",
                name="天使",
                effect=Effect(EffectKind.BONUS_DRAW, draw=2),
                stands_for="big joker",
            ),
            VariantCard(
                id="death",
                name="死神",
                effect=Effect(EffectKind.ELIMINATE_SELF),
                stands_for="small joker",
            ),
        ),
        reference_cards=(),
        trackers=(),
        products=(),
    )


@pytest.fixture
def deadline_99_model() -> Deadline99:
    return make_deadline_99_model()
