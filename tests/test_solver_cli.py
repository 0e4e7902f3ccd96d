"""`kitgen solve`: every option and every bad input."""

import json

import pytest
from click.testing import CliRunner

from kitgen.cli.group import cli

EXAMPLE = ["solve", "--population", "7", "--hand", "Stage,Stairs,Sun God", "--temples", "2,3"]


def invoke(args, stdin=None):
    return CliRunner().invoke(cli, args, input=stdin)


def test_human_answer_explains_the_best_play():
    result = invoke(EXAMPLE)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Best play: +7 points" in out
    assert "Farm:   Sun God (God, 7): 7 >= Population 7" in out
    assert "1. Stage (3) on temple 1, topped by a 2: +3" in out
    assert "2. Stairs (4) on temple 2, topped by a 3: +4" in out
    assert "Total:  3 + 4 = +7" in out
    assert "Temples" in out and "[1][2][3*]" in out and "[1][2][3][4*]" in out
    # why not the other Farm: both sums side by side
    assert "Why not farm Stage + Stairs? Stage (3) + Stairs (4): 3 + 4 = 7 >= Population 7" in out
    assert "Sun God as a 4 on temple 2, topped by a 3: +4. +4 against +7: 3 points less." in out
    assert "Rulings used: 8 chain=true, 9 penalty_if_declined=false." in out


def test_json_answer():
    result = invoke(EXAMPLE + ["--json"])
    assert result.exit_code == 0
    answer = json.loads(result.output)
    assert answer["outcome"] == "built" and answer["points"] == 7 and answer["optimal"] is True
    assert answer["farm"] == ["Sun God"]
    assert [(b["card"], b["value"], b["temple"]) for b in answer["build"]] == \
        [("Stage", 3, 1), ("Stairs", 4, 2)]
    farm = answer["reasons"]["farm"]
    assert (farm["total"], farm["population"]) == (7, 7)
    assert [(s["card"], s["top"], s["points"]) for s in answer["reasons"]["build"]["steps"]] == \
        [("Stage", 2, 3), ("Stairs", 3, 4)]
    assert answer["why_not"]["play"]["farm"] == ["Stage", "Stairs"]
    assert (answer["why_not"]["points"], answer["why_not"]["best_points"]) == (4, 7)
    # two plays score 7 (the chained one too): the order between them is a preference, named as one
    assert answer["optimal_plays"] == 2
    assert answer["preference"]["name"] == "keep_maize_gods" and answer["preference"]["rule"] is False


def test_famine_is_a_valid_answer():
    result = invoke(["solve", "-p", "9", "--hand", "Plaza,Stone", "--json"])
    assert result.exit_code == 0
    answer = json.loads(result.output)
    assert {k: answer[k] for k in ("outcome", "points", "farm", "build")} == \
        {"outcome": "famine", "points": -13, "farm": [], "build": []}
    assert answer["reasons"]["farm"]["total"] == 1 and answer["why_not"] is None
    assert "Plaza (1), makes 1 < Population 9, 8 short" in answer["reasons"]["text"]


def test_accents_case_and_digits():
    result = invoke(["solve", "-p", "5", "--hand", "facade,1", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output)["farm"] == ["Façade"]


def test_all_lists_every_optimal_play():
    args = ["solve", "-p", "7", "--hand", "Plaza,Base,Platform,Altar", "--temples", "1", "--all"]
    result = invoke(args)
    assert result.exit_code == 0
    # Platform, Altar or both feed 7 and leave the same Build: 3 Farms x 2 Builds, all worth +3
    assert result.output.startswith("6 optimal plays, +3 points each")
    assert "preference keep_maize_gods" in result.output and "a preference, not a rule" in result.output
    plans = json.loads(invoke(args + ["--json"]).output)
    assert len(plans) == 6 and {p["points"] for p in plans} == {3}


def test_play_legal_and_distance_from_best():
    result = invoke(EXAMPLE + ["--play", "farm Stage, Stairs; build God=3@1"])
    assert result.exit_code == 0
    assert "Legal play: +3 points" in result.output
    assert "Farm:   Stage (3) + Stairs (4): 3 + 4 = 7 >= Population 7" in result.output
    assert "+3 against +7: 4 points less." in result.output
    data = json.loads(invoke(EXAMPLE + ["--play", "farm God; build Stairs@2", "--json"]).output)
    assert data["legal"] and data["points"] == 4 and data["gap"] == 3 and not data["optimal"]
    assert data["nearest"]["points"] == 7      # the same Farm could have built both cards


def test_play_optimal_and_illegal():
    ok = invoke(EXAMPLE + ["--play", "farm Sun God; build Stage@1, Stairs@2"])
    assert "+7 against +7: as many points: it is an optimal play." in ok.output
    chained = invoke(EXAMPLE + ["--play", "farm Sun God; build Stage@1, Stairs@1"])
    assert "both are optimal by the rules" in chained.output and "a preference, not a rule" in chained.output
    bad = invoke(EXAMPLE + ["--play", "farm Stage; build Stairs@2"])
    assert bad.exit_code == 0
    assert "Illegal play: Farm Stage is worth 3, less than Population 7" in bad.output
    new = json.loads(invoke(["solve", "-p", "3", "--hand", "Plaza,Base,Stage", "--json",
                             "--play", "farm Stage; build Plaza@new, Base@new"]).output)
    assert not new["legal"] and "only a value-1 card" in new["reason"]


def test_rulings_a_question_does_not_use_are_said_to_change_nothing():
    args = ["solve", "-p", "7", "--hand", "Maize,Plaza"]
    seed = invoke(args).output
    assert "Rulings used: 7 feed_alone=true, 8 chain=true, 9 penalty_if_declined=false." in seed
    changed = invoke(args + ["--rule", "special_is_trade=on", "--rule", "negative_scores=off"]).output
    assert "Not used by this question: rulings 1, 2, 3, 4, 5, 6, 10, 11 (so special_is_trade=true, " \
           "negative_scores=false change nothing here)." in changed
    assert "rules changed" not in changed
    # after a Trade card the same ruling bears on the question, and decides it: Maize may not feed
    traded = invoke(args + ["--rule", "special_is_trade=on", "--traded"]).output
    assert "Best play: -13 points (famine)" in traded
    assert "This answer rests on special_is_trade=true (Playtest ruling 3: Jade, Maize and the one Trade card): " \
           "with special_is_trade=false the best play scores +1 point." in traded
    declined = json.loads(invoke(args + ["--play", "farm Maize", "--json"]).output)
    assert declined["play"]["outcome"] == "declined_to_build" and declined["points"] == 0


def test_rule_chain_off():
    on = json.loads(invoke(["solve", "-p", "8", "--hand", "Plaza,Base,Altar", "--json"]).output)
    off = json.loads(invoke(["solve", "-p", "8", "--hand", "Plaza,Base,Altar", "--json",
                             "--rule", "chain=off"]).output)
    assert on["points"] == 3 and off["points"] == 1


def test_batch_from_file_keeps_order_and_reports_bad_lines(tmp_path):
    lines = [
        {"hand": ["Stage", "Stairs", "Sun God"], "population": 7, "temples": [2, 3]},
        "not json",
        {"hand": ["Altar", "Altar"], "population": 3},
        {"hand": ["Plaza", "Stone"], "population": 9, "temples": []},
        {"hand": ["Plaza"], "population": 0},
    ]
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(l if isinstance(l, str) else json.dumps(l) for l in lines) + "\n")
    result = invoke(["solve", "--batch", str(path)])
    assert result.exit_code == 0
    answers = [json.loads(l) for l in result.output.splitlines()]
    assert len(answers) == 5
    assert answers[0]["points"] == 7
    assert answers[1]["error"].startswith("line 2: not JSON")
    assert "line 3" in answers[2]["error"] and "deck has only 1" in answers[2]["error"]
    assert answers[3]["outcome"] == "famine"
    assert "at least 1" in answers[4]["error"]


def test_batch_from_stdin():
    stdin = json.dumps({"hand": ["3", "4", "God"], "population": 7, "temples": [2, 3]}) + "\n"
    result = invoke(["solve", "--batch", "-"], stdin=stdin)
    assert result.exit_code == 0 and json.loads(result.output)["points"] == 7


@pytest.mark.parametrize("args, message", [
    (["-p", "7", "--hand", "Stge"], "--hand: unknown card 'Stge'; did you mean Stage"),
    (["-p", "7", "--hand", "Altar,Altar"], "the hand holds 2 Altar but the deck has only 1"),
    (["-p", "7", "--hand", "God,God,God,God,God,God,God"], "deck has only 6"),
    (["-p", "0", "--hand", "Stage"], "--population: Population must be at least 1"),
    (["-p", "7", "--hand", "Stage", "--temples", "9"], "--temples: temple 1: top 9 is outside 1..8"),
    (["-p", "7", "--hand", "Stage", "--temples", "0,2"], "top 0 is outside 1..8"),
    (["-p", "7", "--hand", "Stage", "--temples", "2,x"], "'x' is not a whole number"),
    (["-p", "7", "--hand", "Stage,,Base"], "item 2 of 3 is empty"),
    (["-p", "7", "--hand", "9"], "no Bid card has value 9"),
    (["-p", "7"], "--hand: missing"),
    (["--hand", "Stage"], "--population: missing"),
    (["-p", "7", "--hand", "Stage", "--rule", "chain=maybe"], "chain takes on or off"),
    (["-p", "7", "--hand", "Stage", "--rule", "speed=3"], "--rule: unknown rule 'speed'; accepted: hand_size,"),
    (["-p", "7", "--hand", "Stage", "--rule", "chain"], "--rule: 'chain' is not NAME=VALUE"),
    (["-p", "7", "--hand", "Stage", "--rule", "points_decide=middle"],
     "points_decide takes one of lowest_tie, highest_tie, not 'middle'"),
    (["-p", "7", "--hand", "Stage", "--play", "build Stage@1"], "--play: missing the farm part"),
    (["-p", "7", "--hand", "Stage", "--play", "farm Stage; build Stage@x"], "is not a number or 'new'"),
    (["-p", "7", "--hand", "Stage", "--play", "farm God"], "hand holds none"),
    (["-p", "7", "--hand", "Stage", "--all", "--play", "farm Stage"], "cannot be combined"),
    (["-p", "7", "--hand", "Stage", "--batch", "-"], "--batch: cannot be combined"),
    # digits other than 0-9 (str.isdigit accepts them, int() does not)
    (["-p", "7", "--hand", "³"], "--hand: unknown card '³'"),
    (["-p", "7", "--hand", "Stage,Stairs", "--temples", "2", "--play", "farm Stairs; build Stage@³"],
     "temple '³' is not a number or 'new'"),
    (["-p", "7", "--hand", "Stage", "--temples", "٣"], "'٣' is not a whole number"),
    (["-p", "7", "--hand", "Stage", "--rule", "famine_penalty=١٢"],
     "--rule: famine_penalty takes a whole number from 0 to 1000, not '١٢' (written with the digits 0-9)"),
    (["-p", "7", "--hand", "Stage", "--rule", "famine_penalty=++5"],
     "--rule: famine_penalty takes a whole number from 0 to 1000, not '++5'"),
    # numbers too large for the model
    (["-p", "99999999999999999999999", "--hand", "Stage"],
     "--population: Population must be at most 1000, not 99999999999999999999999"),
    (["-p", "1001", "--hand", "Stage"], "Population must be at most 1000"),
    (["-p", "7", "--hand", "Stage", "--rule", "famine_penalty=99999999999999999999"],
     "--rule: famine_penalty takes a whole number from 0 to 1000"),
    (["-p", "7", "--hand", "Stage", "--rule", "no_build_penalty=999999999999999"],
     "no_build_penalty takes a whole number from 0 to 1000"),
    (["-p", "7", "--hand", "Stage", "--rule", "god_value=1001"], "god_value takes a whole number"),
    (["-p", "7", "--hand", "Stage", "--rule", "max_build_cards=99999999999999999999"],
     "max_build_cards takes a whole number"),
    (["-p", "7", "--hand", "Stage", "--temples", "1," + "9" * 5000], "--temples: "),
    (["-p", "7", "--hand", "9" * 5000], "--hand: "),
    (["-p", "7", "--hand", "Stage", "--temples", ",".join(["2"] * 20)],
     "--temples: 20 temples, but the deck can start at most 19"),
    (["-p", "3", "--hand", "Stage,God", "--temples", "2", "--play",
      "farm Stage; build God=" + "9" * 30 + "@1"], "--play: "),
    (["-p", "3", "--hand", "Stage,God", "--temples", "2", "--play",
      "farm God; build Stage@" + "9" * 30], "--play: "),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = invoke(["solve"] + args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]
    assert "Traceback" not in result.output


def test_help_documents_the_play_syntax():
    result = invoke(["solve", "--help"])
    assert result.exit_code == 0
    for word in ("--play", "CARD@TEMPLE", "--batch", "--rule", "chain=off", "--all", "--json"):
        assert word in result.output


def test_largest_allowed_numbers_still_solve():
    args = ["solve", "-p", "1000", "--hand", "Stage,Sun God,Maize", "--json",
            "--temples", ",".join(["2"] * 12)]
    for name in ("god_value", "famine_penalty", "no_build_penalty"):
        args += ["--rule", f"{name}=1000"]
    result = invoke(args + ["--rule", "max_farm_cards=4"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["farm"] == ["Maize"] and answer["points"] == 7


def test_rules_made_in_python_are_checked():
    from kitgen.errors import KitgenError
    from solver.altunha.rules import Rules
    from solver.altunha.solve import solve_turn

    rules = Rules.from_game()
    for bad in (dict(famine_penalty=10 ** 20), dict(no_build_penalty=-1), dict(god_value=7.5),
                dict(max_farm_cards=9), dict(chain="yes"), dict(points_decide="middle")):
        bad = rules.with_options(**bad)
        with pytest.raises(KitgenError, match="^rules: "):
            solve_turn(["Stage"], 3, [], bad)


def test_batch_answers_every_line_in_its_place(tmp_path):
    good = json.dumps({"hand": ["Stage", "Stairs", "Sun God"], "population": 7, "temples": [2, 3]})
    lines = [
        json.dumps({"hand": ["Stage"], "population": 99999999999999999999}).encode(),
        b"",
        b'{"hand": ["Fa\xe7ade"], "population": 3}',  # Façade saved as Latin-1
        good.encode(),
        b"   ",
        b"[" * 100000,
        b'{"hand": [true], "population": 3}',
        b'{"hand": ["Stage"], "population": 1' + b"0" * 5000 + b"}",
        good.encode(),
    ]
    path = tmp_path / "q.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = invoke(["solve", "--batch", str(path)])
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.output.splitlines()]
    assert len(answers) == len(lines)
    assert answers[0]["error"].startswith("line 1: ") and "at most 1000" in answers[0]["error"]
    assert answers[1]["error"].startswith("line 2: blank line")
    assert answers[2]["error"].startswith("line 3: not UTF-8 text")
    assert answers[3]["points"] == 7 and answers[8] == answers[3]
    assert answers[4]["error"].startswith("line 5: blank line")
    assert answers[5]["error"].startswith("line 6: ")
    assert answers[6]["error"].startswith("line 7: ") and "list of card names" in answers[6]["error"]
    assert answers[7]["error"].startswith("line 8: ")


def test_batch_reads_a_file_saved_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"hand": ["Stage"], "population": 3}).encode() + b"\n")
    result = invoke(["solve", "--batch", str(path)])
    assert result.exit_code == 0
    assert json.loads(result.output)["farm"] == ["Stage"]


def test_batch_reports_a_solver_failure_and_answers_the_other_lines(monkeypatch):
    import solver.altunha.turn_answer as turn_answer

    real = turn_answer.explain_question

    def flaky(q, deck):
        if q.population == 5:
            raise RuntimeError("boom")
        return real(q, deck)

    monkeypatch.setattr(turn_answer, "explain_question", flaky)
    stdin = "".join(json.dumps({"hand": ["Stage", "Stairs"], "population": p}) + "\n"
                    for p in (3, 5, 4))
    result = invoke(["solve", "--batch", "-"], stdin=stdin)
    assert result.exit_code == 1
    assert "line 2: internal error" in result.stderr and "RuntimeError: boom" in result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a.get("farm") for a in answers] == [["Stage"], None, ["Stairs"]]
    assert answers[1]["error"].startswith("line 2: internal error")
