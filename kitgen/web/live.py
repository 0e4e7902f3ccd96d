"""The live preview: each served game's last good build, its current error, and rebuilds on change.

:class:`LiveGame` holds what the page shows.  A rebuild runs in the build
worker; success replaces the build, a failure keeps the last good build and
sets the error line (``Error: ...``, as the command line prints it).  Every
change is published to the pages listening on the game's event stream.
:func:`watch` rebuilds the games whose folders change on disk (watchfiles), watching
each real folder of a game on its own, so no symlink takes the watch out of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import stat
from pathlib import Path

import anyio.to_thread

from kitgen.data.paths import file_within, real
from kitgen.errors import KitgenError
from kitgen.web.games import ServedGame
from kitgen.web.preview import DOCUMENTS
from kitgen.web.worker import Worker, WorkerError

log = logging.getLogger("kitgen.web")
KEEP_BUILDS = 3                 # older builds' files are removed (a page still showing one reloads)
DOCUMENT_LABELS = {"cards.pdf": "Card sheets", "rules.pdf": "Rulebook", "aids.pdf": "Table aids"}
WATCH_DEBOUNCE_MS = 60          # a save that writes several files is one change
WATCH_RESCAN_MS = 1000          # the folders are walked again this often: new sub-folders, a folder swapped
MAX_WATCHED = 1000              # folders watched a game


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
                                "page_px": build["page_px"][name], "url": f"{base}/kit/{name}",
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
        return file_within(Path(data["folder"]) / name, self.folder)

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
        moved = self.served.moved()
        if moved is not None:           # the folder is not the one the server started with: nothing read
            self.error = f"Error: {moved}"
            self._forget_old(number)
            return
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
    """The games one of whose folders holds a changed path."""
    paths = [Path(path) for _, path in changes]
    return [g for g in games if any(p.is_relative_to(f) for p in paths for f in g.served.folders)]


def watched_folders(served: ServedGame, warned: set[str] | None = None) -> frozenset[tuple[str, int, int]]:
    """Every real folder of a game, found without following a symlink: (path, device, inode).

    A sub-folder that is a symlink is not entered (a build refuses one that leads out of the game
    folder, and one that stays inside is watched where it really is); nor is a folder that has
    become a symlink since the server started, the game folder included.  At most
    :data:`MAX_WATCHED` folders a game; the log says so once for each game key in ``warned``
    (the folders are walked every second), each time when ``warned`` is None.
    """
    from watchfiles import DefaultFilter

    warned = set() if warned is None else warned
    found: dict[str, tuple[int, int]] = {}
    for top in served.folders:
        for path, dirs, _ in os.walk(top):
            try:
                info = os.lstat(path)
            except OSError:
                info = None
            if info is None or not stat.S_ISDIR(info.st_mode) or not _unmoved(path):
                dirs[:] = []        # swapped for a symlink (or gone) since it was listed
                continue
            found[path] = (info.st_dev, info.st_ino)
            if len(found) >= MAX_WATCHED:
                if served.key not in warned:
                    warned.add(served.key)
                    log.warning("%s holds more than %d folders: changes in the others are not watched",
                                served.argument, MAX_WATCHED)
                return frozenset((p, *k) for p, k in found.items())
            dirs[:] = sorted(d for d in dirs if d not in DefaultFilter.ignore_dirs
                             and not os.path.islink(os.path.join(path, d)))
    return frozenset((p, *k) for p, k in found.items())


def _unmoved(path: str) -> bool:
    """Whether the folder ``path`` is where it really is (no symlink on the way, none changing)."""
    try:
        return real(Path(path)) == Path(path)
    except KitgenError:
        return False


async def watch(games: list[LiveGame], stop: asyncio.Event) -> None:
    """Rebuild each game whose files change, until ``stop`` is set.

    Each real folder of the games is watched on its own (never recursively: a recursive watch
    follows symlinks, to ``/`` if a sub-folder leads there).  The folders are walked again every
    :data:`WATCH_RESCAN_MS` and after every change, so new sub-folders are watched too, and a
    game whose folders changed (one added, removed, or swapped), or whose path leads somewhere
    else, is rebuilt.
    """
    from watchfiles import awatch

    crowded: set[str] = set()       # games whose many folders the log has told of

    def walk() -> dict[str, tuple]:
        return {g.key: (g.served.moved(), watched_folders(g.served, crowded)) for g in games}

    async def walked() -> dict[str, tuple]:
        return await anyio.to_thread.run_sync(walk)

    async def follow(folders: list[str], layout: dict[str, tuple]) -> dict[str, tuple] | None:
        """Rebuild the games whose files change until their folders do: the folders as they are then;
        None when a folder cannot be watched (removed, or swapped for something else, since the walk)."""
        now = layout
        try:
            async for changes in awatch(*folders, stop_event=stop, debounce=WATCH_DEBOUNCE_MS, step=20,
                                        recursive=False, rust_timeout=WATCH_RESCAN_MS, yield_on_timeout=True):
                now = await walked()
                touched = games_touched(games, changes)
                _rebuild(touched + [g for g in games if now[g.key] != layout[g.key] and g not in touched])
                if now != layout:
                    break           # watch the folders as they are now
        except OSError as exc:
            log.debug("could not watch the folders as walked (%s); walking them again", exc)
            return None
        return now

    layout = await walked()
    while not stop.is_set():
        folders = sorted({path for _, entries in layout.values() for path, _, _ in entries})
        now = await follow(folders, layout) if folders else None
        if now is None:             # nothing to watch, or a folder changed under the watch: look again soon
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), WATCH_RESCAN_MS / 1000)
            now = await walked()
            _rebuild([g for g in games if now[g.key] != layout[g.key]])
        layout = now


def _rebuild(games: list[LiveGame]) -> None:
    for game in games:
        asyncio.get_running_loop().create_task(game.rebuild())
