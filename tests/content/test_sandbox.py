"""Content is untrusted input: prose and templates render in a sandbox that exposes model
values and nothing else, bounded in the work one string may ask for."""

from __future__ import annotations

import enum
import os
import resource
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.content import sandbox
from pnp.content.prose import render_prose
from pnp.content.sandbox import MAX_CREATED, MAX_STEPS
from pnp.errors import TemplateError
from pnp.paths import REPOSITORY


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


# -- issue 27: the sandbox is bounded in time and memory, immutable and deterministic ----------

ATTACKS = {
    # One line each that, unbounded, runs for hours or asks for gigabytes.
    "tower of powers": ("{{ 10 ** 999 ** 999 ** 999 }}", "too large"),
    "power of a power": ("{{ 2 ** (2 ** (2 ** (2 ** 2))) }}", "too large"),
    "product of huge numbers": ("{% set x = 7 ** 4000 %}{{ x * x * x }}", "too large"),
    "slices of one item": ("{{ [1] | slice(10**9) | list }}", "at most 200,000"),
    "batches padded": ("{{ [1] | batch(1000000000, 0) | list }}", "at most 200,000"),
    "nested loops over a long string": (
        "{% set s = 'x' * 100000 %}{% for a in s %}{% for b in s %}{% endfor %}{% endfor %}",
        "too much work",
    ),
    "a list extending itself": (
        "{% set l = [1] %}{% for i in range(40) %}{{ l.extend(l) }}{% endfor %}",
        "unsafe",
    ),
    "a list appending itself": ("{% set l = [1] %}{{ l.append(l) }}{{ l }}", "unsafe"),
    "join of a nested list": (
        "{% set a = ['x' * 100000] %}{% set b = [a, a] %}{% set c = [b, b] %}"
        "{% set d = [c, c] %}{% set e = [d, d] %}{% set f = [e, e] %}{{ [f, f] | join }}",
        "too long",
    ),
    "tojson of a nested list": (
        "{% set a = ['x' * 100000] %}{% set b = [a, a] %}{% set c = [b, b] %}"
        "{% set d = [c, c] %}{% set e = [d, d] %}{% set f = [e, e] %}{{ f | tojson }}",
        "too long",
    ),
    "a nested list printed": (
        "{% set a = ['x' * 100000] %}{% set b = [a, a] %}{% set c = [b, b] %}{{ [c, c, c] }}",
        "too long",
    ),
    "a nested list joined with ~": (
        "{% set a = ['x' * 100000] %}{% set b = [a, a] %}{% set c = [b, b] %}{{ c ~ c }}",
        "too long",
    ),
    "replace of a long text": ("{{ ('x' * 100000) | replace('x', 'y' * 100000) }}", "too long"),
    "replace method": ("{{ ('x' * 10000).replace('', 'y' * 100000) }}", "too long"),
    "padding method": ("{{ 'x'.ljust(999999999) }}", "too long"),
    "padding a safe text": ("{{ ('x' | safe).ljust(999999999) }}", "too long"),
    "tabs expanded": ("{{ ('\t' * 1000).expandtabs(100000) }}", "too long"),
    "bytes of a number": ("{{ (1).to_bytes(999999999, 'big') }}", "too long"),
    "str.format repeating a field": ("{{ ('{0}' * 10000).format('x' * 100000) }}", "too long"),
    "printf repeating arguments": (
        "{% set x = 'x' * 100000 %}{{ ('%s' * 10000) % ((x,) * 10000) }}",
        "too long",
    ),
    "printf width from the arguments": ("{{ '%*d' % (999999999, 1) }}", "from the arguments"),
    "printf width of a named field": ("{{ '%(a)999999999s' % {'a': 1} }}", "too wide"),
    "str.format width from the arguments": (
        "{{ '{:{w}}'.format('x', w=999999999) }}",
        "from the arguments",
    ),
    "rounding to a billion places": ("{{ 3.5 | round(1000000000, 'floor') }}", "at most 1,000"),
    "a recursive loop over a long text": (
        "{% for x in [1] recursive %}{{ loop('x' * 100000) }}{% endfor %}",
        "too much text",
    ),
    "100k distinct 200k texts kept": (
        "{% set big = 'x' * 199990 %}"
        "{{ range(100000) | map('string') | map('replace', '', big, 1) | list | length }}",
        "too much text",
    ),
    "a literal written in a long loop": (
        "{% set x %}{% for i in range(100000) %}" + "y" * 5000 + "{% endfor %}{% endset %}",
        "too much text",
    ),
    "summing lists": (
        "{{ ([[1]] * 50000) | sum(start=[]) | length }}",
        "too much text",
    ),
}


@pytest.mark.parametrize(("text", "says"), ATTACKS.values(), ids=ATTACKS.keys())
def test_an_unbounded_text_is_refused_in_seconds(text: str, says: str) -> None:
    """Refused before it is made: in seconds, and having held no more than a few dozen
    megabytes at any moment (a string of a billion characters would need one to four GB)."""
    started = time.perf_counter()
    tracemalloc.start()
    try:
        with pytest.raises(TemplateError) as caught:
            render(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(caught.value).startswith(f"{WHERE}: ")
    assert says in str(caught.value)
    assert time.perf_counter() - started < 10.0
    assert peak < 64 << 20


def test_an_evaluation_past_its_time_stops_at_its_next_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Comparing two long texts is no step, but each round of the loop around it is.
    monkeypatch.setattr(sandbox, "TIME_LIMIT", 0.2)
    slow = (
        "{% set a = 'x' * 200000 %}{% set b = 'x' * 199999 ~ 'y' %}"
        "{% for i in range(90000) %}{% if a == b or a == b or a == b %}{% endif %}{% endfor %}"
    )
    started = time.perf_counter()
    with pytest.raises(TemplateError, match=r"too slow: one text may take at most 0\.2 seconds"):
        render(slow)
    assert time.perf_counter() - started < 1.0


def test_a_busy_machine_does_not_make_a_face_too_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    # On a loaded CI runner the wall clock runs ahead of the work done: the budget is the
    # CPU time the evaluation itself spends, so a face is not refused for waiting its turn.
    wall = iter(range(0, 10**9, 10))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(wall)))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(wall)))
    monkeypatch.setattr(time, "time", lambda: float(next(wall)))
    assert render("{% for i in range(50) %}{{ i }}{% endfor %}").endswith("49")


def test_an_evaluation_does_not_read_the_cpu_clock_at_every_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Reading a thread's CPU time is a system call; a build evaluates some 90,000 texts, and
    # reading it at every step cost about 2 % of a build's CPU. The wall clock bounds it:
    # CPU time never runs ahead of it.
    reads: list[float] = []

    def counted() -> float:
        reads.append(time.thread_time())
        return reads[-1]

    monkeypatch.setattr(sandbox, "_cpu_clock", counted)
    assert render("{% for i in range(5000) %}{{ i }}{% endfor %}").endswith("4999")
    # Not once a step: at most once after the grace, then once per time limit of wall clock.
    assert len(reads) < 10, len(reads)


def test_each_evaluation_has_a_budget_of_its_own() -> None:
    # Two texts of most of a budget each: neither is charged for the other.
    most = MAX_STEPS * 6 // 10
    for _ in range(2):
        assert render(f"{{{{ range({most}) | list | length }}}}") == str(most)
    with pytest.raises(TemplateError, match="too much work"):
        render(f"{{{{ (range({most}) | list | length) + (range({most}) | list | length) }}}}")


def test_the_budget_counts_text_built_in_all_steps_together() -> None:
    # Each round builds a text of 100,000 characters and lets it go: 4 rounds are fine, 40
    # build twice what one evaluation may.
    built = (
        "{% set x = 'x' * 50000 %}"
        "{% for i in range(4) %}{% set y = x ~ x %}{{ y | length }} {% endfor %}"
    )
    assert render(built) == "100000 " * 4
    assert MAX_CREATED < 40 * 100_000
    with pytest.raises(TemplateError, match="too much text"):
        render(built.replace("range(4)", "range(40)"))


@dataclass(frozen=True)
class Scaffolded:
    """A data-only game's model: its numbers in a plain dict."""

    settings: dict[str, int] = field(default_factory=lambda: {"hand_size": 5})
    hands: list[int] = field(default_factory=lambda: [5, 6])


CHANGES = [
    "{{ game.settings.update({'hand_size': 77}) }}",
    "{{ game.settings.pop('hand_size') }}",
    "{{ game.settings.setdefault('goal', 1) }}",
    "{{ game.settings.clear() }}",
    "{{ game.hands.append(7) }}",
    "{{ game.hands.sort(reverse=true) }}",
    "{{ game.hands.reverse() }}",
    "{% set s = {'a': 1} %}{{ s.update({'b': 2}) }}",
]


@pytest.mark.parametrize("text", CHANGES)
def test_a_text_cannot_change_what_it_reads(text: str) -> None:
    model = Scaffolded()
    with pytest.raises(TemplateError, match="unsafe"):
        render_prose(text + "{{ game.settings.hand_size }}", {"game": model}, WHERE)
    assert model == Scaffolded()


def test_a_text_may_read_and_copy_plain_data() -> None:
    got = render_prose(
        "{{ game.settings.get('hand_size') }} {{ game.settings.items() | list }} "
        "{{ game.hands.index(6) }} {{ (game.hands + [7]) | sum }} {{ game.settings.copy() }}",
        {"game": Scaffolded()},
        WHERE,
    )
    assert got == "5 [('hand_size', 5)] 1 18 {'hand_size': 5}"


@pytest.mark.parametrize("text", ["{{ [1, 2, 3] | random }}", "{{ lipsum() }}"])
def test_nothing_random_is_there(text: str) -> None:
    with pytest.raises(TemplateError):
        render(text)


class Effect(enum.Enum):
    RESOURCES = "resources"
    MORALE = "morale"
    RECRUIT = "recruit"
    AIRDROP = "airdrop"


@dataclass(frozen=True)
class Reward:
    kinds: frozenset[Effect]
    tags: frozenset[str]
    mixed: frozenset[Any]
    pair: frozenset[str] = frozenset({"y", "x"})


REWARD = Reward(
    frozenset(Effect),
    frozenset({"walnut", "apple", "mango", "kiwi", "fig", "banana"}),
    frozenset({3, "three", Effect.MORALE, (1, 2), 2.5}),
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "{% for k in r.kinds %}{{ k.value }} {% endfor %}",
            "resources morale recruit airdrop ",
        ),
        ("{{ r.tags | join(',') }}", "apple,banana,fig,kiwi,mango,walnut"),
        (
            "{{ r.tags | list | first }}·{{ r.tags | first }}·{{ r.tags | last }}",
            "apple·apple·walnut",
        ),
        ("{{ r.kinds | map(attribute='name') | join(' ') }}", "RESOURCES MORALE RECRUIT AIRDROP"),
        ("{% for i, t in enumerate(r.tags) %}{{ i }}{{ t[0] }}{% endfor %}", "0a1b2f3k4m5w"),
        ("{{ ', '.join(r.tags) }}", "apple, banana, fig, kiwi, mango, walnut"),
        ("{{ r.tags }}", "frozenset({'apple', 'banana', 'fig', 'kiwi', 'mango', 'walnut'})"),
        ("{{ [r.tags] }}", "[frozenset({'apple', 'banana', 'fig', 'kiwi', 'mango', 'walnut'})]"),
        (
            "{{ '%s' % (r.tags,) }}",
            "frozenset({'apple', 'banana', 'fig', 'kiwi', 'mango', 'walnut'})",
        ),
        ("{{ r.mixed | join(' ') }}", "2.5 3 three Effect.MORALE (1, 2)"),
        ("{% set a, b = r.pair %}{{ a }}{{ b }}", "xy"),
        ("{% for a, b in [r.pair] %}{{ a }}{{ b }}{% endfor %}", "xy"),
        ("{% with a, b = r.pair %}{{ a }}{{ b }}{% endwith %}", "xy"),
        ("{% macro m(a, b) %}{{ a }}{{ b }}{% endmacro %}{{ m(*r.pair) }}", "xy"),
        ("{{ {}.fromkeys(r.pair) | list }}", "['x', 'y']"),
    ],
)
def test_a_set_is_iterated_and_printed_in_a_fixed_order(text: str, expected: str) -> None:
    assert render_prose(text, {"r": REWARD}, WHERE) == expected


ORDER_PROBE = """
from pnp.content.prose import render_prose
from pnp.games.maquis.model import Reward
reward = Reward(resources={"food": 1}, morale=1, recruit=1, airdrop=True)
print(render_prose(
    "{% for k in r.kinds %}{{ k.value }} {% endfor %}{{ r.kinds | map(attribute='name') | list }}",
    {"r": reward},
))
"""


def test_maquis_reward_kinds_come_in_the_same_order_in_every_run() -> None:
    """Python orders a frozenset of enum members by their names' hashes, which change from
    run to run: four of MAQUIS's PDFs did."""
    seen = {
        subprocess.run(
            [sys.executable, "-c", ORDER_PROBE],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            cwd=REPOSITORY,
            check=True,
        ).stdout
        for seed in range(5)
    }
    assert seen == {
        "resources morale recruit airdrop ['RESOURCES', 'MORALE', 'RECRUIT', 'AIRDROP']\n"
    }


@pytest.mark.parametrize(
    "text",
    [
        "{{ game.names | map('upper') }}",
        "{{ game.info.title.upper }}",
        "{{ [game.info.title.upper] }}",
        "{{ 'x' ~ (game.names | select) }}",
    ],
)
def test_what_would_print_a_memory_address_is_refused(text: str) -> None:
    with pytest.raises(TemplateError, match="cannot be printed"):
        render(text)


# -- issue 27 end to end: validate and build refuse such content, located, in seconds ----------


def _inject_decisions(content: Path, answers: list[str]) -> list[int]:
    """Add decisions answered by ``answers`` to Deadline 99; the lines they start on."""
    path = content / "deadline-99" / "game.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("decisions:")) + 1
    added: list[str] = []
    for number, answer in enumerate(answers):
        quoted = answer.replace("'", "''")
        added += [f"  - id: injected-{number}\n", "    question: 问\n", f"    answer: '{quoted}'\n"]
    lines[at:at] = added
    path.write_text("".join(lines), encoding="utf-8")
    return [at + 3 * number + 1 for number in range(len(answers))]


@pytest.mark.parametrize(("text", "says"), ATTACKS.values(), ids=ATTACKS.keys())
def test_validate_and_build_refuse_an_unbounded_decision_in_seconds(
    text: str, says: str, content_copy: Path, tmp_path: Path
) -> None:
    (line,) = _inject_decisions(content_copy, [text])
    runner = CliRunner()
    started = time.perf_counter()
    checked = runner.invoke(
        main, ["--content", str(content_copy), "validate", "deadline-99", "--static-only"]
    )
    assert checked.exit_code == 1, checked.output
    assert f"game.yaml:{line}:" in checked.stdout and says in checked.stdout
    built = runner.invoke(
        main, ["--content", str(content_copy), "build", "deadline-99", "--out", str(tmp_path)]
    )
    assert built.exit_code == 1, built.output
    assert f"game.yaml:{line}:" in built.stderr and "Traceback" not in built.output
    assert time.perf_counter() - started < 20.0


def _at_most_a_gigabyte() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_validate_refuses_every_attack_at_once_within_a_gigabyte(content_copy: Path) -> None:
    """In a process that may map at most 1 GB: unbounded, several of them ask for 10-40."""
    lines = _inject_decisions(content_copy, [text for text, _ in ATTACKS.values()])
    started = time.perf_counter()
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "pnp",
            "--content",
            str(content_copy),
            "validate",
            "deadline-99",
            "--static-only",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=_at_most_a_gigabyte,
    )
    assert checked.returncode == 1, checked.stderr
    assert "Traceback" not in checked.stderr
    for line, (_, says) in zip(lines, ATTACKS.values(), strict=True):
        (problem,) = [
            found for found in checked.stdout.splitlines() if f"game.yaml:{line}:" in found
        ]
        assert says in problem
    assert time.perf_counter() - started < 120.0


def test_a_rulebook_cannot_change_the_number_it_prints(tmp_path: Path) -> None:
    """The issue's own case: a data-only game's rulebook updating its settings printed 77 where
    the content says 5, and validate passed."""
    content = tmp_path / "content"
    content.mkdir()
    (tmp_path / "templates").mkdir()
    runner = CliRunner()
    assert runner.invoke(main, ["--content", str(content), "new", "duel"]).exit_code == 0
    rulebook = content / "duel" / "rulebook.yaml"
    source = rulebook.read_text(encoding="utf-8")
    assert "- 每人起手 {{ game.settings.hand_size }} 张牌。" in source
    rulebook.write_text(
        source.replace(
            "- 每人起手 {{ game.settings.hand_size }} 张牌。",
            "- \"每人起手 {{ game.settings.update({'hand_size': 77}) }}"
            '{{ game.settings.hand_size }} 张牌。"',
        ),
        encoding="utf-8",
    )
    checked = runner.invoke(main, ["--content", str(content), "validate", "duel"])
    assert checked.exit_code == 1
    assert (
        "rulebook.yaml:" in checked.stdout
        and "'update' of 'dict' object is unsafe" in checked.stdout
    )
    built = runner.invoke(
        main, ["--content", str(content), "build", "duel", "--out", str(tmp_path)]
    )
    assert built.exit_code == 1 and "rulebook.yaml:" in built.stderr
    assert not list(tmp_path.rglob("*rulebook*.pdf"))


ORDINARY = [
    "{{ names | join('、') }}|{{ [{'n': 1}, {'n': 2}] | join(attribute='n') }}",
    "{{ names | map('upper') | list }}|{{ names | select('equalto', 'a') | list }}",
    "{{ [3, 1, 2] | sort }}|{{ [3, 1, 2] | sort(reverse=true) | first }}|{{ [1, 2] | last }}",
    "{{ [1, 2, 3] | sum }}|{{ [[1], [2]] | sum(start=[]) }}|{{ [1.5, 2] | sum(start=1) }}",
    "{{ [1, 1, 2] | unique | list }}|{{ [1, 2, 3] | max }}|{{ 'abc' | min }}",
    "{{ range(7) | batch(3, 'x') | list }}|{{ range(7) | slice(3) | list }}",
    "{{ {'b': 1, 'a': 2} | dictsort }}|{{ {'a': 1} | items | list }}",
    "{{ 'hello world' | title }}|{{ 'x' | center(9) }}|{{ 'a\nb' | indent(2, true) }}",
    "{{ 'a b c' | replace(' ', '-', 1) }}|{{ 'long text here' | truncate(9) }}",
    "{{ 'a long line of words' | wordwrap(7) }}|{{ 'one two' | wordcount }}",
    "{{ '%05.1f|%s' | format(3.14159, 'x') }}|{{ '%(a)s' % {'a': 1} }}",
    "{{ '{:>6}|{}'.format('r', [1]) }}|{{ '{a}'.format_map({'a': 2}) }}",
    "{{ 'x' ~ 1 ~ none ~ [1, 'a'] ~ {'k': (1,)} }}",
    "{{ names[1:] }}|{{ 'abcdef'[::2] }}|{{ names[:-1] | length }}",
    "{{ 3 * 'ab' }}|{{ [0] * 3 }}|{{ 2 ** 10 }}|{{ 7 % 3 }}|{{ 'a' + 'b' }}",
    "{{ 12345678901234567890 * 98765 }}|{{ -7 // 2 }}|{{ 1 / 4 }}",
    "{% for n in names %}{{ loop.index }}/{{ loop.length }}{{ n }}{% else %}none{% endfor %}",
    "{% for n in [] %}x{% else %}empty{% endfor %}",
    "{% for k, v in {'a': 1, 'b': 2}.items() %}{{ k }}={{ v }};{% endfor %}",
    "{% for x in [[1, [2]]] recursive %}{{ x }}{% endfor %}",
    "{% for n in range(5) if n is odd %}{{ n }}{% endfor %}",
    "{% set a, b = 1, 2 %}{{ a + b }}|{% with x = 3 %}{{ x }}{% endwith %}",
    "{% macro m(a, b=2) %}{{ a }}{{ b }}{% endmacro %}{{ m(*[1, 5]) }}{{ m(0) }}"
    "{% macro c() %}[{{ caller() }}]{% endmacro %}|{% call c() %}c{% endcall %}",
    "{% filter upper %}shout {{ names | first }}{% endfilter %}",
    "{% set block %}{% for i in range(3) %}{{ i }}{% endfor %}{% endset %}{{ block * 2 }}",
    "{{ sorted(['b', 'a']) }}|{{ max(1, 3) }}|{{ min([4, 2]) }}|{{ len('abc') }}",
    "{% for i, n in enumerate(names, 1) %}{{ i }}{{ n }}{% endfor %}",
    "{{ [1, 2] | tojson }}|{{ {'b': [1, 'x']} | pprint }}|{{ 'a&b' | e }}",
    "{{ 'x' is string }}|{{ 4 is divisibleby 2 }}|{{ names is iterable }}",
    "{{ ('<b>' | safe) | string | e }}|{{ 5 | string | center(3) }}|{{ none | string }}",
    "{{ 3.7 | round }}|{{ 3.14159 | round(2, 'floor') }}|{{ '42' | int + 1 }}|{{ 'x' | float }}",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_texts_render_as_jinja_renders_them(text: str) -> None:
    """The bounds change nothing a real text means: filters, loops, ~, slices and formats
    give what jinja's own sandbox gives."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    scope = {"names": ["a", "b", "c"]}
    jinja = ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined)
    jinja.globals.update(sorted=sorted, enumerate=enumerate, len=len, min=min, max=max)
    expected = jinja.from_string(text).render(**scope)
    assert render_prose(text, scope, WHERE) == expected
