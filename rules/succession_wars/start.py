"""Setting up a game from an Order of Battle: counters, Leaders, JumpShips, centers, cards, cash.

Named set-up Regions come from the Order of Battle; "Free Set-Up" pieces are placed by the
command; Leaders set up "with" a formation stand with its first counter. The deck is shuffled
with named d-n rolls (Fisher-Yates), so the order is in the log and can be audited.
"""

from __future__ import annotations

import re

from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import Event
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.common import tables
from mekref.rules.succession_wars.data import LeaderRow, OrderOfBattle, load_oob_3025
from mekref.rules.succession_wars.model import (
    REFEREE,
    TERRA_OWNER,
    CenterState,
    HouseState,
    JumpShip,
    Leader,
    Phase,
    RegionState,
    Status,
    SWMap,
    SWState,
    Unit,
    house_counter,
)

FREE = "free set-up"


def slug(*parts: str) -> str:
    text = "-".join(parts).lower().replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def counters_3025(oob: OrderOfBattle | None = None) -> list[tuple[Unit, str]]:
    """Every counter of the 3025 Order of Battle with its set-up rule (a Region or "free")."""
    oob = oob or load_oob_3025()
    out: list[tuple[Unit, str]] = []
    for f in oob.formations:
        values = [(v, Status.ACTIVE) for v in f.available] + [
            (v, Status.RESERVE) for v in f.reserve
        ]
        for n, (value, status) in enumerate(values, start=1):
            uid = slug(f.house, f.name, str(n))
            unit = house_counter(uid, f.name, f.house, value, mercenary=f.mercenary, status=status)
            out.append((unit, f.setup))
    return out


def jumpships_3025(oob: OrderOfBattle | None = None) -> list[JumpShip]:
    return jumpships_of((oob or load_oob_3025()).jumpships)


def jumpships_of(capacities: dict[str, tuple[int, ...]]) -> list[JumpShip]:
    """An Order of Battle's JumpShips, each House's numbered in the order the table lists them."""
    return [
        JumpShip(id=slug(house, "js", str(n)), owner=house, capacity=cap)
        for house, caps in capacities.items()
        for n, cap in enumerate(caps, start=1)
    ]


def leader_of(row: LeaderRow, **placed: str) -> Leader:
    """The Leader of an Order of Battle row, held by its own House."""
    return built_from(Leader, row, id=slug(row.house, row.name), owner=row.house, **placed)


def free_setup_pieces(oob: OrderOfBattle | None = None) -> list[str]:
    """Ids a SWStartCampaign must place: free set-up counters, "adjacent" ones, JumpShips."""
    ids = [
        u.id
        for u, setup in counters_3025(oob)
        if u.status is Status.ACTIVE and not _named_region(setup)
    ]
    return ids + [s.id for s in jumpships_3025(oob)]


def _named_region(setup: str) -> bool:
    lowered = setup.lower()
    return not (lowered.startswith("free") or lowered.startswith("adjacent to"))


def _place(
    state_map: SWMap, piece: str, house: str, region: str, setup: str, controllers: dict[str, str]
) -> None:
    info = state_map.region(region)
    if info is None:
        raise Refusal("unknown_region", f"{piece}: there is no Region {region!r} on this map")
    if setup.lower().startswith("adjacent to"):
        target = setup[len("adjacent to ") :]
        if target not in info.borders:
            raise Refusal("bad_setup", f"{piece} must set up in a Region bordering {target}")
    if controllers.get(region) != house:
        raise Refusal("bad_setup", f"{piece} must set up in a Region of House {house}")


def decide_start(state: SWState, cmd: m.SWStartCampaign, dice: Dice) -> list[Event]:
    _check_start(state, cmd)
    t = tables()
    oob = load_oob_3025()
    board = cmd.map
    players = dict(cmd.players)
    if sorted(players) != sorted(oob.sequence) or len(cmd.players) != len(players):
        raise Refusal("bad_players", f"name a player for each House: {', '.join(oob.sequence)}")
    for house in oob.sequence:
        if not board.house_capital(house):
            raise Refusal("bad_map", f"the map has no House capital for {house}")
    placements = {p.piece: p.region for p in cmd.placements}
    if len(placements) != len(cmd.placements):
        raise Refusal("bad_setup", "a piece is placed twice")
    units, ships, first_of = _placed_pieces(oob, board, placements)
    leaders = _leaders_3025(oob, board, first_of)
    neutral_units, neutral_ships = _neutrals(oob, board)
    units += neutral_units
    ships += neutral_ships
    check_garrisons(board, players, units)
    regions = tuple(
        (
            r.name,
            RegionState(
                controller=r.house,
                center=CenterState.INTACT if r.center else CenterState.NONE,
            ),
        )
        for r in board.regions
    )
    for house, names in oob.centers.items():
        for name in names:
            if dict(regions)[name].center is CenterState.NONE:
                raise Refusal("bad_map", f"the map has no Manufacturing Center at {name} ({house})")
    deck, hands, rolls, dice = shuffle_and_deal(oob.sequence, dice, liao_cards=True)
    houses = house_states(
        board, oob.sequence, players, leaders, hands, free_bribes={"Liao": t.liao_free_bribes}
    )
    started = m.SWCampaignStarted(
        seed=cmd.seed,
        scenario=cmd.scenario,
        map=board,
        sequence=oob.sequence,
        houses=tuple(houses),
        regions=regions,
        units=tuple(units),
        jumpships=tuple(ships),
        leaders=tuple(leaders),
        deck=tuple(deck),
        rolls=tuple(rolls),
    )
    first = m.SWPhaseBegan(house=oob.sequence[0], phase=Phase.DRAW, round=1, turn_no=1)
    return [started, first]


def _check_start(state: SWState, cmd: m.SWStartCampaign) -> None:
    if state.started:
        raise Refusal("already_started", "this game has already been set up")
    if cmd.actor != REFEREE:
        raise Refusal("referee_only", "the referee sets up the game")
    if cmd.scenario != "3025":
        raise Refusal(
            "scenario_not_supported",
            f'there is no scenario {cmd.scenario!r}: "3025" (the main game) or "2786" (the '
            "First Succession War)",
        )
    if not cmd.seed:
        raise Refusal("bad_seed", "a game needs a seed for its dice")


def _placed_pieces(
    oob: OrderOfBattle, board: SWMap, placements: dict[str, str]
) -> tuple[list[Unit], list[JumpShip], dict[tuple[str, str], str]]:
    """The Houses' counters and JumpShips where the Order of Battle names a Region or the
    referee placed them; with the first Region of each formation (where its Leader sets up)."""
    controllers = {r.name: r.house for r in board.regions}
    units: list[Unit] = []
    first_of: dict[tuple[str, str], str] = {}
    needed = set(free_setup_pieces(oob))
    for unit, setup in counters_3025(oob):
        if unit.status is Status.ACTIVE:
            if _named_region(setup):
                region = setup
                if board.region(region) is None:
                    raise Refusal("bad_map", f"the map lacks {region}, a set-up Region")
            else:
                region = placements.get(unit.id, "")
                if not region:
                    raise Refusal("bad_setup", f"place {unit.id} ({setup})")
                _place(board, unit.id, unit.house, region, setup, controllers)
            unit = Unit(**{**unit.__dict__, "region": region})
            first_of.setdefault((unit.house, unit.formation), region)
        units.append(unit)
    ships: list[JumpShip] = []
    for ship in jumpships_3025(oob):
        region = placements.get(ship.id, "")
        if not region:
            raise Refusal("bad_setup", f"place JumpShip {ship.id}")
        _place(board, ship.id, ship.owner, region, FREE, controllers)
        ships.append(JumpShip(id=ship.id, owner=ship.owner, capacity=ship.capacity, region=region))
    extra = set(placements) - needed
    if extra:
        raise Refusal("bad_setup", f"these pieces set up in named Regions: {sorted(extra)}")
    return units, ships, first_of


def _leaders_3025(
    oob: OrderOfBattle, board: SWMap, first_of: dict[tuple[str, str], str]
) -> list[Leader]:
    leaders: list[Leader] = []
    for row in oob.leaders:
        if row.setup.startswith("with "):
            formation = row.setup[len("with ") :]
            region = first_of.get((row.house, formation), "")
        else:
            region = row.setup
        if board.region(region) is None:
            raise Refusal("bad_map", f"the map lacks {region!r}, where {row.name} sets up")
        formation = row.setup[len("with ") :] if row.mercenary else ""
        leaders.append(leader_of(row, formation=formation, region=region))
    return leaders


def _neutrals(oob: OrderOfBattle, board: SWMap) -> tuple[list[Unit], list[JumpShip]]:
    """ComStar on Terra, each Periphery state's garrison and JumpShip in its Region."""
    units: list[Unit] = []
    ships: list[JumpShip] = []
    for spot in board.regions:
        owner = TERRA_OWNER if spot.terra else spot.house if spot.periphery else ""
        if not owner:
            continue
        values = oob.garrisons.get(owner, ())
        for n, value in enumerate(values, start=1):
            units.append(
                house_counter(
                    slug(owner, "garrison", str(n)),
                    f"{owner} Garrison",
                    owner,
                    value,
                    region=spot.name,
                )
            )
        for n, cap in enumerate(oob.neutral_jumpships.get(owner, ()), start=1):
            ships.append(
                JumpShip(id=slug(owner, "js", str(n)), owner=owner, capacity=cap, region=spot.name)
            )
    return units, ships


def check_garrisons(board: SWMap, players: dict[str, str], units: list[Unit]) -> None:
    """L73: "all hostile border Regions must be garrisoned" (not borders solely touching the
    Periphery)."""
    held = {(u.owner, u.region) for u in units if u.status is Status.ACTIVE}
    for spot in board.regions:
        if spot.house not in players:
            continue
        hostile = [
            b
            for b in spot.borders
            if (other := board.region(b)) is not None
            and other.house != spot.house
            and not other.periphery
        ]
        if hostile and (spot.house, spot.name) not in held:
            raise Refusal(
                "ungarrisoned_border",
                f"{spot.name} borders {', '.join(hostile)} and must be garrisoned by {spot.house}",
            )


def shuffle_and_deal(
    sequence: tuple[str, ...], dice: Dice, *, liao_cards: bool
) -> tuple[list[int], dict[str, list[int]], list[Roll], Dice]:
    """Shuffle the Event Cards (Fisher-Yates, one named roll per position) and deal four to each
    House; with ``liao_cards``, Liao's hand is both Death Commando cards and two others (L81)."""
    t = tables()
    deck = list(range(1, t.deck_size + 1))
    rolls = []
    for i in range(len(deck) - 1, 0, -1):
        roll, dice = dice.roll(f"shuffle the Event Cards, position {i + 1}", 1, i + 1)
        rolls.append(roll)
        j = roll.faces[0] - 1
        deck[i], deck[j] = deck[j], deck[i]
    hands: dict[str, list[int]] = {h: [] for h in sequence}
    death_commando = [c.number for c in t.cards.values() if c.name == "Death Commando"]
    if liao_cards and "Liao" in hands:
        # The Liao player receives both Death Commando cards and two others.
        hands["Liao"] = list(death_commando)
        deck = [c for c in deck if c not in death_commando]
    for house in sequence:
        while len(hands[house]) < t.hand_size:
            hands[house].append(deck.pop(0))
    return deck, hands, rolls, dice


def house_states(
    board: SWMap,
    sequence: tuple[str, ...],
    players: dict[str, str],
    leaders: list[Leader],
    hands: dict[str, list[int]],
    free_bribes: dict[str, int],
) -> list[HouseState]:
    controllers = {r.name: r.house for r in board.regions}
    houses = []
    for house in sequence:
        base = sum(r.resource for r in board.regions if r.house == house and not r.periphery)
        admin = sum(
            ld.admin for ld in leaders if ld.owner == house and controllers.get(ld.region) == house
        )
        houses.append(
            HouseState(
                name=house,
                player=players[house],
                cash=base + admin,  # "monies equal to their initial tax base" (ruling SW-15)
                hand=tuple(hands[house]),
                free_bribes=free_bribes.get(house, 0),
            )
        )
    return houses
