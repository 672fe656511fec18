"""The bundled Noto Sans CJK becomes an embeddable, Simplified-Chinese TrueType font."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

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
def cjk_fonts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FontSet]:
    """The full fonts, converted once per test session into a private cache."""
    # A fixed path under the session's base temp dir, so a copy of this fixture
    # imported by another test module finds the same cache instead of converting again.
    directory = tmp_path_factory.getbasetemp() / "pnp-font-cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv(fonts.ENV_USER_FONT, raising=False)
        patch.delenv(fonts.ENV_USER_FONT_BOLD, raising=False)
        patch.setenv(fonts.ENV_CACHE_DIR, str(directory))
        yield prepare_cjk_fonts()


@pytest.fixture
def no_user_font(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(fonts.ENV_USER_FONT, raising=False)
    monkeypatch.delenv(fonts.ENV_USER_FONT_BOLD, raising=False)


def _source(style: str = "regular") -> Path:
    path = fonts._locate_source(style)
    assert path is not None, "the cvttf-notosanscjk wheels must be installed for these tests"
    return path


def test_bundled_sources_are_found_without_importing_them() -> None:
    import sys

    for style in ("regular", "bold"):
        path = _source(style)
        assert path.suffix == ".otf" and path.stat().st_size > 10_000_000
    assert "cvttf_NotoSansCJK_Regular" not in sys.modules


def test_base_charset_holds_gb2312_and_the_symbols() -> None:
    charset = fonts.base_charset()
    assert len(fonts._gb2312()) == 7445
    for ch in "死线九十九，。、《》「」“”…—①⑳♠♥♣♦☆★±×÷≤≥∞→■A~":
        assert ch in charset, ch


def test_full_font_is_truetype_and_keeps_the_licence(cjk_fonts: FontSet) -> None:
    # Plain "PnpSans" unless a test that ran earlier in the process took the name.
    assert cjk_fonts.regular.startswith("PnpSans") and cjk_fonts.bold.startswith("PnpSans-Bold")
    for path in (cjk_fonts.regular_path, cjk_fonts.bold_path):
        with TTFont(str(path)) as font:
            assert "glyf" in font and "CFF " not in font
            assert font.sfntVersion == "\x00\x01\x00\x00"
            assert font["head"].glyphDataFormat == 0
            licence = font["name"].getDebugName(13) or ""
            assert "SIL Open Font License" in licence
    assert cjk_fonts.missing(SAMPLE + " \n") == set()


def test_second_call_is_cached(cjk_fonts: FontSet, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(cjk_fonts.regular_path.parent))
    monkeypatch.delenv(fonts.ENV_USER_FONT, raising=False)
    assert prepare_cjk_fonts() is cjk_fonts
    assert prepare_cjk_fonts("死线九十九") is cjk_fonts  # all in the base set


def test_pdf_embeds_a_subset_and_text_extracts(cjk_fonts: FontSet, tmp_path: Path) -> None:
    path = tmp_path / "sample.pdf"
    canvas = Canvas(str(path), initialFontName=cjk_fonts.regular)
    canvas.setFont(cjk_fonts.regular, 18)
    canvas.drawString(72, 720, SAMPLE)
    canvas.setFont(cjk_fonts.bold, 18)
    canvas.drawString(72, 680, SAMPLE)
    canvas.save()

    reader = PdfReader(str(path))
    embedded = []
    for font in reader.pages[0]["/Resources"]["/Font"].values():
        font = font.get_object()
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor  # TrueType program embedded
        embedded.append(str(font["/BaseFont"]))
    assert len(embedded) == 2
    assert all(re.fullmatch(r"/[A-Z]{6}\+.+", name) for name in embedded), embedded

    with pdfplumber.open(str(path)) as pdf:
        lines = (pdf.pages[0].extract_text() or "").splitlines()
    assert lines == [SAMPLE, SAMPLE]
    assert SAMPLE in reader.pages[0].extract_text()


def test_locl_remap_selects_simplified_forms() -> None:
    source = _source()
    with TTFont(str(source), lazy=True) as font:
        traditional = font.getBestCmap()
        substitutions = fonts._locl_substitutions(font)
    # 骨 and 角 are drawn differently in mainland China and Taiwan; ， sits in the
    # lower-left corner of its box in Simplified Chinese and centred in Traditional.
    differing = [ch for ch in "骨角，。说户" if traditional[ord(ch)] in substitutions]
    assert {"骨", "角", "，", "。"} <= set(differing)

    with TTFont(io.BytesIO(fonts.convert_font(source, SMALL))) as built:
        simplified = built.getBestCmap()
    for ch in differing:
        before = traditional[ord(ch)]
        assert simplified[ord(ch)] == substitutions[before] != before, ch
    assert simplified[ord("十")] == traditional[ord("十")]  # same in both regions


def test_conversion_is_deterministic(tmp_path: Path) -> None:
    source = _source("bold")
    first = fonts.build_font_file(source, SMALL, tmp_path / "a", "t")
    second = fonts.build_font_file(source, SMALL, tmp_path / "b", "t")
    assert first.name == second.name
    assert first.read_bytes() == second.read_bytes()
    # The second look-up in the same directory reuses the file.
    mtime = first.stat().st_mtime_ns
    assert fonts.build_font_file(source, SMALL, tmp_path / "a", "t") == first
    assert first.stat().st_mtime_ns == mtime
    assert [p.name for p in (tmp_path / "a").iterdir()] == [first.name]  # no temp left


def test_cache_key_tracks_the_charset(tmp_path: Path) -> None:
    source = _source()
    assert fonts._cache_key(source, "ab") == fonts._cache_key(source, "ba")
    assert fonts._cache_key(source, "ab") != fonts._cache_key(source, "abc")


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
    monkeypatch.setattr(fonts, "_locate_source", lambda style: None)
    with pytest.raises(FontError, match="pip install cvttf-notosanscjk-regular"):
        prepare_cjk_fonts()


@pytest.mark.usefixtures("no_user_font")
def test_extra_characters_get_their_own_font(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A tiny base set stands in for GB2312 so that the two builds stay fast.
    monkeypatch.setattr(fonts, "base_charset", lambda: "".join(sorted(set(SMALL))))
    monkeypatch.setenv(fonts.ENV_CACHE_DIR, str(tmp_path))
    base = prepare_cjk_fonts()
    assert base.missing("死線們𠀀") == {"線", "們", "𠀀"}

    extended = prepare_cjk_fonts("線們𠀀 \n")
    assert extended.regular.startswith("PnpSans-") and extended.regular != base.regular
    assert extended.missing("死線們𠀀") == {"𠀀"}  # Noto Sans CJK has no Ext-B
    assert prepare_cjk_fonts("們線") is extended  # order and duplicates do not matter


def test_user_font_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    ttf = fonts.build_font_file(_source(), SMALL, tmp_path, "user")
    monkeypatch.setenv(fonts.ENV_USER_FONT, str(ttf))
    monkeypatch.delenv(fonts.ENV_USER_FONT_BOLD, raising=False)
    chosen = prepare_cjk_fonts()
    assert chosen.regular_path == chosen.bold_path == ttf
    assert chosen.missing(SAMPLE) == set()
    assert chosen.missing("們") == {"們"}


def test_user_font_with_cff_outlines_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(fonts.ENV_USER_FONT, str(_source()))
    with pytest.raises(FontError, match="reportlab can only embed TrueType"):
        prepare_cjk_fonts()


def test_user_font_that_does_not_exist(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(fonts.ENV_USER_FONT, str(tmp_path / "nope.ttf"))
    with pytest.raises(FontError, match="not a file"):
        prepare_cjk_fonts()
