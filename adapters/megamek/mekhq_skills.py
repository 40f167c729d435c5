"""MekHQ skill names across versions, the skills each unit kind fights with, and the ATOW
attribute modifier MekHQ applies to a skill's target number.

Checked against MekHQ's sources (MegaMek/mekhq):

- ``personnel/skills/SkillType.java`` @007c1494 (0.50.x): the current names (``Gunnery/Mek``,
  ``Piloting/Mek``, ``Gunnery/BattleArmor``, ``Gunnery/ProtoMek``, ``Anti-Mek (Climbing)``,
  ``Tactics/Any``...), ``getGunnerySkillFor``/``getDrivingSkillFor`` (which skill a unit kind
  uses) and ``updateSkillName`` (the "<50.07" renames it still accepts).
- The same file in the 0.49.x/0.50.0x line: ``generateInstanceFromXML``'s "<50.01
  compatibility handler" (``Gunnery/Mech`` → ``Gunnery/Mek``, ``Gunnery/Battlesuit`` →
  ``Gunnery/BattleArmor``, ``Gunnery/ProtoMech`` → ``Gunnery/ProtoMek``, ``Anti-Mech`` →
  ``Anti-Mek``, ``Tech/Mech``, ``Tech/BA``, ``Medtech``) and ``Gunnery/Protomek`` (renamed in
  0.49.12).
- ``personnel/skills/Skill.java`` @00551eb2: ``getIndividualAttributeModifier`` (ATOW p. 41).

Names are compared case-insensitively, as MekHQ does.
"""

from __future__ import annotations

from mekref.adapters.megamek.unit_kinds import UnitKind

GUN_MEK = "Gunnery/Mek"
PILOT_MEK = "Piloting/Mek"
GUN_AERO = "Gunnery/Aerospace"
PILOT_AERO = "Piloting/Aerospace"
GUN_JET = "Gunnery/Aircraft"
PILOT_JET = "Piloting/Aircraft"
GUN_VEE = "Gunnery/Vehicle"
PILOT_GVEE = "Piloting/Ground Vehicle"
PILOT_VTOL = "Piloting/VTOL"
PILOT_NVEE = "Piloting/Naval"
GUN_SPACE = "Gunnery/Spacecraft"
PILOT_SPACE = "Piloting/Spacecraft"
GUN_BA = "Gunnery/BattleArmor"
GUN_PROTO = "Gunnery/ProtoMek"
SMALL_ARMS = "Small Arms"
ANTI_MEK = "Anti-Mek (Climbing)"

#: Every older spelling MekHQ still accepts → the current name (lower-case keys).
_RENAMED = {
    # <50.01 (SkillType.generateInstanceFromXML, "Remove below after Milestone Release post
    # 0.49.19" in initializeTypes)
    "gunnery/mech": GUN_MEK,
    "piloting/mech": PILOT_MEK,
    "gunnery/battlesuit": GUN_BA,
    "gunnery/protomech": GUN_PROTO,
    "gunnery/protomek": GUN_PROTO,  # 0.49.12
    "tech/mech": "Tech/Mek",
    "tech/ba": "Tech/BattleArmor",
    # <50.07 (SkillType.updateSkillName); "Anti-Mech" went through "Anti-Mek" on the way
    "anti-mech": ANTI_MEK,
    "anti-mek": ANTI_MEK,
    "medtech": "MedTech/Any",
    "doctor": "Surgery/Any",
    "tactics": "Tactics/Any",
    "hyperspace navigation": "Navigation/Any",
    "survival": "Survival/Any (RP Only)",
    "communications (rp only)": "Communications/Any",
    "communications/any (rp only)": "Communications/Any",
    "tracking (rp only)": "Tracking/Any",
    "training (rp only)": "Training",
}


def canonical_skill(name: str) -> str:
    """MekHQ's current name for a skill written under any of its names."""
    key = name.strip().lower()
    if key in _RENAMED:
        return _RENAMED[key]
    if key in _CURRENT:
        return _CURRENT[key]
    if key.endswith(" (rp only)"):
        # <50.07: combat and support skills lost the tag (Demolitions (RP Only) → Demolitions).
        bare = name.strip()[: -len(" (rp only)")]
        if bare.lower() in _UNTAGGED:
            return bare
    return name.strip()


_CURRENT = {
    n.lower(): n
    for n in (
        GUN_MEK, PILOT_MEK, GUN_AERO, PILOT_AERO, GUN_JET, PILOT_JET, GUN_VEE, PILOT_GVEE,
        PILOT_VTOL, PILOT_NVEE, GUN_SPACE, PILOT_SPACE, GUN_BA, GUN_PROTO, SMALL_ARMS, ANTI_MEK,
    )
}  # fmt: skip

#: Skills that lost their " (RP Only)" tag in 0.50.07 (SkillType.updateSkillName).
_UNTAGGED = frozenset(
    {
        "zero-g operations", "escape artist", "disguise", "forgery", "acting", "appraisal",
        "archery", "demolitions", "martial arts", "melee weapons", "support weapons",
        "thrown weapons", "perception", "sensor operations", "stealth",
    }
)  # fmt: skip


def same_skill(a: str, b: str) -> bool:
    return canonical_skill(a).lower() == canonical_skill(b).lower()


_NAVAL_MODES = frozenset({"naval", "hydrofoil", "submarine"})


def skills_for(kind: UnitKind, movement_mode: str) -> tuple[str, str] | None:
    """(gunnery skill, driving skill) as ``SkillType.getGunnerySkillFor``/``getDrivingSkillFor``
    give them; None for a kind MekHQ crews without these two (gun emplacements, ejected crew).

    The driving skill of infantry is Anti-Mek, of a ProtoMek its gunnery (MekHQ has no ProtoMek
    piloting skill)."""
    mode = movement_mode.strip().lower()
    if kind.is_mek:
        return GUN_MEK, PILOT_MEK
    if kind in (UnitKind.VTOL, UnitKind.SUPPORT_VTOL):
        return GUN_VEE, PILOT_VTOL
    if kind.is_vehicle:
        return GUN_VEE, PILOT_NVEE if mode in _NAVAL_MODES else PILOT_GVEE
    if kind in (
        UnitKind.SMALL_CRAFT, UnitKind.DROPSHIP, UnitKind.JUMPSHIP, UnitKind.WARSHIP,
        UnitKind.SPACE_STATION,
    ):  # fmt: skip
        return GUN_SPACE, PILOT_SPACE
    if kind in (UnitKind.CONVENTIONAL_FIGHTER, UnitKind.FIXED_WING_SUPPORT):
        return GUN_JET, PILOT_JET
    if kind is UnitKind.AEROSPACE_FIGHTER:
        return GUN_AERO, PILOT_AERO
    if kind is UnitKind.BATTLE_ARMOR:
        return GUN_BA, ANTI_MEK
    if kind is UnitKind.CONVENTIONAL_INFANTRY:
        return SMALL_ARMS, ANTI_MEK
    if kind is UnitKind.PROTOMEK:
        return GUN_PROTO, GUN_PROTO
    return None


#: Kinds MekHQ crews with one person who both drives and shoots (``Unit.usesSoloPilot``).
SOLO_KINDS = frozenset(
    {
        UnitKind.BIPED_MEK, UnitKind.QUAD_MEK, UnitKind.TRIPOD_MEK, UnitKind.LAM,
        UnitKind.QUADVEE, UnitKind.PROTOMEK, UnitKind.AEROSPACE_FIGHTER,
        UnitKind.CONVENTIONAL_FIGHTER,
    }
)  # fmt: skip


def attribute_modifier(score: int) -> int:
    """``Skill.getIndividualAttributeModifier`` (ATOW p. 41): the modifier an attribute score
    gives every skill linked to it (a plus lowers a roll-this-or-more target number)."""
    actual = max(score, 0)
    if actual == 0:
        return -4
    if actual == 1:
        return -2
    if actual <= 3:
        return -1
    if actual <= 6:
        return 0
    if actual <= 9:
        return 1
    if actual == 10:
        return 2
    return min(5, actual // 3)
