"""Option types shared by the commands: card sizes and X,Y offsets."""

from __future__ import annotations

import click


class CardSizeType(click.ParamType):
    name = "SIZE"

    def convert(self, value, param, ctx):
        from kitgen.errors import OptionError
        from kitgen.units import card_size

        try:
            card_size(value)
        except OptionError as exc:
            self.fail(exc.message, param, ctx)
        return value


class OffsetType(click.ParamType):
    name = "X,Y"

    def convert(self, value, param, ctx):
        if isinstance(value, tuple):
            return value
        parts = str(value).split(",")
        try:
            x, y = (float(p) for p in parts)
        except ValueError:
            self.fail(f"{value!r} is not two numbers in mm such as 0.5,-1", param, ctx)
        return (x, y)
