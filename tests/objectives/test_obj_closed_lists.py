"""The objectives tracker's ``Claimed.how`` is a closed list the API writes as an enum
(docs/api.md, "Enums beside their text"): each way the rules change an objective's hands has
its value; a text none of them (an event stored before the list grew) gets no enum value."""

from __future__ import annotations

from mekref.daemon.grpc.typed import fill
from mekref.rules.objectives import events as e
from mekref.v1 import objectives_pb2

OBJ = objectives_pb2.Objectives


def test_each_way_an_objective_changes_hands_is_an_enum_value() -> None:
    claimed = {"objective_id": "o1", "squad_id": "s1", "side": "red", "carried": False,
               "previous_side": None}  # fmt: skip
    for how in e.CLAIMED_HOW:
        message = fill(OBJ.Claimed(), e.Claimed, {**claimed, "how": how})
        assert OBJ.ClaimedHow.Name(message.how_enum) == "CLAIMED_HOW_" + how.upper()
    unknown = fill(OBJ.Claimed(), e.Claimed, {**claimed, "how": "bribe"})
    assert unknown.how == "bribe" and unknown.how_enum == 0  # unset, never guessed
