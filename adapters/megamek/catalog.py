"""A catalog of unit designs: which file holds the design of a unit a MUL names.

Two layers:

* the pure part -- :class:`CatalogEntry`, :func:`entry_from_design`, :class:`CatalogIndex` and
  its lookups -- works on parsed data only;
* the scanning part -- :func:`build_catalog`, :func:`scan_folder`, :func:`load_design` -- walks
  a MegaMek data folder (loose files and ``.zip`` archives, recursively), keeps a JSON cache
  per folder keyed by each file's size and modification time, and re-parses only what changed.

A MegaMek install holds tens of thousands of unit files; parsing all of them takes a while, so
the cache makes every later start cheap, and a progress callback lets the CLI draw a bar.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.design import UnitDesign, UnitFileError
from mekref.adapters.megamek.unit_file import MAX_UNIT_FILE_BYTES, is_unit_file, parse_unit_file
from mekref.adapters.megamek.unit_kinds import UnitKind

#: Bump when CatalogEntry or the reader changes what it extracts: old caches are rebuilt.
CACHE_FORMAT = 1

#: ``progress(done, total, current file)``; called once per file, cached or parsed.
Progress = Callable[[int, int, str], None]


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


@dataclass(frozen=True, slots=True)
class CatalogError:
    """A file the catalog could not read: it is listed, never silently skipped."""

    root: str
    path: str
    member: str | None
    message: str


def entry_from_design(
    design: UnitDesign, root: str, path: str, member: str | None = None
) -> CatalogEntry:
    clan = design.extra.get("clanname", ())
    return CatalogEntry(
        chassis=design.chassis,
        model=design.model,
        kind=design.kind,
        tonnage=design.tonnage,
        mul_id=design.mul_id,
        uuid=design.uuid,
        clan_name=clan[0] if clan and clan[0] else None,
        root=root,
        path=path,
        member=member,
    )


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
            if entry.uuid:
                by_uuid[entry.uuid.strip().casefold()].append(entry)
            model = normalise_name(entry.model)
            names = {normalise_name(entry.chassis)}
            if entry.clan_name:
                names.add(normalise_name(f"{entry.chassis} ({entry.clan_name})"))
            for name in names:
                by_name[(name, model)].append(entry)
                by_chassis[name].append(entry)
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
    """Parse one unit file's bytes into its catalog entry (raises UnitFileError)."""
    return entry_from_design(parse_unit_file(data, name), root, path, member)


# ---- scanning layer (filesystem) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Fingerprint:
    size: int
    mtime_ns: int


@dataclass(frozen=True, slots=True)
class _FileRecord:
    fingerprint: _Fingerprint
    entries: tuple[CatalogEntry, ...]
    errors: tuple[CatalogError, ...]


def _cache_path(cache_dir: Path, root: Path) -> Path:
    digest = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:16]
    return cache_dir / f"unit-catalog-{digest}.json"


def _candidates(root: Path) -> list[tuple[str, Path]]:
    """Unit files and zip archives under root, as (POSIX relative path, absolute path)."""
    found: list[tuple[str, Path]] = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if is_unit_file(name) or name.casefold().endswith(".zip"):
                full = Path(folder) / name
                found.append((full.relative_to(root).as_posix(), full))
    return found


def _read_cache(cache_file: Path, root: str) -> dict[str, _FileRecord]:
    """The cached records, or nothing when the cache is missing, unreadable or stale."""
    try:
        raw = json.loads(cache_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict) or raw.get("format") != CACHE_FORMAT or raw.get("root") != root:
        return {}
    records: dict[str, _FileRecord] = {}
    try:
        for path, item in raw["files"].items():
            records[path] = _FileRecord(
                fingerprint=_Fingerprint(int(item["size"]), int(item["mtime_ns"])),
                entries=tuple(CatalogEntry.from_json(e, root, path) for e in item["entries"]),
                errors=tuple(
                    CatalogError(root, path, e["member"], e["message"]) for e in item["errors"]
                ),
            )
    except (KeyError, TypeError, ValueError):
        # A cache written by something else, or damaged: start over rather than trust it.
        return {}
    return records


def _write_cache(cache_file: Path, root: str, records: dict[str, _FileRecord]) -> None:
    payload = {
        "format": CACHE_FORMAT,
        "root": root,
        "files": {
            path: {
                "size": rec.fingerprint.size,
                "mtime_ns": rec.fingerprint.mtime_ns,
                "entries": [e.to_json() for e in rec.entries],
                "errors": [{"member": e.member, "message": e.message} for e in rec.errors],
            }
            for path, rec in sorted(records.items())
        },
    }
    cache_file.parent.mkdir(parents=True, exist_ok=True)
    # Write beside, then rename: a crash mid-write never leaves a half cache behind.
    tmp = cache_file.with_name(cache_file.name + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, cache_file)


_Parsed = tuple[tuple[CatalogEntry, ...], tuple[CatalogError, ...]]


def _parse_loose(root: str, rel: str, full: Path, size: int) -> _Parsed:
    if size > MAX_UNIT_FILE_BYTES:
        return (), (CatalogError(root, rel, None, f"{size} bytes is too big for a unit file"),)
    try:
        return (parse_entries(full.read_bytes(), full.name, root, rel),), ()
    except (UnitFileError, OSError) as exc:
        return (), (CatalogError(root, rel, None, str(exc)),)


def _parse_zip(root: str, rel: str, full: Path) -> _Parsed:
    entries: list[CatalogEntry] = []
    errors: list[CatalogError] = []
    try:
        with zipfile.ZipFile(full) as archive:
            for info in archive.infolist():
                if info.is_dir() or not is_unit_file(info.filename):
                    continue
                # Check the declared size before reading, so a zip bomb is never inflated.
                if info.file_size > MAX_UNIT_FILE_BYTES:
                    message = f"{info.file_size} bytes is too big for a unit file"
                    errors.append(CatalogError(root, rel, info.filename, message))
                    continue
                try:
                    data = archive.read(info)
                    entries.append(parse_entries(data, info.filename, root, rel, info.filename))
                except UnitFileError as exc:
                    errors.append(CatalogError(root, rel, info.filename, str(exc)))
    except (zipfile.BadZipFile, OSError, RuntimeError) as exc:
        errors.append(CatalogError(root, rel, None, f"cannot read zip archive: {exc}"))
    return tuple(entries), tuple(errors)


def scan_folder(
    root: Path, cache_dir: Path | None = None, progress: Progress | None = None
) -> CatalogIndex:
    """Index every unit file under ``root`` (recursively, zip archives included).

    With ``cache_dir``, reuses the cached entries of files whose size and mtime are unchanged,
    re-parses the rest, forgets removed files and writes the cache back."""
    root = root.resolve()
    if not root.is_dir():
        raise NotADirectoryError(f"{root}: not a folder")
    root_text = str(root)
    cache_file = _cache_path(cache_dir, root) if cache_dir is not None else None
    cached = _read_cache(cache_file, root_text) if cache_file is not None else {}
    files = _candidates(root)
    records: dict[str, _FileRecord] = {}
    changed = False
    for done, (rel, full) in enumerate(files, start=1):
        try:
            stat = full.stat()
        except OSError as exc:
            error = CatalogError(root_text, rel, None, str(exc))
            records[rel] = _FileRecord(_Fingerprint(-1, -1), (), (error,))
            changed = True
            continue
        fingerprint = _Fingerprint(stat.st_size, stat.st_mtime_ns)
        previous = cached.get(rel)
        if previous is not None and previous.fingerprint == fingerprint:
            records[rel] = previous
        else:
            if rel.casefold().endswith(".zip"):
                entries, errors = _parse_zip(root_text, rel, full)
            else:
                entries, errors = _parse_loose(root_text, rel, full, stat.st_size)
            records[rel] = _FileRecord(fingerprint, entries, errors)
            changed = True
        if progress is not None:
            progress(done, len(files), rel)
    changed = changed or records.keys() != cached.keys()
    if cache_file is not None and changed:
        _write_cache(cache_file, root_text, records)
    return CatalogIndex(
        tuple(e for rec in records.values() for e in rec.entries),
        tuple(e for rec in records.values() for e in rec.errors),
    )


def build_catalog(
    roots: Sequence[Path], cache_dir: Path | None = None, progress: Progress | None = None
) -> CatalogIndex:
    """One index over several folders, e.g. the user's MegaMek ``data/mekfiles`` and the
    bundled fixtures. Each folder keeps its own cache file."""
    entries: list[CatalogEntry] = []
    errors: list[CatalogError] = []
    for root in roots:
        index = scan_folder(root, cache_dir, progress)
        entries.extend(index.entries)
        errors.extend(index.errors)
    return CatalogIndex(tuple(entries), tuple(errors))


def read_entry_bytes(entry: CatalogEntry) -> bytes:
    full = Path(entry.root) / entry.path
    if entry.member is None:
        return full.read_bytes()
    with zipfile.ZipFile(full) as archive:
        info = archive.getinfo(entry.member)
        if info.file_size > MAX_UNIT_FILE_BYTES:
            raise UnitFileError(entry.member, f"{info.file_size} bytes is too big for a unit file")
        return archive.read(info)


def load_design(entry: CatalogEntry) -> UnitDesign:
    """The full design behind a catalog entry, parsed from its file again (the cache keeps
    only what lookups need)."""
    name = entry.member if entry.member is not None else entry.path
    return parse_unit_file(read_entry_bytes(entry), name)
