"""Simulator runs started from the web page: a few hundred games, with progress, in the worker.

:func:`run` executes in :class:`kitgen.web.worker.Worker` and calls the
simulator exactly as ``kitgen simulate`` does; :class:`Runs` keeps the jobs
of one server and their progress for the page to poll.  The runs play one at
a time, in the order asked, from one thread; a server holds at most
:data:`MAX_RUNS` runs waiting or playing, and refuses more (:class:`Busy`).
"""

from __future__ import annotations

import itertools
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from kitgen.errors import KitgenError, OptionError

log = logging.getLogger("kitgen.web")

MAX_GAMES = 5000        # a page waits for its answer; larger runs belong to `kitgen simulate`
MAX_SETS = 50
MAX_TEXT = 200
MAX_RUNS = 4            # runs a server holds, waiting or playing
MAX_PLAYERS = 100       # the game's deck says how many it deals to; a page never asks near this
SEED_LIMIT = 2 ** 63    # a seed is a whole number from -SEED_LIMIT to SEED_LIMIT - 1


class Busy(KitgenError):
    """The server holds as many simulation runs as it takes."""


def run(game: str, games: int, players: int, policy: str, seed: int, sets: list[str], out: str,
        progress=None) -> dict:
    """Play the games and write balance.json and balance.pdf under ``out`` (in the worker)."""
    import pypdfium2 as pdfium

    from kitgen.outputs.balance import write_balance
    from kitgen.render.balance_report import key_rows
    from kitgen.web.preview import page_px
    from solver.engine import split_settings
    from solver.simulation.simulate import simulate

    settings = split_settings(sets, "--set")
    result = simulate(game, games, players, policy or None, seed, settings, progress=progress)
    files = write_balance(result, Path(out))
    pdf = next(p for p in files if p.name == "balance.pdf")
    document = pdfium.PdfDocument(pdf.read_bytes())
    try:
        pages, size = len(document), list(page_px(document, 0))
    finally:
        document.close()
    return {"rows": [list(r) for r in key_rows(result.summary)[1:]],
            "findings": [*result.summary["findings"], *result.summary["engine_report"]["findings"]],
            "warning": result.summary["warning"], "seconds": round(result.seconds, 2),
            "games": result.games_played, "pdf": str(pdf), "pages": pages, "page_px": size}


def read_options(data) -> dict:
    """The page's form as ``run``'s arguments, with the limits of a web request."""
    if not isinstance(data, dict):
        raise KitgenError('expected an object {"games": n, "players": n, "policy": "...", "seed": n, "set": [...]}')
    known = {"games", "players", "policy", "seed", "set"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise KitgenError(f"unknown key {unknown[0]!r} (accepted: {', '.join(sorted(known))})")
    out = {}
    for key, default in (("games", 300), ("players", 4), ("seed", 0)):
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"--{key}", f"{value!r} is not a whole number")
        out[key] = value
    if not 1 <= out["games"] <= MAX_GAMES:
        raise OptionError("--games", f"the page plays 1 to {MAX_GAMES} games, not {out['games']}; "
                                     "use kitgen simulate for more")
    if not 2 <= out["players"] <= MAX_PLAYERS:
        raise OptionError("--players", f"must be from 2 to {MAX_PLAYERS}, not {out['players']}")
    if not -SEED_LIMIT <= out["seed"] < SEED_LIMIT:
        raise OptionError("--seed", f"must be a whole number from -2**63 to 2**63 - 1, not {out['seed']}")
    policy = data.get("policy", "")
    sets = data.get("set", [])
    if not isinstance(policy, str) or len(policy) > MAX_TEXT:
        raise OptionError("--policy", "give policy names separated by commas")
    if not isinstance(sets, list) or len(sets) > MAX_SETS or \
            not all(isinstance(s, str) and len(s) <= MAX_TEXT for s in sets):
        raise OptionError("--set", "give a list of KEY=VALUE texts")
    out["policy"], out["sets"] = policy, [s for s in sets if s.strip()]
    return out


def check_options(game: str, options: dict) -> None:
    """Refuse, before the run waits its turn, what ``kitgen simulate`` would refuse before playing:
    an unknown policy or --set, more players than the game's rules take."""
    from kitgen.data.game import load_game
    from solver.engine import split_settings
    from solver.engines import engine_of
    from solver.simulation.simulate import check_players, default_policy, parse_policies

    data = load_game(game)
    engine = engine_of(data)
    parse_policies(options["policy"] or default_policy(engine), engine)
    rules = engine.rules(data, split_settings(options["sets"], "--set"), "--set")
    check_players(engine, rules, options["players"], "--players")


@dataclass
class Job:
    id: int
    game: str
    total: int
    done: int = 0
    state: str = "waiting"          # waiting | running | done | error
    error: str | None = None
    result: dict | None = None
    folder: Path | None = None

    def to_json(self, prefix: str) -> dict:
        data = {"id": self.id, "state": self.state, "done": self.done, "total": self.total, "error": self.error}
        if self.result is not None:
            result = dict(self.result)
            pages = result.pop("pages")
            result.pop("pdf")
            data["result"] = {**result, "pdf": f"{prefix}/{self.id}/balance.pdf",
                              "page_urls": [f"{prefix}/{self.id}/page/{i}.png" for i in range(pages)]}
        return data


ACTIVE = ("waiting", "running")


@dataclass
class Runs:
    """The simulator jobs of one server (the last few are kept), played one at a time in one thread."""

    worker: object
    folder: Path
    keep: int = 5
    limit: int = MAX_RUNS
    jobs: dict[int, Job] = field(default_factory=dict)

    def __post_init__(self):
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._player = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kitgen-simulations")

    def start(self, game: str, options: dict) -> Job:
        """Queue a run; :class:`Busy` when :attr:`limit` runs are waiting or playing."""
        with self._lock:
            active = sum(j.state in ACTIVE for j in self.jobs.values())
            if active >= self.limit:
                raise Busy(f"the server already has {active} simulation runs waiting or playing (it takes "
                           f"{self.limit}); wait for one to end, or use kitgen simulate")
            job = Job(next(self._ids), game, options["games"])
            job.folder = self.folder / f"run{job.id}"
            self.jobs[job.id] = job
            for old in sorted(self.jobs)[:-self.keep]:
                if self.jobs[old].state not in ACTIVE:
                    del self.jobs[old]
            self._player.submit(self._run, job, options)
        return job

    def close(self) -> None:
        """Play nothing more: the waiting runs are dropped, the one playing ends with its worker."""
        self._player.shutdown(wait=False, cancel_futures=True)

    def _run(self, job: Job, options: dict) -> None:
        from kitgen.web.worker import WorkerError

        def progress(n):
            job.done = min(job.total, job.done + n)

        job.state = "running"
        try:
            job.result = self.worker.call("kitgen.web.simulation:run", job.game, options["games"],
                                          options["players"], options["policy"], options["seed"],
                                          options["sets"], str(job.folder), progress=progress)
            job.done, job.state = job.total, "done"
        except KitgenError as exc:
            job.error, job.state = f"Error: {exc}", "error"
        except WorkerError as exc:
            job.error, job.state = f"Error: the simulation stopped: {exc}", "error"
        except Exception as exc:  # a bug: the run ends (and frees its place in the queue), the log has it
            log.exception("simulation run %d failed", job.id)
            job.error, job.state = f"Error: internal error, please report it: {type(exc).__name__}: {exc}", "error"
