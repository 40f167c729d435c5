"""The set-up file's ``[[satellite]]`` tables (ruling T-OR1 in docs/turn.md): each becomes the
``PlaceSatellite`` of ``mekref satellite place``, with its checks and its ``SatellitePlaced``.

L270: "Satellites – Unmanned surveillance satellites in Low planetary orbit (LPO) can monitor
3 adjacent sectors".
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from test_turn_orbit import DS, _world
from turn_world import run

from mekref.daemon.tripwire.setup_satellites import SatelliteEntryError, satellite_commands
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.turn import orbit_events
from mekref.rules.tripwire.turn.orbit import PlaceSatellite

EXAMPLE = Path(__file__).parents[2] / "examples" / "strategic-satellites.toml"


def test_the_example_places_two_satellites_as_satellite_place_does() -> None:
    """L270: satellites in orbit, placed from the file: the same command and event as
    ``satellite place``, the entry's referee note or one naming the file and the entry."""
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    north, track = satellite_commands(data, "strategic.toml")
    assert isinstance(north, PlaceSatellite)
    assert (north.satellite_id, north.owner, north.orbit, north.hex) == (
        "sat-north", "loyalist", "geostationary", "0508",
    )  # fmt: skip
    assert (north.note.referee, north.note.reason) == ("Ann", "the loyalist planetary network")
    assert (track.note.referee, track.note.reason) == (
        "set-up file", "[[satellite]] entry 2 (id 'sat-track') of strategic.toml",
    )  # fmt: skip
    state, events = run(_world((DS,)), north, track)
    placed = [e for e in events if isinstance(e, orbit_events.SatellitePlaced)]
    assert [p.satellite.satellite_id for p in placed] == ["sat-north", "sat-track"]
    assert state.strategic is not None and set(state.strategic.satellites) == {
        "sat-north", "sat-track",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ({"id": "s", "owner": "rebel", "orbit": "lpo"}, "entry 1 (id 's'): hex: missing"),
        ({"id": "s", "owner": "rebel", "orbit": "lpo", "hex": 1612}, "hex: 1612 is not text"),
        ({"owner": "rebel", "orbit": "lpo", "hex": "1612"}, "entry 1: id: missing"),
        ({"id": "s", "owner": "rebel", "orbit": "lpo", "hex": "1612", "alt": "x"}, "alt: not a"),
    ],
)
def test_a_malformed_entry_names_the_entry_and_the_field(
    entry: dict[str, object], said: str
) -> None:
    with pytest.raises(SatelliteEntryError) as bad:
        satellite_commands({"satellite": [entry]}, "strategic.toml")
    assert said in str(bad.value)


def test_the_checks_are_those_of_satellite_place() -> None:
    """An unknown owner or orbit, or a hex off the map, is refused by ``PlaceSatellite``'s own
    checks, naming the field."""
    world = _world((DS,))
    for key, value, field in (("owner", "pirates", "owner"), ("orbit", "leo", "orbit"),
                              ("hex", "9999", "hex")):  # fmt: skip
        entry = {"id": "s", "owner": "rebel", "orbit": "lpo", "hex": "1612", key: value}
        (cmd,) = satellite_commands({"satellite": [entry]}, "strategic.toml")
        with pytest.raises(Refusal) as refused:
            run(world, cmd)
        assert refused.value.message.startswith(f"{field}:")
