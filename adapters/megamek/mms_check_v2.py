"""Check a YAML MegaMek scenario (``MMSVersion: 2``) the way ``ScenarioV2.createGame`` reads it.

Checked against MegaMek/megamek ``megamek/src/megamek/common/scenario/ScenarioV2.java``: the
top level must be a mapping with ``name`` (``getName`` dereferences it), ``factions`` as a list
(else ``missingFactions``) whose entries each have a ``name`` (``MMUReader.requireFields``), and
``map`` or ``maps`` (else ``missingMap``); a faction's ``deploy`` is an edge name, or a mapping
with ``edge``/``offset``/``width`` or ``area``; ``options`` may name a ``file`` and ``on``/``off``
lists of option names (switched over the host's saved options when no file is named). Units
(``units:``, often an ``include:`` of a ``.mmu`` file beside it) are read by MegaMek's unit
deserializers, which this check does not follow. Pure: text in, findings out.
"""

from __future__ import annotations

from typing import Any

import yaml

from mekref.adapters.megamek.mms_check import MAX_MMS_BYTES
from mekref.adapters.megamek.mms_writer import START_LOCATIONS


def scenario_version(text: str) -> int | None:
    """1 or 2 from the first ``MMSVersion`` line (``=`` or ``:``), None without one."""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("MMSVersion"):
            value = line[len("MMSVersion") :].lstrip(" =:").strip()
            return int(value) if value in ("1", "2") else None
    return None


def _check_faction(n: int, f: Any) -> list[str]:
    if not isinstance(f, dict) or not isinstance(f.get("name"), str):
        return [f"factions[{n}]: no name"]
    where = f"faction {f['name']!r}"
    deploy = f.get("deploy")
    edge = deploy.get("edge") if isinstance(deploy, dict) else deploy
    if edge is not None and edge not in START_LOCATIONS:
        return [f"{where}: deploy {edge!r} is not a MegaMek deployment area"]
    return []


def _check_options(options: Any) -> list[str]:
    if options is None:
        return []
    if not isinstance(options, dict):
        return ["options: not a mapping"]
    problems = []
    if "file" in options and not isinstance(options["file"], str):
        problems.append("options.file: not a file name")
    for key in ("on", "off"):
        names = options.get(key, [])
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            problems.append(f"options.{key}: not a list of option names")
    return problems


def check_mms_v2(text: str) -> list[str]:
    """Problems ``ScenarioV2`` would throw on (empty: the file's frame loads)."""
    if len(text.encode("utf-8")) > MAX_MMS_BYTES:
        return [f"scenario larger than {MAX_MMS_BYTES} bytes"]
    try:
        node = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        return [f"not YAML: {str(exc).splitlines()[0]}"]
    if not isinstance(node, dict):
        return ["the top level is not a mapping"]
    problems: list[str] = []
    if node.get("MMSVersion") != 2:
        problems.append(f"MMSVersion: {node.get('MMSVersion')!r}, ScenarioV2 wants 2")
    if not isinstance(node.get("name"), str):
        problems.append("name: missing")
    if "map" not in node and "maps" not in node:
        problems.append("map: missing (ScenarioLoaderException.missingMap)")
    factions = node.get("factions")
    if not isinstance(factions, list):
        problems.append("factions: missing or not a list")
    else:
        for n, f in enumerate(factions):
            problems += _check_faction(n, f)
    return problems + _check_options(node.get("options"))
