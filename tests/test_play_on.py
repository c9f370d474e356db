"""A game played on from a position (a review's "Play on from this position"): its starting
moves were given, not played in it, so nobody is credited with them and Undo stops there."""

import random

import pytest

from tests.page import Page

START = "1-4-7"  # X b1, O b2, X b3: O to move


def play_on(play, **choice) -> Page:
    """A new game from START, started with the form for `choice` as a review's link shows it."""
    form = "start-friend" if choice.get("mode") == "friend" else "start-ai"
    page = Page(play.client.get(f"/?from={START}").text)
    assert play.client.post("/new", data={**page.form(form), **choice}).status_code == 303
    return play.page()


def undo_disabled(page: Page) -> bool:
    return "disabled" in next(page["undo"].iter("button")).attrs


def test_the_status_says_the_game_starts_from_the_position(play):
    page = play_on(play, side="O")
    assert page.marks == ".X..O..X." and page["status"].text == "You play on from this position. Your turn: place O."
    assert page.title.startswith("You play on from this position. Your turn")
    page = play.move(0, 0)
    assert page["status"].text.startswith("The AI played ") and page["status"].text.endswith(". Your turn.")


def test_friends_read_that_they_play_on_from_the_position(play):
    page = play_on(play, mode="friend")
    assert page["status"].text == "Play on from this position. O to move."
    assert play.move(0, 0)["status"].text == "O played a1. X to move."


def test_the_ais_reply_at_the_start_is_told_as_played(play):
    """The human plays X, so the AI, to move, replied at the start: that move was played."""
    page = play_on(play, side="X")
    assert page.marks.count(".") == 5 and page["status"].text.startswith("The AI played ")


@pytest.mark.parametrize("choice", [{"side": "O"}, {"side": "X"}, {"mode": "friend"}])
def test_undo_stops_at_the_position_played_on_from(play, choice):
    start = play_on(play, **choice)
    assert undo_disabled(start)
    assert play.client.post("/undo", data=start.form("undo")).status_code == 409
    assert play.page().marks == start.marks
    play.move(*next(iter(sorted(start.links))))
    play.submit("undo")
    page = play.page()
    assert page.marks == start.marks and undo_disabled(page)


def test_the_new_game_panel_says_this_game_was_played_on_and_the_next_starts_empty(play):
    note = play_on(play, side="O")["next-game-note"].text
    assert note.startswith("This game: you play O against the AI, Medium, played on from a position.")
    assert "next game, from the empty board," in note
    fresh = play.new_game(side="O")
    assert "position" not in fresh["next-game-note"].text and "empty board" not in fresh["next-game-note"].text
    assert fresh.marks.count("O") == 0 and fresh.marks.count("X") == 1  # the AI opened, as ticked


def test_in_teach_mode_the_ai_speaks_only_once_it_has_moved(play):
    """At the start of a game played on from a position, with you to move, the AI has said
    nothing to comment on; after your move and its reply, it says what it expects."""
    play.submit("teach")
    page = play_on(play, side="O")
    assert "teaching" in page["board"].attrs["class"] and page.root.by_id("ai-says") is None
    assert play.move(0, 0).root.by_id("ai-says") is not None


def test_the_score_beside_the_form_is_the_ticked_levels_which_a_game_played_on_leaves_alone(play):
    """A review's link ticks the level of the game reviewed (Impossible); the score beside it
    is that level's, not the one of the game you have (Medium), which is not on the page."""
    play.finish(random.Random(3))  # a game at Medium: its result counts there
    medium = {k: v for k, v in play.page()["score"].attrs.items() if k != "hidden"}  # said under the board there
    assert play.page()["score-title"].text == "Score: Medium"
    assert sum(int(medium[f"data-{n}"]) for n in ("wins", "losses", "draws")) == 1
    page = play.page(f"/?from={START}&you=O&ai=impossible")
    assert page.form("start-ai")["difficulty"] == "impossible"
    assert page["score-title"].text == "Score: Impossible"
    assert [page["score"].attrs[f"data-{n}"] for n in ("wins", "losses", "draws")] == ["0", "0", "0"]
    unsaid = play.page(f"/?from={START}")  # no level in the link: the form ticks your game's
    assert unsaid.form("start-ai")["difficulty"] == "medium" and unsaid["score-title"].text == "Score: Medium"
    assert unsaid["score"].attrs == medium
    play.client.post("/new", data={**page.form("start-ai"), "side": "O"})
    assert play.page()["score-title"].text == "Score: Impossible"


def test_the_moves_list_marks_the_starting_position_and_numbers_the_moves_played_from_1(play):
    """As the review does: the given moves are the starting position (a bullet, no number), the
    first move played is move 1."""
    play_on(play, side="O")
    page = play.move(0, 0)
    listed = list(page["history"].iter("li"))
    assert [li.attrs.get("class") for li in listed] == ["given", "given", "given", None, None]
    assert [li.attrs.get("value") for li in listed] == [None, None, None, "1", None]
    assert "played are numbered from 1" in page["history-given"].text


def test_a_game_played_on_from_a_position_does_not_count_in_the_score_but_is_listed(play):
    """As a game from a position is never rated on lichess: a win there is no win on the score."""
    assert "does not count in your score" in Page(play.client.get(f"/?from={START}").text)["start-from"].text
    play_on(play, mode="friend")
    for cell in ((0, 0), (1, 0)):
        play.move(*cell)
    page = play.move(2, 2)  # O a1, X a2, O c3: O's diagonal
    assert page["status"].attrs["data-winner"] == "O"
    assert [page["score"].attrs[f"data-{n}"] for n in ("wins", "losses", "draws")] == ["0", "0", "0"]
    assert page["not-scored"].text == "A game played on from a position does not count in your score."
    assert "comes off the score" not in page["undo"].text
    assert len(list(play.page("/games/")["games"].iter("li"))) == 1


def test_your_games_and_the_review_say_a_game_played_on_was_not_scored(play):
    """Listed with the moves played in it, after the ones given, and its review says it did
    not count: the score and the list would seem to disagree otherwise."""
    play_on(play)
    page = play.finish(random.Random(7))
    assert page["not-scored"].text.startswith("A game played on")
    entry = next(play.page("/games/")["games"].iter("li"))
    made = len(entry.attrs["data-moves"].split("-")) - 3
    assert f"{made} move{'s' if made != 1 else ''}, played on after move 3, not scored" in entry.text
    review = play.page(next(entry.iter("a")).attrs["href"])
    said = "Played on from the position after move 3, this game does not count in your score."
    assert review["not-scored"].text == said
