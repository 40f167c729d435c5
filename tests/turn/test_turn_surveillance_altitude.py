"""The altitude row of a surveillance roll is where the formation flies (ruling T-S3 in
docs/turn.md).

L243: "To make a surveillance test roll a Piloting Skill Roll with the following modifiers."
L245: "| Altitude 1 (Nape of Earth) | +4 (or -2 if flying directly over) |"
L246: "| Altitude 2-5 | +0 |"
L247: "| Altitude 5-10 | +2 |"
L248: "| High Altitude Map (Row 1-4) | +2 (per row) |"
L249: "| Geostationary Orbit | +6 |"
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from console_script import mekref
from ginestra_cli import day_zero, ok

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.turn.orders import FormationOrder
from mekref.rules.tripwire.turn.surveillance import flight_modifier


def _order(action: str = "overflight", **params: str) -> FormationOrder:
    return FormationOrder(
        formation_id="air", action=action, target="1310", params=tuple(sorted(params.items()))
    )


@pytest.mark.parametrize(
    ("params", "modifier"),
    [
        ({}, 0),  # L246: no altitude named flies at 2-5
        ({"conditions": "altitude_1"}, 4),  # L245
        ({"conditions": "altitude_5_10,recon_camera"}, 0),  # L247 +2, L252 -2
        ({"altitude": "high", "row": "1"}, 2),  # L248
        ({"altitude": "high", "row": "3"}, 6),  # L248: per row
        ({"altitude": "high", "row": "4", "conditions": "high_altitude_per_row"}, 8),
    ],
)
def test_l248_an_overflight_takes_the_row_it_flies_at(
    params: dict[str, str], modifier: int
) -> None:
    got = flight_modifier(_order(**params), from_space=False, cloud=0, field="params")
    assert got == modifier


def test_l249_from_orbit_the_geostationary_row_always_counts() -> None:
    """A ship's surveillance is +6 whatever else it names (before, naming only an imager
    dropped the orbit's +6)."""
    plain = _order("surveillance")
    imager = _order("surveillance", conditions="satellite_imager")
    assert flight_modifier(plain, from_space=True, cloud=2, field="params") == 8
    assert flight_modifier(imager, from_space=True, cloud=0, field="params") == 2


@pytest.mark.parametrize(
    ("space", "params", "says"),
    [
        (False, {"altitude": "high"}, "params.row: altitude=high needs the row"),
        (False, {"altitude": "high", "row": "5"}, "not '5'"),
        (False, {"row": "2"}, "needs altitude=high"),
        (False, {"conditions": "altitude_1,altitude_5_10"}, "one altitude"),
        (False, {"conditions": "geostationary"}, "geostationary is an orbit"),
        (False, {"altitude": "high", "row": "1", "conditions": "altitude_1"}, "not at altitude_1"),
        (False, {"conditions": "high_altitude_per_row"}, "needs altitude=high and row"),
        (True, {"conditions": "altitude_1"}, "surveys from its orbit"),
    ],
)
def test_ruling_t_s3_an_altitude_the_formation_cannot_be_at_is_refused(
    space: bool, params: dict[str, str], says: str
) -> None:
    with pytest.raises(Refusal, match=re.escape(says)):
        flight_modifier(_order(**params), from_space=space, cloud=0, field="params")


def _target(tmp_path: Path, *params: str) -> int:
    """The Rapier's surveillance target on day 1 over 0810 with these ``--param`` values."""
    db = day_zero(tmp_path)
    extra = [a for p in params for a in ("--param", f"l-air:{p}")]
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "l-air:overflight::0810", *extra)  # fmt: skip
    said = ok("turn", "resolve", "--db", db, "--day", "1")
    found = re.search(r"l-air: surveillance roll \d+ against (-?\d+)", said)
    assert found, said
    return int(found.group(1))


def test_the_high_altitude_row_raises_the_target_through_the_console_script(
    tmp_path: Path,
) -> None:
    """L248 "+2 (per row)": on row 3 of the high altitude map the target is 6 above the same
    flight at altitude 2-5 (L246, +0); without its row the order is refused (T-O3)."""
    low = _target(tmp_path / "low")
    high = _target(tmp_path / "high", "altitude=high", "row=3")
    assert high - low == 6
    db = day_zero(tmp_path / "refused")
    done = mekref("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                  "--order", "l-air:overflight::0810",
                  "--param", "l-air:altitude=high")  # fmt: skip
    assert done.returncode == 3 and "params.row: altitude=high needs the row" in done.stderr
