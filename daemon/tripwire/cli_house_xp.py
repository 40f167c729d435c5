"""The house rules' experience in a TripWire campaign created with ``--house-rules``:
``mekref spend xp-costs`` (the referee enters the group's XP prices), ``mekref spend xp`` (one
point off a person's Piloting or Gunnery). The "+1 XP (L154)" lines after a battle and the
experience section of ``mekref report`` are in
:mod:`mekref.daemon.tripwire.house_xp_report`. Rulings HOUSE-36 to HOUSE-39 in docs/house-rules.md.
"""

from __future__ import annotations

import argparse
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from mekref.daemon.cli_common import EXIT_OK, CliError, add_command, add_db, guarded, out_console
from mekref.daemon.tripwire.cli_campaign import campaign_state, execute
from mekref.rules.house_rules.advancement import SkillCost
from mekref.rules.tripwire import house_xp
from mekref.rules.tripwire.training import Skill

#: The bundled example price list (one group's choice, not the text's).
EXAMPLE = "house_rules-xp-costs.toml"

COSTS_EPILOG = """\
examples:
  mekref spend xp-costs --example > costs.toml     # the bundled example: edit it first
  mekref spend xp-costs --db c.db --file costs.toml

a file lists, per skill, the level each one-point step reaches and its XP ([gunnery] 3 = 12:
Gunnery 4 -> 3 costs 12 XP); a step left out cannot be bought. The bundled example's numbers
are one group's choice: the house rules print no price list (line 153, ruling HOUSE-24).
"""

XP_EPILOG = """\
examples:
  mekref spend xp --db c.db --person PERSON_ID --skill gunnery
  mekref spend xp --db c.db --person PERSON_ID --skill piloting   # a LAM pilot pays 6 more

every person who survives a battle gains 1 XP (house rules line 154); 'mekref report' shows
each person's XP. TripWire's own training ('mekref spend train', paid in WP) stays open too
(ruling HOUSE-38).
"""


def register(actions: Any, kw: dict[str, Any]) -> None:
    """``spend xp-costs`` and ``spend xp``, under ``mekref spend``."""
    costs = add_command(
        actions,
        "xp-costs",
        help="house rules: the referee enters the group's XP price of each skill step",
        description="A campaign created with 'mekref campaign new --house-rules': the XP each "
        "one-point step of Piloting and Gunnery costs, as the group agreed (rulings HOUSE-24, "
        "HOUSE-37). A new file replaces the whole list.",
        **{**kw, "epilog": COSTS_EPILOG},
    )
    add_db(costs)
    costs.add_argument("--file", metavar="COSTS.toml", help="the group's price list (TOML)")
    costs.add_argument(
        "--example",
        action="store_true",
        help=f"print the bundled example ({EXAMPLE}: one group's choice, not the text's)",
    )
    costs.set_defaults(handler=guarded(run_costs), command_name="spend xp-costs")
    xp = add_command(
        actions,
        "xp",
        help="house rules: lower a person's Piloting or Gunnery one point with experience",
        description="A campaign created with 'mekref campaign new --house-rules' (house rules "
        "lines 104, 153-154): one point off the skill at the group's price ('mekref spend "
        "xp-costs'), 6 XP more for a LAM pilot's Piloting; refused when the XP is short. The "
        "person's side or the referee spends (ruling HOUSE-38).",
        **{**kw, "epilog": XP_EPILOG},
    )
    add_db(xp)
    xp.add_argument("--person", required=True, metavar="PERSON_ID")
    xp.add_argument("--skill", required=True, choices=[s.value for s in Skill])
    xp.set_defaults(handler=guarded(run_spend), command_name="spend xp")


def example_text() -> str:
    return resources.files("mekref.daemon.examples").joinpath(EXAMPLE).read_text("utf-8")


def read_costs(text: str, where: str) -> tuple[SkillCost, ...]:
    """The price list of a costs file: ``[gunnery]`` / ``[piloting]``, level reached = XP."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CliError(f"{where}: not TOML: {exc}") from exc
    skills = {s.value for s in Skill}
    unknown = sorted(set(data) - skills)
    if unknown:
        raise CliError(f"{where}: unknown table(s) {unknown}: only [gunnery] and [piloting]")
    out: list[SkillCost] = []
    for skill in sorted(data):
        steps = data[skill]
        if not isinstance(steps, dict):
            raise CliError(f"{where}: {skill} must be a table: [{skill}] then LEVEL = XP lines")
        for level, xp in steps.items():
            if not level.strip().isdigit() or not isinstance(xp, int) or isinstance(xp, bool):
                raise CliError(
                    f"{where}: [{skill}] {level} = {xp!r}: write the level reached and the XP, "
                    "both whole numbers (3 = 12)"
                )
            out.append(SkillCost(skill=skill, to_level=int(level), xp=xp))
    if not out:
        raise CliError(f"{where}: no step priced: see 'mekref spend xp-costs --example'")
    return tuple(out)


def run_costs(args: argparse.Namespace) -> int:
    if args.example:
        print(example_text(), end="")
        return EXIT_OK
    campaign_state(args)  # the store first: a mistyped --db says so before the file is read
    if not args.file:
        raise CliError("give --file COSTS.toml (or --example to print the bundled example)")
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"--file {args.file}: {exc.strerror or exc}") from exc
    done = execute(args, house_xp.SetXpCosts(costs=read_costs(text, str(path)), actor="referee"))
    console = out_console()
    for e in done.events:
        if isinstance(e, house_xp.XpCostsSet):
            console.print(f"the group's XP costs ({len(e.costs)} steps, from {path}):")
            for line in house_xp.costs_lines(e.costs):
                console.print(f"  {line}")
    return EXIT_OK


def run_spend(args: argparse.Namespace) -> int:
    command = house_xp.SpendXp(person_id=args.person, skill=Skill(args.skill), actor="cli")
    done = execute(args, command)
    for e in done.events:
        if isinstance(e, house_xp.XpSpent):
            out_console().print(house_xp.spent_line(done.state, e))
    return EXIT_OK
