"""Content YAML that other tools read differently from pnp.

pnp reads content with PyYAML, a YAML 1.1 reader that keeps keys as written. Other tools a
designer points at the same files (editors' schema checkers, YAML 1.2 libraries, go-yaml) read
some plain scalars as another type: ``off:`` became the key ``false`` in one and failed its
schema. Each such key or unquoted value is reported at its line, with the quoting that makes
every reader agree.
"""

from __future__ import annotations

import re
from functools import lru_cache

import yaml

from pnp.content.sources import read_file
from pnp.errors import ContentError, Location
from pnp.validate.checks import Findings

_SCANNER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's scanner where PyYAML was built with it (its wheels are): the same tokens and
marks as the Python one, six times faster, and every validate scans every content file."""

_BOOL_11 = re.compile(r"^(?:yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF)$")
"""The words YAML 1.1 reads as booleans and YAML 1.2 as text."""
_SHORT_BOOL = re.compile(r"^(?:y|Y|n|N)$")
"""One-letter booleans of the YAML 1.1 type list. Only as values: as a key, ``y`` is the
model's vertical coordinate, which the readers designers use (PyYAML, ruamel, js-yaml and
the schema checker that misread ``off:``) keep as text."""
_INT_12 = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_NUMBER_START = frozenset("+-.0123456789")
"""The first characters of every int and float either version resolves (YAML 1.1's own
resolvers included): any other scalar is text to both, with no need to parse it."""
_FLOAT_12 = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$")


@lru_cache(maxsize=4096)
def differs(text: str, *, key: bool) -> str | None:
    """How YAML 1.1 and YAML 1.2 readers disagree on the plain scalar ``text``, or None
    (kept: a number is read by a whole YAML load, and the same few recur in every file)."""
    if _BOOL_11.match(text) or (not key and _SHORT_BOOL.match(text)):
        truth = "true" if text[0] in "yYoO" and text.lower() != "off" else "false"
        return f"YAML 1.1 tools read it as the boolean {truth}, YAML 1.2 ones as text"
    if not text or text[0] not in _NUMBER_START:
        return None  # neither version reads a number that starts otherwise
    if text.lstrip("+-").lower() in {".inf", ".nan"}:
        return None  # both read them as the same float
    number_11 = type(_value_11(text)) in (int, float)  # PyYAML is a YAML 1.1 reader
    number_12 = bool(_INT_12.match(text) or _FLOAT_12.match(text))
    if number_11 == number_12 and not (number_11 and _value_11(text) != _value_12(text)):
        return None
    if number_11 and number_12:
        return (
            f"YAML 1.1 tools read it as {_value_11(text)!r}, YAML 1.2 ones as {_value_12(text)!r}"
        )
    if number_11:
        return f"YAML 1.1 tools read it as the number {_value_11(text)!r}, YAML 1.2 ones as text"
    return "YAML 1.2 tools read it as a number, YAML 1.1 ones as text"


def _value_11(text: str) -> object:
    try:
        value: object = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return value


def _value_12(text: str) -> object:
    plain = text.replace("+", "", 1) if text.startswith("+") else text
    if _INT_12.match(text):
        if plain.startswith(("0o", "0x")):
            return int(plain, 8 if plain[1] == "o" else 16)
        return int(plain, 10)
    return float(text)


def check_portable_yaml(findings: Findings) -> None:
    """One error per plain key or value of the game's YAML files that YAML 1.1 and YAML 1.2
    readers read as different things."""
    game = findings.game
    prefix = f"{game.display_folder}/"
    for display in game.files:
        if not display.startswith(prefix):
            continue
        try:
            text = read_file(game.folder / display[len(prefix) :], display).decode("utf-8")
        except (ContentError, UnicodeDecodeError):
            continue  # the loader reports an unreadable file; here there is nothing to add
        for line, column, message in _disagreements(text):
            findings.error(Location(display, line, column), message)


@lru_cache(maxsize=512)
def _disagreements(text: str) -> tuple[tuple[int, int, str], ...]:
    """The errors (line, column, message) of one file's text, kept for the same text whatever
    the file is called: every validate scans every content file, most of a content tree is
    the same from one validate to the next, and a copy of the content (a tuning trial, a
    seeded mistake) reads the same texts under other names."""
    try:
        tokens = list(yaml.scan(text, Loader=_SCANNER))
    except yaml.YAMLError:
        return ()  # the loader reports the syntax error
    found: list[tuple[int, int, str]] = []
    after_key = False
    for token in tokens:
        if isinstance(token, yaml.ScalarToken) and token.plain:
            why = differs(token.value, key=after_key)
            if why is not None:
                mark = token.start_mark
                kind = "key" if after_key else "value"
                advice = (
                    "rename the key or quote it"
                    if after_key
                    else "quote it"
                    if "boolean" in why or "as text" in why
                    else "write the number as both read it, or quote it"
                )
                found.append(
                    (
                        mark.line + 1,
                        mark.column + 1,
                        f'{kind} {token.value!r}: {why}; {advice}: "{token.value}"',
                    )
                )
        after_key = isinstance(token, yaml.KeyToken)
    return tuple(found)
