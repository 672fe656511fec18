"""Figures for the notes: kit build time, PDF sizes, a bare-reportlab baseline, simulation speed.

    python3 tasks.py bench            # or: .venv/bin/python benchmarks/bench.py [--runs N]

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pnp.content.loader import LoadedGame, discover_games, load_game
from pnp.engines.base import RandomPolicy, play_game
from pnp.kit import BuildOptions, build_kit, paper_size
from pnp.layout.products import layout_product
from pnp.paths import REPOSITORY

CONTENT = REPOSITORY / "content"
TEMPLATES = REPOSITORY / "templates"


def median_seconds(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def bare_reportlab_playing_cards(game: LoadedGame, path: Path) -> None:
    """The same 96 cards, backs, crop marks and text, drawn with reportlab and nothing else."""
    from reportlab.lib.colors import HexColor
    from reportlab.pdfgen.canvas import Canvas

    from pnp.render.fonts import prepare_cjk_fonts
    from pnp.units import mm

    fonts = prepare_cjk_fonts()
    model = game.model
    width, height, bleed = mm(63), mm(88), mm(3)
    page_w, page_h = paper_size("a4")
    x0, y0, gutter_y = mm(10.5), mm(10.5), mm(6)
    canvas = Canvas(
        str(path), pagesize=(page_w, page_h), invariant=1, initialFontName=fonts.regular
    )
    cards = [card for card in model.playing_cards for _ in range(card.copies)]

    def slots(mirror: bool) -> list[tuple[float, float]]:
        spots = []
        for row in range(3):
            for column in range(3):
                x = x0 + column * width
                if mirror:
                    x = page_w - x - width
                spots.append((x, page_h - y0 - (row + 1) * height - row * gutter_y))
        return spots

    def marks() -> None:
        canvas.setLineWidth(0.3)
        for column in range(4):
            x = x0 + column * width
            canvas.line(x, mm(1), x, y0 - mm(4))
            canvas.line(x, page_h - y0 + mm(4), x, page_h - mm(1))

    for start in range(0, len(cards), 9):
        for (x, y), card in zip(slots(False), cards[start : start + 9], strict=False):
            red = card.suit.colour.value == "red"
            canvas.setFillColor(HexColor("#fbf6ea"))
            canvas.rect(x - bleed, y - bleed, width + 2 * bleed, height + 2 * bleed, 0, 1)
            canvas.setStrokeColor(HexColor("#c0262d" if red else "#1d1d1f"))
            canvas.roundRect(x + mm(3), y + mm(3), mm(57), mm(82), mm(2.5), 1, 0)
            canvas.circle(x + width / 2, y + mm(56), mm(15), 1, 0)
            canvas.setFillColor(HexColor("#1d1d1f"))
            canvas.setFont(fonts.bold, 17)
            canvas.drawString(x + mm(6), y + height - mm(11), card.rank.label)
            canvas.setFont(fonts.bold, 40)
            canvas.drawCentredString(x + width / 2, y + mm(51), card.rank.label)
            canvas.setFont(fonts.bold, 15)
            canvas.drawCentredString(x + width / 2, y + mm(32), card.rank.name)
            canvas.setFont(fonts.regular, 9)
            canvas.drawCentredString(x + width / 2, y + mm(22), card.rank.name)
        marks()
        canvas.showPage()
        for x, y in slots(True)[: len(cards[start : start + 9])]:
            canvas.setFillColor(HexColor("#22223a"))
            canvas.rect(x - bleed, y - bleed, width + 2 * bleed, height + 2 * bleed, 0, 1)
            canvas.setFillColor(HexColor("#b8862b"))
            canvas.setFont(fonts.bold, 30)
            canvas.drawCentredString(x + width / 2, y + height / 2, "99")
        marks()
        canvas.showPage()
    canvas.save()


def bench_kits(runs: int) -> None:
    print("== kits")
    slugs = discover_games(CONTENT)
    for slug in slugs:
        game = load_game(CONTENT, slug)
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder)
            build_kit(game, out, TEMPLATES, BuildOptions())  # warm: fonts cached, imports done
            seconds = median_seconds(
                lambda g=game, o=out: build_kit(g, o, TEMPLATES, BuildOptions()), runs
            )
            sizes = {p.name: p.stat().st_size for p in sorted(out.glob("*.pdf"))}
            print(
                f"{slug}: kit build median {seconds:.3f} s over {runs} runs "
                f"({1 / seconds:.2f} kits/s), {sum(sizes.values()) / 1024:.0f} KiB in "
                f"{len(sizes)} PDFs"
            )
            for name, size in sizes.items():
                print(f"    {name:<44} {size / 1024:8.1f} KiB")
    print(
        f"all games: load + build every kit median "
        f"{median_seconds(lambda: _build_all(slugs), max(1, runs // 2)):.3f} s"
    )


def _build_all(slugs: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for slug in slugs:
            build_kit(load_game(CONTENT, slug), Path(folder) / slug, TEMPLATES, BuildOptions())


def bench_baseline(runs: int) -> None:
    print("== pnp against bare reportlab (Deadline 99 playing cards, 96 cards + backs)")
    from pnp.layout.sheets import plan_card_grid
    from pnp.render.cards import CardRun, CardSheetOptions, render_card_sheets
    from pnp.render.draw import DrawReport
    from pnp.render.fonts import prepare_cjk_fonts
    from pnp.units import mm

    game = load_game(CONTENT, "deadline-99")
    product = next(p for p in game.model.products if p.id == "playing-cards")
    fonts = prepare_cjk_fonts()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)

        def pnp_sheets() -> None:
            laid = layout_product(game, product, TEMPLATES, mm(3))
            page_w, page_h = paper_size("a4")
            grid = plan_card_grid(
                mm(63), mm(88), bleed=mm(3), page_width=page_w, page_height=page_h
            )
            render_card_sheets(
                out / "pnp.pdf",
                [CardRun(f, b, c) for f, b, c in laid.runs],
                grid,
                title="bench",
                fonts=fonts,
                options=CardSheetOptions(),
                report=DrawReport(),
            )

        baseline = median_seconds(
            lambda: bare_reportlab_playing_cards(game, out / "bare.pdf"), runs
        )
        ours = median_seconds(pnp_sheets, runs)
        print(
            f"bare reportlab {baseline:.3f} s ({(out / 'bare.pdf').stat().st_size / 1024:.0f}"
            f" KiB); pnp layout+render {ours:.3f} s "
            f"({(out / 'pnp.pdf').stat().st_size / 1024:.0f} KiB); ratio {ours / baseline:.2f}"
        )


def bench_simulation(games: int) -> None:
    print("== simulated play")
    from pnp import registry

    for game in registry.with_engine():
        if game.tables is None:
            continue
        slug = game.slug
        model = load_game(CONTENT, slug).model
        tables = game.tables
        for name, rules in tables(model):
            rng = random.Random(1)
            policies = [RandomPolicy()] * rules.num_players
            steps = 0
            started = time.perf_counter()
            for _ in range(games):
                record = play_game(rules, policies, random.Random(rng.getrandbits(63)), 10**6)
                steps += record.steps
            seconds = time.perf_counter() - started
            print(
                f"{slug} {name}: {games / seconds:,.0f} games/s, {steps / seconds:,.0f} "
                f"steps/s (random policy, {games} games)"
            )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args(argv)
    bench_kits(args.runs)
    bench_baseline(args.runs)
    bench_simulation(args.games)


if __name__ == "__main__":
    main(sys.argv[1:])
