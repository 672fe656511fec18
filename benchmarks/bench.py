"""Where pnp stands against the goals of issue 17, every row measured in this one run.

    python3 tasks.py bench              # or: .venv/bin/python benchmarks/bench.py [--runs N]
    python3 tasks.py bench --quick      # one run of each, shorter engine runs: a first look

Each row prints what was measured, the goal and the ratio to it (1.00 or less meets it):
time (wall; CPU beside it, which is what the wall time is on an idle machine) and memory
are measured on what a user runs — a fresh `pnp build` process, rulebooks
included — and medians of `--runs` runs. The bare-reportlab baseline draws the same cards
(the same shapes, images and text at the same places) with nothing but reportlab calls.
RLCard's UNO engine, the yardstick for the rules engines, is installed for the benchmark
only (into the user's cache, never into the project's environment); without network it
falls back to the figure measured when issue 17 was written, and says so. The same yardstick
reads the machine's speed before each section that times something, and every time row is
printed also as it would read on the machine the goals were set on (UNO 104k steps/s): a
rough reading (a short UNO run on a shared machine varies by 10-20 %), beside the verdict,
which is the time as measured.

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent
CONTENT = REPOSITORY / "content"
TEMPLATES = REPOSITORY / "templates"
PYTHON = sys.executable
UNO_FALLBACK_STEPS = 104_000.0
"""RLCard UNO steps/s on the 2-core CI machine when issue 17 was filed (used only when
RLCard cannot be installed here)."""
UNO_AT_GOALS = 104_000.0
"""RLCard UNO steps/s on the machine whose figures issue 17's goals were set against. A
machine of the same kind has run it at 54k to 140k steps/s on other days: a time goal is
read here both as measured and scaled to that speed (see `Calibration`)."""
CALIBRATION_SECONDS = 2.0
DISTINCT_CARDS = 540


# ---------------------------------------------------------------- measuring processes


@dataclass(frozen=True)
class Run:
    seconds: float
    cpu: float  # user + system seconds: on a shared machine, what the work itself cost
    peak_mb: float
    code: int
    stdout: str
    stderr: str


# Linux counts, in a child's peak memory, the memory of the process it was forked from (the
# peak of the forked copy is kept across exec): a child of this process, which holds the
# in-process benchmarks' data, would report at least this process's peak. A small launcher
# starts the command instead and reports the command's own peak and CPU.
_LAUNCHER = """
import json, os, subprocess, sys, time
started = time.perf_counter()
process = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(process.pid, 0)
seconds = time.perf_counter() - started
with open(sys.argv[1], "w") as report:
    cpu = usage.ru_utime + usage.ru_stime
    json.dump({"seconds": seconds, "peak_kb": usage.ru_maxrss, "cpu": cpu}, report)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_process(args: Sequence[str], env: dict[str, str] | None = None) -> Run:
    """Run a command to its end: its wall time, CPU and peak resident memory (from wait4,
    measured by a launcher around the command alone: see _LAUNCHER)."""
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.TemporaryDirectory() as folder,
    ):
        usage_file = Path(folder, "usage.json")
        process = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, str(usage_file), *args],
            stdout=out,
            stderr=err,
            cwd=REPOSITORY,
            env={**os.environ, **(env or {})},
        )
        code = process.wait()
        out.seek(0)
        err.seek(0)
        usage = json.loads(usage_file.read_text())
        peak_mb = usage["peak_kb"] / 1024  # kilobytes on Linux
        return Run(
            usage["seconds"], usage["cpu"], peak_mb, code, out.read().decode(), err.read().decode()
        )


def pnp(*args: str, env: dict[str, str] | None = None, ok: tuple[int, ...] = (0,)) -> Run:
    run = run_process([PYTHON, "-m", "pnp", "--content", str(CONTENT), *args], env)
    if run.code not in ok:
        raise SystemExit(f"bench: pnp {' '.join(args)} failed ({run.code}):\n{run.stderr}")
    return run


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


# ------------------------------------------------------------------------ the table


@dataclass(frozen=True)
class Calibration:
    """How fast this machine runs Python now against the machine the goals were set on, by
    the same yardstick the engine rows use: RLCard's UNO engine, steps per CPU second.
    Seconds measured here times `factor` are the seconds that machine would have taken."""

    uno: float

    @property
    def factor(self) -> float:
        return self.uno / UNO_AT_GOALS


_CALIBRATION: list[Calibration] = []
"""The readings of this run, the latest last: a section that times something reads the
machine's speed right before it (a shared machine's speed moves by tens of per cent within
minutes), and its rows are scaled by that reading."""


def calibrate(seconds: float) -> Calibration | None:
    uno, source = uno_steps_per_second(seconds)
    return None if "this run" not in source else Calibration(uno)


def recalibrate(seconds: float = 1.0) -> None:
    """Read the machine's speed again for the rows that follow (when a first reading
    showed RLCard runs here)."""
    if _CALIBRATION:
        found = calibrate(seconds)
        if found is not None:
            _CALIBRATION.append(found)


@dataclass(frozen=True)
class Row:
    what: str
    measured: float
    goal: float
    unit: str
    higher_is_better: bool = False
    note: str = ""
    calibration: Calibration | None = dataclasses.field(
        default_factory=lambda: _CALIBRATION[-1] if _CALIBRATION else None
    )
    """The machine's speed read just before this row was measured."""

    @property
    def ratio(self) -> float:
        """Measured against the goal, 1.00 or less when it is met, whichever way is better."""
        if self.higher_is_better:
            return self.goal / self.measured if self.measured else float("inf")
        return self.measured / self.goal

    @property
    def scaled(self) -> float | None:
        """A time as the goals' machine would have measured it (None: not a time, or no
        calibration)."""
        if self.unit != "s" or self.calibration is None:
            return None
        return self.measured * self.calibration.factor

    @property
    def scaled_ratio(self) -> float:
        scaled = self.scaled
        return self.ratio if scaled is None else scaled / self.goal

    def line(self) -> str:
        sign = "≥" if self.higher_is_better else "≤"
        verdict = "met" if self.ratio <= 1.0 else "NOT met"
        text = (
            f"{self.what:<52} {self.measured:>10.2f} {self.unit:<7} goal {sign} "
            f"{self.goal:g} {self.unit:<7} ratio {self.ratio:5.2f}  {verdict}"
        )
        notes = [self.note] if self.note else []
        if self.scaled is not None:
            at = "met" if self.scaled_ratio <= 1.0 else "NOT met"
            assert self.calibration is not None
            notes.append(
                f"at the goals' machine speed: {self.scaled:.2f} s, ratio "
                f"{self.scaled_ratio:.2f}, {at} (UNO {self.calibration.uno:,.0f} steps/s just "
                "before)"
            )
        return "".join([text, *(f"\n{'':<54}{note}" for note in notes)])


def show(row: Row, rows: list[Row]) -> None:
    rows.append(row)
    print(row.line(), flush=True)


# --------------------------------------------------------------------------- builds


def bench_builds(runs: int, rows: list[Row], work: Path) -> None:
    fresh = [pnp("build", "--out", str(work / f"build-{number}")) for number in range(runs)]
    kept = work / "build-0"
    noop = [pnp("build", "--out", str(kept)) for _ in range(runs)]
    sizes = sorted(kept.rglob("*.pdf"))
    show(
        Row(
            "pnp build, all five kits with rulebooks (fresh)",
            median([r.seconds for r in fresh]),
            3.0,
            "s",
            note=f"median of {runs} fresh processes, {_cpu(fresh)}; {len(sizes)} PDFs, "
            f"{sum(p.stat().st_size for p in sizes) / 1024:,.0f} KiB",
        ),
        rows,
    )
    show(
        Row(
            "pnp build again, nothing changed",
            median([r.seconds for r in noop]),
            0.3,
            "s",
            note=_cpu(noop),
        ),
        rows,
    )


def _cpu(runs: Sequence[Run]) -> str:
    return f"CPU {median([r.cpu for r in runs]):.2f} s"


def bench_fonts(rows: list[Row], work: Path) -> None:
    cache = work / "empty-font-cache"
    cache.mkdir()
    parses = work / "empty-parse-cache"  # a fresh machine has parsed nothing either
    run = pnp(
        "build",
        "deadline-99",
        "--out",
        str(work / "fonts"),
        env={"PNP_FONT_CACHE": str(cache), "PNP_PARSE_CACHE": str(parses)},
    )
    said = "font" in (run.stdout + run.stderr).lower()
    show(
        Row(
            "first build on a fresh machine (Deadline 99)",
            run.seconds,
            3.0,
            "s",
            note=f"empty PNP_FONT_CACHE and PNP_PARSE_CACHE, {_cpu([run])}; "
            + ("says it prepares the font" if said else "SILENT about preparing the font"),
        ),
        rows,
    )


# -------------------------------------------------------------- sheets vs reportlab


def _card_products(game: Any) -> list[Any]:
    from pnp.model.common import ProductKind

    return [p for p in game.model.products if p.kind is ProductKind.CARDS]


def _grid(product: Any) -> Any:
    from pnp.kit import paper_size
    from pnp.layout.sheets import plan_card_grid
    from pnp.layout.sizes import item_size
    from pnp.units import mm

    width, height = item_size(product)
    slot_w, slot_h = (height, width) if width > height else (width, height)
    page_w, page_h = paper_size("a4")
    return plan_card_grid(slot_w, slot_h, bleed=mm(3), page_width=page_w, page_height=page_h)


def pnp_card_sheets(game: Any, products: list[Any], out: Path, fonts: Any) -> None:
    """What `pnp build` does for card products: lay the faces out, render the sheets."""
    from pnp.layout import products as laid_out
    from pnp.layout import template
    from pnp.layout.products import layout_product
    from pnp.render import text
    from pnp.render.cards import CardRun, CardSheetOptions, render_card_sheets
    from pnp.render.draw import DrawReport
    from pnp.units import mm

    # Lay out and wrap as a build does once, not from this process's memos of earlier runs
    # (compiled templates are kept: a build compiles each once too).
    for memo in (
        getattr(template, "_FACES", None),
        getattr(template, "_SHAPES", None),
        getattr(template, "_LENGTHS", None),
        getattr(laid_out, "_RECENT", None),
    ):
        if memo is not None:
            memo.clear()
    text.fit_paragraph.cache_clear()
    getattr(text, "_CHAR_WIDTHS", {}).clear()
    for product in products:
        laid = layout_product(game, product, TEMPLATES, mm(3))
        render_card_sheets(
            out / f"pnp-{product.id}.pdf",
            [CardRun(f, b, c) for f, b, c in laid.runs],
            _grid(product),
            title=product.title,
            fonts=fonts,
            options=CardSheetOptions(),
            report=DrawReport(),
            content_root=game.folder,
        )


def bare_reportlab_sheets(
    game: Any, cards: list[tuple[Any, Any, int]], grid: Any, path: Path, fonts: Any
) -> None:
    """The same cards drawn with reportlab alone, as a script would: every copy drawn in its
    slot with the canvas's own calls (shapes, images, one-line text as strings, longer text
    as a reportlab paragraph at its size), crop marks, backs mirrored on the next page."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Paragraph

    from pnp.layout import primitives as shapes
    from pnp.layout.sheets import Flip

    canvas = Canvas(
        str(path),
        pagesize=(grid.page_width, grid.page_height),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.regular,
    )

    def style(s: Any) -> tuple[int, int]:
        if s.fill:
            canvas.setFillColor(HexColor(s.fill))
        if s.stroke:
            canvas.setStrokeColor(HexColor(s.stroke))
            canvas.setLineWidth(s.stroke_width)
        return (1 if s.stroke else 0), (1 if s.fill else 0)

    def draw(face: Any) -> None:
        for shape in face.shapes:
            if isinstance(shape, shapes.TextShape):
                font = fonts.bold if shape.font == "bold" else fonts.regular
                if "\n" not in shape.text and len(shape.text) < 12:
                    canvas.setFont(font, shape.size)
                    canvas.setFillColor(HexColor(shape.color))
                    canvas.drawString(shape.x, shape.y + shape.height - shape.size, shape.text)
                else:
                    paragraph = Paragraph(
                        shape.text.replace("\n", "<br/>"),
                        ParagraphStyle(
                            "t",
                            fontName=font,
                            fontSize=shape.size,
                            leading=shape.size * shape.leading,
                            wordWrap="CJK",
                        ),
                    )
                    _, height = paragraph.wrap(shape.width, shape.height)
                    paragraph.drawOn(canvas, shape.x, shape.y + shape.height - height)
            elif isinstance(shape, shapes.RectShape):
                stroke, fill = style(shape.style)
                if shape.radius:
                    canvas.roundRect(
                        shape.x, shape.y, shape.width, shape.height, shape.radius, stroke, fill
                    )
                else:
                    canvas.rect(shape.x, shape.y, shape.width, shape.height, stroke, fill)
            elif isinstance(shape, shapes.LineShape):
                style(shape.style)
                canvas.line(shape.x1, shape.y1, shape.x2, shape.y2)
            elif isinstance(shape, shapes.CircleShape):
                stroke, fill = style(shape.style)
                canvas.circle(shape.cx, shape.cy, shape.r, stroke, fill)
            elif isinstance(shape, shapes.PolygonShape):
                stroke, fill = style(shape.style)
                p = canvas.beginPath()
                p.moveTo(*shape.points[0])
                for point in shape.points[1:]:
                    p.lineTo(*point)
                p.close()
                canvas.drawPath(p, stroke=stroke, fill=fill)
            elif isinstance(shape, shapes.ImageShape):
                canvas.drawImage(
                    str(game.folder / shape.path),
                    shape.x,
                    shape.y,
                    shape.width,
                    shape.height,
                    mask="auto",
                    preserveAspectRatio=True,
                    anchor="c",
                )

    def place(face: Any, slot: Any, clockwise: bool) -> None:
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(slot.cell.x, slot.cell.y, slot.cell.width, slot.cell.height)
        canvas.clipPath(clip, stroke=0, fill=0)
        canvas.translate(slot.trim.x, slot.trim.y)
        if abs(face.width - slot.trim.width) > 0.01:
            canvas.rotate(-90 if clockwise else 90)
            canvas.translate(*((-slot.trim.height, 0) if clockwise else (0, -slot.trim.width)))
        draw(face)
        canvas.restoreState()

    def marks() -> None:
        canvas.setLineWidth(0.3)
        for mark in grid.crop_marks():
            canvas.line(mark.x1, mark.y1, mark.x2, mark.y2)

    copies = [(front, back) for front, back, count in cards for _ in range(count)]
    for start in range(0, len(copies), grid.per_page):
        chunk = copies[start : start + grid.per_page]
        for index, (front, _) in enumerate(chunk):
            place(front, grid.front(index), False)
        marks()
        canvas.showPage()
        if any(back for _, back in chunk):
            for index, (_, back) in enumerate(chunk):
                if back is not None:
                    place(back, grid.back(index, Flip.LONG_EDGE), True)
            marks()
            canvas.showPage()
    canvas.save()


def bench_sheets(runs: int, rows: list[Row], work: Path, slugs: list[str]) -> None:
    from pnp.content.loader import load_game
    from pnp.layout.products import layout_product
    from pnp.render.fonts import prepare_cjk_fonts
    from pnp.units import mm

    ratios: list[tuple[float, str]] = []
    for slug in slugs:
        game = load_game(CONTENT, slug)
        products = _card_products(game)
        if not products:
            continue
        laid = [layout_product(game, p, TEMPLATES, mm(3)) for p in products]
        fonts = prepare_cjk_fonts("".join(_texts(laid)) + game.model.info.title)
        pnp_card_sheets(game, products, work, fonts)  # warm: templates compiled, imports done

        def bare(game: Any = game, laid: list[Any] = laid, fonts: Any = fonts) -> None:
            for item in laid:
                bare_reportlab_sheets(
                    game, item.runs, _grid(item.product), work / "bare.pdf", fonts
                )

        def ours_once(game: Any = game, products: list[Any] = products, fonts: Any = fonts) -> None:
            pnp_card_sheets(game, products, work, fonts)

        # Each pnp run is paired with a baseline run right after it, and the ratio is the
        # median of the pairs' ratios: a machine whose speed drifts over seconds (a shared
        # VM) moves both sides of a pair alike, where blocks of runs would each catch it.
        pairs = [(_timed(ours_once), _timed(bare)) for _ in range(runs)]
        ours = median([a for a, _ in pairs])
        baseline = median([b for _, b in pairs])
        ratio = median([a / b for a, b in pairs])
        ratios.append((ratio, f"{slug} {ours:.2f}/{baseline:.2f} s"))
    worst = max(ratios)
    show(
        Row(
            "card sheets against bare reportlab (worst game)",
            worst[0],
            1.5,
            "x",
            note="pnp layout+render / reportlab alone, median of paired runs: "
            + ", ".join(f"{text} = {ratio:.2f}x" for ratio, text in ratios),
        ),
        rows,
    )


def _texts(laid: list[Any]) -> list[str]:
    from pnp.layout.products import text_of

    return [text_of(laid)]


def _timed(action: Callable[[], object]) -> float:
    """CPU seconds of `action` in this process: the wall time it takes on an idle machine,
    not inflated when others share the cores (work in this process is single-threaded)."""
    started = time.process_time()
    action()
    return time.process_time() - started


# ------------------------------------------------------------------ distinct cards


def distinct_cards_game(count: int = DISTINCT_CARDS) -> Any:
    """Deadline 99 with `count` distinct playing cards: its ranks repeated under new names
    (a rank in four suits is four cards), so every face differs from every other."""
    from pnp.content.loader import load_game

    game = load_game(CONTENT, "deadline-99")
    model = game.model
    suits = len(model.suits)
    ranks = [
        dataclasses.replace(rank, id=f"{rank.id}-{n}", name=f"{rank.name}{n}")
        for n in range(count // suits // len(model.ranks) + 1)
        for rank in model.ranks
    ][: count // suits]
    game = dataclasses.replace(game, model=dataclasses.replace(model, ranks=tuple(ranks)))
    assert len(game.model.playing_cards) == count, len(game.model.playing_cards)
    return game


def child_main(task: str, out: Path) -> None:
    """Run inside a fresh process, so the parent measures its peak memory alone."""
    game = distinct_cards_game()
    product = next(p for p in game.model.products if p.id == "playing-cards")
    if task == "sheets":
        from pnp.layout.products import layout_product, text_of
        from pnp.render.fonts import prepare_cjk_fonts
        from pnp.units import mm

        fonts = prepare_cjk_fonts(
            text_of([layout_product(game, product, TEMPLATES, mm(3))]) + game.model.info.title
        )
        seconds = _timed(lambda: pnp_card_sheets(game, [product], out, fonts))
    else:
        from pnp.export.png import export_png
        from pnp.export.profiles import profile_named

        # Wall time here: the export's worker processes do the work, which this process's
        # CPU time would not count (their CPU is reported beside it).
        started, children = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = _timed(
            lambda: export_png(
                game, out, TEMPLATES, profile_named("default"), products=[product.id]
            )
        )
        seconds = time.perf_counter() - started
        done = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu += done.ru_utime + done.ru_stime - children.ru_utime - children.ru_stime
        print(json.dumps({"seconds": seconds, "cpu": cpu}))
        return
    print(json.dumps({"seconds": seconds}))


def bench_distinct(runs: int, rows: list[Row], work: Path, png: bool) -> None:
    task = "png" if png else "sheets"
    results = []
    cpu = 0.0
    for number in range(runs if not png else 1):
        out = work / f"{task}-{number}"
        out.mkdir()
        run = run_process([PYTHON, __file__, "--child", task, str(out)])
        if run.code:
            raise SystemExit(f"bench: {task} of {DISTINCT_CARDS} cards failed:\n{run.stderr}")
        found = json.loads(run.stdout.strip().splitlines()[-1])
        results.append((found["seconds"], run.peak_mb))
        cpu = float(found.get("cpu", found["seconds"]))
    seconds = median([s for s, _ in results])
    peak = max(p for _, p in results)
    if png:
        show(
            Row(
                f"pnp export --format png, {DISTINCT_CARDS} distinct cards, peak",
                peak,
                200,
                "MB",
                note=f"{seconds:.1f} s (CPU {cpu:.1f} s, its workers too) for "
                f"{DISTINCT_CARDS + 1} images at 300 dpi",
            ),
            rows,
        )
        return
    show(Row(f"{DISTINCT_CARDS} distinct cards, layout + sheets", seconds, 0.5, "s"), rows)
    show(Row(f"{DISTINCT_CARDS} distinct cards, peak memory", peak, 150, "MB"), rows)


# ------------------------------------------------------------------------ validate


def bench_validate(runs: int, rows: list[Row]) -> None:
    # Exit 1 is content the validator finds wrong: still a full validation to time.
    found = [pnp("validate", ok=(0, 1)) for _ in range(runs)]
    show(
        Row(
            "pnp validate, all five games with simulations",
            median([r.seconds for r in found]),
            10.0,
            "s",
            note=f"median of {runs} fresh processes, {_cpu(found)}",
        ),
        rows,
    )


# ------------------------------------------------------------------------- engines


UNO_SCRIPT = """
import json, random, sys, time
import numpy as np
from rlcard.games.uno.game import UnoGame
game = UnoGame(num_players=2)
game.np_random = np.random.RandomState(1)
rng = random.Random(1)
steps = 0
budget = float(sys.argv[1])
started = time.process_time()
while time.process_time() - started < budget:
    game.init_game()
    while not game.is_over():
        game.step(rng.choice(game.get_legal_actions()))
        steps += 1
print(json.dumps({"steps_per_second": steps / (time.process_time() - started)}))
"""


def rlcard_path() -> Path | None:
    """RLCard installed for the benchmark only, into the user's cache; None if it can't be."""
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    target = base / "pnp" / "bench" / "rlcard"
    if (target / "rlcard").is_dir():
        return target
    print("bench: installing rlcard (benchmark only) into " + str(target), flush=True)
    result = subprocess.run(
        [
            PYTHON,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--target",
            str(target),
            "rlcard",
        ],
        capture_output=True,
        text=True,
    )
    return target if result.returncode == 0 and (target / "rlcard").is_dir() else None


def uno_steps_per_second(seconds: float) -> tuple[float, str]:
    path = rlcard_path()
    if path is None:
        return UNO_FALLBACK_STEPS, "RLCard could not be installed: UNO figure from issue 17"
    run = run_process([PYTHON, "-c", UNO_SCRIPT, str(seconds)], env={"PYTHONPATH": str(path)})
    if run.code:
        return UNO_FALLBACK_STEPS, f"RLCard failed ({run.stderr.strip()[-80:]}): issue 17 figure"
    measured = json.loads(run.stdout.strip().splitlines()[-1])["steps_per_second"]
    return float(measured), "RLCard UnoGame, 2 players, random legal actions, CPU time, this run"


def engine_tables() -> list[tuple[str, Any]]:
    """Every table of every game with an engine: (game and table name, its rules)."""
    from pnp import registry
    from pnp.content.loader import load_game

    found = []
    for game in registry.with_engine():
        if game.tables is None:
            continue
        model = load_game(CONTENT, game.slug).model
        found += [(f"{game.slug} {name}", rules) for name, rules in game.tables(model)]
    return found


def engine_steps_per_second(rules: Any, seconds: float) -> float:
    from pnp.engines.base import RandomPolicy, play_game

    rng = random.Random(1)
    policies = [RandomPolicy()] * rules.num_players
    steps = 0
    started = time.process_time()  # CPU seconds, like the UNO run: fair under load
    while time.process_time() - started < seconds:
        record = play_game(rules, policies, random.Random(rng.getrandbits(63)), 10**6)
        steps += record.steps
    return steps / (time.process_time() - started)


def bench_engines(seconds: float, rows: list[Row]) -> None:
    # Each engine runs between two UNO runs and is compared with their mean: a shared
    # machine's speed moves by tens of per cent within the minute the section takes, and a
    # single UNO figure for all of them read that drift as the engines' speed.
    uno, source = uno_steps_per_second(seconds / 2)
    print(f"    UNO {uno:,.0f} steps/s to start ({source})")
    for name, rules in engine_tables():
        steps = engine_steps_per_second(rules, seconds)
        after, _ = uno_steps_per_second(seconds / 2)
        around = (uno + after) / 2
        show(
            Row(
                f"engine {name} against UNO",
                steps / around,
                1.0,
                "x",
                higher_is_better=True,
                note=f"{steps:,.0f} steps/s, random policy; UNO {around:,.0f} around it",
            ),
            rows,
        )
        uno = after


# ------------------------------------------------------------- play at scale (issue 14)

DUELS = {
    # game: (table, games) — enough games for the strong player's edge to show at 95 %.
    "deadline-99": ("normal-3p", 400),
    "dragon-hoard": ("3p", 40),
    # One seat of a side of two: a smaller edge than at 2p, about 65 % vs 53 %, which 100 games
    # show at p = 0.04 to 0.08 depending on the search's settings and 200 at p = 0.01.
    "arena-tales": ("4p", 200),
    "maquis": ("normal", 150),
    "mineventure": ("3p-map-24", 24),
}
"""The head-to-head each game's note reports: the strong player in one seat, the sensible
policy in the others, paired with all-sensible games on the same seeds."""


def bench_play(rows: list[Row], duels: bool) -> None:
    from pnp import registry
    from pnp.content.loader import load_game
    from pnp.validate.play import game_tables, head_to_head, play_many

    for game in registry.with_engine():
        if "sensible" not in game.policies or game.slug not in DUELS:
            continue
        model = load_game(CONTENT, game.slug).model
        name, count = DUELS[game.slug]
        table = next(t for t in game_tables(game, model) if t.name == name)
        seats = ["sensible"] * table.rules.num_players
        # Warm up (caches the policies fill), then about two seconds of games a run.
        started = time.perf_counter()
        play_many(game, table, seats, 8, 7, workers=1)
        games = max(48, int(2 * 8 / (time.perf_counter() - started)))
        # One process, two, two, one (ABBA): a drift in the machine's speed over the runs
        # weighs on both sides alike.
        rates: dict[int, list[float]] = {1: [], 2: []}
        for workers in (1, 2, 2, 1):
            started = time.perf_counter()
            play_many(game, table, seats, games, 11, workers=workers)
            rates[workers].append(games / (time.perf_counter() - started))
        one, two = statistics.fmean(rates[1]), statistics.fmean(rates[2])
        show(
            Row(
                f"play {game.slug} {name}, 2 processes against 1",
                two / one,
                1.6,
                "x",
                higher_is_better=True,
                note=f"sensible policy, {games} games: {one:,.1f} games/s with 1 process, "
                f"{two:,.1f} with 2 (same results, tested; runs in the order 1, 2, 2, 1)",
            ),
            rows,
        )
        if not duels:
            continue
        started = time.perf_counter()
        duel = head_to_head(game, table, count, 1)
        seconds = time.perf_counter() - started
        show(
            Row(
                f"strong vs sensible {game.slug} {name}, sign test p",
                duel.p_value,
                0.05,
                "",
                note=f"{duel} ({count} games, {2 * count / seconds:.2f} games/s on every core)",
            ),
            rows,
        )


STRONG_GAMES = 3
"""Strong games a table the strong row plays (seeds 1-3): the median is the table's figure."""


def bench_strong(rows: list[Row]) -> None:
    """CPU seconds of one game of the strong player in every seat, on each table a strong
    balance run plays it on (issue 32: at most 2 s a game), in this process: the slowest
    table's median is the row, every table in its note."""
    from pnp import registry
    from pnp.content.loader import load_game
    from pnp.validate.play import game_tables, play_seed, strong_plan

    figures: list[tuple[float, str]] = []
    for game in registry.with_engine():
        model = load_game(CONTENT, game.slug).model
        tables = game_tables(game, model)
        balance = getattr(model, "balance", None)
        if balance is not None:
            plan, _ = strong_plan(balance, "strong", [table.name for table in tables])
            tables = [table for table in tables if plan[table.name] == "strong"]
        for table in tables:
            seats = ["strong"] * table.rules.num_players
            spent = []
            for seed in range(1, STRONG_GAMES + 1):
                started = time.process_time()
                play_seed(game, table, seats, seed)
                spent.append(time.process_time() - started)
            figures.append((median(spent), f"{game.slug} {table.name}"))
    slowest, where = max(figures)
    show(
        Row(
            f"strong game, CPU (slowest: {where})",
            slowest,
            2.0,
            "s",
            note=f"median of {STRONG_GAMES} games a table, every seat strong: "
            + ", ".join(f"{name} {seconds:.2f}" for seconds, name in figures),
        ),
        rows,
    )


RAY_GAMES = ("arena-tales", "4p", 240)
"""The batch the Ray rows play: a table of sensible games (a second or so of CPU per hundred)."""


def bench_ray(rows: list[Row]) -> None:
    """Games/s of one batch on a local Ray with 1 and 2 worker CPUs (issue 32): what a cluster
    estimate scales from. Skipped, with a line saying so, where Ray is not installed."""
    try:
        import ray
    except ImportError:
        print("    ray: not installed (python3 tasks.py ray installs it): rows skipped", flush=True)
        return
    from pnp import registry
    from pnp.content.loader import load_game
    from pnp.validate.play import game_tables, play_many

    slug, name, games = RAY_GAMES
    game = registry.find_game(slug)
    assert game is not None
    model = load_game(CONTENT, slug).model
    table = next(t for t in game_tables(game, model) if t.name == name)
    seats = ["sensible"] * table.rules.num_players
    rates: dict[int, float] = {}
    play_many(game, table, seats, 8, 9, workers=1)  # the policies' caches filled
    started = time.perf_counter()
    local = play_many(game, table, seats, games, 5, workers=1)
    alone = games / (time.perf_counter() - started)
    for cpus in (1, 2):
        ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        try:
            play_many(game, table, seats, 8, 9, use_ray=True)  # workers started and warm
            started = time.perf_counter()
            played = play_many(game, table, seats, games, 5, use_ray=True)
            rates[cpus] = games / (time.perf_counter() - started)
        finally:
            ray.shutdown()
        assert [one.winners for one in played] == [one.winners for one in local]
        show(
            Row(
                f"ray {slug} {name}, {cpus} worker{'s' if cpus > 1 else ''}",
                rates[cpus],
                alone * cpus * 0.8,
                "games/s",
                higher_is_better=True,
                note=f"sensible policy, {games} games on a local Ray with {cpus} CPU(s) "
                f"(same games as the local pool, checked); goal: 80 % of {cpus} x the "
                f"{alone:,.1f} games/s of one local process",
            ),
            rows,
        )


# -------------------------------------------------------------------------- the web table


@contextlib.contextmanager
def _table_served(server: Any) -> Iterator[str]:
    """``server`` (a pnp.play TableServer) on a free loopback port in a thread of its own."""
    import asyncio
    import threading

    from aiohttp import web

    loop = asyncio.new_event_loop()
    ready = threading.Event()
    found: dict[str, Any] = {}

    async def start() -> None:
        runner = web.AppRunner(server.app(), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        found.update(runner=runner, port=runner.addresses[0][1])
        ready.set()

    thread = threading.Thread(target=lambda: (loop.run_until_complete(start()), loop.run_forever()))
    thread.start()
    ready.wait(60)
    try:
        yield f"http://127.0.0.1:{found['port']}"
    finally:
        asyncio.run_coroutine_threadsafe(found["runner"].cleanup(), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(60)
        loop.close()


def _table_server(
    slug: str, seats: tuple[str, ...], faces: Any, table_name: str = "", seed: int = 3
) -> Any:
    from pnp import registry
    from pnp.content.loader import load_game
    from pnp.play.server import Access, TableServer
    from pnp.play.session import Seats, Session
    from pnp.validate.play import game_tables, make_policy

    game = registry.game_for(slug)
    tables = game_tables(game, load_game(CONTENT, slug).model)
    table = next(
        (
            t
            for t in tables
            if t.name == table_name or (not table_name and t.rules.num_players == len(seats))
        ),
        tables[0],
    )
    policies = {s: make_policy(game, n) for s, n in enumerate(seats) if n != "human"}
    session = Session(game, table, Seats(seats), seed, policies=policies)
    humans = session.seats.humans()
    accesses = {
        f"seat{s}": Access(f"seat{s}", frozenset({s}), local=len(humans) == 1) for s in humans
    }
    return TableServer(session, faces, accesses, ai_delay=0.0)


def bench_table(rows: list[Row]) -> None:
    """Issue 31: a move's round trip, the strong player's move, a table's first page load."""
    import asyncio

    from aiohttp import ClientSession

    from pnp import registry
    from pnp.content.loader import load_game
    from pnp.play.faces import FaceStore
    from pnp.validate.play import game_tables, make_policy

    stores = {
        slug: FaceStore(load_game(CONTENT, slug), REPOSITORY / "templates")
        for slug in ("deadline-99", "maquis", "dragon-hoard", "arena-tales", "mineventure")
    }

    # A move's round trip: two human seats of Deadline 99 take turns through their links, game
    # after game until 120 moves are timed (one game is some twenty: its p95 was its maximum).
    trips: list[float] = []
    games = 0

    async def moves(base: str, server: Any) -> None:
        async with ClientSession() as client:
            while len(trips) < 120:
                for _ in range(500):
                    seat = server.table.to_act()
                    if server.table.over or seat in (0, 1):
                        break
                    await asyncio.sleep(0.002)
                if server.table.over:
                    break
                token = f"seat{seat}"
                async with client.get(f"{base}/api/{token}/state") as response:
                    data = await response.json()
                started = time.perf_counter()
                async with client.post(
                    f"{base}/api/{token}/act",
                    json={
                        "seat": seat,
                        "version": data["version"],
                        "action": data["moves"][0]["action"],
                    },
                ) as response:
                    await response.read()
                trips.append(time.perf_counter() - started)

    while len(trips) < 120 and games < 40:
        server = _table_server(
            "deadline-99", ("human", "human", "sensible"), stores["deadline-99"], seed=3 + games
        )
        with _table_served(server) as base:
            asyncio.run(moves(base, server))
        games += 1
    p95 = statistics.quantiles(trips, n=20)[-1]
    show(
        Row(
            "table: a move's round trip on localhost, p95",
            p95,
            0.05,
            "s",
            note=f"{len(trips)} moves in {games} games of Deadline 99 through seat links "
            "(POST to answer), "
            f"median {statistics.median(trips) * 1e3:.1f} ms",
        ),
        rows,
    )

    # The strong player's move: decisions spread over a random game of each game's first table.
    medians: dict[str, float] = {}
    for game in registry.with_engine():
        table = game_tables(game, load_game(CONTENT, game.slug).model)[0]
        rules = table.rules
        strong = make_policy(game, "strong")
        rng = random.Random(5)
        state = rules.initial_state(rng)
        times: list[float] = []
        step = 0
        while not rules.is_terminal(state) and len(times) < 5 and step < 4000:
            if rules.is_chance(state):
                action = rules.sample_chance(state, rng)
            else:
                actions = rules.legal_actions(state)
                if step % 7 == 0 and len(actions) > 1:
                    started = time.perf_counter()
                    strong.choose(rules, state, random.Random(step))
                    times.append(time.perf_counter() - started)
                action = actions[int(rng.random() * len(actions))]
            state = rules.apply(state, action)
            step += 1
        medians[game.slug] = statistics.median(times) if times else 0.0
    slowest = max(medians, key=lambda slug: medians[slug])
    show(
        Row(
            "table: the strong player's move (slowest game, median)",
            medians[slowest],
            2.0,
            "s",
            note=", ".join(f"{s} {t:.2f} s" for s, t in sorted(medians.items())),
        ),
        rows,
    )

    # First page load with the faces made (the cache warm): until every image has loaded.
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("    table: first page load skipped (Playwright is not installed)")
        return
    if not Path("/usr/bin/chromium").exists():
        print("    table: first page load skipped (Debian's chromium is not installed)")
        return
    loads: dict[str, float] = {}
    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        for slug, store in stores.items():
            store.warm(store.refs())
            players = 1 if slug == "maquis" else (2 if slug == "arena-tales" else 3)
            seats = ("human",) + ("sensible",) * (players - 1)
            with _table_served(_table_server(slug, seats, store)) as base:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                started = time.perf_counter()
                page.goto(f"{base}/t/seat0")
                page.wait_for_function(
                    "document.querySelectorAll('#table img').length > 0 && "
                    "[...document.images].every(i => i.complete)",
                    timeout=30_000,
                )
                loads[slug] = time.perf_counter() - started
                page.close()
        browser.close()
    slowest = max(loads, key=lambda slug: loads[slug])
    show(
        Row(
            "table: first page load, faces made (slowest game)",
            loads[slowest],
            1.0,
            "s",
            note=", ".join(f"{s} {t:.2f} s" for s, t in sorted(loads.items())),
        ),
        rows,
    )


# -------------------------------------------------------------------------- export


def bench_export(runs: int, rows: list[Row], work: Path, slugs: list[str]) -> None:
    # Each game's row is the median of `runs` fresh exports, as every other time row: the
    # slowest of five single runs read the machine's worst moment as the slowest game.
    fresh: dict[str, list[Run]] = {slug: [] for slug in slugs}
    for number in range(runs):
        for slug in slugs:
            out = work / "export" / f"{slug}-{number}"
            fresh[slug].append(pnp("export", slug, "--format", "png", "--out", str(out)))
    first = {slug: _median_run(found) for slug, found in fresh.items()}
    slowest = max(first, key=lambda s: first[s].seconds)
    hungriest = max(slugs, key=lambda s: max(r.peak_mb for r in fresh[s]))
    detail = ", ".join(
        f"{s} {r.seconds:.2f} s (CPU {r.cpu:.1f}) {r.peak_mb:.0f} MB" for s, r in first.items()
    )
    show(
        Row(
            f"pnp export GAME --format png (slowest: {slowest})",
            first[slowest].seconds,
            1.0,
            "s",
            note=f"median of {runs} fresh processes a game: {detail}",
        ),
        rows,
    )
    show(
        Row(
            f"pnp export GAME --format png, peak ({hungriest})",
            max(r.peak_mb for r in fresh[hungriest]),
            200,
            "MB",
        ),
        rows,
    )
    again = {
        slug: _median_run(
            [
                pnp("export", slug, "--format", "png", "--out", str(work / "export" / f"{slug}-0"))
                for _ in range(runs)
            ]
        )
        for slug in slugs
    }
    slowest = max(again, key=lambda s: again[s].seconds)
    show(
        Row(
            f"pnp export GAME --format png again, nothing changed (slowest: {slowest})",
            again[slowest].seconds,
            1.0,
            "s",
            note=", ".join(f"{s} {r.seconds:.2f} s" for s, r in again.items()),
        ),
        rows,
    )


def _median_run(found: list[Run]) -> Run:
    """The run of median wall time (the lower middle one of an even count)."""
    ordered = sorted(found, key=lambda run: run.seconds)
    return ordered[(len(ordered) - 1) // 2]


# ---------------------------------------------------------------------------- main


# ------------------------------------------------------------------- the edit–look loop

EDIT_GAME, EDIT_PRODUCT, EDIT_FILE = "mineventure", "equipment-cards", "cards.yaml"


def bench_one_card_edit(runs: int, rows: list[Row], work: Path) -> None:
    """A designer's loop: one card's name changes, and the card's sheet is rebuilt. Timed
    from a fresh process to the moment the product's PDF is replaced (what --watch shows
    first), and the whole incremental build beside it."""
    import shutil

    tree = work / "edit"
    shutil.copytree(CONTENT, tree / "content")
    shutil.copytree(REPOSITORY / "templates", tree / "templates")
    content, out = tree / "content", tree / "out"
    command = [
        PYTHON,
        "-m",
        "pnp",
        "--content",
        str(content),
        "build",
        EDIT_GAME,
        "--out",
        str(out),
    ]
    run_process(command)
    target = out / EDIT_GAME / f"{EDIT_GAME}-{EDIT_PRODUCT}.pdf"
    cards = content / EDIT_GAME / EDIT_FILE
    to_pdf: list[float] = []
    whole: list[float] = []
    for number in range(runs):
        old, new = ("钻石剑", "钻石长剑") if number % 2 == 0 else ("钻石长剑", "钻石剑")
        text = cards.read_text(encoding="utf-8")
        cards.write_text(text.replace(f"name: {old}", f"name: {new}", 1), encoding="utf-8")
        before = target.stat().st_mtime_ns
        started = time.perf_counter()
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=REPOSITORY
        )
        seen = None
        while process.poll() is None:
            if seen is None and target.stat().st_mtime_ns != before:
                seen = time.perf_counter() - started
            time.sleep(0.01)
        ended = time.perf_counter() - started
        to_pdf.append(seen if seen is not None else ended)
        whole.append(ended)
    show(
        Row(
            "one-card edit in MineVenture: its sheet rebuilt",
            median(to_pdf),
            1.5,
            "s",
            note=f"fresh process to the new {EDIT_PRODUCT} PDF; the whole incremental build "
            f"(cover and rulebook too) {median(whole):.2f} s",
        ),
        rows,
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5, help="runs per median (default 5)")
    parser.add_argument("--quick", action="store_true", help="one run each, short engine runs")
    parser.add_argument(
        "--duels",
        action="store_true",
        help="also play the strong player against the sensible policy (issue 14; minutes)",
    )
    parser.add_argument("--only", metavar="SECTIONS", help="comma-separated sections to run")
    parser.add_argument("--child", nargs=2, metavar=("TASK", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPOSITORY))  # this checkout's pnp, whatever is installed
    if args.child:
        child_main(args.child[0], Path(args.child[1]))
        return 0
    runs = 1 if args.quick else max(1, args.runs)
    engine_seconds = 0.5 if args.quick else 3.0
    from pnp.paths import discover_games

    slugs = discover_games(CONTENT)
    rows: list[Row] = []
    print(
        f"== goals of issues 14 and 17 ({runs} run(s) per median; "
        "ratio = measured/goal, ≤ 1 meets it)"
    )
    sections: dict[str, Callable[[Path], None]] = {
        "builds": lambda work: bench_builds(runs, rows, work),
        "fonts": lambda work: bench_fonts(rows, work),
        "edit": lambda work: bench_one_card_edit(runs, rows, work),
        "sheets": lambda work: bench_sheets(runs, rows, work, slugs),
        "distinct": lambda work: bench_distinct(runs, rows, work, png=False),
        "validate": lambda work: bench_validate(runs, rows),
        "play": lambda work: bench_play(rows, args.duels),
        "strong": lambda work: bench_strong(rows),
        "engines": lambda work: bench_engines(engine_seconds, rows),
        "export": lambda work: bench_export(runs, rows, work, slugs),
        "png": lambda work: bench_distinct(1, rows, work, png=True),
        "table": lambda work: bench_table(rows),
        "ray": lambda work: bench_ray(rows),
    }
    timed = {"builds", "fonts", "edit", "distinct", "validate", "strong", "export"}
    chosen = args.only.split(",") if args.only else list(sections)
    unknown = [name for name in chosen if name not in sections]
    if unknown:
        parser.error(f"--only: no section {', '.join(unknown)} (sections: {', '.join(sections)})")
    calibration_seconds = 0.5 if args.quick else CALIBRATION_SECONDS
    start = calibrate(calibration_seconds)
    if start is None:
        print("    machine speed: unknown (RLCard could not run here); times are read as measured")
    else:
        _CALIBRATION.append(start)
        print(
            f"    machine speed: RLCard UNO {start.uno:,.0f} steps/s now, "
            f"{UNO_AT_GOALS:,.0f} where the goals were set; each time row is also read at "
            "that speed, by a reading taken just before it"
        )
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as folder:
        work = Path(folder)
        for number, name in enumerate(chosen):
            if name in timed and number:
                recalibrate(calibration_seconds / 2)
            sections[name](work)
    met = sum(1 for row in rows if row.ratio <= 1.0)
    print(f"== {met} of {len(rows)} rows meet their goal on this machine")
    if start is not None:
        met_scaled = sum(1 for row in rows if row.scaled_ratio <= 1.0)
        speeds = [c.uno for c in _CALIBRATION]
        print(
            f"== {met_scaled} of {len(rows)} at the speed the goals were set at (each time row "
            f"scaled by the UNO reading before it: {min(speeds):,.0f} to {max(speeds):,.0f} "
            f"steps/s in this run, {UNO_AT_GOALS:,.0f} there)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
