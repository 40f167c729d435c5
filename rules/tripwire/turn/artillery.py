"""Out-of-combat unguided artillery (lines 323-336), resolved by the engine.

Attacks per piece: the attackers' slowest running MP, modified by the terrain (-1 light forest,
-2 heavy forest, -1 light hills, -2 heavy hills) and halved if they evade, set against 17 hexes
per map sheet of approach. Each attack hits on 2d6 >= 11 (12 when they evade); a hit rolls 2d6
on the scatter table (+2 in narrow confines).
"""

from __future__ import annotations

from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import Command, Event, command_type
from mekref.rules.record_type import record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.holding import out_of_play
from mekref.rules.tripwire.model import UnitRole
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, CampaignUnit
from mekref.rules.tripwire.turn.common import strategic_of
from mekref.rules.tripwire.turn.data import keyed, lookup, range_table, single
from mekref.rules.tripwire.turn.events import UnguidedArtilleryFired


def attacks_per_piece(run_mp: int, sheets: int, terrain: tuple[str, ...], *, evasive: bool) -> int:
    """How many attacks each piece gets while the enemy crosses ``sheets`` map sheets.

    The text: "Divided that number by 17 x the number of map sheets". Read as the turns the
    enemy needs to cross the sheets, ceil(17 x sheets / run MP): one attack per piece per turn
    (ruling T-A1). Terrain lowers the run MP (never below 1); evading halves it, rounded down.
    """
    if sheets <= 0:
        raise Refusal("bad_param", "sheets: the enemy is at least one map sheet away")
    mods = keyed("artillery", "terrain")
    mp = run_mp + sum(mods[t] for t in terrain)
    if evasive:
        mp //= 2
    mp = max(1, mp)
    hexes = int(single("artillery", "procedure")["hexes_per_sheet"]) * sheets
    return -(-hexes // mp)


def target_number(*, evasive: bool) -> int:
    row = single("artillery", "procedure")
    return int(row["target"]) + (int(row["evasive_target"]) if evasive else 0)


def scatter(total: int, *, narrow: bool) -> tuple[str, int]:
    mod = int(single("artillery", "narrow")["modifier"]) if narrow else 0
    row = lookup(range_table("scatter"), min(12, total + mod))
    return str(row.get("result")), int(row.get("hexes"))


@command_type("FireUnguidedArtillery")
@record
class FireUnguidedArtillery(Command):
    engagement_id: str
    firing_side: str
    pieces: tuple[str, ...]  # artillery unit ids
    run_mp: int  # slowest running MP of the attacking force
    sheets: int  # map sheets the enemy crosses under fire
    terrain: tuple[str, ...] = ()  # light_woods, heavy_woods, light_hills, heavy_hills
    evasive: bool = False
    narrow: bool = False


def fire(
    dice: Dice, cmd: FireUnguidedArtillery
) -> tuple[int, int, tuple[tuple[str, str, int], ...], list[Roll], Dice]:
    n = attacks_per_piece(cmd.run_mp, cmd.sheets, cmd.terrain, evasive=cmd.evasive)
    tn = target_number(evasive=cmd.evasive)
    rolls: list[Roll] = []
    results: list[tuple[str, str, int]] = []
    for piece in cmd.pieces:
        for i in range(n):
            hit, dice = dice.roll(f"unguided artillery {i + 1}, {piece}", 2)
            rolls.append(hit)
            if hit.total < tn:
                results.append((piece, "no_hit", 0))
                continue
            sc, dice = dice.roll(f"artillery scatter {i + 1}, {piece}", 2)
            rolls.append(sc)
            result, hexes = scatter(sc.total, narrow=cmd.narrow)
            results.append((piece, result, hexes))
    return n, tn, tuple(results), rolls, dice


#: L325: "Roll this number of artillery attacks per artillery piece".
L325 = 'L325: "Roll this number of artillery attacks per artillery piece"'


def _artillery_piece(state: CampaignState, unit: CampaignUnit) -> None:
    """Refuse a unit that is not an artillery piece still in play (ruling T-A2): a unit whose
    design carries artillery weapons (the force import's flag, L21), not truly destroyed, sold
    or scrapped."""
    name = f"{unit.unit_id} ({unit.chassis} {unit.model})"
    if UnitRole.ARTILLERY not in unit.roles:
        why = (
            "its design carries no artillery weapon (Arrow IV, Long Tom, Sniper, Thumper, "
            "cruise missile or tube artillery)"
            if unit.unit_id in state.battles.unit_designs
            else "no design was recorded for it, so its artillery weapons are not known "
            "(mekref force designs --units-dir DIR)"
        )
        raise Refusal("not_artillery", f"pieces: {name} is not an artillery piece: {why} ({L325})")
    gone = out_of_play(state, unit.unit_id)
    if gone:
        raise Refusal("not_artillery", f"pieces: {name} cannot fire: {gone} ({L325})")


def decide_fire(
    state: CampaignState, cmd: FireUnguidedArtillery, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_of(state)
    if not any(e.engagement_id == cmd.engagement_id for e in s.engagements):
        raise Refusal(
            "unknown_engagement", f"engagement_id: no open engagement {cmd.engagement_id!r}"
        )
    if not cmd.pieces:
        raise Refusal("bad_param", "pieces: name the artillery pieces that fire")
    for uid in cmd.pieces:
        unit = state.units.get(uid)
        if unit is None or unit.side_id != cmd.firing_side:
            raise Refusal("not_your_unit", f"pieces: {uid!r} is not a unit of {cmd.firing_side!r}")
        _artillery_piece(state, unit)
    unknown = set(cmd.terrain) - set(keyed("artillery", "terrain"))
    if unknown:
        raise Refusal("bad_param", f"terrain: unknown {sorted(unknown)}")
    n, tn, results, rolls, _ = fire(dice, cmd)
    return [
        UnguidedArtilleryFired(
            engagement_id=cmd.engagement_id,
            firing_side=cmd.firing_side,
            attacks_per_piece=n,
            target_number=tn,
            results=results,
            actor=cmd.actor,
            rolls=tuple(rolls),
        )
    ]
