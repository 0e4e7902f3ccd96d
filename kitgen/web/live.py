"""The live preview: each served game's last good build, its current error, and rebuilds on change.

:class:`LiveGame` holds what the page shows.  A change first draws again the cards whose
pictures changed (the rest of the preview stays), then builds the whole kit; success replaces
the cards or the kit, a failure keeps the last good ones and sets the error line
(``Error: ...``, as the command line prints it).  Every change is published to the pages
listening on the game's event stream.
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
    """A served game as its page shows it: the cards of its last good drawing and the kit of its last
    good build.

    A change is drawn first (:attr:`preview_target`, in the preview worker): the cards whose
    pictures' keys changed are drawn, the others keep their pictures, and the page shows the new
    cards at once.  The whole kit is built after that (:attr:`kit_target`, in the kit worker), while
    further changes are drawn as they come.
    """

    preview_target = "kitgen.web.preview:draw_cards"      # what the preview worker runs to draw the cards
    kit_target = "kitgen.web.preview:build_kit_files"     # what the kit worker runs to build the kit

    def __init__(self, served: ServedGame, kit_worker: Worker, folder: Path, preview_worker: Worker | None = None):
        self.served, self.folder = served, folder
        self.kit_worker, self.preview_worker = kit_worker, preview_worker or kit_worker
        self.previews: dict[int, dict] = {}    # drawing number -> draw_cards' data, without its pictures
        self.pictures: dict[str, bytes] = {}   # a picture's key -> its PNG
        self.boxes: dict[str, list] = {}       # a picture's key -> its boxes
        self.builds: dict[int, dict] = {}      # kit build number -> build_kit_files' data
        self.good: int | None = None           # the drawing on screen
        self.kit: int | None = None            # the kit whose files the page offers
        self.errors: dict[str, str | None] = {"draw": None, "build": None}   # the last drawing's, the last kit's
        self.drawing = False
        self.building_kit = False
        self.version = 0
        self._numbers = 0
        self._dirty = False
        self._kit_wanted = False
        self._kit_task: asyncio.Task | None = None
        self._listeners: set[asyncio.Queue] = set()
        self.on_build: list = []               # called with this game after every good drawing

    @property
    def key(self) -> str:
        return self.served.key

    @property
    def error(self) -> str | None:
        """The error line the page shows: the last drawing's, else the last kit build's."""
        return self.errors["draw"] or self.errors["build"]

    @property
    def building(self) -> bool:
        """Whether a drawing or a kit build is under way (or waiting for its turn)."""
        return self.drawing or self.building_kit

    # --- state and listeners -------------------------------------------------------------

    def state(self) -> dict:
        base = f"/game/{self.key}"
        data = {"key": self.key, "title": self.served.title, "version": self.version, "building": self.building,
                "drawing": self.drawing, "building_kit": self.building_kit, "error": self.error,
                "build": self.good, "kit": self.kit, "documents": [], "warnings": []}
        preview = self.previews.get(self.good)
        if preview is None:
            return data
        data.update(title=preview["title"], deck_size=preview["deck_size"], seconds=preview["seconds"],
                    card_px=preview["card_px"], redrawn=preview["redrawn"], back=f"{base}/card/{preview['back']}.png",
                    boxes=f"{base}/preview/{self.good}/boxes.json",
                    backs=[f"{base}/card/{key}.png" for key in preview["backs"]],
                    cards=[{**card, "image": f"{base}/card/{card['picture']}.png"} for card in preview["cards"]])
        build = self.builds.get(self.kit)
        if build is None:
            return data
        prefix = f"{base}/build/{self.kit}"
        data.update(warnings=build["warnings"], kit_seconds=build["seconds"],
                    documents=[{"name": name, "label": DOCUMENT_LABELS[name], "pages": build["pages"][name],
                                "page_px": build["page_px"][name], "url": f"{base}/kit/{name}",
                                "page_urls": [f"{prefix}/page/{name[:-4]}/{i}.png"
                                              for i in range(build["pages"][name])]}
                               for name in DOCUMENTS])
        return data

    def boxes_of(self, number: int) -> dict | None:
        """Each picture of drawing ``number`` (its key) -> where its boxes lie and what its texts were
        fitted to; None when that drawing is gone."""
        preview = self.previews.get(number)
        if preview is None:
            return None
        keys = [card["picture"] for card in preview["cards"]] + [preview["back"]] + preview["backs"]
        return {key: self.boxes[key] for key in keys if key in self.boxes}

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
        """A PDF of a kit build (default: the one offered), or None."""
        number = self.kit if build is None else build
        data = self.builds.get(number)
        if data is None or name not in DOCUMENTS:
            return None
        return file_within(Path(data["folder"]) / name, self.folder)

    # --- drawing and building --------------------------------------------------------------

    async def rebuild(self) -> None:
        """Draw what changed now, then build the kit; a change while drawing draws again once it ends,
        and a change while the kit builds builds it again once it ends."""
        if self.drawing:
            self._dirty = True
            return
        self.drawing = True
        self._publish()
        try:
            while True:
                self._dirty = False
                drawn = await self._call("draw", self._draw_once)
                if drawn and not self._dirty:
                    self._build_kit_later()
                self._publish()
                if not self._dirty:
                    break
        finally:
            self.drawing = False
            self._publish()

    async def _call(self, what: str, step) -> bool:
        """Run one drawing or build; its error (as the command line says it) becomes the page's."""
        moved = self.served.moved()
        if moved is not None:           # the folder is not the one the server started with: nothing read
            self.errors[what] = f"Error: {moved}"
            return False
        try:
            await step()
        except KitgenError as exc:
            self.errors[what] = f"Error: {exc}"
        except WorkerError as exc:
            self.errors[what] = f"Error: the build stopped: {exc}"
        except Exception as exc:  # never let one build take the server down
            log.exception("%s of %s failed", what, self.served.argument)
            self.errors[what] = f"Error: internal error, please report it: {type(exc).__name__}: {exc}"
        else:
            self.errors[what] = None
            return True
        return False

    async def _draw_once(self) -> None:
        known = list(self.pictures)
        data = await anyio.to_thread.run_sync(
            lambda: self.preview_worker.call(self.preview_target, self.served.argument, known))
        self._numbers += 1
        pictures, boxes = data.pop("pictures"), data.pop("boxes")
        self.pictures.update(pictures)
        self.boxes.update(boxes)
        self.previews[self._numbers] = dict(data, redrawn=len(pictures))
        self.good = self._numbers
        self._forget_old_pictures()
        for callback in self.on_build:
            callback(self)

    def _forget_old_pictures(self) -> None:
        for n in sorted(self.previews)[:-KEEP_BUILDS]:
            del self.previews[n]
        keep = {card["picture"] for p in self.previews.values() for card in p["cards"]}
        keep |= {key for p in self.previews.values() for key in [p["back"], *p["backs"]]}
        for store in (self.pictures, self.boxes):
            for key in [k for k in store if k not in keep]:
                del store[key]

    def _build_kit_later(self) -> None:
        self._kit_wanted = True
        if self._kit_task is None or self._kit_task.done():
            self.building_kit = True
            self._kit_task = asyncio.get_running_loop().create_task(self._build_kits())

    async def _build_kits(self) -> None:
        try:
            while self._kit_wanted:
                self._kit_wanted = False
                await self._call("build", self._build_once)
        finally:
            self.building_kit = False
            self._publish()

    async def _build_once(self) -> None:
        self._numbers += 1
        number = self._numbers
        out = self.folder / f"build-{number}"
        try:
            data = await anyio.to_thread.run_sync(
                lambda: self.kit_worker.call(self.kit_target, self.served.argument, str(out)))
            self.builds[number] = data
            self.kit = number
        finally:
            self._forget_old(number)

    def _forget_old(self, latest: int) -> None:
        keep = sorted(n for n in self.builds if n != self.kit)[-(KEEP_BUILDS - 1):] + [self.kit]
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
