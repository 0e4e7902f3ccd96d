"""Shared fixtures and helpers: built kits, art runs, game folders to edit or make up, the browser and the
servers of the web pages' tests; hypothesis profiles."""

from __future__ import annotations

import csv
import fcntl
import gc
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import tomli_w
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from kitgen.cli.group import cli
from kitgen.data.art_files import ArtLibrary
from kitgen.data.builtin import builtin_dirs
from kitgen.outputs.starter import write_starter
from kitgen.render.aids import render_aids
from kitgen.units import paper_size

REPO = Path(__file__).resolve().parent.parent

# Property tests draw their examples from a fixed seed by default, so every run checks the
# same cases and a failure can be reproduced; HYPOTHESIS_PROFILE=long explores far more,
# from a fresh seed each run.  No example has a deadline and no health check times the
# drawing of examples: a busy machine is slow, not wrong.
SPEED_FREE = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", derandomize=True, max_examples=500, **SPEED_FREE)
settings.register_profile("long", max_examples=5000, **SPEED_FREE)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The modules that take longest, longest first.  With --dist loadfile each module runs whole on one
# worker, and the workers take modules in the order collected (--no-loadscope-reorder): starting the
# long ones first keeps a worker from being left with one of them after the others have finished.
# The order is by the seconds each module takes in a whole run (`pytest --durations=0`, summed per module); the
# modules of two seconds or more are listed, so that the last modules of a run are short ones.
LONGEST_FIRST = ("test_web_browser.py", "test_xlsx_bounds.py", "test_web_games.py", "test_hostile.py",
                 "test_web_requests.py", "test_shop_pdfx.py", "test_solver_property.py", "test_sim_runner.py",
                 "test_progress_and_stopping.py", "test_real_sheets.py", "test_watchdog.py", "test_card_memo.py",
                 "test_kill_kit.py", "test_web_api.py", "test_web_files.py", "test_build_beside.py", "test_layouts.py",
                 "test_solver_limits.py", "test_sim_cli.py", "test_art.py", "test_ancestral_solver.py",
                 "test_game_engines_cli.py", "test_xlsx_fast.py", "test_ancestral.py", "test_new_from.py",
                 "test_ancestral_engine.py", "test_temple.py", "test_web_worker.py", "test_preflight.py",
                 "test_card_text.py", "test_round_questions.py", "test_print_marks.py", "test_rulebook.py")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    """Rewrite the test modules' asserts ahead, on every core, where pytest has not kept them rewritten yet.

    pytest rewrites each test module's ``assert`` statements as it imports it and keeps the result in
    __pycache__.  In a fresh checkout (CI's) nothing is kept, and the workers start together: each
    rewrote all of them, some 2.5 CPU-s a worker.  The main process now does it once, before it starts
    the workers, split over the cores, and the workers read what it kept.  Only a shortcut: where
    pytest's rewriting has moved (its functions are pytest's own) or byte code is not written, the
    workers rewrite as before."""
    config = session.config
    if hasattr(config, "workerinput") or sys.dont_write_bytecode or config.getoption("assertmode") != "rewrite":
        return
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
            get_cache_dir,
        )

        here = Path(__file__).resolve().parent
        kept = {path: get_cache_dir(path) / (path.name[:-3] + PYC_TAIL) for path in sorted(here.glob("test_*.py"))}
        stale = [path for path, pyc in kept.items() if _read_pyc(path, pyc) is None]
        state = config.stash[assertstate_key]
    except Exception:                               # noqa: BLE001 - pytest's own functions changed: skip it
        return
    cores = _cores()
    if len(stale) < 2 * cores:
        return
    children = []
    for share in range(cores):
        pid = os.fork()
        if pid == 0:
            try:
                for path in stale[share::cores]:
                    source_stat, code = _rewrite_test(path, config)
                    _write_pyc(state, code, source_stat, kept[path])
            finally:
                os._exit(0)                          # a module that fails is the workers' to report
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))     # stable: each module keeps its order


def pytest_collection_finish(session):
    """What collecting imported (every test module, kitgen, OR-Tools, hypothesis...: about a million
    objects) lives to the end of the run: the garbage collector stops walking it at every full
    collection, and at the end of the run, where pytest collects five times over."""
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def run(*args: str):
    """Invoke the CLI in-process; returns click's Result."""
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


# Seconds after which a test stops waiting and fails: a guard against hangs (a FIFO read, a pool waiting for a
# dead worker, a child that never reaches the state a test waits for), never a bound on speed.  Nothing a
# test waits for takes more than a few seconds on a quiet machine; this leaves room for a busy one.
HANG_GUARD = 60.0


class Hung(Exception):
    pass


def run_guarded(*args, seconds: float = HANG_GUARD):
    """:func:`run`, stopped by an alarm if it is still running after ``seconds``: a hang fails the test
    instead of stopping the suite."""
    def hung(signum, frame):
        raise Hung(f"{args} still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return run(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def copy_builtin(slug: str, dest: Path) -> Path:
    """A user game folder holding a built-in game's data, templates and art."""
    data, templates, art = builtin_dirs(slug)
    shutil.copytree(data, dest)
    if templates.is_dir():
        shutil.copytree(templates, dest / "templates")
    if art.is_dir():
        shutil.copytree(art, dest / "art", ignore=shutil.ignore_patterns("*.py"))
    return dest


def write_game(folder: Path, *components: dict, card_size: str = "poker") -> Path:
    """A minimal game folder: one card type, one card, and the given components.

    Each component is one table of game.toml's ``[[components]]``, such as
    ``dict(kind="token", name="Coin", size="20mm")``; its ``areas`` or
    ``denominations`` are lists of such tables.
    """
    folder.mkdir(parents=True, exist_ok=True)
    toml = {"title": "Test Game", "players": "2-4", "card_size": card_size,
            "types": {"plain": {"label": "Plain", "color": "#336699"}}}
    if components:
        toml["components"] = list(components)
    (folder / "game.toml").write_text(tomli_w.dumps(toml), encoding="utf-8")
    (folder / "cards.csv").write_text("name,type,count\nOne,plain,2\n", encoding="utf-8")
    return folder


def small_game(folder: Path, rows: list[tuple] | None = None) -> Path:
    """The starter game (5 faces, 20 cards), optionally with other cards."""
    write_starter(folder, "Export Test")
    if rows is not None:
        with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as fh:
            out = csv.writer(fh)
            out.writerow(["name", "type", "count", "value", "text"])
            out.writerows(rows)
    return folder


def csv_cards(folder: Path) -> list[tuple[str, int]]:
    """(name, count) of every row of a game folder's cards.csv."""
    with open(folder / "cards.csv", encoding="utf-8", newline="") as fh:
        return [(row["name"], int(row["count"])) for row in csv.DictReader(fh)]


def aids_pdf(game, paper: str = "letter", art: ArtLibrary | None = None) -> bytes:
    """The game's aids.pdf on ``letter`` or ``a4`` paper, drawn with its own art unless ``art`` is given."""
    return render_aids(game, paper_size(paper), art or ArtLibrary.for_game(game))


@pytest.fixture
def altun_copy(tmp_path: Path) -> Path:
    return copy_builtin("altun-ha", tmp_path / "altun-copy")


def run_folder(tmp_path_factory, worker_id) -> Path:
    """The test run's own folder, shared by all its workers (above each worker's own)."""
    shared = tmp_path_factory.getbasetemp()
    return shared if worker_id == "master" else shared.parent


def once_per_run(record: Path, make) -> str:
    """The text ``make()`` returns, made once per test run and kept in ``record`` (the first worker to
    need it makes it, the others wait for it under a lock beside it)."""
    with open(record.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            record.write_text(make(), encoding="utf-8")
        return record.read_text(encoding="utf-8")


BUILD_IN_A_FRESH_PROCESS = """
import json, sys
from click.testing import CliRunner
from kitgen.cli import cli
from kitgen.outputs import workers

forked, started = [], workers.Beside.__init__

def recording(self, func, *args):
    started(self, func, *args)
    forked.append(self.process is not None)

workers.Beside.__init__ = recording
result = CliRunner().invoke(cli, ["build", "altun-ha", "--out", sys.argv[1]])
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("ortools", "solver"))
print(json.dumps({"exit_code": result.exit_code, "output": result.output, "loaded": loaded, "forked": forked}))
"""


@pytest.fixture(scope="session")
def altun_build(tmp_path_factory, worker_id) -> dict:
    """The Altun Ha kit built once with default options, by the CLI in a fresh process.

    Holds the kit's ``folder``, the command's ``output``, as ``loaded``, the solver and
    OR-Tools modules the process had imported by the end, and as ``forked``, whether each piece of
    work started beside the card sheets (the rulebook) ran in a forked process.  Built once per test run: the
    workers of a run share it (the first to need it builds it, under a lock).
    """
    out = run_folder(tmp_path_factory, worker_id) / "altun-kit"

    def fresh_build() -> str:
        process = subprocess.run([sys.executable, "-c", BUILD_IN_A_FRESH_PROCESS, str(out)], capture_output=True,
                                 text=True, cwd=REPO)
        assert process.returncode == 0, process.stderr
        return process.stdout

    build = json.loads(once_per_run(out.with_name("altun-kit.json"), fresh_build))
    assert build["exit_code"] == 0, build["output"]
    return {**build, "folder": out / "altun-ha"}


@pytest.fixture(scope="session")
def altun_kit(altun_build) -> Path:
    """The folder of the Altun Ha kit built once with default options."""
    return altun_build["folder"]


@pytest.fixture(scope="session")
def built_kit(request, tmp_path_factory, worker_id):
    """``built_kit(game, *options)``: the folder of a built-in game's kit built with these ``kitgen build`` options.

    Each distinct (game, options) is built once per test run, in-process, and the workers of a run share it (the
    first to need it builds it, under a lock).  Tests only read it: one that changes a kit copies it first.  The
    Altun Ha kit with default options is :func:`altun_kit`.
    """
    shared = run_folder(tmp_path_factory, worker_id)

    def build(game: str, *options) -> Path:
        options = tuple(str(o) for o in options)
        if game == "altun-ha" and not options:
            return request.getfixturevalue("altun_kit")
        name = f"kit-{game}-" + hashlib.sha256(json.dumps(options).encode()).hexdigest()[:12]
        out = shared / name

        def build_here() -> str:
            shutil.rmtree(out, ignore_errors=True)              # what a failed build left
            result = run("build", game, "--out", out, *options)
            assert result.exit_code == 0, result.output
            return result.output

        once_per_run(shared / f"{name}.done", build_here)
        return out / game

    return build


@pytest.fixture(scope="session")
def drawn_art(tmp_path_factory):
    """``drawn_art(slug)``: name -> bytes of every PNG that the game's make_art.py writes.

    Each script runs once per test run, as a script in a fresh process (from another
    working folder), into a folder of its own.
    """
    drawn: dict[str, dict[str, bytes]] = {}

    def draw(slug: str) -> dict[str, bytes]:
        if slug not in drawn:
            out = tmp_path_factory.mktemp(f"art-{slug}")
            script = builtin_dirs(slug)[2] / "make_art.py"
            result = subprocess.run([sys.executable, str(script), str(out)], capture_output=True, text=True,
                                    cwd=str(out))
            assert result.returncode == 0, result.stderr
            drawn[slug] = {p.name: p.read_bytes() for p in sorted(out.glob("*.png"))}
        return drawn[slug]

    return draw


# --- the web pages in a real browser --------------------------------------------------------------------------
# One chromium serves every browser test that a worker runs (whatever its module), and one tab of it serves
# them in turn: opening a tab starts a renderer process, which costs more than most checks of a test.
# Between tests the tab's routes are dropped; each test starts in its module's window (BROWSER_WINDOW, else
# WINDOW), set only where the tab is not at that size already.  A page with no work of its
# own left running (the solver's: it does nothing until touched) stays loaded until the next
# test goes to its own page, which every test that looks at a page does first: leaving it for about:blank in
# between costs a navigation (about a tenth of a CPU-second of chromium's) for nothing the next test reads.
# Any other page (the live preview keeps an event stream open, the simulator polls a run) is emptied at once.

CHROMIUM_NAME = "chromium-headless-shell"           # Debian's; .ci/run installs it when it is missing.  Chromium's
# engine without the desktop browser around it (what a headless chromium runs anyway, less its browser-side
# services): the same pages, drawn by the same Blink, for some 30% less CPU than `chromium --headless`
CHROMIUM = shutil.which(CHROMIUM_NAME)
NO_CHROMIUM = ("the browser tests drive Debian's chromium-headless-shell, which is not on the PATH: "
               "run `bash .ci/run` (it installs it)")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
WINDOW = {"width": 1280, "height": 900}
WAIT_MS = HANG_GUARD * 1000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NoWorker:
    """Stands in for a server's worker process whose work a module's tests never read: every call fails at once
    with ``why``, as a call that failed in its process would, and no process is started."""

    def __init__(self, why: str):
        self.why = why

    def start(self):
        pass

    def call(self, target, *args, **kwargs):
        from kitgen.web.worker import WorkerError

        raise WorkerError(self.why)

    def close(self):
        pass


def serving(app, kits: bool = True):
    """uvicorn serving ``app`` on a free local port, once every game is built: yields its address.  With
    ``kits=False`` only the games' cards are drawn and no kit is built (the builder is a :class:`NoWorker`): the
    pages show the drawn cards as they do after a kit build that failed."""
    from kitgen.web.app import WebServer

    if not kits:
        server = app.state.server
        server.builder = NoWorker("kits are not built for these tests")
        for game in server.live.values():
            game.kit_worker = server.builder
    port = free_port()
    instance = WebServer(app, "127.0.0.1", port)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + HANG_GUARD
    while not (instance.started and all((g.kit or not kits and g.good) and not g.building
                                        for g in app.state.server.live.values())):
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.stop()
    thread.join(10)


@pytest.fixture(scope="session")
def browser():
    """Chromium, headless, as one browser context (a fresh profile, held in memory: nothing is written to disk,
    and asking pages for reduced motion); every wait in it lasts up to the hang guard."""
    if CHROMIUM is None:
        pytest.fail(NO_CHROMIUM, pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS, timeout=WAIT_MS)
        context = chromium.new_context(viewport=WINDOW, reduced_motion="reduce")   # as a system asking for
        # stillness would: no animation repaints the page 60 times a second while a test waits for a build
        context.set_default_timeout(WAIT_MS)
        yield context
        context.close()
        chromium.close()


@pytest.fixture(scope="session")
def browser_tab(browser):
    tab = browser.new_page()
    yield tab
    tab.close()


QUIET_PAGES = re.compile(r"about:blank|https?://[^/]+/game/[^/]+/solver(\?.*)?")


@pytest.fixture
def page(browser_tab, request):
    """A tab of :func:`browser` in the test module's window (its ``BROWSER_WINDOW``, else 1280 x 900), with no
    routes: at about:blank, or at a page the previous test left that runs nothing of its own (the test's
    first ``goto`` leaves it)."""
    window = getattr(request.module, "BROWSER_WINDOW", WINDOW)
    if browser_tab.viewport_size != window:
        browser_tab.set_viewport_size(window)
    yield browser_tab
    browser_tab.unroute_all(behavior="ignoreErrors")
    if not QUIET_PAGES.fullmatch(browser_tab.url):
        browser_tab.goto("about:blank")             # its event streams end, its scripts stop


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: a worker per core and one more.  Tests wait (for a server's worker, chromium, a child
    process reaching the state under test), and the extra worker runs while one waits: two cores were
    busy 85% of a run with two workers, and a run took some 5% less with three (four were slower)."""
    return _cores() + 1


def _cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
