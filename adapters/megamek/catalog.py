"""A catalog of unit designs: which file holds the design of a unit a MUL names.

This module is the pure part -- :class:`CatalogEntry`, :func:`entry_from_design`,
:class:`CatalogIndex` and its lookups -- working on parsed data only. Walking a MegaMek data
folder and caching what was parsed is the daemon's job (:mod:`mekref.daemon.unit_catalog`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.unit_header import UnitHeader, header_of, parse_unit_header
from mekref.adapters.megamek.unit_kinds import UnitKind

# ---- pure part ------------------------------------------------------------------------------


def normalise_name(text: str) -> str:
    """Strip, case-fold, collapse inner whitespace: how chassis and model names are compared."""
    return " ".join(text.split()).casefold()


def _strip_parenthetical(chassis: str) -> str | None:
    """``Timber Wolf (Mad Cat)`` -> ``Timber Wolf``: MUL files may carry MegaMek's
    ``getFullChassis()``, which appends the Clan/IS reporting name in parentheses."""
    text = chassis.strip()
    if not text.endswith(")") or "(" not in text:
        return None
    head = text[: text.rindex("(")].strip()
    return head or None


_KIND_BY_VALUE: dict[str, UnitKind] = {kind.value: kind for kind in UnitKind}


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    chassis: str
    model: str
    kind: UnitKind
    tonnage: float | None
    mul_id: int | None
    uuid: str | None
    #: The alternate reporting name (MTF ``clanname:``), used to match ``getFullChassis()``.
    clan_name: str | None
    #: Folder the catalog was built from (absolute), the file inside it (POSIX relative path)
    #: and, for zip archives, the member inside the archive.
    root: str
    path: str
    member: str | None = None

    @property
    def display_name(self) -> str:
        return f"{self.chassis} {self.model}".strip()

    @property
    def where(self) -> str:
        return f"{self.path}!{self.member}" if self.member else self.path

    def to_json(self) -> dict[str, Any]:
        return {
            "chassis": self.chassis,
            "model": self.model,
            "kind": self.kind.value,
            "tonnage": self.tonnage,
            "mul_id": self.mul_id,
            "uuid": self.uuid,
            "clan_name": self.clan_name,
            "member": self.member,
        }

    def to_row(self) -> list[Any]:
        """The compact cache form: the fields of :meth:`to_json`, in that order."""
        return [
            self.chassis,
            self.model,
            self.kind.value,
            self.tonnage,
            self.mul_id,
            self.uuid,
            self.clan_name,
            self.member,
        ]

    @classmethod
    def from_row(cls, row: Sequence[Any], root: str, path: str) -> CatalogEntry:
        """Back from :meth:`to_row`; raises KeyError, TypeError or ValueError on a bad row."""
        chassis, model, kind, tonnage, mul_id, uuid, clan_name, member = row
        entry: CatalogEntry = object.__new__(cls)
        _set_chassis(entry, str(chassis))
        _set_model(entry, str(model))
        _set_kind(entry, _KIND_BY_VALUE[kind])
        _set_tonnage(entry, None if tonnage is None else float(tonnage))
        _set_mul_id(entry, None if mul_id is None else int(mul_id))
        _set_uuid(entry, None if uuid is None else str(uuid))
        _set_clan_name(entry, None if clan_name is None else str(clan_name))
        _set_root(entry, root)
        _set_path(entry, path)
        _set_member(entry, None if member is None else str(member))
        return entry

    @classmethod
    def from_json(cls, data: dict[str, Any], root: str, path: str) -> CatalogEntry:
        return cls(
            chassis=str(data["chassis"]),
            model=str(data["model"]),
            kind=UnitKind(data["kind"]),
            tonnage=None if data["tonnage"] is None else float(data["tonnage"]),
            mul_id=None if data["mul_id"] is None else int(data["mul_id"]),
            uuid=None if data["uuid"] is None else str(data["uuid"]),
            clan_name=None if data["clan_name"] is None else str(data["clan_name"]),
            root=root,
            path=path,
            member=None if data["member"] is None else str(data["member"]),
        )


# A warm catalog builds one entry per unit file from the cache, tens of thousands at a start,
# and the frozen dataclass ``__init__`` (an ``object.__setattr__`` call per field) was most of
# that time. ``from_row`` builds the same object by setting its slots through their
# descriptors, a quarter of the cost; the class stays frozen (that guards ``setattr``).
(
    _set_chassis,
    _set_model,
    _set_kind,
    _set_tonnage,
    _set_mul_id,
    _set_uuid,
    _set_clan_name,
    _set_root,
    _set_path,
    _set_member,
) = (vars(CatalogEntry)[f.name].__set__ for f in fields(CatalogEntry))


@dataclass(frozen=True, slots=True)
class CatalogError:
    """A file the catalog could not read: it is listed, never silently skipped."""

    root: str
    path: str
    member: str | None
    message: str


def entry_from_header(
    header: UnitHeader, root: str, path: str, member: str | None = None
) -> CatalogEntry:
    return CatalogEntry(
        chassis=header.chassis,
        model=header.model,
        kind=header.kind,
        tonnage=header.tonnage,
        mul_id=header.mul_id,
        uuid=header.uuid,
        clan_name=header.clan_name,
        root=root,
        path=path,
        member=member,
    )


def entry_from_design(
    design: UnitDesign, root: str, path: str, member: str | None = None
) -> CatalogEntry:
    return entry_from_header(header_of(design), root, path, member)


class LookupStatus(StrEnum):
    FOUND = "found"
    NOT_FOUND = "not_found"
    AMBIGUOUS = "ambiguous"


@dataclass(frozen=True, slots=True)
class Lookup:
    """The answer to "which design is this?": one entry, none, or several to choose from.

    For NOT_FOUND, ``candidates`` holds designs of the same chassis (other models), so the
    referee sees what is close; for AMBIGUOUS, every design that matched."""

    status: LookupStatus
    query: str
    entry: CatalogEntry | None = None
    candidates: tuple[CatalogEntry, ...] = ()

    @property
    def found(self) -> bool:
        return self.status is LookupStatus.FOUND

    @property
    def message(self) -> str:
        if self.status is LookupStatus.FOUND and self.entry is not None:
            return f"{self.query}: {self.entry.where}"
        listed = "; ".join(f"{c.display_name} ({c.where})" for c in self.candidates)
        if self.status is LookupStatus.AMBIGUOUS:
            return f"{self.query}: {len(self.candidates)} designs match: {listed}"
        if listed:
            return f"{self.query}: no such design; same chassis: {listed}"
        return f"{self.query}: no such design in the catalog"


_MAX_NEAR_MISSES = 10


@dataclass(frozen=True)
class CatalogIndex:
    entries: tuple[CatalogEntry, ...]
    errors: tuple[CatalogError, ...] = ()
    _by_uuid: dict[str, list[CatalogEntry]] = field(init=False, repr=False, compare=False)
    _by_name: dict[tuple[str, str], list[CatalogEntry]] = field(
        init=False, repr=False, compare=False
    )
    _by_chassis: dict[str, list[CatalogEntry]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_uuid: dict[str, list[CatalogEntry]] = defaultdict(list)
        by_name: dict[tuple[str, str], list[CatalogEntry]] = defaultdict(list)
        by_chassis: dict[str, list[CatalogEntry]] = defaultdict(list)
        for entry in self.entries:
            uuid = entry.uuid
            if uuid:
                by_uuid[uuid.strip().casefold()].append(entry)
            # normalise_name, inlined: this runs once per unit file at every start.
            model = " ".join(entry.model.split()).casefold()
            chassis = " ".join(entry.chassis.split()).casefold()
            by_name[(chassis, model)].append(entry)
            by_chassis[chassis].append(entry)
            if entry.clan_name:
                full = normalise_name(f"{entry.chassis} ({entry.clan_name})")
                if full != chassis:
                    by_name[(full, model)].append(entry)
                    by_chassis[full].append(entry)
        # Frozen dataclass: the derived indexes are set once, here.
        object.__setattr__(self, "_by_uuid", dict(by_uuid))
        object.__setattr__(self, "_by_name", dict(by_name))
        object.__setattr__(self, "_by_chassis", dict(by_chassis))

    def __len__(self) -> int:
        return len(self.entries)

    def by_uuid(self, uuid: str) -> Lookup:
        """Lookup by MUL ``unitFileUUID`` (unit files of MegaMek 0.51+ carry one)."""
        found = self._by_uuid.get(uuid.strip().casefold(), [])
        return _result(f"unitFileUUID {uuid}", found, ())

    def find(self, chassis: str, model: str, kind: UnitKind | None = None) -> Lookup:
        """Lookup by chassis + model, normalised; accepts ``getFullChassis()`` forms.

        ``kind`` narrows the match when the caller knows it: the same chassis + model can be a
        conventional infantry platoon (.blk) and its Battlefield Support Asset (.bfs)."""
        query = f"{chassis} {model}".strip()
        key_model = normalise_name(model)
        tried = [normalise_name(chassis)]
        stripped = _strip_parenthetical(chassis)
        if stripped is not None:
            tried.append(normalise_name(stripped))
        for name in tried:
            found = [e for e in self._by_name.get((name, key_model), []) if _fits(e, kind)]
            if found:
                return _result(query, found, ())
        near: list[CatalogEntry] = []
        for name in tried:
            near.extend(self._by_chassis.get(name, []))
        return _result(query, [], tuple(_unique(near))[:_MAX_NEAR_MISSES])

    def lookup(
        self, chassis: str, model: str, uuid: str | None = None, kind: UnitKind | None = None
    ) -> Lookup:
        """UUID first when the MUL has one, else chassis + model."""
        if uuid:
            by_id = self.by_uuid(uuid)
            if by_id.status is not LookupStatus.NOT_FOUND:
                return by_id
        return self.find(chassis, model, kind)


def _fits(entry: CatalogEntry, kind: UnitKind | None) -> bool:
    return kind is None or entry.kind is kind


def _unique(entries: Iterable[CatalogEntry]) -> Iterator[CatalogEntry]:
    seen: set[tuple[str, str, str | None]] = set()
    for entry in entries:
        key = (entry.root, entry.path, entry.member)
        if key not in seen:
            seen.add(key)
            yield entry


def _result(query: str, found: Sequence[CatalogEntry], near: tuple[CatalogEntry, ...]) -> Lookup:
    unique = tuple(_unique(found))
    if len(unique) == 1:
        return Lookup(LookupStatus.FOUND, query, unique[0])
    if len(unique) > 1:
        return Lookup(LookupStatus.AMBIGUOUS, query, None, unique)
    return Lookup(LookupStatus.NOT_FOUND, query, None, near)


def parse_entries(
    data: bytes, name: str, root: str, path: str, member: str | None = None
) -> CatalogEntry:
    """One unit file's catalog entry (raises UnitFileError).

    Reads only the fields the entry keeps (:func:`parse_unit_header`); the rest of the file is
    read, and checked, when its design is loaded."""
    return entry_from_header(parse_unit_header(data, name), root, path, member)
