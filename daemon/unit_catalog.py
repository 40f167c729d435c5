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
import operator
import os
import zipfile
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.catalog import (
    CatalogEntry,
    CatalogError,
    CatalogIndex,
    EntryTable,
    FileRow,
    index_keys,
    parse_entries,
)
from mekref.adapters.megamek.design import UnitDesign, UnitFileError
from mekref.adapters.megamek.unit_file import (
    MAX_UNIT_FILE_BYTES,
    UNIT_FILE_SUFFIXES,
    is_unit_file,
    parse_unit_file,
)
from mekref.daemon.watch.reading import NotRegularFile, open_regular, read_named

#: Bump when CatalogEntry, the cache's layout or what the reader extracts changes: a cache of
#: another format is rebuilt, never read. 2: one compact row per file and per entry. 3: the
#: look-up keys too, and a checksum of the rest.
CACHE_FORMAT = 3

#: ``progress(done, total, current file)``; called once per file, cached or parsed.
Progress = Callable[[int, int, str], None]

#: The cache file starts with this and its checksum, the CRC-32 of what follows it, as 8 hex
#: digits: a cache whose rows were altered is rebuilt, so that its rows can be trusted as
#: written (they become entries only when a look-up finds them, long after the scan).
_PREFIX = b'{"format": %d, "crc": "' % CACHE_FORMAT
_BODY_AT = len(_PREFIX) + len(b'01234567", ')


def _cache_path(cache_dir: Path, root: Path) -> Path:
    digest = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:16]
    return cache_dir / f"unit-catalog-{digest}.json"


def _candidates(root: str) -> list[tuple[str, str, int, int]]:
    """Unit files and zip archives under root, as (POSIX relative path, full path, size,
    mtime_ns; -1 and -1 when it cannot be read): a folder's files by name, then its
    sub-folders by name, as ``os.walk`` with sorted lists gives them (symbolic links to folders
    listed, not followed; unreadable folders skipped). Plain strings throughout: a data folder
    holds tens of thousands of files."""
    found: list[tuple[str, str, int, int]] = []
    _walk(root, "", found)
    return found


def _walk(folder: str, prefix: str, found: list[tuple[str, str, int, int]]) -> None:
    try:
        with os.scandir(folder) as listing:
            items = sorted(listing, key=_NAME)
    except OSError:
        return
    dirs: list[os.DirEntry[str]] = []
    for item in items:
        name = item.name
        try:
            is_dir = item.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if not item.is_symlink():
                dirs.append(item)
        # is_unit_file(), cheaper for the usual case (asked of every file of a data folder):
        # a unit file's suffix has four characters.
        elif (
            len(name) > 4 and name[-4] == "." and name[-4:].casefold() in UNIT_FILE_SUFFIXES
        ) or _other_candidate(name):
            try:
                # The directory entry stats its file in C, without a path built in Python.
                stat = item.stat()
            except OSError:
                found.append((prefix + name, item.path, -1, -1))
            else:
                found.append((prefix + name, item.path, stat.st_size, stat.st_mtime_ns))
    for item in dirs:
        _walk(item.path, f"{prefix}{item.name}/", found)


_NAME = operator.attrgetter("name")


def _other_candidate(name: str) -> bool:
    return is_unit_file(name) or name.casefold().endswith(".zip")


def _read_cache(cache_file: Path, root: str) -> dict[str, Any] | None:
    """The cache, or nothing when it is missing, unreadable, altered, of another format or of
    another folder."""
    try:
        raw = cache_file.read_bytes()
        if not raw.startswith(_PREFIX):
            return None
        if zlib.crc32(memoryview(raw)[_BODY_AT:]) != int(raw[len(_PREFIX) : _BODY_AT - 3], 16):
            return None
        cache = json.loads(raw)
    except (OSError, ValueError):
        return None
    if not isinstance(cache, dict) or cache.get("root") != root:
        return None
    parts = (cache.get("files"), cache.get("uuid"), cache.get("name"))
    return cache if all(isinstance(part, dict) for part in parts) else None


def _write_cache(cache_file: Path, table: EntryTable) -> None:
    body = json.dumps(
        {"root": table.root, "files": table.files, "uuid": table.by_uuid, "name": table.by_name},
        ensure_ascii=False,
    ).encode("utf-8")[1:]  # the rest of the object after its "{"
    head = _PREFIX + b'%08x", ' % zlib.crc32(body)
    cache_file.parent.mkdir(parents=True, exist_ok=True)
    # Write beside, then rename: a crash mid-write never leaves a half cache behind.
    tmp = cache_file.with_name(cache_file.name + ".tmp")
    tmp.write_bytes(head + body)
    os.replace(tmp, cache_file)


_Parsed = tuple[tuple[CatalogEntry, ...], tuple[CatalogError, ...]]


def _parse_loose(root: str, rel: str, full: str, size: int) -> _Parsed:
    if size > MAX_UNIT_FILE_BYTES:
        return (), (CatalogError(root, rel, None, f"{size} bytes is too big for a unit file"),)
    try:
        data = read_named(Path(full), MAX_UNIT_FILE_BYTES)
        return (parse_entries(data, os.path.basename(full), root, rel),), ()
    except NotRegularFile as exc:
        return (), (CatalogError(root, rel, None, exc.refusal()),)
    except (UnitFileError, OSError) as exc:
        return (), (CatalogError(root, rel, None, str(exc)),)


def _parse_zip(root: str, rel: str, full: str) -> _Parsed:
    entries: list[CatalogEntry] = []
    errors: list[CatalogError] = []
    try:
        # Opened as a regular file first: a FIFO or a link to a device named *.zip would
        # block or never end inside ZipFile.
        with (
            open_regular(Path(full), follow_links=True) as handle,
            zipfile.ZipFile(handle) as archive,
        ):
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
    except NotRegularFile as exc:
        errors.append(CatalogError(root, rel, None, exc.refusal()))
    except (zipfile.BadZipFile, OSError, RuntimeError) as exc:
        errors.append(CatalogError(root, rel, None, f"cannot read zip archive: {exc}"))
    return tuple(entries), tuple(errors)


def scan_folder(
    root: Path, cache_dir: Path | None = None, progress: Progress | None = None
) -> CatalogIndex:
    """Index every unit file under ``root`` (recursively, zip archives included).

    With ``cache_dir``, reuses the cached entries of files whose size and mtime are unchanged,
    re-parses the rest, forgets removed files and writes the cache back. When nothing changed,
    the cache's look-up keys are used as they are: its entries are made when looked up."""
    root = root.resolve()
    if not root.is_dir():
        raise NotADirectoryError(f"{root}: not a folder")
    root_text = str(root)
    cache_file = _cache_path(cache_dir, root) if cache_dir is not None else None
    cache = _read_cache(cache_file, root_text) if cache_file is not None else None
    cached: dict[str, Any] = cache["files"] if cache is not None else {}
    files = _candidates(root_text)
    rows: dict[str, FileRow] = {}
    for done, (rel, full, size, mtime_ns) in enumerate(files, start=1):
        row: Any = cached.get(rel)
        # The cached row stands for the file while its size and time are the same.
        if type(row) is list and len(row) == 4 and row[0] == size >= 0 and row[1] == mtime_ns:
            rows[rel] = row
        else:
            rows[rel] = _file_row(root_text, rel, full, size, mtime_ns)
            cache = None  # the cached keys no longer hold
        if progress is not None:
            progress(done, len(files), rel)
    if cache is not None and len(rows) == len(cached):
        # Nothing changed: the cached keys hold for these rows (same files, same order).
        return CatalogIndex([EntryTable(root_text, rows, cache["uuid"], cache["name"])])
    table = EntryTable(root_text, rows, *index_keys(r for file in rows.values() for r in file[2]))
    if cache_file is not None:
        _write_cache(cache_file, table)
    return CatalogIndex([table])


def _file_row(root: str, rel: str, full: str, size: int, mtime_ns: int) -> FileRow:
    """A file parsed again (or one that cannot be read): its cache row."""
    if size < 0:  # the walk could not stat it: say why (a row that never matches a file)
        try:
            os.stat(full)
            message = "the file changed while the folder was read"
        except OSError as exc:
            message = str(exc)
        return [-1, -1, [], [[None, message]]]
    if rel.casefold().endswith(".zip"):
        found: _Parsed = _parse_zip(root, rel, full)
    else:
        found = _parse_loose(root, rel, full, size)
    entries, errors = found
    return [size, mtime_ns, [e.to_row() for e in entries], [[e.member, e.message] for e in errors]]


def build_catalog(
    roots: Sequence[Path], cache_dir: Path | None = None, progress: Progress | None = None
) -> CatalogIndex:
    """One index over several folders, e.g. the user's MegaMek ``data/mekfiles`` and the
    bundled fixtures. Each folder keeps its own cache file."""
    tables: list[EntryTable] = []
    for root in roots:
        tables.extend(scan_folder(root, cache_dir, progress).tables)
    return CatalogIndex(tables)


def read_entry_bytes(entry: CatalogEntry) -> bytes:
    full = Path(entry.root) / entry.path
    if entry.member is None:
        return read_named(full, MAX_UNIT_FILE_BYTES)
    with open_regular(full, follow_links=True) as handle, zipfile.ZipFile(handle) as archive:
        info = archive.getinfo(entry.member)
        if info.file_size > MAX_UNIT_FILE_BYTES:
            raise UnitFileError(entry.member, f"{info.file_size} bytes is too big for a unit file")
        return archive.read(info)


def load_design(entry: CatalogEntry) -> UnitDesign:
    """The full design behind a catalog entry, parsed from its file again (the cache keeps
    only what lookups need)."""
    name = entry.member if entry.member is not None else entry.path
    return parse_unit_file(read_entry_bytes(entry), name)
