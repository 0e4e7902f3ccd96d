"""``kitgen new``: a starter game folder that builds as it is and shows the format."""

from __future__ import annotations

from pathlib import Path

from kitgen.data.values import slugify
from kitgen.errors import OptionError
from kitgen.outputs.files import write_files

GAME_TOML = '''# {title}: a game folder for kitgen.  Edit freely, then run `kitgen build {folder}`.
title = "{title}"
subtitle = "A prototype"
players = {{ min = 2, max = 4 }}
card_size = "poker"          # poker, poker-eu, bridge, mini, tarot, square or "WxH" in mm
# rulebook = "rules.md.j2"   # a template in templates/; without it a plain rulebook is made

[back]                       # one back design, printed behind every card
title = "{title}"
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


def write_starter(path: Path, title: str | None = None) -> list[Path]:
    """Write game.toml, cards.csv and empty templates/ and art/ folders into a new folder."""
    path = Path(path)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise OptionError("PATH", f"{path} already exists and is not empty; choose a new folder")
    title = title or path.name.replace("-", " ").replace("_", " ").strip().title() or "My Game"
    if '"' in title or "\\" in title:
        raise OptionError("--title", "the title cannot contain quotes or backslashes")
    toml = GAME_TOML.format(title=title, folder=path.name or slugify(title))
    written = write_files(path, {"game.toml": toml.encode("utf-8"), "cards.csv": CARDS_CSV.encode("utf-8")},
                          option="PATH")
    for sub in ("templates", "art"):
        (path / sub).mkdir(exist_ok=True)
    return written
