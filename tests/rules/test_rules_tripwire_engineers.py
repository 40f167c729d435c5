"""Engineers repair a destroyed DropPort in one campaign turn (ruling T-EN1 in docs/turn.md).

L219: "DropPorts that are destroyed can be repaired if Engineers are present in 1 campaign
turn." On the Ginestra map of the where tests: the loyalists' Foot Platoon ("L-INF") and the
Griffin at Bagnorgeio Space Port (0610, "dropport_large").
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mekref.adapters.megamek.blk_reader import parse_blk
from mekref.rules.messages import Command
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import ImportForce
from mekref.rules.tripwire.force_from_design import design_roles
from mekref.rules.tripwire.model import UnitRole
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.events import FacilityDestroyed, FacilityRestored
from mekref.rules.tripwire.turn.orders import ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations
from mekref.rules.tripwire.turn.state import FormationOrder

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
world = pytest.importorskip("turn.turn_world")
where = pytest.importorskip("test_rules_tripwire_where")

PORT, SPACE_PORT = "0610", "Bagnorgeio Space Port"
UNITS = Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "units"
REBELS = PlaceFormations(actor="rebel", side_id="rebel", day=1, formations=(
    FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7",), hex=""),))  # fmt: skip


def _engineers(cmd: Command) -> Command:
    """The loyalists' Foot Platoon as combat engineers (what ``force import`` reads from a
    design with an engineer specialization)."""
    if not isinstance(cmd, ImportForce) or cmd.side_id != "loyalist":
        return cmd
    companies = tuple(
        replace(c, lances=tuple(
            replace(lance, units=tuple(
                replace(u, roles=u.roles | {UnitRole.ENGINEER}) if u.unit_id == "L-INF" else u
                for u in lance.units))
            for lance in c.lances))
        for c in cmd.force.companies
    )  # fmt: skip
    return replace(cmd, force=replace(cmd.force, companies=companies))


def _commands(*formations: tuple[str, str, tuple[str, ...]]) -> tuple[Command, ...]:
    return (*(_engineers(c) for c in where.setup_commands(*formations)), REBELS)


def _start() -> CampaignState:
    state, _ = world.run(
        CampaignState(), *_commands(("sappers", PORT, ("L-INF",)), ("alpha", PORT, ("L-GRF",)))
    )
    destroyed = FacilityDestroyed(
        location=SPACE_PORT, facility="dropport_large", by_force="rebel", civilian=True
    )
    from mekref.rules.tripwire.game import TRIPWIRE

    return TRIPWIRE.evolve(state, destroyed)


def _repair(fid: str, target: str = "dropport_large") -> SubmitOrders:
    order = FormationOrder(formation_id=fid, action="repair", target=target)
    return SubmitOrders(actor="loyalist", side_id="loyalist", day=1, orders=(order,))


def test_an_engineer_specialization_in_the_design_makes_engineers(tmp_path: Path) -> None:
    # MegaMek's .blk <specialization> bit mask: bits 0-5 are combat engineers (bridge,
    # demolition, fire, mine, sensor, trench); bit 6 is marines.
    text = (UNITS / "Foot Platoon (Rifle).blk").read_text(encoding="utf-8")
    plain = parse_blk(text, "rifle.blk")
    assert UnitRole.ENGINEER not in design_roles(plain)
    sappers = parse_blk(text + "\n<specialization>\n2\n</specialization>\n", "sappers.blk")
    assert UnitRole.ENGINEER in design_roles(sappers)
    marines = parse_blk(text + "\n<specialization>\n64\n</specialization>\n", "marines.blk")
    assert UnitRole.ENGINEER not in design_roles(marines)


def test_l219_engineers_repair_a_destroyed_dropport_in_one_turn() -> None:
    # L219: "DropPorts that are destroyed can be repaired if Engineers are present in 1
    # campaign turn."
    state = _start()
    assert state.strategic is not None
    assert "dropport_large" in state.strategic.destroyed[SPACE_PORT]
    # Refused: a formation without engineers ...
    with pytest.raises(Refusal) as caught:
        world.run(state, _repair("alpha"))
    assert caught.value.code == "wrong_units" and "L219" in str(caught.value)
    # ... a facility that is not a DropPort, or a DropPort that stands.
    for target in ("repair_af", "dropport_small"):
        with pytest.raises(Refusal) as caught:
            world.run(state, _repair("sappers", target))
        assert caught.value.code == "bad_target"
    # Allowed: the sappers' day at the Space Port; the DropPort stands at the end of it.
    state, _ = world.run(state, _repair("sappers"))
    state, events = world.run(state, ResolveTurn(actor="ref", day=1))
    (restored,) = [e for e in events if isinstance(e, FacilityRestored)]
    assert (restored.location, restored.facility) == (SPACE_PORT, "dropport_large")
    assert state.strategic is not None
    assert "dropport_large" not in state.strategic.destroyed.get(SPACE_PORT, ())


def test_engineers_through_the_console_script(tmp_path: Path) -> None:
    """T-EN1 through the installed ``mekref``: the loyalists blow up their own Space Port
    DropPort on day 1 (a Destruction order); on day 2 an order to repair it without engineers
    is refused, the sappers' order repairs it."""
    from console_script import mekref, start_tripwire

    db = str(tmp_path / "c.db")
    start, *rest = _commands(("sappers", PORT, ("L-INF",)), ("alpha", PORT, ("L-GRF",)))
    campaign = start_tripwire(tmp_path, (start, *rest))
    base = ("--db", db, "--campaign", campaign)
    submit = ("orders", "submit", *base, "--side", "loyalist")
    blow = mekref(*submit, "--day", "1", "--order", "alpha:destruction::dropport_large")
    assert blow.returncode == 0, blow.stderr
    assert mekref("turn", "resolve", *base, "--day", "1").returncode == 0
    refused = mekref(*submit, "--day", "2", "--order", "alpha:repair::dropport_large")
    assert refused.returncode == 3 and "L219" in refused.stderr
    repaired = mekref(*submit, "--day", "2", "--order", "sappers:repair::dropport_large")
    assert repaired.returncode == 0, repaired.stderr
    resolved = mekref("turn", "resolve", *base, "--day", "2")
    assert resolved.returncode == 0, resolved.stderr
    again = mekref(*submit, "--day", "3", "--order", "sappers:repair::dropport_large")
    assert again.returncode == 3 and "has no destroyed 'dropport_large'" in again.stderr
