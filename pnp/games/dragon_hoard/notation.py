"""Dragon Hoard notation: a whole position as one line of text, and back."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pnp.games.dragon_hoard.model import Cell
from pnp.games.dragon_hoard.state import SLUG, DragonHoardState, Stage, Status

if TYPE_CHECKING:
    from pnp.games.dragon_hoard.rules import DragonHoardRules


def format_position(rules: DragonHoardRules, state: DragonHoardState) -> str:
    """The whole position as one line of JSON, cards and treasures named by id."""
    ai, tr, ac = rules.ai_ids, rules.treasure_ids, rules.card_ids

    def cell(c: Cell | None) -> list[int] | None:
        return None if c is None else [c[0], c[1]]

    data = {
        "round": state.round,
        "stage": state.stage.value,
        "holder": state.holder,
        "actor": state.actor,
        "status": [s.value for s in state.status],
        "pawns": [cell(p) for p in state.pawns],
        "bags": [[tr[t] for t in bag] for bag in state.bags],
        "heirlooms": [tr[t] if t >= 0 else None for t in state.heirlooms],
        "sideways": list(state.sideways),
        "used": [[ac[c] for c in used] for used in state.used],
        "prep": list(state.prep),
        "placed": [[s, ac[c]] for s, c in state.placed],
        "queue": [[s, ai[c] if s < 0 else ac[c]] for s, c in state.queue],
        "waited": state.waited,
        "stopped": list(state.stopped),
        "revealed": state.revealed,
        "peeker": state.peeker,
        "deck": [ai[c] for c in state.deck],
        "current": ai[state.current] if state.current >= 0 else None,
        "upcoming": ai[state.upcoming] if state.upcoming >= 0 else None,
        "executed": [ai[c] for c in state.executed],
        "removed": [ai[c] for c in state.removed],
        "draws_due": state.draws_due,
        "recalls": state.recalls,
        "recall_round": state.recall_round,
        "countdown": state.countdown,
        "dragon": cell(state.dragon),
        "floor": [[x, y, tr[t]] for x, y, t in state.floor],
        "discarded": [tr[t] for t in state.discarded],
        "left_order": list(state.left_order),
        "events": state.events,
        "turn": state.turn,
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def parse_position(rules: DragonHoardRules, text: str) -> DragonHoardState:
    def fail(why: str) -> ValueError:
        return ValueError(f"invalid {SLUG} notation {text!r}: {why}")

    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise fail(f"not JSON ({error.msg})") from None
    expected = set(DragonHoardState.__slots__)
    if not isinstance(data, dict) or set(data) != expected:
        raise fail(f"expected the keys {sorted(expected)}")
    n = rules.players
    try:
        ai = rules._ai_by_id
        tr = rules._treasure_by_id
        ac = rules._card_by_id

        def cell(value: Any) -> Cell | None:
            if value is None:
                return None
            x, y = value
            if not rules.lair.contains((x, y)):
                raise fail(f"cell {value} is off the map")
            return (int(x), int(y))

        def per_seat(value: Any) -> list[Any]:
            if not isinstance(value, list) or len(value) != n:
                raise fail(f"expected {n} seats, got {value!r}")
            return value

        dragon = cell(data["dragon"])
        assert dragon is not None
        state = DragonHoardState(
            round=int(data["round"]),
            stage=Stage(data["stage"]),
            holder=int(data["holder"]) % n,
            actor=int(data["actor"]),
            status=tuple(Status(s) for s in per_seat(data["status"])),
            pawns=tuple(cell(p) for p in per_seat(data["pawns"])),
            bags=tuple(tuple(sorted(tr[t] for t in bag)) for bag in per_seat(data["bags"])),
            heirlooms=tuple(-1 if t is None else tr[t] for t in per_seat(data["heirlooms"])),
            sideways=tuple(bool(b) for b in per_seat(data["sideways"])),
            used=tuple(tuple(sorted(ac[c] for c in u)) for u in per_seat(data["used"])),
            prep=tuple(int(p) for p in per_seat(data["prep"])),
            placed=tuple((int(s), ac[c]) for s, c in data["placed"]),
            queue=tuple((int(s), ai[c] if int(s) < 0 else ac[c]) for s, c in data["queue"]),
            waited=int(data["waited"]),
            stopped=tuple(bool(b) for b in per_seat(data["stopped"])),
            revealed=bool(data["revealed"]),
            peeker=int(data["peeker"]),
            deck=tuple(sorted(ai[c] for c in data["deck"])),
            current=-1 if data["current"] is None else ai[data["current"]],
            upcoming=-1 if data["upcoming"] is None else ai[data["upcoming"]],
            executed=tuple(ai[c] for c in data["executed"]),
            removed=tuple(sorted(ai[c] for c in data["removed"])),
            draws_due=int(data["draws_due"]),
            recalls=int(data["recalls"]),
            recall_round=bool(data["recall_round"]),
            countdown=bool(data["countdown"]),
            dragon=dragon,
            floor=tuple(sorted((int(x), int(y), tr[t]) for x, y, t in data["floor"])),
            discarded=tuple(sorted(tr[t] for t in data["discarded"])),
            left_order=tuple(int(s) for s in data["left_order"]),
            events=int(data["events"]),
            turn=int(data["turn"]),
        )
    except KeyError as error:
        raise fail(f"unknown id {error.args[0]!r}") from None
    except (TypeError, ValueError) as error:
        if str(error).startswith("invalid"):
            raise
        raise fail(str(error)) from None
    if (
        state.stage in (Stage.PREPARATION, Stage.PLACEMENT, Stage.RESOLUTION)
        and not 0 <= state.actor < n
    ):
        raise fail(f"seat to act must be 0..{n - 1}, got {state.actor}")
    return state
