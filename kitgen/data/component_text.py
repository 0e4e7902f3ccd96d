"""Component texts that follow the rules: a printed text of a ``[[components]]`` table may be a template.

A reference card or a score pad often repeats a rule ("Famine: -13"), and must change when
game.toml's ``[rules]`` or a ruling's default changes.  So any text of a component (a title,
a line, a note, a label) may be a jinja2 template that reads the same data the rulebook does::

    lines = [
      "6 Farm: ... Famine: -{{ rules.famine_penalty }} and the game ends.",
      "1 Calendar: pass the token {{ 'left' if rulings.calendar_clockwise.default else 'right' }}.",
    ]

and a whole number of a component (``track_start``, say) may be a template that gives one
(``"{{ rules.population_start + rules.population_growth }}"``).  The template sees ``rules``
(game.toml's ``[rules]`` table) and ``rulings`` (its ``[rulings]`` tables), as plain data and
nothing else; it runs in the bounded sandbox of every game template
(:mod:`kitgen.data.sandbox`), once, as the game loads.  A text without ``{{`` or ``{%`` is
printed as written.
"""

from __future__ import annotations

from typing import Any

from kitgen.data.bounded_sandbox import TemplateClock, TemplateTimeout, bounded_render
from kitgen.data.columns import is_template
from kitgen.data.sandbox import TEMPLATE_ERRORS, Lookup, compile_template, error_text, plain_data, shared_environment
from kitgen.errors import GameDataError, KitgenError


def context(game) -> dict[str, Any]:
    """What a component's template sees: the game's ``rules`` and ``rulings`` tables."""
    return {"rules": plain_data(game.rules), "rulings": plain_data(game.rulings)}


def fill(text: str, game, where: str, file: str, clock: TemplateClock) -> str:
    """``text`` with its template filled in from the game's rules (as written when it is none), its
    processor time counted on ``clock`` (one for all the components of a game); a mistake in it raises
    one GameDataError naming ``where`` (the component and key)."""
    if not is_template(text):
        return text
    try:
        template, _, _ = compile_template(shared_environment(), text)   # kept for the process, as layouts' are
        if template.__class__ is Lookup:                          # one value looked up: nothing to bound
            return template.render(context(game))
        with bounded_render(), clock:
            return template.render(context(game))
    except KitgenError:
        raise
    except TemplateTimeout:
        raise GameDataError(f"{where}: template still rendering after {clock.seconds:g} s of processor time (a "
                            "loop too long?); kitgen stops a game's templates there (KITGEN_TEMPLATE_SECONDS)",
                            file=file) from None
    except MemoryError:
        raise GameDataError(f"{where}: out of memory while rendering its template (a value too large?)",
                            file=file) from None
    except RecursionError:
        raise GameDataError(f"{where}: template error: nested too deeply", file=file) from None
    except TEMPLATE_ERRORS as exc:
        raise GameDataError(f"{where}: {error_text(exc)}", file=file) from None
