"""The way home in Maquis: which spaces are safe houses, and whether a worker reaches one
along the lines without crossing a patrol.

Spaces are bits of an int (space ``i`` is bit ``i``): a spread from the safe houses, one line
at a time and never onto a patrol, is a few bit operations per step, memoised on where the
patrols stand and the tiles (the same for every walk home of a round). A base of
:class:`~pnp.games.maquis.rules.MaquisRules` (through ``WorkerOptions``), which sets the
tables and memos declared below in its ``__init__``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pnp.games.maquis.model import VacantTile
from pnp.games.maquis.state import MEMO_LIMIT, POLICE, SOLDIER, MaquisState


def spread(seed: int, adjacent: Sequence[int], closed: int, goal: int = 0) -> int:
    """The spaces (as bits) reached from ``seed`` one line at a time, never entering
    ``closed``; ``adjacent[i]`` is space ``i``'s neighbours as bits. It stops as soon as it
    reaches a space of ``goal``."""
    seen = frontier = seed
    while frontier:
        ahead = 0
        while frontier:
            low = frontier & -frontier
            ahead |= adjacent[low.bit_length() - 1]
            frontier ^= low
        frontier = ahead & ~seen & ~closed
        seen |= frontier
        if frontier & goal:
            break
    return seen


class WayHome:
    """Safe houses and the way home; the rules set the tables and memos below."""

    safe: frozenset[int]
    """The printed safe houses."""
    vacant: tuple[int, ...]
    tiles: dict[str, VacantTile]
    adjacent_bits: tuple[int, ...]
    _safe_memo: dict[tuple[str, ...], frozenset[int]]
    _safe_bits: dict[tuple[str, ...], int]
    _reach_memo: dict[tuple[int, tuple[str, ...]], tuple[int, int]]
    _reach_by_board: dict[tuple[str, tuple[str, ...]], tuple[int, int]]
    _patrol_digits: dict[int, str]

    def is_safe_house(self, s: MaquisState, i: int) -> bool:
        return i in self.safe_houses(s.tiles)

    def safe_houses(self, tiles: tuple[str, ...]) -> frozenset[int]:
        """The safe houses with these vacant-house tiles laid: the printed ones, and each
        vacant house whose tile is a safe house (memoised: few tile layouts happen)."""
        safe = self._safe_memo.get(tiles)
        if safe is None:
            houses = set(self.safe)
            for k, i in enumerate(self.vacant):
                if tiles[k] and self.tiles[tiles[k]].safe_house:
                    houses.add(i)
            self._safe_memo[tiles] = safe = frozenset(houses)
        return safe

    def has_path_home(self, s: MaquisState, start: int, board: str | None = None) -> bool:
        """A safe path along the thick lines through empty or resistance-held spaces."""
        board = s.board if board is None else board
        reach, safe = self._reach(board, s.tiles)
        if safe >> start & 1:  # never on a safe house in play: the spread from it, as asked
            return self._find_path_home(start, board, s.tiles)
        # The path leaves the start for a neighbour from which a safe house is reached.
        return bool(self.adjacent_bits[start] & reach)

    def _reach(self, board: str, tiles: tuple[str, ...]) -> tuple[int, int]:
        """The spaces from which a safe house is reached without crossing a patrol, and the
        safe houses, as bits: spread from the safe houses one line at a time, never onto a
        patrol (memoised on where the patrols stand and the tiles: the same for every walk
        home of a round)."""
        # First by the board itself: a string keeps its hash, so this lookup skips reading
        # the patrols off the board, which the memo by patrols below needs.
        by_board = (board, tiles)
        found = self._reach_by_board.get(by_board)
        if found is not None:
            return found
        blocked = self.patrol_bits(board)
        key = (blocked, tiles)
        found = self._reach_memo.get(key)
        if found is None:
            safe = self._safe_bits_of(tiles)
            reach = spread(safe & ~blocked, self.adjacent_bits, blocked)
            if len(self._reach_memo) >= MEMO_LIMIT:
                self._reach_memo.clear()
            found = self._reach_memo[key] = (reach, safe)
        if len(self._reach_by_board) >= MEMO_LIMIT:
            self._reach_by_board.clear()
        self._reach_by_board[by_board] = found
        return found

    def patrol_bits(self, board: str) -> int:
        """The spaces with a patrol figure on ``board``, as bits (bit i: a patrol on i)."""
        return int(board.translate(self._patrol_digits)[::-1], 2)

    def _safe_bits_of(self, tiles: tuple[str, ...]) -> int:
        """The safe houses with these tiles laid, as bits (memoised)."""
        safe = self._safe_bits.get(tiles)
        if safe is None:
            safe = self._safe_bits[tiles] = sum(1 << i for i in self.safe_houses(tiles))
        return safe

    def _find_path_home(self, start: int, board: str, tiles: tuple[str, ...]) -> bool:
        # Spaces as bits: spread from the start one line at a time, never onto a patrol.
        safe = self._safe_bits_of(tiles)
        blocked = 0
        for figure in (POLICE, SOLDIER):
            j = board.find(figure)
            while j >= 0:
                blocked |= 1 << j
                j = board.find(figure, j + 1)
        seed = 1 << start
        return bool(spread(seed, self.adjacent_bits, blocked, goal=safe) & safe & ~seed)
