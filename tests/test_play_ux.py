"""What the player reads and keeps: the move just played, the ending, teach wording, boards
of their own addresses, names between friends, and a score that counts each game once."""

import random
import re

import pytest

from tests import judge
from tests.page import Page
from tests.test_games import lose
from ttt_web.core import tictactoe as ttt
from ttt_web.core.options import name_problem
from ttt_web.core.words import in_words

CELL = r"[a-c][1-3]"


def hints(page: Page) -> dict[int, tuple[str, bool]]:
    """Teach mode's words per empty cell (0-8), and whether the cell is starred as best."""
    found = {}
    for cell in page.cells:
        hint = next((span for span in cell.iter("span") if "hint-long" in span.attrs.get("class", "").split()), None)
        if hint is not None:
            n = 3 * int(cell.attrs["data-row"]) + int(cell.attrs["data-col"])
            found[n] = (hint.text, cell.attrs.get("data-best") == "true")
    return found


def test_a_first_visit_offers_medium(play):
    assert play.page().form("new-game")["difficulty"] == "medium"


def test_the_status_and_title_name_the_ais_move_and_the_cell_keeps_a_marker(play):
    page = play.move(1, 1)
    o = page.marks.index("O")
    name = f"{'abc'[o % 3]}{o // 3 + 1}"
    assert page["status"].text == f"The AI played {name}. Your turn."
    assert page.title.startswith(f"The AI played {name}. Your turn.")
    last = [c for c in page.cells if "last" in c.attrs["class"].split()]
    assert len(last) == 1 and last[0].attrs["data-mark"] == "O"
    assert "the last move" in last[0].text


def test_two_friends_are_named_in_the_status_and_the_score(play):
    page = play.new_game(mode="friend", name_x="Ann", name_o="Bob")
    assert page["status"].text == "Ann (X) to move."
    for row, col in [(0, 0), (1, 0)]:
        page = play.move(row, col)
    assert page["status"].text == "Bob (O) played a2. Ann (X) to move."
    for row, col in [(0, 1), (1, 1), (0, 2)]:
        page = play.move(row, col)
    assert page["status"].text == "Ann (X) wins!"
    assert [dt.text for dt in page["score"].iter("dt")] == ["Ann wins", "Bob wins", "Draws"]
    assert page["score"].attrs["data-wins"] == "1"
    # Play again with the other one opening: the score stays with the names.
    play.submit("play-again", swap="1")
    page = play.page()
    assert page["status"].text == "Bob (X) to move."
    for row, col in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        page = play.move(row, col)
    assert page["status"].text == "Bob (X) wins!"
    assert (page["score"].attrs["data-wins"], page["score"].attrs["data-losses"]) == ("1", "1")


def tallies(page: Page) -> list[str]:
    """The score line under the board, a tally each."""
    return [span.text for span in page["score-line"].iter("span")]


def test_the_counts_are_said_once_on_the_page_under_the_board_where_the_line_is(play):
    page = play.finish(random.Random(5))
    counts = [page["score"].attrs[f"data-{n}"] for n in ("wins", "losses", "draws")]
    assert tallies(page) == [f"{label} {n}" for label, n in zip(("Wins", "Losses", "Draws"), counts, strict=True)]
    assert (
        "hidden" in page["score"].attrs
        and page["score-where"].text == "Each level, and two players, keep a score of their own."
    )  # no circle back to the line that links here
    assert page["reset-score"].text == "Reset all scores…"  # the panel keeps what the line has not
    start = play.page("/?from=0-4")  # no line under the board here: the panel shows the counts
    assert start.root.by_id("score-line") is None and "hidden" not in start["score"].attrs
    assert start.root.by_id("score-where") is None


def test_two_friends_scores_are_shown_in_the_games_order_x_first(play):
    """The tally is kept by the pair of names, whoever plays X; the page shows it X first."""
    page = play.new_game(mode="friend", name_x="Zoë", name_o="Li")
    for row, col in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        page = play.move(row, col)
    assert page["status"].text == "Zoë (X) wins!"
    assert [dt.text for dt in page["score"].iter("dt")] == ["Zoë wins", "Li wins", "Draws"]
    assert tallies(page) == ["Zoë wins 1", "Li wins 0", "Draws 0"]
    assert (page["score"].attrs["data-wins"], page["score"].attrs["data-losses"]) == ("0", "1")  # by name: Li, Zoë
    play.submit("play-again", swap="1")
    page = play.page()
    assert page["status"].text == "Li (X) to move."
    assert tallies(page) == ["Li wins 0", "Zoë wins 1", "Draws 0"]
    assert [dt.text for dt in page["score"].iter("dt")] == ["Li wins", "Zoë wins", "Draws"]
    alone = play.new_game(mode="friend", name_x="Ann", name_o="")
    assert tallies(alone) == ["Ann wins 0", "The other player wins 0", "Draws 0"]


@pytest.mark.parametrize(
    ("names", "field"),
    [
        ({"name_x": "Ann", "name_o": "ann"}, "name_o"),
        ({"name_x": "<b>", "name_o": "Bob"}, "name_x"),
        ({"name_x": "Bob", "name_o": "<b>&\"'"}, "name_o"),
        ({"name_x": "A" * 13, "name_o": "Bob"}, "name_x"),
        ({"name_x": "", "name_o": "Ann \U0001f642"}, "name_o"),
    ],
)
def test_a_refused_name_is_said_beside_its_own_field(play, names, field):
    before = play.page()
    response = play.client.post("/new", data={**before.form("new-game"), "mode": "friend", **names})
    page = Page(response.text)
    assert response.status_code == 400 and page.message is None  # said in the form, not under the board
    error = page["new-game"].by_id("new-game-error")
    assert error.attrs["role"] == "alert" and "name" in error.text
    inputs = {i.attrs["name"]: i for i in page["new-game"].iter("input") if i.attrs.get("name", "").startswith("name_")}
    assert [n for n, i in inputs.items() if i.attrs.get("aria-invalid") == "true"] == [field]
    assert "new-game-error" in inputs[field].attrs["aria-describedby"]
    fieldset = next(f for f in page["new-game"].iter("fieldset") if f.by_id("new-game-error"))
    order = [e.attrs.get("name") or e.attrs.get("id") for e in fieldset.iter() if e.tag in ("input", "p")]
    assert order[order.index(field) + 1] == "new-game-error"  # right after the field it is about
    if "different" not in error.text:
        assert error.text == name_problem(names[field])  # which character, or the length
    form = page.form("new-game")  # what was typed and chosen stays, to be mended
    assert (form["mode"], form["name_x"], form["name_o"]) == ("friend", names["name_x"], names["name_o"])
    assert play.page().form("new-game")["mode"] == "ai"


@pytest.mark.parametrize(
    ("name_x", "name_o", "status"),
    [
        ("Ann", "", "Ann (X) to move."),
        ("", "Анна", "X to move."),
        ("O'Brien", "J.R.", "O'Brien (X) to move."),
        ("Anne-Marie", "देवी", "Anne-Marie (X) to move."),
        ("李小龍", "Zoë", "李小龍 (X) to move."),
    ],
)
def test_one_name_or_two_in_any_script(play, name_x, name_o, status):
    page = play.new_game(mode="friend", name_x=name_x, name_o=name_o)
    assert page["status"].text == status
    form = page.form("new-game")
    assert (form["name_x"], form["name_o"]) == (name_x, name_o)
    labels = [dt.text for dt in page["score"].iter("dt")]
    assert all(label.strip() != "wins" for label in labels)  # an unnamed player is not ""
    assert any(name in " ".join(labels) for name in (name_x, name_o) if name)


def test_names_are_ignored_against_the_ai(play):
    page = play.new_game(mode="ai", name_x="Ann", name_o="Bob")
    assert page.form("new-game")["name_x"] == "" and "Ann" not in page["status"].text


def test_play_again_keeps_the_options_and_can_switch_sides(play):
    play.new_game(side="X", difficulty="easy")
    page = play.finish(random.Random(2))
    assert page.form("play-again") | {"game": ""} == {
        **{"game": "", "mode": "ai", "side": "X", "difficulty": "easy", "name_x": "", "name_o": ""}
    }
    play.submit("play-again")
    assert play.page().form("new-game")["side"] == "X" and play.page().marks == "." * 9
    play.finish(random.Random(3))
    play.submit("play-again", swap="1")
    page = play.page()
    assert page.form("new-game")["side"] == "O" and page.marks.count("X") == 1
    assert page.form("new-game")["difficulty"] == "easy"


@pytest.mark.parametrize(("side", "difficulty"), [("X", "easy"), ("O", "impossible")])
def test_play_again_says_what_it_starts_and_where_to_change_it(play, side, difficulty):
    play.new_game(side=side, difficulty=difficulty)
    page = play.finish(random.Random(5))
    buttons = [b.text for b in page["play-again"].iter("button")]
    level, other = difficulty.capitalize(), "O" if side == "X" else "X"
    assert buttons[0] == f"Play again ({level}, you are {side})"
    assert buttons[1] == f"Play again as {other} ({level}, " + ("the AI opens)" if other == "O" else "you open)")
    assert page["play-again-note"].text.startswith("Play again keeps this game's choices.")
    assert next(page["play-again-note"].iter("a")).attrs["href"] == "#new-game"
    assert "Play again keeps this game's" in page["next-game-note"].text
    play.submit("play-again")  # what the button said is what starts
    started = play.page().form("new-game")
    assert (started["side"], started["difficulty"]) == (side, difficulty)


def test_playing_on_from_a_position_shows_one_form(play):
    page = play.page("/?from=0-1-4")
    assert page.root.by_id("start-from") is not None and page.root.by_id("new-game") is None


def test_play_again_is_offered_only_when_the_game_is_over(play):
    page = play.move(1, 1)
    assert page.root.by_id("play-again") is None
    assert play.finish(random.Random(4)).root.by_id("play-again") is not None


def test_the_ending_draws_a_line_through_the_winning_cells(play):
    play.new_game(mode="friend")
    for row, col in [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)]:  # X wins on the diagonal
        page = play.move(row, col)
    assert page.result == "win" and "result" in page["banner"].attrs["class"]
    line = next(page["strike"].iter("line")).attrs
    assert [float(line[k]) for k in ("x1", "y1", "x2", "y2")] == pytest.approx([0.253, 0.253, 2.747, 2.747], abs=1e-3)
    caption = page["board"].attrs["aria-label"]
    assert caption == "Game board, game over"


def test_a_board_before_the_end_has_no_line(play):
    assert play.move(1, 1).root.by_id("strike") is None


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        (
            "XX.OO....",
            {
                2: ("X wins now", True),
                5: ("draw with best play", False),
                6: ("O wins on its next move", False),
                7: ("O wins on its next move", False),
                8: ("O wins on its next move", False),
            },
        ),
        (
            "XO.......",
            {n: ("X wins in 3 of its moves", True) for n in (3, 4, 6)}
            | {n: ("draw with best play", False) for n in (2, 5, 7, 8)},
        ),
        ("X.O.X.O..", {n: ("X wins in 2 of its moves", False) for n in (1, 3, 5, 7)} | {8: ("X wins now", True)}),
    ],
)
def test_teach_words_on_a_read_only_board_count_each_players_own_moves(client, position, expected):
    assert hints(Page(client.get(f"/explore/{position}").text)) == expected


def test_teach_words_in_a_game_speak_to_you_and_star_the_best_moves(play):
    play.submit("teach")
    play.new_game(mode="friend")
    for row, col in [(0, 0), (1, 0), (0, 1)]:
        page = play.move(row, col)  # XX.O.....: O must block at c1, and still loses
    assert hints(page) == {2: ("X wins in 2 of its moves", True)} | {
        n: ("X wins on its next move", False) for n in (4, 5, 6, 7, 8)
    }
    label = next(page["board"].iter("a")).attrs["aria-label"]
    assert label == "Row 1, column 3, empty: place O: X wins in 2 of its moves; a best move"


def test_teach_words_against_the_ai(play):
    play.submit("teach")
    page = play.move(0, 1)
    words = [text for text, _ in hints(page).values()]
    said = r"you win (now|in [2-4] of your moves)|AI wins (on its next move|in [2-4] of its moves)"
    assert words and all(
        re.fullmatch(
            f"{said}|draw with best play",
            w,
        )
        for w in words
    )


def test_teach_words_agree_with_the_numbers_everywhere():
    """In every live position, each phrase counts the moves of the player it names."""
    for text in judge.reachable():
        if judge.is_over(text):
            continue
        board = [[None if c == "." else c for c in text[r : r + 3]] for r in (0, 3, 6)]
        for action, value in ttt.scores(board).items():
            words = in_words(value, "you", "AI")
            number = int(m.group(1)) if (m := re.search(r"in (\d) of", words)) else 1
            if value.outcome == "win":
                assert words.startswith("you win") and 2 * number - 1 == value.plies, (text, action, words)
            elif value.outcome == "loss":
                assert words.startswith("AI wins") and 2 * number == value.plies, (text, action, words)
            else:
                assert words == "draw with best play"
            assert "1 moves" not in words and " 1 of" not in words


@pytest.mark.parametrize(
    ("start", "said"),
    [
        ("", "Best play from here is a draw."),
        ("0-2-1", "I can force a win in 2 of my moves."),  # whatever the AI plays, as O
        ("0-1-2-3-6", "I can win on my next move, whatever you play."),
    ],
)
def test_the_ai_comment_counts_its_own_moves(play, start, said):
    play.submit("teach")
    if start:
        play.new_game(side="X", difficulty="impossible", **{"from": start})
    else:
        play.new_game(side="X", difficulty="impossible")
        play.move(1, 1)
    assert play.page()["ai-says"].text == said


def test_back_shows_earlier_boards_read_only(play):
    first = play.move(1, 1)
    location = play.client.get(next(iter(first.links.values()))).headers["Location"]  # the second move
    earlier = re.sub(r"n=\d", "n=2", location)
    page = play.page(earlier)
    assert page.state == "past" and page["status"].attrs["data-move"] == "2"
    assert page.marks == first.marks and page.links == {}
    assert "does not undo" in page["status"].text
    assert play.page(page["return"].attrs["href"]).state == "playing"
    assert play.page(location).links  # the current board's own address is the game
    assert play.page(location).marks == play.page().marks


def test_an_address_from_an_earlier_game_or_a_taken_back_move_says_so(play):
    game = play.move(1, 1)
    play.client.get(next(iter(game.links.values())))
    current = play.submit("undo").headers["Location"]
    later = re.sub(r"n=\d", "n=4", current)
    assert "taken back" in play.page(later).message
    play.new_game()
    assert "earlier game" in play.page(current).message
    assert play.page("/?g=nonsense&n=x").message


def test_an_undo_button_from_an_earlier_game_says_so_and_changes_nothing(play):
    play.move(1, 1)
    old = play.page()
    play.new_game()
    fresh = play.page()
    response = play.client.post(old.action("undo"), data=old.form("undo"))
    assert response.status_code == 403
    assert "That link or button is from an earlier game. Here is your game now." in Page(response.text).message
    assert play.page().marks == fresh.marks
    response = play.client.post(old.action("invite"), data=old.form("invite"))
    assert response.status_code == 403 and "That button is from an earlier game." in response.text


def test_undo_after_the_end_takes_the_result_off_the_score(play):
    play.new_game(mode="friend")
    for row, col in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        page = play.move(row, col)
    assert page["score"].attrs["data-wins"] == "1"
    assert "comes off the score" in page["undo"].text
    play.submit("undo")
    assert play.page()["score"].attrs["data-wins"] == "0"
    page = play.move(0, 2)
    assert (page["score"].attrs["data-wins"], page.state) == ("1", "over")


def test_leaving_a_lost_game_played_on_from_a_position_lists_a_loss_and_the_button_says_so(play):
    """Leaving a lost game counts a loss (tests/test_games.py); one played on from a position
    counts in no score, so it is only listed."""
    page = play.new_game(side="X", difficulty="impossible", **{"from": "0-2-1"})  # lost, whatever the AI replied
    assert page.root.by_id("resign-note") is None and "does not count in your score" in page["leave-rule"].text
    play.submit("teach")  # in teach mode the page says the game is lost
    page = play.page()
    assert page.state == "playing" and "does not count in your score" in page["resign-note"].text
    assert "goes in Your games as a loss" in next(page["new-game"].iter("button")).text
    play.submit("new-game")
    assert play.page()["score"].attrs["data-losses"] == "0"
    assert [g.attrs["data-outcome"] for g in play.page("/games/")["games"].iter("li")] == ["loss"]
    play.submit("new-game")  # a fresh game is not lost: leaving it lists nothing
    assert len(list(play.page("/games/")["games"].iter("li"))) == 1


def test_the_new_game_panel_gives_a_lost_game_away_only_in_teach_mode(play):
    """Mid-game, out of teach mode, the panel says the rule, never that this game is lost (#44)."""
    play.new_game(side="X", difficulty="impossible")
    page = lose(play)  # a move the judge says loses, the AI to win with best play
    assert page.state == "playing" and judge.value(page.marks)[0] == -1
    assert page.root.by_id("resign-note") is None and "if the AI can force a win" in page["leave-rule"].text
    assert "AI wins" not in page["new-game"].text and next(page["new-game"].iter("button")).text == "Start a new game"
    play.submit("teach")
    assert "With best play the AI wins this game from here" in play.page()["resign-note"].text


def test_leaving_a_drawn_game_counts_nothing(play):
    page = play.move(1, 1)
    assert page.root.by_id("resign-note") is None and "counts" not in next(page["new-game"].iter("button")).text
    assert play.new_game()["score"].attrs == {**play.page()["score"].attrs, "data-losses": "0"}


def test_resetting_the_scores_asks_first(play):
    play.new_game(mode="friend")
    for row, col in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        play.move(row, col)
    confirm = play.page(play.page()["reset-score"].attrs["href"])
    assert confirm["all-scores"].text == "Two players: x wins 1, o wins 0, draws 0"
    assert play.page()["score"].attrs["data-wins"] == "1"  # looking changes nothing
    play.reset_score()
    assert play.page()["score"].attrs["data-wins"] == "0"
    assert "no score yet" in play.page("/score/reset").html


def test_the_404_page_uses_our_words(client):
    page = Page(client.get("/no/such/page").text)
    assert page["error-description"].text.startswith("There is no page at this address")
