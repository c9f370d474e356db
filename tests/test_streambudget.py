"""The event streams' budget: bounds per network, per room and in all; a seated player's
stream takes an onlooker's place rather than be refused."""

import pytest

from ttt_web.rooms.budget import OverBudget, StreamBudget


def test_each_bound_refuses_the_stream_past_it():
    budget = StreamBudget(total=5, per_network=2, per_room=3)
    budget.take("a", "r1")
    budget.take("a", "r2")
    with pytest.raises(OverBudget) as refused:
        budget.take("a", "r3")
    assert refused.value.mine  # the network's own share: 429
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
    budget = StreamBudget(total=1, per_network=1, per_room=1)
    slot = budget.take("a", "r")
    budget.give_back(slot)
    budget.give_back(slot)  # twice: nothing more
    budget.take("a", "r")


def test_a_seated_player_takes_the_place_of_an_onlooker_from_the_network_holding_most():
    budget = StreamBudget(total=4, per_network=3, per_room=4)
    flood = [budget.take("flood", f"r{n}") for n in range(3)]
    lone = budget.take("lone", "r9")
    woken = []
    flood[0].wake.append(lambda: woken.append(0))
    with pytest.raises(OverBudget):
        budget.take("newcomer", "r5")  # an onlooker: every place taken
    seated = budget.take("player", "r5", seated=True)
    assert flood[0].dropped.is_set() and woken == [0]  # its greenlet ends at once
    assert not lone.dropped.is_set() and not any(slot.dropped.is_set() for slot in flood[1:])
    assert len(budget.slots) == 4 and budget.networks["flood"] == 2
    budget.give_back(flood[0])  # its response closes later: nothing more given back
    assert len(budget.slots) == 4 and seated in budget.slots


def test_a_seated_player_makes_way_in_a_full_room_and_in_its_own_network():
    budget = StreamBudget(total=10, per_network=2, per_room=2)
    budget.take("x", "room")
    budget.take("y", "room")
    budget.take("school", "room", seated=True)
    assert budget.rooms["room"] == 2
    budget.take("school", "other")
    budget.take("school", "third", seated=True)  # the school's onlooker makes way
    assert budget.networks["school"] == 2 and all(slot.seated for slot in budget.slots if slot.network == "school")
    with pytest.raises(OverBudget) as refused:
        budget.take("school", "fourth", seated=True)  # only seated players of its own hold its share
    assert refused.value.mine
