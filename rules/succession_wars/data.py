"""The Succession Wars tables, Orders of Battle and maps, loaded from TOML into typed rows.

Every table row keeps its :class:`~mekref.rules.tables.SourceRef` so a refusal or a report can
quote the rule it applies. Maps carry no source (the rule text has no board); they are checked
for consistency instead (known Regions, two-way borders, one House capital per House).
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

from mekref.rules.record_type import Record, record
from mekref.rules.succession_wars.model import Region, SWMap
from mekref.rules.tables import (
    SourceRef,
    TableError,
    bool_field,
    int_field,
    int_list_field,
    load_toml,
    row_record,
    row_records,
    rows,
    section,
    source_of,
    str_field,
    str_list_field,
)

_TABLES = "mekref.rules.succession_wars.tables"
_MAPS = "mekref.rules.succession_wars.maps"


# --- the rule tables -----------------------------------------------------------------------------


@record
class Price(Record):
    key: str
    price: int
    capacity: int
    ref: SourceRef


@record
class TechStep(Record):
    """One printed level of the Technology Scale; zero fields mean "no change from here"."""

    level: int
    mech_price: int = 0
    merc_price: int = 0
    all_units: int = 0
    jump_range: int = 0
    boosted_mechs: int = 0
    tax_bonus: int = 0
    mech_units: int = 0
    ref: SourceRef


@record
class Card(Record):
    number: int
    effect: str  # advance_tech, new_mercenary, contract_ends, free_unit, blackmail, referee
    timing: str  # "any" or "spend" (the Spend Taxes Phase of the holder's own turn)
    amount: int
    name: str
    ref: SourceRef | None  # None: a card the text does not list (effect left to the referee)


@record
class AttackModifier(Record):
    low: int
    high: int
    modifier: int
    ref: SourceRef


@record
class Tables(Record):
    hand_size: int
    deck_size: int
    auto_kill_at: int
    max_counters_per_combination: int
    base_jump_range: int
    space: dict[str, int]  # "mech", "conventional", "leader" -> JumpShip spaces
    rebuilt_value: int
    conventional_value: int  # not printed in the text (ruling SW-04)
    bribe_price: int
    interdict_price: int
    interdict_modifier: int
    earth: dict[str, int]  # first_tech, first_units, first_cbills, loss_tech
    liao_free_bribes: int
    prices: dict[str, Price]
    tech_roll: dict[int, int]  # die face -> tech gain
    tech_scale: tuple[TechStep, ...]
    tech_low: int
    tech_high: int
    tech_events: dict[str, int]
    center_damage: dict[int, bool]  # die face -> damaged
    attack_modifiers: tuple[AttackModifier, ...]
    interdiction: dict[int, str]  # die face -> "briber" | "specified" | "both"
    cards: dict[int, Card]
    refs: dict[str, SourceRef]  # single rules by name, for refusals


def _single(data: dict[str, Any], name: str) -> tuple[dict[str, Any], SourceRef]:
    row = section(data, name)
    return row, source_of(row)


def _cards(data: dict[str, Any], deck_size: int) -> dict[int, Card]:
    cards: dict[int, Card] = {}
    for r in rows(data, "card"):
        c = row_record(Card, r, optional=("amount", "name"), ref=source_of(r))
        cards[c.number] = c
    for number in range(1, deck_size + 1):
        # The text lists only some of the 48 cards; the others are still in the deck and are
        # resolved by the referee when played (ruling SW-11).
        cards.setdefault(
            number,
            Card(number=number, effect="referee", timing="any", amount=0, name="", ref=None),
        )
    return cards


@cache
def load_tables() -> Tables:
    data = load_toml(_TABLES, "tables.toml")
    refs: dict[str, SourceRef] = {}
    singles: dict[str, dict[str, Any]] = {}
    for name in (
        "rules",
        "combat",
        "jumpship_range",
        "space",
        "rebuilt_value",
        "conventional",
        "bribe",
        "interdict_price",
        "interdict_modifier",
        "earth",
        "liao",
        "tech_range",
    ):
        singles[name], refs[name] = _single(data, name)
    scale = row_records(TechStep, data, "tech_scale")
    deck_size = int_field(singles["rules"], "deck_size")
    cards = _cards(data, deck_size)
    return Tables(
        hand_size=int_field(singles["rules"], "hand_size"),
        deck_size=deck_size,
        auto_kill_at=int_field(singles["combat"], "auto_kill_at"),
        max_counters_per_combination=int_field(singles["combat"], "max_counters_per_combination"),
        base_jump_range=int_field(singles["jumpship_range"], "base"),
        space={k: int_field(singles["space"], k) for k in ("mech", "conventional", "leader")},
        rebuilt_value=int_field(singles["rebuilt_value"], "value"),
        conventional_value=int_field(singles["conventional"], "value"),
        bribe_price=int_field(singles["bribe"], "price"),
        interdict_price=int_field(singles["interdict_price"], "price"),
        interdict_modifier=int_field(singles["interdict_modifier"], "modifier"),
        earth={
            k: int_field(singles["earth"], k)
            for k in ("first_tech", "first_units", "first_cbills", "loss_tech")
        },
        liao_free_bribes=int_field(singles["liao"], "free_bribes"),
        prices={p.key: p for p in row_records(Price, data, "price", optional=("capacity",))},
        tech_roll={int_field(r, "face"): int_field(r, "gain") for r in rows(data, "tech_roll")},
        tech_scale=tuple(sorted(scale, key=lambda s: s.level)),
        tech_low=int_field(singles["tech_range"], "low"),
        tech_high=int_field(singles["tech_range"], "high"),
        tech_events={str_field(r, "key"): int_field(r, "change") for r in rows(data, "tech_event")},
        center_damage={
            int_field(r, "face"): bool_field(r, "damaged") for r in rows(data, "center_damage")
        },
        attack_modifiers=row_records(AttackModifier, data, "attack_modifier"),
        interdiction={
            int_field(r, "face"): str_field(r, "target") for r in rows(data, "interdiction")
        },
        cards=cards,
        refs=refs,
    )


# --- Orders of Battle ----------------------------------------------------------------------------


@record
class FormationRow(Record):
    house: str
    name: str
    available: tuple[int, ...]
    reserve: tuple[int, ...]
    setup: str  # a Region, "Free Set-Up" or "Adjacent to <Region>"
    mercenary: bool
    ref: SourceRef


@record
class LeaderRow(Record):
    house: str
    name: str
    combat: int
    military: int
    admin: int
    loyalty: int | None  # None: "Leader cannot be bribed"
    setup: str  # a Region or "with <formation>"
    mercenary: bool
    ref: SourceRef


@record
class OrderOfBattle(Record):
    sequence: tuple[str, ...]  # Houses in the order of play
    formations: tuple[FormationRow, ...]
    jumpships: dict[str, tuple[int, ...]]  # House -> capacities
    centers: dict[str, tuple[str, ...]]  # House -> Regions
    leaders: tuple[LeaderRow, ...]
    unrated_leaders: tuple[tuple[str, str], ...]  # (House, name): named without values
    garrisons: dict[str, tuple[int, ...]]  # neutral -> combat values
    neutral_jumpships: dict[str, tuple[int, ...]]


def _leader(r: dict[str, Any], mercenary: bool) -> LeaderRow:
    setup = f"with {str_field(r, 'unit')}" if mercenary else str_field(r, "setup")
    return row_record(LeaderRow, r, setup=setup, mercenary=mercenary)


@cache
def load_oob_3025() -> OrderOfBattle:
    data = load_toml(_TABLES, "oob_3025.toml")
    houses = sorted(rows(data, "house"), key=lambda r: int_field(r, "order"))
    neutral_js: dict[str, list[int]] = {}
    for r in rows(data, "neutral_jumpship"):
        neutral_js.setdefault(str_field(r, "owner"), []).append(int_field(r, "capacity"))
    return OrderOfBattle(
        sequence=tuple(str_field(r, "name") for r in houses),
        formations=row_records(FormationRow, data, "unit", optional=("available", "reserve")),
        jumpships={
            str_field(r, "house"): int_list_field(r, "capacities", optional=True)
            for r in rows(data, "jumpships")
        },
        centers={
            str_field(r, "house"): str_list_field(r, "regions", optional=True)
            for r in rows(data, "centers")
        },
        leaders=tuple(
            [_leader(r, False) for r in rows(data, "leader")]
            + [_leader(r, True) for r in rows(data, "mercenary_leader")]
        ),
        unrated_leaders=tuple(
            (str_field(r, "house"), str_field(r, "name")) for r in rows(data, "unrated_leader")
        ),
        garrisons={
            str_field(r, "owner"): int_list_field(r, "values", optional=True)
            for r in rows(data, "neutral_garrison")
        },
        neutral_jumpships={k: tuple(v) for k, v in neutral_js.items()},
    )


@record
class OrderOfBattle2786(Record):
    """The First Succession War (L585-639): what the text gives, plus the rows that say which
    special rule applies (``refs``, by name, for refusals)."""

    name: str
    title: str
    units_per_house: int
    value: int
    formation: str  # "{house} Regular Army {n}" (ruling SW-37)
    mercenary_minimum: int
    leaders: tuple[LeaderRow, ...]
    jumpships: dict[str, tuple[int, ...]]  # House -> capacities (ruling SW-38)
    mercenary_cards: tuple[int, ...]  # L633: cards that draw a neutral Mercenary unit
    victory_capitals: int
    refs: dict[str, SourceRef]
    ref: SourceRef


_RULES_2786 = (
    "same_as_main_game",
    "setup_order",
    "mercenary_minimum",
    "mercenary_phase",
    "counter_mix",
    "full_center_modifier",
    "no_initial_alliances",
    "card_15",
    "no_neutral_units",
    "jumpships_lost_with_force",
    "mercenary_cards",
    "no_mercenaries_in_house_armies",
    "victory",
)


@cache
def load_oob_2786() -> OrderOfBattle2786:
    data = load_toml(_TABLES, "oob_2786.toml")
    scenario = section(data, "scenario")
    return OrderOfBattle2786(
        name=str_field(scenario, "name"),
        title=str_field(scenario, "title"),
        units_per_house=int_field(scenario, "units_per_house"),
        value=int_field(scenario, "value"),
        formation=str_field(scenario, "formation"),
        mercenary_minimum=int_field(section(data, "mercenary_minimum"), "value"),
        leaders=row_records(LeaderRow, data, "leader", setup="", mercenary=False),
        jumpships={
            str_field(r, "house"): int_list_field(r, "capacities", optional=True)
            for r in rows(data, "jumpships")
        },
        mercenary_cards=int_list_field(section(data, "mercenary_cards"), "cards"),
        victory_capitals=int_field(section(data, "victory"), "capitals"),
        refs={name: source_of(section(data, name)) for name in _RULES_2786},
        ref=source_of(scenario),
    )


# --- maps ----------------------------------------------------------------------------------------

_CAPITALS = ("", "house", "regional")


def parse_map(text: str) -> SWMap:
    """A map from TOML text (see docs/succession-wars.md); refuses an inconsistent board."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TableError(f"the map is not valid TOML: {exc}") from exc
    name = str_field(section(data, "map"), "name")
    raw = rows(data, "region")
    names = [str_field(r, "name") for r in raw]
    if len(set(names)) != len(names):
        raise TableError("a Region is listed twice")
    borders: dict[str, set[str]] = {n: set() for n in names}
    for r in raw:
        for other in str_list_field(r, "borders", optional=True):
            if other not in borders:
                raise TableError(f"{r['name']!r} borders unknown Region {other!r}")
            if other == r["name"]:
                raise TableError(f"{other!r} cannot border itself")
            borders[r["name"]].add(other)
            borders[other].add(r["name"])  # a border is two-way whichever side lists it
    regions = []
    for r in raw:
        capital = str(r.get("capital", ""))
        if capital not in _CAPITALS:
            raise TableError(f"capital must be 'house' or 'regional' in {r['name']!r}")
        borders_of = tuple(sorted(borders[str_field(r, "name")]))
        regions.append(row_record(Region, r, capital=capital, borders=borders_of))
    capitals = [r.house for r in regions if r.capital == "house"]
    if len(set(capitals)) != len(capitals):
        raise TableError("a House has more than one House capital")
    if sum(r.terra for r in regions) > 1:
        raise TableError("only one Region can be Terra")
    return SWMap(name=name, regions=tuple(regions))


def load_map(name: str) -> SWMap:
    """A map shipped with the package (``maps/<name>.toml``)."""
    from importlib import resources

    text = resources.files(_MAPS).joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return parse_map(text)


def sample_map() -> SWMap:
    return load_map("sample")
