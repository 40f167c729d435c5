"""Named, seeded, replayable dice without the ``random`` module.

Every roll is a pure function of (campaign seed, roll index, roll name, die number): the bytes
``sha256(seed \\x1f index \\x1f name \\x1f die \\x1f attempt)``. Why not ``random.Random(seed)``:
its algorithm is an implementation detail of CPython (seeding from str changed in 3.2, and
``randrange`` changed in 3.12), and replaying it needs the whole generator state. With a hash, the
roll index and name stored in each event are enough to re-derive and audit every face on any
Python, in any language. Faces are drawn by rejection sampling so each face is exactly equally
likely (a bare ``digest % 6`` would favour low faces very slightly).

The index lives in the campaign state (``rolls_used``): evolve advances it past the rolls an
event records, so the next command's dice start where the log left off.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from mekref.rules.record_type import Record, record

_SEP = "\x1f"  # unit separator: cannot be confused with text inside a roll name


@record
class Roll(Record):
    """One named roll of ``len(faces)`` dice, as stored in the event that used it."""

    name: str
    index: int
    sides: int
    faces: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.faces)


def _face(seed: str, index: int, name: str, die: int, sides: int) -> int:
    limit = (1 << 64) - ((1 << 64) % sides)  # largest multiple of sides below 2**64
    attempt = 0
    while True:
        text = _SEP.join((seed, str(index), name, str(die), str(attempt)))
        digest = hashlib.sha256(text.encode("utf-8")).digest()
        for offset in range(0, 32, 8):
            value = int.from_bytes(digest[offset : offset + 8], "big")
            if value < limit:
                return value % sides + 1
        attempt += 1  # astronomically rare: all four 64-bit words fell in the rejected tail


@dataclass(frozen=True)
class Dice:
    """A cursor into a campaign's roll sequence; rolling returns the roll and the next cursor."""

    seed: str
    next_index: int = 0

    def roll(self, name: str, count: int = 1, sides: int = 6) -> tuple[Roll, Dice]:
        if count < 1 or sides < 2:
            raise ValueError("a roll needs at least one die of at least two sides")
        if not name:
            raise ValueError("every roll is named, so the log says what it was for")
        faces = tuple(_face(self.seed, self.next_index, name, d, sides) for d in range(count))
        roll = Roll(name=name, index=self.next_index, sides=sides, faces=faces)
        return roll, Dice(self.seed, self.next_index + 1)


def verify(seed: str, roll: Roll) -> bool:
    """Re-derive a stored roll: True when the faces are what the seed says they must be."""
    expected = tuple(
        _face(seed, roll.index, roll.name, d, roll.sides) for d in range(len(roll.faces))
    )
    return expected == roll.faces


def require_cursor(dice: Dice, seed: str, rolls_used: int, what: str = "campaign") -> None:
    """Refuse dice that are not at ``what``'s next roll: a stale cursor would silently reuse or
    skip rolls, and a replay would then diverge."""
    if dice.seed != seed or dice.next_index != rolls_used:
        raise ValueError(f"dice are not positioned at this {what}'s next roll")
