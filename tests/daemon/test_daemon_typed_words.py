"""How a typed command's words become its fields (``mekref.daemon.typed_commands``)."""

from __future__ import annotations

import pytest

from mekref.daemon.typed_commands import TypedCommandError, parse_words, split_line


def test_values_are_json_when_they_read_as_json_and_text_otherwise() -> None:
    data = parse_words(["T", "n=3", "on=true", "none=null", "name=Kira Vance", 'l=["a"]'], "x")
    assert data == {"type": "T", "n": 3, "on": True, "none": None, "name": "Kira Vance",
                    "l": ["a"]}  # fmt: skip


def test_dotted_keys_fill_nested_objects_and_numbered_lists_in_the_numbers_order() -> None:
    words = ["T", "r.20.id=b", "r.10.id=a", "r.10.kills.1.c=small", "m.x=1"]
    assert parse_words(words, "x") == {
        "type": "T",
        "r": [{"id": "a", "kills": [{"c": "small"}]}, {"id": "b"}],
        "m": {"x": 1},
    }


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["a=1"], "starts with its type"),
        (["T", "a"], "write key=value"),
        (["T", "a=1", "a=2"], "'a' is given twice"),
        (["T", "a=1", "a.b=2"], "already has a value of its own"),
        (["T", "a..b=1"], "an empty name between dots"),
    ],
)
def test_words_that_cannot_be_read_say_what_to_write(words: list[str], said: str) -> None:
    with pytest.raises(TypedCommandError, match=said):
        parse_words(words, "x")


def test_a_script_line_is_split_as_a_shell_would() -> None:
    assert split_line('HRAddPilot name="Kira Vance" pilot_id=mw1', "x") == [
        "HRAddPilot", "name=Kira Vance", "pilot_id=mw1",
    ]  # fmt: skip
    with pytest.raises(TypedCommandError, match="cannot split"):
        split_line('T name="open', "x")


def test_names_inside_nested_objects_are_matched_without_case_and_never_refused() -> None:
    """A retreat's path and a placement's Region take the campaign's Regions in any case; a
    nested name matching none stays as written (it may be one the command creates), while a
    nested field that does not exist is refused with the object's fields."""
    from mekref.daemon.typed_commands import match_names
    from mekref.rules.registry import ruleset

    game = ruleset("succession_wars")
    names = {"region": ("Skye", "Tharkad"), "path": ("Skye", "Tharkad"), "leader": ("k-a",)}
    data = parse_words(["swreportbattle", "actor=Marik", "house=Marik", "region=tharkad",
                        "retreats.1.jumpship=js", "retreats.1.PATH.1=SKYE",
                        "retreats.1.PATH.2=Atlantis"], "x")  # fmt: skip
    out = match_names(game, data, "x", names)
    assert out["region"] == "Tharkad"
    assert out["retreats"] == [{"jumpship": "js", "path": ["Skye", "Atlantis"]}]
    attack = parse_words(["SWAttack", "actor=a", "house=a", "region=Skye",
                          "leaders.1.leader=K-A", "leaders.1.group.1=u"], "x")  # fmt: skip
    assert match_names(game, attack, "x", names)["leaders"] == [{"leader": "k-a", "group": ["u"]}]
    wrong = parse_words(["SWRetreat", "actor=a", "house=a", "region=Skye",
                         "moves.1.jumps=js"], "x")  # fmt: skip
    with pytest.raises(TypedCommandError, match=r"moves\.1 has no field 'jumps'; its fields: "):
        match_names(game, wrong, "x", names)
    twice = parse_words(["SWRetreat", "actor=a", "house=a", "region=Skye",
                         "moves.1.PATH.1=Skye", "moves.1.path.2=Tharkad"], "x")  # fmt: skip
    with pytest.raises(TypedCommandError, match=r"moves\.1\.path is given under two spellings"):
        match_names(game, twice, "x", names)
