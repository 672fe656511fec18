"""Where content, templates and output live when no option says otherwise."""

from __future__ import annotations

import os
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent


def default_content_root() -> Path:
    """$PNP_CONTENT, else ./content, else the repository's content/ beside the package."""
    if os.environ.get("PNP_CONTENT"):
        return Path(os.environ["PNP_CONTENT"])
    local = Path.cwd() / "content"
    return local if local.is_dir() else REPOSITORY / "content"


def templates_root_for(content_root: Path) -> Path:
    """A content tree's own templates/ beside it if it has one, else the repository's."""
    sibling = content_root.resolve().parent / "templates"
    return sibling if sibling.is_dir() else REPOSITORY / "templates"


def default_output_root() -> Path:
    local = Path.cwd() / "output"
    return local if (Path.cwd() / "content").is_dir() else REPOSITORY / "output"
