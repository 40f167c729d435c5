"""``copy_with`` builds what ``dataclasses.replace`` builds, and takes its shortcut only for
plain frozen dataclasses (the folds' states); any other class goes through ``replace``."""

from __future__ import annotations

import sys
from dataclasses import InitVar, dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from mekref.rules.codec import canonical_json
from mekref.rules.kernel import RuleSet
from mekref.rules.record_type import Record, record
from mekref.rules.records import _plain_fields, built_from, copy_with
from mekref.rules.registry import all_rulesets
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.state import StrategicState

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "turn"))  # the turn tests' world
world = pytest.importorskip("turn_world")


@dataclass(frozen=True)
class Plain:
    name: str
    tags: tuple[str, ...] = ()
    seen: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Normalised:
    name: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", self.name.strip().lower())


@dataclass(frozen=True)
class Derived:
    name: str
    size: int = field(init=False, default=0)


@dataclass(frozen=True)
class WithInitVar:
    name: str
    scale: InitVar[int] = 1


@dataclass(frozen=True, slots=True)
class Slotted:
    name: str
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, init=False)
class OwnInit:
    name: str

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name.upper())


def test_a_plain_class_is_copied_field_by_field() -> None:
    before = Plain("a", ("x",), {"k": 1})
    after = copy_with(before, tags=("y",))
    assert after == replace(before, tags=("y",)) == Plain("a", ("y",), {"k": 1})
    assert after is not before and after.seen is before.seen  # a shallow copy, as replace's
    assert before.tags == ("x",)  # the original is untouched
    assert _plain_fields(Plain) == {"name", "tags", "seen"}


@pytest.mark.parametrize("cls", [Normalised, Derived, WithInitVar, Slotted, OwnInit])
def test_any_other_class_goes_through_replace(cls: type) -> None:
    assert _plain_fields(cls) == frozenset()
    before = cls("  Ab ") if cls is not Derived else cls("x")
    assert copy_with(before, name=" Cd") == replace(before, name=" Cd")
    # Normalised: __post_init__ ran; OwnInit: its own __init__ did.
    assert copy_with(Normalised("x"), name=" Cd").name == "cd"


def test_an_unknown_field_is_refused_as_replace_refuses_it() -> None:
    with pytest.raises(TypeError):
        copy_with(Plain("a"), colour="red")
    with pytest.raises(TypeError):
        replace(Plain("a"), colour="red")  # type: ignore[call-arg]


def test_the_campaign_states_copy_as_replace_copies_them() -> None:
    """The states every fold copies take the shortcut, and it changes nothing: the same
    fields, the same canonical JSON (so the same state hash)."""
    state: CampaignState = world.started()
    s = state.strategic
    assert s is not None
    assert _plain_fields(CampaignState) and _plain_fields(StrategicState)
    for obj, changes in (
        (state, {"events_applied": 99, "rolls_used": 7}),
        (s, {"orders": {"loyalist": ()}, "day": 3}),
        (state, {"strategic": replace(s, day=2)}),
    ):
        fast, slow = copy_with(obj, **changes), replace(obj, **changes)
        assert fast == slow
        assert canonical_json(fast) == canonical_json(slow)


@pytest.mark.parametrize("game", all_rulesets(), ids=lambda g: g.name)
def test_every_rule_sets_state_copies_as_replace_copies_it(game: RuleSet[Any]) -> None:
    """Every rule set's state, as the kernel's fold copies it after each event."""
    state = game.initial_state()
    fast = copy_with(state, events_applied=5, rolls_used=2)
    assert fast == replace(state, events_applied=5, rolls_used=2)
    assert _plain_fields(type(state))  # each takes the shortcut


def test_built_from_copies_the_fields_both_classes_have() -> None:
    @record
    class Asked(Record):
        who: str
        count: int
        note: str = ""

    @record
    class Kept(Record):
        who: str
        count: int
        extra: int = 0

    asked = Asked(who="a", count=2, note="n")
    assert built_from(Kept, asked) == Kept(who="a", count=2)
    assert built_from(Kept, asked, count=5, extra=1) == Kept(who="a", count=5, extra=1)
