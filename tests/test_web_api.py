"""The web app's JSON API and files, through Starlette's test client.

One app serves the built-in Altun Ha and a small game folder made for this module; the
solver's answers are compared with what ``kitgen solve`` prints for the same question.
"""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from starlette.testclient import TestClient

from kitgen.web.app import create_app
from tests.conftest import HANG_GUARD, run, small_game

POSITIONS = [
    {"hand": ["Stage", "Stairs", "Sun God"], "population": 7, "temples": [2, 3]},
    {"hand": ["Plaza", "Base", "Maize", "Altar", "God"], "population": 12, "temples": []},
    {"hand": ["1", "Plaza", "Steps"], "population": 3, "temples": [5]},
    {"hand": ["Stone", "Salt"], "population": 4, "temples": [1]},     # famine
]


BASE = "http://127.0.0.1:8000"       # the app answers only to the names of the address it serves


def cli_args(q: dict) -> list[str]:
    return ["solve", "--population", str(q["population"]), "--hand", ",".join(q["hand"]),
            "--temples", ",".join(map(str, q.get("temples", [])))]


def cli_json(*args: str):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def cli_error(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 2
    line = result.output.strip().splitlines()[-1]
    assert line.startswith("Error: ")
    return line


def wait_for(client: TestClient, key: str, check, timeout: float = HANG_GUARD) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = client.get(f"/game/{key}/state").json()
        if check(state):
            return state
        assert time.monotonic() < deadline, f"gave up waiting; state: {state}"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("web")
    game = small_game(base / "my-game")
    (base / "secret.txt").write_text("not for the web", encoding="utf-8")
    (game / "art").mkdir(exist_ok=True)
    (game / "art" / "note.txt").write_text("a file of the game", encoding="utf-8")
    os.symlink(base / "secret.txt", game / "art" / "escape.txt")
    os.symlink(base, game / "outside")
    return game


@pytest.fixture(scope="module")
def client(folder):
    app = create_app(["altun-ha", str(folder)])
    with TestClient(app, base_url=BASE) as client:
        for key in ("altun-ha", "export-test"):
            wait_for(client, key, lambda s: s["build"] is not None and not s["building"])
        yield client


def test_games_lists_each_game_with_its_pages(client):
    games = {g["key"]: g for g in client.get("/api/games").json()}
    assert set(games) == {"altun-ha", "export-test"}
    assert games["altun-ha"]["solver"] == "/game/altun-ha/solver"
    assert games["export-test"]["solver"] is None          # not a game of Altun Ha's rules
    assert client.get("/game/export-test/solver").status_code == 404
    assert client.get("/game/altun-ha/solver").status_code == 200
    # Altun Ha's own view on the solver page, and its stylesheet, linked from the page
    style = client.get("/game/altun-ha/view.css")
    assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
    assert ".question-tabs" in style.text and 'href="/game/altun-ha/view.css"' in client.get("/game/altun-ha/solver").text
    assert client.get("/game/export-test/view.css").status_code == 404


@pytest.mark.parametrize("q", POSITIONS)
def test_solve_answers_as_the_command_line(client, q):
    response = client.post("/api/solve", json=q)
    assert response.status_code == 200
    assert response.json() == cli_json(*cli_args(q), "--json")


def test_all_and_check_answer_as_the_command_line(client):
    q = POSITIONS[1]
    assert client.post("/api/all", json=q).json() == cli_json(*cli_args(q), "--all", "--json")
    play = "farm Maize; build Plaza@new, Base@1"
    answer = client.post("/api/check", json={**q, "play": play}).json()
    expected = cli_json(*cli_args(q), "--play", play, "--json")
    assert {k: v for k, v in answer.items() if k != "lines"} == expected
    assert answer["legal"] and answer["gap"] == expected["best"]["points"] - 3


def test_rule_switches_change_the_answer_as_the_command_line(client):
    q = {"hand": ["Plaza", "Base", "Altar", "Platform"], "population": 15, "temples": []}
    on = client.post("/api/solve", json=q).json()
    off = client.post("/api/solve", json={**q, "rules": {"chain": "off"}}).json()
    assert on == cli_json(*cli_args(q), "--json")
    assert off == cli_json(*cli_args(q), "--json", "--rule", "chain=off")
    assert on["points"] == 3 and off["points"] == 1


def test_explain_gives_the_same_best_play_and_its_reasons(client):
    q = POSITIONS[0]
    answer = client.post("/api/explain", json=q).json()
    assert answer["json"] == cli_json(*cli_args(q), "--json")
    assert answer["best"] == [answer["play"]]
    assert answer["temples_after"] == [3, 4]
    assert answer["lines"] == run(*cli_args(q)).output.splitlines()
    assert answer["why_not"]["text"] in answer["lines"]
    assert answer["words"] == "farm Sun God; build Stage on temple 1, Stairs on temple 2"


def test_the_round_questions_answer_as_the_command_line(client):
    bid = {"question": "bid", "bids": [["Steps"], ["Steps"], ["Stage"], []], "scores": [4, 2, 0, 9]}
    answer = client.post("/api/explain", json=bid).json()
    expected = run("solve", "--question", "bid", "--bids", "Steps;Steps;Stage;", "--scores", "4,2,0,9", "--json")
    assert answer["json"] == json.loads(expected.output) and answer["winner"] == 3
    end = {"question": "end", "scores": [10, 3, 10], "king": 2, "calendar": 3}
    answer = client.post("/api/explain", json=end).json()
    assert answer["winners"] == [1, 3] and answer["shared"]
    refused = client.post("/api/explain", json={**end, "hand": ["Stage"]})
    assert refused.status_code == 400 and refused.json()["error"].startswith("--hand: is not part of the end question")


@pytest.mark.parametrize("q, args", [
    ({"hand": ["Stagee"], "population": 7}, ["--hand", "Stagee", "--population", "7"]),
    ({"hand": ["Altar", "Altar"], "population": 7}, ["--hand", "Altar,Altar", "--population", "7"]),
    ({"hand": ["Stage"], "population": 0}, ["--hand", "Stage", "--population", "0"]),
    ({"hand": ["Stage"], "population": 3, "temples": [9]}, ["--hand", "Stage", "--population", "3", "--temples", "9"]),
    ({"hand": ["Stage"], "population": 3, "rules": {"chain": "maybe"}},
     ["--hand", "Stage", "--population", "3", "--rule", "chain=maybe"]),
])
def test_a_bad_question_is_a_400_with_the_command_lines_message(client, q, args):
    for path in ("/api/solve", "/api/explain", "/api/all"):
        response = client.post(path, json=q)
        assert response.status_code == 400
        assert "Error: " + response.json()["error"] == cli_error("solve", *args)


def test_a_bad_play_is_a_400_with_the_command_lines_message(client):
    q = POSITIONS[0]
    response = client.post("/api/check", json={**q, "play": "farm Sun God; build Stage@7"})
    assert response.status_code == 200 and not response.json()["legal"]
    response = client.post("/api/check", json={**q, "play": "plant Sun God"})
    assert response.status_code == 400
    assert "Error: " + response.json()["error"] == cli_error(*cli_args(q), "--play", "plant Sun God")


def test_a_missing_play_names_the_key_and_a_solver_bug_is_a_500_not_the_users_mistake(client, monkeypatch):
    from kitgen.web import solving

    response = client.post("/api/check", json=POSITIONS[0])
    assert response.status_code == 400 and response.json()["error"].startswith('"play" is missing')

    def broken(question):
        raise ValueError("a bug")

    monkeypatch.setattr(solving, "solve", broken)
    response = client.post("/api/solve", json=POSITIONS[0])
    assert response.status_code == 500 and "a bug in kitgen" in response.json()["error"]


@pytest.mark.parametrize("body, message", [
    (b"{not json", "not JSON"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[1, 2]", "expected an object"),
    (b'{"hand": ["Stage"], "population": 3, "colour": 1}', "unknown key 'colour'"),
    (b'{"hand": "Stage", "population": 3}', '"hand" must be a list'),
    (b'{"hand": ["Stage"], "population": "3"}', "is not a whole number"),
    (b'{"hand": ["Stage"], "population": 3, "game": "../etc"}', "not a served game"),
    (b"[" * 100000 + b"]" * 100000, "larger than"),
])
def test_malformed_requests_get_one_line_and_no_traceback(client, body, message):
    response = client.post("/api/solve", content=body, headers={"content-type": "application/json"})
    assert response.status_code in (400, 413)
    error = response.json()["error"]
    assert message in error and "Traceback" not in error and "\n" not in error


def test_request_bodies_are_limited(client):
    big = {"hand": ["Stage"] * 20000, "population": 3}
    assert client.post("/api/solve", json=big).status_code == 413
    def chunks():                               # no Content-Length: counted as it arrives
        for _ in range(100):
            yield b" " * 4096
    response = client.post("/api/solve", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_files_of_a_game_folder_can_be_fetched(client):
    response = client.get("/game/export-test/files/cards.csv")
    assert response.status_code == 200 and response.text.startswith("name,type,count")
    assert client.get("/game/export-test/files/art/note.txt").text == "a file of the game"


@pytest.mark.parametrize("path", [
    "/game/export-test/files/../secret.txt",
    "/game/export-test/files/%2e%2e/secret.txt",
    "/game/export-test/files/%2e%2e%2fsecret.txt",
    "/game/export-test/files/art/%2e%2e/%2e%2e/secret.txt",
    "/game/export-test/files/..%5csecret.txt",
    "/game/export-test/files//etc/passwd",
    "/game/export-test/files/%2fetc%2fpasswd",
    "/game/export-test/files/art/escape.txt",              # a symlink to a file outside
    "/game/export-test/files/outside/secret.txt",          # a symlink to a folder outside
    "/game/export-test/files/",
    "/game/export-test/files/art",
    "/game/nobody/files/cards.csv",
    "/static/%2e%2e/app.py",
    "/static/..%2fapp.py",
    "/static//etc/passwd",
    "/fonts/%2e%2e/fonts.py",
    "/game/altun-ha/kit/manifest.json",
    "/game/altun-ha/kit/..%2f..%2fcards.csv",
])
def test_nothing_outside_the_game_folders_and_assets_can_be_fetched(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "not for the web" not in response.text and "root:" not in response.text


async def _status_of_raw_path(app, path: str) -> int:
    """Send ``path`` to the app exactly as written (an HTTP client would remove the '..' first)."""
    sent, received = [], []

    async def receive():
        received.append(1)
        if len(received) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"host", b"127.0.0.1:8000")],
             "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5000), "root_path": "", "state": {}}
    await app(scope, receive, send)
    return sent[0]["status"]


@pytest.mark.parametrize("path", [
    "/game/export-test/files/../secret.txt",
    "/game/export-test/files/art/../../secret.txt",
    "/game/export-test/files/art/../cards.csv/../../secret.txt",
    "/game/export-test/files/./../secret.txt",
    "/static/../web/app.py",
    "/static/../../render/fonts.py",
    "/fonts/../fonts.py",
])
def test_raw_dot_dot_paths_are_refused(client, path):
    assert client.portal.call(_status_of_raw_path, client.app, path) == 404
    assert client.portal.call(_status_of_raw_path, client.app, "/game/export-test/files/cards.csv") == 200


def test_static_assets_are_served_from_the_package(client):
    css = client.get("/static/app.css")
    assert css.status_code == 200 and "font-face" in css.text and "http" not in css.text
    font = client.get("/fonts/DejaVuSans.ttf")
    assert font.status_code == 200 and font.content[:4] == b"\x00\x01\x00\x00"
    page = client.get("/game/altun-ha/solver").text
    assert "https://" not in page and "http://" not in page     # nothing from a CDN
    for script in ("preview.js", "solver.js", "simulate.js"):
        assert client.get(f"/static/{script}").status_code == 200


def test_the_kit_downloads_as_built(client):
    state = client.get("/game/altun-ha/state").json()
    pages = {d["name"]: d["pages"] for d in state["documents"]}
    for name in ("cards.pdf", "rules.pdf", "aids.pdf"):
        response = client.get(f"/game/altun-ha/kit/{name}")
        assert response.status_code == 200 and response.headers["content-type"] == "application/pdf"
        assert 'attachment; filename="altun-ha-' + name in response.headers["content-disposition"]
        assert len(PdfReader(io.BytesIO(response.content)).pages) == pages[name]
    assert pages["cards.pdf"] == 18


def test_card_pictures_are_the_printed_faces(client):
    state = client.get("/game/altun-ha/state").json()
    assert [c["name"] for c in state["cards"]][:3] == ["Plaza", "Base", "Stage"]
    assert sum(c["count"] for c in state["cards"]) == state["deck_size"] == 80
    face = Image.open(io.BytesIO(client.get(state["cards"][0]["image"]).content))
    assert face.size == (275, 385)                          # 63.5 x 88.9 mm at 110 DPI
    # the Bid frame colour of game.toml ([types.bid] #a0522d) is the face's edge
    r, g, b = face.convert("RGB").getpixel((3, face.height // 2))
    assert abs(r - 0xa0) < 12 and abs(g - 0x52) < 12 and abs(b - 0x2d) < 12
    page = Image.open(io.BytesIO(client.get(state["documents"][1]["page_urls"][0]).content))
    assert page.size == (680, 880)                           # a letter page at 80 DPI
    assert state["documents"][1]["page_px"] == [680, 880]    # told before the picture loads
    assert client.get(state["documents"][1]["page_urls"][0].replace("/0.png", "/99.png")).status_code == 404


def save(path: Path, text: str) -> None:
    """Write a file of the watched folder in one step, so no build reads it half-written."""
    staged = path.parent.parent / f".{path.name}.saving"
    staged.write_text(text, encoding="utf-8")
    os.replace(staged, path)


def test_a_broken_folder_shows_the_command_lines_error_and_keeps_the_last_good_build(client, folder):
    before = wait_for(client, "export-test", lambda s: not s["building"])
    cards = folder / "cards.csv"
    original = cards.read_text(encoding="utf-8")
    assert "Gather,action,4," in original
    try:
        save(cards, original.replace("Gather,action,4,", "Gather,action,many,"))
        broken = wait_for(client, "export-test", lambda s: s["error"] is not None and not s["building"])
        assert broken["error"] == cli_error("build", str(folder), "--out", str(folder.parent / "out"))
        assert "cards.csv, row 2, column 'count'" in broken["error"]
        assert broken["build"] == before["build"]                 # the last good build stays
        assert client.get(broken["cards"][0]["image"]).status_code == 200
        assert client.get("/game/export-test/kit/cards.pdf").status_code == 200
    finally:
        save(cards, original)
    fixed = wait_for(client, "export-test", lambda s: s["error"] is None and s["build"] != before["build"])
    assert [c["name"] for c in fixed["cards"]] == [c["name"] for c in before["cards"]]


def test_a_changed_row_is_drawn_alone_and_the_kit_is_built_after_it(client, folder):
    before = wait_for(client, "export-test", lambda s: not s["building"])
    cards = folder / "cards.csv"
    original = cards.read_text(encoding="utf-8")
    assert "Gather,action,4,1,Draw 2 cards." in original
    try:
        save(cards, original.replace("Gather,action,4,1,Draw 2 cards.", "Gather,action,4,1,Draw 5 cards."))
        drawn = wait_for(client, "export-test", lambda s: s["build"] != before["build"])
        # only the changed card has a new picture (the others keep theirs: the page keeps them too)
        old, new = ([c["image"] for c in state["cards"]] for state in (before, drawn))
        assert [i for i, (a, b) in enumerate(zip(old, new)) if a != b] == [0] and drawn["back"] == before["back"]
        face = Image.open(io.BytesIO(client.get(new[0]).content))
        assert face.size == (275, 385) and client.get(new[0]).content != client.get(old[0]).content
        built = wait_for(client, "export-test", lambda s: s["kit"] != before["kit"] and not s["building"])
        assert built["kit"] > built["build"] >= drawn["build"]         # the kit is built after the drawing
        sheet = PdfReader(io.BytesIO(client.get("/game/export-test/kit/cards.pdf").content))
        assert "Draw 5 cards." in sheet.pages[0].extract_text()
    finally:
        save(cards, original)
    wait_for(client, "export-test", lambda s: s["cards"][0]["image"] == before["cards"][0]["image"]
             and not s["building"])


def test_templates_render_in_the_sandbox(client, folder):
    toml = folder / "game.toml"
    original = toml.read_text(encoding="utf-8")
    (folder / "templates").mkdir(exist_ok=True)
    (folder / "templates" / "rules.md.j2").write_text(
        "# Rules\n\n{{ ''.__class__.__mro__[1].__subclasses__() }}\n", encoding="utf-8")
    try:
        save(toml, 'rulebook = "rules.md.j2"\n' + original)
        broken = wait_for(client, "export-test", lambda s: s["error"] is not None and not s["building"])
        assert broken["error"] == cli_error("build", str(folder), "--out", str(folder.parent / "out"))
        assert "sandbox" in broken["error"] or "unsafe" in broken["error"]
    finally:
        save(toml, original)
    wait_for(client, "export-test", lambda s: s["error"] is None and not s["building"])


def test_a_crashing_build_never_takes_the_server_down(client):
    server = client.app.state.server
    game = server.live["export-test"]
    good = game.good
    game.preview_target = "tests.web_worker_faults:abort"     # the drawing process dies of a signal
    try:
        (Path(game.served.root) / "cards.csv").touch()
        crashed = wait_for(client, "export-test", lambda s: s["error"] is not None and not s["building"])
        assert crashed["error"].startswith("Error: the build stopped: the worker process stopped unexpectedly")
        assert crashed["build"] == good
        assert client.post("/api/solve", json=POSITIONS[0]).status_code == 200
    finally:
        game.preview_target = type(game).preview_target
    (Path(game.served.root) / "cards.csv").touch()
    wait_for(client, "export-test", lambda s: s["error"] is None and s["build"] != good)


def test_a_local_server_answers_only_to_its_own_names():
    import shutil

    app = create_app(["altun-ha"], watch_files=False, host="127.0.0.1")
    try:
        assert TestClient(app, base_url="http://127.0.0.1:8000").get("/api/games").status_code == 200
        assert TestClient(app, base_url="http://localhost:8000").get("/").status_code == 200
        # a page elsewhere that points its own name at this machine (DNS rebinding) gets nothing
        response = TestClient(app, base_url="http://attacker.example:8000").get("/game/altun-ha/files/cards.csv")
        assert response.status_code == 400 and "Plaza" not in response.text
    finally:
        shutil.rmtree(app.state.server.folder)


def test_the_solver_page_offers_the_rulings_the_rulebook_prints(client):
    from solver.altunha.rules import Rules

    switches = client.get("/game/altun-ha/switches").json()
    rulings = [s for s in switches if s["kind"] != "number"]
    assert [s["name"] for s in rulings] == [r.name for r in Rules.from_game("altun-ha").rulings]
    book = " ".join(page.extract_text() for page in
                    PdfReader(io.BytesIO(client.get("/game/altun-ha/kit/rules.pdf").content)).pages)
    book = " ".join(book.split())
    for s in rulings:
        assert s["title"] in book, s["title"]
    chain = next(s for s in rulings if s["name"] == "chain")
    assert chain["default"] == "true" and [o["value"] for o in chain["options"]] == ["true", "false"]
    # each switch's other option is accepted by the solver as it is sent back
    q = {"hand": ["Plaza", "Base"], "population": 1, "temples": []}
    for s in switches:
        other = (s["default"] - 1 if s["default"] > s["min"] else s["default"] + 1) if s["kind"] == "number" else \
            next(o["value"] for o in s["options"] if o["value"] != s["default"])
        response = client.post("/api/solve", json={**q, "rules": {s["name"]: other}})
        assert response.status_code == 200, (s["name"], response.json())


def test_serve_refuses_an_address_it_cannot_listen_on_in_one_line():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "altun-ha", "--port", str(port))
    assert result.exit_code == 2
    assert result.output.strip() == (f"Error: --port: cannot listen on 127.0.0.1 port {port}: Address already "
                                     "in use; another program uses it, choose another --port")
    result = run("serve", "altun-ha", "--host", "no-such-host.invalid")
    assert result.exit_code == 2 and result.output.startswith("Error: --host: 'no-such-host.invalid' is not")
    assert len(result.output.strip().splitlines()) == 1
