"""Arena Tales card effects: one handler per effect kind the engine resolves, and the glossary
keywords the engine implements (derived from the handlers)."""

from __future__ import annotations

from pnp.games.arena_tales import combat
from pnp.games.arena_tales.model import (
    EFFECT_KEYWORDS,
    TIMING_KEYWORDS,
    EffectKind,
    Element,
    Keyword,
    Timing,
)
from pnp.games.arena_tales.state import (
    DOWN,
    PLAY_COMBO,
    PLAY_COST,
    PLAY_DAMAGE,
    PLAY_RANGE,
    TO_DISPLAY,
    TO_HAND,
    ArenaState,
    Mode,
    bump,
    refill_deck,
    writable,
)
from pnp.games.arena_tales.tables import RuleTables

RULE_KEYWORDS = frozenset(
    {Keyword.ORIENTATION_POINT, Keyword.FACING, Keyword.SANITY, Keyword.OUT_OF_CONTROL}
)
"""Keywords the rules core implements (facing and its changes, the sanity flip, the move
restriction) rather than a card effect."""


def _fx_noop(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    """Read elsewhere: lock / fixed damage / indiscriminate / knock-back by combat, counter by
    combat, maintain / permanent / crystal by the clean-up, life by the set-up."""


def _fx_backlash(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    # 反噬 X: X damage to the card's user (it counts as damage dealt).
    s.queue = (*combat.damage(rules, s, seat, x), *s.queue)


def _fx_heal(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    # 回复 X: the newest X face-down display cards go back to life; none there, no effect.
    # Team rule: a player at 0 life at the start of their turn cannot heal.
    own = writable(s, seat)
    if own.dead_start and rules.mode is Mode.TEAMS:
        return
    display = list(own.display)
    life = list(own.life)
    for index in range(len(display) - 1, -1, -1):
        if x <= 0:
            break
        if display[index][1] == DOWN:
            life.append(display.pop(index)[0])
            x -= 1
    own.display, own.life = tuple(display), tuple(sorted(life))
    rules._note_life(s, seat)


def _fx_see_through(
    rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 识破 X: the user chooses X face-down cards of the target's display and turns them face
    # up (post: 「选择目标玩家展示区 X 张盖卡,翻开」; ``Reveal``); 0: all of them. Responses
    # are recorded as they turn up (``TurnFlow._reveal``).
    tasks = [("reveal", seat, target, x) for target in combat.targets(rules, s, seat, code, t)]
    s.queue = (*tasks, *s.queue)


def _fx_recycle(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    # 回收 X: the top X cards of your exhausted pile go face down to your recycle pile.
    own = writable(s, seat)
    moved = own.exhausted[len(own.exhausted) - min(x, len(own.exhausted)) :]
    own.exhausted = own.exhausted[: len(own.exhausted) - len(moved)]
    own.recycle = tuple(sorted((*own.recycle, *moved)))
    refill_deck(own)


def _fx_exhaust(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    # 耗竭 X: the target's newest X face-down display cards go to its exhausted pile.
    for target in combat.targets(rules, s, seat, code, t):
        own = writable(s, target)
        display = list(own.display)
        left = x
        for index in range(len(display) - 1, -1, -1):
            if left <= 0:
                break
            if display[index][1] == DOWN:
                own.exhausted = (*own.exhausted, display.pop(index)[0])
                left -= 1
        own.display = tuple(display)


def _fx_discard(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    # 弃牌 X: discard X cards of your choice face down to your display.
    s.queue = (("discard", seat, x), *s.queue)


def _fx_display(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    # 展示 X: the top X cards of your deck face up into your display (damage +1 each damage card).
    s.queue = (("draw", seat, x, TO_DISPLAY), *s.queue)


def _fx_draw(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    s.queue = (("draw", seat, x, TO_HAND), *s.queue)


def _fx_combo(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    # 连击 (before play): damage +X when the combo holds.
    if s.play and s.play[PLAY_COMBO]:
        s.play = bump(s.play, PLAY_DAMAGE, x)


def _fx_combo_play(
    rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 连击打出 (on play): draw X when the combo holds.
    if s.play and s.play[PLAY_COMBO]:
        _fx_draw(rules, s, seat, code, x, t)


def _fx_burst(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    # 元素爆发 X: exhaust the X oldest crystals of your display (0: all) and take their boosts.
    own = writable(s, seat)
    display = list(own.display)
    left = x if x > 0 else len(display)
    draws = 0
    index = 0
    while index < len(display) and left > 0:
        card = display[index][0]
        element = next(
            (e.element for e in rules.cards[card].effects if e.kind is EffectKind.CRYSTAL), None
        )
        if element is None or display[index][1] == DOWN:
            index += 1
            continue
        display.pop(index)
        own.exhausted = (*own.exhausted, card)
        boost = rules._boosts.get(element)
        if boost is not None:
            s.play = bump(
                bump(bump(s.play, PLAY_RANGE, boost.range), PLAY_DAMAGE, boost.damage),
                PLAY_COST,
                boost.cost,
            )
            draws += boost.draw
        left -= 1
    own.display = tuple(display)
    if draws:
        _fx_draw(rules, s, seat, code, draws, t)


def _fx_damage_up(
    rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing
) -> None:
    # 伤害 +X played as an effect: the card in resolution (as 展示中 / 天赋, combat reads it).
    s.play = bump(s.play, PLAY_DAMAGE, x)


def _fx_reach(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    # 范围 +X played as an effect: the card in resolution.
    s.play = bump(s.play, PLAY_RANGE, x)


def _fx_dash(rules: RuleTables, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
    # Decided (dash-at-most): move at most X hexes straight ahead, the player choosing how far
    # (``Dash``); blocked hexes end the line. A card-given direction: 失控 does not restrict it.
    s.queue = (("dash", seat, x), *s.queue)


EFFECTS = {
    EffectKind.LOCK: _fx_noop,
    EffectKind.FIXED_DAMAGE: _fx_noop,
    EffectKind.INDISCRIMINATE: _fx_noop,
    EffectKind.KNOCKBACK: _fx_noop,
    EffectKind.COUNTER: _fx_noop,
    EffectKind.MAINTAIN: _fx_noop,
    EffectKind.PERMANENT: _fx_noop,
    EffectKind.CRYSTAL: _fx_noop,
    EffectKind.LIFE: _fx_noop,
    EffectKind.BACKLASH: _fx_backlash,
    EffectKind.HEAL: _fx_heal,
    EffectKind.SEE_THROUGH: _fx_see_through,
    EffectKind.RECYCLE: _fx_recycle,
    EffectKind.EXHAUST: _fx_exhaust,
    EffectKind.DISCARD: _fx_discard,
    EffectKind.DISPLAY: _fx_display,
    EffectKind.DRAW: _fx_draw,
    EffectKind.COMBO: _fx_combo,
    EffectKind.COMBO_PLAY: _fx_combo_play,
    EffectKind.BURST: _fx_burst,
    EffectKind.DAMAGE_UP: _fx_damage_up,
    EffectKind.REACH: _fx_reach,
    EffectKind.DASH: _fx_dash,
}
"""Effect kind -> handler; the declaration and the implemented keywords derive from it."""

ELEMENTS_HANDLED = frozenset(Element)
"""Every element's boost is applied by ``_fx_burst`` (range, damage, cost, draw)."""

KEYWORDS = frozenset(
    {EFFECT_KEYWORDS[kind] for kind in EFFECTS if kind in EFFECT_KEYWORDS}
    | set(TIMING_KEYWORDS.values())
    | {Keyword(f"crystal_{element.value}") for element in ELEMENTS_HANDLED}
    | RULE_KEYWORDS
)
"""Every glossary keyword this engine implements."""
