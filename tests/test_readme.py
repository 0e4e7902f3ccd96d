"""The README and `kitgen --help` agree: every command and option the README names exists,
and the README names every command and option of the CLI.

Where the README names them:
- the block under "## Commands" has one `kitgen NAME ...` line per command;
- a table after the line "Options of `kitgen NAME`:" lists, in its first column, every
  option of that command and no other;
- an option of a command without such a table is named in code, either in a `kitgen NAME ...`
  line or span, or as a span of its own (`--name ...`) in a "## " section that shows the
  command in code and holds no other command's options table;
- every option in a `kitgen NAME ...` line or span is one of that command's, and every
  span of its own (`--name ...`) names an option of a command its section shows (for
  `kitgen solve`, the options named after a registered engine's position fields count too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kitgen.cli.group import cli

README = Path(__file__).resolve().parent.parent / "README.md"
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
EVERYWHERE = {"--help"}        # every command has it


# --- the CLI, as --help shows it ------------------------------------------------------------

def help_text(*command: str) -> str:
    result = CliRunner().invoke(cli, [*command, "--help"], prog_name="kitgen")
    assert result.exit_code == 0, result.output
    return result.output


def help_options(text: str) -> set[str]:
    """The long options in the option column of a --help text's "Options:" list."""
    listed = text.split("\nOptions:\n", 1)[1].split("\n\n", 1)[0]
    found = set()
    for line in listed.splitlines():
        column = re.match(r"  (-.*?)(?:\s{2,}|$)", line)
        if column:
            found |= set(OPTION.findall(column.group(1)))
    return found - EVERYWHERE


def declared_options(command: click.Command) -> set[str]:
    return {name for param in command.params if isinstance(param, click.Option) and not param.hidden
            for name in param.opts + param.secondary_opts if name.startswith("--")}


@dataclass(frozen=True)
class Cli:
    commands: dict[str, set[str]]      # command -> its long options, as --help lists them
    group: set[str]                    # options of `kitgen` itself
    fields: set[str] = frozenset()     # `kitgen solve`'s options named after the engines' position fields


def position_field_options() -> set[str]:
    """The options `kitgen solve GAME` takes from the position fields of every registered engine."""
    from solver.engines import ENGINES, get_engine

    return {f"--{field['name']}" for key in ENGINES for field in get_engine(key).position_fields()}


@pytest.fixture(scope="module")
def kitgen() -> Cli:
    ctx = click.Context(cli, info_name="kitgen")
    names = [name for name in cli.list_commands(ctx) if not cli.get_command(ctx, name).hidden]
    listed = help_text().split("\nCommands:\n", 1)[1]
    commands = {}
    for name in names:
        assert re.search(rf"^  {re.escape(name)}\b", listed, re.M), f"kitgen --help does not list {name}"
        options = help_options(help_text(name))
        assert options == declared_options(cli.get_command(ctx, name)), name   # the help text is read right
        commands[name] = options
    return Cli(commands, help_options(help_text()), position_field_options())


# --- the README, read as a newcomer reads it --------------------------------------------------

@dataclass
class Section:
    title: str
    runs: list[tuple[str | None, set[str]]] = field(default_factory=list)   # `kitgen NAME ...`: (NAME, options)
    named: set[str] = field(default_factory=set)        # options in code spans of their own: `--name ...`
    tables: dict[str, set[str]] = field(default_factory=dict)   # "Options of `kitgen NAME`:" -> first column
    blocks: list[list[str]] = field(default_factory=list)       # lines of the fenced code blocks

    def shows(self) -> set[str]:
        return {name for name, _ in self.runs if name}


def kitgen_run(code: str) -> tuple[str | None, set[str]]:
    """(command, options) of code that runs kitgen; the command is None for `kitgen --version`
    and for a placeholder such as COMMAND."""
    words = code.split()[1:]
    name = next((w for w in words if not w.startswith("-")), None)
    if name is not None and (name.isupper() or not re.fullmatch(r"[a-z][a-z-]*", name)):
        name = None
    return name, set(OPTION.findall(code))


def read_readme(text: str) -> list[Section]:
    sections = []
    for title, body in re.findall(r"^## ([^\n]+)\n(.*?)(?=^## |\Z)", text, re.M | re.S):
        section = Section(title.strip())
        fenced = re.findall(r"^```[^\n]*\n(.*?)^```", body, re.M | re.S)
        section.blocks = [block.splitlines() for block in fenced]
        prose = re.sub(r"^```.*?^```", "", body, flags=re.M | re.S)
        for line in (line.strip() for block in section.blocks for line in block):
            if line.startswith("kitgen "):
                section.runs.append(kitgen_run(line.split("  #")[0]))
        for span in re.findall(r"`([^`]+)`", prose):
            span = " ".join(span.split())
            if span.startswith("kitgen "):
                section.runs.append(kitgen_run(span))
            elif span.startswith("--"):
                section.named |= set(OPTION.findall(span.split()[0]))
        for name, table in re.findall(r"^Options of `kitgen ([a-z][a-z-]*)`:\n\n((?:\|.*\n)+)", prose, re.M):
            rows = table.splitlines()[2:]          # under the header and its --- line
            section.tables[name] = {option for row in rows for option in OPTION.findall(row.split("|")[1])}
        sections.append(section)
    return sections


@pytest.fixture(scope="module")
def readme() -> list[Section]:
    return read_readme(README.read_text(encoding="utf-8"))


def listed_commands(sections: list[Section]) -> list[str]:
    (commands,) = [s for s in sections if s.title == "Commands"]
    assert commands.blocks, "the Commands section has no code block"
    return [line.split()[1] for line in commands.blocks[0] if line.startswith("kitgen ")]


# --- the checks -------------------------------------------------------------------------------

def test_the_commands_block_lists_every_command_once(kitgen, readme):
    listed = listed_commands(readme)
    assert len(listed) == len(set(listed)), f"README lists a command twice: {listed}"
    assert sorted(set(listed) - set(kitgen.commands)) == [], "README's Commands block names commands kitgen lacks"
    assert sorted(set(kitgen.commands) - set(listed)) == [], "add these commands to README's Commands block"


def test_every_options_table_lists_exactly_the_command_options(kitgen, readme):
    tables = [(name, table) for section in readme for name, table in section.tables.items()]
    assert tables, "README has no 'Options of `kitgen NAME`:' table"
    assert len({name for name, _ in tables}) == len(tables), "a command has two options tables"
    for name, table in tables:
        assert name in kitgen.commands, f"README has an options table for 'kitgen {name}', which does not exist"
        assert sorted(table - kitgen.commands[name]) == [], f"kitgen {name} has no such options (README table)"
        assert sorted(kitgen.commands[name] - table) == [], f"add these options to README's kitgen {name} table"


def test_every_option_without_a_table_is_named_where_its_command_is_shown(kitgen, readme):
    tabled = {name for section in readme for name in section.tables}
    for name, options in kitgen.commands.items():
        if name in tabled:
            continue
        named = {option for section in readme for command, run in section.runs if command == name
                 for option in run}
        named |= {option for section in readme if name in section.shows() and set(section.tables) <= {name}
                  for option in section.named}
        missing = sorted(options - named)
        assert missing == [], (f"README does not name these options of kitgen {name}: {missing}; name them in a "
                               f"section that shows `kitgen {name} ...` or add an 'Options of `kitgen {name}`:' table")


def test_the_group_options_are_shown(kitgen, readme):
    shown = {option for section in readme for command, run in section.runs if command is None for option in run}
    assert sorted(kitgen.group - shown) == [], "show these as `kitgen --OPTION` in README"


def test_every_command_and_option_the_readme_names_exists(kitgen, readme):
    for section in readme:
        for name, options in section.runs:
            if name is not None:
                assert name in kitgen.commands, f"README section '{section.title}' runs kitgen {name}, no such command"
            known = kitgen.commands[name] if name is not None else set().union(kitgen.group, *kitgen.commands.values())
            if name == "solve":
                known = known | kitgen.fields
            assert sorted(options - known - EVERYWHERE) == [], \
                f"README section '{section.title}': kitgen {name or ''} has no such options"
        known = set().union(EVERYWHERE, kitgen.group, *(kitgen.commands[n] for n in section.shows()),
                            kitgen.fields if "solve" in section.shows() else set())
        assert sorted(section.named - known) == [], \
            f"README section '{section.title}' names options that none of {sorted(section.shows())} has"


def test_set_up_is_two_commands_and_the_second_installs_what_the_tests_need(readme):
    """A newcomer runs two commands: one installs kitgen and builds a kit, one installs what the tests
    need (their Python packages, and the programs they run when those are missing) and runs them."""
    from tests.conftest import CHROMIUM_NAME

    (setup,) = [s for s in readme if s.title == "Set up"]
    assert setup.blocks == [["pip install -e . && kitgen build altun-ha"], ["bash .ci/run"]]
    script = [line.split(" #")[0].strip() for line in (README.parent / ".ci" / "run").read_text().splitlines()
              if not line.lstrip().startswith("#")]
    programs = next(line for line in script if line.startswith("programs=("))[len("programs=("):-1].split()
    run = {CHROMIUM_NAME}                   # the programs the tests run or look for by name
    for test in README.parent.joinpath("tests").glob("*.py"):
        run |= set(re.findall(r'(?:subprocess\.\w+\(\[|shutil\.which\()"([\w.+-]+)"', test.read_text(encoding="utf-8")))
    assert sorted(run - set(programs)) == [], "have .ci/run install these programs the tests run when they are missing"
    install = next(i for i, line in enumerate(script) if line.startswith('"${as_root[@]}" env DEBIAN_FRONTEND'))
    tests = script.index('pytest "$@"')
    packages = next(i for i, line in enumerate(script) if line.startswith("{ python -m uv --version"))
    fallback = script.index('|| python -m pip install -q -e ".[test]"')
    with_uv = " ".join(script[packages:fallback])            # offline first, then asking the index
    assert with_uv.count('uv pip install -q') == 2 and with_uv.count('-e ".[test]"') == 2 and "--offline" in with_uv
    assert install < packages < fallback < tests == len(script) - 1


# --- the reading itself ----------------------------------------------------------------------

SAMPLE = """\
## Commands

```text
kitgen list          the games
kitgen build GAME    build one
```

`kitgen COMMAND --help` lists options; `kitgen --version` the version.

Options of `kitgen build`:

| option | default | meaning |
| --- | --- | --- |
| `--out DIR` | `output` | where |
| `--crop-marks`, `--no-crop-marks` | on | marks, not `--paper` |

## Playing

```sh
kitgen simulate altun-ha --games 10   # --seed in a comment is not an option
```

Pass `--seed N`, or see `pip install --upgrade`; `kitgen new my-game` writes one.
"""


def test_the_readme_reader_finds_commands_tables_and_named_options():
    commands, playing = read_readme(SAMPLE)
    assert listed_commands([commands]) == ["list", "build"]
    assert commands.tables == {"build": {"--out", "--crop-marks", "--no-crop-marks"}}
    assert (None, {"--help"}) in commands.runs and (None, {"--version"}) in commands.runs
    assert commands.shows() == {"list", "build"}
    assert playing.runs == [("simulate", {"--games"}), ("new", set())]
    assert playing.named == {"--seed"}


def test_the_game_toml_example_uses_only_keys_kitgen_reads():
    """The example of "### game.toml" sets every key where kitgen reads it (a key written below a
    [table] header belongs to that table)."""
    import tomllib

    from kitgen.data.columns import FIELDS
    from kitgen.data.game import BACK_KEYS, TOP_LEVEL_KEYS, TYPE_KEYS
    from kitgen.data.rulings import parse_rulings

    example = re.search(r"^### game\.toml\n+```toml\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)
    assert example, "README has no game.toml example under '### game.toml'"
    data = tomllib.loads(example.group(1))
    assert sorted(set(data) - TOP_LEVEL_KEYS) == []
    assert sorted(set(data["back"]) - BACK_KEYS) == []
    assert all(set(spec) <= TYPE_KEYS for spec in data["types"].values())
    assert sorted(set(data["columns"]) - set(FIELDS)) == []
    assert [r.name for r in parse_rulings(data["rulings"], "README")] == list(data["rulings"])
