"""A Dystopian Wars campaign in words, fleet by fleet (``mekref game report``)."""

from __future__ import annotations

from mekref.rules.dystopian_wars.model import DystopianState
from mekref.rules.kernel import Section


def summarize(state: DystopianState) -> tuple[Section, ...]:
    if not state.created:
        return (Section("campaign", ("not created",)),)
    fought = state.battles_fought
    campaign = [f"{fought} battle{'' if fought == 1 else 's'} fought"]
    if state.winner:
        campaign.append(f"won by {state.winner} ({state.win_condition})")
    fleets = []
    for fleet_id, f in sorted(state.fleets.items()):
        afloat = [s for s in f.squadrons.values() if s.ships > 0]
        ships = sum(s.ships for s in afloat)
        c = f.commodore
        absent = f", misses {c.games_to_miss} games" if c.games_to_miss else ""
        fleets.append(
            f"{fleet_id} ({f.nation}, {f.player}): Commodore {c.name} ({c.status}, XP {c.xp}, "
            f"prowess {c.prowess}{absent}); {len(afloat)} of {len(f.squadrons)} squadrons "
            f"afloat, {ships} ships; {f.rp} RP to spend; "
            f"{state.owned_count(fleet_id)} territories"
        )
    territories = []
    for holder in sorted({t.holder or "" for t in state.territories.values()}):
        held = sorted(t for t, v in state.territories.items() if (v.holder or "") == holder)
        lent = {t: v.lent_to for t, v in state.territories.items() if v.lent_to}
        names = [f"{t} (raided by {lent[t]})" if t in lent else t for t in held]
        territories.append(f"{holder or 'unheld'}: {', '.join(names)}")
    sections = [
        Section("campaign", tuple(campaign)),
        Section("fleets", tuple(fleets)),
        Section("territories", tuple(territories)),
    ]
    if state.battle is not None:
        b = state.battle
        stakes = "; ".join(f"{s.fleet_id} stakes {s.own} against {s.enemy}" for s in b.stakes)
        sections.append(
            Section(
                "battle being fought",
                (
                    f"{b.battle_id}: {b.fleets[0]} against {b.fleets[1]}, {b.battle_type} of "
                    f"{b.points} points" + (f"; {stakes}" if stakes else ""),
                ),
            )
        )
    return tuple(sections)
