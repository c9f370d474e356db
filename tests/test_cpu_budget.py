"""The CPU budget of the explorer's and the students' pages (web/cpu_budget.py): a network that
spent its share is refused those pages at once, with Retry-After; another network is not;
a player's page never is."""

import pytest

from ttt_web.core.costs import reachable
from ttt_web.core.position import over

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_network_past_its_share_is_refused_those_pages_and_no_other(app_factory):
    app = app_factory(CPU_BUDGET_PER_NETWORK="20 per minute", CPU_BUDGET="1000 per minute")
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    cold = (f"/explore/{p}" for p in sorted(reachable("." * 9), key=lambda p: -p.count(".")) if not over(p))
    statuses = [stranger.get(next(cold)).status_code for _ in range(60)]
    assert statuses[0] == 200 and statuses[-1] == 503
    refused = stranger.get("/learn/limited/X...O....?depth=3")
    assert refused.status_code == 503 and 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "busy working out pages" in refused.text
    assert stranger.get("/").status_code == 200  # a player's page is never counted nor refused
    neighbour = app.test_client()
    neighbour.environ_base["REMOTE_ADDR"] = "198.51.100.9"
    assert neighbour.get(next(cold)).status_code == 200


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_all_networks_together_are_bounded_too(app_factory):
    app = app_factory(CPU_BUDGET_PER_NETWORK="1000 per minute", CPU_BUDGET="20 per minute")
    cold = (f"/explore/{p}" for p in sorted(reachable("." * 9), key=lambda p: -p.count(".")) if not over(p))
    statuses = []
    for n in range(60):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"192.0.2.{n + 1}"
        statuses.append(client.get(next(cold)).status_code)
    assert statuses[0] == 200 and statuses[-1] == 503
