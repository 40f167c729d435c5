"""Force commander bonuses derived from the commander's skills, lost when out of play.

L26: "Force commanders provide an initiative bonus while they are in play and not in Forced
Withdrawal or Truly Destroyed. Each Commander (Company or Lance) also has edge point they can
spend which reset each battle."
L29: "Commanders gain a Skill Bonis to Initiative and to strategic rolls based on ether
training level."
L30-34: "| Veteran | 1 | 1 | +1 | 1 |" ... "| Legendary | 6 | 10 | +4 | 4 |"
L281: "Roll 2D6 and add the Force Commanders Skill Modifier."
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from mekref.rules.messages import Event, RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.commanders import (
    CommanderStanding,
    commander_bonus,
    commanders_among,
    commanders_of,
)
from mekref.rules.tripwire.model import UnitRole
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, PersonStatus
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))  # the turn tests' world
world = pytest.importorskip("turn_world")

GRIFFIN, PILOT = "L-GRF", "P-L-GRF"
NOTE = RefereeNote(referee="Ann", reason="the commander's SPA adds one")


def _with_commander(gunnery: int, piloting: int) -> CampaignState:
    """The turn tests' campaign with the loyalist Griffin as Force Commander at G/P."""
    state: CampaignState = world.started()
    unit = state.units[GRIFFIN]
    person = state.people[PILOT]
    commander = replace(unit, roles=unit.roles | {UnitRole.FORCE_COMMANDER})
    return replace(
        state,
        units={**state.units, GRIFFIN: commander},
        people={**state.people, PILOT: replace(person, gunnery=gunnery, piloting=piloting)},
    )


@pytest.mark.parametrize(
    ("skills", "level", "bonus", "edge"),
    [
        ((4, 5), "Regular", 0, 0),  # below Veteran: no row of L31-34
        ((3, 4), "Veteran", 1, 1),  # L31 "| Veteran | 1 | 1 | +1 | 1 |"
        ((2, 3), "Elite", 2, 2),  # L32 "| Elite | 2 | 3 | +2 | 2 |"
        ((1, 2), "Heroic", 3, 3),  # L33 "| Heroic | 4 | 6 | +3 | 3 |"
        ((0, 1), "Legendary", 4, 4),  # L34 "| Legendary | 6 | 10 | +4 | 4 |"
    ],
)
def test_the_bonus_and_edge_come_from_the_commanders_skills(
    skills: tuple[int, int], level: str, bonus: int, edge: int
) -> None:
    state = _with_commander(*skills)
    (found,) = [c for c in commanders_of(state, "loyalist") if c.force_commander]
    assert (found.level, found.skill_bonus, found.edge) == (level, bonus, edge)
    assert commander_bonus(state, "loyalist", (GRIFFIN,))[0] == bonus
    # Units without the commander bring no bonus (ruling R-CMD-1).
    assert commander_bonus(state, "loyalist", ("L-WVR",))[0] == 0


def test_ruling_r_cmd_2_the_bonus_is_lost_out_of_play() -> None:
    state = _with_commander(2, 3)  # Elite: +2 while in play
    assert commander_bonus(state, "loyalist", (GRIFFIN,))[0] == 2
    led = state.battles
    lost = {
        # L26 "not in ... Truly Destroyed"
        "truly destroyed": replace(
            state, battles=replace(led, fates={GRIFFIN: Fate.TRULY_DESTROYED})
        ),
        # R-CMD-2: destroyed in its last battle, not repaired: out of play (Forced Withdrawal)
        "not repaired": replace(
            state, battles=replace(led, fates={GRIFFIN: Fate.DESTROYED_REPAIRABLE})
        ),
        "captured": replace(state, battles=replace(led, captured_people={PILOT: "rebel"})),
        "dead": replace(
            state,
            people={**state.people, PILOT: replace(state.people[PILOT], status=PersonStatus.DEAD)},
        ),
        "sold": replace(state, battles=replace(led, sold=(GRIFFIN,))),
    }
    for why, out in lost.items():
        bonus, (standing,) = commander_bonus(out, "loyalist", (GRIFFIN,))
        assert (bonus, standing.in_play) == (0, False), why
        assert standing.lost, why
    # Repaired (fate back to operational), the commander is in play again.
    repaired = replace(state, battles=replace(led, fates={GRIFFIN: Fate.OPERATIONAL}))
    assert commander_bonus(repaired, "loyalist", (GRIFFIN,))[0] == 2


def test_ruling_r_cmd_1_a_captured_commanders_unit_commands_nobody() -> None:
    state = _with_commander(2, 3)
    unit = state.units[GRIFFIN]
    moved = replace(unit, side_id="rebel", company="Salvage", lance="Salvage", crew=())
    taken = replace(state, units={**state.units, GRIFFIN: moved})
    assert commanders_of(taken, "loyalist") == ()
    assert [c for c in commanders_of(taken, "rebel") if c.force_commander] == []


def _bonus_by_walk(
    state: CampaignState, side_id: str, unit_ids: Iterable[str]
) -> tuple[int, tuple[CommanderStanding, ...]]:
    """commander_bonus as it was before it looked only at the units given: every commander of
    the side, filtered to the units (the result must stay the same)."""
    wanted = set(unit_ids)
    present = tuple(
        c for c in commanders_of(state, side_id) if c.force_commander and c.unit_id in wanted
    )
    return max((c.skill_bonus for c in present), default=0), present


def _mixed_commanders() -> CampaignState:
    """Both sides with Force Commanders in and out of play: the loyalist Griffin (Elite), a
    second loyalist Force Commander whose unit has the Griffin's name (equal sort keys), a dead
    one in the Shadow Hawk, a Lieutenant in the Locust, a rebel Atlas (Veteran), and a rebel
    Force Commander's Jenner captured into the loyalists' Salvage."""
    state = _with_commander(2, 3)
    units, people = dict(state.units), dict(state.people)

    def role(uid: str, r: UnitRole, **changes: object) -> None:
        units[uid] = replace(units[uid], roles=units[uid].roles | {r}, **changes)  # type: ignore[arg-type]

    role("L-WVR", UnitRole.FORCE_COMMANDER, chassis="Griffin", model="GRF-1N")
    people["P-L-WVR"] = replace(people["P-L-WVR"], gunnery=1, piloting=2)  # Heroic: +3
    role("L-SHD", UnitRole.FORCE_COMMANDER)
    people["P-L-SHD"] = replace(people["P-L-SHD"], status=PersonStatus.DEAD)
    role("L-LCT", UnitRole.LANCE_LEADER)
    role("R-AS7", UnitRole.FORCE_COMMANDER)
    people["P-R-AS7"] = replace(people["P-R-AS7"], gunnery=3, piloting=4)
    role("R-JR7", UnitRole.FORCE_COMMANDER, side_id="loyalist", company="Salvage",
         lance="Salvage", crew=())  # fmt: skip
    return replace(state, units=units, people=people)


def test_the_bonus_looking_only_at_the_units_given_is_the_one_the_walk_gave() -> None:
    """Every subset of the campaign's units, in campaign order and reversed, with an unknown
    id and a repeated one: the same bonus and the same Force Commanders in the same order as
    walking every commander of the side (rulings R-CMD-1, R-CMD-2)."""
    state = _mixed_commanders()
    ids = [*state.units, "nobody"]
    checked = 0
    for size in range(len(ids) + 1):
        for chosen in itertools.combinations(ids, size):
            for given in (chosen, tuple(reversed(chosen)), chosen + chosen[:1]):
                for side in ("loyalist", "rebel"):
                    assert commander_bonus(state, side, given) == _bonus_by_walk(
                        state, side, given
                    ), (side, given)
                assert commanders_among(state, given) == tuple(
                    c for c in commanders_of(state) if c.unit_id in set(given)
                ), given
                checked += 1
    assert checked == 3 * 2 ** len(ids)
    # The cases the subsets hold, named: the two Griffins in campaign order, the best one
    # counting; a dead commander and a Salvage Jenner giving nothing.
    bonus, present = commander_bonus(state, "loyalist", ("L-WVR", GRIFFIN, "L-SHD"))
    assert bonus == 3
    assert [c.unit_id for c in present] == [GRIFFIN, "L-WVR", "L-SHD"]
    assert commander_bonus(state, "loyalist", ("L-SHD", "R-JR7", "L-LCT")) == (
        0, (commander_bonus(state, "loyalist", ("L-SHD",))[1]),
    )  # fmt: skip
    assert commander_bonus(state, "rebel", ("R-JR7", "R-AS7"))[0] == 1


class _NoWalk(dict[str, CampaignUnit]):
    """The campaign's units, refusing to be walked: a look-up by id is all that is allowed."""

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("walked every unit of the campaign")

    def values(self) -> Iterator[CampaignUnit]:  # type: ignore[override]
        raise AssertionError("walked every unit of the campaign")

    def items(self) -> Iterator[tuple[str, CampaignUnit]]:  # type: ignore[override]
        raise AssertionError("walked every unit of the campaign")


def test_a_formations_bonus_costs_its_units_not_the_campaigns() -> None:
    """A day asks for the bonus of every formation that meets another: walking every unit of
    the campaign each time made a day of 3,200 formations take seconds (issue 28)."""
    state = _mixed_commanders()
    walked = replace(state, units=_NoWalk(state.units))
    assert commander_bonus(walked, "loyalist", (GRIFFIN, "L-LCT")) == _bonus_by_walk(
        state, "loyalist", (GRIFFIN, "L-LCT")
    )
    assert commander_bonus(walked, "rebel", ("R-AS7", "R-MAD"))[0] == 1
    with pytest.raises(AssertionError, match="walked"):
        commanders_of(walked, "loyalist")


def _placed(state: CampaignState, loyal: FormationSpec) -> tuple[CampaignState, list[Event]]:
    rebel = FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7", "R-MAD"))
    return world.run(  # type: ignore[no-any-return]
        state,
        PlaceFormations(actor="loyalist", side_id="loyalist", day=1, formations=(loyal,)),
        PlaceFormations(actor="rebel", side_id="rebel", day=1, formations=(rebel,)),
    )


def _ambush_bonus(state: CampaignState) -> int:
    """Resolve a day where the rebels land on the guarding loyalists: the loyalist ambush total
    less its dice and the Guard +4 (L281) is the commander bonus the roll used."""
    state, events = world.run(
        state,
        SubmitOrders(actor="loyalist", side_id="loyalist", day=1,
                     orders=(FormationOrder(formation_id="a", action="guard"),)),
        SubmitOrders(actor="rebel", side_id="rebel", day=1,
                     orders=(FormationOrder(formation_id="b", action="orbital_insertion",
                                            target="1105"),)),
        ResolveTurn(actor=world.REFEREE, day=1),
    )  # fmt: skip
    (found,) = [e for e in events if isinstance(e, ev.EngagementDetermined)]
    assert isinstance(found, ev.EngagementDetermined)
    dice = sum(r.total for r in found.rolls if r.name.startswith("ambush roll, loyalist"))
    return int(dict(found.engagement.ambush_totals)["loyalist"]) - dice - 4


def test_the_ambush_roll_adds_the_derived_bonus_and_a_typed_one_must_agree() -> None:
    state = _with_commander(2, 3)  # Elite: +2
    spec = FormationSpec(formation_id="a", name="A", unit_ids=(GRIFFIN,), hex="1105")
    # Not typed: derived. L281 "add the Force Commanders Skill Modifier".
    placed, _ = _placed(state, spec)
    assert _ambush_bonus(placed) == 2
    # Captured before the battle (L26): the same formation adds nothing.
    led = placed.battles
    assert _ambush_bonus(replace(placed, battles=replace(led, captured_people={PILOT: "rebel"})))\
        == 0  # fmt: skip
    # Typed and equal to the derived one: accepted.
    same, _ = _placed(state, replace(spec, commander_bonus=2))
    assert _ambush_bonus(same) == 2
    # Typed and different: refused with L29.
    with pytest.raises(Refusal, match="line 29") as caught:
        _placed(state, replace(spec, commander_bonus=3))
    assert caught.value.code == "commander_bonus"
    assert "Elite 2/3, +2" in caught.value.message
    # The referee's override is recorded with who and why, and used.
    over, _ = _placed(state, replace(spec, commander_bonus=3, commander_note=NOTE))
    assert over.strategic is not None
    assert over.strategic.formations["a"].commander_note == NOTE
    assert _ambush_bonus(over) == 3


def test_ruling_r_cmd_3_lieutenants_have_edge_and_no_bonus() -> None:
    # L26 "Each Commander (Company or Lance) also has edge point": a Veteran Lieutenant has 1.
    state = _with_commander(2, 3)
    unit, person = state.units["L-WVR"], state.people["P-L-WVR"]
    state = replace(
        state,
        units={**state.units, "L-WVR": replace(unit, roles=frozenset({UnitRole.LANCE_LEADER}))},
        people={**state.people, "P-L-WVR": replace(person, gunnery=3, piloting=4)},
    )
    by_unit = {c.unit_id: c for c in commanders_of(state, "loyalist")}
    lieutenant = by_unit["L-WVR"]
    assert (lieutenant.force_commander, lieutenant.level, lieutenant.edge) == (
        False, "Veteran", 1,
    )  # fmt: skip
    assert lieutenant.skill_bonus == 0
    assert commander_bonus(state, "loyalist", ("L-WVR",))[0] == 0
    assert by_unit[GRIFFIN].edge == 2  # the Elite Force Commander


def test_ruling_r_cmd_4_the_export_takes_the_commanders_values_from_the_rules() -> None:
    """L26 "Each Commander (Company or Lance) also has edge point": a Veteran Force Commander
    goes to MegaMek flagged, with the L31 Skill Bonus (+1) as commandB and 1 edge point, the
    list's abilities and edge triggers kept; captured, the flag and the rule values go."""
    from mekref.rules.tripwire.megamek_crew import crew_export
    from mekref.rules.tripwire.model import MegaMekCrew

    listed = MegaMekCrew(
        advantages=("tm_forest_ranger",), edge=("edge 3", "edge_when_tac"), init_bonus=1
    )
    state = _with_commander(3, 4)
    state = replace(
        state, people={**state.people, PILOT: replace(state.people[PILOT], megamek=listed)}
    )
    (standing,) = [c for c in commanders_of(state, "loyalist") if c.unit_id == GRIFFIN]
    out = crew_export("Griffin", [state.people[PILOT]], standing)
    assert (out.commander, out.command_bonus, out.edge) == (True, 1, ("edge 1", "edge_when_tac"))
    assert (out.advantages, out.init_bonus) == (("tm_forest_ranger",), 1)
    assert any("edge 1" in n and "the list had 3" in n for n in out.notes)

    captured = replace(
        state,
        battles=replace(
            state.battles, captured_people={**state.battles.captured_people, PILOT: "rebel"}
        ),
    )
    (lost,) = [c for c in commanders_of(captured, "loyalist") if c.unit_id == GRIFFIN]
    out = crew_export("Griffin", [captured.people[PILOT]], lost)
    assert (out.commander, out.command_bonus, out.edge) == (False, 0, listed.edge)
    assert any("gives edge to commanders only" in n for n in out.notes)


def test_ruling_r_recruit_2_a_ranked_captive_costs_the_leadership_modifier_too() -> None:
    """L352: "Roll 2d6 (+ 1 for each 1 point of unrest over 7 the opponent has). On an 8+ they
    player may pay the WP to recruit them (plus the leadership modifier for a ranked force/lance
    commander)." On the map the opponent's unrest is the map's; a typed value that differs is
    refused; a Veteran Force Commander taken with the unit costs 600 + 1."""
    from mekref.rules.tripwire.battle_evolve import _change_sides
    from mekref.rules.tripwire.battle_spending import CapturedRecruited, RecruitCaptured
    from mekref.rules.tripwire.state import Pool, PoolKind

    state = _with_commander(3, 4)  # Veteran: "| Veteran | 1 | 1 | +1 | 1 |"
    state = _change_sides(state, GRIFFIN, "rebel")  # taken with the unit: the seat is left
    assert state.people[PILOT].rank == UnitRole.FORCE_COMMANDER.value
    assert state.strategic is not None
    pool = Pool(pool_id="rp", side_id="rebel", name="RP", kind=PoolKind.LOCATION,
                balance=1000, capacity=None)  # fmt: skip
    state = replace(
        state,
        pools={**state.pools, "rp": pool},
        strategic=replace(state.strategic, unrest={**state.strategic.unrest, "loyalist": 13}),
        battles=replace(
            state.battles, captured_people={**state.battles.captured_people, PILOT: "rebel"}
        ),
    )
    with pytest.raises(Refusal, match="gives 'loyalist' unrest 13, not 9") as caught:
        world.run(state, RecruitCaptured(person_id=PILOT, pool_id="rp", opponent_unrest=9,
                                         actor="rebel"))  # fmt: skip
    assert caught.value.source is not None and caught.value.source.line == 352
    # Unrest 13 from the map: +6, so any 2d6 reaches 8.
    after, events = world.run(state, RecruitCaptured(person_id=PILOT, pool_id="rp", actor="rebel"))
    (done,) = [e for e in events if isinstance(e, CapturedRecruited)]
    assert (done.succeeds, done.modifier, done.cost_sp, done.leadership_sp) == (True, 6, 601, 1)
    assert after.pools["rp"].balance == 1000 - 601
    assert after.people[PILOT].side_id == "rebel" and after.people[PILOT].rank is None
