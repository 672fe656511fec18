"""The duplex calibration page: every kit has one, its scales sit where the front's lines
cross them whichever edge the sheet flips on, and nothing on it is in the printer's margin."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pypdf
import pytest

from pnp.layout.sheets import PRINTER_MARGIN
from pnp.render.calibration import SCALE_GAP, render_calibration
from pnp.render.fonts import prepare_cjk_fonts
from pnp.units import PAPER_SIZES_MM, mm


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_scales_zero_lies_on_the_fronts_lines_and_all_is_printable(
    paper: str, tmp_path: Path
) -> None:
    size = (mm(PAPER_SIZES_MM[paper][0]), mm(PAPER_SIZES_MM[paper][1]))
    path = tmp_path / "calibration.pdf"
    assert render_calibration(path, page_size=size, fonts=prepare_cjk_fonts(), title="t") == 2
    with pdfplumber.open(path) as pdf:
        front, back = pdf.pages
        assert (float(front.width), float(front.height)) == pytest.approx(size)
        cx, cy = size[0] / 2, size[1] / 2
        verticals = [line for line in front.lines if line["x0"] == pytest.approx(line["x1"])]
        horizontals = [line for line in front.lines if line["top"] == pytest.approx(line["bottom"])]
        assert [line["x0"] for line in verticals] == pytest.approx([cx])
        assert [size[1] - line["top"] for line in horizontals] == pytest.approx([cy])
        # The back's zero ticks: the longest tick of each scale, through the same centre, so a
        # long-edge flip (x mirrored) and a short-edge flip (y mirrored) both keep it.
        ticks = [
            line
            for line in back.lines
            if line["x0"] == pytest.approx(line["x1"]) and line["bottom"] - line["top"] < mm(5)
        ]
        zero = max(ticks, key=lambda line: line["bottom"] - line["top"])
        assert zero["x0"] == pytest.approx(cx)
        assert size[1] - zero["bottom"] == pytest.approx(cy + SCALE_GAP)
        for page in (front, back):
            for thing in [*page.lines, *page.chars]:
                assert thing["x0"] >= PRINTER_MARGIN and thing["x1"] <= size[0] - PRINTER_MARGIN
                assert thing["top"] >= PRINTER_MARGIN
                assert thing["bottom"] <= size[1] - PRINTER_MARGIN
        text = back.extract_text()
    assert "背面图像偏移" in text  # the player is told where in a print dialog to set it
    assert "--" not in text


def test_the_page_keeps_inside_a_wider_printer_margin(tmp_path: Path) -> None:
    size = (mm(PAPER_SIZES_MM["a4"][0]), mm(PAPER_SIZES_MM["a4"][1]))
    margin = mm(20)
    path = tmp_path / "calibration.pdf"
    render_calibration(
        path, page_size=size, fonts=prepare_cjk_fonts(), title="t", margin=margin, flip_long=False
    )
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            things = [*page.lines, *page.chars]
            assert min(t["x0"] for t in things) >= margin
            assert max(t["x1"] for t in things) <= size[0] - margin
            assert min(t["top"] for t in things) >= margin
            assert max(t["bottom"] for t in things) <= size[1] - margin
            # The text moved in with the margin, not merely clipped by it.
            assert min(c["x0"] for c in page.chars) == pytest.approx(margin + mm(10), abs=1)
        # The front's lines still reach past the back's scales.
        verticals = [line for line in pdf.pages[0].lines if line["x0"] == pytest.approx(line["x1"])]
        assert all(size[1] - line["top"] - size[1] / 2 > SCALE_GAP + mm(5) for line in verticals)
        # Printed with the cards' settings: a kit built to flip on the short edge says so.
        assert "短边翻转" in pdf.pages[0].extract_text().replace("\n", "")


def test_a_built_kit_has_its_calibration_page_named_in_the_read_me(kit_a4: Path) -> None:
    calibration = kit_a4 / "deadline-99-01-duplex-calibration.pdf"
    assert len(pypdf.PdfReader(calibration).pages) == 2
    readme = "".join(
        page.extract_text()
        for page in pypdf.PdfReader(kit_a4 / "deadline-99-00-read-me-first.pdf").pages
    )
    assert calibration.name in readme.replace("\n", "")
    assert "--back-offset" not in readme
