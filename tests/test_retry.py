"""Retry the mistakes of a reviewed game: each move that was not best, as the position
before it, where a try is graded at once against the independent judge."""

import random

import pytest

from tests import judge
from tests.page import Page

GAME = "0-1-4-2-8"  # X a1, O b1 (a mistake), X b2, O c1 (an inaccuracy), X c3 wins


def tried(client, n: int, cell: int | None = None) -> Page:
    response = client.get(f"/review/{GAME}/retry/{n}" + (f"?try={cell}" if cell is not None else ""))
    assert response.status_code == 200
    return Page(response.text)


def test_the_review_links_to_its_retries(client):
    review = Page(client.get(f"/review/{GAME}").text)
    assert review["retry"].attrs["href"] == f"/review/{GAME}/retry/1"
    assert "2 moves" in review["retry"].text
    assert Page(client.get("/review/4-0-2-6-3-5-1-7-8").text).root.by_id("retry") is None  # all best


@pytest.mark.parametrize(("n", "before"), [(1, "X........"), (2, "XO..X....")])
def test_each_retry_is_the_position_before_the_move(client, n, before):
    page = tried(client, n)
    assert page.marks == before
    links = [a.attrs["href"] for a in page["board"].iter("a")]
    assert len(links) == before.count(".")
    assert page.root.by_id("retry-result") is None


@pytest.mark.parametrize("n", [1, 2])
def test_every_try_is_graded_by_the_judge(client, n):
    before = tried(client, n).marks
    best = judge.optimal_moves(before)
    for cell in (c for c in range(9) if before[c] == "."):
        page = tried(client, n, cell)
        result = page["retry-result"]
        assert (result.attrs["data-correct"] == "true") == (cell in best), (before, cell)
        links = list(page["board"].iter("a"))
        assert (not links) == (cell in best)  # solved: nothing left to try; else try again


def test_the_last_retry_leads_back_to_the_review(client):
    page = tried(client, 2)
    assert page["next"].attrs["href"] == f"/review/{GAME}" and page["previous"].attrs["href"].endswith("/retry/1")
    assert page["in-review"].attrs["href"] == f"/review/{GAME}?ply=4&show=better"
    assert page["answer"].attrs["href"] == f"/review/{GAME}/retry/2?show=answer"
    best = judge.optimal_moves(page.marks)
    wrong = next(c for c in range(9) if page.marks[c] == "." and c not in best)
    assert page["next"].text == tried(client, 2, wrong)["next"].text == "Back to the review"  # not done yet
    assert tried(client, 2, best[0])["next"].text == "Back to the review"  # retry 1 was never solved
    solved = Page(client.get(f"/review/{GAME}/retry/2?solved=1&try={best[0]}").text)
    assert solved["next"].text == "Done: back to the review"


@pytest.mark.parametrize("n", [1, 2])
def test_a_try_is_drawn_on_the_board_right_or_wrong(client, n):
    before = tried(client, n).marks
    mover, best = judge.to_move(before), judge.optimal_moves(before)
    for cell in (c for c in range(9) if before[c] == "."):
        page = tried(client, n, cell)
        assert page.marks == before[:cell] + mover + before[cell + 1 :]
        drawn = page.cells[cell]
        right = cell in best
        assert f"tried-{'right' if right else 'wrong'}" in drawn.attrs["class"]
        said = f"Row {cell // 3 + 1}, column {cell % 3 + 1}, your try: {mover}, " + (
            "right" if right else "not this one"
        )
        assert said in drawn.text  # every cell's label names its row and column


@pytest.mark.parametrize("n", [1, 2])
def test_the_answer_stays_in_the_retry_flow(client, n):
    before = tried(client, n).marks
    page = Page(client.get(f"/review/{GAME}/retry/{n}?show=answer").text)
    starred = [i for i, c in enumerate(page.cells) if "answer" in c.attrs["class"].split()]
    assert starred == sorted(judge.optimal_moves(before)) and not page.links
    for cell in starred:
        assert f"Row {cell // 3 + 1}, column {cell % 3 + 1}, the answer" in page.cells[cell].text
    assert page["retry-answer"].text.startswith("The answer: ")
    assert page["try-again"].attrs["href"] == f"/review/{GAME}/retry/{n}"
    assert page.root.by_id("next") is not None  # on to the next mistake, or back to the review


@pytest.mark.parametrize(
    ("path", "status"),
    [("/retry/3", 404), ("/retry/0", 404), ("/retry/1?try=0", 400), ("/retry/1?try=9", 400), ("/retry/1?try=x", 400)],
)
def test_retries_that_do_not_exist_get_a_clear_page(client, path, status):
    response = client.get(f"/review/{GAME}{path}")
    assert response.status_code == status and "Traceback" not in response.text


@pytest.mark.parametrize(
    ("game", "said"),
    [("0-4-1-2-5-6", "This game has 1 move to retry."), ("0-1-4-2-8", "This game has 2 moves to retry.")],
)
def test_a_retry_past_the_last_counts_the_moves_in_good_english(client, game, said):
    response = client.get(f"/review/{game}/retry/9")
    assert response.status_code == 404 and said in response.text


def random_games(count: int, seed: int) -> list[list[int]]:
    rng, games = random.Random(seed), []
    for _ in range(count):
        position, cells = "." * 9, []
        while not judge.is_over(position):
            cells.append(rng.choice([c for c in range(9) if position[c] == "."]))
            position = judge.children(position)[cells[-1]]
        games.append(cells)
    return games


def asked_by_the_judge(before: str, cell: int) -> str:
    """What a retry of `cell` must ask for, by the judge: a better outcome, a quicker win, or
    (every move losing) a slower loss, with the utility and the winner's moves counted."""
    played, _ = judge.move_outcome(before, cell)
    best, plies = judge.move_outcome(before, judge.optimal_moves(before)[0])
    mover = judge.to_move(before)
    winner = "O" if mover == "X" else "X"
    if best == "loss":
        moves = plies // 2
        when = "on its next move" if moves == 1 else f"in {moves} of its moves"
        utility = "\N{MINUS SIGN}1" if winner == "O" else "1"
        return (
            f"one that loses later. Every move here loses with best play (utility {utility}: {winner} wins),"
            f" but the best holds out until {winner} wins {when}."
        )
    if best == "draw":
        return "one that holds the draw."
    moves = (plies + 1) // 2
    wins = "wins at once" if moves == 1 else f"wins in {moves} of its moves"
    return f"one that wins sooner: it {wins}." if played == "win" else f"one that {wins}."


def test_every_retry_asks_for_what_the_judge_says_is_better(client):
    asked = []
    for cells in random_games(80, seed=5):
        moves, position, mistakes = "-".join(map(str, cells)), "." * 9, []
        for cell in cells:
            if cell not in judge.optimal_moves(position):
                mistakes.append((position, cell))
            position = judge.children(position)[cell]
        for n, (before, cell) in enumerate(mistakes, start=1):
            task = tried_in(client, moves, n)["retry-task"].text
            asked.append(asked_by_the_judge(before, cell))
            assert task.endswith(f": {asked[-1]}"), (moves, n, task)
        assert client.get(f"/review/{moves}/retry/{len(mistakes) + 1}").status_code == 404
    assert len(asked) > 150
    assert all(any(kind in said for said in asked) for kind in ("loses later", "wins sooner", "holds the draw"))


def tried_in(client, moves: str, n: int) -> Page:
    response = client.get(f"/review/{moves}/retry/{n}")
    assert response.status_code == 200
    return Page(response.text)


@pytest.mark.parametrize(
    ("query", "player"),
    [("", "O"), ("?you=O&ai=easy", "you (O)"), ("?x=Ann&o=Bo", "Bo (O)")],
)
def test_the_task_names_the_player_then_the_cell_one_bracket_each(client, query, player):
    html = client.get(f"/review/{GAME}/retry/1{query}").text
    task = Page(html)["retry-task"].text
    assert task.startswith(f"At move 2, {player} played b1 (0, 1)"), task
    assert ")</span>, which loses" in html  # nothing between the cell's (i, j) and the rest


@pytest.mark.parametrize(
    ("moves", "n", "said"),
    [
        (GAME, 1, "The answer: b2 (★ on the board). It holds the draw."),
        ("1-0-2", 1, "The answer: a2, b2, a3 or c3 (★ on the board). Each holds the draw."),
    ],
)
def test_the_answer_is_a_plain_sentence_for_one_cell_or_several(client, moves, n, said):
    answer = Page(client.get(f"/review/{moves}/retry/{n}?show=answer").text)["retry-answer"].text
    assert answer.startswith(said), answer


def test_the_retries_keep_the_way_back_to_the_game_and_say_done_when_every_one_is_solved(client):
    """From a review with "Back to your game", the retries keep `back=game` to the end, and
    carry which retries were solved, so that "Done" means every one."""
    review = Page(client.get(f"/review/{GAME}?back=game").text)
    first = Page(client.get(review["retry"].attrs["href"]).text)
    assert "back=game" in review["retry"].attrs["href"]
    best = judge.optimal_moves(first.marks)
    link = next(a.attrs["href"] for a in first["board"].iter("a") if a.attrs["href"].endswith(f"try={best[0]}"))
    solved = Page(client.get(link).text)
    assert solved["next"].attrs["href"] == f"/review/{GAME}/retry/2?back=game&solved=1"
    second = Page(client.get(solved["next"].attrs["href"]).text)
    wrong = next(c for c in range(9) if second.marks[c] == "." and c not in judge.optimal_moves(second.marks))
    link = next(a.attrs["href"] for a in second["board"].iter("a") if a.attrs["href"].endswith(f"try={wrong}"))
    assert "solved=1" in link
    assert Page(client.get(link).text)["next"].text == "Back to the review"
    right = judge.optimal_moves(second.marks)[0]
    done = Page(client.get(link.replace(f"try={wrong}", f"try={right}")).text)
    assert done["next"].text == "Done: back to the review"
    back = Page(client.get(done["next"].attrs["href"]).text)
    assert back.root.by_id("back-to-game") is not None


@pytest.mark.parametrize("solved", ["3", "0", "1--2", "x", "1" * 50])
def test_solved_retries_that_are_not_this_games_are_refused(client, solved):
    response = client.get(f"/review/{GAME}/retry/1?solved={solved}")
    assert response.status_code == 400 and "1 to 2" in response.text
