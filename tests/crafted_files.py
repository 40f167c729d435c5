"""Crafted battle files, generated (never stored): each costs a reader that trusts its input
minutes or gigabytes, and each must be refused in one line at a bounded cost.

Savegames are gzipped as they are generated (the XML of a bomb is never held whole here, so a
test process stays small and its children's memory is their own). Each case names the words
its one-line reason must hold and whether it is a refusal (exit 4) or an unreadable file
(exit 3).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

#: A game at its end, as MegaMek 0.43 writes it, around the crafted part.
GAME_HEAD = b"<megamek.common.Game>\n  <phase>PHASE_VICTORY</phase>\n  <entities>\n"
GAME_TAIL = b"\n  </entities>\n</megamek.common.Game>\n"
UNIT_HEAD = b'<unit version="0.49.19">\n'
UNIT_TAIL = b"\n</unit>\n"

_LAUGHS = (
    b'<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(
        b'<!ENTITY lol%d "%s">' % (n, (b"&lol%d;" % (n - 1) if n > 1 else b"&lol;") * 10)
        for n in range(1, 10)
    )
    + b"]>\n"
)
_XXE = b'<!DOCTYPE g [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'


@dataclass(frozen=True)
class Crafted:
    name: str
    #: Writes the file's bytes. Made when a test first reads ``data``, not when the tests are
    #: collected: the savegames are about 100 MB of XML to compress, and each module that
    #: lists the cases would otherwise compress them all again in every test process.
    make: Callable[[], bytes] = field(repr=False, compare=False)
    #: Words the one-line reason holds.
    words: str
    #: A refusal (exit 4, quarantined at once) rather than an unreadable file (exit 3).
    refused: bool = True

    @property
    def data(self) -> bytes:
        """The file's bytes, made once per test process."""
        if self.name not in _MADE:
            _MADE[self.name] = self.make()
        return _MADE[self.name]


#: The bytes of each case by name, as made in this process.
_MADE: dict[str, bytes] = {}


def gzipped(parts: Iterable[tuple[bytes, int]]) -> bytes:
    """The gzip of each ``(bytes, times)`` repeated in turn, compressed as it is produced."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    out: list[bytes] = []
    for piece, times in parts:
        per_block = max(1, (1 << 20) // len(piece))  # about a megabyte at a time
        done = 0
        while done < times:
            n = min(per_block, times - done)
            out.append(packer.compress(piece * n))
            done += n
    out.append(packer.flush())
    return b"".join(out)


def _game(*middle: tuple[bytes, int]) -> bytes:
    return gzipped([(GAME_HEAD, 1), *middle, (GAME_TAIL, 1)])


def corpus() -> list[Crafted]:
    return [
        # 30,000 references to one element of 10,000 children: once minutes of walking.
        Crafted(
            "fan-out.sav.gz",
            lambda: _game(
                (b"<t>", 1), (b"<x/>", 10_000), (b"</t>", 1), (b'<r reference="../t"/>', 30_000)
            ),
            "XStream references resolved",
        ),
        # References of 65,001 characters that climb and descend 13,000 times each.
        Crafted(
            "long-paths.sav.gz",
            lambda: _game((b"<t/>", 1), (b'<r reference="' + b"../t/" * 13_000 + b'."/>', 20)),
            "XStream reference steps walked",
        ),
        Crafted(
            "deep.sav.gz",
            lambda: _game((b"<a>", 100_000), (b"</a>", 100_000)),
            "elements nest deeper than 32 levels",
        ),
        # 65 KB that unzip to 67 MB: 16.8 million elements.
        Crafted("bomb.sav.gz", lambda: _game((b"<a/>", 16_800_000)), "unzips to more than"),
        # Under the unzip cap, 8 million elements: refused while parsing, not after.
        Crafted(
            "element-bomb.sav.gz",
            lambda: _game((b"<a/>", 8_000_000)),
            "document has at least 250,001 elements",
        ),
        Crafted(
            "laughs.sav.gz",
            lambda: gzipped([(_LAUGHS, 1), (GAME_HEAD, 1), (b"<r>&lol9;</r>", 1), (GAME_TAIL, 1)]),
            "DTDs and entities are refused",
        ),
        Crafted(
            "xxe.sav.gz",
            lambda: gzipped([(_XXE, 1), (GAME_HEAD, 1), (b"<r>&x;</r>", 1), (GAME_TAIL, 1)]),
            "DTDs and entities are refused",
        ),
        # libxml2 words this error over two lines.
        Crafted(
            "nul.sav.gz",
            lambda: _game((b"<r>\x00</r>", 1)),
            "Char 0x0 out of allowed range",
            refused=False,
        ),
        Crafted(
            "laughs.mul",
            lambda: _LAUGHS + UNIT_HEAD + b"<entity chassis='&lol9;' model='A'/>" + UNIT_TAIL,
            "DTDs and entities are refused",
        ),
        Crafted(
            "xxe.mul",
            lambda: _XXE + UNIT_HEAD + b"<entity chassis='&x;' model='A'/>" + UNIT_TAIL,
            "DTDs and entities are refused",
        ),
        Crafted(
            "deep.mul",
            lambda: UNIT_HEAD + b"<a>" * 100_000 + b"</a>" * 100_000 + UNIT_TAIL,
            "elements nest more than 256 levels deep",
        ),
        Crafted(
            "nul.mul",
            lambda: UNIT_HEAD + b"<entity chassis='A' model='B'>\x00</entity>" + UNIT_TAIL,
            "Char 0x0 out of allowed range",
            refused=False,
        ),
    ]
