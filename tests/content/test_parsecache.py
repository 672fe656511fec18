"""Parses kept between commands: the same texts render the same, a later command finds what an
earlier one parsed, and a bad, foreign or tampered entry is parsed again, never trusted."""

from __future__ import annotations

import pickle
from pathlib import Path

import jinja2
import pytest
from jinja2 import nodes

from pnp import trust
from pnp.content import parsecache
from pnp.content.sandbox import ContentEnvironment

TEXT = (
    "{% macro pips(n) %}{% for _ in range(n) %}●{% endfor %}{% endmacro %}"
    "{{ name }}: {{ pips(cost) }}"
)


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "parses"
    monkeypatch.setenv(parsecache.ENV_PARSE_CACHE, str(root))
    return root


def entries(root: Path, kind: str) -> list[Path]:
    return sorted(
        path for path in root.rglob("*") if path.is_file() and path.parent.parent.name == kind
    )


def fresh() -> ContentEnvironment:
    """A new environment, as the next command would make."""
    return ContentEnvironment()


def refuse_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def parse(*args: object, **kwargs: object) -> None:
        raise AssertionError("jinja parsed a text the store holds")

    monkeypatch.setattr(jinja2.Environment, "_parse", parse)


def test_a_later_command_renders_from_the_store_without_parsing(
    store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = fresh().from_string(TEXT).render(name="火球", cost=3)
    tree = fresh().parse(TEXT)
    assert entries(store, "code") and entries(store, "tree")
    refuse_parsing(monkeypatch)
    later = fresh()
    assert later.from_string(TEXT).render(name="火球", cost=3) == first == "火球: ●●●"
    stored = later.parse(TEXT)
    assert stored == tree
    assert stored.environment is later  # the tree belongs to the environment that asked


def test_the_store_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(parsecache.ENV_PARSE_CACHE, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert fresh().from_string(TEXT).render(name="x", cost=1) == "x: ●"
    fresh().parse(TEXT)
    assert not list(tmp_path.rglob("*"))


def test_a_text_that_does_not_parse_is_not_kept_and_fails_the_same_each_time(
    store: Path,
) -> None:
    messages = []
    for _ in range(2):
        with pytest.raises(jinja2.TemplateSyntaxError) as error:
            fresh().from_string("{{ name ")
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert not entries(store, "code")


def test_an_unreadable_entry_is_parsed_again_and_replaced(store: Path) -> None:
    fresh().from_string(TEXT)
    parsed = fresh().parse(TEXT)
    for path in entries(store, "code") + entries(store, "tree"):
        path.write_bytes(b"not an entry")
    assert fresh().from_string(TEXT).render(name="y", cost=2) == "y: ●●"
    assert fresh().parse(TEXT) == parsed
    assert all(path.read_bytes() != b"not an entry" for path in entries(store, "tree"))


def test_a_tampered_tree_naming_anything_but_a_jinja_node_is_refused(
    store: Path, tmp_path: Path
) -> None:
    fresh().parse(TEXT)
    (entry,) = entries(store, "tree")
    witness = tmp_path / "ran"

    class Payload:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (Path.touch, (str(witness),))  # type: ignore[return-value]

    entry.write_bytes(pickle.dumps(Payload()))
    tree = fresh().parse(TEXT)
    assert isinstance(tree, nodes.Template)
    assert not witness.exists()


def test_planted_code_is_never_run(store: Path, tmp_path: Path) -> None:
    """The store lies in a cache folder CI restores from shared storage: compiled code planted
    there (the store's own format, unsealed or sealed by another key) must not run."""
    import marshal

    fresh().from_string(TEXT)
    witness = tmp_path / "ran"
    planted = compile(
        f"import pathlib; pathlib.Path({str(witness)!r}).touch()\n"
        "def root(context, missing=None, environment=None):\n    yield 'planted'\n"
        "blocks = {}\ndebug_info = ''\n",
        "<planted>",
        "exec",
    )
    for path in entries(store, "code"):
        path.write_bytes(marshal.dumps(planted))
    assert fresh().from_string(TEXT).render(name="火", cost=1) == "火: ●"
    assert not witness.exists()


def test_a_planted_tree_cannot_change_what_a_text_means(
    store: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The tree of another text under this text's name: moved there from this user's own
    store, or sealed there by someone else's key. Either way the text is parsed again."""
    other = "{{ 'planted' }}"
    expected = fresh().parse(TEXT)
    (entry,) = entries(store, "tree")
    name = "parses/" + "/".join(entry.parts[-4:])
    fresh().parse(other)
    (other_entry,) = [path for path in entries(store, "tree") if path != entry]
    entry.write_bytes(other_entry.read_bytes())  # moved: sealed under the other text's name
    assert fresh().parse(TEXT) == expected
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "elsewhere"))
    payload = trust.unseal("parses/" + "/".join(other_entry.parts[-4:]), other_entry.read_bytes())
    if payload is None:  # sealed by this test's own key: take the bytes as they are
        payload = other_entry.read_bytes()[len(trust.SEAL_PREFIX) + 32 :]
    entry.write_bytes(trust.seal(name, payload))  # sealed by another machine's key
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "here"))
    assert fresh().parse(TEXT) == expected


def test_an_environment_with_other_filters_keeps_its_own_entries(store: Path) -> None:
    shouting = fresh()
    shouting.filters["shout"] = lambda text: f"{text}!"
    assert shouting.from_string("{{ name | shout }}").render(name="龙") == "龙!"
    # The same text in an environment without the filter is compiled, not found, and fails.
    with pytest.raises(jinja2.TemplateAssertionError, match="shout"):
        fresh().from_string("{{ name | shout }}")


def test_the_names_a_text_reads_are_kept_too(store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pnp.content import expressions

    environment = fresh()
    assert expressions.undeclared_names(TEXT, environment) == {"name", "cost"}
    expressions.undeclared_names.cache_clear()

    def generate(*args: object) -> None:
        raise AssertionError("jinja ran its code generator for names the store holds")

    monkeypatch.setattr(expressions.jinja_meta, "find_undeclared_variables", generate)
    assert expressions.undeclared_names(TEXT, environment) == {"name", "cost"}


def test_without_a_home_folder_texts_are_parsed_and_nothing_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(parsecache.ENV_PARSE_CACHE, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", no_home)
    parsecache._ROOTS.clear()
    try:
        assert parsecache.parse_cache_dir() is None
        assert fresh().from_string(TEXT).render(name="z", cost=1) == "z: ●"
    finally:
        parsecache._ROOTS.clear()


@pytest.mark.parametrize("setting", ["on", "1", "TRUE"])
def test_turning_the_store_on_by_name_means_its_usual_place(
    setting: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "on" was taken for a folder name: a folder "on" appeared wherever pnp ran.
    monkeypatch.setenv(parsecache.ENV_PARSE_CACHE, setting)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert parsecache.parse_cache_dir() == tmp_path / "cache" / "pnp" / "parses"
