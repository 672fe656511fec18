"""reportlab's link pattern compiled on first use: the same matches, and nothing else
changed about compiling."""

from __future__ import annotations

import re

from reportlab.platypus import paragraph

from pnp.render import deferred
from pnp.render.deferred import link_pattern_deferred


def test_reportlabs_link_pattern_is_the_one_deferred() -> None:
    # A reportlab whose pattern changed would compile it at import again: say so here.
    assert paragraph.uri_pat.pattern.startswith(deferred._LINK_PATTERN_START)


def test_a_deferred_pattern_matches_as_the_compiled_one() -> None:
    source = paragraph.uri_pat.pattern
    compile_now = re.compile
    with link_pattern_deferred():
        later = re.compile(source, re.I)
        other = re.compile(r"\d+")
    assert re.compile is compile_now
    assert isinstance(later, deferred._CompiledOnUse)
    assert isinstance(other, re.Pattern)
    now = re.compile(source, re.I)
    for uri in ("https://例子.cn/路径?q=1", "http://10.0.0.1:8080/", "ftp://x", "mailto:a@b", ""):
        assert bool(later.match(uri)) == bool(now.match(uri))
