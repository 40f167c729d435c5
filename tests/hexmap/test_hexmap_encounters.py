"""Encounters during a simultaneous move: same hex at the same step, or crossing on an edge."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mekref.hexmap.encounters import EncounterKind, PlannedMove, resolve_moves
from mekref.hexmap.geometry import Hex, neighbours, parse_label

P = parse_label


def move(name: str, side: str, *labels: str) -> PlannedMove:
    return PlannedMove(name, side, tuple(P(x) for x in labels))


def test_crossing_on_an_edge_stops_both_where_they_stood() -> None:
    # Whenever two formations occupy the same hex (or cross a hex with another formation) a
    # scenario begins in that hex and no further movement occurs.
    out = resolve_moves(
        [
            move("lyran-a", "Loyalist", "0101", "0201", "0301"),
            move("rebel-1", "Rebel", "0301", "0201", "0101"),
        ]
    )
    # Both enter 0201 at step 1: that is a same-hex meeting, not a crossing.
    assert [(e.kind, e.hexes, e.step) for e in out.encounters] == [
        (EncounterKind.SAME_HEX, (P("0201"),), 1)
    ]
    assert out.final_hex == {"lyran-a": P("0201"), "rebel-1": P("0201")}

    swap = resolve_moves(
        [
            move("lyran-a", "Loyalist", "0101", "0201", "0301"),
            move("rebel-1", "Rebel", "0201", "0101"),
        ]
    )
    (enc,) = swap.encounters
    assert enc.kind is EncounterKind.CROSSING and enc.step == 1
    assert set(enc.hexes) == {P("0101"), P("0201")}
    assert enc.formations == ("lyran-a", "rebel-1") and enc.sides == ("Loyalist", "Rebel")
    assert swap.final_hex == {"lyran-a": P("0101"), "rebel-1": P("0201")}
    assert swap.steps_taken == {"lyran-a": 0, "rebel-1": 0}


def test_walking_into_a_stationary_enemy_and_merging_a_third_formation() -> None:
    out = resolve_moves(
        [
            move("guard", "Rebel", "0303"),
            move("scouts", "Loyalist", "0301", "0302", "0303", "0304"),
            move("heavies", "Loyalist", "0305", "0304", "0303"),
        ]
    )
    (enc,) = out.encounters
    assert enc.hexes == (P("0303"),) and enc.step == 2
    assert enc.formations == ("guard", "heavies", "scouts")
    assert out.final_hex["scouts"] == P("0303")  # never reached 0304
    assert out.steps_taken["scouts"] == 2


def test_friends_share_hexes_freely_and_followers_never_meet() -> None:
    out = resolve_moves(
        [
            move("a", "Loyalist", "0101", "0102", "0103"),
            move("b", "Loyalist", "0103", "0102", "0101"),
            move("runner", "Rebel", "0501", "0502", "0503", "0504"),
            move("chaser", "Loyalist", "0601", "0501", "0502", "0503"),
        ]
    )
    assert out.encounters == ()
    assert out.final_hex["runner"] == P("0504")


def test_an_enemy_met_earlier_blocks_later_passers() -> None:
    out = resolve_moves(
        [
            move("r1", "Rebel", "0201", "0202"),
            move("l1", "Loyalist", "0203", "0202"),
            move("l2", "Loyalist", "0205", "0204", "0203", "0202", "0201"),
        ]
    )
    (enc,) = out.encounters
    assert enc.formations == ("l1", "l2", "r1") and enc.step == 1
    assert out.final_hex["l2"] == P("0202")


def test_starting_together_is_an_encounter_at_step_zero() -> None:
    out = resolve_moves([move("a", "X", "0101"), move("b", "Y", "0101", "0102")])
    assert out.encounters[0].step == 0
    assert out.final_hex["b"] == P("0101")


def test_rejects_duplicate_formations() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        resolve_moves([move("a", "X", "0101"), move("a", "X", "0102")])


@st.composite
def walks(draw: st.DrawFn) -> list[PlannedMove]:
    out = []
    for i in range(draw(st.integers(min_value=1, max_value=5))):
        h = Hex(draw(st.integers(-3, 3)), draw(st.integers(-3, 3)))
        path = [h]
        for t in draw(st.lists(st.integers(0, 5), max_size=5)):
            path.append(neighbours(path[-1])[t])
        out.append(PlannedMove(f"f{i}", draw(st.sampled_from(["A", "B"])), tuple(path)))
    return out


@given(walks(), st.randoms(use_true_random=False))
def test_outcome_does_not_depend_on_input_order(moves: list[PlannedMove], rnd: object) -> None:
    shuffled = list(moves)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    a, b = resolve_moves(moves), resolve_moves(shuffled)
    assert a == b
    for e in a.encounters:
        assert len(set(e.sides)) >= 2
    # Every formation ends on its own path, no further than its last hex.
    for m in moves:
        assert a.final_hex[m.formation] == m.path[a.steps_taken[m.formation]]
