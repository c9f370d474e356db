"""The game review (/review/<moves>): every move judged, a replay to step through, play on
from any position, a link to share, and pages that every visitor shares."""

import io
import re
from urllib.parse import parse_qs

import pytest
from PIL import Image

from tests import judge
from tests.page import Page
from ttt_web.core import judging
from ttt_web.core.position import action_of, board, cell_name
from ttt_web.core.words import MARKS, either
from ttt_web.review import picture
from ttt_web.review.text import Move

GAME = "0-1-4-2-8"  # X a1, O b1 (a mistake), X b2, O c1, X c3 wins


def moves_listed(page: Page) -> list[dict]:
    return [item.attrs for item in page["review-moves"].iter("li")]


def test_every_move_is_listed_with_the_judges_verdict(client):
    response = client.get(f"/review/{GAME}")
    assert response.status_code == 200
    listed = moves_listed(Page(response.text))
    judged = judging.review([divmod(int(c), 3) for c in GAME.split("-")])
    assert [m["data-ply"] for m in listed] == ["1", "2", "3", "4", "5"]
    assert [m["data-mark"] for m in listed] == ["X", "O", "X", "O", "X"]
    assert [m["data-cell"] for m in listed] == ["a1", "b1", "b2", "c1", "c3"]
    assert [m["data-verdict"] for m in listed] == [j.verdict for j in judged]
    assert [m["data-best"] for m in listed] == [
        " ".join(cell_name(3 * i + j) for i, j in x.best_actions) for x in judged
    ]
    assert listed[1]["data-verdict"] == "mistake" and listed[1]["data-best"] == "b2"


def test_the_summary_counts_best_moves_and_names_the_turning_point(client):
    page = Page(client.get(f"/review/{GAME}").text)
    counts = {item.attrs["data-mark"]: item.attrs for item in page["review-summary"].iter("li")}
    assert (counts["X"]["data-best"], counts["X"]["data-played"]) == ("3", "3")
    assert (counts["O"]["data-best"], counts["O"]["data-played"]) == ("0", "2")
    assert page["turning-point"].text == "Move 2, O at b1, turned a draw into a loss for O, with best play."
    assert (
        page["share-text"].text
        == "Tic-tac-toe, every move judged: X won in 3 of its moves (5 in all). X: 100 % accuracy. O: 75 % accuracy."
    )


@pytest.mark.parametrize("ply", range(6))
def test_each_ply_shows_its_board_its_verdict_and_its_neighbours(client, ply):
    page = Page(client.get(f"/review/{GAME}?ply={ply}").text)
    cells = [int(c) for c in GAME.split("-")[:ply]]
    assert page.marks == "".join("XO"[cells.index(n) % 2] if n in cells else "." for n in range(9))
    assert not page.links  # a review's board is read-only
    assert (page.root.by_id("previous") is not None) == (ply > 0)
    assert (page.root.by_id("next") is not None) == (ply < 5)
    verdict = page.root.by_id("verdict")
    assert (verdict.attrs["data-verdict"] if verdict else None) == (
        moves_listed(page)[ply - 1]["data-verdict"] if ply else None
    )
    if 0 < ply < 5:  # the position before the end carries the teach values for whoever is to move
        values = [c for c in page.cells if "data-value" in c.attrs]
        assert len(values) == 9 - ply


def test_the_mistake_says_whose_move_it_was_the_better_move_and_the_punishment(client):
    page = Page(client.get(f"/review/{GAME}?ply=2").text)
    said, line = page["verdict"].text.rstrip(".").split(": ", 2)[1:]
    assert said == (
        "O played b1 (0, 1), turning a draw into a loss. O should have played b2 (1, 1), which holds the draw;"
        " after b1, with best play X wins in 3 of its moves"
    )
    assert page["verdict"].attrs["data-mark"] == "O"
    position = "XO......."
    for n, move in enumerate(line.split(", ")):  # perfect play to the end, by the judge
        mark, name = move.split(" ")
        cell = "abc".index(name[0]) + 3 * (int(name[1]) - 1)
        assert mark == "XO"[n % 2] and cell in judge.optimal_moves(position), (line, position)
        position = judge.children(position)[cell]
    assert judge.won_by(position) == "X"


def test_the_review_opens_on_the_turning_point_or_else_the_end(client):
    assert Page(client.get(f"/review/{GAME}").text)["review-title"].attrs["data-ply"] == "2"
    drawn = "4-0-2-6-3-5-1-7-8"  # both sides best throughout
    page = Page(client.get(f"/review/{drawn}").text)
    assert page["review-title"].attrs["data-ply"] == "9" and page.marks.count(".") == 0


def test_the_better_move_is_shown_on_the_board_before_the_mistake(client):
    page = Page(client.get(f"/review/{GAME}?ply=2&show=better").text)
    assert page.marks == "X........"  # before O's move
    played = [c for c in page.cells if "played-here" in c.attrs["class"]]
    best = [c for c in page.cells if c.attrs.get("data-best") == "true"]
    assert [(c.attrs["data-row"], c.attrs["data-col"]) for c in played] == [("0", "1")]  # b1
    assert [(c.attrs["data-row"], c.attrs["data-col"]) for c in best] == [("1", "1")]  # b2
    assert page["show-played"].attrs["href"].endswith("?ply=2")
    best_move = Page(client.get(f"/review/{GAME}?ply=1&show=better").text)  # a best move: nothing to show
    assert best_move.marks == "X........" and best_move.root.by_id("show-better") is None


GAMES = ["0-1-4-2-8", "4-0-2-6-3-5-1-7-8", "4-1-0-8-2-6-5-3-7", "0-4-8-2-6-3-5-1-7", "1-0-2-4-3-8", "4-8-0-1-7"]


@pytest.mark.parametrize("moves", GAMES)
def test_accuracy_and_the_value_strip_come_from_the_exact_values(client, moves):
    page = Page(client.get(f"/review/{moves}").text)
    cells = [int(c) for c in moves.split("-")]
    points, kept, values = {"win": 2, "draw": 1, "loss": 0}, {"X": [], "O": []}, []
    position = "." * 9
    for cell in cells:
        mover = judge.to_move(position)
        outcomes = {c: judge.move_outcome(position, c)[0] for c in judge.children(position)}
        best = max(points[o] for o in outcomes.values())
        kept[mover].append(1 - (best - points[outcomes[cell]]) / 2)
        position = judge.children(position)[cell]
        values.append(judge.minimax(position))
    shown = {li.attrs["data-mark"]: float(li.attrs["data-accuracy"]) for li in page["review-summary"].iter("li")}
    assert shown == pytest.approx({mark: sum(k) / len(k) for mark, k in kept.items() if k}, abs=1e-4)
    assert [int(m["data-value"]) for m in moves_listed(page)] == values
    dots = [a for a in page["value-strip"].iter("a")]
    assert len(dots) == len(cells) + 1 and all(a.attrs["href"].endswith(f"?ply={n}") for n, a in enumerate(dots))


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("x", 400, "A review link lists the cells played"),
        ("4-", 400, "A review link lists the cells played"),
        ("9", 400, "A review link lists the cells played"),
        ("1-2-3-4-5-6-7-8-0-1", 400, "A review link lists the cells played"),
        ("0-0", 404, "No game of tic-tac-toe has these moves"),
        ("0-3-1-4-2-5", 404, "No game of tic-tac-toe has these moves"),
        ("4?ply=2", 400, "numbered 0 to 1"),
        ("4?ply=x", 400, "numbered 0 to 1"),
    ],
)
def test_malformed_and_illegal_games_get_a_clear_page(client, path, status, words):
    response = client.get(f"/review/{path}")
    assert response.status_code == status
    assert words in response.text and "Traceback" not in response.text
    assert response.headers["Cache-Control"] == "no-store"


def test_review_pages_are_public_cacheable_and_store_nothing(client, stored, app):
    client.get("/move?n=0&row=1&col=1")  # a visitor with a game
    before = stored()
    for path in (f"/review/{GAME}", f"/review/{GAME}?ply=2", f"/review/{GAME}/board.png", f"/review/{GAME}/retry/1"):
        response = client.get(path)
        assert response.headers["Cache-Control"] == "public, max-age=86400"
        assert "Set-Cookie" not in response.headers and "Cookie" not in response.headers.get("Vary", "")
    assert stored() == before


def pixels(png: bytes) -> tuple[int, list[bytes]]:
    """The rows of a PNG in RGB, as Pillow reads it: the board's square (its width), then the
    caption's band."""
    image = Image.open(io.BytesIO(png))
    assert (image.format, image.size) == ("PNG", (600, picture.HEIGHT))
    raw = image.convert("RGB").tobytes()
    return image.width, [raw[y * 3 * image.width : (y + 1) * 3 * image.width] for y in range(image.height)]


def test_the_final_board_is_a_png_for_link_previews_with_nothing_clipped(client):
    page = Page(client.get(f"/review/{GAME}").text)
    image = next(m.attrs["content"] for m in page.root.iter("meta") if m.attrs.get("property") == "og:image")
    assert image.endswith(f"/review/{GAME}/board.png")
    response = client.get(f"/review/{GAME}/board.png")
    assert response.mimetype == "image/png"
    size, rows = pixels(response.data)
    rows = rows[:size]  # the board, above its caption

    def at(x, y):  # in the 300-unit grid of the picture
        row = rows[int(y * size / 300)]
        return tuple(row[3 * int(x * size / 300) : 3 * int(x * size / 300) + 3])

    background = at(5, 5)
    margin = int(15 * size / 300)  # the marks keep 16 units from the picture edge
    edges = rows[:margin] + rows[-margin:] + [row[: 3 * margin] + row[-3 * margin :] for row in rows]
    assert all(row == bytes(background) * (len(row) // 3) for row in edges)  # every mark keeps off the edges
    red, blue = (179, 38, 30), (11, 92, 173)
    assert at(250 + 28, 50) == blue and at(150, 50 - 28) == blue  # O at b1 and c1: the ring, not its middle
    assert at(150, 50) == at(250, 50) == background
    assert at(50 - 24, 50 - 24) == red and at(250 + 24, 250 - 24) == red  # X's arms reach their ends
    assert at(50, 250) == background  # a3, empty


def test_a_finished_game_links_to_its_review(play):
    page = play.page()
    assert page.root.by_id("review") is None
    while page.state == "playing":
        play.follow(next(iter(page.links.values())))
        page = play.page()
    href = page["review"].attrs["href"]
    path, query = href.split("?")
    assert re.fullmatch(r"/review/[0-8](-[0-8])*", path)
    assert parse_qs(query) == {"back": ["game"], "you": ["X"], "ai": ["medium"]}  # the default game
    review = Page(play.client.get(href).text)
    assert review["back-to-game"].attrs["href"] == "/#board"
    links = [parse_qs(a.attrs["href"].split("?")[1]) for a in review["review-moves"].iter("a")]
    assert links and all(q["back"] == ["game"] and q["you"] == ["X"] for q in links)
    final = Page(play.client.get(href + f"&ply={9 - page.marks.count('.')}").text)
    assert final.marks == page.marks


@pytest.mark.parametrize(("form", "side"), [("start-ai", "O"), ("start-ai", "X"), ("start-friend", None)])
def test_play_on_from_a_reviewed_position(play, form, side):
    play.follow("/move?n=0&row=0&col=0")  # a game in progress, which the position does not touch
    review = Page(play.client.get(f"/review/{GAME}?ply=3").text)
    start = review["play-from-here"].attrs["href"]
    page = Page(play.client.get(start).text)
    assert page.marks == "XO..X...." and not page.links  # the position, drawn, and nothing to tap
    assert page.state == "start" and "O to move" in page["status"].text
    assert page.form(form)["from"] == "0-1-4"
    assert play.page().marks != "XO..X...."  # looking did not start anything
    play.client.post("/new", data={**page.form(form), **({"side": side} if side else {})})
    board = play.page()
    if side == "O":  # the human plays O, who is to move after three moves
        assert board.marks == "XO..X...." and board.state == "playing" and len(board.links) == 6
    elif side == "X":  # the AI plays O, and has moved
        assert board.marks.count(".") == 5 and len(board.links) == 5
    else:
        assert board.marks == "XO..X...." and len(board.links) == 6


@pytest.mark.parametrize("start", ["0-1-4-2-8", "0-0", "x", "4-"])
def test_no_game_starts_from_a_finished_or_impossible_position(play, start):
    assert play.client.get(f"/?from={start}").status_code == 400
    response = play.client.post("/new", data={**play.page().form("new-game"), "from": start})
    assert response.status_code == 400
    assert play.page().marks == "." * 9


def test_cells_to_choose_from_are_listed_with_commas_and_one_or(client):
    assert [either(names) for names in (["a2"], ["a2", "b2"], ["a2", "b2", "a3", "c3"])] == [
        "a2",
        "a2 or b2",
        "a2, b2, a3 or c3",
    ]
    game = "1-0-2"  # X c1 is a mistake: a2, b2, a3 or c3 held the draw
    review = Page(client.get(f"/review/{game}?ply=3").text)
    should = "X should have played a2 (1, 0), b2 (1, 1), a3 (2, 0) or c3 (2, 2)"  # with the actions (i, j)
    assert f"{should}, each of which holds the draw;" in review["verdict"].text
    assert review["review-moves"].text.count("X should have played a2, b2, a3 or c3") == 1  # the list is short
    answer = Page(client.get(f"/review/{game}/retry/1?show=answer").text)["retry-answer"].text
    assert answer.startswith("The answer: a2, b2, a3 or c3 (★ on the board). Each holds the draw."), answer


def test_play_on_from_a_review_against_the_ai_chooses_its_level_and_your_side(play):
    review = Page(play.client.get("/review/1-0-7-4-3-8?ai=impossible&you=X&ply=3").text)
    start = review["play-from-here"].attrs["href"]
    assert parse_qs(start.split("?")[1]) == {"from": ["1-0-7"], "ai": ["impossible"], "you": ["X"]}
    page = Page(play.client.get(start).text)
    assert page.form("start-ai")["difficulty"] == "impossible"
    first = next(page["start-ai"].iter("button"))  # Enter submits it
    assert (first.attrs["value"], first.attrs.get("class")) == ("X", "primary") and "the AI moves" in first.text
    assert "above" not in page["start-from"].text  # beside the board, on a wide low screen
    assert "The board shows the position you chose" in page["start-from"].text
    play.client.post("/new", data={**page.form("start-ai"), "side": "X"})
    assert "Impossible" in play.page()["score-line"].text
    plain = Page(play.client.get("/?from=1-0-7").text)  # no level named: the side to move first
    assert next(plain["start-ai"].iter("button")).attrs["value"] == "O"
    for wrong in ("ai=hard&you=X", "ai=easy", "you=O", "ai=easy&you=Z"):
        assert play.client.get(f"/?from=1-0-7&{wrong}").status_code == 400, wrong


def test_the_level_chosen_to_play_on_is_the_one_whose_score_the_panel_shows_and_names(play):
    """A visitor with no game (a friend's shared link) sees the score the game they would
    start counts in, named by its level, not the default level's (tests/test_play_on.py has
    the score of a game you have)."""
    page = Page(play.client.get("/?from=1-0-7&ai=impossible&you=X").text)
    assert page["score-title"].text == "Score: Impossible" and page.form("start-ai")["difficulty"] == "impossible"


def test_the_value_strips_labels_sit_on_their_rows_of_dots(client):
    """ "X wins", "draw" and "O wins" are written level with the dots of that value (a label's
    baseline 4 units under the row's centre, for 12-unit text)."""
    page = client.get("/review/1-0-7-4-3-8?ai=impossible&you=X").text
    labels = dict(
        (name, float(y)) for y, name in re.findall(r'<text x="2" y="([\d.]+)" class="strip-label">([^<]+)<', page)
    )
    rows = {}
    for y, value in re.findall(r'cy="([\d.]+)" r="\d+" class="strip-dot strip-(x|draw|o)', page):
        rows.setdefault(value, set()).add(float(y))
    assert {name: len(found) for name, found in rows.items()} == {"draw": 1, "o": 1}
    for name, label in (("draw", "draw"), ("o", "O wins")):
        assert labels[label] - 4 == rows[name].pop()
    assert labels["draw"] - labels["X wins"] == labels["O wins"] - labels["draw"]


def test_what_should_have_been_played_names_every_best_move_and_says_each_when_several():
    said = 0
    for pos in sorted(judge.reachable()):
        if judge.is_over(pos):
            continue
        best = judge.optimal_moves(pos)
        named = either([f"{cell_name(n)} ({n // 3}, {n % 3})" for n in best])
        for cell in judge.children(pos):
            if cell not in best:
                should = Move(1, judging.judge(board(pos), action_of(cell)), "", MARKS).should
                clause = "each of which" if len(best) > 1 else "which"
                assert should.startswith(f"{judge.to_move(pos)} should have played {named}, {clause} "), (pos, should)
                said += 1
    assert said > 5_000
