"""Face templates: boxes with units, jinja text, repeat/when, and errors that name the line."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from pnp.errors import TemplateError
from pnp.layout.primitives import RectShape, TextShape
from pnp.layout.template import MAX_REPEAT, layout_face, load_template
from pnp.units import mm


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def face(tmp_path: Path, name: str, context: dict, width: float = mm(63), height: float = mm(88)):
    return layout_face(
        load_template(tmp_path, name), context, width=width, height=height, bleed=mm(3), key=name
    )


def test_a_box_is_placed_from_the_top_left_in_its_units(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "boxes:\n  - {type: rect, x: 4mm, y: 10mm, w: 50%, h: 1in}\n")
    (rect,) = face(tmp_path, "a.yaml", {}).shapes
    assert isinstance(rect, RectShape)
    assert rect.x == pytest.approx(mm(4))
    assert rect.width == pytest.approx(mm(31.5))
    assert rect.height == pytest.approx(72)
    assert rect.y == pytest.approx(mm(88) - mm(10) - 72)  # PDF y runs up


def test_text_comes_from_the_item_through_jinja(tmp_path: Path) -> None:
    write(
        tmp_path,
        "b.yaml",
        'boxes:\n  - {type: text, x: 0, y: 0, w: 10mm, h: 10mm, text: "计数 +{{ item.amount }}"}\n',
    )
    (text,) = face(tmp_path, "b.yaml", {"item": {"amount": 9}}).shapes
    assert isinstance(text, TextShape) and text.text == "计数 +9"


def test_extends_merges_palette_macros_and_boxes(tmp_path: Path) -> None:
    write(
        tmp_path,
        "base.yaml",
        'palette: {ink: "#123456"}\nmacros: "{% macro twice(x) %}'
        '{{ x }}{{ x }}{% endmacro %}"\n'
        "boxes:\n  - {type: background, fill: ink}\n",
    )
    write(
        tmp_path,
        "child.yaml",
        "extends: base.yaml\nboxes:\n  - {type: text, x: 0, y: 0, "
        "w: 1mm, h: 1mm, text: \"{{ twice('死') }}\", color: ink}\n",
    )
    background, text = face(tmp_path, "child.yaml", {}).shapes
    assert isinstance(background, RectShape) and background.style.fill == "#123456"
    assert isinstance(background, RectShape) and background.x == pytest.approx(-mm(3))
    assert isinstance(text, TextShape) and text.text == "死死" and text.color == "#123456"


def test_repeat_and_when_drive_boxes_from_data(tmp_path: Path) -> None:
    write(
        tmp_path,
        "c.yaml",
        'boxes:\n  - {type: rect, x: "{{ n * 5 }}mm", y: 0, w: 1mm, '
        'h: 1mm, repeat: "{{ item.cells }}", as: n, when: "{{ n != 2 }}"}\n',
    )
    shapes = face(tmp_path, "c.yaml", {"item": {"cells": 4}}).shapes
    assert [round(s.x / mm(1)) for s in shapes] == [0, 5, 15]  # type: ignore[union-attr]


def test_a_repeated_box_works_out_what_its_cells_share_once(tmp_path: Path) -> None:
    asked: list[str] = []

    def side(name: str) -> float:
        asked.append(name)
        return 2.0

    write(
        tmp_path,
        "g.yaml",
        "boxes:\n  - {type: rect, repeat: 3, as: n, x: \"{{ n * side('x') }}mm\", y: 0,"
        " w: \"{{ side('w') }}mm\", h: \"{{ side('h') + n }}mm\","
        " fill: \"{{ '#ff0000' if n == 1 else '#00ff00' }}\", stroke: \"{{ colour }}\"}\n",
    )
    shapes = face(tmp_path, "g.yaml", {"side": side, "colour": "#000000"}).shapes
    rects = [s for s in shapes if isinstance(s, RectShape)]
    assert [round(r.x / mm(1)) for r in rects] == [0, 2, 4]
    assert [round(r.width / mm(1)) for r in rects] == [2, 2, 2]
    assert [round(r.height / mm(1)) for r in rects] == [2, 3, 4]
    assert [r.style.fill for r in rects] == ["#00ff00", "#ff0000", "#00ff00"]
    assert {r.style.stroke for r in rects} == {"#000000"}
    # What names the index is evaluated for every cell; the width, which does not, once.
    assert asked.count("x") == 3 and asked.count("h") == 3 and asked.count("w") == 1


def test_an_undefined_name_is_an_error_with_the_template_line(tmp_path: Path) -> None:
    write(
        tmp_path,
        "d.yaml",
        "boxes:\n  - {type: background, fill: '#ffffff'}\n"
        '  - {type: text, x: 0, y: 0, w: 1mm, h: 1mm, text: "{{ item.nope }}"}\n',
    )
    with pytest.raises(TemplateError, match=r"templates/d.yaml:3: text: .*nope"):
        face(tmp_path, "d.yaml", {"item": {}})


def test_an_error_in_an_inherited_box_names_the_file_that_defines_it(tmp_path: Path) -> None:
    # The child's own line 3 is a rect: the text that fails is line 3 of its base.
    write(
        tmp_path,
        "base.yaml",
        "boxes:\n  - {type: background, fill: '#ffffff'}\n"
        '  - {type: text, x: 0, y: 0, w: 1mm, h: 1mm, text: "{{ item.nope }}"}\n',
    )
    write(
        tmp_path,
        "child.yaml",
        "extends: base.yaml\nboxes:\n  - {type: rect, x: 0, y: 0, w: 1mm, h: 1mm}\n",
    )
    with pytest.raises(TemplateError, match=r"^templates/base.yaml:3: text: .*nope"):
        face(tmp_path, "child.yaml", {"item": {}})


def test_an_error_in_a_variable_names_its_file_and_line(tmp_path: Path) -> None:
    write(tmp_path, "base.yaml", "vars:\n  fine: 1\n  broken: '{{ item.nope }}'\nboxes: []\n")
    write(tmp_path, "child.yaml", "extends: base.yaml\nvars: {own: 2}\nboxes: []\n")
    with pytest.raises(TemplateError, match=r"^templates/base.yaml:3: vars.broken: .*nope"):
        face(tmp_path, "child.yaml", {"item": {}})


def test_a_misspelt_box_key_gets_a_suggestion(tmp_path: Path) -> None:
    write(tmp_path, "e.yaml", "boxes:\n  - {type: rect, x: 0, y: 0, w: 1mm, h: 1mm, fil: red}\n")
    with pytest.raises(
        TemplateError,
        match=r"e.yaml:2: rect box has unknown key 'fil' "
        r"\(did you mean 'fill'\?\)",
    ):
        load_template(tmp_path, "e.yaml")


def test_a_bad_length_names_the_key(tmp_path: Path) -> None:
    write(tmp_path, "f.yaml", "boxes:\n  - {type: rect, x: 4 mm wide, y: 0, w: 1mm, h: 1mm}\n")
    with pytest.raises(TemplateError, match=r"f.yaml:2: x: expected a length"):
        face(tmp_path, "f.yaml", {})


def test_an_alignment_outside_the_allowed_set_is_a_template_error(tmp_path: Path) -> None:
    write(
        tmp_path,
        "g.yaml",
        "boxes:\n  - {type: text, x: 0, y: 0, w: 1mm, h: 1mm, text: a, align: centre}\n",
    )
    with pytest.raises(
        TemplateError,
        match=r"g.yaml:2: align: expected one of left, center, "
        r"right, justify, got 'centre'",
    ):
        face(tmp_path, "g.yaml", {})


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("/etc/passwd.yaml", "absolute paths are not allowed"),
        ("../content/deadline-99/game.yaml", "lies outside the templates folder"),
        ("deadline-99/playing-card.txt", "expected the name of a .yaml file"),
        ("x" * 300 + ".yaml", "expected the name of a .yaml file"),
    ],
)
def test_a_template_name_stays_inside_the_templates_folder(
    tmp_path: Path, name: str, message: str
) -> None:
    from pnp.layout.template import template_path

    (tmp_path / "templates").mkdir()
    with pytest.raises(TemplateError, match=message):
        template_path(tmp_path / "templates", name, "content/x/kit.yaml:3")


def test_extends_may_not_climb_out_of_the_templates_folder(tmp_path: Path) -> None:
    root = tmp_path / "templates"
    (root / "game").mkdir(parents=True)
    (tmp_path / "secret.yaml").write_text("boxes: []\n", encoding="utf-8")
    (root / "game" / "face.yaml").write_text("extends: ../../secret.yaml\nboxes: []\n")
    with pytest.raises(TemplateError, match="lies outside the templates folder"):
        load_template(root, "game/face.yaml")


def _text_of(tmp_path: Path, macros: str, value: str) -> str:
    write(
        tmp_path,
        "m.yaml",
        "macros: " + repr(macros).replace("'", '"') + "\n"
        "boxes:\n  - {type: text, x: 0, y: 0, w: 60mm, h: 60mm, text: "
        + repr(value).replace("'", '"')
        + "}\n",
    )
    (shape,) = face(tmp_path, "m.yaml", {"n": 7}).shapes
    assert isinstance(shape, TextShape)
    return shape.text


@pytest.mark.parametrize(
    ("macros", "value"),
    [
        ("{% macro one() %}1{% endmacro %}\nbetween\n{% macro two() %}2{% endmacro %}", "v{{ n }}"),
        ("{%- macro one() -%}1{%- endmacro -%}\n", "  v{{ n }}"),
        ("{%- macro one() -%}1{%- endmacro -%}\n", "{{ n }} and {{ one() }}"),
        ("x{% macro one() %}1{% endmacro %} ", "{%- if n %}{{ n }}{% endif %}"),
        ("{% set k = 2 %}{% macro one() %}{{ k }}{% endmacro %}", "{{ n }}{{ one() }}"),
    ],
)
def test_a_value_renders_as_if_written_behind_the_macro_block(
    tmp_path: Path, macros: str, value: str
) -> None:
    # A value that calls no macro is compiled without the block, so it must come out exactly
    # as the block followed by the value would: the block's own text, its whitespace control.

    from pnp.content.sandbox import ContentEnvironment

    expected = ContentEnvironment().from_string(macros + value).render(n=7).strip("\n")
    assert _text_of(tmp_path, macros, value) == expected


def test_a_face_is_laid_out_once_for_the_same_data(tmp_path: Path) -> None:
    write(
        tmp_path,
        "f.yaml",
        'boxes:\n  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: "{{ n }}"}\n',
    )
    context = {"n": 3}
    first = face(tmp_path, "f.yaml", context)
    assert face(tmp_path, "f.yaml", context) is first
    assert face(tmp_path, "f.yaml", {"n": 4}).shapes != first.shapes


def test_a_face_that_never_names_its_item_is_laid_out_once_for_the_deck(tmp_path: Path) -> None:
    write(
        tmp_path,
        "back.yaml",
        'boxes:\n  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: "{{ game }}"}\n',
    )
    write(
        tmp_path,
        "front.yaml",
        'boxes:\n  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: "{{ item }}"}\n',
    )
    backs = [face(tmp_path, "back.yaml", {"item": n, "game": "死线"}) for n in range(3)]
    assert all(back.shapes is backs[0].shapes for back in backs)
    fronts = [face(tmp_path, "front.yaml", {"item": n, "game": "死线"}) for n in range(3)]
    assert [f.shapes[0].text for f in fronts] == ["0", "1", "2"]  # type: ignore[union-attr]


def test_a_face_whose_prose_reads_any_name_is_laid_out_per_item(tmp_path: Path) -> None:
    write(
        tmp_path,
        "p.yaml",
        'boxes:\n  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: "{{ game | prose }}"}\n',
    )
    game = "第 {{ item }} 张"
    texts = [face(tmp_path, "p.yaml", {"item": n, "game": game}).shapes[0] for n in range(2)]
    assert [t.text for t in texts] == ["第 0 张", "第 1 张"]  # type: ignore[union-attr]


# -- issue 27: what a template may ask a face to draw is bounded, with the box's place ---------


@pytest.mark.parametrize(
    ("box", "context", "message"),
    [
        (
            "{type: rect, name: cells, x: 0, y: 0, w: 1mm, h: 1mm, repeat: 1000000000}",
            {},
            "templates/b.yaml:2: box 'cells': repeat: at most 10,000, got 1000000000",
        ),
        (
            '{type: rect, x: 0, y: 0, w: 1mm, h: 1mm, repeat: "{{ item.cells }}"}',
            {"item": {"cells": 10**12}},
            "templates/b.yaml:2: rect box: repeat: at most 10,000, got 1000000000000",
        ),
        (
            "{type: rect, x: 0, y: 0, w: 1mm, h: 1mm, repeat: .inf}",
            {},
            "templates/b.yaml:2: rect box: repeat: expected a whole number, got inf",
        ),
        (
            "{type: regular_polygon, cx: 5mm, cy: 5mm, r: 4mm, sides: 10000000}",
            {},
            "templates/b.yaml:2: regular_polygon box: sides: at most 1,000, got 10000000",
        ),
        (
            "{type: regular_polygon, name: hex, cx: 5mm, cy: 5mm, r: 4mm, sides: 2}",
            {},
            "templates/b.yaml:2: box 'hex': sides: at least 3, got 2",
        ),
        (
            "{type: polygon, points: \"{{ [['1mm', '2mm']] * 20000 }}\"}",
            {},
            "templates/b.yaml:2: polygon box: points: at most 10,000, got 20,000",
        ),
        (
            "{type: polygon, points: [1mm, 2mm]}",
            {},
            "templates/b.yaml:2: points: expected a list of [x, y] pairs",
        ),
        (
            '{type: line, x1: 0, y1: 0, x2: 1mm, y2: 1mm, dash: "{{ [1] * 100000 }}"}',
            {},
            "templates/b.yaml:2: line box: dash: at most 16 lengths, got 100000",
        ),
        (
            "{type: line, x1: 0, y1: 0, x2: 1mm, y2: 1mm, dash: [0, 0]}",
            {},
            "templates/b.yaml:2: line box: dash: expected lengths of 0 or more, not all 0",
        ),
        (
            "{type: line, x1: 0, y1: 0, x2: 1mm, y2: 1mm, dash: 4 3}",
            {},
            "templates/b.yaml:2: line box: dash: expected a list of lengths, got '4 3'",
        ),
        (
            "{type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: a, size: 1000000pt}",
            {},
            "templates/b.yaml:2: text box: size: expected more than 0 and at most 1000pt, "
            "got 1e+06pt",
        ),
        (
            "{type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: a, size: 9pt, min_size: 12pt}",
            {},
            "templates/b.yaml:2: text box: min_size: expected more than 0 and at most the "
            "size (9pt), got 12pt",
        ),
        (
            "{type: regular_polygon, cx: 5mm, cy: 5mm, r: 4mm, rotation: lots}",
            {},
            "templates/b.yaml:2: rotation: expected a number, got 'lots'",
        ),
    ],
)
def test_a_box_asking_for_too_much_is_a_located_error_in_seconds(
    tmp_path: Path, box: str, context: dict, message: str
) -> None:
    write(tmp_path, "b.yaml", f"boxes:\n  - {box}\n")
    started = time.perf_counter()
    with pytest.raises(TemplateError) as caught:
        face(tmp_path, "b.yaml", context)
    assert str(caught.value).startswith(message)
    assert time.perf_counter() - started < 5.0


def test_a_face_of_more_shapes_than_any_page_needs_is_refused(tmp_path: Path) -> None:
    cell = "  - {type: rect, x: 0, y: 0, w: 1mm, h: 1mm, repeat: 10000}\n"
    write(tmp_path, "many.yaml", "boxes:\n" + cell * 6)
    with pytest.raises(
        TemplateError, match=r"many.yaml:7: rect box: the face has more than 50,000"
    ):
        face(tmp_path, "many.yaml", {})


def test_the_shipped_bounds_leave_room_for_a_large_grid(tmp_path: Path) -> None:
    write(
        tmp_path,
        "grid.yaml",
        "boxes:\n  - {type: rect, x: '{{ i % 100 }}mm', y: '{{ i // 100 }}mm', w: 1mm, h: 1mm, "
        "repeat: 10000, as: i, dash: [1, 0.5]}\n",
    )
    assert len(face(tmp_path, "grid.yaml", {}).shapes) == MAX_REPEAT


def test_prose_rendered_inside_a_face_value_shares_its_budget(tmp_path: Path) -> None:
    """A value that renders content prose in a loop: each prose may loop within what one
    evaluation may do, but together they may not do 200 times as much."""
    write(
        tmp_path,
        "p.yaml",
        "boxes:\n  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: "
        '"{% for i in range(200) %}{{ item.rule | prose }}{% endfor %}"}\n',
    )
    rule = "{% for j in range(100) %}{% endfor %}·"
    (text,) = face(tmp_path, "p.yaml", {"item": {"rule": rule}}).shapes
    assert isinstance(text, TextShape) and text.text == "·" * 200
    with pytest.raises(TemplateError, match=r"p.yaml:2: text: too much work"):
        face(tmp_path, "p.yaml", {"item": {"rule": rule.replace("100", "1000")}})


def test_a_text_box_showing_a_set_lists_it_in_a_fixed_order(tmp_path: Path) -> None:
    write(
        tmp_path,
        "s.yaml",
        "boxes:\n"
        '  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: "{{ item.tags }}"}\n'
        '  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: "{{ item.tags | join }}"}\n'
        '  - {type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: "{{ item.tags.union }}"}\n',
    )
    tags = frozenset({"kiwi", "fig", "apple", "mango"})
    with pytest.raises(TemplateError, match=r"s.yaml:4: text: a function or method .*printed"):
        face(tmp_path, "s.yaml", {"item": {"tags": tags}})
    lines = (tmp_path / "s.yaml").read_text(encoding="utf-8").splitlines(keepends=True)
    write(tmp_path, "t.yaml", "".join(lines[:3]))
    shown = [s.text for s in face(tmp_path, "t.yaml", {"item": {"tags": tags}}).shapes]  # type: ignore[union-attr]
    assert shown == ["frozenset({'apple', 'fig', 'kiwi', 'mango'})", "applefigkiwimango"]


@pytest.mark.parametrize(
    ("box", "says"),
    [
        (
            "{type: rect, name: flood, x: 0, y: 0, w: 1mm, h: 1mm, repeat: 1000000000}",
            "box 'flood': repeat: at most 10,000, got 1000000000",
        ),
        (
            "{type: regular_polygon, cx: 5mm, cy: 5mm, r: 4mm, sides: 10000000}",
            "regular_polygon box: sides: at most 1,000, got 10000000",
        ),
        (
            "{type: text, x: 0, y: 0, w: 9mm, h: 9mm, text: \"{% set s = 'x' * 100000 %}"
            '{% for a in s %}{% for b in s %}{% endfor %}{% endfor %}"}',
            "text: too much work",
        ),
    ],
)
def test_validate_and_build_refuse_a_template_asking_for_too_much_in_seconds(
    tmp_path: Path, box: str, says: str
) -> None:
    from click.testing import CliRunner

    from pnp.cli import main
    from tests.conftest import CONTENT, TEMPLATES

    shutil.copytree(CONTENT / "deadline-99", tmp_path / "content" / "deadline-99")
    shutil.copytree(TEMPLATES / "deadline-99", tmp_path / "templates" / "deadline-99")
    card = tmp_path / "templates" / "deadline-99" / "playing-card.yaml"
    source = card.read_text(encoding="utf-8")
    card.write_text(source + f"  - {box}\n", encoding="utf-8")
    line = source.count("\n") + 1
    where = f"templates/deadline-99/playing-card.yaml:{line}: "
    runner = CliRunner()
    started = time.perf_counter()
    content = str(tmp_path / "content")
    checked = runner.invoke(main, ["--content", content, "validate", "deadline-99"])
    assert checked.exit_code == 1, checked.output
    assert where in checked.stdout and says in checked.stdout
    built = runner.invoke(main, ["--content", content, "build", "--out", str(tmp_path / "out")])
    assert built.exit_code == 1, built.output
    assert where in built.stderr and "Traceback" not in built.output
    assert time.perf_counter() - started < 30.0
