"""jinja's parses and compiled code, kept between commands.

Every command parses and compiles the same template and prose texts as the command before
it: a fifth of a five-kit build (0.5 s of CPU). Kept on disk, as Python keeps its own
bytecode in ``__pycache__``, a syntax tree loads in a tenth of the time its parse takes
(pickled) and compiled code in a four-hundredth (marshalled); so are the names a text reads
from its context, which jinja finds by generating its code.

An entry is found by the digest of its text and of everything else that decides the result:
Python's and jinja's versions, the environment's settings, filters and tests, and the source
of the sandbox and of this module. Any other text, or the same text under another pnp, has
its own entry, so an entry never needs to be invalidated. Only successes are kept: a text
that does not parse is parsed again, and its error raised as before.

The store is ``$PNP_PARSE_CACHE``, else ``pnp/parses`` in the XDG cache directory beside the
font store; ``PNP_PARSE_CACHE=off`` turns it off. Entries are written to a temporary name and
renamed (processes side by side may write one at once). The folder is input, not trust (a CI
cache is restored from shared storage): every entry is sealed with this user's key on this
machine (:mod:`pnp.trust`), and one whose seal does not verify is parsed again, never loaded;
a verified tree is still read through an unpickler that builds jinja's node classes and
nothing else. An entry that cannot be read or written is parsed instead: the store makes
commands faster, never different.
"""

from __future__ import annotations

import hashlib
import io
import marshal
import os
import pickle
import sys
import types
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import jinja2
from jinja2 import nodes
from jinja2.utils import _PassArg

from pnp.output import atomic_output
from pnp.trust import seal, unseal

ENV_PARSE_CACHE = "PNP_PARSE_CACHE"
_OFF = {"off", "0", "no", "false"}
_ON = {"on", "1", "yes", "true"}
"""Read as "the usual place", not as a folder named "on" made in whatever folder pnp ran."""


def parse_cache_dir() -> Path | None:
    """Where parses are kept, or None when the store is turned off."""
    explicit = os.environ.get(ENV_PARSE_CACHE, "").strip()
    if explicit.lower() in _OFF:
        return None
    if explicit and explicit.lower() not in _ON:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    try:
        root = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    except (RuntimeError, KeyError):  # no home folder to be found: do without the store
        return None
    return root / "pnp" / "parses"


def cached_tree(
    environment: jinja2.Environment, source: str, parse: Callable[[], nodes.Template]
) -> nodes.Template:
    """``parse()``, the syntax tree of ``source`` in ``environment``, from the store when an
    earlier command parsed the same text."""

    def dump(tree: nodes.Template) -> bytes:
        buffer = io.BytesIO()
        _TreePickler(buffer, environment).dump(tree)
        return buffer.getvalue()

    def load(data: bytes) -> nodes.Template | None:
        tree = _TreeUnpickler(io.BytesIO(data), environment).load()
        return tree if isinstance(tree, nodes.Template) else None

    return _kept(environment, "tree", source, parse, dump, load)


def cached_code(
    environment: jinja2.Environment, source: str, compile_: Callable[[], types.CodeType]
) -> types.CodeType:
    """``compile_()``, the code jinja compiles ``source`` to in ``environment``, from the
    store when an earlier command compiled the same text."""

    def load(data: bytes) -> types.CodeType | None:
        code = marshal.loads(data)
        return code if isinstance(code, types.CodeType) else None

    return _kept(environment, "code", source, compile_, marshal.dumps, load)


def cached_names(
    environment: jinja2.Environment, source: str, find: Callable[[], frozenset[str]]
) -> frozenset[str]:
    """``find()``, the names ``source`` reads from its context, from the store when an
    earlier command found them (jinja finds them by running its code generator)."""

    def load(data: bytes) -> frozenset[str] | None:
        names = marshal.loads(data)
        if isinstance(names, frozenset) and all(isinstance(name, str) for name in names):
            return names
        return None

    return _kept(environment, "names", source, find, marshal.dumps, load)


T = TypeVar("T")


def _kept(
    environment: jinja2.Environment,
    kind: str,
    source: str,
    make: Callable[[], T],
    dump: Callable[[T], bytes],
    load: Callable[[bytes], T | None],
) -> T:
    """``make()`` of ``source``, loaded from its entry when the store holds one (``load``
    returns None for an entry that is not what it should be), else made and stored."""
    path = _entry(environment, kind, source)
    if path is not None:
        name = "parses/" + "/".join(path.parts[-4:])
        try:
            payload = unseal(name, path.read_bytes())
            # Only an entry this user sealed on this machine is loaded (see pnp.trust):
            # compiled code is executed, and a tree decides what a text means.
            found = load(payload) if payload is not None else None
            if found is not None:
                return found
        except Exception:  # a missing or unreadable entry: made again
            pass
    made = make()
    if path is not None:
        _write(path, seal(name, dump(made)))
    return made


# -- the store ------------------------------------------------------------------------------

_IDENTITIES: weakref.WeakKeyDictionary[jinja2.Environment, tuple[tuple[int, int], str]] = (
    weakref.WeakKeyDictionary()
)
"""Each environment's identity, and the numbers of filters and tests it was worked out with
(a filter added later makes another)."""
_SOURCES: list[bytes] = []


def _entry(environment: jinja2.Environment, kind: str, source: str) -> Path | None:
    environ = os.environ
    setting = (environ.get(ENV_PARSE_CACHE), environ.get("XDG_CACHE_HOME"), environ.get("HOME"))
    root = _ROOTS.get(setting)
    if root is None:
        root = _ROOTS[setting] = str(parse_cache_dir() or "")
    if not root:
        return None
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
    # One folder per identity and kind, 256 below it: a command reads a thousand entries.
    return Path(f"{root}/{_identity(environment)}/{kind}/{digest[:2]}/{digest[2:]}")


_ROOTS: dict[tuple[str | None, ...], str] = {}
"""The store's folder for each setting of the variables that place it ("" when off)."""


def _identity(environment: jinja2.Environment) -> str:
    """What, besides a text, decides its parse and its code in ``environment``."""
    sizes = (len(environment.filters), len(environment.tests))
    known = _IDENTITIES.get(environment)
    if known is not None and known[0] == sizes:
        return known[1]
    digest = hashlib.sha256()
    for part in (
        sys.version,
        jinja2.__version__,
        str(marshal.version),
        str(pickle.HIGHEST_PROTOCOL),
        f"{type(environment).__module__}.{type(environment).__qualname__}",
        repr(_settings(environment)),
        repr(sorted((name, _pass(value)) for name, value in environment.filters.items())),
        repr(sorted((name, _pass(value)) for name, value in environment.tests.items())),
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    for source in _sources():
        digest.update(source)
    identity = digest.hexdigest()[:24]
    _IDENTITIES[environment] = (sizes, identity)
    return identity


def _settings(environment: jinja2.Environment) -> tuple[Any, ...]:
    return (
        environment.block_start_string,
        environment.block_end_string,
        environment.variable_start_string,
        environment.variable_end_string,
        environment.comment_start_string,
        environment.comment_end_string,
        environment.line_statement_prefix,
        environment.line_comment_prefix,
        environment.trim_blocks,
        environment.lstrip_blocks,
        environment.newline_sequence,
        environment.keep_trailing_newline,
        environment.optimized,
        environment.is_async,
        bool(environment.autoescape),
        environment.finalize is not None,
        sorted(environment.extensions),
        getattr(environment.undefined, "__qualname__", repr(environment.undefined)),
        sorted(getattr(environment, "intercepted_binops", ())),
        sorted(getattr(environment, "intercepted_unops", ())),
    )


def _pass(function: Any) -> str:
    passed = _PassArg.from_obj(function)
    return "" if passed is None else passed.name


def _sources() -> list[bytes]:
    """This module's source and the sandbox's, whose code decides what jinja compiles."""
    if not _SOURCES:
        from pnp.content import sandbox

        for module in (sys.modules[__name__], sandbox):
            try:
                _SOURCES.append(Path(module.__file__ or "").read_bytes())
            except OSError:
                _SOURCES.append(module.__name__.encode())
    return _SOURCES


def _write(path: Path, data: bytes) -> None:
    try:
        with atomic_output(path) as temporary:
            temporary.write_bytes(data)
    except OSError:
        pass  # a read-only or full disk: the next command parses again


class _TreePickler(pickle.Pickler):
    """Pickles a syntax tree without its environment (every node refers to it)."""

    def __init__(self, stream: io.BytesIO, environment: jinja2.Environment) -> None:
        super().__init__(stream, protocol=pickle.HIGHEST_PROTOCOL)
        self._environment = environment

    def persistent_id(self, obj: Any) -> str | None:
        return "environment" if obj is self._environment else None


class _TreeUnpickler(pickle.Unpickler):
    """Builds jinja's node classes and nothing else; the environment is the one asked for."""

    def __init__(self, stream: io.BytesIO, environment: jinja2.Environment) -> None:
        super().__init__(stream)
        self._environment = environment

    def persistent_load(self, pid: Any) -> Any:
        if pid != "environment":
            raise pickle.UnpicklingError(f"unknown reference {pid!r}")
        return self._environment

    def find_class(self, module: str, name: str) -> Any:
        if module == "jinja2.nodes":
            found = getattr(nodes, name, None)
            if isinstance(found, type) and issubclass(found, nodes.Node):
                return found
        raise pickle.UnpicklingError(f"not a jinja node: {module}.{name}")
