from pathlib import Path

import pytest

from tests.page import Page
from ttt_web.app import create_app


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "SECRET_KEY": "test-secret", "SESSION_DIR": str(tmp_path / "sessions")})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def stored(app):
    """How many sessions the embedded store holds."""
    directory = Path(app.config["SESSION_DIR"])
    return lambda: sum(1 for p in directory.iterdir() if p.is_file() and not p.name.startswith("."))


@pytest.fixture
def play(client):
    """A player that reads the page and follows its links, as a browser does."""
    return Player(client)


class Player:
    def __init__(self, client):
        self.client = client

    def page(self) -> Page:
        response = self.client.get("/")
        assert response.status_code == 200
        return Page(response.text)

    def follow(self, href: str, status: int = 303):
        response = self.client.get(href)
        assert response.status_code == status, response.text
        if status == 303:
            assert response.headers["Location"] == "/"
        return response

    def move(self, row: int, col: int) -> Page:
        self.follow(self.page().links[row, col])
        return self.page()

    def submit(self, form_id: str, status: int = 303, **fields):
        page = self.page()
        data = {**page.form(form_id), **fields}
        response = self.client.post(page.action(form_id), data=data)
        assert response.status_code == status, response.text
        return response

    def new_game(self, **options) -> Page:
        self.submit("new-game", **options)
        return self.page()
