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
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.catalog import (
    CatalogEntry,
    CatalogError,
    CatalogIndex,
    parse_entries,
)
from mekref.adapters.megamek.design import UnitDesign, UnitFileError
from mekref.adapters.megamek.unit_file import MAX_UNIT_FILE_BYTES, is_unit_file, parse_unit_file

#: Bump when CatalogEntry, the cache's layout or what the reader extracts changes: a cache of
#: another format is rebuilt, never read. 2: one compact row per file and per entry.
CACHE_FORMAT = 2

#: ``progress(done, total, current file)``; called once per file, cached or parsed.
Progress = Callable[[int, int, str], None]

#: One file in the cache: ``[size, mtime_ns, [entry rows], [[member, message], ...]]``.
_Row = list[Any]


def _cache_path(cache_dir: Path, root: Path) -> Path:
    digest = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:16]
    return cache_dir / f"unit-catalog-{digest}.json"


def _candidates(root: str) -> list[tuple[str, str]]:
    """Unit files and zip archives under root, as (POSIX relative path, full path): a folder's
    files by name, then its sub-folders by name, as ``os.walk`` with sorted lists gives them
    (symbolic links to folders listed, not followed; unreadable folders skipped). Plain
    strings throughout: a data folder holds tens of thousands of files."""
    found: list[tuple[str, str]] = []
    _walk(root, "", found)
    return found


def _walk(folder: str, prefix: str, found: list[tuple[str, str]]) -> None:
    files: list[tuple[str, str]] = []
    dirs: list[tuple[str, str]] = []
    try:
        with os.scandir(folder) as listing:
            for item in listing:
                try:
                    is_dir = item.is_dir()
                except OSError:
                    is_dir = False
                if not is_dir:
                    files.append((item.name, item.path))
                elif not item.is_symlink():
                    dirs.append((item.name, item.path))
    except OSError:
        return
    files.sort()
    for name, full in files:
        if is_unit_file(name) or name.casefold().endswith(".zip"):
            found.append((prefix + name, full))
    dirs.sort()
    for name, full in dirs:
        _walk(full, f"{prefix}{name}/", found)


def _read_cache(cache_file: Path, root: str) -> dict[str, _Row]:
    """The cached rows by relative path, or nothing when the cache is missing, unreadable,
    of another format or of another folder. Each row is checked when it is used."""
    try:
        raw = json.loads(cache_file.read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(raw, dict) or raw.get("format") != CACHE_FORMAT or raw.get("root") != root:
        return {}
    files = raw.get("files")
    return files if isinstance(files, dict) else {}


def _write_cache(cache_file: Path, root: str, rows: dict[str, _Row]) -> None:
    payload = {"format": CACHE_FORMAT, "root": root, "files": dict(sorted(rows.items()))}
    cache_file.parent.mkdir(parents=True, exist_ok=True)
    # Write beside, then rename: a crash mid-write never leaves a half cache behind.
    tmp = cache_file.with_name(cache_file.name + ".tmp")
    tmp.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, cache_file)


_Parsed = tuple[tuple[CatalogEntry, ...], tuple[CatalogError, ...]]


def _parse_loose(root: str, rel: str, full: str, size: int) -> _Parsed:
    if size > MAX_UNIT_FILE_BYTES:
        return (), (CatalogError(root, rel, None, f"{size} bytes is too big for a unit file"),)
    try:
        with open(full, "rb") as handle:
            data = handle.read()
        return (parse_entries(data, os.path.basename(full), root, rel),), ()
    except (UnitFileError, OSError) as exc:
        return (), (CatalogError(root, rel, None, str(exc)),)


def _parse_zip(root: str, rel: str, full: str) -> _Parsed:
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


def _from_cache(row: object, size: int, mtime_ns: int, root: str, rel: str) -> _Parsed | None:
    """The cached entries and errors of a file whose size and mtime are unchanged, or None:
    parse it again (changed, not cached, or a row this version cannot read)."""
    if type(row) is not list or len(row) != 4 or row[0] != size or row[1] != mtime_ns:
        return None
    try:
        entries = tuple([CatalogEntry.from_row(e, root, rel) for e in row[2]])
        if not row[3]:
            return entries, ()
        return entries, tuple([CatalogError(root, rel, m, str(text)) for m, text in row[3]])
    except (KeyError, TypeError, ValueError):
        return None


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
    files = _candidates(root_text)
    rows: dict[str, _Row] = {}
    entries: list[CatalogEntry] = []
    errors: list[CatalogError] = []
    changed = False
    for done, (rel, full) in enumerate(files, start=1):
        try:
            stat = os.stat(full)
        except OSError as exc:
            found: _Parsed = ((), (CatalogError(root_text, rel, None, str(exc)),))
            size, mtime_ns = -1, -1
            changed = True
        else:
            size, mtime_ns = stat.st_size, stat.st_mtime_ns
            row = cached.get(rel)
            reused = None if row is None else _from_cache(row, size, mtime_ns, root_text, rel)
            if row is not None and reused is not None:
                found = reused
                rows[rel] = row
            elif rel.casefold().endswith(".zip"):
                found = _parse_zip(root_text, rel, full)
                changed = True
            else:
                found = _parse_loose(root_text, rel, full, size)
                changed = True
        if rel not in rows:
            rows[rel] = [
                size,
                mtime_ns,
                [e.to_row() for e in found[0]],
                [[e.member, e.message] for e in found[1]],
            ]
        entries.extend(found[0])
        errors.extend(found[1])
        if progress is not None:
            progress(done, len(files), rel)
    changed = changed or rows.keys() != cached.keys()
    if cache_file is not None and changed:
        _write_cache(cache_file, root_text, rows)
    return CatalogIndex(tuple(entries), tuple(errors))


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
