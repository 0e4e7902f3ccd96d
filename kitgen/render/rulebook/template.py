"""Rendering a rulebook template in jinja2's sandbox.

Game folders are shared between designers, so a template is untrusted code:
it runs in an immutable sandbox, sees only plain copies of the game data
(never the :class:`~kitgen.data.model.Game` object, whose paths could be used to
read files), and its loader reads only files inside the game's template
folder.  Every problem becomes one :class:`GameDataError` naming the template
file and line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from kitgen.data.bounded_sandbox import TemplateClock, TemplateCost, TemplateTimeout, template_lines
from kitgen.data.files import look, read_regular
from kitgen.data.paths import inside
from kitgen.data.sandbox import TEMPLATE_ERRORS, environment, error_text, plain_data
from kitgen.errors import GameDataError, KitgenError, LimitError
from kitgen.render.rulebook import markup, tables
from kitgen.render.rulebook.diagrams import parse_stacks, stack_kinds
from kitgen.units import to_mm

DEFAULT_TEMPLATE = Path(__file__).resolve().parent / "default_rules.md.j2"
DEFAULT_LABEL = "default rulebook template (kitgen/render/rulebook/default_rules.md.j2)"


class OutsideTemplateFolder(jinja2.TemplateNotFound):
    """A template name that would reach outside the game folder (as written, or once symlinks are followed)."""

    def __init__(self, name: str, reason: str):
        super().__init__(name)
        self.reason = reason


@dataclass
class _Source:
    path: Path
    label: str


class FolderLoader(jinja2.BaseLoader):
    """Loads templates from one folder, through :func:`kitgen.data.files.open_inside`: ``..``, absolute
    paths, control characters and symlinks leading out of ``root`` (the game folder) are refused, and
    only regular files are read."""

    def __init__(self, folder: Path, folder_label: str, extra: dict[str, _Source] | None = None,
                 root: Path | None = None):
        self.folder = folder
        self.root = root if root is not None else folder
        self.folder_label = folder_label
        self.extra = extra or {}
        self.labels: dict[str, str] = {s.label: s.label for s in self.extra.values()}
        self.by_path: dict[str, str] = {str(s.path): s.label for s in self.extra.values()}

    def get_source(self, environment, template):
        if template in self.extra:
            source = self.extra[template]
            return self._read(source.path, source.label)
        name = template.replace("\\", "/")
        label = f"{self.folder_label}/{name}"
        try:
            path = inside(self.root, name, label, base=self.folder)
        except GameDataError as exc:
            raise OutsideTemplateFolder(template, exc.message) from None
        if look(path, label, follow=False) is None:
            raise jinja2.TemplateNotFound(template)
        return self._read(path, label)

    def _read(self, path: Path, label: str):
        raw = read_regular(path, label)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise GameDataError("not UTF-8 text; save the template as UTF-8", file=label) from None
        self.by_path[str(path)] = label
        mtime = _mtime(path)
        return text, str(path), lambda: _mtime(path) == mtime


def _mtime(path: Path) -> float | None:
    """When the file at ``path`` last changed (None: it cannot be looked at now), to tell a changed template."""
    try:
        return os.stat(path).st_mtime
    except OSError:
        return None


class _Raw(str):
    """Template-function output (block markers) that must not be escaped."""


def _finalize(value: Any) -> Any:
    if isinstance(value, _Raw):
        return value
    if value is None:
        return ""
    return markup.escape_value(value)


def _folder_label(game) -> str:
    if game.builtin:
        return f"templates/{game.slug}"
    return str(game.template_dir)


def _line_of(exc: BaseException, loader: FolderLoader) -> tuple[str, int] | None:
    for file, line in reversed(template_lines(exc.__traceback__)):
        label = loader.by_path.get(file)
        if label and line:
            return label, line
    return None


def _where(exc: BaseException, loader: FolderLoader, fallback: str) -> str:
    found = _line_of(exc, loader)
    return f"{found[0]}, line {found[1]}" if found else fallback


def render_text(game, context: dict[str, Any], inserts: list[markup.Insert]) -> tuple[str, str]:
    """(rendered text, label of the main template file)."""
    folder_label = _folder_label(game)
    extra = {}
    if game.rulebook:
        name = game.rulebook
    else:
        name = "<default>"
        extra[name] = _Source(DEFAULT_TEMPLATE, DEFAULT_LABEL)
    loader = FolderLoader(game.template_dir, folder_label, extra, game.template_root)
    main_label = extra[name].label if name in extra else f"{folder_label}/{name}"
    env = environment(loader=loader, finalize=_finalize, keep_trailing_newline=True, trim_blocks=False,
                      lstrip_blocks=True)
    clock = TemplateClock()
    try:
        template = env.get_template(name)
        text = env.render_bounded(template, context, clock)
    except TemplateTimeout as exc:
        where = _where(exc, loader, main_label)
        raise LimitError(f"template still rendering after {clock.seconds:g} s of processor time (a loop too "
                         "long?); kitgen stops a rulebook's template there (KITGEN_TEMPLATE_SECONDS)",
                         file=where) from None
    except RecursionError as exc:
        where = _where(exc, loader, main_label)
        raise GameDataError("template nested too deeply (a macro or include calling itself?)", file=where) from None
    except MemoryError as exc:
        where = _where(exc, loader, main_label)
        raise LimitError("out of memory while rendering this template (a value too large?); kitgen allows "
                         "itself KITGEN_MEMORY_MB megabytes", file=where) from None
    except TemplateCost as exc:
        raise LimitError(error_text(exc), file=_where(exc, loader, main_label)) from None
    except jinja2.TemplateSyntaxError as exc:
        label = loader.by_path.get(str(exc.filename), main_label) if exc.filename else main_label
        raise GameDataError(f"template syntax error: {exc.message}", file=f"{label}, line {exc.lineno}") from None
    except OutsideTemplateFolder as exc:
        where = _where(exc, loader, main_label)
        raise GameDataError(f"template {exc.name!r} refused: {exc.reason}", file=where) from None
    except jinja2.TemplateNotFound as exc:
        if exc.name == name:
            raise GameDataError(f"rulebook template {name!r} not found in {folder_label}/ "
                                "(game.toml names it as 'rulebook')") from None
        where = _where(exc, loader, main_label)
        raise GameDataError(f"template {exc.name!r} not found in {folder_label}/", file=where) from None
    except GameDataError as exc:           # raised by a template function (card_named, show_cards...)
        if exc.file is None:
            where = _where(exc, loader, main_label)
            raise GameDataError(str(exc), file=where) from None
        raise
    except KitgenError:
        raise
    except TEMPLATE_ERRORS as exc:         # the sandbox's refusals and bounds, undefined names, bad values
        where = _where(exc, loader, main_label)
        raise GameDataError(error_text(exc), file=where) from None
    return text, main_label


# --- what a template sees -------------------------------------------------------

def card_view(card, game) -> dict[str, Any]:
    ctype = game.types[card.type]
    return {
        "name": card.name, "type": card.type, "type_label": ctype.label, "count": card.count,
        "value": card.value, "numeric_value": card.numeric_value, "corner": card.corner, "text": card.text,
        "art": card.art, "row": card.row, "color": card.color,
        "fields": card.fields,      # read-only; what a template reads is marked as used (validate's note)
    }


def component_view(comp) -> dict[str, Any]:
    """Plain data of a typed component (token, tile, mat, score pad, reference card)."""
    view: dict[str, Any] = {"kind": comp.kind, "name": comp.name,
                            "count": getattr(comp, "total", comp.count)}
    for key in ("title", "shape", "rounds", "players", "track", "track_start", "track_step", "lines"):
        if hasattr(comp, key):
            view[key] = plain_data(getattr(comp, key))
    faces = getattr(comp, "faces", ())
    if faces:
        view["text"], view["subtitle"] = faces[0].text, faces[0].subtitle
        view["faces"] = [{"text": f.text, "subtitle": f.subtitle, "count": f.count} for f in faces]
    if hasattr(comp, "width") and hasattr(comp, "height"):
        view["width_mm"], view["height_mm"] = round(to_mm(comp.width), 1), round(to_mm(comp.height), 1)
    return view


MAX_PHASES = 16              # four rows of four boxes: the diagram stays well within a page


def _phases(phases: Any) -> list[str]:
    """The phases given to ``phase_diagram()``: a list of 1 to MAX_PHASES names."""
    if (not isinstance(phases, (list, tuple)) or not 1 <= len(phases) <= MAX_PHASES
            or not all(isinstance(p, (str, int, float)) and not isinstance(p, bool) and str(p).strip()
                       for p in phases)):
        shown = type(phases).__name__ if not isinstance(phases, (list, tuple)) else f"a list of {len(phases)}"
        raise GameDataError(f"phase_diagram(): give a list of 1 to {MAX_PHASES} phase names, e.g. "
                            f"[\"Draw\", \"Play\", \"Score\"], not {shown}")
    return [str(p).strip() for p in phases]


def build_context(game, inserts: list[markup.Insert]) -> dict[str, Any]:
    """Plain data and block functions for the template."""
    cards = [card_view(c, game) for c in game.cards]
    types = {k: {"key": k, "label": t.label, "color": t.color,
                 "count": sum(c.count for c in game.cards if c.type == k),
                 "kinds": sum(1 for c in game.cards if c.type == k)}
             for k, t in game.types.items()}
    components = [component_view(c) for c in game.components]
    game_view = {
        "title": game.title, "subtitle": game.subtitle, "slug": game.slug,
        "players": {"min": game.players_min, "max": game.players_max, "usual": game.players_usual},
        "players_min": game.players_min, "players_max": game.players_max,
        "players_text": game.players_text,
        "card_size": game.card_size, "types": types, "cards": cards, "components": components,
        "rules": plain_data(game.rules), "rulings": plain_data(game.rulings),
        "simulation": plain_data(game.raw.get("simulation", {})),
        "deck_size": game.deck_size,
        "designer": plain_data(game.raw.get("designer", "")),
        "version": plain_data(game.raw.get("version", "")),
    }

    def insert(kind: str, **args) -> _Raw:
        inserts.append(markup.Insert(kind, args))
        return _Raw(markup.marker(len(inserts) - 1))

    def cards_of_type(key: str) -> list[dict[str, Any]]:
        return [c for c in cards if c["type"] == key]

    def card_named(name: str) -> dict[str, Any]:
        for c in cards:
            if c["name"].casefold() == str(name).casefold():
                return c
        raise GameDataError(f"card_named({name!r}): no card of that name in the card sheet")

    def card_of_value(value: int, type: str | None = None) -> dict[str, Any] | None:
        for c in cards:
            if c["numeric_value"] == value and (type is None or c["type"] == type):
                return c
        return None

    def card_table(type=None, columns=None, caption="", exclude=None) -> _Raw:
        columns, exclude = plain_data(columns), plain_data(exclude)
        tables.card_table(game, type, columns, exclude)      # checked now, so an error names this line
        return insert("card_table", type=type, columns=columns, caption=str(caption), exclude=exclude)

    def show_cards(names=None, type=None, per_type=None, caption="") -> _Raw:
        cards = tables.select_cards(game, plain_data(names), plain_data(type), plain_data(per_type))
        return insert("cards", rows=[c.row for c in cards], caption=str(caption))

    def stack_diagram(before, after=None, caption="", labels=None, type=None, wild=None, word="Stack") -> _Raw:
        before, after = plain_data(before), plain_data(after)
        what = f"{str(word).lower()}_diagram"
        kinds = stack_kinds(game, plain_data(type), plain_data(wild), what)
        parse_stacks(before, f"{what}(before)", kinds, str(word).lower())
        if after is not None:
            parse_stacks(after, f"{what}(after)", kinds, str(word).lower())
        return insert("stacks", before=before, after=after, caption=str(caption), labels=plain_data(labels),
                      type=kinds.type, wild=kinds.wild, word=str(word))

    def temple_diagram(before, after=None, caption="", labels=None, type=None, wild=None) -> _Raw:
        return stack_diagram(before, after, caption, labels, type, wild, "Temple")

    return {
        "game": game_view, "cards": cards, "types": types, "components": components,
        "rules": game_view["rules"], "rulings": game_view["rulings"], "deck_size": game.deck_size,
        "cards_of_type": cards_of_type, "card_named": card_named, "card_of_value": card_of_value,
        "title_block": lambda: insert("title"),
        "component_list": lambda: insert("components"),
        "card_table": card_table,
        "show_cards": show_cards,
        "stack_diagram": stack_diagram,
        "temple_diagram": temple_diagram,
        "phase_diagram": lambda phases, caption="": insert(
            "phases", phases=_phases(phases), caption=str(caption)),
        "new_page": lambda: insert("page_break"),
    }
