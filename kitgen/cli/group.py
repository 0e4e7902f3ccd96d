"""The ``kitgen`` command: parse options, call the library, report.

Every command is thin: the work happens in library modules that can be used
from Python without click.  A :class:`~kitgen.errors.KitgenError` raised
anywhere becomes one ``Error: ...`` line and exit status 2, here and only here
(``kitgen validate`` lists every problem it found, one ``Error:`` line each).
Commands with heavy dependencies (the solver's OR-Tools) load on first use, so
``kitgen build`` starts fast.
"""

from __future__ import annotations

import importlib
import importlib.util

import click

from kitgen.errors import KitgenError


class UserError(click.ClickException):
    exit_code = 2


class KitgenGroup(click.Group):
    """A click group that loads some commands lazily and reports user errors in one place."""

    lazy_commands = {
        "solve": ("kitgen.cli.solve", "solve"),
        "simulate": ("kitgen.cli.simulate", "simulate"),
    }

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self._available_lazy()))

    def _available_lazy(self):
        return [name for name, (module, _) in self.lazy_commands.items()
                if importlib.util.find_spec(module) is not None]

    def get_command(self, ctx, name):
        command = super().get_command(ctx, name)
        if command is None and name in self._available_lazy():
            module, attr = self.lazy_commands[name]
            command = getattr(importlib.import_module(module), attr)
        return command

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except KitgenError as exc:
            *first, last = exc.lines()      # several only when validate lists every problem
            for line in first:
                click.echo(f"Error: {line}", err=True)
            raise UserError(last) from None
        except click.UsageError as exc:   # a command's options: one line, like every other mistake
            where = exc.ctx.command_path if exc.ctx else ctx.command_path
            raise UserError(f"{exc.format_message()} (see '{where} --help')") from None


@click.group(cls=KitgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kitgen")
def cli():
    """Print-and-play kits and rules solvers for tabletop card games."""


def _register() -> None:
    from kitgen.cli.calibrate import calibrate
    from kitgen.cli.export import export
    from kitgen.cli.kit import build, list_games, new, validate

    for command in (list_games, new, validate, build, export, calibrate):
        cli.add_command(command)


_register()


def main():
    cli(prog_name="kitgen")


if __name__ == "__main__":
    main()
