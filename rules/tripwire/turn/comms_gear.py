"""Communications equipment as a satellite uplink (line 270, ruling T-OR8).

L270: "Each turn a force at the location of a SatLink (or a unit with 4+ tons of communication
equipment) rolls 2d6, on a 9+ they are able to access the Satellite." The tons are read from
the design the campaign kept at ``force import``, as MegaMek writes the item:

- ``CommsGear:SIZE:4.0``: today's variable-size item (``MtfFile.SIZE``; a BLK file writes
  sizes the same way, e.g. ``ISDroneCarrierControlSystem:SIZE:5``), under its lookup name or
  its name (``Communications Equipment:SIZE:4.0``);
- ``CommsGear:4``: the lookup name of the older one-type-per-size items;
- ``Communications Equipment (4 ton)``: those items' own names (``MiscType.createCommsGearN``).

A BLK unit lists each mounting once; a Mek's critical block repeats the item in every slot it
fills, one slot a ton (two tons a slot on a superheavy Mek, over 100 tons).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from fractions import Fraction

from mekref.rules.tripwire.design_record import StoredDesign
from mekref.rules.tripwire.designs import stored_design_of
from mekref.rules.tripwire.state import CampaignState

#: L270: "(or a unit with 4+ tons of communication equipment)".
UPLINK_TONS = Fraction(4)
L270_COMMS = 'L270: "(or a unit with 4+ tons of communication equipment)"'

_SIZED = re.compile(
    r"\b(?:CommsGear|Communications Equipment):(?:SIZE:)?(\d+(?:\.\d+)?)", re.IGNORECASE
)
_NAMED = re.compile(r"\bCommunications Equipment \((\d+(?:\.\d+)?) tons?\)", re.IGNORECASE)


def item_tons(text: str) -> Fraction | None:
    """The tons of communications equipment one equipment or slot line names, or None when
    the line is not communications equipment (or names no size)."""
    found = _SIZED.search(text) or _NAMED.search(text)
    return None if found is None else Fraction(found.group(1))


def comms_tons(design: StoredDesign) -> Fraction:
    """The tons of communications equipment a design carries."""
    if design.crit_slots:
        per_slot = 2 if (design.tonnage or 0) > 100 else 1
        total = Fraction(0)
        for _, slots in design.crit_slots:
            lines: dict[Fraction, int] = {}
            for slot in slots:
                tons = item_tons(slot.raw)
                if tons is not None:
                    lines[tons] = lines.get(tons, 0) + 1
            # Each mounting fills ceil(tons / tons-a-slot) lines of the block.
            for tons, count in lines.items():
                total += Fraction(count, math.ceil(tons / per_slot)) * tons
        return total
    return sum((t for e in design.equipment if (t := item_tons(e.raw)) is not None), Fraction(0))


def uplink_units(state: CampaignState, unit_ids: Iterable[str]) -> tuple[str, ...]:
    """The units among ``unit_ids`` whose kept design carries 4 or more tons of
    communications equipment (a unit imported without its design carries none we know of)."""
    found = []
    for uid in unit_ids:
        design = stored_design_of(state, uid)
        if design is not None and comms_tons(design) >= UPLINK_TONS:
            found.append(uid)
    return tuple(found)
