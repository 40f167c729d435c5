"""Keep a copy of a bad file, with a ``.reason.txt`` a person can act on.

The original is never modified, moved or deleted: it may be MegaMek's only copy, and the folder
may be read-only. The copy is written from the bytes that were read (so it is exactly what was
judged, even if the original changes later) and named after the original; a different file
with the same name gets the first 12 hex digits of its sha256 added.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path


@dataclass(frozen=True)
class Reason:
    what: str  # what is wrong
    where: str  # path[:line[:column]] or a description of where
    todo: str  # what to do next

    def one_line(self) -> str:
        return f"{self.where}: {self.what} ({self.todo})"


def _free_name(folder: Path, name: str, sha256: str, data: bytes | None) -> Path:
    target = folder / name
    if not target.exists():
        return target
    if data is not None and target.stat().st_size == len(data) and target.read_bytes() == data:
        return target  # the same bytes quarantined again: refresh in place
    stem, dot, suffix = name.rpartition(".")
    return folder / (f"{stem}.{sha256[:12]}.{suffix}" if dot else f"{name}.{sha256[:12]}")


def _write_atomic(target: Path, data: bytes) -> None:
    # Written under a dot-name and renamed: a watcher of the quarantine folder (or a person)
    # never sees half a copy.
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".mekref-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def reason_text(
    reason: Reason, *, original: str, sha256: str, when: datetime, copy: Path | None
) -> str:
    return (
        f"What:    {reason.what}\n"
        f"Where:   {reason.where}\n"
        f"To do:   {reason.todo}\n"
        f"\n"
        f"File:    {original}\n"
        f"sha256:  {sha256}\n"
        f"Copy:    {copy if copy is not None else 'none (the file is over the size limit)'}\n"
        f"When:    {when.isoformat()}\n"
        f"\n"
        f"The original file was left where it was, unchanged. mekref will not try these exact\n"
        f"bytes again until it is restarted; a corrected file (different bytes) is picked up\n"
        f"as soon as it lands in a watched folder.\n"
    )


def quarantine_copy(
    folder: Path,
    name: str,
    sha256: str,
    reason: Reason,
    *,
    data: bytes | None,
    original: str,
    when: datetime,
) -> Path:
    """Write the judged bytes into ``folder`` as ``name`` (or a free variant) with
    ``<name>.reason.txt`` beside it; return the copy's path.

    ``data`` None (a file over the size limit): only the reason is written, and its path is
    returned; copying such a file would fill the disk each time it is judged again.
    """
    folder.mkdir(parents=True, exist_ok=True)
    target = _free_name(folder, _safe_name(name), sha256, data)
    if data is not None:
        _write_atomic(target, data)
    text = reason_text(
        reason,
        original=original,
        sha256=sha256,
        when=when,
        copy=target if data is not None else None,
    )
    note = target.with_name(target.name + ".reason.txt")
    # Callers pass names already escaped; a stray surrogate still must not lose the record.
    _write_atomic(note, text.encode("utf-8", "backslashreplace"))
    return target if data is not None else note


#: The escapes ``display_text`` writes for bytes that are not UTF-8 (``\xff``).
_ESCAPE = re.compile(r"\\x([0-9a-fA-F]{2})")


def _safe_name(name: str) -> str:
    """A file name that stays inside the quarantine folder whatever the caller sent.

    An escaped byte (``\\xff``) becomes ``%ff``: its backslash is not a folder separator."""
    base = _ESCAPE.sub(r"%\1", name).replace("\\", "/").rsplit("/", 1)[-1].strip()
    return base if base not in ("", ".", "..") and not base.startswith(".") else "upload.mul"
