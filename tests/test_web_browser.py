"""The web pages in a real browser: Debian's chromium, driven by playwright.

One server (uvicorn on a free local port) serves an editable copy of Altun Ha and a toy game, and one browser tab
(tests/conftest.py) serves every test in turn.  The solver's answers are compared with `kitgen solve`, which
plays the built-in deck: the copy's edits leave its Bid and God cards as they are.

Every step waits for what it checks (an element, a text, a picture loaded) for up to a minute: a
busy machine is slow, not wrong.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from kitgen.web.app import create_app
from tests.conftest import WAIT_MS, copy_builtin, run, serving

PHONE = {"width": 390, "height": 844}
SCREENSHOTS = os.environ.get("KITGEN_SCREENSHOTS")    # a folder: the tests also save their screenshots
expect.set_options(timeout=WAIT_MS)
# Waits for a script's condition look every 50 ms, not at every animation frame (playwright's default): polling
# at each frame has the browser draw sixty frames a second for as long as the wait lasts.
POLL_MS = 50


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    return copy_builtin("altun-ha", tmp_path_factory.mktemp("browser") / "altun-copy")


@pytest.fixture(scope="module")
def served(copy, tmp_path_factory):
    """One server for the module: the copy of Altun Ha and the walk-through's toy game (docs/examples/high-card),
    its engine registered as docs/engines.md says.  Yields its address and the toy's folder."""
    from solver import engines

    toy = Path(__file__).resolve().parent.parent / "docs" / "examples" / "high-card"
    folder = tmp_path_factory.mktemp("toy") / "high-card"
    shutil.copytree(toy, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(toy))
        mp.setitem(engines.ENGINES, "high-card", "high_card:ENGINE")
        for address in serving(create_app([str(copy), str(folder)])):
            yield address, folder


@pytest.fixture(scope="module")
def server(served):
    return served[0]


def screenshot(page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=str(Path(SCREENSHOTS) / name))


def loaded(picture, size: list[int]) -> None:
    """Wait until ``picture`` (an img) has loaded, and check it is ``size`` pixels and said so before it
    loaded (its width and height attributes), so the page kept its place for it."""
    expect(picture).to_have_js_property("complete", True)
    assert picture.evaluate("img => [img.naturalWidth, img.naturalHeight]") == size
    assert [picture.get_attribute("width"), picture.get_attribute("height")] == [str(n) for n in size]
    expect(picture).to_be_visible()


def pictures_by_name(figures) -> dict:
    """Each card figure's name (data-name) -> its picture's src, as the attributes read at one moment, in one call
    (not two calls a figure)."""
    return dict(figures.evaluate_all(
        "figures => figures.map(f => [f.getAttribute('data-name'), f.querySelector('img').getAttribute('src')])"))


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_preview_follows_the_card_sheet_on_disk(server, copy, page):
    page.goto(f"{server}/game/altun-ha/")
    cards = page.locator("#view-cards figure")
    expect(cards).to_have_count(27)                          # 26 faces and the back
    loaded(page.locator('figure[data-name="Steps"] img'), [275, 385])
    screenshot(page, "preview.png")
    before = pictures_by_name(cards)
    page.evaluate("document.querySelector('figure[data-name=\"Plaza\"]').kept = true")   # the same element later?
    cards = copy / "cards.csv"
    original = cards.read_text(encoding="utf-8")
    replace_in(cards, "Steps,bid,5", "Great Steps,bid,5")
    expect(page.locator('figure[data-name="Great Steps"] figcaption')).to_contain_text("×5")
    expect(page.locator('figure[data-name="Steps"]')).to_have_count(0)
    # the picture is the new face, drawn for the new name; every other card kept its picture and element
    figures = page.locator("#view-cards figure")
    after = pictures_by_name(figures)
    assert re.fullmatch(r"/game/altun-ha/card/[0-9a-f]{32}\.png", after["Great Steps"])
    assert after.pop("Great Steps") != before.pop("Steps") and after == before
    assert page.evaluate("document.querySelector('figure[data-name=\"Plaza\"]').kept") is True
    # the solver reads the changed card sheet too
    answer = page.request.post(f"{server}/api/solve", data={"hand": ["Great Steps", "Stage"], "population": 3})
    assert answer.status == 200 and answer.json()["farm"] == ["Stage"]
    refused = page.request.post(f"{server}/api/solve", data={"hand": ["Steps"], "population": 3})
    assert refused.status == 400 and refused.json()["error"].startswith("--hand: unknown card 'Steps'")
    cards.write_text(original, encoding="utf-8")            # the other tests see the deck as built in
    expect(page.locator('figure[data-name="Steps"]')).to_have_count(1)


def test_a_kit_being_built_pulses_unless_the_system_asks_for_stillness(server, page):
    page.goto(f"{server}/game/altun-ha/")
    # a status line of its own: the page's own one follows the server, which may say "built" at any moment
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p class=\"status building\" id=\"probe\">Building</p>')")

    def dot() -> dict:
        return page.evaluate("(s => ({name: s.animationName, opacity: s.opacity, width: s.width}))"
                             "(getComputedStyle(document.getElementById('probe'), '::before'))")

    assert dot() == {"name": "none", "opacity": "1", "width": "10px"}     # these tests' browser asks for stillness
    page.emulate_media(reduced_motion="no-preference")
    try:
        assert dot()["name"] == "pulse"
    finally:
        page.emulate_media(reduced_motion="reduce")


def test_the_switch_outlines_every_box_and_a_cards_panel_lists_its_texts(server, page):
    page.goto(f"{server}/game/altun-ha/")
    plaza = page.locator('figure[data-name="Plaza"]')
    loaded(plaza.locator("img"), [275, 385])
    expect(page.locator("#view-cards .boxes")).to_have_count(0)          # no outlines until asked for
    page.check("#outline-switch")
    expect(page.locator("#view-cards .boxes")).to_have_count(27)         # every face and the back
    outlines = plaza.locator(".box")
    expect(outlines.first).to_be_visible()
    names = outlines.evaluate_all("boxes => boxes.map(b => b.dataset.box)")
    assert {"background", "title", "art", "type"} <= set(names), names
    # the picture and its boxes measured at one moment: the page may still move (a kit build ending above it)
    picture, places = plaza.evaluate("""figure => {
        const place = (el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width,
                                                                            height: r.height}; };
        return [place(figure.querySelector("img")), Object.fromEntries(["background", "title", "art", "type"].map(
            (name) => [name, place(figure.querySelector(`.box[data-box="${name}"]`))]))];
    }""")
    ground = places.pop("background")                 # the whole card: the picture's own place
    assert all(abs(ground[k] - picture[k]) < 1.5 for k in ("x", "y", "width", "height")), (ground, picture)
    for place in places.values():                     # the others inside it, from the top: title, art, type
        assert picture["x"] <= place["x"] and place["x"] + place["width"] <= picture["x"] + picture["width"] + 0.5
    assert places["title"]["y"] < places["art"]["y"] < places["type"]["y"]
    expect(plaza.locator('.box[data-box="title"] span')).to_have_text("title")
    screenshot(page, "preview-outlined.png")
    page.uncheck("#outline-switch")
    expect(plaza.locator('.box[data-box="title"]')).to_be_hidden()
    # a card's panel: each text box with the size it was fitted to and its fallback
    plaza.click()
    panel = page.locator("#card-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text("Plaza · row 2")
    title = panel.locator('tr[data-box="title"] td')
    expect(title.nth(0)).to_have_text(re.compile(r"^\d+(\.\d+)? pt$"))
    expect(title.nth(1)).to_have_text(re.compile(r"^none"))
    assert "art" not in panel.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.box)")
    screenshot(page, "preview-panel.png")
    panel.locator("button.close").click()
    expect(panel).to_be_hidden()


def test_the_tabs_show_the_pages_of_each_pdf(server, page):
    page.goto(f"{server}/game/altun-ha/")
    expect(page.locator("#view-cards figure")).to_have_count(27)
    documents = {d["name"]: d for d in page.evaluate("fetch('state').then(r => r.json())")["documents"]}
    for name in ("rules.pdf", "cards.pdf", "aids.pdf"):
        page.click(f'.view-tabs button[data-view="{name}"]')
        pictures = page.locator("#view-pages img")
        expect(pictures).to_have_count(documents[name]["pages"])
        expect(page.locator("#view-cards")).to_be_hidden()
        loaded(pictures.first, [680, 880])                  # a letter page at the preview's 80 DPI
    page.click('.view-tabs button[data-view="cards"]')
    expect(page.locator("#view-cards")).to_be_visible()
    expect(page.locator("#view-pages")).to_be_hidden()


def test_an_error_shows_in_a_banner_over_the_last_good_build(served, page):
    """On the toy game: a mistake and its fix read, draw and build the same way as in Altun Ha, at a fraction of
    the work (the fix rebuilds the kit)."""
    server, toy = served
    page.goto(f"{server}/game/high-card/")
    banner = page.locator("#error-banner")
    expect(page.locator('#view-cards figure[data-name="Three"]')).to_have_count(1)
    expect(banner).to_be_hidden()
    cards = toy / "cards.csv"
    good = cards.read_text(encoding="utf-8")
    replace_in(cards, "Three,number,2,3,", "Three,number,two,3,")
    expected = run("build", str(toy), "--out", str(toy.parent / "out")).output.strip().splitlines()[-1]
    assert expected.startswith("Error: ") and "row" in expected and "column 'count'" in expected
    expect(banner).to_be_visible()
    expect(banner).to_have_text(expected)
    expect(page.locator('figure[data-name="Three"]')).to_have_count(1)       # the last good build stays
    screenshot(page, "preview-error.png")
    cards.write_text(good, encoding="utf-8")
    expect(banner).to_be_hidden()


def open_solver(page, server, query=""):
    page.goto(f"{server}/game/altun-ha/solver" + (f"?{query}" if query else ""))
    expect(page.locator("body[data-ready]")).to_have_count(1)
    settled(page)


def settled(page):
    """Wait until the answer on screen is the answer for the position on screen."""
    page.wait_for_function("() => { const r = document.getElementById('result'); return !r.hidden && "
                           "!r.classList.contains('stale') && r.dataset.position === location.search.slice(1); }",
                           polling=POLL_MS)


def tap(page, *names):
    for name in names:
        page.click(f'#deck button[data-card="{name}"]')


def set_population(page, value):
    page.fill("#population", str(value))
    page.press("#population", "Enter")


def test_a_hand_tapped_together_is_solved_as_kitgen_solve_does(server, page):
    open_solver(page, server)
    tap(page, "Stage", "Stairs", "Sun God", "Base", "Plaza")
    page.click("#population-up")                              # 7 -> 8
    for top in (2, 3):
        page.click(f'#temple-tops button[data-top="{top}"]')
    expect(page.locator("#hand .card-button")).to_have_count(5)
    expect(page.locator("#population")).to_have_value("8")
    settled(page)                                             # solved at once: no Solve needed
    points = page.locator("#best-points")
    cli = run("solve", "--population", "8", "--hand", "Stage,Stairs,Sun God,Base,Plaza", "--temples", "2,3", "--json")
    expected = json.loads(cli.output)
    shown_farm = page.locator("#result [data-farm]").evaluate_all("els => els.map(e => e.dataset.farm)")
    shown_build = page.locator("#result [data-build]").evaluate_all(
        "els => els.map(e => ({card: e.dataset.build, value: +e.dataset.value, temple: +e.dataset.temple}))")
    assert shown_farm == expected["farm"]
    assert shown_build == expected["build"]
    assert points.inner_text() == f"{expected['points']:+d} points".replace("-", "−")
    # the sums, in numbers, and the rulings the answer used, as the rulebook names them
    expect(page.locator("#result .phase .sum").first).to_have_text(expected["reasons"]["farm"]["text"].replace(">=", "≥"))
    expect(page.locator("#why-not")).to_contain_text(expected["why_not"]["text"].replace(">=", "≥"))
    expect(page.locator('#rulings-used [data-ruling="chain"]')).to_contain_text("Playtest ruling 8: Building one card on "
                                                                                 "the other chain=true")
    screenshot(page, "solver.png")


def test_a_famine_is_shown_with_its_reason_and_nothing_of_the_phases_it_never_reached(server, page):
    open_solver(page, server, "hand=Plaza,Base,Stage&population=7")
    expected = json.loads(run("solve", "--population", "7", "--hand", "Plaza,Base,Stage", "--json").output)
    assert expected["outcome"] == "famine"
    expect(page.locator("#best-head")).to_have_text(f"Famine: {expected['points']:+d} points".replace("-", "−"))
    expect(page.locator("#result .verdict.illegal")).to_have_text(expected["reasons"]["farm"]["text"].replace(">=", "≥"))
    # no build phase, no temples after, and no stray text where they would have stood
    expect(page.locator("#result [data-build]")).to_have_count(0)
    loose = page.locator("#result").evaluate("el => [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data)")
    assert loose == []


def test_a_ruling_switched_on_the_page_is_solved_as_kitgen_solve_rule_does(server, page):
    open_solver(page, server, "hand=Plaza,Base,Altar,Platform&population=15")
    points = page.locator("#best-points")
    args = ["solve", "--population", "15", "--hand", "Plaza,Base,Altar,Platform", "--json"]
    expect(points).to_have_text(f"{json.loads(run(*args).output)['points']:+d} points")
    page.click(".rulings summary")
    chain = page.locator("#rule-chain")
    expect(chain).to_be_checked()
    meaning = chain.locator("xpath=ancestor::div[@class='ruling']//p")
    expect(meaning).to_have_text(re.compile("^The second card may go on a temple started or raised by the first"))
    chain.uncheck()                                           # re-solved at once, no Solve pressed
    expect(meaning).to_have_text(re.compile("^Both cards go on the temples as they stood"))
    settled(page)
    off = json.loads(run(*args, "--rule", "chain=false").output)
    expect(points).to_have_text(f"{off['points']:+d} point" + ("s" if abs(off["points"]) != 1 else ""))
    assert off["points"] < json.loads(run(*args).output)["points"]
    expect(page.locator('#rulings-used [data-ruling="chain"]')).to_contain_text("chain=false")
    assert "rule.chain=false" in page.url


def test_the_answer_on_screen_is_never_stale(server, page):
    open_solver(page, server, "hand=Stage,Stairs,Sun%20God&population=7&temples=2,3")
    expect(page.locator("#best-points")).to_have_text("+7 points")
    held, holding = [], [True]
    page.route("**/api/explain", lambda route: held.append(route) if holding[0] else route.continue_())
    page.click('#hand button[data-card="Sun God"]')           # the God leaves the hand: the old answer is wrong
    page.wait_for_function("() => document.getElementById('result').classList.contains('stale')", polling=POLL_MS)
    assert page.locator("#result").get_attribute("data-position") != page.url.split("?", 1)[1]
    holding[0] = False
    for route in held:
        route.continue_()
    settled(page)
    page.unroute("**/api/explain")
    expected = json.loads(run("solve", "-p", "7", "--hand", "Stage,Stairs", "--temples", "2,3", "--json").output)
    expect(page.locator("#best-points")).to_have_text(f"{expected['points']:+d} points".replace("-", "−"))
    # an answer that comes back after a newer question was asked is dropped
    page.click("#population-down")
    page.click("#population-down")
    settled(page)
    expect(page.locator("#population")).to_have_value("5")
    assert page.locator("#result").get_attribute("data-position") == page.url.split("?", 1)[1]


def test_a_position_lives_in_the_address_and_survives_a_reload(server, page, browser):
    open_solver(page, server)
    tap(page, "Base", "Steps", "Sun God", "Maize")
    set_population(page, 16)                                  # typed, not 9 taps
    page.click('#temple-tops button[data-top="4"]')
    page.click('#temple-tops button[data-top="7"]')
    page.select_option('#temples [data-temple="1"] select', "5")   # the top changed in place
    page.click(".rulings summary")
    page.locator("#rule-chain").uncheck()
    settled(page)
    query = page.url.split("?", 1)[1]
    for part in ("hand=Base%2CSteps%2CMaize%2CSun+God", "population=16", "temples=5%2C7", "rule.chain=false"):
        assert part in query, query
    answer = page.locator("#result").inner_text()
    page.reload()
    expect(page.locator("body[data-ready]")).to_have_count(1)
    settled(page)
    expect(page.locator("#hand .card-button")).to_have_count(4)
    expect(page.locator("#population")).to_have_value("16")
    expect(page.locator('#temples [data-temple="1"] select')).to_have_value("5")
    expect(page.locator("#rule-chain")).not_to_be_checked()
    assert page.locator("#result").inner_text() == answer
    # another device opens the same link: a fresh browser profile, a phone's screen
    phone = browser.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(page.url)
    expect(phone.locator("body[data-ready]")).to_have_count(1)
    settled(phone)
    expected = json.loads(run("solve", "-p", "16", "--hand", "Base,Steps,Sun God,Maize", "--temples", "5,7",
                              "--rule", "chain=false", "--json").output)
    expect(phone.locator("#best-points")).to_have_text(f"{expected['points']:+d} points".replace("-", "−"))
    phone.close()


def test_undo_steps_back_through_the_changes(server, page):
    open_solver(page, server, "hand=Stage&population=7")
    undo = page.locator("#undo")
    expect(undo).to_be_disabled()
    tap(page, "Altar")
    page.click("#population-up")
    page.click('#temple-tops button[data-top="2"]')
    settled(page)
    expect(page.locator("#temples .temple")).to_have_count(1)
    page.click("#undo")                                       # the temple goes
    expect(page.locator("#temples .temple")).to_have_count(0)
    page.click("#undo")                                       # Population back to 7
    expect(page.locator("#population")).to_have_value("7")
    page.click("#undo")                                       # the Altar goes
    expect(page.locator("#hand .card-button")).to_have_count(1)
    expect(undo).to_be_disabled()
    settled(page)
    assert page.url.split("?", 1)[1] == "hand=Stage&population=7"


def test_an_empty_hand_says_there_is_nothing_to_farm_with(server, page):
    open_solver(page, server)
    expect(page.locator("#hand")).to_contain_text("With no cards there is nothing to farm with.")
    expect(page.locator("#best-head")).to_have_text("Nothing to farm with")
    expect(page.locator("#result")).to_contain_text("The hand is empty: there is nothing to farm with.")
    expect(page.locator("#best-points")).to_have_count(0)


def test_check_my_play_sets_both_sums_side_by_side(server, page):
    open_solver(page, server, "hand=Stage,Stairs,Sun%20God&population=3&temples=2,3")
    page.click("#check-mode")
    rows = page.locator("#check-cards .check-card")
    expect(rows).to_have_count(3)
    rows.nth(0).locator('[data-role="build"]').click()         # Stage on temple 1 (top 2)
    rows.nth(0).locator("select").select_option("1")
    rows.nth(1).locator('[data-role="farm"]').click()          # farm Stairs: 4 >= 3
    play = "farm Stairs; build Stage@1"
    expect(page.locator("#play-text")).to_have_text(play)
    page.click("#check")
    settled(page)
    expected = json.loads(run("solve", "--population", "3", "--hand", "Stage,Stairs,Sun God", "--temples", "2,3",
                              "--json", "--play", play).output)
    assert expected["legal"] and expected["gap"] == 6          # best: farm Stage; build Stairs@2, Sun God=5@2
    expect(page.locator("#verdict")).to_have_text("Legal, 6 points less than the best")
    expect(page.locator("#your-play")).to_contain_text("Stairs (4): 4 ≥ Population 3")
    expect(page.locator("#best-play")).to_contain_text(expected["best_reasons"]["farm"]["text"].replace(">=", "≥"))
    expect(page.locator("#result .compare")).to_have_text("+3 against +9: 6 points less.")
    # the thumbnails keep the card's shape
    ratio = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--card-ratio')")
    width, height = (float(x) for x in ratio.split("/"))
    for box in page.locator("#check-cards img").evaluate_all("els => els.map(e => e.getBoundingClientRect())"):
        assert abs(box["height"] / box["width"] - height / width) < 0.03, box
    rows.nth(0).locator("select").select_option("2")           # Stage on temple 2 (top 3): illegal
    page.click("#check")
    settled(page)
    illegal = json.loads(run("solve", "--population", "3", "--hand", "Stage,Stairs,Sun God", "--temples", "2,3",
                             "--json", "--play", "farm Stairs; build Stage@2").output)
    assert not illegal["legal"]
    expect(page.locator("#verdict")).to_have_text(f"Illegal: {illegal['reason']}")
    expect(page.locator("#nearest-play")).to_contain_text("Nearest legal play, with your Farm")
    screenshot(page, "solver-check.png")


def test_the_bid_and_the_end_of_the_game_are_questions_on_the_page(server, page):
    open_solver(page, server)
    page.click('#question-tabs [data-question="bid"]')
    for player, names in ((1, ["Steps"]), (2, ["Steps"]), (3, ["Stage"])):
        page.click(f'[data-bid-to="{player}"]')
        tap(page, *names)
    for player, points in ((1, 4), (2, 2), (3, 0), (4, 9)):
        page.fill(f"#score-{player}", str(points))
        page.press(f"#score-{player}", "Enter")
    settled(page)
    expected = json.loads(run("solve", "--question", "bid", "--bids", "Steps;Steps;Stage;", "--scores", "4,2,0,9",
                              "--json").output)
    expect(page.locator("#bid-winner")).to_have_text(f"Player {expected['winner']} wins the bid")
    for step in expected["steps"]:
        expect(page.locator("#result .steps")).to_contain_text(step)
    expect(page.locator('#rulings-used [data-ruling="tie_drop"]')).to_contain_text("Playtest ruling 4")
    screenshot(page, "solver-bid.png")
    page.click('#question-tabs [data-question="end"]')
    for player, points in ((1, 12), (2, 5), (3, 12), (4, 9)):
        page.fill(f"#score-{player}", str(points))
        page.press(f"#score-{player}", "Enter")
    page.select_option("#king", "2")
    page.select_option("#calendar", "3")
    settled(page)
    expect(page.locator("#end-winner")).to_have_text("Players 1 and 3 share the victory.")
    expect(page.locator('#rulings-used [data-ruling="end_tie"]')).to_contain_text("decides this answer")


@pytest.mark.parametrize("path", ["/game/altun-ha/", "/game/altun-ha/solver", "/game/altun-ha/simulate"])
def test_pages_fit_a_phone_without_sideways_scrolling(server, page, path):
    page.set_viewport_size(PHONE)
    page.goto(server + path)
    if path.endswith("/"):
        expect(page.locator("#view-cards figure")).to_have_count(27)       # the build is on the page
    elif path.endswith("simulate"):
        expect(page.locator("#run")).to_be_enabled()
    if path.endswith("solver"):
        expect(page.locator("body[data-ready]")).to_have_count(1)
        tap(page, "Stage", "Stairs", "Sun God", "Maize")
        page.click('#temple-tops button[data-top="3"]')
        settled(page)
        expect(page.locator("#best-points")).to_be_attached()
        # tap targets: the buttons a thumb uses are at least 44 px high
        for selector in ("#solve", "#population-up", '#temple-tops button[data-top="8"]', "#check-mode", "#undo-bar"):
            assert page.locator(selector).bounding_box()["height"] >= 44, selector
        screenshot(page, "solver-phone.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_on_a_phone_the_hand_stays_in_view_and_the_deck_comes_before_the_answer(server, page):
    page.set_viewport_size(PHONE)
    open_solver(page, server, "hand=Stage&population=3")
    deck = page.locator(".deck-panel").bounding_box()
    result = page.locator("#result").bounding_box()
    assert deck["y"] < result["y"]                            # the deck is reached without passing the answer
    page.locator('#deck button[data-card="Altar"]').scroll_into_view_if_needed()
    tap(page, "Altar")
    settled(page)
    bar = page.locator("#sticky-bar")
    box = bar.bounding_box()
    assert box["y"] >= -1 and box["y"] + box["height"] <= PHONE["height"]        # in view while picking
    expect(page.locator('#bar-hand [data-card]')).to_have_count(2)
    expected = json.loads(run("solve", "-p", "3", "--hand", "Stage,Altar", "--json").output)
    expect(page.locator("#bar-answer")).to_contain_text(f"Best {expected['points']:+d} point".replace("-", "−"))
    screenshot(page, "solver-phone-picking.png")
    page.click("#undo-bar")                                   # the Altar goes again, from the bar
    expect(page.locator('#bar-hand [data-card]')).to_have_count(1)


def test_the_simulator_page_plays_games_and_shows_the_report(server, page):
    page.goto(f"{server}/game/altun-ha/simulate")
    page.fill('input[name="games"]', "40")
    page.fill('textarea[name="set"]', "population_start=3")
    page.click("#run")
    expect(page.locator("#sim-result h2").first).to_contain_text("Played 40 games")
    expect(page.locator("#sim-result .summary tr").first).to_contain_text("Games played")
    loaded(page.locator("#sim-charts img").first, [680, 880])         # balance.pdf is on letter paper


# --- the page of an engine without a view of its own: the generic one ------------------------------

@pytest.fixture(scope="module")
def toy_server(served):
    """The walk-through's toy game, served beside Altun Ha: the address and the toy's folder."""
    return served


def test_the_generic_solver_page_builds_the_position_from_the_engines_fields(toy_server, page):
    server, folder = toy_server
    page.goto(f"{server}/game/high-card/solver")
    expect(page.locator("body[data-ready]")).to_have_count(1)
    for name in ("Two", "Seven"):                               # into the first card field, the hand
        page.click(f'#deck button[data-card="{name}"]')
    page.click('button[data-add-to="field-table"]')
    page.click('#deck button[data-card="Five"]')                # the trick so far
    page.click("#players-down")
    page.click("#players-down")                                 # 4 -> 2 players
    expect(page.locator("#field-hand .card-button")).to_have_count(2)
    expect(page.locator("#field-table .card-button")).to_have_count(1)
    expect(page.locator("#players")).to_have_value("2")
    page.click("#solve")
    (best,) = json.loads(run("solve", folder, "--hand", "Two,Seven", "--table", "Five", "--players", "2",
                             "--json").output)["best"]
    assert best == "play Seven"
    expect(page.locator("#result .play-words")).to_have_text(best)
    expect(page.locator('#result .play-card[data-card="Seven"] img')).to_be_visible()
    page.click("#advise")
    expect(page.locator("#result .advice tr")).to_have_count(2)
    page.click("#check-mode")
    page.fill("#play-input", "play Two")
    page.click("#check")
    expect(page.locator("#verdict")).to_have_text("Legal, not the best play")
    screenshot(page, "solver-generic.png")
