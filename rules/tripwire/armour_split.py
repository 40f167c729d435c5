"""How a location's armour splits between front and rear (ruling T-X2).

The campaign keeps each location's armour as one figure, front and rear together
(:class:`~mekref.rules.tripwire.repair.LocationDamage` ``armor_max``/``armor_now``), and the
rear's share beside it when the file said it (``rear_max``/``rear_now``). What changes the
total later keeps that share right with :func:`with_armor`; the writers read it back with
:func:`front_and_rear`, and take a loss from the front first where no share is kept.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.tripwire.repair import LocationDamage

__all__ = ["front_and_rear", "with_armor"]


def with_armor(loc: LocationDamage, now: int, *, rear_first: bool = False) -> LocationDamage:
    """``loc`` with ``now`` points of armour in all, its split kept where that can be known.

    Whole armour fills the rear too; none empties it; a loss comes off the front first, then
    the rear (T-X2), or the rear first for a hit from behind (``rear_first``). Armour partly
    restored says nothing of where it went: the split is dropped, and the writers fall back on
    T-X2 for the total.
    """
    if loc.rear_max is None or loc.rear_now is None or now == loc.armor_now:
        return replace(loc, armor_now=now)
    if now >= loc.armor_max:
        rear = loc.rear_max
    elif now <= 0:
        rear = 0
    elif now < loc.armor_now:
        lost = loc.armor_now - now
        first = loc.rear_now if rear_first else loc.armor_now - loc.rear_now
        rest = max(0, lost - first)
        rear = loc.rear_now - (lost - rest) if rear_first else loc.rear_now - rest
    else:
        return replace(loc, armor_now=now, rear_max=None, rear_now=None)
    return replace(loc, armor_now=now, rear_now=rear)


def front_and_rear(
    loc: LocationDamage, front_max: int, rear_max: int | None
) -> tuple[int, int | None]:
    """The front's and the rear's armour now on a design with these maxima.

    With the split kept, each side loses what it lost; without it (older records, a split the
    design cannot hold) the loss comes off the front first, then the rear (T-X2).
    """
    if rear_max is not None and loc.rear_max is not None and loc.rear_now is not None:
        front_lost = (loc.armor_max - loc.rear_max) - (loc.armor_now - loc.rear_now)
        rear_lost = loc.rear_max - loc.rear_now
        return max(0, front_max - front_lost), max(0, rear_max - rear_lost)
    loss = loc.armor_max - loc.armor_now
    rear = None if rear_max is None else max(0, rear_max - max(0, loss - front_max))
    return max(0, front_max - loss), rear
