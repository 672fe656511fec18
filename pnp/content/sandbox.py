"""The one jinja environment for text that comes from content or templates.

Content and templates arrive in pull requests from anyone and are built in CI, so a string of
them must not reach Python: every jinja expression runs in jinja2's sandbox, and
this module narrows it further:

- attributes: on a model object (a dataclass) only its public fields, properties and methods;
  on an enum member its ``name``, ``value`` and the enum's own public members; on plain data
  jinja's own safe subset; on anything else nothing. No name that starts with ``_`` is ever
  reachable;
- globals: only ``range`` (bounded, see below), ``len``, ``min``, ``max``, ``sorted`` and
  ``enumerate`` — no ``cycler``, ``joiner``, ``lipsum``, ``namespace`` or ``dict``;
- work: one render may loop over at most :data:`MAX_ITERATIONS` items made by ``range``, build
  no string or list longer than :data:`MAX_LENGTH`, pad to no width over :data:`MAX_WIDTH`,
  and write at most :data:`MAX_LENGTH` characters; a macro that calls itself forever stops.

Everything that goes wrong becomes a :class:`SandboxError` (a ``jinja2.TemplateError``), so a
caller that knows the file and line turns it into a located message.
"""

from __future__ import annotations

import collections
import contextvars
import dataclasses
import enum
import numbers
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping, Sized
from functools import lru_cache
from typing import Any, Literal

import jinja2
from jinja2 import filters as jinja_filters
from jinja2 import nodes
from jinja2.sandbox import SandboxedEnvironment

from pnp.content.parsecache import cached_code, cached_tree

MAX_ITERATIONS = 100_000
"""Items one render may draw from ``range`` in all its loops together."""
MAX_LENGTH = 200_000
"""Longest string or list an expression may build, and the longest output of one render."""
MAX_WIDTH = 1_000
"""Widest padding or wrapping a filter or format may ask for."""


class SandboxError(jinja2.TemplateError):
    """A template tried something content may not do (reach Python, or work without bound)."""


_budget: contextvars.ContextVar[list[int]] = contextvars.ContextVar("pnp_jinja_budget")


def _charge(items: int) -> None:
    budget = _budget.get(None)
    if budget is None:
        return
    budget[0] -= items
    if budget[0] < 0:
        raise SandboxError(f"too much work: loops may run at most {MAX_ITERATIONS:,} times")


class _BoundedRange:
    """``range`` whose items are charged to the render's budget as they are drawn."""

    def __init__(self, *args: int) -> None:
        for value in args:
            if not isinstance(value, int) or isinstance(value, bool):
                raise SandboxError(f"range() takes whole numbers, got {value!r}")
        self._range = range(*args)
        if len(self._range) > MAX_ITERATIONS:
            raise SandboxError(
                f"range of {len(self._range):,} numbers is too long (at most {MAX_ITERATIONS:,})"
            )

    def __iter__(self) -> Iterator[int]:
        for value in self._range:
            _charge(1)
            yield value

    def __len__(self) -> int:
        return len(self._range)

    def __getitem__(self, index: int) -> int:
        return self._range[index]

    def __contains__(self, value: object) -> bool:
        return value in self._range

    def __repr__(self) -> str:
        return repr(self._range)


# The field widths and precisions of printf-style (``%8.2f``) and ``str.format`` (``{:>8}``)
# specifications: a huge one would pad a string to gigabytes.
_PRINTF_WIDTHS = re.compile(r"%[-+ #0]*(\d*)(?:\.(\d+))?[a-zA-Z%]")
_FORMAT_SPECS = re.compile(r"\{[^{}]*:([^{}]*)\}")
_NUMBER = re.compile(r"\d+")


def _check_format(text: object) -> None:
    """Refuse a format string that asks for a width or precision over :data:`MAX_WIDTH`."""
    if not isinstance(text, str):
        return
    numbers = [n for match in _PRINTF_WIDTHS.finditer(text) for n in match.groups() if n]
    numbers += [n for spec in _FORMAT_SPECS.findall(text) for n in _NUMBER.findall(spec)]
    for number in numbers:
        if int(number) > MAX_WIDTH:
            raise SandboxError(f"a format width of {number} is too wide")


def _checked_length(value: Any) -> Any:
    if isinstance(value, Sized) and not isinstance(value, Mapping) and len(value) > MAX_LENGTH:
        raise SandboxError(f"a value of {len(value):,} items is too long (at most {MAX_LENGTH:,})")
    return value


def _multiply(left: Any, right: Any) -> Any:
    for sequence, count in ((left, right), (right, left)):
        if (
            isinstance(sequence, (str, list, tuple))
            and isinstance(count, int)
            and len(sequence) * max(count, 0) > MAX_LENGTH
        ):
            raise SandboxError(f"repeating a value {count:,} times makes it too long")
    return left * right


def _add(left: Any, right: Any) -> Any:
    return _checked_length(left + right)


def _power(left: Any, right: Any) -> Any:
    if isinstance(right, (int, float)) and abs(right) > 1_000:
        raise SandboxError(f"an exponent of {right!r} is too large")
    return left**right


def _modulo(left: Any, right: Any) -> Any:
    _check_format(left)
    return _checked_length(left % right)


def _width_guard(name: str, width_arguments: tuple[int, ...]) -> Callable[..., Any]:
    """A copy of jinja's filter ``name`` that refuses a width (positional arguments
    ``width_arguments``, counted after the value) over :data:`MAX_WIDTH`."""
    original = jinja_filters.FILTERS[name]

    def guarded(*args: Any, **kwargs: Any) -> Any:
        widths = [kwargs.get("width")] + [
            args[index] for index in width_arguments if index < len(args)
        ]
        for width in widths:
            if isinstance(width, int) and width > MAX_WIDTH:
                raise SandboxError(f"{name}: a width of {width:,} is too wide")
        return original(*args, **kwargs)

    guarded.__name__ = original.__name__
    for attribute in ("jinja_pass_arg",):
        if hasattr(original, attribute):
            setattr(guarded, attribute, getattr(original, attribute))
    return guarded


def _format_filter(value: Any, *args: Any, **kwargs: Any) -> str:
    _check_format(value)
    return str(_checked_length(jinja_filters.do_format(value, *args, **kwargs)))


@lru_cache(maxsize=4096)
def _public_names(cls: type) -> frozenset[str]:
    """What a template may read on an instance of a model class: public fields, properties,
    cached properties and methods defined by the model (not by ``object``)."""
    names = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    for klass in cls.__mro__:
        if klass is object:
            continue
        names.update(klass.__dict__)
    return frozenset(name for name in names if not name.startswith("_"))


_PLAIN = (
    str,
    numbers.Number,
    range,
    tuple,
    list,
    dict,
    frozenset,
    set,
    jinja2.runtime.LoopContext,
    jinja2.runtime.Macro,
)
"""Plain data and jinja's own loop and macro objects: jinja's sandbox rules apply to them."""


class ContentEnvironment(SandboxedEnvironment):
    """jinja's sandbox, narrowed to model values and bounded in work."""

    intercepted_binops = frozenset({"*", "+", "**", "%"})

    def __init__(self, **options: Any) -> None:
        super().__init__(undefined=jinja2.StrictUndefined, autoescape=False, **options)
        self.globals.clear()
        self.globals.update(
            range=_BoundedRange, len=len, min=min, max=max, sorted=sorted, enumerate=enumerate
        )
        self.binop_table.update({"*": _multiply, "+": _add, "**": _power, "%": _modulo})
        self.filters.update(
            center=_width_guard("center", (1,)),
            indent=_width_guard("indent", (1,)),
            wordwrap=_width_guard("wordwrap", (1,)),
            truncate=_width_guard("truncate", (1,)),
            format=_format_filter,
        )

    # Texts parse and compile from the parse store when an earlier command did the work
    # (see pnp.content.parsecache); only texts without a template name, as content's are.

    def parse(
        self, source: str, name: str | None = None, filename: str | None = None
    ) -> nodes.Template:
        if name is not None or filename is not None:
            return super().parse(source, name, filename)
        return cached_tree(self, source, lambda: super(ContentEnvironment, self).parse(source))

    @typing.overload
    def compile(
        self,
        source: str | nodes.Template,
        name: str | None = None,
        filename: str | None = None,
        raw: Literal[False] = False,
        defer_init: bool = False,
    ) -> types.CodeType: ...

    @typing.overload
    def compile(
        self,
        source: str | nodes.Template,
        name: str | None = None,
        filename: str | None = None,
        raw: Literal[True] = ...,
        defer_init: bool = False,
    ) -> str: ...

    def compile(
        self,
        source: str | nodes.Template,
        name: str | None = None,
        filename: str | None = None,
        raw: bool = False,
        defer_init: bool = False,
    ) -> str | types.CodeType:
        if not isinstance(source, str) or name or filename or raw or defer_init:
            return super().compile(source, name, filename, raw, defer_init)  # type: ignore[call-overload, no-any-return]
        text = source
        return cached_code(self, text, lambda: super(ContentEnvironment, self).compile(text))

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        cls = type(obj)
        if issubclass(cls, enum.Enum) or dataclasses.is_dataclass(cls):
            return _is_model_attribute(cls, attr)
        if attr.startswith("_"):
            return False
        if isinstance(obj, _PLAIN) or obj is None:
            return bool(super().is_safe_attribute(obj, attr, value))
        return False

    def getattr(self, obj: Any, attribute: str) -> Any:
        cls = type(obj)
        readable = _MODEL_ATTRIBUTES.get((cls, attribute))
        if readable is None:
            readable = _MODEL_ATTRIBUTES[cls, attribute] = _is_model_attribute(cls, attribute)
        if readable:
            # A model field or method, allowed whatever its value (is_safe_attribute decides
            # on the class and the name alone): read it without jinja's general checks.
            # A face reads thousands.
            try:
                value = getattr(obj, attribute)
            except AttributeError:
                pass
            else:
                if not isinstance(value, _METHODS) or not isinstance(value.__self__, str):
                    return value
        if isinstance(obj, jinja2.Undefined):
            # Say what is unknown ("'cycler' is undefined"), not what its attribute would be.
            obj._fail_with_undefined_error()
        return super().getattr(obj, attribute)

    def is_safe_callable(self, obj: Any) -> bool:
        # A class would build objects the model never made; a type is never a value to call.
        return not isinstance(obj, type) or obj is _BoundedRange

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**9:
                raise SandboxError(f"the number {value!r} is too large for a template")
        result = super().call(__context, __obj, *args, **kwargs)
        return _checked_length(result) if isinstance(result, (str, list, tuple)) else result

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapper = super().wrap_str_format(value)
        if wrapper is None:
            return None
        _check_format(value.__self__)
        return wrapper


def _is_model_attribute(cls: type, attribute: str) -> bool:
    """Whether a template may read ``attribute`` of an instance of ``cls``, when that depends
    on the class and name alone (model dataclasses and enums; False for any other class)."""
    if attribute.startswith("_"):
        return False
    if issubclass(cls, enum.Enum):
        return attribute in ("name", "value") or attribute in _public_names(cls)
    return dataclasses.is_dataclass(cls) and attribute in _public_names(cls)


_MODEL_ATTRIBUTES: dict[tuple[type, str], bool] = {}
_METHODS = (types.MethodType, types.BuiltinMethodType)
"""Bound methods, of which a string's ``format`` must still go through the sandbox's wrapper."""

ENVIRONMENT = ContentEnvironment()
"""The shared environment: one compile cache for every template and prose string."""


def _context(template: jinja2.Template, scope: Mapping[str, Any]) -> jinja2.runtime.Context:
    """The context ``template.generate(scope)`` would make, without its two copies of the scope
    and the globals: a face evaluates thousands of small values, and copying a few dozen names
    for each was most of their cost. Names resolve from ``scope`` first, then the globals, as
    in jinja's own context."""
    environment = template.environment
    parent: Any = collections.ChainMap(scope, environment.globals)  # type: ignore[arg-type]
    return environment.context_class(environment, parent, template.name, template.blocks)


def render_bounded(template: jinja2.Template, context: Mapping[str, Any]) -> str:
    """Render ``template`` within the sandbox's budget; SandboxError when it exceeds it."""
    token = _budget.set([MAX_ITERATIONS])
    try:
        pieces: list[str] = []
        length = 0
        try:
            for piece in template.root_render_func(_context(template, context)):
                length += len(piece)
                if length > MAX_LENGTH:
                    raise SandboxError(f"the text grew past {MAX_LENGTH:,} characters")
                pieces.append(piece)
        except SandboxError:
            raise
        except Exception:
            # As Template.generate does: the error, with a traceback pointing into the template.
            template.environment.handle_exception()
        return "".join(pieces)
    except RecursionError:
        raise SandboxError("a macro calls itself without end") from None
    except (OverflowError, MemoryError) as error:
        raise SandboxError(f"too large: {error}") from None
    finally:
        _budget.reset(token)


def call_bounded(function: Callable[[Mapping[str, Any]], Any], scope: Mapping[str, Any]) -> Any:
    """``function(scope)`` within the sandbox's budget: for an expression compiled to Python
    closures (:mod:`pnp.content.expressions`) that may still draw from ``range``."""
    token = _budget.set([MAX_ITERATIONS])
    try:
        return function(scope)
    finally:
        _budget.reset(token)


def evaluate_bounded(expression: Callable[..., Any], context: Mapping[str, Any]) -> Any:
    """Evaluate a compiled expression (``environment.compile_expression``) within the sandbox's
    budget."""
    token = _budget.set([MAX_ITERATIONS])
    try:
        # TemplateExpression.__call__, without copying the scope twice (see _context).
        template: jinja2.Template = expression._template  # type: ignore[attr-defined]
        run = _context(template, context)
        try:
            for _ in template.root_render_func(run):
                pass
        except Exception:
            template.environment.handle_exception()
        return run.vars["result"]
    except RecursionError:
        raise SandboxError("a macro calls itself without end") from None
    except (OverflowError, MemoryError) as error:
        raise SandboxError(f"too large: {error}") from None
    finally:
        _budget.reset(token)
