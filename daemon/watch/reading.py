"""Reading a user's file safely: regular files only, never blocking, with a size cap.

A watched folder is writable by others. A FIFO named ``*.mul`` would block ``open()``, a link to
``/dev/zero`` would never end and a link to ``/etc/passwd`` would be read and copied into
quarantine; so anything but a regular file is refused before it is opened, and the open itself
neither follows a link nor blocks (:func:`read_capped`, the battle-file pipeline).

A file a person names on the command line (``mekref inspect``, ``mekref force import``, a units
folder) may be a link to the real file, so its link is followed, but what it leads to must be a
regular file too, and no more than the cap is ever read (:func:`read_named`). Both open through
:func:`open_regular`: checked before the open, opened without blocking, checked again on the
open descriptor (a FIFO swapped in between the two is caught by the second look).
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO


@dataclass(frozen=True)
class FileBytes:
    """A file's bytes as judged, its identity and its size."""

    data: bytes | None  # None: over the cap, not kept in memory
    sha256: str
    size: int


class NotRegularFile(OSError):
    """The path is a link, a FIFO, a device or a socket: mekref reads regular files only.

    ``str()`` is what it is ("a FIFO (named pipe)"); :meth:`refusal` the one line to show."""

    def refusal(self) -> str:
        return f"not read: {self}; mekref reads regular files only"


class FileTooLarge(OSError):
    """A named file over the size cap: nothing past the cap was read."""

    def __init__(self, size: int, max_bytes: int) -> None:
        self.size = size
        self.max_bytes = max_bytes
        super().__init__(f"the file is {size:,} bytes, over the {max_bytes:,}-byte limit")


_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO that slipped past the check never blocks open()
    | getattr(os, "O_BINARY", 0)
)
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)  # a link swapped in after the check is refused


def open_regular(path: Path, *, follow_links: bool = False) -> BinaryIO:
    """Open ``path`` for reading if it is a regular file, else raise :class:`NotRegularFile`
    without having blocked or read anything.

    ``follow_links`` False refuses a link itself (a watched folder); True judges what the link
    leads to (a file a person named)."""
    before = os.stat(path) if follow_links else os.lstat(path)
    if not stat.S_ISREG(before.st_mode):
        raise NotRegularFile(_kind(before.st_mode, linked=follow_links and _is_link(path)))
    fd = os.open(path, _OPEN_FLAGS | (0 if follow_links else _NO_FOLLOW))
    handle = os.fdopen(fd, "rb")
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        handle.close()
        raise NotRegularFile(_kind(mode, linked=follow_links and _is_link(path)))
    return handle


def read_capped(path: Path, max_bytes: int) -> FileBytes:
    """Read up to ``max_bytes`` (+1 to tell "over") of a regular file; hash the whole file.

    Links are not followed and anything but a regular file is refused before it is opened
    (a FIFO would block, ``/dev/zero`` would never end, a link could point anywhere)."""
    with open_regular(path) as f:
        digest = hashlib.sha256()
        head = _read_up_to(f, max_bytes + 1)
        digest.update(head)
        size = len(head)
        if size <= max_bytes:
            return FileBytes(head, digest.hexdigest(), size)
        # Over the cap: keep hashing (identity) but do not hold the bytes. A regular file
        # ends; a quarantine record names it by this sha256.
        while chunk := f.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return FileBytes(None, digest.hexdigest(), size)


def _read_up_to(f: BinaryIO, limit: int) -> bytes:
    """``f.read(limit)``, without making a buffer of ``limit`` bytes for a small file (a read
    of the 32 MB cap cost a battle record four times what reading it does): the file's size,
    and a byte more to see it end, then the rest up to ``limit`` if it grew meanwhile."""
    want = min(limit, os.fstat(f.fileno()).st_size + 1)
    head = f.read(want)
    if len(head) < want or want == limit:
        return head
    return head + f.read(limit - want)


def read_named(path: Path, max_bytes: int) -> bytes:
    """The bytes of a file a person named: its link followed, a regular file, at most
    ``max_bytes`` read (:class:`FileTooLarge` past that, :class:`NotRegularFile`, or the
    ``OSError`` of a missing or unreadable file)."""
    with open_regular(path, follow_links=True) as f:
        size = os.fstat(f.fileno()).st_size
        if size > max_bytes:
            raise FileTooLarge(size, max_bytes)
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:  # it grew while it was read
        raise FileTooLarge(len(data), max_bytes)
    return data


def _is_link(path: Path) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def _kind(mode: int, *, linked: bool = False) -> str:
    kind = _what(mode)
    return f"{kind}, where its link leads" if linked else kind


def _what(mode: int) -> str:
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
