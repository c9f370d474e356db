"""The benchmarks' yardstick apps still answer their pages: a template change must not turn
a bench figure into a count of errors."""

import importlib

import pytest


@pytest.mark.parametrize(
    "module", ["bench.bare_app", "bench.floor_app", "bench.jinja_floor_app", "bench.session_floor_app"]
)
def test_each_yardstick_serves_its_page(module):
    app = importlib.import_module(module).app
    response = app.test_client().get("/")
    assert response.status_code == 200 and response.text
