"""The solver and simulator pages of Temple of Inscriptions and Ancestral, and their JSON API.

One server serves both built-in games, and the suite's one browser tab (Debian's chromium, driven
by playwright) every test of a page, at a phone's width.  The API's answers are compared with what `kitgen
solve` prints for the same question, asked over HTTP by the browser's request client, with no page; the pages are
driven as a player would, tapping cards, and their answers are compared with the API's.  Every wait is for an
element or an answer, never for a time.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from kitgen.web.app import create_app
from tests.conftest import run, serving
from tests.test_web_browser import PHONE, screenshot

TEMPLE, ANCESTRAL = "temple-of-inscriptions", "ancestral"
# Temple: players 1 and 3 hold two Foundation Stones, player 2 one, player 1 two jewels, player 4 Rubble Core
TEMPLE_Q = {"hands": [["Foundation Stone", "Foundation Stone", "Jade Jewel", "Jade Jewel"], ["Foundation Stone"],
                      ["Foundation Stone", "Foundation Stone"], ["Rubble Core"]]}
TEMPLE_ARGS = ["--hands", "Foundation Stone,Foundation Stone,Jade Jewel,Jade Jewel;Foundation Stone;"
                          "Foundation Stone,Foundation Stone;Rubble Core"]
TEMPLE_PLAY = "2 Foundation Stone; 1 Foundation Stone; 2 Foundation Stone; nothing"
# Ancestral: the default hand of the page, player 2's hut at 3 leaves, player 3 holding a Hunuc-Huar
HAND = ["Strong Wind", "Hot Wind", "Quincha Defense", "South Breeze", "Hunuc-Huar Protection"]
ANCESTRAL_Q = {"hand": HAND, "leaves": [0, 3, 0, 0], "hunuc": [3]}
ANCESTRAL_ARGS = ["--hand", ",".join(HAND), "--leaves", "0,3,0,0", "--hunuc", "3"]
ANCESTRAL_PLAY = "attack 2 with Strong Wind"
BROWSER_WINDOW = PHONE                      # the window every test of a page starts in (tests/conftest.py's page)


def signed(n: int) -> str:
    """A number of points as the page writes it: +2, −1, ±0."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "±0"


def cli(game: str, *args: str):
    result = run("solve", game, *args)
    assert result.exit_code == 0, result.output
    return result.output


def cli_json(game: str, *args: str):
    return json.loads(cli(game, *args, "--json"))


@pytest.fixture(scope="module")
def server():
    """The two games' cards drawn (the solver pages show them), no kit built: no test here reads one."""
    yield from serving(create_app([TEMPLE, ANCESTRAL], watch_files=False), kits=False)


@pytest.fixture
def page(page):
    """The suite's shared tab (conftest's page), at a phone's width; any script error fails the test."""
    errors = []

    def failed(error):
        errors.append(str(error))

    page.on("pageerror", failed)
    yield page
    page.remove_listener("pageerror", failed)
    assert errors == []


@pytest.fixture
def api(browser):
    """The browser's HTTP client (playwright's, sharing the browser's cookies), which asks without a page: the API's
    tests look at no page, and a page left in the tab stays as it is while they ask."""
    return browser.request


def post(api, server, path: str, body: dict):
    """A JSON question (playwright sends it as application/json, the only type the server takes)."""
    response = api.post(f"{server}{path}", data=body)
    return response.status, response.json()


# --- the JSON API ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game, q, args, play", [(TEMPLE, TEMPLE_Q, TEMPLE_ARGS, TEMPLE_PLAY),
                                                 (ANCESTRAL, ANCESTRAL_Q, ANCESTRAL_ARGS, ANCESTRAL_PLAY)],
                         ids=[TEMPLE, ANCESTRAL])
def test_the_api_answers_as_kitgen_solve_does(server, api, game, q, args, play):
    q = {"game": game, **q}
    if game == TEMPLE:                      # a play is checked for a summoner
        q_play, args_play = {**q, "summoner": 1}, [*args, "--summoner", "1"]
    else:
        q_play, args_play = q, args
    assert post(api, server, "/api/solve", q) == (200, cli_json(game, *args))
    status, explained = post(api, server, "/api/explain", q)
    assert status == 200 and explained["lines"] == cli(game, *args).splitlines()
    assert post(api, server, "/api/all", q) == (200, cli_json(game, *args, "--all"))
    status, checked = post(api, server, "/api/check", {**q_play, "play": play})
    assert status == 200 and {k: v for k, v in checked.items() if k != "lines"} == \
        cli_json(game, *args_play, "--play", play)
    status, advice = post(api, server, "/api/advise", {**q, "playouts": 5, "seed": 4})
    assert status == 200 and advice == cli_json(game, *args, "--advise", "--playouts", "5", "--seed", "4")


@pytest.mark.parametrize("game, q, args", [
    (TEMPLE, {"hands": [["Foundation Stone"], ["Gold Bar"]]}, ["--hands", "Foundation Stone;Gold Bar"]),
    (TEMPLE, {**TEMPLE_Q, "rules": {"scoring": "never"}}, [*TEMPLE_ARGS, "--rule", "scoring=never"]),
    (ANCESTRAL, {"hand": HAND, "leaves": [0, 9]}, ["--hand", ",".join(HAND), "--leaves", "0,9"]),
    (ANCESTRAL, {"hand": HAND, "hunuc": [7]}, ["--hand", ",".join(HAND), "--hunuc", "7"]),
], ids=["temple-card", "temple-rule", "ancestral-leaves", "ancestral-hunuc"])
def test_a_bad_question_is_a_400_with_the_command_lines_message(server, api, game, q, args):
    result = run("solve", game, *args)
    assert result.exit_code == 2
    (line,) = result.output.splitlines()
    for path in ("/api/solve", "/api/explain", "/api/advise"):
        assert post(api, server, path, {"game": game, **q}) == (400, {"error": line.removeprefix("Error: ")})


def test_the_rule_switches_change_the_answer(server, api):
    q = {"game": ANCESTRAL, **ANCESTRAL_Q, "rules": {"hunuc_huar_by": "anyone"}}
    status, answer = post(api, server, "/api/solve", q)
    assert status == 200 and answer == cli_json(ANCESTRAL, *ANCESTRAL_ARGS, "--rule", "hunuc_huar_by=anyone")
    assert answer != cli_json(ANCESTRAL, *ANCESTRAL_ARGS)


# --- the solver pages -------------------------------------------------------------------------------

def test_temple_hands_tapped_together_are_solved_and_drawn_with_the_cards(server, page):
    page.goto(f"{server}/game/{TEMPLE}/solver")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    deck = page.locator("#deck")
    for player, hand in enumerate(TEMPLE_Q["hands"], start=1):
        page.click(f"[data-add-to='field-hands-{player}']")
        for name in hand:
            deck.locator(f"[data-card='{name}']").click()
        expect(page.locator(f"#field-hands-{player} .card-button")).to_have_count(len(hand))
    page.click("#solve")
    expect(page.locator("#best-head")).to_be_visible()
    answer = cli_json(TEMPLE, *TEMPLE_ARGS)
    expect(page.locator("#result .play-words")).to_have_text(answer["best"][0])
    # the co-operative way to complete the level, drawn with the cards each player sets
    sets = answer["completion"]["sets"]
    rows = page.locator("#result .set-row")
    # the way to complete it (no swap needed), then the sets played for the objective, if anyone summons
    expect(rows).to_have_count(4 + (4 if answer["outcome"]["summoner"] else 0))
    for player, s in enumerate(sets):
        row = rows.nth(player)               # player 1 summons: the rows are in player order
        expect(row.locator("img[alt='Foundation Stone']")).to_have_count(s["cards"])
        expect(row.locator("img[alt='Jade Jewel']")).to_have_count(2 * s["pairs"])
    screenshot(page, "temple-solver.png")
    # check a play, built with the steppers, for player 1 as the summoner
    page.click("#summoner-up")
    page.click("#check-mode")
    for player, cards in ((1, 2), (2, 1), (3, 2)):
        for _ in range(cards):
            page.click(f".check-set[data-player='{player}'] [aria-label='Foundation Stone more']")
    page.click("#check")
    expected = cli_json(TEMPLE, *TEMPLE_ARGS, "--summoner", "1", "--play", TEMPLE_PLAY)
    assert expected["legal"] and expected["completed"]
    expect(page.locator("#verdict")).to_contain_text("Legal")
    expect(page.locator("#result")).to_contain_text("The level is completed.")
    gains = page.locator("#result .gains .gain")
    expect(gains).to_have_text([f"Player {p} {signed(g)}" for p, g in enumerate(expected["gains"], start=1)])


def test_temple_takes_a_fifth_player(server, page):
    page.goto(f"{server}/game/{TEMPLE}/solver")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    page.click("[aria-label='One player more']")
    expect(page.locator("#field-hands-5")).to_be_visible()
    page.click("[aria-label='One player more']")           # five at most
    expect(page.locator("#field-hands-6")).to_have_count(0)


def test_ancestral_huts_set_by_tapping_are_solved_and_checked(server, page):
    page.goto(f"{server}/game/{ANCESTRAL}/solver")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    expect(page.locator("#field-hand .card-button")).to_have_count(len(HAND))     # the page's example hand
    for _ in range(3):
        page.click("[aria-label='More leaves in player 2']")
    expect(page.locator("[data-leaves='2']")).to_have_text("3 leaves")
    page.click("[data-hut='3'] [data-hunuc='3']")
    expect(page.locator("[data-hut='3'] [data-hunuc='3']")).to_have_attribute("aria-pressed", "true")
    page.click("#solve")
    expect(page.locator("#best-head")).to_be_visible()
    answer = cli_json(ANCESTRAL, *ANCESTRAL_ARGS)
    best = page.locator("#result .best-play .play-words")
    expect(best).to_have_text(answer["best"])
    first = page.locator("#result .best-play").first
    winds = [name for name in ("Strong Wind", "Hot Wind") if name in answer["best"][0]]
    for name in winds:
        expect(first.locator(f"img[alt='{name}']")).to_have_count(1)
    expect(page.locator("#result .ranked li")).to_have_count(min(8, len(answer["actions"])))
    screenshot(page, "ancestral-solver.png")
    # a defense laid in player 4's hut by tapping its picture changes the question
    page.click("[data-hut='4'] [data-defense='Tree Curtain']")
    expect(page.locator("[data-hut='4'] [data-defense='Tree Curtain']")).to_have_attribute("aria-pressed", "true")
    page.click("#check-mode")
    page.fill("#play-input", ANCESTRAL_PLAY)
    page.click("#check")
    checked = cli_json(ANCESTRAL, *ANCESTRAL_ARGS, "--defenses", ";;;Tree Curtain", "--play", ANCESTRAL_PLAY)
    expect(page.locator("#verdict")).to_have_text("Legal, and one of the best actions" if checked["optimal"]
                                                  else "Legal, not the best action")
    expect(page.locator("#result .play-words")).to_have_text(checked["play"])


def test_the_simulator_page_plays_a_run_of_each_game(server, page):
    for game, setting in ((TEMPLE, "scoring=per_player"), (ANCESTRAL, "offerings_to_win=1")):
        page.goto(f"{server}/game/{game}/simulate")
        page.fill("input[name=games]", "6")
        page.fill("textarea[name=set]", setting)
        page.click("#run")
        expect(page.locator("#sim-result h2").first).to_contain_text("Played 6 games", timeout=60_000)
        expect(page.locator("#sim-charts img").first).to_be_visible()


@pytest.mark.parametrize("game", [TEMPLE, ANCESTRAL])
def test_the_solver_page_fits_a_narrow_phone(server, page, game):
    """No panel is wider than a 320-pixel screen: a label and its stepper share a line only where both fit."""
    page.set_viewport_size({"width": 320, "height": 800})
    page.goto(f"{server}/game/{game}/solver")
    expect(page.locator("body")).to_have_attribute("data-ready", "1")
    assert page.evaluate("document.documentElement.scrollWidth") == 320
    wide = page.evaluate("""() => [...document.querySelectorAll('.position *')]
        .filter(e => e.getBoundingClientRect().right > 320.5).map(e => e.className)""")
    assert wide == []
