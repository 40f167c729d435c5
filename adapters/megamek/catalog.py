"""A catalog of unit designs: which file holds the design of a unit a MUL names.

This module is the pure part -- :class:`CatalogEntry`, :func:`entry_from_design`,
:class:`CatalogIndex` and its lookups -- working on parsed data only. Walking a MegaMek data
folder and caching what was parsed is the daemon's job (:mod:`mekref.daemon.unit_catalog`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
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
class CatalogEntry(UnitHeader):
    """A unit file's header and where the file is."""

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
) = (getattr(CatalogEntry, f.name).__set__ for f in fields(CatalogEntry))


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
    same = {f.name: getattr(header, f.name) for f in fields(UnitHeader)}
    return CatalogEntry(**same, root=root, path=path, member=member)


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

#: A file's row in a catalog table: ``[size, mtime_ns, [entry rows], [[member, message], ...]]``
#: (the entry rows are :meth:`CatalogEntry.to_row`'s).
FileRow = list[Any]
#: An index of a table: key -> the numbers of its entries, in the table's order.
Keys = dict[str, list[int]]


def name_key(chassis: str, model: str) -> str:
    """The key of a chassis and model, both normalised: no newline survives normalising."""
    return f"{chassis}\n{model}"


def index_keys(rows: Iterable[Sequence[Any]]) -> tuple[Keys, Keys]:
    """The UUID and name keys of entry rows, each to the rows' numbers in order: what a table
    looks up (:meth:`CatalogEntry.to_row` rows; the clan name gives a second name key)."""
    by_uuid: Keys = {}
    by_name: Keys = {}
    for number, row in enumerate(rows):
        chassis, model, uuid, clan_name = row[0], row[1], row[5], row[6]
        if uuid:
            by_uuid.setdefault(uuid.strip().casefold(), []).append(number)
        model_key = normalise_name(model)
        chassis_key = normalise_name(chassis)
        by_name.setdefault(name_key(chassis_key, model_key), []).append(number)
        if clan_name:
            full = normalise_name(f"{chassis} ({clan_name})")
            if full != chassis_key:
                by_name.setdefault(name_key(full, model_key), []).append(number)
    return by_uuid, by_name


class EntryTable:
    """One folder's entries as its cache keeps them: compact rows per file and the look-up keys
    to the entries' numbers. An entry object is made when a look-up finds it, so that opening
    a catalog of tens of thousands of unit files costs no more than loading its cache."""

    def __init__(self, root: str, files: dict[str, FileRow], by_uuid: Keys, by_name: Keys) -> None:
        self.root = root
        self.files = files
        self.by_uuid = by_uuid
        self.by_name = by_name
        self._where: list[tuple[str, Sequence[Any]]] | None = None
        self._made: dict[int, CatalogEntry] = {}
        self._by_chassis: Keys | None = None

    def entry(self, number: int) -> CatalogEntry:
        made = self._made.get(number)
        if made is None:
            if self._where is None:
                self._where = [(rel, row) for rel, file in self.files.items() for row in file[2]]
            rel, row = self._where[number]
            made = self._made[number] = CatalogEntry.from_row(row, self.root, rel)
        return made

    def __len__(self) -> int:
        if self._where is None:
            return sum(len(file[2]) for file in self.files.values())
        return len(self._where)

    def by_chassis(self, chassis_key: str) -> list[int]:
        """The entries of a chassis (for near misses; made from the name keys when first asked)."""
        if self._by_chassis is None:
            by_chassis: Keys = {}
            for key, numbers in self.by_name.items():
                by_chassis.setdefault(key.split("\n", 1)[0], []).extend(numbers)
            self._by_chassis = {k: sorted(set(v)) for k, v in by_chassis.items()}
        return self._by_chassis.get(chassis_key, [])

    def errors(self) -> tuple[CatalogError, ...]:
        return tuple(
            CatalogError(self.root, rel, member, str(message))
            for rel, file in self.files.items()
            if file[3]
            for member, message in file[3]
        )


class CatalogIndex:
    """The catalog of one or more folders (their tables, in order) and the files it could not
    read. Look-ups answer with entries made on demand; ``entries`` makes them all."""

    def __init__(self, tables: Sequence[EntryTable]) -> None:
        self.tables = tuple(tables)
        self._errors: tuple[CatalogError, ...] | None = None

    @property
    def errors(self) -> tuple[CatalogError, ...]:
        if self._errors is None:
            self._errors = tuple(e for t in self.tables for e in t.errors())
        return self._errors

    @property
    def entries(self) -> tuple[CatalogEntry, ...]:
        return tuple(t.entry(n) for t in self.tables for n in range(len(t)))

    def __len__(self) -> int:
        return sum(len(t) for t in self.tables)

    def by_uuid(self, uuid: str) -> Lookup:
        """Lookup by MUL ``unitFileUUID`` (unit files of MegaMek 0.51+ carry one)."""
        key = uuid.strip().casefold()
        found = [t.entry(n) for t in self.tables for n in t.by_uuid.get(key, ())]
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
            key = name_key(name, key_model)
            found = [
                entry
                for t in self.tables
                for entry in (t.entry(n) for n in t.by_name.get(key, ()))
                if _fits(entry, kind)
            ]
            if found:
                return _result(query, found, ())
        near = [t.entry(n) for name in tried for t in self.tables for n in t.by_chassis(name)]
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
