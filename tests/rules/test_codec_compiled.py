"""The compiled codec: the streamed hash is the hash of the one canonical text, and encoders
and decoders chosen once per type give what the value says (including the awkward types)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from enum import Enum, IntEnum, StrEnum
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mekref.rules.codec import (
    OMIT_IF_DEFAULT,
    CodecError,
    canonical_chunks,
    canonical_json,
    content_hash,
    decode,
    to_jsonable,
)


class Colour(StrEnum):
    RED = "red"


class Size(IntEnum):
    BIG = 3


class Mode(Enum):
    WALK = "walk"


@dataclass(frozen=True)
class Leaf:
    name: str
    n: int
    share: Fraction
    colour: Colour
    size: Size
    mode: Mode
    tags: frozenset[str] = frozenset()
    note: str | None = None


@dataclass(frozen=True)
class Tree:
    leaves: tuple[Leaf, ...]
    by_name: dict[str, Leaf] = field(default_factory=dict)
    children: tuple[Tree, ...] = ()


def _leaf(i: int) -> Leaf:
    return Leaf(
        name=f"ü{i}", n=i, share=Fraction(i, 7), colour=Colour.RED, size=Size.BIG,
        mode=Mode.WALK, tags=frozenset({f"t{i}", "a", "é"}), note=None if i % 2 else "x",
    )  # fmt: skip


def test_a_tree_round_trips_and_encodes_as_before() -> None:
    leaves = tuple(_leaf(i) for i in range(4))
    tree = Tree(leaves, {leaf.name: leaf for leaf in leaves}, (Tree(leaves[:1]),))
    data = to_jsonable(tree)
    assert data["leaves"][1] == {
        "name": "ü1", "n": 1, "share": "1/7", "colour": "red", "size": 3, "mode": "walk",
        "tags": ["a", "t1", "é"], "note": None,
    }  # fmt: skip
    assert decode(Tree, json.loads(canonical_json(tree))) == tree


def test_errors_are_the_same() -> None:
    with pytest.raises(CodecError, match="floats are not allowed"):
        to_jsonable({"a": 1.5})
    with pytest.raises(CodecError, match="mapping keys must be str"):
        to_jsonable({1: 2})
    with pytest.raises(CodecError, match=r"cannot encode (Posix|Windows)Path"):
        to_jsonable(Path("x"))
    with pytest.raises(CodecError, match="expected int, got True"):
        decode(Leaf, {**to_jsonable(_leaf(1)), "n": True})
    with pytest.raises(CodecError, match=r"unknown fields for Leaf: \['extra'\]"):
        decode(Leaf, {**to_jsonable(_leaf(1)), "extra": 1})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=30,
)


@given(json_values)
def test_the_streamed_text_is_the_canonical_text(value: object) -> None:
    text = canonical_json(value)
    assert "".join(canonical_chunks(value)) == text
    assert content_hash(value) == hashlib.sha256(text.encode()).hexdigest()


def test_the_streamed_hash_of_a_dataclass_tree_is_the_hash_of_its_text() -> None:
    leaves = tuple(_leaf(i) for i in range(6))
    tree = Tree(leaves, {leaf.name: leaf for leaf in leaves}, (Tree(leaves[:2]), Tree(())))
    for depth in range(6):
        assert "".join(canonical_chunks(tree, depth)) == canonical_json(tree)
    assert content_hash(tree) == hashlib.sha256(canonical_json(tree).encode()).hexdigest()


@dataclass(frozen=True)
class Grown:
    """A value that gained fields after values were recorded (OMIT_IF_DEFAULT)."""

    name: str
    note: str = field(default="", metadata=OMIT_IF_DEFAULT)
    tags: tuple[str, ...] = field(default_factory=tuple, metadata=OMIT_IF_DEFAULT)


def test_fields_left_out_at_their_default_are_left_out_of_the_streamed_text_too() -> None:
    # The state hash is streamed: it must skip exactly what to_jsonable skips, or every
    # campaign's hash would move when a field is added.
    plain, grown = Grown("a"), Grown("a", note="n", tags=("x",))
    assert to_jsonable(plain) == {"name": "a"}
    assert to_jsonable(grown) == {"name": "a", "note": "n", "tags": ["x"]}
    for value in (plain, grown, {"k": (plain, grown)}):
        for depth in range(4):
            assert "".join(canonical_chunks(value, depth)) == canonical_json(value)
