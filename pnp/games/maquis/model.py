"""Maquis (马基游击队): a solo worker-placement game of a resistance cell in an occupied town.

Every number of the game (resources and their limit, the morale, soldier and day tracks, the
town's locations and the thick lines between them, patrol and mission cards, vacant-house
tiles, difficulty levels) is a field here, filled from content/maquis/*.yaml; the engine, the
board and cards and the rulebook read it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property

from pnp.errors import Location
from pnp.model import kit
from pnp.model.common import NOWHERE, doc
from pnp.model.game import GameContent


class LocationKind(enum.Enum):
    """What a space of the town board is."""

    SAFE_HOUSE = "safe_house"
    """Where workers start and must walk home to; never a place to put a worker."""
    ACTION = "action"
    """A place with an action printed on it (cost → reward)."""
    VACANT = "vacant"
    """A vacant house: pay to lay a vacant-house tile on it."""
    AIRDROP = "airdrop"
    """An airdrop zone: collect what the radio called in, for free, from the next round on."""
    MISSION = "mission"
    """The mission card lying at one of the exits on the top edge."""


class EffectKind(enum.Enum):
    """What the right side of an action (or a printed rule of a space) does.

    The engine declares which kinds it implements; the validator compares that with content.
    """

    RESOURCES = "resources"
    """Take resources from the supply (only what the supply still holds)."""
    MORALE = "morale"
    """Move the morale marker."""
    RECRUIT = "recruit"
    """A worker waiting in the café joins the cell."""
    AIRDROP = "airdrop"
    """Call an airdrop onto an empty airdrop zone (the difficulty level says what may drop)."""
    BUILD = "build"
    """Lay a vacant-house tile on the vacant house (the tile's action is usable next round)."""
    COLLECT = "collect"
    """Take the resources lying on an airdrop zone."""
    SECOND_SAFE_HOUSE = "second_safe_house"
    """A tile that turns its vacant house into a second safe house."""
    MISSION_SUCCESS = "mission_success"
    """Fill the next success box of a mission."""


class DayMark(enum.Enum):
    """What a day-track space shows besides its number."""

    ORANGE = "orange"
    """Orange space: on entering it, morale −1 (normal rules)."""
    STAR = "star"
    """Star space: on entering it, morale −1 instead, in the hard levels."""


@dataclass(frozen=True)
class Resource:
    id: str = field(metadata=doc("slug: information, food, medicine, money, weapons, explosives"))
    name: str = field(metadata=doc("name in Chinese", nonempty=True))
    colour: str = field(metadata=doc("token colour name in Chinese (蓝, 绿...)"))
    hex: str = field(metadata=doc("token colour as '#rrggbb'"))
    count: int = field(metadata=doc("tokens of this kind in the game (the limit in play)"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Reward:
    """One alternative of an action's right side; every part of it happens."""

    resources: dict[str, int] = field(
        default_factory=dict, metadata=doc("resource id -> tokens taken from the supply")
    )
    morale: int = field(default=0, metadata=doc("morale change"))
    recruit: int = field(default=0, metadata=doc("café workers who join the cell"))
    airdrop: bool = field(default=False, metadata=doc("call an airdrop"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def kinds(self) -> frozenset[EffectKind]:
        kinds = set()
        if self.resources:
            kinds.add(EffectKind.RESOURCES)
        if self.morale:
            kinds.add(EffectKind.MORALE)
        if self.recruit:
            kinds.add(EffectKind.RECRUIT)
        if self.airdrop:
            kinds.add(EffectKind.AIRDROP)
        return frozenset(kinds)


@dataclass(frozen=True)
class Action:
    """Cost → reward. Several `pay` entries are a slash (pay one of them); several `gain`
    entries are a slash too (take one). No `pay` entry: the action is free."""

    gain: tuple[Reward, ...] = field(metadata=doc("the right side: alternatives, choose one"))
    pay: tuple[dict[str, int], ...] = field(
        default=(), metadata=doc("the left side: alternatives (resource id -> count), pay one")
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class BoardLocation:
    """A space of the town board."""

    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name printed on the space", nonempty=True))
    kind: LocationKind = field(metadata=doc("safe_house, action, vacant, airdrop or mission"))
    x: float = field(metadata=doc("centre of the space on the board, mm from the left"))
    y: float = field(metadata=doc("centre of the space on the board, mm from the top"))
    action: Action | None = field(default=None, metadata=doc("what a worker does here"))
    shield: bool = field(
        default=False, metadata=doc("orange star shield: an arrested worker keeps the reward")
    )
    note: str = field(default="", metadata=doc("a line of flavour or rule text on the space"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def placeable(self) -> bool:
        """Whether a patrol card may name it: every space but a safe house."""
        return self.kind is not LocationKind.SAFE_HOUSE


@dataclass(frozen=True)
class Line:
    """A thick line of the board: workers walk home along these."""

    a: str = field(metadata=doc("one end (location id)"))
    b: str = field(metadata=doc("the other end (location id)"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class MoraleTrack:
    start: int = field(metadata=doc("morale at the start"))
    red: tuple[int, ...] = field(
        metadata=doc("red number (patrols per round) of morale 1, 2, ... up to the top space")
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    @property
    def top(self) -> int:
        """The highest morale (the track's last space); space 0 is the fail space."""
        return len(self.red)

    def red_at(self, morale: int) -> int:
        return self.red[morale - 1] if 1 <= morale <= self.top else 0


@dataclass(frozen=True)
class SoldierTrack:
    start: int = field(metadata=doc("soldiers at the start"))
    spaces: int = field(metadata=doc("highest number on the track (soldier figures)"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class DayTrack:
    days: int = field(metadata=doc("numbered days; an end space follows the last"))
    orange: tuple[int, ...] = field(metadata=doc("days printed orange"))
    star: tuple[int, ...] = field(metadata=doc("days printed with a star"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    def marks(self, day: int) -> frozenset[DayMark]:
        marks = set()
        if day in self.orange:
            marks.add(DayMark.ORANGE)
        if day in self.star:
            marks.add(DayMark.STAR)
        return frozenset(marks)


@dataclass(frozen=True)
class DayWindow:
    min: int = field(metadata=doc("first day (inclusive)"))
    max: int = field(metadata=doc("last day (inclusive)"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)

    def __contains__(self, day: object) -> bool:
        return isinstance(day, int) and self.min <= day <= self.max


@dataclass(frozen=True)
class MissionStep:
    """One success box of a mission card."""

    order: int = field(metadata=doc("box number: every lower number must be filled first"))
    name: str = field(metadata=doc("what the workers do", nonempty=True))
    pay: tuple[dict[str, int], ...] = field(
        default=(), metadata=doc("cost alternatives (resource id -> count), pay one")
    )
    gain: Reward | None = field(default=None, metadata=doc("a reward besides the success"))
    at: str = field(
        default="", metadata=doc("location id where it is done; empty: on the mission card")
    )
    days: DayWindow | None = field(
        default=None, metadata=doc("only while the day marker is on one of these days")
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Mission(kit.Card):
    story: str = field(metadata=doc("one line of story"))
    steps: tuple[MissionStep, ...] = field(metadata=doc("its success boxes, in print order"))


@dataclass(frozen=True)
class PatrolCard(kit.Card):
    locations: tuple[str, ...] = field(metadata=doc("the places it checks, in order"))


@dataclass(frozen=True)
class VacantTile(kit.Token):
    """A vacant-house tile, laid on a vacant house of the board."""

    action: Action | None = field(default=None, metadata=doc("its action; none for a safe house"))
    safe_house: bool = field(default=False, metadata=doc("the tile is a second safe house"))


class TokenKind(enum.Enum):
    FIGURE = "figure"
    MARKER = "marker"
    RESOURCE = "resource"


@dataclass(frozen=True)
class Token(kit.Token):
    """A kind of token printed on the token sheets."""

    kind: TokenKind = field(metadata=doc("figure, marker or resource"))


@dataclass(frozen=True)
class Difficulty:
    """A difficulty level; each one adds to or overrides the normal rules."""

    id: str = field(metadata=doc("slug"))
    name: str = field(metadata=doc("name in Chinese", nonempty=True))
    workers: int = field(metadata=doc("workers in the safe house at the start"))
    cafe: int = field(metadata=doc("workers waiting in the café to be recruited"))
    airdrop: tuple[dict[str, int], ...] = field(
        metadata=doc("what an airdrop may bring: alternatives, choose one")
    )
    end_day: int = field(
        default=0, metadata=doc("reaching this day ends the game; 0: the end space")
    )
    loop: bool = field(default=False, metadata=doc("the end space leads back to day 1"))
    morale_drop: DayMark = field(
        default=DayMark.ORANGE, metadata=doc("day spaces that cost morale on entering")
    )
    arrest_morale: int = field(default=0, metadata=doc("morale change on every arrest"))
    rules: tuple[str, ...] = field(default=(), metadata=doc("its changes, for the reference"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Settings:
    kill_cost: dict[str, int] = field(metadata=doc("what killing a police figure costs"))
    kills_per_round: int = field(metadata=doc("police kills allowed per round"))
    kill_morale: int = field(metadata=doc("morale change for a kill"))
    kill_soldiers: int = field(metadata=doc("soldier-track change for a kill"))
    build_cost: dict[str, int] = field(metadata=doc("what laying a vacant-house tile costs"))
    missions_in_play: int = field(metadata=doc("missions dealt to the exits"))
    missions_to_win: int = field(metadata=doc("missions done for a win (fewer, but one: draw)"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Maquis(GameContent):
    """The whole content of Maquis."""

    settings: Settings = field(metadata=doc("costs and counts of the special rules"))
    resources: tuple[Resource, ...] = field(metadata=doc("the six resources"))
    morale: MoraleTrack = field(metadata=doc("the morale track"))
    soldiers: SoldierTrack = field(metadata=doc("the soldier track"))
    days: DayTrack = field(metadata=doc("the day track"))
    locations: tuple[BoardLocation, ...] = field(metadata=doc("the spaces of the town"))
    lines: tuple[Line, ...] = field(metadata=doc("the thick lines between spaces"))
    vacant_tiles: tuple[VacantTile, ...] = field(metadata=doc("the vacant-house tiles"))
    patrol_cards: tuple[PatrolCard, ...] = field(metadata=doc("the patrol deck"))
    missions: tuple[Mission, ...] = field(metadata=doc("the mission cards"))
    difficulties: tuple[Difficulty, ...] = field(metadata=doc("levels, easiest first"))
    tokens: tuple[Token, ...] = field(metadata=doc("figures, markers and resource tokens"))
    boards: tuple[kit.Board, ...] = field(metadata=doc("the board as a printed item"))
    round_summary: tuple[kit.Aid, ...] = field(metadata=doc("the round-summary aid"))
    difficulty_reference: tuple[kit.Aid, ...] = field(metadata=doc("the difficulty aid"))

    @cached_property
    def location(self) -> dict[str, BoardLocation]:
        return {loc.id: loc for loc in self.locations}

    @cached_property
    def resource(self) -> dict[str, Resource]:
        return {r.id: r for r in self.resources}

    @cached_property
    def difficulty(self) -> dict[str, Difficulty]:
        return {d.id: d for d in self.difficulties}

    @property
    def figure_tokens(self) -> tuple[Token, ...]:
        return tuple(t for t in self.tokens if t.kind is TokenKind.FIGURE)

    @property
    def marker_tokens(self) -> tuple[Token, ...]:
        return tuple(t for t in self.tokens if t.kind is TokenKind.MARKER)

    @cached_property
    def resource_tokens(self) -> tuple[Token, ...]:
        """One token kind per resource, `count` of each (derived, not typed into content)."""
        return tuple(
            Token(
                id=f"{r.id}-token",
                name=r.name,
                kind=TokenKind.RESOURCE,
                symbol=r.name[0],
                colour=r.hex,
                copies=r.count,
                where=r.where,
            )
            for r in self.resources
        )

    # -- words for the rulebook's prose (small lookups, no rules) ---------------------------

    def bundle_text(self, bundle: dict[str, int]) -> str:
        """'2 货币 + 1 食物' for a bundle of resources."""
        return " + ".join(f"{n} {self.resource[r].name}" for r, n in bundle.items())

    def pay_text(self, pay: tuple[dict[str, int], ...]) -> str:
        return " / ".join(self.bundle_text(b) for b in pay) if pay else "免费"

    def reward_text(self, reward: Reward) -> str:
        parts = []
        if reward.resources:
            parts.append(self.bundle_text(reward.resources))
        if reward.morale:
            parts.append(f"士气 {'+' if reward.morale > 0 else '−'}{abs(reward.morale)}")
        if reward.recruit:
            parts.append(f"招募 {reward.recruit} 名工人")
        if reward.airdrop:
            parts.append("呼叫空投")
        return "，".join(parts)

    def action_text(self, action: Action) -> str:
        """'1 食物 → 2 情报': the cost, an arrow and the reward, alternatives split by a slash."""
        gain = " / ".join(self.reward_text(r) for r in action.gain)
        return f"{self.pay_text(action.pay)} → {gain}"

    def airdrop_text(self, level: Difficulty) -> str:
        return " / ".join(self.bundle_text(b) for b in level.airdrop)

    def days_text(self, days: tuple[int, ...]) -> str:
        return "、".join(str(d) for d in days)

    def _actions(self) -> tuple[tuple[str, Action], ...]:
        """Every action a worker may take, named as the board or its tile prints it."""
        spaces = tuple((loc.name, loc.action) for loc in self.locations if loc.action)
        tiles = tuple((tile.name, tile.action) for tile in self.vacant_tiles if tile.action)
        return spaces + tiles

    def gained_at(self, resource_id: str) -> tuple[str, ...]:
        """Where a worker takes ``resource_id``: the spaces and tiles whose reward holds it,
        and 空投 when a level's airdrop may bring it (the glossary's words, from the board)."""
        places = [
            name
            for name, action in self._actions()
            if any(resource_id in reward.resources for reward in action.gain)
        ]
        places += [
            f"「{mission.name}」"
            for mission in self.missions
            if any(step.gain and resource_id in step.gain.resources for step in mission.steps)
        ]
        if any(resource_id in bundle for level in self.difficulties for bundle in level.airdrop):
            places.append("空投")
        return tuple(dict.fromkeys(places))

    def spent_at(self, resource_id: str) -> tuple[str, ...]:
        """What ``resource_id`` pays for: actions, mission boxes, killing a police figure and
        laying a vacant-house tile, as the board and cards name them."""
        uses = [
            name
            for name, action in self._actions()
            if any(resource_id in bundle for bundle in action.pay)
        ]
        uses += [
            f"「{mission.name}」"
            for mission in self.missions
            if any(resource_id in bundle for step in mission.steps for bundle in step.pay)
        ]
        if resource_id in self.settings.kill_cost:
            uses.append("击杀警察")
        if resource_id in self.settings.build_cost:
            uses.append("空屋板块")
        return tuple(dict.fromkeys(uses))

    @property
    def action_spaces(self) -> tuple[BoardLocation, ...]:
        return tuple(loc for loc in self.locations if loc.kind is LocationKind.ACTION)

    def kind_spaces(self, kind: str) -> tuple[BoardLocation, ...]:
        return tuple(loc for loc in self.locations if loc.kind.value == kind)

    @property
    def shield_spaces(self) -> tuple[BoardLocation, ...]:
        return tuple(loc for loc in self.locations if loc.shield)

    def mission(self, mission_id: str) -> Mission:
        return next(m for m in self.missions if m.id == mission_id)

    def token(self, token_id: str) -> Token:
        return next(t for t in self.tokens if t.id == token_id)

    @property
    def second_safe_house(self) -> VacantTile:
        return next(t for t in self.vacant_tiles if t.safe_house)

    @property
    def mission_spaces(self) -> tuple[BoardLocation, ...]:
        return tuple(loc for loc in self.locations if loc.kind is LocationKind.MISSION)


SLUG = "maquis"
MODEL = Maquis
"""The root type content/maquis/*.yaml loads into (found by pnp.model.registry)."""
