"""TripWire Force Construction: each rule produces a violation naming the unit and the rule."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from tripwire_forces import (
    COMMANDER,
    LEADER,
    legal_force,
    mek_company,
    support_company,
    unit,
    with_company,
    with_lance,
)

from mekref.rules.tripwire.force_check import check_force
from mekref.rules.tripwire.force_report import Violation
from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    CrewSkills,
    ForceDescription,
    ForceUnit,
    InfantryMotive,
    Lance,
    MegaMekCrew,
    UnitKind,
    UnitRole,
)


def violations(force: ForceDescription) -> list[Violation]:
    return list(check_force(force).violations)


def rules_of(force: ForceDescription) -> list[str]:
    return [v.rule for v in violations(force)]


def in_battalion(company: Company) -> ForceDescription:
    """The legal battalion with ``company`` in place of its company of that name (L8: a force
    is the whole battalion, so a company alone breaks L8-L9)."""
    force = legal_force()
    return with_company(force, [c.name for c in force.companies].index(company.name), company)


def test_the_legal_force_passes() -> None:
    assert violations(legal_force()) == []


def test_mek_company_bv_budget_20000() -> None:
    """ "- Alpha and Bravo company each have 20,000 BV to spend on units."""
    alpha = mek_company()
    costly = with_lance(
        alpha,
        3,
        replace(alpha.lances[3], units=tuple(replace(u, bv=1101) for u in alpha.lances[3].units)),
    )  # 18,000 + 2,202 = 20,202
    (v,) = violations(in_battalion(costly))
    assert v.rule == "mek_company.bv" and v.source is not None and v.source.line == 10
    assert "20202" in v.message


def test_ruling_r_force_14_a_unit_without_bv_makes_the_limit_not_known() -> None:
    """L10: "- Alpha and Bravo company each have 20,000 BV to spend on units." A fighter
    imported without a BV (0: none) leaves Alpha's sum not known: no violation, and not a
    pass either; once the known BVs alone exceed 20,000 it is a violation all the same."""
    alpha = mek_company()
    fighters = alpha.lances[3]
    unpriced = with_lance(
        alpha, 3, replace(fighters, units=(replace(fighters.units[0], bv=0), *fighters.units[1:]))
    )
    report = check_force(in_battalion(unpriced))
    assert report.violations == ()
    (unknown,) = report.not_known
    assert unknown.rule == "mek_company.bv" and unknown.company == alpha.name
    assert unknown.source is not None and unknown.source.line == 10
    assert "the company's BV is not known: 1 unit(s) have no BV" in unknown.message
    assert fighters.units[0].unit_id[:8] in unknown.message and "--bv-table" in unknown.message
    costly = with_lance(
        unpriced,
        0,
        replace(
            unpriced.lances[0], units=tuple(replace(u, bv=5000) for u in unpriced.lances[0].units)
        ),
    )  # four 'Mechs at 5,000 alone exceed the 20,000
    report = check_force(in_battalion(costly))
    (v,) = report.violations
    assert v.rule == "mek_company.bv" and "by the units with a BV alone" in v.message
    assert report.not_known == ()


def test_exactly_twelve_meks_and_two_fighters() -> None:
    """ "- Each company must have exactly 12 BattleMechs* and 2 AeroSpace Fighters (additional
    BattleMechs may be taken is they have the compact quirk)"."""
    alpha = mek_company()
    eleven = with_lance(alpha, 2, replace(alpha.lances[2], units=alpha.lances[2].units[:3]))
    assert "mek_company.counts" in rules_of(in_battalion(eleven))
    one_fighter = with_lance(alpha, 3, replace(alpha.lances[3], units=alpha.lances[3].units[:1]))
    (v,) = violations(in_battalion(one_fighter))
    assert v.rule == "mek_company.counts" and "1 aerospace fighters" in v.message


def test_compact_quirk_extras_are_allowed_others_are_not() -> None:
    """Ruling R-FORCE-1."""
    alpha = mek_company()
    extra = unit("ax", bv=100, tons=20)
    thirteen = with_lance(alpha, 1, replace(alpha.lances[1], units=(*alpha.lances[1].units, extra)))
    assert "mek_company.counts" in rules_of(in_battalion(thirteen))
    compact = replace(extra, roles=frozenset({UnitRole.COMPACT}))
    ok = with_lance(alpha, 1, replace(alpha.lances[1], units=(*alpha.lances[1].units, compact)))
    assert "mek_company.counts" not in rules_of(in_battalion(ok))


def test_force_commander_must_be_elite_to_legendary() -> None:
    """ "The force Commander must have a skill of at least Elite (Gunnery 2 Piloting 3) unto
    Legendary (Gunnery 0, Piloting 0)."""
    alpha = mek_company()
    command = alpha.lances[0]
    weak = replace(command, units=(unit("a1", skills=(4, 4), roles=COMMANDER), *command.units[1:]))
    (v,) = violations(in_battalion(with_lance(alpha, 0, weak)))
    assert (v.rule, v.unit_id, v.source and v.source.line) == ("force_commander", "a1", 12)
    legendary = replace(
        command, units=(unit("a1", skills=(0, 0), roles=COMMANDER), *command.units[1:])
    )
    assert violations(in_battalion(with_lance(alpha, 0, legendary))) == []


def test_every_lance_has_a_veteran_lieutenant() -> None:
    """ "- Each Lance in the force is lead by a Lieutenant who must be Veteran."
    Ruling R-FORCE-2: exactly Veteran; a flight of fighters needs none."""
    alpha = mek_company()
    fire = alpha.lances[1]
    regular_lt = replace(fire, units=(unit("a21", skills=(4, 5), roles=LEADER), *fire.units[1:]))
    (v,) = violations(in_battalion(with_lance(alpha, 1, regular_lt)))
    assert (v.rule, v.unit_id) == ("lance_leader", "a21") and v.source and v.source.line == 13
    elite_lt = replace(fire, units=(unit("a21", skills=(3, 3), roles=LEADER), *fire.units[1:]))
    assert rules_of(in_battalion(with_lance(alpha, 1, elite_lt))) == ["lance_leader"]
    leaderless = replace(fire, units=(unit("a21", skills=(4, 4)), *fire.units[1:]))
    assert "lance_leader" in rules_of(in_battalion(with_lance(alpha, 1, leaderless)))


def test_one_green_or_very_green_per_lance() -> None:
    """ "- All other pilots may be Veteran or Regular. One pilot per lance may be Green or Very
    Green."""
    alpha = mek_company()
    command = alpha.lances[0]
    two_green = replace(
        command, units=(*command.units[:2], unit("a3", skills=(8, 7)), command.units[3])
    )
    (v,) = violations(in_battalion(with_lance(alpha, 0, two_green)))
    assert v.rule == "mek_company.green" and v.source and v.source.line == 14
    elite_private = replace(
        command, units=(*command.units[:2], unit("a3", skills=(3, 3)), command.units[3])
    )
    (v,) = violations(in_battalion(with_lance(alpha, 0, elite_private)))
    assert (v.rule, v.unit_id) == ("mek_company.pilots", "a3")


def test_gunnery_piloting_gap_at_most_two_anti_mech_8_without_kit() -> None:
    """ "- There should be a maximum difference of 2 between Gunnery and Piloting (or Anti-Mech)
    skills. (Note: any Infantry unit with no AntiMech capability ...) has an AntiMech skill of
    8)."."""
    alpha = mek_company()
    fire = alpha.lances[1]
    gap = replace(fire, units=(*fire.units[:3], unit("a24", skills=(3, 6))))
    assert "skills.max_gap" in rules_of(in_battalion(with_lance(alpha, 1, gap)))
    charlie = support_company()
    inf = charlie.lances[1]
    no_kit = replace(inf, units=(*inf.units[:3], replace(inf.units[3], anti_mech=False)))
    found = violations(in_battalion(with_lance(charlie, 1, no_kit)))
    assert [(v.rule, v.unit_id) for v in found if v.rule == "skills.max_gap"] == [
        ("skills.max_gap", "ci4")
    ]


def test_charlie_bv_budget_10000_and_fifteen_vehicles() -> None:
    """ "Charlie Company has 10,000 BV to spend on units. These can consist up to 15 Vehicles"."""
    charlie = support_company()
    armour = charlie.lances[0]
    many = replace(
        armour,
        units=(*armour.units, *(unit(f"cv{n}", kind=UnitKind.VTOL, bv=100) for n in range(12))),
    )
    assert "support_company.vehicles" in rules_of(in_battalion(with_lance(charlie, 0, many)))
    costly = replace(armour, units=tuple(replace(u, bv=2500) for u in armour.units))
    assert "support_company.bv" in rules_of(in_battalion(with_lance(charlie, 0, costly)))


def test_charlie_infantry_eight_platoons_or_one_battle_armor_squad() -> None:
    """ "It can also house up to 8 Infantry Platoons (Foot, Jump or Motorised), or a BattleArmor
    Squad (of 4)." Ruling R-FORCE-4: platoons or a squad, not both."""
    charlie = support_company()
    squad = unit(
        "ba1", kind=UnitKind.BATTLE_ARMOR, bv=300, tons=1, troopers=4, transport_tons=Fraction(4)
    )
    inf = charlie.lances[1]
    both = replace(inf, units=(*inf.units, squad))
    found = violations(in_battalion(with_lance(charlie, 1, both)))
    assert any("not both" in v.message for v in found)
    nine = replace(
        inf,
        units=(
            *inf.units,
            *(
                replace(
                    inf.units[1],
                    unit_id=f"cx{n}",
                    crew=(CrewSkills(person_id=f"px{n}", name="x", gunnery=4, piloting=5),),
                )
                for n in range(5)
            ),
        ),
    )
    assert "support_company.infantry" in rules_of(in_battalion(with_lance(charlie, 1, nine)))


def test_a_mechanised_platoon_uses_a_vehicle_bay() -> None:
    """ "A heavy vehicle bay also house a Mechanised Platoon"."""
    charlie = support_company()
    armour = charlie.lances[0]
    vehicles = tuple(unit(f"cv{n}", kind=UnitKind.COMBAT_VEHICLE, bv=10) for n in range(11))
    mech_inf = unit(
        "cm", kind=UnitKind.CONVENTIONAL_INFANTRY, bv=10, infantry_motive=InfantryMotive.MECHANISED
    )
    full = replace(armour, units=(*armour.units, *vehicles, mech_inf))  # 4 + 11 + 1 = 16
    assert "support_company.vehicles" in rules_of(in_battalion(with_lance(charlie, 0, full)))


def test_charlie_levels_and_commander() -> None:
    """ "- Units in Charlie Company can be Very Green, Green, Regular or Veteran. The Force
    Commander can be Veteran or Elite."""
    charlie = support_company()
    armour = charlie.lances[0]
    elite_crew = replace(
        armour,
        units=(*armour.units[:3], unit("c4", kind=UnitKind.COMBAT_VEHICLE, skills=(3, 3), bv=1000)),
    )
    (v,) = violations(in_battalion(with_lance(charlie, 0, elite_crew)))
    assert (v.rule, v.unit_id) == ("support_company.levels", "c4")
    heroic_cmd = replace(
        armour,
        units=(
            unit("c1", kind=UnitKind.COMBAT_VEHICLE, skills=(2, 2), roles=COMMANDER, bv=1000),
            *armour.units[1:],
        ),
    )
    (v,) = violations(in_battalion(with_lance(charlie, 0, heroic_cmd)))
    assert (v.rule, v.unit_id) == ("force_commander", "c1")


def test_transport_capacity_for_infantry_and_battle_armor() -> None:
    """ "If there is not sufficient carrying capacity those units may not be selected for use in
    Tracks." Ruling R-FORCE-5: omni 'Mechs carry one battle armor squad each."""
    charlie = support_company()
    armour = charlie.lances[0]
    one_maxim = replace(
        armour,
        units=(
            *armour.units[:2],
            replace(armour.units[2], troop_capacity_tons=Fraction(0)),
            armour.units[3],
        ),
    )
    found = violations(in_battalion(with_lance(charlie, 0, one_maxim)))
    # 16 t of space for 4 x 3 t platoons -> 8 t: the last two platoons have no ride
    assert [(v.rule, v.unit_id) for v in found] == [("transport", "ci3"), ("transport", "ci4")]
    squad = unit(
        "ba1",
        kind=UnitKind.BATTLE_ARMOR,
        bv=300,
        tons=1,
        troopers=4,
        transport_tons=Fraction(4),
        roles=LEADER,
        skills=(4, 4),
    )
    ba_lance = Lance(name="BA", units=(squad,))
    ba_charlie = replace(charlie, lances=(charlie.lances[0], ba_lance))
    no_space = replace(
        ba_charlie,
        lances=(
            replace(
                armour,
                units=tuple(replace(u, troop_capacity_tons=Fraction(0)) for u in armour.units),
            ),
            ba_lance,
        ),
    )
    assert rules_of(in_battalion(no_space)) == ["transport"]
    alpha = mek_company()
    fire = alpha.lances[1]
    omni_fire = replace(
        fire,
        units=(
            replace(fire.units[0], roles=frozenset({UnitRole.LANCE_LEADER, UnitRole.OMNI})),
            *fire.units[1:],
        ),
    )
    carried = ForceDescription(companies=(with_lance(alpha, 1, omni_fire), no_space))
    assert "transport" not in rules_of(carried)


def test_at_most_two_artillery_units_and_one_salvage_unit() -> None:
    """ "- Each Company (Alpha, Beta or Charlie may include unto 2 unit that have Artillery
    Weapons)." and "- Alpha and Beta Company may each field 1 salvage unit"."""
    alpha = mek_company()
    fire = alpha.lances[1]
    art = frozenset({UnitRole.ARTILLERY})
    three = replace(fire, units=(fire.units[0], *(replace(u, roles=art) for u in fire.units[1:])))
    (v,) = violations(in_battalion(with_lance(alpha, 1, three)))
    assert v.rule == "artillery" and v.source and v.source.line == 21
    salv = frozenset({UnitRole.SALVAGE})
    two = replace(
        fire,
        units=(fire.units[0], *(replace(u, roles=salv) for u in fire.units[1:3]), fire.units[3]),
    )
    (v,) = violations(in_battalion(with_lance(alpha, 1, two)))
    assert v.rule == "salvage" and v.source and v.source.line == 20


def test_every_violation_is_reported_not_just_the_first() -> None:
    force = with_company(legal_force(), 0, replace(mek_company(), lances=mek_company().lances[:1]))
    assert len(violations(force)) >= 2
    text = violations(force)[0].describe()
    assert "Alpha" in text and "line" in text


def test_ruling_charlie_fields_no_salvage_unit() -> None:
    """R-FORCE-7: "Alpha and Beta Company may each field 1 salvage unit": Beta is Bravo, and
    Charlie may field none."""
    charlie = support_company()
    armour = charlie.lances[0]
    salvage = replace(armour.units[3], roles=frozenset({UnitRole.SALVAGE}))
    found = violations(
        in_battalion(with_lance(charlie, 0, replace(armour, units=(*armour.units[:3], salvage))))
    )
    assert [(v.rule, v.company) for v in found] == [("salvage", "Charlie")]


def test_ruling_mek_companies_hold_only_meks_and_fighters() -> None:
    """R-FORCE-3."""
    alpha = mek_company()
    fire = alpha.lances[1]
    tank = unit("a24", kind=UnitKind.COMBAT_VEHICLE)
    found = violations(
        in_battalion(with_lance(alpha, 1, replace(fire, units=(*fire.units[:3], tank))))
    )
    assert ("mek_company.unit_kind", "a24") in [(v.rule, v.unit_id) for v in found]


def test_l8_l9_the_battalion_is_alpha_bravo_and_charlie() -> None:
    """L8 "- Each Mercenary Battalion force consists of a three companies." L9 "Alpha Company
    and Bravo Company consist of a Union ... Charlie Company consists of a Gazelle". Ruling
    R-FORCE-11: the L162 militia is not a company of the battalion."""
    legal = legal_force()
    no_charlie = replace(legal, companies=legal.companies[:2])
    found = violations(no_charlie)
    assert [(v.rule, v.source and v.source.line) for v in found] == [
        ("battalion.companies", 8),
        ("battalion.roles", 9),
    ]
    assert "the battalion has 2 companies (Alpha: a 'Mech company; Bravo: a 'Mech company)" in (
        found[0].message
    )
    assert "0 support companies (no Charlie)" in found[1].message
    # Three companies, but Charlie is a third 'Mech company: L8 holds, L9 does not.
    three_meks = with_company(legal, 2, mek_company("Charlie"))
    assert rules_of(three_meks) == ["battalion.roles"]
    # A militia beside the battalion is not a fourth company (its own L162 rows aside).
    militia = Company(name="Militia", role=CompanyRole.MILITIA, lances=())
    with_militia = replace(legal, companies=(*legal.companies, militia))
    assert not [r for r in rules_of(with_militia) if r.startswith("battalion")]


def _with_abilities(u: ForceUnit, *spas: str) -> ForceUnit:
    seat = replace(u.crew[0], megamek=MegaMekCrew(advantages=spas))
    return replace(u, crew=(seat, *u.crew[1:]))


def test_l27_l34_special_pilot_abilities_by_training_level() -> None:
    """L27 "Players may select each of their Force Commander to have Special Pilot Abilities
    ... The number of abilities is based on the Force Commanders Training Level." L32 "| Elite
    | 2 | 3 | +2 | 2 |", L31 "| Veteran | 1 | 1 | +1 | 1 |". Ruling R-FORCE-12."""
    alpha = mek_company()
    command = alpha.lances[0]
    elite = command.units[0]  # the Force Commander, 3/3: Elite

    def alpha_with(*units: ForceUnit) -> ForceDescription:
        lance = replace(command, units=(*units, *command.units[len(units) :]))
        return in_battalion(with_lance(alpha, 0, lance))

    two = alpha_with(_with_abilities(elite, "dodge_maneuver", "melee_specialist"))
    assert violations(two) == []
    three = alpha_with(_with_abilities(elite, "dodge_maneuver", "melee_specialist", "tm_frogman"))
    (v,) = violations(three)
    assert (v.rule, v.unit_id, v.source and v.source.line) == ("abilities", "a1", 32)
    assert "has 3 Special Pilot Abilities" in v.message and "at Elite is 2" in v.message
    # Charlie's Veteran Force Commander: one ability (L31).
    charlie = support_company()
    armour = charlie.lances[0]
    veteran = _with_abilities(armour.units[0], "dodge_maneuver", "melee_specialist")
    lance = replace(armour, units=(veteran, *armour.units[1:]))
    (v,) = violations(in_battalion(with_lance(charlie, 0, lance)))
    assert (v.rule, v.unit_id, v.source and v.source.line) == ("abilities", "c1", 31)
    # Anyone else has none: the text gives them to the Force Commanders.
    lieutenant = _with_abilities(alpha.lances[1].units[0], "dodge_maneuver")
    fire = replace(alpha.lances[1], units=(lieutenant, *alpha.lances[1].units[1:]))
    (v,) = violations(in_battalion(with_lance(alpha, 1, fire)))
    assert (v.rule, v.unit_id, v.source and v.source.line) == ("abilities", "a21", 27)
    assert "is not a Force Commander" in v.message


def test_l49_a_platoon_without_a_carrier_may_not_go_to_tracks() -> None:
    """L49 "If a player has Conventional Infantry or Battle Armor in their TO&E, their force
    should include enough units to transport them ... If there is not sufficient carrying
    capacity those units may not be selected for use in Tracks." Ruling R-FORCE-5: each platoon
    rides whole in one unit's troop space."""
    charlie = support_company()
    armour = charlie.lances[0]
    no_carriers = replace(
        armour, units=tuple(replace(u, troop_capacity_tons=Fraction(0)) for u in armour.units)
    )
    found = violations(in_battalion(with_lance(charlie, 0, no_carriers)))
    assert [(v.rule, v.unit_id, v.source and v.source.line) for v in found] == [
        ("transport", f"ci{n}", 49) for n in range(1, 5)
    ]
    assert "needs 3 t of troop space" in found[0].message
    assert "may not be selected for use in Tracks" in found[0].message
    # 2 t left in each of two carriers is 4 t, but a 3 t platoon does not split between them.
    split = replace(
        armour,
        units=(
            armour.units[0],
            replace(armour.units[1], troop_capacity_tons=Fraction(8)),
            replace(armour.units[2], troop_capacity_tons=Fraction(5)),
            armour.units[3],
        ),
    )  # 8 t: ci1, ci2 (2 t left); 5 t: ci3 (2 t left); ci4 rides nowhere
    found = violations(in_battalion(with_lance(charlie, 0, split)))
    assert [(v.rule, v.unit_id) for v in found] == [("transport", "ci4")]
    # A DropShip's troop space does not carry a platoon into a track (R-FORCE-3).
    gazelle = unit("cd", kind=UnitKind.DROPSHIP, bv=0, troop_capacity_tons=Fraction(100))
    shipped = replace(no_carriers, units=(*no_carriers.units, gazelle))
    assert rules_of(in_battalion(with_lance(charlie, 0, shipped))).count("transport") == 4


def test_l49_a_platoon_whose_need_is_unknown_is_named() -> None:
    """Ruling R-FORCE-5: without its design a platoon's troop space need is unknown; the check
    says so rather than taking it as nothing."""
    charlie = support_company()
    inf = charlie.lances[1]
    unknown = replace(
        inf.units[3],
        transport_tons=Fraction(0),
        transport_unknown="no design: the troop space it needs is unknown",
    )
    found = violations(
        in_battalion(with_lance(charlie, 1, replace(inf, units=(*inf.units[:3], unknown))))
    )
    assert [(v.rule, v.unit_id) for v in found] == [("transport", "ci4")]
    assert "no design: the troop space it needs is unknown" in found[0].message
    assert "--units-dir" in found[0].message and "--unchecked" in found[0].message
