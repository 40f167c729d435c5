"""The game options a scenario's content needs, merged over the host's own options.

Why a merge: MegaMek's key=value loader (``ScenarioV1.createGame``) resets the options to
MegaMek's defaults (``GameOptions.initialize``) and then loads either the host's saved options
(``mmconf/gameoptions.xml``, no ``GameOptionsFile`` key) or the scenario's options file alone. It
has no key that switches one option on over the host's own (the YAML ``MMSVersion: 2`` has:
``options: on:``). And MegaMek's lobby clears what the options do not allow
(``ChatLounge``: pilot abilities without ``pilot_advantages``, edge without ``edge``, implants
without ``manei_domini``). So mekref writes an options file that is the host's saved options
(when the referee hands them in) with the needed options switched on.

Pure: text in, text out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lxml import etree

from mekref.adapters.megamek.mms_writer import MmsScenario, mms_advantages, unit_name
from mekref.adapters.megamek.xml_safety import safe_parser_options

EDGE, PILOT_ADVANTAGES, MANEI_DOMINI, HIDDEN_UNITS = (
    "edge", "pilot_advantages", "manei_domini", "hidden_units",
)  # fmt: skip
#: Host options files are a few kilobytes; a cap keeps a wrong file from being read whole.
MAX_OPTIONS_BYTES = 2_000_000


def content_options(s: MmsScenario) -> dict[str, str]:
    """Option -> why the file needs it (the first unit that does), in a stable order."""
    need: dict[str, str] = {}
    for f in s.factions:
        for u in f.units:
            e = u.entity
            crew = e.crew
            if crew is None:
                continue
            carried, _ = mms_advantages(e)
            if not carried:
                continue
            who = f"{f.name}: {unit_name(e)}"
            implants = any(n == "implants" and v for n, v in crew.extra)
            for option, has in (
                (PILOT_ADVANTAGES, bool(crew.advantages)),
                (EDGE, bool(crew.edge)),
                (MANEI_DOMINI, implants),
            ):
                if has:
                    need.setdefault(option, f"{who} has pilot options of the {option} group")
    return need


def read_game_options(data: bytes, path: str) -> tuple[tuple[str, str], ...]:
    """The name/value pairs of a MegaMek game options file (``GameOptions.saveOptions``'s
    ``<options><gameoption><optionname>/<optionvalue>``). ValueError, one line, if it is not."""
    if len(data) > MAX_OPTIONS_BYTES:
        raise ValueError(f"{path}: larger than {MAX_OPTIONS_BYTES} bytes, not a game options file")
    try:
        root = etree.fromstring(data, etree.XMLParser(**safe_parser_options()))
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"{path}: not readable XML ({exc.msg})") from exc
    if root.tag != "options":
        raise ValueError(f"{path}: root <{root.tag}>, a MegaMek game options file has <options>")
    pairs: list[tuple[str, str]] = []
    for node in root.iter("gameoption"):
        name = (node.findtext("optionname") or "").strip()
        if not name:
            raise ValueError(f"{path}: a <gameoption> without <optionname>")
        pairs.append((name, (node.findtext("optionvalue") or "").strip()))
    return tuple(pairs)


def merged_options(
    host: Sequence[tuple[str, str]], switched: Mapping[str, str]
) -> tuple[tuple[str, str], ...]:
    """The host's options in their order, each switched one set to its value, then the
    switched ones the host's file does not name."""
    names = {n for n, _ in host}
    kept = [(n, switched.get(n, v)) for n, v in host]
    return tuple(kept + [(n, v) for n, v in switched.items() if n not in names])
