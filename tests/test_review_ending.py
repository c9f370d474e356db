"""How a game ended that its board does not show (resigned or left in a room, left against the
AI where it wins), said by the review, its title and its link preview in Your games' words;
and, against the AI, the move of yours the review opens on, said as your worst or your best.
Every sentence checked against the independent judge (tests/judge.py)."""

import random
import re

import pytest

from tests import judge
from tests.page import Page
from tests.test_games import lose
from tests.test_review_players import own_ply
from tests.test_rooms import pair

POINTS = {"win": 2, "draw": 1, "loss": 0}
TURNED = {(2, 1): "a win into a draw", (1, 0): "a draw into a loss", (2, 0): "a win into a loss"}
CELLS = [f"{col}{row}" for row in "123" for col in "abc"]  # a1 b1 c1 a2 ...


def review(client, href: str) -> Page:
    response = client.get(href)
    assert response.status_code == 200, response.text
    return Page(response.text)


def og_title(page: Page) -> str:
    return re.search(r'<meta property="og:title" content="([^"]*)"', page.html).group(1)


def position_of(moves: str) -> str:
    position = "." * 9
    for cell in map(int, moves.split("-")):
        position = judge.children(position)[cell]
    return position


def test_a_resigned_room_game_is_reviewed_as_resigned_from_the_room_and_from_your_games(app):
    host, guest = pair(app)  # Ann (X) and Bob (O)
    host.move(1, 1)
    guest.move(0, 0)
    confirm = Page(guest.client.get(guest.page()["resign"].attrs["href"]).text)
    guest.client.post(confirm.action("resign-confirm"), data=confirm.form("resign-confirm"))
    href = guest.page()["review"].attrs["href"]
    assert "resigned=O" in href
    listed = Page(guest.client.get("/games/").text)["games"]
    item = next(listed.iter("li"))
    assert "Lost: you resigned or left" in item.text
    assert next(item.iter("a")).attrs["href"] == href  # Your games' link is the room's
    page = review(guest.client, href)
    said = "Bob resigned or left after 2 moves: Ann won."
    assert page["brief-result"].text == said and said in page.title
    assert og_title(page) == "Tic-tac-toe, move by move: Bob (O) resigned or left: Ann (X) won"
    assert "unfinished" not in page.html.lower()
    assert not judge.is_over(position_of("4-0"))  # the board does not show it ended
    assert page["turning-point"].text == "No move changed the result with best play before Bob resigned or left."
    host.post("rematch")  # the round goes in Ann's games at her next step in the room (a GET changes nothing)
    host_view = Page(host.client.get("/games/").text)["games"]
    assert "Won: Bob resigned or left" in next(host_view.iter("li")).text
    next_link = page["next"].attrs["href"] if page.root.by_id("next") else page["previous"].attrs["href"]
    assert "resigned=O" in next_link  # stepping keeps how it ended


def test_a_game_left_where_the_ai_wins_is_reviewed_as_left(play, client):
    play.new_game(mode="ai", difficulty="impossible", side="X")
    page = lose(play)
    assert page.state == "playing" and judge.value(page.marks)[0] == -1  # the AI (O) wins, by the judge
    assert judge.to_move(page.marks) == "X"  # on your turn
    play.new_game(mode="ai")  # leaving it
    item = next(play.page("/games/")["games"].iter("li"))
    assert "Lost: left where the AI wins" in item.text
    href = next(item.iter("a")).attrs["href"]
    assert "left=X" in href
    moves = href.split("/review/")[1].split("?")[0]
    review_page = review(client, href)
    count = len(moves.split("-"))
    said = f"Lost: you left where the AI wins with best play, after {count} moves."
    assert review_page["brief-result"].text == said and said in review_page.title
    wins = f"X left where the AI (O, Impossible) wins with best play, after {count} moves"
    assert og_title(review_page) == f"Tic-tac-toe, move by move: {wins}"
    assert judge.value(position_of(moves))[0] == -1 and not judge.is_over(position_of(moves))


@pytest.mark.parametrize(
    ("query", "why"),
    [
        ("x=Ann&o=Bob&resigned=Z", "?resigned=X or ?resigned=O"),
        ("x=Ann&o=Bob&resigned=X&left=O", "ended one way"),
        ("you=X&ai=easy&resigned=O", "left (?left=), not resigned"),
        ("you=X&ai=easy&left=O", "on your turn"),
        ("you=O&ai=easy&left=O", "on your turn"),  # X to move
    ],
)
def test_an_ending_the_game_cannot_have_had_is_refused(client, query, why):
    response = client.get(f"/review/0-4-8?{query}")
    assert response.status_code == 400 and why in response.text


def test_a_game_over_on_the_board_was_not_resigned(client):
    response = client.get("/review/0-3-1-4-2?x=Ann&o=Bob&resigned=O")
    assert response.status_code == 400 and "ended on the board" in response.text


def test_a_game_left_where_the_ai_does_not_win_was_not_left_lost(client):
    assert judge.value(position_of("4-1"))[0] == 1  # X to move, and X wins: not lost
    assert client.get("/review/4-1?you=X&ai=easy&left=X").status_code == 400


def outlook(position: str, cell: int, you: str) -> str:
    """What a move leads to under perfect play, in the review's words, from the judge."""
    outcome, plies = judge.move_outcome(position, cell)
    if outcome == "draw":
        return "holds the draw"
    if outcome == "win":
        moves = (plies + 1) // 2
        return "wins at once" if moves == 1 else f"wins in {moves} of your moves"
    theirs = plies // 2
    return "loses: the AI wins " + ("on its next move" if theirs == 1 else f"in {theirs} of its moves")


@pytest.mark.parametrize("you", ["X", "O"])
def test_the_review_opens_on_your_worst_move_or_your_best_and_says_which(client, you):
    rng = random.Random(you)
    seen = set()
    for _ in range(60):
        position, cells = "." * 9, []
        while not judge.is_over(position):
            cells.append(rng.choice(sorted(judge.children(position))))
            position = judge.children(position)[cells[-1]]
        moves = "-".join(map(str, cells))
        page = review(client, f"/review/{moves}?you={you}&ai=medium")
        ply, worst = own_ply(moves, you)
        assert page["review-title"].attrs["data-ply"] == str(ply), moves
        before = position_of("-".join(map(str, cells[: ply - 1]))) if ply > 1 else "." * 9
        cell = cells[ply - 1]
        lines = [p.text for p in page["summary"].iter("p")]
        if worst:
            outcomes = {c: POINTS[judge.move_outcome(before, c)[0]] for c in judge.children(before)}
            turned = TURNED[max(outcomes.values()), outcomes[cell]]
            said = f"Your worst move: move {ply}, you at {CELLS[cell]}, turned {turned} for you, with best play."
        else:
            count = len(judge.optimal_moves(before))
            only = "the only best move there" if count == 1 else f"one of {count} best moves there"
            which = outlook(before, cell, you)
            played = f"move {ply}, you at {CELLS[cell]}, which {which}, {only}"
            said = f"Your best move (none of yours changed the result): {played}."
        assert said in lines, (moves, lines)
        seen.add(worst)
    assert seen == {True, False}  # both kinds were checked


def test_a_won_game_against_easy_opens_on_your_move_not_the_ais_slip(client):
    """#44: /review/0-1-2-4-7-3-5-8-6?ai=medium&you=O opened on the AI's c1; you blundered at b1."""
    page = review(client, "/review/0-1-2-4-7-3-5-8-6?ai=medium&you=O")
    assert page["review-title"].text == "Move 2 of 9: you (O) played b1 (0, 1)"
    assert "Your worst move: move 2, you at b1, turned a draw into a loss for you" in page["summary"].text
