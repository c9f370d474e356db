"""The review of a game played on from a position (?given=3): the given moves are its
starting position, listed and steppable but judged for nobody, and everything the review
counts (accuracy, turning point, retries, the result, the share text and picture) counts
only the moves played from there."""

from urllib.parse import parse_qs, urlsplit

import pytest

from tests import judge
from tests.page import Page
from tests.test_play_on import play_on
from ttt_web.core.game import Game
from ttt_web.core.players import Players
from ttt_web.review import picture
from ttt_web.review.caption import captioned, written
from ttt_web.web.session_data import finished_game

WON = "1-4-7-0-8-6-2-3"  # given X b1, O b2, X b3 (a mistake); then you (O) beat the Impossible AI
AGAINST = "ai=impossible&you=O"
FRIENDS = "2-1-4-0-7-8-5-6-3"  # given X c1, O b1 (a mistake), X b2; then mistakes on both sides


def positions(moves: str) -> list[tuple[str, int]]:
    """Each move as the position it was played in and its cell, by the independent judge."""
    position, played = "." * 9, []
    for cell in map(int, moves.split("-")):
        played.append((position, cell))
        position = judge.children(position)[cell]
    return played


def not_best(moves: str) -> list[int]:
    """The plies (from 1) whose move was not a best one, as the judge sees them."""
    return [ply for ply, (pos, cell) in enumerate(positions(moves), 1) if cell not in judge.optimal_moves(pos)]


def accuracy(moves: str, given: int, mark: str) -> float:
    """The judge's accuracy of `mark` over the moves played after the `given` ones."""
    points, kept = {"win": 2, "draw": 1, "loss": 0}, []
    for pos, cell in positions(moves)[given:]:
        if judge.to_move(pos) == mark:
            best = max(points[judge.move_outcome(pos, c)[0]] for c in judge.children(pos))
            kept.append(1 - (best - points[judge.move_outcome(pos, cell)[0]]) / 2)
    return sum(kept) / len(kept)


def review(client, query: str = "", moves: str = WON) -> Page:
    response = client.get(f"/review/{moves}?{query}")
    assert response.status_code == 200
    return Page(response.text)


def test_the_given_moves_are_listed_as_the_starting_position_not_judged(client):
    assert 3 in not_best(WON)  # the judge calls X b3 a mistake: the review must not say so
    listed = [li for li in review(client, f"{AGAINST}&given=3")["review-moves"].iter("li")]
    assert [li.attrs["data-verdict"] for li in listed[:3]] == ["given"] * 3
    assert all(li.text.endswith("starting position") and " AI" not in li.text for li in listed[:3])
    assert [li.attrs["data-verdict"] for li in listed[3:]] == ["best"] * 5
    assert not set(not_best(WON)) & {4, 5, 6, 7, 8}
    step = review(client, f"{AGAINST}&given=3&ply=3")
    assert step["verdict"].attrs["data-verdict"] == "given" and "not judged" in step["verdict"].text
    assert "on purpose" not in step["verdict"].text and step.root.by_id("show-better") is None


def test_the_summary_and_turning_point_count_only_the_moves_played(client):
    page = review(client, f"{AGAINST}&given=3")
    tallies = {li.attrs["data-mark"]: li.attrs for li in page["review-summary"].iter("li")}
    assert (tallies["O"]["data-played"], tallies["X"]["data-played"]) == ("3", "2")
    for mark in "XO":
        assert float(tallies[mark]["data-accuracy"]) == pytest.approx(accuracy(WON, 3, mark), abs=1e-4)
    assert page["turning-point"].text.startswith("No move changed the result")


def test_the_result_and_the_share_text_count_your_moves_from_the_starting_position(client):
    page = review(client, f"{AGAINST}&given=3")
    final = positions(WON)[-1][0]
    assert judge.to_move(final) == "O"  # you moved last and won: moves 4, 6 and 8 are yours
    result = "You won in 3 of your moves (5 in all, played on from the position after move 3)."
    assert page.title.endswith(f"{result} · Tic-tac-toe")
    assert page["share-text"].text == (
        "Tic-tac-toe against the AI at Impossible, every move judged: I won in 3 of my moves"
        " (5 in all, played on from the position after move 3). I played O, with 100 % accuracy."
    )


def test_only_the_mistakes_played_after_the_starting_position_are_retried(client):
    page = review(client, "given=3", FRIENDS)
    after = [ply for ply in not_best(FRIENDS) if ply > 3]
    assert 2 in not_best(FRIENDS) and after == [4, 5, 6, 7]
    assert page["retry"].text == f"Retry the {len(after)} moves that were not best"
    first = client.get(f"/review/{FRIENDS}/retry/1?given=3")
    assert first.status_code == 200 and Page(first.text).marks == ".OX.X...."  # before move 4
    assert client.get(f"/review/{FRIENDS}/retry/{len(after) + 1}?given=3").status_code == 404


def test_every_link_of_the_review_keeps_the_moves_given(client):
    page = review(client, f"{AGAINST}&given=3&ply=5")
    links = [page[name].attrs["href"] for name in ("previous", "next", "share-link")]
    links += [a.attrs["href"] for a in page["review-moves"].iter("a")]
    links += [a.attrs["href"] for a in page["value-strip"].iter("a")]
    assert all(parse_qs(urlsplit(link).query)["given"] == ["3"] for link in links)
    retry = Page(client.get(f"/review/{FRIENDS}/retry/1?given=3").text)
    assert all("given=3" in a.attrs["href"] for a in retry.root.iter("a") if "/review/" in a.attrs.get("href", ""))


@pytest.mark.parametrize("given", ["8", "9", "-1", "03", "x", "", "3.0"])
def test_a_count_of_given_moves_that_is_not_0_to_one_less_than_the_moves_is_a_400(client, given):
    response = client.get(f"/review/{WON}?given={given}")
    assert response.status_code == 400 and "0 to 7 of them were given" in response.text


def test_the_share_pictures_caption_says_the_game_was_played_on(client):
    game = Game.of_moves(tuple(map(int, WON.split("-"))), 3)
    players = Players(you="O", ai="impossible")
    assert written(captioned(game, players, picture.SIZE)) == (
        "O beat the AI (X, Impossible),",
        "played on after move 3",
    )
    friends = Game.of_moves(tuple(map(int, FRIENDS.split("-"))), 3)
    named = written(captioned(friends, Players(names=("Anne", "Bartholomew")), picture.SIZE))
    assert named == ("Anne (X) beat Bartholomew (O),", "played on after move 3")  # two lines, each within the picture
    longer = written(captioned(friends, Players(names=("Anne-Marie", "Bartholomew")), picture.SIZE))
    assert longer == ("X beat O, played on after move 3",)  # the names would not fit in two lines
    drawn = Game.of_moves((0, 4, 8, 2, 6, 3, 5, 7, 1), 2)
    said = written(captioned(drawn, Players(names=("Anne", "Bartholomew")), picture.SIZE))
    assert said == ("Anne (X) and Bartholomew (O)", "drew, played on after move 2")
    assert client.get(f"/review/{WON}/board.png?{AGAINST}&given=3").status_code == 200


def test_the_game_page_and_your_games_link_to_the_review_with_the_moves_given(play):
    play_on(play, side="O")  # from X b1, O b2, X b3
    page = play.move(0, 0)
    assert parse_qs(urlsplit(page["review-so-far"].attrs["href"]).query)["given"] == ["3"]
    while page.state == "playing":
        page = play.move(*next(iter(sorted(page.links))))
    assert parse_qs(urlsplit(page["review"].attrs["href"]).query)["given"] == ["3"]
    listed = Page(play.client.get("/games/").text)
    link = next(a.attrs["href"] for a in listed["games"].iter("a"))
    assert parse_qs(urlsplit(link).query)["given"] == ["3"]
    assert play.client.get(link).status_code == 200


def test_a_finished_games_record_without_the_moves_given_reads_as_none_given():
    record = {"moves": WON, "mode": "ai", "difficulty": "easy", "side": "O", "names": ["", ""]}
    assert finished_game(record).given == 0 and finished_game({**record, "given": 3}).given == 3


def cell_name(cell: int) -> str:
    return f"{'abc'[cell % 3]}{cell // 3 + 1}"


def test_the_steps_number_the_moves_given_apart_and_the_moves_played_as_the_summary_counts_them(client):
    """Every step of a game played on from move 3: the heading, the title and the step count
    say a given move's number among the 3 given, a played move's among the 5 played (as the
    summary counts them); the list and the value strip number the played moves from 1."""
    played = positions(WON)[3:]
    tallies = review(client, f"{AGAINST}&given=3")["review-summary"].iter("li")
    assert sum(int(li.attrs["data-played"]) for li in tallies) == len(played) == 5
    for ply, (position, cell) in enumerate(positions(WON), 1):
        page = review(client, f"{AGAINST}&given=3&ply={ply}")
        mark, name = judge.to_move(position), cell_name(cell)
        count = next(span for span in page.root.iter("span") if span.attrs.get("class") == "step-count").text
        if ply <= 3:
            at = f"{name} ({cell // 3}, {cell % 3})"
            assert page["review-title"].text == f"Starting position (move {ply} of 3 given): {mark} at {at}"
            assert page.title.startswith(f"Review, starting position (move {ply} of 3 given): {mark} at {name} · ")
            assert count == f"{ply} / 3 given"  # "given" for screen readers: on a phone the words would not fit
            continue
        actor, label = ("you", "You (O)") if mark == "O" else ("the AI", "AI (X, Impossible)")
        assert cell in judge.optimal_moves(position)  # every move played in WON is a best one
        at = f"{name} ({cell // 3}, {cell % 3})"
        assert page["review-title"].text == f"Move {ply - 3} of 5: {actor} ({mark}) played {at}"
        assert page.title.startswith(f"Review, move {ply - 3}: {label} at {name}, best · ")
        assert count == f"{ply - 3} / 5"
    empty = review(client, f"{AGAINST}&given=3&ply=0")
    assert empty["review-title"].text == "The empty board (before the 3 moves given)"
    listed = list(empty["review-moves"].iter("li"))
    assert [li.attrs.get("class") for li in listed[:3]] == ["given"] * 3 and listed[3].attrs["value"] == "1"
    assert all("value" not in li.attrs for li in listed[4:])  # the played moves go on from 1
    numbers = [t.text for t in empty["value-strip"].iter("text") if t.attrs["class"] == "strip-ply"]
    assert numbers == ["1", "2", "3", "4", "5"]


def test_the_turning_point_and_the_retry_number_the_move_among_the_moves_played(client):
    """FRIENDS, played on from move 3: the judge's last move after the start that changed
    the result (the one that decided it) is called by its number among the moves played, as
    the heading calls it."""
    points = {"win": 2, "draw": 1, "loss": 0}
    changed = [
        ply
        for ply, (pos, cell) in enumerate(positions(FRIENDS), 1)
        if ply > 3
        and points[judge.move_outcome(pos, cell)[0]]
        < max(points[judge.move_outcome(pos, c)[0]] for c in judge.children(pos))
    ]
    ply = changed[-1]
    position, cell = positions(FRIENDS)[ply - 1]
    mark = judge.to_move(position)
    page = review(client, "given=3", FRIENDS)
    assert page["turning-point"].text.startswith(f"Move {ply - 3}, {mark} at {cell_name(cell)}, turned ")
    turning = review(client, f"given=3&ply={ply}", FRIENDS)
    assert (
        turning["review-title"].text
        == f"Move {ply - 3} of 6: {mark} played {cell_name(cell)} ({cell // 3}, {cell % 3})"
    )
    retry = Page(client.get(f"/review/{FRIENDS}/retry/1?given=3").text)
    first = min(ply for ply in not_best(FRIENDS) if ply > 3)
    assert retry["retry-task"].text.startswith(f"At move {first - 3} after the starting position, ")
