"""The table in a real headless Chromium (Debian's ``chromium``, driven by Playwright): whole
games of Deadline 99 and MAQUIS played by clicking, a hidden hand checked absent from another
seat's page, and screenshots to look at (kept in the test's temporary folder, and under
``$PNP_PLAY_SHOTS`` when set). Without chromium these tests skip, saying why."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from pnp.play.server import Access, TableServer
from pnp.play.session import Seats, Session
from pnp.registry import game_for
from tests.play.conftest import faces, policies, table

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() or shutil.which("chromium") is None,
    reason="Debian's chromium is not installed (apt-get install chromium)",
)
CLICKS = 400


@contextlib.contextmanager
def serving(server: TableServer) -> Iterator[str]:
    """The table on a free loopback port, in a thread of its own, for as long as needed."""
    loop = asyncio.new_event_loop()
    started = threading.Event()
    found: dict[str, Any] = {}

    async def start() -> None:
        runner = web.AppRunner(server.app(), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        found.update(runner=runner, port=runner.addresses[0][1])
        started.set()

    thread = threading.Thread(target=lambda: (loop.run_until_complete(start()), loop.run_forever()))
    thread.start()
    assert started.wait(30)
    try:
        yield f"http://127.0.0.1:{found['port']}"
    finally:
        asyncio.run_coroutine_threadsafe(found["runner"].cleanup(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


def _server(slug: str, seats: tuple[str, ...], seed: int, **find: Any) -> TableServer:
    session = Session(
        game_for(slug), table(slug, **find), Seats(seats), seed, policies=policies(slug, seats)
    )
    humans = session.seats.humans()
    accesses = {
        f"seat{seat}": Access(
            f"seat{seat}", frozenset({seat}), local=len(humans) == 1, label=f"Player {seat + 1}"
        )
        for seat in humans
    }
    return TableServer(session, faces(slug), accesses, ai_delay=0.0)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def _shot(page: Any, folder: Path, name: str) -> Path:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    extra = os.environ.get("PNP_PLAY_SHOTS")
    if extra:
        Path(extra).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(extra) / path.name)
    return path


def _play_by_clicking(page: Any) -> int:
    """Click the first offered move until the game is over; the clicks it took."""
    for clicks in range(CLICKS):
        page.wait_for_function(
            "document.body.classList.contains('your-move') || "
            "document.getElementById('status').textContent.startsWith('Game over')",
            timeout=30_000,
        )
        if page.locator("#status").inner_text().startswith("Game over"):
            return clicks
        seen = page.evaluate("window.__version")
        choice = page.locator("footer .choice")
        if choice.count():
            choice.first.click()
        elif page.locator("#table .playable").count():
            page.locator("#table .playable").first.click()
            if page.locator("footer .choice").count():
                page.locator("footer .choice").first.click()
        else:
            page.locator("footer .move").first.click()
        # The page takes the server's answer (a new version) before the next click.
        page.wait_for_function("(v) => window.__version !== v", arg=seen, timeout=30_000)
    raise AssertionError(f"no end after {CLICKS} clicks")


def test_a_whole_game_of_deadline_99_by_clicking(browser: Any, tmp_path: Path) -> None:
    server = _server("deadline-99", ("human", "sensible", "sensible"), 21, players=3)
    with serving(server) as base:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{base}/t/seat0")
        page.wait_for_selector("#table .card img")
        # The kit's faces: the hand shows card fronts, the table the count tracker.
        assert page.locator("[data-face^='playing-cards/'][data-element^='card:']").count() == 5
        assert page.locator("img.boardface[src*='count-tracker']").count() == 1
        _shot(page, tmp_path, "deadline-99-start")
        try:
            clicks = _play_by_clicking(page)
        finally:
            _shot(page, tmp_path, "deadline-99-over")
        assert clicks > 0
        assert page.locator("#status").inner_text().startswith("Game over")
        assert page.locator("#log li").count() > clicks
        page.close()


def test_a_whole_game_of_maquis_by_clicking(browser: Any, tmp_path: Path) -> None:
    server = _server("maquis", ("human",), 4, name="harder")
    with serving(server) as base:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{base}/t/seat0")
        page.wait_for_selector("#table .spot.playable")
        assert page.locator("img.boardface[src*='/face/board/']").count() == 1
        _shot(page, tmp_path, "maquis-start")
        _play_by_clicking(page)
        _shot(page, tmp_path, "maquis-over")
        assert page.locator("#status").inner_text().startswith("Game over")
        page.close()


def test_a_hidden_hand_is_not_in_another_seats_page(browser: Any, tmp_path: Path) -> None:
    server = _server("deadline-99", ("human", "human", "sensible"), 8, players=3)
    with serving(server) as base:
        pages = [browser.new_page(viewport={"width": 1400, "height": 1000}) for _ in range(2)]
        for seat, page in enumerate(pages):
            page.goto(f"{base}/t/seat{seat}")
            page.wait_for_selector("#table .card img")
        time.sleep(0.3)
        own_hand = (
            "areas => areas.filter(a => a.querySelector('h3').textContent === 'Your hand')"
            ".flatMap(a => [...a.querySelectorAll('figure')].map(f => f.dataset.face))"
        )
        hand_of = [set(page.eval_on_selector_all("#table .area", own_hand)) for page in pages]
        assert len(hand_of[0]) and len(hand_of[1])
        for seat, page in enumerate(pages):
            other = hand_of[1 - seat] - hand_of[seat]
            html = page.content()
            assert not [face for face in other if face in html], f"seat {seat} sees the other hand"
            _shot(page, tmp_path, f"deadline-99-seat{seat + 1}")
        page = pages[1]
        assert "Player 1's hand" in page.content()
        for opened in pages:
            opened.close()
