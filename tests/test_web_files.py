"""What ``kitgen serve`` hands out: the files of the served game folders and nothing outside them, whatever
the symlinks, the encodings of the path, or the folder swapped while it is served.

One real server (uvicorn on a free local port, so every path reaches the app exactly as written: no
client removes a ``..`` first) serves four game folders beside a secret folder: one plain, one whose
``art/``, ``templates/``, ``icons/`` and ``fonts/`` are each a symlink to ``/``, one whose four are
each a symlink to the secret folder, and one that a test swaps for a symlink while it is served.
"""

from __future__ import annotations

import errno
import http.client
import os
import threading
import time
from pathlib import Path

import pytest

from kitgen.data.files import read_regular
from kitgen.data.paths import real
from kitgen.errors import GameDataError
from kitgen.web import live
from kitgen.web.app import WebServer, create_app
from tests.conftest import HANG_GUARD, free_port, write_game

SECRET = "kitgen-secret-8e51b6"                     # in every file of the secret folder
OUTSIDE_MARKS = (SECRET, "root:x:0:0", "PATH=")     # /etc/passwd, /proc/self/environ
LINKED = ("art", "templates", "icons", "fonts")


def _game(folder: Path, title: str) -> Path:
    write_game(folder)
    toml = folder / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('"Test Game"', f'"{title}"'), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("served")
    secret = base / "secret"
    (secret / "etc").mkdir(parents=True)
    for name in ("passwd", "secret.txt", "etc/passwd", "cards.csv", "game.toml"):
        (secret / name).write_text(f"{SECRET}\n", encoding="utf-8")
    plain = _game(base / "plain", "Plain")
    (plain / "art").mkdir()
    (plain / "art" / "note.txt").write_text("a file of the game", encoding="utf-8")
    (plain / "page.html").write_text("<script>fetch('/api/solve', {method: 'POST'})</script>", encoding="utf-8")
    for name, target in (("to-root", Path("/")), ("to-secret", secret)):
        game = _game(base / name, name)
        for link in LINKED:
            (game / link).symlink_to(target)
    _game(base / "swapped", "Swapped")
    return base


@pytest.fixture(scope="module")
def server(base):
    app = create_app([str(base / name) for name in ("plain", "to-root", "to-secret", "swapped")])
    instance = WebServer(app, "127.0.0.1", free_port())
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + HANG_GUARD * len(app.state.server.live)       # a minute for each game's build
    while not (instance.started and all(g.good or g.error for g in app.state.server.live.values())
               and not any(g.building for g in app.state.server.live.values())):
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield app, instance.uvicorn.config.port
    instance.stop()
    thread.join(10)


def get(port: int, path: str, host: str | None = None) -> tuple[int, bytes]:
    """GET ``path`` sent exactly as written."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
    try:
        connection.putrequest("GET", path, skip_host=host is not None, skip_accept_encoding=True)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def keys(app) -> dict[str, str]:
    """Folder name -> the key it is served under."""
    return {Path(g.served.argument).name: g.key for g in app.state.server.live.values()}


# Paths under /game/<key>/files/ that lead out, written every way a client or a proxy might.
THROUGH_LINKS = [f"{link}/{rest}" for link in LINKED for rest in (
    "etc/passwd", "passwd", "secret.txt", "proc/self/environ", "./etc/passwd", "/etc/passwd", "%2e/passwd",
    "%2e%2e/secret/passwd", "..%2f..%2fsecret%2fpasswd", "%252e%252e/%252e%252e/secret/passwd")] + [
    f"{link}%2fetc%2fpasswd" for link in LINKED] + [f"{link}%2Fpasswd" for link in LINKED] + [
    f"{link}%5cetc%5cpasswd" for link in LINKED] + [f"{link}\\etc\\passwd" for link in LINKED]
# The files behind the links, named as if a link's target were the game folder (the server once took
# the targets of art/ and templates/ as folders of their own).
BEHIND_LINKS = ["etc/passwd", "passwd", "secret.txt", "etc/passwd%00", "proc/self/environ", "etc%2fpasswd",
                "etc/./passwd", "etc//passwd", "etc/%70asswd"]
CLIMBING = [
    "../secret/passwd", "../../secret/passwd", "../" * 12 + "etc/passwd", "./../secret/passwd",
    "%2e%2e/secret/passwd", "%2E%2E/secret/passwd", "%2e%2e%2fsecret%2fpasswd", ".%2e/secret/passwd",
    "%2e./secret/passwd", "%252e%252e/secret/passwd", "%252e%252e%252fsecret%252fpasswd",
    "%25252e%25252e/secret/passwd", "..%5csecret%5cpasswd", "..\\secret\\passwd", "..%255csecret%255cpasswd",
    "/etc/passwd", "//etc/passwd", "%2fetc%2fpasswd", "%2Fetc%2Fpasswd", "%252fetc%252fpasswd",
    "%c0%ae%c0%ae/secret/passwd", "%u002e%u002e/secret/passwd", "..;/secret/passwd", "%00../secret/passwd",
    "cards.csv%00.png", "art/../../secret/passwd", "art/%2e%2e/%2e%2e/secret/passwd",
    "cards.csv/../../secret/passwd", "C:%5cWindows%5cwin.ini", "~/.bashrc", "$HOME/.bashrc",
    ".%2fsecret", "game.toml/..", "art/note.txt/../../../secret/passwd",
]
OTHER_ROUTES = [
    "/static/../../../../../../etc/passwd", "/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/static/..%2f..%2f..%2f..%2f..%2fetc%2fpasswd", "/static//etc/passwd", "/static/%2fetc%2fpasswd",
    "/fonts/../../../../../../etc/passwd", "/fonts/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/fonts/..%2f..%2f..%2f..%2fetc%2fpasswd", "/fonts/%252e%252e/%252e%252e/etc/passwd",
    "/game/{plain}/kit/..%2f..%2f..%2f..%2fetc%2fpasswd", "/game/{plain}/kit/%2e%2e",
    "/game/{plain}/kit/../../../../etc/passwd", "/game/{plain}/build/1/page/..%2f..%2fetc%2fpasswd/0.png",
    "/game/{plain}/build/1/face/..%2f..%2f..%2fetc%2fpasswd.png", "/game/{plain}/simulations/1/balance.pdf",
    "/game/%2e%2e/files/secret/passwd", "/game/..%2fsecret/files/passwd", "/game/../secret/files/passwd",
    "/game/{plain}/files/..", "/game/{plain}/files/%2e%2e", "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd",
]


def _refused(status: int, body: bytes) -> bool:
    return status in (400, 403, 404) and not any(mark.encode() in body for mark in OUTSIDE_MARKS)


def test_a_game_folders_own_files_are_served(server):
    app, port = server
    key = keys(app)["plain"]
    status, body = get(port, f"/game/{key}/files/art/note.txt")
    assert (status, body) == (200, b"a file of the game")
    status, body = get(port, f"/game/{key}/files/cards.csv")
    assert status == 200 and body.startswith(b"name,type,count")


@pytest.mark.parametrize("folder", ["plain", "to-root", "to-secret"])
def test_no_path_reaches_a_file_outside_the_game_folder(server, folder):
    app, port = server
    key = keys(app)[folder]
    answers = {path: get(port, f"/game/{key}/files/{path}") for path in BEHIND_LINKS + THROUGH_LINKS + CLIMBING}
    handed = {path: status for path, (status, body) in answers.items() if not _refused(status, body)}
    assert not handed, handed
    assert len(answers) > 60


def test_no_other_route_reaches_a_file_outside(server):
    app, port = server
    plain = keys(app)["plain"]
    for path in OTHER_ROUTES:
        status, body = get(port, path.format(plain=plain))
        assert _refused(status, body), (path, status, body[:200])


def test_a_folder_the_build_refuses_shows_the_error_and_hands_out_nothing_outside(server):
    app, port = server
    for folder in ("to-root", "to-secret"):
        game = app.state.server.live[keys(app)[folder]]
        assert game.good is None and "leads outside the game folder" in game.error, game.error
        # its own files are there, those behind its links are not
        assert get(port, f"/game/{game.key}/files/game.toml")[0] == 200
        for link in LINKED:
            assert _refused(*get(port, f"/game/{game.key}/files/{link}/passwd"))


def test_a_game_file_is_never_a_page_of_the_server(server):
    """A game's .html would otherwise run its scripts as the server's own page, and ask the API as one."""
    app, port = server
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
    connection.request("GET", f"/game/{keys(app)['plain']}/files/page.html")
    response = connection.getresponse()
    assert response.status == 200 and b"<script>" in response.read()
    assert response.getheader("Content-Security-Policy").startswith("sandbox")
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    connection.close()


def test_a_file_is_checked_where_it_was_opened_not_only_by_its_path(tmp_path):
    """A folder on the way swapped for a symlink between the check and the open: the file opened is
    outside, and the read refuses it."""
    game, outside = tmp_path / "game", tmp_path / "outside"
    game.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    (game / "own.txt").write_text("own", encoding="utf-8")
    assert read_regular(game / "own.txt", "own.txt", boundary=real(game)) == b"own"
    with pytest.raises(GameDataError, match="leads outside the game folder"):
        read_regular(outside / "secret.txt", "art/secret.txt", boundary=real(game))


def test_the_watch_never_follows_a_link_out_of_the_folder(server, base, monkeypatch):
    app, port = server
    games = {g.key: g for g in app.state.server.live.values()}
    for folder in ("to-root", "to-secret"):
        watched = live.watched_folders(games[keys(app)[folder]].served)
        assert {Path(p) for p, _, _ in watched} == {real(base / folder)}
    seen: list[str] = []
    touched = live.games_touched

    def recording(games, changes):
        seen.extend(path for _, path in changes)
        return touched(games, changes)

    monkeypatch.setattr(live, "games_touched", recording)
    plain = games[keys(app)["plain"]]
    before = plain.version
    (base / "secret" / "new.txt").write_text(SECRET, encoding="utf-8")     # seen through to-secret's links
    (base / "plain" / "cards.csv").touch()
    deadline = time.monotonic() + HANG_GUARD
    while not any(p.endswith("plain/cards.csv") for p in seen):
        assert time.monotonic() < deadline, f"the change was not seen: {seen}"
        time.sleep(0.05)
    assert not [p for p in seen if "new.txt" in p], seen
    while plain.building or plain.version == before:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def _wait_for(check, what: str) -> None:
    deadline = time.monotonic() + HANG_GUARD
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_game_folder_swapped_for_a_symlink_while_served_hands_out_nothing(server, base):
    app, port = server
    key = keys(app)["swapped"]
    game = app.state.server.live[key]
    folder, kept = base / "swapped", base / "swapped-real"
    assert get(port, f"/game/{key}/files/game.toml")[0] == 200
    try:
        os.rename(folder, kept)
        for target, paths in ((base / "secret", ["passwd", "cards.csv", "game.toml", "etc/passwd"]),
                              (Path("/"), ["etc/passwd", "proc/self/environ"])):
            folder.symlink_to(target)
            try:
                for path in paths + [f"%2e%2e/secret/{p}" for p in paths]:
                    assert _refused(*get(port, f"/game/{key}/files/{path}")), path
            finally:
                folder.unlink()
        os.rename(kept, folder)
        _wait_for(lambda: game.error is None and not game.building, f"not good again: {game.error}")
        # the watcher sees the swap and rebuilds: the page says where the path leads now
        os.rename(folder, kept)
        folder.symlink_to(base / "secret")
        expected = (f"Error: {folder} now leads to {real(base / 'secret')}, not to the folder kitgen serve "
                    f"started with ({real(kept.parent) / 'swapped'}); restart kitgen serve to serve what is there now")
        _wait_for(lambda: game.error == expected and not game.building, f"{game.error!r} != {expected!r}")
    finally:
        if folder.is_symlink():
            folder.unlink()
        if kept.exists():
            os.rename(kept, folder)
    assert get(port, f"/game/{key}/files/game.toml")[0] == 200
    _wait_for(lambda: game.error is None and not game.building, f"not good again: {game.error}")


def test_the_watch_takes_each_real_folder_once_and_at_most_its_bound(tmp_path, monkeypatch):
    from kitgen.web.games import ServedGame

    game = _game(tmp_path / "many", "Many")
    for i in range(12):
        (game / "art" / f"set{i:02}").mkdir(parents=True)
    (game / "art" / "again").symlink_to(game / "art" / "set00")            # inside, but a link: once
    (game / "art" / "root").symlink_to("/")
    served = ServedGame(key="many", argument=str(game), title="Many", root=real(game),
                        template_dir=game / "templates", art_dir=game / "art", builtin=False)
    paths = sorted(Path(p) for p, _, _ in live.watched_folders(served))
    assert paths == [real(game), real(game / "art")] + [real(game / "art" / f"set{i:02}") for i in range(12)]
    monkeypatch.setattr(live, "MAX_WATCHED", 5)
    assert len(live.watched_folders(served)) == 5


def test_request_targets_no_client_would_send_reach_nothing_outside(server):
    """Absolute-form targets, fragments, queries, bytes that are not UTF-8, NULs: sent on a raw socket."""
    import socket

    app, port = server
    key = keys(app)["to-secret"]
    targets = [f"http://127.0.0.1:{port}/game/{key}/files/../secret/passwd",
               f"http://127.0.0.1:{port}/game/{key}/files/art/passwd",
               f"http://attacker.example/game/{key}/files/art/passwd", "*",
               f"/game/{key}/files/%ff%fe/../../secret/passwd", f"/game/{key}/files/art/passwd#frag",
               f"/game/{key}/files/art/passwd?x=../../secret/passwd", f"/game/{key}/files/..%c0%afsecret/passwd",
               f"/game/{key}/files/art%00/passwd", f"/game/{key}/files/ART/passwd"]
    for target in targets:
        with socket.create_connection(("127.0.0.1", port), timeout=HANG_GUARD) as connection:
            connection.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
                               .encode())
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
        status = int(answer.split(b" ", 2)[1])
        assert _refused(status, answer), (target, answer[:200])


def _readlink_failing(monkeypatch, path: Path, times: int | None) -> None:
    """``os.readlink`` says ``path`` is no symlink (EINVAL) ``times`` times (None: always), as when a
    symlink is replaced by a folder between the moment the system says it is one and the moment it is read."""
    readlink, left = os.readlink, [times]

    def replaced(name, *args, **kwargs):
        if os.fspath(name) == str(path) and (left[0] is None or left[0] > 0):
            if left[0] is not None:
                left[0] -= 1
            raise OSError(errno.EINVAL, "Invalid argument", os.fspath(name))
        return readlink(name, *args, **kwargs)

    monkeypatch.setattr(os, "readlink", replaced)


def test_a_symlink_replaced_while_its_path_is_followed_is_answered_not_a_server_error(server, base, monkeypatch):
    """Following a path, the system may say a name is a symlink and then, asked where it leads, that it
    is none (a folder swapped in between): the request gets the file, or a 404 while it keeps changing."""
    app, port = server
    key = keys(app)["plain"]
    link = base / "plain" / "pictures"
    link.symlink_to("art")
    try:
        _readlink_failing(monkeypatch, link, 1)
        assert get(port, f"/game/{key}/files/pictures/note.txt") == (200, b"a file of the game")
        _readlink_failing(monkeypatch, link, None)
        status, body = get(port, f"/game/{key}/files/pictures/note.txt")
        assert status == 404 and b"Internal Server Error" not in body, (status, body)
    finally:
        monkeypatch.undo()
        link.unlink()


def test_the_watch_goes_on_when_a_folder_changes_while_it_is_walked(server, base, monkeypatch):
    """A symlink swapped while the walk follows a path (``realpath`` raises), and a folder removed between
    the walk and the watch: the watch walks again, and the next change is still built."""
    app, port = server
    plain = next(g for g in app.state.server.live.values() if Path(g.served.argument).name == "plain")
    art, realpath, walked = str(base / "plain" / "art"), os.path.realpath, live.watched_folders
    hiccups = {"swapped": 1, "gone": 1}

    def swapping(path, *args, **kwargs):
        if os.fspath(path) == art and hiccups["swapped"]:
            hiccups["swapped"] -= 1
            raise OSError(errno.EINVAL, "Invalid argument", art)
        return realpath(path, *args, **kwargs)

    def removed_before_the_watch(served, *args):
        found = walked(served, *args)
        if served is plain.served and not hiccups["swapped"] and hiccups["gone"]:
            hiccups["gone"] -= 1
            found |= {(str(base / "plain" / "gone"), 0, 0)}
        return found

    monkeypatch.setattr(os.path, "realpath", swapping)
    monkeypatch.setattr(live, "watched_folders", removed_before_the_watch)
    _wait_for(lambda: not any(hiccups.values()), f"the watch did not walk the folders again: {hiccups}")
    _wait_for(lambda: not plain.building, "still building")
    before = plain.version
    (base / "plain" / "cards.csv").touch()
    _wait_for(lambda: plain.version > before and not plain.building, "the change after the hiccups was not built")


def test_a_hidden_file_is_not_handed_out_through_a_symlink_either(server, base):
    """Hidden names (.git, .env...) are never handed out, asked for by their name or through a symlink
    of the folder that leads to them."""
    app, port = server
    key = keys(app)["plain"]
    folder = base / "plain"
    (folder / ".env").write_text(SECRET, encoding="utf-8")
    (folder / ".git").mkdir()
    (folder / ".git" / "config").write_text(SECRET, encoding="utf-8")
    links = {"env.txt": ".env", "git": ".git", "art/config.txt": "../.git/config"}
    try:
        for link, target in links.items():
            (folder / link).symlink_to(target)
        for path in (".env", ".git/config", "env.txt", "git/config", "art/config.txt"):
            assert _refused(*get(port, f"/game/{key}/files/{path}")), path
    finally:
        for link in links:
            (folder / link).unlink()
