"""The condition a unit brings into the campaign at ``force import`` (issue 26).

A MegaMek unit list or a MekHQ campaign says what state each unit is in: armor and structure
per location, lost locations, hit slots, shots left per bin. The campaign keeps it exactly as
it keeps a battle's result: the file's entity is merged with its design
(:func:`~mekref.adapters.megamek.condition.merge_condition`) and reduced to the rules'
:class:`~mekref.rules.tripwire.battle_model.UnitDamage` by the battle reader's own
:func:`~mekref.rules.tripwire.battle_damage.unit_damage`, so the report prices it, spending
repairs it and the scenario export writes it back, as after a battle. Only a unit with
something to keep gets a condition: an import of undamaged units with full bins records what
it recorded before (the standard load, line 23).

The standard load (TripWire line 23: "Each unit must select is standard load out of
ammunition. This may not change through the campaign.") is each bin's full load: what the
design states, else MegaMek's shots for the type; a bin the list writes no line for holds it
(MegaMek's writer lists every bin it keeps, other tools none). Rulings R-IMP-1 to R-IMP-3 in
docs/rulings.md.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.adapters.megamek.condition import UnitCondition, unlisted_bins, with_unlisted
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, command_type, event_type
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_damage import crew_damage_of, unit_damage
from mekref.rules.tripwire.battle_model import AmmoBinLoad, Fate, UnitDamage
from mekref.rules.tripwire.campaign import Decider, Evolver, side_of
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.damage_work import fate_after


@record
class ConditionAtImport(Record):
    """What one imported unit brings besides its place in the TO&E."""

    #: Every bin at its full load (line 23): what re-arming restores.
    loadout: tuple[AmmoBinLoad, ...]
    #: The condition to keep; None when there is nothing (undamaged, every bin full).
    damage: UnitDamage | None
    #: Vehicles: driver and commander hit results (the Heal Vehicle Crew row).
    crew_damage: int
    #: Bins filled with the design's standard load because the list has no line for them.
    standard_load: tuple[AmmoBinLoad, ...]
    #: What was assumed or not taken, one line each, for the import's output.
    notes: tuple[str, ...]


def condition_at_import(cond: UnitCondition, kind: UnitKind) -> ConditionAtImport:
    """The loadout, condition and notes of a unit list's entity merged with its design."""
    filled = with_unlisted(cond)
    lost = tuple(b for b in unlisted_bins(cond) if b.lost and b.shots is not None)
    loadout = tuple(
        AmmoBinLoad(
            location=a.location,
            slot=a.slot,
            ammo_type=a.ammo_type,
            # A full bin: the design's (or MegaMek's) figure; the list's own count where it is
            # larger (a customised bin) or no figure is known.
            shots=max(a.shots, a.shots_max or 0),
        )
        for a in filled.ammo
    ) + tuple(
        AmmoBinLoad(location=b.location, slot=b.slot, ammo_type=b.ammo_type, shots=b.shots or 0)
        for b in lost
    )
    crew_damage = crew_damage_of(cond.entity) if kind.is_vehicle else 0
    damage = unit_damage(filled, kind, loadout)
    keep = _worth_keeping(damage) or crew_damage > 0
    standard = tuple(
        AmmoBinLoad(location=a.location, slot=a.slot, ammo_type=a.ammo_type, shots=a.shots)
        for a in filled.ammo
        if a.from_design
    )
    return ConditionAtImport(
        loadout=loadout,
        damage=damage if keep else None,
        crew_damage=crew_damage,
        standard_load=standard,
        notes=_ammo_notes(cond, standard) + not_taken(cond) + _unmeasured(cond, keep),
    )


#: A condition kept without a design: a design recorded later does not measure it again.
UNMEASURED_AT_IMPORT = (
    "its condition is kept without a design: the file's armour and structure are taken as the "
    "maxima, so the damage it comes in with stays unpriced, even after 'mekref force designs'; "
    "import the list with --units-dir to price it"
)


def _unmeasured(cond: UnitCondition, kept: bool) -> tuple[str, ...]:
    return (UNMEASURED_AT_IMPORT,) if kept and cond.design is None else ()


def _worth_keeping(d: UnitDamage) -> bool:
    """Anything the campaign would price, repair or write back differently from new."""
    return bool(
        d.armor_lost
        or d.internal_lost
        or d.critical_hits
        or d.ammo_used
        or d.damaged_slots
        or d.suits_damaged
        or d.landing_gear_damaged
        or d.criticals is not None
        or any(loc.destroyed for loc in d.locations)
        or (
            d.troopers_alive is not None
            and d.troopers_max is not None
            and d.troopers_alive < d.troopers_max
        )
    )


def _bin_name(location: str, slot: int | None, ammo_type: str) -> str:
    return f"{ammo_type} ({location}{'' if slot is None else f' slot {slot}'})"


def _ammo_notes(cond: UnitCondition, standard: tuple[AmmoBinLoad, ...]) -> tuple[str, ...]:
    notes = []
    if standard:
        shots = ", ".join(
            f"{_bin_name(b.location, b.slot, b.ammo_type)} {b.shots}" for b in standard
        )
        notes.append(f"standard load from the design (no <slot> line in the list): {shots}")
    unknown = [b for b in unlisted_bins(cond) if b.shots is None]
    if unknown:
        names = ", ".join(_bin_name(b.location, b.slot, b.ammo_type) for b in unknown)
        notes.append(
            f"ammunition not recorded: {names}: the list has no <slot> line and MegaMek's shots "
            "for the type are not known here; import a list that writes the bin's shots"
        )
    if cond.design is not None:
        guessed = [a for a in cond.ammo if a.shots_max is None]
        if guessed:
            names = ", ".join(f"{_bin_name(a.location, a.slot, a.ammo_type)}" for a in guessed)
            notes.append(
                f"full load unknown for {names}: the list's shots are taken as the full bin"
            )
    return tuple(notes)


def not_taken(cond: UnitCondition) -> tuple[str, ...]:
    """The parts of the file's condition the campaign does not keep, one line each: never
    dropped without a word. Motive damage, turret locks, stabilisers and vehicle and aerospace
    criticals are kept (``UnitDamage.criticals``, ruling R-IMP-6); a vehicle's driver and
    commander hits are its crew's damage; bombs are bought before each scenario."""
    e = cond.entity
    out = []
    if e.bombs and any(b.load for b in e.bombs):
        out.append("bombs in the list not kept: the campaign buys bombs before a scenario (L84)")
    return tuple(out)


# --- the command ------------------------------------------------------------------------------


@record
class ImportedCondition(Record):
    """One imported unit's condition, as the battle ledger keeps a battle's result."""

    unit_id: str
    damage: UnitDamage
    crew_damage: int = 0


@command_type("RecordImportedCondition")
@record
class RecordImportedCondition(Command):
    """The condition units of a side came in with (``force import``): kept as the battle
    ledger keeps a battle's, so it is priced, repaired and exported the same way."""

    side_id: str
    units: tuple[ImportedCondition, ...]


@event_type("ImportedConditionRecorded")
@record
class ImportedConditionRecorded(Event):
    side_id: str
    units: tuple[ImportedCondition, ...]
    #: Each unit's fate from its condition (a wreck by the glossary, else damaged).
    fates: tuple[tuple[str, Fate], ...]
    actor: str


def _decide(
    state: CampaignState, cmd: RecordImportedCondition, dice: Dice, rules: TripWire
) -> list[Event]:
    side_of(state, cmd.side_id)
    fates = []
    for item in cmd.units:
        unit = state.units.get(item.unit_id)
        if unit is None or unit.side_id != cmd.side_id:
            raise Refusal("unknown_unit", f"no unit {item.unit_id!r} on side {cmd.side_id!r}")
        if item.unit_id in state.battles.unit_damage or item.unit_id in state.battles.fates:
            raise Refusal(
                "condition_recorded",
                f"{item.unit_id} ({unit.chassis} {unit.model}): its condition is already "
                "recorded (a battle or an earlier import); the referee corrects it with "
                "'mekref battle fate'",
            )
        if item.crew_damage < 0:
            raise Refusal("bad_crew_damage", "crew damage cannot be negative")
        # A lost location read without a design has no maxima to price, but the unit is not
        # whole: at least damaged (ruling R-IMP-1).
        lost = any(loc.destroyed for loc in item.damage.locations)
        before = Fate.DAMAGED if lost else Fate.OPERATIONAL
        fates.append((item.unit_id, fate_after(unit, item.damage, before)))
    return [
        ImportedConditionRecorded(
            side_id=cmd.side_id, units=cmd.units, fates=tuple(fates), actor=cmd.actor
        )
    ]


def _evolve(state: CampaignState, e: ImportedConditionRecorded) -> CampaignState:
    led = state.battles
    crew = {u.unit_id: u.crew_damage for u in e.units if u.crew_damage}
    led = replace(
        led,
        unit_damage={**led.unit_damage, **{u.unit_id: u.damage for u in e.units}},
        fates={**led.fates, **dict(e.fates)},
        crew_damage={**led.crew_damage, **crew},
    )
    return replace(state, battles=led)


DECIDERS: dict[type[Command], Decider] = {RecordImportedCondition: _decide}
EVOLVERS: dict[type[Event], Evolver] = {ImportedConditionRecorded: _evolve}
