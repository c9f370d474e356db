"""The explorer's position pages are rendered once per process and kept for everyone: a
stranger cannot make a process render one position twice (its cost is bounded by the 5,478
positions); a page with a student's answer, rendered each time, leaves the trees out."""

from ttt_web.explore import pages
from ttt_web.explore import views as explore


def test_a_position_page_is_rendered_once_and_kept(client, monkeypatch):
    position = "XO.O...X."
    first = client.get(f"/explore/{position}")
    assert first.status_code == 200 and (position, False) in pages.KEPT

    def rendering(*_args):
        raise AssertionError("a kept page rendered again")

    monkeypatch.setattr(explore, "position_page", rendering)
    again = client.get(f"/explore/{position}")
    assert again.status_code == 200 and again.data == first.data
    assert again.headers["Cache-Control"] == first.headers["Cache-Control"]


def test_links_back_to_the_game_make_a_page_of_their_own(client):
    position = "X...O...."
    plain, back = (client.get(f"/explore/{position}{query}").get_data(as_text=True) for query in ("", "?back=game"))
    assert "back=game" not in plain and "back=game" in back
    assert {(position, False), (position, True)} <= set(pages.KEPT)


def test_a_page_with_a_students_answer_leaves_the_trees_to_the_plain_page(client):
    position = "XO.O...X."
    page = client.get(f"/explore/{position}?student=0,2").get_data(as_text=True)
    assert "its page without your answer" in page and f'href="/explore/{position}"' in page
    assert 'id="alphabeta-title"' not in page and 'id="costs-title"' not in page
    plain = client.get(f"/explore/{position}").get_data(as_text=True)
    assert 'id="alphabeta-title"' in plain and 'id="costs-title"' in plain
