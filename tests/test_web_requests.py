"""Which requests ``kitgen serve`` answers: its own names only (DNS rebinding), changes only as JSON from its
own pages (cross-site requests), at most four simulation runs, numbers within every field's range, and
connections that send a whole request in time (slow loris).

The rules are checked through Starlette's test client on apps that are never started (no worker, no build:
the rules come before all that); the deadlines on a real server, with raw sockets.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import select
import shutil
import socket
import threading
import time
import tracemalloc

import pytest
from starlette.testclient import TestClient

from kitgen.web import connections, simulation, solving
from kitgen.web.app import WebServer, create_app
from kitgen.web.limits import MAX_DIGITS
from tests.conftest import HANG_GUARD, NoWorker, write_game

BASE = "http://127.0.0.1:8000"
QUESTION = {"hand": ["Stage", "Stairs", "Sun God"], "population": 7, "temples": [2, 3]}
POSTS = ["/api/solve", "/api/all", "/api/explain", "/api/check", "/game/altun-ha/simulations"]


def _app(host: str = "127.0.0.1"):
    return create_app(["altun-ha"], watch_files=False, host=host)


@pytest.fixture
def app():
    app = _app()
    yield app
    app.state.server.runs.close()
    shutil.rmtree(app.state.server.folder, ignore_errors=True)


class Simulator:
    """Stands in for the simulator's worker process: records each run, and plays it when let go."""

    def __init__(self):
        self.calls: list[tuple] = []
        self.go = threading.Event()

    def call(self, target, *args, progress=None, **kwargs):
        self.calls.append((target, args))
        assert self.go.wait(HANG_GUARD)
        return {"rows": [], "findings": [], "warning": None, "seconds": 0.0, "games": args[1],
                "pdf": "none.pdf", "pages": 0}


@pytest.fixture
def client(app, monkeypatch):
    """A client of the app on 127.0.0.1:8000, whose solver and simulator only record what they are asked."""
    asked = []
    monkeypatch.setattr(solving, "solve", lambda question: asked.append(question) or {"points": 0})
    simulator = Simulator()
    app.state.server.runs.worker = simulator
    client = TestClient(app, base_url=BASE)
    client.asked, client.simulator = asked, simulator
    yield client
    simulator.go.set()


def _one_line_error(response, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    error = response.json()["error"]
    assert error and "\n" not in error and "Traceback" not in error
    return error


# --- Host ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("bind, answered, refused", [
    ("127.0.0.1", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST:8000", "localhost.:8000", "127.0.0.1"],
     ["attacker.example:8000", "attacker.example", "127.0.0.2:8000", "127.0.0.1.nip.io:8000",
      "localhost.attacker.example:8000", "127.0.0.1:8000@attacker.example", "", "127.0.0.1:http"]),
    ("127.0.0.2", ["127.0.0.2:8000", "localhost:8000"],
     ["attacker.example:8000", "127.0.0.1:8000", "127.0.0.2.attacker.example"]),
    ("::1", ["[::1]:8000", "[0:0:0:0:0:0:0:1]:8000", "localhost:8000"],
     ["attacker.example:8000", "[::2]:8000", "::1", "127.0.0.1:8000"]),
])
def test_a_server_answers_only_to_the_names_it_was_started_on(bind, answered, refused):
    app = _app(bind)
    try:
        shown = f"[{bind}]" if ":" in bind else bind
        client = TestClient(app, base_url=f"http://{shown}:8000")
        for host in answered:
            response = client.get("/game/altun-ha/files/cards.csv", headers={"host": host})
            assert response.status_code == 200 and "Plaza" in response.text, host
            if host.endswith(":8000"):          # the server's own page, opened under this name, may ask
                own = {"host": host, "origin": f"http://{host}"}
                assert client.post("/api/solve", json=QUESTION, headers=own).status_code == 200, host
        for host in refused:
            response = client.get("/game/altun-ha/files/cards.csv", headers={"host": host})
            assert "Plaza" not in response.text, host
            assert "answers only to the names it was started on" in _one_line_error(response, 400)
            assert client.post("/api/solve", json=QUESTION, headers={"host": host}).status_code == 400
    finally:
        shutil.rmtree(app.state.server.folder, ignore_errors=True)


def test_a_built_in_games_data_templates_and_art_are_served_and_nothing_beside_them(app):
    from kitgen.data.builtin import builtin_dirs

    client = TestClient(app, base_url=BASE)
    data, templates, art = builtin_dirs("altun-ha")
    for name, folder in (("game.toml", data), ("rules.md.j2", templates), ("altar.png", art)):
        assert client.get(f"/game/altun-ha/files/{name}").content == (folder / name).read_bytes()
    for path in ("../ancestral/game.toml", "%2e%2e/ancestral/game.toml", "../../kitgen/web/app.py",
                 "%2e%2e/%2e%2e/pyproject.toml", "..%2f..%2fpyproject.toml", "/etc/passwd", "%2fetc%2fpasswd"):
        assert client.get(f"/game/altun-ha/files/{path}").status_code == 404, path


def test_a_server_on_every_address_answers_to_the_address_a_request_came_in_on_and_to_this_machine():
    app = _app("0.0.0.0")
    try:
        on_lan = TestClient(app, base_url="http://192.168.7.7:8000")     # a request that came in on this address
        for host in ("192.168.7.7:8000", "localhost:8000", f"{socket.gethostname()}:8000"):
            assert on_lan.get("/game/altun-ha/files/cards.csv", headers={"host": host}).status_code == 200, host
        for host in ("10.0.0.9:8000", "attacker.example:8000", "192.168.7.7.attacker.example:8000"):
            response = on_lan.get("/game/altun-ha/files/cards.csv", headers={"host": host})
            assert response.status_code == 400 and "Plaza" not in response.text, host
        # a name that is no address never passes as "the address the request came in on"
        rebound = TestClient(app, base_url="http://attacker.example:8000")
        assert rebound.get("/game/altun-ha/files/cards.csv").status_code == 400
    finally:
        shutil.rmtree(app.state.server.folder, ignore_errors=True)


# --- changes: JSON from the server's own pages ----------------------------------------------------

CROSS_SITE = [
    ({"origin": "http://evil.example", "content-type": "text/plain"}, "from another web page"),
    ({"origin": "http://evil.example", "content-type": "application/json"}, "from another web page"),
    ({"origin": "null", "content-type": "application/json"}, "from another web page"),
    ({"origin": "http://127.0.0.1:8001", "content-type": "application/json"}, "from another web page"),
    ({"origin": "https://127.0.0.1:8000", "content-type": "application/json"}, "from another web page"),
    ({"origin": "http://127.0.0.1.evil.example:8000", "content-type": "application/json"}, "another web page"),
    ({"origin": "http://[::1]:8000", "content-type": "application/json"}, "from another web page"),
    ({"origin": "http://127.0.0.1:8000/x", "content-type": "application/json"}, "from another web page"),
    ({"origin": "http://127.0.0.1:99999", "content-type": "application/json"}, "from another web page"),
    ({"content-type": "text/plain"}, "Content-Type: application/json"),
    ({"content-type": "application/x-www-form-urlencoded"}, "Content-Type: application/json"),
    ({"content-type": "multipart/form-data; boundary=x"}, "Content-Type: application/json"),
    ({"content-type": "application/jsonp"}, "Content-Type: application/json"),
    ({}, "without a Content-Type"),
    ({"origin": "http://127.0.0.1:8000", "content-type": "text/plain"}, "Content-Type: application/json"),
]


@pytest.mark.parametrize("headers, message", CROSS_SITE)
def test_a_change_from_another_page_or_not_json_is_refused_and_starts_nothing(client, headers, message):
    body = json.dumps(QUESTION).encode()
    for path in POSTS:
        response = client.post(path, content=body, headers=headers)
        assert message in _one_line_error(response, 403), path
    assert client.put("/api/solve", content=body, headers=headers).status_code == 403
    assert client.asked == [] and client.simulator.calls == [] and client.app.state.server.runs.jobs == {}


def test_what_a_page_elsewhere_embeds_is_refused_and_links_from_it_are_followed(client):
    """An image, script or frame of a page elsewhere sends no Origin, but a browser says where it comes
    from (Sec-Fetch-Site): such a request is refused, so a page elsewhere can neither learn which files a
    game folder holds (an image that loads or fails), nor set the server drawing pages, nor show the
    server's page in a frame to have the user click in it. A link followed from elsewhere (a navigation
    of the whole window) and what the server's own pages ask are answered."""
    path = "/game/altun-ha/files/altar.png"
    for site in ("cross-site", "same-site"):        # same-site: another server on localhost, another port
        for mode, dest in (("no-cors", "image"), ("no-cors", "script"), ("cors", "empty"), ("navigate", "iframe")):
            response = client.get(path if dest != "iframe" else "/game/altun-ha/solver",
                                  headers={"sec-fetch-site": site, "sec-fetch-mode": mode, "sec-fetch-dest": dest})
            assert "from another web page" in _one_line_error(response, 403), (site, mode, dest)
        followed = client.get("/game/altun-ha/", headers={"sec-fetch-site": site, "sec-fetch-mode": "navigate",
                                                          "sec-fetch-dest": "document"})
        assert followed.status_code == 200 and "<html" in followed.text.lower()
    for site in ("same-origin", "none"):             # the server's own pages; an address typed or bookmarked
        response = client.get(path, headers={"sec-fetch-site": site, "sec-fetch-mode": "no-cors",
                                             "sec-fetch-dest": "image"})
        assert response.status_code == 200 and response.content.startswith(b"\x89PNG")
    page = client.get("/game/altun-ha/solver")      # browsers that do not say where a request comes from
    assert page.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]


@pytest.mark.parametrize("headers", [
    {"content-type": "application/json"},
    {"content-type": "application/json; charset=utf-8", "origin": "http://127.0.0.1:8000"},
    {"content-type": "Application/JSON", "origin": "http://localhost:8000"},
])
def test_a_json_change_from_the_servers_own_page_is_answered(client, headers):
    response = client.post("/api/solve", content=json.dumps(QUESTION).encode(), headers=headers)
    assert response.status_code == 200 and response.json() == {"points": 0}
    assert [q.fields["hand"] for q in client.asked] == [QUESTION["hand"]]
    response = client.post("/game/altun-ha/simulations", content=b'{"games": 10}', headers=headers)
    assert response.status_code == 202 and response.json()["total"] == 10
    client.simulator.go.set()
    _wait(lambda: client.app.state.server.runs.jobs[1].state == "done")
    assert [call[1][1] for call in client.simulator.calls] == [10]


# --- the simulation queue -------------------------------------------------------------------------

def _wait(check) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not check():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.02)


def test_a_server_holds_at_most_four_simulation_runs(client):
    runs = client.app.state.server.runs
    for n in range(simulation.MAX_RUNS):
        response = client.post("/game/altun-ha/simulations", json={"games": 10 + n})
        assert response.status_code == 202 and response.json()["state"] in ("waiting", "running")
    _wait(lambda: len(client.simulator.calls) == 1)         # the first plays, three wait their turn
    assert [job.state for job in runs.jobs.values()] == ["running", "waiting", "waiting", "waiting"]
    refused = client.post("/game/altun-ha/simulations", json={"games": 99})
    error = _one_line_error(refused, 429)
    assert "already has 4 simulation runs waiting or playing" in error and "kitgen simulate" in error
    assert len(runs.jobs) == 4 and threading.active_count() < 40
    client.simulator.go.set()
    _wait(lambda: all(job.state == "done" for job in runs.jobs.values()))
    assert [call[1][1] for call in client.simulator.calls] == [10, 11, 12, 13]      # in the order asked
    assert client.post("/game/altun-ha/simulations", json={"games": 5}).status_code == 202


# --- numbers no field takes ------------------------------------------------------------------------

HUGE = "9" * 5000
NUMBERS = [
    ('{"hand": ["Stage"], "population": %s}' % HUGE, '"population": a whole number of 5,000 digits'),
    ('{"hand": ["Stage"], "population": 1e999}', '"population": 1e999 is too large a number'),
    ('{"hand": ["Stage"], "population": -1e999}', '"population": -1e999 is too large a number'),
    ('{"hand": ["Stage"], "population": NaN}', '"population": NaN is not a number JSON allows'),
    ('{"hand": ["Stage"], "population": Infinity}', '"population": Infinity is not a number JSON allows'),
    ('{"hand": ["Stage"], "population": 7, "temples": [2, -%s]}' % HUGE, '"temples[1]": a whole number of'),
    ('{"hand": [%s], "population": 7}' % HUGE, '"hand[0]": a whole number of 5,000 digits'),
    ('{"hand": ["Stage"], "population": 7, "rules": {"god_value": %s}}' % HUGE, '"rules.god_value": a whole'),
    ('{"hand": ["Stage"], "population": 7, "rules": {"chain": -Infinity}}', '"rules.chain": -Infinity is not'),
    ('{"hand": ["Stage"], "population": %s}' % ("1" * (MAX_DIGITS + 1)), f"of {MAX_DIGITS + 1} digits"),
    ('{"hand": ["Stage"], "population": 1%s.5}' % ("0" * 400), '"population": 1000000'),
]
RANGES = [
    ('{"hand": ["Stage"], "population": 1001}', "--population: Population must be at most 1000, not 1001"),
    ('{"hand": ["Stage"], "population": 0}', "--population: "),
    ('{"hand": ["Stage"], "population": %s}' % ("9" * MAX_DIGITS), "Population must be at most 1000"),
    ('{"hand": ["Stage"], "population": 7.5}', "--population: 7.5 is not a whole number"),
    ('{"hand": ["Stage"], "population": 7, "temples": [9]}', "--temples: temple 1: top 9 is outside 1..8"),
    ('{"hand": ["Stage"], "population": 7, "temples": [%s]}' % ("9" * MAX_DIGITS), "--temples: "),
    ('{"hand": ["Stage"], "population": 7, "temples": [%s]}' % ",".join(["1"] * 40), "--temples: 40 temples"),
    ('{"hand": [%s], "population": 7}' % ("9" * MAX_DIGITS), "--hand: "),
    ('{"hand": ["Stage"], "population": 7, "rules": {"god_value": 1001}}', "god_value takes a whole number"),
    ('{"hand": ["Stage"], "population": 7, "rules": {"max_farm_cards": -%s}}' % ("9" * MAX_DIGITS),
     "max_farm_cards takes a whole number from 1 to 4"),
]


@pytest.mark.parametrize("body, message", NUMBERS)
def test_a_number_no_field_takes_is_a_400_naming_the_field(client, body, message):
    for path in POSTS[:4]:
        sent = body if path != "/api/check" else body[:-1] + ', "play": "farm Stage"}'
        response = client.post(path, content=sent.encode(), headers={"content-type": "application/json"})
        assert message in _one_line_error(response, 400), path
    assert client.asked == []


@pytest.mark.parametrize("body, message", RANGES)
def test_a_number_out_of_a_fields_range_is_a_400_with_the_command_lines_message(app, body, message):
    client = TestClient(app, base_url=BASE)
    for path in POSTS[:4]:
        sent = body if path != "/api/check" else body[:-1] + ', "play": "farm Stage"}'
        response = client.post(path, content=sent.encode(), headers={"content-type": "application/json"})
        assert message in _one_line_error(response, 400), path


@pytest.mark.parametrize("body, message", [
    ('{"games": %s}' % HUGE, '"games": a whole number of 5,000 digits'),
    ('{"games": 1e999}', '"games": 1e999 is too large a number'),
    ('{"seed": NaN}', '"seed": NaN is not a number JSON allows'),
    ('{"seed": %s}' % ("9" * 19), "--seed: must be a whole number from -2**63 to 2**63 - 1"),
    ('{"seed": -%s}' % ("9" * 30), '"seed": a whole number of 30 digits'),
    ('{"players": 1}', "--players: must be from 2 to"),
    ('{"players": 17}', "--players: must be from 2 to 16 (the deck of 80 cards deals 5 to each player)"),
    ('{"players": -%s}' % HUGE, '"players": a whole number of 5,000 digits'),
    ('{"games": 0}', "--games: the page plays 1 to 5000 games, not 0"),
    ('{"games": 5001}', "--games: the page plays 1 to 5000 games, not 5001"),
    ('{"games": 2.5}', "--games: 2.5 is not a whole number"),
    ('{"policy": "greedy,nobody"}', "nobody"),
    ('{"set": ["no_such_rule=1"]}', "--set"),
    ('{"set": ["population_start=%s"]}' % HUGE, "--set"),
])
def test_a_simulation_out_of_range_is_a_400_and_is_not_queued(client, body, message):
    response = client.post("/game/altun-ha/simulations", content=body.encode(),
                           headers={"content-type": "application/json"})
    assert message in _one_line_error(response, 400)
    assert client.app.state.server.runs.jobs == {} and client.simulator.calls == []


# --- connections that never finish their request --------------------------------------------------

DEADLINE = 0.5          # seconds the test server gives a request to arrive whole, and an answer to be taken
BIG = 16 * 2**20        # bytes of a game file larger than every buffer between the server and a client
BIG_FILE = "/game/test-game/files/art/big.bin"
CROWD = 4               # connections the crowded server takes


def _serving(games: list[str], request_seconds: float):
    """A real server on a free port, its builds stubbed out; yields (app, port)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(games, watch_files=False)
    server = app.state.server
    server.builder = server.painter = NoWorker("builds are not part of these tests")
    for game in server.live.values():
        game.kit_worker = game.preview_worker = server.builder
    instance = WebServer(app, "127.0.0.1", port, request_seconds=request_seconds)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    _wait(lambda: instance.started or not thread.is_alive())
    assert thread.is_alive()
    yield app, port
    instance.stop()
    thread.join(10)


def _big_content() -> bytes:
    return bytes(range(256)) * (BIG // 256)


@pytest.fixture(scope="module")
def big_game(tmp_path_factory) -> str:
    """A game folder holding a file of BIG bytes."""
    folder = write_game(tmp_path_factory.mktemp("live") / "big")
    (folder / "art").mkdir()
    (folder / "art" / "big.bin").write_bytes(_big_content())
    return str(folder)


@pytest.fixture(scope="module")
def live_server(big_game):
    """A real server whose requests must arrive, and answers be taken, within DEADLINE; it serves Altun Ha
    and the big game.  Only the tests of those deadlines use it: a test thread on a busy machine can pause
    for longer than DEADLINE."""
    yield from _serving(["altun-ha", big_game], DEADLINE)


@pytest.fixture(scope="module")
def patient_server(big_game):
    """The same games served with a deadline of HANG_GUARD, for the tests of everything else."""
    yield from _serving(["altun-ha", big_game], HANG_GUARD)


@pytest.fixture(scope="module")
def crowded_server():
    """A real server taking CROWD connections, whose requests may take a whole HANG_GUARD to arrive."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(connections, "MAX_CONNECTIONS", CROWD)
        yield from _serving(["altun-ha"], HANG_GUARD)


def _connect(port: int) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=HANG_GUARD)
    return connection


def _read_all(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a hang fails at HANG_GUARD)."""
    data = b""
    while chunk := connection.recv(65536):
        data += chunk
    return data


@pytest.mark.parametrize("sent", [
    b"",                                                                    # opens, says nothing
    b"GET /api/games HTTP/1.1\r\n",                                         # headers never finished
    b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a",
    b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100\r\n\r\n{\"hand\": [",                             # a body shorter than declared
])
def test_a_request_that_never_arrives_whole_is_closed(live_server, sent):
    _, port = live_server
    with _connect(port) as connection:
        connection.sendall(sent)
        assert _read_all(connection) == b""         # closed, and nothing answered


def test_a_slow_loris_trickling_headers_is_closed(live_server):
    _, port = live_server
    with _connect(port) as connection:
        connection.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        connection.settimeout(0.05)
        deadline = time.monotonic() + HANG_GUARD
        closed = False
        while not closed:
            assert time.monotonic() < deadline, "the server kept a trickling request open"
            try:
                connection.sendall(b"X-a: b\r\n")
                closed = connection.recv(1) == b""
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                closed = True


@contextlib.contextmanager
def _held(app):
    """The server's event loop held still while the block runs: what a client sends meanwhile waits whole in
    the system's buffers, and the server finds it there as soon as it goes on, however long this side took
    to send it (a busy machine can pause this thread for longer than the deadline)."""
    holding, release = threading.Event(), threading.Event()
    app.state.server._loop.call_soon_threadsafe(lambda: (holding.set(), release.wait(HANG_GUARD)))
    assert holding.wait(HANG_GUARD)
    try:
        yield
    finally:
        release.set()


def _response(reader) -> tuple[bytes, bytes]:
    """The status line and body of the next response read from ``reader`` (a file of the socket)."""
    status, length = reader.readline(), 0
    while (line := reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return status, reader.read(length)


def test_whole_requests_and_long_answers_are_not_cut(live_server):
    app, port = live_server
    with _held(app):                                    # two requests on one connection, each whole
        connection = _connect(port)
        connection.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 2)
    with connection, connection.makefile("rb") as reader:
        for _ in range(2):
            status, body = _response(reader)
            assert status.startswith(b"HTTP/1.1 200") and json.loads(body)[0]["key"] == "altun-ha"
    with _held(app):                                    # an event stream outlives the deadline many times
        connection = _connect(port)
        connection.sendall(b"GET /game/altun-ha/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    with connection:
        received = connection.recv(65536)
        while b"data: " not in received:
            received += connection.recv(65536)
        time.sleep(DEADLINE * 4)
        server = app.state.server
        server._loop.call_soon_threadsafe(server.live["altun-ha"]._publish)
        more = connection.recv(65536)
        assert b"data: " in more and b'"key": "altun-ha"' in more


def _first_answer(port: int, request: bytes) -> tuple[bytes, bytes]:
    """The status line and the first bytes of the body the server sends for ``request``."""
    with _connect(port) as connection:
        connection.sendall(request)
        received = b""
        while b"\r\n\r\n" not in received or received.endswith(b"\r\n\r\n"):
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0], body


@pytest.mark.parametrize("path", ["/game/altun-ha/events", "/api/games", "/game/altun-ha/state",
                                  "/game/altun-ha/files/cards.csv", "/game/altun-ha/switches"])
def test_a_request_from_another_page_that_says_so_is_refused_whatever_its_method(patient_server, path):
    """A page elsewhere reads no answer of this server (its browser keeps them from it), but the server
    would still do the work, an event stream included. A browser sends such a request with the page's
    Origin, and it is refused before anything runs."""
    _, port = patient_server
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{port + 1}"):
        status, body = _first_answer(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: {origin}\r\n"
                                           "Connection: close\r\n\r\n".encode())
        assert status.startswith(b"HTTP/1.1 403"), (path, origin, status, body[:100])
        assert "from another web page" in json.loads(body)["error"]
    own = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    assert _first_answer(port, own.encode())[0].startswith(b"HTTP/1.1 200"), path

def _closed(connection: socket.socket) -> bool:
    """Whether the server has closed ``connection`` (without reading what it sent)."""
    poller = select.poll()
    poller.register(connection, select.POLLRDHUP | select.POLLHUP | select.POLLERR)
    return bool(poller.poll(0))


def _open_stream(port: int) -> socket.socket:
    connection = _connect(port)
    connection.sendall(b"GET /game/altun-ha/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    received = b""
    while b"data: " not in received:
        chunk = connection.recv(65536)
        assert chunk, "the event stream ended"
        received += chunk
    return connection


def test_connections_waiting_for_their_request_give_way_to_a_new_one(crowded_server):
    """Connections that send nothing (or linger after their answer) cannot keep the user out: when the
    server is full, a new connection takes the place of the one that has waited longest."""
    _, port = crowded_server
    idle = [_connect(port) for _ in range(CROWD)]
    try:
        for _ in range(3):
            with _connect(port) as connection:
                connection.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                answer = _read_all(connection)
            assert answer.startswith(b"HTTP/1.1 200") and b'"key":"altun-ha"' in answer, answer[:200]
        _wait(lambda: any(_closed(c) for c in idle))
        assert sum(_closed(c) for c in idle) == 1         # room was made once; then there was room
    finally:
        for connection in idle:
            connection.close()


def test_a_crowd_of_connections_opened_at_once_keeps_no_more_places_than_the_server_has(crowded_server):
    """Opened in one burst, connections that send nothing each push out an older one: the server keeps
    CROWD of them, whatever order it takes them in."""
    _, port = crowded_server
    crowd = [_connect(port) for _ in range(3 * CROWD)]
    try:
        _wait(lambda: sum(_closed(c) for c in crowd) >= 2 * CROWD)
        assert sum(_closed(c) for c in crowd) == 2 * CROWD
    finally:
        for connection in crowd:
            connection.close()

def test_a_request_beyond_the_answers_in_progress_is_a_one_line_503_and_the_answers_go_on(crowded_server):
    app, port = crowded_server
    streams = [_open_stream(port) for _ in range(CROWD)]
    try:
        with _connect(port) as connection:
            connection.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = _read_all(connection)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503") and b"content-type: application/json" in head.lower(), head
        error = json.loads(body)["error"]
        assert f"{CROWD} requests at once" in error and "\n" not in error
        assert not any(_closed(s) for s in streams)
        server = app.state.server
        server._loop.call_soon_threadsafe(server.live["altun-ha"]._publish)
        for stream in streams:                          # each still gets the news
            assert b"data: " in stream.recv(65536)
    finally:
        for stream in streams:
            stream.close()


def test_an_answer_the_client_stops_taking_is_cut(live_server):
    """A client that asks for a large file and reads nothing holds no connection for ever."""
    _, port = live_server
    with socket.socket() as connection:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        connection.connect(("127.0.0.1", port))
        connection.sendall(f"GET {BIG_FILE} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        poller = select.poll()
        poller.register(connection, select.POLLRDHUP | select.POLLHUP | select.POLLERR)
        assert poller.poll(HANG_GUARD * 1000), "the server kept an answer nobody takes"


def test_a_large_game_file_is_sent_as_it_is_read_not_held_whole(patient_server):
    """However large a game file, serving it holds a few chunks of it in memory, not all of it."""
    _, port = patient_server
    tracemalloc.start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
        connection.request("GET", BIG_FILE)
        response = connection.getresponse()
        assert response.status == 200 and int(response.getheader("content-length")) == BIG
        digest, size = hashlib.sha256(), 0
        while chunk := response.read(65536):
            digest.update(chunk)
            size += len(chunk)
        connection.close()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert size == BIG and digest.digest() == hashlib.sha256(_big_content()).digest()
    assert peak < BIG / 4, f"{peak:,} bytes held while sending a file of {BIG:,}"
