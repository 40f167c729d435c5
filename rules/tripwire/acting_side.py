"""Which side gives a TripWire command (``RuleSet.acting_side``): a side token may run it only
for that side (ruling R-ENGINE-2).

A side gives its own orders and reorganisations (they name the side), and spends for its own:
hiring (the side named), repairing, re-arming, reconfiguring (and buying configurations),
selling or scrapping, keeping and crewing its units (captured salvage is its captor's), healing
and training its people (and, with the house rules, spending their experience; the group's XP
prices are the referee's), ransoming its captives, recruiting the people it holds captive (on
the strategic map, which gives the unrest the roll adds; without it the unrest is the
referee's to give), moving WP between its pools; linking its DropShip or cargo pools to their
carriers (T-C3); in a house-rules campaign, searching for its own ammunition.
A command that carries the referee's word (``note``, ``override``, ``accept_unchecked``) is the
referee's alone, whoever it is for: a side cannot vouch for itself. Everything else is the
referee's.
"""

from __future__ import annotations

from mekref.rules.messages import Command
from mekref.rules.tripwire.battle_spending import (
    ChangeFormation,
    CombineInfantry,
    DeployUnrepaired,
    DisposeUnit,
    HealVehicleCrew,
    HirePerson,
    RansomPerson,
    ReconfigureUnit,
    RecruitCaptured,
    RepairUnit,
    ReplaceDropShipCrew,
    SeatSparePilot,
    TrainSkill,
)
from mekref.rules.tripwire.commands import HealPerson, TransferWarChest
from mekref.rules.tripwire.configurations import BuyConfiguration
from mekref.rules.tripwire.house_acquisition import AcquireItem
from mekref.rules.tripwire.house_xp import SpendXp
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.toe import KeepSalvage, SeatCrew
from mekref.rules.tripwire.turn.forecast import SIDE_COMMANDS as FORECAST_COMMANDS
from mekref.rules.tripwire.turn.orbit import SIDE_COMMANDS as ORBIT_COMMANDS
from mekref.rules.tripwire.turn.orders import SubmitOrders, WithdrawOrders
from mekref.rules.tripwire.turn.reorganise import REORGANISE_COMMANDS
from mekref.rules.tripwire.turn.transports import LinkTransport

#: Commands for one unit: the side that holds the unit gives them.
_FOR_A_UNIT = (
    RepairUnit,
    ReconfigureUnit,
    DisposeUnit,
    DeployUnrepaired,
    HealVehicleCrew,
    ReplaceDropShipCrew,
    SeatSparePilot,
    KeepSalvage,
    SeatCrew,
    BuyConfiguration,
)
#: Commands for one person of the side (healing, training, paying their ransom, spending
#: their house-rules experience: HOUSE-38).
_FOR_A_PERSON = (HealPerson, TrainSkill, RansomPerson, SpendXp)
#: Fields through which a command carries the referee's word.
_REFEREE_WORD = ("note", "override", "accept_unchecked")


def acting_side(state: CampaignState, command: Command) -> str | None:
    """The side that gives ``command``; None: the referee's."""
    if any(getattr(command, name, None) is not None for name in _REFEREE_WORD):
        return None
    # A side searches for its own ammunition (house rules L171, HOUSE-45).
    if isinstance(
        command, (SubmitOrders, WithdrawOrders, HirePerson, ChangeFormation, AcquireItem)
    ):
        side: str = command.side_id
        return side
    # Reorganising its formations; moving its own satellites, its DropShips' weekly readiness;
    # linking its DropShip or cargo pool to its carrier (T-C3).
    side_commands = (*REORGANISE_COMMANDS, *ORBIT_COMMANDS, *FORECAST_COMMANDS, LinkTransport)
    if isinstance(command, side_commands):
        named: str = command.side_id
        return named
    if isinstance(command, _FOR_A_UNIT):
        unit = state.units.get(command.unit_id)
        return unit.side_id if unit is not None else None
    if isinstance(command, CombineInfantry):
        kept = state.units.get(command.keep_unit_id)
        return kept.side_id if kept is not None else None
    if isinstance(command, _FOR_A_PERSON):
        person = state.people.get(command.person_id)
        return person.side_id if person is not None else None
    if isinstance(command, RecruitCaptured):
        # Off the map the opponent's unrest is typed in: the referee's fact, not the captor's.
        if state.strategic is None:
            return None
        return state.battles.captured_people.get(command.person_id)
    if isinstance(command, TransferWarChest):
        pool = state.pools.get(command.from_pool)
        return pool.side_id if pool is not None else None
    return None
