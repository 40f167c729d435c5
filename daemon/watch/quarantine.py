"""Keep a copy of a bad file, with a ``.reason.txt`` a person can act on.

The original is never modified, moved or deleted: it may be MegaMek's only copy, and the folder
may be read-only. The copy is written from the bytes that were read (so it is exactly what was
judged, even if the original changes later) and named after the original; a different file
with the same name gets the first 12 hex digits of its sha256 added.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import BinaryIO


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


def _write_atomic(target: Path, data: bytes | BinaryIO) -> None:
    # Written under a dot-name and renamed: a watcher of the quarantine folder (or a person)
    # never sees half a copy.
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".mekref-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            if isinstance(data, bytes):
                out.write(data)
            else:
                shutil.copyfileobj(data, out)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def reason_text(reason: Reason, *, original: str, sha256: str, when: datetime, copy: Path) -> str:
    return (
        f"What:    {reason.what}\n"
        f"Where:   {reason.where}\n"
        f"To do:   {reason.todo}\n"
        f"\n"
        f"File:    {original}\n"
        f"sha256:  {sha256}\n"
        f"Copy:    {copy}\n"
        f"When:    {when.isoformat()}\n"
        f"\n"
        f"The original file was left where it was, unchanged. mekref will not try these exact\n"
        f"bytes again until it is restarted; a corrected file (different bytes) is picked up\n"
        f"as soon as it lands in a watched folder.\n"
    )


def quarantine_copy(
    folder: Path,
    original: Path,
    sha256: str,
    reason: Reason,
    *,
    data: bytes | None,
    when: datetime,
) -> Path:
    """Copy the judged bytes into ``folder`` with ``<name>.reason.txt``; return the copy's path.

    ``data`` is None when the file was too large to hold in memory: the copy is then streamed
    from the original.
    """
    folder.mkdir(parents=True, exist_ok=True)
    target = _free_name(folder, original.name, sha256, data)
    if data is None:
        with original.open("rb") as src:
            _write_atomic(target, src)
    else:
        _write_atomic(target, data)
    text = reason_text(reason, original=str(original), sha256=sha256, when=when, copy=target)
    _write_atomic(target.with_name(target.name + ".reason.txt"), text.encode("utf-8"))
    return target
