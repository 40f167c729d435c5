"""How many shots one full ammunition bin holds, as MegaMek's ``AmmoType`` gives them.

A ``.mtf`` ammo slot (``IS Ammo LRM-10``) and most ``.blk`` ammo lines name the ammunition but
not its shots: MegaMek fills each bin from the type's ``shots`` when it loads the unit. A unit
list that writes no ``<slot ... shots>`` line for a bin therefore means "the design's standard
load", and mekref needs that figure to know what re-arming restores (TripWire line 23).

The figures are MegaMek's per-ton shots (``AmmoType.createISLRM10Ammo``: ``ammo.shots = 12``;
TechManual's ammunition table gives the same), halved for MegaMek's half-ton bins. Names are
matched loosely because MegaMek writes one type several ways (its internal name ``IS Ammo
LRM-10`` in unit lists and ``.mtf`` files, the ``ISLRM10 Ammo`` lookup name in many ``.blk``
files, munition suffixes such as ``Artemis-capable``). A name this table does not know gives
``None``, never a guess: battle armor and ProtoMek ammunition (their shots depend on the
design, which states them), caseless ammunition, capital and artillery-cannon ammunition.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

_NON_ALNUM = re.compile(r"[^a-z0-9]")
#: MegaMek's half-ton bins: "IS Machine Gun Ammo - Half", "ISMG Ammo Half", "(1/2 ton)".
_HALF_TON = re.compile(r"\bhalf\b|1/2\s*ton", re.IGNORECASE)
#: A look-up name that states its shots: "ISMG Ammo (100)" is MegaMek's half-ton MG bin.
_STATED = re.compile(r"\((\d+)\)\s*$")
#: Ammunition whose shots differ from the launcher family's, or that this table leaves out:
#: caseless rounds, artillery cannons, capital and naval weapons, tube artillery.
_NOT_INFERRED = (
    "caseless", "longtomcannon", "snipercannon", "thumpercannon", "capital", "naval", "tube",
)  # fmt: skip

_AC = {2: 45, 5: 20, 10: 10, 20: 5}
_LRM = {5: 24, 10: 12, 15: 8, 20: 6}
_SRM = {2: 50, 4: 25, 6: 15}

#: (pattern matched at the start of the normalised name, shots by the launcher size it
#: captures, or a fixed count). The first match wins: specific names come before the general.
_ROWS: tuple[tuple[re.Pattern[str], Mapping[int, int] | int], ...] = tuple(
    (re.compile(pattern), shots)
    for pattern, shots in (
        (r"(?:protomech|protomek)ac(\d+)", {2: 40, 4: 20, 8: 10}),
        (r"(?:hvac|hypervelocity(?:autocannon|ac))(\d+)", {2: 30, 5: 15, 10: 8}),
        (r"(?:rotary|r)ac(\d+)", {2: 45, 5: 20}),
        (r"(?:lightac|lac)(\d+)", {2: 45, 5: 20}),
        (r"(?:ultra|u)ac(\d+)", _AC),
        (r"lbx?ac(\d+)", _AC),
        (r"lb(\d+)x", _AC),
        (r"(?:ac|autocannon)(\d+)", _AC),
        (r"(?:heavymachinegun|heavymg|hmg)", 100),
        (r"(?:lightmachinegun|lightmg|lmg)", 200),
        (r"(?:machinegun|mg)", 200),
        (r"(?:improvedheavygauss|iheavygauss|heavygauss)", 4),
        (r"lightgauss", 16),
        (r"apgauss", 40),
        (r"(?:silverbulletgauss|sbgauss)", 8),
        (r"magshot", 50),
        (r"(?:hag|hyperassaultgauss(?:rifle)?)(\d+)", {20: 6, 30: 4, 40: 3}),
        (r"gauss", 8),
        (r"(?:extendedlrm|exlrm|elrm)(\d+)", {5: 18, 10: 9, 15: 6, 20: 4}),
        (r"(?:streaklrm|enhancedlrm|nlrm|lrm)(\d+)", _LRM),
        (r"(?:streaksrm|srm)(\d+)", _SRM),
        (r"mrm(\d+)", {10: 24, 20: 12, 30: 8, 40: 6}),
        (r"atm(\d+)", {3: 20, 6: 10, 9: 7, 12: 5}),
        (r"(?:thunderbolt|tbolt)(\d+)", {5: 12, 10: 6, 15: 4, 20: 3}),
        (r"inarc", 4),
        (r"narc", 6),
        (r"arrowiv", 5),
        (r"longtom", 5),
        (r"sniper", 10),
        (r"thumper", 20),
        (r"vehicleflamer", 20),
        (r"heavyflamer", 10),
        (r"(?:plasmarifle|plasmacannon)", 10),
        (r"lightrifle", 18),
        (r"mediumrifle", 9),
        (r"heavyrifle", 6),
    )
)

#: Multi-missile launchers: (size, LRM or SRM rounds) -> shots.
_MML = {
    (3, "lrm"): 40, (3, "srm"): 33, (5, "lrm"): 24, (5, "srm"): 20,
    (7, "lrm"): 17, (7, "srm"): 14, (9, "lrm"): 13, (9, "srm"): 11,
}  # fmt: skip
_MML_NAME = re.compile(r"mml(\d+)(lrm|srm)")
_AMS = re.compile(r"(?:ams|antimissile)")


def _normalised(name: str) -> tuple[str, bool]:
    """Lower case letters and digits, without the words "ammo" and "full"/"half", and the
    tech-base prefix; and whether the prefix said Clan."""
    text = _NON_ALNUM.sub("", name.lower())
    for word in ("ammo", "full", "half"):
        text = text.replace(word, "")
    clan = False
    for prefix, is_clan in (("clan", True), ("cl", True), ("is", False)):
        if text.startswith(prefix):
            text, clan = text[len(prefix) :], is_clan
            break
    return text, clan


@functools.lru_cache(maxsize=1024)
def bin_shots(ammo_type: str) -> int | None:
    """MegaMek's shots in one full bin of ``ammo_type``; None when this table does not know it.

    Kept per name: every bin of every unit of every file asks, of the few names there are."""
    stated = _STATED.search(ammo_type)
    if stated:
        return int(stated.group(1))
    text, clan = _normalised(ammo_type)
    if not text or text.startswith("ba") or any(word in text for word in _NOT_INFERRED):
        return None
    full = _full_ton(text, clan)
    if full is None:
        return None
    return full // 2 if _HALF_TON.search(ammo_type) else full


def _full_ton(text: str, clan: bool) -> int | None:
    mml = _MML_NAME.match(text)
    if mml:
        return _MML.get((int(mml.group(1)), mml.group(2)))
    if _AMS.match(text):
        return 24 if clan else 12  # Clan AMS carries 24 rounds a ton, Inner Sphere AMS 12
    for pattern, shots in _ROWS:
        found = pattern.match(text)
        if found is None:
            continue
        if isinstance(shots, int):
            return shots
        return shots.get(int(found.group(1)))
    return None
