"""Currencies in C-bills and the exchange fluctuation (lines 221-234)."""

from __future__ import annotations

from fractions import Fraction

from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules.table_loader import HouseTables, load_tables


def rate(currency: str, tables: HouseTables | None = None) -> Fraction:
    t = tables or load_tables()
    return t.choose("currency", "currency", currency, "currency").fraction("c_bills")


def currency_name(currency: str, tables: HouseTables | None = None) -> str:
    """The table's spelling of a currency named without case ("l-bill" is "L-Bill")."""
    return (
        (tables or load_tables()).choose("currency", "currency", currency, "currency").text("key")
    )


def convert(
    amount: Fraction | int, source: str, target: str, tables: HouseTables | None = None
) -> Fraction:
    """Exact: through the C-bill value of each (no rounding until money is paid)."""
    return Fraction(amount) * rate(source, tables) / rate(target, tables)


def fluctuate(
    dice: Dice, currency: str, tables: HouseTables | None = None
) -> tuple[Fraction, tuple[Roll, ...], Dice]:
    """Ruling HOUSE-16: the 1d6 table after the currencies (lines 230-234, "Lower by 2d6%") moves
    a currency's C-bill value; "3.4" is read as 3-4. Returns the new value."""
    t = tables or load_tables()
    base = rate(currency, t)
    roll, dice = dice.roll(f"exchange fluctuation, {currency}")
    row = t.band("currency", "fluctuation", roll.total)
    rolls = [roll]
    percent = 0
    if row.int("direction"):
        pct, dice = dice.roll(f"exchange percent, {currency}", row.int("percent_dice"))
        rolls.append(pct)
        percent = row.int("direction") * pct.total
    return base * (100 + percent) / 100, tuple(rolls), dice
