"""Hostile and broken game folders: each ends in one clear ``Error:`` line, never hangs, and leaves the
previous kit untouched byte for byte.

Each folder under tests/hostile/ is one case: ``expect.txt`` holds text the
error must contain, and the folder's files are laid over a small good game
(``game.toml.top`` replaces the top-level keys of its game.toml,
``game.toml.append`` is added at its end, other files replace the game's).
What cannot or should not live in the repository (symlinks to ``/``,
FIFOs, decompression bombs, TOML nested 5,000 levels, 100,000 rows) is made at
test time by :data:`MAKERS`.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest

from kitgen.errors import MAX_LINE
from tests.conftest import run, run_guarded

HOSTILE = Path(__file__).resolve().parent / "hostile"
CASES = sorted(p.name for p in HOSTILE.iterdir() if p.is_dir())
LINKED_FOLDERS = ("templates", "art", "icons", "fonts")

TOP = 'title = "Hostile"\n'
BODY = '''players = "2-4"

[types.action]
label = "Action"
color = "#2a9d8f"
'''
CARDS = "name,type,count,art\nGather,action,2,\nTrade,action,1,\n"


def _png(width: int, height: int, body: bytes | None = None) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)      # 1-bit grey: a small file
    if body is None:
        row = b"\x00" + b"\x00" * ((width + 7) // 8)
        compressor = zlib.compressobj(9)
        body = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def _uses_art(game: Path, name: str) -> None:
    (game / "cards.csv").write_text(f"name,type,count,art\nGather,action,1,{name}\n", encoding="utf-8")


def _outside(game: Path) -> Path:
    outside = game.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.csv").write_text("name,type,count\nSecret,action,1\n", encoding="utf-8")
    (outside / "secret.png").write_bytes(_png(8, 8))
    return outside


def _templates_to_root(game: Path) -> None:
    """The attack of the report: templates/ is a symlink to /, and the rulebook is named through
    /proc/self/cwd back into the game folder, where it includes /etc/passwd."""
    (game / "rb").mkdir()
    (game / "rb" / "rules.md.j2").write_text('# Rules\n\n{% include "etc/passwd" %}\n', encoding="utf-8")
    shutil.rmtree(game / "templates", ignore_errors=True)
    (game / "templates").symlink_to("/")
    rel = os.path.relpath(game, Path.cwd())
    (game / "game.toml").write_text(TOP + f'rulebook = "proc/self/cwd/{rel}/rb/rules.md.j2"\n' + BODY,
                                    encoding="utf-8")


def _art_elsewhere(game: Path) -> None:
    outside = _outside(game)
    shutil.rmtree(game / "art", ignore_errors=True)
    (game / "art").symlink_to(outside)
    _uses_art(game, "secret.png")


def _icons_to_root(game: Path) -> None:
    (game / "icons").symlink_to("/")


def _fonts_elsewhere(game: Path) -> None:
    (game / "fonts").symlink_to(_outside(game))


def _every_folder_to_root(game: Path) -> None:
    """What a web server must not hand out: each folder a game reads from is a way to / ."""
    for name in LINKED_FOLDERS:
        shutil.rmtree(game / name, ignore_errors=True)
        (game / name).symlink_to("/")


def _cards_outside(game: Path) -> None:
    outside = _outside(game)
    (game / "cards.csv").unlink()
    (game / "cards.csv").symlink_to(outside / "secret.csv")


def _symlink_chain(game: Path) -> None:
    outside = _outside(game)
    (game / "art" / "c.png").symlink_to(outside / "secret.png")
    (game / "art" / "b.png").symlink_to("c.png")
    (game / "art" / "a.png").symlink_to("b.png")
    _uses_art(game, "a.png")


def _nul(game: Path) -> None:
    _uses_art(game, "gat\x00her.png")


def _fifo_toml(game: Path) -> None:
    (game / "game.toml").unlink()
    os.mkfifo(game / "game.toml")


def _folder_cards(game: Path) -> None:
    (game / "cards.csv").unlink()
    (game / "cards.csv").mkdir()


def _fifo_art(game: Path) -> None:
    os.mkfifo(game / "art" / "gather.png")
    _uses_art(game, "gather.png")


def _truncated(game: Path) -> None:
    whole = _png(64, 64, zlib.compress(bytes(range(256)) * 200))
    (game / "art" / "gather.png").write_bytes(whole[:len(whole) // 2])
    _uses_art(game, "gather.png")


@functools.cache
def _bomb_png() -> bytes:
    return _png(30_000, 30_000)        # 900 megapixels in some 100 kB (made once: compressing it takes 0.4 s)


def _bomb(game: Path, name: str = "gather.png") -> None:
    (game / "art" / name).write_bytes(_bomb_png())
    if name == "gather.png":
        _uses_art(game, name)


def _deep_arrays(game: Path) -> None:
    with open(game / "game.toml", "a", encoding="utf-8") as fh:
        fh.write("\n[rules]\nnested = " + "[" * 5000 + "]" * 5000 + "\n")


def _deep_layouts(game: Path) -> None:
    (game / "layouts.toml").write_text("[layouts.deep]\nvars = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")


def _deep_dotted(game: Path) -> None:
    text = (game / "game.toml").read_text(encoding="utf-8")
    (game / "game.toml").write_text(text.replace(TOP, TOP + ".".join(["a"] * 5000) + " = 1\n"), encoding="utf-8")


def _long_word(game: Path) -> None:
    """A comment of one word of 50,000 letters (the check for deep dotted keys once took 30 s over it)."""
    text = (game / "game.toml").read_text(encoding="utf-8")
    (game / "game.toml").write_text(text.replace(TOP, TOP + "# " + "x" * 50_000 + "\n"), encoding="utf-8")


def _huge_key(game: Path) -> None:
    """An unknown key of a million letters: refused in one line of at most MAX_LINE characters."""
    text = (game / "game.toml").read_text(encoding="utf-8")
    (game / "game.toml").write_text(text.replace(TOP, TOP + "k" * 1_000_000 + " = 1\n"), encoding="utf-8")


def _rows(count: int):
    def make(game: Path) -> None:
        with open(game / "cards.csv", "w", encoding="utf-8") as fh:
            fh.write("name,type,count\n")
            fh.writelines(f"Card {i},action,1\n" for i in range(count))
    return make


def _fifo(name: str, uses=None):
    """A named pipe in place of ``name`` (and what makes the game read it)."""
    def make(game: Path) -> None:
        path = game / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.unlink()
        os.mkfifo(path)
        if uses is not None:
            uses(game)
    return make


def _folder_in_place(name: str, uses=None):
    def make(game: Path) -> None:
        (game / name).mkdir(parents=True)
        if uses is not None:
            uses(game)
    return make


def _rulebook(game: Path) -> None:
    text = (game / "game.toml").read_text(encoding="utf-8")
    (game / "game.toml").write_text(text.replace(TOP, TOP + 'rulebook = "rules.md.j2"\n'), encoding="utf-8")


def _face(game: Path, name: str) -> None:
    with open(game / "game.toml", "a", encoding="utf-8") as fh:      # [types.action] is the last table
        fh.write(f'face = "{name}"\n')


def _icon_in_text(game: Path) -> None:
    (game / "cards.csv").write_text("name,type,count,text\nGather,action,1,Take :coin:\n", encoding="utf-8")


def _font_named(game: Path) -> None:
    (game / "layouts.toml").write_text('[layouts.own]\nextends = "kitgen"\n\n[layouts.own.boxes.title]\n'
                                       'font = "Fifo"\n', encoding="utf-8")
    _face(game, "own")


def _extends_chain(count: int):
    def make(game: Path) -> None:
        lines = []
        for i in range(count):
            parent = "kitgen" if i == 0 else f"l{i - 1}"
            lines.append(f'[layouts.l{i}]\nextends = "{parent}"\n')
        (game / "layouts.toml").write_text("\n".join(lines), encoding="utf-8")
        _face(game, f"l{count - 1}")
    return make


def _many_boxes(count: int):
    """A layout of ``count`` boxes, each placed by the one before; the last names a box that is not there."""
    def make(game: Path) -> None:
        lines = ['[layouts.many]\nextends = "kitgen"\n']
        for i in range(count):
            x = "1mm" if i == 0 else ("nowhere.right" if i == count - 1 else f"b{i - 1}.x")
            lines.append(f'[layouts.many.boxes.b{i}]\nkind = "rect"\nx = "{x}"\nw = "1mm"\nh = "1mm"\n')
        (game / "layouts.toml").write_text("\n".join(lines), encoding="utf-8")
        _face(game, "many")
    return make


def _nested_length(depth: int):
    def make(game: Path) -> None:
        (game / "layouts.toml").write_text('[layouts.deep]\nextends = "kitgen"\n\n[layouts.deep.boxes.title]\n'
                                           f'x = "{"(" * depth}1mm{")" * depth}"\n', encoding="utf-8")
        _face(game, "deep")
    return make


def _long_names(length: int, count: int):
    def make(game: Path) -> None:
        with open(game / "cards.csv", "w", encoding="utf-8") as fh:
            fh.write("name,type,count\n")
            fh.writelines(f"{i:05d}{'W' * (length - 5)},action,1\n" for i in range(count))
    return make


def _symlink_loop(game: Path) -> None:
    (game / "art" / "loop.png").symlink_to("loop.png")
    _uses_art(game, "loop.png")


def _svg(body: str):
    def make(game: Path) -> None:
        (game / "icons").mkdir(exist_ok=True)
        (game / "icons" / "bad.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                                 + body + "</svg>", encoding="utf-8")
    return make


MAKERS = {
    "svg-30000-elements": _svg('<rect width="1" height="1"/>' * 30_000),
    "svg-icon-two-megabytes": _svg("<!--" + "x" * 2_000_000 + "-->"),
    "rulebook-fifo": _fifo("templates/rules.md.j2", _rulebook),
    "rulebook-is-a-folder": _folder_in_place("templates/rules.md.j2", _rulebook),
    "icon-fifo": _fifo("icons/coin.png", _icon_in_text),
    "font-fifo": _fifo("fonts/Fifo.ttf", _font_named),
    "layouts-toml-fifo": _fifo("layouts.toml"),
    "cards-csv-fifo": _fifo("cards.csv"),
    "art-is-a-folder": _folder_in_place("art/gather.png", lambda game: _uses_art(game, "gather.png")),
    "art-symlink-loop": _symlink_loop,
    "art-name-300-characters": lambda game: _uses_art(game, "a" * 296 + ".png"),
    "layout-extends-chain-1000": _extends_chain(1000),
    "layout-20000-boxes": _many_boxes(20_000),
    "layout-length-nested-400-deep": _nested_length(400),
    "name-30000-characters": _long_names(30_000, 200),
    "templates-symlink-to-root": _templates_to_root,
    "art-folder-symlinked-elsewhere": _art_elsewhere,
    "icons-symlink-to-root": _icons_to_root,
    "fonts-symlink-elsewhere": _fonts_elsewhere,
    "every-folder-symlinked-to-root": _every_folder_to_root,
    "cards-csv-symlinked-outside": _cards_outside,
    "art-symlink-chain": _symlink_chain,
    "art-name-with-nul": _nul,
    "game-toml-fifo": _fifo_toml,
    "cards-csv-is-a-folder": _folder_cards,
    "art-fifo": _fifo_art,
    "art-truncated": _truncated,
    "art-decompression-bomb": _bomb,
    "back-art-bomb": lambda game: _bomb(game, "bomb.png"),
    "toml-nested-5000-arrays": _deep_arrays,
    "toml-nested-5000-dotted-keys": _deep_dotted,
    "toml-line-of-one-long-word": _long_word,
    "toml-key-of-a-million-letters": _huge_key,
    "layouts-toml-nested-5000-arrays": _deep_layouts,
    "cards-100000-rows": _rows(100_000),
    "kit-too-many-pages": _rows(19_000),
}


def make_case(name: str, folder: Path) -> Path:
    """The game folder of case ``name``: the good game with the case's files laid over it."""
    case = HOSTILE / name
    folder.mkdir(parents=True)
    (folder / "templates").mkdir()
    (folder / "art").mkdir()
    top = (case / "game.toml.top").read_text(encoding="utf-8") if (case / "game.toml.top").exists() else TOP
    append = (case / "game.toml.append").read_text(encoding="utf-8") if (case / "game.toml.append").exists() else ""
    (folder / "game.toml").write_text(top + BODY + append, encoding="utf-8")
    (folder / "cards.csv").write_text(CARDS, encoding="utf-8")
    for path in sorted(case.rglob("*")):
        rel = path.relative_to(case)
        if path.is_file() and rel.name not in ("expect.txt", "game.toml.top", "game.toml.append"):
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, folder / rel)
    if name in MAKERS:
        MAKERS[name](folder)
    return folder


@pytest.fixture(scope="module")
def previous_kit(tmp_path_factory) -> Path:
    """A good kit built once, copied under each case's --out before the case runs."""
    out = tmp_path_factory.mktemp("previous")
    game = make_case("art-empty", tmp_path_factory.mktemp("good") / "game")
    (game / "cards.csv").write_text(CARDS, encoding="utf-8")
    result = run("build", game, "--out", out)
    assert result.exit_code == 0, result.output
    return out


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", CASES)
def test_a_hostile_folder_is_one_clear_line_and_leaves_the_previous_kit(name, previous_kit, tmp_path, monkeypatch):
    expect = (HOSTILE / name / "expect.txt").read_text(encoding="utf-8").strip()
    if name.endswith("endless-loop"):
        monkeypatch.setenv("KITGEN_TEMPLATE_SECONDS", "0.1")    # the same watchdog, sooner
    game = make_case(name, tmp_path / "game")
    out = tmp_path / "out"
    shutil.copytree(previous_kit, out)
    before = _tree(out)
    monkeypatch.chdir(tmp_path.parent if name == "templates-symlink-to-root" else Path.cwd())
    result = run_guarded("build", game, "--out", out)      # a hang (a FIFO read, say) fails the test
    lines = result.output.splitlines()
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("Error: ") and expect in lines[0], result.output[:3000]
    assert len(lines[0]) <= len("Error: ") + MAX_LINE
    assert _tree(out) == before
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in previous_kit.iterdir())
    for secret in ("root:", "Secret,action", "PATH="):          # nothing read from outside shows
        assert secret not in result.output
    check = run_guarded("validate", game)
    assert check.exit_code == 2 and expect in check.output, check.output[:3000]
    assert all(len(line) <= len("Error: ") + MAX_LINE for line in check.output.splitlines())
    assert "Traceback" not in check.output
    assert _said(check.output.splitlines()[0]) == _said(lines[0])      # validate finds what build finds, first


_MORE = re.compile(r" \(and \d[\d,]* more problems?: `kitgen validate .*` lists them all\)$")


def _said(line: str) -> str:
    """An error line without what build adds to it (how many more problems validate lists), and without
    the end of a line cut short (where that count would be)."""
    head, cut, _ = line.partition(" \u2026 [")
    return head if cut else _MORE.sub("", line)


LINK_CASES = [name for name in CASES if "symlink" in name]
OUTSIDE_PROBES = ("etc/passwd", "proc/self/environ", "secret.csv", "secret.png", "outside/secret.csv")


@pytest.mark.parametrize("name", LINK_CASES)
def test_kitgen_serve_hands_out_nothing_outside_a_hostile_folder(name, tmp_path, monkeypatch):
    """The web server's file route and its watcher keep to the folder as the build does, through every
    symlink the case makes."""
    from kitgen.data.paths import real
    from kitgen.web.games import ServedGame
    from kitgen.web.live import watched_folders

    monkeypatch.chdir(tmp_path.parent if name == "templates-symlink-to-root" else Path.cwd())
    game = make_case(name, tmp_path / "game")
    served = ServedGame(key="game", argument=str(game), title="Hostile", root=real(game),
                        template_dir=game / "templates", art_dir=game / "art", builtin=False)
    links = [p.relative_to(game).as_posix() for p in game.rglob("*") if p.is_symlink()]
    assert links, "the case makes no symlink"
    asked = [f"{link}/{probe}" for link in links + list(LINKED_FOLDERS) for probe in OUTSIDE_PROBES] + links
    def handed_out(path: str) -> bytes | None:
        fd = served.open(path)
        if fd is None:
            return None
        with os.fdopen(fd, "rb") as file:
            return file.read()

    for path in asked:
        data = handed_out(path)
        target = real(game / path)
        assert data is None or target.is_relative_to(real(game)), f"{path} handed out {target}"
    assert handed_out("game.toml") == (game / "game.toml").read_bytes()        # the folder itself is served
    watched = {Path(path) for path, _, _ in watched_folders(served)}
    assert real(game) in watched and all(p.is_relative_to(real(game)) for p in watched), watched
