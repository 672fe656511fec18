"""reportlab's paragraph module without the 27 ms its link pattern takes to compile.

``reportlab.platypus.paragraph`` compiles, when imported, a URL validator taken from Django
(``uri_pat``) that only an ``<a href>`` in a paragraph uses, and pnp never writes one. Its
compile was a tenth of starting a process that draws (every export worker, every build): the
pattern is compiled on first use instead. Any other pattern compiles as it always does, and
a reportlab whose pattern reads differently simply compiles it at import again.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

_LINK_PATTERN_START = "(^(?:[a-z0-9\\.\\-\\+]*)://)"


class _CompiledOnUse:
    """A pattern that compiles the first time it is used."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(*self._source)
        return getattr(self._compiled, name)


@contextlib.contextmanager
def link_pattern_deferred() -> Iterator[None]:
    """Import reportlab's paragraph module inside this block to defer its link pattern (a
    no-op when it is already imported)."""
    compile_now = re.compile

    def compile_or_defer(pattern: Any, flags: Any = 0) -> Any:
        if isinstance(pattern, str) and pattern.startswith(_LINK_PATTERN_START):
            return _CompiledOnUse(pattern, flags)
        return compile_now(pattern, flags)

    re.compile = compile_or_defer
    try:
        yield
    finally:
        re.compile = compile_now
