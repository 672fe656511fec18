"""The bundled Noto Sans CJK SC becomes embeddable TrueType fonts, glyph by glyph, on demand."""

from __future__ import annotations

import importlib.metadata
import io
import logging
import os
import re
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnp.errors import FontError
from pnp.render import fonts
from pnp.render.fonts import FontSet, prepare_cjk_fonts

SAMPLE = "死线九十九，计数！"
# A small charset keeps the conversions in these tests well under a second each.
SMALL = SAMPLE + "。骨角户说ABC abc 123“”《》"


@pytest.fixture(scope="session")
def cjk_fonts(tmp_path_factory: pytest.TempPathFactory) -> FontSet:
    """The bundled fonts, prepared once per test session into a private cache."""
    # A fixed path under the session's base temp dir, so a copy of this fixture
    # imported by another test module finds the same cache instead of converting again.
    directory = tmp_path_factory.getbasetemp() / "pnp-font-cache"
    # The private cache is this fixture's alone: left in the environment for the rest of the
    # session, it sent every later test of the process to fonts grown from the base set,
    # converting again the glyphs the shared cache holds (20 s of the suite).
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv(fonts.ENV_USER_FONT, raising=False)
        patch.delenv(fonts.ENV_USER_FONT_BOLD, raising=False)
        patch.setenv(fonts.ENV_CACHE_DIR, str(directory))
        return prepare_cjk_fonts()


@pytest.fixture
def no_user_font(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fonts.ENV_USER_FONT, raising=False)
    monkeypatch.delenv(fonts.ENV_USER_FONT_BOLD, raising=False)


@pytest.fixture
def tiny_base(monkeypatch: pytest.MonkeyPatch) -> None:
    """A base set of a few characters, so that a cold cache converts in well under 2 s."""
    monkeypatch.setattr(fonts, "base_charset", lambda: "".join(sorted(set(SMALL))))


def _source() -> Path:
    path = fonts.locate_source()
    assert path is not None, "the manimgx-fonts-cjk wheel must be installed for these tests"
    return path


def _pdf(fonts_: FontSet, text: str = SAMPLE) -> bytes:
    out = io.BytesIO()
    canvas = Canvas(out, invariant=1, initialFontName=fonts_.regular)
    canvas.setFont(fonts_.regular, 18)
    canvas.drawString(72, 720, text)
    canvas.setFont(fonts_.bold, 18)
    canvas.drawString(72, 680, text)
    canvas.save()
    return out.getvalue()


# ------------------------------------------------------------------ the font package


def test_source_is_found_without_importing_it() -> None:
    path = _source()
    assert path.name == "NotoSansCJK-VF.otf.ttc" and path.stat().st_size > 30_000_000
    assert fonts.SOURCE_PACKAGE not in sys.modules


def test_font_package_states_ofl_and_ships_the_licence_inside_site_packages() -> None:
    # Issue 16: metadata saying OFL-1.1, the licence text, no font outside site-packages.
    meta = importlib.metadata.metadata(fonts.SOURCE_DIST)
    assert meta["License-Expression"] == "OFL-1.1"
    files = importlib.metadata.files(fonts.SOURCE_DIST) or []
    licences = [f for f in files if "licenses/" in str(f)]
    assert licences
    assert "SIL Open Font License" in licences[0].read_text(encoding="utf-8")
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    for entry in files:
        assert Path(str(entry.locate())).resolve().is_relative_to(site), entry


def test_base_charset_is_small() -> None:
    charset = fonts.base_charset()
    assert len(charset) < 150  # GB2312 (7 445 characters) was the base before
    for ch in "，。、《》「」“”…—A~ 　":
        assert ch in charset, ch


def test_words_pnp_prints_itself_are_drawn_though_nobody_passes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The cover's and the sheets' own labels never reach prepare_cjk_fonts. Fonts of their
    # own: the session's fonts have grown by whatever earlier tests on this worker drew.
    monkeypatch.delenv(fonts.ENV_USER_FONT, raising=False)
    monkeypatch.delenv(fonts.ENV_USER_FONT_BOLD, raising=False)
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(tmp_path / "fonts"))
    fresh = prepare_cjk_fonts()
    label = "打印说明 · 正面 1/3 · 背面"
    assert not set(label) <= set(map(chr, fresh.coverage))
    assert fresh.missing(label) == set()


# ------------------------------------------------------------------ the built fonts


def test_fonts_are_truetype_simplified_chinese_and_keep_the_licence(cjk_fonts: FontSet) -> None:
    # Plain "PnpSans" unless a test that ran earlier in the process took the name.
    assert cjk_fonts.regular.startswith("PnpSans") and cjk_fonts.bold.startswith("PnpSans-Bold")
    for path, weight, ps_name in (
        (cjk_fonts.regular_path, 400, "NotoSansCJKsc-Regular"),
        (cjk_fonts.bold_path, 700, "NotoSansCJKsc-Bold"),
    ):
        with TTFont(str(path)) as font:
            assert "glyf" in font and "CFF " not in font and "CFF2" not in font
            assert font.sfntVersion == "\x00\x01\x00\x00"
            assert font["head"].glyphDataFormat == 0
            assert font["OS/2"].usWeightClass == weight
            assert font["name"].getDebugName(6) == ps_name
            licence = font["name"].getDebugName(13) or ""
            assert "SIL Open Font License" in licence
            # Simplified Chinese sets ， in the lower left of its square (Traditional: centred).
            comma = font["glyf"][font.getBestCmap()[ord("，")]]
            comma.recalcBounds(font["glyf"])
            assert comma.xMax < 400 and comma.yMax < 300
    assert cjk_fonts.missing(SAMPLE + " \n") == set()


def test_bold_is_heavier_than_regular(cjk_fonts: FontSet) -> None:
    with TTFont(str(cjk_fonts.regular_path)) as regular, TTFont(str(cjk_fonts.bold_path)) as bold:
        name = regular.getBestCmap()[ord("A")]
        assert bold["hmtx"][name][0] > regular["hmtx"][name][0]


def test_a_call_that_adds_nothing_returns_the_same_set(
    cjk_fonts: FontSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(cjk_fonts.regular_path.parent))
    monkeypatch.delenv(fonts.ENV_USER_FONT, raising=False)
    assert prepare_cjk_fonts() is prepare_cjk_fonts()
    assert prepare_cjk_fonts("打印说明") is prepare_cjk_fonts()  # all in the base set


def test_pdf_embeds_a_subset_and_text_extracts(cjk_fonts: FontSet, tmp_path: Path) -> None:
    path = tmp_path / "sample.pdf"
    path.write_bytes(_pdf(cjk_fonts))
    reader = PdfReader(str(path))
    embedded = []
    for font in reader.pages[0]["/Resources"]["/Font"].values():
        font = font.get_object()
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor  # TrueType program embedded
        embedded.append(str(font["/BaseFont"]))
    assert len(embedded) == 2
    assert all(re.fullmatch(r"/[A-Z]{6}\+NotoSansCJKsc-\w+", n) for n in embedded), embedded

    with pdfplumber.open(str(path)) as pdf:
        lines = (pdf.pages[0].extract_text() or "").splitlines()
    assert lines == [SAMPLE, SAMPLE]
    assert SAMPLE in reader.pages[0].extract_text()


def test_a_character_nobody_passed_is_still_drawn(
    cjk_fonts: FontSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 龘 is in no base set and no test passes it: drawing it takes it into the font.
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(cjk_fonts.regular_path.parent))
    monkeypatch.delenv(fonts.ENV_USER_FONT, raising=False)
    text = "龘" + SAMPLE
    assert cjk_fonts.missing(text) == set()
    with PdfReader(io.BytesIO(_pdf(cjk_fonts, text))) as reader:
        assert reader.pages[0].extract_text().splitlines()[0] == text
    # It is in the fonts now: passing it adds nothing, so no new set is made.
    assert prepare_cjk_fonts("龘") is prepare_cjk_fonts()


@pytest.mark.usefixtures("no_user_font", "tiny_base")
def test_pdf_bytes_depend_on_the_text_not_on_the_font_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(tmp_path / "a"))
    narrow = prepare_cjk_fonts()
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(tmp_path / "b"))
    wide = prepare_cjk_fonts("們線魔龍鬥")
    assert narrow.regular != wide.regular and narrow.regular_path != wide.regular_path
    assert narrow.identity == wide.identity
    assert _pdf(narrow) == _pdf(wide)


@pytest.mark.usefixtures("no_user_font", "tiny_base")
def test_first_preparation_says_what_it_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(tmp_path))
    with caplog.at_level(logging.INFO, logger="pnp.fonts"):
        prepare_cjk_fonts()
    messages = [r.getMessage() for r in caplog.records if r.name == "pnp.fonts"]
    assert len(messages) == 2, messages
    assert messages[0].startswith("preparing the Chinese font: converting ")
    assert re.fullmatch(r"font ready: \d+ characters converted in \d+\.\d s", messages[1])
    # The next process finds every glyph in the store and says nothing.
    caplog.clear()
    monkeypatch.setattr(fonts, "_families", {})
    monkeypatch.setattr(fonts, "_registered", {})
    with caplog.at_level(logging.INFO, logger="pnp.fonts"):
        prepare_cjk_fonts()
    assert [r for r in caplog.records if r.name == "pnp.fonts"] == []
    stores = sorted(p.name for p in tmp_path.glob("glyphs-*"))
    assert [name.split("-")[1] for name in stores] == ["bold", "regular"]


def test_build_is_deterministic_and_cached(tmp_path: Path) -> None:
    source = _source()
    first = fonts.build_fonts(source, SMALL, tmp_path / "a")
    second = fonts.build_fonts(source, SMALL, tmp_path / "b")
    for style in fonts.STYLES:
        assert first[style].name == second[style].name
        assert first[style].read_bytes() == second[style].read_bytes()
    # The second look-up in the same directory reuses the files.
    mtime = first["regular"].stat().st_mtime_ns
    assert fonts.build_fonts(source, SMALL, tmp_path / "a") == first
    assert first["regular"].stat().st_mtime_ns == mtime
    assert not list((tmp_path / "a").glob("*.tmp"))  # no temp file left


def test_the_cache_removes_the_fonts_unused_longest_and_keeps_the_glyphs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every new set of characters writes a pair of fonts: beyond the newest few, a pair
    nobody used for an hour goes (it was 469 pairs, 117 MB, on a designer's machine)."""
    monkeypatch.setattr(fonts, "KEPT_FONTS", 4)  # two pairs
    source, directory = _source(), tmp_path / "cache"
    texts = ["ABC", "ABCa", "ABCab", "ABCabc"]
    built = [fonts.build_fonts(source, text, directory) for text in texts[:3]]
    first_bytes = built[0]["regular"].read_bytes()
    two_days_ago = time.time() - 2 * 24 * 3600
    for paths in built:
        for font in paths.values():
            for path in (font, font.with_name(font.name + ".seal")):
                os.utime(path, (two_days_ago, two_days_ago))
    fonts.build_fonts(source, texts[1], directory)  # used again today: kept whatever its age
    fonts.build_fonts(source, texts[3], directory)  # a new pair: the cache is pruned
    kept = {path.name for path in directory.glob("PnpSans-*")}
    assert all(f.name in kept for f in built[1].values())
    for gone in (*built[0].values(), *built[2].values()):
        assert gone.name not in kept and f"{gone.name}.seal" not in kept
    assert list(directory.glob("glyphs-*"))  # the converted glyphs stay
    # Asked for again, a removed font is assembled again, byte for byte.
    assert fonts.build_fonts(source, texts[0], directory)["regular"].read_bytes() == first_bytes


def test_a_font_file_pruned_while_its_fonts_are_in_use_is_written_again(
    cjk_fonts: FontSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another pnp may prune the cache under a long-lived one (a watch session, a table):
    readers of the file (the gallery, the table's web font) find it written again."""
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(cjk_fonts.regular_path.parent))
    monkeypatch.delenv(fonts.ENV_USER_FONT, raising=False)
    before = prepare_cjk_fonts()
    # Asking for the fonts marks their files used, so no other pnp prunes them while read.
    seal = before.regular_path.with_name(before.regular_path.name + ".seal")
    os.utime(seal, (time.time() - 2 * fonts.UNUSED_FOR,) * 2)
    assert prepare_cjk_fonts() is before
    assert time.time() - seal.stat().st_mtime < fonts.UNUSED_FOR
    before.regular_path.unlink()
    after = prepare_cjk_fonts()
    # The fonts as they are now: every character the removed file held, and any taken in since.
    with TTFont(str(after.regular_path)) as font:
        assert set(font.getBestCmap()) >= before.coverage
    assert after.coverage >= before.coverage and after.bold_path.is_file()


def test_a_planted_font_or_glyph_store_in_the_cache_is_not_used(tmp_path: Path) -> None:
    """The font cache may be restored from shared storage: a font file planted under the name
    pnp would use (here the bold outlines as the regular font) and a planted glyph store are
    made again, never embedded."""
    import marshal

    source = _source()
    directory = tmp_path / "cache"
    built = fonts.build_fonts(source, SMALL, directory)
    regular = built["regular"].read_bytes()
    built["regular"].write_bytes(built["bold"].read_bytes())
    for store in directory.glob("glyphs-*.marshal"):
        store.write_bytes(marshal.dumps({ord("死"): (1, b"planted")}))
    again = fonts.build_fonts(source, SMALL, directory)
    assert again["regular"].read_bytes() == regular
    assert all(
        fonts._read_store(store).get(ord("死")) != (1, b"planted")
        for store in directory.glob("glyphs-*.marshal")
    )


def test_styles_converted_side_by_side_are_the_glyphs_one_process_makes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A first build converts its hundreds of glyphs a style per process; a glyph must not
    # depend on which process made it, and a child that fails leaves its style to the parent.
    import os

    wanted = sorted({ord(ch) for ch in SMALL + "一二三四五六七八十百千万"} | {fonts._NOTDEF})
    reader = fonts._GlyphSource(_source())
    alone = {style: reader.convert(style, wanted) for style in fonts.STYLES}
    monkeypatch.setattr(fonts, "SIDE_BY_SIDE_GLYPHS", 2)
    monkeypatch.setattr("pnp.cores.default_workers", lambda: 2)
    real = fonts._convert_into

    def marked(*args: Any) -> None:
        (tmp_path / f"child-{os.getpid()}").touch()  # a file, since a child's memory is its own
        real(*args)

    monkeypatch.setattr(fonts, "_convert_into", marked)
    together = fonts._convert_styles(fonts._GlyphSource(_source()), {s: wanted for s in alone})
    assert together == alone
    assert [p.name for p in tmp_path.glob("child-*")] != [f"child-{os.getpid()}"]
    assert len(list(tmp_path.glob("child-*"))) == 1

    def crashed(reader: Any, style: str, codepoints: list[int], send: Any) -> None:
        send.close()  # sends nothing, as a child that died would

    monkeypatch.setattr(fonts, "_convert_into", crashed)
    assert fonts._convert_styles(fonts._GlyphSource(_source()), {s: wanted for s in alone}) == alone


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(tmp_path / "explicit"))
    assert fonts.cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv(fonts.ENV_CACHE_DIR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert fonts.cache_dir() == tmp_path / "xdg" / "pnp" / "fonts"


@pytest.mark.usefixtures("no_user_font")
def test_missing_source_names_the_pip_package(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(tmp_path))
    monkeypatch.setattr(fonts, "locate_source", lambda: None)
    with pytest.raises(FontError, match="pip install manimgx-fonts-cjk"):
        prepare_cjk_fonts()


def test_characters_the_source_lacks_are_missing(cjk_fonts: FontSet) -> None:
    # A private-use character: no font of ours draws it.
    assert cjk_fonts.missing("死\ue000") == {"\ue000"}
    assert not cjk_fonts.covers("\ue000") and cjk_fonts.covers("死")


def test_user_font_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    ttf = fonts.build_fonts(_source(), SMALL, tmp_path)["regular"]
    monkeypatch.setenv(fonts.ENV_USER_FONT, str(ttf))
    monkeypatch.delenv(fonts.ENV_USER_FONT_BOLD, raising=False)
    chosen = prepare_cjk_fonts()
    assert chosen.regular_path == chosen.bold_path == ttf
    assert chosen.identity and chosen.identity != fonts._key()  # the file decides the glyphs
    assert chosen.missing(SAMPLE) == set()
    assert chosen.missing("們") == {"們"}  # a user's font is used as it is


def test_user_font_with_cff_outlines_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fonts.ENV_USER_FONT, str(_source()))
    with pytest.raises(FontError, match="reportlab can only embed TrueType"):
        prepare_cjk_fonts()


def test_user_font_that_does_not_exist(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(fonts.ENV_USER_FONT, str(tmp_path / "nope.ttf"))
    with pytest.raises(FontError, match="not a file"):
        prepare_cjk_fonts()


def test_stores_of_two_caches_read_the_source_once_and_a_forked_process_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    opened: list[int] = []
    real = fonts._GlyphSource

    def counted(source: Path) -> fonts._GlyphSource:
        opened.append(os.getpid())
        return real(source)

    monkeypatch.setattr(fonts, "_READERS", {})
    monkeypatch.setattr(fonts, "_GlyphSource", counted)
    first = fonts.build_fonts(_source(), SMALL, tmp_path / "a")
    second = fonts.build_fonts(_source(), SMALL, tmp_path / "b")
    assert opened == [os.getpid()]
    assert [p.read_bytes() for p in first.values()] == [p.read_bytes() for p in second.values()]
    # A forked process would share the parent's file, and the place of every read in it.
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through its exit code
        reader = fonts._reader_of(_source(), fonts._source_identity(_source()))
        os._exit(0 if opened[-1] == os.getpid() and reader.has(ord("死")) else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
