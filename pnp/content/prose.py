"""Prose in content (decisions, notes, rulebook text) may name model values as `{{ game.x }}`
instead of retyping a number, so the printed text can never disagree with the content.

Prose is untrusted input: it renders in the content sandbox (pnp.content.sandbox), and every
failure, an unknown name or an attempt to reach Python alike, is a TemplateError that starts
with where the prose was written.
"""

from __future__ import annotations

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
    except jinja2.TemplateSyntaxError as error:
        raise TemplateError(f"{where}: jinja syntax error: {error.message}") from None
    except jinja2.TemplateError as error:
        raise TemplateError(f"{where}: {error}") from None
    except (TypeError, ValueError, AttributeError, KeyError, ZeroDivisionError) as error:
        raise TemplateError(f"{where}: {type(error).__name__}: {error}") from None
