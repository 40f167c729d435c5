"""The First Succession War scenario, 2786 (L585-639): its set-up and its Mercenary pile.

"All rules for this scenario ... are the same as for the main game, with the following important
exceptions" (L597). Set-up (L601): the players roll for the set-up order; every piece is placed
by the start command: each House's 25 regular units (L639) garrisoning its hostile borders, its
JumpShips and Leaders "anywhere" (in its own Regions, ruling SW-38). No Mercenary units are in
the House armies (L637): every Mercenary counter goes into a shuffled pile (L603), drawn one
unit at a time in the Mercenary Phase and auctioned (L605). The text gives Davion's Leaders only
(L613-619); the other Houses have none unless a group adds them (ruling SW-39).
"""

from __future__ import annotations

from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import Event
from mekref.rules.records import copy_with
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.common import Builder, check_actor, check_quiet, check_turn
from mekref.rules.succession_wars.data import OrderOfBattle2786, load_oob_2786, load_oob_3025
from mekref.rules.succession_wars.model import (
    MERCENARY_PILE,
    REFEREE,
    CenterState,
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
from mekref.rules.succession_wars.start import (
    check_garrisons,
    counters_3025,
    decide_start,
    house_states,
    jumpships_of,
    leader_of,
    shuffle_and_deal,
    slug,
)

SCENARIO = "2786"


def regulars(oob: OrderOfBattle2786 | None = None) -> list[Unit]:
    """Each House's 25 regular units at strength 4 (L639), off the board until placed."""
    oob = oob or load_oob_2786()
    out = []
    for house in load_oob_3025().sequence:
        for n in range(1, oob.units_per_house + 1):
            formation = oob.formation.format(house=house, n=n)
            out.append(house_counter(slug(house, "regular", str(n)), formation, house, oob.value))
    return out


def counter_mix() -> list[Unit]:
    """The 3025 House counters, in reserve: "All units in the counter mix may be built at a
    strength of 4" (L609); none is on the board at the start."""
    return [
        copy_with(unit, status=Status.RESERVE) for unit, _ in counters_3025() if not unit.mercenary
    ]


def mercenary_counters(oob: OrderOfBattle2786 | None = None) -> list[Unit]:
    """Every Mercenary counter, for the pile (L603), at no less than strength 4: "If the unit's
    normal strength is less than 4, change its fighting strength to 4." """
    minimum = (oob or load_oob_2786()).mercenary_minimum
    return [
        copy_with(unit, owner=MERCENARY_PILE, value=max(unit.value, minimum), status=Status.RESERVE)
        for unit, _ in counters_3025()
        if unit.mercenary
    ]


def jumpships(oob: OrderOfBattle2786 | None = None) -> list[JumpShip]:
    return jumpships_of((oob or load_oob_2786()).jumpships)


def leaders(oob: OrderOfBattle2786 | None = None) -> list[Leader]:
    return [leader_of(row) for row in (oob or load_oob_2786()).leaders]


def pieces() -> list[tuple[str, str]]:
    """(piece id, House) of everything the 2786 start command places, in the order of play."""
    found = [(u.id, u.house) for u in regulars()]
    found += [(s.id, s.owner) for s in jumpships()]
    found += [(ld.id, ld.house) for ld in leaders()]
    order = load_oob_3025().sequence
    return sorted(found, key=lambda p: order.index(p[1]))


def _setup_order(players: list[str], dice: Dice) -> tuple[tuple[str, ...], list[Roll], Dice]:
    """L601: "Each player rolls one die; the one with the lowest roll sets up his playing pieces
    first." Tied players roll again among themselves (ruling SW-37)."""
    rolls: list[Roll] = []

    def order(group: list[str], dice: Dice, attempt: int) -> tuple[list[str], Dice]:
        if len(group) < 2:
            return group, dice
        faces: dict[str, int] = {}
        for player in group:
            suffix = f", again ({attempt})" if attempt > 1 else ""
            roll, dice = dice.roll(f"set-up order: {player}{suffix}", 1, 10)
            rolls.append(roll)
            faces[player] = roll.faces[0]
        out: list[str] = []
        for face in sorted(set(faces.values())):
            tied = [p for p in group if faces[p] == face]
            ordered, dice = order(tied, dice, attempt + 1) if len(tied) > 1 else (tied, dice)
            out += ordered
        return out, dice

    result, dice = order(players, dice, 1)
    return tuple(result), rolls, dice


def decide_start_scenario(state: SWState, cmd: m.SWStartCampaign, dice: Dice) -> list[Event]:
    """``SWStartCampaign``: the 3025 main game, or the 2786 scenario."""
    if cmd.scenario != SCENARIO:
        return decide_start(state, cmd, dice)
    if state.started:
        raise Refusal("already_started", "this game has already been set up")
    if cmd.actor != REFEREE:
        raise Refusal("referee_only", "the referee sets up the game")
    if not cmd.seed:
        raise Refusal("bad_seed", "a game needs a seed for its dice")
    oob = load_oob_2786()
    sequence = load_oob_3025().sequence
    board = cmd.map
    players = dict(cmd.players)
    if sorted(players) != sorted(sequence) or len(cmd.players) != len(players):
        raise Refusal("bad_players", f"name a player for each House: {', '.join(sequence)}")
    for house in sequence:
        if not board.house_capital(house):
            raise Refusal("bad_map", f"the map has no House capital for {house}")
    placements = {p.piece: p.region for p in cmd.placements}
    if len(placements) != len(cmd.placements):
        raise Refusal("bad_setup", "a piece is placed twice")
    wanted = dict(pieces())
    extra = sorted(set(placements) - set(wanted))
    if extra:
        raise Refusal(
            "bad_setup",
            f"not pieces of the 2786 set-up: {extra} (see 'mekref game example --scenario 2786')",
        )
    for piece, house in wanted.items():
        region = placements.get(piece, "")
        if not region:
            raise Refusal(
                "bad_setup", f"place {piece} ({house}): every 2786 piece is placed at set-up"
            )
        _check_region(board, piece, house, region)
    units = [_at(u, placements[u.id]) for u in regulars(oob)]
    units += counter_mix() + mercenary_counters(oob)
    ships = [_at_ship(s, placements[s.id]) for s in jumpships(oob)]
    chiefs = [_at_leader(ld, placements[ld.id]) for ld in leaders(oob)]
    # L629: "There are no Periphery state or ComStar units on the board."
    check_garrisons(board, players, units)
    ordered_players = sorted(set(players.values()), key=lambda p: _first_turn(p, players, sequence))
    setup_order, rolls, dice = _setup_order(ordered_players, dice)
    # L601: "All Event Cards are placed in the deck. House Liao receives no special benefits".
    deck, hands, deal_rolls, dice = shuffle_and_deal(sequence, dice, liao_cards=False)
    pile, pile_rolls, dice = _shuffle_pile([u.id for u in mercenary_counters(oob)], dice)
    houses = house_states(board, sequence, players, chiefs, hands, free_bribes={})
    regions = tuple(
        (
            r.name,
            RegionState(
                controller=r.house, center=CenterState.INTACT if r.center else CenterState.NONE
            ),
        )
        for r in board.regions
    )
    started = m.SWCampaignStarted(
        seed=cmd.seed,
        scenario=SCENARIO,
        map=board,
        sequence=sequence,
        houses=tuple(houses),
        regions=regions,
        units=tuple(units),
        jumpships=tuple(ships),
        leaders=tuple(chiefs),
        deck=tuple(deck),
        setup_order=setup_order,
        mercenary_pile=tuple(pile),
        rolls=tuple(rolls + deal_rolls + pile_rolls),
    )
    # L603: "The first round of play consists solely of Mercenary purchases."
    first = m.SWPhaseBegan(house=sequence[0], phase=Phase.MERCENARY, round=1, turn_no=1)
    return [started, first]


def _first_turn(player: str, players: dict[str, str], sequence: tuple[str, ...]) -> int:
    return min(sequence.index(h) for h, p in players.items() if p == player)


def _check_region(board: SWMap, piece: str, house: str, region: str) -> None:
    info = board.region(region)
    if info is None:
        raise Refusal("unknown_region", f"{piece}: there is no Region {region!r} on this map")
    if info.house != house:
        raise Refusal(
            "bad_setup",
            f"{piece} must set up in a Region of House {house} (L601: Leaders and JumpShips "
            "anywhere, ruling SW-38: in the House's own Regions)",
        )


def _at(unit: Unit, region: str) -> Unit:
    return Unit(**{**unit.__dict__, "region": region})


def _at_ship(ship: JumpShip, region: str) -> JumpShip:
    return JumpShip(**{**ship.__dict__, "region": region})


def _at_leader(leader: Leader, region: str) -> Leader:
    return Leader(**{**leader.__dict__, "region": region})


def _shuffle_pile(pile: list[str], dice: Dice) -> tuple[list[str], list[Roll], Dice]:
    rolls = []
    for i in range(len(pile) - 1, 0, -1):
        roll, dice = dice.roll(f"shuffle the Mercenary pile, position {i + 1}", 1, i + 1)
        rolls.append(roll)
        j = roll.faces[0] - 1
        pile[i], pile[j] = pile[j], pile[i]
    return pile, rolls, dice


# --- the Mercenary pile --------------------------------------------------------------------------


def draw(b: Builder, house: str, card: int = 0) -> None:
    """Draw the top counter; its whole unit goes up for auction (L603, L605), ``house`` opens."""
    state = b.state
    counter = state.mercenary_pile[0]
    formation = state.units[counter].formation
    units = tuple(u for u in state.mercenary_pile if state.units[u].formation == formation)
    rest = tuple(u for u in state.mercenary_pile if u not in units)
    b.add(
        m.SWMercenaryDrawn(
            house=house, counter=counter, formation=formation, units=units, pile=rest, card=card
        )
    )
    b.add(m.SWAuctionOpened(lot=formation, kind="pile", opener=house))


def decide_draw(state: SWState, cmd: m.SWDrawMercenary, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    if state.scenario != SCENARIO:
        raise Refusal("not_2786", "only the 2786 scenario has a Mercenary pile (L603)")
    check_turn(state, cmd.house, Phase.MERCENARY)
    check_quiet(state)
    if state.mercenary_drawn_turn == state.turn_no:
        raise Refusal(
            "already_drawn",
            f"{cmd.house} has drawn its Mercenary unit this turn (L605: one a turn)",
            load_oob_2786().refs["mercenary_phase"],
        )
    if not state.mercenary_pile:
        raise Refusal("pile_empty", "the Mercenary pile is empty: end the Mercenary Phase")
    b = Builder(state, dice)
    draw(b, cmd.house)
    return b.events


def hiring_region(state: SWState, house: str) -> str:
    """Where a unit from the pile forms: the House capital if held, else the first Regional
    capital held (map order), else the first Region held (L297, ruling SW-40)."""
    board = state.board()
    home = board.house_capital(house)
    if home and state.controller(home) == house:
        return home
    held = [r for r in board.regions if state.controller(r.name) == house]
    for r in held:
        if r.capital:
            return r.name
    return held[0].name if held else ""


def mercenary_phase_done(state: SWState, house: str) -> None:
    """L605: the phasing player draws a unit before his turn; refuse to go on until he has."""
    if state.mercenary_drawn_turn != state.turn_no and state.mercenary_pile:
        raise Refusal(
            "draw_first",
            f"{house} draws a unit from the Mercenary pile first (SWDrawMercenary)",
            load_oob_2786().refs["mercenary_phase"],
        )


def example_placements(board: SWMap) -> tuple[m.Placement, ...]:
    """A legal 2786 set-up on ``board``: each House's regular units first garrison, one each,
    its Regions with a hostile border (L601: "All garrison requirements must still be met"),
    the rest stand at its House capital with its JumpShips and Leaders."""
    out: list[m.Placement] = []
    bare: dict[str, list[str]] = {}
    for spot in board.regions:
        hostile = any(
            (other := board.region(b)) is not None
            and other.house != spot.house
            and not other.periphery
            for b in spot.borders
        )
        if hostile:
            bare.setdefault(spot.house, []).append(spot.name)
    for unit in regulars():
        needy = bare.get(unit.house, [])
        region = needy.pop(0) if needy else board.house_capital(unit.house)
        out.append(m.Placement(piece=unit.id, region=region))
    for piece, house in pieces():
        if not piece.startswith(slug(house, "regular") + "-"):
            out.append(m.Placement(piece=piece, region=board.house_capital(house)))
    return tuple(out)
