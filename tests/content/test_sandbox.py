"""Content is untrusted input: prose and templates render in a sandbox that exposes model
values and nothing else, bounded in the work one string may ask for."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.content.prose import render_prose
from pnp.errors import TemplateError


@dataclass(frozen=True)
class Info:
    title: str
    players: int

    @property
    def label(self) -> str:
        return f"{self.title} ({self.players})"


@dataclass(frozen=True)
class Model:
    info: Info
    names: tuple[str, ...]


MODEL = Model(Info("死线99", 5), ("a", "b"))
WHERE = "content/x/game.yaml:7"


def render(text: str) -> str:
    return render_prose(text, {"game": MODEL}, WHERE)


def test_model_values_render() -> None:
    assert render("{{ game.info.title }}·{{ game.info.players * 2 }}") == "死线99·10"
    assert render("{{ game.info.label }}") == "死线99 (5)"
    assert render("{% for n in game.names %}{{ loop.index }}{{ n }}{% endfor %}") == "1a2b"
    assert render("{{ range(3) | list | length }}") == "3"


INJECTIONS = [
    "{{ cycler.__init__.__globals__.os.getcwd() }}",
    "{{ game.__class__.__mro__ }}",
    "{{ game.info.__class__ }}",
    "{{ game.info.title.upper.__globals__ }}",
    "{{ lipsum.__globals__ }}",
    "{{ self._TemplateReference__context }}",
    "{{ joiner }}",
    "{{ namespace }}",
    "{{ ''.__class__.__base__.__subclasses__() }}",
    "{{ game.info.label.__self__ }}",
    "{% for x in range(10**9) %}{% endfor %}",
    "{% for a in range(1000) %}{% for b in range(1000) %}{% endfor %}{% endfor %}",
    "{{ 'x' * 10**9 }}",
    "{{ '%999999999d' | format(1) }}",
    "{{ '{:>999999999}'.format(1) }}",
    "{{ 'x' | center(999999999) }}",
    "{{ 2 ** 10000000 }}",
    "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
]


@pytest.mark.parametrize("text", INJECTIONS)
def test_an_injection_is_a_located_error_and_fails_fast(text: str) -> None:
    started = time.perf_counter()
    with pytest.raises(TemplateError) as caught:
        render(text)
    assert str(caught.value).startswith(f"{WHERE}: ")
    assert time.perf_counter() - started < 2.0


def test_an_injection_has_no_side_effect(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    with pytest.raises(TemplateError):
        render(f"{{{{ cycler.__init__.__globals__.os.system('touch {marker}') }}}}")
    with pytest.raises(TemplateError):
        render(f"{{{{ self.__init__.__globals__['os'].system('touch {marker}') }}}}")
    assert not marker.exists()


def _inject_decision(content: Path, answer: str) -> int:
    """Add a decision whose answer is ``answer`` to Deadline 99; the line it starts on."""
    path = content / "deadline-99" / "game.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("decisions:")) + 1
    quoted = answer.replace("'", "''")
    lines[at:at] = ["  - id: injected\n", "    question: 问\n", f"    answer: '{quoted}'\n"]
    path.write_text("".join(lines), encoding="utf-8")
    return at + 1


def test_validate_and_build_refuse_an_injected_decision(content_copy: Path, tmp_path: Path) -> None:
    line = _inject_decision(content_copy, "{{ cycler.__init__.__globals__.os.getcwd() }}")
    runner = CliRunner()
    checked = runner.invoke(main, ["--content", str(content_copy), "validate", "deadline-99"])
    assert checked.exit_code == 1
    assert f"game.yaml:{line}:" in checked.stdout and "'cycler' is undefined" in checked.stdout
    built = runner.invoke(
        main, ["--content", str(content_copy), "build", "deadline-99", "--out", str(tmp_path)]
    )
    assert built.exit_code != 0
    assert "Traceback" not in built.stdout + built.stderr
    assert f"game.yaml:{line}:" in built.stderr
    assert str(Path.cwd()) not in built.stdout + built.stderr
    assert not list(tmp_path.rglob("*-read-me-first.pdf"))
