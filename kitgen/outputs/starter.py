"""``kitgen new``: a game folder that builds as it is, a starter or one around a designer's sheet.

``write_starter`` writes a small example game that shows the format;
``write_from_sheet`` copies an existing card sheet into a new folder and
writes a game.toml whose ``[columns]`` table maps the headers it recognises
(with a comment for each one it leaves to templates), declares the card
types found in the sheet with colours, and adds a rulebook stub to write the
rules in.
"""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass
from pathlib import Path

from kitgen.data.columns import GUESSES, flag_columns, guess_by_content, guess_columns, implicit_column
from kitgen.data.files import look
from kitgen.data.paths import control_character
from kitgen.data.problems import Problems
from kitgen.data.sheet import TSV_SUFFIXES, XLSX_SUFFIXES, read_sheet, split_sheet_name
from kitgen.data.values import slugify, type_colors
from kitgen.errors import OptionError
from kitgen.outputs.files import replace_folder, write_files
from kitgen.outputs.quoted import comment_text, jinja_string, toml_string
from kitgen.outputs.starter_layout import FACE, starter_layout

GAME_TOML = '''# {title}: a game folder for kitgen.  Edit freely, then run `kitgen build {folder}`.
title = {title_q}
subtitle = "A prototype"
players = {{ min = 2, max = 4 }}
card_size = "poker"          # poker, poker-eu, bridge, mini, tarot, square or "WxH" in mm
# rulebook = "rules.md.j2"   # a template in templates/; without it a plain rulebook is made

[back]                       # one back design, printed behind every card
title = {title_q}
subtitle = "prototype"
color = "#264653"
accent = "#e9c46a"
text_color = "#ffffff"
# art = "back.png"           # a picture in art/, drawn under the title

# Card types: the `type` column of cards.csv names one of these keys.
[types.action]
label = "Action"
color = "#2a9d8f"

[types.resource]
label = "Resource"
color = "#e76f51"

# Table components: tokens, tiles, mats, score pads, reference cards.
[[components]]
kind = "token"
name = "First player"
text = "First player"
shape = "circle"
size = "30mm"
color = "#264653"

[[components]]
kind = "token"
name = "Coin"
shape = "circle"
size = "20mm"
color = "#e9c46a"
text_color = "#264653"
denominations = [ {{ text = "1", count = 12 }}, {{ text = "5", count = 6, color = "#f4a261" }} ]
'''

CARDS_CSV = '''name,type,count,value,text,art,flavour
Gather,action,4,1,Draw 2 cards.,,
Trade,action,3,2,"Swap 1 card with another player, then both draw 1.",,"Quotes, commas and line breaks are fine in quoted fields."
Build,action,2,3,"Pay 2 resources:
gain 3 points.",,
Wood,resource,6,,,,
Stone,resource,5,,,,
'''


def _new_folder(path: Path, title: str | None) -> tuple[Path, str]:
    """The folder to write (it must be new or empty) and the game's title."""
    path = Path(path)
    bad = control_character(str(path))
    if bad:
        raise OptionError("PATH", f"the folder's name holds the control character {bad}, and kitgen reads no game "
                          "folder named so; choose another name")
    there = look(path, f"PATH {path}")
    if there is not None and (not stat.S_ISDIR(there.st_mode) or any(path.iterdir())):
        raise OptionError("PATH", f"{path} already exists and is not empty; choose a new folder")
    if title is not None and not title.strip():
        raise OptionError("--title", "the title is blank; give the game's name, e.g. --title \"Star Traders\"")
    title = (title or path.name.replace("-", " ").replace("_", " ").strip().title() or "My Game").strip()
    check_title(title)
    return path, title


def _is_file(path: Path) -> bool:
    """Whether a regular file is at ``path``; a path the system cannot look at (a loop of links, a name too
    long) is an error naming it."""
    there = look(path, f"--from {path}")
    return there is not None and stat.S_ISREG(there.st_mode)


def check_title(title: str) -> None:
    """Refuse a title the starter could not write into game.toml or that would not print."""
    from kitgen.data.game import MAX_TITLE
    from kitgen.data.values import right_to_left
    from kitgen.render import fonts

    bad = control_character(title)
    if bad:
        raise OptionError("--title", f"the title holds the control character {bad} (a line break, a tab?); "
                          "give it on one line")
    if len(title) > MAX_TITLE:
        raise OptionError("--title", f"the title is {len(title)} characters long; at most {MAX_TITLE}")
    missing = sorted(set(fonts.missing_glyphs(title, fonts.BOLD)) | set(fonts.missing_glyphs(title)))
    if missing:
        shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing[:5])
        raise OptionError("--title", f"the font has no glyph for {shown}; leave those characters out")
    rtl = right_to_left(title)
    if rtl:
        raise OptionError("--title", rtl)


def write_starter(path: Path, title: str | None = None) -> list[Path]:
    """Write game.toml, cards.csv and empty templates/ and art/ folders into a new folder."""
    path, title = _new_folder(path, title)
    toml = GAME_TOML.format(title=title, title_q=toml_string(title), folder=path.name or slugify(title))
    written = write_files(path, {"game.toml": toml.encode("utf-8"), "cards.csv": CARDS_CSV.encode("utf-8")},
                          option="PATH")
    for sub in ("templates", "art"):
        (path / sub).mkdir(exist_ok=True)
    return written


FROM_SHEET_TOML = '''# {title}: a game folder around the card sheet {sheet}.
# Edit freely, then run `kitgen build {folder}`.
title = {title_q}
subtitle = "A prototype"
players = {{ min = 2, max = 4 }}
card_size = "poker"          # poker, poker-eu, bridge, mini, tarot, square or "WxH" in mm
rulebook = "rules.md.j2"     # templates/rules.md.j2: write your rules there
face = "{face}"                # the card face: layouts.toml, a starting design that shows the sheet's columns
data = {data_q}{data_comment}

[back]                       # one back design, printed behind every card
title = {title_q}
subtitle = "prototype"
color = "#264653"
accent = "#e9c46a"
text_color = "#ffffff"

# Which column of the sheet holds each of kitgen's card fields (headers match
# ignoring case, spaces and accents).  Fields without a column are left out:
# without count every row is one card, without type the deck has one type.
[columns]
{columns}

'''

FIELD_NOTES = {
    "name": "the card's name, printed at the top",
    "type": "the card's type: its type line and colour",
    "count": "copies of the card (without it, one card a row)",
    "value": "a short value printed in two corners",
    "text": "the effect text",
    "art": "a picture in art/ (of a web address, its file name)",
    "color": "the card's own frame colour, like #2f5da8",
    "deck": "the deck the card is printed and exported in",
}


@dataclass(frozen=True)
class MadeFromSheet:
    files: list[Path]
    sheet: str                 # the sheet as copied, e.g. "cards.xlsx#Deck"
    summary: str               # what was mapped and declared, for the command's report
    header: str = ""           # which row is the header, and why
    workbook: str = ""         # a workbook of several sheets: which one was read, and how to read another


def write_from_sheet(path: Path, sheet: str, title: str | None = None) -> MadeFromSheet:
    """Write a game folder at ``path`` around the card sheet ``sheet`` (``file.xlsx#Sheet`` for one sheet)."""
    source = Path(sheet)
    sheet_name = None
    if not _is_file(source):
        file, sheet_name = split_sheet_name(sheet)
        source = Path(file)
    if not _is_file(source):
        raise OptionError("--from", f"{sheet}: no such file")
    path, title = _new_folder(path, title)
    table = read_sheet(source, str(source), sheet_name, Problems(collect=True))
    columns = table.columns
    mapped = guess_by_content(columns, table.rows) if columns.lettered else guess_columns(columns, table.rows)
    copy = source.name if _plain_file_name(source.name) else "cards" + _suffix(source)
    data = copy + (f"#{sheet_name}" if sheet_name is not None else "")
    worked_out = _templates(columns, table.rows, mapped)
    flags = worked_out.pop("flags", None)

    lines = []
    for field in GUESSES:
        if field in worked_out:
            template, note = worked_out[field]
            lines.append(f"# {note}:")
            lines.append(f"{field} = {toml_string(template)}")
        elif field in mapped:
            lines.append(f"{field + ' = ' + toml_string(columns.names[mapped[field]]):<30} # {FIELD_NOTES[field]}")
        elif (i := implicit_column(columns, field, set(mapped.values()))) is not None:
            lines.append(f"{field + ' = ' + toml_string(''):<30} # not {toml_string(columns.names[i])}: "
                         f"its values do not suit {FIELD_NOTES[field]}")
        else:
            unmapped = f'# {field} = ""'
            lines.append(f"{unmapped:<30} # no column found for {FIELD_NOTES[field]}")
    taken = set(mapped.values()) | {i for i, _ in flags or ()}
    left = [columns.names[i] for i in columns.named() if i not in taken]
    for header in left:
        shown = toml_string(_spaced(header))
        lines.append(f"# {shown} is not mapped: templates read it as card.fields[{shown}]")
    data_comment = "" if sheet_name else "  # the card sheet; \"file.xlsx#Sheet\" names one sheet of a workbook"
    workbook = ""
    if sheet_name is None and len(table.sheets) > 1:     # the first of several: say so, and how to read another
        other = table.sheets[1]
        shown = ", ".join(repr(name) for name in table.sheets[:12]) + (", ..." if len(table.sheets) > 12 else "")
        data_comment = (f"  # the workbook's first sheet, {table.sheets[0]!r}; "
                        f"{toml_string(copy + '#' + other)} reads another")
        workbook = (f"{len(table.sheets)} sheets ({comment_text(shown)}); the game reads the first; "
                    f"data = {toml_string(copy + '#' + other)} in game.toml reads another")
    if not (table.has_header and table.header_row == 1):
        row = table.header_row if table.has_header else "false"
        data_comment += f"\nheader = {row}  # {comment_text(table.header_line)}"
    toml = FROM_SHEET_TOML.format(
        title=title, title_q=toml_string(title), sheet=comment_text(source.name), folder=path.name, face=FACE,
        data_q=toml_string(data), data_comment=data_comment, columns="\n".join(lines))
    if flags:
        types = [columns.names[i] for i, _ in flags]
        toml += _types_toml(types, [_flag_key(columns.names[i]) for i, _ in flags],
                            "# The card types, one for each column of flags.")
    else:
        types = _found_types(table, mapped.get("type"))
        toml += _types_toml(types)

    layouts = starter_layout(title, columns, table.rows, mapped, worked_out, taken, bool(types))
    files = {"game.toml": toml.encode("utf-8"), "layouts.toml": layouts.encode("utf-8"), copy: source.read_bytes(),
             "templates": {"rules.md.j2": _rulebook_stub(left).encode("utf-8")}, "art": {}}
    written = replace_folder(path, files, option="PATH")
    mapped_names = ", ".join(f for f in GUESSES if f in mapped and f not in worked_out)
    derived = ", ".join(f for f in GUESSES if f in worked_out)
    summary = (f"mapped {mapped_names or 'nothing'}" + (f"; worked out {derived} from the row" if derived else "")
               + f"; {len(types)} card {'type' if len(types) == 1 else 'types'} declared; "
               f"{len(left)} {'column' if len(left) == 1 else 'columns'} left to templates")
    return MadeFromSheet(files=written, sheet=data, summary=summary, header=table.header_line, workbook=workbook)


def _name_in_template(columns, i: int) -> str:
    """How a template reads column ``i``: by its header when that is a name, else ``fields["..."]``."""
    from kitgen.data.derived import column_namespace

    names = column_namespace(columns)
    header = columns.names[i].strip()
    if names.get(header) == i:
        return header
    for name, at in names.items():
        if at == i:
            return name
    return f"fields[{jinja_string(_spaced(columns.names[i]))}]"


def _flag_key(header: str) -> str:
    return slugify(header, "type")


def _templates(columns, rows, mapped: dict[str, int]) -> dict:
    """The fields the starter writes as templates: ``type`` from flag columns, ``name`` where rows
    lack one (or hold markup around it); ``"flags"``: the flag columns found."""
    out: dict = {}
    if "type" not in mapped:
        flags = flag_columns(columns, rows, set(mapped.values()))
        if flags:
            out["flags"] = flags
            parts = " else ".join(f"'{_flag_key(columns.names[i])}' if {_name_in_template(columns, i)} == {on!r}"
                                  for i, on in flags)
            headers = ", ".join(columns.names[i] for i, _ in flags)
            out["type"] = ("{{ " + parts + " else '' }}",
                           f"the type, from the flag columns {headers} (the first set, in this order)")
    i = mapped.get("name")
    if i is not None:
        name = _name_in_template(columns, i)
        values = [c[i].strip() if i < len(c) else "" for _, c in rows]
        if any("<" in v and ">" in v for v in values):
            out["name"] = ("{{ " + name + " | striptags }}", "the name: the text of its cell without its markup")
        elif any(not v for v in values):
            blank = sum(1 for v in values if not v)
            fallback = "'Card ' ~ row"
            if "type" in mapped:
                fallback = f"({_name_in_template(columns, mapped['type'])} or 'Card') ~ ' ' ~ row"
            out["name"] = ("{{ " + name + " or (" + fallback + ") }}",
                           f"the name; {blank} {'row has' if blank == 1 else 'rows have'} none: they are named "
                           "after their type and row")
    return out


def _plain_file_name(name: str) -> bool:
    """Whether the sheet can keep its own name in the new folder: one that game.toml's ``data`` names
    as it is (no '#', which names a sheet; no control character) and that is not game.toml or layouts.toml."""
    return "#" not in name and name not in ("game.toml", "layouts.toml") and control_character(name) is None


def _suffix(source: Path) -> str:
    """The ending that reads the sheet as it was read here: .xlsx, .xlsm, .tsv or .tab, else .csv."""
    suffix = source.suffix.lower()
    return suffix if suffix in XLSX_SUFFIXES + TSV_SUFFIXES else ".csv"


def _spaced(header: str) -> str:
    """A header with its runs of spaces, tabs and line breaks made one space: card.fields finds it
    the same (headers are compared without spaces)."""
    return " ".join(header.split())


def _found_types(table, column: int | None) -> list[str]:
    """The different non-blank values of the type column, in order of first appearance."""
    if column is None:
        return []
    seen: dict[str, str] = {}
    for _, cells in table.rows:
        value = cells[column].strip() if column < len(cells) else ""
        if value:
            seen.setdefault(value.casefold(), value)
    return list(seen.values())


def _types_toml(types: list[str], given: list[str] | None = None,
                note: str = "# The card types found in the sheet: a label for the type line and a frame colour.") -> str:
    if not types:
        return ""
    out = ["", note]
    keys: set[str] = set()
    for n, (label, color) in enumerate(zip(types, type_colors(len(types)))):
        key = base = given[n] if given is not None else slugify(label, "type")
        n = 2
        while key in keys:
            key, n = f"{base}-{n}", n + 1
        keys.add(key)
        out += [f"[types.{toml_string(key)}]", f"label = {toml_string(label)}", f"color = {toml_string(color)}", ""]
    return "\n".join(out)


STUB_NOTE = ("This rulebook is templates/rules.md.j2 in the game's folder: write the rules there in place of "
             "these notes. Headings start with # (chapter) and ## (section), lists with - or 1., and a tinted "
             "box opens with a line \"::: note Title\" and closes with a line \":::\".")


def _rulebook_stub(left: list[str]) -> str:
    """The generic rulebook template, as a start for the game's own, naming the columns it may use."""
    from kitgen.render.rulebook.template import DEFAULT_TEMPLATE

    text = DEFAULT_TEMPLATE.read_text(encoding="utf-8")
    body = text[text.index("-#}") + 3:].lstrip("\n")
    body = re.sub(r"(::: note Write your rules here\n).*?\n:::", r"\1" + STUB_NOTE + "\n:::", body, count=1, flags=re.S)
    fields = "".join(f"\n      card.fields[{toml_string(_spaced(h))}]".replace("#}", "# }") for h in left[:20])
    more = f"\n      ... and {len(left) - 20} more" if len(left) > 20 else ""
    head = ("{#- The rulebook: write your rules in place of the notes; the card tables come from the sheet.\n"
            "    In a loop over cards, the sheet's other columns read as:" + (fields + more if left else " (none)") +
            "\n-#}\n")
    return head + body
