"""Your games (/games/): the last 20 finished games of the session, newest first, each a
link to its review; kept through new games and undo; reached from every game page."""

import random

import pytest

from tests import judge
from tests.page import Page

X_WINS = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]  # X a1, O a2, X b1, O b2, X c1: a row


def listed(play) -> list[dict]:
    page = play.page("/games/")
    found = page.root.by_id("games")
    return [item.attrs for item in found.iter("li")] if found else []


def finish_between_friends(play, rng) -> str:
    """A finished game between two friends; its moves as a review names them."""
    play.new_game(mode="friend")
    page = play.finish(rng)
    return page["review"].attrs["href"].split("?")[0].removeprefix("/review/")


def test_no_games_yet_says_how_to_get_one(play):
    page = play.page("/games/")
    assert page.root.by_id("games") is None and "Play one" in page["no-games"].text


def test_the_last_twenty_finished_games_newest_first(play):
    rng = random.Random(7)
    played = [finish_between_friends(play, rng) for _ in range(23)]
    games = listed(play)
    assert [g["data-moves"] for g in games] == played[::-1][:20]


def test_each_game_links_to_its_review_with_its_final_board(play):
    play.new_game(mode="friend")
    for row, col in X_WINS:
        page = play.move(row, col)
    assert page.result == "win"
    item = play.page("/games/")["games"]
    link = next(item.iter("a"))
    assert link.attrs["href"] == "/review/0-3-1-4-2"
    review = Page(play.client.get(link.attrs["href"] + "?ply=5").text)
    assert review.marks == page.marks == "XXXOO...."
    assert "X won" in item.text and "Two players" in item.text


def test_a_game_against_the_ai_says_won_lost_or_draw_and_the_difficulty(play):
    play.new_game(mode="ai", difficulty="impossible", side="O")
    page = play.finish(random.Random(3))
    game = listed(play)[0]
    assert game["data-outcome"] == page.result
    text = play.page("/games/")["games"].text
    assert {"win": "Won", "loss": "Lost", "draw": "Draw"}[page.result] in text
    assert "The AI, Impossible; you played O" in text
    link = next(play.page("/games/")["games"].iter("a")).attrs["href"]
    assert link.endswith("?ai=impossible&you=O")  # its review speaks of you and the AI
    review = Page(play.client.get(link).text)
    assert review["review-summary"].text.startswith("You (O)")


def test_a_game_between_named_friends_is_reviewed_by_their_names(play):
    play.new_game(mode="friend", name_x="Ann", name_o="Bob")
    for row, col in X_WINS:
        play.move(row, col)
    link = next(play.page("/games/")["games"].iter("a")).attrs["href"]
    assert link == "/review/0-3-1-4-2?o=Bob&x=Ann"
    assert "Ann won in 3 of their moves (5 in all)." in Page(play.client.get(link).text)["share-text"].text


def test_new_games_and_undo_keep_the_list_as_the_score_counts_it(play):
    rng = random.Random(11)
    first = finish_between_friends(play, rng)
    play.new_game(mode="ai", difficulty="easy")  # a new game, not finished
    assert [g["data-moves"] for g in listed(play)] == [first]
    play.new_game(mode="friend")
    page = play.finish(rng)
    second = page["review"].attrs["href"].split("?")[0].removeprefix("/review/")
    assert [g["data-moves"] for g in listed(play)] == [second, first]
    play.submit("undo")  # the ending is taken back: off the score, and off the list
    assert [g["data-moves"] for g in listed(play)] == [first]
    page = play.finish(random.Random(99))  # and finished again
    third = page["review"].attrs["href"].split("?")[0].removeprefix("/review/")
    assert [g["data-moves"] for g in listed(play)] == [third, first]


def lose(play) -> Page:
    """Play a move after which the AI wins with best play, but not on its next move (by the
    judge), as soon as there is one, and best moves until then."""
    page = play.move(0, 1)  # b1: an opening where the AI's replies mostly leave slow losses
    while page.state == "playing" and judge.value(page.marks)[0] != -1:
        outcomes = {cell: judge.move_outcome(page.marks, 3 * cell[0] + cell[1]) for cell in page.links}
        slow = [cell for cell, (outcome, plies) in outcomes.items() if outcome == "loss" and plies > 2]
        page = play.move(*(slow[0] if slow else divmod(judge.optimal_moves(page.marks)[0], 3)))
    return page


def test_the_score_and_your_games_count_the_same_games(play):
    """Games lost and drawn, one left lost, one whose end was undone: the score's count of
    each result is the list's."""
    for n in range(4):
        play.new_game(mode="ai", difficulty="impossible", side="X")
        page = lose(play) if n < 2 else play.finish(random.Random(n))
        assert n >= 2 or judge.value(page.marks)[0] == -1  # lost, by the judge
        if n == 0:
            page = play.finish(random.Random(n))
        assert page.state != "playing" or n == 1  # round 1 is left lost, by the next new game
        if n == 2:
            play.submit("undo")  # off the score and off the list
    play.new_game(mode="ai", difficulty="impossible", side="X")
    score = play.page()["score"].attrs
    games = listed(play)
    for data, outcome in (("data-wins", "win"), ("data-losses", "loss"), ("data-draws", "draw")):
        assert int(score[data]) == sum(g["data-outcome"] == outcome for g in games), (score, games)
    assert int(score["data-losses"]) >= 1
    left = [g for g in play.page("/games/")["games"].iter("li") if "left where the AI wins" in g.text]
    assert len(left) == 1 and left[0].attrs["data-outcome"] == "loss"


def test_walking_away_from_a_game_lists_nothing(play):
    play.new_game(mode="ai", difficulty="impossible")
    play.move(0, 1)
    play.new_game(mode="ai")
    assert listed(play) == []


@pytest.mark.parametrize("at", ["/", "/games/", "/practice/?position=X...O....", "/explore/", "/explore/bugs"])
def test_every_page_has_the_site_navigation(play, at):
    nav = next(e for e in play.page(at).root.iter("nav") if e.attrs.get("aria-label") == "Site")
    links = {a.text: a.attrs for a in nav.iter("a")}
    assert list(links) == ["Play", "Your games", "Explore", "Who wins?", "For students"]
    assert [label for label, attrs in links.items() if attrs.get("aria-current") == "page"] == [
        {"/": "Play", "/games/": "Your games", "/explore/bugs": "For students", "/explore/": "Explore"}.get(
            at, "Who wins?"
        )
    ]


def test_the_result_banner_links_to_the_review_and_your_games(play):
    play.new_game(mode="friend")
    page = play.finish(random.Random(5))
    banner = page["banner"]
    assert banner.by_id("review") is not None and banner.by_id("your-games").attrs["href"] == "/games/"
