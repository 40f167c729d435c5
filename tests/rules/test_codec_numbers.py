"""Exact numbers in hand-written command files: 12, 12.5 and "25/2" all read as Fractions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

import pytest

from mekref.rules.codec import CodecError, from_jsonable


@dataclass(frozen=True, kw_only=True)
class At:
    x: Fraction


@pytest.mark.parametrize(
    ("written", "exact"),
    [
        (12, Fraction(12)),
        (12.5, Fraction(25, 2)),
        ("25/2", Fraction(25, 2)),
        ("0.1", Fraction(1, 10)),
        (0.1, Fraction(1, 10)),
    ],
)
def test_a_fraction_reads_from_a_number_or_text(written: object, exact: Fraction) -> None:
    assert from_jsonable(At, {"x": written}) == At(x=exact)


@pytest.mark.parametrize("written", [True, None, "twelve", "1/0", [1]])
def test_anything_else_is_refused_with_an_example(written: object) -> None:
    with pytest.raises(CodecError, match=re.escape("such as 12, 12.5 or '25/2'")):
        from_jsonable(At, {"x": written})
