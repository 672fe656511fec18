"""Reading a rulebook PDF back as a player's copy-paste would."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber

from tests.pdfcheck import pdf_texts


def page_texts(path: Path) -> list[str]:
    """The extracted text of every page, in order."""
    return pdf_texts(path)


def laid_out_texts(path: Path) -> list[str]:
    """Every page's text in pdfplumber's reading order (top to bottom, left to right), for a
    comparison with a crop of a page that pdfplumber reads the same way; slow on big pages."""
    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def flat(text: str) -> str:
    """Text without whitespace: Chinese lines may wrap anywhere."""
    return re.sub(r"\s+", "", text)


def book_text(path: Path) -> str:
    """The whole book as one whitespace-free string."""
    return flat("".join(page_texts(path)))
