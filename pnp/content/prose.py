"""Prose in content (decisions, notes, rulebook text) may name model values as `{{ game.x }}`
instead of retyping a number, so the printed text can never disagree with the content.

Prose is untrusted input: it renders in the content sandbox (pnp.content.sandbox), and every
failure, an unknown name or an attempt to reach Python alike, is a TemplateError that starts
with where the prose was written.
"""

from __future__ import annotations

import re
from typing import Any

import jinja2

from pnp.content.expressions import text_renderer
from pnp.content.sandbox import ENVIRONMENT
from pnp.errors import TemplateError


def render_prose(text: str, context: dict[str, Any], where: object = "") -> str:
    """`text` with its jinja evaluated against `context`; plain text is returned unchanged."""
    if "{{" not in text and "{%" not in text:
        return text
    try:
        return text_renderer(text, ENVIRONMENT)(context)
    except Exception as error:
        located = located_error(error, where)
        if located is None:
            raise
        raise located from None


def located_error(error: Exception, where: object) -> TemplateError | None:
    """What evaluating content's jinja at `where` raised, as the TemplateError a user reads
    (None for anything else: a bug of pnp's, which must not pass for a content mistake)."""
    if isinstance(error, jinja2.TemplateSyntaxError):
        return TemplateError(f"{where}: jinja syntax error: {error.message}")
    if isinstance(error, jinja2.TemplateError):
        return TemplateError(f"{where}: {error}")
    if isinstance(error, TypeError | ValueError | AttributeError | KeyError | ZeroDivisionError):
        return TemplateError(f"{where}: {type(error).__name__}: {error}")
    return None


_CJK = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
_SPACE_BETWEEN_CJK = re.compile(f"(?<=[{_CJK}])[ \t]+(?=[{_CJK}])")


def join_cjk(text: str) -> str:
    """`text` without the spaces YAML's folding left between Chinese characters: a reader
    sees them as gaps, and a line breaker breaks there and may start a line with 「。」."""
    return _SPACE_BETWEEN_CJK.sub("", text)
