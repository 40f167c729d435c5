"""What every house-rules option of a TripWire campaign checks first (rulings HOUSE-31 onwards):
that the campaign was created with ``--house-rules``, and that the unit it names is in play."""

from __future__ import annotations

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.holding import kept_and_crewed, out_of_play
from mekref.rules.tripwire.state import CampaignState, CampaignUnit

#: Fates that keep a unit out of the next battle, and so out of what happens before or in it.
OUT_OF_PLAY = frozenset(
    {
        Fate.DESTROYED_REPAIRABLE,
        Fate.TRULY_DESTROYED,
        Fate.UTTERLY_DESTROYED,
        Fate.CAPTURED,
        Fate.MISSING,
    }
)


def require_house_rules(state: CampaignState, what: str, quote: str) -> None:
    """Refuse ``what`` (a house rule, quoted by ``quote``) in a campaign created without them."""
    if not state.house_rules:
        raise Refusal(
            "no_house_rules",
            f"{what} is a house rule ({quote}); this campaign was created without them: "
            "create it with 'mekref campaign new --house-rules'",
        )


def unit_in_play(state: CampaignState, unit_id: str, because: str) -> CampaignUnit:
    """The unit ``unit_id``; refused when there is none, or when its fate keeps it out of play
    (``because`` says what that rules out)."""
    unit = state.units.get(unit_id)
    if unit is None:
        raise Refusal("unknown_unit", f"no unit {unit_id!r}")
    fate = state.battles.fates.get(unit_id, Fate.OPERATIONAL)
    gone = out_of_play(state, unit_id)
    if gone and fate not in OUT_OF_PLAY:
        raise Refusal("out_of_play", f"{unit_id}: {gone}: {because}")
    # Salvage its captor kept and crewed fights for its new side (R-VP-4).
    if fate in OUT_OF_PLAY and not kept_and_crewed(state, unit_id):
        raise Refusal("out_of_play", f"{unit_id} is {fate.value.replace('_', ' ')}: {because}")
    return unit
