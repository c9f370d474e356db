"""The event streams' budget: bounds per address, per room and in all, and the places of
streams whose clients have gone taken back at once, not at their next heartbeat."""

import socket

import pytest

from ttt_web.rooms.budget import OverBudget, StreamBudget, closed_by_peer


def test_each_bound_refuses_the_stream_past_it():
    budget = StreamBudget(total=5, per_address=2, per_room=3)
    budget.take("a", "r1")
    budget.take("a", "r2")
    with pytest.raises(OverBudget) as refused:
        budget.take("a", "r3")
    assert refused.value.mine  # the address's own share: 429
    budget.take("b", "r1")
    budget.take("c", "r1")
    with pytest.raises(OverBudget) as refused:
        budget.take("d", "r1")
    assert not refused.value.mine  # the room is full: 503
    budget.take("d", "r4")
    with pytest.raises(OverBudget) as refused:
        budget.take("e", "r5")
    assert not refused.value.mine  # every place taken: 503


def test_a_given_back_place_serves_the_next_stream():
    budget = StreamBudget(total=1, per_address=1, per_room=1)
    slot = budget.take("a", "r")
    budget.give_back(slot)
    budget.take("a", "r")


def test_a_stream_whose_client_has_gone_gives_its_place_up_at_once():
    budget = StreamBudget(total=10, per_address=2, per_room=10)
    pairs = [socket.socketpair() for _ in range(2)]
    woken = []
    slots = [budget.take("school", f"r{n}", server.fileno()) for n, (server, _) in enumerate(pairs)]
    slots[0].wake.append(lambda: woken.append(0))
    assert not closed_by_peer(pairs[0][0].fileno())
    pairs[0][1].close()  # the first stream's browser went away
    assert closed_by_peer(pairs[0][0].fileno())
    budget.take("school", "r2")
    assert slots[0].dropped.is_set() and woken == [0]  # its greenlet ends at once
    assert not slots[1].dropped.is_set()
    with pytest.raises(OverBudget):
        budget.take("school", "r3")
    for server, client in pairs:
        server.close()
        client.close()
