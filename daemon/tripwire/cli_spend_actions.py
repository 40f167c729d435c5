"""The actions of ``mekref spend``: each one's options (argparse set-up, one function per group
of actions) and how its arguments become the rules' command."""

from __future__ import annotations

import argparse
import uuid
from collections.abc import Callable

from mekref.daemon.cli_common import (
    add_referee,
    noted,
)
from mekref.rules.messages import Command
from mekref.rules.tripwire.battle_spending import (
    ChangeFormation,
    CombineInfantry,
    DeployUnrepaired,
    Disposal,
    DisposeUnit,
    HealVehicleCrew,
    HirePerson,
    RansomPerson,
    ReconfigureUnit,
    RecruitCaptured,
    RepairTask,
    RepairUnit,
    ReplaceDropShipCrew,
    SeatSparePilot,
    TrainSkill,
)
from mekref.rules.tripwire.bombs import BuyBombs, bomb_rows
from mekref.rules.tripwire.commands import HealPerson, TransferWarChest
from mekref.rules.tripwire.house_acquisition import AVAILABILITIES, AcquireItem
from mekref.rules.tripwire.recruit_skills import HireRecruit, level_columns
from mekref.rules.tripwire.training import Skill, TrainingRoute
from mekref.rules.tripwire.turn.turrets import RepairTurret

Builder = Callable[[argparse.Namespace], Command]


#: Adds one ``spend`` action: its name, help line and command builder; returns its parser.
Action = Callable[[str, str, Builder], argparse.ArgumentParser]


def _repair(a: argparse.Namespace) -> Command:
    return RepairUnit(
        unit_id=a.unit,
        pool_id=a.pool,
        task=RepairTask(a.task),
        at_repair_facility=a.repair_facility,
        **noted(a),
    )


def _rearm(a: argparse.Namespace) -> Command:
    from mekref.daemon.cli_common import name_equals_n

    example = "TYPE=N, e.g. --bid 'IS Ammo LRM-10 Swarm=2'"
    bids = [name_equals_n("--bid", spec, example) for spec in a.bid or ()]
    return RepairUnit(
        unit_id=a.unit,
        pool_id=a.pool,
        task=RepairTask.REARM,
        **noted(a),
        bids=tuple(bids),
    )


def _acquire(a: argparse.Namespace) -> Command:
    from mekref.daemon.cli_common import CliError

    if a.logistics is None:
        raise CliError(
            "give the searcher's Logistics skill, --logistics N (house rules L175: the skill "
            "with -1/+1/+3), or --logistics chart for the chart's fixed 6+/8+/10+ (L172-174, "
            "ruling HOUSE-8)"
        )
    if a.logistics != "chart" and not a.logistics.isdigit():
        raise CliError(f"--logistics {a.logistics!r}: give a skill number or 'chart'")
    return AcquireItem(
        side_id=a.side,
        pool_id=a.pool,
        item=a.item,
        availability=a.availability,
        ammo_level=a.ammo_level,
        logistics=None if a.logistics == "chart" else int(a.logistics),
        actor="cli",
    )


def _heal(a: argparse.Namespace) -> Command:
    return HealPerson(
        person_id=a.person,
        pool_id=a.pool,
        at_hospital=a.hospital,
        **noted(a),
    )


def _heal_crew(a: argparse.Namespace) -> Command:
    return HealVehicleCrew(
        unit_id=a.unit,
        pool_id=a.pool,
        at_hospital=a.hospital,
        **noted(a),
    )


def _dropship_crew(a: argparse.Namespace) -> Command:
    return ReplaceDropShipCrew(unit_id=a.unit, pool_id=a.pool, members=a.members, actor="cli")


def _train(a: argparse.Namespace) -> Command:
    return TrainSkill(
        person_id=a.person,
        pool_id=a.pool,
        skill=Skill(a.skill),
        route=TrainingRoute(a.route),
        **noted(a),
    )


def _hire(a: argparse.Namespace) -> Command:
    from mekref.daemon.cli_common import CliError

    given = a.gunnery is not None or a.piloting is not None
    if a.roll_skills is not None:
        if given:
            raise CliError("give --roll-skills LEVEL or --gunnery and --piloting, not both")
        return HireRecruit(
            person_id=a.id or str(uuid.uuid4()),
            side_id=a.side,
            pool_id=a.pool,
            name=a.name,
            level=a.roll_skills,
            vehicle_crew=a.vehicle_crew,
            hire_as=a.hire_as.replace("-", "_") if a.hire_as else None,
            **noted(a),
        )
    if a.gunnery is None or a.piloting is None:
        raise CliError(
            "give --gunnery G --piloting P, or --roll-skills LEVEL to roll them (L232: 'Roll "
            "personnel skills using Total Warfare')"
        )
    return HirePerson(
        person_id=a.id or str(uuid.uuid4()),
        side_id=a.side,
        pool_id=a.pool,
        name=a.name,
        gunnery=a.gunnery,
        piloting=a.piloting,
        vehicle_crew=a.vehicle_crew,
        hire_as=a.hire_as.replace("-", "_") if a.hire_as else None,
        **noted(a),
    )


def _reconfigure(a: argparse.Namespace) -> Command:
    return ReconfigureUnit(
        unit_id=a.unit,
        pool_id=a.pool,
        configuration=a.configuration,
        bv=a.bv,
        **noted(a),
    )


def _formation(a: argparse.Namespace) -> Command:
    return ChangeFormation(
        side_id=a.side, pool_id=a.pool, lance=a.lance, formation=a.formation, actor="cli"
    )


def _scrap(a: argparse.Namespace) -> Command:
    return DisposeUnit(unit_id=a.unit, pool_id=a.pool, how=Disposal.SCRAP, actor="cli")


def sell_command(a: argparse.Namespace) -> Command:
    return DisposeUnit(unit_id=a.unit, pool_id=a.pool, how=Disposal.SELL, actor="cli")


def _ransom(a: argparse.Namespace) -> Command:
    return RansomPerson(
        person_id=a.person,
        pool_id=a.pool,
        **noted(a),
    )


def _recruit(a: argparse.Namespace) -> Command:
    return RecruitCaptured(
        person_id=a.person, pool_id=a.pool, opponent_unrest=a.opponent_unrest, actor="cli"
    )


def _move(a: argparse.Namespace) -> Command:
    return TransferWarChest(
        from_pool=a.from_pool,
        to_pool=a.to_pool,
        amount=a.amount,
        **noted(a),
    )


def _bombs(a: argparse.Namespace) -> Command:
    from mekref.daemon.cli_common import name_equals_n

    bought = [name_equals_n("--bomb", spec, "TYPE=COUNT, e.g. --bomb he=4") for spec in a.bomb]
    return BuyBombs(
        unit_id=a.unit,
        pool_id=a.pool,
        bombs=tuple(bought),
        **noted(a),
    )


def _turret(a: argparse.Namespace) -> Command:
    return RepairTurret(
        side_id=a.side, location=a.location, turret=a.turret, pool_id=a.pool, actor="cli"
    )


def _seat(a: argparse.Namespace) -> Command:
    return SeatSparePilot(
        unit_id=a.unit, leaving_person_id=a.leaving, spare_person_id=a.spare, actor="cli"
    )


def _combine(a: argparse.Namespace) -> Command:
    return CombineInfantry(keep_unit_id=a.keep, merge_unit_id=a.merge, actor="cli")


def _deploy(a: argparse.Namespace) -> Command:
    return DeployUnrepaired(unit_id=a.unit, actor="cli")


def _unit_pool(p: argparse.ArgumentParser) -> None:
    p.add_argument("--unit", required=True, metavar="UNIT_ID")
    p.add_argument("--pool", required=True, metavar="POOL_ID", help="the pool that pays")


def _person_pool(p: argparse.ArgumentParser) -> None:
    p.add_argument("--person", required=True, metavar="PERSON_ID")
    p.add_argument("--pool", required=True, metavar="POOL_ID", help="the pool that pays")


HOSPITAL_HELP = (
    "with --referee: the referee vouches for a MASH unit or hospital (on the strategic map the "
    "hospital is read from the map)"
)


def _where(p: argparse.ArgumentParser) -> None:
    """--referee/--reason: the referee's word on where the unit or person stands (R-WHERE-1)."""
    p.add_argument(
        "--referee",
        metavar="NAME",
        help="the referee who vouches for where the work is done: needed when the strategic "
        "map does not place the unit or person (no map, no formation, a captive), and to "
        "overrule the map (recorded in the log)",
    )
    p.add_argument("--reason", metavar="TEXT", help="why (recorded in the log)")


def unit_actions(action: Action) -> None:
    """Spending on a unit: repair, rearm, acquire."""
    a = action("repair", "repair armor or internal structure where the unit stands", _repair)
    _unit_pool(a)
    a.add_argument("--task", required=True, choices=[t.value for t in RepairTask])
    a.add_argument(
        "--repair-facility",
        action="store_true",
        help="with --referee: the referee vouches for a repair bay or DropShip bay (on the "
        "strategic map the bay is read from the map)",
    )
    _where(a)
    a = action("rearm", "reload a unit's ammunition where it stands", _rearm)
    _unit_pool(a)
    a.add_argument(
        "--bid",
        action="append",
        metavar="TYPE=N",
        help="house rules: buy bid N of the offer found for TYPE (ammunition the Ammo Dump "
        "does not stock, TripWire L272; see 'spend acquire'); repeat per type",
    )
    _where(a)
    a = action(
        "acquire",
        "house rules: search for ammunition the Ammo Dump does not stock (L171-205)",
        _acquire,
    )
    a.add_argument("--side", required=True)
    a.add_argument("--pool", required=True, help="the pool where it is found and paid for")
    a.add_argument("--item", required=True, help="the ammunition as the unit lists it")
    a.add_argument(
        "--class",
        dest="availability",
        required=True,
        choices=AVAILABILITIES,
        help="availability (L172-174): common (level 1), uncommon (non-house level 2), rare "
        "(house or Clan tech) (L179-181)",
    )
    a.add_argument(
        "--ammo-level",
        type=int,
        required=True,
        choices=(1, 2, 3),
        help="rules level, for the tons found (L183: 2d6, x0.5, x0.25)",
    )
    a.add_argument(
        "--logistics",
        metavar="N|chart",
        help="the searcher's Logistics skill (L175), or 'chart' for the fixed target (HOUSE-8)",
    )


def people_actions(action: Action) -> None:
    """Spending on people: heal, heal-crew, dropship-crew, train, hire."""
    a = action("heal", "heal one hit of a person where they stand", _heal)
    _person_pool(a)
    a.add_argument("--hospital", action="store_true", help=HOSPITAL_HELP)
    _where(a)
    a = action("heal-crew", "heal one driver/commander hit of a vehicle crew", _heal_crew)
    _unit_pool(a)
    a.add_argument("--hospital", action="store_true", help=HOSPITAL_HELP)
    _where(a)
    a = action("dropship-crew", "replace or heal DropShip crew (100 each)", _dropship_crew)
    _unit_pool(a)
    a.add_argument("--members", type=int, required=True)
    a = action("train", "improve one skill by one point", _train)
    _person_pool(a)
    a.add_argument("--skill", required=True, choices=[s.value for s in Skill])
    a.add_argument("--route", default="kill", choices=[r.value for r in TrainingRoute])
    add_referee(a)  # train without a kill (L110) or twice in a track (BR-9), recorded
    a = action("hire", "hire a pilot or vehicle crew", _hire)
    a.add_argument("--side", required=True)
    a.add_argument("--pool", required=True)
    a.add_argument("--name", required=True)
    a.add_argument("--gunnery", type=int)
    a.add_argument("--piloting", type=int)
    a.add_argument(
        "--roll-skills",
        metavar="LEVEL",
        choices=tuple(level_columns()),
        help="roll Gunnery and Piloting on Total Warfare's Random Skills Table for the training "
        f"level paid for (L232; one of: {', '.join(level_columns())}), instead of giving them",
    )
    a.add_argument("--vehicle-crew", action="store_true", help="the same as --as vehicle-crew")
    a.add_argument(
        "--as",
        dest="hire_as",
        choices=("mechwarrior", "aerospace-pilot", "vehicle-crew"),
        help="what is hired (the Recruit table's column); the person then crews only that type "
        "of unit (R-SEAT-2). Without it a pilot hired off the map may take any seat",
    )
    a.add_argument("--id", help="the person's id (default: a new UUID)")
    add_referee(a)  # on the strategic map: hire without a recruit found (R-HIRE-2)


def other_actions(action: Action) -> None:
    """The other actions: reconfigure, formation, scrap, sell, ransom, recruit, move, bombs,
    turret, seat, combine, deploy-unrepaired."""
    a = action("reconfigure", "reconfigure an omni unit where it stands", _reconfigure)
    _unit_pool(a)
    a.add_argument("--configuration", required=True)
    a.add_argument("--bv", type=int, required=True, help="the new configuration's BV")
    _where(a)
    a = action("formation", "change a lance's formation (100 SP)", _formation)
    a.add_argument("--side", required=True)
    a.add_argument("--pool", required=True)
    a.add_argument("--lance", required=True)
    a.add_argument("--formation", required=True)
    _unit_pool(action("scrap", "scrap a unit for WP", _scrap))
    _unit_pool(action("sell", "sell a fully repaired unit", sell_command))
    a = action("ransom", "pay 100 WP to get a captured person back (at campaign end)", _ransom)
    _person_pool(a)
    add_referee(a)
    a = action("recruit", "try to recruit a captured person (2d6, 8+)", _recruit)
    _person_pool(a)
    a.add_argument(
        "--opponent-unrest",
        type=int,
        help="the captive's side's unrest rating (L352); read from the strategic map when the "
        "campaign has one, required without it",
    )
    a = action(
        "move",
        "referee: move WP between two pools of a side at once (players: a load_unload order)",
        _move,
    )
    a.add_argument("--from", dest="from_pool", required=True)
    a.add_argument("--to", dest="to_pool", required=True)
    a.add_argument("--amount", type=int, required=True)
    add_referee(a)
    a = action("bombs", "buy bombs for an aerospace fighter (1/2/5 SP each, L84)", _bombs)
    _unit_pool(a)
    a.add_argument(
        "--bomb",
        action="append",
        required=True,
        metavar="TYPE=COUNT",
        help=f"bomb type and how many (repeat); types: {', '.join(bomb_rows())}",
    )
    _where(a)
    a = action("turret", "repair a damaged turret of a location held (100 WP, L275)", _turret)
    a.add_argument("--side", required=True)
    a.add_argument("--location", required=True, help='the location, e.g. "Bagnorgeio"')
    a.add_argument("--turret", type=int, required=True, help="which turret, from 1")
    a.add_argument("--pool", required=True, help="a pool at that location")
    a = action("seat", "seat a spare pilot (medical leave)", _seat)
    a.add_argument("--unit", required=True)
    a.add_argument("--leaving", required=True, metavar="PERSON_ID")
    a.add_argument("--spare", required=True, metavar="PERSON_ID")
    a = action("combine", "combine two understrength infantry or BA units", _combine)
    a.add_argument("--keep", required=True, metavar="UNIT_ID")
    a.add_argument("--merge", required=True, metavar="UNIT_ID")
    a = action("deploy-unrepaired", "record that a unit deploys unrepaired", _deploy)
    a.add_argument("--unit", required=True)
