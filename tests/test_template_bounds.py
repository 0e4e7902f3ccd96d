"""The sandbox's bounds on what one render makes in all and on how deep a template nests, and the watchdog
as a build meets it: only rendering templates counts, never fitting text."""

from __future__ import annotations

import time
from types import SimpleNamespace

import jinja2
import pytest

from kitgen.data.bounded_sandbox import (MAX_MADE, MAX_NESTING, TemplateClock, TemplateCost, bounded_render,
                                         template_lines)
from kitgen.data.sandbox import environment
from kitgen.render import card_fit
from tests.conftest import run_guarded, small_game


def _render(source: str, **context) -> str:
    env = environment()
    with bounded_render():
        return env.from_string(source).render(**context)


def test_values_each_within_bounds_are_counted_together():
    each = 999_999
    fits = MAX_MADE // each                       # this many values of `each` characters stay within the budget
    loop = "{% for i in range(N) %}{% set x = 'x' * 999999 %}{% endfor %}done"
    assert _render(loop.replace("N", str(fits))) == "done"
    with pytest.raises(TemplateCost, match="20,000,000 characters or items"):
        _render(loop.replace("N", str(fits + 1)))


def test_a_memory_bomb_of_values_each_within_bounds_stops_within_the_budget():
    with pytest.raises(TemplateCost):
        _render("{{ range(20000)|map('center', 999999)|list|length }}")


def test_slices_and_joined_texts_count_too():
    text = "y" * 999_999
    with pytest.raises(TemplateCost):
        _render("{% for i in range(25) %}{% set a = t[1:] %}{% endfor %}", t=text)
    with pytest.raises(TemplateCost):
        _render("{% for i in range(25) %}{% set a = t ~ 'z' %}{% endfor %}", t=text)


def test_a_render_inside_another_counts_towards_it():
    inner = environment().from_string("{{ 'x' * 400000 }}")      # 400,000 made, then written: 800,000

    def nested():
        with bounded_render():
            return len(inner.render())

    with pytest.raises(TemplateCost):
        _render("{% for i in range(30) %}{% set n = nested() %}{% endfor %}", nested=nested)
    for _ in range(30):                           # each render alone starts from nothing
        assert nested() == 400_000


@pytest.mark.parametrize("shape", [
    lambda n: "{{ " + "(" * n + "1" + ")" * n + " }}",
    lambda n: "{{ 'a'" + "|trim" * n + " }}",
    lambda n: "{{ " + "+".join(["1"] * (n + 1)) + " }}",
    lambda n: "{% if 1 %}" * n + "x" + "{% endif %}" * n,
])
def test_a_template_nests_at_most_64_deep(shape):
    env = environment()
    env.from_string(shape(MAX_NESTING)).render()
    with pytest.raises(jinja2.TemplateSyntaxError, match="nested more than 64 deep"):
        env.from_string(shape(MAX_NESTING + 1))
    with pytest.raises(jinja2.TemplateSyntaxError, match="nested more than 64 deep"):
        env.from_string(shape(400))


def test_loops_too_deep_for_python_are_a_syntax_error():
    with pytest.raises(jinja2.TemplateSyntaxError, match="loops and blocks nested too deeply"):
        environment().from_string("{% for i in [1] %}" * 25 + "x" + "{% endfor %}" * 25)


def _spin(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_fitting_text_is_not_template_time(tmp_path, monkeypatch):
    """Every text fit burns more processor time than the templates may take, and the build still passes: the
    watchdog counts only what rendering templates takes (it once timed whole cards)."""
    fitted = card_fit.largest_fit

    def slow_fit(*args, **kwargs):
        _spin(0.075)               # half as much again as the templates may take: six fits spin 0.45 s
        return fitted(*args, **kwargs)

    monkeypatch.setattr(card_fit, "largest_fit", slow_fit)
    monkeypatch.setenv("KITGEN_TEMPLATE_SECONDS", "0.05")
    game = small_game(tmp_path / "game", [("Gather", "action", 1, "1", "Take one coin from the bank.")])
    result = run_guarded("validate", game, seconds=120)
    assert result.exit_code == 0, result.output


def test_a_layout_template_out_of_time_is_not_run_again_on_later_cards(tmp_path, monkeypatch):
    game = small_game(tmp_path / "game", [(f"Card {i}", "action", 1, str(i), "Text.") for i in range(6)])
    (game / "layouts.toml").write_text(
        '[layouts.slow]\nextends = "kitgen"\n\n[layouts.slow.boxes.title]\n'
        "content = \"{% for i in range(999) %}{% for j in range(999) %}{% if (i ** 999) % 7 > 9 %}{% endif %}"
        "{% endfor %}{% endfor %}{{ name }}\"\n", encoding="utf-8")
    toml = (game / "game.toml").read_text(encoding="utf-8")
    (game / "game.toml").write_text(toml.replace('[types.action]\n', '[types.action]\nface = "slow"\n'),
                                    encoding="utf-8")
    monkeypatch.setenv("KITGEN_TEMPLATE_SECONDS", "0.2")
    clocks = []
    monkeypatch.setattr(card_fit, "TemplateClock", lambda: clocks.append(TemplateClock()) or clocks[-1])
    result = run_guarded("validate", game, seconds=120)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"Error: {game / 'layouts.toml'}, line 5, layout 'slow', box 'title', key 'content' (row 2, card 'Card 0'): "
        "template still rendering after 0.2 s of processor time (a loop too long?); kitgen stops a card's templates "
        "there (KITGEN_TEMPLATE_SECONDS)"]
    assert sum(clock.used >= 0.2 for clock in clocks) == 1        # one card ran out; the others did not try


def test_a_frame_interrupted_where_it_has_no_line_takes_the_line_before():
    """The watchdog's exception can land on an instruction that has no line (tb_lineno None): the line
    of the instruction before it stands for it, so the card's message still names the template's line."""
    template = jinja2.Environment().from_string("{{ a }}\n{{ b }}")
    code_line = template.debug_info[-1][1]                  # the code of the template's line 2
    code = SimpleNamespace(co_filename="<template>", co_lines=lambda: [(0, 8, 1), (8, 10, code_line), (10, 12, None)])
    frame = SimpleNamespace(f_globals={"__jinja_template__": template}, f_code=code)
    interrupted = SimpleNamespace(tb_frame=frame, tb_lineno=None, tb_lasti=10, tb_next=None)
    assert template_lines(interrupted) == [("<template>", 2)]
