"""Checks that the printed kit can be played at a table: every component fits the slot it lies
in, every track's cells hold its marker and show every value the engine can reach, and every
piece of public state the engine keeps is shown by a component or a stated convention, in the
numbers the largest table needs.

Content declares the geometry on its products (``slots:``, ``tracks:``) and the state in its
model's ``physical:`` section; the engine declares its public state and ranges through the
``Game.public_state`` hook (and ``Game.observed_state`` for what only simulated play bounds).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pnp.errors import Location, TemplateError
from pnp.layout.primitives import RectShape
from pnp.layout.products import layout_product
from pnp.layout.sizes import SizeError, item_size
from pnp.model.common import (
    NOWHERE,
    Per,
    Product,
    Slot,
    Track,
    Trackable,
    physical_of,
)
from pnp.model.rulebook import BlockKind, Generated, Section
from pnp.registry import Game, Range
from pnp.units import parse_length, to_mm
from pnp.validate.checks import Findings, suggest


def _mm(points: float) -> str:
    """A length as messages print it: '42', '63.5'."""
    return f"{round(to_mm(points), 1):g}"


def _size(width: float, height: float) -> str:
    return f"{_mm(width)}x{_mm(height)} mm"


def copies_of(model: Any, product: Product) -> int:
    """How many items the kit prints of a product (every copy of every item)."""
    items = getattr(model, product.items, ())
    return sum(int(getattr(item, "copies", 1)) for item in items) if items else 0


def _length(findings: Findings, text: str, where: Location, label: str) -> float | None:
    try:
        return parse_length(text)
    except ValueError as error:
        findings.error(where, f"{label}: {error}")
        return None


def _cell_size(findings: Findings, track: Track) -> tuple[float, float] | None:
    """A track's cell: '16mm' (square) or '16x20mm' (the unit written once)."""
    label = f"track {track.id!r}: cell"
    match = _PAIR.match(track.cell.strip().lower())
    if match is None:
        side = _length(findings, track.cell, track.where, label)
        return None if side is None else (side, side)
    unit = match["unit"]
    width = _length(findings, match["w"] + unit, track.where, label)
    height = _length(findings, match["h"] + unit, track.where, label)
    return None if width is None or height is None else (width, height)


_PAIR = re.compile(r"^(?P<w>\d+(?:\.\d+)?)\s*x\s*(?P<h>\d+(?:\.\d+)?)\s*(?P<unit>mm|cm|in|pt)$")


class _Kit:
    """The kit's products, slots and tracks by id, for looking names up."""

    def __init__(self, findings: Findings) -> None:
        self.findings = findings
        self.model = findings.game.model
        self.products: dict[str, Product] = {p.id: p for p in self.model.products}
        self.slots: dict[str, tuple[Product, Slot]] = {}
        self.tracks: dict[str, tuple[Product, Track]] = {}
        for product in self.model.products:
            for slot in product.slots:
                self.slots.setdefault(slot.id, (product, slot))
            for track in product.tracks:
                if track.id in self.tracks:
                    first = self.tracks[track.id][1].where
                    findings.error(
                        track.where,
                        f"track id {track.id!r} is used again (first at {first}); "
                        "physical.state names tracks by id, so each must be unique in the kit",
                    )
                else:
                    self.tracks[track.id] = (product, track)

    def size(self, product: Product) -> tuple[float, float] | None:
        try:
            return item_size(product)
        except SizeError:
            return None  # reported where sizes are read

    def product(self, name: str, where: Location, label: str) -> Product | None:
        product = self.products.get(name)
        if product is None:
            self.findings.error(
                where, f"{label} names unknown product {name!r}{suggest(name, self.products)}"
            )
        return product


# ---------------------------------------------------------------- geometry


def check_slots(kit: _Kit) -> None:
    """Each slot lies on its product and one item of what it holds fits inside it."""
    findings = kit.findings
    for product in kit.model.products:
        board = kit.size(product)
        for slot in product.slots:
            label = f"slot {slot.id!r} on {product.id!r}"
            x, y, w, h, tolerance = (
                _length(findings, text, slot.where, f"{label}: {name}")
                for name, text in (
                    ("x", slot.x),
                    ("y", slot.y),
                    ("w", slot.w),
                    ("h", slot.h),
                    ("tolerance", slot.tolerance),
                )
            )
            if x is None or y is None or w is None or h is None or tolerance is None:
                continue
            if board is not None and (x + w > board[0] + 0.01 or y + h > board[1] + 0.01):
                findings.error(
                    slot.where,
                    f"{label} reaches {_mm(x + w)}x{_mm(y + h)} mm from the corner, off the "
                    f"{_size(*board)} item",
                )
            held = kit.product(slot.holds, slot.where, label)
            if held is None:
                continue
            if slot.kind and not _has_kind(kit.model, held, slot.kind):
                findings.error(
                    slot.where, f"{label}: no item of {held.id!r} has id or kind {slot.kind!r}"
                )
            size = kit.size(held)
            if size is None:
                continue
            fits = _fits(size, (w, h), tolerance) or (
                slot.turn and _fits((size[1], size[0]), (w, h), tolerance)
            )
            if not fits:
                turned = " (or turned)" if slot.turn else ""
                findings.error(
                    slot.where,
                    f"{label} is {_size(w, h)}, an item of {held.id!r} is {_size(*size)}"
                    f"{turned}: it overhangs by more than the {_mm(tolerance)} mm tolerance",
                )


DRAWN_WITHIN = 1.0
"""How far (mm) a box the face draws may lie from a slot's edges and still be its outline."""


def check_drawn(kit: _Kit, templates_root: Path) -> None:
    """Each slot is drawn: the face of its product's first item has a box at the slot's
    place and size, so content's geometry and the printed board cannot drift apart."""
    findings = kit.findings
    for product in kit.model.products:
        if not product.slots:
            continue
        try:
            laid = layout_product(findings.game, product, templates_root, 0.0)
        except (TemplateError, SizeError):
            continue  # the layout check reports it
        if not laid.runs:
            continue
        face = laid.runs[0][0]
        boxes = [
            (s.x, face.height - s.y - s.height, s.width, s.height)
            for s in face.shapes
            if isinstance(s, RectShape) and (s.style.stroke or s.style.fill)
        ]
        for slot in product.slots:
            try:
                wanted = tuple(parse_length(t) for t in (slot.x, slot.y, slot.w, slot.h))
            except ValueError:
                continue  # reported by check_slots
            near = parse_length(f"{DRAWN_WITHIN}mm")
            if not any(
                all(abs(a - b) <= near for a, b in zip(box, wanted, strict=True)) for box in boxes
            ):
                x, y, w, h = wanted
                findings.error(
                    slot.where,
                    f"slot {slot.id!r} on {product.id!r} is not drawn: its face {product.face!r} "
                    f"has no box at {_mm(x)},{_mm(y)} mm of {_size(w, h)}",
                )


def _fits(size: tuple[float, float], room: tuple[float, float], tolerance: float) -> bool:
    return size[0] <= room[0] + tolerance + 0.01 and size[1] <= room[1] + tolerance + 0.01


def _has_kind(model: Any, product: Product, kind: str) -> bool:
    for item in getattr(model, product.items, ()):
        own: Any = getattr(item, "kind", None)
        own_text = getattr(own, "value", own)
        if kind in (getattr(item, "id", None), own_text):
            return True
    return False


def check_tracks(kit: _Kit) -> None:
    """Each track has cells, and each cell holds the track's marker (either way round)."""
    findings = kit.findings
    for product in kit.model.products:
        for track in product.tracks:
            label = f"track {track.id!r} on {product.id!r}"
            if track.labels and track.cells and track.cells != len(track.labels):
                findings.error(
                    track.where,
                    f"{label} has {track.cells} cells but {len(track.labels)} labels",
                )
            if not track.labels and track.cells <= 0:
                findings.error(track.where, f"{label} has no cells (give cells or labels)")
            if not track.marker:
                continue
            marker = kit.product(track.marker, track.where, f"{label}: marker")
            if marker is None:
                continue
            if not track.cell:
                findings.error(track.where, f"{label}: give the cell size to hold its marker")
                continue
            cell = _cell_size(findings, track)
            size = kit.size(marker)
            tolerance = _length(findings, track.tolerance, track.where, f"{label}: tolerance")
            if cell is None or size is None or tolerance is None:
                continue
            if not (_fits(size, cell, tolerance) or _fits((size[1], size[0]), cell, tolerance)):
                findings.error(
                    track.where,
                    f"{label}: a cell is {_size(*cell)}, its marker {track.marker!r} is "
                    f"{_size(*size)}: it overhangs by more than the {_mm(tolerance)} mm tolerance",
                )


# ---------------------------------------------------------------- state


def _shown(values: Iterable[int | str]) -> str:
    shown = list(values)
    if len(shown) > 8:
        shown = [*shown[:3], "…", *shown[-2:]]
    return ", ".join(str(v) for v in shown)


def _missing(track: Track, span: Range) -> list[int | str]:
    """The values of ``span`` no cell of ``track`` shows (an unbounded span up to the last
    cell: what lies past it is the observed check's business)."""
    shows = set(track.values())
    if track.off_track is not None:
        shows.add(track.off_track)
    if span.values:
        return sorted(v for v in span.values if v not in shows)
    numbers = [v for v in shows if isinstance(v, int)]
    high = span.high if span.high is not None else max(numbers, default=span.low)
    return [v for v in range(span.low, high + 1) if v not in shows]


def check_state(kit: _Kit, public: Mapping[str, Range] | None) -> None:
    """Every entry of ``physical.state`` names a component that exists and a quantity the
    engine keeps; every quantity the engine keeps has an entry; a track shows all its values."""
    findings = kit.findings
    physical = physical_of(kit.model)
    brought = {b.id: b for b in physical.bring}
    entries: dict[str, Trackable] = {}
    for entry in physical.state:
        label = f"public state {entry.name!r}"
        if entry.name in entries:
            findings.error(
                entry.where, f"{label} is listed again (first at {entries[entry.name].where})"
            )
            continue
        entries[entry.name] = entry
        if public is not None and entry.name not in public:
            findings.error(
                entry.where,
                f"{label}: the engine keeps no such public state{suggest(entry.name, public)}",
            )
        ways = entry.shown_by
        if len(ways) != 1:
            findings.error(
                entry.where,
                f"{label} is shown by {'nothing' if not ways else ' and '.join(k for k, _ in ways)}"
                ": name one product, track, slot, bring or convention",
            )
            continue
        kind, name = ways[0]
        if kind == "product":
            kit.product(name, entry.where, label)
        elif kind == "track" and name not in kit.tracks:
            findings.error(
                entry.where, f"{label} names unknown track {name!r}{suggest(name, kit.tracks)}"
            )
        elif kind == "slot" and name not in kit.slots:
            findings.error(
                entry.where, f"{label} names unknown slot {name!r}{suggest(name, kit.slots)}"
            )
        elif kind == "bring" and name not in brought:
            findings.error(
                entry.where,
                f"{label} names {name!r}, which physical.bring does not list"
                f"{suggest(name, brought)}",
            )
        if kind == "track" and public is not None and entry.name in public:
            _check_range(kit, entry, kit.tracks.get(name), public[entry.name])
    if public is None:
        return
    # A missing entry belongs in the state list: point at its first entry, else the section.
    listed = physical.state[0].where if physical.state else physical.where
    for name, span in public.items():
        if name not in entries:
            findings.error(
                listed if listed != NOWHERE else None,
                f"public state {name!r} ({span}) has no component or convention: "
                f"add it to physical.state{suggest(name, entries)}",
            )


def _check_range(kit: _Kit, entry: Trackable, found: Any, span: Range) -> None:
    if found is None:
        return
    product, track = found
    missing = _missing(track, span)
    if missing:
        kit.findings.error(
            track.where,
            f"track {track.id!r} on {product.id!r} shows {_shown(track.values())}"
            f"{'' if track.off_track is None else f' (off the track: {track.off_track})'}, "
            f"but the engine's {entry.name!r} takes {span}: no cell shows {_shown(missing)}",
        )


def check_counts(kit: _Kit) -> None:
    """A component needed per seat is printed (or brought) for the largest table."""
    findings = kit.findings
    info = kit.model.info
    outside = [p for p in info.players.only if not info.players.min <= p <= info.players.max]
    if outside:
        findings.error(
            info.where,
            f"info.players.only: {_shown(outside)} outside {info.players.min}..{info.players.max}",
        )
    players = max(info.players, default=info.players.max)
    for entry in physical_of(kit.model).state:
        if entry.per is not Per.SEAT or len(entry.shown_by) != 1:
            continue
        kind, name = entry.shown_by[0]
        product: Product | None = None
        if kind == "product":
            product = kit.products.get(name)
        elif kind == "track" and name in kit.tracks:
            product = kit.tracks[name][0]
        elif kind == "slot" and name in kit.slots:
            product = kit.slots[name][0]
        if product is None:
            continue
        needed = entry.count * players
        printed = copies_of(kit.model, product)
        if printed < needed:
            items: Sequence[Any] = getattr(kit.model, product.items, ())
            where = getattr(items[0], "where", None) if len(items) == 1 else None
            findings.error(
                where if where not in (None, NOWHERE) else product.where,
                f"public state {entry.name!r} needs {entry.count} of {product.id!r} per seat: "
                f"{players} players need {needed}, the kit prints {printed}",
            )


def _has_components_table(sections: Sequence[Section]) -> bool:
    for section in sections:
        for block in section.blocks:
            if block.kind is BlockKind.GENERATED and block.source is Generated.COMPONENTS:
                return True
        if _has_components_table(section.sections):
            return True
    return False


def check_listed(kit: _Kit) -> None:
    """The rulebook lists the components (and so what the players bring) when the game
    declares what its state needs."""
    physical = physical_of(kit.model)
    rulebook = getattr(kit.model, "rulebook", None)
    if not (physical.state or physical.bring) or rulebook is None:
        return
    if not _has_components_table(rulebook.sections):
        where = getattr(rulebook, "where", None)
        kit.findings.error(
            where,
            "the rulebook has no components table ('generated: components'), so it never "
            "says what to bring: " + ", ".join(b.name for b in physical.bring),
        )


def check_fit(findings: Findings, game: Game | None, templates_root: Path | None = None) -> None:
    """Every physical check of one game's content (static: no play needed); with
    ``templates_root``, also that every slot is drawn where content says it is."""
    if not hasattr(findings.game.model, "products"):
        return
    kit = _Kit(findings)
    check_slots(kit)
    if templates_root is not None:
        check_drawn(kit, templates_root)
    check_tracks(kit)
    public = (
        dict(game.public_state(findings.game.model))
        if game is not None and game.public_state is not None
        else None
    )
    check_state(kit, public)
    check_counts(kit)
    check_listed(kit)


def check_observed(findings: Findings, game: Game, report: dict[str, Any]) -> None:
    """The values simulated play reached, for the quantities the engine cannot bound, against
    the tracks that show them: past the last cell needs a printed ``beyond:`` rule."""
    if game.observed_state is None:
        return
    kit = _Kit(Findings(findings.game))  # duplicate-id findings are the static check's
    entries = {e.name: e for e in physical_of(findings.game.model).state}
    for name, highest in sorted(game.observed_state(report).items()):
        entry = entries.get(name)
        if entry is None or not entry.track or entry.track not in kit.tracks:
            continue
        product, track = kit.tracks[entry.track]
        numbers = [v for v in track.values() if isinstance(v, int)]
        if numbers and highest > max(numbers) and not track.beyond:
            findings.error(
                track.where,
                f"track {track.id!r} on {product.id!r} stops at {max(numbers)}, but simulated "
                f"games reached {name} {highest}: lengthen it or print a rule for beyond "
                "(beyond:)",
            )
