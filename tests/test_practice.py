"""Practice, guess the value: every cell graded against the judge, the record kept in the
session as plain values, counted once per position."""

import re

import pytest

from tests import judge
from tests.page import Page
from ttt_web.core.position import cell_name

POS = "XX.OO...."  # X to move: c1 wins, c2 draws, the rest lose


def truth(pos: str) -> dict[str, str]:
    """The right answer for each cell, as the form sends it: the utility (X's side) after it."""
    return {f"cell-{cell_name(n)}": str(judge.value(child)[0]) for n, child in judge.children(pos).items()}


def record(client) -> dict[str, str]:
    return Page(client.get("/practice/?position=" + POS).text)["practice-record"].attrs


def test_the_form_asks_about_every_empty_cell(client, stored):
    page = Page(client.get(f"/practice/?position={POS}").text)
    names = {field.attrs["name"] for field in page["practice"].iter("input") if field.attrs.get("type") == "radio"}
    assert names == set(truth(POS))
    assert not [c for c in page.cells if "data-value" in c.attrs]  # no answers shown before the guess
    assert stored() == 0  # asking stores nothing


def test_every_cell_is_graded_with_the_line_that_proves_it(client):
    answers = {**truth(POS), "cell-c2": "1"}  # one wrong
    page = Page(client.post("/practice/", data={"position": POS, **answers}).text)
    graded = {item.attrs["data-cell"]: item.attrs for item in page["practice-graded"].iter("li")}
    assert graded["c1"]["data-correct"] == "true" and graded["c2"]["data-correct"] == "false"
    assert graded["c2"]["data-value"] == "draw" and "Perfect play after it" in page["practice-graded"].text
    score = page["practice-score"].attrs
    assert (score["data-right"], score["data-cells"]) == ("4", "5")
    checked = 0
    for item in page["practice-graded"].iter("li"):  # each move of the line with the assignment's (i, j)
        said = " ".join(item.text.split())
        line = said.split("Perfect play after it: ")[1].rstrip(".") if "Perfect play" in said else ""
        checked += bool(line)
        moves = re.findall(r"([abc])([123]) \((\d), (\d)\)", line)
        assert len(moves) == len(re.findall(r"[abc][123]", line)), line  # no cell named without its (i, j)
        for column, row, i, j in moves:
            assert (int(i), int(j)) == (int(row) - 1, "abc".index(column)), line
    assert checked >= 3


def test_the_record_keeps_a_streak_and_accuracy_and_counts_a_position_once(client):
    client.post("/practice/", data={"position": POS, **truth(POS)})
    client.post("/practice/", data={"position": POS, **truth(POS)})  # sent again: not counted twice
    other = "X...O...."
    client.post("/practice/", data={"position": other, **truth(other)})
    found = record(client)
    assert (found["data-positions"], found["data-streak"], found["data-best"]) == ("2", "2", "2")
    assert (found["data-right"], found["data-tried"]) == ("12", "12")
    wrong = {k: "-1" for k in truth("....X....")}
    client.post("/practice/", data={"position": "....X....", **wrong})
    found = record(client)
    assert (found["data-streak"], found["data-best"], found["data-positions"]) == ("0", "2", "3")


@pytest.mark.parametrize("pos", ["XO..X....", "XO..X.O..", "XX.OO..X."])  # O to move, X, then O
def test_the_answers_are_in_xs_terms_and_each_sentence_is_the_judges(client, pos):
    asked = Page(client.get(f"/practice/?position={pos}").text)
    labels = [label.text.strip() for label in asked["practice"].iter("label")]
    assert labels[:3] == ["X wins (1)", "draw (0)", "O wins (\N{MINUS SIGN}1)"]
    assert "1 if X wins, 0 for a draw, \N{MINUS SIGN}1 if O wins" in asked.root.text
    wrong = {name: "0" if right != "0" else "1" for name, right in truth(pos).items()}
    for answers, correct in ((truth(pos), "true"), (wrong, "false")):
        graded = Page(client.post("/practice/", data={"position": pos, **answers}).text)["practice-graded"]
        for item in graded.iter("li"):
            cell = cell_name_to_index(item.attrs["data-cell"])
            utility, plies = judge.value(judge.children(pos)[cell])
            assert (item.attrs["data-utility"], item.attrs["data-correct"]) == (str(utility), correct)
            text = " ".join(item.text.split())
            mover = judge.to_move(pos)
            start = f"{'Right' if correct == 'true' else 'Not quite'}: {mover} at {item.attrs['data-cell']} "
            assert text.startswith(start), text
            if utility == 0:
                assert "leads to a draw (utility 0) with best play" in text, text
            else:
                winner, moves = ("X" if utility == 1 else "O"), (plies + 2) // 2  # the winner's moves from here
                said = "now" if winner == mover and moves == 1 else f"in {moves} of its moves"
                if winner != mover and moves == 1:
                    said = "on its next move"
                sign = "1" if utility == 1 else "\N{MINUS SIGN}1"
                assert f"leads to utility {sign}: {winner} wins {said}" in text, (text, plies)
            if correct == "false":
                assert f"(you said {'draw' if wrong['cell-' + item.attrs['data-cell']] == '0' else 'X wins'})" in text


def cell_name_to_index(name: str) -> int:
    return "abc".index(name[0]) + 3 * (int(name[1]) - 1)


@pytest.mark.parametrize("pos", ["XXX......", "XXXOO....", "abc", ""])
def test_no_practice_on_a_finished_or_impossible_position(client, pos):
    assert client.post("/practice/", data={"position": pos}).status_code == 400
    if pos:
        assert client.get(f"/practice/?position={pos}").status_code == 400


def test_a_random_position_is_live_and_worth_a_guess(client):
    for _ in range(20):
        pos = Page(client.get("/practice/").text)["practice"].iter("input").__next__().attrs["value"]
        assert not judge.is_over(pos) and 3 <= pos.count(".") <= 7


def test_reviews_and_explore_pages_link_to_practice(client):
    assert Page(client.get("/explore/X...O....").text)["practice-here"].attrs["href"] == "/practice/?position=X...O...."
    assert Page(client.get("/review/0-4?ply=2").text)["practice-here"].attrs["href"] == "/practice/?position=X...O...."


def test_the_quiz_and_the_drills_are_named_apart_and_point_to_each_other(client):
    quiz = Page(client.get(f"/practice/?position={POS}").text)
    assert next(quiz.root.iter("title")).text.startswith("Practice: who wins?")
    assert "Who wins?" in [a.text for a in quiz.root.iter("a")]  # the menu's name for it
    drills = {a.attrs["href"] for a in quiz["to-drills"].iter("a")}
    assert drills == {"/learn/practice/backup"} and "drills: back up values, prune" in quiz["to-drills"].text
    learn = Page(client.get("/learn/").text)
    assert "Drills" in learn["tools"].text and "Practise the algorithm" not in learn["tools"].text
    assert [a.attrs["href"] for a in learn["to-quiz"].iter("a")] == ["/practice/"]
