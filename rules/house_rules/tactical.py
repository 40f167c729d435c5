"""The tactical house rules, played inside MegaMek: a scenario-sheet list and, where MegaMek has
a matching game option, the ``gameoptions.xml`` that switches it on.

Option names come from MegaMek's ``OptionsConstants`` (``psr_jump_heavy_woods`` is
``ADVANCED_GROUND_MOVEMENT_PSR_JUMP_HEAVY_WOODS`` in the ``advancedGroundMovement`` group of
``GameOptions.initialize``). The file's shape is what ``GameOptions.saveOptions`` writes:
``<options>`` holding ``<gameoption>`` elements of ``<optionname>`` and ``<optionvalue>``
(``BasicOption``'s XML names). The rules without a MegaMek option are on the sheet only.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from mekref.rules.house_rules.table_loader import HouseTables, load_tables
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tables import SourceRef


@record
class TacticalRule(Record):
    key: str
    title: str
    megamek_option: str | None
    ref: SourceRef


def tactical_rules(tables: HouseTables | None = None) -> tuple[TacticalRule, ...]:
    t = tables or load_tables()
    return tuple(
        TacticalRule(
            key=row.text("key"),
            title=row.text("title"),
            megamek_option=row.text("megamek_option") or None,
            ref=row.ref,
        )
        for row in t.rows("tactical", "rule")
    )


def scenario_sheet(enabled: tuple[str, ...], tables: HouseTables | None = None) -> str:
    """Plain text for a scenario sheet: each rule in force, and how MegaMek plays it."""
    rules = {r.key: r for r in tactical_rules(tables)}
    unknown = [k for k in enabled if k not in rules]
    if unknown:
        raise Refusal("unknown_house_rule", f"no tactical house rule {unknown}")
    lines = ["House rules in force (played at the table or in MegaMek):"]
    for key in enabled:
        rule = rules[key]
        how = (
            f"MegaMek game option {rule.megamek_option} (on)"
            if rule.megamek_option
            else "no MegaMek option: the players apply it"
        )
        lines.append(f"- {rule.title} [{how}]")
    return "\n".join(lines) + "\n"


def game_options_xml(enabled: tuple[str, ...], tables: HouseTables | None = None) -> str:
    """``mmconf/gameoptions.xml`` text switching on the MegaMek options of the enabled rules."""
    rules = {r.key: r for r in tactical_rules(tables)}
    unknown = [k for k in enabled if k not in rules]
    if unknown:
        raise Refusal("unknown_house_rule", f"no tactical house rule {unknown}")
    options = sorted({o for k in enabled if (o := rules[k].megamek_option)})
    body = "".join(
        "    <gameoption>\n"
        f"        <optionname>{escape(name)}</optionname>\n"
        "        <optionvalue>true</optionvalue>\n"
        "    </gameoption>\n"
        for name in options
    )
    return f'<?xml version="1.0"?>\n<options>\n{body}</options>\n'
