"""Arena Tales combat: who a card hits, the bonuses from the display, 反制, damage with the
team rule, and the previews the policies read. Functions of the table's rules and a state."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from pnp.engines import hexgrid
from pnp.engines.piles import distinct, without
from pnp.games.arena_tales.model import CardType, EffectKind, RangeKind, Timing
from pnp.games.arena_tales.state import (
    DOWN,
    PLAY_CARD,
    PLAY_RANGE,
    PLAY_TARGET,
    ArenaState,
    Mode,
    Move,
    Play,
    Seat,
    Task,
    writable,
)
from pnp.games.arena_tales.tables import RuleTables


def range_bonus(rules: RuleTables, seat: Seat, play: tuple[int, ...] | None) -> int:
    playing = play[PLAY_CARD] if play else None
    return (play[PLAY_RANGE] if play else 0) + display_bonus(rules, seat, EffectKind.REACH, playing)


def display_bonus(
    rules: RuleTables, seat: Seat, kind: EffectKind, playing: int | None = None
) -> int:
    """展示中 / 初始天赋 bonuses of the face-up cards in a display. [3]: the card in
    resolution (``playing``, its latest face-up copy) does not count for itrules."""
    talent, displayed, both = (
        rules._reach_bonus
        if kind is EffectKind.REACH
        else rules._damage_bonus
        if kind is EffectKind.DAMAGE_UP
        else rules._bonus_table(kind)
    )
    total = 0
    entries = seat.display
    if playing is None or not displayed[playing]:
        for code, face in entries:
            if face:  # not DOWN
                total += both[code]
        return total
    skip = max((i for i, (c, f) in enumerate(entries) if c == playing and f != DOWN), default=-1)
    for index, (code, face) in enumerate(entries):
        if face != DOWN:
            total += talent[code] if index == skip else talent[code] + displayed[code]
    return total


@cache
def edge_ray(h: hexgrid.Hex, direction: int, radius: int) -> tuple[hexgrid.Hex, ...]:
    """The hexes of the map (of ``radius``) in a straight line from ``h``, nearest first: a ray
    of any length, cut where it leaves the map (it never comes back)."""
    ray: list[hexgrid.Hex] = []
    ahead = hexgrid.neighbour(h, direction)
    while hexgrid.in_map(ahead, radius):
        ray.append(ahead)
        ahead = hexgrid.neighbour(ahead, direction)
    return tuple(ray)


def hits(
    rules: RuleTables, s: ArenaState, attacker: int, code: int, range_bonus: int
) -> list[tuple[int, int, int | None]]:
    """(seat, direction, charge falloff or None) of every character the card hits."""
    seat = s.seats[attacker]
    where = {}
    for index, other in enumerate(s.seats):  # a plain loop: cheaper than a comprehension
        where[other.pos] = index
    return hits_from(rules, where, attacker, seat.pos, seat.facing, code, range_bonus)


def hits_from(
    rules: RuleTables,
    where: dict[hexgrid.Hex, int],
    attacker: int,
    pos: hexgrid.Hex,
    facing: int,
    code: int,
    range_bonus: int,
) -> list[tuple[int, int, int | None]]:
    """``hits`` of the ``attacker`` standing at ``pos`` facing ``facing``, the seats standing
    as ``where`` says (hex -> seat)."""
    rays = rules._rays[pos]
    # 无差别伤害: teammates are hit too; never oneself. Otherwise only enemies.
    spared = {attacker} if rules._indiscriminate[code] else rules._team_of[attacker]
    found: list[tuple[int, int, int | None]] = []
    for side, kind, reach in rules._sides[code]:
        direction = (facing + side) % 6
        # Decided (range-bonus): a range bonus adds to every number of the hexagon, so a snipe
        # moves to the new distance and a charge's full damage to the new maximum.
        reach += range_bonus
        if kind is RangeKind.AREA:
            # Decided (pillar-lines): area and snipe damage pass over pillars and characters.
            for hexagon in rays[direction][: max(reach, 0)]:
                other = where.get(hexagon)
                if other is not None and other not in spared:
                    found.append((other, direction, None))
        elif kind is RangeKind.SNIPE:
            # Snipe: only the hex at exactly the distance.
            other = where.get(hexgrid.neighbour(pos, direction, reach))
            if other is not None and other not in spared:
                found.append((other, direction, None))
        else:
            # Charge: the nearest character or obstacle only.
            for distance, hexagon in enumerate(rays[direction][: max(reach, 0)], 1):
                if hexagon in rules.obstacles:
                    break
                other = where.get(hexagon)
                if other is not None:
                    if other not in spared:
                        found.append((other, direction, reach - distance))
                    break
    return found


def countered(rules: RuleTables, s: ArenaState, target: int, base: int) -> bool:
    """反制 X: a face-up counter of the target nullifies a hit of base damage <= X and is
    exhausted."""
    seat = s.seats[target]
    for index, (code, face) in enumerate(seat.display):
        counter = rules._counter[code]
        if face != DOWN and counter is not None and base <= counter:
            own = writable(s, target)
            own.display = own.display[:index] + own.display[index + 1 :]
            own.exhausted = (*own.exhausted, code)
            return True
    return False


def damage(rules: RuleTables, s: ArenaState, target: int, amount: int) -> list[Task]:
    """The absorb task of ``amount`` damage to ``target``, with the team rule."""
    if amount <= 0:
        return []
    payer = target
    if not s.seats[target].life:
        if rules.mode is Mode.DUEL or s.seats[target].zero_turn == s.turn:
            return []  # nothing left to take / no damage in the turn life reached 0
        # Team rule (decided): the first teammate after them with life pays.
        mates = [
            (target + k) % rules.players
            for k in range(1, rules.players)
            if rules.teams[(target + k) % rules.players] == rules.teams[target]
        ]
        payer = next((m for m in mates if s.seats[m].life), -1)
        if payer < 0:
            return []
    # Damage to anyone, oneself included, flips the active player back to 理智.
    s.dealt = True
    if not s.seats[s.active].sane:
        writable(s, s.active).sane = True
    return [("absorb", payer, amount)]


def targets(
    rules: RuleTables, s: ArenaState, seat_index: int, code: int, timing: Timing
) -> list[int]:
    """Who an 识破 / 耗竭 acts on: the attacker for a response, the characters hit for a
    damage card, the named enemy for any other card."""
    if timing is Timing.RESPONSE:
        return [s.active] if s.active != seat_index else []
    if rules.cards[code].type is CardType.DAMAGE:
        return list(s.hits)
    return [s.play[PLAY_TARGET]] if s.play and s.play[PLAY_TARGET] >= 0 else []


ALL_LINES = 0b111111
"""Every direction, as ``_covers`` bits."""


def nearest(h: hexgrid.Hex, others: Sequence[hexgrid.Hex]) -> int:
    """The distance from ``h`` to the nearest of ``others`` (``hexgrid.distance`` inlined:
    the policies ask it several times a decision, in every playout; far beyond any map when
    there are none)."""
    q, r = h
    low = 1 << 30
    for oq, orr in others:
        dq, dr = q - oq, r - orr
        d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if d < low:
            low = d
    return low


def reach_limit(rules: RuleTables, seat: Seat) -> int:
    """The farthest a damage card in ``seat``'s hand can hit from where it stands, with the
    display's range bonus (-1: it holds none). A character farther away is out of reach of
    every play: a ray's k-th hex is k away, and a snipe whose bonus turns its distance
    negative hits behind, as far away. The policies skip their previews when every enemy is
    out of reach (half the decisions of a six-player playout), which changes no choice."""
    bonus = display_bonus(rules, seat, EffectKind.REACH)
    spans = rules._reach_span
    farthest = -1
    for code in seat.hand:
        span = spans[code]
        if span is not None:
            # |reach + bonus| is largest at the least or the greatest reach.
            low, high = abs(span[0] + bonus), abs(span[1] + bonus)
            if low > farthest:
                farthest = low
            if high > farthest:
                farthest = high
    return farthest


def enemy_lines(rules: RuleTables, here: hexgrid.Hex, enemies: Sequence[hexgrid.Hex]) -> int:
    """A bit per direction from ``here`` along whose line an enemy stands: a card none of whose
    sides points along one hits no enemy from ``here``. Every direction when a reach could turn
    round (``_lines_exact``), for then a card does not hit along its lines only."""
    if not rules._lines_exact:
        return ALL_LINES
    lines = rules._lines[here]
    aimed = 0
    for enemy in enemies:
        line = lines.get(enemy)
        if line is not None:
            aimed |= 1 << line
    return aimed


def threat(rules: RuleTables, state: ArenaState, move: Move) -> int:
    """Enemy damage the best card left in hand could deal after ``move``, 0 at least (for
    policies; ``step_threats`` computes it for every discard-move at once)."""
    active = state.active
    seat = state.seats[active]
    ahead = hexgrid.neighbour(seat.pos, move.direction)
    # The piece after the step; the card discarded for it stays out of the display (a
    # preview reads positions and displays only).
    where = {other.pos: i for i, other in enumerate(state.seats) if i != active}
    where[ahead] = active
    reach = display_bonus(rules, seat, EffectKind.REACH)
    damage_up = display_bonus(rules, seat, EffectKind.DAMAGE_UP)
    facing = move.facing
    left = distinct(without(seat.hand, rules._by_token[move.card]))
    dealt = [deal(rules, where, active, ahead, facing, c, None, reach, damage_up) for c in left]
    return max([0, *dealt])


def step_threats(
    rules: RuleTables,
    state: ArenaState,
    codes: Sequence[int],
    steps: Sequence[Move],
    enemies: Sequence[hexgrid.Hex],
    limit: int,
) -> dict[tuple[int, int], int]:
    """``threat`` of every discard-move of the active player that has one above 0: (index in
    ``codes``, index in ``steps``) -> threat, card by card and step by step, for the moves of
    the cards ``codes`` (the hand's, each once) over ``steps`` (the moves of any one card:
    only their direction and facing are read). ``limit`` is the hand's ``reach_limit``,
    ``enemies`` where the enemies stand.

    Sharing the work: what a card deals after a step depends on the step, not on the card
    discarded for it, so each step's previews are computed once; a direction whose hex is
    farther from every enemy than ``limit`` previews nothing, and a card none of whose sides
    points along a line an enemy stands on after the step deals none."""
    damaging = rules._damaging
    damage = [code for code in codes if damaging[code]]
    if not damage:
        return {}
    active = state.active
    seats = state.seats
    seat = seats[active]
    reach = display_bonus(rules, seat, EffectKind.REACH)
    damage_up = display_bonus(rules, seat, EffectKind.DAMAGE_UP)
    others = {other.pos: i for i, other in enumerate(seats) if i != active}
    covers = rules._covers
    # Per direction: None (not looked at yet), () (no enemy within reach after the step) or
    # (the hex after the step, who stands where then, the lines of enemies from there).
    ahead_of: list[tuple[()] | tuple[hexgrid.Hex, dict[hexgrid.Hex, int], int] | None]
    ahead_of = [None] * 6
    live: list[tuple[int, list[int]]] = []
    """(index in steps, the preview of each damage card) of the steps after which one hits."""
    for j, step in enumerate(steps):
        direction, facing = step.direction, step.facing
        after = ahead_of[direction]
        if after is None:
            ahead = hexgrid.neighbour(seat.pos, direction)
            if nearest(ahead, enemies) > limit:
                after = ()
            else:
                where = others.copy()
                where[ahead] = active
                after = (ahead, where, enemy_lines(rules, ahead, enemies))
            ahead_of[direction] = after
        if not after:
            continue
        ahead, where, aimed = after
        previews = [
            deal(rules, where, active, ahead, facing, code, None, reach, damage_up)
            if covers[code][facing] & aimed
            else 0
            for code in damage
        ]
        if max(previews) > 0:
            live.append((j, previews))
    found: dict[tuple[int, int], int] = {}
    if not live:
        return found
    hand = seat.hand
    for i, code in enumerate(codes):
        # The damage cards left once ``code`` is discarded: all but its last copy.
        gone = code if hand.count(code) == 1 else None
        for j, previews in live:
            best = 0
            for other, value in zip(damage, previews, strict=True):
                if value > best and other != gone:
                    best = value
            if best:
                found[i, j] = best
    return found


def preview(rules: RuleTables, state: ArenaState, action: Play) -> int:
    """Enemy damage the play would deal if it resolved now (no bonuses from its own effects)."""
    active = state.active
    seat = state.seats[active]
    where = {other.pos: i for i, other in enumerate(state.seats)}
    reach = display_bonus(rules, seat, EffectKind.REACH)
    damage_up = display_bonus(rules, seat, EffectKind.DAMAGE_UP)
    code = rules._by_token[action.card]
    return deal(rules, where, active, seat.pos, seat.facing, code, action.target, reach, damage_up)


def play_threats(
    rules: RuleTables, state: ArenaState, plays: Sequence[Play], enemies: Sequence[hexgrid.Hex]
) -> list[int]:
    """``preview`` of each of ``plays`` of the active player, or 0 where it cannot be above 0
    (for the policies, which look for the play that hits enemies hardest): a card that deals no
    damage, or none of whose sides points along a line an enemy (``enemies``: where they
    stand) stands on, hits no enemy; the display's bonuses are read once for all."""
    active = state.active
    seats = state.seats
    seat = seats[active]
    pos, facing = seat.pos, seat.facing
    aimed = enemy_lines(rules, pos, enemies)
    damaging, covers, by_token = rules._damaging, rules._covers, rules._by_token
    where: dict[hexgrid.Hex, int] | None = None
    reach = damage_up = 0
    found: list[int] = []
    for play in plays:
        code = by_token[play.card]
        if not damaging[code] or not covers[code][facing] & aimed:
            found.append(0)
            continue
        if where is None:
            where = {other.pos: i for i, other in enumerate(seats)}
            reach = display_bonus(rules, seat, EffectKind.REACH)
            damage_up = display_bonus(rules, seat, EffectKind.DAMAGE_UP)
        found.append(deal(rules, where, active, pos, facing, code, play.target, reach, damage_up))
    return found


def deal(
    rules: RuleTables,
    where: dict[hexgrid.Hex, int],
    active: int,
    pos: hexgrid.Hex,
    facing: int,
    code: int,
    target: int | None,
    reach: int,
    damage_up: int,
) -> int:
    """Enemy damage (less damage to the active player's side) of ``code`` played from ``pos``
    facing ``facing`` at ``target``, with the display's range and damage bonuses."""
    card = rules.cards[code]
    if card.type is not CardType.DAMAGE:
        return 0
    found = hits_from(rules, where, active, pos, facing, code, reach)
    if target is not None:
        found = [h for h in found if h[0] == target]
    base = (card.damage or 0) + damage_up
    total = 0
    teams = rules.teams
    for hit, _, falloff in found:
        amount = base if falloff is None else max(1, base - falloff)
        total += amount if teams[hit] != teams[active] else -amount
    return total
