"""Template expressions evaluated as Python closures, with the sandbox's own rules.

A face evaluates thousands of small expressions (``12 + (n % lair.columns) * cell``), and
running each through jinja costs a new context, a generator and a name lookup through its
resolver — several times the arithmetic itself. :func:`compile_expression` turns an
expression built from the common subset of jinja (names, constants, attributes, items and
slices, arithmetic, ``~``, comparisons, ``and``/``or``/``not``, inline ``if``, tuples, lists,
dicts, calls and filters that take no context) into a tree of closures that call the
sandboxed environment exactly where jinja's generated code does: ``environment.getattr``,
``environment.getitem``, the intercepted binary operators, ``environment.call``'s checks.

Anything outside the subset compiles to ``None``, and anything unusual at run time — a
missing name, an undefined attribute, an error of any kind — raises :class:`Unsupported`, so
the caller evaluates the expression through jinja instead and gets jinja's own result or
its own located error. The closures are a shortcut, never a second dialect.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import jinja2
from jinja2 import meta as jinja_meta
from jinja2 import nodes
from jinja2.nodes import EvalContext
from jinja2.parser import Parser
from jinja2.utils import _PassArg

from pnp.content.parsecache import cached_names
from pnp.content.sandbox import (
    MAX_INTEGER_BITS,
    ContentEnvironment,
    SandboxError,
    call_bounded,
    check_output,
    concatenated,
    finalize,
    render_bounded,
    sliced,
)

Scope = Mapping[str, Any]
Closure = Callable[[Scope], Any]


class Unsupported(Exception):
    """This evaluation needs jinja itself (a missing name, an undefined value, an error)."""


_PLAIN_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "-": operator.sub,
    "/": operator.truediv,
    "//": operator.floordiv,
}
_NUMERIC_SAFE: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "%": operator.mod,
}
_NUMBERS = (int, float)
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "gt": operator.gt,
    "gteq": operator.ge,
    "lt": operator.lt,
    "lteq": operator.le,
    "in": lambda left, right: left in right,
    "notin": lambda left, right: left not in right,
}
_MISSING = object()


@dataclass(frozen=True)
class Compiled:
    """An expression as closures."""

    evaluate: Closure
    calls: bool
    """It calls a function or a filter, which may draw from ``range``: it must run within the
    sandbox's budget. Without a call nothing can iterate (``in`` asks a range directly)."""


def compile_expression(source: str, environment: ContentEnvironment) -> Compiled | None:
    """The jinja expression ``source`` as closures that evaluate it in a scope as jinja
    would, or None when it uses something outside the subset this module compiles."""
    try:
        parser = Parser(environment, source, state="variable")
        tree = parser.parse_expression()
        if not parser.stream.eos:
            return None
        compiler = _Compiler(environment)
        return Compiled(compiler.compile(tree), calls=compiler.calls)
    except (jinja2.TemplateSyntaxError, _NotCompiled):
        return None


@lru_cache(maxsize=8192)
def parsed(source: str, environment: ContentEnvironment) -> nodes.Template:
    """``environment.parse(source)``, once per text: a face's names and its closures both
    read the same parse, and jinja's lexer is most of the cost of either. The tree is shared:
    read it, never change it."""
    return environment.parse(source)


@lru_cache(maxsize=8192)
def undeclared_names(source: str, environment: ContentEnvironment) -> frozenset[str]:
    """The names ``source`` reads from its context (jinja's ``find_undeclared_variables``),
    once per text, and kept in the parse store; TemplateSyntaxError when it does not parse."""

    def find() -> frozenset[str]:
        return frozenset(jinja_meta.find_undeclared_variables(parsed(source, environment)))

    return cached_names(environment, source, find)


def compile_text(source: str, environment: ContentEnvironment) -> Compiled | None:
    """Template text made of literal text and ``{{ expression }}``s, as closures that render
    it as jinja would: jinja's own parse of ``source`` (its whitespace control, comments and
    trailing newline applied), then ``str()`` of each value between the texts, which is what
    jinja's generated code writes. None when the text holds anything else (a statement, an
    expression outside the subset) or does not parse."""
    try:
        body = parsed(source, environment).body
        compiler = _Compiler(environment)
        pieces: list[str | Closure] = []
        for node in body:
            if not isinstance(node, nodes.Output):
                return None
            for child in node.nodes:
                if isinstance(child, nodes.TemplateData):
                    if pieces and isinstance(pieces[-1], str):
                        pieces[-1] += child.data
                    else:
                        pieces.append(child.data)
                else:
                    pieces.append(compiler.compile(child))
    except (jinja2.TemplateSyntaxError, _NotCompiled):
        return None
    return Compiled(_joined(pieces), calls=compiler.calls)


@lru_cache(maxsize=8192)
def text_renderer(source: str, environment: ContentEnvironment) -> Callable[[Scope], str]:
    """``source`` rendered as ``render_bounded(environment.from_string(source), scope)``
    renders it: by :func:`compile_text`'s closures where they can, with jinja compiling the
    text only if they ever need it. A syntax error raises here, as compiling would. Made
    once per text and environment: face values, the ``prose`` filter and content prose
    share it."""
    compiled = compile_text(source, environment)
    templates: list[jinja2.Template] = []

    def through_jinja(scope: Scope) -> str:
        if not templates:
            templates.append(environment.from_string(source))
        return render_bounded(templates[0], scope)

    if compiled is None:
        templates.append(environment.from_string(source))
        return through_jinja
    return with_fallback(compiled.evaluate, through_jinja, calls=compiled.calls)


def bounded_text(render: Closure) -> Closure:
    """``render`` refusing what :func:`render_bounded` refuses: text past the sandbox's
    length."""

    def checked(scope: Scope) -> str:
        text: str = render(scope)
        check_output(len(text))
        return text

    return checked


def _shown(value: Any) -> str:
    """What jinja's generated code writes for ``{{ value }}``: ``str()`` of the sandbox's
    finalize, at once for the numbers a face writes most."""
    cls = value.__class__
    if cls is float or (cls is int and value.bit_length() <= MAX_INTEGER_BITS):
        return str(value)
    return str(finalize(value))


def _joined(pieces: list[str | Closure]) -> Closure:
    """The text of literal pieces and closures' values, as jinja writes them. The usual
    shapes, a length such as ``{{ 12 + n * cell }}mm`` among them, are concatenated directly:
    a face evaluates thousands."""
    texts = [piece for piece in pieces if isinstance(piece, str)]
    closures = [piece for piece in pieces if not isinstance(piece, str)]
    if not closures:
        text = "".join(texts)
        return lambda scope: text
    if len(closures) == 1 and len(pieces) <= 3:
        only = closures[0]
        before = pieces[0] if isinstance(pieces[0], str) else ""
        after = pieces[-1] if isinstance(pieces[-1], str) else ""

        def around(scope: Scope) -> str:
            text = before + _shown(only(scope)) + after
            check_output(len(text))
            return text

        return around

    def render(scope: Scope) -> str:
        text = "".join(
            [piece if piece.__class__ is str else _shown(piece(scope)) for piece in pieces]  # type: ignore[operator]
        )
        check_output(len(text))
        return text

    return render


def with_fallback(
    closure: Callable[[Scope], Any], jinja_path: Callable[[Scope], Any], *, calls: bool
) -> Callable[[Scope], Any]:
    """Evaluate with ``closure``; where it cannot say what jinja would, ask jinja. ``calls``:
    the closure calls functions or filters (see :attr:`Compiled.calls`). What the sandbox
    refuses, it refuses on either path: that error stands."""

    def evaluate(scope: Scope) -> Any:
        try:
            return closure(scope)
        except SandboxError:
            raise
        except Exception:  # jinja decides: its own result, or its own located error
            return jinja_path(scope)

    def evaluate_bounded(scope: Scope) -> Any:
        try:
            return call_bounded(closure, scope)
        except SandboxError:
            raise
        except Exception:
            return jinja_path(scope)

    return evaluate_bounded if calls else evaluate


class _NotCompiled(Exception):
    pass


class _Compiler:
    def __init__(self, environment: ContentEnvironment) -> None:
        self.environment = environment
        self.calls = False

    def compile(self, node: nodes.Node) -> Closure:
        visit = getattr(self, f"_{type(node).__name__}", None)
        if visit is None:
            raise _NotCompiled(type(node).__name__)
        closure: Closure = visit(node)
        return closure

    def _Const(self, node: nodes.Const) -> Closure:
        value = node.value
        return lambda scope: value

    def _Name(self, node: nodes.Name) -> Closure:
        if node.ctx != "load":
            raise _NotCompiled("store")
        name = node.name
        globals_ = self.environment.globals

        def lookup(scope: Scope) -> Any:
            try:
                return scope[name]
            except KeyError:
                value = globals_.get(name, _MISSING)
                if value is _MISSING:
                    raise Unsupported(name) from None
                return value

        return lookup

    def _Getattr(self, node: nodes.Getattr) -> Closure:
        target = self.compile(node.node)
        attribute = node.attr
        getattr_ = self.environment.getattr
        return lambda scope: _defined(getattr_(target(scope), attribute))

    def _Getitem(self, node: nodes.Getitem) -> Closure:
        target = self.compile(node.node)
        if isinstance(node.arg, nodes.Slice):  # the sandbox counts what a slice copies
            start, stop, step = (
                None if part is None else self.compile(part)
                for part in (node.arg.start, node.arg.stop, node.arg.step)
            )
            return lambda scope: sliced(
                target(scope),
                None if start is None else start(scope),
                None if stop is None else stop(scope),
                None if step is None else step(scope),
            )
        argument = self.compile(node.arg)
        getitem = self.environment.getitem
        return lambda scope: _defined(getitem(target(scope), argument(scope)))

    def _binary(self, node: nodes.BinExpr) -> Closure:
        left, right = self.compile(node.left), self.compile(node.right)
        symbol = node.operator
        function: Callable[[Any, Any], Any]
        if symbol in self.environment.intercepted_binops:
            function = _numbers_first(symbol, self.environment.binop_table[symbol])
        elif symbol in _PLAIN_BINARY:
            function = _PLAIN_BINARY[symbol]
        else:
            raise _NotCompiled(symbol)
        # A constant side is read once (a face evaluates `12 + n * cell` for every cell).
        if isinstance(node.right, nodes.Const):
            constant = node.right.value
            return lambda scope: function(left(scope), constant)
        if isinstance(node.left, nodes.Const):
            constant = node.left.value
            return lambda scope: function(constant, right(scope))
        return lambda scope: function(left(scope), right(scope))

    _Add = _Sub = _Mul = _Div = _FloorDiv = _Mod = _Pow = _binary

    def _Neg(self, node: nodes.Neg) -> Closure:
        value = self.compile(node.node)
        return lambda scope: -value(scope)

    def _Pos(self, node: nodes.Pos) -> Closure:
        value = self.compile(node.node)
        return lambda scope: +value(scope)

    def _Not(self, node: nodes.Not) -> Closure:
        value = self.compile(node.node)
        return lambda scope: not value(scope)

    def _And(self, node: nodes.And) -> Closure:
        left, right = self.compile(node.left), self.compile(node.right)
        return lambda scope: left(scope) and right(scope)

    def _Or(self, node: nodes.Or) -> Closure:
        left, right = self.compile(node.left), self.compile(node.right)
        return lambda scope: left(scope) or right(scope)

    def _Concat(self, node: nodes.Concat) -> Closure:
        parts = [self.compile(part) for part in node.nodes]
        return lambda scope: concatenated(*[part(scope) for part in parts])

    def _Compare(self, node: nodes.Compare) -> Closure:
        first = self.compile(node.expr)
        steps = [(_COMPARE[op.op], self.compile(op.expr)) for op in node.ops]

        def compare(scope: Scope) -> Any:
            # Python's chained comparison, which is what jinja generates: `a < b < c`.
            left = first(scope)
            result: Any = True
            for function, operand in steps:
                right = operand(scope)
                result = function(left, right)
                if not result:
                    return result
                left = right
            return result

        return compare

    def _CondExpr(self, node: nodes.CondExpr) -> Closure:
        test, then = self.compile(node.test), self.compile(node.expr1)
        otherwise = None if node.expr2 is None else self.compile(node.expr2)

        def choose(scope: Scope) -> Any:
            if test(scope):
                return then(scope)
            if otherwise is None:  # jinja's undefined "no else section": its own message
                raise Unsupported("if without else")
            return otherwise(scope)

        return choose

    def _Tuple(self, node: nodes.Tuple) -> Closure:
        items = [self.compile(item) for item in node.items]
        return lambda scope: tuple([item(scope) for item in items])

    def _List(self, node: nodes.List) -> Closure:
        items = [self.compile(item) for item in node.items]
        return lambda scope: [item(scope) for item in items]

    def _Dict(self, node: nodes.Dict) -> Closure:
        pairs = [(self.compile(pair.key), self.compile(pair.value)) for pair in node.items]
        return lambda scope: {key(scope): value(scope) for key, value in pairs}

    def _arguments(
        self, node: nodes.Call | nodes.Filter
    ) -> tuple[list[Closure], list[tuple[str, Closure]]]:
        if node.dyn_args is not None or node.dyn_kwargs is not None:
            raise _NotCompiled("*args")
        positional = [self.compile(argument) for argument in node.args]
        keywords = [(str(keyword.key), self.compile(keyword.value)) for keyword in node.kwargs]
        return positional, keywords

    def _Call(self, node: nodes.Call) -> Closure:
        target = self.compile(node.node)
        positional, keywords = self._arguments(node)
        environment = self.environment
        self.calls = True

        def call(scope: Scope) -> Any:
            function = target(scope)
            # What the callable asks jinja's context to pass it, found as Context.call finds
            # it: an evaluation context (a macro asks for one) is made as a template's is.
            asks = function
            if hasattr(asks, "__call__") and _PassArg.from_obj(asks.__call__) is not None:  # noqa: B004
                asks = asks.__call__
            passed = _PassArg.from_obj(asks)
            if passed is _PassArg.eval_context:
                args = [EvalContext(environment), *[argument(scope) for argument in positional]]
            elif passed is None:
                args = [argument(scope) for argument in positional]
            else:
                raise Unsupported("a callable that takes jinja's context")
            kwargs = {key: value(scope) for key, value in keywords}
            # The sandbox's checks (safe callable, number sizes, result length), then the call
            # as jinja's context makes it for a callable that takes no context.
            return environment.call(_DirectCall, function, *args, **kwargs)

        return call

    def _Filter(self, node: nodes.Filter) -> Closure:
        if node.node is None:
            raise _NotCompiled("filter block")
        function = self.environment.filters.get(node.name)
        passed = None if function is None else _PassArg.from_obj(function)
        if function is None or passed not in (None, _PassArg.eval_context):
            raise _NotCompiled(f"filter {node.name}")
        target = self.compile(node.node)
        positional, keywords = self._arguments(node)
        environment = self.environment
        self.calls = True

        def apply(scope: Scope) -> Any:
            args = [argument(scope) for argument in positional]
            kwargs = {key: value(scope) for key, value in keywords}
            if passed is None:
                return function(target(scope), *args, **kwargs)
            # `join` and its kind read the evaluation context jinja passes them.
            return function(EvalContext(environment), target(scope), *args, **kwargs)

        return apply


def _numbers_first(symbol: str, guarded: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """The sandbox's operator ``symbol``, at once for two numbers it would pass unchanged:
    a face does this arithmetic for every cell."""
    plain = _NUMERIC_SAFE.get(symbol)
    if symbol == "*":

        def multiply(a: Any, b: Any) -> Any:
            # Only two whole numbers can grow without bound: their product is guarded once it
            # could pass the sandbox's largest integer.
            if (a.__class__ is float and b.__class__ in _NUMBERS) or (
                b.__class__ is float and a.__class__ is int
            ):
                return a * b
            if (
                a.__class__ is int
                and b.__class__ is int
                and a.bit_length() + b.bit_length() <= MAX_INTEGER_BITS
            ):
                return a * b
            return guarded(a, b)

        return multiply
    if plain is None:
        return guarded

    def numeric(a: Any, b: Any) -> Any:
        if a.__class__ in _NUMBERS and b.__class__ in _NUMBERS:
            return plain(a, b)
        return guarded(a, b)

    return numeric


class _DirectCall:
    """What ``Context.call`` does for a callable that takes no context, without a context."""

    @staticmethod
    def call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except StopIteration:
            raise Unsupported("StopIteration") from None


def _defined(value: Any) -> Any:
    if isinstance(value, jinja2.Undefined):
        raise Unsupported("undefined")
    return value
