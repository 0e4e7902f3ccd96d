"""The web app of ``kitgen serve``: pages, the JSON API and the live preview, with Starlette.

``create_app(games)`` returns an ASGI app serving the given games (built-in
names or folders).  On start it launches two worker processes (builds and
page pictures; see :mod:`kitgen.web.worker`), builds every game and watches
their folders; on stop it ends them and removes its temporary folder.

Only three kinds of file can be fetched: the package's own assets
(``/static``, ``/fonts``), the files of a served game folder
(``/game/<key>/files/...``, through :meth:`kitgen.web.games.ServedGame.open`,
the build's own containment check at each request, then sent as it is read)
and what the server built in its own temporary folder.  Every request must
name the server by its own names, no request may come from another site's
page, and every change must be JSON (:mod:`kitgen.web.trust`); a request must
arrive whole, and an answer be taken, within a deadline
(:mod:`kitgen.web.connections`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import shutil
import tempfile
from collections import OrderedDict
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kitgen.data.paths import file_within
from kitgen.errors import KitgenError
from kitgen.web import connections, simulation, solving
from kitgen.web.games import ServedGame, served_games
from kitgen.web.limits import MAX_BODY, BodyLimit, read_json
from kitgen.web.live import LiveGame, watch
from kitgen.web.pages import render_page
from kitgen.web.responses import OpenFileResponse
from kitgen.web.trust import Guard, allowed_hosts
from kitgen.web.worker import Worker, WorkerError

HERE = Path(__file__).resolve().parent
FONTS = HERE.parent / "render" / "font_files"
# What the workers import before their first call: once, in the fork server (kitgen.web.forks), for every
# worker after.  numpy is imported on first use by the art frames' measure (both workers draw framed art).
PRELOAD = ("kitgen.web.preview", "kitgen.outputs.kit", "kitgen.render.sheets", "kitgen.render.rulebook",
           "kitgen.render.aids", "kitgen.outputs.card_pages", "pypdfium2", "numpy")
PAINTER_PRELOAD = ("kitgen.web.preview", "kitgen.outputs.export_job", "kitgen.outputs.card_pages",
                   "kitgen.outputs.card_preview", "kitgen.render.card", "pypdfium2", "numpy")
PICTURE_CACHE = 256            # page pictures kept in memory
KEEP_ALIVE = 15.0              # seconds between comments on an idle event stream
# A game folder's own files are shown as data, never as a page of this server: a game's .html or
# .svg could otherwise run its scripts as this server's own page, and ask the API as one.
GAME_FILE_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
                     "Content-Security-Policy": "sandbox; default-src 'none'"}
# The server's pages are never shown inside another page, whose user could be led to click in them
# (browsers that say where a request comes from are refused by kitgen.web.trust before this).
PAGE_HEADERS = {"X-Frame-Options": "DENY", "Content-Security-Policy": "frame-ancestors 'none'"}
log = logging.getLogger("kitgen.web")


class Server:
    """Everything one app holds: the games, the workers, the temporary folder, the jobs."""

    def __init__(self, games: list[ServedGame], watch_files: bool = True):
        self.served = games
        self.watch_files = watch_files
        self.folder = Path(tempfile.mkdtemp(prefix="kitgen-serve-"))
        self.builder = Worker(preload=PRELOAD)
        self.painter = Worker(preload=PAINTER_PRELOAD)
        self.simulator = Worker(preload=("solver.simulation.simulate",))
        # the cards are drawn by the painter (quick), the kit is built by the builder after them
        self.live = {g.key: LiveGame(g, self.builder, self.folder / g.key, self.painter) for g in games}
        self.solver_games = {g.key: g.argument for g in games if solving.has_engine(g.argument)}
        for game in self.live.values():
            game.on_build.append(self._game_changed)
        self.runs = simulation.Runs(self.simulator, self.folder / "simulations")
        self.pictures: OrderedDict = OrderedDict()
        self.stopping = asyncio.Event()     # set when the server stops: watchers and event streams end
        self._tasks: list[asyncio.Task] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(self) -> None:
        for game in self.live.values():
            game.folder.mkdir(parents=True, exist_ok=True)
        await run_in_threadpool(self.builder.start)
        self.painter.start()
        loop = self._loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(game.rebuild()) for game in self.live.values()]
        if self.watch_files:
            self._tasks.append(loop.create_task(watch(list(self.live.values()), self.stopping)))

    def _game_changed(self, game: LiveGame) -> None:
        """After a good build: the solver reads the game's new cards, and offers its page if its engine
        plays them."""
        solving.forget_decks()
        if solving.has_engine(game.served.argument):
            self.solver_games[game.key] = game.served.argument
        else:
            self.solver_games.pop(game.key, None)

    def closing(self) -> None:
        """Tell the event streams and the watcher to end (from any thread), so a stop need not wait."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.stopping.set)

    async def stop(self) -> None:
        self.stopping.set()
        self.runs.close()
        for task in self._tasks:
            task.cancel()
        for worker in (self.builder, self.painter, self.simulator):
            await run_in_threadpool(worker.close)
        shutil.rmtree(self.folder, ignore_errors=True)

    def game(self, request: Request) -> LiveGame:
        game = self.live.get(request.path_params["key"])
        if game is None:
            raise HTTPException(404)
        return game

    def own_file(self, path: str | Path) -> Path | None:
        """``path``, a file the server made, when it is one: a regular file inside its own folder."""
        return file_within(Path(path), self.folder)

    def picture(self, key: tuple, make) -> bytes:
        if key in self.pictures:
            self.pictures.move_to_end(key)
            return self.pictures[key]
        data = make()
        self.pictures[key] = data
        while len(self.pictures) > PICTURE_CACHE:
            self.pictures.popitem(last=False)
        return data

    def game_list(self) -> list[dict]:
        return [{"key": g.key, "title": g.served.title, "game": g.served.argument,
                 "preview": f"/game/{g.key}/",
                 "solver": f"/game/{g.key}/solver" if g.key in self.solver_games else None,
                 "simulator": f"/game/{g.key}/simulate" if g.key in self.solver_games else None,
                 "build": g.good, "error": g.error}
                for g in self.live.values()]


# --- pages ---------------------------------------------------------------------------------

def _page(server: Server, name: str, **values) -> HTMLResponse:
    return HTMLResponse(render_page(name, games=server.game_list(), **values), headers=PAGE_HEADERS)


async def index(request: Request):
    server = request.app.state.server
    return _page(server, "index.html", title="kitgen")


async def preview_page(request: Request):
    server = request.app.state.server
    game = server.game(request)
    return _page(server, "preview.html", game=game.key, title=game.served.title,
                 solver=game.key in server.solver_games)


async def solver_page(request: Request):
    server = request.app.state.server
    game = server.game(request)
    if game.key not in server.solver_games:
        raise HTTPException(404)
    argument = server.solver_games[game.key]
    switches = await run_in_threadpool(solving.rule_switches, argument)
    data = await run_in_threadpool(solving.page_data, argument)
    return _page(server, "solver.html", game=game.key, title=game.served.title, switches=json.dumps(switches),
                 solver=True, engine=json.dumps(data), view=f"/game/{game.key}/view.js" if data["view"] else "",
                 view_style=f"/game/{game.key}/view.css" if data["view_style"] else "")


async def simulator_page(request: Request):
    server = request.app.state.server
    game = server.game(request)
    if game.key not in server.solver_games:
        raise HTTPException(404)
    data = await run_in_threadpool(solving.simulator_data, server.solver_games[game.key])
    return _page(server, "simulate.html", game=game.key, title=game.served.title, solver=True, sim=data)


async def _engine_file(request: Request, member: str, media_type: str):
    server = request.app.state.server
    game = server.game(request)
    if game.key not in server.solver_games:
        raise HTTPException(404)
    _, engine = await run_in_threadpool(solving.engine_game, server.solver_games[game.key])
    path = getattr(engine, member, None)
    if not path:
        raise HTTPException(404)
    return FileResponse(path, media_type=media_type, headers={"Cache-Control": "no-store"})


async def engine_view(request: Request):
    """The engine's own drawing of its answers on the solver page (a script of its package), if it has one."""
    return await _engine_file(request, "web_view", "text/javascript")


async def engine_style(request: Request):
    """The stylesheet of the engine's own view on the solver page, if it has one."""
    return await _engine_file(request, "web_style", "text/css")


# --- the live preview ----------------------------------------------------------------------

async def state(request: Request):
    return JSONResponse(request.app.state.server.game(request).state())


async def events(request: Request):
    """Server-sent events: the game's state now, then again after every change."""
    server = request.app.state.server
    game = server.game(request)
    queue = game.listen()

    async def stream():
        closing = asyncio.ensure_future(server.stopping.wait())
        try:
            yield f"data: {json.dumps(game.state())}\n\n"
            while not closing.done():
                change = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({change, closing}, timeout=KEEP_ALIVE,
                                             return_when=asyncio.FIRST_COMPLETED)
                if change not in done:
                    change.cancel()
                    if not closing.done():
                        yield ": still here\n\n"
                    continue
                yield f"data: {json.dumps(game.state())}\n\n"
        finally:
            closing.cancel()
            game.stop_listening(queue)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _png(data: bytes) -> Response:
    return Response(data, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})


async def card_picture(request: Request):
    """A card's face or back by the key of its picture (what it rests on): the same key, the same picture."""
    game = request.app.state.server.game(request)
    data = game.pictures.get(request.path_params["picture"])
    if data is None:
        raise HTTPException(404)
    return _png(data)


async def card_boxes(request: Request):
    """Where each box of every card of a drawing lies and what its text was fitted to, by picture key."""
    game = request.app.state.server.game(request)
    boxes = game.boxes_of(request.path_params["build"])
    if boxes is None:
        raise HTTPException(404)
    return JSONResponse(boxes, headers={"Cache-Control": "private, max-age=3600"})


def _page_picture(server: Server, pdf: Path | None, pages: int, key: tuple, page: int) -> Response:
    """Page ``page`` of ``pdf`` (which has ``pages`` pages) as a PNG, made once and kept."""
    if pdf is None or not 0 <= page < pages:
        raise HTTPException(404)
    try:
        data = server.picture(key, lambda: server.painter.call("kitgen.web.preview:page_image", str(pdf), page))
    except WorkerError as exc:
        raise HTTPException(500, str(exc)) from None
    return _png(data)


def page_picture(request: Request):
    server = request.app.state.server
    game = server.game(request)
    build, doc, page = (request.path_params[k] for k in ("build", "doc", "page"))
    pdf = game.document(f"{doc}.pdf", build)
    pages = game.builds[build]["pages"][pdf.name] if pdf else 0
    return _page_picture(server, pdf, pages, (game.key, build, doc, page), page)


async def kit_file(request: Request):
    game = request.app.state.server.game(request)
    name = request.path_params["name"]
    path = game.document(name)
    if path is None:
        raise HTTPException(404)
    slug = game.builds[game.kit]["slug"]
    return FileResponse(path, media_type="application/pdf", filename=f"{slug}-{name}",
                        headers={"Cache-Control": "no-store"})


async def game_file(request: Request):
    game = request.app.state.server.game(request)
    relative = request.path_params["path"]
    fd = await run_in_threadpool(game.served.open, relative)
    if fd is None:
        raise HTTPException(404)
    return OpenFileResponse(fd, media_type=mimetypes.guess_type(relative)[0] or "application/octet-stream",
                            headers=GAME_FILE_HEADERS)


# --- the JSON API --------------------------------------------------------------------------

def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _answer(request: Request, with_play: bool, answer, advice: bool = False):
    server = request.app.state.server
    data = await read_json(request)
    if isinstance(data, Response):
        return data

    def work():
        return answer(solving.read_request(data, server.solver_games, with_play, advice))

    try:
        return JSONResponse(await run_in_threadpool(work))
    except KitgenError as exc:
        return _error(400, "\n".join(exc.lines()))
    except Exception:  # a bug, not the question's fault (as `kitgen solve` says on stderr): logged, one line
        log.exception("%s failed on %r", request.url.path, data)
        return _error(500, "the solver failed on this question; this is a bug in kitgen (the server's log "
                           "has the details)")


async def api_solve(request: Request):
    return await _answer(request, False, solving.solve)


async def api_all(request: Request):
    return await _answer(request, False, solving.all_best)


async def api_explain(request: Request):
    return await _answer(request, False, solving.explain)


async def api_check(request: Request):
    return await _answer(request, True, solving.check)


async def api_advise(request: Request):
    return await _answer(request, False, solving.advise, advice=True)


async def api_games(request: Request):
    return JSONResponse(request.app.state.server.game_list())


async def api_switches(request: Request):
    server = request.app.state.server
    game = server.game(request)
    if game.key not in server.solver_games:
        raise HTTPException(404)
    return JSONResponse(await run_in_threadpool(solving.rule_switches, server.solver_games[game.key]))


async def api_simulate(request: Request):
    server = request.app.state.server
    game = server.game(request)
    if game.key not in server.solver_games:
        raise HTTPException(404)
    data = await read_json(request)
    if isinstance(data, Response):
        return data
    argument = server.solver_games[game.key]
    try:
        options = simulation.read_options(data)
        await run_in_threadpool(simulation.check_options, argument, options)
        job = server.runs.start(argument, options)
    except simulation.Busy as exc:
        return _error(429, str(exc))
    except KitgenError as exc:
        return _error(400, "\n".join(exc.lines()))
    return JSONResponse(job.to_json(f"/game/{game.key}/simulations"), status_code=202)


def _job(request: Request):
    server = request.app.state.server
    game = server.game(request)
    job = server.runs.jobs.get(request.path_params["job"])
    if job is None:
        raise HTTPException(404)
    return server, game, job


async def simulation_state(request: Request):
    _, game, job = _job(request)
    return JSONResponse(job.to_json(f"/game/{game.key}/simulations"))


async def simulation_pdf(request: Request):
    server, game, job = _job(request)
    pdf = server.own_file(job.result["pdf"]) if job.result else None
    if pdf is None:
        raise HTTPException(404)
    return FileResponse(pdf, media_type="application/pdf", filename=f"{game.key}-balance.pdf")


def simulation_page(request: Request):
    server, game, job = _job(request)
    pdf = server.own_file(job.result["pdf"]) if job.result else None
    pages = job.result["pages"] if job.result else 0
    return _page_picture(server, pdf, pages, ("simulation", job.id, request.path_params["page"]),
                         request.path_params["page"])


async def not_found(request: Request, exc: HTTPException):
    if request.url.path.startswith("/api/"):
        return _error(exc.status_code, exc.detail)
    return HTMLResponse(f"<!doctype html><title>{exc.status_code}</title><p>{exc.status_code}: "
                        f"{'not found' if exc.status_code == 404 else 'error'}</p>",
                        status_code=exc.status_code)


def check_address(host: str, port: int) -> None:
    """Refuse an address the server could not listen on (a port in use, a name that is not here)."""
    import socket

    from kitgen.errors import OptionError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise OptionError("--host", f"{host!r} is not an address of this machine ({exc.strerror})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            option = "--port" if exc.errno == 98 else "--host"
            raise OptionError(option, f"cannot listen on {host} port {port}: {exc.strerror}"
                                      + ("; another program uses it, choose another --port" if exc.errno == 98
                                         else "")) from None


class WebServer:
    """uvicorn running the app, stopped cleanly: open event streams end before the server waits for them.

    ``request_seconds``: how long a connection may take to send a whole request (see
    :mod:`kitgen.web.connections`).
    """

    def __init__(self, app: Starlette, host: str = "127.0.0.1", port: int = 8000,
                 request_seconds: float = connections.REQUEST_SECONDS):
        import uvicorn

        app_server = app.state.server

        class _Server(uvicorn.Server):
            def handle_exit(self, sig, frame):     # Ctrl-C: end the streams, then stop as uvicorn does
                app_server.closing()
                super().handle_exit(sig, frame)

        self.app = app
        self.uvicorn = _Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                              timeout_graceful_shutdown=2,
                                              **connections.settings(request_seconds)))

    def run(self) -> None:
        self.uvicorn.run()

    @property
    def started(self) -> bool:
        return self.uvicorn.started

    def stop(self) -> None:
        self.app.state.server.closing()
        self.uvicorn.should_exit = True


def create_app(games: list[str], watch_files: bool = True, body_limit: int = MAX_BODY,
               host: str = "127.0.0.1") -> Starlette:
    """The app serving ``games`` (built-in names or folders; a missing one raises its KitgenError).

    ``host``: the address it is served on (``--host``); requests answered are those naming the
    server by it and its other names (:func:`kitgen.web.trust.allowed_hosts`), so a web page
    elsewhere cannot reach it by pointing a name of its own at this machine.
    """
    server = Server(served_games(games), watch_files)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    routes = [
        Route("/", index),
        Route("/api/games", api_games),
        Route("/api/solve", api_solve, methods=["POST"]),
        Route("/api/all", api_all, methods=["POST"]),
        Route("/api/explain", api_explain, methods=["POST"]),
        Route("/api/check", api_check, methods=["POST"]),
        Route("/api/advise", api_advise, methods=["POST"]),
        Route("/game/{key}/", preview_page),
        Route("/game/{key}/solver", solver_page),
        Route("/game/{key}/simulate", simulator_page),
        Route("/game/{key}/state", state),
        Route("/game/{key}/events", events),
        Route("/game/{key}/switches", api_switches),
        Route("/game/{key}/view.js", engine_view),
        Route("/game/{key}/view.css", engine_style),
        Route("/game/{key}/card/{picture}.png", card_picture),
        Route("/game/{key}/preview/{build:int}/boxes.json", card_boxes),
        Route("/game/{key}/build/{build:int}/page/{doc}/{page:int}.png", page_picture),
        Route("/game/{key}/kit/{name}", kit_file),
        Route("/game/{key}/files/{path:path}", game_file),
        Route("/game/{key}/simulations", api_simulate, methods=["POST"]),
        Route("/game/{key}/simulations/{job:int}", simulation_state),
        Route("/game/{key}/simulations/{job:int}/balance.pdf", simulation_pdf),
        Route("/game/{key}/simulations/{job:int}/page/{page:int}.png", simulation_page),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        Mount("/fonts", StaticFiles(directory=FONTS), name="fonts"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: not_found},
                    middleware=[Middleware(Guard, hosts=allowed_hosts(host)),
                                Middleware(BodyLimit, limit=body_limit)])
    app.state.server = server
    return app


__all__ = ["WebServer", "check_address", "create_app"]
