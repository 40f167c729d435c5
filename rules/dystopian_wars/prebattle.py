"""1.0 Starting Sequence and 2.0 Pre Battle Sequence: rosters, territories, strategy, size."""

from __future__ import annotations

from mekref.rules.dice import Dice, Roll
from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars import holdings
from mekref.rules.dystopian_wars.experience import rank_of
from mekref.rules.dystopian_wars.model import (
    Battle,
    Commodore,
    DystopianState,
    Fleet,
    Squadron,
    Stake,
    Territory,
)
from mekref.rules.dystopian_wars.table_loader import load_tables
from mekref.rules.dystopian_wars.treaty import treaty_violations
from mekref.rules.messages import Event
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal

#: The five territory pairs every fleet starts with one of (lines 96-104), in the text's order.
START_PAIRS = ("air", "oil", "town", "pirate", "depot")
EYRIE_ID = "scientists_eyrie"


def new_squadron(spec: c.SquadronSpec) -> Squadron:
    if spec.ships < 1 or spec.points < 0:
        raise Refusal("bad_squadron", f"squadron {spec.squadron_id!r} needs ships and points")
    return built_from(Squadron, spec, ships_max=spec.ships)


def create(state: DystopianState, cmd: c.CreateCampaign, dice: Dice) -> list[Event]:
    if state.created:
        raise Refusal("already_created", "the campaign already exists")
    if not cmd.seed:
        raise Refusal("bad_seed", "a campaign needs a seed for its dice")
    ids = [f.fleet_id for f in cmd.fleets]
    if len(ids) < 2 or len(set(ids)) != len(ids):
        raise Refusal("bad_fleets", "a campaign has two or more fleets with distinct ids")
    fleets: list[Fleet] = []
    problems: list[str] = []
    for spec in cmd.fleets:
        squadrons = tuple(new_squadron(s) for s in spec.squadrons)
        if len({s.squadron_id for s in squadrons}) != len(squadrons):
            problems.append(f"{spec.fleet_id}: squadron ids must be distinct")
        problems += [f"{spec.fleet_id}: {v}" for v in treaty_violations(spec.nation, squadrons)]
        fleets.append(
            Fleet(
                fleet_id=spec.fleet_id,
                player=spec.player,
                nation=spec.nation,
                commodore=Commodore(name=spec.commodore),
                squadrons={s.squadron_id: s for s in squadrons},
            )
        )
    if problems:
        raise Refusal("treaty", "; ".join(problems), load_tables().rule("fleet_points").ref)
    numbers = [o.number for o in cmd.field_orders]
    if (
        len(set(numbers)) != len(numbers)
        or any(not o.name.strip() for o in cmd.field_orders)
        or any(n < 1 for n in numbers)
    ):
        # 0 is what a side sees of another fleet's drawn order (face down), so never a number.
        raise Refusal(
            "bad_field_orders", "Field Orders have distinct numbers from 1 up and a name each"
        )
    dice = Dice(cmd.seed, dice.next_index)  # the campaign's own seed from its first roll on
    territories, rolls = _generate_territories(tuple(ids), dice)
    return [
        e.CampaignCreated(
            seed=cmd.seed,
            fleets=tuple(fleets),
            actor=cmd.actor,
            field_orders=tuple(sorted(cmd.field_orders, key=lambda o: o.number)),
        ),
        e.TerritoriesGenerated(territories=territories, rolls=rolls),
    ]


def large_roll_name(fleet_id: str, pick: int) -> str:
    return f"large territory {pick}, fleet {fleet_id}"


def _generate_territories(
    fleet_ids: tuple[str, ...], dice: Dice
) -> tuple[tuple[Territory, ...], tuple[Roll, ...]]:
    """1.2: a Fleet Base and one of each pair; two chosen at random are the large type.

    Ruling DW-13: the two large pairs are drawn without replacement, a d5 then a d4 over the
    pairs left in the text's order. The Scientist's Eyrie starts unheld; the referee places it.
    """
    t = load_tables()
    by_pair: dict[tuple[str, bool], str] = {
        (r.pair, r.large): r.key for r in t.territories.values()
    }
    large_count = t.rule("start_large").int("count")
    out: list[Territory] = []
    rolls: list[Roll] = []
    for number, fleet_id in enumerate(fleet_ids, start=1):
        left = list(START_PAIRS)
        large: set[str] = set()
        for pick in range(1, large_count + 1):
            roll, dice = dice.roll(large_roll_name(fleet_id, pick), 1, len(left))
            rolls.append(roll)
            large.add(left.pop(roll.total - 1))
        # Ruling DW-32: a territory's id names the place, never its holder (a conquered
        # 'sun:refinery' held by brit misled the table): its kind and the number of the fleet
        # it started with, in the campaign's fleet order ('refinery-2').
        out.append(
            Territory(territory_id=f"fleet_base-{number}", kind="fleet_base", holder=fleet_id)
        )
        for pair in START_PAIRS:
            kind = by_pair[(pair, pair in large)]
            out.append(Territory(territory_id=f"{kind}-{number}", kind=kind, holder=fleet_id))
    out.append(Territory(territory_id=EYRIE_ID, kind=EYRIE_ID, holder=None))
    return tuple(out), tuple(rolls)


def grant(state: DystopianState, cmd: c.GrantTerritory, dice: Dice) -> list[Event]:
    if cmd.territory_id not in state.territories:
        raise Refusal("unknown_territory", f"no territory {cmd.territory_id!r}")
    if cmd.fleet_id is not None and cmd.fleet_id not in state.fleets:
        raise Refusal("unknown_fleet", f"no fleet {cmd.fleet_id!r}")
    if not cmd.reason.strip():
        raise Refusal("no_reason", "a referee's grant of territory gives a reason")
    return [
        e.TerritoryGranted(
            territory_id=cmd.territory_id, fleet_id=cmd.fleet_id, reason=cmd.reason, actor=cmd.actor
        )
    ]


def strategy_roll_name(battle_id: str, fleet_id: str, attempt: int) -> str:
    return f"commodore strategy roll, {battle_id}, fleet {fleet_id}, try {attempt}"


def start_battle(state: DystopianState, cmd: c.StartBattle, dice: Dice) -> list[Event]:
    t = load_tables()
    if state.winner is not None:
        raise Refusal("campaign_over", f"{state.winner} has won the campaign")
    if state.battle is not None:
        raise Refusal("battle_open", f"battle {state.battle.battle_id!r} is not resolved yet")
    a, b = cmd.fleets
    if a == b or a not in state.fleets or b not in state.fleets:
        raise Refusal("bad_fleets", "a battle is fought by two different fleets of the campaign")
    fleets = (state.fleets[a], state.fleets[b])
    present = (fleets[0].commodore.present, fleets[1].commodore.present)
    # Ruling DW-12: an absent commodore's stand-in leads at the lowest rank, with no bonus.
    ranks = tuple(
        rank_of(f.commodore.xp).rank if here else 1 for f, here in zip(fleets, present, strict=True)
    )
    bonuses = tuple(
        rank_of(f.commodore.xp).bonus + f.commodore.prowess if here else 0
        for f, here in zip(fleets, present, strict=True)
    )
    rolls: list[Roll] = []
    scores: tuple[e.StrategyScore, ...] = ()
    chooser: str | None = None
    attempt = 0
    while chooser is None:
        attempt += 1
        scores = ()
        for fleet, bonus in zip(fleets, bonuses, strict=True):
            roll, dice = dice.roll(strategy_roll_name(cmd.battle_id, fleet.fleet_id, attempt))
            rolls.append(roll)
            scores += (
                e.StrategyScore(
                    fleet_id=fleet.fleet_id, die=roll.total, bonus=bonus, total=roll.total + bonus
                ),
            )
        if scores[0].total != scores[1].total:
            chooser = a if scores[0].total > scores[1].total else b
        elif ranks[0] != ranks[1]:
            # Line 138: "With a tied result the higher commodore wins."
            chooser = a if ranks[0] > ranks[1] else b
        # Ruling DW-8: a tie between equal ranks is rolled again.
    size_roll, dice = dice.roll(f"battle size, {cmd.battle_id}")
    rolls.append(size_roll)
    size = next(r for r in t.battle_sizes if r.low <= size_roll.total <= r.high)
    # 2.3 Roll for Field Orders. Ruling DW-24: each fleet rolls a die over the group's deck.
    orders: list[int] = []
    for fleet in fleets if state.field_orders else ():
        order_roll, dice = dice.roll(
            f"field order, {cmd.battle_id}, fleet {fleet.fleet_id}", 1, len(state.field_orders)
        )
        rolls.append(order_roll)
        orders.append(state.field_orders[order_roll.total - 1].number)
    battle = Battle(
        battle_id=cmd.battle_id,
        fleets=(a, b),
        chooser=chooser,
        battle_type=size.key,
        points=size.points,
        ranks=(ranks[0], ranks[1]),
        present=present,
        field_orders=tuple(orders),
    )
    out: list[Event] = [
        e.BattleSetUp(battle=battle, strategy=scores, size_die=size_roll.total, rolls=tuple(rolls))
    ]
    for fleet in fleets:
        broken, fleet_rolls, dice = _broken_at_start(state, fleet, cmd.battle_id, dice)
        if broken or fleet_rolls:
            out.append(
                e.SquadronsBroken(fleet_id=fleet.fleet_id, squadron_ids=broken, rolls=fleet_rolls)
            )
    # Lines 112-113 "1 extra Wing TT’s": said for each fleet when the battle is set up.
    wings = (holdings.air_wings(state, cmd.battle_id, f.fleet_id) for f in fleets)
    out.extend(w for w in wings if w is not None)
    return out


def _broken_at_start(
    state: DystopianState, fleet: Fleet, battle_id: str, dice: Dice
) -> tuple[tuple[str, ...], tuple[Roll, ...], Dice]:
    """Shore leave's Broken start, and the Opium Traders' roll for every squadron (line 119)."""
    t = load_tables()
    afloat = [s for _, s in sorted(fleet.squadrons.items()) if not s.destroyed]
    broken = {s.squadron_id for s in afloat if s.broken_next_battle}
    rolls: list[Roll] = []
    for territory in state.held(fleet.fleet_id):
        row = t.territories[territory.kind]
        if row.broken_on is None:
            continue
        for squadron in afloat:
            roll, dice = dice.roll(f"opium traders, {battle_id}, squadron {squadron.squadron_id}")
            rolls.append(roll)
            if roll.total <= row.broken_on:
                broken.add(squadron.squadron_id)
    return tuple(sorted(broken)), tuple(rolls), dice


def stake(state: DystopianState, cmd: c.StakeTerritories, dice: Dice) -> list[Event]:
    """Line 136: the winner of the strategy roll stakes; in a Battle Royale the other commodore
    stakes the second pair (line 140). Ruling DW-9: each stake is a pair, one territory of each
    side; a Skirmish and a Skirmish Royale stake one pair, a Battle Royale two."""
    battle = state.battle
    if battle is None:
        raise Refusal("no_battle", "start a battle first")
    t = load_tables()
    size = t.battle_size(battle.battle_type)
    if len(battle.stakes) >= size.stakes:
        raise Refusal("staked", "every territory of this battle is already staked", size.ref)
    other = battle.fleets[1] if battle.chooser == battle.fleets[0] else battle.fleets[0]
    expected = battle.chooser if not battle.stakes else other
    if cmd.fleet_id != expected:
        raise Refusal("not_your_stake", f"{expected!r} chooses this pair of territories")
    enemy = battle.fleets[1] if cmd.fleet_id == battle.fleets[0] else battle.fleets[0]
    for territory_id, holder in ((cmd.own, cmd.fleet_id), (cmd.enemy, enemy)):
        territory = state.territories.get(territory_id)
        if territory is None or territory.holder != holder:
            raise Refusal("bad_stake", f"{territory_id!r} is not held by {holder!r}")
        if any(territory_id in (s.own, s.enemy) for s in battle.stakes):
            raise Refusal("bad_stake", f"{territory_id!r} is already staked")
    if state.borders and not within_reach(state, cmd.own, cmd.enemy, battle.fleets):
        raise Refusal(
            "not_adjacent",
            f"{cmd.own!r} and {cmd.enemy!r} are neither adjacent nor one territory of another"
            " fleet apart",
            load_tables().rule("strategy").ref,
        )
    out: list[Event] = [
        e.Staked(
            battle_id=battle.battle_id,
            stake=Stake(fleet_id=cmd.fleet_id, own=cmd.own, enemy=cmd.enemy),
        )
    ]
    # Lines 111 and 122: a staked Fleet Base or Eyrie is defended by its fortifications.
    forts = (holdings.fortifications(state, battle.battle_id, t) for t in (cmd.own, cmd.enemy))
    out.extend(f for f in forts if f is not None)
    return out


def neighbours(borders: tuple[tuple[str, str], ...]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for a, b in borders:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in out.items()}


def within_reach(state: DystopianState, own: str, enemy: str, combatants: tuple[str, str]) -> bool:
    """Line 136: the staked pair "must be adjacent to each other or no more than ONE enemy held
    territory away (not the combatants ...)".

    Ruling DW-25: one territory between them, held by a fleet that is not fighting this battle;
    an unheld territory (the Eyrie before it is placed) does not open a way.
    """
    near = neighbours(state.borders)
    own_n, enemy_n = near.get(own, frozenset()), near.get(enemy, frozenset())
    if enemy in own_n:
        return True
    for between in sorted(own_n & enemy_n):
        holder = state.territories[between].holder
        if holder is not None and holder not in combatants:
            return True
    return False


def set_map(state: DystopianState, cmd: c.SetMap, dice: Dice) -> list[Event]:
    """The referee enters the map's borders; every id is a territory of the campaign."""
    if not cmd.reason.strip():
        raise Refusal("no_reason", "a referee's map gives a reason")
    borders: set[tuple[str, str]] = set()
    for a, b in cmd.borders:
        for territory_id in (a, b):
            if territory_id not in state.territories:
                raise Refusal("unknown_territory", f"no territory {territory_id!r}")
        if a == b:
            raise Refusal("bad_map", f"{a!r} cannot border itself")
        borders.add((min(a, b), max(a, b)))
    return [
        e.MapSet(borders=tuple(sorted(borders)), reason=cmd.reason, actor=cmd.actor),
    ]
