"""Reading a rulebook PDF back as a player's copy-paste would."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pdfplumber

from tests.pdfcheck import pdf_texts


def page_texts(path: Path) -> list[str]:
    """The extracted text of every page, in order."""
    return pdf_texts(path)


def laid_out_texts(path: Path, indices: Sequence[int]) -> list[str]:
    """The text of the pages at ``indices`` (negative from the end) in pdfplumber's reading
    order (top to bottom, left to right), for a comparison with a crop of a page that
    pdfplumber reads the same way; slow on big pages, so only the pages asked for."""
    with pdfplumber.open(path) as pdf:
        return [pdf.pages[index].extract_text() or "" for index in indices]


def flat(text: str) -> str:
    """Text without whitespace: Chinese lines may wrap anywhere."""
    return re.sub(r"\s+", "", text)


def book_text(path: Path) -> str:
    """The whole book as one whitespace-free string."""
    return flat("".join(page_texts(path)))
