"""The commands a campaign accepts (setup, WarChest, referee overrides, healing)."""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.messages import Command, RefereeNote, command_type
from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.model import CrewSkills, ForceDescription
from mekref.rules.tripwire.state import PoolKind


@record
class SideSpec(Record):
    side_id: str
    name: str


@command_type("CreateCampaign")
@record
class CreateCampaign(Command):
    name: str
    ruleset: str
    seed: str
    sides: tuple[SideSpec, ...]
    # The house rules (002_*.txt) as options of this campaign (``campaign new --house-rules``,
    # rulings HOUSE-31 on). Left out of the JSON while False, so older logs decode unchanged.
    house_rules: bool = field(default=False, metadata=OMIT_IF_DEFAULT)


@command_type("ImportForce")
@record
class ImportForce(Command):
    """A side's TO&E. Unit and person ids are UUIDs chosen by the caller, never by the rules."""

    side_id: str
    force: ForceDescription
    spare_people: tuple[CrewSkills, ...] = ()
    # Import despite construction violations only on the referee's word.
    accept_unchecked: RefereeNote | None = None


@command_type("OpenPool")
@record
class OpenPool(Command):
    """Open a WarChest pool: a location (by name), a DropShip (by class) or a cargo unit."""

    pool_id: str
    side_id: str
    name: str
    kind: PoolKind
    location: str | None = None  # PoolKind.LOCATION: the strategic location's name
    dropship_class: str | None = None  # PoolKind.DROPSHIP: "Union", "Gazelle"
    cargo_tons: Fraction | None = None  # PoolKind.CARGO
    opening_balance: int | None = None  # None: the rule set's figure (cargo pools start empty)


@command_type("CreditPool")
@record
class CreditPool(Command):
    pool_id: str
    amount: int
    reason: str


@command_type("DebitPool")
@record
class DebitPool(Command):
    pool_id: str
    amount: int
    reason: str


@command_type("TransferWarChest")
@record
class TransferWarChest(Command):
    """Referee override: move WP between two pools of one side at once (L59 wants a Load/Unload
    action: on the map, the ``load_unload`` order, ruling T-WP1). ``note``: who and why."""

    from_pool: str
    to_pool: str
    amount: int
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@command_type("SetPersonHits")
@record
class SetPersonHits(Command):
    """Referee override: correct a person's hits (6 = dead)."""

    person_id: str
    hits: int
    override: RefereeNote


@command_type("HealPerson")
@record
class HealPerson(Command):
    """Heal one hit, paid from a WarChest pool; 3+ hits need a MASH or hospital."""

    person_id: str
    pool_id: str
    at_hospital: bool = False  # the referee vouches for a MASH unit or hospital (needs ``note``)
    # The referee's word where the map cannot say where the person is, or overruling it
    # (R-WHERE-1): who and why, recorded in the event.
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@command_type("ResolveDeathRoll")
@record
class ResolveDeathRoll(Command):
    """Roll for a person at 5 hits: 1D6, on 4-6 they die."""

    person_id: str
