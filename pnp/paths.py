"""Where content, templates and output live when no option says otherwise."""

from __future__ import annotations

import os
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent


def is_checkout() -> bool:
    """Whether pnp runs from its own source tree (its content/ and templates/ beside the
    package), not from an installed copy in site-packages."""
    return (REPOSITORY / "pyproject.toml").is_file() and (REPOSITORY / "content").is_dir()


def default_content_root() -> Path:
    """$PNP_CONTENT, else ./content, else the repository's content/ when pnp runs from its
    source tree, else ./content (an installed pnp works in the designer's folder)."""
    if os.environ.get("PNP_CONTENT"):
        return Path(os.environ["PNP_CONTENT"])
    local = Path.cwd() / "content"
    return REPOSITORY / "content" if not local.is_dir() and is_checkout() else local


def templates_root_for(content_root: Path) -> Path:
    """A content tree's own templates/ beside it if it has one, else (from pnp's source tree)
    the repository's; an installed pnp never looks into site-packages."""
    sibling = content_root.resolve().parent / "templates"
    if sibling.is_dir() or not is_checkout():
        return sibling
    return REPOSITORY / "templates"


def default_output_root() -> Path:
    local = Path.cwd() / "output"
    if (Path.cwd() / "content").is_dir() or not is_checkout():
        return local
    return REPOSITORY / "output"


def discover_games(content_root: Path) -> list[str]:
    """Slugs of the game folders in a content tree, in a stable order."""
    if not content_root.is_dir():
        return []
    return sorted(
        entry.name
        for entry in content_root.iterdir()
        if entry.is_dir() and not entry.name.startswith((".", "_"))
    )


def content_size(content_root: Path, slug: str) -> int:
    """Bytes of a game's content folder: a rough, cheap guess of how much work its kit and its
    validation are, so commands running games side by side can start the dearest first."""
    folder = content_root / slug
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
