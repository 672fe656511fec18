"""Template expressions as Python closures: the same value as jinja in the sandbox, for every
construct the closures handle, and jinja's own answer (or error) for everything else."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from pnp.content import expressions, prose
from pnp.content.expressions import compile_expression, compile_text
from pnp.content.sandbox import ContentEnvironment, SandboxError
from pnp.errors import TemplateError
from pnp.layout import template as template_module
from pnp.layout.primitives import TextShape
from pnp.layout.template import Template, layout_face, load_template
from pnp.units import mm

ENVIRONMENT = ContentEnvironment()


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Lair:
    columns: int
    rows: int
    title: str
    colour: Colour
    _secret: int = 0

    def cells(self, extra: int = 0) -> tuple[tuple[int, int], ...]:
        return tuple((c, r) for r in range(self.rows) for c in range(self.columns + extra))

    @property
    def area(self) -> int:
        return self.columns * self.rows


SCOPE: dict[str, Any] = {
    "lair": Lair(13, 11, "龙穴", Colour.RED),
    "n": 27,
    "cell": 3.0,
    "body": ((1, 2), (2, 2)),
    "names": ["甲", "乙", "丙"],
    "table": {"a": 1, "b": 2},
    "text": "死线99",
    "none": None,
    "tags": frozenset({"walnut", "apple", "mango", "kiwi", "fig"}),
}

SAME_AS_JINJA = [
    "12 + (n % lair.columns) * cell",
    "19 + (n // lair.columns) * cell",
    "n / 4",
    "-n + +cell - 2 ** 3",
    "'dragon' if (n % lair.columns, n // lair.columns) in body else 'domain'",
    "(1, 2) not in body",
    "1 < n < 30",
    "1 < n > 30",
    "n == 27 and cell or 'no'",
    "not n or names",
    "lair.title ~ '·' ~ n ~ none",
    "lair.colour.value",
    "lair.colour.name",
    "lair.area",
    "lair.cells()[3]",
    "lair.cells(extra=1) | length",
    "names[1:]",
    "names[::-1][0]",
    "text[:2]",
    "table['b'] + table.a",
    "[n, cell, text]",
    "{'x': n, 'y': [1, 2]}['y']",
    "max(n, 3) + min(names | length, 9)",
    "range(4) | list",
    "names | join('、')",  # a filter that takes jinja's evaluation context, as jinja passes it
    "names | map('upper') | list",  # one that takes jinja's whole context: jinja evaluates it
    "'%03d' % n",
    "text * 2",
    "names[7] is defined",  # a test: jinja's
    "tags | join(',')",  # a set: in a fixed order either way
    "tags ~ '' ~ names",
    "(tags | list)[1:3]",
    "12345678901 * 98765432109",
]


@pytest.mark.parametrize("source", SAME_AS_JINJA)
def test_a_closure_gives_what_jinja_gives(source: str) -> None:
    expected = ENVIRONMENT.compile_expression(source, undefined_to_none=False)(**SCOPE)
    closure = compile_expression(source, ENVIRONMENT)
    if closure is None:
        assert source.endswith(("defined", "list")), f"{source} should compile"
        return
    got = closure.evaluate(SCOPE)
    assert got == expected and type(got) is type(expected)


def _only_jinja(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, every value and text is evaluated by jinja itself."""
    monkeypatch.setattr(template_module, "_compiled_closure", lambda source: None)
    for module in (template_module, expressions):
        monkeypatch.setattr(module, "compile_text", lambda source, environment: None)
    monkeypatch.setattr(template_module, "_MACRO_MODULES", {})
    # Renderers of their own, made without closures (the shared ones are left as they are).
    fresh = lru_cache(maxsize=None)(expressions.text_renderer.__wrapped__)
    for module in (template_module, expressions, prose):
        monkeypatch.setattr(module, "text_renderer", fresh)


def _evaluated(source: str) -> Any:
    """What a face template makes of the value ``source``: its value or its located error."""
    template = Template(path="t.yaml", palette={}, variables={}, macros="", boxes=[])
    try:
        return template.evaluate(source, dict(SCOPE), "t.yaml:2: text")
    except TemplateError as error:
        return f"error: {error}"


FAILING = [
    "missing + 1",
    "lair.nope",
    "lair.__class__",
    "lair._secret",
    "text.format.__globals__",
    "text.upper.__globals__",
    "n / 0",
    "(range(60000) | list) + (range(60000) | list)",
    "'x' * 10 ** 9",
    "2 ** 10000000",
    "lair.cells(10 ** 10)",
    "n if none",  # jinja's undefined that is not strict: an empty text, not an error
    # What the sandbox refuses, each path refuses with the same words.
    "(10 ** 900) * (10 ** 900)",
    "n * 10 ** 700 * 10 ** 700",
    "n ** 5000",
    "(names * 60000) ~ (names * 60000)",
    "lair.cells() ~ lair.title.upper",
    "[" + ", ".join(["(names * 60000)[1:]"] * 12) + "] | length",
    "(range(60000) | list | length) + (range(60000) | list | length)",
    "text.ljust(999999)",
    "'{0}{0}{0}'.format(names * 60000)",
]


@pytest.mark.parametrize("source", FAILING)
@pytest.mark.parametrize("shape", ["{{ %s }}", "x{{ %s }}mm", "{{ n }}·{{ %s }}{# note #}\n"])
def test_what_a_closure_cannot_answer_jinja_answers(
    source: str, shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    value = shape % source
    with_closures = _evaluated(value)
    _only_jinja(monkeypatch)
    through_jinja = _evaluated(value)
    assert with_closures == through_jinja
    if source != "n if none":
        assert str(with_closures).startswith("error: t.yaml:2: text: ")


def _face_values(tmp_path: Path, values: Mapping[str, str], context: dict[str, Any]) -> list[str]:
    lines = ["boxes:"]
    for name in values:
        lines.append(f"  - {{type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: {values[name]!r}}}")
    (tmp_path / "t.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    face = layout_face(
        load_template(tmp_path, "t.yaml"), context, width=mm(63), height=mm(88), bleed=0, key="t"
    )
    return [shape.text for shape in face.shapes if isinstance(shape, TextShape)]


def test_text_around_an_expression_renders_as_jinja_writes_it(tmp_path: Path) -> None:
    values = {
        "a": "{{ 12 + n * cell }}mm",
        "b": "速度 {{ lair.colour.value }} · {{ n }}",  # two expressions: jinja itself
        "c": "#{{ n }}%",
        "d": "{{ none }}/{{ text }}",
        "e": "x{{ lair.title ~ n }} y",
    }
    got = _face_values(tmp_path, values, SCOPE)
    expected = [ENVIRONMENT.from_string(value).render(**SCOPE) for value in values.values()]
    assert got == expected


def test_a_face_value_that_reaches_python_is_a_located_error(tmp_path: Path) -> None:
    for value in ("{{ lair.__class__ }}mm", "{{ text.upper.__globals__ }}"):
        with pytest.raises(TemplateError, match=r"t.yaml:2: text: "):
            _face_values(tmp_path, {"a": value}, SCOPE)


TEXTS = [
    "速度 {{ lair.colour.value }} · {{ n }}",
    "{{ none }}/{{ text }}\n",
    "trailing newline dropped\n",
    "{# a comment #}{{ n }}{# another #}",
    "a  {{- n -}}  b",
    "{% raw %}{{ n }}{% endraw %} is written as it is",
    "{{ names | join('、') }} and {{ n }}",
    "{{ names | map('upper') | join }}",  # a filter that takes jinja's context: jinja
    "{% for name in names %}{{ name }}{% endfor %}",  # a statement: jinja
    "plain text",
    "{{ '}}' }}{{ \"{{\" }}",
]


@pytest.mark.parametrize("source", TEXTS)
def test_text_renders_as_jinja_renders_it(source: str) -> None:
    expected = ENVIRONMENT.from_string(source).render(**SCOPE)
    compiled = compile_text(source, ENVIRONMENT)
    if compiled is None:
        assert ("{%" in source and "raw" not in source) or "map" in source, f"{source!r}"
        return
    assert compiled.evaluate(SCOPE) == expected


MACROS = """{%- macro signed(n) -%}{{ '+' if n >= 0 else '−' }}{{ n | abs }}{%- endmacro -%}
{%- macro titled(lair) -%}{{ lair.title }}（{{ signed(n - 30) }}）{%- endmacro -%}
{%- macro deep(k) -%}{{ deep(k) }}{%- endmacro -%}
"""


def _macro_values(
    tmp_path: Path, values: list[str], context: dict[str, Any]
) -> list[str | TemplateError]:
    (tmp_path / "m.yaml").write_text(
        "macros: |\n" + "".join(f"  {line}\n" for line in MACROS.splitlines()), encoding="utf-8"
    )
    template = load_template(tmp_path, "m.yaml")
    results: list[str | TemplateError] = []
    for value in values:
        try:
            results.append(template.evaluate(value, context, "m.yaml:9: text"))
        except TemplateError as error:
            results.append(error)
    return results


def test_a_value_calling_a_macro_renders_as_behind_the_macro_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    values = [
        "{{ signed(n) }}",
        "力量 {{ signed(-3) }}，{{ titled(lair) }}",
        "{{ titled(lair) }}·{{ signed(n) }}",
        "{{ signed() }}",  # a macro's own Undefined: jinja's error
        "{{ deep(1) }}",  # without end: the sandbox stops it
    ]
    other = {**SCOPE, "n": 3, "lair": Lair(2, 2, "别处", Colour.BLUE)}
    with_closures = [_macro_values(tmp_path, values, scope) for scope in (SCOPE, other)]
    behind_the_block = [source for source in template_module._TEMPLATES if source.endswith("）")]
    assert not any(source.endswith(values[1]) for source in behind_the_block)  # closures did it
    _only_jinja(monkeypatch)
    through_jinja = [_macro_values(tmp_path, values, scope) for scope in (SCOPE, other)]
    assert [[str(v) for v in run] for run in with_closures] == [
        [str(v) for v in run] for run in through_jinja
    ]
    assert with_closures[0][1] == "力量 −3，龙穴（−3）"
    assert with_closures[1][1] == "力量 −3，别处（−27）"  # the macros see the other context
    assert isinstance(with_closures[0][4], TemplateError)


def test_a_refusal_of_the_closures_is_not_asked_of_jinja_again() -> None:
    """An evaluation the sandbox stops once (at its time limit, say) is not run a second time
    through jinja: the refusal stands."""
    jinja_runs: list[str] = []

    def refused(scope: Any) -> Any:
        raise SandboxError("too slow")

    for calls in (False, True):
        evaluate = expressions.with_fallback(
            refused, lambda scope: jinja_runs.append("ran"), calls=calls
        )
        with pytest.raises(SandboxError, match="too slow"):
            evaluate({})
    assert jinja_runs == []


def test_closures_charge_the_budget_of_the_evaluation_they_run_in() -> None:
    compiled = compile_expression("range(60000) | list | length", ENVIRONMENT)
    assert compiled is not None and compiled.calls
    assert expressions.with_fallback(compiled.evaluate, _never, calls=True)(SCOPE) == 60000
    twice = compile_expression(
        "(range(60000) | list | length) + (range(60000) | list | length)", ENVIRONMENT
    )
    assert twice is not None
    with pytest.raises(SandboxError, match="too much work"):
        expressions.with_fallback(twice.evaluate, _never, calls=True)(SCOPE)


def _never(scope: Any) -> Any:
    raise AssertionError("the closures answer this themselves")
