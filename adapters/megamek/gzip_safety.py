"""Unzip untrusted gzip bytes without letting them hurt us.

A savegame is gzipped XML: a few dozen kilobytes on disk, about twenty times that unzipped. A
hostile file can be a "gzip bomb" (a few kilobytes that unzip to gigabytes), so the output is
capped while it is produced (zlib's ``max_length``), never after. A truncated file (MegaMek still
writing it, a cut download) is an error, never a shorter document; so is anything after the
one gzip member MegaMek writes.
"""

from __future__ import annotations

import zlib

from mekref.adapters.megamek.errors import FilePosition, MulReadError

GZIP_MAGIC = b"\x1f\x8b"
#: A real savegame is under a megabyte zipped; 32 MiB is far above any and far below trouble.
DEFAULT_MAX_COMPRESSED = 32 * 1024 * 1024
#: A savegame's XML: the real 4-unit game is 1.3 MB (23,573 elements, 54 bytes each), so the
#: element limit (250,000) stops typical XML near 14 MB; 32 MiB leaves room for longer texts
#: and keeps what a small crafted file can cost (its bytes plus the texts of its tree) under
#: 100 MB and a fraction of a second.
DEFAULT_MAX_UNZIPPED = 32 * 1024 * 1024


def is_gzip(data: bytes) -> bool:
    return data[:2] == GZIP_MAGIC


def gunzip_capped(
    data: bytes,
    path: str,
    *,
    max_compressed: int = DEFAULT_MAX_COMPRESSED,
    max_unzipped: int = DEFAULT_MAX_UNZIPPED,
) -> bytes:
    """The unzipped bytes of one gzip member, or :class:`MulReadError` saying what is wrong."""
    where = FilePosition(path)
    if len(data) > max_compressed:
        raise MulReadError(
            where,
            f"file is {len(data):,} bytes, over the {max_compressed:,}-byte limit for a savegame",
            "this is not a MegaMek savegame; raise the limit only if you trust the file",
            refused=True,
        )
    if not data:
        raise MulReadError(
            where, "file is empty", "MegaMek may still be writing it; wait until it is complete"
        )
    if not is_gzip(data):
        raise MulReadError(
            where,
            "not a gzip file (a .sav.gz savegame starts with the gzip signature)",
            "save the game again from MegaMek (/save NAME) or pass the real savegame",
        )
    inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
    try:
        out = inflater.decompress(data, max_unzipped + 1)
    except zlib.error as exc:
        raise MulReadError(
            where,
            f"damaged gzip data: {exc}",
            "the file is corrupt or was cut short; copy it again from MegaMek's savegames folder",
        ) from None
    if len(out) > max_unzipped or inflater.unconsumed_tail:
        raise MulReadError(
            where,
            f"unzips to more than the {max_unzipped:,}-byte limit (a gzip bomb, or not a savegame)",
            "MegaMek savegames unzip to a few megabytes: the file was crafted or is not a savegame",
            refused=True,
        )
    if not inflater.eof:
        raise MulReadError(
            where,
            "the gzip data stops before its end: the file is truncated",
            "MegaMek may still be writing it; wait until it is complete, or save the game again",
        )
    if inflater.unused_data.strip(b"\x00"):
        raise MulReadError(
            where,
            f"{len(inflater.unused_data):,} bytes after the end of the gzip data",
            "MegaMek writes one gzip stream; the file was altered or two files were joined",
            refused=True,
        )
    return out
