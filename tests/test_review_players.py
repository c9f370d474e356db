"""The review from the players' side: "you" and the AI in a game against it (the AI's worse
moves said to be on purpose, your moves the ones to retry), names between two people; every
move's side and turning point checked against the independent judge."""

import random
from urllib.parse import parse_qs, urlsplit

import pytest

from tests import judge
from tests.page import Page

# X a1, O b1 (the AI's mistake: a draw into a loss), X c1 (yours: a win into a draw), ... O wins
LOST = "0-1-2-3-5-4-6-7"
POINTS = {"win": 2, "draw": 1, "loss": 0}
AS_X = "you=X&ai=easy"


def turns(moves: str) -> list[tuple[int, str, bool, bool]]:
    """(ply, mark, best, turned) for each move, by the judge: whether it was a best move
    (exact value kept) and whether it changed the outcome for its player."""
    position, out = "." * 9, []
    for ply, cell in enumerate(map(int, moves.split("-")), 1):
        mark = judge.to_move(position)
        outcomes = {c: judge.move_outcome(position, c)[0] for c in judge.children(position)}
        best = max(POINTS[o] for o in outcomes.values())
        out.append((ply, mark, cell in judge.optimal_moves(position), POINTS[outcomes[cell]] < best))
        position = judge.children(position)[cell]
    return out


def review(client, moves: str, query: str) -> Page:
    response = client.get(f"/review/{moves}?{query}")
    assert response.status_code == 200
    return Page(response.text)


def decided(moves: str) -> int | None:
    """By the judge, the ply of the last move that changed the value (X's side), after which
    the result then forced stayed forced; None if no move changed it."""
    position, ply, value = "." * 9, None, judge.value("." * 9)[0]
    for n, cell in enumerate(map(int, moves.split("-")), 1):
        position = judge.children(position)[cell]
        if judge.value(position)[0] != value:
            ply, value = n, judge.value(position)[0]
    return ply


def own_ply(moves: str, you: str) -> tuple[int, bool]:
    """By the judge, the ply of your move a review against the AI opens on, and whether it is
    your worst: the one that lost most of the result with best play (the last of equal ones);
    else your best move keeping the best outcome you ever had, where the fewest best moves
    were (the first of equal ones)."""
    position, worst, best = "." * 9, (0, 0), []
    for ply, cell in enumerate(map(int, moves.split("-")), 1):
        if judge.to_move(position) == you:
            got = {c: POINTS[judge.move_outcome(position, c)[0]] for c in judge.children(position)}
            lost = max(got.values()) - got[cell]
            if lost and lost >= worst[0]:
                worst = (lost, ply)
            if cell in judge.optimal_moves(position):
                best.append((-got[cell], len(judge.optimal_moves(position)), ply))
        position = judge.children(position)[cell]
    return (worst[1], True) if worst[0] else (min(best)[2], False)


def test_the_turning_point_is_the_move_that_decided_the_result_not_a_first_mistake(client):
    judged = turns(LOST)
    yours = [t[0] for t in judged if t[3] and t[1] == "X"]
    assert judged[1][3] and len(yours) == 3 and decided(LOST) == yours[-1] == 7  # the AI erred first, you last
    page = review(client, LOST, AS_X)
    assert page["review-title"].attrs["data-ply"] == "7" == str(own_ply(LOST, "X")[0])
    assert page["review-title"].text.startswith("Move 7 of 8: you (X) played")
    assert page["turning-point"].text.startswith("Your turning point: Move 7, you at")
    assert page["turning-point"].text.endswith("turned a win into a loss for you, with best play.")
    assert "The AI won in 4 of its moves (8 in all)." in page.title
    friends = review(client, "4-1-0-8-2-6-3-7", "x=Ann&o=Bob")  # Bob's early slip, then Ann's a2 lost it
    assert friends["turning-point"].text == "Move 7, Ann at a2, turned a draw into a loss for Ann, with best play."


@pytest.mark.parametrize("query", ["x=Ann&o=Bob", "you=X&ai=easy", "you=O&ai=medium"])
def test_the_turning_point_of_random_games_is_the_judges_last_change(client, query):
    rng = random.Random(query)
    for _ in range(40):
        position, cells = "." * 9, []
        while not judge.is_over(position):
            cells.append(rng.choice(sorted(judge.children(position))))
            position = judge.children(position)[cells[-1]]
        moves = "-".join(map(str, cells))
        page, ply = review(client, moves, query), decided(moves)
        shown = page["review-title"].attrs["data-ply"]
        said = page["turning-point"].text
        if query.startswith("you="):  # against the AI the review opens on a move of yours (tests/test_review_ending.py)
            assert shown == str(own_ply(moves, query[4])[0]), moves
        if ply is None:
            assert shown == str(len(cells)) or query.startswith("you="), moves
            assert said.startswith("No move changed the result"), moves
            continue
        assert shown == str(ply) or query.startswith("you="), (moves, ply, said)
        assert f"Move {ply}, " in said, (moves, ply, said)
        ai_moved = query.startswith("you=") and ("X" if ply % 2 else "O") != query[4]
        assert said.startswith("The AI's move settled the result: ") == ai_moved, (moves, said)


def test_the_ais_worse_moves_are_the_ais_and_on_purpose(client):
    ai_errors = [t for t in turns(LOST) if t[1] == "O" and not t[2]]
    assert ai_errors
    for ply, *_ in ai_errors:
        verdict = review(client, LOST, f"{AS_X}&ply={ply}")["verdict"].text
        assert verdict.split(": ")[0].endswith(", on purpose") and ": the AI played" in verdict
        assert "At Easy, the AI plays a worse move on purpose on 60 % of its moves" in verdict
    listed = {li.attrs["data-ply"]: li for li in review(client, LOST, AS_X)["review-moves"].iter("li")}
    for ply, mark, best, _ in turns(LOST):
        item = listed[str(ply)]
        assert item.attrs["data-who"] == ("you" if mark == "X" else "the AI")
        assert ("on purpose" in item.text) == (mark == "O" and not best)
        assert ("you should have played" in item.text) == (mark == "X" and not best)


def test_a_medium_ai_says_its_own_rate_and_an_impossible_one_that_it_never_errs(client):
    page = review(client, LOST, "you=X&ai=medium&ply=2")
    assert "At Medium, the AI plays a worse move on purpose on 25 % of its moves" in page["verdict"].text
    text = review(client, "4-0-2-6-3-5-1-7-8", "you=O&ai=impossible").root.text
    assert "At Impossible, the AI plays a best move every time." in text


@pytest.mark.parametrize("moves", [LOST, "0-1-4-2-8"])  # the second: O's inaccuracy keeps the loss
def test_your_accuracy_comes_first_and_says_what_it_counts(client, moves):
    items = list(review(client, moves, "you=O&ai=easy")["review-summary"].iter("li"))
    assert [li.attrs["data-mark"] for li in items] == ["O", "X"]
    assert items[0].text.startswith("You (O) :") and items[1].text.startswith("AI (X, Easy) :")
    for li, mark in zip(items, "OX", strict=True):
        mine = [t for t in turns(moves) if t[1] == mark]
        kept, best = sum(not t[3] for t in mine), sum(t[2] for t in mine)
        assert f"{kept} of {len(mine)} moves kept the best outcome, {best} of them the best move" in li.text


def test_only_your_moves_are_retried_and_every_link_keeps_who_played(client):
    for side in "XO":
        query = f"you={side}&ai=easy"
        yours = [ply for ply, mark, best, _ in turns(LOST) if mark == side and not best]
        page = review(client, LOST, query)
        link = page["retry"]
        assert f"Retry the {len(yours)} moves of yours" in link.text
        assert parse_qs(urlsplit(link.attrs["href"]).query) == {"you": [side], "ai": ["easy"]}
        for n, ply in enumerate(yours, 1):
            retry = Page(client.get(f"/review/{LOST}/retry/{n}?{query}").text)
            assert retry["retry-title"].text == f"Retry {n} of {len(yours)}: your move ({side})"
            assert retry["retry-task"].text.startswith(f"At move {ply}, you ({side}) played")
            assert side in parse_qs(urlsplit(retry["next"].attrs["href"]).query)["you"]
        beyond = client.get(f"/review/{LOST}/retry/{len(yours) + 1}?{query}")
        assert beyond.status_code == 404 and "moves of yours to retry" in beyond.text
    steps = [a.attrs["href"] for a in page["review-moves"].iter("a")]
    assert all(parse_qs(urlsplit(h).query)["you"] == ["O"] for h in steps)


def test_two_people_are_named_in_the_review_and_its_share_text(client):
    page = review(client, "0-1-4-2-8", "x=Ann&o=Bob")
    assert page["verdict"].text.startswith("Mistake: Bob played b1 (0, 1), turning a draw into a loss. Bob should have")
    assert page["turning-point"].text == "Move 2, Bob at b1, turned a draw into a loss for Bob, with best play."
    assert page["share-text"].text == (
        "Tic-tac-toe, every move judged: Ann won in 3 of their moves (5 in all)."
        " Ann (X): 100 % accuracy. Bob (O): 75 % accuracy."
    )
    assert parse_qs(urlsplit(page["share-link"].attrs["href"]).query) == {"x": ["Ann"], "o": ["Bob"]}
    assert "Retry the 2 moves that were not best" in page["retry"].text  # both people's moves


def test_the_share_text_against_the_ai_says_your_side_and_accuracy(client):
    page = review(client, "0-1-4-2-8", "you=X&ai=easy")
    assert page["share-text"].text == (
        "Tic-tac-toe against the AI at Easy, every move judged: I won in 3 of my moves (5 in all)."
        " I played X, with 100 % accuracy."
    )


@pytest.mark.parametrize(
    "query",
    ["you=Q&ai=easy", "you=X", "ai=easy", "you=X&ai=hard", "you=X&ai=easy&x=Ann", "x=%3Cb%3E", "o=" + "A" * 13],
)
def test_a_query_that_does_not_say_who_played_gets_a_clear_page(client, query):
    response = client.get(f"/review/0-1-4-2-8?{query}")
    assert response.status_code == 400 and "Traceback" not in response.text
    retry = client.get(f"/review/0-1-4-2-8/retry/1?{query}")
    assert retry.status_code == 400


def test_a_win_thrown_into_a_draw_says_what_best_play_then_does(client):
    """X's c1 at move 3 of LOST turned a win into a draw: the sentence says that best play
    draws after it, once (it said "with best play draw with best play")."""
    position = "." * 9
    for cell in map(int, LOST.split("-")[:3]):
        position = judge.children(position)[cell]
    assert turns(LOST)[2] == (3, "X", False, True) and judge.value(position)[0] == 0
    said = review(client, LOST, AS_X + "&ply=3")["verdict"].text
    assert "; after c1, best play draws: " in said and "draw with best play" not in said


def test_a_move_that_was_not_best_can_be_played_on_from_before_it(client):
    """At your c1 (move 3 of LOST, a win thrown into a draw) you may play on from the position
    before it, to play the better move; a best move offers only the position after it."""
    mistake = review(client, LOST, AS_X + "&ply=3")
    link = mistake["play-from-before"]
    assert link.text == "Play on from before your move"
    query = parse_qs(urlsplit(link.attrs["href"]).query)
    assert query == {"from": ["0-1"], "you": ["X"], "ai": ["easy"]}
    assert parse_qs(urlsplit(mistake["play-from-here"].attrs["href"]).query)["from"] == ["0-1-2"]
    assert review(client, LOST, AS_X + "&ply=1").root.by_id("play-from-before") is None
    page = Page(client.get(link.attrs["href"]).text)
    assert page.form("start-ai")["difficulty"] == "easy" and "You play X, to move" in page["start-from"].text
