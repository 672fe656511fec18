"""Maquis content against its rules: the counts the post fixes, the board graph, patrol and
mission cards, and seeded play through the reference engine at every difficulty level."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.engines.base import RandomPolicy
from pnp.engines.stats import sign_test, wilson
from pnp.errors import Location, PnpError
from pnp.games.maquis.model import EffectKind, LocationKind, Maquis, TokenKind
from pnp.games.maquis.policies import POLICIES, GreedyPolicy
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.simulation import SimulationReport, simulate
from pnp.games.maquis.state import SLUG, Result
from pnp.validate.checks import Findings, check_declaration, suggest

DEFAULT_GAMES = 60
"""Seeded games per difficulty level with the sensible policy in `pnp validate` (the same seeds
at every level); a fifth as many random games check the invariants at every step. The shared
play checks add liveness and coverage at every level with every policy, so this stays small
enough for the default run to be no slower than before; the difficulty ladder and the win-rate
bands are judged by `pnp validate --balance` on the content's balance.games."""

LADDER_MIN_GAMES = 100
"""Fewer games per level than this cannot tell neighbouring levels apart (their win rates
differ by a few points): the ladder is then reported as a warning, not judged."""

RULE_PATROL_CARDS = 10
RULE_PATROL_LOCATIONS = 3
RULE_RESOURCES = {
    "information": 4,
    "food": 4,
    "medicine": 4,
    "money": 4,
    "weapons": 4,
    "explosives": 4,
}
RULE_FIGURES = {"resistance": 5, "police": 5, "soldier": 5}
RULE_MARKERS = 9
RULE_RED = {4: 4, 7: 2}
"""The post's examples: morale 4 shows red 4, morale 7 shows red 2."""
RULE_DAYS = 15
RULE_KINDS = {LocationKind.SAFE_HOUSE: 1, LocationKind.VACANT: 3, LocationKind.AIRDROP: 2}
RULE_MISSION_EXITS = 2
RULE_LEVELS = ("very-easy", "easy", "normal", "harder", "hard", "very-hard")


def used_effects(model: Maquis) -> dict[EffectKind, Location]:
    used: dict[EffectKind, Location] = {}
    actions = [loc.action for loc in model.locations if loc.action] + [
        t.action for t in model.vacant_tiles if t.action
    ]
    for action in actions:
        for reward in action.gain:
            for kind in reward.kinds:
                used.setdefault(kind, reward.where)
    for mission in model.missions:
        for step in mission.steps:
            used.setdefault(EffectKind.MISSION_SUCCESS, step.where)
            if step.gain is not None:
                for kind in step.gain.kinds:
                    used.setdefault(kind, step.where)
    for loc in model.locations:
        if loc.kind is LocationKind.VACANT:
            used.setdefault(EffectKind.BUILD, loc.where)
        if loc.kind is LocationKind.AIRDROP:
            used.setdefault(EffectKind.COLLECT, loc.where)
    for tile in model.vacant_tiles:
        if tile.safe_house:
            used.setdefault(EffectKind.SECOND_SAFE_HOUSE, tile.where)
    return used


def rulebook_terms(model: Maquis) -> list[tuple[str, Location]]:
    """Names printed on the board, cards, tiles and tokens that carry a rule: the rulebook
    must explain each (resources, figures, the special spaces, the vacant-house tiles)."""
    terms = [(r.name, r.where) for r in model.resources]
    terms += [(t.name, t.where) for t in model.figure_tokens]
    terms += [(t.name, t.where) for t in model.vacant_tiles]
    special = (LocationKind.SAFE_HOUSE, LocationKind.VACANT, LocationKind.AIRDROP)
    terms += [(loc.name, loc.where) for loc in model.locations if loc.kind in special]
    terms += [(loc.name, loc.where) for loc in model.locations if loc.shield]
    return terms


def check_static(findings: Findings) -> None:
    model: Maquis = findings.game.model
    _check_counts(findings, model)
    _check_board(findings, model)
    _check_cards(findings, model)
    _check_missions(findings, model)
    _check_tracks(findings, model)
    _check_levels(findings, model)
    if any(p.severity == "error" for p in findings.problems):
        return
    try:
        rules = MaquisRules(model)
    except ValueError as error:
        findings.error(None, f"the rules engine refuses the content: {error}")
        return
    where = model.locations[0].where if model.locations else None
    check_declaration(findings, rules.declares(), used_effects(model), Maquis, where)


def _bundles(model: Maquis) -> list[tuple[dict[str, int], Location]]:
    out = [(model.settings.kill_cost, model.settings.where)]
    out.append((model.settings.build_cost, model.settings.where))
    actions = [loc.action for loc in model.locations if loc.action] + [
        t.action for t in model.vacant_tiles if t.action
    ]
    for action in actions:
        out.extend((pay, action.where) for pay in action.pay)
        out.extend((r.resources, r.where) for r in action.gain)
    for mission in model.missions:
        for step in mission.steps:
            out.extend((pay, step.where) for pay in step.pay)
    for level in model.difficulties:
        out.extend((bundle, level.where) for bundle in level.airdrop)
    return out


def _check_counts(findings: Findings, model: Maquis) -> None:
    have = {r.id: r for r in model.resources}
    for rid, count in RULE_RESOURCES.items():
        resource = have.get(rid)
        if resource is None:
            findings.error(None, f"resources: the game needs resource {rid!r}; it is missing")
        elif resource.count != count:
            findings.error(
                resource.where, f"resources: {rid!r} must have {count} tokens, got {resource.count}"
            )
    for r in model.resources:
        if r.id not in RULE_RESOURCES:
            findings.error(r.where, f"resources: {r.id!r} is not one of the six resources")
    for bundle, where in _bundles(model):
        for rid, n in bundle.items():
            if rid not in have:
                findings.error(where, f"unknown resource {rid!r}{suggest(rid, have)}")
            elif n <= 0:
                findings.error(where, f"resource {rid!r}: count must be positive, got {n}")
    figures = {t.id: t for t in model.tokens if t.kind is TokenKind.FIGURE}
    for fid, count in RULE_FIGURES.items():
        token = figures.get(fid)
        if token is None or token.copies != count:
            findings.error(
                token.where if token else None,
                f"tokens: {count} {fid!r} figures are needed, got {token.copies if token else 0}",
            )
    markers = sum(t.copies for t in model.tokens if t.kind is TokenKind.MARKER)
    if markers != RULE_MARKERS:
        first = model.tokens[0].where if model.tokens else None
        findings.error(first, f"tokens: the game has {RULE_MARKERS} markers, got {markers}")


def _check_board(findings: Findings, model: Maquis) -> None:
    ids = {loc.id for loc in model.locations}
    kinds = Counter(loc.kind for loc in model.locations)
    for kind, count in RULE_KINDS.items():
        if kinds[kind] != count:
            findings.error(
                model.locations[0].where if model.locations else None,
                f"locations: the board needs {count} {kind.value} space(s), got {kinds[kind]}",
            )
    if kinds[LocationKind.MISSION] != RULE_MISSION_EXITS:
        findings.error(
            None,
            f"locations: the board needs {RULE_MISSION_EXITS} mission exits, got "
            f"{kinds[LocationKind.MISSION]}",
        )
    if not any(t.safe_house for t in model.vacant_tiles):
        findings.error(None, "vacant_tiles: one tile must be the second safe house")
    for loc in model.locations:
        if loc.kind is LocationKind.ACTION and loc.action is None:
            findings.error(loc.where, f"location {loc.id!r} is an action space without an action")
        if loc.kind is not LocationKind.ACTION and loc.action is not None:
            findings.error(loc.where, f"location {loc.id!r} ({loc.kind.value}) has an action")
    adjacent: dict[str, set[str]] = {i: set() for i in ids}
    for line in model.lines:
        for end in (line.a, line.b):
            if end not in ids:
                findings.error(line.where, f"lines: unknown location {end!r}{suggest(end, ids)}")
        if line.a in ids and line.b in ids:
            adjacent[line.a].add(line.b)
            adjacent[line.b].add(line.a)
    # Every placeable space must reach a safe house along the thick lines.
    safe = [loc.id for loc in model.locations if loc.kind is LocationKind.SAFE_HOUSE]
    reached = set(safe)
    frontier = list(safe)
    while frontier:
        for j in adjacent[frontier.pop()]:
            if j not in reached:
                reached.add(j)
                frontier.append(j)
    for loc in model.locations:
        if loc.id not in reached:
            findings.error(loc.where, f"location {loc.id!r} has no path to a safe house")


def _check_cards(findings: Findings, model: Maquis) -> None:
    total = sum(card.copies for card in model.patrol_cards)
    if total != RULE_PATROL_CARDS:
        where = model.patrol_cards[0].where if model.patrol_cards else None
        findings.error(where, f"patrol_cards: the deck has {RULE_PATROL_CARDS} cards, got {total}")
    for card in model.patrol_cards:
        if len(card.locations) != RULE_PATROL_LOCATIONS or len(set(card.locations)) != len(
            card.locations
        ):
            findings.error(
                card.where,
                f"patrol card {card.id!r} must name {RULE_PATROL_LOCATIONS} distinct "
                f"locations, got {list(card.locations)}",
            )
        for lid in card.locations:
            loc = model.location.get(lid)
            if loc is None:
                findings.error(
                    card.where,
                    f"patrol card {card.id!r} names unknown location "
                    f"{lid!r}{suggest(lid, model.location)}",
                )
            elif not loc.placeable:
                findings.error(card.where, f"patrol card {card.id!r} names {lid!r}, a safe house")


def _check_missions(findings: Findings, model: Maquis) -> None:
    if len(model.missions) < model.settings.missions_in_play:
        findings.error(None, "missions: fewer mission cards than missions in play")
    for mission in model.missions:
        if not mission.steps:
            findings.error(mission.where, f"mission {mission.id!r} has no success box")
        orders = sorted({s.order for s in mission.steps})
        if orders and orders != list(range(1, len(orders) + 1)):
            findings.error(
                mission.where,
                f"mission {mission.id!r}: box numbers must run 1, 2, ... without gaps, "
                f"got {orders}",
            )
        for step in mission.steps:
            if step.at and step.at not in model.location:
                findings.error(
                    step.where,
                    f"mission {mission.id!r} names unknown location "
                    f"{step.at!r}{suggest(step.at, model.location)}",
                )
            elif step.at and model.location[step.at].kind is not LocationKind.ACTION:
                findings.error(
                    step.where, f"mission {mission.id!r}: {step.at!r} is no action space"
                )
            if step.days is not None and not (
                1 <= step.days.min <= step.days.max <= model.days.days
            ):
                findings.error(
                    step.where, f"mission {mission.id!r}: days must lie within 1..{model.days.days}"
                )
            # Completable: each cost fits in the supply.
            for pay in step.pay:
                for rid, n in pay.items():
                    if rid in model.resource and n > model.resource[rid].count:
                        findings.error(
                            step.where,
                            f"mission {mission.id!r}: box {step.name!r} costs {n} {rid}, "
                            f"only {model.resource[rid].count} exist: it can never be done",
                        )
    sources = {
        rid
        for action in [loc.action for loc in model.locations if loc.action]
        + [t.action for t in model.vacant_tiles if t.action]
        for reward in action.gain
        for rid in reward.resources
    } | {rid for level in model.difficulties for b in level.airdrop for rid in b}
    for mission in model.missions:
        for step in mission.steps:
            if step.pay and not any(set(pay) <= sources for pay in step.pay):
                findings.error(
                    step.where,
                    f"mission {mission.id!r}: no action yields what box {step.name!r} costs",
                )


def _check_tracks(findings: Findings, model: Maquis) -> None:
    morale = model.morale
    for value, red in RULE_RED.items():
        if morale.red_at(value) != red:
            findings.error(
                morale.where,
                f"morale: morale {value} must show red {red} (the post's example), "
                f"got {morale.red_at(value)}",
            )
    if not 1 <= morale.start <= morale.top:
        findings.error(morale.where, f"morale: start {morale.start} is off the track")
    days = model.days
    if days.days != RULE_DAYS:
        findings.error(days.where, f"days: the day track has {RULE_DAYS} days, got {days.days}")
    for day in (*days.orange, *days.star):
        if not 1 <= day <= days.days:
            findings.error(days.where, f"days: day {day} is not on the track 1..{days.days}")
    if not days.orange or not days.star:
        findings.error(days.where, "days: the track needs orange and star spaces")


def _check_levels(findings: Findings, model: Maquis) -> None:
    ids = [level.id for level in model.difficulties]
    if ids != list(RULE_LEVELS):
        findings.error(
            model.difficulties[0].where if model.difficulties else None,
            f"difficulties: expected the six levels {list(RULE_LEVELS)} in order, got {ids}",
        )
    figures = {t.id: t.copies for t in model.tokens}
    for level in model.difficulties:
        if level.workers + level.cafe > figures.get("resistance", 0):
            findings.error(level.where, f"difficulty {level.id!r}: more workers than figures")


LADDER_ALPHA = 0.05
"""One-sided level of the paired test that a harder level is harder (see `ladder_step`).

The rule: on the same seeds the harder level must win fewer games than the easier one (an
error otherwise, naming both levels and the seed); a drop the sign test cannot tell from
chance at this level (p >= alpha) is reported as a warning with the games it would take."""


@dataclass(frozen=True)
class LadderStep:
    """Two neighbouring levels played on the same seeds, compared game by game."""

    easier: str
    harder: str
    only_easier: int
    """Seeds won at the easier level and not at the harder one."""
    only_harder: int
    """Seeds won at the harder level and not at the easier one."""
    games: int
    p_value: float
    """One-sided exact sign test (McNemar) of 'the harder level wins at least as often'."""

    @property
    def drop(self) -> float:
        """How much lower the harder level's win rate is, over the paired games."""
        return (self.only_easier - self.only_harder) / self.games if self.games else 0.0

    @property
    def is_lower(self) -> bool:
        """The harder level won fewer of the paired games."""
        return self.drop > 0

    @property
    def is_significant(self) -> bool:
        return self.is_lower and self.p_value < LADDER_ALPHA


def ladder_step(
    easier: str,
    harder: str,
    a: tuple[tuple[int, Result | None], ...],
    b: tuple[tuple[int, Result | None], ...],
) -> LadderStep:
    """Pair the games of two levels by seed (games stopped by the cap are left out) and test
    whether the harder level wins less: only the seeds where exactly one level won count, and
    under 'no difference' each of them is a fair coin."""
    results = dict(b)
    only_easier = only_harder = games = 0
    for game_seed, result in a:
        other = results.get(game_seed)
        if result is None or other is None:
            continue
        games += 1
        won, won_harder = result is Result.WIN, other is Result.WIN
        only_easier += won and not won_harder
        only_harder += won_harder and not won
    return LadderStep(
        easier, harder, only_easier, only_harder, games, sign_test(only_easier, only_harder)
    )


def check_simulated(findings: Findings, games: int, seed: int) -> dict[str, Any]:
    """Sensible play at every level on the same seeds: normal winnable, and each level harder
    than the one before it by a one-sided paired test (see `ladder_step`)."""
    model: Maquis = findings.game.model
    report: dict[str, Any] = {
        "games_per_level": games,
        "seed": seed,
        "alpha": LADDER_ALPHA,
        "levels": [],
        "ladder": [],
    }
    previous: tuple[str, SimulationReport] | None = None
    for level in model.difficulties:
        checked = simulate(model, level.id, max(1, games // 5), seed, RandomPolicy(), check=True)
        result = simulate(model, level.id, games, seed, GreedyPolicy())
        for run in (checked, result):
            if run.capped_seeds:
                # The looping level has no time limit by rule: a long game is only a warning.
                report_to = findings.warning if level.loop else findings.error
                report_to(
                    level.where,
                    f"simulation: {len(run.capped_seeds)} of {run.games} {level.id} games "
                    f"({run.policy}) hit the round cap (replay seed {run.capped_seeds[0]})",
                )
        win = result.rate(Result.WIN)
        finished = games - len(result.capped_seeds)
        low, high = wilson(result.results.get(Result.WIN, 0), finished)
        if level.id == "normal" and win <= 0:
            findings.error(level.where, f"simulation: normal is never won in {games} games")
        if previous is not None:
            step = ladder_step(previous[0], level.id, previous[1].outcomes, result.outcomes)
            report["ladder"].append(
                {
                    "easier": step.easier,
                    "harder": step.harder,
                    "only_easier": step.only_easier,
                    "only_harder": step.only_harder,
                    "drop": round(step.drop, 3),
                    "p_value": round(step.p_value, 5),
                }
            )
            evidence = (
                f"on the same {step.games} games {step.only_easier} were won only at "
                f"{previous[0]} and {step.only_harder} only at {level.id} (one-sided sign test "
                f"p = {step.p_value:.3f}; seed {seed}, {games} games"
            )
            if not step.is_lower:
                judge = findings.error if games >= LADDER_MIN_GAMES else findings.warning
                judge(
                    level.where,
                    f"simulation: {level.id} is not harder than {previous[0]}: win rate "
                    f"{win:.1%} vs {previous[1].rate(Result.WIN):.1%}; {evidence}"
                    + (
                        ""
                        if games >= LADDER_MIN_GAMES
                        else f"; too few to judge, use {LADDER_MIN_GAMES}+"
                    )
                    + ")",
                )
            elif not step.is_significant and games >= LADDER_MIN_GAMES:
                # Below LADDER_MIN_GAMES a right-way step is all a run can show: neighbouring
                # levels differ by a few points, so this warned on every plain validate and
                # said only "more games would tell". --balance judges the ladder on
                # balance.games; the report keeps every step's figures either way.
                findings.warning(
                    level.where,
                    f"simulation: {level.id} is lower than {previous[0]} but not clearly: "
                    f"win rate {win:.1%} vs {previous[1].rate(Result.WIN):.1%}; {evidence}, "
                    f"needs < {LADDER_ALPHA}; more games per level would tell)",
                )
        previous = (level.id, result)
        report["levels"].append(
            {
                "difficulty": level.id,
                "games": games,
                "win": round(win, 3),
                "win_interval": [round(low, 3), round(high, 3)],
                "draw": round(result.rate(Result.DRAW), 3),
                "loss": round(result.rate(Result.LOSS), 3),
                "loss_causes": {
                    t.value: n
                    for t, n in sorted(result.loss_causes.items(), key=lambda item: item[0].value)
                },
                "mean_rounds": round(result.mean_rounds, 2),
            }
        )
    return report


def summarise(report: dict[str, Any]) -> list[str]:
    lines = []
    for level in report.get("levels", []):
        causes = ", ".join(f"{k} {v}" for k, v in level["loss_causes"].items()) or "-"
        low, high = level.get("win_interval", (level["win"], level["win"]))
        lines.append(
            f"{level['difficulty']:<9} sensible x{level['games']}: win {level['win']:.0%} "
            f"[{low:.0%}–{high:.0%}] draw {level['draw']:.0%} loss {level['loss']:.0%} "
            f"(losses: {causes}); {level['mean_rounds']:.1f} rounds"
        )
    for step in report.get("ladder", []):
        lines.append(
            f"{step['harder']:<9} vs {step['easier']}: win rate {step['drop']:+.0%} lower; "
            f"won only at the easier {step['only_easier']}, only at the harder "
            f"{step['only_harder']}; one-sided p = {step['p_value']:.3g}"
        )
    return lines


def simulation_lines(
    game: LoadedGame, *, players: int | None, games: int, seed: int, policy: str
) -> list[str]:
    model: Maquis = game.model
    if players not in (None, 1):
        raise PnpError(f"{SLUG} is a solo game, not for {players} players")
    lines = [f"{SLUG}: {games} games per difficulty, seed {seed}, policy {policy}"]
    for level in model.difficulties:
        r = simulate(model, level.id, games, seed, POLICIES[policy]())
        causes = ", ".join(
            f"{t.value} {n}" for t, n in sorted(r.loss_causes.items(), key=lambda i: i[0].value)
        )
        lines.append(
            f"  {level.id:<9} win {r.rate(Result.WIN):.1%} draw {r.rate(Result.DRAW):.1%} "
            f"loss {r.rate(Result.LOSS):.1%} (losses: {causes or '-'}); rounds mean "
            f"{r.mean_rounds:.1f}; cap hits {len(r.capped_seeds)}; "
            f"{r.games_per_second:,.0f} games/s"
        )
    return lines
