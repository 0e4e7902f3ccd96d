"""The ``kitgen`` command: parse options, call the library, report.

Every command is thin: the work happens in library modules that can be used
from Python without click.  A :class:`~kitgen.errors.KitgenError` raised
anywhere becomes one ``Error: ...`` line and its exit status (2; 1 for a
worker process that failed), here and only here (``kitgen validate`` lists
every problem it found, one ``Error:`` line each).
Commands with heavy dependencies (the solver's OR-Tools) load on first use, so
``kitgen build`` starts fast.
"""

from __future__ import annotations

import importlib
import importlib.util
import signal
import sys

import click

from kitgen import settings
from kitgen.errors import KitgenError


class UserError(click.ClickException):
    exit_code = 2

    def __init__(self, message: str, exit_code: int = 2):
        super().__init__(message)
        self.exit_code = exit_code


INTERRUPTED = 130             # the shell's status for a program stopped by Ctrl-C (128 + SIGINT)


class KitgenGroup(click.Group):
    """A click group that loads some commands lazily and reports user errors in one place."""

    lazy_commands = {
        "solve": ("kitgen.cli.solve", "solve"),
        "simulate": ("kitgen.cli.simulate", "simulate"),
        "serve": ("kitgen.cli.serve", "serve"),
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

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        """click's own main, except that Ctrl-C at any moment (parsing options too) is one line and 130."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            super().main(*args, standalone_mode=False, **kwargs)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except (click.Abort, KeyboardInterrupt):
            _interrupted()
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        sys.exit(0)

    def invoke(self, ctx):
        from kitgen.outputs import interrupts

        interrupts.clear_stop()
        restore = _catch_ctrl_c()
        try:
            try:
                settings.check_all()        # the environment's settings, checked like options before any work
                return super().invoke(ctx)
            except Exception:         # a library that swallowed Ctrl-C fails later: it was still Ctrl-C
                if interrupts.stop_requested():
                    raise KeyboardInterrupt from None
                raise
        except KeyboardInterrupt:
            _interrupted()
        except KitgenError as exc:
            *first, last = exc.lines()      # several only when validate lists every problem
            for line in first:
                click.echo(f"Error: {line}", err=True)
            raise UserError(last, exc.exit_code) from None
        except click.UsageError as exc:   # a command's options: one line, like every other mistake
            where = exc.ctx.command_path if exc.ctx else ctx.command_path
            raise UserError(f"{exc.format_message()} (see '{where} --help')") from None
        finally:
            if restore is not None:
                restore()


def _interrupted():
    click.echo("Error: interrupted (Ctrl-C); nothing was left half-written", err=True)
    raise SystemExit(INTERRUPTED) from None


def _catch_ctrl_c():
    """Make Ctrl-C mark a stop (so nothing is committed after it) and raise KeyboardInterrupt; a function
    that puts the previous handling back, or None off the main thread.

    A KeyboardInterrupt raised where it cannot propagate (in a finaliser or a weakref callback, such as
    the one that forgets a finished worker process) is not printed as "Exception ignored": the stop is
    marked, and takes effect at the next check."""
    import threading

    from kitgen.outputs import interrupts

    if threading.current_thread() is not threading.main_thread():
        return None

    def on_ctrl_c(signum, frame):
        interrupts.request_stop()
        raise KeyboardInterrupt

    def unraisable(info):
        if not isinstance(info.exc_value, KeyboardInterrupt):
            hook(info)

    previous, hook = signal.signal(signal.SIGINT, on_ctrl_c), sys.unraisablehook
    sys.unraisablehook = unraisable

    def restore():
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = hook

    return restore


@click.group(cls=KitgenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kitgen")
def cli():
    """Print-and-play kits and rules solvers for tabletop card games."""


def _register() -> None:
    from kitgen.cli.calibrate import calibrate
    from kitgen.cli.export import export
    from kitgen.cli.kit import build, list_games, new, validate
    from kitgen.cli.preflight import preflight
    from kitgen.cli.preview import preview

    for command in (list_games, new, validate, build, export, preview, preflight, calibrate):
        cli.add_command(command)


_register()


def main():
    try:
        cli(prog_name="kitgen")
    finally:                      # the work is over: a Ctrl-C now changes nothing, so it cannot kill the exit
        signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    main()
