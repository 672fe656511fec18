"""The per-table memo: made once per object, never confused between objects, bounded."""

from __future__ import annotations

from pnp.engines.memo import ByIdentity


class Table:
    """A key that does not hash (as a set of rules need not)."""

    __hash__ = None  # type: ignore[assignment]


def test_a_value_is_made_once_per_object_and_never_given_to_another() -> None:
    memo: ByIdentity[Table, list[int]] = ByIdentity(limit=8)
    first, second = Table(), Table()
    made = memo.get(first, list)
    assert memo.get(first, lambda: [1]) is made  # not made again
    assert memo.get(second, list) is not made


def test_the_memo_starts_afresh_past_its_limit_and_holds_no_more() -> None:
    memo: ByIdentity[Table, object] = ByIdentity(limit=3)
    tables = [Table() for _ in range(4)]
    first = memo.get(tables[0], object)
    for table in tables[1:]:
        memo.get(table, object)
    assert len(memo) <= 3
    assert memo.get(tables[0], object) is not first
