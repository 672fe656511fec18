"""Face templates: a YAML list of named boxes with units in their values, text through jinja2.

A template is data, not drawing code, so every game reuses the same machinery:

    palette: {ink: "#1a1a1a", paper: "#fbf8f1"}
    vars: {accent: "{{ '#c8102e' if item.suit.colour.value == 'red' else palette.ink }}"}
    macros: |                      # jinja macros available to every text of the template
      {% macro sign(n) %}{{ '+' if n >= 0 else '−' }}{{ n | abs }}{% endmacro %}
    boxes:
      - {type: background, fill: paper}
      - {type: text, x: 4mm, y: 4mm, w: 20mm, h: 10mm, text: "{{ item.rank.label }}", size: 18pt}
      - {type: rect, x: 0, y: "{{ 8 * n }}mm", w: 5mm, h: 5mm, repeat: 10, as: n}

Coordinates are from the trim's top-left corner, y down, as a designer measures them; `%`
is relative to the face's width (x, w, cx, r) or height (y, h). A value that is exactly
`{{ expression }}` keeps the expression's Python type; any other string is rendered as text.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import yaml
from jinja2 import nodes

from pnp.content.assets import asset_digest, designer_art
from pnp.content.expressions import (
    Compiled,
    Scope,
    bounded_text,
    compile_expression,
    compile_text,
    parsed,
    text_renderer,
    undeclared_names,
    with_fallback,
)
from pnp.content.icons import icon_map, icons_in, unknown_icon
from pnp.content.prose import located_error
from pnp.content.sandbox import (
    ContentEnvironment,
    evaluate_bounded,
    render_bounded,
)
from pnp.content.sandbox import text as printed_text
from pnp.content.sources import pinned_snapshot, read_file
from pnp.content.yamlsource import check_shape
from pnp.errors import ContentError, TemplateError
from pnp.layout.primitives import (
    ALIGNS,
    VALIGNS,
    CircleShape,
    Face,
    IconShape,
    ImageShape,
    LineShape,
    PolygonShape,
    RectShape,
    Shape,
    Style,
    TextShape,
)
from pnp.model.icons import Icon
from pnp.units import parse_length

# Templates and the content they show are untrusted: both render in the content sandbox.
_ENV = ContentEnvironment(keep_trailing_newline=False)


@jinja2.pass_context
def _prose(context: Any, text: str) -> str:
    """`{{ step.text | prose }}`: content prose that itself names model values (`{{ game.x }}`)
    rendered in the face's scope, so a number typed once in content reaches the printed text."""
    if "{{" not in text and "{%" not in text:
        return text
    return text_renderer(text, _ENV)(context.get_all())


_ENV.filters["prose"] = _prose

# Keys each box type accepts; anything else is a typo the author should hear about.
COMMON_KEYS = {"type", "when", "repeat", "as", "name"}
_STYLE = {"fill", "stroke", "stroke_width", "dash"}
BOX_KEYS: dict[str, set[str]] = {
    "background": {"fill"},
    "rect": {"x", "y", "w", "h", "radius"} | _STYLE,
    "line": {"x1", "y1", "x2", "y2"} | _STYLE,
    "circle": {"cx", "cy", "r"} | _STYLE,
    "polygon": {"points"} | _STYLE,
    "regular_polygon": {"cx", "cy", "r", "sides", "rotation"} | _STYLE,
    "text": {
        "x",
        "y",
        "w",
        "h",
        "text",
        "font",
        "size",
        "min_size",
        "color",
        "align",
        "valign",
        "leading",
        "rotate",
    },
    "image": {"x", "y", "w", "h", "src"},
    "icon": {"x", "y", "w", "h", "name", "color", "tile", "tile_h", "stagger"},
    "sprite": {"x", "y", "w", "h", "name"},
}
_HORIZONTAL = {"x", "w", "x1", "x2", "cx", "r"}


# Bounds on what one template may ask a face to draw, far above what the shipped ones use:
# a value read from content could otherwise ask for a billion boxes or polygon corners.
MAX_REPEAT = 10_000
"""Most copies of one box; the largest shipped repeat is a 32 x 32 map's 1,024 cells."""
MAX_SHAPES = 50_000
"""Most shapes on one face; the fullest shipped face has about 1,100."""
MAX_SIDES = 1_000
"""Most sides of a regular polygon (the shipped ones have 4 to 6)."""
MAX_POINTS = 10_000
"""Most corners of a polygon."""
MAX_DASHES = 16
"""Longest dash pattern (the shipped ones have 2 entries)."""
MAX_TEXT_SIZE = 1_000.0
"""Largest text size in points (35 cm; the shipped ones reach 26pt): text is fitted by
trying every half point between its size and its smallest size."""


# What each box type draws and what each key means: `pnp schema` writes the templates' JSON
# Schema and reference page from these tables and BOX_KEYS, so the documentation is the code's.
LENGTH = "length"
LENGTH_DOC = (
    "'12mm', '0.5in', '9pt', '50%' (of the face's width for x, w, x1, x2, cx and r; of its "
    "height for y, h, y1, y2 and cy) or a plain number of points (1/72 inch)"
)
BOX_DOCS: dict[str, str] = {
    "background": "fills the whole face, its bleed included",
    "rect": "a rectangle from its top-left corner, optionally with round corners",
    "line": "a straight line between two points",
    "circle": "a circle around a centre",
    "polygon": "a closed shape through a list of points",
    "regular_polygon": "a polygon with equal sides around a centre (a hex: sides 6)",
    "text": "text in a box, wrapped and shrunk to fit down to min_size",
    "image": "a PNG or JPEG of the game's content folder, stretched to the box",
    "icon": "an icon of the game's or the shared set, fitted to the box, or tiled over it",
    "sprite": "a pixel picture of the game's sprites, its squares scaled to the box",
}
KEY_DOCS: dict[str, tuple[str, str]] = {
    "type": ("box type", "what the box draws"),
    "when": ("condition", "draw the box only when this is true ('{{ item.cost > 0 }}')"),
    "repeat": ("integer", f"draw the box n times, numbered 0..n-1 (at most {MAX_REPEAT:,})"),
    "as": ("name", "the name a repetition sees its number under (default 'i')"),
    "name": (
        "text",
        "a label for messages about this box; the icon or sprite an icon or sprite box draws",
    ),
    "fill": ("colour", "'#rrggbb', '#rgb', a palette name, or 'none'"),
    "stroke": ("colour", "the outline's colour; none: no outline"),
    "stroke_width": (LENGTH, "the outline's width (default 0.5pt)"),
    "dash": (
        "list of numbers",
        f"the outline's on and off lengths in points (at most {MAX_DASHES})",
    ),
    "x": (LENGTH, "left edge, from the trim's left edge"),
    "y": (LENGTH, "top edge, from the trim's top edge (y runs down)"),
    "w": (LENGTH, "width"),
    "h": (LENGTH, "height"),
    "radius": (LENGTH, "corner radius (default 0)"),
    "x1": (LENGTH, "start, from the left"),
    "y1": (LENGTH, "start, from the top"),
    "x2": (LENGTH, "end, from the left"),
    "y2": (LENGTH, "end, from the top"),
    "cx": (LENGTH, "centre, from the left"),
    "cy": (LENGTH, "centre, from the top"),
    "r": (LENGTH, "radius (to a corner, for a regular polygon)"),
    "points": ("list of [x, y] lengths", f"the corners in order (at most {MAX_POINTS:,})"),
    "sides": ("integer", f"number of sides, 3 to {MAX_SIDES:,} (default 6)"),
    "rotation": ("degrees", "turns the first corner counter-clockwise from the right (default 0)"),
    "text": ("text", "what is printed; jinja, with the face's values"),
    "font": ("'regular' or 'bold'", "the kit font's weight (default regular)"),
    "size": (LENGTH, f"the text size, e.g. '9pt' (default 9pt, at most {MAX_TEXT_SIZE:g}pt)"),
    "min_size": (LENGTH, "the smallest size the text may shrink to (default 60 % of size)"),
    "color": ("colour", "the text's colour (default black)"),
    "align": ("one of " + ", ".join(ALIGNS), "horizontal alignment (default left)"),
    "valign": ("one of " + ", ".join(VALIGNS), "vertical alignment (default top)"),
    "leading": ("number", "line height as a multiple of the size (default 1.3)"),
    "src": ("path", "the image file, relative to the game's content folder"),
    "rotate": ("degrees", "0 or 180: 180 prints the text upside down (a card's far-side index)"),
    "tile": (LENGTH, "repeat the icon as a pattern over the box, one every this much across"),
    "tile_h": (LENGTH, "the pattern's step down (default: tile)"),
    "stagger": ("condition", "shift every other row of the pattern by half a step"),
}
TEMPLATE_KEYS: dict[str, str] = {
    "extends": "another template of the folder whose palette, vars, macros and boxes come first",
    "palette": "colour names for this template's colours: {ink: '#1a1a1a'}",
    "vars": "named values every box can use, each evaluated once per face (may use jinja)",
    "macros": "jinja macros every text of the template can call",
    "boxes": "the boxes, drawn in order (later ones on top)",
    "size": "the face's size, when the product does not give it",
}
FACE_NAMES: dict[str, str] = {
    "palette": "the template's palette: {{ palette.ink }}",
    "width_mm": "the face's width in millimetres (trim)",
    "height_mm": "the face's height in millimetres (trim)",
    "bleed_mm": "the bleed around the trim in millimetres (0 for boards)",
}
"""Names a face's jinja sees besides its product's (see pnp.layout.products.FACE_CONTEXT), its
template's vars and a repeated box's ``as`` name."""


def _run(compiled: Callable[[dict[str, Any]], Any], context: dict[str, Any], where: str) -> Any:
    """`compiled` evaluated in `context`, any error it meets a TemplateError at `where`."""
    try:
        result = compiled(context)
        if isinstance(result, jinja2.Undefined):
            # An expression yields Undefined instead of raising; make it raise here, where
            # the template and line are known.
            str(result)
        return result
    except Exception as error:
        located = located_error(error, where)
        if located is None:
            raise
        raise located from None


@dataclass(frozen=True)
class BoxSpec:
    kind: str
    props: Mapping[str, Any]
    line: int
    source: str = ""
    """The template file that defines the box (a base's boxes keep their own file)."""


@dataclass
class Template:
    """A loaded face template; compiled jinja snippets are cached on it."""

    path: str
    palette: dict[str, str]
    variables: dict[str, Any]
    macros: str
    boxes: list[BoxSpec]
    variables_at: dict[str, str] = field(default_factory=dict)
    """Where each variable is defined, ``templates/x.yaml:4`` (a base's keep their own file)."""
    _compiled: dict[str, Callable[[dict[str, Any]], Any]] = field(default_factory=dict)
    _reads: list[frozenset[str] | None] = field(default_factory=list)
    _plans: list[_BoxPlan] = field(default_factory=list)

    def names_read(self) -> frozenset[str] | None:
        """Every name the template's values and macros may read from a face's context, or
        None when that cannot be told (a value that does not parse, or a filter such as
        ``prose`` that renders with the whole context)."""
        if not self._reads:
            self._reads.append(_names_read(self))
        return self._reads[0]

    def evaluate(self, value: Any, context: dict[str, Any], where: str) -> Any:
        """The value with its jinja evaluated; plain values pass through untouched."""
        if not isinstance(value, str) or ("{{" not in value and "{%" not in value):
            return value
        return _run(self.compiled(value, where), context, where)

    def compiled(self, value: str, where: str) -> Callable[[dict[str, Any]], Any]:
        """What evaluates the jinja text `value`, compiled at its first use; a syntax error
        is a TemplateError located at `where`."""
        compiled = self._compiled.get(value)
        if compiled is None:
            compiled = self._compile(value, where)
            self._compiled[value] = compiled
        return compiled

    def text_may_read(self, name: str) -> bool:
        """Whether a text box's text (or whether it is drawn at all) may depend on the face
        value `name`: named in a text box, a variable or a macro. Other boxes' values (a
        background's bleed) cannot reach a text."""
        sources = [self.macros, *_strings(list(self.variables.values()))]
        for box in self.boxes:
            if box.kind == "text":
                sources += _strings(list(box.props.values()))
        return any(name in source for source in sources)

    def plans(self) -> list[_BoxPlan]:
        """Each box with what its painting needs worked out once: which keys hold jinja,
        the place every message names, what evaluates each value."""
        if len(self._plans) != len(self.boxes):
            self._plans[:] = [_BoxPlan(self, box) for box in self.boxes]
        return self._plans

    def _compile(self, value: str, where: str) -> Callable[[dict[str, Any]], Any]:
        stripped = value.strip()
        try:
            calls_macro = any(name in stripped for name in _macro_names(self.macros))
            if (
                stripped.startswith("{{")
                and stripped.endswith("}}")
                and stripped.count("{{") == 1
                and "{%" not in stripped
                and not calls_macro  # macros live in the text path; an expression can't see them
            ):
                source = stripped[2:-2]

                def through_jinja(context: Mapping[str, Any]) -> Any:
                    return evaluate_bounded(_compiled_expression(source), context)

                compiled = _compiled_closure(source)
                if compiled is None:
                    _compiled_expression(source)  # a syntax error shows now, located
                    return through_jinja
                # jinja compiles it only if the closures ever need it (most never do):
                # compiling was a fifth of a build.
                return with_fallback(compiled.evaluate, through_jinja, calls=compiled.calls)
            if not self.macros:
                return text_renderer(value, _ENV)
            prefix = _macro_output(self.macros)
            if prefix is None or value[:1].isspace() or value.startswith(("{{-", "{%-")):
                # The block does more than define macros, or whitespace control between the
                # block and the value could act (a block ending in `-%}` eats the value's
                # leading spaces): compile the value behind the whole block, as written.
                template = _compiled_template(self.macros + value)
                return lambda context: render_bounded(template, context)
            if calls_macro:
                return _rendered_after_macros(value, self.macros, prefix)
            # A value that calls no macro renders exactly as behind the block: the block's
            # own output (the text between its macros) followed by the value's.
            rendered = text_renderer(value, _ENV)
            if not prefix:
                return rendered
            return lambda context: prefix + rendered(context)
        except jinja2.TemplateSyntaxError as error:
            raise TemplateError(f"{where}: jinja syntax error: {error.message}") from None


def _names_read(template: Template) -> frozenset[str] | None:
    sources = [template.macros, *_strings(list(template.variables.values()))]
    for box in template.boxes:
        sources += _strings(list(box.props.values()))
    names: set[str] = set()
    for source in sources:
        if "{{" not in source and "{%" not in source:
            continue
        found = _names_in(source)
        if found is None:
            return None
        names |= found
    return frozenset(names)


@lru_cache(maxsize=4096)
def _names_in(source: str) -> frozenset[str] | None:
    """Every name ``source`` mentions (a superset of what it reads: names it sets count too),
    or None when that cannot be told."""
    try:
        tree = parsed(source, _ENV)
    except jinja2.TemplateSyntaxError:
        return None
    for node in tree.find_all((nodes.Filter, nodes.Test)):
        table = _ENV.filters if isinstance(node, nodes.Filter) else _ENV.tests
        function = table.get(node.name)
        if function is None or getattr(function, "jinja_pass_arg", None) is not None:
            return None
    return frozenset(node.name for node in tree.find_all(nodes.Name))


def _strings(values: list[Any]) -> list[str]:
    found: list[str] = []
    for value in values:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, list | tuple):
            found += _strings(list(value))
        elif isinstance(value, dict):
            found += _strings(list(value.values()))
    return found


# Compiled once per process, shared by every template (a face and its back extend the same
# base, so they share its macro block and many values): compiling is most of a layout's cost.
_TEMPLATES: dict[str, jinja2.Template] = {}
_EXPRESSIONS: dict[str, Callable[..., Any]] = {}
_MACRO_NAMES: dict[str, tuple[str, ...]] = {}
_MACRO_OUTPUTS: dict[str, str | None] = {}


def _compiled_template(source: str) -> jinja2.Template:
    template = _TEMPLATES.get(source)
    if template is None:
        template = _TEMPLATES[source] = _ENV.from_string(source)
    return template


def _compiled_closure(source: str) -> Compiled | None:
    if source not in _CLOSURES:
        _CLOSURES[source] = compile_expression(source, _ENV)
    return _CLOSURES[source]


_CLOSURES: dict[str, Compiled | None] = {}


def _rendered_after_macros(value: str, macros: str, prefix: str) -> Callable[[Scope], str]:
    """``value`` rendered behind the macro block ``macros`` (which writes ``prefix`` by
    itself), as jinja renders the two as one template: by closures with the block's macros
    in scope where they can, so the block is compiled once for all its values, not once
    behind each value that calls a macro."""
    combined = macros + value

    def through_jinja(context: Scope) -> str:
        return render_bounded(_compiled_template(combined), context)

    compiled = compile_text(value, _ENV)
    if compiled is None:
        _compiled_template(combined)  # a syntax error shows now, located
        return through_jinja
    closure, module = compiled.evaluate, _macro_module(macros)

    def rendered(context: Scope) -> str:
        return prefix + str(closure({**context, **module.exports(context)}))

    return with_fallback(bounded_text(rendered), through_jinja, calls=True)


class _MacroModule:
    """A macro block's macros as jinja defines them in front of a value, made for a face's
    context and made again only when a name the block reads from the context holds another
    object: the macros then see exactly what they would see defined for each value."""

    def __init__(self, macros: str) -> None:
        self.template = _compiled_template(macros)
        self.reads = tuple(sorted(undeclared_names(macros, _ENV)))
        # What the macros were made from, with them: one attribute, replaced whole.
        self.made: tuple[tuple[Any, ...], dict[str, Any]] | None = None

    def exports(self, context: Scope) -> dict[str, Any]:
        read = tuple([context.get(name, _ABSENT) for name in self.reads])
        made = self.made
        if made is None or any(a is not b for a, b in zip(read, made[0], strict=True)):
            run = self.template.new_context(dict(context))
            for _ in self.template.root_render_func(run):
                pass
            made = self.made = (read, run.get_exported())
        return made[1]


_ABSENT = object()
_UNSET = object()


_STYLE_KEYS = frozenset({"fill", "stroke", "stroke_width", "dash"})
_MACRO_MODULES: dict[str, _MacroModule] = {}


def _macro_module(macros: str) -> _MacroModule:
    module = _MACRO_MODULES.get(macros)
    if module is None:
        module = _MACRO_MODULES[macros] = _MacroModule(macros)
    return module


def _compiled_expression(source: str) -> Callable[..., Any]:
    expression = _EXPRESSIONS.get(source)
    if expression is None:
        expression = _EXPRESSIONS[source] = _ENV.compile_expression(source, undefined_to_none=False)
    return expression


def _macro_names(macros: str) -> tuple[str, ...]:
    names = _MACRO_NAMES.get(macros)
    if names is None:
        names = _MACRO_NAMES[macros] = tuple(_MACRO.findall(macros))
    return names


def _macro_output(macros: str) -> str | None:
    """What a macro block writes by itself: the literal text between its macros, the same for
    every context; None when it holds anything else at its top level (a `set`, an
    expression), or does not parse, so a value must be compiled behind it as written."""
    if macros in _MACRO_OUTPUTS:
        return _MACRO_OUTPUTS[macros]
    output: str | None = ""
    marker = "\x00pnp-end"
    try:
        # The marker keeps the block's last newline, which jinja drops only at the very end.
        body = _ENV.parse(macros + marker).body
    except jinja2.TemplateSyntaxError:
        body, output = [], None
    for node in body:
        if isinstance(node, nodes.Macro):
            continue
        if isinstance(node, nodes.Output) and all(
            isinstance(child, nodes.TemplateData) for child in node.nodes
        ):
            if output is not None:
                output += "".join(child.data for child in node.nodes)  # type: ignore[attr-defined]
            continue
        output = None
    if output is not None:
        output = output[: -len(marker)] if output.endswith(marker) else None
    _MACRO_OUTPUTS[macros] = output
    return output


_MACRO = re.compile(r"\{%-?\s*macro\s+(\w+)")


MAX_TEMPLATE_BYTES = 256 * 1024
"""Largest template file read (the largest shipped one is about 12 KB)."""


def template_path(templates_root: Path, name: str, where: str = "") -> Path:
    """The file a template name (``deadline-99/playing-card.yaml``) stands for, confined to the
    templates folder like every asset: TemplateError for an absolute path, one that climbs
    out (``..`` or a symlink), or a name that is not a ``.yaml`` file."""
    place = f"{where}: " if where else ""
    text = str(name).strip()
    if not text.endswith(".yaml") or len(text) > 255:
        raise TemplateError(f"{place}template {name!r}: expected the name of a .yaml file")
    if Path(text).is_absolute() or text.startswith(("/", "\\")):
        raise TemplateError(f"{place}template {name!r}: absolute paths are not allowed")
    root = templates_root.resolve()
    try:
        path = (root / text).resolve()
    except (OSError, ValueError):
        raise TemplateError(f"{place}template {name!r}: not a usable file name") from None
    if not path.is_relative_to(root):
        raise TemplateError(f"{place}template {name!r} lies outside the templates folder")
    return path


def load_template(templates_root: Path, name: str) -> Template:
    """The template `name` (relative to templates_root), with its `extends` chain merged.

    Read through the pinned snapshot (pnp.content.sources) when there is one, so a build reads
    the bytes its record is keyed on; a template is kept by the bytes of its whole chain, so an
    edit to it or to a base it extends is seen by the next load (``--watch``)."""
    path = template_path(templates_root, name)
    return _read_template(templates_root, path, seen=())[1]


def _display(templates_root: Path, path: Path) -> str:
    try:
        return str(Path("templates") / path.relative_to(templates_root.resolve()))
    except ValueError:
        return str(path)


_ChainKey = tuple[object, ...]
_MERGED: dict[tuple[Path, _ChainKey], Template] = {}
"""Templates merged with their bases, by the bytes of every file of the chain."""
_PARSED: dict[tuple[Path, bytes], tuple[yaml.Node | None, dict[str, Any]]] = {}
"""Each template file's YAML (its node tree, for lines, and its data), by path and bytes."""
# libyaml parses several times faster, with the same marks (lines) and the same data.
_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _read_template(
    templates_root: Path, path: Path, seen: tuple[Path, ...]
) -> tuple[_ChainKey, Template]:
    display = _display(templates_root, path)
    if path in seen:
        raise TemplateError(f"{display}: 'extends' loops back to itself")
    try:
        raw = read_file(path, display)
    except ContentError as error:
        reason = error.problems[0].message
        if reason == "no such file":
            reason = "template not found"
        raise TemplateError(f"{display}: {reason}") from None
    if len(raw) > MAX_TEMPLATE_BYTES:
        raise TemplateError(f"{display}: larger than {MAX_TEMPLATE_BYTES:,} bytes")
    own = (path, hashlib.sha256(raw).digest())
    parsed = _PARSED.get(own)
    if parsed is None:
        parsed = _PARSED[own] = _parse_yaml(raw, display)
    root_node, data = parsed
    base_key: _ChainKey = ()
    base: Template | None = None
    if "extends" in data:
        relative = path.parent.relative_to(templates_root.resolve()) / str(data["extends"])
        base_path = template_path(templates_root, str(relative), display)
        base_key, base = _read_template(templates_root, base_path, (*seen, path))
    key: _ChainKey = (own, base_key)
    root = templates_root.resolve()
    template = _MERGED.get((root, key))
    if template is None:
        template = _MERGED[root, key] = _merge(display, root_node, data, base)
    return key, template


def _parse_yaml(raw: bytes, display: str) -> tuple[yaml.Node | None, dict[str, Any]]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise TemplateError(f"{display}: not UTF-8 text") from None
    try:
        check_shape(text, display)
    except ContentError as error:
        raise TemplateError(str(error.problems[0])) from None
    try:
        try:
            root_node = yaml.compose(text, Loader=_FAST_LOADER)
            data = yaml.load(text, Loader=_FAST_LOADER) or {}
        except yaml.YAMLError:
            # The same error, in the words of the pure-Python parser every message quotes.
            root_node = yaml.compose(text, Loader=yaml.SafeLoader)
            data = yaml.safe_load(text) or {}
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise TemplateError(f"{display}{line}: yaml syntax error: {error}") from None
    if not isinstance(data, dict):
        raise TemplateError(f"{display}:1: a template is a mapping with 'boxes'")
    unknown = set(data) - set(TEMPLATE_KEYS)
    if unknown:
        raise TemplateError(f"{display}: unknown template key {sorted(unknown)[0]!r}")
    return root_node, data


def _merge(
    display: str, root_node: yaml.Node | None, data: dict[str, Any], base: Template | None
) -> Template:
    box_lines = _box_lines(root_node)
    boxes: list[BoxSpec] = []
    for index, raw in enumerate(data.get("boxes") or []):
        box_line = box_lines[index] if index < len(box_lines) else 0
        boxes.append(_check_box(raw, display, box_line))

    palette = {**(base.palette if base else {}), **(data.get("palette") or {})}
    own_variables = data.get("vars") or {}
    variables = {**(base.variables if base else {}), **own_variables}
    lines = _variable_lines(root_node)
    variables_at = {
        **(base.variables_at if base else {}),
        **{name: f"{display}:{lines.get(name, 0)}" for name in own_variables},
    }
    macros = (base.macros if base else "") + (data.get("macros") or "")
    return Template(
        path=display,
        palette=palette,
        variables=variables,
        macros=macros,
        boxes=(base.boxes if base else []) + boxes,
        variables_at=variables_at,
    )


def _box_lines(root: yaml.Node | None) -> list[int]:
    if not isinstance(root, yaml.MappingNode):
        return []
    for key, value in root.value:
        if key.value == "boxes" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + 1 for item in value.value]
    return []


def _variable_lines(root: yaml.Node | None) -> dict[str, int]:
    if not isinstance(root, yaml.MappingNode):
        return {}
    for key, value in root.value:
        if key.value == "vars" and isinstance(value, yaml.MappingNode):
            return {str(name.value): name.start_mark.line + 1 for name, _ in value.value}
    return {}


def _check_box(raw: Any, source: str, line: int) -> BoxSpec:
    where = f"{source}:{line}"
    if not isinstance(raw, dict) or "type" not in raw:
        raise TemplateError(f"{where}: a box is a mapping with a 'type'")
    kind = raw["type"]
    if kind not in BOX_KEYS:
        raise TemplateError(
            f"{where}: unknown box type {kind!r} (expected one of {', '.join(sorted(BOX_KEYS))})"
        )
    unknown = set(raw) - BOX_KEYS[kind] - COMMON_KEYS
    if unknown:
        import difflib

        key = sorted(unknown)[0]
        near = difflib.get_close_matches(key, sorted(BOX_KEYS[kind] | COMMON_KEYS), n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise TemplateError(f"{where}: {kind} box has unknown key {key!r}{hint}")
    return BoxSpec(kind=kind, props=raw, line=line, source=source)


def layout_face(
    template: Template,
    context: Mapping[str, Any],
    *,
    width: float,
    height: float,
    bleed: float,
    key: str,
) -> Face:
    """Lay out one face of `width` x `height` points (trim) with `bleed` around it.

    A face is laid out once per process for the same template, data and size: the kit, the
    validator and the rulebook's figures and card appendix all ask for the same faces, and
    the model they read is frozen. The memo holds the context's values, so their ids stay
    theirs while it is kept."""
    # A face shows the content folder's images as well: another reading of the folder (an
    # image saved under the same name) is laid out anew.
    images = _images_read()
    memo_key = (
        images,
        id(template),
        key,
        width,
        height,
        bleed,
        tuple((name, id(value)) for name, value in context.items()),
    )
    remembered = _FACES.get(memo_key)
    if remembered is not None:
        return remembered[0]
    # Faces that read the same data look the same: a deck's back that never names its item
    # is laid out once for the deck, not once per card.
    reads = template.names_read()
    drawn_key = (
        images,
        id(template),
        width,
        height,
        bleed,
        tuple(
            (name, id(value)) for name, value in context.items() if reads is None or name in reads
        ),
    )
    shapes = _SHAPES.get(drawn_key)
    if shapes is None:
        face = _layout_face(template, context, width=width, height=height, bleed=bleed, key=key)
        shapes = face.shapes
        if len(_SHAPES) >= _MAX_FACES:
            _SHAPES.clear()
        _SHAPES[drawn_key] = shapes
    else:
        face = Face(key=key, width=width, height=height, bleed=bleed, shapes=shapes)
    if len(_FACES) >= _MAX_FACES:
        _FACES.clear()
    _FACES[memo_key] = (face, template, tuple(context.values()))
    return face


def _images_read() -> str:
    snapshot = pinned_snapshot()
    return snapshot.content.digest if snapshot is not None else ""


_FACES: dict[tuple[Any, ...], tuple[Face, Template, tuple[Any, ...]]] = {}
_SHAPES: dict[tuple[Any, ...], tuple[Shape, ...]] = {}
"""Keyed by ids of values _FACES keeps alive (it holds every context it was given)."""
_MAX_FACES = 50_000


def _layout_face(
    template: Template,
    context: Mapping[str, Any],
    *,
    width: float,
    height: float,
    bleed: float,
    key: str,
) -> Face:
    scope: dict[str, Any] = {
        **context,
        "palette": template.palette,
        "width_mm": width / (72 / 25.4),
        "height_mm": height / (72 / 25.4),
        "bleed_mm": bleed / (72 / 25.4),
    }
    for name, value in template.variables.items():
        where = template.variables_at.get(name, template.path)
        scope[name] = template.evaluate(value, scope, f"{where}: vars.{name}")
    painter = _Painter(template, scope, width, height, bleed)
    shapes: list[Shape] = []
    for plan in template.plans():
        shapes.extend(painter.paint(plan))
        if len(shapes) > MAX_SHAPES:
            raise TemplateError(
                f"{plan.where}: {plan.label}: the face has more than {MAX_SHAPES:,} shapes"
            )
    return Face(key=key, width=width, height=height, bleed=bleed, shapes=tuple(shapes))


# "12.5mm" of a face 180 points wide, parsed once: faces of a deck repeat their lengths.
_LENGTHS: dict[tuple[str, float], float] = {}
_MAX_LENGTHS = 100_000


class _BoxPlan:
    """One box of a template as its painting reads it, worked out once per process: the
    keys whose values are jinja, the place each message names, and what evaluates each
    value (compiled at its first use, so an error still shows where the value is read)."""

    __slots__ = (
        "_varying",
        "dynamic",
        "functions",
        "kind",
        "label",
        "lengths",
        "located",
        "props",
        "template",
        "where",
    )

    def __init__(self, template: Template, box: BoxSpec) -> None:
        self.template = template
        self.kind = box.kind
        self.props = box.props
        self.where = f"{box.source or template.path}:{box.line}"
        name = box.props.get("name")
        self.label = f"box {str(name)!r}" if name is not None else f"{box.kind} box"
        self.dynamic = frozenset(
            key
            for key, raw in box.props.items()
            if type(raw) is str and ("{{" in raw or "{%" in raw)
        )
        self.located = {key: f"{self.where}: {key}" for key in box.props}
        self.functions: dict[str, Callable[[dict[str, Any]], Any]] = {}
        self._varying: dict[str, frozenset[str]] = {}
        self.lengths: dict[tuple[str, float], float] = {}
        """Plain-data lengths in points, by key and the face side they are relative to."""

    def evaluate(self, key: str, scope: dict[str, Any], located: str) -> Any:
        function = self.functions.get(key)
        if function is None:
            function = self.functions[key] = self.template.compiled(self.props[key], located)
        return _run(function, scope, located)

    def varying(self, index: str) -> frozenset[str]:
        """The keys whose values may differ from cell to cell of a repeat over `index`: those
        that name it, or may (anything but plain data)."""
        found = self._varying.get(index)
        if found is None:
            found = self._varying[index] = frozenset(
                key
                for key, raw in self.props.items()
                if not isinstance(raw, str | int | float | bool)
                or (key in self.dynamic and ((names := _names_in(raw)) is None or index in names))
            )
        return found


_NO_KEYS: frozenset[str] = frozenset()


class _Painter:
    """Paints a face's boxes into shapes. It paints one box at a time: ``paint`` points it
    at the box (and, in a repeat, at what the cells share) and the readers below evaluate
    that box's values in the face's scope."""

    def __init__(
        self, template: Template, scope: dict[str, Any], width: float, height: float, bleed: float
    ) -> None:
        self.template = template
        self.palette = template.palette
        self.scope = scope
        self.width = width
        self.height = height
        self.bleed = bleed
        # The box being painted (set by ``paint``), and in a repeat the results its cells
        # share and the keys that vary from cell to cell (none outside a repeat).
        self.plan: _BoxPlan
        self.box_scope = scope
        self.results: dict[tuple[str, str], Any] | None = None
        self.varying = _NO_KEYS

    def paint(self, plan: _BoxPlan) -> list[Shape]:
        self.plan = plan
        where = plan.where
        repeat = plan.props.get("repeat")
        if repeat is None:
            self.box_scope, self.results, self.varying = self.scope, None, _NO_KEYS
            return self._paint_once(plan)
        count = self.template.evaluate(repeat, self.scope, f"{where}: repeat")
        count = _whole(count, f"{where}: {plan.label}: repeat", high=MAX_REPEAT)
        name = str(plan.props.get("as", "i"))
        # A cell of a grid reads its index and little else: what does not name the index (its
        # value, length, colour, style) is worked out at its first use and kept for the
        # other cells, so the first cell asks for everything in the order it always did.
        scope = dict(self.scope)  # one scope for the loop: each cell only sets the index
        self.box_scope, self.results, self.varying = scope, {}, plan.varying(name)
        shapes: list[Shape] = []
        for index in range(count):
            scope[name] = index
            shapes.extend(self._paint_once(plan))
        return shapes

    def value(self, key: str, default: Any = None, located: str | None = None) -> Any:
        plan = self.plan
        if key not in plan.dynamic:
            return plan.props.get(key, default)  # plain data, as evaluate would return it
        results = self.results
        if results is None or key in self.varying:
            return plan.evaluate(key, self.box_scope, located or plan.located[key])
        known = results.get(("value", key), _UNSET)
        if known is _UNSET:
            known = results["value", key] = plan.evaluate(
                key, self.box_scope, located or plan.located[key]
            )
        return known

    def length(self, key: str, default: Any = None) -> float:
        plan = self.plan
        if key not in plan.dynamic and key in plan.props:
            # A length written as plain data is the same on every face of this size.
            size = (key, self.width if key in _HORIZONTAL else self.height)
            known = plan.lengths.get(size)
            if known is None:
                known = plan.lengths[size] = self.measured(key, default)
            return known
        results = self.results
        if results is None or key in self.varying or key not in plan.props:
            return self.measured(key, default)
        known = results.get(("length", key))
        if known is None:
            known = results["length", key] = self.measured(key, default)
        return float(known)

    def measured(self, key: str, default: Any) -> float:
        raw = self.value(key, default)
        if raw is None:
            raise TemplateError(f"{self.plan.where}: {self.plan.kind} box needs {key!r}")
        reference = self.width if key in _HORIZONTAL else self.height
        points = _LENGTHS.get((raw, reference)) if type(raw) is str else None
        if points is None:
            try:
                points = parse_length(raw, relative_to=reference)
            except ValueError as error:
                raise TemplateError(f"{self.plan.where}: {key}: {error}") from None
            if type(raw) is str and len(_LENGTHS) < _MAX_LENGTHS:
                _LENGTHS[raw, reference] = points
        # Judged for its key on every use: "0mm" is a fine y and no height.
        wrong = _wrong_length(key, points) if key != "size" else ""  # a text size: see _text
        if wrong:
            raise TemplateError(
                f"{self.plan.where}: {self.plan.label}: {key}: {wrong}, got {raw!r}"
            )
        return points

    def colour(self, key: str, default: str | None = None) -> str | None:
        raw = self.value(key, default)
        if raw in (None, "", "none"):
            return None
        text = str(raw)
        text = self.palette.get(text, text)
        if not _HEX_COLOUR.match(text):
            raise TemplateError(
                f"{self.plan.where}: {key}: expected '#rrggbb' or a palette name, got {raw!r}"
            )
        return text

    def style(self) -> Style:
        results = self.results
        if results is None or not self.varying.isdisjoint(_STYLE_KEYS):
            return self.styled()
        known = results.get(("style", ""))
        if known is None:
            known = results["style", ""] = self.styled()
        return known

    def styled(self) -> Style:
        return Style(
            fill=self.colour("fill"),
            stroke=self.colour("stroke"),
            stroke_width=self.length("stroke_width", "0.5pt"),
            dash=self.dash(),
        )

    def dash(self) -> tuple[float, ...]:
        """The dash pattern: on and off lengths in points, not all of them zero (a viewer
        would draw nothing but the pattern's ends, forever)."""
        raw = self.value("dash") or ()
        where = f"{self.plan.where}: {self.plan.label}: dash"
        if not isinstance(raw, list | tuple):
            raise TemplateError(f"{where}: expected a list of lengths, got {_quoted(raw)}")
        if len(raw) > MAX_DASHES:
            raise TemplateError(f"{where}: at most {MAX_DASHES} lengths, got {len(raw)}")
        dash = tuple(_real(entry, where) for entry in raw)
        if any(entry < 0 for entry in dash) or (dash and not any(dash)):
            raise TemplateError(
                f"{where}: expected lengths of 0 or more, not all 0, got {_quoted(raw)}"
            )
        return dash

    def _paint_once(self, plan: _BoxPlan) -> list[Shape]:
        if "when" in plan.props and not _truthy(self.value("when", located=plan.where)):
            return []
        length = self.length
        top = self.height  # template y runs down from the top; PDF y runs up
        kind = plan.kind
        if kind == "rect":
            x, y, w, h = length("x"), length("y"), length("w"), length("h")
            return [RectShape(x, top - y - h, w, h, self.style(), radius=length("radius", 0))]
        if kind == "text":
            return self._text(plan, top)
        if kind == "background":
            b = self.bleed
            fill = Style(fill=self.colour("fill", "#ffffff"))
            return [RectShape(-b, -b, self.width + 2 * b, self.height + 2 * b, fill)]
        if kind == "line":
            return [
                LineShape(
                    length("x1"), top - length("y1"), length("x2"), top - length("y2"), self.style()
                )
            ]
        if kind == "circle":
            return [CircleShape(length("cx"), top - length("cy"), length("r"), self.style())]
        if kind == "regular_polygon":
            cx, cy, r = length("cx"), top - length("cy"), length("r")
            sides = _whole(
                self.value("sides", 6), f"{plan.where}: {plan.label}: sides", 3, MAX_SIDES
            )
            rotation = math.radians(_real(self.value("rotation", 0), f"{plan.where}: rotation"))
            points = tuple(
                (
                    cx + r * math.cos(rotation + 2 * math.pi * k / sides),
                    cy - r * math.sin(rotation + 2 * math.pi * k / sides),
                )
                for k in range(sides)
            )
            return [PolygonShape(points, self.style())]
        if kind == "polygon":
            return [PolygonShape(self._points(plan, top), self.style())]
        if kind == "image":
            x, y, w, h = length("x"), length("y"), length("w"), length("h")
            source = str(self.value("src"))
            return [
                ImageShape(
                    x, top - y - h, w, h, source, origin=plan.where, digest=asset_digest(source)
                )
            ]
        if kind == "sprite":
            x, y, w, h = length("x"), length("y"), length("w"), length("h")
            name = str(self.value("name"))
            art = designer_art(name)
            if art:
                return [ImageShape(x, top - y - h, w, h, art, plan.where, asset_digest(art))]
            return _sprite_squares(self.scope, name, x, top - y - h, w, h, plan)
        if kind == "icon":
            x, y, w, h = length("x"), length("y"), length("w"), length("h")
            name = str(self.value("name"))
            art = "" if "tile" in plan.props else designer_art(name)
            if art:  # a pattern of tiles stays vector: an image is placed once, not repeated
                return [ImageShape(x, top - y - h, w, h, art, plan.where, asset_digest(art))]
            known = _icons_of(self.scope)
            icon = known.get(name)
            if icon is None:
                raise TemplateError(f"{plan.where}: {plan.label}: {unknown_icon(name, known)}")
            colour = self.colour("color", "#000000") or "#000000"
            tile = length("tile", 0) if "tile" in plan.props else 0.0
            tile_h = length("tile_h", tile) if "tile_h" in plan.props else tile
            if tile and (w / tile) * (h / tile_h) > MAX_TILES:
                raise TemplateError(
                    f"{plan.where}: {plan.label}: tile: at most {MAX_TILES:,} tiles, "
                    f"got {(w / tile) * (h / tile_h):,.0f}"
                )
            stagger = _truthy(self.value("stagger", False))
            return [IconShape(x, top - y - h, w, h, icon, colour, tile, tile_h, stagger)]
        raise TemplateError(f"{plan.where}: unknown box type {kind!r}")  # pragma: no cover

    def _points(self, plan: _BoxPlan, top: float) -> tuple[tuple[float, float], ...]:
        raw_points = self.value("points") or []
        evaluate, scope, where = self.template.evaluate, self.box_scope, plan.where
        if not isinstance(raw_points, list | tuple) or not all(
            isinstance(point, list | tuple) and len(point) == 2 for point in raw_points
        ):
            raise TemplateError(f"{where}: points: expected a list of [x, y] pairs")
        if len(raw_points) > MAX_POINTS:
            raise TemplateError(
                f"{where}: {plan.label}: points: at most {MAX_POINTS:,}, got {len(raw_points):,}"
            )
        try:
            # Each coordinate may itself be an expression ("{{ hx - 2 }}mm").
            return tuple(
                (
                    parse_length(evaluate(px, scope, where), relative_to=self.width),
                    top - parse_length(evaluate(py, scope, where), relative_to=self.height),
                )
                for px, py in raw_points
            )
        except ValueError as error:
            raise TemplateError(f"{where}: points: {error}") from None

    def _text(self, plan: _BoxPlan, top: float) -> list[Shape]:
        value, length, where = self.value, self.length, plan.where
        raw = value("text", "")
        if raw is None:
            return []
        text = raw if raw.__class__ is str else _printed(raw, plan.located["text"])
        if text.strip() == "":
            return []
        size = length("size", "9pt")
        if not 0 < size <= MAX_TEXT_SIZE:
            raise TemplateError(
                f"{where}: {plan.label}: size: expected more than 0 and at most "
                f"{MAX_TEXT_SIZE:g}pt, got {size:g}pt"
            )
        min_size = length("min_size", size * 0.6)
        if not 0 < min_size <= size:
            raise TemplateError(
                f"{where}: {plan.label}: min_size: expected more than 0 and at most the "
                f"size ({size:g}pt), got {min_size:g}pt"
            )
        x, y, w, h = length("x"), length("y"), length("w"), length("h")
        text = text.strip("\n")
        icons: tuple[Icon, ...] = ()
        if "[[" in text:
            known = _icons_of(self.scope)
            icons, missing = icons_in(text, known)
            if missing:
                raise TemplateError(
                    f"{where}: {plan.label}: {unknown_icon(missing[0], known)}"
                    + _shown_item(self.scope)
                )
        return [
            TextShape(
                x=x,
                y=top - y - h,
                width=w,
                height=h,
                text=text,
                font=str(value("font", "regular")),
                size=size,
                min_size=min_size,
                color=self.colour("color", "#000000") or "#000000",
                align=_choice(value("align", "left"), ALIGNS, where, "align"),  # type: ignore[arg-type]
                valign=_choice(value("valign", "top"), VALIGNS, where, "valign"),  # type: ignore[arg-type]
                leading=_real(value("leading", 1.3), f"{where}: leading"),
                origin=where,
                icons=icons,
                upside_down=_choice(str(value("rotate", 0)), ("0", "180"), where, "rotate")
                == "180",
            )
        ]


MAX_TILES = 10_000
"""Most tiles an icon box may repeat as a pattern."""

_ICON_MAPS: dict[int, tuple[object, dict[str, Icon]]] = {}


def _icons_of(scope: Mapping[str, Any]) -> dict[str, Icon]:
    """The icons of the game a face shows (its own and the shared set), by name."""
    game = scope.get("game")
    kept = _ICON_MAPS.get(id(game))
    if kept is None or kept[0] is not game:
        if len(_ICON_MAPS) > 64:
            _ICON_MAPS.clear()
        kept = _ICON_MAPS[id(game)] = (game, icon_map(game))
    return kept[1]


def _sprite_squares(
    scope: Mapping[str, Any], name: str, x: float, y: float, w: float, h: float, plan: Any
) -> list[Shape]:
    """A sprite as squares, as large as fits the box and centred in it: one rectangle per run
    of a colour along a row, so a 16-pixel row of three colours is three shapes."""
    sprites = {s.name: s for s in getattr(scope.get("game"), "sprites", ())}
    sprite = sprites.get(name)
    if sprite is None:
        near = difflib.get_close_matches(name, sorted(sprites), n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise TemplateError(f"{plan.where}: {plan.label}: no sprite {name!r}{hint}")
    rows = sprite.pixels
    columns = max((len(row) for row in rows), default=0)
    if not rows or not columns:
        return []
    side = min(w / columns, h / len(rows))
    left = x + (w - side * columns) / 2
    top = y + (h + side * len(rows)) / 2
    shapes: list[Shape] = []
    for r, row in enumerate(rows):
        c = 0
        while c < len(row):
            ch = row[c]
            end = c
            while end < len(row) and row[end] == ch:
                end += 1
            colour = sprite.colours.get(ch)
            if ch != "." and colour is not None:
                # A hair wider than its run, so no seam of paper shows between squares.
                shapes.append(
                    RectShape(
                        left + c * side,
                        top - (r + 1) * side,
                        (end - c) * side + 0.05,
                        side + 0.05,
                        Style(fill=colour),
                    )
                )
            c = end
    return shapes


def _shown_item(scope: Mapping[str, Any]) -> str:
    item = scope.get("item")
    name = getattr(item, "id", None)
    return f" (on item {name!r})" if name else ""


_HEX_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_POSITIVE = frozenset({"w", "h", "r", "min_size"})
"""Lengths that are a size: nothing is drawn at zero or less."""
_NOT_NEGATIVE = frozenset({"stroke_width", "radius"})
MAX_LENGTH_MM = 10_000.0
"""Longest length a box may give (ten metres: any more is a slip of the keyboard)."""
_MAX_POINTS = MAX_LENGTH_MM * 72 / 25.4


def _wrong_length(key: str, points: float) -> str:
    """What is wrong with a box's length, or ''."""
    if not math.isfinite(points):
        return "expected a finite length"
    if abs(points) > _MAX_POINTS:
        return f"expected a length of at most {MAX_LENGTH_MM:g} mm"
    if key in _POSITIVE and points <= 0:
        return "expected a length greater than 0"
    if key in _NOT_NEGATIVE and points < 0:
        return "expected a length of 0 or more"
    return ""


def _printed(value: Any, where: str) -> str:
    """A text box's value that is no string (``text: "{{ item.kinds }}"``) as the sandbox
    prints it: a set in a fixed order, never a memory address."""
    try:
        return printed_text(value)
    except jinja2.TemplateError as error:
        raise TemplateError(f"{where}: {error}") from None


def _whole(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as a whole number from ``low`` to ``high``; a TemplateError at ``where``
    (``file:line: box: key``) for anything else."""
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise TemplateError(f"{where}: expected a whole number, got {_quoted(value)}") from None
    if high is not None and number > high:
        raise TemplateError(f"{where}: at most {high:,}, got {_quoted(value)}")
    if low is not None and number < low:
        raise TemplateError(f"{where}: at least {low:,}, got {_quoted(value)}")
    return number


def _quoted(value: Any) -> str:
    """``repr(value)`` for a message, short (Python will not print an integer of thousands
    of digits, which a YAML file may hold)."""
    try:
        shown = repr(value)
    except ValueError:
        return "a number too long to print"
    return shown if len(shown) <= 60 else shown[:57] + "..."


def _real(value: Any, where: str) -> float:
    """``value`` as a finite number; a TemplateError at ``where`` for anything else."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise TemplateError(f"{where}: expected a number, got {_quoted(value)}") from None
    if not math.isfinite(number):
        raise TemplateError(f"{where}: expected a finite number, got {_quoted(value)}")
    return number


def _choice(value: Any, allowed: tuple[str, ...], where: str, key: str) -> str:
    text = str(value)
    if text not in allowed:
        raise TemplateError(f"{where}: {key}: expected one of {', '.join(allowed)}, got {text!r}")
    return text


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "0", "none", "no")
    return bool(value)
