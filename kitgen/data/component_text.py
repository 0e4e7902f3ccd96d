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

from functools import lru_cache
from typing import Any

from kitgen.data.bounded_sandbox import MAX_SECONDS, TemplateTimeout
from kitgen.data.sandbox import TEMPLATE_ERRORS, compile_template, environment, error_text, plain_data
from kitgen.errors import GameDataError, KitgenError


@lru_cache(maxsize=1)
def _environment():
    return environment()


def is_template(text: Any) -> bool:
    return isinstance(text, str) and ("{{" in text or "{%" in text)


def context(game) -> dict[str, Any]:
    """What a component's template sees: the game's ``rules`` and ``rulings`` tables."""
    return {"rules": plain_data(game.rules), "rulings": plain_data(game.rulings)}


def fill(text: str, game, where: str, file: str) -> str:
    """``text`` with its template filled in from the game's rules (as written when it is none);
    a mistake in it raises one GameDataError naming ``where`` (the component and key)."""
    if not is_template(text):
        return text
    env = _environment()
    try:
        template, _, _ = compile_template(env, text)      # kept for the process, as layouts' templates are
        if hasattr(template, "generate"):                  # jinja2's: rendered within the sandbox's bounds
            return template.environment.render_bounded(template, context(game))
        return template.render(context(game))            # a plain look-up of one value
    except KitgenError:
        raise
    except TEMPLATE_ERRORS as exc:
        raise GameDataError(f"{where}: {error_text(exc)}", file=file) from None
    except RecursionError:
        raise GameDataError(f"{where}: template error: nested too deeply", file=file) from None
    except TemplateTimeout:
        raise GameDataError(f"{where}: template still rendering after {MAX_SECONDS:g} s (a loop too long?)",
                            file=file) from None
