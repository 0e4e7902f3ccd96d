"""User-facing errors.

Everything a user can get wrong (a game folder, an option, a solver question)
raises a subclass of :class:`KitgenError`.  The CLI turns it into one line,
``Error: <message>``, and its :attr:`~KitgenError.exit_code` (2; 1 for
:class:`WorkerFailed`, which is not the user's mistake); nothing else should
ever reach a user as a traceback.
"""

from __future__ import annotations

MAX_LINE = 2000          # characters of one error line; a message quoting a huge key or value is cut


def shortened(text: str, limit: int = MAX_LINE) -> str:
    """``text`` with its middle left out when it is longer than ``limit``: the start says where, the end
    usually what to do, and a game folder's megabyte-long key should not become a megabyte of terminal."""
    if len(text) <= limit:
        return text
    head, tail = limit * 3 // 5, limit // 4
    return f"{text[:head]} \u2026 [{len(text) - head - tail:,} characters left out] \u2026 {text[-tail:]}"


class KitgenError(Exception):
    """A mistake in what the user gave us; the message says what and where."""

    exit_code = 2

    def lines(self) -> list[str]:
        """The message as the lines a user is shown (one, except for :class:`ProblemList`), each at most
        :data:`MAX_LINE` characters."""
        return [shortened(str(self))]


class GameDataError(KitgenError):
    """Bad content in a game folder, located by file and, where known, row and column."""

    def __init__(self, message: str, *, file: str | None = None, row: int | None = None,
                 column: str | None = None):
        self.message, self.file, self.row, self.column = message, file, row, column
        where = []
        if file:
            where.append(str(file))
        if row is not None:
            where.append(f"row {row}")
        if column:           # a column's header, or the game.toml key that works the value out ("[columns] type")
            where.append(column if column.startswith("[columns]") else f"column '{column}'")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


class LimitError(GameDataError):
    """A game asks for more than kitgen's bounds allow (cards, pages, nesting): reported at once, without
    looking for more problems (which would take as long again)."""


class OptionError(KitgenError):
    """A bad command-line option or API argument: ``option`` names it, ``message`` says what is wrong.

    The text shown to a user is ``"<option>: <message>"``; code that reports the
    problem under another name (a game.toml key, click's own option errors)
    takes :attr:`message` as it is.
    """

    def __init__(self, option: str, message: str):
        self.option, self.message = option, message
        super().__init__(f"{option}: {message}")


class LayoutError(KitgenError):
    """Geometry that cannot be laid out: a card larger than the page, an overlap larger than a part.

    :mod:`kitgen.layout` raises it with the facts (sizes, paper) and never
    names an option or key; the caller that knows where the size came from
    reports it under that name (an :class:`OptionError` for ``--card-size``,
    a :class:`GameDataError` for a game.toml key).
    """


class RenderError(KitgenError):
    """Data that is valid on its own but cannot be drawn (text too long, glyph missing)."""


class ProblemList(KitgenError):
    """Every problem found in a game at once (``kitgen validate``), shown one a line up to ``cap``."""

    def __init__(self, problems: list[KitgenError], cap: int = 50):
        self.problems, self.cap = list(problems), cap
        super().__init__("\n".join(self.lines()))

    def lines(self) -> list[str]:
        shown = [shortened(str(p)) for p in self.problems[:self.cap]]
        hidden = len(self.problems) - len(shown)
        if hidden:
            shown.append(f"... and {hidden} more {'problem' if hidden == 1 else 'problems'} "
                         f"({len(self.problems)} in all)")
        return shown


class WorkerFailed(KitgenError):
    """A worker process (rasterising pages, playing games) died or failed: one line, not a pool's traceback.

    Not the user's mistake, so the exit status is 1.
    """

    exit_code = 1
