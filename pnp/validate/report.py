"""`pnp simulate GAME --report`: a balance run as a page a designer looks at.

One self-contained HTML file with inline SVG charts (no script, no server, opens from disk):
win rate by seat with 95 % intervals against the fair share, a heat map of each seat factor's
matchups (row against column), the spread of each factor, game lengths as a histogram, and
the difficulty ladder. The same games give the same bytes.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from pnp.engines.stats import Rate
from pnp.model.common import Balance
from pnp.output import atomic_output
from pnp.validate.play import BalanceRun, HeadToHead, Played, matchups

BAR_WIDTH = 420
ROW = 18
LABEL = 150


def _escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def rate_bars(rows: Sequence[tuple[str, Rate]], fair: float | None = None) -> str:
    """Horizontal bars of rates on a 0–100 % axis, each with its interval as a whisker."""
    height = ROW * len(rows) + 24
    width = LABEL + BAR_WIDTH + 140
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">']
    for index, (label, rate) in enumerate(rows):
        y = 4 + index * ROW
        low, high = rate.interval
        parts.append(
            f'<text x="{LABEL - 6}" y="{y + 12}" text-anchor="end">{_escape(label)}</text>'
            f'<rect x="{LABEL}" y="{y + 3}" width="{rate.value * BAR_WIDTH:.1f}" height="10" '
            f'fill="#6c8ebf"/>'
            f'<line x1="{LABEL + low * BAR_WIDTH:.1f}" x2="{LABEL + high * BAR_WIDTH:.1f}" '
            f'y1="{y + 8}" y2="{y + 8}" stroke="#222" stroke-width="1.5"/>'
            f'<text x="{LABEL + BAR_WIDTH + 6}" y="{y + 12}">{_escape(rate)}</text>'
        )
    if fair is not None:
        x = LABEL + fair * BAR_WIDTH
        parts.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="0" y2="{height - 20}" stroke="#c33" '
            f'stroke-dasharray="4 3"/><text x="{x:.1f}" y="{height - 6}" text-anchor="middle" '
            f'fill="#c33">fair {fair:.0%}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def heat_map(cells: dict[tuple[str, str], Rate]) -> str:
    """Win rate of the row's label against the column's, shaded from red (0) to blue (1)."""
    labels = sorted({a for a, _ in cells} | {b for _, b in cells})
    size = 34
    left = LABEL
    top = 90
    width = left + size * len(labels) + 10
    height = top + size * len(labels) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">']
    for column, label in enumerate(labels):
        x = left + column * size + size / 2
        parts.append(
            f'<text transform="translate({x:.1f},{top - 6}) rotate(-60)">{_escape(label)}</text>'
        )
    for row, mine in enumerate(labels):
        y = top + row * size
        parts.append(f'<text x="{left - 6}" y="{y + size / 2 + 4:.1f}" text-anchor="end">')
        parts.append(f"{_escape(mine)}</text>")
        for column, theirs in enumerate(labels):
            rate = cells.get((mine, theirs))
            x = left + column * size
            if rate is None or not rate.trials:
                colour, text = "#eee", ""
            else:
                red = int(200 * (1 - rate.value) + 40)
                blue = int(200 * rate.value + 40)
                colour, text = f"rgb({red},90,{blue})", f"{rate.value:.0%}"
            title = f"{mine} vs {theirs}: {rate}" if rate is not None else ""
            parts.append(
                f'<rect x="{x}" y="{y}" width="{size - 2}" height="{size - 2}" fill="{colour}">'
                f"<title>{_escape(title)}</title></rect>"
                f'<text x="{x + size / 2 - 1:.1f}" y="{y + size / 2 + 3:.1f}" '
                f'text-anchor="middle" fill="#fff" font-size="10">{text}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def histogram(values: Sequence[int], *, bins: int = 20) -> str:
    """Counts of game lengths in ``bins`` equal bins."""
    if not values:
        return "<p>no finished games</p>"
    low, high = min(values), max(values)
    span = max(1, high - low + 1)
    step = max(1, -(-span // bins))
    counts = Counter((value - low) // step for value in values)
    tallest = max(counts.values())
    bar = 22
    height = 140
    width = bar * (max(counts) + 1) + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 30}">']
    for index in range(max(counts) + 1):
        count = counts.get(index, 0)
        tall = height * count / tallest
        x = 10 + index * bar
        start = low + index * step
        parts.append(
            f'<rect x="{x}" y="{height - tall:.1f}" width="{bar - 2}" height="{tall:.1f}" '
            f'fill="#82b366"><title>{start}–{start + step - 1}: {count}</title></rect>'
        )
        if index % 4 == 0:
            parts.append(f'<text x="{x}" y="{height + 14}" font-size="10">{start}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _won(played: Sequence[Played]) -> Rate:
    return Rate(sum(bool(one.winners) for one in played), len(played))


def render_report(
    title: str,
    run: BalanceRun,
    balance: Balance | None,
    duels: Sequence[HeadToHead] = (),
) -> str:
    """The whole page."""
    out = [
        "<!doctype html>",
        '<html lang="zh-Hans"><head><meta charset="utf-8">',
        f"<title>{_escape(title)}</title>",
        "<style>body{font-family:sans-serif;max-width:980px;margin:2em auto;color:#222}"
        "svg text{font-size:12px;font-family:sans-serif}h2{border-bottom:1px solid #ccc}"
        "table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #eee}"
        "</style></head><body>",
        f"<h1>{_escape(title)}</h1>",
        f"<p>Policy <b>{_escape(run.policy)}</b> in every seat, seed {run.seed}; "
        "every rate with its 95 % Wilson interval (shared among its looks where a table was "
        "judged after 25, 50, ... games and stopped once decided).</p>",
    ]
    if run.policies:
        others = ", ".join(f"{table} ({policy})" for table, policy in run.policies.items())
        out.append(f"<p>Played with the policy the promises are made for: {_escape(others)}.</p>")
    if duels:
        out.append("<h2>Strong player against the sensible policy</h2><ul>")
        out += [f"<li>{_escape(duel)}</li>" for duel in duels]
        out.append("</ul>")
    if balance is not None and balance.ladder is not None:
        steps = [(name, _won(run.runs[name])) for name in balance.ladder.tables if name in run.runs]
        out.append("<h2>Difficulty ladder</h2>")
        out.append(rate_bars(steps))
    out.append("<h2>Win rate by table</h2>")
    out.append(rate_bars([(name, _won(played)) for name, played in run.runs.items()]))
    for table, played in run.runs.items():
        players = run.players[table]
        out.append(f"<h2>{_escape(table)}</h2>")
        if players > 1:
            out.append("<h3>By seat</h3>")
            seats = run.judged_rates(table, "seat")
            out.append(rate_bars(list(seats.items()), fair=1 / players))
        for factor in run.factors:
            if factor == "seat":
                continue
            rates = run.judged_rates(table, factor)
            if len(rates) < 2:
                continue
            fair = 1 / players if players > 1 else _won(played).value
            out.append(f"<h3>By {_escape(factor)}</h3>")
            out.append(rate_bars(list(rates.items()), fair=fair))
            cells = matchups(played, factor)
            if cells:
                out.append(f"<h3>{_escape(factor)}: row against column</h3>")
                out.append(heat_map(cells))
        out.append("<h3>Game length (turns)</h3>")
        out.append(histogram([one.turns for one in played if not one.capped]))
        capped = [one for one in played if one.capped]
        if capped:
            out.append(
                f"<p><b>{len(capped)} games hit the cap</b>, first seed {capped[0].seed}: "
                f"<code>{_escape(capped[0].capped_at)}</code></p>"
            )
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_report(path: Path, page: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_output(path) as temporary:
        temporary.write_text(page, encoding="utf-8")
    return path
