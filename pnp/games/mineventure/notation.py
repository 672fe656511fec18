"""MineVenture's position notation: one line of text, like chess's FEN.

    mv <phase> <seat> <round> <day><d|n> <dragon hp> <story> <roll> <stamp> <seats> [key=value...]

``<seats>`` is every seat, ``/`` between them; a seat is ten ``;``-separated fields::

    x,y ; hp ; character ; main ; sub ; armour ; partner ; buffs ; hand ; flags

A weapon is ``card*durability+book+book``; buffs are the slots, ``,`` between them, each ``-``
or ``buff.rounds.stamp``; the hand is card ids, ``,`` between them (``card*n`` for n copies in
a row); flags are letters (``D`` dead, ``K`` killed this round, ``F`` fled this round, ``S``
skips to the end phase, ``H`` hit the dragon, ``L`` holds a victim's hand), ``-`` for none.
Empty things are ``-``.

Optional fields follow only when they hold something: ``piles=`` the put-back bottoms and the
discards (``deck:bottom|discard``, ``/`` between decks), ``queue=`` draws due
(``seat.deck.why``), ``order=`` seats still to choose a spawn point, ``drawn=card@seat`` a field
card waiting to be kept, ``resume=`` the phase after the draws, ``combat=``
(``attacker.defender.round.flags.fleeing.declared;declared``), ``loot=killer.victim`` and
``end=termination:winner,winner``.

The draw piles are not written: every card of the game is in exactly one place, so a draw
pile holds the cards of its deck that are nowhere else (as a captured piece is absent from a
FEN). Every reachable position reads back to itself.
"""

from __future__ import annotations

import itertools
from collections import Counter

from pnp.games.mineventure.board import Board
from pnp.games.mineventure.state import SLUG, Combat, MineventureState, Player

FLAGS: tuple[tuple[str, str], ...] = (
    ("D", "dead"),
    ("K", "killed"),
    ("F", "fled"),
    ("S", "skip"),
    ("H", "hit_dragon"),
    ("L", "spoils"),
)
"""A seat's flags as letters: dead, killed this round, fled this round, skips to the end
phase, hit the dragon, holds a victim's hand beyond the limit."""
HEADER = 9
"""Positional fields before the seats: mv, phase, seat, round, day, dragon, story, roll, stamp."""


def write(board: Board, state: MineventureState) -> str:
    """The position as one line of text."""

    def card(code: int) -> str:
        return "-" if code < 0 else board.tokens[code]

    def cards(codes: tuple[int, ...]) -> str:
        # Runs of the same card as card*n: discards and hands are sorted, so copies sit together.
        runs = [(code, len(list(group))) for code, group in itertools.groupby(codes)]
        return ",".join(board.tokens[c] + (f"*{n}" if n > 1 else "") for c, n in runs) or "-"

    def weapon(code: int, durability: int, books: tuple[int, ...]) -> str:
        text = card(code)
        if code >= 0 or durability:
            text += f"*{durability}"
        return text + "".join(f"+{board.tokens[b]}" for b in books)

    def seat(p: Player) -> str:
        buffs = ",".join(
            "-" if e is None else f"{board.buffs[e[0]].id}.{e[1]}.{e[2]}" for e in p.buffs
        )
        flags = "".join(
            letter
            for letter, name in FLAGS
            if (not p.alive if name == "dead" else getattr(p, name))
        )
        return ";".join(
            (
                f"{p.x},{p.y}",
                str(p.hp),
                board.model.characters[p.character].id,
                weapon(p.main, p.main_dur, p.main_ench),
                weapon(p.sub, p.sub_dur, p.sub_ench),
                card(p.armour),
                card(p.partner),
                buffs,
                cards(p.hand),
                flags or "-",
            )
        )

    s = state
    fields = [
        "mv",
        s.phase,
        str(s.seat),
        str(s.round),
        f"{s.day}{'n' if s.night else 'd'}",
        str(s.dragon_hp),
        card(s.story),
        str(s.roll),
        str(s.stamp),
        "/".join(seat(p) for p in s.players),
    ]
    piles = "/".join(
        f"{board.decks[i]}:{cards(bottom)}|{cards(discard)}"
        for i, (_, bottom, discard) in enumerate(s.piles)
        if bottom or discard
    )
    if piles:
        fields.append(f"piles={piles}")
    if s.queue:
        fields.append("queue=" + ",".join(f"{a}.{board.decks[d]}.{w}" for a, d, w in s.queue))
    if s.spawn_order:
        fields.append("order=" + ".".join(str(x) for x in s.spawn_order))
    if s.drawn >= 0 or s.drawn_by >= 0:
        fields.append(f"drawn={card(s.drawn)}@{s.drawn_by}")
    if s.resume:
        fields.append(f"resume={s.resume}")
    if s.combat is not None:
        c = s.combat
        flags = ("a" if c.ambush else "") + ("p" if c.on_path else "")
        declared = ";".join(c.declared) or "-"
        fields.append(
            f"combat={c.attacker}.{c.defender}.{c.round}.{flags or '-'}.{c.fleeing}.{declared}"
        )
    if s.loot != (-1, -1):
        fields.append(f"loot={s.loot[0]}.{s.loot[1]}")
    if s.ended or s.winners:
        fields.append(f"end={s.ended or '-'}:{','.join(str(w) for w in s.winners) or '-'}")
    return " ".join(fields)


def read(board: Board, text: str) -> MineventureState:
    """The position a line of `write` describes; ValueError quoting the text if it is not one."""
    try:
        return _read(board, text)
    except (ValueError, KeyError, IndexError) as error:
        reason = error.args[0] if isinstance(error, ValueError) else f"unknown {error}"
        raise ValueError(f"invalid {SLUG} notation {text!r}: {reason}") from None


def _read(board: Board, text: str) -> MineventureState:
    parts = text.split(" ")
    if len(parts) < HEADER + 1 or parts[0] != "mv":
        raise ValueError(f"expected 'mv' and {HEADER} fields, got {len(parts)} fields")
    _, phase, seat, round_, day, dragon, story, roll, stamp, seats, *options = parts
    characters = {c.id: i for i, c in enumerate(board.model.characters)}

    def card(token: str) -> int:
        return -1 if token == "-" else board.by_token[token]

    def cards(text: str) -> tuple[int, ...]:
        if text == "-":
            return ()
        out: list[int] = []
        for run in text.split(","):
            token, _, count = run.partition("*")
            out.extend([board.by_token[token]] * int(count or 1))
        return tuple(out)

    def weapon(text: str) -> tuple[int, int, tuple[int, ...]]:
        head, *books = text.split("+")
        name, _, durability = head.partition("*")
        return card(name), int(durability or 0), tuple(board.by_token[b] for b in books)

    def buff(text: str) -> tuple[int, int, int] | None:
        if text == "-":
            return None
        name, rounds, at = text.split(".")
        return (board.buff_index[name], int(rounds), int(at))

    players = []
    for text_ in seats.split("/"):
        fields = text_.split(";")
        if len(fields) != 10:
            raise ValueError(f"seat {text_!r} has {len(fields)} fields, expected 10")
        at, hp, character, main, sub, armour, partner, buffs, hand, flags = fields
        x, y = (int(v) for v in at.split(","))
        main_code, main_dur, main_ench = weapon(main)
        sub_code, sub_dur, sub_ench = weapon(sub)
        marks = set() if flags == "-" else set(flags)
        if marks - {letter for letter, _ in FLAGS}:
            raise ValueError(f"unknown flags {flags!r}")
        named = {name: letter in marks for letter, name in FLAGS}
        players.append(
            Player(
                x=x,
                y=y,
                hp=int(hp),
                alive=not named.pop("dead"),
                character=characters[character],
                main=main_code,
                main_dur=main_dur,
                main_ench=main_ench,
                sub=sub_code,
                sub_dur=sub_dur,
                sub_ench=sub_ench,
                armour=card(armour),
                partner=card(partner),
                buffs=tuple(buff(b) for b in buffs.split(",")) if buffs else (),
                hand=cards(hand),
                **named,
            )
        )
    if len(players) != board.players:
        raise ValueError(f"{len(players)} seats for a table of {board.players}")
    if day[-1:] not in ("d", "n"):
        raise ValueError(f"day {day!r} must end in d (day) or n (night)")
    state = MineventureState(
        players=tuple(players),
        piles=(),
        phase=phase,
        seat=int(seat),
        round=int(round_),
        day=int(day[:-1]),
        night=day.endswith("n"),
        story=card(story),
        dragon_hp=int(dragon),
        roll=int(roll),
        stamp=int(stamp),
    )
    bottoms: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for option in options:
        key, sep, value = option.partition("=")
        if not sep:
            raise ValueError(f"expected key=value, got {option!r}")
        if key == "piles":
            for deck_text in value.split("/"):
                deck, _, rest = deck_text.partition(":")
                bottom, _, discard = rest.partition("|")
                bottoms[board.deck_index[deck]] = (cards(bottom), cards(discard))
        elif key == "queue":
            entries = []
            for entry in value.split(","):
                who, deck, why = entry.split(".")
                entries.append((int(who), board.deck_index[deck], why))
            state.queue = tuple(entries)
        elif key == "order":
            state.spawn_order = tuple(int(x) for x in value.split("."))
        elif key == "drawn":
            token, _, by = value.partition("@")
            state.drawn, state.drawn_by = card(token), int(by)
        elif key == "resume":
            state.resume = value
        elif key == "combat":
            attacker, defender, round_text, flags, fleeing, declared = value.split(".", 5)
            state.combat = Combat(
                attacker=int(attacker),
                defender=int(defender),
                round=int(round_text),
                ambush="a" in flags,
                declared=() if declared == "-" else tuple(declared.split(";")),
                fleeing=int(fleeing),
                on_path="p" in flags,
            )
        elif key == "loot":
            killer, victim = value.split(".")
            state.loot = (int(killer), int(victim))
        elif key == "end":
            ended, _, winners = value.partition(":")
            state.ended = "" if ended == "-" else ended
            state.winners = () if winners == "-" else tuple(int(w) for w in winners.split(","))
        else:
            raise ValueError(f"unknown field {key!r}")
    state.piles = _piles(board, state, bottoms)
    return state


def _piles(
    board: Board,
    state: MineventureState,
    bottoms: dict[int, tuple[tuple[int, ...], tuple[int, ...]]],
) -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """Each deck's draw pile: its cards that are nowhere else."""
    elsewhere: Counter[int] = Counter()
    for bottom, discard in bottoms.values():
        elsewhere.update(bottom)
        elsewhere.update(discard)
    for p in state.players:
        elsewhere.update(p.hand)
        elsewhere.update(c for c in (p.main, p.sub, p.armour, p.partner) if c >= 0)
        elsewhere.update(p.main_ench)
        elsewhere.update(p.sub_ench)
    elsewhere.update(c for c in (state.story, state.drawn) if c >= 0)
    out = []
    for deck, (start, _, _) in enumerate(board.start_piles):
        left = Counter(start) - elsewhere
        bottom, discard = bottoms.get(deck, ((), ()))
        out.append((tuple(sorted(left.elements())), bottom, discard))
    return tuple(out)
