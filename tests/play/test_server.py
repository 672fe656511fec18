"""The table's web server on the loopback: seat links, refusals that change nothing, what
each seat is sent, pushed updates, and 50 clients at once."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, WSMsgType
from aiohttp.test_utils import TestServer

from pnp.play.server import Access, TableServer
from pnp.play.session import Seats, Session
from pnp.registry import game_for
from tests.play.conftest import faces, policies, table

HOT, ONE, TWO = "hot-seat-token", "seat-one-token", "seat-two-token"


def _server(seats: tuple[str, ...] = ("human", "human", "sensible"), seed: int = 5) -> TableServer:
    session = Session(
        game_for("deadline-99"),
        table("deadline-99", players=len(seats)),
        Seats(seats),
        seed,
        policies=policies("deadline-99", seats),
    )
    humans = frozenset(session.seats.humans())
    accesses = {
        HOT: Access(HOT, humans, local=True, label="hot-seat"),
        ONE: Access(ONE, frozenset({0}), label="Player 1"),
        TWO: Access(TWO, frozenset({1}), label="Player 2"),
    }
    return TableServer(session, faces("deadline-99"), accesses, ai_delay=0.0)


def _serve(server: TableServer, test: Callable[[str, ClientSession], Awaitable[None]]) -> None:
    async def main() -> None:
        site = TestServer(server.app(), host="127.0.0.1")
        await site.start_server()
        try:
            async with ClientSession() as client:
                await asyncio.wait_for(test(str(site.make_url("")).rstrip("/"), client), 120)
        finally:
            await site.close()

    asyncio.run(main())


async def _state(client: ClientSession, base: str, token: str, seat: int) -> dict[str, Any]:
    async with client.get(f"{base}/api/{token}/state", params={"seat": seat}) as response:
        assert response.status == 200
        data: dict[str, Any] = await response.json()
        return data


async def _settled(client: ClientSession, base: str, token: str, seat: int) -> dict[str, Any]:
    """The state once chance has drawn: a human to act, or the game over."""
    for _ in range(200):
        data = await _state(client, base, token, seat)
        if data["over"] or data["to_act"] in (0, 1):
            return data
        await asyncio.sleep(0.01)
    raise AssertionError("the table never settled")


def _hand_faces(data: dict[str, Any], title: str) -> set[str]:
    for area in data["scene"]["areas"]:
        if area["kind"] == "row" and area["title"] == title:
            return {card["face"] for card in area["cards"] if card["face"]}
    return set()


def test_no_response_to_one_seat_holds_another_seats_hidden_cards() -> None:
    """A game played to its end through both seat links: at every step, what seat 1 is sent
    (state, the answer to its own move, the log) names no card of seat 2's hand that seat 1
    cannot see on the table, and seat 2's draws reach seat 1 only as "draws a card"."""
    server = _server()

    async def test(base: str, client: ClientSession) -> None:
        tokens = {0: ONE, 1: TWO}
        answers: list[tuple[int, str]] = []
        for _ in range(400):
            data = await _settled(client, base, ONE, 0)
            if data["over"]:
                break
            seat = data["to_act"]
            mine = await _state(client, base, tokens[seat], seat)
            move = mine["moves"][0]["action"]
            async with client.post(
                f"{base}/api/{tokens[seat]}/act",
                json={"seat": seat, "version": mine["version"], "action": move},
            ) as response:
                assert response.status == 200, await response.text()
                answers.append((seat, await response.text()))
            for viewer in (0, 1):
                seen = await _state(client, base, tokens[viewer], viewer)
                answers.append((viewer, json.dumps(seen)))
            # The truth, from the onlooker's side of the server: each hand's faces.
            whole = server.table.snapshot(None, may_act=False)  # type: ignore[union-attr]
            for viewer in (0, 1):
                other = 1 - viewer
                hidden = _hand_faces(whole, f"Player {other + 1}'s hand")
                shown = _hand_faces(json.loads(answers[-2 + viewer][1]), "Your hand")
                top = {
                    c["face"]
                    for a in json.loads(answers[-2 + viewer][1])["scene"]["areas"]
                    if a["kind"] == "row" and a["title"].startswith("Draw pile")
                    for c in a["cards"]
                    if c["face"]
                }
                for face in hidden - shown - top:
                    assert face not in answers[-2 + viewer][1], (
                        f"seat {viewer} was sent {face} from seat {other}'s hand"
                    )
        assert data["over"], "the game should end within 400 moves"
        log = (await _state(client, base, ONE, 0))["log"]
        assert any(line.endswith("Chance: Player 2 draws a card") for line in log)
        assert not any("Player 2 draws" in line and "(draw:" in line for line in log)
        assert any("Player 1 draws" in line and "(draw:" in line for line in log)

    _serve(server, test)


def test_bad_input_is_refused_and_changes_nothing() -> None:
    server = _server()

    async def test(base: str, client: ClientSession) -> None:
        start = await _state(client, base, ONE, 0)
        legal = start["moves"][0]["action"]
        cases: list[tuple[str, str, Any, int, str]] = [
            (
                "post",
                "/api/wrong/act",
                {"seat": 0, "version": 0, "action": legal},
                403,
                "unknown seat link",
            ),
            (
                "post",
                f"/api/{TWO}/act",
                {"seat": 0, "version": 0, "action": legal},
                403,
                "does not hold seat 0",
            ),
            ("post", f"/api/{ONE}/act", {"seat": 0, "version": 7, "action": legal}, 409, "stale"),
            (
                "post",
                f"/api/{ONE}/act",
                {"seat": 0, "version": 0, "action": "ks@9"},
                422,
                "illegal action",
            ),
            (
                "post",
                f"/api/{ONE}/act",
                {"seat": "0", "version": 0, "action": legal},
                400,
                "'seat'",
            ),
            ("post", f"/api/{ONE}/act", [1, 2], 400, "expected a JSON object"),
            ("raw", f"/api/{ONE}/act", b"{not json", 400, "expected a JSON object"),
            ("raw", f"/api/{ONE}/act", b"\xff\xfe", 400, "expected a JSON object"),
            ("post", f"/api/{ONE}/undo", {"version": 0}, 403, "solo and hot-seat"),
            ("raw", f"/api/{HOT}/load", b"game: maquis\n", 400, "expected 'table'"),
            ("get", f"/api/{ONE}/state?seat=1", None, 403, "does not hold seat 1"),
            ("get", f"/api/{ONE}/state?seat=all", None, 403, "does not hold seat None"),
            ("get", "/face/playing-cards/no-such-card/front.png", None, 404, "no face"),
            ("get", f"/api/{ONE}/save", None, 403, "once the game is over"),
        ]
        for method, path, body, status, message in cases:
            if method == "get":
                request = client.get(base + path)
            elif method == "raw":
                request = client.post(base + path, data=body)
            else:
                request = client.post(base + path, json=body)
            async with request as response:
                text = await response.text()
                assert response.status == status, (path, body, text)
                assert "Traceback" not in text
                assert message in json.loads(text)["error"], (path, text)
        async with client.post(f"{base}/api/{ONE}/act", data=b"x" * 3_000_000) as response:
            assert response.status == 413
        after = await _state(client, base, ONE, 0)
        assert after["version"] == start["version"] and after["scene"] == start["scene"]

    _serve(server, test)


def test_pages_are_pushed_each_change_and_a_malformed_message_gets_an_error() -> None:
    server = _server(("human", "sensible", "sensible"))

    async def test(base: str, client: ClientSession) -> None:
        async with client.ws_connect(f"{base}/api/{ONE}/ws") as socket:
            first = await socket.receive_json()
            assert first["seat"] == 0 and first["moves"]
            await socket.send_str("{broken")
            assert (await socket.receive_json()) == {"error": "malformed JSON"}
            await socket.send_json({"watch": 1})
            assert "does not hold seat 1" in (await socket.receive_json())["error"]
            move = first["moves"][0]["action"]
            async with client.post(
                f"{base}/api/{ONE}/act",
                json={"seat": 0, "version": first["version"], "action": move},
            ) as response:
                assert response.status == 200
            versions = []
            while True:  # every step pushed: the move, the draws, the AI's move and its draws
                message = await asyncio.wait_for(socket.receive(), 30)
                assert message.type is WSMsgType.TEXT
                data = json.loads(message.data)
                versions.append(data["version"])
                if data["over"] or data["to_act"] == 0:
                    break
            assert versions == sorted(versions) and len(versions) >= 3
            assert any("Player 2: plays" in line for line in data["log"])

    _serve(server, test)


def test_undo_save_and_load_on_the_hot_seat_link() -> None:
    server = _server()

    async def test(base: str, client: ClientSession) -> None:
        start = await _state(client, base, HOT, 0)
        async with client.post(
            f"{base}/api/{HOT}/act",
            json={"seat": 0, "version": start["version"], "action": start["moves"][0]["action"]},
        ) as response:
            assert response.status == 200
        settled = await _settled(client, base, HOT, 1)
        async with client.get(f"{base}/api/{HOT}/save") as response:
            saved = await response.text()
        assert "seed: 5" in saved and "\nactions:\n" in saved
        async with client.post(
            f"{base}/api/{HOT}/undo", json={"version": settled["version"]}
        ) as response:
            undone = await response.json()
        assert undone["step"] == 0 and undone["to_act"] == 0
        async with client.post(f"{base}/api/{HOT}/load", data=saved.encode()) as response:
            loaded = await response.json()
        assert loaded["step"] == settled["step"]

    _serve(server, test)


def test_fifty_clients_at_once_get_answers_and_pushes(capsys: Any) -> None:
    """50 clients on the loopback, each with its websocket open, read the table and take
    turns at the two seats; every request is answered (refusals included) and the round trip
    of a move stays short. Bounded: 20 requests a client, two minutes at most."""
    server = _server()
    clients, requests = 50, 20

    async def test(base: str, client: ClientSession) -> None:
        reads: list[float] = []
        moves: list[float] = []
        statuses: list[int] = []

        async def one(index: int) -> None:
            seat = index % 2
            token = (ONE, TWO)[seat]
            async with ClientSession() as own, own.ws_connect(f"{base}/api/{token}/ws") as socket:
                await socket.receive_json()
                for _ in range(requests):
                    started = time.perf_counter()
                    async with own.get(f"{base}/api/{token}/state") as response:
                        data = await response.json()
                        statuses.append(response.status)
                    reads.append(time.perf_counter() - started)
                    if data["moves"] and not data["over"]:
                        started = time.perf_counter()
                        async with own.post(
                            f"{base}/api/{token}/act",
                            json={
                                "seat": seat,
                                "version": data["version"],
                                "action": data["moves"][0]["action"],
                            },
                        ) as response:
                            await response.read()
                            statuses.append(response.status)
                        if response.status == 200:
                            moves.append(time.perf_counter() - started)

        await asyncio.gather(*(one(i) for i in range(clients)))
        assert set(statuses) <= {200, 409}, sorted(set(statuses))
        assert len(reads) == clients * requests and moves
        p95 = statistics.quantiles(reads, n=20)[-1]
        move_p95 = statistics.quantiles(moves, n=20)[-1] if len(moves) > 1 else moves[0]
        with capsys.disabled():
            print(
                f"\n50 clients: {len(reads)} reads p50 {statistics.median(reads) * 1e3:.1f} ms "
                f"p95 {p95 * 1e3:.1f} ms max {max(reads) * 1e3:.1f} ms; {len(moves)} moves "
                f"p95 {move_p95 * 1e3:.1f} ms; {statuses.count(409)} refused (stale, out of turn)"
            )
        # Generous on a shared two-core machine; the bench holds the 50 ms goal on one client.
        assert p95 < 2.0

    _serve(server, test)


def test_the_web_font_is_served_even_after_the_cache_pruned_its_file(tmp_path: Path) -> None:
    """The table's font is the cache's file; another pnp may prune it while the table runs."""
    server = _server()
    cached = server.faces.fonts.regular_path

    async def test(base: str, client: ClientSession) -> None:
        async with client.get(f"{base}/font/regular.ttf") as response:
            assert response.status == 200 and response.content_type == "font/ttf"
            served = await response.read()
        assert served[:4] == b"\x00\x01\x00\x00"  # TrueType
        cached.replace(tmp_path / "pruned.ttf")  # as pruning does, but kept to put back
        async with client.get(f"{base}/font/regular.ttf") as response:
            assert response.status == 200
            assert await response.read() == served
        async with client.get(f"{base}/font/italic.ttf") as response:
            assert response.status == 404

    try:
        _serve(server, test)
    finally:
        if not cached.exists():  # the shared cache is as it was for the tests beside this one
            (tmp_path / "pruned.ttf").replace(cached)
