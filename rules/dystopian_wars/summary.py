"""A Dystopian Wars campaign in words, fleet by fleet (``mekref game report``)."""

from __future__ import annotations

from mekref.rules.dystopian_wars import holdings
from mekref.rules.dystopian_wars.experience import in_dry_dock, repair_cost
from mekref.rules.dystopian_wars.model import DystopianState, Fleet
from mekref.rules.kernel import Section

#: A drawn Field Order a fleet's view shows face down (DystopianWarsViews: orders number from 1).
FACE_DOWN = 0


def summarize(state: DystopianState, side: str | None = None) -> tuple[Section, ...]:
    """The campaign in words; ``side`` is the fleet whose view ``state`` is (None: the
    referee's whole state)."""
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
            + _docked(f)
            + _air_and_forts(state, fleet_id)
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
                    *_field_orders(state, side),
                ),
            )
        )
    return tuple(sections)


def _docked(fleet: Fleet) -> str:
    """Squadrons left in dry dock (L227 a): they sit out battles until repaired (DW-34)."""
    docked = [
        f"{s.squadron_id} ({s.dry_dock} of {repair_cost(s)} RP applied)"
        for _, s in sorted(fleet.squadrons.items())
        if in_dry_dock(s)
    ]
    return f"; in dry dock, not fighting: {', '.join(docked)}" if docked else ""


def _air_and_forts(state: DystopianState, fleet_id: str) -> str:
    """Lines 111-113 and 122: the extra wings the fleet fields in every battle, and the
    fortifications that defend its territories when staked (rulings DW-36 to DW-38)."""
    parts = []
    wings = holdings.air_wings(state, "", fleet_id)
    if wings is not None:
        n = len(wings.wings)
        where = ", ".join(
            w.territory_id
            + (f", wing MAR {w.mar}" if w.mar else ", wing MAR not chosen" if w.mar_choices else "")
            for w in wings.wings
        )
        parts.append(f"{n} extra wing{'' if n == 1 else 's'} of Tiny Flyers ({where})")
    for territory_id, t in sorted(state.territories.items()):
        forts = holdings.fortifications(state, "", territory_id) if t.holder == fleet_id else None
        if forts is None:
            continue
        counted: dict[str, int] = {}
        for name in forts.fortifications:
            counted[name] = counted.get(name, 0) + 1
        names = [f"{k} {name}s" if k > 1 else name for name, k in counted.items()]
        if forts.towers_not_chosen:
            names.append(f"{forts.towers_not_chosen} towers not chosen")
        parts.append(f"{territory_id} defended by {', '.join(names)}")
    return "".join(f"; {p}" for p in parts)


def _field_orders(state: DystopianState, side: str | None) -> tuple[str, ...]:
    """Each fleet's drawn Field Order (2.3) in words. The referee's report names them all; a
    fleet's report is written from its view, where the other fleet's card lies face down
    until the battle is resolved, so it names only its own."""
    b = state.battle
    if b is None or not b.field_orders:
        return ()
    deck = {o.number: o for o in state.field_orders}
    out = []
    for fleet_id, number in zip(b.fleets, b.field_orders, strict=False):
        who = f"{fleet_id} (you)" if fleet_id == side else fleet_id
        if number == FACE_DOWN:
            out.append(f"{who} drew a Field Order, face down until the battle is resolved")
            continue
        order = deck.get(number)
        if order is None:
            out.append(f"{who} drew Field Order {number}")
            continue
        text = f": {order.text}" if order.text else ""
        out.append(f"{who} drew Field Order {number}, {order.name}{text}")
    return tuple(out)
