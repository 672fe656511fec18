"""The table's web server: one session, its seat links, the kit's faces, pushed updates.

Built on aiohttp: one library for the HTTP server, websockets and the asynchronous client the
load test uses, typed, maintained by aio-libs since 2014, with no build step and nothing but
Python wheels. The page is plain HTML, CSS and JavaScript served from this package.

Every seat link carries a secret token: a request with an unknown token, for a seat its
token does not hold, with a stale version, an illegal action or a malformed body is refused
with a JSON ``{"error": ...}`` and a 4xx status, and changes nothing. The server is the only
authority: it applies what the engine's ``legal_actions`` lists and nothing else, draws the
chance steps, and plays the AI seats (the strong player in a worker thread, one decision at a
time, each pushed to every page as it is made).

Routes (``TOKEN`` is a seat link's secret):

- ``GET /t/TOKEN``: the page; ``GET /static/NAME``: its script and style sheet;
- ``GET /face/PRODUCT/ITEM/SIDE.png``: a face of the kit;
- ``GET /api/TOKEN/state?seat=N``: what seat N sees now (JSON);
- ``POST /api/TOKEN/act`` ``{"seat", "version", "action"}``: play a legal action;
- ``POST /api/TOKEN/undo`` ``{"version"}``, ``GET /api/TOKEN/save``, ``POST /api/TOKEN/load``
  (the saved text): solo and hot-seat links only;
- ``POST /api/TOKEN/seek`` ``{"step"}``: a replay's position;
- ``GET /api/TOKEN/ws``: a websocket that pushes the seat's state after every change; the
  page may send ``{"watch": N}`` to see another seat its token holds (hot-seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from pnp.engines.base import Rules
from pnp.engines.view import FaceRef
from pnp.errors import PnpError
from pnp.play.faces import FaceStore
from pnp.play.session import PlayError, Replay, Session, bad_request

_LOG = logging.getLogger("pnp.play")
MAX_BODY = 2_000_000
"""Bytes a request body may hold (a saved game of thousands of steps fits)."""
STATIC = ("table.js", "table.css")


@dataclass(frozen=True)
class Access:
    """What one link may do."""

    token: str
    seats: frozenset[int]
    """The seats it plays."""
    local: bool = False
    """Solo or hot-seat: every human seat on one device, so it may undo, save and load."""
    label: str = ""


def new_token() -> str:
    return secrets.token_urlsafe(16)


@dataclass
class _Watcher:
    socket: web.WebSocketResponse
    access: Access
    seat: int | None


@dataclass
class TableServer:
    """The web side of one table (a live :class:`Session` or a :class:`Replay`)."""

    table: Session | Replay
    faces: FaceStore
    accesses: dict[str, Access]
    ai_rules: Rules[Any, Any] | None = None
    """The AI seats' own rules instance (the worker thread shares no engine memo)."""
    ai_delay: float = 0.8
    """Seconds an AI seat waits before it moves, so each move can be seen."""
    _watchers: list[_Watcher] = field(default_factory=list)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _pool: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="pnp-ai")
    )
    _faces_pool: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="pnp-faces")
    )
    _static: dict[str, bytes] = field(default_factory=dict)
    _snapshots: dict[tuple[int | None, bool], tuple[int, dict[str, Any]]] = field(
        default_factory=dict
    )
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)
    stopped: str = ""
    """Why the machines stopped (an engine's or a policy's error), once they have."""

    # -- the application -------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[_errors_as_json])
        folder = resources.files("pnp.play") / "static"
        self._static = {name: (folder / name).read_bytes() for name in (*STATIC, "table.html")}
        app.router.add_get("/", self.root)
        app.router.add_get("/t/{token}", self.page)
        app.router.add_get("/favicon.ico", self.favicon)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/face/{product}/{item}/{side}.png", self.face)
        app.router.add_get("/font/{style}.ttf", self.font)
        app.router.add_get("/api/{token}/state", self.state)
        app.router.add_post("/api/{token}/act", self.act)
        app.router.add_post("/api/{token}/undo", self.undo)
        app.router.add_get("/api/{token}/save", self.save)
        app.router.add_post("/api/{token}/load", self.load)
        app.router.add_post("/api/{token}/seek", self.seek)
        app.router.add_get("/api/{token}/ws", self.websocket)
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._stop)
        return app

    async def _start(self, app: web.Application) -> None:
        loop = asyncio.get_running_loop()
        # Faces are made before the first page asks for them (a few seconds for a kit).
        self._tasks.append(asyncio.create_task(self._warm_faces(loop)))
        if isinstance(self.table, Session):
            self._tasks.append(asyncio.create_task(self._machines()))

    async def _warm_faces(self, loop: asyncio.AbstractEventLoop) -> None:
        await loop.run_in_executor(self._faces_pool, self.faces.warm, self.faces.refs())

    async def _stop(self, app: web.Application) -> None:
        for task in self._tasks:
            task.cancel()
        for watcher in list(self._watchers):
            await watcher.socket.close()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._faces_pool.shutdown(wait=False, cancel_futures=True)

    # -- pages and faces -------------------------------------------------------------------

    async def root(self, request: web.Request) -> web.Response:
        return web.Response(
            status=403,
            text="This table is open by seat links only: use the link pnp play printed.",
        )

    async def favicon(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def page(self, request: web.Request) -> web.Response:
        self._access(request)
        return web.Response(
            body=self._static["table.html"],
            content_type="text/html",
            charset="utf-8",
            headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
        )

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise PlayError(404, f"no file {name!r}")
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return web.Response(
            body=self._static[name],
            content_type=kind,
            charset="utf-8",
            headers={"Cache-Control": "max-age=300"},
        )

    async def face(self, request: web.Request) -> web.Response:
        info = request.match_info
        ref = FaceRef(info["product"], info["item"], info["side"])
        if ref not in self.faces:
            raise PlayError(
                404, f"the kit has no face {info['product']}/{info['item']}/{info['side']}"
            )
        loop = asyncio.get_running_loop()
        data = await loop.run_in_executor(self._faces_pool, self.faces.png, ref)
        return web.Response(
            body=data, content_type="image/png", headers={"Cache-Control": "max-age=86400"}
        )

    async def font(self, request: web.Request) -> web.Response:
        """The kit's own Chinese font (the glyphs pnp drew the faces with), so names show on
        a machine without a Chinese font too."""
        style = request.match_info["style"]
        if style not in ("regular", "bold"):
            raise PlayError(404, f"no font {style!r}")
        loop = asyncio.get_running_loop()
        data = await loop.run_in_executor(None, self._font_bytes, style)
        return web.Response(
            body=data, content_type="font/ttf", headers={"Cache-Control": "max-age=86400"}
        )

    def _font_bytes(self, style: str) -> bytes:
        """The font file as the cache holds it now: asked again, since another pnp may have
        pruned the file the table started with (it is then written again)."""
        from pnp.render.fonts import prepare_cjk_fonts

        fonts = prepare_cjk_fonts()
        return (fonts.regular_path if style == "regular" else fonts.bold_path).read_bytes()

    # -- the API ---------------------------------------------------------------------------

    def _access(self, request: web.Request) -> Access:
        access = self.accesses.get(request.match_info["token"])
        if access is None:
            raise PlayError(403, "unknown seat link")
        return access

    def _seat(self, access: Access, wanted: object) -> int | None:
        """The seat a request looks as: one its link holds; None (everything) only once the
        game is over or in a replay."""
        table = self.table
        if isinstance(table, Replay):
            return None
        if wanted is None or wanted == "":
            if len(access.seats) == 1:
                return next(iter(access.seats))
            acting = table.to_act()
            if acting in access.seats:
                return acting
            if table.over or not access.seats:
                return None
            return min(access.seats)
        if isinstance(wanted, str):
            if wanted == "all":
                wanted = None
            elif wanted.isdigit():
                wanted = int(wanted)
        if wanted is None and table.over:
            return None
        if not isinstance(wanted, int) or isinstance(wanted, bool) or wanted not in access.seats:
            raise PlayError(403, f"this link does not hold seat {wanted!r}")
        return wanted

    def snapshot(self, access: Access, seat: int | None) -> dict[str, Any]:
        """What ``seat`` is told now through ``access``; made once per version and seat
        (fifty pages of one seat cost one scene)."""
        table = self.table
        may_act = seat in access.seats
        key = (seat, may_act)
        cached = self._snapshots.get(key)
        if cached is None or cached[0] != table.version:
            if isinstance(table, Replay):
                data = table.snapshot()
            else:
                data = table.snapshot(seat, may_act=may_act)
            _resolve_tracks(data["scene"], self.faces)
            _resolve_anchors(data["scene"], self.faces)
            cached = self._snapshots[key] = (table.version, data)
        return {
            **cached[1],
            "stopped": self.stopped,
            "link": {
                "seats": sorted(access.seats),
                "local": access.local,
                "label": access.label,
                "ai_delay": self.ai_delay,
            },
        }

    async def state(self, request: web.Request) -> web.Response:
        access = self._access(request)
        seat = self._seat(access, request.query.get("seat"))
        return web.json_response(self.snapshot(access, seat))

    async def act(self, request: web.Request) -> web.Response:
        access = self._access(request)
        body = await _json_body(request)
        session = self._live()
        seat = body.get("seat")
        version = body.get("version")
        action = body.get("action")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise bad_request("act: expected 'seat', an integer")
        if not isinstance(version, int) or isinstance(version, bool):
            raise bad_request("act: expected 'version', an integer")
        if not isinstance(action, str) or not action or len(action) > 500:
            raise bad_request("act: expected 'action', the text of a legal action")
        if seat not in access.seats:
            raise PlayError(403, f"this link does not hold seat {seat}")
        async with self._lock:
            session.act(seat, version, action)
        await self._changed()
        return web.json_response(self.snapshot(access, seat))

    async def undo(self, request: web.Request) -> web.Response:
        access = self._access(request)
        body = await _json_body(request)
        session = self._live()
        if not access.local:
            raise PlayError(403, "undo is for solo and hot-seat tables")
        version = body.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise bad_request("undo: expected 'version', an integer")
        async with self._lock:
            session.undo(version)
        await self._changed()
        return web.json_response(self.snapshot(access, self._seat(access, body.get("seat"))))

    async def save(self, request: web.Request) -> web.Response:
        access = self._access(request)
        table = self.table
        if isinstance(table, Replay):
            from pnp.engines.record import format_record

            text = format_record(table.record)
        else:
            if not (access.local or table.over):
                raise PlayError(403, "a seat link may save once the game is over")
            text = table.saved()
        name = f"{table.game.slug}-{table.table.name.replace(' ', '-')}.pnpgame"
        return web.Response(
            text=text,
            content_type="text/plain",
            charset="utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def load(self, request: web.Request) -> web.Response:
        access = self._access(request)
        session = self._live()
        if not access.local:
            raise PlayError(403, "loading is for solo and hot-seat tables")
        raw = await request.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise bad_request("load: expected a saved game as UTF-8 text") from None
        async with self._lock:
            session.load(text)
        await self._changed()
        return web.json_response(self.snapshot(access, self._seat(access, None)))

    async def seek(self, request: web.Request) -> web.Response:
        access = self._access(request)
        body = await _json_body(request)
        table = self.table
        if not isinstance(table, Replay):
            raise PlayError(409, "seek is for replays")
        step = body.get("step")
        if not isinstance(step, int) or isinstance(step, bool):
            raise bad_request("seek: expected 'step', an integer")
        async with self._lock:
            table.seek(step)
        await self._broadcast()
        return web.json_response(self.snapshot(access, None))

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        access = self._access(request)
        seat = self._seat(access, request.query.get("seat"))
        socket = web.WebSocketResponse(heartbeat=30, max_msg_size=4096)
        await socket.prepare(request)
        watcher = _Watcher(socket, access, seat)
        self._watchers.append(watcher)
        try:
            await socket.send_json(self.snapshot(access, seat))
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    continue
                await self._message(watcher, message.data)
        finally:
            with contextlib.suppress(ValueError):
                self._watchers.remove(watcher)
        return socket

    async def _message(self, watcher: _Watcher, text: str) -> None:
        """A page's message: ``{"watch": N}`` to see seat N (a hot-seat hand-over)."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or set(data) != {"watch"}:
                raise bad_request('expected {"watch": SEAT}')
            watcher.seat = self._seat(watcher.access, data["watch"])
        except (ValueError, PlayError) as error:
            message = error.message if isinstance(error, PlayError) else "malformed JSON"
            await watcher.socket.send_json({"error": message})
            return
        await watcher.socket.send_json(self.snapshot(watcher.access, watcher.seat))

    # -- changes ---------------------------------------------------------------------------

    def _live(self) -> Session:
        if not isinstance(self.table, Session):
            raise PlayError(409, "a replay takes no moves")
        return self.table

    async def _changed(self) -> None:
        self._wake.set()
        await self._broadcast()

    async def _broadcast(self) -> None:
        made: dict[tuple[str, int | None], str] = {}
        sends: list[Awaitable[None]] = []
        for watcher in list(self._watchers):
            key = (watcher.access.token, watcher.seat)
            if key not in made:
                made[key] = json.dumps(self.snapshot(watcher.access, watcher.seat))
            sends.append(_send(watcher.socket, made[key]))
        await asyncio.gather(*sends)

    async def _machines(self) -> None:
        """Take every step no human takes, one at a time: chance at once, an AI seat after
        ``ai_delay`` (its decision in the worker thread), each pushed to every page."""
        session = self.table
        assert isinstance(session, Session)
        while True:
            try:
                await self._machine_step(session)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                # A bug in an engine or a policy stops the machines, never the server: the
                # pages keep the position and the message says what went wrong.
                _LOG.error("pnp play: the table stopped: %s: %s", type(error).__name__, error)
                self.stopped = f"{type(error).__name__}: {error}"
                await self._broadcast()
                return

    async def _machine_step(self, session: Session) -> None:
        """One automatic step, or a wait until a human moves."""
        loop = asyncio.get_running_loop()
        ai_rules = self.ai_rules or session.rules
        job = session.automatic()
        if job is None:
            self._wake.clear()
            await self._wake.wait()
            return
        if job.seat is not None:
            started = time.monotonic()
            text = await loop.run_in_executor(self._pool, job.choose, ai_rules)
            await asyncio.sleep(max(0.0, self.ai_delay - (time.monotonic() - started)))
        else:
            text = job.action
        async with self._lock:
            applied = session.apply_automatic(job.version, text)
        if applied:
            await self._broadcast()
        await asyncio.sleep(0)


async def _send(socket: web.WebSocketResponse, text: str) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await socket.send_str(text)


async def _json_body(request: web.Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except (ValueError, UnicodeDecodeError):
        raise bad_request("expected a JSON object") from None
    if not isinstance(data, dict):
        raise bad_request("expected a JSON object")
    return data


@web.middleware
async def _errors_as_json(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """A refused request is a JSON ``{"error": ...}`` with its status, never a traceback."""
    try:
        return await handler(request)
    except PlayError as error:
        return web.json_response({"error": error.message}, status=error.status)
    except PnpError as error:
        return web.json_response({"error": str(error)}, status=400)
    except web.HTTPRequestEntityTooLarge:
        return web.json_response({"error": "request too large"}, status=413)


def _resolve_tracks(scene: dict[str, Any], faces: FaceStore) -> None:
    """Give each track area the values its printed cells show (from the product)."""
    for area in scene["areas"]:
        if area["kind"] != "track":
            continue
        track = faces.tracks.get((area["product"], area["track"]))
        area["cells"] = [] if track is None else [str(value) for value in track.values()]
        value = area["value"]
        area["value"] = None if value is None else str(value)
        if area.get("marker") is None and track is not None and track.marker:
            item = faces.first_item.get(track.marker)
            if item is not None:
                area["marker"] = f"{track.marker}/{item}/front"


def _resolve_anchors(scene: dict[str, Any], faces: FaceStore) -> None:
    """Place each spot and piece given by the text printed where it lies on its board; one
    whose text the board does not print is left out (never drawn in a wrong place)."""
    for area in scene["areas"]:
        if area["kind"] != "board" or not area["face"]:
            continue
        product, item, side = area["face"].split("/")
        ref = FaceRef(product, item, side)
        for name in ("spots", "pieces"):
            kept = []
            for thing in area[name]:
                if thing["anchor"]:
                    box = faces.anchor(ref, thing["anchor"])
                    if box is None:
                        continue
                    left, top, width, height = box
                    if name == "spots":
                        thing.update(x=left, y=top, w=width, h=height)
                    else:
                        thing.update(x=left + width / 2, y=top + height / 2)
                kept.append(thing)
            area[name] = kept


def serve(server: TableServer, host: str, port: int, ready: Callable[[int], None]) -> None:
    """Run the server until interrupted; ``ready(port)`` is called once it listens."""

    async def main() -> None:
        runner = web.AppRunner(server.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        ready(int(runner.addresses[0][1]))
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
