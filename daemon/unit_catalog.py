"""Index a MegaMek data folder into the unit catalog, with a cache: the filesystem half.

The catalog's lookups (:mod:`mekref.adapters.megamek.catalog`) work on parsed data only; this
module walks a folder (loose files and ``.zip`` archives, recursively), keeps a JSON cache per
folder keyed by each file's size and modification time, and re-parses only what changed. A
MegaMek install holds tens of thousands of unit files; the cache makes every later start cheap,
and a progress callback lets the CLI draw a bar.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from mekref.adapters.megamek.catalog import (
    CatalogEntry,
    CatalogError,
    CatalogIndex,
    parse_entries,
)
from mekref.adapters.megamek.design import UnitDesign, UnitFileError
from mekref.adapters.megamek.unit_file import MAX_UNIT_FILE_BYTES, is_unit_file, parse_unit_file

#: Bump when CatalogEntry or the reader changes what it extracts: old caches are rebuilt.
CACHE_FORMAT = 1

#: ``progress(done, total, current file)``; called once per file, cached or parsed.
Progress = Callable[[int, int, str], None]


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
