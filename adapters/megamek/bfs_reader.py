"""Read MegaMek 0.51 ``.bfs`` Battlefield Support Asset files (reference 5.3): YAML.

Only the safe loader is used: a unit file is data, and the full loader can build arbitrary
Python objects from tags. It is libyaml's (``yaml.CSafeLoader``) when PyYAML was built with
it, several times faster on a data folder with hundreds of ``.bfs`` files; the same safe
constructor either way. A BSA has no tonnage, tech base or locations; its game values
(``tmm``, ``damage``, ``skill``, ``cost``...) stay in ``extra`` as text. PyYAML is imported
when the first ``.bfs`` file is read: every reader of unit files imports this module, and few
of their callers ever meet a ``.bfs`` file.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING

from mekref.adapters.megamek.design import UnitDesign, UnitFileError
from mekref.adapters.megamek.unit_kinds import UnitKind

if TYPE_CHECKING:
    import yaml

_MODELLED = frozenset({"uuid", "chassis", "model", "movement"})


@functools.cache
def safe_loader() -> type[yaml.SafeLoader] | type[yaml.CSafeLoader]:
    """The C loader when present (same safe schema, C scanner and parser), else the Python one."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _flatten(prefix: str, value: object, out: dict[str, tuple[str, ...]]) -> None:
    if isinstance(value, Mapping):
        for key, inner in value.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), inner, out)
    elif isinstance(value, list):
        out[prefix.casefold()] = tuple(str(item) for item in value)
    else:
        out[prefix.casefold()] = (str(value),)


def parse_bfs(text: str, source: str) -> UnitDesign:
    import yaml

    try:
        data = yaml.load(text, Loader=safe_loader())  # a safe loader, C or Python
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise UnitFileError(source, f"not valid YAML: {problem}", line) from None
    if not isinstance(data, Mapping):
        raise UnitFileError(source, "expected a YAML mapping of asset fields")
    chassis = data.get("chassis")
    if not isinstance(chassis, str) or not chassis.strip():
        raise UnitFileError(source, "no 'chassis' field")
    movement = data.get("movement")
    mp, mode = 0, ""
    if isinstance(movement, Mapping):
        raw_mp = movement.get("mp", 0)
        if not isinstance(raw_mp, int) or isinstance(raw_mp, bool):
            raise UnitFileError(source, f"movement.mp is not a whole number: {raw_mp!r}")
        mp, mode = raw_mp, str(movement.get("mode", ""))
    extra: dict[str, tuple[str, ...]] = {}
    for key, value in data.items():
        if str(key) not in _MODELLED:
            _flatten(str(key), value, extra)
    uuid = data.get("uuid")
    return UnitDesign(
        chassis=chassis.strip(),
        model=str(data.get("model") or "").strip(),
        kind=UnitKind.BATTLEFIELD_SUPPORT_ASSET,
        movement_mode=mode,
        tonnage=None,
        walk_mp=mp,
        uuid=str(uuid) if uuid else None,
        source_file=source,
        extra=extra,
    )
