"""The live preview: each served game's last good build, its current error, and rebuilds on change.

:class:`LiveGame` holds what the page shows.  A rebuild runs in the build
worker; success replaces the build, a failure keeps the last good build and
sets the error line (``Error: ...``, as the command line prints it).  Every
change is published to the pages listening on the game's event stream.
:func:`watch` rebuilds the games whose folders change on disk (watchfiles).
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from pathlib import Path

import anyio.to_thread

from kitgen.errors import KitgenError
from kitgen.web.games import ServedGame
from kitgen.web.preview import DOCUMENTS
from kitgen.web.worker import Worker, WorkerError

log = logging.getLogger("kitgen.web")
KEEP_BUILDS = 3                 # older builds' files are removed (a page still showing one reloads)
DOCUMENT_LABELS = {"cards.pdf": "Card sheets", "rules.pdf": "Rulebook", "aids.pdf": "Table aids"}
WATCH_DEBOUNCE_MS = 60          # a save that writes several files is one change


class LiveGame:
    build_target = "kitgen.web.preview:build_preview"    # what the worker runs to build

    def __init__(self, served: ServedGame, worker: Worker, folder: Path):
        self.served, self.worker, self.folder = served, worker, folder
        self.builds: dict[int, dict] = {}      # build number -> build_preview's data
        self.good: int | None = None           # the build on screen
        self.error: str | None = None
        self.building = False
        self.version = 0
        self._numbers = 0
        self._dirty = False
        self._listeners: set[asyncio.Queue] = set()
        self.on_build: list = []               # called with this game after every good build

    @property
    def key(self) -> str:
        return self.served.key

    # --- state and listeners -------------------------------------------------------------

    def state(self) -> dict:
        base = f"/game/{self.key}"
        data = {"key": self.key, "title": self.served.title, "version": self.version,
                "building": self.building, "error": self.error, "build": self.good}
        build = self.builds.get(self.good)
        if build is None:
            return data
        prefix = f"{base}/build/{self.good}"
        data.update(title=build["title"], deck_size=build["deck_size"], warnings=build["warnings"],
                    seconds=build["seconds"], card_px=build["card_px"], back=f"{prefix}/face/back.png",
                    cards=[{**card, "image": f"{prefix}/face/{i}.png"} for i, card in enumerate(build["cards"])],
                    documents=[{"name": name, "label": DOCUMENT_LABELS[name], "pages": build["pages"][name],
                                "url": f"{base}/kit/{name}",
                                "page_urls": [f"{prefix}/page/{name[:-4]}/{i}.png"
                                              for i in range(build["pages"][name])]}
                               for name in DOCUMENTS])
        return data

    def listen(self) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(maxsize=1)
        self._listeners.add(queue)
        return queue

    def stop_listening(self, queue: asyncio.Queue) -> None:
        self._listeners.discard(queue)

    def _publish(self) -> None:
        self.version += 1
        for queue in list(self._listeners):
            if queue.empty():
                queue.put_nowait(self.version)

    # --- files of a build ----------------------------------------------------------------

    def document(self, name: str, build: int | None = None) -> Path | None:
        """A PDF of a build (default: the one on screen), or None."""
        number = self.good if build is None else build
        data = self.builds.get(number)
        if data is None or name not in DOCUMENTS:
            return None
        path = Path(data["folder"]) / name
        return path if path.is_file() else None

    # --- building --------------------------------------------------------------------------

    async def rebuild(self) -> None:
        """Build now; a change during a build builds again once it ends."""
        if self.building:
            self._dirty = True
            return
        self.building = True
        self._publish()
        try:
            while True:
                self._dirty = False
                await self._build_once()
                if not self._dirty:
                    break
        finally:
            self.building = False
            self._publish()

    async def _build_once(self) -> None:
        self._numbers += 1
        number = self._numbers
        out = self.folder / f"build-{number}"
        try:
            data = await anyio.to_thread.run_sync(
                lambda: self.worker.call(self.build_target, self.served.argument, str(out)))
        except KitgenError as exc:
            self.error = f"Error: {exc}"
        except WorkerError as exc:
            self.error = f"Error: the build stopped: {exc}"
        except Exception as exc:  # never let one build take the server down
            log.exception("build of %s failed", self.served.argument)
            self.error = f"Error: internal error, please report it: {type(exc).__name__}: {exc}"
        else:
            self.builds[number] = data
            self.good, self.error = number, None
            for callback in self.on_build:
                callback(self)
        self._forget_old(number)

    def _forget_old(self, latest: int) -> None:
        keep = sorted(n for n in self.builds if n != self.good)[-(KEEP_BUILDS - 1):] + [self.good]
        for n in list(self.builds):
            if n not in keep:
                del self.builds[n]
        for path in self.folder.glob("build-*"):
            number = int(path.name.split("-")[1])
            if number not in self.builds and number != latest:
                shutil.rmtree(path, ignore_errors=True)
        if latest not in self.builds:
            shutil.rmtree(self.folder / f"build-{latest}", ignore_errors=True)


def games_touched(games: list[LiveGame], changes) -> list[LiveGame]:
    """The games one of whose watched folders holds a changed path."""
    paths = [Path(path) for _, path in changes]
    return [g for g in games if any(p.is_relative_to(f) for p in paths for f in g.served.watched)]


async def watch(games: list[LiveGame], stop: asyncio.Event) -> None:
    """Rebuild each game whose files change, until ``stop`` is set."""
    from watchfiles import awatch

    folders = sorted({f for g in games for f in g.served.watched})
    if not folders:
        return
    async for changes in awatch(*folders, stop_event=stop, debounce=WATCH_DEBOUNCE_MS, step=20,
                                recursive=True):
        for game in games_touched(games, changes):
            asyncio.get_running_loop().create_task(game.rebuild())
