"""Prose in content (decisions, notes, rulebook text) may name model values as `{{ game.x }}`
instead of retyping a number, so the printed text can never disagree with the content."""

from __future__ import annotations

from typing import Any

import jinja2

from pnp.errors import TemplateError

_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)
_CACHE: dict[str, jinja2.Template] = {}


def render_prose(text: str, context: dict[str, Any], where: object = "") -> str:
    """`text` with its jinja evaluated against `context`; plain text is returned unchanged."""
    if "{{" not in text and "{%" not in text:
        return text
    template = _CACHE.get(text)
    try:
        if template is None:
            template = _CACHE[text] = _ENV.from_string(text)
        return template.render(context)
    except jinja2.TemplateError as error:
        raise TemplateError(f"{where}: {error}") from None
