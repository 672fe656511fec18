"""Opening and finishing PDFs: deterministic, fonts embedded, never half-written."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas

# ASCII85 inflates every stream by a quarter for no gain in a binary-safe PDF.
rl_config.useA85 = 0


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[Path]:
    """A temporary path next to `path`, renamed over it only if the block succeeds."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{path.stem}-", suffix=path.suffix, dir=path.parent
    )
    os.close(handle)
    try:
        yield Path(temporary)
        # mkstemp makes the file private; a kit is for sharing, so honour the umask instead.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def new_canvas(path: Path, page_size: tuple[float, float], *, title: str, font: str) -> Canvas:
    """A canvas whose output is byte-identical for identical drawing (invariant=1).

    Its initial font is the embedded CJK face, so no unembedded Helvetica sneaks in.
    """
    canvas = Canvas(
        str(path),
        pagesize=page_size,
        invariant=1,
        pageCompression=1,
        initialFontName=font,
    )
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setCreator("pnp")
    canvas.setSubject(title)
    return canvas
