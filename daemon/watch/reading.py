"""Reading a battle file safely: regular files only, never through a link, with a size cap.

A watched folder is writable by others. A FIFO named ``*.mul`` would block ``open()``, a link to
``/dev/zero`` would never end and a link to ``/etc/passwd`` would be read and copied into
quarantine; so anything but a regular file is refused before it is opened, and the open itself
neither follows a link nor blocks.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class FileBytes:
    """A file's bytes as judged, its identity and its size."""

    data: bytes | None  # None: over the cap, not kept in memory
    sha256: str
    size: int


class NotRegularFile(OSError):
    """The path is a link, a FIFO, a device or a socket: mekref reads regular files only."""


_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO that slipped past the check never blocks open()
    | getattr(os, "O_NOFOLLOW", 0)  # a link swapped in after the check is refused
    | getattr(os, "O_BINARY", 0)
)


def read_capped(path: Path, max_bytes: int) -> FileBytes:
    """Read up to ``max_bytes`` (+1 to tell "over") of a regular file; hash the whole file.

    Links are not followed and anything but a regular file is refused before it is opened
    (a FIFO would block, ``/dev/zero`` would never end, a link could point anywhere)."""
    before = os.lstat(path)
    if not stat.S_ISREG(before.st_mode):
        raise NotRegularFile(_kind(before.st_mode))
    fd = os.open(path, _OPEN_FLAGS)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise NotRegularFile(_kind(os.fstat(f.fileno()).st_mode))
        digest = hashlib.sha256()
        head = f.read(max_bytes + 1)
        digest.update(head)
        size = len(head)
        if size <= max_bytes:
            return FileBytes(head, digest.hexdigest(), size)
        # Over the cap: keep hashing (identity) but do not hold the bytes.
        while chunk := f.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return FileBytes(None, digest.hexdigest(), size)


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"
