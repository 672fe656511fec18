"""Validate's typesetting checks: the read-me (on A4 and on Letter) and the rulebook's
reading edition laid out as a build sets them, each checked for what a reader notices — a
heading left at the foot of its page, a line that starts with closing punctuation or ends
with opening punctuation (pnp.render.typeset).

Validate's own, not the gate's: the build sets these documents for real and reports the
same findings as warnings. Nothing is drawn here: the rulebook is only laid out, and the
read-me, a page or two of text, is set from the file list the build would write.
"""

from __future__ import annotations

from pathlib import Path

from pnp.errors import Location
from pnp.units import mm
from pnp.validate.checks import Findings
from pnp.validate.preflight import PAPERS


def check_typesetting(
    findings: Findings, templates_root: Path, *, margin: float, remembered: bool = True
) -> None:
    """The typesetting checks of a game whose static checks passed. A clean result is
    remembered as the gate's verdicts are (pnp.validate.verdicts: keyed on the snapshot's
    bytes, pnp's code and the margin, sealed): unchanged content is not set again, and
    content with findings is set every time. `remembered` off always sets it."""
    from pnp.validate.verdicts import passed_before, remember_passed, verdict_key

    game = findings.game
    key = None
    if remembered and game.sources is not None:
        key = verdict_key(f"typesetting\0{margin!r}\0{game.digest}")
        if passed_before(key):
            return
    before = len(findings.problems)
    _check_typesetting(findings, templates_root, margin)
    if key is not None and len(findings.problems) == before:
        remember_passed(key)


def _check_typesetting(findings: Findings, templates_root: Path, margin: float) -> None:
    from pnp.kit import calibration_name, paper_size
    from pnp.layout.products import text_of
    from pnp.options import BuildOptions
    from pnp.render.cover import typeset_cover
    from pnp.render.fonts import prepare_cjk_fonts
    from pnp.render.typeset import typeset_findings
    from pnp.rulebook.build import reading_name, readme_entries

    game, model = findings.game, findings.game.model
    fonts = prepare_cjk_fonts(text_of(findings.laid_out) + model.info.title)
    readme = f"{game.slug}-00-read-me-first.pdf"
    for paper in PAPERS:
        options = BuildOptions(paper=paper, printer_margin_mm=margin / mm(1))
        _, blocks = typeset_cover(
            model,
            readme_entries(game, findings.laid_out, options),
            paper=paper_size(paper),
            paper_name=paper,
            bleed_mm=options.bleed_mm,
            fonts=fonts,
            calibration=calibration_name(game.slug),
            draw=False,
        )
        label = "Letter" if paper == "letter" else paper.upper()
        for _, message in typeset_findings(f"{readme} ({label})", blocks):
            findings.error(None, message)
    rulebook = getattr(model, "rulebook", None)
    if rulebook is None:
        return
    from pnp.rulebook.pdf import typeset_reading_edition
    from pnp.rulebook.text import walk_sections

    sections: dict[str, Location] = {}
    for section, _ in walk_sections(rulebook.sections):
        sections.setdefault(section.title, section.where)
    for heading, message in typeset_findings(
        reading_name(game.slug), typeset_reading_edition(game, templates_root)
    ):
        findings.error(_section_of(heading, sections) or rulebook.where, message)


def _section_of(heading: str, sections: dict[str, Location]) -> Location | None:
    """The section a typeset heading sets (its title, as written, within the heading)."""
    for title, where in sections.items():
        if title and title in heading:
            return where
    return None
