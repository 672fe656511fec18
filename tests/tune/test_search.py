"""The tuner's search on a judge that plays no games: a figure whose win rate falls as two of
three numbers rise. It must reach the band, then keep only the numbers that matter, each as
little as it must move."""

from __future__ import annotations

from collections.abc import Mapping

from pnp.content.tuning import Number
from pnp.content.yamlsource import MappingNode
from pnp.engines.stats import Rate
from pnp.errors import Location
from pnp.tune.search import Budget, Judged, search
from pnp.validate.play import Figure, Verdict

GAMES = 2000
"""Games behind the made-up figure: enough that any miss of the band is beyond doubt."""


def number(name: str, line: int) -> Number:
    return Number(
        label=f"cards[{name}].cost",
        value=0,
        low=0,
        high=5,
        step=1,
        where=Location("g/cards.yaml", line, 10),
        text="0",
        traits=frozenset({("colour", "red")}),
        entry=0,
    )


A, B, C = number("a", 1), number("b", 2), number("c", 3)


def judge(values: Mapping[Number, int]) -> Judged:
    """赤焰 wins 90 % at (0, 0, 0) and ten points less for each step of a or b; c does nothing.
    Promised 40-60 %: a + b >= 3 keeps it."""
    wins = round(GAMES * (0.9 - 0.1 * (values[A] + values[B])))
    rate = Rate(max(0, wins), GAMES)
    low, high = rate.interval
    verdict = Verdict.BROKEN if high < 0.4 or low > 0.6 else Verdict.OPEN
    figure = Figure(
        Location("g/balance.yaml", 5),
        ("2p",),
        "table '2p': character chiyan wins",
        verdict,
        outside=not 0.4 <= rate.value <= 0.6,
        detail=str(rate),
        rate=rate,
        band=(0.4, 0.6),
        label="chiyan",
    )
    targets = frozenset({figure.what})
    return Judged(dict(values), (figure,), targets)


def test_the_change_found_is_the_fewest_numbers_each_moved_the_least() -> None:
    tried: list[dict[str, int]] = []

    def counting(values: Mapping[Number, int]) -> Judged:
        tried.append({n.label: v for n, v in values.items() if v != n.value})
        return judge(values)

    proposal = search(
        counting, [A, B, C], [0, 0, 0], MappingNode("g", 1, 1, {}), Budget(seconds=60)
    )

    assert proposal.before.figures[0].verdict is Verdict.BROKEN
    assert proposal.after.kept
    changes = {n.label: v for n, v in proposal.changes.items()}
    # One number, moved the three steps that bring the figure to 60 % (c does nothing, and
    # a's step is folded into b's).
    assert changes in ({"cards[a].cost": 3}, {"cards[b].cost": 3})
    assert proposal.tried == len(tried)


def test_a_spent_budget_stops_the_search_with_the_closest_change() -> None:
    proposal = search(
        judge, [A, B, C], [0, 0, 0], MappingNode("g", 1, 1, {}), Budget(60, candidates=2)
    )
    assert proposal.tried == 2
    assert proposal.stopped_by_budget
    assert not proposal.after.kept
    assert proposal.after.distance < proposal.before.distance
