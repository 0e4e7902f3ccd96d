"""kitgen serve: the solver's round trip over HTTP, and from saving cards.csv to the updated card.

Starts the web app on a free local port (uvicorn, as `kitgen serve` does) serving an editable
copy of Altun Ha and a deck of 1,000 different cards (bench_build.layout_game), then measures:

* solve round trip: POST /api/solve on a local connection, median of many;
* save to updated card: a card renamed in cards.csv on disk until the open page's event stream
  announces the new drawing and the renamed card's new picture has been fetched from the server
  (the whole kit is built after that, in its own process, while the next saves are drawn).

Run: python benchmarks/bench_serve.py [--solves 200] [--saves 10]
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

QUESTIONS = [
    {"hand": ["Stage", "Stairs", "Sun God"], "population": 7, "temples": [2, 3]},
    {"hand": ["Plaza", "Base", "Maize", "Altar", "God"], "population": 12, "temples": [1, 4]},
    {"hand": ["Steps", "Platform", "Plaza", "God", "God"], "population": 9, "temples": [5, 6, 2]},
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(games: list[str]):
    from kitgen.web.app import WebServer, create_app

    port = free_port()
    app = create_app(games)
    server = WebServer(app, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not (server.started and all(g.kit and not g.building for g in app.state.server.live.values())):
        time.sleep(0.05)
    return server, thread, port


def solve_round_trips(port: int, n: int) -> list[float]:
    connection = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    for i in range(n):
        body = json.dumps(QUESTIONS[i % len(QUESTIONS)])
        started = time.perf_counter()
        connection.request("POST", "/api/solve", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read()
        times.append(time.perf_counter() - started)
        assert response.status == 200, data
    connection.close()
    return times


class Events:
    """The page's event stream, read in a thread: every state it announces, with the time it came."""

    def __init__(self, port: int, key: str):
        self.states: list[tuple[float, dict]] = []
        self.connection = http.client.HTTPConnection("127.0.0.1", port)
        self.connection.request("GET", f"/game/{key}/events")
        self.response = self.connection.getresponse()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.response:
            if line.startswith(b"data: "):
                self.states.append((time.perf_counter(), json.loads(line[6:])))

    def drawing_after(self, number: int, timeout: float = 60.0) -> dict:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            for _, state in list(self.states):
                if state["build"] is not None and state["build"] > number:
                    return state
            time.sleep(0.002)
        raise TimeoutError("no new drawing")


def save_to_card(port: int, key: str, csv: Path, old: str, n: int) -> list[float]:
    """Seconds from saving ``csv`` with ``old`` (a card's name) renamed to that card's new picture
    fetched, ``n`` times, a save every 0.3 s (the kit builds meanwhile, as when a designer works)."""
    events = Events(port, key)
    while not events.states:
        time.sleep(0.01)
    picture = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    text = csv.read_text(encoding="utf-8")
    for i in range(n):
        current = events.states[-1][1]["build"]
        name = f"{old} {i + 1}"
        saved = time.perf_counter()
        csv.write_text(text.replace(f"{old},", f"{name},", 1), encoding="utf-8")
        state = events.drawing_after(current)
        card = next(c for c in state["cards"] if c["name"] == name)
        picture.request("GET", card["image"])
        response = picture.getresponse()
        assert response.status == 200 and response.read()[:4] == b"\x89PNG"
        times.append(time.perf_counter() - saved)
        time.sleep(0.3)
    csv.write_text(text, encoding="utf-8")
    picture.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solves", type=int, default=200)
    parser.add_argument("--saves", type=int, default=10)
    args = parser.parse_args()
    from bench_build import layout_game

    from kitgen.data.builtin import builtin_dirs

    work = Path(tempfile.mkdtemp())
    folder = work / "altun-copy"
    data, templates, art = builtin_dirs("altun-ha")
    shutil.copytree(data, folder)
    shutil.copytree(templates, folder / "templates")
    shutil.copytree(art, folder / "art", ignore=shutil.ignore_patterns("*.py"))
    deck = layout_game(work / "layout-deck")
    server, thread, port = start([str(folder), str(deck)])
    try:
        solve_round_trips(port, 10)                                   # warm up
        solves = solve_round_trips(port, args.solves)
        altun = save_to_card(port, "altun-ha", folder / "cards.csv", "Plaza", args.saves)
        big = save_to_card(port, "layout-bench", deck / "cards.csv", "Card number 2", args.saves)
    finally:
        server.stop()
        thread.join(10)
        shutil.rmtree(work, ignore_errors=True)
    ms = sorted(1000 * t for t in solves)
    print(f"solve round trip (POST /api/solve, {len(ms)} requests): median {statistics.median(ms):.1f} ms, "
          f"90th percentile {ms[int(0.9 * len(ms)) - 1]:.1f} ms (target: median < 30 ms)")
    for what, times, target in (("Altun Ha", altun, 0.5), ("1,000-card deck", big, 1.0)):
        s = sorted(times)
        print(f"save cards.csv -> updated card ({what}, {len(s)} saves): median {statistics.median(s):.2f} s, "
              f"slowest {s[-1]:.2f} s (target: < {target:g} s)")


if __name__ == "__main__":
    main()
