"""The house rules' experience as a TripWire campaign keeps it (rulings HOUSE-36 to HOUSE-39).

One value in the campaign state, left out of its JSON while empty (a campaign without the house
rules never fills it), so older logs and the replay hash are unchanged. Skills themselves stay
on the :class:`~mekref.rules.tripwire.state.Person` (the export writes them from there): this
ledger holds only what the house rules add, the experience and the group's price list.
"""

from __future__ import annotations

from dataclasses import field

from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.house_seam import SkillCost


@record
class HouseExperience(Record):
    """Each person's unspent and spent experience, and the group's XP prices."""

    #: Unspent experience by person id. A person not listed has 0 (ruling HOUSE-37).
    xp: dict[str, int] = field(default_factory=dict)
    #: Experience spent so far by person id.
    spent: dict[str, int] = field(default_factory=dict)
    #: The group's price of each one-point step (ruling HOUSE-24, HOUSE-37); () until entered.
    costs: tuple[SkillCost, ...] = ()

    def xp_of(self, person_id: str) -> int:
        return self.xp.get(person_id, 0)

    def spent_by(self, person_id: str) -> int:
        return self.spent.get(person_id, 0)
