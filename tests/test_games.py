"""Your games (/games/): the last 20 finished games of the session, newest first, each a
link to its review; kept through new games and undo; reached from every game page."""

import random

import pytest

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
    assert "The AI, impossible; you played O" in text
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
    assert "Ann won in 5 moves." in Page(play.client.get(link).text)["share-text"].text


def test_new_games_and_undo_keep_the_list(play):
    rng = random.Random(11)
    first = finish_between_friends(play, rng)
    play.new_game(mode="ai", difficulty="easy")  # a new game, not finished
    assert [g["data-moves"] for g in listed(play)] == [first]
    play.new_game(mode="friend")
    page = play.finish(rng)
    second = page["review"].attrs["href"].split("?")[0].removeprefix("/review/")
    play.submit("undo")  # the finished game is taken back: it stays listed, as it was played
    assert [g["data-moves"] for g in listed(play)] == [second, first]
    page = play.finish(random.Random(99))  # and finished another way: both are there
    third = page["review"].attrs["href"].split("?")[0].removeprefix("/review/")
    expected = [second, first] if third == second else [third, second, first]
    assert [g["data-moves"] for g in listed(play)] == expected


def test_walking_away_from_a_game_lists_nothing(play):
    play.new_game(mode="ai", difficulty="impossible")
    play.move(0, 1)
    play.new_game(mode="ai")
    assert listed(play) == []


@pytest.mark.parametrize("at", ["/", "/games/", "/practice/?position=X...O....", "/explore/", "/explore/bugs"])
def test_every_page_has_the_site_navigation(play, at):
    nav = next(e for e in play.page(at).root.iter("nav") if e.attrs.get("aria-label") == "Site")
    links = {a.text: a.attrs for a in nav.iter("a")}
    assert list(links) == ["Play", "Your games", "Explore", "Practice", "Bugs"]
    assert [label for label, attrs in links.items() if attrs.get("aria-current") == "page"] == [
        {"/": "Play", "/games/": "Your games", "/explore/bugs": "Bugs"}.get(at, at.split("/")[1].capitalize())
    ]


def test_the_result_banner_links_to_the_review_and_your_games(play):
    play.new_game(mode="friend")
    page = play.finish(random.Random(5))
    banner = page["banner"]
    assert banner.by_id("review") is not None and banner.by_id("your-games").attrs["href"] == "/games/"
