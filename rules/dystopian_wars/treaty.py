"""1.1 Fleets: the Bangkok Naval Limitation Treaty on a starting roster (lines 76-84)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from mekref.rules.dystopian_wars.model import Category, Squadron
from mekref.rules.dystopian_wars.table_loader import DystopianTables, load_tables


def same_nation(given: str, named: str) -> bool:
    """Ruling DW-33: a nation typed by people matches whatever its case, spacing or a leading
    "the" ('kingdom of britannia', 'The Kingdom of  Britannia'): the treaty's guardian generators
    must not hang on a capital letter."""

    def plain(text: str) -> str:
        words = text.casefold().split()
        return " ".join(words[1:] if words[:1] == ["the"] else words)

    return plain(given) == plain(named)


def roster_points(squadrons: Iterable[Squadron]) -> Fraction:
    """Points the roster spends: the one free Tiny Flyer wing costs nothing (line 84)."""
    return sum((s.cost for s in squadrons if not s.free_tiny_flyer_wing), Fraction(0))


def treaty_violations(
    nation: str,
    squadrons: tuple[Squadron, ...],
    *,
    dual_shields: bool = False,
    tables: DystopianTables | None = None,
) -> tuple[str, ...]:
    """Every way the roster breaks the treaty, each quoting the line it breaks; empty: legal."""
    t = tables or load_tables()
    out: list[str] = []
    limit = t.rule("fleet_points").int("points")
    total = roster_points(squadrons)
    if total > limit:
        out.append(f"{total} points is over the {limit}-point roster (line 76)")
    naval = roster_points(s for s in squadrons if s.category is Category.NAVAL)
    naval_min = t.rule("treaty_naval").int("min_points")
    if naval < naval_min:
        out.append(f"the Naval core is {naval} points, under {naval_min} (line 78)")
    # Ruling DW-16: "50% of the points total" is half the 1500-point roster, whatever is spent.
    big = roster_points(s for s in squadrons if s.vessel_class.large_or_massive)
    big_max = Fraction(limit * t.rule("treaty_large").int("max_percent"), 100)
    if big > big_max:
        out.append(f"{big} points of Large or Massive vessels is over {big_max} (line 80)")
    shields = t.rule("treaty_shields")
    kob = same_nation(nation, shields.text("kob_nation"))
    # The Scientist's Eyrie: "You may take Dual Shield Generators" (line 122).
    max_shields = shields.int("shields_per_ship") * (2 if dual_shields else 1)
    max_guardians = shields.int("guardians_kob") if kob else 0
    for s in squadrons:
        if s.shields_per_ship > max_shields:
            out.append(f"{s.squadron_id}: {s.shields_per_ship} shield generators a ship (line 82)")
        if s.guardians_per_ship > max_guardians:
            out.append(
                f"{s.squadron_id}: guardian generators only for {shields.text('kob_nation')}"
            )
    free = sum(1 for s in squadrons if s.free_tiny_flyer_wing)
    if free > t.rule("treaty_tiny_flyers").int("free_wings"):
        out.append(f"{free} free Wings of Tiny Flyers; only one is free (line 84)")
    flagships = sum(1 for s in squadrons if s.flagship)
    if flagships != 1:
        # Ruling DW-17: the commodore's ship is the fleet's one flagship.
        out.append(f"a fleet names exactly one flagship (the Commodore's ship), not {flagships}")
    return tuple(out)
