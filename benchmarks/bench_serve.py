"""kitgen serve: the solver's round trip over HTTP, and from saving cards.csv to the updated preview.

Starts the web app on a free local port (uvicorn, as `kitgen serve` does) serving an editable
copy of Altun Ha, then measures:

* solve round trip: POST /api/solve on a local connection, median of many;
* save to preview: a card renamed in cards.csv on disk until the open page's event stream
  announces the new build (the build is the page's content: its pictures are already made).

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
    while not (server.started and all(g.good for g in app.state.server.live.values())):
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
    """The page's event stream, read in a thread: the build number of every state it announces."""

    def __init__(self, port: int, key: str):
        self.builds: list[tuple[float, int | None]] = []
        self.connection = http.client.HTTPConnection("127.0.0.1", port)
        self.connection.request("GET", f"/game/{key}/events")
        self.response = self.connection.getresponse()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.response:
            if line.startswith(b"data: "):
                state = json.loads(line[6:])
                self.builds.append((time.perf_counter(), state["build"]))

    def wait_for_build_after(self, number: int, timeout: float = 30.0) -> float:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            for at, build in self.builds:
                if build is not None and build > number:
                    return at
            time.sleep(0.002)
        raise TimeoutError("no new build")


def save_to_preview(port: int, key: str, csv: Path, n: int) -> list[float]:
    events = Events(port, key)
    while not events.builds:
        time.sleep(0.01)
    times = []
    text = csv.read_text(encoding="utf-8")
    for i in range(n):
        current = events.builds[-1][1]
        name = f"Plaza {i + 1}"
        saved = time.perf_counter()
        csv.write_text(text.replace("Plaza,bid", f"{name},bid", 1), encoding="utf-8")
        times.append(events.wait_for_build_after(current) - saved)
        time.sleep(0.3)
    csv.write_text(text, encoding="utf-8")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solves", type=int, default=200)
    parser.add_argument("--saves", type=int, default=10)
    args = parser.parse_args()
    from kitgen.data.builtin import builtin_dirs

    folder = Path(tempfile.mkdtemp()) / "altun-copy"
    data, templates, art = builtin_dirs("altun-ha")
    shutil.copytree(data, folder)
    shutil.copytree(templates, folder / "templates")
    shutil.copytree(art, folder / "art", ignore=shutil.ignore_patterns("*.py"))
    server, thread, port = start([str(folder)])
    try:
        solve_round_trips(port, 10)                                   # warm up
        solves = solve_round_trips(port, args.solves)
        saves = save_to_preview(port, "altun-ha", folder / "cards.csv", args.saves)
    finally:
        server.stop()
        thread.join(10)
        shutil.rmtree(folder.parent, ignore_errors=True)
    ms = sorted(1000 * t for t in solves)
    print(f"solve round trip (POST /api/solve, {len(ms)} requests): median {statistics.median(ms):.1f} ms, "
          f"90th percentile {ms[int(0.9 * len(ms)) - 1]:.1f} ms (target: median < 30 ms)")
    s = sorted(saves)
    print(f"save cards.csv -> updated preview (Altun Ha, {len(s)} saves): median {statistics.median(s):.2f} s, "
          f"slowest {s[-1]:.2f} s (target: < 1.5 s)")


if __name__ == "__main__":
    main()
