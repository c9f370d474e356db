"""Sides, difficulty, two players, score, undo, history and teach mode, over HTTP."""

import random
import re

import pytest

from bench.difficulty import win_rates
from tests import judge


def test_playing_o_lets_the_ai_open(play):
    page = play.new_game(side="O")
    assert page.marks.count("X") == 1 and page.marks.count("O") == 0
    assert all("place O" in a.attrs["aria-label"] for a in page["board"].iter("a"))
    assert (
        page["status"].text
        == f"The AI played {'abc'[page.marks.index('X') % 3]}{page.marks.index('X') // 3 + 1}. Your turn."
    )


def test_the_ai_varies_among_equally_good_moves(play):
    openings = {play.new_game(side="O").marks.index("X") for _ in range(30)}
    assert len(openings) > 1


def test_difficulty_win_rates_rise_strictly_and_impossible_never_loses():
    rates = {d: win_rates(d, games=2000, seed=2026) for d in ("easy", "medium", "impossible")}
    assert rates["easy"]["win"] < rates["medium"]["win"] < rates["impossible"]["win"]
    assert rates["impossible"]["loss"] == 0


@pytest.mark.parametrize("side", ["X", "O"])
def test_impossible_never_loses_over_http(play, side):
    rng = random.Random(side)
    for _ in range(8):
        play.new_game(side=side, difficulty="impossible")
        assert play.finish(rng).result in ("loss", "draw")


def test_the_form_remembers_the_last_choices(play):
    page = play.new_game(side="O", difficulty="easy", mode="ai")
    assert page.form("new-game") | {"game": ""} == {
        **{"side": "O", "difficulty": "easy", "mode": "ai", "game": ""},
        **{"name_x": "", "name_o": ""},
    }
    page = play.new_game(mode="friend")
    assert page.form("new-game")["mode"] == "friend"


def test_friend_mode_has_no_ai_and_players_alternate(play):
    page = play.new_game(mode="friend")
    assert page["status"].text == "X to move."
    page = play.move(0, 0)
    assert page.marks == "X........"
    assert page["status"].text == "X played a1. O to move."
    for row, col in [(1, 1), (0, 1), (2, 2), (0, 2)]:
        page = play.move(row, col)
    assert page.marks == "XXX.O...O"
    assert page["status"].text == "X wins!" and page.winner == "X"
    score = page["score"].attrs
    assert (score["data-wins"], score["data-losses"], score["data-draws"]) == ("1", "0", "0")


def test_score_is_kept_per_mode_and_difficulty_and_can_be_reset(play):
    rng = random.Random(7)
    tally = {"win": 0, "loss": 0, "draw": 0}
    for _ in range(4):
        page = play.finish(rng)
        tally[page.result] += 1
        play.new_game()
    score = play.page()["score"].attrs
    assert (int(score["data-wins"]), int(score["data-losses"]), int(score["data-draws"])) == (
        tally["win"],
        tally["loss"],
        tally["draw"],
    )
    easy = play.new_game(difficulty="easy")["score"].attrs
    assert (easy["data-wins"], easy["data-losses"], easy["data-draws"]) == ("0", "0", "0")
    play.reset_score()
    play.new_game(difficulty="impossible")
    assert play.page()["score"].attrs["data-losses"] == "0"


def test_undo_takes_back_your_move_and_the_ais_reply(play):
    play.move(1, 1)
    page = play.move(*next(iter(sorted(play.page().links))))
    assert page.marks.count(".") == 5
    play.submit("undo")
    page = play.page()
    assert page.marks.count(".") == 7 and page.marks[4] == "X"
    assert len(list(page["history"].iter("li"))) == 2
    play.submit("undo")
    assert play.page().marks == "." * 9
    assert "disabled" in next(play.page()["undo"].iter("button")).attrs


def test_undo_when_the_ai_opened_keeps_the_opening(play):
    page = play.new_game(side="O")
    assert "disabled" in next(page["undo"].iter("button")).attrs
    assert play.client.post("/undo", data=page.form("undo")).status_code == 409
    play.move(*next(iter(sorted(page.links))))
    play.submit("undo")
    assert play.page().marks == page.marks


def test_undo_in_friend_mode_takes_back_one_move(play):
    play.new_game(mode="friend")
    play.move(0, 0)
    play.move(1, 1)
    play.submit("undo")
    assert play.page().marks == "X........"


def test_stale_or_forged_undo_changes_nothing(play):
    play.move(1, 1)
    old = play.page().form("undo")
    play.move(*next(iter(sorted(play.page().links))))
    before = play.page().marks
    assert play.client.post("/undo", data=old).status_code == 409
    assert play.client.post("/undo", data={**play.page().form("undo"), "game": "forged"}).status_code == 403
    assert play.client.post("/undo", data={"n": "x"}).status_code == 403
    assert play.page().marks == before


def test_a_finished_game_is_scored_once_even_after_undo(play):
    page = play.new_game(mode="friend")
    for row, col in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        page = play.move(row, col)
    assert page["score"].attrs["data-wins"] == "1"
    play.submit("undo")
    page = play.move(0, 2)
    assert page["score"].attrs["data-wins"] == "1"


def test_history_lists_the_moves_in_the_notation_the_page_explains(play):
    play.new_game(mode="friend")
    for row, col in [(1, 1), (0, 0), (2, 2)]:
        page = play.move(row, col)
    items = [li.text for li in page["history"].iter("li")]
    assert items == ["X b2", "O a1", "X c3"]
    assert page["history"].tag == "ol"
    assert "Columns a\u2013c from the left, rows 1\u20133 from the top" in page.html


@pytest.mark.slow
def test_teach_mode_values_match_an_exhaustive_solution(play):
    play.new_game(mode="friend")
    play.submit("teach")
    rng = random.Random(11)
    checked = 0
    for _ in range(12):
        page = play.new_game(mode="friend")
        while page.state == "playing":
            pos = page.marks
            for cell in page.cells:
                if cell.attrs["data-mark"] == "":
                    i = 3 * int(cell.attrs["data-row"]) + int(cell.attrs["data-col"])
                    outcome, plies = judge.move_outcome(pos, i)
                    assert (cell.attrs["data-value"], int(cell.attrs["data-plies"])) == (outcome, plies), (pos, i)
                    checked += 1
            page = play.move(*rng.choice(sorted(page.links)))
    assert checked > 150


def test_teach_mode_says_what_the_ai_expects(play):
    page = play.page()
    assert "data-value" not in page.html
    play.submit("teach")
    play.new_game(difficulty="impossible")
    page = play.move(1, 1)
    assert page["ai-says"].text == "Best play from here is a draw."
    assert next(page["teach"].iter("button")).attrs["aria-pressed"] == "true"
    assert {c.attrs.get("data-value") for c in page.cells if not c.attrs["data-mark"]} == {"draw"}
    play.submit("teach")
    assert "data-value" not in play.page().html


def test_the_ai_announces_a_forced_win(play):
    play.submit("teach")
    play.new_game(side="X", difficulty="impossible")
    page = play.move(0, 1)  # an edge opening: the AI answers, still a draw
    rng = random.Random(3)
    while page.state == "playing" and "I can force a win in" not in page.html and "I can win on my" not in page.html:
        losing = [c for c in page.cells if c.attrs.get("data-value") == "loss"]
        cell = rng.choice(losing or [c for c in page.cells if not c.attrs["data-mark"]])
        page = play.move(int(cell.attrs["data-row"]), int(cell.attrs["data-col"]))
    said = page["ai-says"].text
    promised = r"I can force a win in [2-4] of my moves\.|I can win on my next move, whatever you play\."
    assert re.fullmatch(promised, said)


def test_unknown_options_are_refused(play):
    page = play.move(1, 1)
    for bad in [{"side": "Z"}, {"difficulty": "godlike"}, {"mode": "online"}]:
        response = play.client.post("/new", data={**page.form("new-game"), **bad})
        assert response.status_code == 400
    assert play.page().marks == page.marks
