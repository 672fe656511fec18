"""The one jinja environment for text that comes from content or templates.

Content and templates arrive in pull requests from anyone and are built in CI, so a string of
them must not reach Python, change the model, hang a build or make two builds differ. Every
jinja expression runs in jinja2's immutable sandbox, and this module narrows it further:

- attributes: on a model object (a dataclass) only its public fields, properties and methods;
  on an enum member its ``name``, ``value`` and the enum's own public members; on plain data
  jinja's own safe subset, without the methods that change a list, dict or set; on anything
  else nothing. No name that starts with ``_`` is ever reachable;
- globals: only ``range``, ``len``, ``min``, ``max``, ``sorted`` and ``enumerate`` — no
  ``cycler``, ``joiner``, ``lipsum``, ``namespace`` or ``dict``; no ``random`` filter;
- order: iterating a set or frozenset (a loop, ``join``, ``list``, ``map``, ``sorted``…) yields
  its items in a fixed order (:func:`ordered`), and printing one lists its items in that order,
  so the same content always makes the same text;
- work: each evaluation (:func:`render_bounded`, :func:`evaluate_bounded`,
  :func:`call_bounded`; one nested in another shares its budget) may take at most
  :data:`MAX_STEPS` steps (loop items, calls, filters and tests), build at most
  :data:`MAX_CREATED` characters and items in all, and run at most :data:`TIME_LIMIT` seconds;
  no one step may build a string or list longer than :data:`MAX_LENGTH`, pad wider than
  :data:`MAX_WIDTH` or make an integer of more than :data:`MAX_INTEGER_BITS` bits, and one
  render writes at most :data:`MAX_LENGTH` characters. A step is refused before it builds
  what it would be refused for, so a refusal costs no memory.

Everything that goes wrong becomes a :class:`SandboxError` (a ``jinja2.TemplateError``), so a
caller that knows the file and line turns it into a located message.

The compiled form of a template calls :func:`loop_items`, :func:`concatenated` and
:func:`sliced` by their import names (see ``ContentEnvironment._generate``): the parse store
keeps compiled code under a digest of this module's source, so they live here.
"""

from __future__ import annotations

import collections
import contextvars
import dataclasses
import enum
import math
import numbers
import pprint
import re
import string
import time
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sized
from functools import lru_cache
from typing import Any, Literal

import jinja2
from jinja2 import filters as jinja_filters
from jinja2 import nodes
from jinja2.exceptions import FilterArgumentError
from jinja2.runtime import LoopContext
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import _PassArg, pass_environment, pass_eval_context
from jinja2.visitor import NodeTransformer

from pnp.content.parsecache import cached_code, cached_tree

MAX_STEPS = 100_000
"""Steps one evaluation may take: loop items, calls, filters and tests together."""
MAX_LENGTH = 200_000
"""Longest string or list one step may build, and the longest output of one render."""
MAX_CREATED = 2_000_000
"""Characters and items all the steps of one evaluation may build together."""
MAX_WIDTH = 1_000
"""Widest padding or wrapping a filter or format may ask for."""
MAX_INTEGER_BITS = 4_096
"""Largest integer (in bits) arithmetic may make: about 1,200 decimal digits."""
MAX_NUMBER = 10**9
"""Largest number a function or method may be called with."""
TIME_LIMIT = 5.0
"""CPU seconds one evaluation may spend, checked at every step: the limits above stop any real
attempt far sooner; this is the backstop for work no step counts. CPU time of the evaluating
thread, not the wall clock: on a machine busy with other work (a CI runner, a test suite on
every core) a legitimate face waiting for a core must not count as slow."""


CLOCK_GRACE = 0.05
"""Wall-clock seconds an evaluation runs before its CPU time is first read. The CPU clock of a
thread is read by a system call (tens of microseconds on a virtualised runner: read at every
step it was a quarter of a build's CPU), the wall clock in user space; CPU time never runs
ahead of the wall clock, so until the wall clock says the limit could have been reached the
CPU clock need not be read. An evaluation's first CLOCK_GRACE seconds of CPU are not counted,
so a slow one stops within TIME_LIMIT + CLOCK_GRACE seconds of CPU."""


def _cpu_clock() -> float:
    return time.thread_time()


class SandboxError(jinja2.TemplateError):
    """A template tried something content may not do (reach Python, or work without bound)."""


# -- the budget --------------------------------------------------------------------------------


class _Budget:
    """What is left of one evaluation's allowance."""

    __slots__ = ("created", "deadline", "look_at", "steps")

    def __init__(self) -> None:
        self.steps = MAX_STEPS
        self.created = MAX_CREATED
        self.deadline = math.inf
        """The thread's CPU time at which the evaluation is too slow, once first read."""
        self.look_at = time.monotonic() + CLOCK_GRACE
        """The wall-clock time before which the CPU clock cannot have passed the deadline."""


def _too_slow(budget: _Budget) -> bool:
    """Whether the evaluation has spent its CPU time: asked once the wall clock passes
    ``budget.look_at``, which it moves to the earliest time the CPU time left could be spent."""
    wall = time.monotonic()  # first: the CPU time read after it cannot be behind it
    spent = _cpu_clock()
    if budget.deadline == math.inf:
        budget.deadline = spent + TIME_LIMIT
    elif spent > budget.deadline:
        return True
    budget.look_at = wall + (budget.deadline - spent)
    return False


_budget: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar(
    "pnp_jinja_budget", default=None
)


def charge(steps: int = 1, created: int = 0) -> None:
    """Count ``steps`` steps that build ``created`` characters or items against the running
    evaluation's budget (outside any evaluation, as when jinja folds constants while compiling,
    only the limits on each step apply)."""
    budget = _budget.get()
    if budget is None:
        return
    budget.steps -= steps
    budget.created -= created
    if (
        budget.steps < 0
        or budget.created < 0
        or (time.monotonic() > budget.look_at and _too_slow(budget))
    ):
        _exceeded(budget)


def _exceeded(budget: _Budget) -> typing.NoReturn:
    if budget.steps < 0:
        raise SandboxError(
            f"too much work: one text may take at most {MAX_STEPS:,} steps "
            "(loop rounds, calls and filters together)"
        )
    if budget.created < 0:
        raise SandboxError(
            f"too much text: one text may build at most {MAX_CREATED:,} characters and items"
        )
    raise SandboxError(f"too slow: one text may take at most {TIME_LIMIT:g} seconds")


def _begin() -> contextvars.Token[_Budget | None] | None:
    """A budget for a new evaluation; None when this one runs inside another and shares its
    budget (a template's ``prose`` filter renders content prose within the face's value)."""
    if _budget.get() is not None:
        return None
    return _budget.set(_Budget())


def _end(token: contextvars.Token[_Budget | None] | None) -> None:
    if token is not None:
        _budget.reset(token)


def _too_long(count: int, what: str = "a value") -> SandboxError:
    return SandboxError(
        f"{what} of {count:,} characters or items is too long (at most {MAX_LENGTH:,})"
    )


def _created(value: Any) -> Any:
    """``value``, a step's result, checked and counted as built."""
    cls = value.__class__
    if cls is str or cls is list or cls is tuple or cls is dict:
        size = len(value)
    elif cls is int:
        if value.bit_length() > MAX_INTEGER_BITS:
            raise _too_big(value.bit_length())
        return value
    elif cls is float or cls is bool or value is None or isinstance(value, jinja2.Undefined):
        return value
    elif isinstance(value, Sized) and not isinstance(value, range | _BoundedRange):
        size = len(value)
    else:
        return value
    if size > MAX_LENGTH:
        raise _too_long(size)
    charge(0, size)
    return value


def _too_big(bits: int) -> SandboxError:
    return SandboxError(
        f"a number of about {bits:,} bits is too large (at most {MAX_INTEGER_BITS:,})"
    )


# -- order -------------------------------------------------------------------------------------


def ordered(items: Iterable[Any]) -> Iterable[Any]:
    """``items`` as a template iterates them: a set or frozenset as a list in a fixed order
    (numbers, then strings, then enum members in their declared order, then anything else by
    its printed form); anything else as it is."""
    if isinstance(items, set | frozenset):
        return sorted(items, key=_order_key)
    return items


def _order_key(item: Any) -> tuple[int, str, Any]:
    """A key that orders any two values without raising, the same way in every run."""
    if isinstance(item, bool | int | float):
        return (0, "", item) if item == item else (1, "", 0)  # NaN equals nothing
    if isinstance(item, str):
        return (2, "", item)
    if isinstance(item, enum.Enum):
        return (3, type(item).__qualname__, _member_position(type(item), item.name))
    return (4, type(item).__qualname__, _stable_repr(item))


@lru_cache(maxsize=1024)
def _member_position(cls: type[enum.Enum], name: str) -> int:
    return list(cls.__members__).index(name)


class _LoopItems:
    """The items a loop or filter draws from a value, each counted as a step, ``created``
    more characters or items counted with each (the literal text of a loop's body, written
    once per round); each item itself in :func:`ordered` order when ``unpacks`` (the loop
    unpacks it: ``{% for a, b in pairs %}``)."""

    __slots__ = ("_created", "_items", "_unpacks")

    def __init__(self, items: Iterable[Any], created: int = 0, unpacks: bool = False) -> None:
        self._items = ordered(items)
        self._created = created
        self._unpacks = unpacks

    def __iter__(self) -> Iterator[Any]:
        items = map(ordered, self._items) if self._unpacks else self._items
        budget = _budget.get()
        if budget is None:
            yield from items
            return
        created, wall = self._created, time.monotonic
        for item in items:
            budget.steps -= 1
            budget.created -= created
            if (
                budget.steps < 0
                or budget.created < 0
                or (wall() > budget.look_at and _too_slow(budget))
            ):
                _exceeded(budget)
            yield item

    def __bool__(self) -> bool:
        return True  # as a generator is, whatever it holds


class _SizedLoopItems(_LoopItems):
    """:class:`_LoopItems` of a value that knows its length (``loop.length`` asks it)."""

    __slots__ = ()

    def __len__(self) -> int:
        return len(self._items)  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        return bool(self._items)


def _draw(items: Iterable[Any], created: int = 0, unpacks: bool = False) -> _LoopItems:
    if isinstance(items, _LoopItems):
        # Already counted where it was made (a filter's generator): count each item once.
        if not created and not unpacks:
            return items
        items = items._items
    else:
        items = ordered(items)
    if isinstance(items, Sized):
        return _SizedLoopItems(items, created, unpacks)
    return _LoopItems(items, created, unpacks)


def loop_items(items: Any, created: int = 0, unpacks: bool = False) -> Any:
    """What a ``{% for %}`` loop (or a call's ``*args``) iterates, compiled in by
    ``ContentEnvironment._generate``: ``items`` in :func:`ordered` order, each round a step
    that writes ``created`` characters of the body's literal text."""
    if isinstance(items, jinja2.Undefined):
        return items  # jinja's own error when the loop asks for its items
    return _draw(items, created, unpacks)


def unpacked(value: Any) -> Any:
    """What ``{% set a, b = value %}`` unpacks (compiled in by
    ``ContentEnvironment._generate``): a set in :func:`ordered` order."""
    return ordered(value)


def _drawn(items: Any) -> Any:
    """``items`` as a filter or function that iterates them sees them: ordered and counted
    (an Undefined stays itself, for jinja's own message)."""
    if isinstance(items, jinja2.Undefined | str):
        return items
    return _draw(items)


# -- printing ----------------------------------------------------------------------------------

_UNPRINTABLE = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.MethodWrapperType,
    types.GeneratorType,
    collections.abc.Iterator,
    _LoopItems,
)


def _measure(value: Any, limit: int = MAX_LENGTH) -> tuple[int, bool]:
    """About how many characters ``str(value)`` writes, and whether it holds a set (which
    must be printed in order: :func:`printable`). Raises SandboxError past ``limit``, or for a
    value whose printed form would name a memory address; stops as soon as it knows, so a
    value built of the same list nested in itself many times is refused quickly."""
    size = 0
    unordered = False
    stack = [value]
    while stack:
        item = stack.pop()
        cls = item.__class__
        if cls is str:
            size += len(item) + 2
        elif cls is int:
            bits = item.bit_length()
            if bits > MAX_INTEGER_BITS:
                raise _too_big(bits)
            size += bits // 3 + 2
        elif cls is float or cls is bool or item is None:
            size += 24
        elif isinstance(item, str):
            size += len(item) + 2
        elif isinstance(item, list | tuple):
            size += 2 + 2 * len(item)
            stack.extend(item)
        elif isinstance(item, set | frozenset):
            unordered = True
            size += 12 + 2 * len(item)
            stack.extend(item)
        elif isinstance(item, dict):
            size += 2 + 4 * len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, bytes | bytearray):
            size += 4 * len(item) + 3
        elif isinstance(item, jinja2.Undefined | numbers.Number | enum.Enum):
            size += 24
        elif _generated_repr(cls):
            fields = [f.name for f in dataclasses.fields(item) if f.repr]
            size += len(cls.__qualname__) + 2 + sum(len(name) + 3 for name in fields)
            stack.extend(getattr(item, name) for name in fields)
        elif isinstance(item, _UNPRINTABLE) or cls.__repr__ is object.__repr__:
            raise SandboxError(f"a {_kind(item)} cannot be printed")
        else:
            size += len(repr(item))
        if size > limit:
            raise SandboxError(f"a value too long to print (more than {limit:,} characters)")
    return size, unordered


def _kind(value: Any) -> str:
    if isinstance(value, types.GeneratorType | collections.abc.Iterator | _LoopItems):
        return "generator (make it a list first: '| list')"
    if callable(value):
        return "function or method (call it: 'name()')"
    return f"{type(value).__name__} object"


@lru_cache(maxsize=1024)
def _generated_repr(cls: type) -> bool:
    """Whether ``cls`` is a dataclass printed by the repr dataclasses wrote for it (which
    prints its fields, so a set among them must be printed in order too)."""
    return (
        dataclasses.is_dataclass(cls)
        and cls.__dataclass_params__.repr  # type: ignore[attr-defined]
        and hasattr(cls.__repr__, "__wrapped__")
    )


class _Printed:
    """A value holding a set, standing in for it where it is printed: its text lists every
    set's items in :func:`ordered` order."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __str__(self) -> str:
        return _stable_repr(self.value)

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(str(self), spec) if spec else str(self)


def printable(value: Any, limit: int = MAX_LENGTH) -> Any:
    """``value`` as it may be turned into text: itself, or for a value holding a set a stand-in
    that prints the same way every run. SandboxError when its text would be too long or show a
    memory address (a function, a generator)."""
    cls = value.__class__
    if cls is str:
        if len(value) > limit:
            raise _too_long(len(value), "a text")
        return value
    if cls is int or cls is float or cls is bool or value is None:
        if cls is int and value.bit_length() > MAX_INTEGER_BITS:
            raise _too_big(value.bit_length())
        return value
    if isinstance(value, jinja2.Undefined):
        return value  # printing it raises jinja's own error
    _, unordered = _measure(value, limit)
    return _Printed(value) if unordered else value


def text(value: Any, limit: int = MAX_LENGTH) -> str:
    """``str(value)``, bounded and in a fixed order (see :func:`printable`)."""
    return value if value.__class__ is str and len(value) <= limit else str(printable(value, limit))


def _stable_repr(value: Any) -> str:
    if isinstance(value, set | frozenset):
        items = ", ".join(_stable_repr(item) for item in ordered(value))
        if not items:
            return f"{type(value).__name__}()"
        return f"{{{items}}}" if type(value) is set else f"{type(value).__name__}({{{items}}})"
    cls: Any = type(value)
    if cls is list:
        return "[" + ", ".join(_stable_repr(item) for item in value) + "]"
    if cls is tuple:
        inner = ", ".join(_stable_repr(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if cls is dict:
        pairs = (f"{_stable_repr(k)}: {_stable_repr(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    if _generated_repr(cls):
        fields = (
            f"{f.name}={_stable_repr(getattr(value, f.name))}"
            for f in dataclasses.fields(value)
            if f.repr
        )
        return f"{cls.__qualname__}({', '.join(fields)})"
    return repr(value)


def finalize(value: Any) -> Any:
    """What ``{{ value }}`` writes, before jinja's ``str()`` (the environment's finalize)."""
    cls = value.__class__
    if cls is int or cls is float or cls is bool or value is None:
        return printable(value)
    if isinstance(value, jinja2.Undefined):
        return value  # printing it raises jinja's own error
    shown = text(value)
    charge(0, len(shown))
    return shown


def concatenated(*parts: Any) -> str:
    """``a ~ b ~ c``: the parts' texts, measured before any is made (compiled in by
    ``ContentEnvironment._generate``)."""
    total = 0
    shown = []
    for part in parts:
        if part.__class__ is str:
            total += len(part)
            shown.append(part)
        else:
            value = printable(part, MAX_LENGTH - total)
            piece = str(value)
            total += len(piece)
            shown.append(piece)
        if total > MAX_LENGTH:
            raise _too_long(total, "a text joined with '~'")
    charge(0, total)
    return "".join(shown)


def sliced(value: Any, start: Any, stop: Any, step: Any) -> Any:
    """``value[start:stop:step]`` (compiled in by ``ContentEnvironment._generate``)."""
    return _created(value[start:stop:step])


# -- operators ---------------------------------------------------------------------------------

# The field widths and precisions of printf-style (``%8.2f``, ``%(name)-8s``) and
# ``str.format`` (``{:>8}``) specifications: a huge one would pad a string to gigabytes.
_PRINTF_WIDTHS = re.compile(r"%(?:\([^)]*\))?[-+ #0]*(\*|\d*)(?:\.(\*|\d*))?[hlL]?[a-zA-Z%]")
_NUMBER = re.compile(r"\d+")


def _format_widths(text: str, braces: bool) -> int:
    """The sum of the widths and precisions a format string asks for; SandboxError for one
    over :data:`MAX_WIDTH`, or one taken from the arguments (``%*d``, ``{:{width}}``), which
    nothing would bound."""
    if braces:
        try:
            specs = [spec or "" for _, _, spec, _ in _FORMATTER.parse(text)]
        except ValueError:
            return 0  # str.format raises the same error for the same text
        if any("{" in spec for spec in specs):
            raise SandboxError("a format width may not be taken from the arguments")
        found = [number for spec in specs for number in _NUMBER.findall(spec)]
    else:
        groups = [group for match in _PRINTF_WIDTHS.finditer(text) for group in match.groups()]
        if "*" in groups:
            raise SandboxError("a format width may not be taken from the arguments ('*')")
        found = [group for group in groups if group]
    total = 0
    for number in found:
        if len(number) > 6 or int(number) > MAX_WIDTH:
            raise SandboxError(f"a format width of {number} is too wide (at most {MAX_WIDTH:,})")
        total += int(number)
    return total


_FORMATTER = string.Formatter()


def _argument_sizes(arguments: Any) -> tuple[int, int]:
    """The printed sizes of the arguments a format string fills in: their sum, and the largest
    (a mapping's values may each be named more than once)."""
    if isinstance(arguments, tuple):
        sizes = [_measure(argument)[0] for argument in arguments]
    elif isinstance(arguments, Mapping):
        sizes = [_measure(argument)[0] for argument in arguments.values()]
    else:
        sizes = [_measure(arguments)[0]]
    return sum(sizes), max(sizes, default=0)


def _printable_arguments(arguments: Any) -> Any:
    if isinstance(arguments, tuple):
        return tuple(printable(argument) for argument in arguments)
    if isinstance(arguments, dict):
        return {key: printable(value) for key, value in arguments.items()}
    if isinstance(arguments, Mapping):
        return arguments
    return printable(arguments)


def _percent(template: str, arguments: Any) -> str:
    """``template % arguments`` for a format string, its size estimated before it is made."""
    total, largest = _argument_sizes(arguments)
    fields = template.count("%")
    estimate = len(template) + _format_widths(template, braces=False)
    estimate += largest * fields if isinstance(arguments, Mapping) else total
    if estimate > MAX_LENGTH:
        raise _too_long(estimate, "a formatted text")
    return _created(template % _printable_arguments(arguments))  # type: ignore[no-any-return]


def _multiply(left: Any, right: Any) -> Any:
    if left.__class__ is int and right.__class__ is int:
        if left.bit_length() + right.bit_length() - 1 > MAX_INTEGER_BITS:
            raise _too_big(left.bit_length() + right.bit_length())
        return _created(left * right)
    for sequence, count in ((left, right), (right, left)):
        if isinstance(sequence, str | list | tuple | bytes) and isinstance(count, int):
            size = len(sequence) * max(count, 0)
            if size > MAX_LENGTH:
                raise SandboxError(f"repeating a value {count:,} times makes it too long")
            charge(0, size)
    return left * right


def _add(left: Any, right: Any) -> Any:
    if (
        isinstance(left, Sized)
        and isinstance(right, Sized)
        and not isinstance(left, Mapping)
        and len(left) + len(right) > MAX_LENGTH
    ):
        raise _too_long(len(left) + len(right))
    return _created(left + right)


def _power(left: Any, right: Any) -> Any:
    if isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1:
        # A lower bound of the result's size, so a tower of powers stops before it is made.
        bits = (abs(left).bit_length() - 1) * right
        if bits > MAX_INTEGER_BITS:
            raise _too_big(bits)
    elif (
        isinstance(right, int | float)
        and abs(right) > MAX_INTEGER_BITS
        and not (isinstance(left, int | float) and abs(left) <= 1)
    ):
        raise SandboxError(f"an exponent of {right!r} is too large")
    return _created(left**right)


def _modulo(left: Any, right: Any) -> Any:
    if isinstance(left, str):
        return _percent(left, right)
    return _created(left % right)


# -- filters and tests -------------------------------------------------------------------------

# Filters whose arguments after the value are values to pass on (to a test, a filter, the
# result), not counts or widths: any number goes.
_VALUE_ARGUMENTS = frozenset(
    {
        "attr",
        "d",
        "default",
        "float",
        "format",
        "int",
        "map",
        "reject",
        "rejectattr",
        "replace",
        "select",
        "selectattr",
        "sum",
    }
)
# Filters that iterate their whole value: they draw it in order, one step per item.
_ITERATING = frozenset(
    {
        "batch",
        "first",
        "groupby",
        "join",
        "list",
        "map",
        "max",
        "min",
        "reject",
        "rejectattr",
        "select",
        "selectattr",
        "slice",
        "sort",
        "sum",
        "unique",
    }
)
# Filters that turn their value into text (jinja's ``soft_str``): they get its printable form.
_STRINGIFYING = frozenset(
    {
        "capitalize",
        "center",
        "e",
        "escape",
        "forceescape",
        "indent",
        "lower",
        "replace",
        "safe",
        "string",
        "striptags",
        "title",
        "trim",
        "truncate",
        "upper",
        "urlize",
        "wordcount",
        "wordwrap",
    }
)
# The bounded number of each filter's width-like arguments: (positional index after the
# value, keyword name, limit).
_WIDTHS: dict[str, tuple[tuple[int, str, int], ...]] = {
    "center": ((0, "width", MAX_WIDTH),),
    "indent": ((0, "width", MAX_WIDTH),),
    "wordwrap": ((0, "width", MAX_WIDTH),),
    "truncate": ((0, "length", MAX_WIDTH), (3, "leeway", MAX_WIDTH)),
    "round": ((0, "precision", MAX_WIDTH),),
    "batch": ((0, "linecount", MAX_LENGTH),),
    "slice": ((0, "slices", MAX_LENGTH),),
    "tojson": ((0, "indent", 16),),
    "urlize": ((0, "trim_url_limit", MAX_LENGTH),),
}


def _argument(args: tuple[Any, ...], kwargs: Mapping[str, Any], index: int, name: str) -> Any:
    if index < len(args):
        return args[index]
    return kwargs.get(name)


def _estimate(name: str, value: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> int:
    """About how long the result of filter ``name`` is, for the filters whose result may be
    far longer than their value (0 for the others, checked when they return)."""
    size = len(value) if isinstance(value, str) else 0
    if name == "replace":
        old, new = text(_argument(args, kwargs, 0, "old")), text(_argument(args, kwargs, 1, "new"))
        count = _argument(args, kwargs, 2, "count")
        found = value.count(old) if old else size + 1
        if isinstance(count, int) and count >= 0:
            found = min(found, count)
        return size + found * max(len(new) - len(old), 0)
    if name == "center":
        width = _argument(args, kwargs, 0, "width")
        return max(size, width if isinstance(width, int) else 80)
    if name == "indent":
        width = _argument(args, kwargs, 0, "width")
        pad: int = len(width) if isinstance(width, str) else width if isinstance(width, int) else 4
        return size + (str(value).count("\n") + 1) * pad
    if name == "wordwrap":
        width = _argument(args, kwargs, 0, "width")
        wrap = _argument(args, kwargs, 2, "wrapstring")
        lines = size // max(width if isinstance(width, int) else 79, 1) + 1
        return size + lines * (len(wrap) if isinstance(wrap, str) else 1)
    if name == "truncate":
        end = _argument(args, kwargs, 2, "end")
        return min(size, 2 * MAX_WIDTH) + (len(end) if isinstance(end, str) else 3)
    if name == "urlize":
        # Each link, which needs a dot, an @ or a colon, is written twice in a tag with the
        # target and rel given.
        extra = sum(
            len(part)
            for part in (_argument(args, kwargs, 2, "target"), _argument(args, kwargs, 3, "rel"))
            if isinstance(part, str)
        )
        links = sum(value.count(mark) for mark in ".@:") + 1 if isinstance(value, str) else 0
        return 2 * size + links * (60 + extra)
    if name in ("batch", "slice"):
        count = _argument(args, kwargs, 0, "linecount" if name == "batch" else "slices")
        items = len(value) if isinstance(value, _SizedLoopItems | list | tuple) else 0
        return items + (count if isinstance(count, int) else 0)
    if name in ("tojson", "pprint", "xmlattr", "urlencode"):
        measured, _ = _measure(value)
        indent = _argument(args, kwargs, 0, "indent") if name == "tojson" else 1
        return measured * (1 + (indent if isinstance(indent, int) else 0))
    return 0


def _check_arguments(name: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
    for index, keyword, limit in _WIDTHS.get(name, ()):
        width = _argument(args, kwargs, index, keyword)
        if isinstance(width, int) and abs(width) > limit:
            raise SandboxError(f"{name}: {keyword} may be at most {limit:,}, got {width:,}")
    if name in _VALUE_ARGUMENTS:
        return
    for argument in (*args, *kwargs.values()):
        if isinstance(argument, int) and abs(argument) > MAX_NUMBER:
            raise SandboxError(
                f"{name}: the number {argument:,} is too large (at most {MAX_NUMBER:,})"
            )


def _bounded_filter(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """jinja's filter ``name`` as content may use it: one step, its numeric arguments bounded,
    its value drawn in order (and counted) or printed in order, its result's size estimated
    before it is made and checked after."""
    if getattr(function, "pnp_bounded", False):
        return function
    passed = _PassArg.from_obj(function)
    skip = 0 if passed is None else 1
    iterating, stringifying = name in _ITERATING, name in _STRINGIFYING

    def bounded(*args: Any, **kwargs: Any) -> Any:
        charge(1)
        if len(args) > skip:
            value = args[skip]
            rest = args[skip + 1 :]
            _check_arguments(name, rest, kwargs)
            if iterating:
                value = _drawn(value)
            elif stringifying and not isinstance(value, str):  # a safe text stays safe
                value = printable(value)
                if not isinstance(value, jinja2.Undefined):
                    value = str(value)
            elif isinstance(value, set | frozenset) and name in ("last", "reverse"):
                value = ordered(value)
            estimate = _estimate(name, value, rest, kwargs)
            if estimate > MAX_LENGTH:
                raise _too_long(estimate, f"the result of '{name}'")
            args = (*args[:skip], value, *rest)
        result = function(*args, **kwargs)
        if isinstance(result, types.GeneratorType | collections.abc.Iterator):
            return _draw(result)
        return _created(result)

    bounded.__name__ = getattr(function, "__name__", name)
    bounded.__doc__ = function.__doc__
    bounded.pnp_bounded = True  # type: ignore[attr-defined]
    if passed is not None:
        bounded.jinja_pass_arg = passed  # type: ignore[attr-defined]
    return bounded


def _bounded_test(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """jinja's test ``name`` as one step (a test compares or inspects; it builds nothing)."""
    if getattr(function, "pnp_bounded", False):
        return function
    passed = _PassArg.from_obj(function)

    def bounded(*args: Any, **kwargs: Any) -> Any:
        charge(1)
        return function(*args, **kwargs)

    bounded.__name__ = getattr(function, "__name__", name)
    bounded.pnp_bounded = True  # type: ignore[attr-defined]
    if passed is not None:
        bounded.jinja_pass_arg = passed  # type: ignore[attr-defined]
    return bounded


class _BoundedTable(dict[str, Any]):
    """An environment's filters or tests: each one bounded as it is added (pnp adds its own
    filters after the environment is made)."""

    def __init__(self, bound: Callable[[str, Callable[..., Any]], Callable[..., Any]]) -> None:
        super().__init__()
        self._bound = bound

    def __setitem__(self, name: str, function: Callable[..., Any]) -> None:
        super().__setitem__(name, self._bound(name, function))

    def update(self, *args: Any, **kwargs: Any) -> None:
        for name, function in dict(*args, **kwargs).items():
            self[name] = function

    def setdefault(self, name: str, function: Any = None) -> Any:
        if name not in self:
            self[name] = function
        return self[name]


@pass_eval_context
def _join(eval_ctx: Any, value: Any, d: str = "", attribute: str | int | None = None) -> str:
    """jinja's ``join``, its items drawn in order and measured before they are joined."""
    if attribute is not None:
        value = map(jinja_filters.make_attrgetter(eval_ctx.environment, attribute), value)
    items = [text(item) if item.__class__ is not str else item for item in value]
    separator = text(d)
    total = sum(len(item) for item in items) + len(separator) * max(len(items) - 1, 0)
    if total > MAX_LENGTH:
        raise _too_long(total, "a joined text")
    return jinja_filters.sync_do_join(eval_ctx, items, separator)


@pass_environment
def _sum(
    environment: jinja2.Environment,
    iterable: Any,
    attribute: str | int | None = None,
    start: Any = 0,
) -> Any:
    """jinja's ``sum``; of anything but numbers, one bounded ``+`` at a time (summing lists
    copies each partial sum)."""
    if attribute is not None:
        iterable = map(jinja_filters.make_attrgetter(environment, attribute), iterable)
    items = list(iterable)
    if all(isinstance(item, int | float) for item in items) and isinstance(start, int | float):
        return sum(items, start)
    if isinstance(start, str | bytes | bytearray):
        raise TypeError("sum() can't sum strings [use ''.join(seq) instead]")
    total = start
    for item in items:
        total = _add(total, item)
    return total


def _pprint(value: Any) -> str:
    """jinja's ``pprint``, every set and dict in a fixed order."""
    return pprint.pformat(_pretty(value), sort_dicts=False)


def _pretty(value: Any) -> Any:
    if isinstance(value, set | frozenset):
        return _Printed(value)
    if type(value) is list:
        return [_pretty(item) for item in value]
    if type(value) is tuple:
        return tuple(_pretty(item) for item in value)
    if type(value) is dict:
        keys = sorted(value, key=_order_key)
        return {key: _pretty(value[key]) for key in keys}
    return printable(value)


def _format_filter(value: Any, *args: Any, **kwargs: Any) -> str:
    """jinja's ``format``: ``value % args`` as the ``%`` operator makes it."""
    if args and kwargs:
        raise FilterArgumentError("can't handle positional and keyword arguments at the same time")
    return _percent(text(value), kwargs or args)


_FILTERS: dict[str, Callable[..., Any]] = {
    **{name: f for name, f in jinja_filters.FILTERS.items() if name != "random"},
    "join": _join,
    "sum": _sum,
    "pprint": _pprint,
    "format": _format_filter,
}


# -- calls -------------------------------------------------------------------------------------


def _join_estimate(separator: str | bytes, items: list[Any]) -> int:
    total = len(separator) * max(len(items) - 1, 0)
    for item in items:
        total += len(item) if isinstance(item, str | bytes) else 0
        if total > MAX_LENGTH:
            break
    return total


def _method_estimate(owner: str | bytes, name: str, args: list[Any], kwargs: dict[str, Any]) -> int:
    """About how long a string method's result is, for the methods whose result may be far
    longer than the string (0 for the others, checked when they return)."""
    size = len(owner)
    first = args[0] if args else None
    if name in ("center", "ljust", "rjust", "zfill"):
        width = first if first is not None else kwargs.get("width")
        return max(size, width) if isinstance(width, int) else size
    if name == "expandtabs":
        tabsize = first if first is not None else kwargs.get("tabsize", 8)
        tabs = owner.count("\t" if isinstance(owner, str) else b"\t")  # type: ignore[arg-type]
        return size + tabs * (tabsize if isinstance(tabsize, int) else 8)
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str | bytes):
        old, new = args[0], args[1]
        count = args[2] if len(args) > 2 else kwargs.get("count", -1)
        found = owner.count(old) if old else size + 1  # type: ignore[arg-type]
        if isinstance(count, int) and count >= 0:
            found = min(found, count)
        return size + found * max(len(new) - len(old), 0)
    if name == "join" and args and isinstance(args[0], list):
        return _join_estimate(owner, args[0])
    if name == "translate" and isinstance(first, Mapping):
        longest = max(
            (len(v) if isinstance(v, str | bytes) else 1 for v in first.values()), default=1
        )
        return size * longest
    return 0


def _format_call(wrapper: Callable[..., str], owner: str, name: str) -> Callable[..., str]:
    """``owner.format``/``format_map`` (jinja's sandboxed wrapper), its result's size
    estimated from the fields and arguments before it is made."""
    widths = _format_widths(owner, braces=True)
    fields = owner.count("{")

    def formatted(*args: Any, **kwargs: Any) -> str:
        arguments: Any = dict(enumerate(args))
        arguments.update(kwargs)
        if name == "format_map" and args:
            arguments = args[0]
        _, largest = _argument_sizes(arguments if isinstance(arguments, Mapping) else {})
        estimate = len(owner) + widths + fields * largest
        if estimate > MAX_LENGTH:
            raise _too_long(estimate, "a formatted text")
        shown = [printable(argument) for argument in args]
        named = {key: printable(value) for key, value in kwargs.items()}
        if name == "format_map" and shown and isinstance(args[0], dict):
            shown = [{key: printable(value) for key, value in args[0].items()}]
        return _created(wrapper(*shown, **named))  # type: ignore[no-any-return]

    formatted.__name__ = name
    return formatted


# -- globals -----------------------------------------------------------------------------------


class _BoundedRange:
    """``range`` of at most :data:`MAX_LENGTH` numbers (what draws from it counts the steps)."""

    def __init__(self, *args: int) -> None:
        for value in args:
            if not isinstance(value, int) or isinstance(value, bool):
                raise SandboxError(f"range() takes whole numbers, got {value!r}")
        self._range = range(*args)
        if len(self._range) > MAX_STEPS:
            raise SandboxError(
                f"range of {len(self._range):,} numbers is too long (at most {MAX_STEPS:,})"
            )

    def __iter__(self) -> Iterator[int]:
        return iter(self._range)

    def __len__(self) -> int:
        return len(self._range)

    def __getitem__(self, index: int) -> int:
        return self._range[index]

    def __contains__(self, value: object) -> bool:
        return value in self._range

    def __repr__(self) -> str:
        return repr(self._range)


def _sorted(items: Iterable[Any], /, *, key: Any = None, reverse: bool = False) -> list[Any]:
    return _created(sorted(_drawn(items), key=key, reverse=reverse))  # type: ignore[no-any-return]


def _extreme(function: Callable[..., Any]) -> Callable[..., Any]:
    def extreme(*args: Any, **kwargs: Any) -> Any:
        if len(args) == 1:
            return function(_drawn(args[0]), **kwargs)
        return function(*args, **kwargs)

    extreme.__name__ = function.__name__
    return extreme


def _enumerate(items: Iterable[Any], start: int = 0) -> Iterator[tuple[int, Any]]:
    return enumerate(_drawn(items), start)


_GLOBALS: dict[str, Any] = {
    "range": _BoundedRange,
    "len": len,
    "min": _extreme(min),
    "max": _extreme(max),
    "sorted": _sorted,
    "enumerate": _enumerate,
}


# -- the environment ---------------------------------------------------------------------------

_HELPERS = {
    f"{__name__}.{function.__name__}": function
    for function in (loop_items, concatenated, sliced, unpacked)
}


class _Bounding(NodeTransformer):
    """The compiled form of a template calls this module where jinja's own code would loop,
    join with ``~`` or slice without asking the sandbox: by import name, which no name a
    template defines can shadow."""

    def visit_For(self, node: nodes.For) -> nodes.Node:
        self.generic_visit(node)
        if not _calls_helper(node.iter):
            literal = sum(len(data.data) for data in node.find_all(nodes.TemplateData))
            iterated = typing.cast(nodes.Expr, node.iter)
            unpacks = nodes.Const(isinstance(node.target, nodes.Tuple))
            node.iter = _helper_call("loop_items", [iterated, nodes.Const(literal), unpacks], node)
        return node

    def visit_Assign(self, node: nodes.Assign) -> nodes.Node:
        self.generic_visit(node)
        if isinstance(node.target, nodes.Tuple) and not _calls_helper(node.node):
            node.node = _helper_call("unpacked", [typing.cast(nodes.Expr, node.node)], node)
        return node

    def visit_With(self, node: nodes.With) -> nodes.Node:
        self.generic_visit(node)
        node.values = [
            _helper_call("unpacked", [value], node)
            if isinstance(target, nodes.Tuple) and not _calls_helper(value)
            else value
            for target, value in zip(node.targets, node.values, strict=True)
        ]
        return node

    def _star_arguments(self, node: nodes.Call | nodes.Filter | nodes.Test) -> nodes.Node:
        """A call's ``*args``: iterated in order and counted, as a loop is."""
        self.generic_visit(node)
        if node.dyn_args is not None and not _calls_helper(node.dyn_args):
            node.dyn_args = _helper_call("loop_items", [node.dyn_args], node)
        return node

    visit_Call = visit_Filter = visit_Test = _star_arguments

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)
        return _helper_call("concatenated", list(node.nodes), node)

    def visit_Getitem(self, node: nodes.Getitem) -> nodes.Node:
        self.generic_visit(node)
        if not isinstance(node.arg, nodes.Slice) or node.ctx != "load":
            return node
        parts = [
            nodes.Const(None) if part is None else part
            for part in (node.arg.start, node.arg.stop, node.arg.step)
        ]
        return _helper_call("sliced", [node.node, *parts], node)


def _helper_call(name: str, arguments: list[nodes.Expr], at: nodes.Node) -> nodes.Call:
    call = nodes.Call(
        nodes.ImportedName(f"{__name__}.{name}"), arguments, [], None, None, lineno=at.lineno
    )
    return call


def _calls_helper(node: nodes.Node) -> bool:
    return (
        isinstance(node, nodes.Call)
        and isinstance(node.node, nodes.ImportedName)
        and node.node.importname in _HELPERS
    )


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

_STRING_METHODS = (types.BuiltinMethodType, types.MethodWrapperType, types.MethodType)
"""Methods that may be a string's (markupsafe's Markup defines its own in Python)."""


class _BoundedTemplate(jinja2.Template):
    """A template whose ``render`` runs within the sandbox's budget."""

    def render(self, *args: Any, **kwargs: Any) -> str:
        return render_bounded(self, dict(*args, **kwargs))


class ContentEnvironment(ImmutableSandboxedEnvironment):
    """jinja's immutable sandbox, narrowed to model values and bounded in work."""

    intercepted_binops = frozenset({"*", "+", "**", "%"})
    template_class = _BoundedTemplate

    def __init__(self, **options: Any) -> None:
        super().__init__(
            undefined=jinja2.StrictUndefined, autoescape=False, finalize=finalize, **options
        )
        self.globals.clear()
        self.globals.update(_GLOBALS)
        self.binop_table.update({"*": _multiply, "+": _add, "**": _power, "%": _modulo})
        filters, tests = _BoundedTable(_bounded_filter), _BoundedTable(_bounded_test)
        filters.update(_FILTERS)
        tests.update(self.tests)
        self.filters, self.tests = filters, tests

    def _generate(
        self,
        source: nodes.Template,
        name: str | None,
        filename: str | None,
        defer_init: bool = False,
    ) -> str:
        _Bounding().visit(source)
        source.set_environment(self)
        return super()._generate(source, name, filename, defer_init)

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
        if __obj is loop_items or __obj is concatenated or __obj is sliced or __obj is unpacked:
            return __obj(*args)
        charge(1)
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
                raise SandboxError(f"the number {value!r} is too large for a template")
        if isinstance(__obj, LoopContext) and args:
            # A recursive loop's `loop(children)`: its rounds are steps like any loop's.
            args = (loop_items(args[0]), *args[1:])
        elif isinstance(__obj, _STRING_METHODS):
            owner = getattr(__obj, "__self__", None)
            if isinstance(owner, str | bytes | int):
                args = __self._before_method(owner, __obj.__name__, args, kwargs)
            elif __obj.__name__ == "fromkeys" and args:
                # A dict keeps its keys in the order it is given them.
                args = (list(_drawn(args[0])), *args[1:])
        return _created(super().call(__context, __obj, *args, **kwargs))

    @staticmethod
    def _before_method(
        owner: str | bytes | int, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, ...]:
        """The arguments a method of a string or number is called with, after refusing a
        call whose result would be too large."""
        if isinstance(owner, int):
            length = args[0] if args else kwargs.get("length", 1)
            if name == "to_bytes" and isinstance(length, int) and length > MAX_LENGTH:
                raise _too_long(length)
            return args
        arguments = list(args)
        if name == "join" and arguments:
            arguments[0] = list(_drawn(arguments[0]))
        estimate = _method_estimate(owner, name, arguments, kwargs)
        if estimate > MAX_LENGTH:
            raise _too_long(estimate, f"the result of '{name}'")
        return tuple(arguments)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapper = super().wrap_str_format(value)
        if wrapper is None:
            return None
        return _format_call(wrapper, value.__self__, value.__name__)


def _is_model_attribute(cls: type, attribute: str) -> bool:
    """Whether a template may read ``attribute`` of an instance of ``cls``, when that depends
    on the class and name alone (model dataclasses and enums; False for any other class)."""
    if attribute.startswith("_"):
        return False
    if issubclass(cls, enum.Enum):
        return attribute in ("name", "value") or attribute in _public_names(cls)
    return dataclasses.is_dataclass(cls) and attribute in _public_names(cls)


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


_MODEL_ATTRIBUTES: dict[tuple[type, str], bool] = {}
_METHODS = (types.MethodType, types.BuiltinMethodType)
"""Bound methods, of which a string's ``format`` must still go through the sandbox's wrapper."""

ENVIRONMENT = ContentEnvironment()
"""The shared environment: one compile cache for every template and prose string."""


# -- evaluations -------------------------------------------------------------------------------


def _context(template: jinja2.Template, scope: Mapping[str, Any]) -> jinja2.runtime.Context:
    """The context ``template.generate(scope)`` would make, without its two copies of the scope
    and the globals: a face evaluates thousands of small values, and copying a few dozen names
    for each was most of their cost. Names resolve from ``scope`` first, then the globals, as
    in jinja's own context."""
    environment = template.environment
    parent: Any = collections.ChainMap(scope, environment.globals)  # type: ignore[arg-type]
    return environment.context_class(environment, parent, template.name, template.blocks)


def check_output(length: int) -> None:
    """Refuse a render's text once it is longer than :data:`MAX_LENGTH`."""
    if length > MAX_LENGTH:
        raise SandboxError(f"the text grew past {MAX_LENGTH:,} characters")


def _refused(error: BaseException) -> SandboxError | None:
    """What Python's own refusals in an evaluation say to content."""
    if isinstance(error, RecursionError):
        return SandboxError("a macro calls itself without end")
    if isinstance(error, OverflowError | MemoryError):
        return SandboxError(f"too large: {error}")
    return None


def render_bounded(template: jinja2.Template, context: Mapping[str, Any]) -> str:
    """Render ``template`` within the sandbox's budget; SandboxError when it exceeds it."""
    token = _begin()
    try:
        pieces: list[str] = []
        length = 0
        try:
            for piece in template.root_render_func(_context(template, context)):
                length += len(piece)
                check_output(length)
                pieces.append(piece)
        except SandboxError:
            raise
        except Exception as error:
            refused = _refused(error)
            if refused is not None:
                raise refused from None
            # As Template.generate does: the error, with a traceback pointing into the template.
            template.environment.handle_exception()
        return "".join(pieces)
    except RecursionError:
        raise SandboxError("a macro calls itself without end") from None
    except (OverflowError, MemoryError) as error:
        raise SandboxError(f"too large: {error}") from None
    finally:
        _end(token)


def call_bounded(function: Callable[[Mapping[str, Any]], Any], scope: Mapping[str, Any]) -> Any:
    """``function(scope)`` within the sandbox's budget: for an expression compiled to Python
    closures (:mod:`pnp.content.expressions`)."""
    token = _begin()
    try:
        return function(scope)
    except (RecursionError, OverflowError, MemoryError) as error:
        raise _refused(error) from None  # type: ignore[misc]
    finally:
        _end(token)


def evaluate_bounded(expression: Callable[..., Any], context: Mapping[str, Any]) -> Any:
    """Evaluate a compiled expression (``environment.compile_expression``) within the sandbox's
    budget."""
    token = _begin()
    try:
        # TemplateExpression.__call__, without copying the scope twice (see _context).
        template: jinja2.Template = expression._template  # type: ignore[attr-defined]
        run = _context(template, context)
        try:
            for _ in template.root_render_func(run):
                pass
        except SandboxError:
            raise
        except Exception as error:
            refused = _refused(error)
            if refused is not None:
                raise refused from None
            template.environment.handle_exception()
        return run.vars["result"]
    except RecursionError:
        raise SandboxError("a macro calls itself without end") from None
    except (OverflowError, MemoryError) as error:
        raise SandboxError(f"too large: {error}") from None
    finally:
        _end(token)
