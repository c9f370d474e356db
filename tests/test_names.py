"""One rule for names everywhere (the new-game form, an invitation, taking a seat, a review's
query): said in the same words, checked by the browser with the same pattern, any script's
letters accepted, a refusal said beside its field with what was typed kept."""

import pytest

from tests.page import Page
from tests.test_rooms import Seat
from ttt_web.core.options import NAME_CHARACTERS, NAME_PATTERN, NAME_RULE, name_problem, valid_name

GOOD = ["Ann", "Анна", "देवी", "李小龍", "O'Brien", "J.R.", "Anne-Marie", "Zoë", "A" * 12]
BAD = ["<b>", "<b>&\"'", "Ann \U0001f642", "A" * 13, " Ann", "a/b", "x_y"]


@pytest.mark.parametrize("name", GOOD + BAD)
def test_the_rule_takes_any_scripts_letters_and_nothing_else(name):
    assert valid_name(name) == (name in GOOD)  # the browser's side: test_browser_walk, by the same lists


def name_fields(page: Page) -> list:
    return [i for i in page.root.iter("input") if i.attrs.get("type") == "text" and "name" in i.attrs["name"]]


def test_every_name_field_has_the_same_pattern_length_and_rule(client, app):
    home = Page(client.get("/").text)
    host = Seat(app.test_client()).invite("Ann")
    join = Page(app.test_client().get(host.path).text)
    fields = name_fields(home) + name_fields(join)
    assert len(fields) == 4  # X's and O's, the invitation's, the seat's
    assert all(f.attrs["pattern"] == NAME_PATTERN and f.attrs["maxlength"] == "12" for f in fields)
    for page in (home, join):
        rules = [p.text for p in page.root.iter("p") if "rule" in p.attrs.get("id", "")]
        assert rules and all(NAME_RULE in rule for rule in rules)


REFUSALS = {  # a refused name, and what the player is told
    "<b>": f"“<” cannot be in a name: use only {NAME_CHARACTERS}.",
    "Ann \U0001f642": f"“\U0001f642” cannot be in a name: use only {NAME_CHARACTERS}.",
    "Jo_Jo": f"“_” cannot be in a name: use only {NAME_CHARACTERS}.",
    "a\tb": f"The character U+0009 cannot be in a name: use only {NAME_CHARACTERS}.",
    "Bartholomew II": "A name is at most 12 characters: this one has 14.",
    " Ann": "A name cannot begin or end with a space.",
}


@pytest.mark.parametrize(("name", "said"), REFUSALS.items())
def test_a_refusal_names_the_character_refused_and_says_what_is_allowed(name, said):
    assert name_problem(name) == said
    assert all(name_problem(good) == "" for good in GOOD)


@pytest.mark.parametrize("name", ["<b>", "<b>&\"'", "Ann \U0001f642"])
def test_a_refused_invitation_name_is_said_beside_the_field_and_kept(client, name):
    response = client.post("/room/new", data={"name": name})
    assert response.status_code == 400
    page = Page(response.text)
    field = name_fields(page)[0]
    assert field.attrs["value"] == name and field.attrs["aria-invalid"] == "true"
    assert page["invite-error"].text == name_problem(name)
    assert "invite-error" in field.attrs["aria-describedby"]


@pytest.mark.parametrize(("names", "field"), [(("Ann", "Bo \U0001f600"), "name_o"), (("J_R", "Bo"), "name_x")])
def test_a_refused_friends_name_is_said_beside_its_field_with_the_character(client, names, field):
    form = {"mode": "friend", "name_x": names[0], "name_o": names[1]}
    page = Page(client.post("/new", data=form).text)
    refused = {"name_x": "_", "name_o": "\U0001f600"}[field]
    assert page[field].attrs["aria-invalid"] == "true" and page[field].attrs["value"] == form[field]
    assert page["new-game-error"].text == f"“{refused}” cannot be in a name: use only {NAME_CHARACTERS}."
    assert page["problem-title"].text == f"“{refused}” cannot be in a name"  # the page's own heading
    other = "name_o" if field == "name_x" else "name_x"
    assert "aria-invalid" not in page[other].attrs and page[other].attrs["value"] == form[other]


def test_a_reviews_refused_name_is_named_too(client):
    response = client.get("/review/0-1-4?x=Ann&o=%3Cb%3E")
    assert response.status_code == 400
    assert Page(response.text)["error-description"].text == f"“<” cannot be in a name: use only {NAME_CHARACTERS}."


def test_taking_a_seat_with_the_friends_name_says_so(app):
    host = Seat(app.test_client()).invite("Ann")
    response = Seat(app.test_client(), host.path).join("ann", status=409)
    assert "Choose a name that is not your friend&#39;s (Ann)." in response.text


@pytest.mark.parametrize("name", ["Анна", "देवी", "O'Brien"])
def test_any_scripts_name_opens_a_room_and_takes_a_seat(app, name):
    host = Seat(app.test_client()).invite(name)
    guest = Seat(app.test_client(), host.path)
    guest.join("Zoë")
    assert name in guest.page().root.text and "Zoë" in host.page().root.text
